"""Notes and the notation in a real headless Chromium at phone size (390x844): a note recorded
from the Turn screen, a game pasted as text (a typo first: the message where the player looks,
the text kept), the game copied as text from the Log, and a thread's turns pasted into it.
Screenshots go to ``test-artifacts/`` as ``notation-<step>.png``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.phone import PHONE, after, new_page, poll, settle, table_drawn

pytestmark = pytest.mark.browser

PASTED = """title: Pasted at the table
edition: clue-classic
players: Ann 5, Bob 5, Cat 4, Dan 4
me: Ann
my cards: Scarlet Rope Kitchen Hall Study

Ann: White Knife Lounge / Bob - Cat + Knife
Bob: Plumb Pipe Library / Cat -  Dan +"""
"""A game typed as a forum player would, with one misspelt card (line 8)."""


def test_a_note_and_a_pasted_game_on_a_phone(
    app_url: str,
    chromium_executable: str, chromium_args: list[str], artifacts_dir: Path,
) -> None:
    from playwright.sync_api import Page, expect, sync_playwright
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    def shot(page: Page, name: str) -> None:
        """What the phone shows right now (not the whole page: where the player looks)."""
        settle(page)
        page.screenshot(path=artifacts_dir / f"notation-{name}.png")

    def tab(page: Page, name: str) -> None:
        after(page, page.locator('[data-testid="stButtonGroup"] button', has_text=name).first.click)

    def chip(page: Page, key: str, option: str) -> None:
        """One tap on a chip of the row whose widget key is ``key``."""
        after(page, page.locator(f".st-key-{key} button").get_by_text(option, exact=True).click)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        context = browser.new_context(viewport=PHONE, has_touch=True)
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        page = new_page(context)
        page.goto(app_url)
        expect(page.get_by_text("New game")).to_be_visible(timeout=30000)
        settle(page)

        # a pasted game with a typo: the problem shows above the button, the text stays
        box = page.get_by_role("textbox", name="Paste a game in notation")
        box.fill(PASTED)
        after(page, lambda: box.press("Control+Enter"))
        after(page, page.get_by_role("button", name="Open pasted game").click)
        problem = page.get_by_text("did you mean Professor Plum?")
        expect(problem).to_be_visible()
        expect(problem).to_be_in_viewport(ratio=1)  # where the player looks, whole
        pointed = page.get_by_text("line 8 | Bob: Plumb Pipe Library")
        expect(pointed).to_be_in_viewport(ratio=1)
        assert box.input_value() == PASTED
        shot(page, "1-paste-typo")

        box.fill(PASTED.replace("Plumb", "Plum"))
        after(page, lambda: box.press("Control+Enter"))
        after(page, page.get_by_role("button", name="Open pasted game").click)
        expect(page.get_by_text("Pasted at the table")).to_be_visible(timeout=30000)
        expect(page.get_by_text("Undo: opened a pasted game (2 events)")).to_be_visible()
        shot(page, "2-paste-opened")

        # a note from the Turn screen: whose, what, the card, a remark, Record
        page.get_by_role("radiogroup").first.wait_for()
        note = page.locator('[data-testid="stButtonGroup"] button', has_text="Note").first
        after(page, note.click)
        chip(page, "n_owner", "Dan")
        chip(page, "n_relation", "does not hold")
        chip(page, "n_weapon", "Wrench")
        remark = page.get_by_role("textbox", name="Remark (optional)")
        remark.fill("dropped his cards")
        after(page, lambda: remark.press("Enter"))
        shot(page, "3-note-form")
        after(page, page.get_by_role("button", name="Record", exact=True).click)
        expect(page.get_by_role(
            "button", name="Undo #3: Note: Dan does not hold Wrench (“dropped his cards”)")
               ).to_be_visible()
        expect(page.get_by_text("Latest: #3 ", exact=False)).to_have_count(0)  # said once
        shot(page, "4-note-recorded")

        tab(page, "Log")
        expect(page.get_by_role("button", name="#3 Note: Dan does not hold Wrench")
               ).to_be_visible()  # the Log's entry (the Undo button names it too)
        page.get_by_text("As text: copy, share or paste turns").click()  # no run: an expander
        settle(page)
        code = page.locator('[data-testid="stCode"]').first
        expect(code).to_contain_text("note Dan")
        expect(code).to_contain_text("dropped his cards")
        # A tap shows the copy button at the code's corner: on a phone the tap also moves the
        # emulated mouse over the code, which Chromium's touch emulation does only sometimes,
        # so the pointer is put there too. The button comes with the pointer's entering the
        # code (CSS :hover), and a pointer already where the tap left it does not enter again
        # (a CI run saw no button after a tap and a hover): so the pointer comes from outside
        # the code each time, until the button shows, a few times at most.
        copy = code.get_by_role("button")
        code.scroll_into_view_if_needed()
        code.tap()
        for _ in range(5):
            page.mouse.move(1, 1)
            code.hover()
            try:
                copy.wait_for(state="visible", timeout=3000)
                break
            except PlaywrightTimeout:
                pass
        expect(copy).to_be_visible()
        shot(page, "5-log-as-text")
        copy.tap()  # the page writes the clipboard a moment later
        copied = poll(page, lambda: page.evaluate("navigator.clipboard.readText()"),
                      lambda text: text.startswith("title:"))
        assert copied.startswith("title: Pasted at the table\nedition: clue-classic\n")
        assert "note Dan lacks Wrench: dropped his cards" in copied

        turns = page.get_by_role("textbox", name="Paste turns to add")
        turns.fill("Cat: Green Rope Hal / Dan - Ann +\nDan: Peacock Candle Ballroom / Ann - Bob +")
        after(page, lambda: turns.press("Control+Enter"))
        after(page, page.get_by_role("button", name="Add pasted turns").click)
        expect(page.get_by_role("button", name="Undo: added events 4-5 from pasted text")
               ).to_be_visible()
        shot(page, "6-turns-added")
        tab(page, "Grid")
        expect(page.locator('[data-testid="stDataFrame"] canvas').first).to_be_visible()
        table_drawn(page)
        shot(page, "7-grid")
        browser.close()
