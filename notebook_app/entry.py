"""The turn entry form's state and actions: the event its fields describe, saving it, loading an
entry to edit, and the question which card was shown.

The fields live in ``st.session_state`` under `notebook_app.session.ENTRY_KEYS`; the widgets that
set them are drawn by `notebook_app.screens.turn`. Every action saves at once through
`notebook_app.session.commit`.
"""

from __future__ import annotations

import streamlit as st

from solver.cards import CATEGORIES, Category
from solver.editions import forum_dealt
from solver.errors import InvalidLogError
from solver.game import Accusation, Event, Note, Reveal, Suggestion
from solver.i18n import N_, _
from solver.logfile import check
from solver.values import replace

from . import history
from .screens.note import load_note, missing_text, note_event
from .session import (
    clear_entry,
    commit,
    flash,
    left_out,
    live,
    problems_text,
    recorded_elsewhere,
    stop_editing,
)
from .turns import (
    directed,
    edited,
    forum_style,
    fully_revealed,
    locate,
    next_side_slot,
    put_to_one,
    show_choice,
    shown_candidates,
    starting_room,
    suggestion,
    who_accuses,
    whose_turn,
)

KINDS = ("Suggestion", "Accusation", "Reveal", "Asked one", "Note")
"""Entry kinds; "Asked one" is the forum variant's suggestion addressed to one player, "Note" a
fact learned outside the rules (`notebook_app.screens.note`)."""
NOBODY = ""
""""Who showed a card" when nobody did (player names are never empty; ``None`` is not yet
answered)."""
SHOWED, NO_CARD = N_("showed a card"), N_("no card")
"""The answers to a question asked of one player."""
WRONG, RIGHT = N_("wrong"), N_("right")
"""The results of an accusation."""
CARD_KEYS = {Category.SUSPECT: "e_suspect", Category.WEAPON: "e_weapon", Category.ROOM: "e_room"}
"""The field of each card of a suggestion or accusation."""

state = st.session_state


def defaults_for(by: str) -> None:
    """Field defaults that follow the suggester: the room where their pawn stands
    (`notebook_app.turns.starting_room`: never the room of their last suggestion, mine or
    another's, which the rules bar them from; a pawn moved there by another's suggestion; the
    forum variant has no board, so any place is asked about and none is chosen), a
    side card not seen yet; my accusation, when it is safe, names the envelope. Who answered is
    never guessed: one tap says it. A field tapped already keeps what was tapped: only an empty
    one, or one still showing the default it was given, follows the suggester."""
    log = live().log
    given = {"e_room": starting_room(log, by),
             "e_slot": next_side_slot(log, by)}
    before = state.get("entry_given", {})
    for key, value in given.items():
        if state.get(key) is None or state.get(key) == before.get(key):
            state[key] = value
    state.entry_given = given
    my_safe_accusation()


def my_safe_accusation() -> None:
    """My accusation, when it is safe, names the envelope's three cards."""
    if state.get("kind") != "Accusation" or state.get("by") != live().log.game.me:
        return
    for category, card in (safe_envelope() or {}).items():
        state[CARD_KEYS[category]] = card


def default_kind() -> str:
    """A plain suggestion; in the forum variant, a question to one player; once the game is
    over (`solver.ending`: in the entries the header reads past a clash), the hands players show
    then (`Reveal`), but first, where every player accused wrongly, the envelope opened (a
    `Note` on it, the form's owner set so: `notebook_app.screens.note.note_form`)."""
    from solver.ending import ending, to_open

    log = live().log
    if ending(log, left_out()) is not None:
        return "Note" if to_open(log, left_out()) else "Reveal"
    return "Asked one" if forum_style(log) else "Suggestion"


def next_entry() -> None:
    """A fresh form: a plain suggestion by whoever's turn it is (`whose_turn`: in the forum
    variant the same player until their three questions are asked), nothing answered yet."""
    clear_entry()
    log = live().log
    state.kind = default_kind()
    state.by = whose_turn(log, left_out())
    defaults_for(state.by)


