"""The server sets this browser's cookies (`notebook_app.browser_cookies`): a cookie only a
page's script wrote lives 7 days at most in Safari, so a player away for a week found their
list of games empty and their language gone."""

from __future__ import annotations

import asyncio
import urllib.request
from typing import Any

import pytest

from notebook_app.browser_cookies import BrowserCookies
from notebook_app.cookies import SHELF_ID
from tests.appserver import Server

YEAR_AND_MORE = "Max-Age=34560000"  # 400 days


def served(path: str = "/", *, cookie: str | None = None, query: str = "", status: int = 200,
           content_type: str | None = "text/html; charset=utf-8", scheme: str = "http",
           kind: str = "http", method: str = "GET") -> list[str]:
    """The ``Set-Cookie`` headers of one response through the middleware."""
    headers = [(b"cookie", cookie.encode("latin-1"))] if cookie is not None else []
    if scheme == "proxied https":  # a proxy ended HTTPS and said so
        scheme, headers = "http", [*headers, (b"x-forwarded-proto", b"https")]
    scope: dict[str, Any] = {"type": kind, "method": method, "path": path, "scheme": scheme,
                             "query_string": query.encode(), "headers": headers}
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        start: dict[str, Any] = {"type": "http.response.start", "status": status, "headers": []}
        if content_type is not None:
            start["headers"].append((b"content-type", content_type.encode()))
        await send(start)
        await send({"type": "http.response.body", "body": b""})

    async def receive() -> dict[str, Any]:
        return {"type": "http.request"}

    async def send(message: Any) -> None:
        sent.append(message)

    asyncio.run(BrowserCookies(app)(scope, receive, send))
    return [value.decode() for message in sent if message["type"] == "http.response.start"
            for name, value in message["headers"] if name == b"set-cookie"]


def shelf_in(header: str) -> str:
    return header.split(";")[0].removeprefix("clue_notebook_browser=")


def test_a_first_visit_gets_a_new_id_the_pages_scripts_cannot_touch() -> None:
    (header,) = served()
    assert SHELF_ID.fullmatch(shelf_in(header))
    assert {YEAR_AND_MORE, "Path=/", "SameSite=Lax", "HttpOnly"} <= set(
        header.replace("; ", ";").split(";"))
    assert "Secure" not in header and "Secure" in served(scheme="https")[0]
    assert "Secure" in served(scheme="proxied https")[0]
    assert shelf_in(served()[0]) != shelf_in(header)  # each browser its own


def test_a_returning_browser_keeps_its_id_renewed() -> None:
    odd = 'prefs="{a;b}"; a cookie with no name; clue_notebook_browser=Abc-_123xyz; z=1'
    assert [shelf_in(h) for h in served(cookie=odd)] == ["Abc-_123xyz"]  # another site's odd
    assert YEAR_AND_MORE in served(cookie=odd)[0]  # cookie does not hide it
    assert served(cookie="clue_notebook_browser=Abc-_123xyz", status=304,  # a revisit whose
                  content_type=None) == [  # page the browser holds: renewed too
        served(cookie="clue_notebook_browser=Abc-_123xyz")[0]]
    for bad in ("x'</script>", "short", "a" * 65):
        assert shelf_in(served(cookie=f"clue_notebook_browser={bad}")[0]) != bad


def test_the_players_choices_are_renewed_as_they_are() -> None:
    """The language, Show odds and Suggest for me, as the page's script wrote them: renewed for
    400 days, still the script's to change (not HttpOnly); a value that is no choice is not."""
    headers = served(cookie="clue_notebook_lang=fi; clue_notebook_odds=off; x=1; "
                            "clue_notebook_advise=on")
    assert len(headers) == 4 and shelf_in(headers[0])
    for header, said in zip(headers[1:], ("clue_notebook_lang=fi", "clue_notebook_odds=off",
                                          "clue_notebook_advise=on"), strict=True):
        assert header.startswith(said + ";") and YEAR_AND_MORE in header
        assert "HttpOnly" not in header
    assert len(served(cookie="clue_notebook_lang=x'<")) == 1


def test_an_address_never_names_the_list() -> None:
    """The first release kept the list in the address (``?shelf=``), and a browser without the
    cookie took it: whoever sent such an address saw the games its opener then started (the
    review's finding). The server, as the app, gives such a browser a new list."""
    assert shelf_in(served(query="shelf=Abc-_123xyz")[0]) != "Abc-_123xyz"
    assert shelf_in(served(query="shelf=Abc-_123xyz",
                           cookie="clue_notebook_browser=Zyx-_987cba")[0]) == "Zyx-_987cba"


@pytest.mark.parametrize("response", [
    {"path": "/_stcore/health", "content_type": "text/plain"},
    {"path": "/static/js/main.js", "content_type": "application/javascript"},
    {"path": "/static/js/main.js", "status": 304, "content_type": None},
    {"path": "/_stcore/host-config", "status": 304, "content_type": None},
    {"path": "/clue/_stcore/host-config", "status": 304, "content_type": None},
    {"method": "POST"},
    {"kind": "websocket"},
], ids=["health", "script", "script not modified", "data not modified",
        "data not modified, under a base path", "post", "websocket"])
def test_only_the_page_sets_it(response: dict[str, Any]) -> None:
    assert served(**response) == []


def test_the_app_server_sets_it(tmp_path: Any) -> None:
    """``streamlit run notebook_app/server.py`` (scripts/app, the Procfile, every test's
    server) serves the app with the middleware."""
    server = Server(tmp_path / "games.sqlite3")
    server.start()
    try:
        with urllib.request.urlopen(server.url + "/") as reply:
            (header,) = reply.headers.get_all("Set-Cookie") or [""]
            assert "<html" in reply.read().decode().lower()
        assert header.startswith("clue_notebook_browser=") and YEAR_AND_MORE in header
    finally:
        server.stop()
