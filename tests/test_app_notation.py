"""The app and the notation (issue 9): a game pasted as text opens as a new game, the Log
screen shows the game as text to copy and takes a thread's turns pasted into it; what cannot be
read is said right above the button, naming the pasted line and column and the card meant, and
nothing pasted is lost."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import notebook_app.session as session
from notebook_app.history import told
from notebook_app.screens.notation import game_example
from notebook_app.store import Store
from solver.editions import Dealing, editions, new_game
from solver.game import ENVELOPE, Accusation, GameLog, Note, Suggestion
from solver.notation import read_text, write_text
from solver.values import replace
from tests import test_app
from tests.test_app import APP, CLASSIC, MINE, NAMES, shown
from tests.test_app_screens import page_order, texts

store = test_app.store
"""A fresh database for each test, where the app finds it (the one `test_app` uses)."""
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(target: object) -> AppTest:
    """Run the app (``target``: it, or a widget just changed); no exception may escape."""
    at = target.run()  # type: ignore[attr-defined]
    assert isinstance(at, AppTest)
    assert not at.exception, at.exception
    return at


def home() -> AppTest:
    return run(AppTest.from_file(APP, default_timeout=60))


def open_game(store: Store, log: GameLog) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["shelf"] = "test-shelf"
    at.session_state["game_id"] = store.create(log, "test-shelf")
    run(at)
    return run(at.segmented_control(key="view").set_value("Log"))


def classic(*events: Suggestion | Accusation | Note) -> GameLog:
    return GameLog(new_game(CLASSIC, NAMES, Dealing.CLASSIC, me="Ann", my_cards=MINE), events)


# --- a whole game pasted on the home screen -----------------------------------------------------


@pytest.mark.parametrize("name", ["classic-four-players-notes", "forum-gostya-iz-budushchego"])
def test_a_pasted_game_opens_as_a_new_game(store: Store, name: str) -> None:
    text = (EXAMPLES / f"{name}.clue").read_text(encoding="utf-8")
    at = home()
    at.text_area(key="paste_game").set_value(text)
    run(at.button(key="paste_game_open").click())
    assert at.session_state["live"].log == read_text(text)
    assert at.session_state["access"] == "owner"  # saved in this browser's list, to edit
    events = len(read_text(text).events)
    assert told(at.session_state["revision"][1]).render("en") == \
        f"opened a pasted game ({events} events)"


OUT_OF_TURN = """edition: clue-classic
players: Ann 6, Bob 6, Cid 6
me: Ann

