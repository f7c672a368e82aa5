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

TOP = ("e => e.getBoundingClientRect().top "
       "+ document.querySelector('[data-testid=stMain]').scrollTop")
"""Where an element starts on the page, however far the page is scrolled."""
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


@pytest.mark.slow
def test_the_race_line_keeps_its_place_while_weighed_again_on_a_phone(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str],
    artifacts_dir: Path,
) -> None:
    """A 12-player forum play-through at 390 px: with "Suggest for me" on, every tap under
    "Asked" had the header's race line weighed again for the question tapped (about a second),
    and meanwhile its four lines gave way to one "Weighing who may already know…": the form
    below jumped 90-200 px up and back. The lines drawn for the last question now stay,
    greyed, with the hourglass, until the new ones are ready: the form stays where it was. A
    screenshot of a line being weighed again goes to ``test-artifacts/race-line-weighed.png``."""
    from playwright.sync_api import sync_playwright

    from tests.strategies import forum_game

    log = forum_game(12, 0).upto(15)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser, viewport=PHONE)
        open_game(page, app_url, app_db, log)
        tap(page, "Who asked", "P1")
        after(page, page.get_by_text("Suggest for me", exact=True).click)
        form = page.get_by_role("radiogroup", name="Who asked", exact=True)
        weighed = 0
        for player in ("P5", "P9", "P3", "P7"):
            before = form.evaluate(TOP)
            after(page, page.get_by_role("radiogroup", name="Asked", exact=True)
                  .get_by_role("radio", name=player, exact=True).click, drawn=False)
            during = form.evaluate(TOP)
            if page.locator(WORKING).count():  # weighed again, not yet drawn
                weighed += 1
                if weighed == 1:  # the header, scrolled to (no run)
                    page.evaluate("document.querySelector('[data-testid=stMain]').scrollTo(0, 0)")
                    page.screenshot(path=str(artifacts_dir / "race-line-weighed.png"))
            settle(page)
            assert abs(during - before) <= 4, (player, before, during)
        assert weighed, "no tap had the line weighed again: nothing was measured"
        print(f"{weighed} of 4 taps weighed the line again")
        browser.close()
