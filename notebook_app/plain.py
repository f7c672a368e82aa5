"""User text on screen as text: names, titles, notes and file names never become markup.

Streamlit renders markdown in `st.markdown`, captions, alerts, toasts, `st.write` of text, and in
the labels of buttons, expanders and widgets (images included: a player named
``![](http://host/x.png)`` would make every browser that opens the game fetch that address).
`plain` escapes every ASCII punctuation character with a backslash, which CommonMark (and
Streamlit's ``:red[…]``, ``:material/…:``, emoji shortcodes and ``$…$``) then shows literally,
and keeps the line breaks. Streamlit also turns bare addresses (``http://…``, ``www.…``,
``a@b.c``) into links after escapes are read, so an invisible word joiner (U+2060) goes after
``:`` in ``://``, after ``www`` and after ``@``: the text reads the same and links nowhere.
Elements that never read markdown (selectbox and multiselect options, the data frame, charts,
`st.text`, `st.code`, a text box's placeholder) take the text as it is.
"""

from __future__ import annotations

import re

_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
_ADDRESS = re.compile(r"(:(?=//)|(?<![^\W_])www(?=\.)|@)", re.IGNORECASE)
_JOINER = "\u2060"


def plain(text: str) -> str:
    """``text`` as markdown that shows ``text`` as it is (no link either), one line per line.

    >>> plain("![](x.png)")
    '\\\\!\\\\[\\\\]\\\\(x\\\\.png\\\\)'
    >>> plain("http://www.x.org") == "http\\\\:\\u2060\\\\/\\\\/www\\u2060\\\\.x\\\\.org"
    True
    >>> plain("**Ann**\\n- :red[Bob]")
    '\\\\*\\\\*Ann\\\\*\\\\*  \\n\\\\- \\\\:red\\\\[Bob\\\\]'
    """
    unlinked = _ADDRESS.sub(lambda found: found.group() + _JOINER, text)
    return "  \n".join(_PUNCTUATION.sub(r"\\\1", line) for line in unlinked.split("\n"))
