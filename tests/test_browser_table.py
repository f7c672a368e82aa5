# ruff: noqa: RUF001
"""At the table, in a real Chromium at phone size (390x844).

Every deck's cards are chips that fit the screen: the classic box, the Finnish Refresh, the
Russian set and a forum game's 12/12/15 deck, nothing wider than the page. And whole games of
the other kinds, entered through the Turn screen as a player would: the 2-player Refresh game
(side cards looked at when the opponent cannot answer) and the forum game (questions to one
player, a host answering by rule, a revealed hand, the winning accusation), each saved event
for event as the example has it, its grid checked against ``analyze --json`` and its export
named after the game and the day. Screenshots go to ``test-artifacts/table-*.png``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from notebook_app.grid_view import (
    CELL_WIDTH,
    LABEL,
    LABEL_ROOM,
    OWNERS_IN_SIGHT,
    PHONE_TABLE,
    card_column_width,
    column_labels,
    grid_table,
    label_width,
    owner_widths,
)
from notebook_app.screens.game import export_name
from notebook_app.store import Store
from notebook_app.turns import forum_style
from solver.editions import Dealing, editions, forum_dealt, forum_deck, new_game
from solver.game import ENVELOPE, Accusation, Event, GameLog, Reveal, Suggestion
from solver.i18n import _, speaking
from solver.logfile import dumps, load, loads
from solver.notebook import Grid, Notebook
from solver.values import replace
from tests.phone import (
    PHONE,
    Page,
    after,
    chips,
    chosen,
    new_page,
    odds_counted,
    poll,
    settle,
    shot,
    table_drawn,
    tap,
    toggle,
)
from tests.test_browser_i18n import COLOURS, CUT_NAMES
from tests.test_browser_turns import (
    EDGE_IN_SIGHT,
    SYMBOLS,
    grid_in_sight,
    grid_on_screen,
    odds_hidden,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent

FORUM_12 = {
    "players": ("Полина", "Громозека", "Шушера", "Кефирчик", "Профессор_Селезнёв", "Duos",
                "Алиса", "Весельчак", "Крыс", "Электроник", "Вертер", "Бобу"),
    "suspects": ("Алиса Селезнёва", "Коля Герасимов", "Юля Грибкова", "Фима Королёв",
                 "Весельчак У", "Крыс", "Профессор Селезнёв", "Полина", "Громозека",
                 "Робот Вертер", "Мила Руднева", "Лиза Шепотько"),
    "weapons": ("Миелофон", "Дверь машины времени", "Флип", "Швабра Вертера",
                "Бутылка из-под кефира", "Пиратский бластер", "Космический шлем",
                "Таблетки невидимости", "Универсальный ключ", "Говорящая птица",
                "Хрустальный шар", "Космическая рация"),
    "places": ("Школа", "Космопорт", "Заброшенный дом", "Больница", "КосмоЗоо",
               "Институт Времени", "Большой театр", "Московское море", "Альфа Центавра",
               "Колхозный рынок", "Квартира Коли Герасимова", "Планета Шелезяка", "Кафе-мороженое",
               "Машина времени", "Подмосковная дача"),
}
"""A 12-player forum game on the film's names: 12 suspects, 12 weapons, 15 places."""


def decks() -> dict[str, GameLog]:
    """A game at its start for each deck the chips must fit."""
    presets = editions()
    classic = load(ROOT / "examples" / "classic-six-players.json")
    refresh = load(ROOT / "examples" / "refresh-four-players.json")
    russian = presets["cluedo-classic-ru"].deck
    forum = forum_deck(12, FORUM_12["suspects"], FORUM_12["weapons"], FORUM_12["places"])
    six = ("Аня", "Борис", "Вера", "Глеб", "Даша", "Егор")
    japanese = presets["clue-classic-ja"].deck
    us = classic.game.deck
    return {
        "classic": replace(classic, events=()),
        "names-in-full": GameLog(new_game(us, ("Marjaana", "Niko", "Oona"), Dealing.CLASSIC,
                                          me="Niko", my_cards=(*us.suspects[:2], *us.weapons[:2],
                                                               *us.rooms[:2])), ()),
        "japanese": GameLog(new_game(japanese, ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"),
                                     Dealing.CLASSIC, me="Ann", my_cards=japanese.cards[:3]), ()),
        "refresh-fi": replace(refresh, events=()),
        "russian": GameLog(new_game(russian, six, Dealing.CLASSIC, me="Аня",
                                    my_cards=russian.cards[:3]), ()),
        "forum-12": GameLog(new_game(forum, FORUM_12["players"], Dealing.FORUM, me="Полина",
                                     my_cards=(forum.suspects[7], forum.weapons[0],
                                               forum.rooms[1])), ()),
    }


