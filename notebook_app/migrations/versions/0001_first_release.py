"""The first release's schema: every revision holds the whole log; shelves list games.

A database written before schema versions existed has exactly these tables: this step keeps
them as they are and only records the version.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "revisions" not in existing:
        op.create_table(
            "revisions",
            sa.Column("game_id", sa.Text, primary_key=True),
            sa.Column("seq", sa.Integer, primary_key=True),
            sa.Column("saved", sa.Text, nullable=False),
            sa.Column("note", sa.Text, nullable=False),
            sa.Column("title", sa.Text, nullable=False),
            sa.Column("events", sa.Integer, nullable=False),
            sa.Column("log", sa.Text, nullable=False),
        )
    if "shelves" not in existing:
        op.create_table(
            "shelves",
            sa.Column("shelf", sa.Text, primary_key=True),
            sa.Column("game_id", sa.Text, primary_key=True),
            sa.Column("added", sa.Text, nullable=False),
        )
