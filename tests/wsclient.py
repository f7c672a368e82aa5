"""A phone without a browser: one Streamlit session driven over its websocket, as the page's own
script drives it (protobuf ``BackMsg`` out, ``ForwardMsg`` in), for tests and load tests that
need many sessions at once (``tests/test_servers.py``, ``benchmarks/bench_servers.py``).

A `Phone` connects with this browser's cookie, runs the app, and then taps: each tap sends the
widgets it changes in one rerun and waits until the run ends; what the run drew is read back as
text (markdown, alerts, toasts, headings, the words of raw HTML) and as the widgets by their
keys. Only 127.0.0.1 is used.
"""

from __future__ import annotations

import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any, Literal

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

COOKIE = "clue_notebook_browser"


class SessionLost(Exception):
    """The server closed the websocket (it stopped, or was killed)."""


@dataclass
class Screen:
    """What one run drew: its text and its widgets (key -> element), in order."""

    texts: list[str] = field(default_factory=list)
    widgets: dict[str, Any] = field(default_factory=dict)
    ids: dict[str, str] = field(default_factory=dict)

    def text(self) -> str:
        return "\n".join(self.texts)

    def options(self, key: str) -> list[str]:
        """The labels of a row of chips, as drawn (markdown escapes removed)."""
        return [_unescape(o.content) for o in self.widgets[key].options]


def _unescape(text: str) -> str:
    out, skip = [], False
    for i, ch in enumerate(text):
        if skip:
            skip = False
            out.append(ch)
        elif ch == "\\" and i + 1 < len(text) and not text[i + 1].isalnum():
            skip = True
        elif ch != "\u2060":
            out.append(ch)
    return "".join(out)


class _Words(HTMLParser):
    """The words an ``st.html`` element shows (the game's title is an h1 since f5b82c7), without
    what its ``<style>`` and ``<script>`` hold."""

    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._hidden += tag in ("style", "script")

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in ("style", "script") and self._hidden > 0

    def handle_data(self, data: str) -> None:
        if not self._hidden and data.strip():
            self.words.append(data.strip())


def _words(html: str) -> str:
    parser = _Words()
    parser.feed(html)
    parser.close()
    return " ".join(parser.words)


class Phone:
    """One browser tab of the app on one server."""

    def __init__(self, base: str, shelf: str, query: str = "", timeout: float = 120.0) -> None:
        if not base.startswith("http://127.0.0.1:"):
            raise ValueError(f"local servers only: {base!r}")
        self.base = base
        self.shelf = shelf
        self.query = query
        self.timeout = timeout
        self.screen = Screen()
        self.ws: ClientConnection | None = None
        self._stack = ExitStack()

    def open(self) -> Screen:
        """Connect (a new session, like loading the page) and run the app once."""
        self.close()
        url = "ws://" + self.base.removeprefix("http://") + "/_stcore/stream"
        self._stack = ExitStack()
        self.ws = self._stack.enter_context(connect(
            url, subprotocols=["streamlit"],  # type: ignore[list-item]
            additional_headers={"Cookie": f"{COOKIE}={self.shelf}"}, open_timeout=30,
            max_size=None, ping_interval=None))  # a browser sends no pings either
        return self._run([])

    def close(self) -> None:
        if self.ws is not None:
            self._stack.close()
            self.ws = None

    def tap(self, **values: str | list[str] | Literal[True] | None) -> Screen:
        """Set widgets by key (a chip's label, chips' labels, or ``True`` for a button) in one
        rerun, as a tap does; returns what that run drew."""
        return self._run(self._states(values))

    def _states(self, values: dict[str, str | list[str] | Literal[True] | None]
                ) -> list[WidgetState]:
        states = []
        for key, value in values.items():
            state = WidgetState(id=self.screen.ids[key])
            if value is True:
                state.trigger_value = True
            else:
                labels = [] if value is None else [value] if isinstance(value, str) else value
                state.string_array_value.data.extend(self._raw(key, label) for label in labels)
            states.append(state)
        return states

    def tap_with(self, *states: WidgetState, **values: str | list[str] | Literal[True] | None
                 ) -> Screen:
        """`tap`, with inputs' ``states`` sent as they are (a text box's text)."""
        return self._run([*states, *self._states(values)])

    def _raw(self, key: str, label: str) -> str:
        """A chip's label as the server drew it (with its markdown escapes)."""
        for option in self.screen.widgets[key].options:
            if _unescape(option.content) == label:
                return str(option.content)
        raise KeyError(f"{key}: no chip {label!r} in {self.screen.options(key)}")

    def _run(self, states: list[WidgetState]) -> Screen:
        if self.ws is None:
            raise SessionLost("not connected")
        msg = BackMsg()
        msg.rerun_script.query_string = self.query
        msg.rerun_script.page_script_hash = ""
        msg.rerun_script.widget_states.widgets.extend(states)
        try:
            self.ws.send(msg.SerializeToString())
            self.screen = self._read()
        except (ConnectionClosed, OSError) as err:
            raise SessionLost(str(err)) from err
        return self.screen

    def _read(self) -> Screen:
        assert self.ws is not None
        screen = Screen(ids=dict(self.screen.ids))
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no end of the run within {self.timeout} s")
            data = self.ws.recv(timeout=left)
            msg = ForwardMsg()
            msg.ParseFromString(data if isinstance(data, bytes) else data.encode())
            kind = msg.WhichOneof("type")
            if kind == "page_info_changed":
                self.query = msg.page_info_changed.query_string
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                self._element(screen, msg.delta.new_element)
            elif kind == "script_finished":
                status = ForwardMsg.ScriptFinishedStatus.Name(msg.script_finished)
                if status == "FINISHED_SUCCESSFULLY":
                    return screen

    @staticmethod
    def _element(screen: Screen, element: Any) -> None:
        which = element.WhichOneof("type")
        if which in ("markdown", "alert", "toast"):
            screen.texts.append(_unescape(getattr(element, which).body))
        elif which == "heading":
            screen.texts.append(_unescape(element.heading.body))
        elif which == "code":
            screen.texts.append(element.code.code_text)
        elif which == "html" and (words := _words(element.html.body)):
            screen.texts.append(words)
        elif which in ("button", "button_group", "selectbox", "text_input", "text_area",
                       "checkbox", "download_button"):
            widget = getattr(element, which)
            wid = widget.id
            if "-" in wid and wid.startswith("$$ID-"):
                key = wid.split("-", 2)[2]
                screen.widgets[key] = widget
                screen.ids[key] = wid
            if which == "button":
                screen.texts.append(_unescape(widget.label))


