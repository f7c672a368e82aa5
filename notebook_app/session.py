"""The open game of one browser session: which browser this is, opening a game by its link,
saving every change at once without ever saving over another screen's change, following
changes made elsewhere, and saying so when the database fails.

Everything per user lives in ``st.session_state``: ``shelf`` (this browser's list of games, from
its cookie); ``game_id`` and ``access`` (the open game and what this browser may do with it:
``owner``, ``edit`` or ``read``); ``live`` (the solvers); ``revision`` (number and note of the
revision shown, the base of the next save); ``editing``, ``edit_original`` and ``edit_loaded``
(the entry being edited, as recorded and as its form first showed it); ``pending_show`` (index
and event of a suggestion whose shown card to ask for); ``flash`` (messages for the next run);
``form_kept`` (the Turn form as this tab last kept it for a reload, `notebook_app.kept`).
The screens keep a few keys of their own: the entry form's fields (`ENTRY_KEYS`, see
`notebook_app.entry`) and ``kind``, ``view`` (the tab shown), ``advise_on`` and ``odds_on``
(the player's choices, `notebook_app.choices`, with ``choices_written``), ``explain_cell``,
``odds_counting`` and ``explaining`` (Grid), ``review_at`` and ``review_drawn`` (Review: the
step chosen, the slider ``review_step`` as last drawn), ``hand_me``, ``hand_cards`` and
``hand_problem`` (Game: a spectator's game made a player's, `notebook_app.screens.seat`),
``scroll_top`` (scroll up after this run), ``drawn_widgets`` (`ignore_stale_widgets`), the new
game form's ``new_*``. The cached `Store` holds nothing but the database's address.

The address bar holds ``?game=<id>``, which grants nothing by itself: the id opens the game only
in a browser whose list has it (and ``&edit=<n>``, ``&step=<n>``: `mark_editing`,
`notebook_app.screens.review.mark_step`). A game's links (``?game=<token>``) grant read or
edit access to that one game; opening one adds the game to the opener's list.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from contextlib import suppress
from functools import wraps
from typing import TYPE_CHECKING, ParamSpec, TypeVar

import streamlit as st

from solver.errors import InvalidLogError
from solver.game import Event, GameLog, Suggestion
from solver.i18n import N_, _
from solver.limits import Stopped
from solver.logfile import event_to_json, parse, to_json
from solver.values import replace

from .cookies import SHELF_COOKIE, SHELF_ID, write_cookie
from .elsewhere import added_elsewhere, changed_elsewhere
from .history import changed_entry, told, unsaved
from .live import LiveGame, session_gone
from .odds_count import Beside
from .store import (
    GameGoneError,
    Revision,
    StaleRevisionError,
    Store,
    StoreError,
    configured,
    new_id,
)
from .turns import describe, locate

if TYPE_CHECKING:
    from solver.notebook import Grid

ENTRY_KEYS = ("by", "e_suspect", "e_weapon", "e_room", "e_refuter", "e_shown", "e_slot", "e_peek",
              "e_asked", "e_answer", "e_rule", "e_result", "r_player", "r_cards", "r_whole",
              "entry_problem",
              "n_owner", "n_relation", "n_text", "n_suspect", "n_weapon", "n_room")
"""The entry form's fields."""
SET_BY_RUNS = (*ENTRY_KEYS, "kind", "paste_turns", "view", "review_step")
"""Widgets whose value a run sets, not only a tap: the fresh form after Record, an entry loaded
to edit and the tab it opens on, the paste box emptied once its turns are added, the Review's
step moved by Back and Next or following a new entry."""

COOKIE = SHELF_COOKIE
KEEP_TRYING = N_("What you typed is kept: try again in a moment.")
RELOAD_SOON = N_("Reload the page in a moment.")
EDIT_GONE = N_("The entry you were editing was changed on another screen. Your form is kept: "
               "Record adds it as a new entry.")
DRAFT, TYPING, RECORDING = "draft", "typing", "recording"
"""A draft's key saying why it was kept: the form being filled in (`notebook_app.kept`), or
an entry being recorded (`commit`; a draft without the key is one)."""
SHOWN_ASKED, BLANK = "shown_asked", "blank"
"""A draft's keys: the saved entry whose shown card is asked for (`shown_asked`: its index and
the entry as JSON), and whether the form itself was empty (only that question kept)."""
GONE = N_("This game is no longer on this browser's list: its owner made new links, which stop "
          "the old ones, or it was taken off the list in another tab. To open it again, ask its "
          "owner for the new link.")
DELETED = N_("This game was deleted by its owner: its links no longer open it.")

state = st.session_state
logger = logging.getLogger("notebook_app")
P = ParamSpec("P")


