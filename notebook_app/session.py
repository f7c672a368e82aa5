"""The open game of one browser session: opening it, saving every change at once without ever
saving over another screen's change, and following changes made elsewhere.

Everything per user lives in ``st.session_state``: ``game_id``; ``live`` (the solvers);
``revision`` (number and note of the revision shown, the base of the next save); ``editing``,
``edit_original`` and ``edit_loaded`` (the entry being edited, as recorded and as its form first
showed it); ``pending_show`` (index and event of a suggestion whose shown card to ask for);
``flash`` (messages for the next run); ``shelf`` (this browser's list of games). The screens
keep a few keys of their own: the entry form's fields (`ENTRY_KEYS`, see `notebook_app.entry`)
and ``kind``, ``view`` (the tab shown), ``explain_cell`` and ``show_odds`` (Grid),
``review_step`` (Review), ``scroll_top`` (scroll up after this run), the new game form's
``new_*``. The cached `Store` holds nothing but the database path.
"""

from __future__ import annotations

import sqlite3

import streamlit as st

from solver.errors import InvalidLogError
from solver.game import GameLog

from .live import LiveGame
from .store import Revision, StaleRevisionError, Store, default_path, new_id
from .turns import locate

ENTRY_KEYS = ("by", "e_suspect", "e_weapon", "e_room", "e_refuter", "e_shown", "e_slot", "e_peek",
              "e_asked", "e_answer", "e_rule", "e_result", "r_player", "r_cards", "r_whole",
              "entry_problem")
"""The entry form's fields."""

state = st.session_state


@st.cache_resource
def _store(path: str) -> Store:
    """The database; shared by sessions, it holds only its path (never per-user data)."""
    return Store(path)


def store() -> Store:
    """The games database at ``$CLUE_NOTEBOOK_DB`` (or the default path)."""
    return _store(str(default_path()))


def live() -> LiveGame:
    """The open game's solvers."""
    game: LiveGame = state["live"]
    return game


def flash(kind: str, text: str) -> None:
    """A message for the next run: ``error`` stays on screen, ``done`` is a toast."""
    state.setdefault("flash", []).append((kind, text))


def problems_text(err: InvalidLogError) -> str:
    """A log's problems as a list to read."""
    return "Please fix:\n" + "\n".join(f"- {p}" for p in err.problems)


def open_game(game_id: str) -> bool:
    """Load a saved game into this session (and onto this browser's list)."""
    try:
        revision = store().latest(game_id)
    except InvalidLogError as err:
        flash("error", f"Saved game {game_id!r} cannot be read. " + problems_text(err))
        return False
    if revision is None:
        flash("error", f"No saved game has the id {game_id!r}. Check the link.")
        return False
    close_game()
    state.game_id = game_id
    state.live = LiveGame(revision.log)
    state.revision = (revision.seq, revision.note)
    store().shelve(state.shelf, game_id)
    st.query_params["game"] = game_id
    state.view = "Turn"
    state.scroll_top = True
    return True


def close_game() -> None:
    """Close the open game (it stays saved) and free its solvers."""
    old = state.get("live")
    if isinstance(old, LiveGame):
        old.close()
    for key in ("game_id", "live", "revision", "editing", "edit_original", "edit_loaded",
                "pending_show", "explain_cell"):
        state.pop(key, None)
    clear_entry()
    state.scroll_top = True
    if "game" in st.query_params:
        del st.query_params["game"]


def start_from(log: GameLog, note: str) -> None:
    """Save ``log`` as a new game and open it."""
    open_game(store().create(log, state.shelf, note))


def commit(log: GameLog, note: str) -> bool:
    """Save a new version of the open game at once, then update the solvers. When another
    screen saved first, nothing is saved over it: the game is reloaded; returns ``False``."""
    try:
        seq = store().save(state.game_id, log, note, after=state.revision[0])
    except StaleRevisionError:
        reload(f"Not saved: {note}")
        return False
    except sqlite3.OperationalError as err:  # locked for longer than the store's timeout
        flash("error", f"Not saved: {note} (the database said: {err}). Please try again.")
        return False
    state.revision = (seq, note)
    state.live = live().replace(log)
    state.pop("explain_cell", None)
    flash("done", note[:1].upper() + note[1:])
    return True


def adopt(revision: Revision) -> None:
    """Show a revision saved on another screen; the entry being edited and the question which
    card was shown follow their events (and are dropped with them)."""
    state.live = live().replace(revision.log)
    state.revision = (revision.seq, revision.note)
    events = revision.log.events
    pending = state.get("pending_show")
    if pending is not None:
        found = locate(events, *pending)
        state.pending_show = None if found is None else (found, pending[1])
    index, original = state.get("editing"), state.get("edit_original")
    if index is None or original is None:
        return
    found = locate(events, index, original)
    if found is not None:
        state.editing = found
        return
    stop_editing()
    flash("error", "The entry you were editing was changed on another screen. Your form is "
          "kept: Record adds it as a new entry.")


def reload(what_happened: str) -> None:
    """Show the database's newest revision after an action found it changed elsewhere."""
    revision = store().latest(state.game_id)
    if revision is not None:
        adopt(revision)
    flash("error", f"The game changed on another screen; reloaded. {what_happened}: check the "
          "game and try again.")


def sync() -> None:
    """Match the session to the URL (``?shelf=…&game=…``) and to the database."""
    if "shelf" not in state:
        state.shelf = st.query_params.get("shelf") or new_id()
    if st.query_params.get("shelf") != state.shelf:
        st.query_params["shelf"] = state.shelf
    current = state.get("game_id")
    wanted = st.query_params.get("game")
    if current is not None and "live" not in state:
        if not open_game(current):
            close_game()
    elif wanted and wanted != current:
        if not open_game(wanted):
            close_game()
    elif current is not None:
        if wanted != current:
            st.query_params["game"] = current
        seq = store().seq(current)
        revision = store().latest(current) if seq != state.revision[0] else None
        if revision is not None:
            adopt(revision)  # changed from another tab or device: the database wins


def clear_entry() -> None:
    """Blank the entry form."""
    for key in ENTRY_KEYS:
        state.pop(key, None)


def stop_editing() -> None:
    """Leave the entry being edited (the form's fields stay)."""
    state.editing = None
    state.pop("edit_original", None)
    state.pop("edit_loaded", None)


def undo_revision() -> str | None:
    """Drop the revision this screen shows, unless another screen saved a newer one since
    (then reload and say so); returns what was undone."""
    seq, undone = state.revision
    if seq <= 1:
        flash("error", "Nothing to undo: this is how the game started.")
        return None
    try:
        revision = store().latest(state.game_id) if store().undo(state.game_id, seq) else None
    except sqlite3.OperationalError as err:  # locked for longer than the store's timeout
        flash("error", f"Nothing was undone (the database said: {err}). Please try again.")
        return None
    if revision is None:
        reload("Nothing was undone")
        return None
    state.revision = (revision.seq, revision.note)
    state.live = live().replace(revision.log)
    stop_editing()
    state.pending_show = None
    state.pop("explain_cell", None)
    return str(undone)
