"""Saved games through SQLAlchemy: SQLite by default, PostgreSQL by URL.

Every change is a revision, so undo is a query and a stale screen cannot save over another
one's change; a revision stores only what changed (events appended, edited or dropped), so a
long game costs kilobytes, not a copy of the log per entry (see ``docs/storage.md``).

Who sees what:

- a *shelf* is the list of games one browser keeps; its id lives in that browser's cookie,
  never in a link;
- a game has an internal id and two *links*: one that lets its holder read the game, one that
  lets them edit it. Opening a link puts that one game on the opener's shelf with that access.

``CLUE_NOTEBOOK_DB`` is a file path (SQLite) or a database URL (``postgresql://…``); by default
a file in the user's data directory (``$XDG_DATA_HOME`` or ``~/.local/share``), or
``./clue-notebook.sqlite3`` when that cannot be created. The schema is migrated with Alembic
(``notebook_app/migrations``) when a `Store` opens a database.

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
>>> store.opened_by(store.links(game_id).read) == (game_id, "read")
True
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import sqlite3
import string
from collections.abc import Callable, Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, ParamSpec, TypeVar, cast
from urllib.parse import quote

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import NullPool

from solver.ending import Close, Ending, ending
from solver.errors import InvalidLogError
from solver.game import Accusation, Event, GameLog, Triple
from solver.i18n import N_, gettext
from solver.limits import BIDI_CONTROLS
from solver.logfile import decode, event_to_json, parse, to_json
from solver.notation import read_log_any

from .history import changed_entry, started

DB_ENV = "CLUE_NOTEBOOK_DB"
"""Environment variable with the database path or URL."""

LOCK_TIMEOUT = 5.0
"""Seconds a call waits for a database another save holds before it gives up ("Not saved")."""

DRAFT_TEXT_MOST = 20_000
"""Characters of one field a kept form keeps (`Store.keep_draft`): ten times what the longest
box of the Turn form takes (the note's remark, 2,000). A longer text, refused in the form
anyway, is left out, not written to the database as sent (a paste of megabytes was)."""

Access = Literal["owner", "edit", "read"]
"""What a browser may do with a game: ``owner`` started it (edit, and sees both links),
``edit`` got its edit link, ``read`` its read link."""

RANK: dict[str, int] = {"read": 0, "edit": 1, "owner": 2}

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")

metadata = sa.MetaData()
games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("created", sa.String(32), nullable=False),
    sa.Column("read_token", sa.String(32), nullable=False, unique=True),
    sa.Column("edit_token", sa.String(32), nullable=False, unique=True),
    sa.Column("head", sa.Integer, nullable=False),  # the revision shown (undo moves it back)
    sa.Column("last_seq", sa.Integer, nullable=False),  # the last number given (never reused)
)
revisions = sa.Table(
    "revisions", metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("saved", sa.String(32), nullable=False),
    sa.Column("note", sa.Text, nullable=False),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("events", sa.Integer, nullable=False),
    sa.Column("header", sa.Text),  # the log without its events, when this revision changed it
)
events = sa.Table(
    "events", metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("position", sa.Integer, primary_key=True),
    sa.Column("added_in", sa.Integer, primary_key=True),
    sa.Column("dropped_in", sa.Integer),  # NULL while the event is in the newest revision
    sa.Column("body", sa.Text, nullable=False),  # the event as clue-notebook/1 JSON
    sa.Index("events_live", "game_id", "dropped_in", "position"),
)
shelves = sa.Table(
    "shelves", metadata,
    sa.Column("shelf", sa.String(64), primary_key=True),
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("added", sa.String(32), nullable=False),
    sa.Column("access", sa.String(8), nullable=False, server_default="edit"),
)
drafts = sa.Table(
    "drafts", metadata,
    sa.Column("shelf", sa.String(64), primary_key=True),
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("saved", sa.String(32), nullable=False),
    sa.Column("form", sa.Text, nullable=False),  # the entry form's fields, JSON
)


# --- where the database is -----------------------------------------------------------------


def default_path() -> Path:
    """A file in the user's data directory, else in the working one."""
    base = os.environ.get("XDG_DATA_HOME", "").strip()
    folder = (Path(base) if base else Path.home() / ".local" / "share") / "clue-notebook"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return Path("clue-notebook.sqlite3")
    return folder / "games.sqlite3"


def configured() -> str:
    """``$CLUE_NOTEBOOK_DB`` (a path or a URL), else the default file's path."""
    return os.environ.get(DB_ENV, "").strip() or str(default_path())


def is_url(where: str) -> bool:
    """Whether ``where`` is a database URL rather than a file path."""
    return "://" in where


ID_LETTERS = string.ascii_letters + string.digits
"""What an id is written with: no ``-``, where a phone's narrow screen broke a link's line
("…?game=s9JzbXX-" / "NntSuvC1", read as a hyphenated word), nor ``_``."""


def new_id() -> str:
    """An unguessable id for a game, a link or a shelf: 16 letters and digits (95 bits)."""
    return "".join(secrets.choice(ID_LETTERS) for _ in range(16))


def _insert(db: Connection, table: sa.Table) -> postgresql.Insert | sqlite.Insert:
    """An INSERT into ``table`` in the database's dialect, for ``on_conflict_do_update``: a row
    another server adds at the same moment is then updated (once that one commits) instead of
    breaking the key."""
    return (postgresql.insert if db.dialect.name == "postgresql" else sqlite.insert)(table)


def _rank(access: sa.ColumnElement[str]) -> sa.ColumnElement[int]:
    """`RANK` of an access, in SQL."""
    return sa.case(RANK, value=access, else_=0)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _title(game_log: GameLog) -> str:
    game = game_log.game
    return game.title or ", ".join(game.player_names)


def canonical(value: object) -> str:
    """JSON text used to store a log's parts (and compare them)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def split(game_log: GameLog) -> tuple[str, list[str]]:
    """A log as stored: its header (everything but the events) and each event, as JSON."""
    data = to_json(game_log)
    data.pop("events")
    return canonical(data), [canonical(event_to_json(e)) for e in game_log.events]


def join(header: str, bodies: list[str]) -> GameLog:
    """The log a header and event bodies describe (checked like any file, but for the
    bidirectional controls a game saved before they were refused may hold: dropped from every
    name and text, `unturned`, so that the game still opens)."""
    data: dict[str, Any] = stored(header)
    data["events"] = [stored(b) for b in bodies]
    return parse(data)


def stored(text: str) -> Any:
    """Stored JSON, read and `unturned`; `json.JSONDecodeError` where it is damaged, nesting
    too deep to read too (a body of 100,000 ``[`` raised a RecursionError that no caller
    expects: opening the game, and listing its shelf, ended in a traceback; one of 600, which
    the JSON reader reads, did so in `unturned`).

    >>> stored('{"a": [1]}'), stored("[" * 100_000 + "]" * 100_000)
    Traceback (most recent call last):
    json.decoder.JSONDecodeError: nested too deeply to read: line 1 column 1 (char 0)
    """
    try:
        return unturned(json.loads(text))
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply to read", text, 0) from None


UNTURN = dict.fromkeys(map(ord, BIDI_CONTROLS))


def unturned(value: Any) -> Any:
    """``value`` (stored JSON) with every bidirectional control (`BIDI_CONTROLS`) dropped from
    its texts, keys too.

    >>> unturned({"players": [{"name": "\u202eEve\u202c"}], "title": "\u2068Fri\u2069"})
    {'players': [{'name': 'Eve'}], 'title': 'Fri'}
    """
    if isinstance(value, str):
        return value.translate(UNTURN)
    if isinstance(value, list):
        return [unturned(v) for v in value]
    if isinstance(value, dict):
        return {unturned(k): unturned(v) for k, v in value.items()}
    return value


# --- errors ------------------------------------------------------------------------------------


class StoreError(Exception):
    """The database could not do what was asked; ``reason`` says why in a player's words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_REASONS = (
    (("locked", "busy", "lock timeout", "canceling statement"),
     N_("the database is busy with another save; nothing was changed")),
    (("readonly", "read-only", "read only"), N_("the database is read-only")),
    (("full", "no space"), N_("the disk holding the database is full")),
    (("malformed", "not a database", "corrupt", "file is encrypted"),
     N_("the database file is damaged")),
    (("unable to open", "no such table", "disk i/o", "connection", "could not connect"),
     N_("the database cannot be reached (moved, deleted or offline)")),
)


def reason_for(err: BaseException) -> str:
    """A database failure in a player's words (the details go to the server log)."""
    text = str(getattr(err, "orig", None) or err).lower()
    for words, reason in _REASONS:
        if any(w in text for w in words):
            return reason
    return N_("the database reported a problem")


def _guarded(call: Callable[P, R]) -> Callable[P, R]:
    """Turn a database failure of ``call`` into `StoreError`, logged with its details."""
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return call(*args, **kwargs)
        except (sa_exc.SQLAlchemyError, sqlite3.Error, OSError) as err:
            log.warning("database call %s failed: %s", call.__name__, err, exc_info=True)
            raise StoreError(reason_for(err)) from err
    guarded.__name__ = call.__name__
    guarded.__doc__ = call.__doc__
    return guarded


class GameGoneError(KeyError):
    """No game has the id: its owner deleted it (`Store.delete`), or it never was."""


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
    """The game id (as in the address bar; it grants nothing by itself)."""
    title: str
    """The game's title, or its players."""
    events: int
    """How many events the log holds."""
    saved: str
    """When it was last changed (UTC, ISO 8601)."""
    access: str
    """What this browser may do with it (`Access`)."""
    titled: bool = False
    """Whether ``title`` is one the game was given (else it is the players, joined)."""
    players: tuple[str, ...] = ()
    """The players in seating order."""
    me: str | None = None
    """Whose notebook it is (``None``: a spectator's)."""
    last: Event | None = None
    """The last entry (``None`` for none, or one that no longer reads)."""
    winner: str | None = None
    """Who won, where someone did: the game is over (`solver.ending`)."""
    close: Close | None = None
    """What ended the game (`Close.UNSOLVED`: over with no winner); ``None`` while it goes on."""


ACCUSED = '{"type":"accusation",%'
"""An accusation as `canonical` stores it (a note's text holds ``\\"``, never ``"``)."""


def _listing() -> sa.Select[Any]:
    """The query behind `Store.games` (built once: building it cost more than running it)."""
    setup = revisions.alias("setup")
    header = (sa.select(setup.c.header)
              .where(setup.c.game_id == games.c.id, setup.c.header.is_not(None))
              .order_by(setup.c.seq.desc()).limit(1).scalar_subquery())
    last = (sa.select(events.c.body)
            .where(events.c.game_id == games.c.id, events.c.dropped_in.is_(None),
                   events.c.position == revisions.c.events - 1).scalar_subquery())
    return (sa.select(games.c.id, revisions.c.title, revisions.c.events, revisions.c.saved,
                      shelves.c.access, header, last)
            .select_from(shelves)
            .join(games, games.c.id == shelves.c.game_id)
            .join(revisions, sa.and_(revisions.c.game_id == games.c.id,
                                     revisions.c.seq == games.c.head))
            .where(shelves.c.shelf == sa.bindparam("shelf"))
            .order_by(revisions.c.saved.desc(), games.c.id))


LISTING = _listing()
ACCUSATIONS = (sa.select(events.c.game_id, events.c.body)
               .join(shelves, shelves.c.game_id == events.c.game_id)
               .where(shelves.c.shelf == sa.bindparam("shelf"), events.c.dropped_in.is_(None),
                      events.c.body.like(ACCUSED))
               .order_by(events.c.game_id, events.c.position))
"""The accusations of a shelf's games, in order: what ended each (`solver.ending`) needs its
wrong ones too. One query for the whole list, not one per game."""


@dataclass(frozen=True)
class Revision:
    """The latest saved state of a game."""

    log: GameLog
    """The log."""
    seq: int
    """Revision number: 1 is the start; numbers only grow (an undone one is never reused)."""
    note: str
    """What changed, for the undo button: a `notebook_app.history` note ("recorded event 4")."""


@dataclass(frozen=True)
class Links:
    """The two capabilities of a game, as tokens for ``?game=``."""

    read: str
    """Lets its holder see the game."""
    edit: str
    """Lets its holder record, edit and undo entries too."""


# --- the store ---------------------------------------------------------------------------------


def _sqlite_engine(path: Path) -> Engine:
    """A file database. Each call opens its own connection (no pool): a file moved or deleted
    while the app runs is an error to report, never a ghost that swallows saves."""
    uri = f"file:{quote(str(path.resolve()))}?mode=rw"

    def connect() -> sqlite3.Connection:
        conn = sqlite3.connect(uri, uri=True, timeout=LOCK_TIMEOUT, isolation_level=None,
                               check_same_thread=False)
        conn.execute("PRAGMA secure_delete = ON")  # a deleted game's bytes are overwritten,
        return conn  # not left in the file's free pages

    engine = sa.create_engine("sqlite://", creator=connect, poolclass=NullPool)

    @sa.event.listens_for(engine, "begin")
    def begin(conn: Connection) -> None:  # the driver's own transactions are off: ours are real
        options = conn.get_execution_options()
        if "sqlite_wait_ms" in options:  # this connection's own wait for the write lock
            conn.exec_driver_sql(f"PRAGMA busy_timeout = {int(options['sqlite_wait_ms'])}")
        conn.exec_driver_sql(f"BEGIN {options.get('sqlite_begin', '')}")

    return engine


def _url_engine(url: str) -> Engine:
    """A database server (PostgreSQL through psycopg 3): a small pool, bounded waits."""
    parsed = sa.engine.make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    args: dict[str, Any] = {}
    if parsed.get_backend_name() == "postgresql":
        ms = int(LOCK_TIMEOUT * 1000)
        args = {"connect_timeout": 5,
                "options": f"-c lock_timeout={ms} -c statement_timeout={10 * ms}"}
    return sa.create_engine(parsed, connect_args=args, pool_pre_ping=True, pool_size=5)


class Store:
    """The games database. Safe across threads and processes: every call is one transaction."""

    def __init__(self, where: str | Path) -> None:
        text = str(where)
        self.where = text
        if is_url(text):
            self.engine = _url_engine(text)
        else:
            path = Path(text).expanduser()
            self._create_file(path)
            self.engine = _sqlite_engine(path)
        self._migrate()

    @staticmethod
    @_guarded
    def _create_file(path: Path) -> None:
        """Create the file if missing (later connections never do) in write-ahead-log mode:
        a save syncs once, and reading the game never waits for another device's save."""
        with closing(sqlite3.connect(path, timeout=LOCK_TIMEOUT)) as db:
            db.execute("PRAGMA journal_mode = WAL")

    @_guarded
    def _migrate(self) -> None:
        from .migrations import current, head, upgrade  # Alembic: only when a database opens

        with self._read() as db:  # up to date: no write lock (another save may hold it)
            if current(db) == head():
                return
        with self._write() as db:
            upgrade(db)

    @contextmanager
    def _write(self, wait: float = LOCK_TIMEOUT) -> Iterator[Connection]:
        """A transaction that holds the write lock from its start (SQLite: ``BEGIN
        IMMEDIATE``), so what it reads cannot change before it writes. PostgreSQL locks only
        the rows a write touches, and each query sees what committed before it began: a row
        a write depends on is read ``with_for_update`` (a game's row, in `save`, `undo`,
        `open_link` and `keep_draft`; `delete` takes it first, so that its later queries see
        every row a write holding it added); a row that may not exist yet is added with an
        upsert (`_insert`), and one to take is deleted ``RETURNING`` it (`take_draft`).
        ``wait``: the seconds it waits for a lock another call holds, where shorter than
        `LOCK_TIMEOUT`."""
        with self.engine.connect() as conn:
            short = wait < LOCK_TIMEOUT
            if conn.dialect.name == "sqlite":
                conn = conn.execution_options(sqlite_begin="IMMEDIATE")
                if short:
                    conn = conn.execution_options(sqlite_wait_ms=int(wait * 1000))
            with conn.begin():
                if short and conn.dialect.name == "postgresql":
                    conn.exec_driver_sql(f"SET LOCAL lock_timeout = {int(wait * 1000)}")
                yield conn

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        """A transaction for reading: every query in it sees the same state (PostgreSQL:
        ``REPEATABLE READ``; SQLite's reads are so already)."""
        with self.engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                yield conn

    # --- games and revisions --------------------------------------------------------------

    @_guarded
    def create(self, game_log: GameLog, shelf: str, note: str = started()) -> str:
        """Save a new game, owned by ``shelf``; returns its id."""
        game_id = new_id()
        header, bodies = split(game_log)
        with self._write() as db:
            db.execute(games.insert().values(
                id=game_id, created=_now(), read_token=new_id(), edit_token=new_id(),
                head=1, last_seq=1))
            self._insert_revision(db, game_id, 1, note, game_log, header)
            if bodies:
                db.execute(events.insert(), [
                    {"game_id": game_id, "position": i, "added_in": 1, "body": b}
                    for i, b in enumerate(bodies)
                ])
            db.execute(shelves.insert().values(shelf=shelf, game_id=game_id, added=_now(),
                                               access="owner"))
        return game_id

    @staticmethod
    def _insert_revision(db: Connection, game_id: str, seq: int, note: str,
                         game_log: GameLog, header: str | None) -> None:
        db.execute(revisions.insert().values(
            game_id=game_id, seq=seq, saved=_now(), note=note, title=_title(game_log),
            events=len(game_log.events), header=header))

    @_guarded
    def save(self, game_id: str, game_log: GameLog, note: str, after: int | None = None,
             draft_of: str | None = None) -> int:
        """Store ``game_log`` as the game's newest revision; returns its number.

        With ``after`` (the revision the log was built on), `StaleRevisionError` if another
        revision was saved since: the caller reloads rather than save over it. With
        ``draft_of`` (a shelf), that shelf's draft of this game goes in the same transaction.
        """
        header, bodies = split(game_log)
        with self._write() as db:
            row = db.execute(sa.select(games.c.head, games.c.last_seq)
                             .where(games.c.id == game_id)
                             .with_for_update(key_share=True)).one_or_none()
            if row is None:
                raise GameGoneError(f"no saved game has the id {game_id!r}")
            head, last = int(row.head), int(row.last_seq)
            if after is not None and head != after:
                raise StaleRevisionError(game_id, after, head)
            seq = last + 1
            db.execute(games.update().where(games.c.id == game_id)
                       .values(head=seq, last_seq=seq))
            old_header = self._header(db, game_id)
            live = self._live_rows(db, game_id)
            self._insert_revision(db, game_id, seq, note, game_log,
                                  None if header == old_header else header)
            changed = _changed_positions([b for _, b in live], bodies)
            if changed:
                db.execute(events.update()
                           .where(events.c.game_id == game_id, events.c.dropped_in.is_(None),
                                  events.c.position.in_(changed))
                           .values(dropped_in=seq))
                added = [{"game_id": game_id, "position": i, "added_in": seq, "body": bodies[i]}
                         for i in changed if i < len(bodies)]
                if added:
                    db.execute(events.insert(), added)
            if draft_of is not None:
                db.execute(drafts.delete().where(drafts.c.shelf == draft_of,
                                                 drafts.c.game_id == game_id))
        return seq

    @staticmethod
    def _header(db: Connection, game_id: str) -> str | None:
        return db.execute(
            sa.select(revisions.c.header)
            .where(revisions.c.game_id == game_id, revisions.c.header.is_not(None))
            .order_by(revisions.c.seq.desc()).limit(1)
        ).scalar_one_or_none()

    @staticmethod
    def _live_rows(db: Connection, game_id: str) -> list[tuple[int, str]]:
        rows = db.execute(
            sa.select(events.c.position, events.c.body)
            .where(events.c.game_id == game_id, events.c.dropped_in.is_(None))
            .order_by(events.c.position)
        ).all()
        return [(int(p), str(b)) for p, b in rows]

    @_guarded
    def latest(self, game_id: str) -> Revision | None:
        """The newest revision of a game, or ``None`` for an unknown id; `InvalidLogError` if
        what is stored no longer reads as a valid log."""
        with self._read() as db:
            row = db.execute(
                sa.select(revisions.c.seq, revisions.c.note)
                .join(games, sa.and_(games.c.id == revisions.c.game_id,
                                     games.c.head == revisions.c.seq))
                .where(games.c.id == game_id)
            ).one_or_none()
            if row is None:
                return None
            header = self._header(db, game_id)
            bodies = [b for _, b in self._live_rows(db, game_id)]
        if header is None:
            raise InvalidLogError([gettext("game {game}: its setup is missing from the database")
                                   .format(game=game_id)])
        try:
            return Revision(join(header, bodies), int(row.seq), str(row.note))
        except json.JSONDecodeError as err:
            raise InvalidLogError([gettext("game {game}: stored JSON is damaged ({error})")
                                   .format(game=game_id, error=err)]) from None

    @_guarded
    def changes(self, game_id: str, seq: int) -> tuple[int, ...]:
        """The entries (1-based) of revision ``seq`` that a revision's note says it recorded or
        changed (`notebook_app.history.changed_entry`) as they stand there, the latest change
        first: which of a clash's entries the player wrote last (`LiveGame.grid`). One read of
        the revision's event rows and their notes; an entry moved by a deletion is not named."""
        with self._read() as db:
            rows = db.execute(
                sa.select(events.c.position, events.c.added_in, revisions.c.note)
                .join(revisions, sa.and_(revisions.c.game_id == events.c.game_id,
                                         revisions.c.seq == events.c.added_in))
                .where(events.c.game_id == game_id, events.c.added_in <= seq,
                       sa.or_(events.c.dropped_in.is_(None), events.c.dropped_in > seq))
                .order_by(events.c.added_in.desc())
            ).all()
        return tuple(int(p) + 1 for p, _added, note in rows if changed_entry(str(note)) == p + 1)

    @_guarded
    def seq(self, game_id: str) -> int | None:
        """The number of the game's newest revision (cheap: no log is read)."""
        with self._read() as db:
            head = db.execute(sa.select(games.c.head).where(games.c.id == game_id))
            value = head.scalar_one_or_none()
        return None if value is None else int(value)

    def load(self, game_id: str) -> GameLog | None:
        """The game's current log, or ``None`` for an unknown id."""
        latest = self.latest(game_id)
        return None if latest is None else latest.log

    @_guarded
    def undo(self, game_id: str, seq: int) -> bool:
        """Drop revision ``seq`` if it is still the game's newest (never the first); whether it
        was dropped. A screen that has not seen a newer revision saved elsewhere cannot undo it."""
        with self._write() as db:
            head = db.execute(sa.select(games.c.head).where(games.c.id == game_id)
                              .with_for_update(key_share=True))
            if head.scalar_one_or_none() != seq or seq <= 1:
                return False
            before = db.execute(
                sa.select(sa.func.max(revisions.c.seq))
                .where(revisions.c.game_id == game_id, revisions.c.seq < seq)
            ).scalar_one()
            db.execute(events.delete().where(events.c.game_id == game_id,
                                             events.c.added_in == seq))
            db.execute(events.update().where(events.c.game_id == game_id,
                                             events.c.dropped_in == seq)
                       .values(dropped_in=None))
            db.execute(revisions.delete().where(revisions.c.game_id == game_id,
                                                revisions.c.seq == seq))
            db.execute(games.update().where(games.c.id == game_id).values(head=before))
        return True

    # --- shelves and links -------------------------------------------------------------------

    @_guarded
    def shelve(self, shelf: str, game_id: str, access: str = "edit") -> None:
        """Put a game on a shelf (the saved-games list of one browser), or raise its access
        there (never lower it)."""
        with self._write() as db:
            self._shelve(db, shelf, game_id, access)

    @staticmethod
    def _shelve(db: Connection, shelf: str, game_id: str, access: str) -> None:
        row = _insert(db, shelves).values(shelf=shelf, game_id=game_id, added=_now(),
                                          access=access)
        db.execute(row.on_conflict_do_update(
            index_elements=[shelves.c.shelf, shelves.c.game_id],
            set_={"access": row.excluded.access},
            where=_rank(row.excluded.access) > _rank(shelves.c.access)))

    @_guarded
    def forget(self, shelf: str, game_id: str) -> None:
        """Take a game off a shelf (the game itself stays, reachable by its links)."""
        with self._write() as db:
            db.execute(shelves.delete().where(shelves.c.shelf == shelf,
                                              shelves.c.game_id == game_id))

    @_guarded
    def access(self, shelf: str, game_id: str) -> str | None:
        """What ``shelf`` may do with the game (`Access`), or ``None`` if it is not there."""
        with self._read() as db:
            found = db.execute(sa.select(shelves.c.access).where(
                shelves.c.shelf == shelf, shelves.c.game_id == game_id))
            return found.scalar_one_or_none()

    @_guarded
    def opened_elsewhere(self, game_id: str) -> int:
        """How many shelves hold the game through one of its links (any access but its
        owner's): the other phones and browsers `new_links` would take it from."""
        with self._read() as db:
            return int(db.execute(sa.select(sa.func.count()).select_from(shelves).where(
                shelves.c.game_id == game_id, shelves.c.access != "owner")).scalar_one())

    @_guarded
    def games(self, shelf: str) -> list[SavedGame]:
        """The games on a shelf, most recently changed first, each with what tells it from the
        others at a glance: its setup (players, whose notebook), its last entry, its winner."""
        accused: dict[str, list[str]] = {}
        with self._read() as db:
            rows = db.execute(LISTING, {"shelf": shelf}).all()
            for game_id, body in db.execute(ACCUSATIONS, {"shelf": shelf}):
                accused.setdefault(str(game_id), []).append(str(body))
        return [_saved(SavedGame(str(i), str(t), int(e), str(s), str(a)), h, b,
                       tuple(accused.get(str(i), ())))
                for i, t, e, s, a, h, b in rows]

    @_guarded
    def links(self, game_id: str) -> Links:
        """The game's read and edit links (tokens)."""
        with self._read() as db:
            row = db.execute(sa.select(games.c.read_token, games.c.edit_token)
                             .where(games.c.id == game_id)).one()
        return Links(str(row.read_token), str(row.edit_token))

    @_guarded
    def opened_by(self, token: str) -> tuple[str, str] | None:
        """The game a link opens and the access it grants, or ``None``."""
        with self._read() as db:
            row = db.execute(sa.select(games.c.id, games.c.read_token, games.c.edit_token)
                             .where(sa.or_(games.c.read_token == token,
                                           games.c.edit_token == token))).first()
        if row is None:
            return None
        return str(row.id), "edit" if row.edit_token == token else "read"

    @_guarded
    def open_link(self, shelf: str, token: str) -> tuple[str, str] | None:
        """The game a link opens, put on ``shelf`` with what the link grants (see `shelve`),
        and the shelf's access to it; ``None`` if the link opens nothing. The link is checked
        again with the game's row locked, so one that `new_links` replaces meanwhile adds
        nothing, and an addition it meets is taken off with the other old ones."""
        if self.opened_by(token) is None:  # no write lock for a link that opens nothing
            return None
        with self._write() as db:
            found = db.execute(sa.select(games.c.id, games.c.edit_token)
                               .where(sa.or_(games.c.read_token == token,
                                             games.c.edit_token == token))
                               .with_for_update(read=True)).first()
            if found is None:
                return None
            game_id = str(found.id)
            self._shelve(db, shelf, game_id, "edit" if found.edit_token == token else "read")
            access = db.execute(sa.select(shelves.c.access).where(
                shelves.c.shelf == shelf, shelves.c.game_id == game_id)).scalar_one()
        return game_id, str(access)

    @_guarded
    def new_links(self, game_id: str) -> Links:
        """Replace both links and take the game off every list but its owners': whoever was
        sent a link before can no longer open or change the game."""
        fresh = Links(new_id(), new_id())
        with self._write() as db:
            db.execute(games.update().where(games.c.id == game_id)
                       .values(read_token=fresh.read, edit_token=fresh.edit))
            db.execute(shelves.delete().where(shelves.c.game_id == game_id,
                                              shelves.c.access != "owner"))
        return fresh

    @_guarded
    def delete(self, game_id: str) -> None:
        """Delete a game for good: its revisions, entries, links, drafts and its place on every
        list. A save that comes after finds no game (`GameGoneError`)."""
        with self._write() as db:  # the row first: a write holding it commits before we read
            db.execute(sa.select(games.c.id).where(games.c.id == game_id).with_for_update())
            for table in (drafts, shelves, events, revisions):
                db.execute(table.delete().where(table.c.game_id == game_id))
            db.execute(games.delete().where(games.c.id == game_id))
        self._empty_wal()

    def _empty_wal(self) -> None:
        """SQLite: copy the write-ahead log into the file and empty it, so that the pages a
        deleted game was written in are not left there (the log lives on while any other
        connection is open, and is only written over from its start). Best effort: the game
        is deleted already; a reader in the middle of a read keeps the log for now."""
        if self.engine.dialect.name != "sqlite":
            return
        try:
            conn = self.engine.raw_connection()
        except (sa_exc.SQLAlchemyError, sqlite3.Error):
            return
        try:
            conn.cursor().execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error as err:
            log.warning("could not empty the write-ahead log after a deletion: %s", err)
        finally:
            conn.close()

    # --- drafts: the entry form of a browser, kept across reloads and until its save commits

    @_guarded
    def keep_draft(self, shelf: str, game_id: str, form: Mapping[str, object],
                   wait: float = LOCK_TIMEOUT) -> None:
        """Keep the entry form of ``shelf`` for this game (one per browser and game: the
        later form replaces the one kept) until a save with ``draft_of`` commits or it is
        taken (`take_draft`): a reload, or the next visit after the server died, finds it.
        ``wait``: seconds to wait for a save that holds the database (else `StoreError`).
        A deleted game keeps no form; a text field past `DRAFT_TEXT_MOST` is left out."""
        text = canonical({key: value for key, value in form.items()
                          if not (isinstance(value, str) and len(value) > DRAFT_TEXT_MOST)})
        with self._write(wait) as db:
            found = db.execute(sa.select(games.c.id).where(games.c.id == game_id)
                               .with_for_update(read=True, key_share=True))  # (waits for a
            if found.first() is None:  # deletion, not for a save: `save` locks "no key update")
                return
            row = _insert(db, drafts).values(shelf=shelf, game_id=game_id, saved=_now(),
                                             form=text)
            db.execute(row.on_conflict_do_update(
                index_elements=[drafts.c.shelf, drafts.c.game_id],
                set_={"saved": row.excluded.saved, "form": row.excluded.form}))

    @_guarded
    def take_draft(self, shelf: str, game_id: str) -> dict[str, object] | None:
        """The kept form (and forget it): of calls at once, one gets it. Reads first: opening
        a game while another save holds the database does not wait for it."""
        with self._read() as db:
            found = db.execute(sa.select(drafts.c.form).where(
                drafts.c.shelf == shelf, drafts.c.game_id == game_id)).scalar_one_or_none()
        if found is None:
            return None
        with self._write() as db:
            text = db.execute(drafts.delete()
                              .where(drafts.c.shelf == shelf, drafts.c.game_id == game_id)
                              .returning(drafts.c.form)).scalar_one_or_none()
            if text is None:
                return None
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):  # damaged (or tampered): no form to give back
            return None
        return value if isinstance(value, dict) else None

    @_guarded
    def drop_draft(self, shelf: str, game_id: str, form: Mapping[str, object] | None = None,
                   wait: float = LOCK_TIMEOUT) -> None:
        """Forget a kept form (its save failed and the form still shows it; the form was
        emptied); with ``form``, only while the row still holds that one: a form another tab
        of the browser kept since stays. ``wait``: as in `keep_draft`."""
        with self._write(wait) as db:
            where = [drafts.c.shelf == shelf, drafts.c.game_id == game_id]
            if form is not None:
                where.append(drafts.c.form == canonical(dict(form)))
            db.execute(drafts.delete().where(*where))


