"""Every database call of the app under every database fault: a database that is locked,
read-only, full or damaged gives the player a message saying what did not happen and why,
keeps what they typed and what was saved, and never shows a traceback or a blank page.

The calls are those a player makes: list this browser's games, open one (by the address or by
a link), start a game, record an entry, delete one, undo, follow another screen's change, see
the links, make new links, take a game off the list. The faults are real where SQLite can make
them so: another connection holding the write lock (``BEGIN EXCLUSIVE``), a connection that may
not write (``PRAGMA query_only``), a file overwritten with junk; a full disk is SQLite's own
"database or disk is full" raised on every write (a file that really cannot grow is in
``tests/test_app_storage.py`` and ``tests/test_store.py``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

import notebook_app.store as store_module
from notebook_app.store import DB_ENV, Store
from solver.game import Suggestion
from tests.test_app_storage import ANN, BOB, browser, classic, pick, texts

FIRST = Suggestion("Bob", ("Mrs. White", "Knife", "Lounge"), refuted_by="Cat")
FAULTS = ("locked", "read-only", "full", "damaged")
REASONS = {
    "locked": "the database is busy with another save",
    "read-only": "the database is read-only",
    "full": "the disk holding the database is full",
    "damaged": "the database file is damaged",
}
WRITES = ("INSERT", "UPDATE", "DELETE", "BEGIN IMMEDIATE")


@dataclass
class Table:
    """A database with one game of Ann's (one event), and a switch for one fault."""

    db: Path
    store: Store
    game_id: str
    fault: str | None = None

    @contextmanager
    def failing(self, fault: str) -> Iterator[None]:
        """The database with ``fault`` until the block ends; then as it was."""
        saved = self.db.read_bytes()
        holder: sqlite3.Connection | None = None
        if fault == "locked":
            holder = sqlite3.connect(self.db, isolation_level=None)
            holder.execute("BEGIN EXCLUSIVE")
        elif fault == "damaged":
            self.db.write_bytes(b"this is not a database" * 400)
        else:
            self.fault = fault
        try:
            yield
        finally:
            self.fault = None
            if holder is not None:
                holder.execute("ROLLBACK")
                holder.close()
            if fault == "damaged":
                self.db.write_bytes(saved)


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    db = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(db))
    monkeypatch.setattr(store_module, "LOCK_TIMEOUT", 1.0)  # the real 5 s: test_app_storage
    make = store_module._sqlite_engine
    switch: list[Table] = []

    def engine(path: Path) -> sa.Engine:
        made = make(path)

        @sa.event.listens_for(made, "connect")
        def read_only(connection: sqlite3.Connection, _: object) -> None:
            if switch and switch[0].fault == "read-only":
                connection.execute("PRAGMA query_only = ON")

        @sa.event.listens_for(made, "before_cursor_execute")
        def full(*args: object) -> None:
            statement = str(args[2]).lstrip().upper()
            if switch and switch[0].fault == "full" and statement.startswith(WRITES):
                raise sqlite3.OperationalError("database or disk is full")

        return made

    monkeypatch.setattr(store_module, "_sqlite_engine", engine)
    store = Store(db)
    made = Table(db, store, store.create(classic(FIRST, title="Friday"), ANN))
    switch.append(made)
    return made


def calm(at: AppTest) -> str:
    """The screen's text, after checking it is a screen: no exception, no traceback, no path."""
    assert not at.exception, at.exception
    text = texts(at)
    assert "Traceback" not in text and "File \"" not in text and "sqlite3." not in text
    assert at.main.children, "a blank page"
    return text


def events_saved(table: Table) -> int:
    latest = table.store.latest(table.game_id)
    assert latest is not None
    return len(latest.log.events)


# --- each call: what the player does, and what the screen must say -------------------------

Call = Callable[[Table, pytest.MonkeyPatch, str], None]


