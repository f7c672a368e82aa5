"""This browser's list kept in a cookie the server sets (`ShelfCookie`, the middleware of
``notebook_app/server.py``), not only one the page's script writes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

from starlette.requests import cookie_parser

from notebook_app.cookies import COOKIE_DAYS, SHELF_COOKIE, SHELF_ID
from notebook_app.store import new_id

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def shelf_of(scope: Scope) -> str | None:
    """The shelf id a request's cookies carry, if it is one."""
    for name, value in scope.get("headers", ()):
        if name == b"cookie":  # (read as browsers write it: another site's odd cookie on this
            shelf = cookie_parser(value.decode("latin-1")).get(SHELF_COOKIE, "")  # host
            if SHELF_ID.fullmatch(shelf):  # must not hide it, as it would from SimpleCookie)
                return shelf
    return None


def bookmarked(scope: Scope) -> str | None:
    """The shelf id of a first release's bookmark (``?shelf=`` without a game), as
    `notebook_app.session.find_shelf` takes it where no cookie holds one."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    shelf = query.get("shelf", [""])[0]
    return shelf if SHELF_ID.fullmatch(shelf) and "game" not in query else None


def set_cookie(shelf: str, secure: bool) -> bytes:
    """The ``Set-Cookie`` header that keeps ``shelf`` for `COOKIE_DAYS`, out of the page's
    scripts' reach (``HttpOnly``: a script's write would be cut to 7 days by Safari)."""
    return (f"{SHELF_COOKIE}={shelf}; Max-Age={COOKIE_DAYS * 86400}; Path=/; SameSite=Lax; HttpOnly"
            + ("; Secure" if secure else "")).encode()


class ShelfCookie:
    """Set this browser's shelf cookie from the server on every page the app serves: its own
    id renewed, or a new one on a first visit, before the page's websocket opens (which
    carries it to the session, `notebook_app.session.find_shelf`).

    A cookie a page's script writes lives 7 days at most in Safari, and its data is cleared
    after 7 days without a visit: a player away for a week found their list empty. One set by
    the server lives `COOKIE_DAYS`, renewed at each visit."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "GET":
            await self.app(scope, receive, send)
            return
        shelf = shelf_of(scope) or bookmarked(scope) or new_id()
        secure = scope.get("scheme") == "https"

        async def with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start" and is_page(scope, message):
                message["headers"] = [*message.get("headers", ()),
                                      (b"set-cookie", set_cookie(shelf, secure))]
            await send(message)

        await self.app(scope, receive, with_cookie)


def is_page(scope: Scope, start: Message) -> bool:
    """Whether a response is the app's page, not a script, a style or data: HTML, or the
    page's "not modified" (a revisit, where the browser holds the page already)."""
    if any(name.lower() == b"content-type" and value.startswith(b"text/html")
           for name, value in start.get("headers", ())):
        return True
    path = str(scope.get("path", ""))
    return (start.get("status") == 304 and "/_stcore/" not in path  # (under a base path too)
            and "." not in path.rsplit("/", 1)[-1])
