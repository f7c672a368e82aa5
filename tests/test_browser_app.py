"""The app in a real headless Chromium at phone size (390x844): set up a game, record three
turns, watch the grid change, reload, and find the game intact. Screenshots of every screen go
to ``test-artifacts/`` as ``app-<step>.png``."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser


def test_phone_game_survives_reload(
    app_url: str, chromium_executable: str, chromium_args: list[str], artifacts_dir: Path
) -> None:
    from playwright.sync_api import Page, expect, sync_playwright

    def shot(page: Page, name: str) -> None:
        """The whole screen: the page scrolls inside Streamlit's main block, so grow the
        viewport to its height for the picture."""
        settle(page)
        height = page.evaluate(
            "document.querySelector('[data-testid=\"stMain\"]').scrollHeight"
        )
        page.set_viewport_size({"width": 390, "height": max(844, int(height))})
        page.wait_for_timeout(300)
        page.screenshot(path=artifacts_dir / f"app-{name}.png")
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_timeout(200)

    def settle(page: Page) -> None:
        page.wait_for_timeout(300)
        expect(page.locator('[data-testid="stStatusWidget"]')).to_have_count(0, timeout=20000)
        expect(page.locator('[data-stale="true"]')).to_have_count(0, timeout=20000)

    def verdict(page: Page) -> str:
        return page.locator('[data-testid="stAlert"]').first.inner_text()

    def tap(page: Page, label: str, option: str) -> None:
        """One tap on a chip, unless it is already chosen."""
        chip = page.get_by_role("radiogroup", name=label).get_by_role("radio", name=option,
                                                                      exact=True)
        if chip.get_attribute("aria-checked") != "true":
            chip.click()
            settle(page)

    def record(page: Page, by: str, cards: tuple[str, str, str], shown_by: str) -> None:
        tap(page, "Who suggested", by)
        for label, card in zip(("Suspect", "Weapon", "Room"), cards, strict=True):
            tap(page, label, card)
        tap(page, "Who showed a card", shown_by)
        page.get_by_role("button", name="Record", exact=True).click()
        settle(page)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(app_url)
        expect(page.get_by_text("New game")).to_be_visible(timeout=30000)
        shot(page, "1-home")

        players = page.get_by_label("Players in seating order (clockwise)")
        players.fill("Ann\nBob\nCat\nDan")
        players.press("Control+Enter")
        settle(page)
        for card in ("Miss Scarlet", "Rope", "Kitchen", "Hall", "Study"):
            page.locator('[data-testid="stButtonGroup"] button', has_text=card).first.click()
            settle(page)
        shot(page, "2-setup")
        page.get_by_role("button", name="Start game").click()
        settle(page)
        expect(page.get_by_text("possibilities left")).to_be_visible()
        assert "game=" in page.url
        before = verdict(page)
        shot(page, "3-turn")

        page.locator('[data-testid="stButtonGroup"] button', has_text="Grid").click()
        settle(page)
        grid_before = page.locator('[data-testid="stDataFrame"]').screenshot()
        shot(page, "4-grid-empty")

        page.locator('[data-testid="stButtonGroup"] button', has_text="Turn").click()
        settle(page)
        record(page, "Ann", ("Mrs. White", "Knife", "Lounge"), "Bob")
        expect(page.get_by_text("Which card did Bob show you?")).to_be_visible()
        page.get_by_role("button", name="Knife", exact=True).click()
        settle(page)
        record(page, "Bob", ("Mr. Green", "Candlestick", "Library"), "Nobody")
        shot(page, "5-after-two")
        record(page, "Cat", ("Miss Scarlet", "Rope", "Kitchen"), "Ann")
        shot(page, "6-show-prompt")
        expect(page.get_by_text("Which card did you show?")).to_be_visible()
        page.get_by_role("button", name="Rope").click()
        settle(page)
        after = verdict(page)
        assert after != before

        page.locator('[data-testid="stButtonGroup"] button', has_text="Grid").click()
        settle(page)
        grid_after = page.locator('[data-testid="stDataFrame"]').screenshot()
        assert grid_after != grid_before
        shot(page, "7-grid-after")

        page.locator('[data-testid="stButtonGroup"] button', has_text="Log").click()
        settle(page)
        expect(page.get_by_text("#3", exact=False)).to_be_visible()
        shot(page, "8-log")

        page.reload()
        expect(page.get_by_text("possibilities left")).to_be_visible(timeout=30000)
        settle(page)
        assert verdict(page) == after
        page.locator('[data-testid="stButtonGroup"] button', has_text="Log").click()
        settle(page)
        for text in ("Ann: Mrs. White, Knife, Lounge → Bob showed Knife",
                     "Bob: Mr. Green, Candlestick, Library",
                     "Cat: Miss Scarlet, Rope, Kitchen → Ann showed Rope"):
            expect(page.get_by_text(text, exact=False)).to_be_visible()
        shot(page, "9-after-reload")

        page.locator('[data-testid="stButtonGroup"] button', has_text="Review").click()
        settle(page)
        shot(page, "10-review")
        browser.close()