@st.cache_resource
def _store(where: str) -> Store:
    """The database; shared by sessions, it holds only its address (never per-user data)."""
    return Store(where)


def store() -> Store:
    """The games database at ``$CLUE_NOTEBOOK_DB`` (a path or URL; a default file otherwise)."""
    return _store(configured())


def live() -> LiveGame:
    """The open game's solvers."""
    game: LiveGame = state["live"]
    return game


def left_out() -> tuple[int, ...]:
    """The entries the open game's grid leaves out past a clash (`LiveGame.grid`; usually
    none): the header and the Turn tab read the log without them, so they agree."""
    return live().grid()[1]


def written(game_id: str, seq: int, note: str) -> Callable[[], tuple[int, ...]]:
    """What reads the entries of revision ``seq`` the player recorded or edited, the latest
    change first (`Store.changes`), for the grid past a clash (`LiveGame.changes`): the same
    choice on every screen, after a reload, and after more entries. Where the database cannot
    be read then, the entry ``note`` (the revision's) names."""
    where = store()

    def read() -> tuple[int, ...]:
        try:
            return where.changes(game_id, seq)
        except StoreError:
            n = changed_entry(note)
            return () if n is None else (n,)

    return read


T = TypeVar("T")


def beside_for(key: str, log: GameLog, work: Callable[[Grid | None], T], name: str,
               ahead: bool = False) -> Beside[T]:
    """The work kept in the session as ``key`` for ``log`` (the race line, the advice), worked
    out on a thread beside the runs (`Beside`): the one kept for this log unless it stopped,
    else a new one, given the log's own grid when no entry is left out (``None`` else); one
    kept for another log is stopped (`drop_beside`). It ends with the session. A run waits for
    it only if the same work for the log before was over within the wait (`Beside.ready`)."""
    job = state.get(key)
    if job is None or job[0] != log or job[1].stopped:
        drop_beside(key)
        grid, ignored = live().grid()
        mine = None if ignored else grid
        took = state.get("beside_took", {}).get(key, 0)
        job = state[key] = (log, Beside(lambda: work(mine), session_gone(), name=name,
                                        ahead=ahead, expect=took))
    made: Beside[T] = job[1]
    return made


def drop_beside(key: str) -> None:
    """Stop the work kept as ``key`` (`beside_for`) and forget it, remembering how long it took
    (`Beside.expected`): what the same work for the next log state is expected to take."""
    job = state.pop(key, None)
    if job is not None:
        job[1].cancel()
        state.setdefault("beside_took", {})[key] = job[1].expected()


def still_working(key: str) -> bool:
    """Whether the work kept as ``key`` (`beside_for`) is still going on beside the runs."""
    job = state.get(key)
    return job is not None and not job[1].done()


def flash(kind: str, text: str) -> None:
    """A message for the next run: ``error`` stays on screen, ``done`` goes in the status line."""
    state.setdefault("flash", []).append((kind, text))


def problems_text(err: InvalidLogError) -> str:
    """A log's problems as a list to read."""
    return _("Please fix:") + "\n" + "\n".join(f"- {p}" for p in err.problems)


def trouble(what: str, err: StoreError, advice: str = KEEP_TRYING) -> None:
    """Say that a database call failed: what did not happen (a sentence in the reader's
    language), why and what to do (message ids, translated here)."""
    flash("error", _("{what}: {reason}. {advice}").format(what=what, reason=_(err.reason),
                                                         advice=_(advice)))


def browser_sent(taps: bool = False) -> frozenset[str]:
    """The inputs (keys) whose values the browser sent but this session has not drawn yet.

    A page that reconnects after the server restarted asks for no run; its next tap sends the
    inputs it shows, with that tap's, to a new session. Streamlit hides these values until
    their inputs are drawn (``state.get`` says ``None``), and a default the screens put into an
    input that seems empty would overwrite the tab tapped and a half-entered turn: they leave
    these alone. ``taps``: only the buttons whose tap it sent. Read from Streamlit's private
    state, defensively: nothing when it changes.
    """
    try:
        from streamlit.runtime.state.common import is_keyed_element_id, user_key_from_element_id
        from streamlit.runtime.state.session_state_proxy import get_session_state

        widgets = get_session_state()._state._new_widget_state
        return frozenset(str(user_key_from_element_id(widget))
                         for widget, sent in widgets.states.items()
                         if is_keyed_element_id(widget)
                         and widget not in widgets.widget_metadata
                         and (not taps or getattr(sent.value, "trigger_value", False)))
    except Exception:  # another Streamlit: no value the browser sent is seen
        return frozenset()


