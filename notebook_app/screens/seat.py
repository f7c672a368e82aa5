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
from ..session import (
    button,
    commit,
    flash,
    is_owner,
    live,
    new_links,
    problems_text,
    store,
    trouble,
    unset,
)
from ..store import StoreError

state = st.session_state

NOBODY = ""
"""The "You are" box before a player is chosen (a player's name is never empty)."""
HAND_KEYS = ("hand_me", "hand_cards", "hand_new_links")
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
                state.hand_cards = [c for c in state.get("hand_cards") or ()
                                    if c in game.deck and c not in game.face_up]
            st.pills(mine_label(game.capacity(chosen)),  # (face up: nobody's)
                     tuple(c for c in game.deck.cards if c not in game.face_up),
                     selection_mode="multi", key="hand_cards", format_func=plain)
        elsewhere = opened_elsewhere()
        if elsewhere:
            links_first(elsewhere)
        if problem:
            st.error(plain(problem), icon=":material/warning:")
        label = (_("Save: I am {player}").format(player=chosen) if chosen is not None
                 else _("Save my cards"))
        button(plain(label), key="hand_save", on_click=take_seat, type="primary",
               width="stretch")


def opened_elsewhere() -> int:
    """How many other phones and browsers hold the game through a link, where this browser may
    replace the links (its owner); 0 where the database cannot say (Save then says why)."""
    if not is_owner():
        return 0
    try:
        return store().opened_elsewhere(state.game_id)
    except StoreError:
        return 0


def links_first(count: int) -> None:
    """Players at a table often share a spectator's read link: the hand entered here would
    show on the ``count`` phones that opened it. Replacing the links first (ticked unless
    unticked) takes the game from them in the same Save."""
    st.caption(ngettext(
        "{count} other phone or browser has this game open through a link: it would see your "
        "cards.",
        "{count} other phones or browsers have this game open through a link: they would see "
        "your cards.", count).format(count=count))
    if "hand_new_links" not in state and unset("hand_new_links"):
        state.hand_new_links = True
    st.checkbox(_("Replace the links first: whoever opened them can no longer see this game"),
                key="hand_new_links")


def links_replaced(player: str) -> bool:
    """Replace the links where another phone or browser still holds the game through one
    (asked for by the ticked box); whether the hand may be saved now (else it says why)."""
    try:
        if not is_owner() or not store().opened_elsewhere(state.game_id):
            return True
    except StoreError as err:
        trouble(history.unsaved(history.seated(player)), err)
        return False
    return new_links(_("New links made: the old ones no longer open this game. The new ones "
                       "are on the Game screen, to send only to whoever may see your cards"))


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
    if "hand_new_links" not in state and opened_elsewhere():  # opened since the form was drawn
        state.hand_problem = _("Another phone or browser opened this game's link meanwhile: it "
                               "would see your cards. Choose whether to replace the links "
                               "first, then Save again.")
        return  # (the form draws the box now, ticked)
    if me is None or (state.get("hand_new_links") and not links_replaced(me)):
        return  # (it said why; nothing saved, the form keeps what was chosen)
    if not commit(seated, history.seated(me)):
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
    unseen = sum(isinstance(e, Suggestion) and e.by == me and e.side_peek is not None
                 and e.side_peek.card is None for e in seated.events)  # a spectator's log:
    if unseen:  # my looks at side cards, the card not known then
        flash("done", ngettext(
            "{count} of your looks at a side card says which card, not what it was: tap it in "
            "the Log to add the card you saw",
            "{count} of your looks at a side card say which card, not what it was: tap them in "
            "the Log to add the cards you saw", unseen).format(count=unseen))