Bob accuses Green Rope Hall: wrong
Cid: Plum Knife Study / Ann +
Bob: Peacock Knife Lounge / Cid +
"""
"""A whole game where Bob takes a turn (#3) after his wrong accusation (#1)."""
OPENED_OUT = ("Opened, but Bob is out of the game: they accused wrongly in #1, so they take no "
              "more turns, only show cards. Check #3: Bob: Mrs. Peacock, Knife, Lounge → Cid "
              "showed a card")


def test_a_pasted_game_with_a_turn_taken_while_out_is_opened_and_said(store: Store) -> None:
    """Turns pasted into a game say each turn taken after a wrong accusation (d5b4ae9); a
    whole game pasted on the home screen opened without a word. It opens, and says it on the
    screen it opens on (any tab), in the language chosen, until the game changes; an uploaded
    file too."""
    at = home()
    at.text_area(key="paste_game").set_value(OUT_OF_TURN)
    run(at.button(key="paste_game_open").click())
    assert len(at.session_state["live"].log.events) == 3  # opened, not refused
    assert [shown(w.value) for w in at.warning] == [OPENED_OUT]
    run(at.segmented_control(key="view").set_value("Grid"))
    assert [shown(w.value) for w in at.warning] == [OPENED_OUT]
    run(at.segmented_control(key="lang_pick").set_value("ru"))
    assert shown(at.warning[0].value).startswith("Открыто, но игрок Bob вне игры")
    run(at.segmented_control(key="lang_pick").set_value("en"))
    run(at.segmented_control(key="view").set_value("Log"))
    at.text_area(key="paste_turns").set_value("Cid: Plum Rope Hall / Ann +")
    run(at.button(key="add_paste").click())  # the game has changed
    assert not [w for w in at.warning if "out of the game" in w.value]
    at = home()
    at.file_uploader(key="upload").upload("out.clue", OUT_OF_TURN.encode(), "text/plain")
    run(at)
    run(at.button(key="open_upload").click())
    assert [shown(w.value) for w in at.warning] == [OPENED_OUT]


def test_a_pasted_game_with_a_typo_says_where_and_keeps_the_text(store: Store) -> None:
    text = ("edition: clue-classic\nplayers: Ann 6, Bob 6, Cid 6\nme: Ann\n\n"
            "Ann: Plumb Rope Hall / Bob - Cid +\nBob: Green Pipe Kitchen / Cid +")
    at = home()
    at.text_area(key="paste_game").set_value(text)
    run(at.button(key="paste_game_open").click())
    assert "live" not in at.session_state
    order = page_order(at)
    button = order.index("Button:paste_game_open")
    # right above the button the player tapped: the problem in words, the line pointed at
    [message] = [e for e in order[order.index("TextArea:paste_game"):button] if "Error:" in e]
    assert message.startswith("Error:Please fix:")
    assert ("line 5, column 6: expected a card, got 'Plumb': did you mean Professor Plum?"
            in message)
    assert not any(e.startswith("Error:") for e in order[:order.index("TextArea:paste_game")])
    [code] = [c.value for c in at.code]
    assert code == ("line 5 | Ann: Plumb Rope Hall …\n"  # cut to fit a phone's width
                    "       |      ^ a card")
    assert at.text_area(key="paste_game").value == text  # nothing pasted is lost
    # fixed in place, it opens
    at.text_area(key="paste_game").set_value(text.replace("Plumb", "Plum"))
    run(at.button(key="paste_game_open").click())
    assert at.session_state["live"].log.events[0].cards[0] == "Professor Plum"


def test_a_pasted_game_that_breaks_a_rule_names_its_line(store: Store) -> None:
    text = "edition: clue-classic\nplayers: Ann 9, Bob 9\n\nAnn: Plum Rope Hall / Ann +"
    at = home()
    at.text_area(key="paste_game").set_value(text)
    run(at.button(key="paste_game_open").click())
    assert "live" not in at.session_state
    assert "line 4: event 1" in texts(at)
    assert [c.value for c in at.code] == ["line 4 | Ann: Plum Rope Hall / Ann +"]


def test_an_empty_paste_says_what_to_paste(store: Store) -> None:
    at = home()
    run(at.button(key="paste_game_open").click())
    assert "the text box is empty: paste a game in notation" in texts(at)
    assert "live" not in at.session_state


def test_a_notation_file_can_be_uploaded(store: Store) -> None:
    path = EXAMPLES / "refresh-four-players.clue"
    at = home()
    at.file_uploader(key="upload").upload(path.name, path.read_bytes(), "text/plain")
    run(at)
    run(at.button(key="open_upload").click())
    assert at.session_state["live"].log == read_text(path.read_text(encoding="utf-8"))


# --- the Log screen: the game as text, and turns pasted into it --------------------------------


def test_the_log_shows_the_game_as_text_to_copy_and_download(store: Store) -> None:
    log = classic(Suggestion("Bob", ("Mrs. White", "Knife", "Lounge"), passes=("Cat",),
                             refuted_by="Dan"),
                  Note("Cat", lacks=("Rope",), text="said so"))
    at = open_game(store, log)
    [code] = at.code
    assert code.value == write_text(log).rstrip("\n")
    assert read_text(code.value) == log  # what is copied reads back as the same game
    assert at.code[0].proto.show_line_numbers is False
    [download] = [b for b in at.get("download_button") if b.proto.id.endswith("export_text")]
    assert download.proto.label == "Download as text (.clue)"


def test_pasted_turns_are_added_after_the_games_own_and_undone_at_once(store: Store) -> None:
    log = classic(Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob",),
                             refuted_by="Cat", shown="Knife"))
    at = open_game(store, log)
    at.text_area(key="paste_turns").set_value(
        "Bob: Peacock Rope Hall / Cat - Dan - Ann +\n"
        "# a comment line\n"
        "note Dan lacks Wrench: said so at the table\n")
    run(at.button(key="add_paste").click())
    events = at.session_state["live"].log.events
    assert events[0] == log.events[0]
    assert events[1] == Suggestion("Bob", ("Mrs. Peacock", "Rope", "Hall"),
                                   passes=("Cat", "Dan"), refuted_by="Ann")
    assert events[2].owner == "Dan" and events[2].lacks == ("Wrench",)
    assert shown(at.button(key="undo").label) == "Undo: added events 2-3 from pasted text"
    assert at.text_area(key="paste_turns").value == ""
    run(at.segmented_control(key="view").set_value("Turn"))
    assert at.pills(key="by").value == "Cat"  # the next turn follows the pasted ones
    run(at.button(key="undo").click())
    assert at.session_state["live"].log == log


