"""Alembic's entry point: runs the migrations on the connection `upgrade` hands it."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:
    raise SystemExit("Migrations run when the app opens its database (notebook_app.store.Store).")
context.configure(connection=connection, target_metadata=None)
with context.begin_transaction():
    context.run_migrations()
