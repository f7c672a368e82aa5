"""The app in a real headless Chromium at phone size (390x844): set up a game, record three
turns, watch the grid change, reload, and find the game intact. Screenshots of every screen go
to ``test-artifacts/`` as ``app-<step>.png``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.phone import (
    PHONE,
    TOUCH_PHONE,
    after,
    at_home,
    new_page,
    odds_counted,
    poll,
    settle,
    table_drawn,
)
from tests.phone import shot as phone_shot

pytestmark = pytest.mark.browser


def test_phone_game_survives_reload(
    app_url: str, chromium_executable: str, chromium_args: list[str], artifacts_dir: Path
) -> None:
    from playwright.sync_api import Locator, Page, expect, sync_playwright

    def shot(page: Page, name: str) -> None:
        phone_shot(page, artifacts_dir / f"app-{name}.png")

    def button(page: Page, text: str) -> Locator:
        """The chip or tab that says ``text``."""
        return page.locator('[data-testid="stButtonGroup"] button', has_text=text)

    def verdict(page: Page) -> str:
        return page.locator('[data-testid="stAlert"]').first.inner_text()

    def tap(page: Page, label: str, option: str) -> None:
        """One tap on a chip, unless it is already chosen."""
        chip = page.get_by_role("radiogroup", name=label).get_by_role("radio", name=option,
                                                                      exact=True)
        if chip.get_attribute("aria-checked") != "true":
            after(page, chip.click)

    def record(page: Page, by: str, cards: tuple[str, str, str], shown_by: str) -> None:
        tap(page, "Who suggested", by)
        for label, card in zip(("Suspect", "Weapon", "Room"), cards, strict=True):
            tap(page, label, card)
        tap(page, "Who showed a card", shown_by)
        after(page, page.get_by_role("button", name="Record", exact=True).click)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser, viewport=PHONE)
        page.goto(app_url)
        expect(page.get_by_text("New game")).to_be_visible(timeout=30000)
        shot(page, "1-home")

        players = page.get_by_label("Players in seating order (clockwise)")
        players.fill("Ann\nBob\nCat\nDan")
        after(page, lambda: players.press("Control+Enter"))
        for card in ("Miss Scarlet", "Rope", "Kitchen", "Hall", "Study"):
            after(page, button(page, card).first.click)
        shot(page, "2-setup")
        after(page, page.get_by_role("button", name="Start game").click)
        expect(page.get_by_text("envelopes are still possible")).to_be_visible()
        assert "game=" in page.url
        before = verdict(page)
        shot(page, "3-turn")

        after(page, button(page, "Grid").click)
        table_drawn(page)
        grid_before = page.locator('[data-testid="stDataFrame"]').screenshot()
        shot(page, "4-grid-empty")

        after(page, button(page, "Turn").click)
        record(page, "Ann", ("Mrs. White", "Knife", "Lounge"), "Bob")
        expect(page.get_by_text("Which card did Bob show you?")).to_be_visible()
        after(page, page.get_by_role("button", name="Knife", exact=True).click)
        record(page, "Bob", ("Mr. Green", "Candlestick", "Library"), "Nobody")
        shot(page, "5-after-two")
        record(page, "Cat", ("Miss Scarlet", "Rope", "Kitchen"), "Ann")
        shot(page, "6-show-prompt")
        expect(page.get_by_text("Which card did you show?")).to_be_visible()
        after(page, page.get_by_role("button", name="Rope", exact=True).click)
        now = verdict(page)
        assert now != before

        after(page, button(page, "Grid").click)
        table_drawn(page)
        grid_after = page.locator('[data-testid="stDataFrame"]').screenshot()
        assert grid_after != grid_before
        shot(page, "7-grid-after")
        button(page, "Grid").click()  # the tab shown, tapped again, stays (it asks no run;
        settle(page)  # a run it asked for would be seen by now: `tests.phone.Runs.wait`)
        expect(page.locator('[data-testid="stDataFrame"]')).to_be_visible()

        after(page, button(page, "Log").click)
        expect(page.get_by_text("#3", exact=False)).to_be_visible()
        shot(page, "8-log")

        page.reload()
        expect(page.get_by_text("envelopes are still possible")).to_be_visible(timeout=30000)
        settle(page)
        assert verdict(page) == now
        expect(page.get_by_text("Tap an entry to edit or delete it.")).to_be_visible()  # the tab
        # shown before the reload is open again (&view=Log): a tap on it would ask no run
        for text in ("Ann: Mrs. White, Knife, Lounge → Bob showed Knife",
                     "Bob: Mr. Green, Candlestick, Library",
                     "Cat: Miss Scarlet, Rope, Kitchen → Ann showed Rope"):
            expect(page.get_by_text(text, exact=False)).to_be_visible()
        shot(page, "9-after-reload")

        after(page, button(page, "Review").click)
        shot(page, "10-review")
        browser.close()


def test_a_tap_on_the_review_a_step_on_explains_its_cell(
    app_url: str, chromium_executable: str, chromium_args: list[str], artifacts_dir: Path
) -> None:
    """The Review's grid a step back explains the first cell tapped: drawn again under the same
    key the table let that tap go unseen, and only a second tap opened "Why this cell?" (found
    stepping through a Japanese game's Review), after every Back, Next or slide."""
    from playwright.sync_api import Page, expect, sync_playwright

    def explained(page: Page, name: str) -> None:
        grid = page.locator('[data-testid="stDataFrame"]').first
        grid.scroll_into_view_if_needed()
        table_drawn(page)
        box = grid.bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] - 20, box["y"] + 36 + 28 + 14)  # a cell
        dialog = page.get_by_role("dialog")
        expect(dialog).to_contain_text("Why this cell?", timeout=10000)
        page.screenshot(path=artifacts_dir / f"app-redrawn-{name}.png")
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0)
        settle(page)

    def view(page: Page, name: str) -> None:
        tab = page.locator('[data-testid="stButtonGroup"] button', has_text=name).first
        after(page, tab.click)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser, viewport=PHONE)
        at_home(page, app_url)
        page.get_by_label("Example", exact=True).click()
        page.get_by_role("option", name="Friday night Clue, six players", exact=True).click()
        after(page, page.get_by_role("button", name="Open example").click)
        view(page, "Review")
        explained(page, "review")
        for step in ("Back", "Back", "Next"):
            after(page, page.get_by_role("button", name=step).click)
            explained(page, f"review-{step.lower()}")
        browser.close()


