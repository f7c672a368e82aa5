"""The Log screen: every entry, newest first, one compact line each; a tap opens it for editing
(or deleting) on the Turn screen."""

from __future__ import annotations

import streamlit as st

from solver.i18n import _

from ..entry import start_edit
from ..plain import plain
from ..session import button, can_edit, left_out, live
from ..turns import described
from .notation import notation_panel

state = st.session_state


def log_view() -> None:
    notation_panel()
    log = live().log
    events = log.events
    if not events:
        st.caption(_("No events yet. Record the first turn on the Turn tab.") if can_edit()
                   else _("No events yet."))
        return
    conflict = set(live().conflict)
    editable = can_edit()
    if editable:
        st.caption(_("Tap an entry to edit or delete it."))
    if conflict:  # the mark's tooltip, said where a finger (no hover) and a reader see it too
        st.caption("⚠ " + _("In conflict with other entries"))
    with st.container(key="log", gap=None):
        for index in reversed(range(len(events))):
            mark = "⚠ " if index + 1 in conflict else ""
            line = f"{mark}**#{index + 1}** {plain(described(log, index, left_out()))}"
            if not editable:
                st.markdown(line)  # a read link shows the log without edits
                continue
            button(line, key=f"edit_{index}", on_click=start_edit, args=(index,),
                      type="tertiary", width="stretch",
                      help=_("In conflict with other entries") if mark else None)