def unset(key: str) -> bool:
    """Whether the input ``key`` may take a default: this session has no value for it and the
    browser sent none (`browser_sent`), or sent an edit's form this session cannot take up
    (`drop_sent_edit`)."""
    return key not in browser_sent() or (key in FORM_KEYS
                                         and bool(state.get("sent_edit_dropped")))


def button(label: str, key: str, on_click: Callable[..., None], args: tuple[object, ...] = (),
           **options: object) -> bool:
    """``st.button`` whose tap counts also when it reached a session that had not drawn it: a
    page that reconnected after a server restart sends its first tap to a new session, where
    Streamlit knows no callback for it (`browser_sent`), and the tap was lost. The page is then
    drawn again, ``on_click`` called first, where Streamlit calls callbacks (`take_unseen_tap`).
    Not for a tap whose meaning depends on what the old session showed (Undo: the latest
    revision may be another screen's now): `lost_tap` says those were lost."""
    sent = key in browser_sent()
    tapped = st.button(label, key=key, on_click=on_click, args=args, **options)  # type: ignore[arg-type]
    if tapped and sent:
        state.unseen_tap = (on_click, args)
        st.rerun()
    return tapped


def lost_tap(key: str, what: str) -> None:
    """Say, where the button ``key`` (named ``what``) goes, that its tap reached a session that
    had not drawn it (a server restart, `browser_sent`) and did nothing: a tap whose meaning
    the old screen gave (Undo: the latest revision then; Delete #n; a confirmation), which a
    new session cannot know, so `button` cannot take it. Call it before drawing the button."""
    if key in browser_sent(taps=True):
        st.error(_("The app restarted as you tapped {what}: nothing was done. Check the screen, "
                   "then tap again.").format(what=what), icon=":material/restart_alt:")


def take_unseen_tap() -> None:
    """Call the callback of a tap `button` saw reach this session unseen, at the start of the run
    it asked for."""
    unseen = state.pop("unseen_tap", None)
    if unseen is not None:
        on_click, args = unseen
        on_click(*args)


def form_sent() -> bool:
    """Whether the browser sent a Turn form this session has not drawn and may take up."""
    return bool(browser_sent() & FORM_KEYS) and not state.get("sent_edit_dropped")


FORM_KEYS = frozenset((*ENTRY_KEYS, "kind", "submit"))
"""The Turn form's inputs (the entry's fields, its kind, Record)."""


def mark_editing() -> None:
    """Say in the address (``&edit=<number>``) which entry is being edited, if one is: a page
    that reconnects after a server restart sends its form to a new session, which cannot tell
    an edit from a new entry otherwise (`drop_sent_edit`)."""
    index = state.get("editing")
    say_in_address("edit", None if index is None else index + 1)


def say_in_address(key: str, number: int | str | None) -> None:
    """Put ``&key=<number>`` in the address bar, or take it out (``None``), where it differs."""
    wanted = None if number is None else str(number)
    if st.query_params.get(key) != wanted:
        if wanted is None:
            del st.query_params[key]
        else:
            st.query_params[key] = wanted


def drop_sent_edit(number: str | None) -> None:
    """A page that reconnected after a server restart sent the form of entry ``number`` (from
    its address, `mark_editing`), being edited. This session does not know that edit (what the
    form first showed of it, whether it is still the same entry): the form starts afresh,
    nothing is saved, and the player is told."""
    if not (number or "").isdigit() or state.get("editing") is not None or not form_sent():
        return  # (an edit whose save the server never finished is back: `restore_draft`)
    state.sent_edit_dropped = True
    flash("error", _("The app restarted while you were editing #{number}: your changes were not "
                     "saved. Tap the entry in the Log to edit it again.").format(number=number))


def can_edit() -> bool:
    """Whether this browser may change the open game (else it only reads it)."""
    return state.get("access") in ("owner", "edit")


def is_owner() -> bool:
    """Whether this browser started the open game."""
    return state.get("access") == "owner"


# --- which browser this is --------------------------------------------------------------------


def browser_cookie() -> str | None:
    """The shelf id this browser's cookie holds, if it is one."""
    value = st.context.cookies.get(COOKIE)
    return value if isinstance(value, str) and SHELF_ID.fullmatch(value) else None


def remember_browser() -> None:
    """Write this browser's shelf id into its cookie (renewing it). The script is drawn on every
    run, at the same place: the browser runs it once, when it first shows it, even if the run
    that drew it first was cut short by the next one before the browser got to it."""
    shelf = state.shelf
    if not SHELF_ID.fullmatch(shelf):
        return
    write_cookie(COOKIE, shelf)


def find_shelf() -> str:
    """This browser's shelf: its cookie's, else a new one. Never one an address names (the
    first release's ``?shelf=``): whoever sent such an address would see the games the browser
    that opened it starts."""
    cookie = browser_cookie()
    return cookie if cookie is not None else new_id()


