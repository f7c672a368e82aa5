"""The Turn screen: one tap per choice. Who asked (the player whose turn it is is already
chosen), the three cards as chips by category (the room where the suggester stands is already
chosen), who answered on the seat order (everyone before them passed), and, when the user saw
it, which card: only cards that can be the answer are offered. What the fields mean and what
saving does is in `notebook_app.entry`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from solver.cards import CATEGORIES, Deck
from solver.game import GameLog, Reveal, Suggestion

from ..entry import (
    CARD_KEYS,
    KINDS,
    NO_CARD,
    NOBODY,
    RIGHT,
    SHOWED,
    WRONG,
    cancel_edit,
    default_kind,
    defaults_for,
    delete_event,
    kind_of,
    on_by_change,
    picked_cards,
    set_shown,
    skip_show,
    submit_entry,
)
from ..plain import plain
from ..session import live
from ..turns import (
    answer_order,
    describe,
    forum_style,
    locate,
    next_suggester,
    possible_for,
    seen_from_me,
    show_choice,
    shown_candidates,
    side_candidates,
    unshown,
    winner,
)
from .note import note_form

SHORT_KINDS = {"Suggestion": "Suggest", "Accusation": "Accuse", "Reveal": "Reveal",
               "Asked one": "Ask one", "Note": "Note"}
"""The entry kinds as the switch shows them, short enough for one row on a phone."""

state = st.session_state


def chips(label: str, key: str, options: Sequence[object],
          format_func: Callable[[Any], str] | None = None, help: str | None = None) -> None:
    """One tap picks: ``options`` as chips (a choice no longer offered is dropped first). Names
    in the label and the chips are shown as text."""
    if state.get(key) not in options:
        state[key] = None
    shown = format_func or str
    st.pills(plain(label), options, key=key, format_func=lambda o: plain(shown(o)), help=help)


def card_chips(deck: Deck) -> None:
    """The three cards, a row of chips per category."""
    for category in CATEGORIES:
        chips(category.value.capitalize(), CARD_KEYS[category], deck.of(category))


def kinds_offered() -> tuple[str, ...]:
    """Entry kinds of this game: "Asked one" only where players ask one player at a time."""
    if forum_style(live().log):
        return KINDS
    original = state.get("edit_original") if state.get("editing") is not None else None
    if original is not None and kind_of(original) == "Asked one":
        return KINDS
    return tuple(k for k in KINDS if k != "Asked one")


def turn_view() -> None:
    log = live().log
    pending_show_prompt()
    won = winner(log)
    if won is not None:
        st.success(plain(f"{won} accused correctly: the game is over."))
    editing = state.get("editing")
    if editing is not None:
        st.warning(plain(f"Editing #{editing + 1}: {describe(log.events[editing])}"))
        hidden = unshown(state.edit_original, state.get("edit_loaded"))
        if hidden:
            st.caption(plain("The form cannot show all of this entry; kept as recorded unless you "
                             "change who suggested or who showed: " + "; ".join(hidden)))
        with st.container(horizontal=True):
            st.button("Cancel edit", key="cancel_edit", on_click=cancel_edit)
            st.button(f"Delete #{editing + 1}", key="delete_entry", on_click=delete_event,
                      args=(editing,), icon=":material/delete:")
    kinds = kinds_offered()
    if state.get("kind") not in kinds:
        state.kind = default_kind()
    st.segmented_control("Entry", kinds, key="kind", required=True, width="stretch",
                         format_func=SHORT_KINDS.__getitem__, label_visibility="collapsed")
    if state.kind == "Reveal":
        reveal_form()
    elif state.kind == "Note":
        note_form()
    else:
        turn_form()
    problem = state.get("entry_problem")
    if problem:
        st.error(plain(problem), icon=":material/touch_app:")
    submit = "Save changes" if editing is not None else "Record"
    st.button(submit, type="primary", on_click=submit_entry, key="submit", width="stretch")


def turn_form() -> None:
    """Suggestion, accusation or a question to one player."""
    log = live().log
    game = log.game
    kind = state.kind
    if state.get("by") not in game.player_names:
        state.by = next_suggester(log)
        defaults_for(state.by)
    label = {"Accusation": "Who accused", "Asked one": "Who asked"}.get(kind, "Who suggested")
    st.pills(label, game.player_names, key="by", required=True, on_change=on_by_change,
             format_func=plain)
    by = state.by
    if game.me is not None and by != game.me and kind != "Accusation":
        seen = seen_from_me(log, by)
        st.caption(plain(f"{by} has seen from you: {', '.join(seen) if seen else 'nothing yet'}"))
    mine = by == game.me and kind == "Suggestion" and state.get("editing") is None
    if mine and st.toggle("Suggest for me", key="advise_me",
                          help="The suggestion whose answer should teach you most about the "
                               "envelope"):
        st.caption(plain(best_suggestion(log)))
    card_chips(game.deck)
    if kind == "Accusation":
        chips("Result", "e_result", (WRONG, RIGHT))
        return
    order = answer_order(game, by)
    if kind == "Asked one":
        chips("Asked", "e_asked", order)
        asked = state.get("e_asked")
        chips("Answer", "e_answer", (SHOWED, NO_CARD),
              format_func=lambda a: f"{asked or 'they'} {a}" if a == SHOWED else a)
        if state.get("e_answer") == SHOWED and asked is not None:
            shown_chips(asked)
        st.checkbox("Host answered: first match in order suspect, weapon, room", key="e_rule")
        return
    chips("Who showed a card", "e_refuter", (*order, NOBODY),
          format_func=lambda p: p or "Nobody",
          help="Everyone asked before them passed.")
    refuter = state.get("e_refuter")
    if refuter:
        shown_chips(refuter)
    elif refuter == NOBODY and game.side_cards:
        side_peek_chips()


def best_suggestion(log: GameLog) -> str:
    """The advisor's first suggestion (`solver.advice.advise`) and why, in one line; computed
    once per log."""
    from solver.advice import advise, reason
    from solver.errors import ClueError

    cached = state.get("best_suggestion")
    if cached is None or cached[0] != log:
        try:
            best = advise(log, samples=1000)[0]
            line = f"Ask {', '.join(best.triple)}: {reason(log, best)}"
        except ClueError:
            line = "No advice while the log has a contradiction."
        cached = state.best_suggestion = (log, line)
    text: str = cached[1]
    return text


def least_telling(log: GameLog, by: str, cards: tuple[str, ...]) -> str:
    """Which of my cards to show ``by`` (`solver.advice.what_to_show`), in one line; computed
    once per log and suggestion."""
    from solver.advice import what_to_show
    from solver.errors import ClueError

    cached = state.get("least_telling")
    if cached is None or cached[0] != (log, by, cards):
        try:
            advice = what_to_show(log, by, cards)
            left = advice.open_after.get(advice.card)
            line = f"Show {advice.card}" + ("" if left is None else
                                            f": it leaves {by} the most envelopes open "
                                            f"(about {left:.0f})")
        except ClueError:
            line = ""
        cached = state.least_telling = ((log, by, cards), line)
    text: str = cached[1]
    return text


def shown_chips(refuter: str) -> None:
    """Which card was shown, when the user saw it: only cards that can be the answer."""
    log = live().log
    game = log.game
    by, cards = state.by, picked_cards()
    if game.me not in (by, refuter) or cards is None:
        return
    if refuter == game.me:
        choice = show_choice(log, by, cards)
        if len(choice.matching) != 1:
            st.caption(plain(choice.advice))
        if len(choice.matching) > 1 and not choice.already_seen and state.get("editing") is None:
            st.caption(plain(least_telling(log, by, cards)))
        if len(choice.matching) > 1:
            chips("Card you showed", "e_shown", choice.matching,
                  format_func=lambda c: f"{c} ✓ seen" if c in choice.already_seen else c)
        elif choice.matching:
            st.caption(plain(f"You showed {choice.matching[0]}: your only card of the three."))
        return
    if state.get("editing") is not None:  # fixing an entry: the grid may hold the mistake
        candidates = tuple(c for c in cards if c not in game.my_cards)
    else:
        candidates = shown_candidates(game, live().grid()[0], by, refuter, cards)
    if len(candidates) == 1:
        st.caption(plain(f"{refuter} can only have shown {candidates[0]}."))
        return
    if not candidates:
        st.caption(plain(f"The notebook says {refuter} holds none of these: check the entry."))
        candidates = tuple(c for c in cards if c not in game.my_cards)
    chips(f"Card {refuter} showed you", "e_shown", candidates)


def side_peek_chips() -> None:
    """2 players: the side card looked at when nobody showed, and what it was if the user
    looked."""
    game = live().log.game
    chips("Side card looked at", "e_slot", tuple(range(1, game.side_cards + 1)),
          format_func=lambda s: f"slot {s}")
    if game.me == state.by and state.get("e_slot"):
        options = side_candidates(live().grid()[0])
        original = state.get("e_peek")
        if original is not None and original not in options and state.get("editing") is not None:
            options = (*options, original)
        chips("Side card you saw", "e_peek", options)


def reveal_form() -> None:
    game = live().log.game
    whose = tuple(n for n in game.player_names if n != game.me)
    original = state.get("edit_original") if state.get("editing") is not None else None
    if isinstance(original, Reveal) and original.player not in whose:
        whose = (*whose, original.player)  # a reveal of the user's own cards stays theirs
    if state.get("r_player") not in whose:
        state.r_player = whose[0]
    st.pills("Whose cards", whose, key="r_player", required=True, format_func=plain)
    grid = live().grid()[0]
    kept = tuple(original.cards) if isinstance(original, Reveal) else ()
    options = tuple(c for c in game.deck
                    if c in possible_for(grid, state.r_player) or c in kept
                    or c in (state.get("r_cards") or ()))
    state.r_cards = [c for c in state.get("r_cards") or () if c in options]
    st.pills("Cards you saw", options, selection_mode="multi", key="r_cards", format_func=plain)
    st.checkbox("That is their whole hand", key="r_whole")


def pending_show_prompt() -> None:
    """Which card was shown in the event just saved (``pending_show``: its index and itself)."""
    pending = state.get("pending_show")
    log = live().log
    if pending is None:
        return
    index, event = pending
    found = locate(log.events, index, event)
    if not isinstance(event, Suggestion) or found != index or event.shown is not None:
        return
    with st.container(border=True, key="show_prompt"):
        if event.by == log.game.me and event.refuted_by is not None:
            st.markdown(f"**Which card did {plain(event.refuted_by)} show you?**")
            grid = live().grid()[0]
            cards = shown_candidates(log.game, grid, event.by, event.refuted_by, event.cards)
            cards = cards or tuple(c for c in event.cards if c not in log.game.my_cards)
            seen: tuple[str, ...] = ()
        else:
            choice = show_choice(log, event.by, event.cards)
            st.markdown(f"**{plain(event.by)} asked {plain(', '.join(event.cards))}.** "
                        "Which card did you show?")
            st.markdown(plain(choice.advice))
            cards, seen = choice.matching, choice.already_seen
        with st.container(horizontal=True):
            for card in cards:
                mark = " ✓ seen" if card in seen else ""
                st.button(plain(f"{card}{mark}"), key=f"showed_{card}", on_click=set_shown,
                          args=(index, event, card))
            st.button("Skip", key="showed_skip", on_click=skip_show)