CHIP_BOXES = """(chips) => chips.map(chip => {  // each chip's text and box on the page
  const box = chip.getBoundingClientRect();
  return [chip.innerText, {x: box.x, y: box.y, width: box.width, height: box.height}];
})"""
"""What `test_every_decks_chips_fit_a_phone` reads of a choice's chips, in one round trip."""


def open_game(page: Page, url: str, db: Path, log: GameLog) -> str:
    """Save ``log`` as a new game and open it on the Turn screen by its edit link."""
    from playwright.sync_api import expect

    store = Store(db)
    game_id = store.create(log, "phone")
    page.goto(f"{url}/?game={store.links(game_id).edit}")
    expect(page.get_by_role("button", name="Record", exact=True)).to_be_visible(timeout=30000)
    settle(page)
    return game_id


def test_every_decks_chips_fit_a_phone(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str],
    artifacts_dir: Path,
) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser, viewport=PHONE)
        for name, log in decks().items():
            open_game(page, app_url, app_db, log)
            shot(page, artifacts_dir / f"table-chips-{name}.png")
            wide = page.evaluate("""() => [document.querySelector('[data-testid=stMain]'),
                ...document.querySelectorAll('[data-testid=stButtonGroup]')]
                .filter(e => e.scrollWidth > e.clientWidth)
                .map(e => [e.innerText.slice(0, 40), e.scrollWidth, e.clientWidth])""")
            assert wide == [], (name, wide)  # nothing scrolls sideways
            deck = log.game.deck
            rooms = "Place" if forum_dealt(log.game) else "Room"
            for label, cards in (("Suspect", deck.suspects), ("Weapon", deck.weapons),
                                 (rooms, deck.rooms)):
                # every card a chip, whole (not cut short), on the screen's width: one look at
                # the group's chips, not two round trips to Chromium per card
                found = {text.strip(): box for text, box in chips(page, label).get_by_role(
                    "radio").evaluate_all(CHIP_BOXES)}
                for card in cards:
                    box = found.get(card)
                    assert box is not None, (name, card, list(found))
                    assert box["width"] > 0 and box["height"] > 0, (name, card, box)
                    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (
                        name, card, box)
            if name == "classic":
                no_toolbar_over_the_caption(page, artifacts_dir)
            every_name_whole_in_the_grid(page, name, artifacts_dir)
            every_label_whole(page, log)
            owners_in_sight(page, name, log, artifacts_dir)
        browser.close()


def owners_in_sight(page: Page, name: str, log: GameLog, artifacts_dir: Path) -> None:
    """Beside the card names, room for seven owner columns, so that up to six players and the
    envelope need no scrolling (the classic box's names at six players did by 6 px) and a
    12-player table shows the envelope and six players (its card column took 197 px for
    "Квартира Коли Герасимова", leaving four): swiped to its end, the envelope's column is
    still in sight, pinned beside the names, and mine is last. Above a table that scrolls, and
    only there, a hint says more players are to the right (it said nothing)."""
    grid = page.locator('.st-key-notebook_grid [data-testid="stDataFrame"]')
    found = page.evaluate(CUT_NAMES, COLOURS)
    scroller = grid.locator(".dvn-scroller")
    shown, width = scroller.evaluate("e => [e.clientWidth, e.scrollWidth]")
    if name in ("classic", "names-in-full"):
        assert width <= shown + 1, (name, width, shown)
    if name == "names-in-full":  # three players: whole names, as the screen has room for them
        columns = list(next(iter(poll(page, lambda: grid_in_sight(page), bool).values())))
        assert columns == ["Marjaana", "Niko", "Oona", LABEL[ENVELOPE]], columns
    from playwright.sync_api import expect

    hint = page.locator(".st-key-grid_swipe")
    expect(hint).to_have_count(1)  # drawn always, shown by a CSS container query
    assert hint.is_visible() == (width > shown + 1), (name, width, shown)
    me = log.game.me
    assert me is not None
    with Notebook(log.game) as notebook:
        mine = column_labels(notebook.grid())[me]
    if width > shown + 1:
        assert "More players to the right, your own column last" in hint.inner_text()
        columns = list(next(iter(poll(page, lambda: grid_in_sight(page), bool).values())))
        assert columns[0] == LABEL[ENVELOPE], (name, columns)
        scroller.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        assert poll(page, lambda: page.evaluate(EDGE_IN_SIGHT, True), bool), name
        columns = list(next(iter(poll(page, lambda: grid_in_sight(page), bool).values())))
        assert columns[-1] == mine, (name, columns)
        scroller.evaluate("e => { e.scrollLeft = 0; }")
    owners = len(log.game.owners)
    if owners <= OWNERS_IN_SIGHT:
        return
    assert shown - found["edges"][0] >= OWNERS_IN_SIGHT * CELL_WIDTH - 1, (name, found, shown)
    scroller.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    in_sight = poll(page, lambda: page.evaluate(EDGE_IN_SIGHT, True), bool)
    assert in_sight, f"{name}: the grid's last column is not in sight"
    swiped = grid_in_sight(page)
    assert swiped and all(LABEL[ENVELOPE] in cells for cells in swiped.values()), (name, swiped)
    assert all(list(cells)[-1] == mine for cells in swiped.values()), (name, swiped)
    page.screenshot(path=artifacts_dir / f"table-grid-{name}-swiped.png")
    scroller.evaluate("e => { e.scrollLeft = 0; }")