THREAD = ("Bob: Peacock Rope Hall / Cat - Dan - Ann +\n"
          "Cat: Green Knife Study / Dan +\n"
          "# a comment line\n"
          "Dan: Plum Pipe Lounge / Ann - Bob +\n")
"""Three turns from a thread, as a player copies them."""


def test_pasted_turns_that_repeat_the_logs_last_entries_are_not_added_again(
        store: Store) -> None:
    """A phone play-through: the same 16 lines pasted twice made 32 entries without a word.
    Turns at the paste's start that repeat the log's last entries, the same events in the same
    order, are left out and said; the text stays in its box. A range of entries is never broken
    after its dash (WORD_JOINER): at 390 px the Finnish warning ended '#26-' and '28.' below."""
    at = open_game(store, classic())
    at.text_area(key="paste_turns").set_value(THREAD)
    run(at.button(key="add_paste").click())
    assert len(at.session_state["live"].log.events) == 3
    assert not at.warning
    at.text_area(key="paste_turns").set_value(THREAD)
    run(at.button(key="add_paste").click())
    assert len(at.session_state["live"].log.events) == 3
    assert [shown(w.value) for w in at.warning] == [
        "Nothing added: the 3 pasted turns repeat the log's last entries, #1-\u20603."]
    assert at.text_area(key="paste_turns").value == THREAD
    longer = THREAD + "Ann: White Rope Ballroom / Bob - Cat +\nBob: Mustard Wrench Hall / Cat +"
    at.text_area(key="paste_turns").set_value(longer)
    run(at.button(key="add_paste").click())
    events = at.session_state["live"].log.events
    assert len(events) == 5 and [e.by for e in events[3:]] == ["Ann", "Bob"]
    said = [shown(w.value) for w in at.warning]
    assert said == ["The first 3 pasted turns repeat the log's entries #1-\u20603: added only "
                    "the turns after them, as #4-\u20605."], said
    assert shown(at.button(key="undo").label) == "Undo: added events 4-5 from pasted text"
    assert at.text_area(key="paste_turns").value == longer
    run(at)  # drawn again without a tap: still said
    assert [shown(w.value) for w in at.warning] == said


def test_bug_pasted_turns_repeating_entries_the_log_goes_on_after_are_said(
        store: Store) -> None:
    """A phone play-through: turns pasted, one recorded with the Turn form, the same turns
    pasted again: only a repeat of the log's last entries was seen, so all were added a second
    time without a word. Turns repeating entries anywhere in the log are seen; where the log
    goes on after them, nothing is added (the pasted turns after them may be its next entries
    said otherwise) and that is said, the text kept in its box."""
    at = open_game(store, classic())
    at.text_area(key="paste_turns").set_value(THREAD)
    run(at.button(key="add_paste").click())
    at.text_area(key="paste_turns").set_value("Ann: White Rope Ballroom / Bob - Cat + Rope")
    run(at.button(key="add_paste").click())  # (as the Turn form records it: the card seen)
    assert len(at.session_state["live"].log.events) == 4
    at.text_area(key="paste_turns").set_value(THREAD)
    run(at.button(key="add_paste").click())
    assert len(at.session_state["live"].log.events) == 4
    assert [shown(w.value) for w in at.warning] == [
        "Nothing added: the 3 pasted turns repeat the log's entries #1-\u20603."]
    longer = THREAD + "Ann: White Rope Ballroom / Bob - Cat +\nBob: Mustard Wrench Hall / Cat +"
    at.text_area(key="paste_turns").set_value(longer)  # the thread's line of my turn: repeated
    run(at.button(key="add_paste").click())
    events = at.session_state["live"].log.events
    assert len(events) == 5 and events[4].by == "Bob"
    assert [shown(w.value) for w in at.warning] == [
        "The first 4 pasted turns repeat the log's entries #1-\u20604: added only the turns after "
        "them, as #5."]
    at.text_area(key="paste_turns").set_value(THREAD + "Ann: Plum Rope Ballroom / Bob +")
    run(at.button(key="add_paste").click())  # a thread that differs from the log after #3
    assert len(at.session_state["live"].log.events) == 5
    assert [shown(w.value) for w in at.warning] == [
        "Nothing added: the first 3 pasted turns repeat the log's entries #1-\u20603, and the log "
        "goes on after #3 with turns of its own. Check the pasted turn after them, and paste "
        "it again only if it is not in the log."]
    assert at.text_area(key="paste_turns").value == THREAD + "Ann: Plum Rope Ballroom / Bob +"