def safe_envelope() -> dict[Category, str] | None:
    """The envelope, card by category, when my accusation is safe (every consistent deal has
    it); else ``None``."""
    grid, ignored = live().grid()
    if ignored or not grid.accusation_safe:
        return None
    return {category: str(card) for category, card in grid.envelope().items()}


def default_by(kind: str | None) -> str:
    """Whom the form of ``kind`` starts at: whose turn it is (`whose_turn`), but an accusation
    at the player who just suggested (`who_accuses`), unless it is my turn and my accusation
    is safe (then I accuse, without suggesting)."""
    log, without = live().log, left_out()
    turn = whose_turn(log, without)
    if kind != "Accusation":
        return turn
    if turn == log.game.me and safe_envelope() is not None:
        return turn
    return who_accuses(log, without)


def on_by_change() -> None:
    if state.get("by") is None:  # tapped the chosen player again: keep whose turn it is
        state.by = default_by(state.get("kind"))
    defaults_for(state.by)


def on_kind_change() -> None:
    """Another kind of entry: while the player chip shows a default (not a player tapped), it
    moves to the new kind's (`default_by`), with that player's defaults; my safe accusation
    names the envelope."""
    log = live().log
    if state.get("editing") is not None:
        return
    by = state.get("by")
    if by is None or by in (who_accuses(log, left_out()), whose_turn(log, left_out())):
        wanted = default_by(state.get("kind"))
        if wanted != by:
            state.by = wanted
            defaults_for(wanted)
    my_safe_accusation()


def picked_cards() -> tuple[str, str, str] | None:
    cards = tuple(state.get(CARD_KEYS[c]) for c in CATEGORIES)
    if any(c is None for c in cards):
        return None
    return (str(cards[0]), str(cards[1]), str(cards[2]))


def form_event() -> Event | None:
    """The event the entry form describes, or ``None`` while something is missing
    (`missing` says what)."""
    if missing() is not None:
        return None
    game = live().log.game
    kind = state.get("kind")
    if kind == "Note":
        return note_event()
    if kind == "Reveal":  # in the deck's order, as the app lists cards, not as tapped
        seen = set(state.get("r_cards") or ())
        return Reveal(state.r_player, tuple(c for c in game.deck if c in seen),
                      whole_hand=bool(state.get("r_whole")))
    cards = picked_cards()
    assert cards is not None
    if kind == "Accusation":
        return Accusation(state.by, cards, correct=state.get("e_result") == RIGHT)
    if kind == "Asked one":
        refuted = state.get("e_answer") == SHOWED
        return directed(
            state.by,
            cards,
            asked=state.e_asked,
            refuted=refuted,
            shown=shown_card(cards, state.e_asked if refuted else None),
            first_in_order=bool(state.get("e_rule")),
        )
    refuter = state.e_refuter or None
    return suggestion(
        game,
        state.by,
        cards,
        refuted_by=refuter,
        shown=shown_card(cards, refuter),
        peek_slot=state.get("e_slot") or None if game.side_cards else None,
        peek_card=state.get("e_peek") or None if game.me == state.by else None,
    )


def shown_card(cards: tuple[str, str, str], refuter: str | None) -> str | None:
    """The card the form says was shown, when the user saw it (they asked or they refuted;
    the host answering for me shows my first, `host_shows_mine`)."""
    me = live().log.game.me
    shown = state.get("e_shown")
    if refuter is not None and refuter == me and host_shows_mine(cards) is not None:
        shown = host_shows_mine(cards)
    elif (refuter is not None and me is not None and state.by == me and host_rule()
          and shown not in cards):
        can = shown_candidates(live().log.game, live().grid()[0], me, refuter, cards,
                               first_in_order=True)
        shown = can[0] if len(can) == 1 else None  # the rule is kept only with its card
    if refuter is None or me not in (state.by, refuter) or shown not in cards:
        return None
    return str(shown)