LABELS_CUT = """(room) => {  // the header labels wider than their room, as Chromium measures
  // them in the grid's header font
  const ctx = document.createElement('canvas').getContext('2d');
  const main = document.querySelector('[data-testid="stMain"]');
  ctx.font = '400 14px ' + getComputedStyle(main).fontFamily;
  return Object.entries(room).map(([label, px]) => [label, ctx.measureText(label).width, px])
    .filter(([label, width, px]) => width > px);
}"""


def every_label_whole(page: Page, log: GameLog) -> None:
    """Every owner column's header label fits its column (`label_width`, less the cell's
    padding; a wide character's space beside it may go): "Шуш" (Шушера) was cut by 2 px."""
    with Notebook(log.game) as notebook:
        labels = column_labels(notebook.grid()).values()
    room = {label: label_width(label) - CELL_WIDTH + LABEL_ROOM for label in labels}
    assert page.evaluate(LABELS_CUT, room) == []


def no_toolbar_over_the_caption(page: Page, artifacts_dir: Path) -> None:
    """The grid table shows no toolbar on hover (Streamlit's, in English: see
    `notebook_app.screens.grid`), so nothing covers the legend above the table."""
    tap(page, "View", "Grid")
    legend = page.get_by_text("Tap a cell to see why.", exact=False)
    legend.scroll_into_view_if_needed()
    page.locator('[data-testid="stDataFrame"]').hover(position={"x": 150, "y": 10})
    page.wait_for_timeout(500)  # it would fade in (CSS: 150 ms, then 300 ms): a time to wait
    page.screenshot(path=artifacts_dir / "table-grid-toolbar.png")
    toolbar = page.locator('[data-testid="stElementToolbar"] button')
    assert toolbar.count() and not any(b.is_visible() for b in toolbar.all())


def every_name_whole_in_the_grid(page: Page, name: str, artifacts_dir: Path) -> None:
    """No card name of the deck is cut in the Grid's Card column (read from the canvas's pixels,
    `tests.test_browser_i18n.CUT_NAMES`), however many players share the width."""
    if chosen(page, "View") != "Grid":
        tap(page, "View", "Grid")
    page.locator('.st-key-notebook_grid [data-testid="stDataFrame"] canvas').first.wait_for()
    found = poll(page, lambda: page.evaluate(CUT_NAMES, COLOURS),  # drawn a moment later
                 lambda found: found["rows"] > 3 and len(found["edges"]) == 1)
    shot(page, artifacts_dir / f"table-grid-{name}.png")
    assert len(found["edges"]) == 1 and not found["cut"], (name, found)


