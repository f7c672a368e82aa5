"""On the Game screen of a spectator's game: "You are" and "Your cards", which make it that
player's notebook (`notebook_app.hand`): a player who started recording before picking up
their cards, or a phone handed to a player."""

from __future__ import annotations

import streamlit as st

from solver.errors import InvalidLogError
from solver.game import Suggestion
from solver.i18n import _, ngettext

from .. import history
from ..hand import mine_label, with_hand
from ..plain import plain
from ..session import button, commit, flash, live, problems_text, unset

state = st.session_state

NOBODY = ""
"""The "You are" box before a player is chosen (a player's name is never empty)."""
HAND_KEYS = ("hand_me", "hand_cards")
"""The form's inputs, kept while another tab shows (`screens.play.keep_form`) and until the
hand is saved: a failed save or a look at the grid loses nothing."""


def seat_form() -> None:
    """Which player the user is and their cards, folded away under a question; open while
    something is chosen or a problem is said."""
    game = live().log.game
    names = game.player_names
    if state.get("hand_me") not in (NOBODY, *names) and unset("hand_me"):
        state.hand_me = NOBODY
    problem = state.pop("hand_problem", None)
    chosen = state.get("hand_me") or None
    begun = chosen is not None or bool(state.get("hand_cards")) or problem is not None
    with st.expander(_("Are you one of the players? Enter your cards"), expanded=begun,
                     icon=":material/person_add:"):
        st.caption(_("This game is recorded as a spectator's: the grid shows what the whole "
                     "table knows. Say which player you are and enter your cards: every entry "
                     "stays as it is, and the grid and the odds use your cards too. Whoever "
                     "opens this game's links will see them."))
        st.selectbox(_("You are"), (NOBODY, *names), key="hand_me",
                     format_func=lambda n: _("Choose a player") if n == NOBODY else n)
        if chosen is not None:
            if unset("hand_cards"):
                state.hand_cards = [c for c in state.get("hand_cards") or () if c in game.deck]
            st.pills(mine_label(game.capacity(chosen)), game.deck.cards,
                     selection_mode="multi", key="hand_cards", format_func=plain)
        if problem:
            st.error(plain(problem), icon=":material/warning:")
        label = (_("Save: I am {player}").format(player=chosen) if chosen is not None
                 else _("Save my cards"))
        button(plain(label), key="hand_save", on_click=take_seat, type="primary",
               width="stretch")


def take_seat() -> None:
    """Save the game as the chosen player's notebook, or say what is wrong beside the form."""
    log = live().log
    player = state.get("hand_me") or None
    dealt = log.game.capacity(player) if player in log.game.player_names else 0
    fields = {"me": _("You are"), "my_cards": mine_label(dealt)}
    grid, ignored = live().grid()
    try:
        seated = with_hand(log, player, state.get("hand_cards") or (), fields, grid, ignored)
    except InvalidLogError as err:
        state.hand_problem = problems_text(err)
        return
    me = seated.game.me
    if me is None or not commit(seated, history.seated(me)):
        return  # (commit said why; the form keeps what was chosen)
    for key in HAND_KEYS:
        state.pop(key, None)
    unnoted = sum(isinstance(e, Suggestion) and e.by == me and e.refuted_by is not None
                  and e.shown is None for e in seated.events)
    if unnoted:
        flash("done", ngettext(
            "{count} of your suggestions says a card was shown, not which: tap it in the Log "
            "to add the card you saw",
            "{count} of your suggestions say a card was shown, not which: tap them in the Log "
            "to add the cards you saw", unnoted).format(count=unnoted))
