"""The Log screen: every entry, newest first, to edit or delete."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from ..entry import next_entry, start_edit
from ..plain import plain
from ..session import can_edit, commit, live, stop_editing
from ..turns import describe

state = st.session_state


def delete_event(index: int) -> None:
    log = live().log
    events = log.events[:index] + log.events[index + 1 :]
    if not commit(replace(log, events=events), f"deleted event {index + 1}"):
        return
    if state.get("editing") is not None:
        stop_editing()
        next_entry()
    state.pending_show = None


def log_view() -> None:
    events = live().log.events
    if not events:
        st.caption("No events yet. Record the first turn on the Turn tab." if can_edit()
                   else "No events yet.")
        return
    conflict = set(live().conflict)
    for index in reversed(range(len(events))):
        with st.container(border=True, key=f"event_{index}"):
            mark = " :red[(in conflict)]" if index + 1 in conflict else ""
            st.markdown(f"**#{index + 1}**{mark} {plain(describe(events[index]))}")
            if not can_edit():
                continue
            with st.container(horizontal=True):
                st.button("Edit", key=f"edit_{index}", on_click=start_edit, args=(index,))
                st.button("Delete", key=f"delete_{index}", on_click=delete_event, args=(index,))
