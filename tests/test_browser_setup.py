"""The new-game set-up in a real headless Chromium at phone size (390x844), on a busy phone:
the code of the select boxes and number inputs arrives late (held back here until the test lets
it through), while the player types the names and taps cards without waiting. Screenshot:
``test-artifacts/setup-late-inputs.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.phone import PHONE, after, new_page, settle, shot

pytestmark = pytest.mark.browser


def test_bug_hand_sizes_drawn_late_are_still_the_dealt_ones(
    app_url: str, chromium_executable: str, chromium_args: list[str], artifacts_dir: Path
) -> None:
    """CI, Finnish: names typed, cards tapped quickly under load, then every hand 0 and all 18
    cards face up, and Start refused. Inputs drawn after a later run than the one that set
    their value showed their own default (0) and sent it back; the Cards box, the same way,
    chose its first option (the Japanese classic box)."""
    from playwright.sync_api import expect, sync_playwright

    held: list[Any] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser, viewport=PHONE)
        for code in ("Selectbox", "NumberInput"):
            page.route(f"**/{code}.*.js", lambda route: held.append(route))
        page.goto(app_url)
        expect(page.get_by_text("New game", exact=True)).to_be_visible(timeout=30000)
        settle(page, drawn=False)  # the inputs' code is held back: grey placeholders
        players = page.get_by_label("Players in seating order (clockwise)")
        players.fill("Ann\nBob\nCat\nDan")
        after(page, lambda: players.press("Control+Enter"), drawn=False)
        for _wait in range(100):  # the browser asks for the inputs' code: not given yet
            if len(held) == 2:
                break
            page.wait_for_timeout(200)
        assert len(held) == 2

        def tap(card: str, drawn: bool = True) -> None:
            chip = page.locator('[data-testid="stButtonGroup"] button', has_text=card).first
            after(page, chip.click, drawn=drawn)

        tap("Miss Scarlet", drawn=False)  # a run that sends the inputs again, before they are drawn
        while held:
            held.pop().continue_()
        sizes = page.locator('[data-testid="stNumberInput"] input')
        expect(sizes).to_have_count(4, timeout=20000)
        tap("Rope")  # sends what the late inputs show
        expect(page.get_by_role("combobox", name="Cards")).to_have_value("Clue (US, classic box)")
        for card in ("Kitchen", "Hall", "Study"):
            tap(card)
        expect(page.locator('[data-testid="stExpander"] summary')).to_contain_text(
            "Hand sizes: Ann 5, Bob 5, Cat 4, Dan 4")
        assert [sizes.nth(i).input_value() for i in range(4)] == ["5", "5", "4", "4"]
        expect(page.get_by_text("face-up")).to_have_count(0)  # the classic deal: none
        shot(page, artifacts_dir / "setup-late-inputs.png")
        page.get_by_role("button", name="Start game").click()
        expect(page.get_by_text("envelopes are still possible")).to_be_visible(timeout=20000)
        browser.close()