def test_bug_a_thread_copied_again_repeats_my_turns_without_the_card_i_saw() -> None:
    """A thread copied again from its start after I noted the card shown to me (the Log, or
    the Turn form): the thread's line of my turn says only who showed one ("Cat +"), so no
    pasted turn equalled the log's and all were added again without a word (at 23 entries of
    the Russian forum example, 26 pasted: 49). A pasted turn that says less than the log's,
    the card shown left out, repeats it."""
    from notebook_app.pasted import read_turns, repeated

    mine = Suggestion("Ann", ("Mrs. White", "Rope", "Ballroom"), passes=("Bob",), refuted_by="Cat",
                      shown="Ballroom")
    log = read_turns(classic(mine), THREAD)
    again = read_turns(log, "Ann: White Rope Ballroom / Bob - Cat +\n" + THREAD
                       + "Ann: Plum Pipe Hall / Bob +")
    assert repeated(log, again) == (4, 1)
    other = read_turns(log, "Ann: White Rope Ballroom / Bob - Cat + Rope\n" + THREAD)
    assert repeated(log, other).turns == 0  # another card shown: another turn


def test_a_pasted_turn_by_a_player_out_of_the_game_is_said(store: Store) -> None:
    """A 12-player forum play-through: turns pasted from the thread had a player ask after
    their wrong accusation, and they were added without a word, though out of the game a
    player takes no more turns and only shows cards (in every edition; here a classic game).
    Added, since a log may hold them, each is said: the player, the accusation and the entry
    to check."""
    log = classic(Accusation("Bob", ("Mr. Green", "Rope", "Hall"), correct=False))
    at = open_game(store, log)
    at.text_area(key="paste_turns").set_value(
        "Cat: Peacock Rope Hall / Dan - Ann +\n"
        "Bob: Peacock Knife Hall / Cat +\n"
        "Dan accuses Plum Rope Lounge: wrong\n"
        "Dan: Plum Knife Study / Ann +\n")
    run(at.button(key="add_paste").click())
    assert len(at.session_state["live"].log.events) == 5
    said = [shown(w.value) for w in at.warning]
    assert said == [
        "Added, but Bob is out of the game: they accused wrongly in #1, so they take no more "
        "turns, only show cards. Check #3: Bob: Mrs. Peacock, Knife, Hall → Cat showed a card",
        "Added, but Dan is out of the game: they accused wrongly in #4, so they take no more "
        "turns, only show cards. Check #5: Dan: Professor Plum, Knife, Study → Ann showed a "
        "card"], said
    run(at)  # drawn again without a tap (the odds, the race line): still said
    assert [shown(w.value) for w in at.warning] == said
    run(at.segmented_control(key="lang_pick").set_value("ru"))  # in the language chosen
    assert shown(at.warning[0].value).startswith("Добавлено, но игрок Bob вне игры")
    at.text_area(key="paste_turns").set_value("Cat: Plum Rope Hall / Dan - Ann +\n")
    run(at.button(key="add_paste").click())
    assert not at.warning  # said once, for the turns it was about


def test_a_wrong_accusation_the_grid_leaves_out_puts_nobody_out_of_turn(store: Store) -> None:
    """Past a clash the grid leaves out Bob's wrong accusation (#2: the envelope was noted to
    be those cards), and the header and the Turn form count Bob as playing; his pasted turn was
    still said to be taken while out of the game ("they accused wrongly in #2"). The check
    reads the entries the grid keeps."""
    log = classic(Note(ENVELOPE, holds=("Mr. Green", "Knife", "Lounge"), text="seen"),
                  Accusation("Bob", ("Mr. Green", "Knife", "Lounge"), correct=False))
    at = open_game(store, log)
    assert at.session_state["live"].grid()[1] == (2,)
    at.text_area(key="paste_turns").set_value("Bob: Peacock Wrench Dining / Cat +\n")
    run(at.button(key="add_paste").click())
    assert len(at.session_state["live"].log.events) == 3
    said = [shown(w.value) for w in at.warning]
    assert not [w for w in said if "out of the game" in w], said


