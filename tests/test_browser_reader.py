"""What a screen reader gets on a 390 px touch phone, read from Chromium's accessibility tree
(Playwright's ``aria_snapshot``, the tree TalkBack and VoiceOver walk), and the grid's card
names' contrast, read from the canvas the grid is drawn on (a11y audit)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.phone import (
    TOUCH_PHONE,
    Page,
    after,
    at_home,
    chips,
    chosen,
    new_page,
    settle,
    shot,
    table_drawn,
    tap,
)

pytestmark = pytest.mark.browser


def opened_example(page: Page, url: str) -> None:
    """The example game (four players, over), on its Turn tab."""
    at_home(page, url)
    after(page, page.get_by_role("button", name="Open example").tap)


def view(page: Page, tab: str) -> None:
    """The tab ``tab`` shown."""
    radio = chips(page, "View").get_by_role("radio", name=tab, exact=True)
    if radio.get_attribute("aria-checked") != "true":
        after(page, radio.tap)


def test_a_screen_reader_reads_each_grid_cell_with_its_card_and_owner(
    app_url: str, chromium_executable: str, chromium_args: list[str], artifacts_dir: Path
) -> None:
    """The grid is a canvas: a screen reader got nothing from it until it was focused, then
    cells reading a bare "✓" or "✗", the card names cells like the others and the owners'
    short labels ("Env") the only headers. It now reads a table beside it, out of sight: the
    owners in full as column headers, each card as its row's header, every cell in words with
    its card and owner; the canvas and the hint to swipe it are hidden from it. A cell pressed
    there (a reader's double tap: a click on it) explains it, as a tap on the canvas does. The
    page looks as it did (the table takes no room)."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE))
        opened_example(page, app_url)
        view(page, "Grid")
        table_drawn(page)
        main = page.locator('[data-testid="stMain"]')
        tree = main.aria_snapshot()
        shot(page, artifacts_dir / "reader-grid.png")
        table = page.get_by_role("table", name="Grid")
        expect(table).to_have_count(1)
        box = page.locator('[data-testid="stElementContainer"]:has(.clue-reader-grid)'
                           ).bounding_box()
        sideways = main.evaluate("e => e.scrollWidth - e.clientWidth")
        after(page, lambda: page.get_by_role("button", name="Knife, Cid: certain")
              .dispatch_event("click"))
        dialog = page.get_by_role("dialog", name="Why this cell?")
        expect(dialog).to_contain_text("Cid holds Knife: yes.")
        browser.close()
    assert re.search(r'columnheader "Envelope"', tree), tree
    assert '- rowheader "Knife"' in tree, tree
    knife = r"""cell "Knife, Cid: certain"':\n\s*- 'button "Knife, Cid: certain"'\n\s*"""
    assert re.search(knife + r"""- 'cell "Knife, Dee: excluded"'""", tree), tree
    assert '- columnheader "weapons"' in tree, tree  # a category heads its cards
    assert "✓" not in tree.replace("✓ holds it", ""), tree  # nothing of the canvas
    assert "swipe" not in tree, tree
    assert box is not None and box["width"] <= 1 and box["height"] <= 1, box  # out of sight
    assert sideways == 0


def test_every_tab_has_its_headings(
    app_url: str, chromium_executable: str, chromium_args: list[str]
) -> None:
    """A screen reader moves by headings, and the open game had none: its title was a bold
    line, the tabs' parts bold lines. The title is the page's heading, each tab's name heads
    the tab (for readers only: the tab row shows it), the Game and Review tabs' parts are
    headings under it."""
    from playwright.sync_api import sync_playwright

    headings = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE))
        opened_example(page, app_url)
        for tab in ("Turn", "Grid", "Log", "Review", "Game"):
            view(page, tab)
            tree = page.locator('[data-testid="stMain"]').aria_snapshot()
            headings[tab] = re.findall(r'heading "([^"]*)" \[level=(\d)\]', tree)
        browser.close()
    title = ("Clue with notes, four players", "1")
    for tab in ("Grid", "Log"):
        assert headings[tab] == [title, (tab, "2")], headings
    assert headings["Turn"][:3] == [title, ("Turn", "2"), ("Whose cards", "3")], headings  # the
    # example is over: its Turn tab shows the Reveal form (its parts: test_the_turn_forms_...)
    assert headings["Review"] == [title, ("Review", "2"),
                                  ("Possible envelopes after each event", "3")], headings
    assert headings["Game"] == [title, ("Game", "2"),
                                ("Open it on another device, or share it", "3")], headings


