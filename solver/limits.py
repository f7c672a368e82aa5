"""How big a game may be: the limits that keep one log from exhausting the machine.

A log is refused, with a message naming the field and the value, when it is larger than any
real game and large enough to take the memory or the time of a shared server. The checks run
while the log is read (`solver.logfile`), before any solver is built, and are the same for the
command line and the app (whose uploads go through the same reader). ``docs/limits.md`` lists
them for users.

The sizes are above real play (a classic game has 21 cards, up to 6 players and about a hundred
events; the largest forum games have about 12 players and 300 events) and low enough that every
command answers in seconds at the limits (``docs/limits.md`` has the measured figures).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

MAX_FILE_BYTES = 1_000_000
"""A log file or upload: 1 MB (a 300-event forum game of 60 players is 73 kB)."""
MAX_DEPTH = 16
"""JSON nesting: the format itself needs 4 levels; extra fields may nest a little."""
MAX_PLAYERS = 16
"""Players at the table (the largest forum games have about 12)."""
MAX_CARDS = 60
"""Cards in the deck, every category together (the forum deck for 16 players has 51)."""
MAX_EVENTS = 1_000
"""Events in one log (a long forum game has about 300)."""
MAX_NAME_CHARS = 80
"""Characters in one card or player name."""
MAX_TEXT_CHARS = 2_000
"""Characters in a title or any other free text the log keeps."""
MAX_SAMPLES = 20_000
"""Deals drawn to score suggestions or the race (``advise --samples``, ``race --samples``)."""
ADVICE_WORK = 4_000_000
"""The advisor's work budget: deals drawn times suggestions scored (a classic game scores 324
suggestions on 2,000 deals, 648,000). Past it the default draw shrinks to fit, and an asked-for
``--samples`` that does not fit is refused."""
RACE_VIEWS = 2_000
"""The race's default work: deals drawn times opponents whose view is solved (a classic game of
six: 400 deals x 5 opponents); at a larger table the default draw shrinks to fit (at least 100
deals)."""
RACE_WORK = 10_000
"""The race's work budget: an asked-for ``race --samples`` past it is refused (a classic game of
six may draw 2,000 deals, a table of sixteen 666)."""


class Stopped(Exception):
    """The work was stopped from outside (the app's session ended); nothing was computed."""


_stop_asked: Callable[[], bool] | None = None


def stop_when(asked: Callable[[], bool] | None) -> None:
    """Let long computations ask ``asked`` at their checkpoints whether to stop (the app: has
    this session ended?); ``None`` (the command line) never stops."""
    global _stop_asked
    _stop_asked = asked


def checkpoint() -> None:
    """`Stopped` if the caller asked to stop. Long computations call this between units of
    their work (a programme transition, a SAT call), so a session that ends stops its work.

    >>> stop_when(lambda: True)
    >>> checkpoint()
    Traceback (most recent call last):
    solver.limits.Stopped
    >>> stop_when(None)
    >>> checkpoint()
    """
    if _stop_asked is not None and _stop_asked():
        raise Stopped


BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Unicode's explicit bidirectional embeddings, overrides and isolates (LRE, RLE, PDF, LRO, RLO,
LRI, RLI, FSI, PDI). Left open in a name, one turns around the rest of every line the name is
shown in: a player "\\u202eevil" showed the Log's line "#1 evil: Plum, Rope → Ann showed" and
the game's title backwards. Right-to-left names need none of them (Arabic and Hebrew letters
carry their direction), nor do the marks LRM and RLM, which stay allowed."""


def text_problem(text: str, *, limit: int = MAX_NAME_CHARS, name: bool = True) -> str | None:
    """Why ``text`` cannot be a name (or, with ``name=False``, a title), quoting it; or ``None``
    if it can.

    Names are printed, stored and shown on screens: they may not be longer than ``limit``,
    hold a control character (NUL, a newline, escape sequences), half of a UTF-16 surrogate
    pair, which no UTF-8 file or database can store, or a bidirectional control (`BIDI_CONTROLS`),
    which turns the text around it on every line that shows the name. Free text may hold
    newlines and tabs.

    >>> text_problem("Regina Päiväperhonen") is None
    True
    >>> text_problem("Ann\\x00")
    "'Ann\\\\x00' holds the control character '\\\\x00'"
    >>> text_problem("x" * 81)[-45:]
    'is 81 characters long; at most 80 are allowed'
    >>> text_problem("\u202eAnn")
    "'\\\\u202eAnn' holds '\\\\u202e', a character that reverses the direction of the text after it"
    """
    from .i18n import gettext as _

    if len(text) > limit:
        return _("{text} is {count} characters long; at most {limit} are allowed").format(
            text=shorten(text), count=len(text), limit=limit)
    allowed = "" if name else "\n\t"
    for char in text:
        category = unicodedata.category(char)
        if category == "Cs":
            return _("{text} holds {char}, half of a UTF-16 surrogate pair, which is not "
                     "text").format(text=shorten(text), char=repr(char))
        if category == "Cc" and char not in allowed:
            return _("{text} holds the control character {char}").format(
                text=shorten(text), char=repr(char))
        if char in BIDI_CONTROLS:
            return _("{text} holds {char}, a character that reverses the direction of the text "
                     "after it").format(text=shorten(text), char=repr(char))
    return None


def shorten(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for messages that quote bad values,
    with the length of the value itself (a text's characters, not its quotes: a 200-character
    name was said to be "(202 characters) … 200 characters long").

    >>> shorten("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxx…xxxxxxxxxxxxxxxxxxxxxxxxxxxx' (100 characters)"
    >>> shorten(3)
    '3'
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    half = limit // 2
    from .i18n import gettext as _

    return _("{start}…{end} ({count} characters)").format(
        start=text[:half - 2], end=text[-half + 1:],
        count=len(value) if isinstance(value, str) else len(text))