def test_pasted_turns_with_a_typo_name_the_pasted_line(store: Store) -> None:
    log = classic(Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob"))
    at = open_game(store, log)
    text = "Bob: Peacock Rope Hall / Cat +\nCat: Grene Rope Hall / Dan +"
    at.text_area(key="paste_turns").set_value(text)
    run(at.button(key="add_paste").click())
    assert at.session_state["live"].log == log  # nothing half-added
    message = shown(at.error[0].value)
    assert "line 2, column 6: expected a player or a card" in message or \
        "line 2, column 6: expected a card" in message
    assert "did you mean Mr. Green?" in message
    assert at.code[-1].value.startswith("line 2 | Cat: Grene Rope Hall …\n")
    assert at.text_area(key="paste_turns").value == text


def test_a_game_in_json_pasted_as_turns_is_one_problem(store: Store) -> None:
    """A whole JSON log pasted where turns go drew one problem for each of its lines (199 for a
    20-turn game, the box pages long): it is one, saying where such a game opens."""
    from solver.logfile import dumps

    log = classic()
    at = open_game(store, log)
    text = dumps(classic(Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob")))
    at.text_area(key="paste_turns").set_value(text)
    run(at.button(key="add_paste").click())
    assert at.session_state["live"].log == log
    [message] = [shown(e.value) for e in at.error]
    assert message.count("\n") == 1, message  # "Please fix:" and the one problem
    assert "a whole game in JSON opens on the home screen" in message, message
    assert at.text_area(key="paste_turns").value == text


def test_many_unreadable_lines_are_said_up_to_the_limit(store: Store) -> None:
    """Text that is no notation at all (a chat pasted as a game) is said in at most 50
    problems, then how many more, as a log's are."""
    at = home()
    text = "edition: clue-classic\nplayers: Ann 9, Bob 9\n\n" + "\n".join(
        f"line {n} of a chat about the game" for n in range(200))
    at.text_area(key="paste_game").set_value(text)
    run(at.button(key="paste_game_open").click())
    message = shown(at.error[0].value)
    assert message.count("\n- ") <= 51 and "more problems" in message, message[-300:]
    assert at.code[-1].value.count("\n") < 2 * 52


def test_pasted_turns_keep_a_half_filled_turn_form(store: Store) -> None:
    at = open_game(store, classic())
    run(at.segmented_control(key="view").set_value("Turn"))
    run(at.pills(key="e_suspect").set_value("Mrs. White"))
    run(at.segmented_control(key="view").set_value("Log"))
    at.text_area(key="paste_turns").set_value("Ann: Plum Rope Hall / Bob +")
    run(at.button(key="add_paste").click())
    assert len(at.session_state["live"].log.events) == 1
    run(at.segmented_control(key="view").set_value("Turn"))
    assert at.pills(key="e_suspect").value == "Mrs. White"


def test_a_read_link_shows_the_text_but_takes_no_turns(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = classic(Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob"))
    game_id = store.create(log, "owner-shelf")
    monkeypatch.setattr(session, "browser_cookie", lambda: "reader-shelf")
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["game"] = store.links(game_id).read
    run(at)
    assert at.session_state["access"] == "read"
    run(at.segmented_control(key="view").set_value("Log"))
    assert [c.value for c in at.code] == [write_text(log).rstrip("\n")]
    assert not [t for t in at.text_area if t.key == "paste_turns"]


def test_a_paste_too_long_says_its_length_as_the_language_writes_numbers() -> None:
    """A paste longer than a log may have was refused with its length grouped the English way
    in every language ("1,200,000" in Finnish and Russian, which write "1 200 000"), though the
    text boxes' refusals write numbers as the language does (`solver.i18n.number_said`)."""
    from notebook_app.pasted import MAX_PASTE, read_game
    from solver.errors import InvalidLogError
    from solver.i18n import speaking

    for language, count in (("en", "1,200,000"), ("fi", "1\xa0200\xa0000"),
                            ("ru", "1\xa0200\xa0000"), ("ja", "1,200,000")):
        with speaking(language), pytest.raises(InvalidLogError) as refused:
            read_game("x" * (MAX_PASTE + 200_000))
        assert count in refused.value.problems[0], (language, refused.value.problems)


@pytest.mark.parametrize("line", [
    "edition: " + "x" * 100_000,  # one word too long for the phone's width
    "Ann: Plum Rope Hall {\"x\": " + "[" * 50_000 + "]" * 50_000 + "}",
    "Ann: " + "\u0301" * 100_000 + " Plumb Rope Hall",  # drawn in no columns at all
])
def test_a_long_pasted_line_is_pointed_at_in_one_pass(line: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The caret under a pasted line too long for a phone was placed by cutting the line a
    character at a time and measuring it again: a paste of one 100,000-character line kept
    the server's script run busy for minutes (the app's run timed out) before the problem was
    said. Each character is measured a few times at most."""
    import unicodedata

    import notebook_app.pasted as pasted
    from solver.errors import InvalidLogError

    text = "edition: clue-classic\nplayers: Ann 9, Bob 9\n\n" + line
    with pytest.raises(InvalidLogError) as refused:
        pasted.read_game(line if line.startswith("edition") else text)
    measured = 0

    class Counting:
        def __getattr__(self, name: str) -> object:
            return getattr(unicodedata, name)

        @staticmethod
        def combining(char: str) -> int:
            nonlocal measured
            measured += 1
            assert measured < 10 * len(text), "measured again and again"
            return unicodedata.combining(char)

    monkeypatch.setattr(pasted, "unicodedata", Counting())
    found = pasted.trouble(line if line.startswith("edition") else text, refused.value)
    assert found.problems and "^" in found.pointed
    assert all(pasted.drawn_width(row) <= pasted.POINTED_WIDTH
               for row in found.pointed.splitlines()), found.pointed


def test_my_question_the_host_answered_without_the_card_is_asked_for(store: Store) -> None:
    """Turns pasted from a forum thread had my question answered by the host for Bob by the
    order (``[first]``) with no card, and were added without a word (a play-through): I was
    shown that card, and without it the rule tells nothing. The log may hold it (``shown`` is
    optional), so it is added, and said until the game changes, as a whole game opened is; the
    entry tapped in the Log asks for the card before Record saves it."""
    at = open_game(store, classic())
    at.text_area(key="paste_turns").set_value("Ann: Green Pipe Lounge / Bob + [first]\n")
    run(at.button(key="add_paste").click())
    [added] = at.session_state["live"].log.events
    assert added == Suggestion("Ann", ("Mr. Green", "Lead Pipe", "Lounge"), refuted_by="Bob",
                               shown_by_rule="first-in-order")
    said = "the card Bob showed you in #1 by the host's rule is not noted: tap #1 in the Log"
    assert [shown(w.value) for w in at.warning] == [f"Added, but {said} and add it."]
    run(at.button(key="edit_0").click())
    run(at.button(key="submit").click())
    assert at.session_state["live"].log.events == (added,)
    assert "Tap the card Bob showed you: the host's rule needs it." in texts(at)
    run(at.pills(key="e_shown").set_value("Lead Pipe"))
    run(at.button(key="submit").click())
    assert at.session_state["live"].log.events == (replace(added, shown="Lead Pipe"),)
    at = home()
    at.text_area(key="paste_game").set_value(write_text(classic(added)))
    run(at.button(key="paste_game_open").click())
    assert [shown(w.value) for w in at.warning] == [f"Opened, but {said} and add it."]


def test_the_paste_example_is_in_the_cards_of_the_box_chosen(store: Store) -> None:
    """The paste box's example was the US box in English whatever the box chosen above it (a
    Russian box in a Russian phone play-through): it follows the box chosen for a new game,
    and each box's example reads as the game it shows."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert at.text_area(key="paste_game").placeholder.startswith("edition: clue-classic\n")
    at.selectbox(key="new_edition").set_value("cluedo-classic-ru").run()
    example = at.text_area(key="paste_game").placeholder
    assert example.startswith("edition: cluedo-classic-ru\nplayers: Аня 6, Боря 6, Вика 6\n")
    for name, edition in editions().items():
        log = read_text(game_example(name))
        boxed = edition.dealing is not Dealing.FORUM
        assert log.game.edition == (name if boxed else "clue-classic")
        assert [e.by for e in log.events if isinstance(e, Suggestion)] == list(
            log.game.player_names[:2])