def test_a_tap_on_a_card_the_accusation_names_keeps_it(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str],
    artifacts_dir: Path,
) -> None:
    """My safe accusation names the envelope by itself; a player who tapped the card they meant,
    already chosen, un-chose it, and Record then asked for a suspect. The tap keeps it now (a
    second tap on the result too), and the accusation records. On a suggestion the same tap
    still un-chooses a room chosen ("Suggest for me" then advises anywhere); the form starts
    mine at none, not at the Lounge where I suggested last (one suggestion per visit)."""
    from playwright.sync_api import expect, sync_playwright

    from notebook_app.store import Store
    from solver.editions import Dealing, editions, new_game
    from solver.game import Accusation, GameLog, Suggestion
    from tests.phone import chips, chosen, tap

    game = new_game(editions()["clue-classic"].deck, ("Ann", "Bob", "Cat", "Dan"),
                    Dealing.CLASSIC, me="Ann",
                    my_cards=("Miss Scarlet", "Rope", "Kitchen", "Hall", "Study"))
    log = GameLog(game, (
        Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob", "Cat", "Dan")),
        Suggestion("Bob", ("Mr. Green", "Wrench", "Library"), refuted_by="Cat"),
        Suggestion("Cat", ("Mr. Green", "Wrench", "Library"), refuted_by="Dan"),
        Suggestion("Dan", ("Miss Scarlet", "Candlestick", "Ballroom"), refuted_by="Ann",
                   shown="Miss Scarlet")))
    store = Store(app_db)
    game_id = store.create(log, "phone")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser, viewport=PHONE)
        page.goto(f"{app_url}/?game={store.links(game_id).edit}")
        expect(page.get_by_role("button", name="Record", exact=True)).to_be_visible(
            timeout=30000)
        settle(page)
        assert chosen(page, "Room") is None  # not the Lounge, where I suggested last
        tap(page, "Room", "Lounge")
        assert chosen(page, "Room") == "Lounge"
        tap(page, "Room", "Lounge")
        assert chosen(page, "Room") is None
        tap(page, "Entry", "Accuse")
        assert [chosen(page, label) for label in ("Suspect", "Weapon", "Room")] == [
            "Mrs. White", "Knife", "Lounge"]  # the envelope, certain
        meant = chips(page, "Suspect").get_by_role("radio", name="Mrs. White", exact=True)
        meant.click()  # the card meant, tapped: nothing to run again
        settle(page)
        assert chosen(page, "Suspect") == "Mrs. White"
        tap(page, "Result", "right")
        chips(page, "Result").get_by_role("radio", name="right", exact=True).click()  # again
        settle(page)
        assert chosen(page, "Result") == "right"
        phone_shot(page, artifacts_dir / "app-accuse-kept.png")
        after(page, page.get_by_role("button", name="Record", exact=True).click)
        saved = store.load(game_id)
        assert saved is not None and saved.events[-1] == Accusation(
            "Ann", ("Mrs. White", "Knife", "Lounge"), correct=True)


