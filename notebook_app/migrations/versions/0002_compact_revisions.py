"""Revisions store what changed, games get read and edit links, shelves say what a browser
may do, drafts keep an entry until its save commits.

Each old revision (a whole log) becomes a row of ``revisions`` (with the log's header when it
changed) and the events it added; an event that a later revision changed or removed is marked
dropped there. A game from the first release keeps its id as its edit link, so links already
shared still open it, and every browser that listed it may edit it.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import json
import secrets
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _canonical(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _changed(old: list[str], new: list[str]) -> list[int]:
    if len(old) == len(new):
        return [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
    same = 0
    for a, b in zip(old, new, strict=False):
        if a != b:
            break
        same += 1
    return list(range(same, max(len(old), len(new))))


def upgrade() -> None:
    op.rename_table("revisions", "revisions_v1")
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created", sa.String(32), nullable=False),
        sa.Column("read_token", sa.String(32), nullable=False, unique=True),
        sa.Column("edit_token", sa.String(32), nullable=False, unique=True),
        sa.Column("head", sa.Integer, nullable=False),
        sa.Column("last_seq", sa.Integer, nullable=False),
    )
    revisions = op.create_table(
        "revisions",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("saved", sa.String(32), nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("events", sa.Integer, nullable=False),
        sa.Column("header", sa.Text),
    )
    events = op.create_table(
        "events",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("added_in", sa.Integer, primary_key=True),
        sa.Column("dropped_in", sa.Integer),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.create_index("events_live", "events", ["game_id", "dropped_in", "position"])
    op.create_table(
        "drafts",
        sa.Column("shelf", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("saved", sa.String(32), nullable=False),
        sa.Column("form", sa.Text, nullable=False),
    )
    op.add_column("shelves", sa.Column("access", sa.String(8), nullable=False,
                                       server_default="edit"))
    games = sa.table("games", *(sa.column(c) for c in
                                ("id", "created", "read_token", "edit_token", "head",
                                 "last_seq")))
    bind = op.get_bind()
    old = bind.execute(sa.text(
        "SELECT game_id, seq, saved, note, title, events, log FROM revisions_v1 "
        "ORDER BY game_id, seq"))
    game_id: str | None = None
    header: str | None = None
    live: list[str] = []
    first_saved = ""
    seq = 0

    def finish() -> None:
        if game_id is not None:
            op.bulk_insert(games, [{"id": game_id, "created": first_saved,
                                    "read_token": secrets.token_urlsafe(12),
                                    "edit_token": game_id, "head": seq, "last_seq": seq}])

    for row in old.all():
        if row.game_id != game_id:
            finish()
            game_id, header, live, first_saved = row.game_id, None, [], row.saved
        seq = int(row.seq)
        data: dict[str, Any] = json.loads(row.log)
        bodies = [_canonical(e) for e in data.pop("events", [])]
        new_header = _canonical(data)
        op.bulk_insert(revisions, [{
            "game_id": game_id, "seq": seq, "saved": row.saved, "note": row.note,
            "title": row.title, "events": row.events,
            "header": None if new_header == header else new_header}])
        header = new_header
        changed = _changed(live, bodies)
        if changed:
            bind.execute(sa.text(
                "UPDATE events SET dropped_in = :seq WHERE game_id = :game AND "
                "dropped_in IS NULL AND position IN :changed").bindparams(
                    sa.bindparam("changed", expanding=True)),
                {"seq": seq, "game": game_id, "changed": changed})
            added = [{"game_id": game_id, "position": i, "added_in": seq, "dropped_in": None,
                      "body": bodies[i]} for i in changed if i < len(bodies)]
            if added:
                op.bulk_insert(events, added)
        live = bodies
    finish()
    op.drop_table("revisions_v1")