# --- opening and closing ----------------------------------------------------------------------


def resolve(value: str) -> tuple[str, str] | None:
    """The game ``?game=value`` opens here and this browser's access to it: a game on this
    browser's list by its id, or any game by one of its links (which adds it to the list)."""
    shelf = state.shelf
    access = store().access(shelf, value)
    if access is not None:
        return value, access
    return store().open_link(shelf, value)


def open_link(value: str) -> bool:
    """Open the game an address names (its id on this browser's list, or a link)."""
    try:
        found = resolve(value)
    except StoreError as err:
        trouble(_("The game could not be opened"), err, RELOAD_SOON)
        return False
    if found is None:
        flash("error", _("This link does not open a game here. A game opens on another device "
                         "only through a link from its Game screen, not the address bar; check "
                         "that the link is complete. If it was sent a while ago, its owner may "
                         "have made new links since, which stop the old ones (ask for the new "
                         "one), or deleted the game."))
        close_game()
        return False
    return open_game(*found)


def open_game(game_id: str, access: str | None = None) -> bool:
    """Load a game of this browser's list into this session."""
    try:
        access = access or store().access(state.shelf, game_id)
        revision = store().latest(game_id) if access is not None else None
    except InvalidLogError as err:
        flash("error", _("Saved game {game} cannot be read.").format(game=game_id) + " "
              + problems_text(err))
        return False
    except StoreError as err:
        trouble(_("The game could not be opened"), err, RELOAD_SOON)
        return False
    if revision is None or access is None:  # (a list drawn before, in this tab or a reload)
        flash("error", _(DELETED) if was_deleted(game_id) else
              _("That game is not in this browser's list."))
        return False
    edited, step = st.query_params.get("edit"), st.query_params.get("step", "")
    shown = st.query_params.get("view") if st.query_params.get("game") == game_id else None
    close_game()
    if re.fullmatch("[0-9]{1,6}", step):  # the Review's step the address kept
        state.review_at = int(step)  # (`screens.review.mark_step`; "²".isdigit() too)
    state.game_id = game_id
    state.access = access
    state.live = LiveGame(revision.log, written(game_id, revision.seq, revision.note))
    state.revision = (revision.seq, revision.note)
    st.query_params["game"] = game_id
    if unset("view"):  # (else the tab a reconnected page's first tap asked for; a reload:
        # the address's, `screens.play.play_screen`, checked there against the access's tabs)
        state.view = shown or ("Turn" if access != "read" else "Grid")
    state.scroll_top = True
    restore_draft(edited)
    drop_sent_edit(edited)
    return True


def close_game() -> None:
    """Close the open game (it stays saved) and free its solvers."""
    old = state.get("live")
    if isinstance(old, LiveGame):
        old.close()
    for key in ("race_job", "advice_job"):  # their threads work for the closed game, for nobody
        job = state.pop(key, None)
        if job is not None:
            job[1].cancel()
    state.pop("beside_took", None)  # another game's work takes its own time
    for key in ("game_id", "access", "live", "revision", "editing", "edit_original",
                "edit_loaded", "pending_show", "explain_cell", "review_at", "review_drawn",
                "form_kept", "hand_me", "hand_cards", "hand_problem"):
        state.pop(key, None)
    clear_entry()
    state.scroll_top = True
    for key in ("game", "edit", "step", "view"):
        if key in st.query_params:
            del st.query_params[key]


def drop_stopped() -> None:
    """The run was stopped while its game was being worked out: nobody waits for this page. Its
    solvers are dropped; the game stays open (``game_id``), so the next run builds them again
    from the database. (Where Streamlit stopped the run, the session's state is the next run's
    already: touching it ends this run here, and solvers a stopped change tore mend themselves
    on their next use, `LiveGame.torn`.)"""
    solvers = state.pop("live", None)
    if isinstance(solvers, LiveGame):
        solvers.close()
    logger.info("a session ended while its game was being computed; its work stopped")


def stoppable(body: Callable[P, None]) -> Callable[P, None]:
    """A fragment's or a dialog's ``body`` that stops like the whole page (`drop_stopped`,
    then the run ends). Streamlit turns any exception in a fragment into an error of its own,
    drawn and logged as a failure, before the app's error boundary sees it."""

    @wraps(body)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            body(*args, **kwargs)
        except Stopped:
            drop_stopped()
            st.stop()

    return run


def start_from(log: GameLog, note: str) -> None:
    """Save ``log`` as a new game of this browser and open it."""
    try:
        game_id = store().create(log, state.shelf, note)
    except StoreError as err:
        trouble(_("The game was not started"), err)
        return
    open_game(game_id, "owner")


