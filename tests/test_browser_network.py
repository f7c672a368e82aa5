"""Flaky Wi-Fi at the table: a phone (Chromium, 390x844) whose network drops mid-turn, through a
proxy that drops it (`tests.wifi`). Found in a play-through: with the Wi-Fi out of range the
browser does not know its websocket is dead, so chips and Record were tapped into it with
nothing on the screen changing and nothing said; when the socket closed and the page
reconnected, the form still showed every chip and "No entries yet." with the Record lost, or,
where the Record had reached the server and only the answer was lost, the entry recorded while
the screen still showed it unrecorded in the form. Screenshots go to
``test-artifacts/network-*.png``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.appserver import Server
from tests.phone import PHONE, after, chips, chosen, new_page, settle, shot, tap
from tests.wifi import Wifi

pytestmark = pytest.mark.browser

WAITING = "No answer from the server"
LOST = "The connection dropped before the server answered"


def test_a_tap_lost_with_the_network_is_said_and_the_saved_game_shown(
    server: Server, chromium_executable: str, chromium_args: list[str], artifacts_dir: Path
) -> None:
    """A tap without an answer is said within seconds; once the dropped socket reconnects the
    page shows what the server has: the form as it was kept, not recorded (the taps after the
    drop never arrived), or the entry recorded where only the answer was lost, once. Where the
    answer had begun (the run's first message came back), the page asked for a run again as it
    reconnected, with the form it still showed: the entry recorded came back into the form, said
    to be another screen's, and a second Record added it twice (seen with the network cut
    30 ms after Record)."""
    from playwright.sync_api import expect, sync_playwright

    from notebook_app.history import started
    from notebook_app.store import Store
    from tests.test_app_storage import classic

    store = Store(server.env["CLUE_NOTEBOOK_DB"])
    game = store.create(classic(title="Wi-Fi"), "browser-of-host", started())
    wifi = Wifi(server.port)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        context = browser.new_context(viewport=PHONE)
        page = new_page(context)
        page.goto(f"{wifi.url}/?game={store.links(game).edit}")
        record = page.get_by_role("button", name="Record", exact=True)
        expect(record).to_be_visible(timeout=30000)
        settle(page)
        tap(page, "Suspect", "Colonel Mustard")  # saved as the form is kept

        wifi.stall()  # out of range: the taps go nowhere
        for label, name in (("Weapon", "Knife"), ("Room", "Lounge"), ("Who showed a card", "Bob")):
            chips(page, label).get_by_role("radio", name=name, exact=True).click()
        record.click()
        expect(page.get_by_text(WAITING)).to_be_visible(timeout=15000)
        page.screenshot(path=artifacts_dir / "network-1-no-answer.png")
        wifi.cut()  # the socket dies (the server's ping went unanswered)
        expect(page.get_by_text(LOST)).to_be_visible(timeout=15000)
        wifi.mend()
        expect(page.get_by_text("The entry you were filling in is back in the form, not "
                                "recorded yet.")).to_be_visible(timeout=30000)
        settle(page)
        shot(page, artifacts_dir / "network-2-back.png")
        assert store.latest(game).log.events == ()  # type: ignore[union-attr]
        assert chosen(page, "Suspect") == "Colonel Mustard" and chosen(page, "Weapon") is None
        expect(page.get_by_text(WAITING)).to_have_count(0)

        for label, name in (("Weapon", "Knife"), ("Room", "Lounge"), ("Who showed a card", "Bob")):
            tap(page, label, name)
        wifi.deafen()  # the Record reaches the server, its answer does not come back
        record.click()
        expect(page.get_by_text(WAITING)).to_be_visible(timeout=15000)
        wifi.cut()
        wifi.mend()
        expect(page.get_by_text("Which card did Bob show you?")).to_be_visible(timeout=30000)
        settle(page)
        shot(page, artifacts_dir / "network-3-recorded.png")
        assert len(store.latest(game).log.events) == 1  # type: ignore[union-attr]
        expect(page.get_by_text("Undo #1: Ann: Colonel Mustard, Knife, Lounge")).to_be_visible()
        assert chosen(page, "Suspect") is None and chosen(page, "Weapon") is None
        after(page, record.click)  # the fresh form: nothing to record twice
        assert len(store.latest(game).log.events) == 1  # type: ignore[union-attr]

        for label, name in (("Suspect", "Mrs. White"), ("Weapon", "Wrench"),
                            ("Room", "Library"), ("Who showed a card", "Nobody")):
            tap(page, label, name)  # Bob's turn
        wifi.deafen(let_through=1)  # the run's first message comes back, then the drop
        record.click()
        for _ in range(300):  # the entry saved before the drop (on a loaded machine the save
            if len(store.latest(game).log.events) == 2:  # type: ignore[union-attr]
                break  # came after the page's reload had shown the form as kept: CI, once)
            page.wait_for_timeout(100)
        page.wait_for_timeout(500)
        wifi.cut()
        wifi.mend()
        expect(page.get_by_text("Undo #2: Bob: Mrs. White, Wrench, Library")).to_be_visible(
            timeout=30000)
        settle(page)
        shot(page, artifacts_dir / "network-4-recorded-once.png")
        assert chosen(page, "Suspect") is None and chosen(page, "Who showed a card") is None
        assert "another screen" not in page.locator('[data-testid="stMain"]').inner_text()
        after(page, record.click)
        assert len(store.latest(game).log.events) == 2  # type: ignore[union-attr]
        browser.close()
    wifi.close()


OFFLINE = "Ei yhteyttä palvelimeen: tarkista laitteen verkkoyhteys."
"""The banner's words, in Finnish, while the server cannot be reached."""
OFFLINE_EN = "No connection to the server: check this device's network."