# --- a game to play over the websocket ------------------------------------------------------

PLAYERS = ("Ann", "Bob", "Cat", "Dan")
SIGNATURE = {"Ann": "Miss Scarlet", "Bob": "Colonel Mustard", "Cat": "Mrs. White",
             "Dan": "Mr. Green"}
"""Each player's suspect: every suggestion a player answers names theirs, so the card each
answer shows can be true. The passes cannot always: two phones' entries interleaved can leave
two weapons passed by all (the 30-turn two-server game did after about 20 entries), which the
app shows as entries that cannot all be true, and goes on recording."""
WEAPONS = ("Candlestick", "Knife", "Lead Pipe", "Revolver", "Rope", "Wrench")
ROOMS = ("Kitchen", "Ballroom", "Conservatory", "Dining Room", "Billiard Room", "Library",
         "Lounge", "Hall", "Study")

Turn = tuple[str, str, str, str, str]
"""(who suggested, suspect, weapon, room, who showed a card), as the log stores it."""


def new_table() -> Any:
    """A classic four-player game watched by a spectator (no shown cards to ask for)."""
    from solver.editions import Dealing, editions, new_game
    from solver.game import GameLog

    game = new_game(editions()["clue-classic"].deck, PLAYERS, Dealing.CLASSIC, title="Club")
    return GameLog(game, ())


def turn_for(n: int, seed: int = 0) -> Turn:
    """The ``n``-th turn a phone enters (different phones: different ``seed``)."""
    by = PLAYERS[(n + seed) % 4]
    answer = PLAYERS[(n + seed + 1 + (n // 4) % 3) % 4]
    return (by, SIGNATURE[answer], WEAPONS[(n * 5 + seed) % 6], ROOMS[(n * 7 + seed * 3) % 9],
            answer)


def turns_saved(log: Any) -> list[Turn]:
    """The log's suggestions as `Turn` tuples."""
    return [(e.by, *e.cards, e.refuted_by) for e in log.events]


def record(phone: Phone, turn: Turn) -> str:
    """Enter one turn as a player does: tap who suggested, then the cards, who showed, Record.
    Returns ``recorded`` (the app said so), or ``not saved`` (it said that: the form is kept)."""
    choose(phone, turn)
    return press_record(phone, turn)


def choose(phone: Phone, turn: Turn) -> None:
    """Tap who suggested (the form then follows that player)."""
    if phone.screen.widgets.get("by") is None:
        raise RuntimeError(f"no turn form on this screen: {phone.screen.text()[:300]}")
    phone.tap(by=turn[0])


def press_record(phone: Phone, turn: Turn) -> str:
    """Tap the cards and who showed, and Record, in one go; what the app said."""
    _, suspect, weapon, room, answer = turn
    screen = phone.tap(e_suspect=suspect, e_weapon=weapon, e_room=room, e_refuter=answer,
                       submit=True)
    text = screen.text()
    if "Not saved" in text or "Your entry was not saved" in text:  # (refused: another screen
        return "not saved"                                          # saved first)
    if "Undo #" in text:  # the Undo button names the entry just saved
        return "recorded"
    raise RuntimeError(f"Record said neither recorded nor not saved: {text[:500]}")
