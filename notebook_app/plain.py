"""User text on screen as text: names, titles, notes and file names never become markup.

Streamlit renders markdown in `st.markdown`, captions, alerts, toasts, `st.write` of text, and in
the labels of buttons, expanders and widgets (images included: a player named
``![](http://host/x.png)`` would make every browser that opens the game fetch that address).
`plain` escapes every ASCII punctuation character with a backslash, which CommonMark (and
Streamlit's ``:red[…]``, ``:material/…:``, emoji shortcodes and ``$…$``) then shows literally, and
keeps the line breaks. Elements that never read markdown (selectbox and multiselect options, the
data frame, charts, `st.text`) take the text as it is.
"""

from __future__ import annotations

import re

_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def plain(text: str) -> str:
    """``text`` as markdown that shows exactly ``text``, one line per line.

    >>> plain("![](http://x/y.png)")
    '\\\\!\\\\[\\\\]\\\\(http\\\\:\\\\/\\\\/x\\\\/y\\\\.png\\\\)'
    >>> plain("**Ann**\\n- :red[Bob]")
    '\\\\*\\\\*Ann\\\\*\\\\*  \\n\\\\- \\\\:red\\\\[Bob\\\\]'
    """
    return "  \n".join(_PUNCTUATION.sub(r"\\\1", line) for line in text.split("\n"))