def test_a_connection_gone_is_said_in_the_players_language(
    server: Server, chromium_executable: str, chromium_args: list[str], artifacts_dir: Path
) -> None:
    """With the server out of reach Streamlit showed its own "Connection error" dialog over
    the screen, in English whatever the language, naming Streamlit ("Streamlit server is not
    responding"): the banner says it in the player's words (Finnish here), and once the page
    has reconnected it goes. Meanwhile another phone recorded a turn: the page shows it as it
    reconnects, not at the next tap (Streamlit asks for no run on reconnecting to the same
    session), without a reload, the form half filled as it was, and nothing recorded by it."""
    from playwright.sync_api import expect, sync_playwright

    from notebook_app.history import recorded, started
    from notebook_app.store import Store
    from solver.game import GameLog, Suggestion
    from tests.test_app_storage import classic

    store = Store(server.env["CLUE_NOTEBOOK_DB"])
    log = classic(title="Wi-Fi")
    game = store.create(log, "browser-of-host", started())
    wifi = Wifi(server.port)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(viewport=PHONE, locale="fi-FI"))
        page.goto(f"{wifi.url}/?game={store.links(game).edit}")
        expect(page.get_by_role("button", name="Kirjaa", exact=True)).to_be_visible(
            timeout=30000)
        settle(page)
        tap(page, "Henkilö", "Colonel Mustard")
        page.reload()  # no tap of this page's is waiting, nor recent (else the page reloads
        expect(page.get_by_role("button", name="Kirjaa", exact=True)).to_be_visible(  # when
            timeout=30000)  # it reconnects: `connection.RUN_SECONDS`)
        settle(page)
        page.evaluate("window.clueSameDocument = true")

        wifi.cut()
        one = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob")
        store.save(game, GameLog(log.game, (one,)), recorded(1), after=1)  # another phone
        expect(page.get_by_text(OFFLINE)).to_be_visible(timeout=30000)
        page.wait_for_timeout(500)
        page.screenshot(path=artifacts_dir / "network-5-offline-fi.png")
        expect(page.get_by_text("Connection error")).to_have_count(0)
        assert "Streamlit" not in page.locator("body").inner_text()

        wifi.mend()
        expect(page.get_by_text(OFFLINE)).to_be_hidden(timeout=30000)
        expect(page.get_by_text("Kirjattu toisella näytöllä: #1", exact=False)).to_be_visible(
            timeout=30000)
        settle(page)
        shot(page, artifacts_dir / "network-6-back-fi.png")
        assert page.evaluate("window.clueSameDocument")  # drawn again, not reloaded
        assert chosen(page, "Henkilö") == "Colonel Mustard"
        assert len(store.latest(game).log.events) == 1  # type: ignore[union-attr]
        for label, name in (("Ase", "Knife"), ("Huone", "Lounge"),
                            ("Kuka näytti kortin", "Ei kukaan")):
            tap(page, label, name)  # the form finished and recorded, once
        after(page, page.get_by_role("button", name="Kirjaa", exact=True).click)
        events = store.latest(game).log.events  # type: ignore[union-attr]
        assert [event.cards for event in events] == [
            ("Mrs. White", "Knife", "Lounge"), ("Colonel Mustard", "Knife", "Lounge")]
        browser.close()
    wifi.close()


