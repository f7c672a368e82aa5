"""Schema versions of the games database, migrated with Alembic when a `Store` opens it.

``versions/`` holds one file per schema: ``0001`` is the schema of the first release (one full
log per revision), ``0002`` stores revisions as changed events and adds links, access and
drafts. A new schema is a new file there (``down_revision`` the previous head); never edit one
that has shipped. Two servers opening one database at once migrate it once: SQLite's write
lock or a PostgreSQL advisory lock holds the second until the first is done.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

HERE = Path(__file__).resolve().parent
LOCK_KEY = 0x636C7565  # "clue": the advisory lock that serialises migrations on PostgreSQL


def config(connection: sa.Connection | None = None) -> Config:
    """Alembic's configuration, pointing at this folder and (when given) a connection."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


@cache
def head() -> str | None:
    """The newest schema version."""
    return ScriptDirectory.from_config(config()).get_current_head()


def current(connection: sa.Connection) -> str | None:
    """The schema version of a database (``None``: new, or written before versions existed)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: sa.Connection) -> None:
    """Bring the database on ``connection`` (inside a transaction) to the newest schema."""
    if current(connection) == head():
        return
    if connection.dialect.name == "postgresql":
        connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
    command.upgrade(config(connection), "head")
