""""Suggest for me" in a real Chromium at phone size (390x844): turned on on my own turn, it
shows its advice; after Dan's turn is recorded the form is mine again and the advice of the new
log comes (the Record run shows it, or "Weighing suggestions…" until its fragment finds the
advisor made beside the runs: `notebook_app.screens.turn.log_advisor`), whole on the screen,
nothing wider than the phone. A screenshot goes to ``test-artifacts/advice-after-record.png``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solver.game import Suggestion
from tests.phone import PHONE, WORKING, after, new_page, settle, shot, tap
from tests.test_app import ASKED, ASKED_ME, classic
from tests.test_browser_i18n import OVERFLOW
from tests.test_browser_table import open_game

pytestmark = pytest.mark.browser

ADVICE = re.compile(r"^Ask .+, .+, .+: ")
"""The advice's first line: "Ask <suspect>, <weapon>, <room>: <why>"."""


def test_suggest_for_me_after_a_record_on_a_phone(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str],
    artifacts_dir: Path,
) -> None:
    from playwright.sync_api import expect, sync_playwright

    log = classic(ASKED, ASKED_ME, Suggestion("Cat", ("Colonel Mustard", "Wrench", "Library"),
                                              refuted_by="Dan"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser, viewport=PHONE)
        open_game(page, app_url, app_db, log)
        captions = page.locator('[data-testid="stCaptionContainer"]')
        advice = captions.filter(has_text=ADVICE)
        tap(page, "Who suggested", "Ann")  # my turn: the toggle shows
        after(page, page.get_by_text("Suggest for me", exact=True).click)
        expect(advice).to_have_count(1)
        tap(page, "Who suggested", "Dan")  # no advice on another's turn
        expect(advice).to_have_count(0)
        for label, card in (("Suspect", "Professor Plum"), ("Weapon", "Candlestick"),
                            ("Room", "Conservatory"), ("Who showed a card", "Bob")):
            tap(page, label, card)
        after(page, page.get_by_role("button", name="Record", exact=True).click, drawn=False)
        weighing = captions.filter(has=page.locator(WORKING), has_text="Weighing suggestions…")
        assert advice.or_(weighing).count() == 1  # the advice, or its note in its place (one
        # query: the note may give way to the advice between two)
        settle(page)  # (the note's fragment finds the advisor made, the page drawn again)
        assert page.get_by_role("button", name="Undo #4: Dan", exact=False).count() == 1
        expect(advice).to_have_count(1)
        expect(advice).to_be_in_viewport()
        assert page.evaluate(OVERFLOW) == []
        shot(page, artifacts_dir / "advice-after-record.png")
        browser.close()