def test_a_cells_explanation_stays_open_through_a_dropped_connection(
    server: Server, chromium_executable: str, chromium_args: list[str], artifacts_dir: Path
) -> None:
    """A cell's "Why this cell?" read while the network dropped and came back closed: the
    run the page asks for on reconnecting drew the page without it. It stays open, and once
    the player closes it a run does not open it again."""
    from playwright.sync_api import expect, sync_playwright

    from notebook_app.connection import RUN_SECONDS
    from notebook_app.history import started
    from notebook_app.store import Store
    from tests.phone import table_drawn
    from tests.test_app_storage import classic

    store = Store(server.env["CLUE_NOTEBOOK_DB"])
    game = store.create(classic(title="Wi-Fi"), "browser-of-host", started())
    wifi = Wifi(server.port)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(viewport=PHONE))
        page.clock.install()  # (time goes on as it does, until the test moves it on)
        page.goto(f"{wifi.url}/?game={store.links(game).edit}")
        expect(page.get_by_role("button", name="Record", exact=True)).to_be_visible(
            timeout=30000)
        settle(page)
        after(page, page.locator('[data-testid="stButtonGroup"] button', has_text="Grid").click)
        grid = page.locator('.st-key-notebook_grid [data-testid="stDataFrame"]')
        expect(grid).to_be_visible(timeout=30000)
        table_drawn(page)
        box = grid.bounding_box()
        assert box is not None
        after(page, lambda: page.mouse.click(box["x"] + box["width"] / 2,
                                             box["y"] + 36 + 28 + 14))  # a cell
        dialog = page.get_by_role("dialog")
        expect(dialog).to_contain_text("Why this cell?", timeout=10000)
        said = dialog.inner_text()
        page.evaluate("window.clueSameDocument = true")

        page.clock.fast_forward(RUN_SECONDS * 1000)  # read a while: no tap is waiting, nor
        wifi.cut()  # recent (else the page reloads when it reconnects: `connection.RUN_SECONDS`)
        expect(page.get_by_text(OFFLINE_EN)).to_be_visible(timeout=30000)
        wifi.mend()
        expect(page.get_by_text(OFFLINE_EN)).to_be_hidden(timeout=30000)
        settle(page)
        page.wait_for_timeout(1000)  # (the run the page asks for once it has reconnected)
        settle(page)
        shot(page, artifacts_dir / "network-7-explanation-kept.png")
        assert page.evaluate("window.clueSameDocument")  # drawn again, not reloaded
        expect(dialog).to_have_count(1)
        assert dialog.inner_text() == said

        after(page, lambda: page.keyboard.press("Escape"))  # closed by the player
        expect(dialog).to_have_count(0)
        after(page, page.get_by_text("Show odds").click)  # another run: it stays closed
        expect(dialog).to_have_count(0)
        browser.close()
    wifi.close()
