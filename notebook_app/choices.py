"""The player's standing choices: Show odds (the Grid) and Suggest for me (the Turn form).

Each is kept in a key of our own in the session (Streamlit drops a widget's value in a run that
does not draw it, and a choice must outlast a look at another tab) and in a cookie of this
browser (``on`` or ``off``), as the language is: a reload, a closed tab or a server restart
starts a session with the choice the player made.
"""

from __future__ import annotations

import streamlit as st

from .cookies import write_cookie

CHOICES = {
    "odds_on": ("clue_notebook_odds", True),
    "advise_on": ("clue_notebook_advise", False),
}
"""Each choice's key in the session: its cookie, and what it is while the player has not
chosen."""

state = st.session_state


def _browser_says(key: str) -> bool:
    """The choice as this browser's cookie held it when the session started."""
    cookie, default = CHOICES[key]
    said = st.context.cookies.get(cookie)
    return default if said not in ("on", "off") else said == "on"


def chosen(key: str) -> bool:
    """The player's choice ``key`` (of `CHOICES`): this session's, else this browser's."""
    if key not in state:
        state[key] = _browser_says(key)
    return bool(state[key])


def remember_choices() -> None:
    """Write into this browser's cookies the choices that differ from what they held when the
    session started, and from then on (``choices_written``: turned back, the cookie written
    meanwhile says otherwise). Drawn at the end of every run of an open game: the run after
    the tap may be cut short by the next tap, on another tab, before the browser got the
    script (it runs it once, when it first shows it)."""
    written: set[str] = state.get("choices_written") or set()
    for key, (cookie, _default) in CHOICES.items():
        if key not in state or (key not in written and bool(state[key]) == _browser_says(key)):
            continue
        written.add(key)
        state.choices_written = written
        write_cookie(cookie, "on" if state[key] else "off")
