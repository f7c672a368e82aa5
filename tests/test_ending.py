"""How a game ends by its edition's rule sheet (`solver.ending`): the classic sheet's last player
standing wins, Refresh 2012's and the forum's must still accuse and may all fail (no winner);
what `past_advice` and the command line say then. A wrong accusation still only excludes its
triple."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver import cli
from solver.cards import Deck
from solver.editions import Dealing, edition, forum_deck, new_game
from solver.ending import Close, Ending, ending, last_in, last_one_wins
from solver.envelopes import possible_triples
from solver.game import Accusation, GameLog
from solver.race import past_advice
from solver.values import replace
from tests.test_race_cli import _run

THREE = ("Aki", "Ben", "Cid")


def table(name: str, me: str | None = "Cid") -> GameLog:
    """Three players at a box's table, ``me`` holding its first six cards (none in the
    accusations below)."""
    box = edition(name)
    cards = box.deck.rooms[3:] if me is not None else ()
    return GameLog(new_game(box.deck, THREE, box.dealing, me=me, my_cards=cards,
                            edition_name=name), ())


def wrong(log: GameLog, *by: str) -> GameLog:
    """Each of ``by`` accuses wrongly (a different triple each: the deck's first cards)."""
    deck = log.game.deck
    for n, name in enumerate(by):
        log = log.append(Accusation(name, (deck.suspects[n], deck.weapons[n], deck.rooms[n])))
    return log


def test_bug_classic_japanese_last_player_standing_wins() -> None:
    """A 3-player Japanese classic game: Aki and Ben accused wrongly, and the app still said
    "nobody seems to know the envelope yet" and played on. By the sheet (classic-rules-ja.txt:
    「もし1人を除いたすべての選手が間違った告発をしたら、最後に立った選手が勝つ」) Cid has won."""
    log = wrong(table("clue-classic-ja"), "Aki", "Ben")
    assert ending(log) == Ending(2, "Cid", Close.STANDING)
    assert ending(log.upto(1)) is None
    said = past_advice(log)
    assert said is not None and said.render() == "You win: every other player accused wrongly."
    for me in ("Aki", None):  # a loser's notebook, a spectator's: by name
        theirs = GameLog(table("clue-classic-ja", me).game, log.events)
        said = past_advice(theirs)
        assert said is not None
        assert said.render() == "Cid wins: every other player accused wrongly."
    said = past_advice(log, addressed=False)  # a read link's reader
    assert said is not None and said.render() == "Cid wins: every other player accused wrongly."
    assert said.render("ja") != said.render()


def test_refresh_last_player_must_still_accuse_and_all_may_fail() -> None:
    """Refresh 2012 (refresh-2012-rules-fi.txt): the last player in does not win of the others'
    mistakes, and when everyone accuses wrongly the murder stays unsolved, no winner."""
    log = wrong(table("cluedo-refresh-2012-fi"), "Aki", "Ben")
    assert ending(log) is None and last_in(log) == "Cid"
    assert past_advice(log) is None  # advice goes on: I must still accuse
    log = wrong(log, "Cid")
    assert ending(log) == Ending(3, None, Close.UNSOLVED) and last_in(log) is None
    said = past_advice(log)
    assert said is not None
    assert said.render() == "Every player accused wrongly: the game is over with no winner."
    assert said.render("fi") != said.render()


def test_a_right_accusation_of_the_last_player_in_wins_in_refresh() -> None:
    log = wrong(table("cluedo-refresh-2012-fi"), "Aki", "Ben")
    log = log.append(Accusation("Cid", ("Jaska Keltanokka", "köysi", "veranta"), correct=True))
    assert ending(log) == Ending(3, "Cid", Close.ACCUSED)


def test_the_rule_per_edition_and_for_custom_decks() -> None:
    """Classic boxes (the Russian one too: its sheet is silent, the box is the classic one) end
    by the last player standing; Refresh and the forum do not. A custom deck plays the classic
    sheet unless it was dealt by another rule (the forum's shape; cards face up: Refresh)."""
    for name in ("clue-classic", "cluedo-uk", "clue-classic-ja", "cluedo-classic-ru"):
        assert last_one_wins(table(name).game), name
    assert not last_one_wins(table("cluedo-refresh-2012-fi").game)
    assert not last_one_wins(table("forum-gostya-iz-budushchego", None).game)
    forum = new_game(forum_deck(3), THREE, Dealing.FORUM)
    assert not last_one_wins(forum)
    assert ending(wrong(GameLog(forum, ()), "Aki", "Ben")) is None
    custom = Deck(("A", "B", "C"), ("D", "E", "F"), ("G", "H", "I", "J"))
    assert last_one_wins(new_game(custom, THREE, Dealing.CLASSIC))
    assert not last_one_wins(new_game(custom, THREE, Dealing.REFRESH, face_up=("J",)))


def test_the_end_changes_no_deduction() -> None:
    """Cid's win rules out only the two triples accused: the envelope is not thereby known."""
    before = table("clue-classic-ja")
    log = wrong(before, "Aki", "Ben")
    assert len(possible_triples(log)) == len(possible_triples(before)) - 2


def test_accuse_on_a_finished_game_says_how_it_ended(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`accuse` on a finished game always ended with "You accused correctly: the game is over."
    whatever triple was asked about, below "not right: ..." (a play-through): its last line now
    names the entry that ended the game and how, and who won."""
    box = edition("clue-classic-ja").deck
    asked = (box.suspects[1], box.weapons[1], box.rooms[1])
    won = wrong(table("clue-classic-ja", "Aki"), "Aki", "Ben")
    status, out, _ = _run(capsys, won, tmp_path, "accuse", *asked)
    assert status == cli.OK
    assert out.splitlines()[-1] == ("The game ended in event 2: every other player had accused "
                                    "wrongly, so Cid won.")
    status, out, _ = _run(capsys, won, tmp_path, "accuse", *asked, "--json")
    data = json.loads(out)
    assert data["winner"] == "Cid" and data["ended"] == {"event": 2, "how": "standing"}
    assert "advice" not in data
    mine = GameLog(table("clue-classic-ja").game, won.events)
    status, out, _ = _run(capsys, mine, tmp_path, "accuse", *asked)
    assert out.splitlines()[-1] == ("The game ended in event 2: every other player had accused "
                                    "wrongly, so you won.")
    status, out, err = _run(capsys, mine, tmp_path, "advise")
    assert (status, out) == (cli.INVALID, "")
    assert "the game ended in event 2: You win" in err and "--upto 1" in err
    status, out, _ = _run(capsys, mine, tmp_path, "show", "Aki", *asked[:2], box.rooms[3])
    assert (status, out) == (cli.OK, "You win: every other player accused wrongly.\n")

    lost = wrong(table("cluedo-refresh-2012-fi"), "Aki", "Ben", "Cid")
    fi = edition("cluedo-refresh-2012-fi").deck
    status, out, _ = _run(capsys, lost, tmp_path, "accuse", fi.suspects[4], fi.weapons[4],
                          fi.rooms[0])
    assert status == cli.OK and out.splitlines()[-1] == (
        "The game ended in event 3 with no winner: every player accused wrongly.")
    status, out, _ = _run(capsys, lost, tmp_path, "race", "--json")
    data = json.loads(out)
    assert "winner" not in data and data["ended"] == {"event": 3, "how": "unsolved"}
    status, out, _ = _run(capsys, lost.upto(2), tmp_path, "accuse", fi.suspects[4],
                          fi.weapons[4], fi.rooms[0])
    assert status == cli.OK and "game" not in out.splitlines()[-1]  # Cid plays on


def test_a_boxs_deck_written_as_cards_ends_by_its_boxs_sheet() -> None:
    """The log format lets a game's ``cards`` stand for its ``edition`` (the contract's own
    example lists the Finnish Refresh cards). A 3-player Refresh 2012 game so written has no
    card face up (18 cards, 6 each) and was taken for a custom deck dealt classically: after
    Aki's and Ben's wrong accusations it said Cid had won, where the same game with its edition
    named goes on (Cid must still accuse)."""
    named = wrong(table("cluedo-refresh-2012-fi"), "Aki", "Ben")
    listed = replace(named, game=replace(named.game, edition=None))
    assert ending(named) is None and last_in(named) == "Cid"
    assert ending(listed) is None and last_in(listed) == "Cid"
    classic = wrong(table("clue-classic-ja"), "Aki", "Ben")
    assert ending(replace(classic, game=replace(classic.game, edition=None))) == Ending(
        2, "Cid", Close.STANDING)


def test_bug_custom_deck_dealt_the_refresh_way_ends_by_refresh() -> None:
    """A custom deck of 21 cards dealt by the Refresh 2012 rule to 3 players leaves no card face
    up (6 each): the setup looked like a classic deal and the game ended by the classic sheet,
    Cid winning once Aki and Ben had accused wrongly. The setup keeps the rule it was dealt by
    (``dealing``, written to the log), and the game ends by that rule: Cid must still accuse.
    The same deck dealt classically still ends by the classic sheet."""
    from solver.logfile import dumps, loads

    custom = Deck(tuple("ABCDEF"), tuple("GHIJKL"), tuple("MNOPQRSTU"))
    refresh = GameLog(new_game(custom, THREE, Dealing.REFRESH), ())
    assert not refresh.game.face_up and not refresh.game.side_cards
    assert not last_one_wins(refresh.game)
    assert ending(wrong(refresh, "Aki", "Ben")) is None
    assert last_in(wrong(refresh, "Aki", "Ben")) == "Cid"
    read = loads(dumps(refresh))  # the rule survives the log file
    assert not last_one_wins(read.game) and ending(wrong(read, "Aki", "Ben")) is None
    classic = GameLog(new_game(custom, THREE, Dealing.CLASSIC), ())
    assert ending(wrong(classic, "Aki", "Ben")) == Ending(2, "Cid", Close.STANDING)


def test_the_envelope_is_opened_when_nobody_won() -> None:
    """Refresh 2012: once every player has accused wrongly the envelope is looked at together.
    The contract has no event for it: a note that the envelope holds three cards, after the
    end, records it (`opened`); until then it is still to open (`to_open`). Not where someone
    won (the classic last player standing), nor for a note before the end."""
    from solver.ending import opened, to_open
    from solver.game import ENVELOPE, Note

    fi = edition("cluedo-refresh-2012-fi").deck
    envelope = Note(ENVELOPE, holds=(fi.suspects[4], fi.weapons[4], fi.rooms[0]))
    log = wrong(table("cluedo-refresh-2012-fi"), "Aki", "Ben")
    assert not to_open(log) and opened(log.append(envelope)) is None  # Cid plays on
    log = wrong(log, "Cid")
    assert to_open(log) and opened(log) is None
    assert opened(log.append(Note(ENVELOPE, holds=(fi.suspects[4],)))) is None  # one card
    done = log.append(envelope)
    assert opened(done) == 4 and not to_open(done)
    assert not to_open(wrong(table("clue-classic-ja"), "Aki", "Ben"))  # Cid won


def test_bug_the_rule_a_setup_says_it_was_dealt_by_is_the_rule_it_plays_by() -> None:
    """The setup's ``dealing`` (since 2026-12-04) was read only for how the game ends, while
    whether it plays as the forum (`forum_dealt`: a question to one player, the host's order,
    places and no board, so no room barred by the last suggestion) still went by the cards. A
    classic box dealt the forum's way to six players (3 cards each) ended as the forum, with no
    winner once all had accused wrongly, yet played as a board game: the advice barred the
    place of my last question. A forum-shaped custom deck dealt the Refresh way played as the
    forum and ended as Refresh. What the setup says now goes for both."""
    from solver.advice import barred_room
    from solver.editions import forum_dealt
    from solver.game import Suggestion
    from solver.logfile import dumps, loads

    box = edition("clue-classic")
    six = ("A", "B", "C", "D", "E", "F")
    forum = GameLog(new_game(box.deck, six, Dealing.FORUM, me="A", edition_name="clue-classic"))
    asked = forum.append(Suggestion("A", ("Mrs. White", "Rope", "Hall"), passes=("B",)))
    for log in (asked, loads(dumps(asked))):
        assert not last_one_wins(log.game) and forum_dealt(log.game)
        assert barred_room(log, "A") is None  # the forum has no board
    shaped = new_game(forum_deck(4), ("A", "B", "C", "D"), Dealing.REFRESH)
    assert not shaped.face_up and not last_one_wins(shaped)
    assert not forum_dealt(shaped) and not forum_dealt(loads(dumps(GameLog(shaped))).game)
    plain = new_game(forum_deck(4), ("A", "B", "C", "D"), Dealing.FORUM)  # as before: its shape
    assert forum_dealt(plain) and not last_one_wins(plain)


def test_bug_a_classic_shaped_custom_deck_dealt_the_classic_way_is_no_forum_game() -> None:
    """A deck typed in for a themed box shaped like the classic one (6 suspects, 6 weapons, 9
    rooms) at six players holds 3 cards each: the forum's shape (N, N, N + 3, 3 cards each). Dealt
    the classic way, it played as the forum (a question to one player, places, no board) and
    ended by its rule, since the setup said nothing of the rule where the cards seemed to. The
    setup now says the rule wherever it is not the one the cards imply."""
    from solver.editions import forum_dealt
    from solver.logfile import dumps, loads

    deck = Deck(tuple(f"Suspect {i}" for i in range(1, 7)),
                tuple(f"Weapon {i}" for i in range(1, 7)), tuple(f"Room {i}" for i in range(1, 10)))
    six = ("A", "B", "C", "D", "E", "F")
    themed = new_game(deck, six, Dealing.CLASSIC)
    for game in (themed, loads(dumps(GameLog(themed))).game):
        assert not forum_dealt(game) and last_one_wins(game)
    forum = new_game(deck, six, Dealing.FORUM)  # the shape says it: nothing more written
    assert forum_dealt(forum) and not forum.extra
