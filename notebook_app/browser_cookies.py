"""This browser's cookies set by the server (`BrowserCookies`, the middleware of
``notebook_app/server.py``), not only by the page's script: its list of games (the shelf id)
and its standing choices (the language, Show odds, Suggest for me).

A cookie a page's script writes lives 7 days at most in Safari, and its data is cleared after
7 days without a visit: a player away for a week found their list empty, and the language
they picked gone. One the server sets lives `COOKIE_DAYS`, renewed with every page."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.requests import cookie_parser

from notebook_app.choices import CHOICES
from notebook_app.cookies import COOKIE_DAYS, SHELF_COOKIE, SHELF_ID
from notebook_app.language import COOKIE as LANGUAGE_COOKIE
from notebook_app.store import new_id

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CHOSEN = (LANGUAGE_COOKIE, *(cookie for cookie, _default in CHOICES.values()))
"""The cookies of the player's choices: renewed as they are (the page's script changes them)."""
CHOICE = re.compile(r"[a-z]{2,3}")
"""What a choice's value looks like (a language code, ``on`` or ``off``)."""


def cookies_of(scope: Scope) -> dict[str, str]:
    """A request's cookies, read as browsers write them: another site's odd cookie on this host
    must not hide ours, as it would from `http.cookies.SimpleCookie`."""
    found: dict[str, str] = {}
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            found.update(cookie_parser(value.decode("latin-1")))
    return found


def shelf_of(cookies: dict[str, str]) -> str | None:
    """The shelf id the cookies carry, if it is one."""
    shelf = cookies.get(SHELF_COOKIE, "")
    return shelf if SHELF_ID.fullmatch(shelf) else None


def set_cookie(name: str, value: str, secure: bool, *, scripts: bool = False) -> bytes:
    """The ``Set-Cookie`` header that keeps a cookie for `COOKIE_DAYS`; out of the page's
    scripts' reach unless ``scripts`` (``HttpOnly``: a script's write would cut it to 7 days
    in Safari)."""
    return (f"{name}={value}; Max-Age={COOKIE_DAYS * 86400}; Path=/; SameSite=Lax"
            + ("" if scripts else "; HttpOnly") + ("; Secure" if secure else "")).encode()


def set_cookies(scope: Scope) -> list[bytes]:
    """The ``Set-Cookie`` headers of a page: the shelf id (the browser's own, else a new one:
    never one an address names, `notebook_app.session.find_shelf`), and each choice the browser
    holds, renewed as it is."""
    cookies = cookies_of(scope)
    shelf = shelf_of(cookies) or new_id()
    secure = scope.get("scheme") == "https" or (b"x-forwarded-proto", b"https") in [
        (name.lower(), value.lower()) for name, value in scope.get("headers", ())]  # (behind a
    # proxy that ends HTTPS, which uvicorn trusts only on this machine: Secure only narrows)
    return [set_cookie(SHELF_COOKIE, shelf, secure), *(
        set_cookie(name, cookies[name], secure, scripts=True)
        for name in CHOSEN if CHOICE.fullmatch(cookies.get(name, "")))]


class BrowserCookies:
    """Set this browser's cookies from the server on every page the app serves (`set_cookies`),
    before the page's websocket opens, which carries them to the session
    (`notebook_app.session.find_shelf`, `notebook_app.language.choose`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "GET":
            await self.app(scope, receive, send)
            return
        headers = set_cookies(scope)

        async def with_cookies(message: Message) -> None:
            if message["type"] == "http.response.start" and is_page(scope, message):
                message["headers"] = [*message.get("headers", ()),
                                      *((b"set-cookie", header) for header in headers)]
            await send(message)

        await self.app(scope, receive, with_cookies)


def is_page(scope: Scope, start: Message) -> bool:
    """Whether a response is the app's page, not a script, a style or data: HTML, or the
    page's "not modified" (a revisit, where the browser holds the page already)."""
    if any(name.lower() == b"content-type" and value.startswith(b"text/html")
           for name, value in start.get("headers", ())):
        return True
    path = str(scope.get("path", ""))
    return (start.get("status") == 304 and "/_stcore/" not in path  # (under a base path too)
            and "." not in path.rsplit("/", 1)[-1])