def test_undo_names_a_long_entry_in_two_lines_at_any_width(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str],
    artifacts_dir: Path,
) -> None:
    """Undo names the entry it takes back, in two lines at most, cut to "…" by the browser.
    Cut on the server to what fits 390 px, Russian #67 of the six-player example took three
    lines on a 360 px phone; a wide screen lost words it had room for. Now whole where there
    is room, and the screen reader hears it whole."""
    from playwright.sync_api import sync_playwright

    from notebook_app.history import recorded
    from solver.logfile import loads

    log = loads((ROOT / "examples" / "classic-six-players.json").read_text(encoding="utf-8"))
    store = Store(app_db)
    game_id = store.create(GameLog(log.game, log.events[:66]), "phone")
    store.save(game_id, GameLog(log.game, log.events[:67]), recorded(67))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        for locale, width in (("en-US", 360), ("ru-RU", 360), ("en-US", 1000)):
            page = new_page(browser, viewport={"width": width, "height": 800}, locale=locale)
            page.goto(f"{app_url}/?game={store.links(game_id).edit}")
            words = page.locator(".st-key-undo button p")
            words.wait_for(timeout=30000)
            settle(page)
            lines, whole, name = words.evaluate("""e => [
                Math.round(e.getBoundingClientRect().height
                           / parseFloat(getComputedStyle(e).lineHeight)),
                e.scrollHeight <= e.clientHeight, e.innerText]""")
            page.locator(".st-key-undo").screenshot(
                path=artifacts_dir / f"table-undo-{locale}-{width}.png")
            assert name.endswith(("Dev passed", "не могут опровергнуть")), name  # all of it
            assert lines == (1 if width == 1000 else 2), (locale, width, lines)
            assert whole == (width == 1000), (locale, width)  # cut to "…" on a phone
            page.close()
        browser.close()

def test_a_table_as_wide_as_the_phone_says_nothing_of_swiping(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str],
    artifacts_dir: Path,
) -> None:
    """A grid exactly as wide as a 390 px phone shows (`PHONE_TABLE`: the card column widened
    to fill it) does not scroll, and no hint says it does. In Russian at five players (the
    Russian box) "Другие игроки правее: проведите по таблице влево" showed above a table with
    every column in sight (a phone play-through): 366 px of columns in a 367.6 px container,
    the hint kept for containers under 368."""
    from playwright.sync_api import expect, sync_playwright

    russian = editions()["cluedo-classic-ru"].deck
    players = ("Аня", "Борис", "Вера", "Глеб", "Дима")
    log = GameLog(new_game(russian, players, Dealing.CLASSIC, me="Вера",
                           my_cards=russian.cards[:4]), ())
    with speaking("ru"):
        view, grid_tab = _("View"), _("Grid")
        with Notebook(log.game) as notebook:
            grid = notebook.grid()
            wide = card_column_width(grid) + sum(owner_widths(grid_table(grid)).values())
    assert wide == PHONE_TABLE  # the table this is about
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(viewport=PHONE, locale="ru-RU"))
        store = Store(app_db)
        game_id = store.create(log, "phone")
        page.goto(f"{app_url}/?game={store.links(game_id).edit}")
        expect(chips(page, view)).to_be_visible(timeout=30000)
        settle(page)
        tap(page, view, grid_tab)
        table_drawn(page)
        scroller = page.locator(".st-key-notebook_grid .dvn-scroller")
        shown, width = scroller.evaluate("e => [e.clientWidth, e.scrollWidth]")
        shot(page, artifacts_dir / "table-grid-russian-five.png")
        assert width <= shown, (width, shown)  # every column in sight
        expect(page.locator(".st-key-grid_swipe")).to_have_count(1)  # drawn, hidden by CSS
        expect(page.locator(".st-key-grid_swipe")).to_be_hidden()
        browser.close()


# --- whole games --------------------------------------------------------------------------------


def enter(page: Page, log: GameLog, event: Event) -> None:
    """Enter ``event`` (the next of ``log``) through the Turn screen, tapping what the form
    does not already show."""
    def pick(label: str, option: str) -> None:
        if chosen(page, label) != option:
            tap(page, label, option)

    def check(label: str, wanted: bool) -> None:
        box = page.get_by_role("checkbox", name=label)
        if box.is_checked() != wanted:
            after(page, page.get_by_text(label, exact=True).click)

    labels = ("Suspect", "Weapon", "Place" if forum_dealt(log.game) else "Room")
    if isinstance(event, Reveal):
        pick("Entry", "Reveal")
        pick("Whose cards", event.player)
        for card in event.cards:
            toggle(page, "Cards you saw", card)
        check("That is their whole hand", event.whole_hand)
    elif isinstance(event, Accusation):
        pick("Entry", "Accuse")
        pick("Who accused", event.by)
        for label, card in zip(labels, event.cards, strict=True):
            pick(label, card)
        pick("Result", "right" if event.correct else "wrong")
    elif isinstance(event, Suggestion) and forum_style(log):
        assert chosen(page, "Entry") == "Ask one"  # the forum's default entry
        pick("Who asked", event.by)
        for label, card in zip(labels, event.cards, strict=True):
            pick(label, card)
        asked = event.refuted_by or event.passes[0]
        pick("Asked", asked)
        pick("Answer", f"{asked} showed a card" if event.refuted_by else "no card")
        if event.refuted_by:  # else not offered
            check(f"Host answered: first match in order suspect, weapon, {labels[2].lower()}",
                  event.shown_by_rule is not None)
        shown_card(page, log, event)
    else:
        assert isinstance(event, Suggestion)
        assert chosen(page, "Entry") == "Suggest"
        pick("Who suggested", event.by)
        for label, card in zip(labels, event.cards, strict=True):
            pick(label, card)
        pick("Who showed a card", event.refuted_by or "Nobody")
        shown_card(page, log, event)
        if event.side_peek is not None:
            pick("Side card looked at", f"slot {event.side_peek.slot}")
            if event.side_peek.card is not None:
                pick("Side card you saw", event.side_peek.card)
    after(page, page.get_by_role("button", name="Record", exact=True).click)


