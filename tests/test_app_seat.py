"""A spectator's game made a player's notebook on its Game screen (`notebook_app.screens.seat`):
a player who started recording before picking up their cards, or a phone handed to a player,
says which player they are and enters their hand; every entry stays, and the grid and the odds
use the hand."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from notebook_app import session
from notebook_app.store import Store
from solver.editions import Dealing, new_game
from solver.game import Event, GameLog, Note, Reveal, Suggestion
from solver.values import replace
from tests import test_app
from tests.test_app import CLASSIC, MINE, NAMES, shown, texts
from tests.test_app_screens import open_app, run
from tests.test_app_storage import ANN, BOB, browser

store = test_app.store
"""A fresh database for each test, where the app finds it (the one `test_app` uses)."""


def watched(*events: Event) -> GameLog:
    """A 4-player classic game recorded as a spectator's (no "You are")."""
    return GameLog(new_game(CLASSIC, NAMES, Dealing.CLASSIC), events)


ASKED = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob",), refuted_by="Cat")
"""Ann's suggestion, Cat showed her a card the spectator did not see."""


def game_tab(at: AppTest) -> AppTest:
    return run(at.segmented_control(key="view").set_value("Game"))


def hand(at: AppTest, player: str, cards: tuple[str, ...]) -> AppTest:
    """Say who I am and tap my cards on the Game screen (not saved yet)."""
    run(at.selectbox(key="hand_me").set_value(player))
    return run(at.pills(key="hand_cards").set_value(list(cards)))


def test_a_spectators_game_becomes_my_notebook_with_my_hand(store: Store) -> None:
    """A game started without "You are" could not become a player's: the Game screen had no
    way to say who I am and what I hold. Saved, the entries are the same, the grid has my
    cards (and rules them out for everyone else), the odds count with them, the home list
    says whose notebook it is, and Undo makes it a spectator's again."""
    log = watched(ASKED)
    at = open_app(store, log)
    game_id = at.session_state["game_id"]
    run(at.segmented_control(key="view").set_value("Grid"))
    at.session_state["live"].odds()
    run(at)
    assert at.dataframe[0].value.loc["Rope", "Bob"].endswith("%")  # nobody's cards known
    game_tab(at)
    assert at.selectbox(key="hand_me").value == ""  # nobody chosen yet
    hand(at, "Ann", MINE)
    assert [shown(o) for o in at.pills(key="hand_cards").options] == list(CLASSIC.cards)
    assert shown(at.pills(key="hand_cards").label) == "Your 5 cards"
    run(at.button(key="hand_save").click())
    saved = at.session_state["live"].log
    assert saved.game.me == "Ann" and saved.game.my_cards == MINE
    assert saved.events == log.events  # every entry as recorded
    assert store.load(game_id) == saved
    assert "**Your cards** (Ann): Miss Scarlet, Rope, Kitchen, Hall, Study" in texts(at)
    assert "hand_me" not in at.session_state  # the form is gone: the game is Ann's now
    assert ("1 of your suggestions says a card was shown, not which: tap it in the Log to add "
            "the card you saw") in texts(at)  # (what was saved: the Undo button says it)
    run(at.segmented_control(key="view").set_value("Grid"))
    at.session_state["live"].odds()
    run(at)
    table = at.dataframe[0].value
    assert table.loc["Rope", "Ann"] == "✓" and table.loc["Rope", "Bob"] == "✗"
    assert table.loc["Knife", "Ann"] == "✗" and table.loc["Knife", "Bob"] == "✗"  # passed
    assert table.loc["Mr. Green", "Bob"].endswith("%")
    [listed] = store.games("test-shelf")
    assert listed.me == "Ann"
    assert shown(at.button(key="undo").label) == "Undo: entered Ann's cards, as Ann"
    run(at.button(key="undo").click())
    assert at.session_state["live"].log == log
    game_tab(at)
    assert at.selectbox(key="hand_me").value == ""


