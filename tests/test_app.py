"""The app driven through `streamlit.testing.v1.AppTest`: set-up, every kind of entry, edit,
delete, undo, contradictions, review, explanations, and restoring a game from the database.

Widgets are found by ``key``; a test that needs a game in progress saves its log to the
test's own database and puts the game's id into ``session_state`` (or the URL).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any, cast

import pytest
from streamlit.testing.v1 import AppTest

from notebook_app.history import recorded, told
from notebook_app.store import DB_ENV, Store
from notebook_app.turns import forum_style
from solver.cards import Deck
from solver.editions import Dealing, editions, new_game
from solver.envelopes import possible_triples
from solver.game import ENVELOPE, Accusation, Event, GameLog, Note, Reveal, SidePeek, Suggestion
from solver.logfile import dumps, load
from solver.notation import write_text
from solver.odds import grid_of
from solver.values import replace

APP = str(Path(__file__).resolve().parent.parent / "notebook_app" / "app.py")
CLASSIC = editions()["clue-classic"].deck
NAMES = ("Ann", "Bob", "Cat", "Dan")
MINE = ("Miss Scarlet", "Rope", "Kitchen", "Hall", "Study")


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Store:
    """A fresh database for the test, where the app will find it; the compiled odds ready, as
    the app's first run in this process has them made (`solver.odds.warm`): what needs them
    shows at once (`test_while_the_odds_are_prepared_the_form_is_ready`: meanwhile)."""
    from solver.odds import warm

    warm.start()
    warm.wait()
    path = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(path))
    return Store(path)


def classic(*events: Suggestion | Accusation | Reveal) -> GameLog:
    game = new_game(CLASSIC, NAMES, Dealing.CLASSIC, me="Ann", my_cards=MINE)
    return GameLog(game, events)


def open_app(store: Store, log: GameLog) -> tuple[AppTest, str]:
    """The app mid-game: ``log`` saved, its id put into the session."""
    game_id = store.create(log, "test-shelf")
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["shelf"] = "test-shelf"
    at.session_state["game_id"] = game_id
    at.run()
    assert not at.exception, at.exception
    return at, game_id


def events(at: AppTest) -> tuple[object, ...]:
    return tuple(at.session_state["live"].log.events)


def pick(at: AppTest, suspect: str, weapon: str, room: str) -> None:
    at.pills(key="e_suspect").set_value(suspect)
    at.pills(key="e_weapon").set_value(weapon)
    at.pills(key="e_room").set_value(room)


def submit(at: AppTest) -> None:
    at.button(key="submit").click().run()
    assert not at.exception, at.exception


def shown(markdown: object) -> str:
    """Markdown as the user reads it: user text arrives escaped (`notebook_app.plain`)."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", str(markdown)).replace("  \n", "\n")


def size_inputs(at: AppTest) -> list[Any]:
    """The hand-size inputs in seat order (their keys also name the deal they start from)."""
    return [n for n in at.number_input if str(n.key).startswith("new_size_")]


def hand_sizes(at: AppTest) -> list[int]:
    return [int(n.value) for n in size_inputs(at)]


def rule_box(at: AppTest) -> Any:
    """The Dealing box (its key also names the card set and rule it starts from)."""
    return next(s for s in at.selectbox if str(s.key).startswith("new_rule"))


def chips(at: AppTest, key: str) -> list[str]:
    """The labels of a row of chips, as the user reads them."""
    return [shown(option) for option in at.pills(key=key).options]


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [e.value for e in at.error]
    parts += [i.value for i in at.info] + [s.value for s in at.success]
    parts += [c.value for c in at.caption] + [w.value for w in at.warning]
    return "\n".join(shown(p) for p in parts)


# --- set-up ------------------------------------------------------------------------------------


def test_new_game_says_when_fewer_of_my_cards_are_tapped_than_i_was_dealt() -> None:
    """A phone play-through (a 12-player forum game) chose "You are" and tapped Start with none
    of the three cards tapped: the game started, its notebook knowing nothing of the user's hand,
    and nothing on the form had said so. Start still takes it (a hand partly seen is a log the
    format allows); the form says how many of the dealt cards are tapped until all are."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.text_area(key="new_players").set_value("Ann\nBob\nCat\nDan").run()
    assert "0 of your 5 cards tapped: the notebook knows only the cards tapped." in texts(at)
    at.button_group(key="new_mine").set_value(list(MINE[:2])).run()
    assert "2 of your 5 cards tapped: the notebook knows only the cards tapped." in texts(at)
    at.button_group(key="new_mine").set_value(list(MINE)).run()
    assert "cards tapped" not in texts(at)
    at.button(key="start_game").click().run()
    assert not at.exception and not at.error


def test_new_game_from_an_edition(store: Store) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception
    at.text_area(key="new_players").set_value("Ann\nBob\nCat\nDan").run()
    assert at.selectbox(key="new_me").value == "Ann"
    assert rule_box(at).value is Dealing.CLASSIC
    assert hand_sizes(at) == [5, 5, 4, 4]
    at.button_group(key="new_mine").set_value(list(MINE)).run()
    at.button(key="start_game").click().run()
    assert not at.exception and not at.error
    log = at.session_state["live"].log
    assert log.game.player_names == NAMES and log.game.my_cards == MINE
    assert at.query_params["game"] == at.session_state["game_id"]
    assert store.load(at.session_state["game_id"]) == log
    assert "Not yet: 150 envelopes are still possible" in texts(at)


def test_two_player_game_sets_up_side_cards(store: Store) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="new_edition").set_value("cluedo-refresh-2012-fi").run()
    at.text_area(key="new_players").set_value("Aino, Niko").run()
    assert rule_box(at).value is Dealing.TWO_PLAYER
    at.button(key="start_game").click().run()
    assert not at.error
    game = at.session_state["live"].log.game
    assert game.side_cards == 4 and [p.hand_size for p in game.players] == [7, 7]


def test_the_forum_deck_for_more_players_says_what_deck_to_type(store: Store) -> None:
    """The forum's 6-player deck chosen for 12 players: the app says the deck they need and
    where to type it, not the command line's option (`new --forum 12`)."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="new_edition").set_value("forum-gostya-iz-budushchego").run()
    at.text_area(key="new_players").set_value(", ".join(f"P{n}" for n in range(1, 13))).run()
    assert rule_box(at).value is Dealing.FORUM
    said = " ".join(w.value for w in at.warning).replace("\\", "")  # (markdown escapes)
    assert "for 12 players, 12 suspects, 12 weapons and 15 places" in said, said
    assert "(these cards: 6, 6 and 9)" in said and "“Custom cards…”" in said
    assert "--forum" not in said
    # no hand is dealt: no "Your 0 cards" or "The 18 face-up cards" to pick from meanwhile
    assert {p.key for p in at.pills} & {"new_mine", "new_face_up"} == set()
    rule_box(at).set_value(Dealing.CLASSIC).run()
    assert hand_sizes(at) == [2] * 6 + [1] * 6
    assert "new_mine" in {p.key for p in at.pills}


def test_the_forum_deck_for_more_players_is_filled_in(store: Store) -> None:
    """One tap makes the 6-player forum deck the deck for 8 players: its names kept, the
    missing cards numbered to rename, dealt 3 each by the forum's rule; typed names stay."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="new_edition").set_value("forum-gostya-iz-budushchego").run()
    at.text_area(key="new_players").set_value(", ".join(f"P{n}" for n in range(1, 9))).run()
    said = " ".join(w.value for w in at.warning).replace("\\", "")  # (markdown escapes)
    # the button right below does it in one tap: the warning says so (it sent the player to
    # type 8 suspects, 8 weapons and 11 places, as a phone play-through read it)
    assert "Tap “Fill in a deck for 8 players” to fill it in" in said, said
    at.button(key="fill_forum_deck").click().run()
    assert at.selectbox(key="new_edition").value == "custom"
    suspects = at.text_area(key="new_suspects").value.splitlines()
    assert suspects[0] == "Алиса Селезнёва" and suspects[6:] == ["Suspect 7", "Suspect 8"]
    assert len(at.text_area(key="new_rooms").value.splitlines()) == 11
    assert at.text_area(key="new_rooms").label == "Places"  # the forum's word: no board
    assert rule_box(at).value is Dealing.FORUM and hand_sizes(at) == [3] * 8
    assert not at.warning and "fill_forum_deck" not in {b.key for b in at.button}
    # the player renames a numbered card and adds a ninth player: their names stay
    at.text_area(key="new_suspects").set_value("\n".join([*suspects[:7], "Фея"]))
    at.text_area(key="new_players").set_value(", ".join(f"P{n}" for n in range(1, 10))).run()
    at.button(key="fill_forum_deck").click().run()
    suspects = at.text_area(key="new_suspects").value.splitlines()
    assert suspects[6:] == ["Suspect 7", "Фея", "Suspect 9"]
    at.button(key="start_game").click().run()
    assert not at.error
    log = at.session_state["live"].log
    assert len(log.game.deck) == 9 + 9 + 12 and forum_style(log)  # (asks one player at a time)
    assert [p.hand_size for p in log.game.players] == [3] * 9


def test_custom_cards_and_edited_hand_sizes(store: Store) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="new_edition").set_value("custom").run()
    at.text_area(key="new_suspects").set_value("Plum, Green, Peach")
    at.text_area(key="new_weapons").set_value("Rope\nAxe")
    at.text_area(key="new_rooms").set_value("Hall, Den, Attic")
    at.text_area(key="new_players").set_value("Ann, Bob").run()
    assert hand_sizes(at) == [3, 2]
    assert at.text_area(key="new_rooms").label == "Rooms"
    rule_box(at).set_value(Dealing.FORUM).run()  # the cards typed stay, named as places
    assert at.text_area(key="new_rooms").label == "Places"
    assert at.text_area(key="new_rooms").value == "Hall, Den, Attic"
    rule_box(at).set_value(Dealing.CLASSIC).run()
    size_inputs(at)[1].set_value(3).run()
    at.button(key="start_game").click().run()
    # 3 + 3 + 3 = 9 cards but 8 exist: the problem is named, the user stays on the form
    assert "hand sizes (3 + 3)" in texts(at)
    assert "live" not in at.session_state
    size_inputs(at)[1].set_value(2).run()
    at.button(key="start_game").click().run()
    assert not at.error
    assert at.session_state["live"].log.game.deck.weapons == ("Rope", "Axe")


def test_open_an_example_and_upload_a_log(store: Store) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert at.selectbox(key="example").options
    at.button(key="open_example").click().run()
    assert not at.exception and "live" in at.session_state
    assert told(at.session_state["revision"][1]).render("en").startswith("opened example")


def test_upload_a_log_and_see_its_problems(store: Store) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    bad = b'{"format": "clue-notebook/1", "edition": "clue-classic", "players": "Ann"}'
    at.file_uploader(key="upload").upload("bad.json", bad, "application/json").run()
    at.button(key="open_upload").click().run()
    assert "bad.json is not a valid log" in texts(at)
    assert "players: expected a list of players, got text" in texts(at)
    assert "live" not in at.session_state
    log = classic(Reveal("Dan", ("Wrench",)))
    at.file_uploader(key="upload").set_value(("game.json", dumps(log).encode(), "application/json"))
    at.run()
    at.button(key="open_upload").click().run()
    assert at.session_state["live"].log == log


# --- entries -----------------------------------------------------------------------------------


def test_the_shown_card_chips_are_named_as_the_translation_reads(store: Store) -> None:
    """Streamlit gives a chip row's label to screen readers unrendered: the translation's own
    comma and brackets were escaped with the name ("Kortti\\, jonka Cat näytti sinulle"); only the
    player's name is user text."""
    at, _game_id = open_app(store, classic())
    at.session_state["lang"] = "ru"
    at.run()
    pick(at, "Mrs. White", "Knife", "Lounge")
    at.pills(key="e_refuter").set_value("Cat").run()
    assert at.pills(key="e_shown").label == "Карта, показанная вам игроком Cat"


def test_record_a_suggestion_with_automatic_passes(store: Store) -> None:
    at, game_id = open_app(store, classic())
    assert at.pills(key="by").value == "Ann"
    pick(at, "Mrs. White", "Knife", "Lounge")
    at.pills(key="e_refuter").set_value("Cat").run()
    assert chips(at, "e_shown") == ["Mrs. White", "Knife", "Lounge"]
    at.pills(key="e_shown").set_value("Knife")
    submit(at)
    assert events(at) == (Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob",),
                                     refuted_by="Cat", shown="Knife"),)
    assert store.load(game_id) == at.session_state["live"].log  # saved at once
    assert at.pills(key="by").value == "Bob"  # next player's turn
    assert at.pills(key="e_suspect").value is None  # fresh form


def test_bug_others_room_never_starts_at_the_room_the_rules_bar(store: Store) -> None:
    """One suggestion per visit (`solver.advice.barred_room`, both board editions): another
    player's Room chip started at their last suggestion's room, the one room the rules bar them
    from on this turn, so the user tapped the room they named every time, and one who forgot
    recorded a suggestion the rules forbid. Now it starts at nothing, as mine has since
    2026-12-04 (8bd9726), and where another's suggestion moved their pawn (a suspect of their
    name) since their own latest, at that room, where they may stay and ask."""
    at, _ = open_app(store, classic(Suggestion("Bob", ("Mrs. White", "Knife", "Lounge"),
                                               passes=("Cat", "Dan", "Ann"))))
    at.pills(key="by").set_value("Bob").run()
    assert at.pills(key="e_room").value is None  # not Lounge, where Bob suggested last
    assert not [c for c in captions(at) if c.startswith("Not ")]  # that line is for my turn
    assert chips(at, "e_refuter") == ["Ann", "Bob", "Cat", "Dan", "Nobody"]  # Bob's greyed
    assert at.pills(key="e_refuter").value is None  # who answered is one tap, never guessed
    game = new_game(CLASSIC, ("Ann", "Mrs. White", "Cat", "Dan"), Dealing.CLASSIC, me="Ann",
                    my_cards=MINE)
    moved = GameLog(game, (Suggestion("Mrs. White", ("Mr. Green", "Knife", "Lounge"),
                                      refuted_by="Cat"),
                           Suggestion("Cat", ("Mrs. White", "Rope", "Study"), refuted_by="Dan")))
    at, _ = open_app(store, moved)
    at.pills(key="by").set_value("Mrs. White").run()
    assert at.pills(key="e_room").value == "Study"  # Cat's suggestion moved her pawn there
    at.pills(key="by").set_value("Cat").run()
    assert at.pills(key="e_room").value is None  # not Study, where Cat suggested last


def test_a_card_shown_without_noting_which_is_named_in_the_reminder(store: Store) -> None:
    """Play-through: after showing Cat a card without noting which, the form said "Cat has
    seen from you: nothing yet"."""
    unnoted = Suggestion("Cat", ("Mrs. White", "Rope", "Kitchen"), passes=("Dan",),
                         refuted_by="Ann")
    mine = [c for c in unnoted.cards if c in MINE]
    assert len(mine) > 1  # several of mine: which one I showed is not known
    at, _ = open_app(store, classic(unnoted))
    at.pills(key="by").set_value("Cat").run()
    assert (f"Cat has seen from you: one of {', '.join(mine)} (#1, not noted)") in texts(at)


def test_when_i_refute_the_app_asks_which_card_and_reminds_me(store: Store) -> None:
    earlier = Suggestion("Bob", ("Miss Scarlet", "Knife", "Lounge"), refuted_by="Cat")
    seen = Suggestion("Cat", ("Mrs. White", "Rope", "Ballroom"), passes=("Dan",),
                      refuted_by="Ann", shown="Rope")
    at, _ = open_app(store, classic(earlier, seen))
    at.pills(key="by").set_value("Cat").run()
    assert "Cat has seen from you: Rope" in texts(at)
    pick(at, "Miss Scarlet", "Rope", "Ballroom")
    at.pills(key="e_refuter").set_value("Ann")
    submit(at)
    assert "Cat has already seen Rope from you" in texts(at)
    assert events(at)[-1].shown is None
    at.button(key="showed_Rope").click().run()
    assert events(at)[-1].shown == "Rope"
    assert events(at)[-1].passes == ("Dan",)


def test_pending_show_follows_its_event_when_another_device_changes_the_log(
    store: Store,
) -> None:
    """The which-card-did-you-show question held the event's index and outlived a reload: after
    another device deleted event 1, it pointed past the log (the question vanished) or at another
    event. Now it follows its event, and the answer goes to that event."""
    earlier = Reveal("Dan", ("Wrench",))
    at, game_id = open_app(store, classic(earlier))
    at.pills(key="by").set_value("Cat").run()
    pick(at, "Miss Scarlet", "Rope", "Ballroom")
    at.pills(key="e_refuter").set_value("Ann")
    submit(at)
    asked = events(at)[1]
    assert "Which card did you show?" in texts(at)
    store.save(game_id, classic(asked), "deleted event 1")  # another device
    at.run()
    assert "Cat asked Miss Scarlet, Rope, Ballroom" in texts(at)
    at.button(key="showed_Rope").click().run()
    assert store.load(game_id).events == (replace(asked, shown="Rope"),)  # type: ignore[union-attr]
    # deleted elsewhere: the question goes with its event
    at.pills(key="by").set_value("Cat").run()
    pick(at, "Miss Scarlet", "Rope", "Ballroom")
    at.pills(key="e_refuter").set_value("Ann")
    submit(at)
    assert "Which card did you show?" in texts(at)
    store.save(game_id, classic(replace(asked, shown="Rope")), "deleted event 2")
    at.run()
    assert "Which card did you show?" not in texts(at)
    assert at.session_state["pending_show"] is None


def test_my_suggestion_without_the_card_asks_for_it(store: Store) -> None:
    at, _ = open_app(store, classic())
    pick(at, "Mrs. White", "Knife", "Lounge")
    at.pills(key="e_refuter").set_value("Cat")
    submit(at)  # "card shown to you" left at "not seen"
    assert events(at)[-1].shown is None  # saved at once all the same
    assert "Which card did Cat show you?" in texts(at)
    at.button(key="showed_Lounge").click().run()
    assert events(at)[-1].shown == "Lounge"
    assert "Which card did Cat show you?" not in texts(at)


def test_the_card_shown_is_asked_once_while_its_entry_is_edited(store: Store) -> None:
    """My suggestion saved without the card, then opened for editing from the Log: its form asks
    which card Cat showed, so the question above it does not ask it again (a Japanese
    play-through); cancelled, the question is back, and the answer still goes to the entry."""
    at, _ = open_app(store, classic())
    pick(at, "Mrs. White", "Knife", "Lounge")
    at.pills(key="e_refuter").set_value("Cat")
    submit(at)
    assert "Which card did Cat show you?" in texts(at)
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_0").click().run()
    assert at.session_state["editing"] == 0 and at.pills(key="e_shown") is not None
    assert "Which card did Cat show you?" not in texts(at)
    at.button(key="cancel_edit").click().run()
    at.segmented_control(key="view").set_value("Turn").run()
    assert "Which card did Cat show you?" in texts(at)
    at.button(key="showed_Lounge").click().run()
    assert events(at)[-1].shown == "Lounge"


def test_a_card_shown_that_could_not_be_saved_is_said_in_a_sentence(store: Store) -> None:
    """A 12-player play-through: the card shown, tapped after another phone had saved, said
    "Not saved: noted Lounge shown in event 1", a history note inside a refusal. It is a
    sentence of its own now."""
    at, game_id = open_app(store, classic())
    pick(at, "Mrs. White", "Knife", "Lounge")
    at.pills(key="e_refuter").set_value("Cat")
    submit(at)
    store.save(game_id, classic(events(at)[-1], Reveal("Dan", ("Wrench",))),
               recorded(2))  # another phone
    at.button(key="showed_Lounge").click().run()
    said = texts(at)
    assert ("The game changed on another screen; reloaded. The card shown in event 1 (Lounge) "
            "was not saved: check the game and try again.") in said, said
    assert "noted Lounge" not in said


def test_only_matching_card_is_filled_in(store: Store) -> None:
    at, _ = open_app(store, classic())
    at.pills(key="by").set_value("Bob").run()
    pick(at, "Mrs. White", "Knife", "Hall")
    at.pills(key="e_refuter").set_value("Ann")
    submit(at)
    assert events(at)[-1] == Suggestion("Bob", ("Mrs. White", "Knife", "Hall"),
                                        passes=("Cat", "Dan"), refuted_by="Ann", shown="Hall")
    assert at.session_state["pending_show"] is None


def test_accusation_and_turn_skips_the_accuser(store: Store) -> None:
    at, _ = open_app(store, classic())
    at.segmented_control(key="kind").set_value("Accusation").run()
    at.pills(key="by").set_value("Bob").run()
    pick(at, "Mrs. White", "Knife", "Lounge")
    at.pills(key="e_result").set_value("wrong")
    submit(at)
    assert events(at) == (Accusation("Bob", ("Mrs. White", "Knife", "Lounge"), correct=False),)
    at.segmented_control(key="kind").set_value("Suggestion").run()
    assert at.pills(key="by").value == "Cat"
    # Bob is out but still refutes: he is offered as a refuter
    at.pills(key="by").set_value("Ann").run()
    assert "Bob" in chips(at, "e_refuter")


def test_players_out_are_marked_on_who_asked(store: Store) -> None:
    """A 12-player forum play-through: after Kim's wrong accusation her "Who asked" chip read
    like everyone's, a warning showing only once she was tapped. Her chip now says she is out,
    in the same place in the row (still tappable: the warning says why she takes no turns)."""
    bob = Accusation("Bob", ("Mr. Green", "Rope", "Hall"))
    at, _ = open_app(store, classic(bob))
    assert chips(at, "by") == ["Ann", "Bob (out)", "Cat", "Dan"]
    at.segmented_control(key="kind").set_value("Accusation").run()
    assert chips(at, "by") == ["Ann", "Bob (out)", "Cat", "Dan"]
    at.segmented_control(key="kind").set_value("Suggestion").run()
    at.pills(key="by").set_value("Bob").run()
    assert "Bob accused wrongly in #1" in texts(at)
    assert chips(at, "e_refuter")[1] == "Bob"  # he still shows cards: not marked there


def test_accusation_starts_at_the_player_who_just_suggested(store: Store) -> None:
    """One accuses on one's own turn, after suggesting: the form started at the next player (a
    phone play-through tapped the accuser back after every wrong accusation). Back on a
    suggestion it is the next player's turn again; a player tapped stays; one out of the game
    is not offered; on my turn with my accusation safe, I accuse without suggesting."""
    bob = Suggestion("Bob", ("Mrs. White", "Knife", "Lounge"), refuted_by="Cat")
    at, _ = open_app(store, classic(bob))
    assert at.pills(key="by").value == "Cat"
    at.segmented_control(key="kind").set_value("Accusation").run()
    assert at.pills(key="by").value == "Bob"
    at.segmented_control(key="kind").set_value("Suggestion").run()
    assert at.pills(key="by").value == "Cat"
    at.pills(key="by").set_value("Dan").run()
    at.segmented_control(key="kind").set_value("Accusation").run()
    assert at.pills(key="by").value == "Dan"  # tapped: kept
    at, _ = open_app(store, classic(bob, Accusation("Bob", ("Mr. Green", "Rope", "Hall"))))
    at.segmented_control(key="kind").set_value("Accusation").run()
    assert at.pills(key="by").value == "Cat"  # Bob is out: whose turn it is
    solved = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob", "Cat", "Dan"))
    at, _ = open_app(store, classic(
        solved, Suggestion("Bob", ("Mr. Green", "Wrench", "Library"), refuted_by="Cat"),
        Suggestion("Cat", ("Mr. Green", "Wrench", "Library"), refuted_by="Dan"),
        Suggestion("Dan", ("Miss Scarlet", "Candlestick", "Ballroom"), refuted_by="Ann",
                   shown="Miss Scarlet")))
    at.segmented_control(key="kind").set_value("Accusation").run()
    assert at.pills(key="by").value == "Ann"  # my turn, and my accusation is safe: mine
    assert [at.pills(key=k).value for k in ("e_suspect", "e_weapon", "e_room")] == [
        "Mrs. White", "Knife", "Lounge"]  # the envelope, not where my pawn stands
    at.pills(key="e_result").set_value("right")
    submit(at)
    assert events(at)[-1] == Accusation("Ann", ("Mrs. White", "Knife", "Lounge"), correct=True)