def _saved(game: SavedGame, header: str | None, last: str | None,
           accused: tuple[str, ...]) -> SavedGame:
    """``game`` with what its stored setup, last entry and accusations say (each left out
    where it no longer reads)."""
    end = _ended(header, last, accused)
    game = replace(game, winner=end.winner if end else None, close=end.close if end else None)
    read = _listed(header, last) if header is not None else None
    if read is None:
        return game
    setup = read.game
    return replace(game, titled=bool(setup.title), players=setup.player_names, me=setup.me,
                   last=read.events[-1] if read.events else None)


@lru_cache(maxsize=256)
def _ended(header: str | None, last: str | None, accused: tuple[str, ...]) -> Ending | None:
    """How a listed game ended by its rule sheet, from its accusations alone (all that ends a
    game; read here without checking the log again, which took as long as the rest of the
    list), worked out once per text as `_listed`; where its setup no longer reads, by its
    first correct accusation."""
    if not accused:
        return None
    read = _listed(header, last) if header is not None else None
    setup = read.game if read is not None else None
    said = []
    for body in accused:
        try:
            data = stored(body)
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        by, cards, correct = (data.get(key) for key in ("by", "cards", "correct"))
        if isinstance(by, str) and isinstance(correct, bool) and isinstance(cards, list):
            said.append(Accusation(by, cast(Triple, tuple(map(str, cards))), correct))
    if setup is not None:
        return ending(GameLog(setup, tuple(said)))
    first = next((a for a in said if a.correct), None)
    return None if first is None else Ending(said.index(first) + 1, first.by, Close.ACCUSED)


