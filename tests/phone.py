"""Driving the app in Chromium at phone size: open a page whose app runs are watched, wait until
the app is at rest, tap a chip, take a picture of the whole screen. Used by every browser test
of the app (``playwright`` is imported by the caller)::

    page = new_page(browser, viewport=PHONE)  # or a context's: new_page(context)
    page.goto(app_url)
    expect(page.get_by_text("New game")).to_be_visible(timeout=30000)
    settle(page)                        # the first run has ended and is drawn
    after(page, button.click)           # a tap that asks for a run, and that run ended
    tap(page, "Who suggested", "Ann")   # the same for a chip

Never wait a fixed time for the app: `settle` waits for what the websocket says, however long
a run takes on a busy machine, and fails with what it saw after 30 s."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

PHONE = {"width": 390, "height": 844}
"""The phone the app is tried on."""

TOUCH_PHONE = {"viewport": PHONE, "is_mobile": True, "has_touch": True, "device_scale_factor": 3,
               "user_agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
                             "(KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"}
"""A phone with a finger, not a mouse (``browser.new_context(**TOUCH_PHONE)``; tap with
``locator.tap()``): a coarse pointer and no hover, so a tooltip is never seen before a tap acts.
The other tests drive the phone with a mouse."""

Page = Any  # playwright.sync_api.Page, imported only where Chromium runs
T = TypeVar("T")


class Runs:
    """The app's script runs as the page's websocket carries them, both ways: the reruns the
    browser asks for (``rerun_script``), the runs the server starts (``new_session``) and ends
    (``script_finished``, any status; one ended early for a rerun is followed by the next).

    The app is at rest when the page is connected, no rerun was asked for since the last run
    started, that run has ended, and nothing came or went for a moment. Streamlit's status
    widget cannot say so: it shows only after a delay, so it may not yet be there when a run has
    started. Attach one to every page before it opens the app (`new_page` does)."""

    QUIET = 0.05
    """Seconds without a message after the last run ends before the page is checked."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.asked = 0
        """Reruns the browser asked for."""
        self.started = 0
        self.finished = 0
        self.running = False
        self.owed = False
        """A rerun was asked for and no run has started since."""
        self.socket: Any = None
        """The websocket of the page's current document, None before it connects."""
        self.moment = time.monotonic()
        """When the last message came or went."""
        page.on("response", self._navigated)
        page.on("websocket", self._connect)

    def _navigated(self, response: Any) -> None:
        """A new document (``goto``, ``reload``; not the app's own changes to the address,
        which load nothing) is at rest only once it has connected: its page asks for a run
        as it connects.

        Only what the response event carries is read (``headers``). ``header_value`` asks
        the browser for the raw headers and waits; Playwright hands out the next events
        meanwhile, so on a busy machine the new document's websocket was taken before this
        handler forgot the old one, and forgotten with it: not connected, ever (CI)."""
        request = response.request
        if not request.is_navigation_request():
            return
        try:
            main = request.frame == self.page.main_frame
        except Exception:  # a service worker's request has no frame
            return
        if main and response.headers.get("content-type", "").startswith("text/html"):
            self.socket = None

    def _connect(self, socket: Any) -> None:
        """The page connects; on reconnecting to a restarted server it asks for no run."""
        if not socket.url.endswith("/_stcore/stream"):
            return
        self.socket, self.owed, self.running = socket, False, False
        self.moment = time.monotonic()
        socket.on("framesent", lambda payload: self._sent(socket, payload))
        socket.on("framereceived", lambda payload: self._received(socket, payload))
        socket.on("close", lambda _socket: self._closed(socket))

    def _closed(self, socket: Any) -> None:
        if socket is self.socket:
            self.socket = None

    def _sent(self, socket: Any, payload: str | bytes) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg

        message = BackMsg()
        if socket is not self.socket or not _parse(message, payload):
            return
        if message.WhichOneof("type") == "rerun_script":
            self.asked += 1
            self.owed = True
            self.moment = time.monotonic()

    def _received(self, socket: Any, payload: str | bytes) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        message = ForwardMsg()
        if socket is not self.socket or not _parse(message, payload):
            return
        kind = message.WhichOneof("type")
        if kind == "new_session":
            self.started += 1
            self.owed, self.running = False, True
        elif kind == "script_finished":
            self.finished += 1
            self.running = message.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN
        elif kind in (None, "heartbeat_ack"):
            return
        self.moment = time.monotonic()

    def at_rest(self) -> bool:
        """Whether the websocket says the app is at rest (see the class)."""
        return (self.socket is not None and not self.owed and not self.running
                and time.monotonic() - self.moment >= self.QUIET)

    def state(self) -> str:
        """What the websocket said, for a timeout's message."""
        return (f"{self.asked} reruns asked, {self.started} runs started, {self.finished} "
                f"ended; connected: {self.socket is not None}, a run owed: {self.owed}, "
                f"running: {self.running}")

    def wait(self, timeout: float = 30) -> None:
        """Wait until the app is at rest and the page has drawn what the last run sent: two
        animation frames in the page (which also bring in any message the page sent just
        before), then the websocket at rest through one more round of frames."""
        deadline = time.monotonic() + timeout
        while True:
            if frames(self.page) and self.at_rest():
                seen = self.moment
                if frames(self.page) and self.at_rest() and self.moment == seen:
                    return
            if time.monotonic() > deadline:
                raise TimeoutError(f"the app was not at rest after {timeout:.0f} s: "
                                   f"{self.state()}")
            self.page.wait_for_timeout(20)

    def ask(self, action: Callable[[], Any], timeout: float = 30) -> None:
        """Do ``action`` and wait until the page has asked the app for a run."""
        before = self.asked
        action()
        deadline = time.monotonic() + timeout
        while self.asked == before:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the action asked the app for no run in {timeout:.0f} s: "
                                   f"{self.state()}")
            self.page.wait_for_timeout(20)


