"""The browser set-up itself: Debian's Chromium starts under Playwright and renders a page."""

from __future__ import annotations

from pathlib import Path

import pytest

PAGE = "data:text/html,<title>smoke</title><h1 id='h'>Clue Notebook</h1>"


@pytest.mark.browser
def test_chromium_renders_a_page(
    chromium_executable: str, chromium_args: list[str], artifacts_dir: Path
) -> None:
    from playwright.sync_api import sync_playwright

    shot = artifacts_dir / "smoke-data-url.png"
    shot.unlink(missing_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(PAGE)
            assert page.title() == "smoke"
            assert page.inner_text("#h") == "Clue Notebook"
            page.screenshot(path=shot)
        finally:
            browser.close()
    assert shot.read_bytes().startswith(b"\x89PNG")