def test_right_accusation_ends_the_game(store: Store) -> None:
    at, _ = open_app(store, classic())
    at.segmented_control(key="kind").set_value("Accusation").run()
    pick(at, "Mrs. White", "Knife", "Lounge")
    at.pills(key="e_result").set_value("right")
    submit(at)
    # Ann is me: said to me, as `clue-notebook race` and `accuse` say it
    assert [shown(s.value) for s in at.success] == ["You accused correctly: the game is over."]
    assert "Ann accused correctly" not in texts(at)
    assert "Accusation is safe" not in texts(at)  # nothing left to advise: it is over
    assert "Envelope · Suspect: Mrs. White · Weapon: Knife · Room: Lounge" in texts(at)
    # nobody suggests again: the form takes the cards players show now, and says why
    assert at.segmented_control(key="kind").value == "Reveal"
    assert "The game is over: record here the cards players show now" in texts(at)
    at.segmented_control(key="kind").set_value("Suggestion").run()  # still there to tap
    assert not at.exception and "The game is over: record here" not in texts(at)


def test_reveal(store: Store) -> None:
    at, _ = open_app(store, classic())
    at.segmented_control(key="kind").set_value("Reveal").run()
    at.pills(key="r_player").set_value("Dan")
    at.pills(key="r_cards").set_value(["Knife", "Lounge"])
    at.checkbox(key="r_whole").check()
    submit(at)
    assert events(at) == (Reveal("Dan", ("Knife", "Lounge"), whole_hand=True),)


DANS_HAND = ("Mrs. White", "Candlestick", "Knife", "Lounge")
"""A whole hand of Dan's (4 cards in `classic`), none of them mine."""


def test_a_hand_revealed_whole_is_not_offered_again(store: Store) -> None:
    """After Dan's whole hand was revealed (#2), the Reveal form offered Dan's cards again, as
    if not seen. It says his hand is revealed, offers no card, and records nothing for him; a
    card revealed before without the whole hand (Cat's Wrench) is marked so."""
    at, _ = open_app(store, classic(Reveal("Cat", ("Wrench",)),
                                    Reveal("Dan", DANS_HAND, whole_hand=True)))
    assert not at.session_state["live"].conflict
    at.segmented_control(key="kind").set_value("Reveal").run()
    at.pills(key="r_player").set_value("Dan").run()
    said = ("Dan's whole hand was revealed in #2: Mrs. White, Candlestick, Knife, Lounge. "
            "Nothing more to reveal")
    assert said in texts(at)
    assert not [p for p in at.pills if p.key == "r_cards"]
    submit(at)
    assert len(events(at)) == 2 and said in texts(at)
    at.pills(key="r_player").set_value("Cat").run()
    seen = at.pills(key="r_cards")
    assert [shown(o) for o in seen.options if "Wrench" in o] == ["Wrench ✓ revealed"]


def forum(*events: Suggestion) -> GameLog:
    """A forum game (everyone 3 cards, one player asked at a time) where I am Ann."""
    deck = editions()["forum-gostya-iz-budushchego"].deck
    mine = (deck.suspects[0], deck.weapons[0], deck.rooms[0])
    game = new_game(deck, ("Ann", "Bob", "Cat"), Dealing.FORUM, me="Ann", my_cards=mine,
                    edition_name="forum-gostya-iz-budushchego")
    return GameLog(game, events)


SUSPECT_2 = editions()["forum-gostya-iz-budushchego"].deck.suspects[1]
"""The forum deck's second suspect, the first card `asked_in_forum` asks about."""


def asked_in_forum(store: Store, asked: str, answer: str, *earlier: Event
                   ) -> tuple[AppTest, tuple[str, str, str]]:
    """A forum game (after ``earlier``) with my question about each category's second card to
    ``asked`` tapped in, ``answer`` (``showed a card`` or ``no card``) too; and the cards."""
    log = forum()
    deck = log.game.deck
    triple = (deck.suspects[1], deck.weapons[1], deck.rooms[1])
    at, _ = open_app(store, replace(log, events=earlier))
    assert at.segmented_control(key="kind").value == "Asked one"
    pick(at, *triple)
    at.pills(key="e_asked").set_value(asked)
    at.pills(key="e_answer").set_value(answer).run()
    return at, triple


def test_directed_suggestion_forum_style(store: Store) -> None:
    at, triple = asked_in_forum(store, "Cat", "showed a card")
    at.pills(key="e_shown").set_value(triple[1])
    at.checkbox(key="e_rule").check()
    submit(at)
    assert events(at) == (Suggestion("Ann", triple, refuted_by="Cat", shown=triple[1],
                                     shown_by_rule="first-in-order"),)


def test_the_host_answering_for_me_shows_my_first_card_in_order(store: Store) -> None:
    """Forum variant (a 12-player play-through at 390 px): Bob asks me about two of my cards
    and the host answers for me, by the fixed order suspect, weapon, place. The form offered
    both cards and advised "Bob has already seen Миелофон from you: show it again"; tapping
    it recorded a weapon shown by the first-in-order rule, which says I lack the suspect I
    hold: the entry clashed with my own hand. With the host's box ticked the card is the
    first of mine in order, said so, and nothing is left to choose."""
    log = forum()
    deck = log.game.deck
    mine = log.game.my_cards
    triple = (deck.suspects[0], deck.weapons[0], deck.rooms[1])  # my suspect and weapon
    log = replace(log, events=(Suggestion("Bob", (deck.suspects[1], deck.weapons[0],
                                                  deck.rooms[2]), refuted_by="Ann",
                                          shown=deck.weapons[0]),))
    at, _ = open_app(store, log)
    at.pills(key="by").set_value("Bob").run()
    pick(at, *triple)
    at.pills(key="e_asked").set_value("Ann")
    at.pills(key="e_answer").set_value("showed a card").run()
    at.pills(key="e_shown").set_value(deck.weapons[0]).run()  # tapped before the host's box
    at.checkbox(key="e_rule").check().run()
    assert not at.exception, at.exception
    assert "e_shown" not in {p.key for p in at.pills}
    assert f"The host answered for you: {mine[0]}, your first card of the three." in captions(at)
    assert not any("show it again" in c for c in captions(at))
    submit(at)
    assert events(at)[-1] == Suggestion("Bob", triple, refuted_by="Ann", shown=mine[0],
                                        shown_by_rule="first-in-order")
    assert not at.error


def test_the_host_box_is_offered_where_a_card_was_shown(store: Store) -> None:
    """A 12-player forum play-through: the host answers for absent Cat on Bob's question. The
    box was not offered there (the log kept the rule only with the card, which I do not see),
    so the race read Bob as shown any of Cat's matching cards, where the host shows her first
    in the order. It is kept now without the card; on an answer of no card there is no box."""
    at, triple = asked_in_forum(store, "Bob", "no card")
    assert "e_rule" not in {c.key for c in at.checkbox}  # nothing shown: no order to follow
    at.pills(key="e_answer").set_value("showed a card").run()
    assert "e_rule" in {c.key for c in at.checkbox}  # my question
    at.pills(key="by").set_value("Bob").run()
    at.pills(key="e_asked").set_value("Cat").run()
    at.checkbox(key="e_rule").check().run()  # Bob asked Cat, the host answered for her
    submit(at)
    assert events(at) == (Suggestion("Bob", triple, refuted_by="Cat",
                                     shown_by_rule="first-in-order"),)
    assert "Cat showed a card (host, first in order)" in shown(at.button(key="undo").label)


def test_the_host_answering_my_question_needs_the_card_shown(store: Store) -> None:
    """Forum variant (a 12-player play-through): I ask Bob, the host answers for him by the
    fixed order, and I record it with the host's box ticked but no card tapped. The entry was
    saved without the rule (the log keeps the rule only with the card) and "Which card did Bob
    show you?" then saved the card without it: that Bob lacks what comes before it in the
    order was lost, and the Log did not say the host answered. Now Record asks for the card,
    and with it keeps the rule."""
    at, triple = asked_in_forum(store, "Bob", "showed a card")
    at.checkbox(key="e_rule").check().run()
    submit(at)
    assert events(at) == ()
    assert "Tap the card Bob showed you: the host's rule needs it." in texts(at)
    at.pills(key="e_shown").set_value(triple[1])
    submit(at)
    assert events(at) == (Suggestion("Ann", triple, refuted_by="Bob", shown=triple[1],
                                     shown_by_rule="first-in-order"),)


def test_the_host_answering_my_question_shows_the_first_card_they_hold(store: Store) -> None:
    """Forum variant: Bob showed me his suspect before; I ask him about it and two other cards
    and the host answers for him by the fixed order. He can only have shown that suspect, the
    first in order; the form offered all three, a weapon or place tapped clashing with him
    holding it. Now it says so and Record fills it in."""
    at, triple = asked_in_forum(store, "Bob", "showed a card", Reveal("Bob", (SUSPECT_2,)))
    assert chips(at, "e_shown") == list(triple)
    at.checkbox(key="e_rule").check().run()
    assert "e_shown" not in {p.key for p in at.pills}
    assert f"Bob can only have shown {SUSPECT_2}." in captions(at)
    submit(at)
    assert events(at)[-1] == Suggestion("Ann", triple, refuted_by="Bob", shown=SUSPECT_2,
                                        shown_by_rule="first-in-order")


def test_an_entry_the_host_answered_says_so(store: Store) -> None:
    """An entry whose card the host showed by the fixed order reads so on the Log and the
    clash banner: a play-through's clash listed "#58 Kefir: Suspect 7, Weapon 8, Альфа
    Центавра → Nadia showed Альфа Центавра", which reads as true (I hold it); only "Why do
    they clash?" said the host's rule had picked it, which I do not follow holding Suspect 7."""
    log = forum()
    deck = log.game.deck
    asked = Suggestion("Bob", (deck.suspects[0], deck.weapons[1], deck.rooms[0]),
                       refuted_by="Ann", shown=deck.rooms[0], shown_by_rule="first-in-order")
    at, _ = open_app(store, replace(log, events=(asked,)))
    line = (f"Bob: {deck.suspects[0]}, {deck.weapons[1]}, {deck.rooms[0]} → Ann showed "
            f"{deck.rooms[0]} (host, first in order)")
    assert line in shown(at.error[0].value), at.error[0].value
    at.segmented_control(key="view").set_value("Log").run()
    assert line in shown(at.button(key="edit_0").label)


def test_forum_games_start_on_the_directed_entry(store: Store) -> None:
    at, _ = open_app(store, forum())
    assert at.segmented_control(key="kind").value == "Asked one"
    assert chips(at, "e_asked") == ["Ann", "Bob", "Cat"]


def test_the_asked_chips_keep_their_places_from_asker_to_asker(store: Store) -> None:
    """A 12-player forum play-through at 390 px: the "Asked" chips came in the order players
    answer a suggestion round the table, from the asker's left, so the row turned with every
    asker and the thumb landed on another name from turn to turn. They are in seat order now,
    as under "Who asked", the asker's own chip there too but greyed, taking no tap (a classic
    suggestion's "Who showed a card" too, since: `test_the_who_showed_chips_keep_their_places`)."""
    at, _ = open_app(store, forum())
    for asker in ("Bob", "Cat", "Ann"):
        at.pills(key="by").set_value(asker).run()
        assert chips(at, "e_asked") == ["Ann", "Bob", "Cat"], asker
        seat = ("Ann", "Bob", "Cat").index(asker) + 1
        assert any(f"[role='radio']:nth-of-type({seat}) {{opacity" in str(h.proto.body)
                   for h in at.get("html")), asker
    deck = forum().game.deck
    pick(at, deck.suspects[1], deck.weapons[1], deck.rooms[1])
    at.pills(key="e_asked").set_value("Ann").run()  # the asker's own chip, reached by keys
    assert at.pills(key="e_asked").value is None
    submit(at)
    assert "Tap who was asked." in texts(at) and events(at) == ()
    at.pills(key="e_asked").set_value("Cat").run()
    at.pills(key="by").set_value("Cat").run()  # Cat tapped as the asker: not asked as well
    assert at.pills(key="e_asked").value is None
    at, _ = open_app(store, classic())
    at.pills(key="by").set_value("Cat").run()
    assert chips(at, "e_refuter") == ["Ann", "Bob", "Cat", "Dan", "Nobody"]


def test_the_who_showed_chips_keep_their_places_from_suggester_to_suggester(
        store: Store) -> None:
    """"Who showed a card" on a suggestion round the table came in answer order from the
    suggester's left, so each player's chip moved with every suggester, as the forum's
    "Asked" did (6387fbc). Seat order now, the suggester's chip greyed and taking no tap; who
    passed is worked out from the tap round the table from the suggester's left, also where it
    wraps past the last seat, and said under the row, where the order used to show it."""
    at, _ = open_app(store, classic())
    for by in ("Bob", "Cat", "Dan", "Ann"):
        at.pills(key="by").set_value(by).run()
        assert chips(at, "e_refuter") == ["Ann", "Bob", "Cat", "Dan", "Nobody"], by
        seat = NAMES.index(by) + 1
        assert any(f".st-key-e_refuter [role='radio']:nth-of-type({seat}) {{opacity"
                   in str(h.proto.body) for h in at.get("html")), by
    at.pills(key="by").set_value("Cat").run()
    at.pills(key="e_refuter").set_value("Cat").run()  # the suggester's own chip, by keys
    assert at.pills(key="e_refuter").value is None
    pick(at, "Mrs. White", "Knife", "Lounge")
    at.pills(key="e_refuter").set_value("Bob").run()  # Dan, Ann passed: past the last seat
    assert "Dan and Ann passed\\." in [c.value for c in at.caption]  # (escaped)
    submit(at)
    at.pills(key="by").set_value("Dan").run()
    pick(at, "Mr. Green", "Wrench", "Hall")
    at.pills(key="e_refuter").set_value("Ann").run()  # nobody passed: no caption (my Hall)
    assert not [c for c in at.caption if "passed" in c.value]
    submit(at)
    assert events(at) == (
        Suggestion("Cat", ("Mrs. White", "Knife", "Lounge"), passes=("Dan", "Ann"),
                   refuted_by="Bob"),
        Suggestion("Dan", ("Mr. Green", "Wrench", "Hall"), refuted_by="Ann", shown="Hall"))


def test_japanese_says_who_passed_in_a_whole_sentence(store: Store) -> None:
    """Who passed, where it stands alone (the line under "Who showed a card", the end of a Log
    line), is a whole Japanese sentence: it read 「Dan、Annは反証できず」, the continuative
    form that goes on to a next clause (a 6-player phone play-through). The explanations and
    the report, where the answer follows it, keep that form."""
    from notebook_app.turns import describe
    from solver.i18n import speaking

    at, _ = open_app(store, classic())
    at.session_state["lang"] = "ja"
    at.run()
    at.pills(key="by").set_value("Cat").run()
    pick(at, "Mrs. White", "Knife", "Lounge")
    at.pills(key="e_refuter").set_value("Bob").run()
    line = [c.value for c in at.caption if "Dan、Ann" in c.value]
    assert line == ["Dan、Annは反証できなかった。"], line
    event = Suggestion("Cat", ("Mrs. White", "Knife", "Lounge"), passes=("Dan", "Ann"),
                       refuted_by="Bob")
    with speaking("ja"):
        logged = describe(event)
    assert logged.endswith("。Dan、Annは反証できなかった"), logged


def words(at: AppTest) -> str:
    """Every text the screen shows: its texts and its inputs' labels."""
    inputs = [*at.pills, *at.checkbox, *at.toggle, *at.text_area, *at.button, *at.selectbox]
    return "\n".join([texts(at), *(shown(i.label) for i in inputs)])


def test_forum_games_say_place_not_room(store: Store) -> None:
    """The forum variant has no board: its third category is places
    (`solver.editions.forum_dealt`). Its Turn form said "Room" (the chips, the host's rule,
    the envelope line, the request for a missing card) on every kind of entry, as did the
    Note's chips; a classic game keeps "Room"."""
    at, _ = open_app(store, forum())
    assert at.pills(key="e_room").label == "Place"
    assert at.checkbox(key="e_rule").label == (
        "Host answered: first match in order suspect, weapon, place")
    assert re.search(r"Envelope · Suspect: \d left · Weapon: \d left · Place: \d left", texts(at))
    submit(at)  # no card tapped
    assert "Tap a suspect, a weapon and a place." in texts(at)
    for kind in ("Asked one", "Accusation", "Note"):
        at.segmented_control(key="kind").set_value(kind).run()
        assert not at.exception, at.exception
        submit(at)
        assert "room" not in words(at).lower(), (kind, words(at))
    assert at.pills(key="n_room").label == "Places"
    at.segmented_control(key="kind").set_value("Asked one").run()  # "Suggest for me" on my
    at.pills(key="by").set_value("Ann").run()  # turn, a place tapped
    at.toggle(key="advise_me").set_value(True).run()
    at.pills(key="e_room").set_value(forum().game.deck.rooms[0]).run()  # mine
    said = words(at)
    assert "Another place is likelier: ask " in said, said  # (not "in another room")
    assert "room" not in said.lower() and "head" not in said, said
    # beside it, the reason counted the cards "you have not placed yet": read as places
    assert " whose holder" in said and "placed" not in said, said
    at, _ = open_app(store, classic())
    assert at.pills(key="e_room").label == "Room"
    assert "· Room: " in texts(at)


def test_side_peek_in_the_two_player_game(store: Store) -> None:
    game = new_game(CLASSIC, ("Ann", "Bob"), Dealing.TWO_PLAYER, me="Ann",
                    my_cards=("Miss Scarlet", "Rope", "Kitchen", "Hall", "Study", "Knife",
                              "Lounge"))
    at, _ = open_app(store, GameLog(game))
    pick(at, "Mrs. White", "Candlestick", "Library")
    at.pills(key="e_refuter").set_value("").run()
    assert at.pills(key="e_slot").value == 1
    assert "Miss Scarlet" not in chips(at, "e_peek")  # mine: cannot be a side card
    at.pills(key="e_peek").set_value("Candlestick")
    submit(at)
    assert events(at) == (Suggestion("Ann", ("Mrs. White", "Candlestick", "Library"),
                                     passes=("Bob",), side_peek=SidePeek(1, "Candlestick")),)
    at.pills(key="by").set_value("Ann").run()
    at.pills(key="e_refuter").set_value("").run()
    assert at.pills(key="e_slot").value == 2


def test_no_side_card_is_asked_for_once_the_suggester_has_seen_all_four(store: Store) -> None:
    """Ann has looked at all four side cards: on her next turn that nobody answers the form still
    asked which one she looked at, four slots and none chosen, as if one were needed (found in
    a Russian 2-player phone play-through). A look now shows nothing new: it says so and asks
    nothing, and a slot tapped for Bob before the suggester was changed to Ann is not kept."""
    game = new_game(CLASSIC, ("Ann", "Bob"), Dealing.TWO_PLAYER, me="Ann",
                    my_cards=("Miss Scarlet", "Rope", "Kitchen", "Hall", "Study", "Knife",
                              "Lounge"))
    seen = ("Candlestick", "Mrs. White", "Library", "Wrench")
    looks = tuple(Suggestion("Ann", ("Miss Scarlet", "Rope", "Kitchen"), passes=("Bob",),
                             side_peek=SidePeek(slot, card)) for slot, card in enumerate(seen, 1))
    at, _ = open_app(store, GameLog(game, looks))
    at.pills(key="by").set_value("Bob").run()
    pick(at, "Miss Scarlet", "Rope", "Kitchen")
    at.pills(key="e_refuter").set_value("").run()
    at.pills(key="e_slot").set_value(3).run()
    at.pills(key="by").set_value("Ann").run()
    assert not [p for p in at.pills if p.key in ("e_slot", "e_peek")]
    assert "Ann has looked at every side card: a look now shows nothing new." in texts(at)
    submit(at)
    assert events(at)[-1] == Suggestion("Ann", ("Miss Scarlet", "Rope", "Kitchen"),
                                        passes=("Bob",))


def test_a_side_card_seen_in_one_slot_is_not_offered_for_another(store: Store) -> None:
    """I saw Candlestick in slot 1: slot 2 cannot be it (offered, it made a clash), and slot 1
    can be nothing else (found in a 2-player phone play-through)."""
    game = new_game(CLASSIC, ("Ann", "Bob"), Dealing.TWO_PLAYER, me="Ann",
                    my_cards=("Miss Scarlet", "Rope", "Kitchen", "Hall", "Study", "Knife",
                              "Lounge"))
    first = Suggestion("Ann", ("Mrs. White", "Candlestick", "Library"), passes=("Bob",),
                       side_peek=SidePeek(1, "Candlestick"))
    at, _ = open_app(store, GameLog(game, (first,)))
    at.pills(key="by").set_value("Ann").run()
    pick(at, "Mrs. White", "Wrench", "Library")
    at.pills(key="e_refuter").set_value("").run()
    assert at.pills(key="e_slot").value == 2
    assert "Candlestick" not in chips(at, "e_peek") and "Wrench" in chips(at, "e_peek")
    at.pills(key="e_slot").set_value(1).run()
    assert chips(at, "e_peek") == ["Candlestick"]
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_0").click().run()  # the entry's own peek does not bind itself
    assert at.pills(key="e_peek").value == "Candlestick" and "Wrench" in chips(at, "e_peek")


def test_a_player_out_of_the_game_tapped_as_suggester_is_said(store: Store) -> None:
    """Bob accused wrongly in #1; tapped as the next suggester (or accuser) nothing was said and
    the entry went in (found in a 2-player phone play-through). An entry before his accusation,
    edited, says nothing."""
    first = Suggestion("Bob", ("Mrs. White", "Knife", "Lounge"), passes=("Cat",),
                       refuted_by="Dan")
    at, _ = open_app(store, classic(first, Accusation("Bob", ("Mr. Green", "Wrench", "Hall"),
                                                      correct=False)))
    out = "Bob accused wrongly in #2: out of the game, they take no more turns and only show cards."
    assert at.pills(key="by").value == "Cat" and out not in texts(at)
    at.pills(key="by").set_value("Bob").run()
    assert out in [shown(w.value) for w in at.warning]
    at.segmented_control(key="kind").set_value("Accusation").run()
    assert out in [shown(w.value) for w in at.warning]
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_0").click().run()
    assert at.pills(key="by").value == "Bob" and out not in texts(at)

