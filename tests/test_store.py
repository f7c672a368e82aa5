"""The games database (`notebook_app.store`) on every database it supports: revisions stored
as changes, undo, stale-tab protection, links and access, drafts, migration from the first
release's file, and clear errors for a database that is locked, read-only, damaged or gone.

The ``store`` fixture (``tests/conftest.py``) runs each test on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa

from notebook_app.history import deleted, edited, recorded
from notebook_app.store import (
    GameGoneError,
    Revision,
    StaleRevisionError,
    Store,
    StoreError,
    drafts,
    new_id,
    reason_for,
)
from solver.game import GameLog
from solver.logfile import load, parse
from solver.values import replace

ROOT = Path(__file__).resolve().parent.parent
SIX = load(ROOT / "examples" / "classic-six-players.json")


def upto(n: int, log: GameLog = SIX) -> GameLog:
    return replace(log, events=log.events[:n])


# --- revisions ---------------------------------------------------------------------------------


def test_every_revision_reads_back_as_saved(store: Store) -> None:
    game_id = store.create(upto(0), "shelf-one")
    for n in range(1, 12):
        assert store.save(game_id, upto(n), f"recorded event {n}", after=n) == n + 1
        latest = store.latest(game_id)
        assert latest is not None
        assert (latest.log, latest.seq, latest.note) == (upto(n), n + 1, f"recorded event {n}")


def test_edits_deletions_and_header_changes_read_back(store: Store) -> None:
    game_id = store.create(upto(8), "shelf-one")
    events = list(SIX.events[:8])
    events[2] = SIX.events[20]  # an edit in the middle
    edited = replace(SIX, events=tuple(events))
    store.save(game_id, edited, "edited event 3")
    assert store.load(game_id) == edited
    shorter = replace(SIX, events=edited.events[:1] + edited.events[2:])  # delete event 2
    store.save(game_id, shorter, "deleted event 2")
    assert store.load(game_id) == shorter
    retitled = replace(shorter, game=replace(shorter.game, title="Renamed"))
    store.save(game_id, retitled, "renamed")
    assert store.load(game_id) == retitled
    assert [g.title for g in store.games("shelf-one")] == ["Renamed"]
    store.undo(game_id, store.seq(game_id) or 0)
    assert store.load(game_id) == shorter
    store.undo(game_id, store.seq(game_id) or 0)
    assert store.load(game_id) == edited
    store.undo(game_id, store.seq(game_id) or 0)
    assert store.load(game_id) == upto(8)
    assert not store.undo(game_id, 1)  # the start is never undone


def test_changes_name_the_entries_written_last_first(store: Store) -> None:
    """The entries a revision's notes say were recorded or edited, the latest change first, as
    they stand in the revision asked for (a clash leaves them out first: `LiveGame.grid`); an
    opened game's own events, and the ones a deletion moved, are named by none."""
    game_id = store.create(upto(4), "s")
    events = list(SIX.events[:6])
    store.save(game_id, upto(5), recorded(5))
    events[1] = SIX.events[20]
    seq = store.save(game_id, replace(SIX, events=tuple(events[:5])), edited(2))
    store.save(game_id, replace(SIX, events=tuple(events)), recorded(6))
    assert store.changes(game_id, seq + 1) == (6, 2, 5)
    assert store.changes(game_id, seq) == (2, 5)  # a screen still on the edit
    store.undo(game_id, seq + 1)
    assert store.changes(game_id, seq) == (2, 5)
    store.save(game_id, replace(SIX, events=(events[0], *events[2:5])), deleted(2))
    assert store.changes(game_id, seq + 2) == ()

def test_stale_save_is_refused(store: Store) -> None:
    game_id = store.create(upto(0), "s")
    store.save(game_id, upto(1), "recorded event 1", after=1)
    with pytest.raises(StaleRevisionError):
        store.save(game_id, upto(1), "recorded event 1 again", after=1)
    assert store.load(game_id) == upto(1)


def test_a_revision_number_is_never_given_twice(store: Store) -> None:
    """Undo then a new entry elsewhere: a tab that still shows the undone revision's number must
    not pass as current (numbers were reused before, so its save went through)."""
    game_id = store.create(upto(0), "s")
    tab = store.save(game_id, upto(1), "recorded event 1")  # this tab shows revision 2
    assert store.undo(game_id, tab)  # another device undoes it...
    other = replace(SIX, events=(SIX.events[5],))
    assert store.save(game_id, other, "recorded event 1") != tab  # ...and records another
    with pytest.raises(StaleRevisionError):
        store.save(game_id, upto(2), "recorded event 2", after=tab)
    assert store.load(game_id) == other


