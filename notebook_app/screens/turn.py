"""The Turn screen: the entry form for a suggestion, accusation, reveal or forum question, and
the question which card was shown right after one is saved. What the fields mean and what
saving does is in `notebook_app.entry`."""

from __future__ import annotations

import streamlit as st

from solver.cards import CATEGORIES, Deck
from solver.editions import Dealing, editions
from solver.game import Reveal, Suggestion

from ..entry import (
    CARD_KEYS,
    KINDS,
    NO_CARD,
    NO_SLOT,
    NOBODY,
    cancel_edit,
    defaults_for,
    on_by_change,
    set_shown,
    skip_show,
    submit_entry,
)
from ..session import live
from ..turns import (
    answer_order,
    describe,
    locate,
    next_suggester,
    seen_from_me,
    show_choice,
    unshown,
    winner,
)

state = st.session_state


def card_selects(deck: Deck) -> None:
    for category in CATEGORIES:
        key = CARD_KEYS[category]
        if state.get(key) not in deck.of(category):
            state[key] = None
        st.selectbox(category.value.capitalize(), deck.of(category), key=key, index=None,
                     placeholder=f"Pick a {category.value}")


def shown_radio(cards_hint: str) -> None:
    st.radio(f"Card shown to you {cards_hint}", (None, 0, 1, 2), key="e_shown", horizontal=True,
             format_func=lambda i: "not seen" if i is None else CATEGORIES[i].value)


def turn_view() -> None:
    log = live().log
    game = log.game
    pending_show_prompt()
    won = winner(log)
    if won is not None:
        st.success(f"{won} accused correctly: the game is over.")
    editing = state.get("editing")
    if editing is not None:
        st.warning(f"Editing #{editing + 1}: {describe(log.events[editing])}")
        hidden = unshown(state.edit_original, state.get("edit_loaded"))
        if hidden:
            st.caption("The form cannot show all of this entry; kept as recorded unless you change"
                       " who suggested or who showed: " + "; ".join(hidden))
        st.button("Cancel edit", key="cancel_edit", on_click=cancel_edit)
    if state.get("kind") not in KINDS:
        preset = editions().get(game.edition or "")
        forum = preset is not None and preset.dealing is Dealing.FORUM
        state.kind = "Asked one" if forum else KINDS[0]
    st.radio("Entry", KINDS, key="kind", horizontal=True, label_visibility="collapsed")
    kind = state.kind
    if kind == "Reveal":
        reveal_form()
        return
    names = game.player_names
    if state.get("by") not in names:
        state.by = next_suggester(log)
        defaults_for(state.by)
    label = "Who accused" if kind == "Accusation" else "Who suggested"
    st.selectbox(label, names, key="by", on_change=on_by_change)
    by = state.by
    if game.me is not None and by != game.me and kind != "Accusation":
        seen = seen_from_me(log, by)
        st.caption(f"{by} has seen from you: {', '.join(seen) if seen else 'nothing yet'}")
    submit = "Save changes" if editing is not None else "Record"
    if kind == "Accusation":
        with st.form("accusation_form", border=False):
            card_selects(game.deck)
            st.radio("Result", ("wrong", "right"), key="e_result", horizontal=True)
            st.form_submit_button(submit, type="primary", on_click=submit_entry, key="submit",
                                  width="stretch")
        return
    order = answer_order(game, by)
    if kind == "Asked one":
        if state.get("e_asked") not in order:
            state.e_asked = order[0]
        with st.form("directed_form", border=False):
            card_selects(game.deck)
            st.selectbox("Asked", order, key="e_asked")
            st.radio("Answer", ("showed a card", "no card"), key="e_answer", horizontal=True)
            if game.me == by:
                shown_radio("")
            st.checkbox("Host answered: first match in order suspect, weapon, room",
                        key="e_rule")
            st.form_submit_button(submit, type="primary", on_click=submit_entry, key="submit",
                                  width="stretch")
        return
    if state.get("e_refuter") not in (*order, NOBODY):
        state.e_refuter = order[0]
    with st.form("suggestion_form", border=False):
        card_selects(game.deck)
        st.selectbox("Who showed a card", (*order, NOBODY), key="e_refuter",
                     format_func=lambda p: p or "Nobody",
                     help="Everyone asked before them is recorded as passing.")
        if game.me == by:
            shown_radio("")
        if game.side_cards:
            slots = tuple(range(1, game.side_cards + 1))
            if state.get("e_slot") not in (*slots, NO_SLOT):
                state.e_slot = NO_SLOT
            st.selectbox("If nobody showed: side card looked at", (NO_SLOT, *slots), key="e_slot",
                         format_func=lambda s: f"slot {s}" if s else "none")
            if game.me == by:
                if state.get("e_peek") not in (NO_CARD, *game.deck.cards):
                    state.e_peek = NO_CARD
                st.selectbox("Side card you saw", (NO_CARD, *game.deck.cards), key="e_peek",
                             format_func=lambda c: c or "—")
        st.form_submit_button(submit, type="primary", on_click=submit_entry, key="submit",
                              width="stretch")


def reveal_form() -> None:
    game = live().log.game
    whose = tuple(n for n in game.player_names if n != game.me)
    original = state.get("edit_original") if state.get("editing") is not None else None
    if isinstance(original, Reveal) and original.player not in whose:
        whose = (*whose, original.player)  # a reveal of the user's own cards stays theirs
    if state.get("r_player") not in whose:
        state.r_player = whose[0]
    with st.form("reveal_form", border=False):
        st.selectbox("Whose cards", whose, key="r_player")
        st.multiselect("Cards you saw", game.deck.cards, key="r_cards")
        st.checkbox("That is their whole hand", key="r_whole")
        submit = "Save changes" if state.get("editing") is not None else "Record"
        st.form_submit_button(submit, type="primary", on_click=submit_entry, key="submit",
                              width="stretch")


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
        if event.by == log.game.me:
            st.markdown(f"**Which card did {event.refuted_by} show you?**")
            cards: tuple[str, ...] = event.cards
            seen: tuple[str, ...] = ()
        else:
            choice = show_choice(log, event.by, event.cards)
            st.markdown(f"**{event.by} asked {', '.join(event.cards)}.** "
                        "Which card did you show?")
            st.write(choice.advice)
            cards, seen = choice.matching, choice.already_seen
        with st.container(horizontal=True):
            for card in cards:
                mark = " ✓ seen" if card in seen else ""
                st.button(f"{card}{mark}", key=f"showed_{card}", on_click=set_shown,
                          args=(index, event, card))
            st.button("Skip", key="showed_skip", on_click=skip_show)