def test_the_turn_forms_parts_are_headings(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str],
    artifacts_dir: Path,
) -> None:
    """A screen reader moves by headings, and the Turn tab had one, its name: to reach who
    showed a card, a reader went through every chip of every row above. Each part of the form
    now starts with a heading for readers only (level 3, under the tab's): who suggested, the
    cards, who showed a card; who accused, the cards, the result; who asked, the cards, the
    answer; whose cards were revealed, the cards seen; whose note, the cards. In the language
    chosen. The page looks as it did: a 390 px screenshot before and after the change differed
    by at most 1 of 255 in a channel on 33 pixels (button corners' antialiasing), and the
    headings take no room."""
    from playwright.sync_api import expect, sync_playwright

    from notebook_app.history import started
    from notebook_app.store import Store
    from solver.editions import Dealing, new_game
    from solver.game import GameLog
    from tests.test_app import CLASSIC, MINE, NAMES, forum

    store = Store(app_db)
    game = new_game(CLASSIC, NAMES, Dealing.CLASSIC, me="Ann", my_cards=MINE)
    made = store.create(GameLog(game, ()), "browser-of-ann", started())
    asked = store.create(forum(), "browser-of-ann", started())
    headings: dict[str, list[tuple[str, str]]] = {}
    boxes = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE))

        def read(name: str) -> None:
            tree = page.locator('[data-testid="stMain"]').aria_snapshot()
            headings[name] = re.findall(r'heading "([^"]*)" \[level=3\]', tree)

        for name, link in (("classic", made), ("forum", asked)):
            page.goto(f"{app_url}/?game={store.links(link).edit}")
            expect(page.get_by_role("button", name="Record", exact=True)).to_be_visible(
                timeout=30000)
            settle(page)
            read(name)
        boxes = [page.locator(".clue-reader-only").nth(i).bounding_box()
                 for i in range(page.locator(".clue-reader-only").count())]
        page.goto(f"{app_url}/?game={store.links(made).edit}")
        expect(page.get_by_role("button", name="Record", exact=True)).to_be_visible(
            timeout=30000)
        settle(page)
        for kind in ("Accuse", "Reveal", "Note"):
            tap(page, "Entry", kind)
            read(kind)
        tap(page, "Entry", "Suggest")
        after(page, page.get_by_text("Suomi", exact=True).click)
        read("fi")
        shot(page, artifacts_dir / "reader-turn-fi.png")
        browser.close()
    assert headings["classic"] == ["Who suggested", "The cards", "Who showed a card"], headings
    assert headings["Accuse"] == ["Who accused", "The cards", "Result"], headings
    assert headings["Reveal"] == ["Whose cards", "Cards you saw"], headings
    assert headings["Note"] == ["Whose", "The cards"], headings
    assert headings["forum"] == ["Who asked", "The cards", "Asked", "The answer"], headings
    assert headings["fi"] == ["Kuka kysyi", "Kortit", "Kuka näytti kortin"], headings
    assert len(boxes) == 5 and all(b is not None and b["width"] <= 1 and b["height"] <= 1
                                   for b in boxes), boxes  # the tab's, and the forum form's 4


def test_my_own_greyed_chip_is_said_to_be_unavailable(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str]
) -> None:
    """Under "Who showed a card" the asker's own chip is greyed and takes no tap, in its seat;
    a screen reader announced it like the others, and a double tap did nothing. It is now
    unavailable (aria-disabled), and only it: a new asker's chip takes its place."""
    from playwright.sync_api import expect, sync_playwright

    from notebook_app.history import started
    from notebook_app.store import Store
    from solver.editions import Dealing, new_game
    from solver.game import GameLog
    from tests.test_app import CLASSIC, MINE, NAMES

    store = Store(app_db)
    game = new_game(CLASSIC, NAMES, Dealing.CLASSIC, me="Ann", my_cards=MINE)
    made = store.create(GameLog(game, ()), "browser-of-ann", started())
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE))
        page.goto(f"{app_url}/?game={store.links(made).edit}")
        expect(page.get_by_role("button", name="Record", exact=True)).to_be_visible(
            timeout=30000)
        settle(page)
        showed = chips(page, "Who showed a card")
        for asker in ("Ann", "Cat"):
            if chosen(page, "Who suggested") != asker:
                tap(page, "Who suggested", asker)
            for name in NAMES:
                chip = showed.get_by_role("radio", name=name, exact=True)
                if name == asker:
                    expect(chip).to_have_attribute("aria-disabled", "true")
                else:
                    expect(chip).not_to_have_attribute("aria-disabled", "true")
            expect(showed.get_by_role("radio", name=asker, exact=True)).to_be_disabled()
        browser.close()


