"""This browser's cookies, written by a script the page runs: the app's own state (the shelf
id, the language, the player's choices) kept across reloads, closed tabs and server restarts."""

from __future__ import annotations

import re

import streamlit as st

COOKIE_DAYS = 400
"""The longest a browser keeps a cookie (Chromium's cap); renewed every visit."""
SHELF_COOKIE = "clue_notebook_browser"
"""The cookie that holds this browser's shelf id (its list of games)."""
SHELF_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
"""What a shelf id looks like (it is written into a script: nothing else may pass)."""


def write_cookie(name: str, value: str) -> None:
    """Draw the script that sets cookie ``name`` to ``value`` (a few safe characters: the
    callers' values are checked or fixed words). The browser runs it once, when it first shows
    it."""
    st.html(
        "<script>document.cookie = "
        f"'{name}={value}; Max-Age={COOKIE_DAYS * 86400}; Path=/; SameSite=Lax'"
        " + (location.protocol === 'https:' ? '; Secure' : '');</script>",
        unsafe_allow_javascript=True,
    )
