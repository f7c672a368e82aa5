"""`tests.phone.Runs`, the browser tests' idea of an app at rest, fed Streamlit 1.67's own
messages without a browser: the sequences seen on the websocket of a real page (a tap while a
run is ending, a run ended early for a rerun, a reload, a restarted server)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from tests.phone import Runs


class Handlers:
    """What Playwright's ``on`` registers, called by hand."""

    def __init__(self) -> None:
        self.handlers: dict[str, Callable[[Any], None]] = {}

    def on(self, event: str, handler: Callable[[Any], None]) -> None:
        self.handlers[event] = handler

    def emit(self, event: str, value: Any) -> None:
        self.handlers[event](value)


class Socket(Handlers):
    url = "ws://127.0.0.1:8501/_stcore/stream"


class Page(Handlers):
    main_frame = object()

    def evaluate(self, _script: str) -> None:
        """Two animation frames: nothing to draw here."""

    def wait_for_timeout(self, ms: float) -> None:
        """Playwright's events arrive while it waits: none here."""


class Request:
    def __init__(self, frame: object) -> None:
        self.frame = frame

    def is_navigation_request(self) -> bool:
        return True


class Response:
    """The page's document, as a ``goto`` or ``reload`` loads it."""

    def __init__(self, page: Page) -> None:
        self.request = Request(page.main_frame)
        self.page = page
        self.headers = {"content-type": "text/html; charset=utf-8"}
        self.connected_meanwhile: list[Socket] = []

    def header_value(self, name: str) -> str:
        """Playwright's asks the browser and waits, handing out the events that come
        meanwhile: on a busy machine, the new document's websocket."""
        self.connected_meanwhile.append(connect(self.page))
        return self.headers[name]


def rerun() -> bytes:
    message = BackMsg()
    message.rerun_script.SetInParent()
    return message.SerializeToString()


def started() -> bytes:
    message = ForwardMsg()
    message.new_session.SetInParent()
    return message.SerializeToString()


def finished(status: int = ForwardMsg.FINISHED_SUCCESSFULLY) -> bytes:
    message = ForwardMsg()
    message.script_finished = status  # type: ignore[assignment]
    return message.SerializeToString()


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> Page:
    monkeypatch.setattr(Runs, "QUIET", 0.0)
    return Page()


def connect(page: Page) -> Socket:
    socket = Socket()
    page.emit("websocket", socket)
    return socket


def test_a_tap_is_at_rest_only_once_its_run_has_ended(page: Page) -> None:
    runs = Runs(page)
    assert not runs.at_rest()  # not connected yet
    socket = connect(page)
    assert runs.at_rest()  # a page reconnecting to a restarted server asks for no run
    socket.emit("framesent", rerun())
    assert not runs.at_rest()
    socket.emit("framereceived", started())
    assert not runs.at_rest()
    socket.emit("framereceived", finished())
    assert runs.at_rest()
    assert (runs.asked, runs.started, runs.finished) == (1, 1, 1)


def test_a_tap_while_a_run_ends_waits_for_the_run_it_asked_for(page: Page) -> None:
    """Seen on a real page: a tap asks for a run, then the run before it ends, successfully;
    the tap's own run starts only after that."""
    runs = Runs(page)
    socket = connect(page)
    socket.emit("framesent", rerun())
    socket.emit("framereceived", started())
    socket.emit("framesent", rerun())
    socket.emit("framereceived", finished())
    assert not runs.at_rest()
    socket.emit("framereceived", started())
    socket.emit("framereceived", finished())
    assert runs.at_rest()


def test_a_run_ended_early_for_a_rerun_is_followed_by_the_next(page: Page) -> None:
    runs = Runs(page)
    socket = connect(page)
    socket.emit("framesent", rerun())
    socket.emit("framereceived", started())
    socket.emit("framesent", rerun())
    socket.emit("framereceived", finished(ForwardMsg.FINISHED_EARLY_FOR_RERUN))
    assert not runs.at_rest()
    socket.emit("framereceived", started())
    assert not runs.at_rest()
    socket.emit("framereceived", finished())
    assert runs.at_rest()


def test_a_new_document_is_at_rest_only_once_it_has_connected(page: Page) -> None:
    runs = Runs(page)
    old = connect(page)
    page.emit("response", Response(page))  # reload: the old socket may never say it closed
    assert not runs.at_rest()
    old.emit("framereceived", finished())  # the old document's messages count no more
    assert not runs.at_rest()
    socket = connect(page)
    socket.emit("framesent", rerun())
    socket.emit("framereceived", started())
    assert not runs.at_rest()
    socket.emit("framereceived", finished())
    assert runs.at_rest()


def test_a_new_document_connecting_while_its_response_is_read_is_connected(page: Page) -> None:
    """Seen in CI: a reload's page connected while the response's handler waited on the
    browser, and the handler then forgot the new socket, so the page was never at rest."""
    runs = Runs(page)
    connect(page)
    response = Response(page)
    page.emit("response", response)
    socket = response.connected_meanwhile[-1] if response.connected_meanwhile else connect(page)
    socket.emit("framesent", rerun())
    socket.emit("framereceived", started())
    socket.emit("framereceived", finished())
    assert runs.at_rest()


def test_a_closed_socket_is_not_at_rest(page: Page) -> None:
    runs = Runs(page)
    socket = connect(page)
    socket.emit("close", socket)
    assert not runs.at_rest()


def test_waiting_ends_with_what_the_websocket_said(page: Page) -> None:
    pytest.importorskip("playwright")
    runs = Runs(page)
    socket = connect(page)
    socket.emit("framesent", rerun())
    with pytest.raises(TimeoutError, match="1 reruns asked, 0 runs started, 0 ended"):
        runs.wait(timeout=0.05)
