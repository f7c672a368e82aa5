"""Driving the app in Chromium at phone size: wait for a rerun, tap a chip, take a picture of
the whole screen. Used by the browser tests (``playwright`` is imported by the caller)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

PHONE = {"width": 390, "height": 844}
"""The phone the app is tried on."""

Page = Any  # playwright.sync_api.Page, imported only where Chromium runs


class Runs:
    """Counts the app's finished script runs, read from Streamlit's websocket messages: a tap is
    done when the run it started has finished, however long that takes (the spinner Streamlit
    shows comes only after a delay, so waiting for it to vanish is not enough)."""

    def __init__(self, page: Page) -> None:
        self.finished = 0
        page.on("websocket", self._watch)

    def _watch(self, socket: Any) -> None:
        socket.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        if isinstance(payload, str):
            return
        message = ForwardMsg()
        try:
            message.ParseFromString(payload)
        except Exception:  # not a ForwardMsg: nothing to count
            return
        if (message.WhichOneof("type") == "script_finished"
                and message.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY):
            self.finished += 1

    def after(self, page: Page, action: Any, timeout: float = 20000) -> None:
        """Do ``action`` (which starts one run) and wait until that run has finished."""
        before = self.finished
        action()
        waited = 0
        while self.finished <= before:
            if waited > timeout:
                raise TimeoutError("the app did not finish its run")
            page.wait_for_timeout(20)
            waited += 20
        settle(page, 0)


def settle(page: Page, pause: int = 150) -> None:
    """Wait until Streamlit shows no run in progress and nothing stale."""
    from playwright.sync_api import expect

    page.wait_for_timeout(pause)
    expect(page.locator('[data-testid="stStatusWidget"]')).to_have_count(0, timeout=20000)
    expect(page.locator('[data-stale="true"]')).to_have_count(0, timeout=20000)


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


def toggle(page: Page, runs: Runs, label: str, option: str) -> None:
    """One tap on a chip of the many-choice labelled ``label``, wait for the run it starts,
    and check the chip shows as picked."""
    from playwright.sync_api import expect

    chip = toggles(page, label).get_by_role("button", name=option, exact=True)
    runs.after(page, chip.click)
    expect(chip).to_have_attribute("aria-pressed", "true")


def tap(page: Page, runs: Runs, label: str, option: str) -> None:
    """One tap on a chip of the choice labelled ``label``, then wait for the run it starts."""
    chip = chips(page, label).get_by_role("radio", name=option, exact=True)
    runs.after(page, chip.click)


def shot(page: Page, path: Path) -> None:
    """The whole screen: the page scrolls inside Streamlit's main block, so grow the viewport
    to its height for the picture, then go back to the phone's size."""
    settle(page, 300)
    height = page.evaluate("document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": PHONE["width"], "height": max(PHONE["height"], int(height))})
    page.wait_for_timeout(300)
    page.screenshot(path=path)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