def test_a_right_accusation_the_notebook_rules_out_is_said_before_record(store: Store) -> None:
    """Bob's accusation of my own Miss Scarlet and Rope tapped right: nothing was said until
    Record showed a clash (found in a 2-player phone play-through, my köysi)."""
    at, _ = open_app(store, classic())
    at.segmented_control(key="kind").set_value("Accusation").run()
    at.pills(key="by").set_value("Bob").run()
    pick(at, "Miss Scarlet", "Rope", "Ballroom")
    at.pills(key="e_result").set_value("right").run()
    assert [shown(w.value) for w in at.warning] == [
        "The notebook says Miss Scarlet, Rope cannot be in the envelope, so this accusation was "
        "not right: check the entry."]
    at.pills(key="e_result").set_value("wrong").run()
    assert not at.warning
    pick(at, "Mrs. White", "Knife", "Ballroom")
    at.pills(key="e_result").set_value("right").run()
    assert not at.warning

def test_my_accusation_says_whether_it_is_safe_before_the_result(store: Store) -> None:
    """My accusation's three cards tapped, before a result: the form said nothing of them, not
    even of a room my last suggestion had shown to be elsewhere (a 2-player phone play-through);
    the header alone said "Not yet". Now one line: safe, certainly not right, or its chance as
    the race line weighs it (`test_my_accusation_weighs_its_chance_as_the_race_line`)."""
    from solver.i18n import percent_said
    from solver.race import BLUFF, Play, race

    bob = Accusation("Bob", ("Mr. Green", "Wrench", "Lounge"), correct=False)
    log = classic(bob)
    at, _ = open_app(store, log)
    assert my_accusation(at, "Miss Scarlet", "Knife", "Lounge") == [
        "Not right: the notebook says Miss Scarlet cannot be in the envelope."]
    pick(at, "Mr. Green", "Wrench", "Lounge")
    assert accusation_lines(at.run()) == [
        "Not right: no deal that fits the log has Mr. Green, Wrench, Lounge in the envelope."]
    pick(at, "Mrs. White", "Knife", "Lounge")
    play = Play(log, BLUFF, grid_of(log))
    chance = race(log, play=play).conditioned(play.odds())[
        "Mrs. White", "Knife", "Lounge"][0]
    assert accusation_lines(at.run()) == [
        f"Not safe: right {percent_said(chance, undecided=True)} if players seldom bluff."]
    at.pills(key="e_result").set_value("wrong").run()
    assert accusation_lines(at) == []  # accused: nothing to check
    at.pills(key="e_result").set_value(None).run()
    at.pills(key="by").set_value("Cat").run()
    assert accusation_lines(at) == []  # another's accusation is theirs to check
    solved = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob", "Cat", "Dan"))
    at, _ = open_app(store, classic(solved))
    at.segmented_control(key="kind").set_value("Accusation").run()
    assert accusation_lines(at) == [
        "Safe: every deal that fits the log has Mrs. White, Knife, Lounge in the envelope."]
    at.pills(key="e_suspect").set_value("Mr. Green").run()
    assert accusation_lines(at) == [
        "Not right: the envelope is certainly Mrs. White, Knife, Lounge."]


def accusation_lines(at: AppTest) -> list[str]:
    """The Turn form's warnings and successes (not the header's "Accusation is safe"), once
    the grid's odds and the race line are worked out."""
    counted(at)
    job = at.session_state.get("race_job")
    if job is not None:
        assert job[1].done(30)
        at.run()
    return [shown(a.value) for a in (*at.warning, *at.success)
            if not shown(a.value).startswith("Accusation is safe")]


def my_accusation(at: AppTest, *cards: str) -> list[str]:
    """My accusation of ``cards`` tapped, no result yet: what the form says of it."""
    at.segmented_control(key="kind").set_value("Accusation").run()
    at.pills(key="by").set_value("Ann").run()
    pick(at, *cards)
    return accusation_lines(at.run())


def test_my_accusation_weighs_its_chance_as_the_race_line(store: Store) -> None:
    """The header said "Accuse now: Colonel Mustard, Lead Pipe, Conservatory: right 61% if
    players seldom bluff" and the form, from the Grid's count, 35% of Conservatory and 35% of
    Lounge (a 3-player phone play-through): Bob named his own Lounge in #5 and nobody showed,
    so had Lounge been the envelope he would have known it, and accused. The form now says the
    race line's figure: the same for the triple it names, <1% for Lounge."""
    from solver.notation import read_text
    from tests.test_race import LOUNGE_NAMED

    log = read_text(LOUNGE_NAMED)
    at, _ = open_app(store, log)
    [line] = my_accusation(at, "Colonel Mustard", "Lead Pipe", "Conservatory")
    named = re.search(r"^Accuse now: Colonel Mustard, Lead Pipe, Conservatory: right (\S+) if "
                      r"players seldom bluff", race_said(at))
    assert named is not None, race_said(at)
    assert line == f"Not safe: right {named.group(1)} if players seldom bluff."
    pick(at, "Colonel Mustard", "Lead Pipe", "Lounge")
    assert accusation_lines(at.run()) == ["Not safe: right <1% if players seldom bluff."]


def test_one_envelope_has_one_chance_on_every_screen(store: Store) -> None:
    """The header said "Accuse now: Colonel Mustard, Lead Pipe, Conservatory: right 61% if
    players seldom bluff", the accusation form the same, and the Grid's Likeliest line "tied at
    35% each: …, Conservatory · …, Lounge" (the count that weighs every deal alike), which
    ranks first an envelope the line gives <1% (a 3-player phone play-through): a player who
    reads 35% in one place and 61% in another can trust neither. Once the line is drawn the
    Likeliest line gives its chances, and says what they assume."""
    from solver.notation import read_text
    from tests.test_race import LOUNGE_NAMED

    at, _ = open_app(store, read_text(LOUNGE_NAMED))
    [form] = my_accusation(at, "Colonel Mustard", "Lead Pipe", "Conservatory")
    named = re.search(r"^Accuse now: Colonel Mustard, Lead Pipe, Conservatory: right (\S+) if "
                      r"players seldom bluff", race_said(at))
    assert named is not None, race_said(at)
    right = named.group(1)
    assert form == f"Not safe: right {right} if players seldom bluff."
    counted(at.segmented_control(key="view").set_value("Grid").run())
    [line] = [x for x in texts(at).splitlines() if x.startswith("Likeliest")]
    assert line.startswith(f"Likeliest: Colonel Mustard, Lead Pipe, Conservatory {right} · ")
    assert line.endswith("Colonel Mustard, Lead Pipe, Lounge <1% (if players seldom bluff)")
    assert "% probability if every deal that fits the log is equally likely." in texts(at)
    watched = read_text(LOUNGE_NAMED)  # a spectator: no accusation weighed, the count named
    at, _ = open_app(store, replace(watched, game=replace(watched.game, me=None, my_cards=())))
    counted(at.segmented_control(key="view").set_value("Grid").run())
    [line] = [x for x in texts(at).splitlines() if x.startswith(("Likeliest", "All "))]
    assert line.endswith("(if every deal that fits the log is equally likely)"), line


def test_the_app_and_accuse_give_one_chance(store: Store, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The app's accusation form said "right 61%" and `accuse` on the same log "right 57%"
    (a 3-player phone play-through): the app drew 100 deals, the command line 400. Both now
    draw the race's default (`solver.race.draw_size`) with the same seed, so a player who
    checks one against the other reads one figure."""
    from solver.cli import main
    from solver.notation import read_text
    from tests.test_race import LOUNGE_NAMED

    log = read_text(LOUNGE_NAMED)
    at, _ = open_app(store, log)
    [form] = my_accusation(at, "Colonel Mustard", "Lead Pipe", "Conservatory")
    (tmp_path / "game.clue").write_text(LOUNGE_NAMED, encoding="utf-8")
    assert main(["accuse", str(tmp_path / "game.clue"), "Mustard", "Pipe", "Conservatory"]) == 0
    said = re.search(r"is right (\S+) if players seldom bluff", capsys.readouterr().out)
    assert said is not None
    assert form == f"Not safe: right {said.group(1)} if players seldom bluff."


def test_my_accusation_no_deal_has_is_not_right_with_the_grids_odds_off(store: Store) -> None:
    """With the Grid's odds turned off, the form's chance is the race line's alone: an envelope
    no deal has (each card still possible, not the three together) read "Not safe: right <1% if
    players seldom bluff". The race weighs every envelope still possible, so one it does not
    weigh is not right (the review's note)."""
    full = load(Path(APP).parent.parent / "examples" / "classic-four-players-notes.json")
    at, _ = open_app(store, GameLog(full.game, full.events[:5]))
    at.segmented_control(key="view").set_value("Grid").run()
    at.toggle(key="show_odds").set_value(False).run()
    at.segmented_control(key="view").set_value("Turn").run()
    assert my_accusation(at, "Mrs. White", "Knife", "Lounge") == [
        "Not right: no deal that fits the log has Mrs. White, Knife, Lounge in the envelope."]


def test_my_accusation_reads_the_odds_the_race_line_drew(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The form's chance is the race line's, from the deals as players play (`Play`): it worked
    them out again on the page's own thread, 0.2-0.6 s of CPU per log at 12 players (the
    review's measure), though the line had just drawn them beside the runs."""
    from solver import race
    from solver.notation import read_text
    from tests.test_race import LOUNGE_NAMED

    made: list[GameLog] = []
    plain_init = race.Play.__init__

    def counted(self: race.Play, log: GameLog, *args: Any, **kwargs: Any) -> None:
        made.append(log)
        plain_init(self, log, *args, **kwargs)

    monkeypatch.setattr(race.Play, "__init__", counted)
    at, _ = open_app(store, read_text(LOUNGE_NAMED))
    [line] = my_accusation(at, "Colonel Mustard", "Lead Pipe", "Conservatory")
    assert line.endswith("if players seldom bluff.")
    assert len(made) == 1  # the line's, read by the form


def test_missing_card_is_refused_with_a_message(store: Store) -> None:
    at, _ = open_app(store, classic())
    at.pills(key="e_suspect").set_value("Mrs. White")
    submit(at)
    assert "Tap a suspect, a weapon and a room." in texts(at)
    assert events(at) == ()


def test_a_saved_entry_resets_to_a_plain_suggestion_by_the_next_player(store: Store) -> None:
    """After an accusation the form used to stay on Accusation with the last right/wrong."""
    at, _ = open_app(store, classic())
    at.segmented_control(key="kind").set_value("Accusation").run()
    at.pills(key="by").set_value("Bob").run()
    pick(at, "Mrs. White", "Knife", "Lounge")
    at.pills(key="e_result").set_value("wrong")
    submit(at)
    assert at.segmented_control(key="kind").value == "Suggestion"
    assert at.pills(key="by").value == "Cat"
    assert at.pills(key="e_suspect").value is None and at.pills(key="e_refuter").value is None
    assert "e_result" not in at.session_state


def test_asked_one_only_in_games_that_ask_one_player(store: Store) -> None:
    at, _ = open_app(store, classic())
    assert at.segmented_control(key="kind").options == ["Suggest", "Accuse", "Reveal", "Note"]
    at, _ = open_app(store, forum())
    assert at.segmented_control(key="kind").options == ["Ask one", "Accuse", "Reveal", "Note"]


def test_the_forum_variant_offers_no_round_of_the_table(store: Store) -> None:
    """A forum suggestion is put to one player (../shared/rules.md), and the Turn form offered
    "Suggest" too, which records a round of the table. Now a forum game offers "Ask one" in its
    place, and an entry asked of the player to the suggester's left, who showed a card (the same
    as a round the table where the first player asked refutes), opens as a question to one
    player; the paste box's example turn is a question to one player too. A round of the table
    a forum log brings from a file (or a paste) stays readable: it opens for editing as it was
    recorded, its own kind offered beside the forum's, and is kept as it was when saved; Undo
    of it does not put it back into the form, which stays on the forum's kinds."""
    deck = forum().game.deck
    triple = (deck.suspects[1], deck.weapons[1], deck.rooms[1])
    asked_bob = Suggestion("Ann", triple, refuted_by="Bob", shown=deck.weapons[1])
    round_ = Suggestion("Bob", triple, passes=("Cat",), refuted_by="Ann", shown=deck.rooms[1])
    at, _ = open_app(store, forum(asked_bob, round_))
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_0").click().run()
    assert at.segmented_control(key="kind").value == "Asked one"
    assert [at.pills(key=k).value for k in ("e_asked", "e_answer")] == ["Bob", "showed a card"]
    assert at.segmented_control(key="kind").options == ["Ask one", "Accuse", "Reveal", "Note"]
    submit(at)
    assert events(at) == (asked_bob, round_)  # saved as it was
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_1").click().run()
    assert not at.exception, at.exception
    assert at.segmented_control(key="kind").value == "Suggestion"
    assert at.segmented_control(key="kind").options == ["Suggest", "Ask one", "Accuse",
                                                        "Reveal", "Note"]
    assert at.pills(key="e_refuter").value == "Ann"
    submit(at)
    assert events(at) == (asked_bob, round_)
    example = at.text_area(key="paste_turns").placeholder  # a turn of this game, as pasted:
    assert example.endswith("/ Cat +") and " - " not in example, example  # one player asked
    again = replace(round_, cards=(deck.suspects[1], deck.weapons[2], deck.rooms[1]))
    at.text_area(key="paste_turns").set_value(write_text(forum(again)).splitlines()[-1])
    at.button(key="add_paste").click().run()  # a round pasted from elsewhere, then undone
    assert events(at) == (asked_bob, round_, again)  # (round_ again: a repeat, not added)
    at.button(key="undo").click().run()
    assert not at.exception, at.exception
    assert events(at) == (asked_bob, round_)
    at.segmented_control(key="view").set_value("Turn").run()
    assert at.segmented_control(key="kind").value == "Asked one"
    assert at.segmented_control(key="kind").options == ["Ask one", "Accuse", "Reveal", "Note"]
    assert at.pills(key="e_suspect").value is None  # not put back: the form cannot hold it


def bob_asks_ann(store: Store, suspect: int, answer: str) -> tuple[AppTest, Deck]:
    """A forum game open with Bob's question to Ann entered (suspect number ``suspect``, the
    second weapon and place), ``answer`` tapped, not yet recorded."""
    log = forum()
    deck = log.game.deck
    at, _ = open_app(store, log)
    at.pills(key="by").set_value("Bob").run()
    pick(at, deck.suspects[suspect], deck.weapons[1], deck.rooms[1])
    at.pills(key="e_asked").set_value("Ann")
    at.pills(key="e_answer").set_value(answer).run()
    return at, deck


def test_forum_suggester_stays_and_the_answer_resets(store: Store) -> None:
    at, deck = bob_asks_ann(store, 1, "no card")
    submit(at)
    assert events(at)[-1] == Suggestion("Bob", (deck.suspects[1], deck.weapons[1],
                                                deck.rooms[1]), passes=("Ann",))
    assert at.segmented_control(key="kind").value == "Asked one"
    assert at.pills(key="by").value == "Bob"  # asks again
    assert at.pills(key="e_asked").value is None and at.pills(key="e_answer").value is None
    assert at.pills(key="e_suspect").value is None
    reloaded, _ = open_app(store, store.load(at.session_state["game_id"]))  # a new session
    assert reloaded.pills(key="by").value == "Bob"  # the same after a reload (it moved on)


def test_who_answered_is_one_tap_and_never_guessed(store: Store) -> None:
    at, _ = open_app(store, classic())
    at.pills(key="by").set_value("Bob").run()
    pick(at, "Mrs. White", "Knife", "Lounge")
    submit(at)
    assert "Tap who showed a card, or Nobody." in texts(at)
    assert events(at) == ()
    at.pills(key="e_refuter").set_value("")  # nobody: one tap as well
    submit(at)
    assert events(at) == (Suggestion("Bob", ("Mrs. White", "Knife", "Lounge"),
                                     passes=("Cat", "Dan", "Ann")),)
    assert "Tap who showed" not in texts(at)


BOB_PASSED = Suggestion("Dan", ("Mrs. White", "Knife", "Lounge"), passes=("Ann", "Bob"),
                        refuted_by="Cat")
"""#1 of two Turn form tests: Bob passed on Mrs. White, Knife, Lounge."""


def test_card_shown_to_me_offers_only_cards_the_refuter_can_hold(store: Store) -> None:
    """Bob passed on Mrs. White, Knife, Lounge: he cannot have shown the Knife."""
    at, _ = open_app(store, classic(BOB_PASSED))
    at.pills(key="by").set_value("Ann").run()
    pick(at, "Mr. Green", "Knife", "Library")
    at.pills(key="e_refuter").set_value("Bob").run()
    assert chips(at, "e_shown") == ["Mr. Green", "Library"]
    pick(at, "Mrs. White", "Knife", "Library")
    at.run()
    assert "Bob can only have shown Library." in texts(at)  # no question: it is forced
    submit(at)
    assert events(at)[-1].shown == "Library"
    assert at.session_state["pending_show"] is None


def test_when_i_refute_only_my_cards_are_offered(store: Store) -> None:
    at, _ = open_app(store, classic())
    at.pills(key="by").set_value("Bob").run()
    pick(at, "Miss Scarlet", "Rope", "Ballroom")
    at.pills(key="e_refuter").set_value("Ann").run()
    assert chips(at, "e_shown") == ["Miss Scarlet", "Rope"]
    advice = re.search(r"Show (.+): it leaves Bob the most envelopes open \(about \d+\)",
                       texts(at))
    assert advice is not None and advice.group(1) in ("Miss Scarlet", "Rope")
    at.pills(key="e_shown").set_value("Rope")
    submit(at)
    assert events(at)[-1].shown == "Rope"
    assert at.session_state["pending_show"] is None


def test_a_pass_i_could_not_make_is_said_before_record(store: Store) -> None:
    """Dan asks about my Rope and the form has me pass (Bob showed, or nobody did): it said
    nothing until Record showed a clash with my own hand (found in a phone play-through)."""
    at, _ = open_app(store, classic())
    at.pills(key="by").set_value("Dan").run()
    pick(at, "Colonel Mustard", "Rope", "Ballroom")
    warned = ("You hold Rope, so you did not pass: under “Who showed a card”, tap Ann if you "
              "showed it.")
    for refuter in ("Bob", ""):
        at.pills(key="e_refuter").set_value(refuter).run()
        assert warned in [shown(w.value) for w in at.warning], refuter
    at.pills(key="e_refuter").set_value("Ann").run()
    assert not at.warning
    at.pills(key="by").set_value("Bob").run()  # Cat shows before I am asked
    at.pills(key="e_refuter").set_value("Cat").run()
    assert not at.warning


def test_a_forum_no_card_i_could_not_give_is_said_before_record(store: Store) -> None:
    """Bob asks me (Ann) about my own suspect and the form says I had no card."""
    at, deck = bob_asks_ann(store, 0, "no card")
    assert [shown(w.value) for w in at.warning] == [
        f"You hold {deck.suspects[0]}, so you had a card to show: under “Answer”, tap “Ann "
        "showed a card”."]
    at.pills(key="e_answer").set_value("showed a card").run()
    assert not at.warning


def clash_warnings(at: AppTest) -> list[str]:
    """The warnings above Record that say the entry would clash with the log."""
    return [shown(w.value) for w in at.warning if "cannot be true" in w.value]


KNIFE_SHOWN = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob",),
                         refuted_by="Cat", shown="Knife")
"""Cat showed me the Knife."""


def test_nobody_showing_though_someone_holds_one_is_said_before_record(store: Store) -> None:
    """Dan asks about the Knife Cat showed me and the form says nobody showed: nothing was said
    until Record showed the clash (the special warnings cover only my own hand). Now the form
    names the entry it clashes with; Record still records, and the clash shows as before."""
    at, _ = open_app(store, classic(KNIFE_SHOWN))
    at.pills(key="by").set_value("Dan").run()
    pick(at, "Mr. Green", "Knife", "Library")
    at.pills(key="e_refuter").set_value("").run()
    assert clash_warnings(at) == [
        "This entry (#2) cannot be true together with:\n- **#1** Ann: Mrs. White, Knife, Lounge → "
        "Cat showed Knife; Bob passed\n\nCheck the taps. If #1 is the wrong one, record this, "
        "then edit #1."]
    at.pills(key="e_refuter").set_value("Cat").run()
    assert not at.warning  # the taps fixed: it fits
    at.pills(key="e_refuter").set_value("").run()
    submit(at)
    assert events(at)[-1] == Suggestion("Dan", ("Mr. Green", "Knife", "Library"),
                                        passes=("Ann", "Bob", "Cat"))
    assert at.session_state["live"].conflict == (1, 2)
    assert not clash_warnings(at)  # a fresh form


def test_a_card_shown_by_a_player_known_to_hold_none_is_said_before_record(
        store: Store) -> None:
    """Bob passed on Mrs. White, Knife, Lounge in #1; the form has Bob show Cat a card of the
    three (not my business which): the clash is named before Record, and a consistent
    answer says nothing."""
    at, _ = open_app(store, classic(BOB_PASSED))
    at.pills(key="by").set_value("Cat").run()
    pick(at, "Mrs. White", "Knife", "Lounge")
    at.pills(key="e_refuter").set_value("Bob").run()
    [warning] = clash_warnings(at)
    assert warning.startswith("This entry (#2) cannot be true together with:\n- **#1** Dan: "
                              "Mrs. White, Knife, Lounge → Cat showed a card; Ann, Bob passed")
    at.pills(key="e_refuter").set_value("Dan").run()
    assert not at.warning
    at.pills(key="e_refuter").set_value("Bob")
    submit(at)
    assert len(events(at)) == 2 and at.session_state["live"].conflict == (1, 2)


def test_a_forum_answer_against_a_card_shown_is_said_before_record(store: Store) -> None:
    """Bob showed me his weapon in #1; Cat asks Bob about it and the form says no card."""
    log = forum()
    deck = log.game.deck
    first = Suggestion("Ann", (deck.suspects[1], deck.weapons[1], deck.rooms[1]),
                       refuted_by="Bob", shown=deck.weapons[1])
    at, _ = open_app(store, replace(log, events=(first,)))
    at.pills(key="by").set_value("Cat").run()
    pick(at, deck.suspects[2], deck.weapons[1], deck.rooms[2])
    at.pills(key="e_asked").set_value("Bob")
    at.pills(key="e_answer").set_value("no card").run()
    [warning] = clash_warnings(at)
    assert f"\n- **#1** Ann: {deck.suspects[1]}, " in warning, warning
    at.pills(key="e_answer").set_value("showed a card").run()
    assert not at.warning


def test_a_pass_i_could_not_make_is_said_once(store: Store) -> None:
    """The special warning (my own card) says more than the clash check: it alone shows."""
    at, _ = open_app(store, classic())
    at.pills(key="by").set_value("Dan").run()
    pick(at, "Colonel Mustard", "Rope", "Ballroom")
    at.pills(key="e_refuter").set_value("").run()
    assert [shown(w.value) for w in at.warning] == [
        "You hold Rope, so you did not pass: under “Who showed a card”, tap Ann if you "
        "showed it."]


def test_a_reveal_against_the_log_is_said_before_record(store: Store) -> None:
    """Cat's whole hand revealed: one card, against her hand size (the setup); then as many
    cards as she holds, without the Knife she showed me in #1."""
    log = classic(KNIFE_SHOWN)
    at, _ = open_app(store, log)
    at.segmented_control(key="kind").set_value("Reveal").run()
    at.pills(key="r_player").set_value("Cat").run()
    at.pills(key="r_cards").set_value(["Wrench"])
    at.checkbox(key="r_whole").check().run()
    assert clash_warnings(at) == [
        "This entry (#2) cannot be true with the game's setup: check the taps."]
    at.toggle(key="why_clash_ahead").set_value(True).run()
    assert "Event 2 is wrong, or the setup is" in texts(at)  # not "No deal fits the log": it
    assert "No deal fits the log" not in texts(at)  # is not recorded
    others = [c for c in CLASSIC if c not in (*MINE, "Knife")]
    at.pills(key="r_cards").set_value(others[:log.game.capacity("Cat")]).run()
    [warning] = clash_warnings(at)
    assert "\n- **#1** Ann: Mrs. White, Knife, Lounge" in warning


def test_an_edit_into_a_clash_is_said_before_saving(store: Store) -> None:
    """#2 opened for editing and changed to nobody showing, though Cat showed me the Knife in
    #1: said with #1 (not #2, the entry itself), before Save changes; saved, as before."""
    second = Suggestion("Dan", ("Mr. Green", "Knife", "Library"), passes=("Ann", "Bob"),
                        refuted_by="Cat")
    at, _ = open_app(store, classic(KNIFE_SHOWN, second))
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_1").click().run()
    assert not clash_warnings(at)
    at.pills(key="e_refuter").set_value("").run()
    [warning] = clash_warnings(at)
    assert warning.startswith("This entry (#2) cannot be true together with:\n- **#1** Ann:")
    assert "#2" not in warning.split("\n", 1)[1]
    assert warning.endswith("If #1 is the wrong one, save this, then edit #1.")  # (the edit's
    at.toggle(key="why_clash_ahead").set_value(True).run()  # button: Save changes, not Record)
    assert "One of these entries is wrong: without any one of them" in texts(at)
    assert "No deal fits the log" not in texts(at)  # (the edit is not saved yet)
    submit(at)
    assert at.session_state["live"].conflict == (1, 2)


# --- fixing mistakes ---------------------------------------------------------------------------


def test_cancelling_an_edit_goes_back_where_it_was_opened(store: Store) -> None:
    """An entry tapped in the Log and its edit cancelled: back to the Log, as saving goes (it
    stayed on Turn; found in a phone play-through)."""
    first = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob",),
                       refuted_by="Cat", shown="Knife")
    at, game_id = open_app(store, classic(first))
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_0").click().run()
    assert at.session_state["view"] == "Turn"
    at.pills(key="e_refuter").set_value("Dan").run()
    at.button(key="cancel_edit").click().run()
    assert at.session_state["view"] == "Log" and at.session_state["editing"] is None
    assert store.load(game_id).events == (first,)  # type: ignore[union-attr]

def test_edit_an_event(store: Store) -> None:
    first = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob",),
                       refuted_by="Cat", shown="Knife")
    at, game_id = open_app(store, classic(first, Reveal("Dan", ("Wrench",))))
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_0").click().run()
    assert at.session_state["view"] == "Turn"
    assert at.pills(key="e_weapon").value == "Knife"
    assert at.pills(key="e_shown").value == "Knife"
    at.pills(key="e_refuter").set_value("Dan").run()
    at.pills(key="e_shown").set_value("Lounge")
    submit(at)
    edited = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob", "Cat"),
                        refuted_by="Dan", shown="Lounge")
    assert events(at) == (edited, Reveal("Dan", ("Wrench",)))
    assert at.session_state["view"] == "Log"  # back where the entry was opened
    note = store.latest(game_id).note  # type: ignore[union-attr]
    assert told(note).render("en") == "edited event 1" and note.startswith("{")  # as data
    # the Undo button names the entry as Undo brings it back (its new words read as what
    # Undo would restore); the latest entry, another, shows under the tabs
    assert shown(at.button(key="undo").label) == (
        "Undo the edit of #1, back to: Ann: Mrs. White, Knife, Lounge → Cat showed Knife; "
        "Bob passed")
    at.segmented_control(key="view").set_value("Turn").run()  # the Log lists it itself
    assert "Latest: #2 Dan revealed Wrench" in [shown(c.value) for c in at.caption]