def _parse(message: Any, payload: str | bytes) -> bool:
    """Read ``payload`` into the protobuf ``message``; False when it is not one."""
    if isinstance(payload, str):
        return False
    try:
        message.ParseFromString(payload)
    except Exception:  # not a message of this kind: nothing to count
        return False
    return True


def new_page(owner: Any, **options: Any) -> Page:
    """A new page of ``owner`` (a Playwright browser or browser context) whose app runs are
    watched (`Runs`), so `settle` and `after` can wait for them: open every app page so."""
    page = owner.new_page(**options)
    page.clue_runs = Runs(page)
    return page


def runs(page: Page) -> Runs:
    """The runs of ``page``, opened by `new_page`."""
    watched = getattr(page, "clue_runs", None)
    if watched is None:
        raise RuntimeError("open the page with tests.phone.new_page, so its runs are watched")
    return watched  # type: ignore[no-any-return]


FRAMES = """() => new Promise(done => {  // two animation frames, or a second if frames stall
  const timer = setTimeout(done, 1000);
  requestAnimationFrame(() => requestAnimationFrame(() => { clearTimeout(timer); done(); }));
})"""


def frames(page: Page) -> bool:
    """Wait for the page to draw two frames: what it was sent is on the screen. False when
    the page is between two documents (a navigation) and so draws none."""
    from playwright.sync_api import Error

    try:
        page.evaluate(FRAMES)
    except Error as error:
        if "context was destroyed" in error.message or "navigat" in error.message:
            return False
        raise
    return True


def poll(page: Page, read: Callable[[], T], done: Callable[[T], bool],
         timeout: float = 20) -> T:
    """Read ``read()`` every 100 ms until ``done`` holds of it or ``timeout`` seconds have
    passed, and return the last reading either way: the caller asserts on it, saying what it
    saw. For what the page draws after the app is at rest (a table's canvas)."""
    deadline = time.monotonic() + timeout
    while True:
        reading = read()
        if done(reading) or time.monotonic() > deadline:
            return reading
        page.wait_for_timeout(100)


INKED = """() => [...document.querySelectorAll('[data-testid="stDataFrame"] canvas')].some(c => {
  if (!c.width || !c.height) return false;  // whether a table's canvas has any ink on it
  const data = c.getContext('2d', {willReadFrequently: true}).getImageData(0, 0, c.width,
                                                                          c.height).data;
  for (let i = 0; i < data.length; i += 4) if (data[i] < 128) return true;
  return false;
})"""


def table_drawn(page: Page) -> None:
    """Wait until the table on the screen (``st.dataframe``: a canvas, drawn a moment after the
    app is at rest) shows something; fails after 20 s."""
    assert poll(page, lambda: page.evaluate(INKED), bool), "the table is not drawn"


RUNNING = '[data-testid="stStatusWidget"]'
"""Streamlit's "Running..." figure (and Stop button)."""
STALE = '[data-stale="true"]'
"""An element the run has not drawn again yet, greyed."""
PLACEHOLDER = '[data-testid="stSkeleton"]'
"""A grey placeholder: an element whose code (loaded when first needed) has not arrived."""
SHOWN = "(selectors) => selectors.filter(s => document.querySelector(s))"