def test_a_grid_scrolled_sideways_explains_the_first_tap_and_keeps_its_place(
    app_url: str, chromium_executable: str, chromium_args: list[str], artifacts_dir: Path
) -> None:
    """A tap on the Grid explains its cell after the pointer was elsewhere (the dialog's Close,
    Show odds turned off, a tap on a caption), and the table stays scrolled where the player
    swiped it. Streamlit's table took a tap only while it believed the pointer over it, so each
    of these let the next tap go unseen; and the new table drawn after every tap was back at
    its first column (25 px to 0)."""
    from playwright.sync_api import Page, expect, sync_playwright

    def explained(page: Page, name: str, close: str) -> None:
        grid = page.locator('.st-key-notebook_grid [data-testid="stDataFrame"]')
        grid.scroll_into_view_if_needed()
        box = grid.bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] - 20, box["y"] + 36 + 28 + 14)  # a cell
        dialog = page.get_by_role("dialog")
        expect(dialog, name).to_contain_text("Why this cell?", timeout=10000)
        page.screenshot(path=artifacts_dir / f"app-grid-tap-{name}.png")
        if close == "Close":
            dialog.get_by_role("button", name="Close").click()
        else:
            page.keyboard.press(close)
        expect(dialog).to_have_count(0)
        settle(page)
        assert scroller.evaluate("e => e.scrollLeft") == 25, name

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser, viewport=PHONE)
        at_home(page, app_url)
        page.get_by_label("Example", exact=True).click()  # 12 players: the table scrolls
        page.get_by_role("option", name="Forum game “Guest from the Future” (Polina's notes)",
                         exact=True).click()
        after(page, page.get_by_role("button", name="Open example").click)
        tab = page.locator('[data-testid="stButtonGroup"] button', has_text="Grid").first
        after(page, tab.click)
        odds_counted(page)
        table_drawn(page)
        scroller = page.locator(".st-key-notebook_grid .dvn-scroller")
        scroller.evaluate("e => { e.scrollLeft = 25; }")
        poll(page, lambda: scroller.evaluate("e => e.scrollLeft"), lambda left: left == 25)
        explained(page, "first", close="Close")
        explained(page, "after-close", close="Escape")
        odds = page.get_by_text("Show odds")
        odds.scroll_into_view_if_needed()
        after(page, odds.click)
        explained(page, "after-odds-off", close="Escape")
        page.get_by_text("Envelope ·").click()  # nothing to draw
        explained(page, "after-caption", close="Escape")
        phone_shot(page, artifacts_dir / "app-grid-tap-scrolled.png")
        browser.close()