def test_a_wrong_hand_is_refused_naming_its_field_and_nothing_is_lost(store: Store) -> None:
    """A hand of the wrong size, a card the log already places with another player, cards
    that clash with an entry only together, and no player chosen: each refused beside Save,
    naming the field as the screen labels it and the value; the game is not changed, and what
    was chosen stays, also through a look at another tab."""
    log = watched(ASKED, Reveal("Bob", ("Rope",)),
                  Note("Ann", holds_one_of=("Mr. Green", "Study")))
    at = open_app(store, log)
    game_id = at.session_state["game_id"]
    game_tab(at)
    run(at.button(key="hand_save").click())
    assert [shown(e.value) for e in at.error] == ["Please fix:\n- You are: choose which player "
                                                  "you are"]
    hand(at, "Ann", MINE[:4])
    run(at.button(key="hand_save").click())
    assert [shown(e.value) for e in at.error] == [
        "Please fix:\n- Your 5 cards: 4 chosen, but Ann was dealt 5 cards"]
    assert at.pills(key="hand_cards").value == list(MINE[:4])  # kept, to fix
    hand(at, "Ann", MINE)
    run(at.button(key="hand_save").click())
    assert [shown(e.value) for e in at.error] == [
        "Please fix:\n- Your 5 cards: Rope is Bob's, as the log shows (tap its cell on the Grid "
        "to see why)"]
    mine = ("Miss Scarlet", "Wrench", "Kitchen", "Hall", "Ballroom")  # neither Green nor Study
    hand(at, "Ann", mine)
    run(at.button(key="hand_save").click())
    assert [shown(e.value) for e in at.error] == [
        "Please fix:\n- Your 5 cards: these cards and entries #3 cannot all be true; check the "
        "entries and your cards"]
    assert at.session_state["live"].log == log and store.load(game_id) == log
    run(at.segmented_control(key="view").set_value("Grid"))  # a look elsewhere
    game_tab(at)
    assert at.selectbox(key="hand_me").value == "Ann"
    assert at.pills(key="hand_cards").value == list(mine)
    hand(at, "Ann", ("Miss Scarlet", "Wrench", "Kitchen", "Hall", "Study"))
    run(at.button(key="hand_save").click())
    assert not at.error
    assert at.session_state["live"].log.game.my_cards == ("Miss Scarlet", "Wrench", "Kitchen",
                                                         "Hall", "Study")


