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
        pointed = page.get_by_text("line 8 | Bob: Plumb Pipe …")  # cut to fit: no wrap
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


LONG_TYPO = ("Cat: Peacock Candlestick Conservatory / Dan - Ann - Bob + Wrnch\n"
             "Dan: Mustard Revolver Billiard Room / Ann - Bob - Cat + Kniff")
"""Turns from a thread whose misspelt cards (line 1 column 59, line 2 column 56) stand past
where a phone's code block wraps."""

CARET_UNDER = """(code) => {
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  const nodes = [];
  let text = "";
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push([node, text.length]);
    text += node.data;
  }
  const rect = (index) => {
    const [node, start] = nodes.filter(([, s]) => s <= index).pop();
    const range = document.createRange();
    range.setStart(node, index - start);
    range.setEnd(node, index - start + 1);
    return range.getBoundingClientRect();
  };
  const found = [];
  const rows = text.split("\\n");
  let at = 0;
  for (let i = 0; i + 1 < rows.length; i++) {
    const caret = rows[i + 1].indexOf("^");
    if (caret >= 0 && rows[i].includes(" | ")) {
      const word = rows[i].slice(rows[i].indexOf(" | ") + 3).match(/[A-Za-z]+$/)[0];
      const first = at + rows[i].lastIndexOf(word);
      const under = rect(at + rows[i].length + 1 + caret);
      const start = rect(at);
      found.push({word, wordX: rect(first).left, caretX: under.left, wordTop: rect(first).top,
                  rowTop: start.top, caretTop: under.top});
    }
    at += rows[i].length + 1;
  }
  return found;
}"""
"""For each pasted line shown with a caret in a code block: where its last word's first letter
and the caret under it are drawn, and whether the line was drawn on one row."""


def test_the_caret_under_a_long_pasted_line_stands_under_the_bad_word_on_a_phone(
    app_url: str,
    chromium_executable: str, chromium_args: list[str], artifacts_dir: Path,
) -> None:
    """A phone play-through: the line a problem names showed in a code block that wraps, so a
    long line wrapped and the caret under it stood under other words, or alone on an empty row.
    Cut around the problem, the line fits and the caret stands under the misspelt card."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser, viewport=PHONE)
        page.goto(app_url)
        expect(page.get_by_text("New game")).to_be_visible(timeout=30000)
        settle(page)
        box = page.get_by_role("textbox", name="Paste a game in notation")
        box.fill(PASTED.replace("Plumb", "Plum"))
        after(page, lambda: box.press("Control+Enter"))
        after(page, page.get_by_role("button", name="Open pasted game").click)
        expect(page.get_by_text("Pasted at the table")).to_be_visible(timeout=30000)
        after(page, page.locator('[data-testid="stButtonGroup"] button', has_text="Log"
                                 ).first.click)
        page.get_by_text("As text: copy, share or paste turns").click()
        settle(page)
        turns = page.get_by_role("textbox", name="Paste turns to add")
        turns.fill(LONG_TYPO)
        after(page, lambda: turns.press("Control+Enter"))
        after(page, page.get_by_role("button", name="Add pasted turns").click)
        expect(page.get_by_text("did you mean Wrench?")).to_be_visible()
        pointed = page.locator('.st-key-paste_turns_error_shown [data-testid="stCode"] code')
        found = pointed.evaluate(CARET_UNDER)
        settle(page)
        page.screenshot(path=artifacts_dir / "notation-8-caret.png")
        browser.close()
    assert [f["word"] for f in found] == ["Wrnch", "Kniff"], found
    for f in found:
        assert abs(f["caretX"] - f["wordX"]) < 2, f  # under the word's first letter
        assert f["wordTop"] == f["rowTop"], f  # the line on one row: not wrapped
        assert f["caretTop"] > f["wordTop"], f