def shown_card(page: Page, log: GameLog, event: Suggestion) -> None:
    """The card shown, where the user saw it: a chip among those that can be it, or filled in
    when only one can."""
    from playwright.sync_api import expect

    me = log.game.me
    if event.shown is None or me not in (event.by, event.refuted_by):
        return
    label = f"Card {event.refuted_by} showed you" if event.by == me else "Card you showed"
    if chips(page, label).count():  # a card they saw before is marked "✓ seen"
        chip = chips(page, label).get_by_role(
            "radio", name=re.compile(f"^{re.escape(event.shown)}( ✓ seen)?$"))
        after(page, chip.click)
    else:
        expect(page.get_by_text(event.shown, exact=False).last).to_be_visible()


@pytest.mark.slow  # 23 and 68 events, several minutes each on a busy machine
@pytest.mark.parametrize("example", ["refresh-two-players", "forum-gostya-iz-budushchego"])
def test_a_whole_game_through_the_turn_screen(
    example: str, app_url: str, app_db: Path, chromium_executable: str,
    chromium_args: list[str], artifacts_dir: Path, tmp_path: Path,
) -> None:
    from playwright.sync_api import sync_playwright

    whole = load(ROOT / "examples" / f"{example}.json")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser, viewport=PHONE, accept_downloads=True)
        log = replace(whole, events=())
        game_id = open_game(page, app_url, app_db, log)
        for number, event in enumerate(whole.events, 1):
            try:
                enter(page, log, event)
            except Exception:
                shot(page, artifacts_dir / f"table-{example}-failed-{number}.png")
                raise
            log = log.append(event)
            saved = Store(app_db).load(game_id)
            if saved is None or saved.events != log.events:
                shot(page, artifacts_dir / f"table-{example}-failed-{number}.png")
            assert saved is not None and saved.events == log.events, f"event {number}"
        shot(page, artifacts_dir / f"table-{example}-turn.png")
        assert "accused correctly: the game is over" in page.inner_text("body")

        tap(page, "View", "Grid")
        odds_counted(page)  # else the page drawn again with them could be taken for the tap's
        after(page, page.get_by_text("Show odds", exact=True).click)  # symbols, not odds
        shot(page, artifacts_dir / f"table-{example}-grid.png")
        odds_hidden(page)
        on_screen = grid_on_screen(page)
        tap(page, "View", "Log")
        shot(page, artifacts_dir / f"table-{example}-log.png")
        tap(page, "View", "Game")
        with page.expect_download() as download:
            page.get_by_role("button", name="Export log (clue-notebook/1)").click()
        exported = tmp_path / "exported.json"
        download.value.save_as(exported)
        assert download.value.suggested_filename == export_name(whole.game, date.today())
        assert loads(exported.read_text(encoding="utf-8")) == whole
        browser.close()

    path = tmp_path / "game.json"
    path.write_text(dumps(whole), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "solver", "analyze", str(path), "--json"],
                          capture_output=True, text=True, check=True, cwd=ROOT)
    analysis = json.loads(done.stdout)
    owners = analysis["owners"]
    assert list(on_screen) == list(analysis["cells"])
    label_of = column_labels(Grid(whole.game, {}))
    for card, row in analysis["cells"].items():  # by column label: the envelope's may come first
        face_up = card in whole.game.face_up
        assert on_screen[card] == {
            label_of[o]: "up" if face_up else SYMBOLS[row[o]] for o in owners}, card