def forget_game() -> None:
    """Take the open game off this browser's list and close it (its links still open it)."""
    try:
        store().forget(state.shelf, state.game_id)
    except StoreError as err:
        trouble(_("The game is still on your list"), err)
        return
    close_game()


def delete_game() -> None:
    """Delete the open game for everyone (the owner's alone): its links stop opening it and
    every other screen loses it at its next tap."""
    if not is_owner():
        flash("error", _("Only the browser that started this game can delete it."))
        return
    try:
        store().delete(state.game_id)
    except StoreError as err:
        trouble(_("The game was not deleted"), err, RELOAD_SOON)
        return
    close_game()
    flash("done", _("Game deleted: its links no longer open it."))


def new_links(done: str | None = None) -> bool:
    """Replace the open game's links (the owner's way to stop sharing what was sent); whether
    they were replaced (else says why). ``done``: what the status line then says."""
    if not is_owner():
        flash("error", _("Only the browser that started this game can change its links."))
        return False
    try:
        store().new_links(state.game_id)
    except StoreError as err:
        trouble(_("The links were not changed"), err)
        return False
    flash("done", done or _("New links made: the old ones no longer open this game"))
    return True


# --- saving -----------------------------------------------------------------------------------


def form_fields() -> dict[str, object]:
    """The entry form as it stands, as a draft keeps it (`restore_draft`): its fields, and
    while an entry is edited, which (``editing``), the entry as recorded and as its form first
    showed it (``edit_original``, ``edit_loaded``: clue-notebook/1 JSON) and the screen it was
    opened from (``edit_from``)."""
    keys = (*ENTRY_KEYS, "kind", "editing", "edit_from")
    fields = {k: state[k] for k in keys
              if k in state and k != "entry_problem" and _plain(state[k])}
    if state.get("editing") is not None:
        for key in ("edit_original", "edit_loaded"):
            event = state.get(key)
            if event is not None:
                fields[key] = event_to_json(event)
    asked = shown_asked()
    if asked is not None:
        fields[SHOWN_ASKED] = [asked[0], event_to_json(asked[1])]
    return fields


def shown_asked() -> tuple[int, Suggestion] | None:
    """The saved suggestion (its index and itself) whose shown card the Turn screen asks for
    (``pending_show``), while it still stands in the log as saved, without a card."""
    pending = state.get("pending_show")
    if pending is None:
        return None
    index, event = pending
    if (not isinstance(event, Suggestion) or event.shown is not None
            or locate(live().log.events, index, event) != index):
        return None
    return index, event


def _plain(value: object) -> bool:
    if isinstance(value, list | tuple):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, str | int | float | bool)


def still_listed(what: str | None = None) -> bool:
    """Re-read this browser's access to the open game: whether the game is still on its list.
    Else its owner made new links (or another tab took it off the list): the game is closed,
    and the player told (``what`` did not happen, where a tap asked for something). A screen
    left open on an old link saw every entry recorded since, and the new links."""
    access = store().access(state.shelf, state.game_id)
    if access is not None:
        state.access = access
        return True
    gone = _(GONE) if store().seq(state.game_id) is not None else _(DELETED)
    close_game()
    flash("error", gone if what is None else f"{what}. {gone}")
    return False


def refresh_access(what: str) -> bool:
    """Re-read this browser's access to the open game (its owner may have stopped sharing it);
    whether it may still edit (else says so: ``what`` did not happen)."""
    if not still_listed(what):
        return False
    if can_edit():
        return True
    flash("error", _("This game is no longer shared with you for editing: its owner made new "
                     "links. Ask them for the new one."))
    return False


def commit(log: GameLog, note: str, *, form: bool = False, adds: Event | None = None) -> bool:
    """Save a new version of the open game at once, then update the solvers. When another
    screen saved first, nothing is saved over it: the game is reloaded; returns ``False``.
    ``note`` says what changed (`notebook_app.history`, stored language-neutral).

    With ``form`` (the entry form's Record), the form is kept in the database until the save
    commits: if the server stops in between, the next visit puts it back and says so.
    ``adds``: the new entry a refused Record was adding, looked for among the other screen's
    (`reload`).
    """
    what = unsaved(note)  # said if it is not saved
    if not can_edit():
        flash("error", _("{what}. This game is open to read only; ask its owner for the edit "
                         "link.").format(what=what))
        return False
    if form:
        state.pop("form_kept", None)  # the draft is this form being recorded, then none
    try:
        if not refresh_access(what):
            return False
        if form:
            store().keep_draft(state.shelf, state.game_id, {**form_fields(), DRAFT: RECORDING,
                                                             "events": len(live().log.events)})
        seq = store().save(state.game_id, log, note, after=state.revision[0],
                           draft_of=state.shelf if form else None)
    except StaleRevisionError:
        if form:
            with suppress(StoreError):
                store().drop_draft(state.shelf, state.game_id)  # the form on screen keeps it
        said = _("Your entry was not saved") if form else what  # (not its number: the
        reload(said, adds)  # other screen's entry took it, it would mislead)
        return False
    except GameGoneError:  # deleted by its owner since this run read its access
        close_game()
        flash("error", what + ". " + _(DELETED))
        return False
    except StoreError as err:
        trouble(what, err)
        return False
    state.revision = (seq, note)
    state.live = live().replace(log, written(state.game_id, seq, note))
    state.pop("explain_cell", None)
    flash("done", told(note).render(start=True))
    return True


