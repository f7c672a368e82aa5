"""The app's header at a game's end by the edition's rule sheet (`solver.ending`): the classic
sheet's last player standing has won, Refresh 2012's last player must still accuse and all may
fail."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from notebook_app.store import Store
from solver.editions import edition, new_game
from solver.game import Accusation, GameLog
from tests import test_app
from tests.test_app import events, open_app, pick, shown, submit, texts

store = test_app.store
"""A fresh database for each test, where the app finds it (the one `test_app` uses)."""

THREE = ("Aki", "Ben", "Cid")


def table(name: str, me: str | None = "Cid") -> GameLog:
    """Three players at a box's table, ``me`` holding its last six rooms; Aki and Ben have
    accused wrongly (the deck's first and second cards)."""
    box = edition(name)
    deck = box.deck
    game = new_game(deck, THREE, box.dealing, me=me, edition_name=name,
                    my_cards=deck.rooms[3:] if me is not None else ())
    return GameLog(game, tuple(Accusation(by, (deck.suspects[n], deck.weapons[n], deck.rooms[n]))
                               for n, by in enumerate(THREE[:2])))


def successes(at: AppTest) -> list[str]:
    return [shown(s.value) for s in at.success]


def test_bug_classic_last_player_standing_has_won(store: Store) -> None:
    """A 3-player Japanese classic game: after Aki and Ben both accused wrongly the app still
    said "nobody seems to know the envelope yet" and played on. Cid has won by the sheet: the
    header says so, the race line and the accuse-or-wait advice stop, and the form takes what
    players show now (or Cid's own accusation)."""
    at, _ = open_app(store, table("clue-classic-ja"))
    assert successes(at) == ["You win: every other player accused wrongly. The envelope was not "
                             "solved, nor is it certain in this notebook."]
    said = texts(at)
    assert "nobody seems" not in said.lower() and "know" not in said
    assert not any(word in said.lower() for word in ("accuse now", "wait:", "suggest first"))
    assert at.segmented_control(key="kind").value == "Reveal"
    at.segmented_control(key="kind").set_value("Accusation").run()
    at.pills(key="by").set_value("Cid").run()
    deck = edition("clue-classic-ja").deck
    pick(at, deck.suspects[2], deck.weapons[2], deck.rooms[2])
    at.pills(key="e_result").set_value("right")
    submit(at)
    assert isinstance(events(at)[-1], Accusation)
    envelope = ", ".join((deck.suspects[2], deck.weapons[2], deck.rooms[2]))
    assert successes(at)[0] == f"You win: every other player accused wrongly. The envelope: " \
        f"{envelope}."


def test_in_japanese_the_two_sentences_join_without_a_space(store: Store) -> None:
    game_id = store.create(table("clue-classic-ja"), "test-shelf")
    at = AppTest.from_file(test_app.APP, default_timeout=60)
    at.session_state["lang"] = "ja"
    at.session_state["shelf"] = "test-shelf"
    at.session_state["game_id"] = game_id
    at.run()
    assert not at.exception, at.exception
    assert successes(at) == ["あなたの勝ち: 他の全員の告発が不正解でした。封筒の中身は解かれず、"
                             "この手帳でも確定していません。"]


def test_a_spectator_reads_the_winner_by_name(store: Store) -> None:
    at, _ = open_app(store, table("clue-classic-ja", me=None))
    assert successes(at)[0].startswith("Cid wins: every other player accused wrongly.")
    at, _ = open_app(store, table("clue-classic-ja", me="Aki"))
    assert successes(at)[0].startswith("Cid wins: every other player accused wrongly.")
    assert "You accused wrongly" not in texts(at)


def test_refresh_the_last_player_must_still_accuse_then_nobody_wins(store: Store) -> None:
    """Refresh 2012: with Aki and Ben out Cid plays on (no win claimed, her advice goes on);
    when she too accuses wrongly the game is over with no winner."""
    log = table("cluedo-refresh-2012-fi")
    at, _ = open_app(store, log)
    assert not successes(at) and "You win" not in texts(at) and "Cid wins" not in texts(at)
    line = next(c for c in at.caption if "bluff" in shown(c.value))  # she must still accuse
    assert shown(line.value).endswith("\nNobody else can win: every other player accused "
                                      "wrongly")
    assert at.segmented_control(key="kind").value == "Suggestion"
    deck = log.game.deck
    at.segmented_control(key="kind").set_value("Accusation").run()
    at.pills(key="by").set_value("Cid").run()
    pick(at, deck.suspects[2], deck.weapons[2], deck.rooms[2])
    at.pills(key="e_result").set_value("wrong")
    submit(at)
    assert not successes(at)  # nobody won: no success
    assert [shown(i.value) for i in at.info] == [
        "Every player accused wrongly: the game is over with no winner. The envelope was not "
        "solved, nor is it certain in this notebook."]
    assert "nobody seems" not in texts(at).lower()
    assert at.segmented_control(key="kind").value == "Reveal"
