"""Saved games in SQLite: every change is a new revision, so nothing is lost and undo is a query.

The database path comes from ``CLUE_NOTEBOOK_DB``; by default it lives in the user's data
directory (``$XDG_DATA_HOME`` or ``~/.local/share``), or in ``./clue-notebook.sqlite3`` when that
cannot be created. Game ids are unguessable (`secrets.token_urlsafe`). A *shelf* is the list of
games one browser knows about (its id travels in the URL too), so the saved-games list of one
person never shows another's games.

>>> import tempfile, pathlib
>>> from solver.logfile import loads
>>> log = loads('''{"format": "clue-notebook/1", "edition": "clue-classic",
...   "players": [{"name": "Ann", "hand_size": 9}, {"name": "Bob", "hand_size": 9}]}''')
>>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite3")
>>> game_id = store.create(log, shelf="s1")
>>> store.load(game_id) == log
True
>>> [g.id for g in store.games("s1")] == [game_id], store.games("s2")
(True, [])
"""

from __future__ import annotations

import os
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from solver.game import GameLog
from solver.logfile import dumps, loads, read_bytes

DB_ENV = "CLUE_NOTEBOOK_DB"
"""Environment variable with the database path."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS revisions (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    saved TEXT NOT NULL,
    note TEXT NOT NULL,
    title TEXT NOT NULL,
    events INTEGER NOT NULL,
    log TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS shelves (
    shelf TEXT NOT NULL,
    game_id TEXT NOT NULL,
    added TEXT NOT NULL,
    PRIMARY KEY (shelf, game_id)
);
"""


def default_path() -> Path:
    """``$CLUE_NOTEBOOK_DB``, else a file in the user's data directory, else the working one."""
    configured = os.environ.get(DB_ENV, "").strip()
    if configured:
        return Path(configured).expanduser()
    base = os.environ.get("XDG_DATA_HOME", "").strip()
    folder = (Path(base) if base else Path.home() / ".local" / "share") / "clue-notebook"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return Path("clue-notebook.sqlite3")
    return folder / "games.sqlite3"


def new_id() -> str:
    """An unguessable id for a game or a shelf."""
    return secrets.token_urlsafe(12)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _title(log: GameLog) -> str:
    game = log.game
    return game.title or ", ".join(game.player_names)


class StaleRevisionError(Exception):
    """Another screen saved the game since this one loaded it: saving now would drop its change."""

    def __init__(self, game_id: str, expected: int, newest: int) -> None:
        super().__init__(f"game {game_id!r}: expected revision {expected}, newest is {newest}")
        self.expected = expected
        self.newest = newest


@dataclass(frozen=True)
class SavedGame:
    """One line of the saved-games list."""

    id: str
    """The game id (as in the URL)."""
    title: str
    """The game's title, or its players."""
    events: int
    """How many events the log holds."""
    saved: str
    """When it was last changed (UTC, ISO 8601)."""


@dataclass(frozen=True)
class Revision:
    """The latest saved state of a game."""

    log: GameLog
    """The log."""
    seq: int
    """Revision number, from 1."""
    note: str
    """What changed, for the undo button ("recorded event 4")."""


class Store:
    """The games database; opens a short-lived connection per call (safe across threads)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        with self._connect() as db:
            db.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(self.path, timeout=10)) as db, db:
            yield db

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A connection holding the write lock from its first read (``BEGIN IMMEDIATE``), so
        what it reads cannot change before it writes; committed on success."""
        with closing(sqlite3.connect(self.path, timeout=10, isolation_level=None)) as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def create(self, log: GameLog, shelf: str, note: str = "started the game") -> str:
        """Save a new game; returns its id."""
        game_id = new_id()
        self.save(game_id, log, note)
        self.shelve(shelf, game_id)
        return game_id

    def save(self, game_id: str, log: GameLog, note: str, after: int | None = None) -> int:
        """Store ``log`` as the game's newest revision; returns its number.

        With ``after`` (the revision the log was built on), `StaleRevisionError` if another
        revision was saved since: the caller reloads rather than save over it.
        """
        with self._transaction() as db:
            row = db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM revisions WHERE game_id = ?", (game_id,)
            ).fetchone()
            newest = int(row[0])
            if after is not None and newest != after:
                raise StaleRevisionError(game_id, after, newest)
            db.execute(
                "INSERT INTO revisions VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, newest + 1, _now(), note, _title(log), len(log.events), dumps(log)),
            )
        return newest + 1

    def latest(self, game_id: str) -> Revision | None:
        """The newest revision of a game, or ``None`` for an unknown id."""
        with self._connect() as db:
            row = db.execute(
                "SELECT log, seq, note FROM revisions WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone()
        if row is None:
            return None
        return Revision(loads(row[0]), int(row[1]), str(row[2]))

    def seq(self, game_id: str) -> int | None:
        """The number of the game's newest revision (cheap: no log is parsed)."""
        with self._connect() as db:
            row = db.execute(
                "SELECT MAX(seq) FROM revisions WHERE game_id = ?", (game_id,)
            ).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def load(self, game_id: str) -> GameLog | None:
        """The game's current log, or ``None`` for an unknown id."""
        latest = self.latest(game_id)
        return None if latest is None else latest.log

    def undo(self, game_id: str, seq: int) -> bool:
        """Drop revision ``seq`` if it is still the game's newest (never the first); whether it
        was dropped. A screen that has not seen a newer revision saved elsewhere cannot undo it."""
        with self._connect() as db:
            dropped = db.execute(
                "DELETE FROM revisions WHERE game_id = ? AND seq = ? AND seq > 1 AND seq = "
                "(SELECT MAX(seq) FROM revisions WHERE game_id = ?)",
                (game_id, seq, game_id),
            ).rowcount
        return dropped == 1

    def shelve(self, shelf: str, game_id: str) -> None:
        """Put a game on a shelf (the saved-games list of one browser)."""
        with self._connect() as db:
            db.execute("INSERT OR IGNORE INTO shelves VALUES (?, ?, ?)", (shelf, game_id, _now()))

    def forget(self, shelf: str, game_id: str) -> None:
        """Take a game off a shelf (the game itself stays, reachable by its link)."""
        with self._connect() as db:
            db.execute("DELETE FROM shelves WHERE shelf = ? AND game_id = ?", (shelf, game_id))

    def games(self, shelf: str) -> list[SavedGame]:
        """The games on a shelf, most recently changed first."""
        with self._connect() as db:
            rows = db.execute(
                """SELECT r.game_id, r.title, r.events, r.saved FROM shelves s
                   JOIN revisions r ON r.game_id = s.game_id
                   WHERE s.shelf = ? AND r.seq =
                       (SELECT MAX(seq) FROM revisions WHERE game_id = s.game_id)
                   ORDER BY r.saved DESC, r.game_id""",
                (shelf,),
            ).fetchall()
        return [SavedGame(str(i), str(t), int(e), str(s)) for i, t, e, s in rows]


def parse_upload(data: bytes, name: str | None = None) -> GameLog:
    """A log from an uploaded file (``name``: as the browser named it); `InvalidLogError`
    (naming the problem) for bad input.

    The command line reads files the same way (`solver.logfile.read_bytes`), so the limits of
    `solver.limits` are checked before any solver is built, the same in both."""
    return read_bytes(data, "file: the upload" if name is None else f"file: {name!r}")