@lru_cache(maxsize=256)
def _listed(header: str, last: str | None) -> GameLog | None:
    """A listed game's setup with its last entry (without it where it no longer reads), read
    once per text: the list is drawn at every run of the home screen, and checking a 12-player
    setup takes about a millisecond."""
    for bodies in ([last] if last else [], []):
        try:
            return join(header, bodies)
        except (ValueError, InvalidLogError):
            continue
    return None


def _changed_positions(old: list[str], new: list[str]) -> list[int]:
    """The positions whose event differs between two event lists: the edited ones when the
    count is the same, else everything from the first difference on (appends add only the new
    events; a deletion moves the ones after it)."""
    if len(old) == len(new):
        return [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
    same = 0
    for a, b in zip(old, new, strict=False):
        if a != b:
            break
        same += 1
    return list(range(same, max(len(old), len(new))))


def parse_upload(data: bytes, name: str | None = None) -> GameLog:
    """A log from an uploaded file (``name``: as the browser named it), in JSON or in the
    notation, told apart by content; `InvalidLogError` (naming the problem) for bad input.

    The command line reads files the same way (`solver.logfile.decode`, then
    `solver.notation.read_log_any`), so the limits of `solver.limits` are checked before any
    solver is built, the same in both."""
    source = gettext("file: the upload") if name is None else gettext("file: {name}").format(
        name=repr(name))
    return read_log_any(decode(data, source))