def test_edit_a_reveal_keeps_its_kind(store: Store) -> None:
    at, _ = open_app(store, classic(Reveal("Dan", ("Wrench",))))
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_0").click().run()
    assert at.segmented_control(key="kind").value == "Reveal"
    at.pills(key="r_cards").set_value(["Wrench", "Knife"])
    submit(at)
    assert events(at) == (Reveal("Dan", ("Knife", "Wrench")),)  # the deck's order


def test_a_revealed_hand_is_listed_in_the_decks_order(store: Store) -> None:
    """Cards tapped Wrench, Lounge, Mrs. White, Knife were recorded, and listed in the Log, in
    that order; the app lists cards as the deck has them (suspects, weapons, rooms). A hand
    recorded so before, opened to edit, is not said to hold what the form cannot show, and is
    kept as recorded when saved unchanged."""
    at, _ = open_app(store, classic())
    at.segmented_control(key="kind").set_value("Reveal").run()
    at.pills(key="r_player").set_value("Dan")
    at.pills(key="r_cards").set_value(["Wrench", "Lounge", "Mrs. White", "Knife"])
    submit(at)
    assert events(at) == (Reveal("Dan", ("Mrs. White", "Knife", "Wrench", "Lounge")),)
    at.segmented_control(key="view").set_value("Log").run()
    assert shown(at.button(key="edit_0").label) == (
        "**#1** Dan revealed Mrs. White, Knife, Wrench, Lounge")
    tapped = Reveal("Dan", ("Wrench", "Knife"))
    at, _ = open_app(store, classic(tapped))
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_0").click().run()
    assert "The form cannot show all of this entry" not in texts(at)
    at.checkbox(key="r_whole").check()
    submit(at)
    assert events(at) == (replace(tapped, whole_hand=True),)


def test_editing_an_event_silently_changes_it(store: Store) -> None:
    """Editing only the room of a suggestion whose recorded passes do not follow the seating
    (Cat was not asked) and which carries a field this version does not know: the form rebuilt
    the event, dropping the field and replacing the passes. Now only the room changes, and the
    form says what it cannot show."""
    recorded = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob",),
                          refuted_by="Dan", shown="Knife", extra={"note": "Cat was away"})
    at, game_id = open_app(store, classic(recorded))
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_0").click().run()
    assert "The form cannot show all of this entry" in texts(at)
    assert "passes: Bob" in texts(at) and "note: Cat was away" in texts(at)
    at.pills(key="e_room").set_value("Hall")
    submit(at)
    saved = store.load(game_id).events  # type: ignore[union-attr]
    assert saved == (replace(recorded, cards=("Mrs. White", "Knife", "Hall")),)
    assert saved[0].extra == {"note": "Cat was away"}  # type: ignore[union-attr]
    assert '"note": "Cat was away"' in dumps(store.load(game_id))  # type: ignore[arg-type]


def test_editing_a_reveal_of_my_own_cards_keeps_the_player(store: Store) -> None:
    """A Reveal of the user's own cards (Ann is me) used to be switched to another player when
    edited, since the form offers only the others."""
    at, game_id = open_app(store, classic(Reveal("Ann", ("Rope",))))
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_0").click().run()
    assert at.pills(key="r_player").value == "Ann"
    at.checkbox(key="r_whole").check()
    submit(at)
    assert store.load(game_id).events == (  # type: ignore[union-attr]
        Reveal("Ann", ("Rope",), whole_hand=True),
    )


def test_bug_inputs_the_app_fills_in_start_there_as_their_own_default(store: Store) -> None:
    """A browser that draws an input late (its code still loading on a busy phone) shows the
    input's own default and sends it back (the set-up screen's hand sizes went to 0 that way):
    an edited Reveal's whole-hand box, an edited note's remark and the Review slider must have
    the value they were given as that default, or saving would change them."""
    note = Note("Bob", holds=("Knife",), text="saw it by accident")
    log = classic(Reveal("Dan", ("Wrench",), whole_hand=True), note)
    at, _ = open_app(store, log)
    at.segmented_control(key="view").set_value("Review").run()
    assert at.slider(key="review_step").value == 2
    assert list(at.slider(key="review_step").proto.default) == [2]
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_0").click().run()
    assert at.checkbox(key="r_whole").value is True
    assert at.checkbox(key="r_whole").proto.default is True
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_1").click().run()
    assert at.text_input(key="n_text").value == "saw it by accident"
    assert at.text_input(key="n_text").proto.default == "saw it by accident"


def test_delete_and_undo(store: Store) -> None:
    one = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob")
    two = Reveal("Dan", ("Wrench",))
    at, game_id = open_app(store, classic(one, two))
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_0").click().run()  # the entry opens on the Turn screen
    at.button(key="delete_entry").click().run()
    assert events(at) == (two,)
    assert at.session_state["editing"] is None
    assert store.load(game_id).events == (two,)  # type: ignore[union-attr]
    assert shown(at.button(key="undo").label) == "Undo: deleted event 1"
    at.button(key="undo").click().run()
    assert events(at) == (one, two)
    assert store.load(game_id).events == (one, two)  # type: ignore[union-attr]
    assert at.button(key="undo").disabled  # back at the start: nothing more to undo


def test_undo_of_the_latest_entry_puts_it_back_in_the_form(store: Store) -> None:
    """A slip (the wrong player tapped as the one who showed), recorded, then undone: the form
    came back empty, and a phone play-through tapped the whole turn again (5-6 taps) to fix one
    chip. Now it holds the undone entry, as before Record: one tap fixes it, one records it."""
    one = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob")
    at, _ = open_app(store, classic(one))
    pick(at, "Mr. Green", "Rope", "Library")
    at.pills(key="e_refuter").set_value("Dan")  # a slip: Cat showed
    submit(at)
    assert events(at)[-1] == Suggestion("Bob", ("Mr. Green", "Rope", "Library"),
                                        passes=("Cat",), refuted_by="Dan")
    at.button(key="undo").click().run()
    assert events(at) == (one,)
    assert at.segmented_control(key="kind").value == "Suggestion"
    assert at.pills(key="by").value == "Bob"
    assert [at.pills(key=k).value for k in ("e_suspect", "e_weapon", "e_room", "e_refuter")] == [
        "Mr. Green", "Rope", "Library", "Dan"]
    assert at.session_state["editing"] is None  # a new entry again, not an edit
    at.pills(key="e_refuter").set_value("Cat")
    submit(at)
    assert events(at) == (one, Suggestion("Bob", ("Mr. Green", "Rope", "Library"),
                                          refuted_by="Cat"))


def test_undo_of_a_question_to_one_player_puts_it_back_in_the_form(store: Store) -> None:
    at, triple = asked_in_forum(store, "Cat", "no card")
    submit(at)
    at.button(key="undo").click().run()
    assert events(at) == ()
    assert at.segmented_control(key="kind").value == "Asked one"
    assert [at.pills(key=k).value for k in ("by", "e_suspect", "e_weapon", "e_room", "e_asked",
                                           "e_answer")] == ["Ann", *triple, "Cat", "no card"]


def test_log_names_who_passed_one_line_per_entry(store: Store) -> None:
    """The log said "3 passed" and took a card with two buttons per entry."""
    nobody = Suggestion("Bob", ("Mrs. White", "Knife", "Lounge"), passes=("Cat", "Dan", "Ann"))
    at, _ = open_app(store, classic(nobody, Reveal("Dan", ("Wrench",))))
    at.segmented_control(key="view").set_value("Log").run()
    lines = [shown(b.label).replace("**", "") for b in at.button if b.key.startswith("edit_")]
    assert lines == ["#2 Dan revealed Wrench",
                     "#1 Bob: Mrs. White, Knife, Lounge → nobody showed; Cat, Dan, Ann passed"]


def test_undo_can_delete_another_tabs_entry(store: Store) -> None:
    """This tab shows the game after event 1; another device records event 2; undo here must
    not delete event 2 (Streamlit runs the button's callback before the page reloads the game):
    the game is reloaded with a message and nothing is undone."""
    one = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob")
    at, game_id = open_app(store, classic())
    store.save(game_id, classic(one), "recorded event 1")
    at.run()  # this tab now shows event 1
    assert events(at) == (one,)
    two = Reveal("Dan", ("Wrench",))
    store.save(game_id, classic(one, two), "recorded event 2")  # another device
    at.button(key="undo").click().run()
    assert not at.exception, at.exception
    assert store.load(game_id).events == (one, two)  # type: ignore[union-attr]
    assert events(at) == (one, two)
    assert "The game changed on another screen; reloaded" in texts(at)
    assert shown(at.button(key="undo").label) == "Undo #2: Dan revealed Wrench"


def test_saving_from_a_stale_tab_drops_another_devices_events(store: Store) -> None:
    """This tab shows event 1; another device records event 2; recording here used to save the
    tab's outdated log plus the new entry, dropping event 2. Now nothing is saved over it: the
    game reloads with a message, the form keeps what was typed, and saving again adds it."""
    one = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob")
    two = Reveal("Dan", ("Wrench",))
    at, game_id = open_app(store, classic(one))
    store.save(game_id, classic(one, two), "recorded event 2")  # another device
    at.pills(key="by").set_value("Bob")
    pick(at, "Mr. Green", "Rope", "Library")
    at.pills(key="e_refuter").set_value("Cat")
    submit(at)
    assert store.load(game_id).events == (one, two)  # type: ignore[union-attr]
    assert events(at) == (one, two)
    assert ("The game changed on another screen; reloaded. Your entry was not saved: check the "
            "game and try again. Recorded on another screen: #2 Dan revealed Wrench") in texts(
        at)  # which entry came in is said (only "reloaded" was; this screen adopts it, so the
    # status line's "Recorded on another screen" never said it either)
    assert "recorded event 2" not in texts(at)  # #2 is the other device's entry, recorded
    assert at.pills(key="e_weapon").value == "Rope"
    assert at.pills(key="e_refuter").value == "Cat"
    submit(at)
    three = Suggestion("Bob", ("Mr. Green", "Rope", "Library"), refuted_by="Cat")
    assert store.load(game_id).events == (one, two, three)  # type: ignore[union-attr]


def test_the_same_entry_from_two_phones_is_recorded_once(store: Store) -> None:
    """Two phones at one table enter the same turn; the second Record found the first saved
    and kept its form, for the player to record the turn twice. It is said to be recorded
    already, and the form starts afresh."""
    one = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob")
    two = Suggestion("Bob", ("Mr. Green", "Rope", "Library"), refuted_by="Cat")
    at, game_id = open_app(store, classic(one))
    store.save(game_id, classic(one, two), "recorded event 2")  # the other phone
    at.pills(key="by").set_value("Bob")
    pick(at, "Mr. Green", "Rope", "Library")
    at.pills(key="e_refuter").set_value("Cat")
    submit(at)
    assert store.load(game_id).events == (one, two)  # type: ignore[union-attr]
    assert ("Already recorded on another screen: #2 Bob: Mr. Green, Rope, Library → Cat "
            "showed a card. Not recorded twice.") in texts(at)
    assert "Your entry was not saved" not in texts(at)
    assert at.pills(key="e_weapon").value is None and at.pills(key="by").value == "Cat"
    seen = Suggestion("Cat", ("Miss Scarlet", "Rope", "Library"), passes=("Dan",),
                      refuted_by="Ann", shown="Rope")  # which of two, said on one phone only
    store.save(game_id, classic(one, two, seen), "recorded event 3")
    pick(at, "Miss Scarlet", "Rope", "Library")
    at.pills(key="e_refuter").set_value("Ann")
    submit(at)
    assert store.load(game_id).events == (one, two, seen)  # type: ignore[union-attr]
    assert "Already recorded on another screen: #3 " in texts(at)


def test_saving_from_a_stale_tab_keeps_editing_the_same_event(store: Store) -> None:
    """Editing event 2 while another device deletes event 1: the edit follows its event (now
    #1) instead of overwriting whatever sits at the old place; if the other device deleted the
    edited event itself, the form is kept and the app says so."""
    one = Reveal("Dan", ("Wrench",))
    two = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob")
    three = Reveal("Cat", ("Rope",))
    at, game_id = open_app(store, classic(one, two, three))
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_1").click().run()
    store.save(game_id, classic(two, three), "deleted event 1")  # another device
    pick(at, "Mrs. White", "Knife", "Hall")
    submit(at)
    assert "The game changed on another screen; reloaded" in texts(at)
    assert at.session_state["editing"] == 0
    submit(at)
    edited = replace(two, cards=("Mrs. White", "Knife", "Hall"))
    assert store.load(game_id).events == (edited, three)  # type: ignore[union-attr]

    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_1").click().run()
    store.save(game_id, classic(edited), "deleted event 2")  # another device
    at.run()
    assert at.session_state["editing"] is None
    assert "The entry you were editing was changed on another screen" in texts(at)
    assert store.load(game_id).events == (edited,)  # type: ignore[union-attr]


def test_contradiction_banner_names_entries_and_offers_edits(store: Store) -> None:
    log = classic(
        Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob", shown="Knife"),
        Suggestion("Cat", ("Mrs. White", "Knife", "Lounge"), passes=("Dan", "Ann", "Bob")),
    )
    at, _ = open_app(store, log)
    banner = "\n".join(shown(e.value) for e in at.error)
    assert "cannot all be true" in banner and "#1" in banner and "#2" in banner
    assert "The grid and the envelope leave out #2" in texts(at)
    assert "Not yet: at most" in texts(at)  # the exact count is 0 in a clash
    at.toggle(key="why_conflict").set_value(True).run()
    assert "No deal fits the log" in texts(at)
    # the grid still shows, and recording goes on
    at.segmented_control(key="view").set_value("Grid").run()
    assert at.dataframe
    at.button(key="conflict_edit_2").click().run()
    assert at.session_state["editing"] == 1
    at.pills(key="e_refuter").set_value("Bob")
    submit(at)
    assert not at.session_state["live"].conflict
    assert at.session_state["view"] == "Grid"  # the edit was opened from the Grid's banner
    assert "cannot all be true" not in texts(at)


def test_the_logs_clash_mark_is_said_without_a_hover(store: Store) -> None:
    """The Log marks the entries of a clash with ⚠, whose meaning was a tooltip only: a finger
    has no hover, and its tap on the entry opens it for editing. The Log
    says it in a line above the entries; nothing of the kind without a clash."""
    legend = "⚠ In conflict with other entries"
    at, _ = open_app(store, classic(
        Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob", shown="Knife"),
        Suggestion("Bob", ("Mr. Green", "Rope", "Hall"), refuted_by="Cat"),
        Suggestion("Cat", ("Mrs. White", "Knife", "Lounge"), passes=("Dan", "Ann", "Bob"))))
    at.segmented_control(key="view").set_value("Log").run()
    assert legend in [c.value for c in at.caption]
    assert [b.label.startswith("⚠") for b in at.button if str(b.key).startswith("edit_")] == [
        True, False, True]  # newest first
    at, _ = open_app(store, classic(KNIFE_SHOWN))
    at.segmented_control(key="view").set_value("Log").run()
    assert legend not in [c.value for c in at.caption]


def test_an_entry_against_my_own_hand_is_not_called_entries(store: Store) -> None:
    """One entry that clashes with the setup (I pass on my own Rope): the banner said "These
    entries cannot all be true. One of them is wrong:" over that one entry, and its why "events
    1 cannot all be true", "without any one of them" (found in a phone play-through)."""
    log = classic(Suggestion("Bob", ("Colonel Mustard", "Rope", "Ballroom"),
                             passes=("Cat", "Dan", "Ann")))
    at, _ = open_app(store, log)
    banner = "\n".join(shown(e.value) for e in at.error)
    assert banner.startswith("This entry cannot be true with the game's setup. It is wrong, or "
                             "the setup is:\n- **#1** Bob: Colonel Mustard"), banner
    assert at.toggle(key="why_conflict").label == "Why does it clash?"  # not "they" (Russian
    at.toggle(key="why_conflict").set_value(True).run()  # play-through)
    why = texts(at)
    assert "No deal fits the log: event 1 cannot be true with the game's setup. Why:" in why
    assert "You hold Rope (your own hand)." in why
    assert "Event 1 is wrong, or the setup is: without it the clash is gone." in why
    assert "cannot all be" not in why and "any one of them" not in why  # nor the clash step
    assert "this entry cannot be right with the game's setup." in why

def header_lines(at: AppTest) -> list[str]:
    """The header's verdict or game-over line and its envelope line, as the user reads them."""
    lines = [shown(s.value) for s in at.success] + [shown(i.value) for i in at.info]
    lines += [shown(w.value) for w in at.warning]
    return lines + [shown(c.value) for c in at.caption if c.value.startswith("Envelope · ")]


def six_players_with_3_edited() -> GameLog:
    """The six-player example with #3 edited into a clash: Emma showed Wrench, not Colonel
    Mustard (found in a phone play-through, in Japanese)."""
    log = load(Path(APP).parent.parent / "examples" / "classic-six-players.json")
    edited = replace(cast(Suggestion, log.events[2]), shown="Wrench")
    return GameLog(log.game, (*log.events[:2], edited, *log.events[3:]))


def test_a_clash_sets_the_game_over_line_aside_with_the_envelope(store: Store) -> None:
    """A clash whose latest revision did not write one of its entries (here the game saved
    so; an entry recorded after an edit, alike) leaves out the latest entry of each minimal
    conflict: #27, #28, … #70 of the six-player example with #3 edited, the correct accusation
    among them. The header still said "You accused correctly: the game is over." over
    "Envelope · Suspect: Mrs. Peacock", not Professor Plum whom the accusation named. The
    header now speaks from the entries the grid keeps, and does not call an accusation safe
    from them."""
    at, _ = open_app(store, six_players_with_3_edited())
    assert at.session_state["live"].grid()[1] == (27, 28, 40, 41, 56, 58, 60, 69, 70)
    assert header_lines(at) == [  # nor "Accusation is safe": one of the clash's entries is wrong
        "Not safe to accuse until the clash below is fixed.",
        "Envelope · Suspect: Mrs. Peacock · Weapon: Revolver · Room: Billiard Room"]
    assert ("The grid and the envelope leave out #27, #28, #40, #41, #56, #58, #60, #69, #70 "
            "until this is fixed.") in texts(at)
    at.button(key="conflict_edit_3").click().run()  # fixed: the game is over again
    at.pills(key="e_shown").set_value("Colonel Mustard")
    submit(at)
    assert header_lines(at)[0] == "You accused correctly: the game is over."


def third_edited_into_a_clash(store: Store) -> tuple[AppTest, str]:
    """The six-player example open, its #3 edited through the Log into a clash (Emma showed
    Wrench, not Colonel Mustard): the app and the game's id."""
    log = load(Path(APP).parent.parent / "examples" / "classic-six-players.json")
    at, game_id = open_app(store, log)
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_2").click().run()
    at.pills(key="e_shown").set_value("Wrench")
    submit(at)
    return at, game_id


