"""A game you cannot lose, one link for one game: the cookie round trip in a real headless
Chromium (390x844) against a real server that is stopped and started again.

One browser (a Playwright context, with its own cookies) opens two games. Reloading, closing the
tab, opening the bare address and restarting the server all bring its games back. Another
browser sees none of them, cannot open one by the id in the address bar, and through a game's
edit link gets that game only. Screenshots go to ``test-artifacts/storage-*.png``.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``streamlit run notebook_app/app.py`` on one port and one database, restartable."""

    def __init__(self, database: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "CLUE_NOTEBOOK_DB": str(database)}
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "notebook_app/app.py",
             "--server.port", str(self.port), "--server.address", "127.0.0.1",
             "--server.headless", "true", "--browser.gatherUsageStats", "false"],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    err = self.process.stderr.read().decode() if self.process.stderr else ""
                    pytest.fail(f"streamlit did not start: {err[-2000:]}")
                time.sleep(0.3)

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "games.sqlite3")
    running.start()
    try:
        yield running
    finally:
        running.stop()


def test_games_come_back_and_links_open_one_game(
    server: Server, chromium_executable: str, chromium_args: list[str], artifacts_dir: Path
) -> None:
    from playwright.sync_api import Locator, Page, expect, sync_playwright

    def settle(page: Page) -> None:
        page.wait_for_timeout(300)
        expect(page.locator('[data-testid="stStatusWidget"]')).to_have_count(0, timeout=30000)
        expect(page.locator('[data-stale="true"]')).to_have_count(0, timeout=30000)

    def home(page: Page) -> None:
        expect(page.get_by_text("New game")).to_be_visible(timeout=30000)
        settle(page)

    def listed(page: Page) -> list[str]:
        home(page)
        return [b.inner_text() for b in page.get_by_role("button").all()
                if re.search(r" \d+ events? · ", b.inner_text())]

    def open_example(page: Page, name: str) -> str:
        home(page)
        page.get_by_label("Example", exact=True).click()
        page.get_by_role("option", name=name, exact=True).click()
        page.get_by_role("button", name="Open example").click()
        expect(tab_button(page, "Grid")).to_be_visible(timeout=30000)
        settle(page)
        assert "game=" in page.url
        return page.url.split("game=", 1)[1]

    def tab_button(page: Page, name: str) -> Locator:
        return page.locator('[data-testid="stButtonGroup"] button', has_text=name)

    def tab(page: Page, name: str) -> None:
        tab_button(page, name).click()
        settle(page)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        ann = browser.new_context(viewport={"width": 390, "height": 844})
        page = ann.new_page()
        page.goto(server.url)
        first = open_example(page, "rules-example-1")
        tab(page, "Game")
        page.get_by_role("button", name="Close game").click()
        settle(page)
        second = open_example(page, "rules-example-3")
        cookies = {c["name"]: c for c in ann.cookies()}
        assert "clue_notebook_browser" in cookies
        shelf = cookies["clue_notebook_browser"]["value"]
        assert shelf not in page.url and cookies["clue_notebook_browser"]["expires"] > \
            time.time() + 300 * 86400

        page.reload()  # reload: the same game
        expect(tab_button(page, "Grid")).to_be_visible(timeout=30000)
        assert page.url.endswith(f"game={second}")

        page.close()  # close the tab, open the bare address: both games listed
        page = ann.new_page()
        page.goto(server.url)
        assert len(listed(page)) == 2
        page.screenshot(path=artifacts_dir / "storage-1-bare-address.png")

        page.goto(f"{server.url}/?game={second}")  # a page left open on the game...
        expect(tab_button(page, "Grid")).to_be_visible(timeout=30000)
        settle(page)
        server.stop()  # ...while the server restarts
        server.start()
        expect(tab_button(page, "Grid")).to_be_visible(timeout=60000)
        settle(page)
        for _ in range(4):  # the reconnected page reruns the app once it has a new session
            tab(page, "Game")
            if page.get_by_text("This browser keeps its games", exact=False).is_visible():
                break
            page.wait_for_timeout(2000)
        expect(page.get_by_text("This browser keeps its games", exact=False)).to_be_visible()
        page.screenshot(path=artifacts_dir / "storage-2-game-screen.png", full_page=True)
        codes = [c.inner_text() for c in page.locator('[data-testid="stCode"]').all()]
        edit_link, read_link = codes[0].strip(), codes[1].strip()
        assert edit_link.startswith(server.url) and "game=" in edit_link
        assert second not in edit_link and first not in edit_link

        page.goto(server.url)  # after the restart, the bare address lists both still
        assert len(listed(page)) == 2

        bob = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        bob.goto(server.url)
        assert listed(bob) == []
        bob.goto(f"{server.url}/?game={first}")  # the id in Ann's address bar is no key
        expect(bob.get_by_text("This link does not open a game here")).to_be_visible(
            timeout=30000)
        bob.goto(read_link)
        expect(tab_button(bob, "Grid")).to_be_visible(timeout=30000)
        settle(bob)
        expect(bob.get_by_text("Read only", exact=False)).to_be_visible()
        assert tab_button(bob, "Turn").count() == 0
        bob.goto(edit_link)
        expect(tab_button(bob, "Turn")).to_be_visible(timeout=30000)
        settle(bob)
        bob.goto(server.url)
        assert len(listed(bob)) == 1  # the shared game only, never Ann's other one
        bob.screenshot(path=artifacts_dir / "storage-3-other-browser.png")
        browser.close()
