"""The Game screen: who plays, the user's and the face-up cards, the link, export, closing."""

from __future__ import annotations

import streamlit as st

from solver.logfile import dumps

from ..plain import plain
from ..session import close_game, live

state = st.session_state


def game_view() -> None:
    log = live().log
    game = log.game
    st.markdown("**Players** (seating order): "
                + plain(", ".join(f"{p.name} ({p.hand_size})" for p in game.players)))
    if game.me is not None:
        st.markdown(f"**Your cards** ({plain(game.me)}): "
                    f"{plain(', '.join(game.my_cards)) or '—'}")
    if game.face_up:
        st.markdown(f"**Face up:** {plain(', '.join(game.face_up))}")
    if game.side_cards:
        st.markdown(f"**Side cards:** {game.side_cards}")
    st.caption(f"Saved after every entry. This game's link has id `{state.game_id}`: "
               "anyone with the link can open it.")
    name = (game.title or "clue-game").replace(" ", "-")
    st.download_button("Export log (clue-notebook/1)", dumps(log), file_name=f"{name}.json",
                       mime="application/json", key="export", width="stretch")
    st.button("Close game", key="close_game", on_click=close_game, width="stretch")