def host_shows_mine(cards: tuple[str, str, str]) -> str | None:
    """The card shown for me when the form says the host answered a question to me (I was
    away): the first of my cards among ``cards``, in the order suspect, weapon, room; ``None``
    on any other entry, or when I hold none of them."""
    if not host_rule():
        return None
    return next((c for c in cards if c in live().log.game.my_cards), None)


def host_rule() -> bool:
    """Whether the form says the host answered the question to one player (by the order)."""
    return state.get("kind") == "Asked one" and bool(state.get("e_rule"))


def missing() -> str | None:
    """What the form still needs before it can be saved, as a request to the player."""
    kind = state.get("kind")
    if kind == "Note":
        return missing_text()
    if kind == "Reveal":
        editing = state.get("editing")
        log = live().log if editing is None else live().log.upto(editing)
        return (fully_revealed(log, state.get("r_player") or "")
                or (None if state.get("r_cards") else _("Tap the cards you saw.")))
    if picked_cards() is None:
        if forum_dealt(live().log.game):
            return _("Tap a suspect, a weapon and a place.")
        return _("Tap a suspect, a weapon and a room.")
    if kind == "Accusation":
        return None if state.get("e_result") in (WRONG, RIGHT) else _("Tap wrong or right.")
    if kind == "Asked one":
        if state.get("e_asked") is None:
            return _("Tap who was asked.")
        if state.get("e_answer") not in (SHOWED, NO_CARD):
            return _("Tap whether {player} showed a card.").format(player=state.e_asked)
        cards = picked_cards()
        if (cards is not None and state.e_answer == SHOWED and host_rule()
                and state.get("by") == live().log.game.me
                and shown_card(cards, state.e_asked) is None):
            return _("Tap the card {player} showed you: the host's rule needs it.").format(
                player=state.e_asked)
        return None
    return None if state.get("e_refuter") is not None else (
        _("Tap who showed a card, or Nobody."))


def submit_entry() -> None:
    problem = missing()
    event = form_event()
    if problem is not None or event is None:
        state.entry_problem = problem
        return
    state.pop("entry_problem", None)
    save_event(event)


def save_event(event: Event) -> None:
    """Append the event (or change the one being edited as the form changed), check it, save
    it; then ask which card was shown if the user saw one but did not say."""
    log = live().log
    index = state.get("editing")
    event, ask_shown = as_recorded(event)
    if index is None:
        if recorded_elsewhere(event):
            next_entry()  # a fresh form
            return
        new = log.append(event)
        index = len(new.events) - 1
        note = history.recorded(index + 1)
    else:
        events = list(log.events)
        events[index] = event
        new = replace(log, events=tuple(events))
        note = history.edited(index + 1, was=log.events[index])
    try:
        check(replace(log, events=(event,)))  # an event's validity does not depend on others
    except InvalidLogError as err:
        flash("error", problems_text(err))
        return
    if not commit(new, note, form=True, adds=event if index == len(log.events) else None):
        if state.pop("recorded_elsewhere", False):
            next_entry()  # another screen recorded this very entry: a fresh form
        return  # else the form keeps what was typed
    back = state.get("edit_from")
    stop_editing()
    state.pending_show = (index, event) if ask_shown else None
    next_entry()
    if back and not ask_shown:  # an edit saved: back to the Log (or the screen it came from)
        state.view = back


def as_recorded(event: Event) -> tuple[Event, bool]:
    """The form's ``event`` as Record saves it (an edit changes only what the user changed; my
    card shown filled in when only one fits), and whether to ask which card I was shown."""
    if state.get("editing") is not None:
        event = edited(state.edit_original, state.get("edit_loaded"), event)
    return my_refutation(event)


def to_record() -> Event | None:
    """What Record would record now, or ``None`` while the form is not complete or names an
    entry Record refuses (`save_event`'s check)."""
    event = form_event()
    if event is None:
        return None
    event = as_recorded(event)[0]
    try:
        check(replace(live().log, events=(event,)))
    except InvalidLogError:
        return None
    return event