def test_undo_only_drops_the_revision_the_screen_shows(store: Store) -> None:
    game_id = store.create(upto(0), "s")
    two = store.save(game_id, upto(1), "recorded event 1")
    store.save(game_id, upto(2), "recorded event 2")
    assert not store.undo(game_id, two)
    assert store.load(game_id) == upto(2)


def test_concurrent_saves_on_one_revision_keep_exactly_one(store: Store) -> None:
    game_id = store.create(upto(0), "s")
    results: list[str] = []

    def save(n: int) -> None:
        try:
            store.save(game_id, replace(SIX, events=(SIX.events[n],)), f"entry {n}", after=1)
            results.append("saved")
        except StaleRevisionError:
            results.append("stale")
        except StoreError as err:  # waited past the lock timeout: refused, nothing written
            results.append(err.reason)

    threads = [threading.Thread(target=save, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results.count("saved") == 1, results
    busy = "the database is busy with another save; nothing was changed"
    assert set(results) <= {"saved", "stale", busy}, results  # never 'reported a problem'
    log = store.load(game_id)
    assert log is not None and len(log.events) == 1


def meeting(monkeypatch: pytest.MonkeyPatch, watch: sa.Engine, first: Callable[[], object],
            second: Callable[[], object]) -> tuple[object, object]:
    """What two calls returned (or the `StoreError` or `StaleRevisionError` they raised) when
    ``second`` ran while ``first`` had written but not yet committed, ``first`` committing only
    once ``second`` waits for it (or is done), as two servers' calls meet. ``watch``: the
    database, to see on PostgreSQL when ``second`` waits on a lock."""
    halfway, go_on = threading.Event(), threading.Event()
    write = Store._write

    @contextmanager
    def paused(self: Store, *wait: float) -> Iterator[sa.Connection]:
        with write(self, *wait) as db:
            yield db
            if threading.current_thread().name == "first":
                halfway.set()
                go_on.wait(10)

    monkeypatch.setattr(Store, "_write", paused)
    outcomes: dict[str, object] = {}

    def run(call: Callable[[], object]) -> None:
        name = threading.current_thread().name
        try:
            outcomes[name] = call()
        except (StaleRevisionError, StoreError) as err:
            outcomes[name] = err

    threads = {name: threading.Thread(name=name, target=run, args=(call,))
               for name, call in (("first", first), ("second", second))}
    threads["first"].start()
    assert halfway.wait(10)
    threads["second"].start()
    if watch.dialect.name == "postgresql":  # until it waits on the first call's lock
        deadline = time.monotonic() + 4
        while time.monotonic() < deadline and threads["second"].is_alive():
            with watch.connect() as db:
                if db.exec_driver_sql(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                        "AND datname = current_database()").scalar_one():
                    break
            time.sleep(0.02)
    else:
        time.sleep(0.3)  # SQLite: BEGIN IMMEDIATE waits for the first call's write lock
    go_on.set()
    for thread in threads.values():
        thread.join(10)
    return outcomes["first"], outcomes["second"]


def while_a_save_commits(store: Store, monkeypatch: pytest.MonkeyPatch, game_id: str,
                         call: Callable[[], object]) -> object:
    """What ``call`` returned (or raised) when it met another screen's save of revision 3."""
    saved, outcome = meeting(monkeypatch, store.engine,
                             lambda: store.save(game_id, upto(2), "recorded event 2", after=2),
                             call)
    assert saved == 3
    return outcome


def test_a_save_that_met_another_is_refused_as_stale(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two servers' saves built on one revision: the one that waited is told the game changed
    (the app reloads it), not that the database failed. On PostgreSQL it read the games row
    before the other committed, then wrote the same revision number: 'the database reported
    a problem' (a unique key), so the phone said the database had failed."""
    game_id = store.create(upto(0), "s")
    store.save(game_id, upto(1), "recorded event 1", after=1)
    other = replace(SIX, events=(SIX.events[0], SIX.events[5]))
    outcome = while_a_save_commits(
        store, monkeypatch, game_id,
        lambda: store.save(game_id, other, "recorded event 2", after=2))
    assert isinstance(outcome, StaleRevisionError), outcome
    assert store.load(game_id) == upto(2)


def test_an_undo_that_met_a_save_undoes_nothing(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Undo of revision 2 while another server saves revision 3 on it: the undo finds the game
    changed and does nothing. On PostgreSQL it read revision 2 as the newest, waited, and
    went on after the save committed: it said it had undone, and the game read back with one
    event, the entry the other phone was told was recorded gone."""
    game_id = store.create(upto(0), "s")
    store.save(game_id, upto(1), "recorded event 1", after=1)
    outcome = while_a_save_commits(store, monkeypatch, game_id,
                                   lambda: store.undo(game_id, 2))
    assert outcome is False
    assert store.load(game_id) == upto(2)


def test_a_game_read_while_a_save_commits_is_one_revision(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game read while another screen's save commits comes back as one revision, the one
    before or the one after. On PostgreSQL each query of the read saw the newest commit: the
    number and note of revision 2 came with the events of revision 3."""
    game_id = store.create(upto(0), "s")
    store.save(game_id, upto(1), "recorded event 1")
    live_rows = Store._live_rows

    def after_a_save(db: sa.Connection, game: str) -> list[tuple[int, str]]:
        if threading.current_thread().name == "reader":
            saver = threading.Thread(target=store.save, args=(game_id, upto(2), "recorded 2"))
            saver.start()
            saver.join(10)
        return live_rows(db, game)

    monkeypatch.setattr(Store, "_live_rows", staticmethod(after_a_save))
    read: list[Revision | None] = []
    reader = threading.Thread(name="reader", target=lambda: read.append(store.latest(game_id)))
    reader.start()
    reader.join(20)
    assert store.seq(game_id) == 3
    assert [(r and (len(r.log.events), r.seq, r.note)) for r in read] == [
        (1, 2, "recorded event 1")]


def test_a_long_game_costs_little_per_revision(store: Store) -> None:
    """66 events recorded one by one, then edits and undos: the events table holds about one
    row per change, not a copy of the log per revision."""
    game_id = store.create(upto(0), "s")
    for n in range(1, len(SIX.events) + 1):
        store.save(game_id, upto(n), f"recorded event {n}")
    with store.engine.connect() as db:
        rows = db.exec_driver_sql("SELECT COUNT(*) FROM events").scalar_one()
        headers = db.exec_driver_sql(
            "SELECT COUNT(*) FROM revisions WHERE header IS NOT NULL").scalar_one()
    assert rows == len(SIX.events) and headers == 1


# --- shelves, links and access -----------------------------------------------------------------


def test_links_grant_read_or_edit_on_one_game(store: Store) -> None:
    mine = store.create(upto(1), "browser-a")
    other = store.create(upto(2), "browser-a")
    links = store.links(mine)
    assert links.read != links.edit and mine not in (links.read, links.edit)
    assert store.opened_by(links.read) == (mine, "read")
    assert store.opened_by(links.edit) == (mine, "edit")
    assert store.opened_by(mine) is None  # an id is not a link
    assert store.opened_by(store.links(other).read) == (other, "read")
    assert store.access("browser-a", mine) == "owner"
    store.shelve("browser-b", mine, "read")
    store.shelve("browser-b", mine, "edit")  # a later edit link raises the access...
    store.shelve("browser-b", mine, "read")  # ...and a read link never lowers it
    assert [(g.id, g.access) for g in store.games("browser-b")] == [(mine, "edit")]
    fresh = store.new_links(mine)
    assert store.opened_by(links.edit) is None and store.opened_by(fresh.edit) == (mine, "edit")
    assert store.access("browser-b", mine) is None  # those sent the old links lose the game
    assert store.access("browser-a", mine) == "owner"


def test_a_link_has_no_hyphen_to_break_its_line_at() -> None:
    """A link shown on a 390 px phone wraps: its id broke after a ``-`` ("?game=s9JzbXX-" /
    "NntSuvC1"), which reads as a word hyphenated across the line and is left out when the
    link is typed on another phone. Ids are letters and digits (with ``_`` and ``-``, 40 % of
    ids had one), and as many as before."""
    ids = {new_id() for _ in range(500)}
    assert len(ids) == 500
    assert all(len(i) == 16 and i.isascii() and i.isalnum() for i in ids)


@pytest.mark.parametrize(("first", "second"), [("read", "edit"), ("edit", "read")])
def test_one_browser_opening_a_game_twice_at_once_keeps_the_higher_access(
        store: Store, monkeypatch: pytest.MonkeyPatch, first: str, second: str) -> None:
    """Two tabs of one browser open a game's read and edit links at once, through two servers:
    both open it, with edit access. On PostgreSQL both found the game off the list and added
    it: the second add broke the list's key, so its tab said 'the game could not be opened:
    the database reported a problem'."""
    game_id = store.create(upto(1), "a")
    links = store.links(game_id)
    token = {"read": links.read, "edit": links.edit}
    outcomes = meeting(monkeypatch, store.engine, lambda: store.open_link("b", token[first]),
                       lambda: store.open_link("b", token[second]))
    assert outcomes == ((game_id, first), (game_id, "edit"))
    assert store.access("b", game_id) == "edit"


def test_a_link_opened_while_its_owner_replaces_it_is_refused(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The owner makes new links while someone opens the old edit link: the old link opens
    nothing, as the owner is told. The app looked the link up, then added the game to the list
    in another transaction, so the game stayed on that list, editable, after the owner was told
    the old links no longer open it (on SQLite too)."""
    game_id = store.create(upto(1), "a")
    old = store.links(game_id).edit
    _, opened = meeting(monkeypatch, store.engine, lambda: store.new_links(game_id),
                        lambda: store.open_link("b", old))
    assert opened is None
    assert store.access("b", game_id) is None


def test_a_link_opened_just_before_its_owner_replaces_it_leaves_no_access(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Someone opens the edit link while the owner makes new links: when the owner is told
    the old links no longer open the game, that browser no longer has it. On PostgreSQL the new
    links' transaction did not see the list entry being added, and kept it."""
    game_id = store.create(upto(1), "a")
    links = store.links(game_id)
    opened, _ = meeting(monkeypatch, store.engine, lambda: store.open_link("b", links.edit),
                        lambda: store.new_links(game_id))
    assert opened == (game_id, "edit")
    assert store.access("b", game_id) is None
    assert store.open_link("c", links.read) is None


def test_opening_a_link_puts_its_game_on_the_list(store: Store) -> None:
    game_id = store.create(upto(1), "a")
    links = store.links(game_id)
    assert store.open_link("b", links.read) == (game_id, "read")
    assert store.open_link("b", links.edit) == (game_id, "edit")
    assert store.open_link("b", links.read) == (game_id, "edit")  # never lowered
    assert store.open_link("a", links.read) == (game_id, "owner")
    assert store.open_link("b", game_id) is None  # an id is not a link
    assert [g.id for g in store.games("b")] == [game_id]


def test_forget_takes_a_game_off_one_shelf(store: Store) -> None:
    game_id = store.create(upto(1), "a")
    store.shelve("b", game_id)
    store.forget("b", game_id)
    assert store.games("b") == [] and [g.id for g in store.games("a")] == [game_id]


def test_a_game_saved_with_a_bidirectional_control_still_opens(store: Store) -> None:
    """Names may no longer hold a bidirectional control (1b8f17c): a game saved before, with a
    player "\u2068Emma\u2069" (isolates a messaging app pastes around a name), was refused as
    "cannot be read", its entries out of reach. It opens with the controls dropped, listed
    too, and its next save stores it so."""
    game_id = store.create(upto(12), "a")
    with store.engine.begin() as db:
        for table, column in (("revisions", "header"), ("events", "body")):
            db.execute(sa.text(f"UPDATE {table} SET {column} = replace({column}, 'Emma', "
                               ":turned) WHERE game_id = :game"),
                       {"turned": "\u2068Emma\u2069", "game": game_id})
    assert store.load(game_id) == upto(12)
    assert [g.players for g in store.games("a")] == [SIX.game.player_names]
    store.save(game_id, upto(13), "recorded event 13")
    assert store.load(game_id) == upto(13)


def test_a_kept_form_leaves_out_a_text_longer_than_any_box_takes(store: Store) -> None:
    """A remark pasted into the note form was kept in the database as sent, megabytes and
    all (the form refuses it, but the kept form is written as the player types). Past
    `DRAFT_TEXT_MOST` characters the text is left out; the rest of the form is kept."""
    from notebook_app.store import DRAFT_TEXT_MOST

    game_id = store.create(upto(3), "a")
    store.keep_draft("a", game_id, {"kind": "Note", "n_text": "x" * (DRAFT_TEXT_MOST + 1)})
    assert store.take_draft("a", game_id) == {"kind": "Note"}
    store.keep_draft("a", game_id, {"kind": "Note", "n_text": "x" * DRAFT_TEXT_MOST})
    assert store.take_draft("a", game_id) == {"kind": "Note", "n_text": "x" * DRAFT_TEXT_MOST}


def test_delete_takes_a_game_from_every_shelf_and_link(store: Store) -> None:
    """Nothing of a deleted game stays: not on a list, not by a link, not a kept form; a save
    or undo after finds no game; the other games are untouched."""
    game_id = store.create(upto(3), "a")
    other = store.create(upto(2), "a")
    links = store.links(game_id)
    store.open_link("b", links.edit)
    store.keep_draft("b", game_id, {"by": "Bob"})
    store.save(game_id, upto(4), "recorded event 4")
    store.delete(game_id)
    assert [g.id for g in store.games("a")] == [other] and store.games("b") == []
    assert store.open_link("c", links.read) is None and store.open_link("c", links.edit) is None
    assert store.latest(game_id) is None and store.seq(game_id) is None
    assert store.take_draft("b", game_id) is None
    store.keep_draft("b", game_id, {"by": "Bob"})  # a tab's form, after: not kept
    assert store.take_draft("b", game_id) is None
    with pytest.raises(GameGoneError):
        store.save(game_id, upto(5), "recorded event 5")
    assert not store.undo(game_id, 2)
    assert store.load(other) == upto(2)


def rows_of(store: Store, game_id: str) -> dict[str, int]:
    """How many rows of each table name ``game_id``."""
    with store.engine.connect() as db:
        return {table: db.execute(sa.text(f"SELECT count(*) FROM {table} WHERE {key} = :g"),
                                  {"g": game_id}).scalar_one()
                for table, key in (("games", "id"), ("revisions", "game_id"),
                                   ("events", "game_id"), ("shelves", "game_id"),
                                   ("drafts", "game_id"))}


@pytest.mark.parametrize("racing", ["save", "open_link", "keep_draft"])
@pytest.mark.parametrize("deleted", ["after", "before"])
def test_a_deletion_that_meets_a_write_leaves_no_row(
        store: Store, monkeypatch: pytest.MonkeyPatch, racing: str, deleted: str) -> None:
    """Delete game while another screen's write to that game commits (a Record, a link
    opened, a form kept), either one first: nothing of the game stays. On PostgreSQL the
    deletion read the other tables before the write committed and took the game's row after:
    the new revision and its entry, the new list's row or the kept form stayed behind, the
    entry's text on the server for good with no game to reach it."""
    game_id = store.create(upto(1), "a")
    token = store.links(game_id).edit
    write: Callable[[], object] = {
        "save": lambda: store.save(game_id, upto(2), "recorded event 2"),
        "open_link": lambda: store.open_link("b", token),
        "keep_draft": lambda: store.keep_draft("b", game_id, {"by": "Secret"}),
    }[racing]

    def quietly() -> object:  # (a save after the deletion finds no game: `GameGoneError`)
        try:
            return write()
        except GameGoneError:
            return None

    calls = (quietly, lambda: store.delete(game_id))
    meeting(monkeypatch, store.engine, *(calls if deleted == "after" else calls[::-1]))
    assert rows_of(store, game_id) == dict.fromkeys(
        ("games", "revisions", "events", "shelves", "drafts"), 0)


def test_a_draft_lives_until_its_save_commits(store: Store) -> None:
    game_id = store.create(upto(0), "a")
    form = {"by": "Bob", "e_weapon": "Rope", "r_cards": ["Knife"], "e_shown": None}
    store.keep_draft("a", game_id, form)
    assert store.take_draft("a", game_id) == form
    assert store.take_draft("a", game_id) is None
    store.keep_draft("a", game_id, form)
    store.save(game_id, upto(1), "recorded event 1", draft_of="a")
    assert store.take_draft("a", game_id) is None


def test_two_tabs_keeping_a_draft_at_once_keep_the_later(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two tabs of one browser record an entry of one game at once, through two servers: both
    keep their form, the later one stays. On PostgreSQL both found no draft and added one: the
    second broke the drafts' key, so its tab said 'Not saved: the database reported a
    problem'."""
    game_id = store.create(upto(0), "a")
    outcomes = meeting(monkeypatch, store.engine,
                       lambda: store.keep_draft("a", game_id, {"by": "Ann"}),
                       lambda: store.keep_draft("a", game_id, {"by": "Bob"}))
    assert outcomes == (None, None)
    assert store.take_draft("a", game_id) == {"by": "Bob"}


def test_a_tab_forgets_only_the_form_it_kept(store: Store) -> None:
    """The Turn form, once emptied, forgets the draft it kept (`notebook_app.kept`), but not
    one another tab of the browser kept since: the later typing wins."""
    game_id = store.create(upto(0), "a")
    mine, theirs = {"by": "Ann", "draft": "typing"}, {"by": "Bob", "draft": "typing"}
    store.keep_draft("a", game_id, mine)
    store.keep_draft("a", game_id, theirs)
    store.drop_draft("a", game_id, mine)
    assert store.take_draft("a", game_id) == theirs
    store.keep_draft("a", game_id, mine)
    store.drop_draft("a", game_id, mine)
    assert store.take_draft("a", game_id) is None


def test_keeping_the_form_waits_only_briefly_for_the_database(store: Store) -> None:
    """A tap's run keeps the form with a short wait: while another call holds the database
    (SQLite: its write lock; PostgreSQL: the draft's row), it gives up within a second (the
    next run keeps the form), where a save waits `LOCK_TIMEOUT`."""
    game_id = store.create(upto(0), "a")
    store.keep_draft("a", game_id, {"by": "Ann"})
    holder = store.engine.connect()
    if holder.dialect.name == "sqlite":
        holder = holder.execution_options(sqlite_begin="IMMEDIATE")
    holding = holder.begin()
    holder.execute(sa.select(drafts.c.form).where(drafts.c.shelf == "a").with_for_update())
    try:
        started = time.monotonic()
        with pytest.raises(StoreError):
            store.keep_draft("a", game_id, {"by": "Bob"}, wait=0.25)
        took = time.monotonic() - started
    finally:
        holding.rollback()
        holder.close()
    assert took < 1.5, took
    assert store.take_draft("a", game_id) == {"by": "Ann"}


def test_a_kept_draft_is_put_back_once(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two tabs of one browser open a game with a kept draft at once, through two servers: one
    of them puts the entry back in its form. On PostgreSQL both read it before either deleted
    it, so both tabs offered the unsaved entry, to be recorded twice."""
    game_id = store.create(upto(0), "a")
    store.keep_draft("a", game_id, {"by": "Bob"})
    outcomes = meeting(monkeypatch, store.engine, lambda: store.take_draft("a", game_id),
                       lambda: store.take_draft("a", game_id))
    assert sorted(outcomes, key=repr) == [None, {"by": "Bob"}]


# --- migration from every release's saved database -----------------------------------------


FIXTURES = ROOT / "tests" / "fixtures"
RELEASES = {"0001": "games-v0", "0002": "games-v1"}
"""A database saved by the release at each schema version (``tests/fixtures/make_fixtures.py``
says how each was written, by that release's own code)."""


def test_every_schema_version_has_a_saved_database() -> None:
    """A new migration comes with a database saved by the release before it, kept for good."""
    versions = ROOT / "notebook_app" / "migrations" / "versions"
    assert {p.name.split("_")[0] for p in versions.glob("[0-9]*.py")} == set(RELEASES)
    for name in RELEASES.values():
        assert (FIXTURES / f"{name}.sqlite3").is_file() and (FIXTURES / f"{name}.json").is_file()


@pytest.mark.parametrize("name", RELEASES.values())
def test_an_older_releases_database_opens_with_its_games(tmp_path: Path, name: str) -> None:
    path = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURES / f"{name}.sqlite3", path)
    expected = json.loads((FIXTURES / f"{name}.json").read_text())
    store = Store(path)
    for game_id, want in expected["games"].items():
        latest = store.latest(game_id)
        assert latest is not None
        assert (latest.log, latest.seq, latest.note) == (parse(want["log"]), want["seq"],
                                                         want["note"])
    for shelf, listed in expected["shelves"].items():
        assert sorted(g.id for g in store.games(shelf)) == listed
    for game_id, want in expected["games"].items():  # undo walks back through old revisions
        assert store.undo(game_id, want["seq"])
        before = store.latest(game_id)
        assert before is not None and before.seq < want["seq"]
        seq = store.save(game_id, parse(want["log"]), want["note"], after=before.seq)
        assert seq > want["seq"]  # numbers are not reused, even after an old release's undo
    Store(path)  # opening it again changes nothing
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_two_servers_opening_a_new_database_at_once_migrate_it_once(
        request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        kind: str) -> None:
    """The second waits for the first's migration, then finds the schema up to date."""
    where = str(tmp_path / "games.sqlite3") if kind == "sqlite" else \
        request.getfixturevalue("postgres_url")
    watch = sa.create_engine("sqlite://" if kind == "sqlite" else where)
    first, second = meeting(monkeypatch, watch, lambda: Store(where), lambda: Store(where))
    watch.dispose()
    assert isinstance(first, Store) and isinstance(second, Store), (first, second)
    game_id = first.create(upto(1), "a")
    assert [g.id for g in second.games("a")] == [game_id]
    first.engine.dispose()
    second.engine.dispose()


def test_first_release_links_still_open_their_games(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURES / "games-v0.sqlite3", path)
    store = Store(path)
    for game_id in json.loads((FIXTURES / "games-v0.json").read_text())["games"]:
        assert store.opened_by(game_id) == (game_id, "edit")


def test_a_kept_draft_survives_the_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURES / "games-v1.sqlite3", path)
    store = Store(path)
    drafts = [store.take_draft("shelf-bob", g)
              for g in json.loads((FIXTURES / "games-v1.json").read_text())["games"]]
    assert {"kind": "Suggestion", "by": "Bob"} in drafts


# --- failures are messages, never tracebacks ---------------------------------------------------


def test_a_deleted_game_leaves_nothing_in_the_database_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite marks deleted rows' space free and leaves their bytes in the file: a deleted
    game's title, names and entries could be read back from it. They are overwritten, also
    with an SQLite built without SECURE_DELETE on by default (Debian's has it; others not)."""
    plain_connect = sqlite3.connect

    def connect(*args: object, **kwargs: object) -> sqlite3.Connection:
        conn = plain_connect(*args, **kwargs)  # type: ignore[arg-type]
        conn.execute("PRAGMA secure_delete = OFF")  # as such a build starts
        return conn

    monkeypatch.setattr(sqlite3, "connect", connect)
    where = tmp_path / "games.sqlite3"
    store = Store(where)
    secret = replace(upto(30), game=replace(SIX.game, title="Zanzibar-at-Quentin's"))
    store.create(upto(5), "a")
    game_id = store.create(secret, "a")
    store.keep_draft("a", game_id, {"n_text": "Quentin-holds-the-Xylophone"})
    assert b"Zanzibar" in where.read_bytes() and b"Xylophone" in where.read_bytes()
    store.delete(game_id)
    data = where.read_bytes()
    assert b"Zanzibar" not in data and b"Xylophone" not in data
    assert store.load(next(g.id for g in store.games("a"))) == upto(5)


def test_a_deleted_game_leaves_nothing_in_the_write_ahead_log(tmp_path: Path) -> None:
    """The write-ahead log (``games.sqlite3-wal``) keeps the pages of every write since its
    last reset, and lives on while any other connection is open (another server on the file,
    another tab's read): a deleted game's title and entries could be read back from it. It is
    emptied after a deletion."""
    where = tmp_path / "games.sqlite3"
    store = Store(where)
    other = sqlite3.connect(where)  # another server's connection, idle
    try:
        other.execute("SELECT count(*) FROM games").fetchall()
        secret = replace(upto(30), game=replace(SIX.game, title="Zanzibar-at-Quentin's"))
        kept = store.create(upto(5), "a")
        game_id = store.create(secret, "a")
        store.keep_draft("a", game_id, {"n_text": "Quentin-holds-the-Xylophone"})
        store.delete(game_id)
        files = {f.name: f.read_bytes() for f in tmp_path.iterdir()}
        assert "games.sqlite3-wal" in files  # (kept open by the other connection)
        for name, data in files.items():
            assert b"Zanzibar" not in data and b"Xylophone" not in data, name
        assert store.load(kept) == upto(5)
        assert other.execute("SELECT count(*) FROM games").fetchone() == (1,)
    finally:
        other.close()


def test_a_locked_database_refuses_within_seconds(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    game_id = store.create(upto(0), "a")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        started = time.monotonic()
        with pytest.raises(StoreError, match="busy"):
            store.save(game_id, upto(1), "recorded event 1", after=1)
        assert time.monotonic() - started < 8
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    store.save(game_id, upto(1), "recorded event 1", after=1)
    assert store.load(game_id) == upto(1)


def test_a_full_disk_says_so(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    game_id = store.create(upto(0), "a")
    pages = sqlite3.connect(path).execute("PRAGMA page_count").fetchone()[0]
    sa.event.listen(store.engine, "connect",
                    lambda db, _: db.execute(f"PRAGMA max_page_count = {pages}"))
    with pytest.raises(StoreError, match="full"):
        for n in range(1, len(SIX.events) + 1):
            store.save(game_id, upto(n), f"recorded event {n}")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files anyway")
def test_a_read_only_database_says_so(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    game_id = store.create(upto(0), "a")
    path.chmod(0o444)
    with pytest.raises(StoreError, match="read-only"):
        store.save(game_id, upto(1), "recorded event 1")


def test_a_damaged_or_deleted_database_says_so(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    game_id = store.create(upto(0), "a")
    path.write_bytes(b"this is not a database" * 200)
    with pytest.raises(StoreError, match="damaged"):
        store.latest(game_id)
    path.unlink()
    with pytest.raises(StoreError, match="cannot be reached"):
        store.save(game_id, upto(1), "recorded event 1")
    assert not path.exists()  # a deleted file is reported, never silently recreated empty


def test_failure_reasons_in_plain_words() -> None:
    assert reason_for(sqlite3.OperationalError("database or disk is full")).startswith(
        "the disk holding the database is full")
    assert "read-only" in reason_for(sqlite3.OperationalError(
        "attempt to write a readonly database"))
    assert "damaged" in reason_for(sqlite3.DatabaseError("database disk image is malformed"))


@pytest.mark.parametrize("depth", [100_000, 600])
def test_stored_json_too_deep_to_read_is_damaged(tmp_path: Path, depth: int) -> None:
    """A stored event of 100,000 nested brackets (a damaged or tampered file) raised a
    RecursionError, not the damage the store reports: opening the game and listing its shelf
    ended in a traceback. It is damaged JSON like any other: the game says so, the list
    stays. 600 brackets the JSON reader reads, and dropping the bidirectional controls from
    them (`unturned`, two calls a level) raised the RecursionError instead."""
    from solver.errors import InvalidLogError

    path = tmp_path / "games.sqlite3"
    store = Store(path)
    game_id = store.create(upto(2), "a")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET body = ? WHERE game_id = ?",
                   ("[" * depth + "]" * depth, game_id))
    with pytest.raises(InvalidLogError, match=r"stored JSON is damaged \(nested too deeply"):
        store.latest(game_id)
    assert [game.id for game in store.games("a")] == [game_id]


@pytest.mark.parametrize("form", ["[" * 100_000 + "]" * 100_000, '{"kind": "No'])
def test_a_damaged_kept_form_is_no_form(tmp_path: Path, form: str) -> None:
    """A kept form that is not JSON, or too deep to read (a damaged or tampered file), raised
    from take_draft (a JSONDecodeError, a RecursionError) where opening the game asks for the
    form it kept: it is no form, and it is gone."""
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    game_id = store.create(upto(2), "a")
    store.keep_draft("a", game_id, {"kind": "Note"})
    with sqlite3.connect(path) as db:
        db.execute("UPDATE drafts SET form = ? WHERE game_id = ?", (form, game_id))
    assert store.take_draft("a", game_id) is None
    assert store.take_draft("a", game_id) is None


def test_a_stored_note_too_deep_to_read_is_said_as_its_text() -> None:
    """A revision's note that is JSON of 100,000 nested brackets (a damaged or tampered file)
    raised a RecursionError where every other damaged note reads as its text: the game's
    history, the undo line and an edit's entry before it ended in a traceback."""
    from notebook_app.history import UNKNOWN, before_edit, told

    deep = "[" * 100_000 + "]" * 100_000
    note = '{"say": "x", "args": ' + deep + "}"
    assert told(note).msgid == UNKNOWN
    edited = json.dumps({"say": "edited event {n}", "args": {"n": 1, "was": deep}})
    assert told(edited).msgid == "edited event {n}"
    assert before_edit(edited, upto(2)) is None
