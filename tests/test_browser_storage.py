"""A game you cannot lose, one link for one game: the cookie round trip in a real headless
Chromium (390x844) against a real server that is stopped and started again.

One browser (a Playwright context, with its own cookies) opens two games. Reloading, closing the
tab, opening the bare address and restarting the server all bring its games back (after a
restart the page's first tap shows the screen it asked for, and a half-entered turn stays). Another
browser sees none of them, cannot open one by the id in the address bar, and through a game's
edit link gets that game only. Screenshots go to ``test-artifacts/storage-*.png``.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.appserver import Server
from tests.phone import PHONE, after, new_page, settle

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.browser


def test_games_come_back_and_links_open_one_game(
    server: Server, chromium_executable: str, chromium_args: list[str], artifacts_dir: Path
) -> None:
    from playwright.sync_api import Locator, Page, expect, sync_playwright

    def home(page: Page) -> None:
        expect(page.get_by_text("New game")).to_be_visible(timeout=30000)
        settle(page)

    def listed(page: Page, count: int) -> list[str]:
        """The saved games on the home screen, once there are ``count`` (a busy machine may
        draw the list a moment after the rest)."""
        home(page)
        games = page.locator(".st-key-saved_games button")
        expect(games).to_have_count(count, timeout=30000)
        return [b.inner_text() for b in games.all()]

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
        after(page, tab_button(page, name).click)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        ann = browser.new_context(viewport=PHONE)
        page = new_page(ann)
        page.goto(server.url)
        first = open_example(page, "Rules example 1: Niko cannot answer, Veera shows Aino the rope")
        tab(page, "Game")
        after(page, page.get_by_role("button", name="Close game").click)
        second = open_example(page, "Rules example 3: Veera shows Oona, later I see Niko's Regina")
        cookies = {c["name"]: c for c in ann.cookies()}
        assert "clue_notebook_browser" in cookies
        shelf = cookies["clue_notebook_browser"]["value"]
        assert shelf not in page.url and cookies["clue_notebook_browser"]["expires"] > \
            time.time() + 300 * 86400

        page.reload()  # reload: the same game
        expect(tab_button(page, "Grid")).to_be_visible(timeout=30000)
        assert page.url.endswith(f"game={second}")

        page.close()  # close the tab, open the bare address: both games listed
        page = new_page(ann)
        page.goto(server.url)
        listed(page, 2)
        page.screenshot(path=artifacts_dir / "storage-1-bare-address.png")

        page.goto(f"{server.url}/?game={second}")  # a page left open on the game...
        expect(tab_button(page, "Grid")).to_be_visible(timeout=30000)
        settle(page)
        suspect = page.get_by_role("radiogroup", name="Suspect", exact=True).get_by_role(
            "radio").nth(1)  # ...a turn half entered...
        after(page, suspect.click)
        expect(suspect).to_have_attribute("aria-checked", "true")
        server.stop()  # ...while the server restarts
        server.start()
        settle(page, timeout=90)  # reconnected (the page asks for a run as it reconnects)
        expect(tab_button(page, "Grid")).to_be_visible()
        tab(page, "Game")  # the first tap, to a new session, shows the screen it asked for
        expect(page.get_by_text("This browser keeps its games", exact=False)).to_be_visible()
        page.screenshot(path=artifacts_dir / "storage-2-game-screen.png", full_page=True)
        codes = [c.inner_text() for c in page.locator('[data-testid="stCode"]').all()]
        edit_link, read_link = codes[0].strip(), codes[1].strip()
        assert edit_link.startswith(server.url) and "game=" in edit_link
        assert second not in edit_link and first not in edit_link
        tab(page, "Turn")  # and the turn half entered before the restart is still there
        expect(suspect).to_have_attribute("aria-checked", "true")

        page.goto(server.url)  # after the restart, the bare address lists both still
        listed(page, 2)

        bob = new_page(browser.new_context(viewport=PHONE))
        bob.goto(server.url)
        listed(bob, 0)
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
        listed(bob, 1)  # the shared game only, never Ann's other one
        bob.screenshot(path=artifacts_dir / "storage-3-other-browser.png")
        browser.close()


def test_a_read_link_follows_the_game_without_a_tap(
    server: Server, chromium_executable: str, chromium_args: list[str]
) -> None:
    """A spectator's phone on a read link shows what the table records within
    `FOLLOW_EVERY` + 2 s, no tap (found in a two-phone play-through: it showed at the next
    tap), though not while it shows a cell's explanation (drawn again, the page closed it);
    new links close the game with the reason; then its timer stops."""
    from playwright.sync_api import expect, sync_playwright

    from notebook_app.history import recorded, started
    from notebook_app.session import FOLLOW_EVERY
    from notebook_app.store import Store
    from solver.game import GameLog, Suggestion
    from tests.phone import runs
    from tests.test_app_storage import classic

    store = Store(server.env["CLUE_NOTEBOOK_DB"])
    log = classic(title="Followed")
    game = store.create(log, "browser-of-ann", started())
    within = (FOLLOW_EVERY + 2) * 1000
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        bob = new_page(browser.new_context(viewport=PHONE))
        bob.goto(f"{server.url}/?game={store.links(game).read}")
        expect(bob.get_by_text("Read only", exact=False)).to_be_visible(timeout=30000)
        settle(bob)
        expect(bob.get_by_text("No entries yet.")).to_be_visible()
        one = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob")
        store.save(game, GameLog(log.game, (one,)), recorded(1), after=1)  # Ann records
        expect(bob.get_by_text("Recorded on another screen: #1", exact=False)).to_be_visible(
            timeout=within)
        settle(bob)
        grid = bob.locator('.st-key-notebook_grid [data-testid="stDataFrame"]')
        box = grid.bounding_box()
        assert box is not None
        after(bob, lambda: bob.mouse.click(box["x"] + box["width"] / 2, box["y"] + 36 + 28 + 14))
        dialog = bob.get_by_role("dialog")  # a cell's explanation is read...
        expect(dialog).to_contain_text("Why this cell?")
        store.save(game, GameLog(log.game, (one, one)), recorded(2), after=2)
        bob.wait_for_timeout(within)  # ...and not closed under the reader's eyes
        expect(dialog).to_contain_text("Why this cell?")
        bob.keyboard.press("Escape")  # once closed, the game moves on
        expect(bob.get_by_text("Recorded on another screen: #2", exact=False)).to_be_visible(
            timeout=within)
        settle(bob)
        store.new_links(game)  # Ann stops sharing
        expect(bob.get_by_text("no longer on this browser's list", exact=False)).to_be_visible(
            timeout=within)
        settle(bob)
        asked = runs(bob).asked
        bob.wait_for_timeout(within)  # the game closed, nothing looks at it any more
        assert runs(bob).asked == asked, runs(bob).state()
        browser.close()