CARD_INK = """([left, right]) => {
  const canvas = document.querySelector('.st-key-notebook_grid [data-testid="data-grid-canvas"]');
  const scale = canvas.width / canvas.clientWidth;
  const rows = Math.floor((canvas.clientHeight - 36) / 28);
  const data = canvas.getContext('2d', {willReadFrequently: true}).getImageData(
    0, 0, canvas.width, canvas.height).data;
  const luminance = i => [0, 1, 2].map(k => data[i + k] / 255).map(v => v <= 0.03928
    ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4).reduce((sum, v, k) =>
    sum + v * [0.2126, 0.7152, 0.0722][k], 0);
  const at = (x, y) => 4 * (Math.round(y * scale) * canvas.width + Math.round(x * scale));
  const ratios = [];
  for (let row = 0; row < rows; row++) {
    const top = 36 + 28 * row;
    const ground = luminance(at(3, top + 14));
    let ratio = 1;
    for (let y = Math.round((top + 3) * scale); y < Math.round((top + 25) * scale); y++)
      for (let x = Math.round(left * scale); x < Math.round(right * scale); x++) {
        const ink = luminance(4 * (y * canvas.width + x));
        ratio = Math.max(ratio, (Math.max(ink, ground) + 0.05) / (Math.min(ink, ground) + 0.05));
      }
    ratios.push(Math.round(ratio * 100) / 100);
  }
  return ratios;
}"""
"""The contrast of each grid row's pixel between ``left`` and ``right`` (CSS pixels of the
canvas) furthest from the row's ground at its left edge: for a row's text, its colour as drawn
(on a dark ground the lightest)."""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_grid_card_names_read_at_the_contrast_small_text_needs(
    scheme: str, app_url: str, chromium_executable: str, chromium_args: list[str]
) -> None:
    """The card names were the grid's index, which Streamlit draws faded (pinned), with no
    colour of ours: 3.89:1 on white, under the 4.5:1 small text needs (a11y audit). They are
    a column of ours now, pinned as before, its text darkened for the fading (lightened on the
    dark scheme's ground)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE, color_scheme=scheme))
        opened_example(page, app_url)
        view(page, "Grid")
        table_drawn(page)
        ratios = page.evaluate(CARD_INK, [6, 110])  # "Card" and the names: 138 px here
        browser.close()
    assert len(ratios) == 24 and min(ratios) >= 4.5, ratios


def test_a_long_title_wraps_and_no_tab_scrolls_sideways(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str]
) -> None:
    """The game's title is a heading since f5b82c7, and a heading broke no long word, where
    the bold line it replaced did: a title of one long word (a custom title, a web address
    pasted) made every tab scroll sideways 77 px at 390 px, the title cut off (a review). It
    wraps again, on every tab."""
    from playwright.sync_api import expect, sync_playwright

    from notebook_app.history import started
    from notebook_app.store import Store
    from solver.editions import Dealing, new_game
    from solver.game import GameLog
    from tests.test_app import CLASSIC, MINE, NAMES
    from tests.test_browser_i18n import OVERFLOW

    title = "Supercalifragilisticexpialidocious_without_any_space_at_all_in_it"
    store = Store(app_db)
    game = new_game(CLASSIC, NAMES, Dealing.CLASSIC, me="Ann", my_cards=MINE, title=title)
    made = store.create(GameLog(game, ()), "browser-of-ann", started())
    found = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE))
        page.goto(f"{app_url}/?game={store.links(made).edit}")
        expect(page.get_by_role("heading", name=title)).to_be_visible(timeout=30000)
        settle(page)
        for tab in ("Turn", "Grid", "Log", "Review", "Game"):
            view(page, tab)
            found[tab] = page.evaluate(OVERFLOW)
        browser.close()
    assert found == {tab: [] for tab in found}, found


def test_the_drawn_grid_is_read_while_keys_bring_the_focus_there(
    app_url: str, chromium_executable: str, chromium_args: list[str]
) -> None:
    """The drawn grid is hidden from screen readers (the table in words beside it is read
    instead), but Tab still stops in it and not in the table in words: a reader with a keyboard
    (Review on a laptop) landed on a hidden element and said nothing. While the focus is in the
    drawn grid it is not hidden; once the focus leaves, it is again (a review)."""
    from playwright.sync_api import sync_playwright

    hidden = """() => document.querySelector('.st-key-notebook_grid [data-testid="stDataFrame"]')
                      .getAttribute('aria-hidden')"""
    inside = """() => !!document.activeElement?.closest('.st-key-notebook_grid')"""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE))
        opened_example(page, app_url)
        view(page, "Grid")
        table_drawn(page)
        before = page.evaluate(hidden)
        tabs = 0
        while not page.evaluate(inside) and tabs < 60:
            page.keyboard.press("Tab")
            tabs += 1
        focused = page.evaluate(hidden)
        page.keyboard.press("Shift+Tab")
        page.wait_for_function(f"() => !({inside})() && ({hidden})() === 'true'", timeout=5000)
        browser.close()
    assert tabs < 60, "Tab never reached the drawn grid"
    assert (before, focused) == ("true", None)