def test_a_read_link_offers_no_hand(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a screen that may edit the game makes it a player's notebook."""
    game_id = store.create(watched(ASKED), ANN)
    at = browser(monkeypatch, BOB, game=store.links(game_id).read)
    assert at.session_state["access"] == "read"
    game_tab(at)
    assert "You follow this game with its read link" in texts(at)
    assert not [box for box in at.selectbox if box.key == "hand_me"]


def test_taking_a_seat_replaces_the_links_first(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Players at a table share the spectator's read link; the one who then entered their hand
    showed it to everyone who had opened that link. Where another phone has the game through
    a link, the owner's seat form says so and offers (ticked) to replace the links in the same
    Save: the reader loses the game, never sees the hand, and is told why on its next run."""
    game_id = store.create(watched(ASKED), ANN)
    old = store.links(game_id)
    reader = browser(monkeypatch, BOB, game=old.read)
    owner = browser(monkeypatch, ANN, game=game_id)
    game_tab(owner)
    assert ("1 other phone or browser has this game open through a link: it would see your "
            "cards") in texts(owner)
    assert owner.checkbox(key="hand_new_links").value  # ticked unless unticked
    hand(owner, "Ann", MINE)
    run(owner.button(key="hand_save").click())
    assert owner.session_state["live"].log.game.my_cards == MINE
    assert store.links(game_id) != old and store.access(BOB, game_id) is None
    assert ("New links made: the old ones no longer open this game. The new ones are on the "
            "Game screen, to send only to whoever may see your cards") in texts(owner)
    monkeypatch.setattr(session, "browser_cookie", lambda: BOB)
    run(reader)  # its next run (a tap, or the read link's timer)
    assert "live" not in reader.session_state and "game" not in reader.query_params
    assert "Miss Scarlet" not in texts(reader)
    assert "its owner made new links, which stop the old ones" in texts(reader)
    assert "This link does not open a game here" in texts(
        browser(monkeypatch, BOB, game=old.read))


def test_a_seat_can_keep_the_links(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Unticked, the links stay: whoever opened them sees the hand, as the caption says."""
    game_id = store.create(watched(ASKED), ANN)
    old = store.links(game_id)
    reader = browser(monkeypatch, BOB, game=old.read)
    owner = browser(monkeypatch, ANN, game=game_id)
    game_tab(owner)
    run(owner.checkbox(key="hand_new_links").uncheck())
    hand(owner, "Ann", MINE)
    run(owner.button(key="hand_save").click())
    assert owner.session_state["live"].log.game.my_cards == MINE
    assert store.links(game_id) == old and store.access(BOB, game_id) == "read"
    monkeypatch.setattr(session, "browser_cookie", lambda: BOB)
    game_tab(reader)
    assert "**Ann's cards:** Miss Scarlet, Rope, Kitchen, Hall, Study" in texts(reader)


def test_no_link_opened_no_question(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody else has the game: the form only says who would see the cards."""
    game_id = store.create(watched(ASKED), ANN)
    owner = browser(monkeypatch, ANN, game=game_id)
    game_tab(owner)
    assert "Whoever opens this game's links will see them" in texts(owner)
    assert not [box for box in owner.checkbox if box.key == "hand_new_links"]


def test_a_link_opened_while_the_form_is_open_is_asked_about(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The form was drawn while nobody else had the game, so it offered no box; Bob opened the
    read link before Save, and Save showed him the hand without a word. Save now stops and
    asks, the box drawn ticked; the next Save replaces the links."""
    game_id = store.create(watched(ASKED), ANN)
    owner = browser(monkeypatch, ANN, game=game_id)
    game_tab(owner)
    hand(owner, "Ann", MINE)
    assert store.open_link(BOB, store.links(game_id).read) == (game_id, "read")
    run(owner.button(key="hand_save").click())
    assert owner.session_state["live"].log.game.me is None  # nothing saved yet
    assert ("Another phone or browser opened this game's link meanwhile: it would see your "
            "cards. Choose whether to replace the links first, then Save again.") in texts(owner)
    assert owner.checkbox(key="hand_new_links").value
    assert owner.pills(key="hand_cards").value == list(MINE)  # nothing tapped is lost
    run(owner.button(key="hand_save").click())
    assert owner.session_state["live"].log.game.my_cards == MINE
    assert store.access(BOB, game_id) is None


def test_face_up_cards_are_not_offered_as_mine(store: Store) -> None:
    """Refresh 2012 leaves cards face up: nobody holds them, yet the seat form offered them
    among "Your 4 cards" (a Finnish play-through at 390 px), to be refused only on Save."""
    from solver.editions import editions

    box = editions()["cluedo-refresh-2012-fi"]
    game = new_game(box.deck, ("Aino", "Bert", "Cecilia", "Daniel"), Dealing.REFRESH,
                    face_up=("pelihuone", "putki"))
    at = open_app(store, GameLog(game, ()))
    game_tab(at)
    run(at.selectbox(key="hand_me").set_value("Aino"))
    offered = at.pills(key="hand_cards").options
    assert "pelihuone" not in offered and "putki" not in offered
    assert len(offered) == len(box.deck.cards) - 2


def test_bug_my_looks_at_side_cards_recorded_without_the_card_are_pointed_out(
        store: Store) -> None:
    """A spectator's 2-player log holds Ann's looks at side cards without the card (a
    spectator sees which card, not what it is). Seated as Ann, only her suggestions refuted
    with no card noted were pointed out, not these looks, though she saw those cards too."""
    from solver.game import SidePeek

    look = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob",),
                      side_peek=SidePeek(1))
    other = Suggestion("Bob", ("Mr. Green", "Rope", "Hall"), passes=("Ann",),
                       side_peek=SidePeek(2))
    log = GameLog(new_game(CLASSIC, ("Ann", "Bob"), Dealing.TWO_PLAYER),
                  (look, other, replace(look, side_peek=SidePeek(3))))
    at = open_app(store, log)
    game_tab(at)
    hand(at, "Ann", ("Miss Scarlet", "Colonel Mustard", "Candlestick", "Wrench", "Kitchen",
                     "Study", "Library"))
    run(at.button(key="hand_save").click())
    assert at.session_state["live"].log.game.me == "Ann"
    assert ("2 of your looks at a side card say which card, not what it was: tap them in the "
            "Log to add the cards you saw") in texts(at)
