"""The Turn form kept in the database while it is filled in: a reload (a pull to refresh, a
background tab the browser dropped, a network blip) starts a new session, which finds the form
back as it was (`notebook_app.session.restore_draft`): the kind of entry, the chips tapped, the
edit in progress, the entry Undo put back to fix.

It is this browser's draft of the game (`notebook_app.store.Store.keep_draft`, one row per
browser and game, the one a Record keeps until its save commits), written at the end of each run
whose form changed since this tab last kept it, and forgotten once the form is empty again
(recorded, cancelled, every chip tapped off). The row says ``"draft": "typing"``, the entries the
log had then and the entry the form made, so that a restore says the right thing and leaves out
an entry recorded since (see ``docs/storage.md``).
"""

from __future__ import annotations

from contextlib import suppress

import streamlit as st

from solver.errors import ClueError
from solver.logfile import event_to_json

from .entry import default_by, default_kind, form_event
from .session import (
    BLANK,
    DRAFT,
    ENTRY_KEYS,
    TYPING,
    can_edit,
    form_fields,
    live,
    shown_asked,
    store,
)
from .store import StoreError
from .turns import revealed_next

TYPING_WAIT = 0.25
"""Seconds a run waits to keep the form while a save holds the database (SQLite: the file's
write lock) before it leaves it for its next run: a tap's run never waits for the database the
way a Record does (`notebook_app.store.LOCK_TIMEOUT`)."""
EMPTY: tuple[object, ...] = (None, "", [], (), False)
"""A field nothing was entered in."""

state = st.session_state


def keep_typing() -> None:
    """At the end of a run of a game this browser may edit: keep the Turn form (where it changed
    since this tab last kept it, ``form_kept``), or forget the one this tab kept once the form
    is empty (`blank`), leaving a form another tab kept since. A database that fails is left
    for the next run: the run goes on (the failure is in the server's log)."""
    if not can_edit():
        return  # a read link keeps no form
    mine = state.get("form_kept")
    empty = blank()
    if empty and shown_asked() is None:
        if mine is not None:
            with suppress(StoreError):
                store().drop_draft(state.shelf, state.game_id, mine, wait=TYPING_WAIT)
                state.pop("form_kept", None)
        return
    form = {**form_fields(), DRAFT: TYPING, "events": len(live().log.events), "entry": entry(),
            BLANK: empty}
    if form == mine:
        return
    with suppress(StoreError):
        store().keep_draft(state.shelf, state.game_id, form, wait=TYPING_WAIT)
        state.form_kept = form


def entry() -> dict[str, object] | None:
    """The new entry the form makes, where it is complete (clue-notebook/1 JSON)."""
    if state.get("editing") is not None:
        return None
    with suppress(ClueError):
        event = form_event()
        return None if event is None else event_to_json(event)
    return None


def blank() -> bool:
    """Whether the Turn form holds nothing the player entered: no edit, and each field empty or
    as a fresh form has it (`notebook_app.entry.next_entry`: the kind, whose turn it is, the
    room and side card given, whose cards to reveal next)."""
    if state.get("editing") is not None:
        return False
    kind = state.get("kind")
    if kind not in (None, default_kind()):
        return False
    game = live().log.game
    given = {**state.get("entry_given", {}), "n_relation": "holds"}
    for key in ENTRY_KEYS:
        value = state.get(key)
        if key == "entry_problem" or value in EMPTY or value == given.get(key):
            continue
        if key == "by" and value == default_by(kind):
            continue
        others = tuple(n for n in game.player_names if n != game.me)
        if key == "r_player" and value == revealed_next(live().log, others):
            continue
        return False
    return True
