"""A spectator's game made a player's notebook on a phone (Chromium, 390x844): the Game tab
of a game started without "You are" says who I am and takes my cards, refusing a hand of the
wrong size beside Save. Screenshots go to ``test-artifacts/seat-*.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.phone import PHONE, after, new_page, poll, settle, shot, toggle, toggles

pytestmark = pytest.mark.browser


def test_a_spectators_game_takes_my_hand_on_the_game_tab(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str],
    artifacts_dir: Path
) -> None:
    """The Game tab had no way to say "You are" once a game was started as a spectator's."""
    from playwright.sync_api import expect, sync_playwright

    from notebook_app.history import started
    from notebook_app.store import Store
    from solver.editions import Dealing, new_game
    from solver.game import GameLog, Suggestion
    from tests.test_app import CLASSIC, MINE, NAMES

    store = Store(app_db)
    asked = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob",),
                       refuted_by="Cat")
    log = GameLog(new_game(CLASSIC, NAMES, Dealing.CLASSIC, title="Watched"), (asked,))
    game = store.create(log, "browser-of-host", started())
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(viewport=PHONE))
        page.goto(f"{app_url}/?game={store.links(game).edit}")
        seat_form(page)
        choose(page, "Ann")
        for card in MINE[:4]:
            toggle(page, "Your 5 cards", card)
        save = page.get_by_role("button", name="Save: I am Ann", exact=True)
        after(page, save.click)
        expect(page.get_by_text("Your 5 cards: 4 chosen, but Ann was dealt 5 cards")
               ).to_be_visible()
        shot(page, artifacts_dir / "seat-1-wrong-size.png")
        toggle(page, "Your 5 cards", MINE[4])
        after(page, save.click)
        expect(page.get_by_text("Your cards (Ann): Miss Scarlet, Rope, Kitchen, Hall, Study")
               ).to_be_visible()
        expect(toggles(page, "Your 5 cards")).to_have_count(0)
        expect(page.get_by_role("button", name="Undo: entered Ann's cards, as Ann")
               ).to_be_visible()
        shot(page, artifacts_dir / "seat-2-saved.png")
        after(page, page.locator('[data-testid="stButtonGroup"] button', has_text="Grid").click)
        shot(page, artifacts_dir / "seat-3-grid.png")
        saved = store.latest(game).log  # type: ignore[union-attr]
        assert saved.game.me == "Ann" and saved.game.my_cards == MINE
        assert saved.events == log.events
        browser.close()


def test_the_owner_replaces_the_links_while_taking_a_seat(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str],
    artifacts_dir: Path
) -> None:
    """Another phone opened the spectator's read link: the owner's seat form says so, offers
    to replace the links (ticked), and Save takes the game from that phone before the hand is
    saved."""
    from playwright.sync_api import expect, sync_playwright

    from notebook_app.history import started
    from notebook_app.session import COOKIE
    from notebook_app.store import Store, new_id
    from solver.editions import Dealing, new_game
    from solver.game import GameLog
    from tests.test_app import CLASSIC, MINE, NAMES

    store, owner = Store(app_db), new_id()
    game = store.create(GameLog(new_game(CLASSIC, NAMES, Dealing.CLASSIC, title="Watched"), ()),
                        owner, started())
    old = store.links(game)
    assert store.open_link("browser-of-bob", old.read) == (game, "read")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        context = browser.new_context(viewport=PHONE)
        context.add_cookies([{"name": COOKIE, "value": owner, "url": app_url}])
        page = new_page(context)
        page.goto(f"{app_url}/?game={game}")
        seat_form(page)
        expect(page.get_by_text("1 other phone or browser has this game open through a link")
               ).to_be_visible()
        expect(page.get_by_role("checkbox", name="Replace the links first")).to_be_checked()
        choose(page, "Ann")
        for card in MINE:
            toggle(page, "Your 5 cards", card)
        shot(page, artifacts_dir / "seat-4-links-first.png")
        after(page, page.get_by_role("button", name="Save: I am Ann", exact=True).click)
        expect(page.get_by_text("The new ones are on the Game screen")).to_be_visible()
        shot(page, artifacts_dir / "seat-5-new-links.png")
        assert store.links(game) != old and store.access("browser-of-bob", game) is None
        assert store.latest(game).log.game.my_cards == MINE  # type: ignore[union-attr]
        browser.close()


def seat_form(page: Any) -> None:
    """The game opened, its Game tab's seat section unfolded."""
    from playwright.sync_api import expect

    expect(page.get_by_role("button", name="Record", exact=True)).to_be_visible(timeout=30000)
    settle(page)
    after(page, page.locator('[data-testid="stButtonGroup"] button', has_text="Game").click)
    page.get_by_text("Are you one of the players? Enter your cards").click()


def choose(page: Any, player: str) -> None:
    """``player`` chosen under "You are": tapped again until it holds. A tap while the section
    unfolds opens no list, and a run of the page meanwhile (the odds counted, under CI's load)
    draws the list again under the finger: the option was detached for 30 s."""
    from playwright.sync_api import Error

    box = page.get_by_role("combobox", name="You are")
    option = page.get_by_role("option", name=player, exact=True)
    for _ in range(20):
        box.click()
        if not poll(page, option.is_visible, bool, timeout=0.5):
            continue
        try:
            after(page, lambda: option.click(timeout=2000))
        except Error:
            continue
        if poll(page, lambda: box.input_value() == player, bool, timeout=2):
            return
    raise AssertionError(f"'You are' never took {player}")
