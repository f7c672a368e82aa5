"""What was typed or pasted into a text box, refused when it is longer than the box takes.

No text box has Streamlit's ``max_chars``: the browser drops a paste longer than that whole,
leaving the box as it was and saying nothing, so a long title, remark or list of names vanished
(seen at 390 px in Chromium). The text reaches the app and stays in its box; here it is refused
in words that name the box, how long the text is and how long it may be.
"""

from __future__ import annotations

import streamlit as st

from solver.i18n import _, number_said

from .plain import plain

state = st.session_state


def too_long(key: str, label: str, most: int) -> str | None:
    """Why the text of the box ``key`` (labelled ``label``) is refused: more than ``most``
    characters; ``None`` when it is not."""
    count = len(state.get(key) or "")
    if count <= most:
        return None
    return _("“{field}” has {count} characters, more than the {most} it takes: shorten it to "
             "go on.").format(field=label, count=number_said(count), most=number_said(most))


def refuse_long(key: str, label: str, most: int, *, said: object = None) -> bool:
    """Under the box ``key``: that its text is too long (`too_long`), unless that is ``said``
    already (the form's own error, below it). Whether it is."""
    problem = too_long(key, label, most)
    if problem is not None and problem != said:
        st.error(plain(problem), icon=":material/warning:")
    return problem is not None
