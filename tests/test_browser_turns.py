"""Turn entry in a few taps, counted in a real Chromium at phone size (390x844): the first 20
events of ``examples/classic-six-players.json`` (Chloe's notebook) entered through the Turn
screen as a player would, tapping only what the form does not already show, then the grid
compared cell by cell with ``clue-notebook analyze --json`` of the same 20 events.

The budget (issue 8): someone else's turn where one player shows a card the user does not see
takes at most 4 taps including the save when the suggester's room is already chosen (a pawn
moved by another's suggestion), 5 when the room must be picked; one more when the user must
say which card they saw (their own turn: 6 with the room to pick); nobody answering costs the
same as someone answering. The counts go to ``test-artifacts/turn-taps.json`` and
``benchmarks/README.md`` records them.

Tapping all 20 is the slowest test of the suite (a Chromium and an app server working through
every tap), and 13 of the 20 are the same kind of entry. So by default (``[five]``) only events
1-4 and 15 are tapped, which hold every kind the 20 do, each with the room to pick: I refute
with my only matching card (1, 2; 18 and 19 are the same), my turn with 2 of 3 cards possible
for the one I saw (3; also 9), someone else's turn (4; 13 more), my turn with the one card that
can be it filled in (15). The events between are added as turns pasted in the notation (as the
Log's "Add pasted turns" does, read with the game's own `read_turns`) and the page is loaded
again, so the next tapped event starts from a fresh form (its defaults checked after the
reload too). The grid after 20 and the two later events are the same in both. ``[all]``
(``--runslow``) taps all 20: its counts are the ones ``benchmarks/README.md`` keeps.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest

from notebook_app import history
from notebook_app.grid_view import column_labels
from notebook_app.pasted import read_turns
from notebook_app.store import Store
from notebook_app.turns import next_suggester, show_choice, starting_room
from solver.game import GameLog, Suggestion
from solver.logfile import dumps, loads
from solver.notation import write_text
from solver.notebook import Grid
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
    tap,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "classic-six-players.json"
REPLAYED = 20
EXTRA = (60, 41)
"""Two later events of the same game (true, so the log stays consistent), entered after the
20 because the first 20 never have them: #60, Chloe's turn where nobody answers, then #41,
Dev's turn in the room where he stood last. The rules bar that room (one suggestion per visit,
`solver.advice.barred_room`; Dev may have left and come back, which the log does not know), so
since 2026-12-04 his Room chip starts at nothing and the room is picked as on any other turn
(until then it started there: 4 taps, where every turn that keeps the rules needs the room
picked). A Room chip that starts chosen (a pawn moved by another's suggestion, `moved_to`)
needs players named as suspects, which this game does not have: `tests/test_app.py` checks it."""
TAPPED = {"five": frozenset({1, 2, 3, 4, 15}), "all": frozenset(range(1, REPLAYED + 1))}
"""Which of the 20 events each run of the test enters through the form (the others are pasted
in the notation): ``five`` holds every kind of entry the 20 do (see the module)."""
FIRST_LOAD = 30000
"""Milliseconds the page may take to show the form after it is (re)loaded."""
SYMBOLS = {"yes": "✓", "no": "✗", "maybe": "?"}
SCREEN_READER_TABLE = '[data-testid="stDataFrame"] table'
"""The table Glide keeps of the grid's cells in sight, for screen readers."""
EDGE_IN_SIGHT = """(right) => {  // whether the grid's first (last) column is in its table
  const table = document.querySelector('[data-testid="stDataFrame"] table');
  if (!table) return false;  // the grid drawn again: its table comes a moment later
  const edge = right ? table.getAttribute('aria-colcount') : '1';
  return [...table.querySelectorAll('th')].some(th => th.getAttribute('aria-colindex') === edge);
}"""
"""Glide keeps a table of the grid's cells in sight for screen readers, redrawn a moment after
the grid scrolls."""


@dataclass(frozen=True)
class Entry:
    """What one entry cost."""

    number: int
    kind: str
    """"others" (a card the user does not see), "mine" (the user's own turn), "refuted by me"."""
    taps: int
    """Taps including the save."""
    fields: tuple[str, ...]
    """The fields the taps changed from what the form showed."""
    budget: int


def kind_and_budget(log: GameLog, event: Suggestion) -> tuple[str, int]:
    me = log.game.me
    room = 0 if starting_room(log, event.by) == event.cards[2] else 1
    if event.by == me:
        return "mine", 4 + room + (1 if event.refuted_by is not None else 0)
    if event.refuted_by == me:
        several = len(show_choice(log, event.by, event.cards).matching) > 1
        return "refuted by me", 4 + room + several
    return "others", 4 + room


def enter(page: Page, log: GameLog, event: Suggestion, number: int) -> Entry:
    """Enter ``event`` (the next of ``log``) by tapping what differs from the form."""
    from playwright.sync_api import expect

    me = log.game.me
    # a fresh form: a plain suggestion by the next player, their room, nothing answered
    assert chosen(page, "Entry") == "Suggest"
    assert chosen(page, "Who suggested") == next_suggester(log)
    assert chosen(page, "Suspect") is None and chosen(page, "Weapon") is None
    assert chosen(page, "Room") == starting_room(log, next_suggester(log))
    assert chosen(page, "Who showed a card") is None
    fields: list[str] = []
    wanted = {"Who suggested": event.by, "Suspect": event.cards[0], "Weapon": event.cards[1],
              "Room": event.cards[2], "Who showed a card": event.refuted_by or "Nobody"}
    for label, option in wanted.items():
        if chosen(page, label) != option:
            tap(page, label, option)
            fields.append(label)
    if event.shown is not None and me in (event.by, event.refuted_by):
        asked = (f"Card {event.refuted_by} showed you" if event.by == me
                 else "Card you showed")
        if chips(page, asked).count():
            assert event.shown in chips(page, asked).inner_text()
            tap(page, asked, event.shown)
            fields.append(asked)
        else:  # only one card can be it: the form says so and fills it in
            expect(page.get_by_text(event.shown, exact=False).last).to_be_visible()
    after(page, page.get_by_role("button", name="Record", exact=True).click)
    kind, budget = kind_and_budget(log, event)
    return Entry(number, kind, len(fields) + 1, tuple(fields), budget)


def odds_hidden(page: Page) -> None:
    """After "Show odds" is turned off: wait until the grid's table for screen readers, which
    follows its picture a moment later, has dropped the odds too (a CI run read it while it
    still had them)."""
    symbols = poll(page, lambda: page.locator(SCREEN_READER_TABLE).first.inner_text(),
                   lambda text: "%" not in text)
    assert "%" not in symbols, "the grid's table still shows odds"


def grid_on_screen(page: Page) -> dict[str, dict[str, str]]:
    """The Grid screen's table as card -> column -> symbol (the table Glide keeps for screen
    readers holds every cell in sight as text). Where the owners scroll sideways (six players
    on a phone), Glide keeps only the columns in sight, so the table is read again scrolled to
    its right end."""
    scroller = page.locator('[data-testid="stDataFrame"] .dvn-scroller').first
    table: dict[str, dict[str, str]] = {}
    for left in (0, 1 << 20):
        scroller.evaluate("(e, left) => { e.scrollLeft = left; }", left)
        in_sight = poll(page, lambda: page.evaluate(EDGE_IN_SIGHT, left > 0), bool)  # noqa: B023
        assert in_sight, f"the grid's {'last' if left else 'first'} column is not in sight"
        for card, cells in grid_in_sight(page).items():
            table.setdefault(card, {}).update(cells)
    scroller.evaluate("e => { e.scrollLeft = 0; }")
    return table


def grid_in_sight(page: Page) -> dict[str, dict[str, str]]:
    """The Grid's columns in sight, as card -> column -> symbol."""
    rows = page.locator('[data-testid="stDataFrame"] table tr')
    table: dict[str, dict[str, str]] = {}
    header: list[str] = []
    for i in range(rows.count()):
        cells = [str(t).strip() for t in rows.nth(i).locator("th, td").all_inner_texts()]
        if not header:
            header = cells
            continue
        if cells and not cells[0].startswith("—"):
            table[cells[0]] = dict(zip(header[1:], cells[1:], strict=True))
    return table


def paste(app_db: Path, game_id: str, log: GameLog, events: list[Suggestion],
          first: int) -> GameLog:
    """Save ``log`` with ``events`` (numbered from ``first``) after its own, as the Log's "Add
    pasted turns" does: written in the notation and read back after the game's own lines."""
    whole = log
    for event in events:
        whole = whole.append(event)
    own = len(write_text(log).rstrip("\n").splitlines())
    text = "\n".join(write_text(whole).rstrip("\n").splitlines()[own:]) + "\n"
    longer = read_turns(log, text)
    assert longer.events == (*log.events, *events), "the pasted turns read back otherwise"
    Store(app_db).save(game_id, longer, history.pasted_turns(first, first + len(events) - 1))
    return longer


def form_shown(page: Page) -> None:
    """Wait until a page just (re)loaded shows the Turn form and is at rest."""
    from playwright.sync_api import expect

    expect(page.get_by_role("button", name="Record", exact=True)).to_be_visible(
        timeout=FIRST_LOAD)
    settle(page)


@pytest.mark.parametrize("tapped", [
    "five", pytest.param("all", marks=pytest.mark.slow)])
def test_twenty_turns_within_the_tap_budget(
    tapped: str, app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str],
    artifacts_dir: Path, tmp_path: Path,
) -> None:
    from playwright.sync_api import sync_playwright

    example = loads(EXAMPLE.read_text(encoding="utf-8"))
    events = example.events[:REPLAYED]
    assert all(isinstance(e, Suggestion) for e in events)
    start = replace(example, events=())
    game_id = Store(app_db).create(start, "phone")
    edit_link = Store(app_db).links(game_id).edit
    entries: list[Entry] = []
    taps = TAPPED[tapped]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser, viewport=PHONE)
        page.goto(f"{app_url}/?game={edit_link}")  # the game's edit link
        form_shown(page)
        shot(page, artifacts_dir / f"taps-{tapped}-0-turn.png")
        log = start
        pending: list[Suggestion] = []  # events to paste before the next tapped one
        for number, event in enumerate(events, 1):
            assert isinstance(event, Suggestion)
            if number not in taps:
                pending.append(event)
                continue
            if pending:  # pasted, then the page loaded again: a fresh form
                log = paste(app_db, game_id, log, pending, number - len(pending))
                pending = []
                page.reload()
                form_shown(page)
            entries.append(enter(page, log, event, number))
            log = log.append(event)
            saved = Store(app_db).load(game_id)
            if saved is None or saved.events != log.events:
                shot(page, artifacts_dir / f"taps-{tapped}-failed-{number}.png")
            assert saved is not None and saved.events == log.events, f"event {number}"
        if pending:
            log = paste(app_db, game_id, log, pending, REPLAYED + 1 - len(pending))
            page.reload()
            form_shown(page)
        assert log.events == tuple(events)
        shot(page, artifacts_dir / f"taps-{tapped}-1-after-20.png")

        tap(page, "View", "Grid")
        odds_counted(page)  # else the page drawn again with them could be taken for the tap's
        after(page, page.get_by_text("Show odds", exact=True).click)  # symbols, not odds
        shot(page, artifacts_dir / f"taps-{tapped}-2-grid.png")
        odds_hidden(page)
        on_screen = grid_on_screen(page)
        first_20 = log

        tap(page, "View", "Turn")
        for number in EXTRA:
            event = example.events[number - 1]
            assert isinstance(event, Suggestion)
            entries.append(enter(page, log, event, number))
            log = log.append(event)
            assert Store(app_db).load(game_id) == log, f"event {number}"
        shot(page, artifacts_dir / f"taps-{tapped}-3-after-extra.png")
        browser.close()

    counts = "turn-taps.json" if tapped == "all" else f"turn-taps-{tapped}.json"
    (artifacts_dir / counts).write_text(
        json.dumps([asdict(e) for e in entries], indent=1), encoding="utf-8")
    path = tmp_path / "first-20.json"
    path.write_text(dumps(first_20), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "solver", "analyze", str(path), "--json"],
                          capture_output=True, text=True, check=True, cwd=ROOT)
    analysis = json.loads(done.stdout)
    owners = analysis["owners"]
    assert list(on_screen) == list(analysis["cells"])  # every card, in order
    label_of = column_labels(Grid(first_20.game, {}))
    for card, row in analysis["cells"].items():  # by column label: the envelope's may come first
        assert on_screen[card] == {label_of[o]: SYMBOLS[row[o]] for o in owners}, card

    assert {e.kind for e in entries} == {"others", "mine", "refuted by me"}
    over = [e for e in entries if e.taps > e.budget]
    assert not over, over
    assert max(e.taps for e in entries if e.kind == "others") <= 5
    assert max(e.taps for e in entries if e.kind == "mine") <= 6
    nobody, same_room = entries[-2:]
    assert nobody.taps == 5  # Chloe picks a room and answers "Nobody": as many as with a card
    assert same_room.taps == 5 and "Room" in same_room.fields  # barred: not chosen for him