def restore_draft(edited: str | None = None) -> None:
    """Put back the entry form this browser kept for the open game, and say so: the form being
    filled in before a reload (`notebook_app.kept`), or an entry whose save never finished
    (the server stopped). An edit is put back on its entry where that entry still is (else
    the form is kept as a new entry, as `adopt` does); an entry recorded since (another tab of
    this browser recorded it) is not. A page that reconnected with its own form keeps that;
    where it was editing entry ``edited`` (its address says, `mark_editing`) and the draft
    is that edit, the draft gives the edit back (which entry, as recorded and as first shown)
    and the page its fields."""
    if not can_edit():
        return  # a read link keeps no form
    try:
        draft = store().take_draft(state.shelf, state.game_id)
    except StoreError:
        return  # the open game's own messages say what is wrong with the database
    if not draft:
        return
    typing = draft.get(DRAFT) == TYPING
    if typing:
        recorded_meanwhile(draft.get("events"))
    index = draft.get("editing")
    editing = isinstance(index, int) and index >= 0
    if typing and (form_sent() or draft.get(BLANK)):  # the page shows its form, newer than
        if not editing and isinstance(draft.get("events"), int):  # (`recorded_elsewhere`)
            state.form_since = draft["events"]
        if not (isinstance(index, int) and index >= 0 and edited == str(index + 1)):  # any
            draft = {SHOWN_ASKED: draft.get(SHOWN_ASKED)}  # kept, or a fresh one: the question
        fill_form({k: v for k, v in draft.items() if k not in (*ENTRY_KEYS, "kind")})  # only
        return
    if not editing and recorded_since(draft):
        return
    fill_form(draft)
    if not editing and isinstance(draft.get("events"), int):  # its save may land after this
        state.form_since = draft["events"]  # (a reload after a network drop mid-Record)
    if editing and state.get("editing") is None:
        flash("error", _(EDIT_GONE))
    elif not typing:
        flash("error", _("Your last entry was not saved (the app or the connection stopped "
                         "before it was written). It is back in the form: check it and press "
                         "Record."))
    elif editing:
        flash("done", _("Your changes to #{number} are back in the form, not saved yet.")
              .format(number=state.editing + 1))
    else:
        flash("done", _("The entry you were filling in is back in the form, not recorded yet."))


def recorded_meanwhile(kept: object) -> None:
    """Say the entries recorded on another screen since this browser's form was last kept
    (``kept``: how many entries there were then; the form is kept at the end of each run, so
    any more were recorded elsewhere): a phone that slept or lost its network mid-turn, while
    the table went on, is told, not left to find them in the log."""
    events = live().log.events
    if isinstance(kept, int) and 0 <= kept < len(events):
        flash("done", added_elsewhere(live().log, len(events) - kept))


def kept_event(value: object) -> Event | None:
    """An event a draft keeps as clue-notebook/1 JSON, read in the open game (``None``: none,
    or one that no longer reads)."""
    if not isinstance(value, dict):
        return None
    data = to_json(GameLog(live().log.game, ()))
    try:
        data["events"] = [value]
        return parse(data).events[0]
    except (ValueError, InvalidLogError):
        return None


def recorded_elsewhere(event: Event) -> bool:
    """Whether another screen recorded the new entry ``event`` since this browser's form was
    kept, and say so: a page that reconnected after a server restart sent its form to a new
    session, which read the other screen's entry as part of the game it opened (two phones at
    a table entering the same turn; `restore_draft` kept ``form_since``, the entries there were
    when the form was kept). Asked once, at that form's Record."""
    since = state.pop("form_since", None)
    return isinstance(since, int) and since >= 0 and already_recorded(event, live().log, since)