def test_a_touch_phone_reads_what_removing_a_game_gives_up_before_it_taps(
    app_url: str, chromium_executable: str, chromium_args: list[str], artifacts_dir: Path
) -> None:
    """On a touch phone, the Game screen says what "Remove from this browser's list" gives up
    before the tap that does it at once: the owner can no longer stop sharing or delete the
    game. It was the button's tooltip, shown on a mouse's hover; a finger has none, so a player
    on a phone (Chromium with touch, 390 px) never saw it (touch play-through)."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE))
        at_home(page, app_url)
        after(page, page.get_by_role("button", name="Open example").tap)
        tab = page.locator('[data-testid="stButtonGroup"] button', has_text="Game").first
        after(page, tab.tap)
        remove = page.get_by_role("button", name="Remove from this browser's list")
        remove.scroll_into_view_if_needed()
        warning = page.get_by_text("once it is removed, nobody can", exact=False)
        expect(warning).to_be_visible()
        phone_shot(page, artifacts_dir / "app-touch-game.png")
        browser.close()


def test_a_touch_phone_copies_a_link_in_one_tap(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str],
    artifacts_dir: Path,
) -> None:
    """The Game screen's links had Streamlit's copy button only, shown while a mouse hovers:
    on a touch phone it came only after a first tap on the link, and at a home network's
    ``http://`` address (no clipboard API outside a secure context) its tap did nothing and
    said nothing. A Copy link button under each link copies it in one tap, there too
    (``lan.test``, resolved to 127.0.0.1, is no secure context); where the browser copies
    nothing, the link is selected and the page says to press and hold it."""
    from playwright.sync_api import expect, sync_playwright

    from notebook_app.history import started
    from notebook_app.store import Store
    from tests.test_app_storage import classic

    store = Store(app_db)
    links = store.links(store.create(classic(title="Links"), "phone", started()))
    lan = f"http://lan.test:{app_url.rsplit(':', 1)[1]}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=[
            *chromium_args, "--host-resolver-rules=MAP lan.test 127.0.0.1"])
        context = browser.new_context(**TOUCH_PHONE)
        page = new_page(context)
        page.goto(f"{lan}/?game={links.edit}")
        expect(page.get_by_role("button", name="Record", exact=True)).to_be_visible(
            timeout=30000)
        settle(page)
        assert page.evaluate("[window.isSecureContext, 'clipboard' in navigator]") == [
            False, False]
        tab = page.locator('[data-testid="stButtonGroup"] button', has_text="Game").first
        after(page, tab.tap)
        edit = page.locator(".st-key-link_edit")
        edit.get_by_role("button", name="Copy link", exact=True).tap()
        expect(edit.get_by_text("Copied", exact=True)).to_be_visible()
        reader = context.new_page()  # the clipboard, read where a page may read it
        context.grant_permissions(["clipboard-read"], origin=app_url)
        reader.goto(f"{app_url}/_stcore/health")
        assert reader.evaluate("navigator.clipboard.readText()") == f"{lan}/?game={links.edit}"
        reader.close()

        page.evaluate("document.execCommand = () => false")  # a browser that copies nothing
        read = page.locator(".st-key-link_read")
        read.get_by_role("button", name="Copy link", exact=True).tap()
        expect(read.get_by_text("press and hold it to copy it", exact=False)).to_be_visible()
        assert page.evaluate("getSelection().toString()").strip() == f"{lan}/?game={links.read}"
        read.scroll_into_view_if_needed()
        page.screenshot(path=artifacts_dir / "app-touch-copy-refused.png")


def test_the_whole_hand_box_is_empty_for_the_next_reveal(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str],
    artifacts_dir: Path,
) -> None:
    """Once the game is won the Turn form takes the hands players show, first the wrong
    accuser's. After Cat's whole hand was recorded, the form moved on to Bob with "That is
    their whole hand" still ticked (Streamlit's page keeps a checkbox's tick when the run only
    forgets its value): one card of Bob's, recorded so, made a whole hand of one and a clash
    with the setup (a Japanese spectator game on a phone, 390 px). The box is empty for Bob."""
    from playwright.sync_api import expect, sync_playwright

    from notebook_app.store import Store
    from solver.editions import Dealing, editions, new_game
    from solver.game import Accusation, GameLog, Reveal
    from tests.phone import chosen, toggle

    game = new_game(editions()["clue-classic"].deck, ("Ann", "Bob", "Cat"), Dealing.CLASSIC,
                    me="Ann", my_cards=("Miss Scarlet", "Rope", "Kitchen", "Hall", "Study",
                                        "Lounge"))
    log = GameLog(game, (Accusation("Cat", ("Mr. Green", "Knife", "Hall"), correct=False),
                         Accusation("Bob", ("Mr. Green", "Knife", "Library"), correct=True)))
    store = Store(app_db)
    game_id = store.create(log, "phone")
    cats = ("Colonel Mustard", "Mrs. White", "Candlestick", "Lead Pipe", "Ballroom",
            "Billiard Room")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE))
        page.goto(f"{app_url}/?game={store.links(game_id).edit}")
        whole = page.get_by_role("checkbox", name="That is their whole hand")
        expect(whole).to_be_visible(timeout=30000)
        settle(page)
        assert chosen(page, "Whose cards") == "Cat"  # the wrong accuser's hand first
        for card in cats:
            toggle(page, "Cards you saw", card)
        after(page, page.get_by_text("That is their whole hand", exact=True).tap)
        expect(whole).to_be_checked()
        after(page, page.get_by_role("button", name="Record", exact=True).tap)
        saved = store.load(game_id)
        assert saved is not None and saved.events[-1] == Reveal("Cat", cats, whole_hand=True)
        assert chosen(page, "Whose cards") == "Bob"
        phone_shot(page, artifacts_dir / "app-reveal-next.png")
        expect(whole).not_to_be_checked()
        browser.close()