def my_refutation(event: Event) -> tuple[Event, bool]:
    """When the user saw the card but did not say which: fill it in if only one of their cards
    fits, else ask for it right after saving (the entry is saved either way)."""
    log = live().log
    me = log.game.me
    if not isinstance(event, Suggestion):
        return event, False
    if me is None or event.refuted_by is None or event.shown is not None:
        return event, False
    if event.by == me:
        grid = live().grid()[0]
        can = shown_candidates(log.game, grid, me, event.refuted_by, event.cards)
        if len(can) == 1 and state.get("editing") is None:
            return replace(event, shown=can[0]), False
        return event, True
    if event.refuted_by != me:
        return event, False
    choice = show_choice(log, event.by, event.cards)
    if len(choice.matching) == 1:
        return replace(event, shown=choice.matching[0]), False
    return event, len(choice.matching) > 1


def set_shown(index: int, event: Suggestion, card: str) -> None:
    """Note the card shown in ``event`` (the log's event ``index``)."""
    log = live().log
    events = list(log.events)
    if locate(log.events, index, event) == index:
        events[index] = replace(event, shown=card)
        if not commit(replace(log, events=tuple(events)),
                      history.shown(card, index + 1)):
            return  # reloaded: the question stays if its event is still there
    state.pending_show = None


def skip_show() -> None:
    state.pending_show = None


def kind_of(event: Event) -> str:
    if isinstance(event, Note):
        return "Note"
    if isinstance(event, Reveal):
        return "Reveal"
    if isinstance(event, Accusation):
        return "Accusation"
    return "Asked one" if put_to_one(live().log.game, event) else "Suggestion"


def start_edit(index: int) -> None:
    """Load an event into its entry form, and remember what the form made of it: saving
    changes only what the user changed from there."""
    back = state.get("view")
    load_into_form(index)
    state.edit_loaded = form_event()
    state.edit_from = back  # the screen the entry was opened from: back there once saved


def load_into_form(index: int) -> None:
    event = live().log.events[index]
    clear_entry()
    state.editing, state.edit_original = index, event
    fill_form(event)
    state.view = "Turn"
    state.scroll_top = True


def fill_form(event: Event) -> None:
    """The form's fields as they were when ``event`` was entered (`load_into_form`, and Undo
    of the latest entry: back in the form, to fix and record again)."""
    game = live().log.game
    state.kind = kind_of(event)
    if isinstance(event, Note):
        load_note(event)
        return
    if isinstance(event, Reveal):
        state.r_player, state.r_cards = event.player, list(event.cards)
        state.r_whole = event.whole_hand
        return
    state.by = event.by
    defaults_for(event.by)
    for card in event.cards:
        state[CARD_KEYS[game.category_of(card)]] = card
    if isinstance(event, Accusation):
        state.e_result = RIGHT if event.correct else WRONG
        return
    state.e_refuter = event.refuted_by or NOBODY
    state.e_shown = event.shown
    peek = event.side_peek
    state.e_slot = None if peek is None else peek.slot
    state.e_peek = None if peek is None else peek.card
    if state.kind == "Asked one":
        state.e_asked = event.refuted_by or (event.passes[0] if event.passes else None)
        state.e_answer = SHOWED if event.refuted_by else NO_CARD
        state.e_rule = event.shown_by_rule is not None


def cancel_edit() -> None:
    """Leave the edit unsaved, back on the screen the entry was opened from, as saving it
    goes (it stayed on Turn)."""
    back = state.get("edit_from")
    stop_editing()
    next_entry()
    if back:
        state.view = back


def delete_event(index: int) -> None:
    """Delete the log's event ``index`` (the entry being edited)."""
    log = live().log
    events = log.events[:index] + log.events[index + 1 :]
    if not commit(replace(log, events=events), history.deleted(index + 1)):
        return
    if state.get("editing") is not None:
        stop_editing()
        next_entry()
    state.pending_show = None