def already_recorded(event: Event, log: GameLog, since: int) -> bool:
    """Whether an entry like ``event`` (the card shown may be filled in on one phone only) is
    among ``log``'s entries after the first ``since``, and say so in the status line."""
    for number in range(since + 1, len(log.events) + 1):
        if unshown(log.events[number - 1]) == unshown(event):
            flash("done", _("Already recorded on another screen: #{n} {entry}. Not recorded "
                            "twice.").format(n=number, entry=describe(log.events[number - 1])))
            return True
    return False


def unshown(event: Event) -> Event:
    """``event`` without the card shown, which may be filled in after Record."""
    return replace(event, shown=None) if isinstance(event, Suggestion) else event


def recorded_since(draft: Mapping[str, object]) -> bool:
    """Whether the new entry a draft keeps (``entry``: what its form made) was recorded since
    it was kept (``events``: the entries there were then), as another tab of this browser
    may have done; the card shown may have been filled in on Record."""
    entry, before = kept_event(draft.get("entry")), draft.get("events")
    if entry is None or not isinstance(before, int) or before < 0:
        return False
    return any(unshown(entry) == unshown(e) for e in live().log.events[before:])


def fill_form(fields: Mapping[str, object]) -> None:
    """Put kept form fields back (cards as they were); an edit only where its entry still is
    (`locate`, from the entry as recorded when the draft keeps it, else its number), with the
    entry as its form first showed it; the question which card was shown where its entry
    still stands without one."""
    events = live().log.events
    asked = fields.get(SHOWN_ASKED)
    if isinstance(asked, list) and len(asked) == 2 and isinstance(asked[0], int):
        event = kept_event(asked[1])
        if isinstance(event, Suggestion) and locate(events, asked[0], event) == asked[0]:
            state.pending_show = (asked[0], event)
    for key, value in fields.items():
        if key in (*ENTRY_KEYS, "kind") and key != "entry_problem":
            state[key] = list(value) if isinstance(value, list | tuple) else value
    index = fields.get("editing")
    if not isinstance(index, int) or index < 0:
        return
    original = kept_event(fields.get("edit_original"))
    if original is None:  # (a draft kept before drafts kept the entry itself)
        found = index if index < len(events) else None
    else:
        found = locate(events, index, original)
    if found is None:
        return
    state.editing = found
    state.edit_original = events[found]
    state.edit_loaded = kept_event(fields.get("edit_loaded"))
    back = fields.get("edit_from")
    if isinstance(back, str):
        state.edit_from = back


def adopt(revision: Revision) -> None:
    """Show a revision saved on another screen; the entry being edited and the question which
    card was shown follow their events (and are dropped with them)."""
    state.live = live().replace(revision.log,
                                written(state.game_id, revision.seq, revision.note))
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
    flash("error", _(EDIT_GONE))


def was_deleted(game_id: str) -> bool:
    """Whether the game is gone from the database (its owner deleted it); ``False`` where the
    database cannot say."""
    try:
        return store().seq(game_id) is None
    except StoreError:
        return False


def reload(what_happened: str, adds: Event | None = None) -> None:
    """Show the database's newest revision after an action found it changed elsewhere, and say
    what the other screen changed. Where it recorded the very entry ``adds`` (two phones at a
    table entering the same turn), that entry is not recorded twice: ``recorded_elsewhere`` is
    set for the form to start afresh, and the status line says so."""
    before, shown = live().log, state.revision
    try:
        revision = store().latest(state.game_id)
    except (StoreError, InvalidLogError):
        revision = None
    change = None
    if revision is None and was_deleted(state.game_id):  # by its owner, since this run looked
        close_game()
        flash("error", f"{what_happened}. {_(DELETED)}")
        return
    if revision is not None:
        adopt(revision)
        after = revision.log
        change = changed_elsewhere(before, shown, after, (revision.seq, revision.note))
        added = after.game == before.game and after.events[:len(before.events)] == before.events
        if adds is not None and added and already_recorded(adds, after, len(before.events)):
            state.recorded_elsewhere = True
            return
    said = _("The game changed on another screen; reloaded. {what}: check the game and try "
             "again.").format(what=what_happened)
    flash("error", said if change is None else f"{said} {change}")


def sync() -> None:
    """Match the session to this browser (its cookie), the URL (``?game=``) and the database."""
    state.pop("sent_edit_dropped", None)
    if "shelf" not in state:
        state.shelf = find_shelf()
    if "shelf" in st.query_params:
        del st.query_params["shelf"]  # a list never travels in a link
    remember_browser()
    current = state.get("game_id")
    wanted = st.query_params.get("game", "").strip() or None  # (a space pasted with a link)
    if current is not None and "live" not in state:
        if not open_game(current):
            close_game()
    elif wanted and wanted != current:
        open_link(wanted)
    elif current is not None:
        if wanted != current:
            st.query_params["game"] = current
        follow(current)