WORKING = '[role="img"][aria-label="hourglass_top icon"]'
"""The note of work done beside the runs (the grid's odds, the race line: "Counting the odds…",
"Weighing who may already know…", in any language): once it is done, a fragment that looks
every second has the page drawn again, with it."""
BESIDE_MOST = 120
"""Seconds `settle` waits for the work beside the runs."""


def settle(page: Page, timeout: float = 30, drawn: bool = True) -> None:
    """Wait until the app is at rest (`Runs`), shows no run in progress and nothing stale, and,
    when ``drawn``, every element's code has arrived (no grey placeholder) and no work beside
    the runs is still awaited (`WORKING`): else the page drawn again when it is done could be
    taken for the next tap's."""
    from playwright.sync_api import expect

    runs(page).wait(timeout)
    busy = [RUNNING, STALE, *([PLACEHOLDER] if drawn else [])]
    for selector in page.evaluate(SHOWN, busy):  # one look; then wait for what is still shown
        expect(page.locator(selector)).to_have_count(0, timeout=timeout * 1000)
    if drawn and page.locator(WORKING).count():
        watched = runs(page)
        asked, started = watched.asked, watched.started
        try:
            expect(page.locator(WORKING)).to_have_count(0, timeout=BESIDE_MOST * 1000)
        except AssertionError as error:  # say which note, and whether its looks reached the app
            notes = page.locator(f"p:has({WORKING})").all_inner_texts()
            raise AssertionError(
                f"the work beside the runs was still awaited after {BESIDE_MOST} s: {notes}; "
                f"meanwhile the page asked for {watched.asked - asked} runs and "
                f"{watched.started - started} started ({watched.state()})") from error
        settle(page, timeout, drawn)


def after(page: Page, action: Callable[[], Any], drawn: bool = True) -> None:
    """Do ``action``, which must ask the app for a run (a tap, a key), and `settle`."""
    runs(page).ask(action)
    settle(page, drawn=drawn)


def odds_counted(page: Page, timeout: int = 60000) -> None:
    """On the Grid: wait until its odds are counted. A run draws the grid at once and, while
    the odds are being counted, says so; once counted, the page is drawn again with them."""
    from playwright.sync_api import expect

    expect(page.get_by_text("Counting the odds…")).to_have_count(0, timeout=timeout)
    settle(page)


def at_home(page: Page, url: str) -> None:
    """``page`` opened at the app's bare address ``url``, its home screen drawn."""
    from playwright.sync_api import expect

    page.goto(url)
    expect(page.get_by_text("Or open a log")).to_be_visible(timeout=30000)
    settle(page)


def chips(page: Page, label: str) -> Any:
    """The chips (or segments) of the choice labelled ``label``."""
    return page.get_by_role("radiogroup", name=label, exact=True)


def chosen(page: Page, label: str) -> str | None:
    """The option chosen in the choice labelled ``label``, if any."""
    picked = chips(page, label).locator('[role="radio"][aria-checked="true"]')
    return str(picked.inner_text()).strip() if picked.count() else None


def toggles(page: Page, label: str) -> Any:
    """The chips of the many-choice (``st.pills(..., selection_mode="multi")``) labelled
    ``label``: Streamlit draws it as a toolbar of toggle buttons, not a radio group."""
    return page.get_by_role("toolbar", name=label, exact=True)


def toggle(page: Page, label: str, option: str) -> None:
    """One tap on a chip of the many-choice labelled ``label``, wait for the run it starts,
    and check the chip shows as picked."""
    from playwright.sync_api import expect

    chip = toggles(page, label).get_by_role("button", name=option, exact=True)
    after(page, chip.click)
    expect(chip).to_have_attribute("aria-pressed", "true")


def tap(page: Page, label: str, option: str) -> None:
    """One tap on a chip of the choice labelled ``label``, then wait for the run it starts."""
    chip = chips(page, label).get_by_role("radio", name=option, exact=True)
    after(page, chip.click)


def shot(page: Page, path: Path) -> None:
    """The whole screen, once the app is at rest: the page scrolls inside Streamlit's main
    block, so grow the viewport to its height for the picture, then go back to the phone's
    size."""
    settle(page)
    height = page.evaluate("document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": PHONE["width"], "height": max(PHONE["height"], int(height))})
    frames(page)
    page.screenshot(path=path)
    page.set_viewport_size(PHONE)
    frames(page)