def test_an_entry_edited_into_a_clash_is_the_one_left_out(store: Store) -> None:
    """The six-player example's #3 edited into a clash (Emma showed Wrench, not Colonel
    Mustard): the grid left out the latest entry of each minimal conflict, #27, #28, … #70,
    nine correct entries and the game's end with them, and kept the entry just edited, the
    likely mistake. It now leaves out #3 alone, on this screen and on any that opens the game
    after (the revision's note says which entry it edited); Undo takes the clash away."""
    at, game_id = third_edited_into_a_clash(store)
    grid, ignored = at.session_state["live"].grid()
    assert ignored == (3,)
    assert grid == at.session_state["live"].notebook.grid(without=(3,))  # the rest fits
    lines = ["You accused correctly: the game is over.",
             "Envelope · Suspect: Professor Plum · Weapon: Revolver · Room: Billiard Room"]
    assert header_lines(at) == lines
    assert "The grid and the envelope leave out #3 until this is fixed." in texts(at)
    other = AppTest.from_file(APP, default_timeout=60)  # another screen, or a reload
    other.session_state["shelf"] = "test-shelf"
    other.session_state["game_id"] = game_id
    other.run()
    assert not other.exception, other.exception
    assert other.session_state["live"].grid()[1] == (3,) and header_lines(other) == lines
    at.button(key="undo").click().run()
    assert at.session_state["live"].grid()[1] == () and header_lines(at) == lines


def test_the_turn_tab_reads_the_entries_the_header_reads_past_a_clash(store: Store) -> None:
    """With a clash open the header speaks from the entries the grid keeps, and the Turn tab
    read the whole log: over the six-player example with #3 edited (#27 … #70 left out, the
    correct accusation #70 among them) the header said 'Not safe to accuse until the clash
    below is fixed.' and the Turn tab 'The game is over: record here the cards players show
    now', its form on Reveal; my wrong accusation left out of the grid (the envelope noted
    before it) had the form warn that I was out of the game, the header not. The Turn tab now
    reads the entries the header reads."""
    at, _ = open_app(store, six_players_with_3_edited())
    assert header_lines(at)[0] == "Not safe to accuse until the clash below is fixed."
    assert "The game is over" not in texts(at)
    assert at.segmented_control(key="kind").value == "Suggestion"
    accused = ("Mrs. White", "Knife", "Lounge")
    at, _ = open_app(store, classic(Note(ENVELOPE, holds=accused),  # type: ignore[arg-type]
                                    Accusation("Ann", accused, correct=False)))
    assert at.session_state["live"].grid()[1] == (2,)
    assert not any("accused wrongly" in line for line in header_lines(at))
    at.pills(key="by").set_value("Ann").run()
    assert "accused wrongly" not in texts(at)
    at.segmented_control(key="kind").set_value("Accusation").run()
    assert at.pills(key="by").value == "Ann" and "accused wrongly" not in texts(at)


def test_the_entry_edited_into_a_clash_stays_left_out_after_the_next_entry(
        store: Store) -> None:
    """Only the latest revision's note counted: after #3 of the six-player example was edited
    into a clash (left out), one more entry recorded made the note 'recorded event 71', and
    the grid left out #27, #28, … #70 again, the game's end with them. The entry last changed
    in a conflict stays the one left out until the clash is fixed: on this screen, one that
    follows the game and one that opens it after."""
    at, game_id = third_edited_into_a_clash(store)
    assert at.session_state["live"].grid()[1] == (3,)
    at.segmented_control(key="view").set_value("Turn").run()
    at.segmented_control(key="kind").set_value("Reveal").run()
    at.pills(key="r_player").set_value("Anna").run()
    at.pills(key="r_cards").set_value(["Kitchen"])
    submit(at)
    assert len(events(at)) == 71
    assert at.session_state["live"].grid()[1] == (3,)
    seen = store.latest(game_id)
    assert seen is not None
    store.save(game_id, seen.log.append(Reveal("Ben", ("Mr. Green",))), recorded(72))  # elsewhere
    at.run()
    assert len(events(at)) == 72 and at.session_state["live"].grid()[1] == (3,)
    other = AppTest.from_file(APP, default_timeout=60)  # another screen, or a reload
    other.session_state["shelf"] = "test-shelf"
    other.session_state["game_id"] = game_id
    other.run()
    assert not other.exception, other.exception
    assert other.session_state["live"].grid()[1] == (3,)
    assert header_lines(other)[0] == "You accused correctly: the game is over."


def test_a_clash_after_the_game_keeps_the_game_over_line(store: Store) -> None:
    """A clash that leaves out only an entry after the correct accusation: the game is still
    over, in the entries the grid keeps, and the header says so."""
    log = load(Path(APP).parent.parent / "examples" / "classic-six-players.json")
    shown_after = Suggestion("Anna", ("Professor Plum", "Revolver", "Hall"), passes=("Ben",),
                             refuted_by="Chloe", shown="Revolver")  # I do not hold Revolver
    at, _ = open_app(store, GameLog(log.game, (*log.events, shown_after)))
    assert at.session_state["live"].grid()[1] == (71,)
    assert header_lines(at) == [
        "You accused correctly: the game is over.",
        "Envelope · Suspect: Professor Plum · Weapon: Revolver · Room: Billiard Room"]


# --- grid, explanations, review ----------------------------------------------------------------


def test_grid_and_cell_explanation(store: Store) -> None:
    log = classic(Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob",),
                             refuted_by="Cat", shown="Knife"))
    at, _ = open_app(store, log)
    at.segmented_control(key="view").set_value("Grid").run()
    table = at.dataframe[0].value
    assert table.loc["Knife", "Cat"] == "✓" and table.loc["Knife", "Bob"] == "✗"
    at.session_state["explain_cell"] = ("Knife", "Cat", None)  # as a tap on the cell sets it
    at.run()
    assert "Cat holds Knife: yes." in texts(at) and "event 1" in texts(at)
    at.run()  # open until it is closed: a run that draws the page again draws it again
    assert "Cat holds Knife: yes." in texts(at)



def test_the_grid_legend_says_what_a_face_up_row_shows(store: Store) -> None:
    """A Refresh game's face-up cards fill their rows with ▲, which the legend left unsaid
    (found in a 4-player phone play-through); a game without them says nothing of it."""
    game = new_game(CLASSIC, NAMES, Dealing.REFRESH, me="Ann", my_cards=MINE[:4],
                    face_up=("Wrench", "Ballroom"))
    at, _ = open_app(store, GameLog(game))
    counted(at.segmented_control(key="view").set_value("Grid").run())
    assert at.dataframe[0].value.loc["Wrench", "Bob"] == "▲"
    key = "▲ face up: nobody holds it."
    assert key in texts(at)
    at.toggle(key="show_odds").set_value(False).run()
    assert key in texts(at)
    plain_game, _ = open_app(store, classic())
    counted(plain_game.segmented_control(key="view").set_value("Grid").run())
    assert "▲" not in texts(plain_game)

def counted(at: AppTest) -> AppTest:
    """The app run again once the odds of its log are counted (a run that finds them still
    counting draws the grid without them, and the count goes on beside it)."""
    at.session_state["live"].odds()  # waits for the count
    return at.run()


def test_grid_shows_odds_when_the_engine_has_them(store: Store) -> None:
    log = classic(Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob",),
                             refuted_by="Cat", shown="Knife"))
    at, _ = open_app(store, log)
    counted(at.segmented_control(key="view").set_value("Grid").run())
    table = at.dataframe[0].value
    assert table.loc["Mrs. White", "Dan"].endswith("%")
    assert table.loc["Knife", "Cat"] == "✓"
    said = [line for line in texts(at).splitlines() if line.startswith("Likeliest")]
    assert len(said) == 1 and "%" in said[0], texts(at)  # the likeliest envelopes, in words
    at.toggle(key="show_odds").set_value(False).run()
    assert at.dataframe[0].value.loc["Mrs. White", "Dan"] == "?"
    at.segmented_control(key="view").set_value("Log").run()  # the toggle is not drawn there
    at.segmented_control(key="view").set_value("Grid").run()
    assert at.toggle(key="show_odds").value is False  # the choice outlasts a look elsewhere
    assert at.dataframe[0].value.loc["Mrs. White", "Dan"] == "?"
    at.toggle(key="show_odds").set_value(True).run()
    assert at.dataframe[0].value.loc["Mrs. White", "Dan"].endswith("%")


class SlowCount:
    """Stands in for the count of the odds (`CellOdds.of`): each count waits until the test lets
    it finish (`finish`), so what a run shows while a count runs does not depend on the
    machine's speed. Every count's log is kept, in order."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from notebook_app.odds_count import CellOdds

        self.real = CellOdds.of
        self.logs: list[GameLog] = []
        self.go: list[threading.Event] = []
        self.fake: dict[int, object] = {}
        monkeypatch.setattr(CellOdds, "of", self.count)
        monkeypatch.setattr("notebook_app.screens.grid.ODDS_WAIT", 0)

    def count(self, log: GameLog, grid: object) -> object:
        self.logs.append(log)
        go = threading.Event()
        self.go.append(go)
        n = len(self.go) - 1
        assert go.wait(30), "the test did not let the count finish"
        return self.fake.get(n) or self.real(log, grid)  # type: ignore[arg-type]

    def finish(self, n: int, fake: object = None) -> None:
        """Let count ``n`` (from 0) finish, with ``fake`` odds instead of the real ones."""
        deadline = time.monotonic() + 30
        while len(self.go) <= n:  # the count's thread has not reached it yet
            assert time.monotonic() < deadline, f"count {n} never started"
            time.sleep(0.01)
        if fake is not None:
            self.fake[n] = fake
        self.go[n].set()


def odds_shown(at: AppTest) -> bool:
    table = at.dataframe[0].value
    return any(str(v).endswith("%") for v in table.to_numpy().ravel())


def test_the_grid_shows_the_deductions_while_the_odds_are_counted(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A count that takes long (seconds on big decks) never holds up the grid: a run draws the
    deductions and says the odds are being counted; another tab can be opened meanwhile; once
    counted, the next run shows the odds (a fragment polls for them in the browser)."""
    slow = SlowCount(monkeypatch)
    at, _ = open_app(store, classic(Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"),
                                               passes=("Bob",), refuted_by="Cat", shown="Knife")))
    at.segmented_control(key="view").set_value("Grid").run()
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    assert table.loc["Knife", "Cat"] == "✓" and table.loc["Mrs. White", "Dan"] == "?"
    assert "Counting the odds…" in texts(at) and "Likeliest" not in texts(at)
    at.segmented_control(key="view").set_value("Log").run()  # another tab, the count goes on
    assert not at.exception and at.button(key="edit_0")
    at.segmented_control(key="view").set_value("Grid").run()
    assert "Counting the odds…" in texts(at)
    at.session_state["explain_cell"] = ("Knife", "Cat", None)  # as a tap on the cell sets it
    at.run()  # the deductions can be explained meanwhile; the odds wait for the dialog to close
    assert "Cat holds Knife: yes." in texts(at) and at.session_state["explaining"]
    slow.finish(0)
    counted(at)
    assert odds_shown(at) and "Counting the odds…" not in texts(at)
    assert any(line.startswith("Likeliest") for line in texts(at).splitlines())
    assert len(slow.logs) == 1  # counted once for this log state, however many runs showed it