def follow(game_id: str) -> None:
    """Show what another screen saved since this one last looked (the database wins), and say
    in the status line what it changed (`changed_elsewhere`)."""
    try:
        if not still_listed():
            return
        seq = store().seq(game_id)
        behind = seq != state.revision[0] or live().torn or live().mended  # (`LiveGame.torn`:
        # a change stopped halfway, as in a Record whose run a tap stopped after the save)
        revision = store().latest(game_id) if behind else None
    except (StoreError, InvalidLogError) as err:
        reason = _(err.reason) if isinstance(err, StoreError) else "; ".join(err.problems)
        flash("error", _("Changes from other screens cannot be shown now: {reason}. This "
                         "screen shows the game as you last saw it.").format(reason=reason))
        return
    if revision is None:
        return
    before, shown = live().log, state.revision
    adopt(revision)
    said = changed_elsewhere(before, shown, revision.log, (revision.seq, revision.note))
    if said is not None:  # (none for this screen's own save, mended after a stopped run)
        flash("done", said)


FOLLOW_EVERY = 4.0
"""Seconds between a read link's looks at the game without a tap (`reader_behind`): an entry
recorded at the table shows on a spectator's phone within them. Each look is a short run of
two indexed reads (this browser's access, the game's revision number): a median 0.6 ms on
SQLite (benchmarks/bench_follow.py)."""


def reader_behind() -> bool:
    """Whether a screen open on a game's read link, looked at without a tap every
    `FOLLOW_EVERY` seconds, is to be drawn again: another screen saved a revision since it was
    drawn, or this browser's access changed (its owner made new links: the game is closed and
    the reader told, `still_listed`; or the edit link was opened in another tab), or the game
    is no longer open here. Not while the reader reads a cell's explanation (it stays open,
    but the grid it explains would change under it), nor while the database fails (the next
    look tries again; a tap says why, `follow`)."""
    if "game_id" not in state or "live" not in state:
        return True
    if state.get("explaining"):
        return False
    try:
        if not still_listed() or state.access != "read":
            return True
        seq: int | None = store().seq(state.game_id)
        shown: int = state.revision[0]
        return seq != shown
    except StoreError:
        return False


def clear_entry() -> None:
    """Blank the entry form."""
    state.pop("form_since", None)
    for key in ENTRY_KEYS:
        state.pop(key, None)


def remember_drawn() -> None:
    """Remember the `SET_BY_RUNS` widgets as this run drew them (`ignore_stale_widgets`)."""
    state.drawn_widgets = {key: state[key] for key in SET_BY_RUNS if key in state}


def ignore_stale_widgets() -> None:
    """In a run of a fragment on its timer (``st.fragment(run_every=...)``: the notes of work
    done beside the runs), put the `SET_BY_RUNS` widgets back as the last whole run drew them.

    The browser's timer fires at any moment, also while a run is still being drawn, and its
    request carries every widget's value as the browser holds it then: after Record, maybe the
    fresh form's player but the previous turn's cards. Streamlit runs it after that run and
    takes those values as the user's, and the next run would draw them again: a card recorded
    that nobody tapped. A timer never carries a tap the app has not seen: a tap sends its own
    request first."""
    drawn = state.get("drawn_widgets")
    if drawn is None:  # no whole run has finished drawing since the last one began
        return
    for key in SET_BY_RUNS:
        if key not in drawn:
            state.pop(key, None)
        elif state.get(key) != drawn[key]:
            state[key] = drawn[key]


def stop_editing() -> None:
    """Leave the entry being edited (the form's fields stay)."""
    state.editing = None
    state.pop("edit_original", None)
    state.pop("edit_loaded", None)
    state.pop("edit_from", None)


def undo_revision() -> str | None:
    """Drop the revision this screen shows, unless another screen saved a newer one since
    (then reload and say so); returns what was undone, in the reader's language."""
    seq, undone = state.revision
    if not can_edit():
        flash("error", _("Nothing was undone: this game is open to read only."))
        return None
    if seq <= 1:
        flash("error", _("Nothing to undo: this is how the game started."))
        return None
    try:
        if not refresh_access(_("Nothing was undone")):
            return None
        revision = store().latest(state.game_id) if store().undo(state.game_id, seq) else None
    except StoreError as err:
        trouble(_("Nothing was undone"), err, N_("Try again in a moment."))
        return None
    if revision is None:
        reload(_("Nothing was undone"))
        return None
    state.revision = (revision.seq, revision.note)
    state.live = live().replace(revision.log,
                                written(state.game_id, revision.seq, revision.note))
    stop_editing()
    state.pending_show = None
    state.pop("explain_cell", None)
    return told(undone).render()