def list_games(table: Table, monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    with table.failing(fault):
        text = calm(at := browser(monkeypatch, ANN))
    if fault == "damaged":
        assert f"Your saved games cannot be listed now: {REASONS[fault]}" in text
    else:  # reading never waits for a save, nor needs to write
        assert any(b.key == f"open_{table.game_id}" for b in at.button)


def open_by_address(table: Table, monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    with table.failing(fault):
        text = calm(at := browser(monkeypatch, ANN, game=table.game_id))
    if fault == "damaged":  # a reload while it is damaged: a message, the address kept
        assert f"The game could not be opened: {REASONS[fault]}" in text
        assert at.query_params["game"] == table.game_id
        assert "game_id" in browser(monkeypatch, ANN, game=table.game_id).session_state
    else:  # a reload during a lock (or on a read-only or full disk) shows the game
        assert at.session_state["game_id"] == table.game_id
        assert len(at.session_state["live"].log.events) == 1


def open_by_link(table: Table, monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    link = table.store.links(table.game_id).edit
    with table.failing(fault):
        text = calm(browser(monkeypatch, BOB, game=link))
    assert f"The game could not be opened: {REASONS[fault]}" in text
    assert "game_id" in browser(monkeypatch, BOB, game=link).session_state  # later it opens


def start_game(table: Table, monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    at = browser(monkeypatch, ANN)
    at.selectbox(key="example").set_value("rules-example-1")
    with table.failing(fault):
        text = calm(at.button(key="open_example").click().run())
    assert f"The game was not started: {REASONS[fault]}" in text
    assert "live" not in at.session_state
    assert len(table.store.games(ANN)) == 1


def record(table: Table, monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    at = browser(monkeypatch, ANN, game=table.game_id)
    pick(at, "Mr. Green", "Rope", "Library")
    if at.pills(key="by").value == "Cat":
        at.pills(key="e_refuter").set_value("Dan")
    with table.failing(fault):
        text = calm(at.button(key="submit").click().run())
    assert f"Not saved: recorded event 2: {REASONS[fault]}" in text
    assert at.pills(key="e_weapon").value == "Rope"  # what was typed is kept
    assert events_saved(table) == 1
    calm(at.button(key="submit").click().run())  # and Record works once the fault is gone
    assert events_saved(table) == 2


def delete(table: Table, monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    at = browser(monkeypatch, ANN, game=table.game_id)
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_0").click().run()  # the entry opens in the form, with Delete
    with table.failing(fault):
        text = calm(at.button(key="delete_entry").click().run())
    assert f"Not saved: deleted event 1: {REASONS[fault]}" in text
    assert len(at.session_state["live"].log.events) == 1 and events_saved(table) == 1


def undo(table: Table, monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    table.store.save(table.game_id, classic(FIRST, FIRST, title="Friday"), "recorded event 2")
    at = browser(monkeypatch, ANN, game=table.game_id)
    with table.failing(fault):
        text = calm(at.button(key="undo").click().run())
    assert f"Nothing was undone: {REASONS[fault]}" in text
    assert len(at.session_state["live"].log.events) == 2 and events_saved(table) == 2


def follow(table: Table, monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    at = browser(monkeypatch, ANN, game=table.game_id)
    table.store.save(table.game_id, classic(FIRST, FIRST, title="Friday"), "recorded event 2")
    with table.failing(fault):
        text = calm(at.run())
    if fault == "damaged":
        assert f"Changes from other screens cannot be shown now: {REASONS[fault]}" in text
        assert len(at.session_state["live"].log.events) == 1  # as last seen
    else:  # another screen's entry is shown: reading needs no write
        assert len(at.session_state["live"].log.events) == 2


def links(table: Table, monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    at = browser(monkeypatch, ANN, game=table.game_id)
    with table.failing(fault):
        text = calm(at.segmented_control(key="view").set_value("Game").run())
    if fault == "damaged":
        assert f"The game's links cannot be shown now: {REASONS[fault]}" in text
    else:
        assert len(at.code) == 2


def new_links(table: Table, monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    old = table.store.links(table.game_id)
    at = browser(monkeypatch, ANN, game=table.game_id)
    at.segmented_control(key="view").set_value("Game").run()
    at.button(key="new_links").click().run()  # asks first
    with table.failing(fault):
        text = calm(at.button(key="confirm_new_links").click().run())
    assert f"The links were not changed: {REASONS[fault]}" in text
    assert table.store.links(table.game_id) == old


def forget(table: Table, monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    at = browser(monkeypatch, ANN, game=table.game_id)
    at.segmented_control(key="view").set_value("Game").run()
    with table.failing(fault):
        text = calm(at.button(key="forget_game").click().run())
    assert f"The game is still on your list: {REASONS[fault]}" in text
    assert [g.id for g in table.store.games(ANN)] == [table.game_id]


CALLS: dict[str, Call] = {
    "list": list_games, "open": open_by_address, "open a link": open_by_link,
    "start": start_game, "record": record, "delete": delete, "undo": undo, "follow": follow,
    "links": links, "new links": new_links, "forget": forget,
}


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("call", CALLS)
def test_every_call_under_every_fault_is_a_message(
    table: Table, monkeypatch: pytest.MonkeyPatch, call: str, fault: str
) -> None:
    CALLS[call](table, monkeypatch, fault)
    with sqlite3.connect(table.db) as db:  # and the file is sound afterwards
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