def test_a_count_for_an_earlier_log_is_never_shown(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Recording an event while the odds are counted starts a count for the new log; the one
    for the old log, even when it finishes later, never shows."""
    from notebook_app.odds_count import CellOdds

    slow = SlowCount(monkeypatch)
    at, _ = open_app(store, classic())
    at.segmented_control(key="view").set_value("Grid").run()
    assert "Counting the odds…" in texts(at)
    at.segmented_control(key="view").set_value("Turn").run()
    pick(at, "Mrs. White", "Knife", "Lounge")
    at.pills(key="e_refuter").set_value("").run()  # nobody showed
    submit(at)
    assert len(events(at)) == 1
    wrong = CellOdds({c: {"Dan": 0.42} for c in CLASSIC}, True,
                     (("Mrs. White", "Knife", "Lounge", 0.42),
                      ("Miss Scarlet", "Knife", "Lounge", 0.58)))
    slow.finish(0, fake=wrong)  # the old log's count ends only now
    slow.finish(1)
    assert [len(log.events) for log in slow.logs] == [0, 1]
    at.segmented_control(key="view").set_value("Grid").run()
    counted(at)
    table = at.dataframe[0].value
    assert "42%" not in table.to_numpy().ravel() and "42%" not in texts(at)
    assert table.loc["Mrs. White", "Env"] == "✓"  # nobody showed: the envelope, certain
    assert odds_shown(at)


def test_a_count_nobody_wants_stops() -> None:
    """A count whose log state is gone stops at its next unit of work."""
    from notebook_app.odds_count import OddsCount
    from solver.limits import checkpoint

    def endless(log: GameLog, grid: object) -> None:
        while True:
            checkpoint()
            time.sleep(0.001)

    log = classic()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("notebook_app.odds_count.CellOdds.of", endless)
        from notebook_app.live import work_unwanted
        patch.setattr("solver.limits._stop_asked", work_unwanted)  # the app's checkpoint

        count = OddsCount(log, grid_of(log))
        assert not count.done()
        count.cancel()
        assert count.done(30) and count.stopped


def test_work_done_in_the_run_where_no_thread_starts_gives_way_to_others_and_stops_with_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no thread may start (a server at its limits), `Beside` works in the script run
    itself, which holds the `LiveGame` meanwhile: it gives way to other runs drawing, not to
    its own (it waited half a second at every unit of work), and a tap that stops the run
    stops it too (the next run waited for the whole count)."""
    from types import SimpleNamespace

    from notebook_app import live, odds_count
    from solver import limits

    class NoThread(threading.Thread):
        def start(self) -> None:
            raise RuntimeError("can't start new thread")

    monkeypatch.setattr(odds_count, "threading", SimpleNamespace(Thread=NoThread,
                                                                 Event=threading.Event))
    monkeypatch.setattr(limits, "_stop_asked", live.work_unwanted)  # the app's checkpoint
    with odds_count.drawing():
        drawn_meanwhile = odds_count.Beside(lambda: odds_count._drawing)
        monkeypatch.setattr(live, "session_ended", lambda: True)  # a tap asked for the next run
        stopped = odds_count.Beside(limits.checkpoint)
    assert drawn_meanwhile.result() == 0
    assert stopped.done() and stopped.stopped


def test_work_the_player_waits_on_goes_ahead_of_the_rest_beside_the_runs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """"Suggest for me"'s advisor, once made in the run, is made beside it (``ahead``): the
    race line and the odds give way to it as they gave way to that run (without it, at a
    12-player table it was made 3.6-4.4 s after Record, behind the race line, where the run had
    shown it after 1.1-1.5 s), and it gives way to nothing, not even a run drawing."""
    from notebook_app import live, odds_count
    from solver import limits

    monkeypatch.setattr(limits, "_stop_asked", live.work_unwanted)  # the app's checkpoint
    assert odds_count.Beside(lambda: odds_count._drawing, ahead=True).result() == 1
    assert odds_count.Beside(lambda: odds_count._drawing).result() == 0
    with odds_count.drawing():  # a run draws all along
        start = time.monotonic()
        ahead = odds_count.Beside(lambda: [limits.checkpoint() for _ in range(10)], ahead=True)
        ahead.result()
        took = time.monotonic() - start
    assert not ahead.stopped and took < odds_count.GIVE_WAY_MOST, took


def timer_tick(at: AppTest, states: Any) -> None:
    """What the browser sends when the timer of the fragment on the screen fires
    (``st.fragment(run_every=...)``: the race line's note): a run of that fragment alone, with
    every widget's value as the browser holds it at that moment (``states``). AppTest sends no
    such request; this sends Streamlit's own (1.67) through AppTest's runner."""
    from unittest.mock import patch

    from streamlit.testing.v1 import local_script_runner

    fragments = list(at._fragment_storage._fragments)  # the note's fragment, the only one
    assert len(fragments) == 1, fragments
    tick = partial(local_script_runner.RerunData, fragment_id=fragments[0], is_auto_rerun=True)
    with patch.object(local_script_runner, "RerunData", tick):
        at._run(widget_state=states)
    assert not at.exception, at.exception


def test_the_race_line_is_weighed_beside_the_runs(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The race line takes seconds at a 12-player table: the screen is drawn without it (a note
    in its place), a turn can be recorded meanwhile, and a line weighed for an earlier log
    never shows; each log state's line is weighed once. Once weighed, the note's timer has the
    page drawn again, with a fresh form even when the browser sent the turn just recorded with
    it (its timer fired before it had drawn the run after Record: a CI run under load, turn 18
    of test_twenty_turns_within_the_tap_budget, showed the previous turn's suspect)."""
    from notebook_app.screens import play
    from solver.i18n import say

    real = play.weigh
    weighed: list[GameLog] = []
    go: list[threading.Event] = []

    def slow(log: GameLog, watching: bool, grid: object = None, *rest: object) -> object:
        weighed.append(log)
        go.append(threading.Event())
        assert go[-1].wait(30), "the test did not let the race finish"
        if len(log.events) == 0:
            return say("{player} may already know: {chance}", player="Dan", chance="42%"), None
        return real(log, watching, grid, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(play, "weigh", slow)
    monkeypatch.setattr(play, "RACE_WAIT", 0)
    at, _ = open_app(store, classic())
    assert "Weighing who may already know…" in texts(at)
    assert at.button(key="submit")  # the Turn screen is there to record a turn
    pick(at, "Mrs. White", "Knife", "Lounge")
    at.pills(key="e_refuter").set_value("Cat").run()
    at.pills(key="e_shown").set_value("Knife")
    before_record = at._tree.get_widget_states()  # what the browser holds until it redraws
    submit(at)
    assert len(events(at)) == 1
    go[0].set()  # the line for the empty log is ready only now
    at.run()
    assert "Dan may already know: 42%" not in texts(at)
    assert "Weighing who may already know…" in texts(at)
    deadline = time.monotonic() + 30
    while len(go) < 2:
        assert time.monotonic() < deadline, "the race of the new log never started"
        time.sleep(0.01)
    go[1].set()
    assert at.session_state["race_job"][1].done(30)
    timer_tick(at, before_record)
    assert "Weighing who may already know…" not in texts(at)
    assert at.pills(key="by").value == "Bob"
    assert [at.pills(key=k).value for k in ("e_suspect", "e_weapon", "e_refuter")] == [None] * 3
    assert "if players seldom bluff" in texts(at)  # the line of the log shown: wait or accuse
    assert "42%" not in texts(at)
    assert [len(log.events) for log in weighed] == [0, 1]


def test_the_race_and_accuse_or_wait_beside_the_verdict(store: Store) -> None:
    deck = Deck(("Plum", "Green"), ("Rope", "Knife"), ("Hall", "Study"))
    game = new_game(deck, ("Ann", "Bob"), Dealing.CLASSIC, me="Ann", my_cards=("Green", "Knife"))
    # Bob has seen both my cards: with his own, he can name the envelope; I cannot (the room)
    log = GameLog(game, (
        Suggestion("Bob", ("Green", "Rope", "Hall"), refuted_by="Ann", shown="Green"),
        Suggestion("Bob", ("Plum", "Knife", "Study"), refuted_by="Ann", shown="Knife"),
    ))
    at, _ = open_app(store, log)
    line = next(shown(c.value) for c in at.caption if "already know" in shown(c.value))
    # Bob could name it at the end of his last turn yet did not accuse: the race cannot assume
    # players accuse when certain, and says so; my turn, my question still to come: ask first
    # (the answer to my question settles it in every deal, `settles_surely`; Bob can name it
    # in every deal, whatever the draw, `knows_surely`: it said "Bob may already know: >99%")
    # (Hall and Study are alike, 50% each: the line names neither, `Verdict.even`)
    assert line == ("Suggest first, then decide: no envelope is likelier than the others yet\n"
                    # a statement a line (dense in one line at 390 px)
                    "The answer settles the envelope in 100%\n"
                    "Bob already knows the envelope (every deal "
                    "drawn has a player who could have named the envelope on their last turn "
                    "without accusing: is an accusation missing from the log?)")
    why = next(c.help for c in at.caption if "already know" in shown(c.value))
    assert why.endswith("whether your likeliest envelope is worth the risk before they do.")


def test_a_forum_games_race_line_asks_whom_suggest_for_me_names(store: Store) -> None:
    """In a forum game my next question goes to one player, on whose answer "then you know it"
    is figured. The race line named the player likeliest to hold a card of the envelope I would
    name (Кефирчик, in the 6-player example at event 40) while "Suggest for me" said "Ask
    Профессор_Селезнёв: Крыс, Дверь машины времени, Большой театр". Once the advice is asked
    for, the line is weighed again on its question and names its player; before, it names
    nobody ("your next question"): the advice it would have to make costs more than the line."""
    from notebook_app.screens.turn import ADVICE_SAMPLES
    from solver.advice import Advisor
    from solver.logfile import load
    from solver.race import accuse_or_wait

    log = load(Path(APP).parent.parent / "examples" / "forum-gostya-iz-budushchego.json").upto(40)
    at, _ = open_app(store, log)
    assert at.session_state["race_job"][1].done(30)
    at.run()
    line = next(shown(c.value) for c in at.caption if "seldom bluff" in shown(c.value))
    assert line.startswith("Wait: ") and ": right " in line  # the envelope named between
    assert "before your next question: " in line and " ask " not in line
    drawn = at.session_state["race_drawn"][1]  # weighed again from the deals it drew
    assert drawn.play is not None and drawn.race is not None
    at.pills(key="by").set_value("Полина").run()
    at.toggle(key="advise_me").set_value(True).run()
    assert at.session_state["advice_job"][1].done(30)
    assert at.session_state["race_job"][1].done(30)
    at.run()
    assert not at.exception, at.exception
    whom = Advisor(log, samples=ADVICE_SAMPLES).whom()
    expected = "\n".join(accuse_or_wait(log, advice=whom).said().lines())
    assert f"\nNobody else solves before you ask {whom.player} next: " in expected
    line = next(shown(c.value) for c in at.caption if "seldom bluff" in shown(c.value))
    assert line == expected
    assert at.session_state["race_drawn"][1] is drawn and drawn.play is not None
    asked = question_advice(at)
    assert asked[0].startswith("Ask {}: {}, {}, {}: ".format(whom.player, *whom.best.triple))


def forum_example(at_event: int) -> GameLog:
    """The six-player forum example (Полина's notebook) at ``at_event``."""
    from solver.logfile import load

    return load(Path(APP).parent.parent / "examples" / "forum-gostya-iz-budushchego.json"
                ).upto(at_event)


def race_said(at: AppTest) -> str:
    """The race line beside the verdict, as the player reads it."""
    return next(shown(c.value) for c in at.caption if "seldom bluff" in shown(c.value))


def test_the_race_line_names_the_player_the_advice_shown_names(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a player tapped under "Asked", "Suggest for me" says what to ask them ("Ask
    Шушера: ..."), and with a place tapped whom to ask there ("Ask Duos: ..." for Школа); the
    race line went on naming the player of the advice with nothing tapped ("before you ask
    Профессор_Селезнёв next"): two screens read together disagreed. The line plays out the
    question the advice shows and names its player, weighed again from the deals it drew; a
    question weighed once shows again at once (back to nothing tapped: not weighed again)."""
    from notebook_app.screens import play
    from notebook_app.screens.turn import ADVICE_SAMPLES
    from solver.advice import Advisor, Whom
    from solver.race import accuse_or_wait

    real = play.weigh
    weighed: list[GameLog] = []

    def counting(log: GameLog, *rest: Any) -> Any:
        weighed.append(log)
        return real(log, *rest)

    monkeypatch.setattr(play, "weigh", counting)
    log = forum_example(40)
    at, _ = open_app(store, log)
    at.pills(key="by").set_value("Полина").run()
    at.toggle(key="advise_me").set_value(True).run()

    def drawn_again() -> None:  # what the note's timer does once the line is weighed
        assert at.session_state["advice_job"][1].done(30)
        assert at.session_state["race_job"][1].done(30)
        at.run()
        assert not at.exception, at.exception

    drawn_again()
    advisor = Advisor(log, samples=ADVICE_SAMPLES)
    whom = advisor.whom()
    untapped = race_said(at)
    assert f"\nNobody else solves before you ask {whom.player} next: " in untapped
    for asked, place in (("Шушера", None), (None, "Школа")):
        at.pills(key="e_asked").set_value(asked)
        at.pills(key="e_room").set_value(place).run()
        drawn_again()
        put = advisor.whom(place) if asked is None else Whom(asked, advisor.asking(asked)[0])
        assert put.player != whom.player
        assert question_advice(at)[0].startswith("Ask {}: {}, {}, {}: ".format(
            put.player, *put.best.triple))
        said = accuse_or_wait(log, advice=put).said()
        assert race_said(at) == "\n".join(said.lines())
        assert f" you ask {put.player} next: " in race_said(at)
    times = len(weighed)
    at.pills(key="e_room").set_value(None).run()
    assert race_said(at) == untapped and len(weighed) == times


def test_advice_made_after_the_race_line_was_drawn_names_it(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Right after a server starts, its compiled odds may become ready within a run: the run's
    start (`advice_first`) found them not ready and made no advisor, the race line was drawn
    without one ("your next question"), then the Turn form found them ready, made the advisor
    and showed "Ask Профессор_Селезнёв: ..." beside the unnamed line until the next tap (seen
    once on a phone). The page is drawn again at once, the line weighed with the advice. (The
    waits are long here so that each run shows what it asked for, however busy the machine.)"""
    from notebook_app import odds_count
    from notebook_app.screens import play, turn
    from notebook_app.screens.turn import ADVICE_SAMPLES
    from solver.advice import Advisor
    from solver.odds import warm

    for module, name in ((odds_count, "RUN_WAIT"), (play, "RACE_WAIT"), (turn, "ADVICE_WAIT")):
        monkeypatch.setattr(module, name, 60)
    log = forum_example(40)
    at, _ = open_app(store, log)
    at.pills(key="by").set_value("Полина").run()
    assert "before your next question: " in race_said(at)
    ready = iter([False])  # ready from the run's second look on
    monkeypatch.setattr(warm, "ready", lambda: next(ready, True))
    at.toggle(key="advise_me").set_value(True).run()
    assert not at.exception, at.exception
    whom = Advisor(log, samples=ADVICE_SAMPLES).whom()
    assert question_advice(at)[0].startswith(f"Ask {whom.player}: ")
    assert f"\nNobody else solves before you ask {whom.player} next: " in race_said(at)


def test_suggest_for_me_names_a_suggestion_and_why(store: Store) -> None:
    """At a real table I can suggest only in the room my pawn stands in: the advice names the
    room the form's chip shows (the one I tap), and where to head when another room's cards are
    likelier (it named Library while the chip showed Ballroom), as a line after the question:
    "Likelier cards in ...: head there next", the question no longer calling its own cards the
    likeliest in the envelope. Not my last room, Lounge: one suggestion per visit (the classic
    sheet), the best elsewhere, and under the Room chips why not there."""
    from solver.advice import Advisor

    log = classic(Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob",),
                             refuted_by="Cat", shown="Knife"),
                  Suggestion("Bob", ("Miss Scarlet", "Rope", "Ballroom"), passes=("Cat", "Dan"),
                             refuted_by="Ann"))
    at, _ = open_app(store, log)
    at.pills(key="by").set_value("Ann").run()
    assert at.pills(key="e_room").value is None  # not Lounge, where Ann suggested last
    at.toggle(key="advise_me").set_value(True).run()
    line = next(shown(c.value) for c in at.caption if shown(c.value).startswith("Ask "))
    assert " whose holder" in line
    assert "likely to refute" in line or "likeliest answer: " in line
    at.segmented_control(key="view").set_value("Grid").run()  # the toggle is not drawn there
    at.segmented_control(key="view").set_value("Turn").run()
    assert at.toggle(key="advise_me").value is True  # the choice outlasts a look elsewhere
    assert line in [shown(c.value) for c in at.caption]
    advisor = Advisor(log, samples=1000)
    away = advisor.first_telling(advisor.anywhere("Lounge"))
    assert away is not None and away.triple[2] != "Lounge"
    assert line.startswith("Ask {}, {}, {}: ".format(*away.triple))
    assert ("Not Lounge: you suggested there last, and the rules let you suggest there again "
            "only once you have left it") in [shown(c.value) for c in at.caption]
    heads = []
    for room in ("Kitchen", "Library"):
        at.pills(key="e_room").set_value(room).run()
        assert not at.exception, at.exception
        here = advisor.here(room, "Lounge")
        said = [shown(c.value) for c in at.caption]
        ask = next(c for c in said if c.startswith("Ask "))
        assert ask.startswith("Ask {}, {}, {}: ".format(*here.best.triple)), ask
        assert here.best.triple[2] == room
        assert not any(c.startswith("Not ") for c in said)
        head = [c for c in said if c.startswith("Likelier cards in ")]
        assert head == ([] if here.elsewhere is None else
                        ["Likelier cards in {2}: head there next, to ask {0}, {1}".format(
                            *here.elsewhere.triple)])
        assert "Lounge" not in "".join(head)
        assert ("the likeliest in the envelope" in ask) is (here.elsewhere is None), ask
        if head:  # the question here first, where to head right under it
            assert said.index(head[0]) == said.index(ask) + 1, said
        heads += head
    assert heads  # another room's cards are likelier than one of these


def test_a_room_tapped_outlasts_another_suggester(store: Store) -> None:
    """The room follows the suggester (where their pawn stands) only while it shows that
    default: a room tapped before the suggester is put right stays (a phone play-through lost
    it, a tap to make again), and an untouched one follows the new suggester. A room the form
    starts at is where a pawn was moved (`notebook_app.turns.starting_room`): until 2026-12-04
    it was also another player's last room, which the rules bar (one suggestion per visit)."""
    game = new_game(CLASSIC, ("Ann", "Mrs. White", "Cat", "Dan"), Dealing.CLASSIC, me="Ann",
                    my_cards=MINE)
    log = GameLog(game, (Suggestion("Ann", ("Mrs. White", "Knife", "Ballroom"),
                                    passes=("Mrs. White",), refuted_by="Cat"),))
    at, _ = open_app(store, log)
    at.pills(key="by").set_value("Mrs. White").run()
    assert at.pills(key="e_room").value == "Ballroom"  # my suggestion moved her pawn there
    at.pills(key="by").set_value("Cat").run()
    assert at.pills(key="e_room").value is None  # Cat has not suggested yet
    at.pills(key="e_room").set_value("Kitchen").run()
    at.pills(key="by").set_value("Mrs. White").run()
    assert at.pills(key="e_room").value == "Kitchen"
    at.pills(key="by").set_value("Dan").run()
    assert at.pills(key="e_room").value == "Kitchen"
    assert not at.exception, at.exception


def test_bug_my_room_never_starts_at_the_room_the_rules_bar(store: Store) -> None:
    """One suggestion per visit (`solver.advice.barred_room`): on my turn the Room chip started
    at my last suggestion's room, where my pawn stands and the rules bar me from suggesting
    again, so "Suggest for me" advised another room beside a chip showing the barred one. Now
    nothing is chosen, with a line under the chips saying why, whether or not the advice is on
    (the room is still offered: a turn spent leaving and coming back is not in the log); the
    line goes once another room is tapped, and shows again on the barred room tapped. A pawn
    moved by another's suggestion (a suspect of my name) stands in that room, where I may
    suggest: the chip starts there. (Another player's chip starts at nothing too since
    2026-12-04, without the line: `test_bug_others_room_never_starts_at_the_room_the_rules_bar`.)"""
    from solver.advice import Advisor

    log = classic(Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob",),
                             refuted_by="Cat", shown="Knife"),
                  Suggestion("Bob", ("Miss Scarlet", "Rope", "Ballroom"), passes=("Cat", "Dan"),
                             refuted_by="Ann"))
    why = ("Not Lounge: you suggested there last, and the rules let you suggest there again "
           "only once you have left it")
    at, _ = open_app(store, log)
    at.pills(key="by").set_value("Ann").run()
    assert at.pills(key="e_room").value is None
    assert why in captions(at)
    at.toggle(key="advise_me").set_value(True).run()
    assert not at.exception, at.exception
    advisor = Advisor(log, samples=1000)  # the app's `turn.ADVICE_SAMPLES`
    best = advisor.first_telling(advisor.anywhere("Lounge"))
    assert best is not None
    assert next(c for c in captions(at) if c.startswith("Ask ")).startswith(
        "Ask {}, {}, {}: ".format(*best.triple))
    assert captions(at).count(why) == 1  # under the chips, not in the advice too
    at.pills(key="e_room").set_value("Kitchen").run()
    assert why not in captions(at)
    at.pills(key="e_room").set_value("Lounge").run()
    assert why in captions(at)
    at.button(key="take_advice").click().run()
    assert at.pills(key="e_room").value == best.triple[2] != "Lounge"
    assert why not in captions(at)
    at.pills(key="by").set_value("Bob").run()
    assert why not in captions(at)
    game = new_game(CLASSIC, ("Miss Scarlet", "Bob", "Cat", "Dan"), Dealing.CLASSIC,
                    me="Miss Scarlet", my_cards=MINE)
    moved = GameLog(game, (Suggestion("Miss Scarlet", ("Mr. Green", "Rope", "Lounge"),
                                      refuted_by="Bob"),
                           Suggestion("Bob", ("Miss Scarlet", "Knife", "Study"),
                                      refuted_by="Cat")))
    at, _ = open_app(store, moved)
    at.pills(key="by").set_value("Miss Scarlet").run()
    assert at.pills(key="e_room").value == "Study"  # Bob's suggestion moved my pawn there
    assert not [c for c in captions(at) if c.startswith("Not ")]


def test_suggest_for_me_heads_elsewhere_where_the_likeliest_here_teaches_nothing(
        store: Store) -> None:
    """Where the room's likeliest question has its answer known in advance (Cat, the only one
    who can refute, can show the Study I know they hold), the advice offers the best question
    here that teaches something, which "Use this suggestion" taps, then one line more: where to
    head next; the idle question is not offered (a phone play-through was advised it three turns
    running), nor said to teach nothing between the two (a later play-through read three lines
    there, the middle one about the player's own three cards). Ann has since asked about her own
    cards in the Lounge and walked back to the Study: one suggestion per visit bars only the
    Lounge. Until 2026-12-04 where to head came first and the question here after it ("If you
    stay: ..."), the one case where the room's question came second."""
    from solver.advice import Advisor
    from tests.test_advice import stuck_in_study

    log = stuck_in_study(Suggestion("Ann", ("Mr. Green", "Rope", "Lounge"),
                                    passes=("Bob", "Cat", "Dan", "Eve", "Fay")))
    at, _ = open_app(store, log)
    at.pills(key="by").set_value("Ann").run()
    assert at.pills(key="e_room").value is None  # not Lounge, where Ann suggested last
    at.pills(key="e_room").set_value("Study").run()
    at.toggle(key="advise_me").set_value(True).run()
    assert not at.exception, at.exception
    here = Advisor(log, samples=1000).here("Study", "Lounge")
    assert here.elsewhere is not None and here.stay is not None
    said = [shown(c.value) for c in at.caption]
    lead = next(i for i, c in enumerate(said) if c.startswith("Ask "))
    assert said[lead].startswith("Ask {}, {}, {}: asks about ".format(*here.stay.triple))
    assert "the likeliest in the envelope" not in said[lead]  # the head's cards are likelier
    assert said[lead + 1:] == [
        "Likelier cards in {2}: head there next, to ask {0}, {1}".format(*here.elsewhere.triple)]
    assert not any(c.startswith(("Where to head", "If you stay")) or "teach" in c
                   for c in said[lead + 1:])
    at.button(key="take_advice").click().run()
    assert tuple(at.pills(key=k).value for k in ("e_suspect", "e_weapon", "e_room")) == (
        here.stay.triple)


def test_where_to_head_leads_with_nothing_to_tap() -> None:
    """With nothing in my room worth asking, the advice says where to head next turn: it offers
    nothing to tap, as my pawn is in this room now ("Use this suggestion" put the room to head
    for on the Room chip, a suggestion the rules do not allow; a phone play-through)."""
    from notebook_app.screens.turn import idle_lines
    from solver.advice import Advisor, Here
    from tests.test_advice import stuck_in_study

    log = stuck_in_study()
    advisor = Advisor(log, samples=1000)
    here = advisor.here("Study")
    assert here.idle and here.elsewhere is not None and here.stay is not None
    said, pick = idle_lines(log, Here(here.best, here.elsewhere, here.ranked, idle=True),
                            advisor.grid)
    assert [m.msgid for m in said] == [
        "Where to head: {room}, to ask {suspect}, {weapon}: here {asked} would teach you nothing "
        "({why})"]
    assert pick is None
    said, pick = idle_lines(log, here, advisor.grid)  # a question here that tells: it is tapped
    assert pick == (*here.stay.triple, None)
    alone = Here(here.best, None, here.ranked, idle=True, stay=here.stay)  # no likelier room:
    said, pick = idle_lines(log, alone, advisor.grid)  # the idle one is still likelier
    assert pick == (*here.stay.triple, None) and len(said) == 2
    assert "the likeliest in the envelope" not in said[0].render()
    assert said[1].render().endswith("would teach you nothing (Cat can show Study, which you "
                                     "know they hold)")


def advice_lines(log: GameLog, room: str) -> list[str]:
    """What "Suggest for me" should say for ``log`` with ``room`` on the chip: the line's head
    and where to head (`advise_here`, the app's 1,000 deals); in the room of Ann's last
    suggestion, barred by the rules, the best elsewhere that tells something."""
    from solver.advice import Advisor, barred_room

    advisor = Advisor(log, samples=1000)
    barred = barred_room(log, "Ann")
    if room == barred:
        away = advisor.first_telling(advisor.anywhere(barred))
        return [] if away is None else ["Ask {}, {}, {}: ".format(*away.triple)]
    here = advisor.here(room, barred)
    head = ["Ask {}, {}, {}: ".format(*here.best.triple)]
    if here.elsewhere is not None:
        head.append("Likelier cards in {2}: head there next, to ask {0}, {1}".format(
            *here.elsewhere.triple))
    return head


def advice_shown(at: AppTest) -> list[str]:
    said = [shown(c.value) for c in at.caption]
    return [c[:c.index(": ") + 2] if c.startswith("Ask ") else c for c in said
            if c.startswith(("Ask ", "Where to head: ", "Likelier cards in "))]


def advisors_made(monkeypatch: pytest.MonkeyPatch) -> list[GameLog]:
    """The logs each `solver.advice.Advisor` made from now on was made for, in order."""
    import solver.advice

    made: list[GameLog] = []
    real = solver.advice.Advisor.__init__

    def counting(self: Any, log: GameLog, **kwargs: Any) -> None:
        made.append(log)
        real(self, log, **kwargs)

    monkeypatch.setattr(solver.advice.Advisor, "__init__", counting)
    return made


def test_suggest_for_me_counts_once_per_log_and_never_shows_a_stale_answer(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tapping another room ranks only that room's suggestions: the count and the draw are the
    log's, made once (`solver.advice.Advisor`). An event recorded, then undone, then another
    game each show the advice of the log on the screen, never the one before."""
    log = classic(ASKED, ASKED_ME)
    rooms = ("Lounge", "Kitchen", "Study", "Kitchen")
    expected = {room: advice_lines(log, room) for room in rooms}
    # Dan shows me the suspect the advice names in the Kitchen: another answer there
    card = expected["Kitchen"][0].split(", ")[0].removeprefix("Ask ")
    later = log.append(Reveal("Dan", (card,)))
    other = classic(ASKED)  # another game on the shelf
    after, before_again, elsewhere = (advice_lines(g, "Kitchen") for g in (later, log, other))
    assert expected["Kitchen"] == before_again != after != elsewhere != expected["Kitchen"]
    made = advisors_made(monkeypatch)
    at, _ = open_app(store, log)
    at.pills(key="by").set_value("Ann").run()
    at.toggle(key="advise_me").set_value(True).run()
    for room in rooms:
        at.pills(key="e_room").set_value(room).run()
        assert not at.exception, at.exception
        assert advice_shown(at) == expected[room]
    assert made == [log]  # one count for every room tapped
    at.segmented_control(key="kind").set_value("Reveal").run()
    at.pills(key="r_player").set_value("Dan").run()
    at.pills(key="r_cards").set_value([card])
    submit(at)
    assert at.session_state["live"].log == later

    def kitchen() -> list[str]:
        at.segmented_control(key="kind").set_value("Suggestion").run()
        at.pills(key="by").set_value("Ann").run()
        at.pills(key="e_room").set_value("Kitchen").run()
        assert not at.exception, at.exception
        return advice_shown(at)

    assert kitchen() == after
    at.button(key="undo").click().run()
    assert at.session_state["live"].log == log
    assert kitchen() == before_again
    other_id = store.create(other, "test-shelf")
    at.segmented_control(key="view").set_value("Game").run()
    at.button(key="close_game").click().run()
    at.button(key=f"open_{other_id}").click().run()
    assert at.session_state["live"].log == other
    assert kitchen() == elsewhere
    assert made == [log, later, log, other]


def test_suggest_for_me_is_weighed_beside_the_runs(store: Store,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The log's advisor takes about a second of CPU at a 12-player table, and the run that
    made it showed nothing new meanwhile: it is made on a thread beside the runs, the screen
    drawn with a note in place of the advice, and once made the note's timer has the page
    drawn again with it. A room tapped meanwhile makes no second advisor; a turn recorded
    meanwhile stops the old log's, and its advice never shows."""
    import solver.advice
    from notebook_app.screens import turn

    log = classic(ASKED, ASKED_ME)
    expected = {room: advice_lines(log, room) for room in ("Kitchen", "Study")}
    card = expected["Study"][0].split(", ")[0].removeprefix("Ask ")
    later = log.append(Reveal("Dan", (card,)))
    real = solver.advice.Advisor.__init__
    made: list[GameLog] = []
    go: list[threading.Event] = []

    def slow(self: Any, log: GameLog, **kwargs: Any) -> None:
        made.append(log)
        go.append(threading.Event())
        assert go[-1].wait(30), "the test did not let the advisor finish"
        real(self, log, **kwargs)

    monkeypatch.setattr(solver.advice.Advisor, "__init__", slow)
    monkeypatch.setattr(turn, "ADVICE_WAIT", 0)
    weighing = "Weighing suggestions…"
    at, _ = open_app(store, log)
    at.pills(key="by").set_value("Ann").run()
    at.toggle(key="advise_me").set_value(True).run()  # the run does not wait for the advisor
    assert not at.exception, at.exception
    assert weighing in texts(at) and advice_shown(at) == []
    at.pills(key="e_room").set_value("Kitchen").run()
    assert weighing in texts(at) and advice_shown(at) == []
    assert made == [log]  # the room tapped waits for the same advisor
    go[0].set()
    assert at.session_state["advice_job"][1].done(30)
    timer_tick(at, at._tree.get_widget_states())
    assert weighing not in texts(at)
    assert advice_shown(at) == expected["Kitchen"]
    at.pills(key="e_room").set_value("Study").run()  # the log's advisor, at once
    assert advice_shown(at) == expected["Study"] and made == [log]
    # a turn recorded, then undone, while the new log's advisor is made: it is stopped
    at.segmented_control(key="kind").set_value("Reveal").run()
    at.pills(key="r_player").set_value("Dan").run()
    at.pills(key="r_cards").set_value([card])
    submit(at)
    at.segmented_control(key="kind").set_value("Suggestion").run()
    at.pills(key="by").set_value("Ann").run()
    at.pills(key="e_room").set_value("Study").run()
    assert weighing in texts(at) and advice_shown(at) == []
    assert made == [log, later]
    old = at.session_state["advice_job"][1]
    at.button(key="undo").click().run()  # back to the first log
    at.segmented_control(key="kind").set_value("Suggestion").run()
    at.pills(key="by").set_value("Ann").run()
    at.pills(key="e_room").set_value("Study").run()
    assert advice_shown(at) == expected["Study"]  # the lines kept for this log and room
    at.pills(key="e_room").set_value("Kitchen").run()  # a new advisor for the log
    assert weighing in texts(at) and advice_shown(at) == []
    assert made == [log, later, log] and old.unwanted()
    for event in go:
        event.set()
    assert at.session_state["advice_job"][1].done(30)
    timer_tick(at, at._tree.get_widget_states())
    assert weighing not in texts(at)
    assert advice_shown(at) == expected["Kitchen"]


class Beside2:
    """Stand-ins for the race line (`play.weigh`) and the advisor (`turn.make_advisor`) worked
    out beside the runs, each done ``race`` or ``advice`` seconds after it starts (``None``:
    only when the test ends), with the real waits (`odds_count.RUN_WAIT` and the screens' own);
    ``waited``: the seconds each run (`run`) spent waiting for them."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, race: float | None,
                 advice: float | None, log: GameLog) -> None:
        """``log``'s line and advisor are worked out first: the stand-ins return them, so
        that how long they take does not depend on how busy the machine is."""
        from notebook_app import odds_count
        from notebook_app.screens import play, turn

        real_weigh, real_make = play.weigh, turn.make_advisor
        known = {("race", log): real_weigh(log, False), ("advice", log): real_make(log, None)}
        self.end = threading.Event()
        self.waits: list[float] = []
        for name in ("RUN_WAIT", "screens.grid.ODDS_WAIT", "screens.play.RACE_WAIT",
                     "screens.turn.ADVICE_WAIT"):
            monkeypatch.setattr(f"notebook_app.{'odds_count.' if '.' not in name else ''}{name}",
                                0.3)
        monkeypatch.setattr(play, "COUNT_WAIT", 0.1)
        monkeypatch.setattr(play, "weigh", lambda *a: self.after(
            race, lambda: known.get(("race", a[0])) or real_weigh(*a)))
        monkeypatch.setattr(turn, "make_advisor", lambda *a: self.after(
            advice, lambda: known.get(("advice", a[0])) or real_make(*a)))
        real_done = odds_count.Beside.done

        def done(job: Any, wait: float = 0) -> bool:
            start = time.monotonic()
            try:
                return real_done(job, wait)
            finally:
                if wait > 0:
                    self.waits.append(time.monotonic() - start)

        monkeypatch.setattr(odds_count.Beside, "done", done)

    def after(self, seconds: float | None, work: Any) -> Any:
        self.end.wait(30 if seconds is None else seconds)
        return work()

    def run(self, at: AppTest) -> float:
        """Run ``at``; the seconds the run waited for the work beside it."""
        self.waits.clear()
        at.run()
        assert not at.exception, at.exception
        return sum(self.waits)


RACING = "Weighing who may already know…"
WEIGHING = "Weighing suggestions…"


def my_turn_next(store: Store, monkeypatch: pytest.MonkeyPatch, race: float | None,
                 advice: float | None) -> tuple[AppTest, Beside2]:
    """Dan's suggestion about to be recorded, "Suggest for me" on: the Record run draws my
    (Ann's) turn, with the advice and a new log's race line to wait for."""
    log = classic(ASKED, ASKED_ME, Suggestion("Cat", ("Colonel Mustard", "Wrench", "Library"),
                                              refuted_by="Dan"))
    dan = Suggestion("Dan", ("Professor Plum", "Candlestick", "Conservatory"), passes=("Ann",),
                     refuted_by="Bob")
    game_id = store.create(log, "test-shelf")
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["shelf"] = "test-shelf"
    at.session_state["game_id"] = game_id
    at.session_state["advise_on"] = True
    at.run()
    assert not at.exception, at.exception
    at.pills(key="by").set_value("Dan").run()
    pick(at, *dan.cards)
    at.pills(key="e_refuter").set_value("Bob")
    beside = Beside2(monkeypatch, race, advice, log.append(dan))
    for key in ("race_job", "advice_job"):  # what the real work took for the log before says
        if key in at.session_state:  # nothing of the stand-ins (`Beside.expected`)
            del at.session_state[key]
    at.button(key="submit").click()
    return at, beside


def test_a_run_waits_once_in_all_for_the_work_beside_it(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Record run that draws my turn waited `RACE_WAIT` (0.3 s) for the new log's race line
    and then `ADVICE_WAIT` (0.3 s) more for the advice: at a 12-player table, where neither is
    ready that soon, 0.6 s of every such run was waiting. The waits share the run's one wait
    (`odds_count.RUN_WAIT`); and a tap meanwhile (a room chosen) only peeks at what a run
    already waited for in vain: the notes' fragments look again."""
    at, beside = my_turn_next(store, monkeypatch, race=None, advice=None)
    waited = beside.run(at)
    assert len(events(at)) == 4 and at.pills(key="by").value == "Ann"
    assert RACING in texts(at) and WEIGHING in texts(at)
    assert 0.25 < waited < 0.4, beside.waits
    at.pills(key="e_room").set_value("Kitchen")
    assert beside.run(at) == 0 and beside.waits == []
    assert RACING in texts(at) and WEIGHING in texts(at)
    beside.end.set()


def test_work_ready_in_the_run_is_shown_in_the_run(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Quick work beside the run (at 3-6 players the race line and the advice take a tenth of a
    second or so each) still shows in the run that asked for it, no note flashing by."""
    at, beside = my_turn_next(store, monkeypatch, race=0.05, advice=0.05)
    beside.run(at)
    assert events(at)[-1].by == "Dan"  # the log the stand-ins know
    assert RACING not in texts(at) and WEIGHING not in texts(at)
    assert "if players seldom bluff" in texts(at) and advice_shown(at), texts(at)
    beside.end.set()


def test_the_advice_is_started_before_the_run_waits_for_the_race_line(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The advisor, started at the run's start, is ready within the run's one wait even when
    the race line takes all of it (at 6 players the race takes up to most of a second): started
    only where the form asks for it, after the header had waited for the race line, it had no
    wait left, and showed a fragment's look later."""
    at, beside = my_turn_next(store, monkeypatch, race=None, advice=0.05)
    waited = beside.run(at)
    assert RACING in texts(at) and WEIGHING not in texts(at) and advice_shown(at), texts(at)
    assert waited < 0.4, beside.waits
    beside.end.set()


def test_a_run_does_not_wait_for_work_slower_than_its_wait_the_time_before(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """At a 12-player table the race line and the advice take seconds, and every Record run
    waited the whole of its one wait (0.3 s) for them in vain before it drew the fresh form.
    Work that took longer than the wait for the log state before (`Beside.expected`) is not
    waited for: the fresh form at once, its notes in place of the lines, the lines when their
    notes' looks find them."""
    at, beside = my_turn_next(store, monkeypatch, race=None, advice=None)
    assert 0.25 < beside.run(at) < 0.4, beside.waits  # not known yet: the run waits
    assert RACING in texts(at) and WEIGHING in texts(at)
    race, advice = (at.session_state[key][1] for key in ("race_job", "advice_job"))
    while min(race.expected(), advice.expected()) <= 0.3:  # longer than the wait (the
        time.sleep(0.05)  # stand-ins are never over)
    pick(at, "Mrs. Peacock", "Lead Pipe", "Lounge")
    at.pills(key="e_refuter").set_value("Cat").run()
    at.pills(key="e_shown").set_value("Lead Pipe")
    at.button(key="submit").click()
    waited = beside.run(at)  # the race took longer than the wait: none for the new log's
    assert len(events(at)) == 5 and at.pills(key="by").value == "Bob"
    assert RACING in texts(at) and waited < 0.2, beside.waits  # (the envelope count's: ms)
    at.pills(key="by").set_value("Ann")  # my turn: the advice took longer too
    assert beside.run(at) < 0.2, beside.waits
    assert WEIGHING in texts(at) and advice_shown(at) == []
    beside.end.set()


def test_the_envelopes_are_counted_beside_the_runs(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The envelope count costs hundreds of SAT calls per event at a 12-player table (0.1-1.2 s),
    and the Record run made it before it drew the fresh form. It is made beside the runs: the
    verdict says that it is being counted, with an hourglass, until it is, then its fragment's
    look draws the page again with the exact count."""
    import solver.envelopes
    from notebook_app.screens import play

    real = solver.envelopes.EnvelopeCounter.push
    go = threading.Event()

    def slow(counter: Any, event: Any) -> int:
        assert go.wait(30), "the test did not let the count finish"
        return real(counter, event)

    def counting(at: AppTest) -> bool:  # the verdict's box says so, with an hourglass
        return any(box.value == "Not yet: counting the possible envelopes… "
                   ":material/hourglass_top:" for box in at.info)

    log = classic(ASKED)
    exact = [f"Not yet: {len(possible_triples(log.upto(n)))} envelopes are still possible"
             for n in (1, 0)]
    monkeypatch.setattr(play, "COUNT_WAIT", 0)
    monkeypatch.setattr(play, "weigh", lambda *_: (None, None))  # (it gives way to the count)
    at, _ = open_app(store, log.upto(0))
    assert exact[1] in texts(at) and not counting(at)  # counted as the game opened
    monkeypatch.setattr(solver.envelopes.EnvelopeCounter, "push", slow)
    pick(at, *ASKED.cards)
    at.pills(key="e_refuter").set_value("Cat").run()
    at.pills(key="e_shown").set_value("Knife")
    submit(at)  # not counted in the run
    assert events(at) == (ASKED,) and at.pills(key="e_suspect").value is None
    assert counting(at) and exact[0] not in texts(at)
    go.set()
    assert at.session_state["live"].count_envelopes().done(30)
    timer_tick(at, at._tree.get_widget_states())
    assert not counting(at) and exact[0] in texts(at)


def test_the_advice_of_a_log_no_longer_shown_is_stopped(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """My suggestion recorded while its advice was still being made: the next form is Bob's,
    which asks for no advice, and the old log's advisor, which the race line and the odds give
    way to (``ahead``), is stopped (it went on for nobody until a form asked for advice again).
    The turn undone, the advice of that log is made again: the stopped advisor, still kept for
    it, was waited for and showed nothing until its note's look started another."""
    at, beside = my_turn_next(store, monkeypatch, race=None, advice=None)
    beside.run(at)
    job = at.session_state["advice_job"][1]
    assert WEIGHING in texts(at) and not job.unwanted()
    pick(at, "Mrs. Peacock", "Lead Pipe", "Lounge")
    at.pills(key="e_refuter").set_value("Cat").run()
    at.pills(key="e_shown").set_value("Lead Pipe")
    submit(at)
    assert len(events(at)) == 5 and at.pills(key="by").value == "Bob"
    assert WEIGHING not in texts(at) and job.unwanted()
    at.button(key="undo").click().run()  # back to that log: its advice is made again
    assert len(events(at)) == 4 and at.pills(key="by").value == "Ann"
    again = at.session_state["advice_job"][1]
    assert WEIGHING in texts(at) and again is not job and not again.unwanted()
    beside.end.set()
    assert again.done(30) and not again.stopped
    at.run()
    assert WEIGHING not in texts(at) and advice_shown(at)


def test_advice_that_fails_beside_the_run_says_so_and_keeps_the_toggle(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """An advisor that fails on its thread with an error of no clash (a bug, memory) does not
    leave "Weighing suggestions…" up for ever: once its thread has ended the note's look draws
    the page again, which says something went wrong (`app.TROUBLE`, the traceback to the
    server's log), with the toggle still there to turn the advice off; with it off the form
    is whole again."""
    from notebook_app.screens import turn

    go = threading.Event()

    def failing(log: GameLog, grid: object) -> object:
        assert go.wait(30), "the test did not let the advisor fail"
        raise RuntimeError("a bug in the advisor")

    monkeypatch.setattr(turn, "make_advisor", failing)
    monkeypatch.setattr(turn, "ADVICE_WAIT", 0)
    at, _ = open_app(store, classic(ASKED, ASKED_ME))
    at.pills(key="by").set_value("Ann").run()
    at.toggle(key="advise_me").set_value(True).run()
    assert WEIGHING in texts(at) and not at.error
    go.set()
    assert at.session_state["advice_job"][1].done(30)
    timer_tick(at, at._tree.get_widget_states())
    assert WEIGHING not in texts(at)
    assert [e.value for e in at.error] == [
        "Something went wrong on the server while drawing this page. Every entry that was "
        "saved is kept. Reload the page; if this happens again, export the game from the Game "
        "tab and report the problem with it."]
    at.toggle(key="advise_me").set_value(False).run()
    assert not at.error and not at.exception and at.button(key="submit")


def test_advice_turned_off_while_it_is_made_is_stopped(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The advisor goes ahead of the race line and the odds (they give way to it): turned off
    while it is made, it stops, so they go on; turned on again, it is made anew."""
    from notebook_app.screens import turn
    from solver.limits import checkpoint

    go, made = threading.Event(), []
    make = turn.make_advisor

    def slow(log: GameLog, grid: Any) -> Any:
        assert go.wait(30), "the test did not let the advisor go on"
        checkpoint()  # as making it does, unit by unit
        made.append(log)
        return make(log, grid)

    monkeypatch.setattr(turn, "make_advisor", slow)
    monkeypatch.setattr(turn, "ADVICE_WAIT", 0)
    at, _ = open_app(store, classic(ASKED, ASKED_ME))
    at.pills(key="by").set_value("Ann").run()
    at.toggle(key="advise_me").set_value(True).run()
    first = at.session_state["advice_job"][1]
    assert WEIGHING in texts(at) and not first.unwanted()
    at.toggle(key="advise_me").set_value(False).run()
    assert first.unwanted()
    go.set()
    assert first.done(30) and first.stopped and not made
    monkeypatch.setattr(turn, "ADVICE_WAIT", 30)
    at.toggle(key="advise_me").set_value(True).run()
    assert at.session_state["advice_job"][1] is not first
    assert question_advice(at)[0].startswith("Ask ") and WEIGHING not in texts(at)


def forum_four() -> GameLog:
    """A 4-player forum game, a question to one player each, where I am Ann and asked last
    about Place 2."""
    from solver.editions import forum_deck

    deck = forum_deck(4)
    s, w, r = deck.suspects, deck.weapons, deck.rooms
    game = new_game(deck, ("Ann", "Bob", "Cat", "Dan"), Dealing.FORUM, me="Ann",
                    my_cards=(s[0], w[0], r[0]))
    return GameLog(game, (Suggestion("Ann", (s[1], w[1], r[1]), refuted_by="Bob", shown=w[1]),
                          Suggestion("Bob", (s[2], w[2], r[2]), passes=("Cat",)),
                          Suggestion("Cat", (s[3], w[3], r[3]), refuted_by="Dan"),
                          Suggestion("Dan", (s[3], w[2], r[4]), passes=("Bob",))))


def question_advice(at: AppTest) -> list[str]:
    return [shown(c.value) for c in at.caption if shown(c.value).startswith(
        ("Ask ", "Asking ", "Another place is likelier: ", "Likelier in another room: ",
         "Where to head: ", "Likelier cards in "))]


def test_suggest_for_me_on_a_question_to_one_player(store: Store,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Forum variant: on my own turn's "Ask one" entry, "Suggest for me" names whom to ask and
    what: the likeliest cards, put to the player whose answer should tell most
    (`solver.advice.Advisor.whom`; here Dan, not the first after me). No place is chosen (the
    forum has no board: any place may be asked about), so the best anywhere. With a place or a
    player tapped, the question for them first, then at most one line: the advice with nothing
    tapped, where it is better (`turn.better_question`). One advisor for all of it, as on
    Suggest.

    A bug of the phone play-throughs: with Place 2 and Bob tapped the advice read "Ask Bob: ...
    the likeliest in the envelope ...", "Asking Cat should tell you more" (Cat, in Place 2)
    and "Another place is likelier: ask Bob: ..., Place 3" (Bob, whose answer there tells
    nothing): three answers to what to do. With Cat tapped, "Another place is likelier: ask
    Cat: ..., Place 3", which tells nothing either."""
    import solver.advice
    from solver.advice import Advisor, reason

    log = forum_four()
    advisor = Advisor(log, samples=1000)  # the app's `turn.ADVICE_SAMPLES`

    def ask(player: str, advice: solver.advice.Advice, likeliest: bool = True) -> str:
        why = reason(log, advice)
        if not likeliest:  # beside likelier cards elsewhere
            why = why.replace(", the likeliest in the envelope if players ask about cards they "
                              "do not hold;", ";")
            assert "likeliest in the envelope" not in why
        return "Ask {}: {}, {}, {}: {}".format(player, *advice.triple, why)

    def likelier(advice: solver.advice.Advice) -> str:
        return "Another place is likelier: ask {}: {}, {}, {}".format(advice.to, *advice.triple)

    made = advisors_made(monkeypatch)
    at, _ = open_app(store, log)
    assert at.segmented_control(key="kind").value == "Asked one"
    assert at.pills(key="by").value == "Dan"  # may ask again: two more questions today
    at.pills(key="by").set_value("Ann").run()  # my turn
    assert at.pills(key="by").value == "Ann" and at.pills(key="e_room").value is None
    at.toggle(key="advise_me").set_value(True).run()
    assert not at.exception, at.exception
    here, anywhere = advisor.whom("Place 2"), advisor.whom()
    assert (here.player, anywhere.player) == ("Cat", "Dan")  # neither the first after me
    assert anywhere.best.score > here.best.score and anywhere.best.gain > here.best.gain
    assert question_advice(at) == [ask("Dan", anywhere.best)]
    at.pills(key="e_room").set_value("Place 2").run()  # the place I last asked about
    assert question_advice(at) == [ask("Cat", here.best, False), likelier(anywhere.best)]
    for player in ("Bob", "Cat"):  # my choice: what to ask them there
        at.pills(key="e_asked").set_value(player).run()
        best = advisor.asking(player, "Place 2")[0]
        assert best.triple == here.best.triple and best.gain <= here.best.gain
        assert question_advice(at) == [ask(player, best, False), likelier(anywhere.best)]
    at.pills(key="e_room").set_value(None).run()  # Bob tapped, any place: Bob's likeliest
    at.pills(key="e_asked").set_value("Bob").run()
    bob = advisor.asking("Bob")[0]
    assert bob.triple == anywhere.best.triple and bob.gain < anywhere.best.gain
    assert question_advice(at) == [ask("Bob", bob), "Asking Dan should tell you more"]
    at.pills(key="e_asked").set_value("Dan").run()  # the advice's own choice: nothing more
    assert question_advice(at) == [ask("Dan", anywhere.best)]
    assert made == [log]
    at.pills(key="by").set_value("Bob").run()  # another player's turn: nothing to advise
    assert not at.get("toggle") and question_advice(at) == []


def test_suggest_for_me_never_puts_to_a_player_the_question_they_just_passed_on(
        store: Store) -> None:
    """Forum variant, a place and a player tapped: the best question put to them whose answer
    tells something. Bob had passed on Suspect 1, Weapon 2, Place 3, and Cat showed me Place 3:
    the likeliest put to Bob there is that question again, which teaches nothing, and "Use this
    suggestion" filled it in (a review)."""
    from solver.advice import Advisor, idle_said
    from tests.test_odds_cli import forum_stuck

    log = forum_stuck()
    advisor = Advisor(log, samples=1000)  # the app's `turn.ADVICE_SAMPLES`
    ranked = advisor.asking("Bob", "Place 3")
    assert ranked[0].triple == ("Suspect 1", "Weapon 2", "Place 3")
    assert idle_said(log, ranked[0], advisor.grid) is not None
    telling = advisor.first_telling(ranked)
    assert telling is not None and telling.triple != ranked[0].triple
    at, _ = open_app(store, log)
    at.pills(key="by").set_value("Ann").run()
    at.toggle(key="advise_me").set_value(True).run()
    at.pills(key="e_room").set_value("Place 3").run()
    at.pills(key="e_asked").set_value("Bob").run()
    assert not at.exception, at.exception
    said = question_advice(at)
    assert said[0].startswith("Ask Bob: {}, {}, {}: ".format(*telling.triple)), said
    assert "the likeliest in the envelope" not in said[0]  # the idle question is likelier
    at.button(key="take_advice").click().run()
    assert tuple(at.pills(key=k).value for k in ("e_suspect", "e_weapon", "e_room",
                                                  "e_asked")) == (*telling.triple, "Bob")


def test_while_the_odds_are_prepared_the_form_is_ready(store: Store,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Once after an install numba compiles the odds' kernels (about a minute of CPU,
    `solver.odds.warm`). Meanwhile nothing in a run waits for them: "Suggest for me" and the
    race line say the odds are being prepared (no advisor is made), the form records a turn and
    the grid shows its deductions; once they are ready, the advice shows."""
    from notebook_app.screens import play
    from solver.odds import warm

    made = advisors_made(monkeypatch)
    ready, kernels = False, threading.Event()
    monkeypatch.setattr(warm, "ready", lambda: ready)
    weigh = play.weigh  # the race waits for the kernels, as `warm.wait` makes it in a server

    def waiting(*args: Any) -> Any:
        kernels.wait(60)
        return weigh(*args)

    monkeypatch.setattr(play, "weigh", waiting)
    monkeypatch.setattr(play, "RACE_WAIT", 0)  # the race line's note shows
    log = forum_four()
    at, _ = open_app(store, log)
    at.pills(key="by").set_value("Ann").run()  # my turn (Dan may ask twice more today)
    preparing = "The odds are being prepared (once after an install, up to a minute)…"
    assert preparing in texts(at)  # the race line's
    at.toggle(key="advise_me").set_value(True).run()
    assert not at.exception, at.exception
    assert [c for c in captions(at) if c.endswith(preparing)] == [":material/hourglass_top: "
                                                                  + preparing] * 2
    assert question_advice(at) == [] and made == []
    deck = log.game.deck
    pick(at, deck.suspects[2], deck.weapons[2], deck.rooms[5])
    at.pills(key="e_asked").set_value("Cat")
    at.pills(key="e_answer").set_value("no card")
    submit(at)
    assert events(at)[-1] == Suggestion("Ann", (deck.suspects[2], deck.weapons[2],
                                                deck.rooms[5]), passes=("Cat",))
    at.segmented_control(key="view").set_value("Grid").run()
    assert at.dataframe and not at.exception
    ready = True
    kernels.set()
    at.segmented_control(key="view").set_value("Turn").run()
    assert preparing not in texts(at)
    assert question_advice(at)[0].startswith("Ask ")
    assert made == [at.session_state["live"].log]


def test_the_advice_is_used_in_one_tap(store: Store) -> None:
    """"Use this suggestion" taps the advised cards, and in the forum variant the player to
    ask, in one go (four taps fewer at the table); then only the answer is left to tap. Once
    the chips show it, the button goes."""
    from solver.advice import Advisor

    log = forum_four()
    at, _ = open_app(store, log)
    at.pills(key="by").set_value("Ann").run()  # my turn (Dan may ask twice more today)
    at.toggle(key="advise_me").set_value(True).run()
    here = Advisor(log, samples=1000).whom()  # no place chosen: the forum has no board
    at.button(key="take_advice").click().run()
    assert not at.exception, at.exception
    chosen = tuple(at.pills(key=key).value for key in ("e_suspect", "e_weapon", "e_room"))
    assert (chosen, at.pills(key="e_asked").value) == (here.best.triple, here.player)
    assert "take_advice" not in {b.key for b in at.button}
    assert question_advice(at)[0].startswith("Ask {}: {}, {}, {}: ".format(
        here.player, *here.best.triple))
    at.pills(key="e_answer").set_value("no card")
    submit(at)
    assert events(at)[-1] == Suggestion("Ann", here.best.triple, passes=(here.player,))
    # round the table: the cards only, in the room my pawn stands in
    log = classic(ASKED, ASKED_ME)
    at, _ = open_app(store, log)
    at.pills(key="by").set_value("Ann").run()
    at.toggle(key="advise_me").set_value(True).run()
    at.button(key="take_advice").click().run()
    advisor = Advisor(log, samples=1000)  # not in the Lounge, where Ann suggested last
    best = advisor.first_telling(advisor.anywhere("Lounge"))
    assert best is not None
    assert tuple(at.pills(key=key).value for key in ("e_suspect", "e_weapon", "e_room")) == (
        best.triple)
    assert at.pills(key="e_refuter").value is None


def test_suggest_for_me_forgets_a_question_to_me_when_my_turn_is_tapped(store: Store) -> None:
    """Entering another player's question to me, then tapping my own name under "Who asked":
    the Asked chip on me is no longer offered (it is dropped as the chips are drawn), and the
    advice, drawn above it, is whom to ask, not "a contradiction" (`Advisor.asking` refuses me)."""
    from solver.advice import Advisor, reason

    log = forum_four()
    at, _ = open_app(store, log)
    at.pills(key="by").set_value("Ann").run()  # my turn (Dan may ask twice more today)
    at.toggle(key="advise_me").set_value(True).run()
    at.pills(key="by").set_value("Bob").run()
    at.pills(key="e_asked").set_value("Ann").run()  # Bob asked me
    at.pills(key="by").set_value("Ann").run()  # no: it is my turn
    assert not at.exception, at.exception
    said = [shown(c.value) for c in at.caption]
    assert not any(line.startswith("No advice") for line in said), said
    here = Advisor(log, samples=1000).whom()
    assert question_advice(at)[0] == "Ask {}: {}, {}, {}: {}".format(
        here.player, *here.best.triple, reason(log, here.best))
    assert at.pills(key="e_asked").value is None


# --- past advice: the game is over, or I am out (as `clue-notebook accuse` and `advise` say) ---

ASKED = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob",), refuted_by="Cat",
                   shown="Knife")
ASKED_ME = Suggestion("Bob", ("Miss Scarlet", "Rope", "Ballroom"), passes=("Cat", "Dan"),
                      refuted_by="Ann")
WRONG = ("Mrs. White", "Candlestick", "Ballroom")


def captions(at: AppTest) -> list[str]:
    return [shown(c.value) for c in at.caption]


def walk(node: object) -> Iterator[Any]:
    """Every element under ``node``, in the order the page shows them."""
    yield node
    for child in getattr(node, "children", {}).values():
        yield from walk(child)


def advise_me(at: AppTest) -> list[str]:
    """The captions "Suggest for me" adds for Ann, who taps it on her own suggestion."""
    at.pills(key="by").set_value("Ann").run()
    before = captions(at)
    at.toggle(key="advise_me").set_value(True).run()
    assert not at.exception, at.exception
    return [c for c in captions(at) if c not in before]


def ask_ann(at: AppTest) -> list[str]:
    """Bob names three of Ann's cards and she refutes: the captions about what to show."""
    at.pills(key="by").set_value("Bob").run()
    pick(at, "Miss Scarlet", "Rope", "Kitchen")
    at.pills(key="e_refuter").set_value("Ann").run()
    assert not at.exception, at.exception
    assert chips(at, "e_shown") == ["Miss Scarlet", "Rope", "Kitchen"]  # she still shows one
    return [c for c in captions(at) if c.startswith("Show ")]


def test_a_game_someone_else_won_says_so_in_place_of_advice(store: Store) -> None:
    at, _ = open_app(store, classic(ASKED, ASKED_ME, Accusation(
        "Cat", ("Professor Plum", "Wrench", "Library"), correct=True)))
    assert [shown(s.value) for s in at.success] == ["Cat accused correctly: the game is over."]
    assert "Accusation is safe" not in texts(at)
    assert at.segmented_control(key="kind").value == "Reveal"  # the hands shown now
    at.segmented_control(key="kind").set_value("Suggestion").run()
    assert advise_me(at) == ["Cat accused correctly: the game is over."]
    assert ask_ann(at) == []  # everyone knows the envelope: no card hides anything


def test_after_my_wrong_accusation_nothing_advises_me_to_accuse_or_suggest(store: Store) -> None:
    at, _ = open_app(store, classic(ASKED, ASKED_ME, Accusation("Ann", WRONG)))
    out = ("You accused wrongly in event 3: you can no longer accuse, only show cards when "
           "asked.")
    assert [shown(i.value) for i in at.info] == [out]
    said = " ".join(captions(at)).lower()
    assert not any(word in said for word in ("accuse now", "wait:", "suggest first"))
    # who may know still shows, right under it: Ann still refutes and may watch the race
    race = [c for c in captions(at) if "know" in c]
    assert len(race) == 1 and re.fullmatch(r"(Bob|Cat|Dan) may already know: (<1|>99|\d+)%|"
                                            r"Nobody seems to know the envelope yet", race[0]), race
    assert race[0] != "Bob may already know: 0%"  # the race rounds to 0%: said in words
    why = next(c.help for c in at.caption if "know" in shown(c.value))
    assert why.endswith("how likely each player still in the game could name the whole "
                        "envelope from what they have seen."), why  # no risk of mine to weigh
    header = [shown(e.value) for e in walk(at.main) if type(e).__name__ in ("Info", "Caption")]
    assert header.index(race[0]) == header.index(out) + 1, header
    assert advise_me(at) == [out]
    assert len(ask_ann(at)) == 1  # a player out of the game still refutes: which card to show


def test_with_every_other_player_out_a_classic_game_is_won(store: Store) -> None:
    """By the classic sheet the last player standing wins: no verdict to weigh (in Refresh 2012
    the verdict says "nobody else can win" instead: test_app_ending.py)."""
    at, _ = open_app(store, classic(ASKED, ASKED_ME, Accusation("Bob", WRONG),
                                    Accusation("Cat", ("Mr. Green", "Knife", "Lounge")),
                                    Accusation("Dan", ("Colonel Mustard", "Lead Pipe",
                                                       "Conservatory"))))
    assert [shown(s.value) for s in at.success] == [
        "You win: every other player accused wrongly. The envelope was not solved, nor is it "
        "certain in this notebook."]
    assert not [c for c in captions(at) if "bluff" in c]


def test_suggest_for_me_on_a_clashing_log_says_so(store: Store) -> None:
    """Bob is said to hold the Knife Cat showed me: the grid leaves that out, and "Suggest for
    me", whose advisor is made beside the runs, says there is no advice (making it raised)."""
    at, _ = open_app(store, classic(ASKED, ASKED_ME, Reveal("Bob", ("Knife",))))
    assert at.session_state["live"].grid()[1] == (3,)
    assert advise_me(at) == ["No advice while the log has a contradiction."]


def test_suggest_for_me_on_a_certain_envelope_says_so_first(store: Store) -> None:
    at, _ = open_app(store, classic(
        ASKED, ASKED_ME,
        Reveal("Bob", ("Colonel Mustard", "Mr. Green", "Mrs. Peacock", "Ballroom",
                       "Candlestick"), whole_hand=True),
        Reveal("Cat", ("Mrs. White", "Knife", "Lead Pipe", "Revolver"), whole_hand=True),
        Reveal("Dan", ("Conservatory", "Dining Room", "Billiard Room", "Lounge"),
               whole_hand=True)))
    certain = "Accusation is safe: Professor Plum, Wrench, Library"
    assert [shown(s.value) for s in at.success] == [certain]
    said = advise_me(at)  # every hand known: any answer is known in advance
    assert said == [certain, "No suggestion would teach you anything more about the envelope"]


def test_suggest_for_me_suggests_nothing_on_a_certain_envelope_with_hands_unknown(
        store: Store) -> None:
    """A classic game where the envelope is certain while other hands are not (a 4-player
    play-through at 390 px, dark scheme): under "Accusation is safe: Mr. Green, Rope, Hall",
    "Suggest for me" said "Ask Miss Scarlet, Candlestick, Kitchen: asks about one card whose
    holder you do not know yet, ..., the likeliest in the envelope ..." with "Use this
    suggestion" to tap, the Kitchen certainly not in the envelope. No suggestion can teach
    anything more about a certain envelope: it says so, whatever room is chosen, and offers
    nothing to tap, as where every hand is known (and on the forum's question to one player)."""
    game = new_game(CLASSIC, NAMES, Dealing.CLASSIC, me="Ann", my_cards=MINE)
    at, _ = open_app(store, GameLog(game, (
        ASKED, ASKED_ME, Note(ENVELOPE, holds=("Professor Plum", "Wrench", "Library"),
                              text="seen"))))
    certain = "Accusation is safe: Professor Plum, Wrench, Library"
    nothing = "No suggestion would teach you anything more about the envelope"
    assert advise_me(at) == [certain, nothing]  # no room: the Lounge, my last, is barred
    assert "take_advice" not in {b.key for b in at.button}
    for room in ("Conservatory", "Lounge"):
        at.pills(key="e_room").set_value(room).run()
        assert not at.exception, at.exception
        said = captions(at)
        assert certain in said and nothing in said, (room, said)
        assert not [c for c in said if c.startswith(("Ask ", "Likelier cards in "))], (room, said)
        assert "take_advice" not in {b.key for b in at.button}, room


def test_suggest_for_me_asks_nobody_once_the_envelope_is_certain(store: Store) -> None:
    """Forum variant (a 12-player play-through at 390 px): with the envelope certain, "Suggest
    for me" on my question to one player said "Accusation is safe", then "Ask Gromo: ...:
    teaches you nothing: Gromo holds none of them" with "Use this suggestion" to tap. No
    question can teach anything more about a certain envelope: it says so, as on a suggestion,
    and offers nothing to tap."""
    from solver.editions import forum_deck

    deck = forum_deck(3)
    s, w, r = deck.suspects, deck.weapons, deck.rooms
    game = new_game(deck, ("Ann", "Bob", "Cat"), Dealing.FORUM, me="Ann",
                    my_cards=(s[0], w[0], r[0]))
    at, _ = open_app(store, GameLog(game, (
        Reveal("Bob", (s[1], w[1], r[1]), whole_hand=True),
        Reveal("Cat", (r[2], r[3], r[4]), whole_hand=True))))
    assert at.segmented_control(key="kind").value == "Asked one"
    certain = f"Accusation is safe: {s[2]}, {w[2]}, {r[5]}"
    assert advise_me(at) == [certain,
                             "No suggestion would teach you anything more about the envelope"]
    assert "take_advice" not in {b.key for b in at.button}


def test_the_show_hint_reads_the_race_the_header_drew(store: Store,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import solver.race
    from solver.advice import what_to_show
    from solver.logfile import load

    drawn = []
    real = solver.race.race
    monkeypatch.setattr(solver.race, "race",
                        lambda *args, **kw: drawn.append(1) or real(*args, **kw))
    grids: list[GameLog] = []  # the verdict reads the grid the screen has, not one of its own
    real_grid = solver.race.grid_of
    monkeypatch.setattr(solver.race, "grid_of", lambda g: grids.append(g) or real_grid(g))
    log = load(Path(APP).parent.parent / "examples" / "classic-four-players-notes.json").upto(10)
    at, _ = open_app(store, log)
    assert len(drawn) == 1  # the header's accuse-or-wait
    assert log not in grids
    at.pills(key="by").set_value("Bob").run()
    pick(at, "Miss Scarlet", "Revolver", "Conservatory")
    at.pills(key="e_refuter").set_value("Ann").run()
    assert not at.exception, at.exception
    hint = next(c for c in captions(at) if c.startswith("Show "))
    assert len(drawn) == 1  # no second draw for the hint
    card = what_to_show(log, "Bob", ("Miss Scarlet", "Revolver", "Conservatory"), samples=100)
    assert hint.startswith(f"Show {card.card}: it leaves Bob the most envelopes open")


def test_the_review_chart_ends_at_the_last_event() -> None:
    """The envelope chart's event axis runs from 0 to the last event, not to a rounder number
    (it ran to 24 after 23 events)."""
    from notebook_app.screens.review import envelope_chart

    for events in (1, 23, 70):
        chart = envelope_chart([120] * (events + 1), "Possible envelopes", events).to_dict()
        for layer in chart["layer"]:  # the line and the marks of the step shown
            x = layer["encoding"]["x"]
            assert x["scale"] == {"domain": [0, events], "nice": False}, (events, x)


def test_the_review_chart_marks_the_step_shown(store: Store) -> None:
    """A phone play-through: the envelope chart under the Review's grid did not say which
    step the grid showed. A dashed rule and a dot on the line mark it, and follow the step."""
    from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df

    log = classic(Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob",),
                             refuted_by="Cat", shown="Knife"),
                  Accusation("Dan", ("Mr. Green", "Wrench", "Library"), correct=False))
    at, _ = open_app(store, log)
    at.segmented_control(key="view").set_value("Review").run()

    def marked() -> dict[str, list[int]]:
        [chart] = at.get("vega_lite_chart")
        spec = json.loads(chart.proto.spec)
        data = {d.name: convert_arrow_bytes_to_pandas_df(d.data.data) for d in chart.proto.datasets}
        return {layer["mark"]["type"]: data[layer["data"]["name"]]["event"].tolist()
                for layer in spec["layer"]}

    assert marked() == {"line": [0, 1, 2], "rule": [2], "point": [2]}
    at.button(key="review_back").click().run()
    assert marked() == {"line": [0, 1, 2], "rule": [1], "point": [1]}


def test_review_steps_through_the_log(store: Store) -> None:
    log = classic(
        Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob",), refuted_by="Cat",
                   shown="Knife"),
        Accusation("Dan", ("Mr. Green", "Wrench", "Library"), correct=False),
        Accusation("Cat", ("Mrs. White", "Candlestick", "Ballroom"), correct=True),
    )
    at, game_id = open_app(store, log)
    at.segmented_control(key="view").set_value("Review").run()
    assert at.slider(key="review_step").value == 3
    assert "An accusation was safe after event #3" in texts(at)
    assert "#2: Dan accused Mr. Green, Wrench, Library: wrong" in texts(at)
    at.button(key="review_back").click().run()
    at.button(key="review_back").click().run()
    assert at.slider(key="review_step").value == 1
    assert "Not yet: 120 envelopes are still possible" in texts(at)
    table = at.dataframe[0].value
    assert table.loc["Knife", "Cat"] == "✓"
    at.session_state["explain_cell"] = ("Knife", "Bob", 1)  # tapped in the grid after event 1
    at.run()
    assert "Bob holds Knife: no." in texts(at) and "event 1" in texts(at)
    at.slider(key="review_step").set_value(0).run()
    assert "Before the first event" in texts(at)
    assert at.dataframe[0].value.loc["Knife", "Cat"] == "?"
    at.segmented_control(key="view").set_value("Log").run()  # the slider is not drawn there
    at.segmented_control(key="view").set_value("Review").run()
    assert at.slider(key="review_step").value == 0  # the step outlasts a look elsewhere
    assert "Before the first event" in texts(at)
    assert at.query_params["step"] == "0"  # and a reload or a server restart (a new session):
    again = AppTest.from_file(APP, default_timeout=60)
    again.session_state["shelf"] = "test-shelf"
    again.query_params.update(game=game_id, step="0")
    again.run()
    again.segmented_control(key="view").set_value("Review").run()
    assert again.slider(key="review_step").value == 0
    at.slider(key="review_step").set_value(3).run()  # at the end, it follows the end:
    store.save(game_id, GameLog(log.game, (*log.events, Reveal("Bob", ("Revolver",)))),
               "recorded event 4")  # another device
    at.run()
    assert at.slider(key="review_step").value == 4 and "step" not in at.query_params


def test_a_step_in_the_address_that_is_no_number_opens_the_latest(store: Store) -> None:
    """The Review's step from the address (``&step=<n>``, `screens.review.mark_step`) is taken
    only as a few ASCII digits: anything else (a superscript digit, which ``str.isdigit`` calls
    a digit and ``int`` refuses; more digits than ``int`` reads) opens the game at its latest
    event, not on the error page (the address kept it: a reload would show that again)."""
    _, game_id = open_app(store, classic(Reveal("Bob", ("Revolver",))))
    for value in ("\u00b2", "9" * 5000):
        again = AppTest.from_file(APP, default_timeout=60)
        again.session_state["shelf"] = "test-shelf"
        again.query_params.update(game=game_id, step=value)
        again.run()
        assert not again.error and "live" in again.session_state, value[:9]
        again.segmented_control(key="view").set_value("Review").run()
        assert again.slider(key="review_step").value == 1 and "step" not in again.query_params


def test_a_reload_opens_the_tab_that_was_shown(store: Store) -> None:
    """The tab shown is in the address (``&view=``), as the Review's step is: a page reloaded
    after a drop (`connection.py`) or a server restart opened on Turn, though the player was
    on the Grid (the net-touch helper's play-through, with a cell's explanation open). A tab
    the address names that this access has not (Turn by a read link), or no tab at all, opens
    the default."""
    at, game_id = open_app(store, classic(Reveal("Bob", ("Revolver",))))
    at.segmented_control(key="view").set_value("Grid").run()
    assert at.query_params["view"] == "Grid"
    for value, opened in (("Grid", "Grid"), ("Review", "Review"), ("Turn", "Turn"),
                          ("Turns", "Turn"), ("x" * 5000, "Turn")):
        again = AppTest.from_file(APP, default_timeout=60)
        again.session_state["shelf"] = "test-shelf"
        again.query_params.update(game=game_id, view=value)
        again.run()
        assert not again.error and not again.exception, value[:9]
        assert again.segmented_control(key="view").value == opened, value[:9]
        assert again.query_params.get("view") == (None if opened == "Turn" else opened)


# --- nothing is lost ---------------------------------------------------------------------------


def test_restore_from_the_database_by_link(store: Store) -> None:
    log = classic(Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob"))
    game_id = store.create(log, "someone-else")
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["game"] = store.links(game_id).edit
    at.run()
    assert not at.exception
    assert at.session_state["live"].log == log
    assert at.query_params["game"] == game_id  # the address bar then holds only the id
    # the game is now on this browser's list too, to edit
    assert [(g.id, g.access) for g in store.games(at.session_state["shelf"])] == [
        (game_id, "edit")]


def test_a_link_with_a_space_around_it_opens_its_game(store: Store) -> None:
    """A link pasted from a message often carries a space or a line break after it (``%20``):
    the id is the same, so it opens the game."""
    log = classic(Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob"))
    game_id = store.create(log, "someone-else")
    for padded in (store.links(game_id).edit + " ", " " + store.links(game_id).read + "\n"):
        at = AppTest.from_file(APP, default_timeout=60)
        at.query_params["game"] = padded
        at.run()
        assert not at.exception
        assert at.session_state["live"].log == log, texts(at)
        assert at.query_params["game"] == game_id


def test_unknown_game_id_is_explained(store: Store) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["game"] = "not-a-real-id"
    at.run()
    assert "This link does not open a game here" in texts(at)
    assert "live" not in at.session_state


def test_game_screen_offers_export_and_close(store: Store) -> None:
    log = classic(Reveal("Dan", ("Wrench",)))
    at, game_id = open_app(store, log)
    at.segmented_control(key="view").set_value("Game").run()
    assert not at.exception
    assert at.download_button(key="export")
    links = store.links(game_id)
    shown = [c.value for c in at.code]
    assert [s.endswith(f"?game={links.edit}") for s in shown] == [True, False]
    assert shown[1].endswith(f"?game={links.read}")
    assert "On another device" in texts(at)
    at.button(key="close_game").click().run()
    assert "live" not in at.session_state and "game" not in at.query_params
    assert f"open_{game_id}" in [b.key for b in at.button]


def test_a_second_game_with_the_same_names_gets_dealt_hand_sizes(store: Store) -> None:
    """Issue 8: closing a game and starting another with the same names showed hand sizes 0 and
    18 face-up cards, and Start failed with its error out of view."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.text_area(key="new_players").set_value("Ann\nBob\nCat\nDan").run()
    at.button_group(key="new_mine").set_value(list(MINE)).run()
    at.button(key="start_game").click().run()
    assert "live" in at.session_state
    at.segmented_control(key="view").set_value("Game").run()
    at.button(key="close_game").click().run()
    assert "live" not in at.session_state
    at.text_area(key="new_players").set_value("Ann\nBob\nCat\nDan").run()
    assert hand_sizes(at) == [5, 5, 4, 4]
    assert not [p for p in at.button_group if p.key == "new_face_up"]  # classic: none face up


def test_a_setup_error_shows_beside_start(store: Store) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.text_area(key="new_players").set_value("Ann\nBob\nCat\nDan").run()
    size_inputs(at)[0].set_value(9).run()
    at.button(key="start_game").click().run()
    assert "live" not in at.session_state
    start = next(b for b in at.main.children.values() if getattr(b, "key", None) == "start")
    beside = [type(c).__name__ for c in start.children.values()]
    assert beside == ["Error", "Button"]  # right above Start, not at the top of the page
    assert "hand sizes (9 + 5 + 4 + 4)" in shown(start.children[0].value)


def test_a_card_is_offered_as_mine_or_face_up_not_both(store: Store) -> None:
    """The set-up form offered every card both among mine and face up, and only Start said
    that a card picked in both cannot be (a play-through): each list now leaves out the cards
    the other has picked, and a pick taken back is offered again."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="new_edition").set_value("cluedo-refresh-2012-fi").run()
    at.text_area(key="new_players").set_value("Aino\nNiko\nVeera\nOona").run()
    at.button_group(key="new_mine").set_value(["köysi", "tikari", "veranta", "keittiö"]).run()
    face_up = at.button_group(key="new_face_up")
    assert "keittiö" not in face_up.options and "putki" in face_up.options
    face_up.set_value(["putki", "autotalli"]).run()
    mine = at.button_group(key="new_mine")
    assert "putki" not in mine.options and "keittiö" in mine.options
    assert mine.value == ["köysi", "tikari", "veranta", "keittiö"]
    at.button_group(key="new_face_up").set_value(["autotalli"]).run()
    assert "putki" in at.button_group(key="new_mine").options
    at.button_group(key="new_face_up").set_value(["autotalli", "putki"]).run()
    at.button(key="start_game").click().run()
    assert "live" in at.session_state, [e.value for e in at.error]
    assert set(at.session_state["live"].log.game.face_up) == {"autotalli", "putki"}


def test_a_setup_error_names_the_field_as_the_form_labels_it(store: Store) -> None:
    """Too many cards of mine: the error named the log's field, "my_cards: 5 cards, ...", not
    the chips the player sees (found in a Finnish phone play-through)."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="new_edition").set_value("cluedo-refresh-2012-fi").run()
    at.text_area(key="new_players").set_value("Aino\nNiko\nVeera\nOona").run()
    at.button_group(key="new_face_up").set_value(["putki", "autotalli"]).run()
    at.button_group(key="new_mine").set_value(["köysi", "tikari", "veranta", "keittiö",
                                               "pelihuone"]).run()
    at.button(key="start_game").click().run()
    said = "\n".join(shown(e.value) for e in at.error)
    assert "- Your 4 cards: 5 cards, but 'Aino' was dealt 4" in said, said

def test_a_saved_entry_says_so_without_covering_the_verdict(store: Store) -> None:
    """Issue 8: a "Recorded event N" toast covered the status line for seconds, right when the
    player wants to read it; the Undo button says what was done instead."""
    at, _ = open_app(store, classic())
    pick(at, "Mrs. White", "Knife", "Lounge")
    at.pills(key="e_refuter").set_value("").run()  # nobody showed
    submit(at)
    assert len(events(at)) == 1
    assert not at.toast
    assert shown(at.button(key="undo").label) == ("Undo #1: Ann: Mrs. White, Knife, Lounge → "
                                                  "nobody showed; Bob, Cat, Dan passed")
    assert "Accusation is safe: Mrs. White, Knife, Lounge" in texts(at)  # the verdict, in view


def test_the_compiled_odds_failing_to_start_is_a_message(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Starting to make the compiled odds ready can fail (no thread may start on a server at
    its limits): the page says something went wrong, never a traceback."""
    from solver.odds import warm

    def no_thread() -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(warm, "start", no_thread)
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception, at.exception
    assert any("Something went wrong on the server" in e.value for e in at.error)


def test_bug_suggest_for_me_never_advises_the_room_i_just_suggested_in(store: Store) -> None:
    """Refresh 2012 (refresh-2012-rules-fi.txt): staying in a room gives no right to ask there
    again turn after turn; only a pawn moved by another's suggestion may stay and ask. On my
    turn the room chip started at my last suggestion's room (where my pawn stands), and "Suggest
    for me" advised asking there again. It now advises the best in another room, which "Use
    this suggestion" taps, and a line says why not there (under the Room chips, which no longer
    start there: `test_bug_my_room_never_starts_at_the_room_the_rules_bar`)."""
    from solver.advice import Advisor
    from tests.test_advice import asked_in_the_garage

    log = asked_in_the_garage()
    advisor = Advisor(log, samples=1000)
    assert advisor.anywhere()[0].triple[2] == "autotalli"  # the likeliest: where I stand
    best = advisor.first_telling(advisor.anywhere("autotalli"))
    assert best is not None
    at, _ = open_app(store, log)
    at.pills(key="by").set_value("Aino").run()
    assert at.pills(key="e_room").value is None  # where my pawn stands, barred: not chosen
    at.toggle(key="advise_me").set_value(True).run()
    assert not at.exception, at.exception
    said = captions(at)
    asks = [c for c in said if c.startswith("Ask ")]
    assert len(asks) == 1 and asks[0].startswith("Ask {}, {}, {}: ".format(*best.triple))
    assert best.triple[2] != "autotalli"
    assert ("Not autotalli: you suggested there last, and the rules let you suggest there "
            "again only once you have left it") in said
    at.button(key="take_advice").click().run()
    assert tuple(at.pills(key=k).value for k in ("e_suspect", "e_weapon", "e_room")) == (
        best.triple)
