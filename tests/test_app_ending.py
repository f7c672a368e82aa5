"""The app's header at a game's end by the edition's rule sheet (`solver.ending`): the classic
sheet's last player standing has won, Refresh 2012's last player must still accuse and all may
fail."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from notebook_app.store import Store
from solver.editions import edition, new_game
from solver.game import ENVELOPE, Accusation, GameLog, Note
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
    line = next(c for c in at.caption  # she must still accuse (106 envelopes alike: none named)
                if shown(c.value).startswith("Suggest first, then decide: "))
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
    assert at.segmented_control(key="kind").value == "Note"  # the envelope is opened now


def test_bug_the_envelope_opened_when_nobody_won_is_recorded_and_listed(store: Store) -> None:
    """Refresh 2012: once every player has accused wrongly the murder stays unsolved and the
    envelope is looked at together ("kuoren sisältö katsotaan yhdessä"). The app had no entry
    for it: the form offered only the hands players show, and the Log had nothing to list. The
    log format's way is a note (a fact learned outside the suggestion rules) that the envelope
    holds its three cards: the form now starts there, its owner the envelope and a line saying
    what to tap; the Log lists the entry as the envelope opened, the header names the envelope,
    and the form goes on to the hands players show."""
    log = table("cluedo-refresh-2012-fi")
    deck = log.game.deck
    log = log.append(Accusation("Cid", (deck.suspects[2], deck.weapons[2], deck.rooms[2])))
    at, _ = open_app(store, log)
    assert at.segmented_control(key="kind").value == "Note"
    assert at.pills(key="n_owner").value == ENVELOPE
    assert at.segmented_control(key="n_relation").value == "holds"
    assert ("Every player accused wrongly, so the envelope is opened: tap its three cards, then "
            "Record. The log keeps them with the game.") in [shown(c.value) for c in at.caption]
    envelope = (deck.suspects[3], deck.weapons[3], deck.rooms[0])
    for key, card in zip(("n_suspect", "n_weapon", "n_room"), envelope, strict=True):
        at.pills(key=key).set_value([card])
    submit(at)
    assert events(at)[-1] == Note(ENVELOPE, holds=envelope)
    assert shown(at.button(key="undo").label) == "Undo #4: Envelope opened: " + ", ".join(
        envelope)
    assert [shown(i.value) for i in at.info] == [
        "Every player accused wrongly: the game is over with no winner. The envelope: "
        + ", ".join(envelope) + "."]
    assert at.segmented_control(key="kind").value == "Reveal"  # then the hands shown
    assert "the envelope is opened" not in texts(at)
    at.segmented_control(key="view").set_value("Log").run()
    assert not at.exception, at.exception
    assert any(shown(b.label) == "**#4** Envelope opened: " + ", ".join(envelope)
               for b in at.button)
