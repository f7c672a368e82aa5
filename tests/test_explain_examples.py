"""The worked examples of the Finnish Refresh rules (shared/rules.md), as a player explains them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from solver.cards import Deck
from solver.errors import ContradictionError, InvalidLogError
from solver.explain import Explainer, explain_cell, explain_conflict
from solver.game import Game, GameLog, Note, Player, Reveal, SidePeek, Suggestion
from solver.logfile import parse
from solver.notebook import Knowledge, Notebook

PLAYERS = ("Aino", "Niko", "Veera", "Oona")
REGINA, JUHANI = "Regina Päiväperhonen", "Juhani Viherlevä"


def refresh_log(events: list[dict[str, Any]], mine: tuple[str, ...] = ()) -> GameLog:
    return parse({
        "format": "clue-notebook/1", "edition": "cluedo-refresh-2012-fi",
        "players": [{"name": n, "hand_size": 4} for n in PLAYERS],
        "me": "Aino", "my_cards": list(mine), "face_up": ["veranta", "putki"], "events": events,
    })


def suggestion(by: str, cards: tuple[str, str, str], passes: tuple[str, ...] = (),
               refuted_by: str | None = None, shown: str | None = None) -> dict[str, Any]:
    return {"type": "suggestion", "by": by, "cards": list(cards), "passes": list(passes),
            "refuted_by": refuted_by, "shown": shown}


def reveal(player: str, *cards: str) -> dict[str, Any]:
    return {"type": "reveal", "player": player, "cards": list(cards)}


def test_example_1_a_pass_and_a_card_seen() -> None:
    log = refresh_log([suggestion("Aino", (REGINA, "köysi", "autotalli"), ("Niko",), "Veera",
                                  "köysi")])
    with Explainer.of(log) as explainer:
        seen = explainer.cell("köysi", "Veera")
        assert seen.value is Knowledge.YES and seen.events == (1,)
        assert seen.steps[-1].text == "Veera showed you köysi (event 1)."
        passed = explainer.cell("autotalli", "Niko")
        assert passed.value is Knowledge.NO
        assert "Niko could not answer" in passed.steps[-1].text and "event 1" in passed.text()
        nobody_else = explainer.cell("köysi", "Oona")
        assert "köysi is Veera's, so Oona does not hold it" in nobody_else.steps[-1].text
        assert nobody_else.steps[-1].uses == (1,)
        unknown = explainer.cell("autotalli", "Oona")
        assert unknown.value is Knowledge.MAYBE and "Not known" in unknown.text()


def test_example_2_nobody_answers_so_the_room_is_in_the_envelope() -> None:
    mine = (REGINA, "köysi", "tikari", "keittiö")
    log = refresh_log([suggestion("Aino", (REGINA, "köysi", "autotalli"),
                                  ("Niko", "Veera", "Oona"))], mine)
    explanation = explain_cell(log, "autotalli", "envelope")
    assert explanation.value is Knowledge.YES and explanation.events == (1,)
    text = explanation.text()
    assert "Your 4 cards are all known" in text
    for player in ("Niko", "Veera", "Oona"):
        assert f"{player} could not answer" in text
    assert explanation.steps[-1].rule == "single-owner"
    assert "autotalli is in the envelope" in explanation.steps[-1].text
    # steps that differ only in their card share a line of the text, not of the JSON
    assert len(explanation.steps) == 9
    assert "  1-4. You hold Regina Päiväperhonen, köysi, tikari and keittiö (your own hand)." in (
        text.splitlines())


def test_example_3_refutation_narrowed_by_later_knowledge() -> None:
    log = refresh_log([suggestion("Oona", (REGINA, "pistooli", "keittiö"), (), "Veera"),
                       reveal("Niko", REGINA)], mine=("pistooli",))
    explanation = explain_cell(log, "keittiö", "Veera")
    assert explanation.value is Knowledge.YES and explanation.events == (1, 2)
    last = explanation.steps[-1]
    assert last.rule == "narrowed" and last.events == (1,)
    assert "Veera answered (Regina Päiväperhonen, pistooli, keittiö) in event 1" in last.text
    assert f"{REGINA} is Niko's" in last.text and "pistooli is yours" in last.text
    assert last.text.endswith("so Veera holds keittiö.")
    assert len(explanation.steps) == 3


def test_example_4_a_guess_proves_nothing() -> None:
    seen = refresh_log([reveal("Niko", "pistooli"), reveal("Oona", "autotalli"),
                        suggestion("Aino", (JUHANI, "pistooli", "autotalli"), (), "Veera")])
    explanation = explain_cell(seen, JUHANI, "Veera")
    assert "pistooli is Niko's and autotalli is Oona's, so Veera holds Juhani" in (
        explanation.steps[-1].text)
    assert explanation.events == (1, 2, 3)
    guessed = refresh_log([reveal("Niko", "pistooli"),
                           suggestion("Aino", (JUHANI, "pistooli", "autotalli"), (), "Veera")])
    assert explain_cell(guessed, JUHANI, "Veera").value is Knowledge.MAYBE


def test_json_follows_the_contract() -> None:
    log = refresh_log([suggestion("Oona", (REGINA, "pistooli", "keittiö"), (), "Veera"),
                       reveal("Niko", REGINA)], mine=("pistooli",))
    data = json.loads(json.dumps(explain_cell(log, "keittiö", "Veera").to_json()))
    assert set(data) == {"card", "owner", "value", "events", "steps"}
    assert (data["card"], data["owner"], data["value"], data["events"]) == (
        "keittiö", "Veera", "yes", [1, 2])
    for step in data["steps"]:
        assert set(step) == {"text", "events", "from", "fact"}
    assert data["steps"][-1]["from"] == [1, 2]
    assert data["steps"][-1]["fact"] == {"card": "keittiö", "owner": "Veera", "value": "yes"}
    maybe = explain_cell(log, "köysi", "Oona").to_json()
    assert maybe["value"] == "maybe" and maybe["steps"] == []
    assert [e["holds"] for e in maybe["examples"]] == [True, False]
    assert "köysi" in maybe["examples"][0]["deal"]["Oona"]


def test_face_up_cards_explain_themselves() -> None:
    explanation = explain_cell(refresh_log([]), "veranta", "Oona")
    assert explanation.value is Knowledge.NO and explanation.events == ()
    assert explanation.steps[0].text == "veranta lies face up, so nobody holds it."


def test_a_wrong_entry_is_explained_as_a_clash() -> None:
    log = refresh_log([suggestion("Aino", (REGINA, "köysi", "autotalli"), ("Niko",), "Veera",
                                  "köysi"),
                       suggestion("Oona", ("Marjaana Punakulta", "köysi", "keittiö"), ("Aino",
                                  "Niko", "Veera"))])
    conflict = explain_conflict(log)
    assert conflict is not None and conflict.events == (1, 2)
    text = conflict.text()
    assert "Veera showed you köysi (event 1)" in text
    assert "Veera could not answer" in text and "cannot all be true" in text
    assert conflict.steps[-1].fact is None
    assert explain_conflict(refresh_log([])) is None
    with Explainer.of(log) as explainer, pytest.raises(ContradictionError):
        explainer.cell("köysi", "Veera")


def test_unknown_card_or_owner_names_the_field() -> None:
    with Explainer.of(refresh_log([])) as explainer:
        with pytest.raises(InvalidLogError, match="CARD: unknown card 'rope'"):
            explainer.cell("rope", "Veera")
        with pytest.raises(InvalidLogError, match="OWNER: unknown owner 'Bob'"):
            explainer.cell("köysi", "Bob")


def test_an_explainer_built_on_a_notebook_snapshots_it() -> None:
    log = refresh_log([suggestion("Aino", (REGINA, "köysi", "autotalli"), ("Niko",), "Veera",
                                  "köysi")])
    with Notebook(log.game, log.events) as notebook:
        explainer = Explainer(notebook)
        notebook.record(log.events[0])  # the same entry again, recorded after the snapshot
        with explainer:
            explanation = explainer.cell("köysi", "Oona")
        assert explanation.value is Knowledge.NO and explanation.events == (1,)
        assert explanation.steps[0].text == "Veera showed you köysi (event 1)."
        assert explain_cell(notebook, "autotalli", "Niko").events in {(1,), (2,)}


def small_log(cards: dict[str, list[str]], hands: dict[str, int], events: list[dict[str, Any]],
              **setup: Any) -> GameLog:
    return parse({"format": "clue-notebook/1", "cards": cards,
                  "players": [{"name": n, "hand_size": k} for n, k in hands.items()],
                  "events": events, **setup})


def test_a_hand_filled_by_separate_answers() -> None:
    cards = {"suspects": ["S1"], "weapons": ["W1", "W2", "W3"], "rooms": ["R1", "R2", "R3", "R4"]}
    log = small_log(cards, {"Aino": 2, "Niko": 1, "Veera": 1, "Oona": 1}, [
        suggestion("Oona", ("S1", "W1", "R3"), (), "Aino"),
        suggestion("Oona", ("S1", "W2", "R4"), (), "Aino"),
    ], me="Veera", my_cards=["W3"])
    explanation = explain_cell(log, "R1", "Aino")
    assert explanation.events == (1, 2)
    first, last = explanation.steps
    assert first.text == "S1 is the only suspect left, so it is in the envelope."
    assert last.rule == "full-with-answers" and last.uses == (1,)
    assert last.text == (
        "Aino holds 2 cards: one of (S1, W1, R3) (answered in event 1) and one of (W2, R4) "
        "(answered in event 2; S1 is in the envelope), so Aino holds nothing else: not R1.")


def test_a_combined_step_when_no_simple_rule_applies() -> None:
    """Aino and Niko each hold one card, one of (S1, W3, R2); S1 is in the envelope (the only
    suspect), so W1 and W2 are Veera's or the envelope's; Veera holds one card, so one of them
    is in the envelope and W3 is not. No single rule a player names says that: a combined step,
    citing just the two answers."""
    cards = {"suspects": ["S1"], "weapons": ["W1", "W2", "W3"], "rooms": ["R1", "R2", "R3"]}
    log = small_log(cards, {"Aino": 1, "Niko": 1, "Veera": 1}, [
        suggestion("Aino", ("S1", "W3", "R2"), (), "Niko"),
        suggestion("Aino", ("S1", "W1", "R1"), ("Niko",), "Veera"),
        suggestion("Niko", ("S1", "W1", "R2"), (), "Veera", "W1"),
        suggestion("Veera", ("S1", "W3", "R2"), (), "Aino"),
    ], face_up=["R3"])
    explanation = explain_cell(log, "W3", "envelope")
    assert explanation.value is Knowledge.NO and explanation.events == (1, 4)
    (step,) = explanation.steps
    assert step.rule == "combined" and step.events == (1, 4) and step.uses == ()
    assert step.text == (
        "Combining event 1 (Aino asked (S1, W3, R2), Niko answered) and event 4 (Veera asked "
        "(S1, W3, R2), Aino answered): no deal fits them in which W3 is in the envelope, so W3 "
        "is not in the envelope.")



def test_a_wrong_accusation_and_one_envelope_card_per_category() -> None:
    cards = {"suspects": ["Plum", "Green"], "weapons": ["Rope", "Axe"],
             "rooms": ["Hall", "Study", "Cellar"]}
    log = small_log(cards, {"Ann": 1, "Bob": 2, "Cy": 1}, [
        reveal("Bob", "Green"),
        reveal("Cy", "Axe"),
        {"type": "accusation", "by": "Cy", "cards": ["Plum", "Rope", "Hall"], "correct": False},
    ], me="Ann", my_cards=["Study"])
    with Explainer.of(log) as explainer:
        hall = explainer.cell("Hall", "envelope")
        assert hall.value is Knowledge.NO and hall.events == (1, 2, 3)
        assert hall.steps[-1].rule == "wrong-accusation"
        assert hall.steps[-1].text == ("Cy's accusation (Plum, Rope, Hall) in event 3 was wrong; "
                                       "Plum and Rope are in the envelope, so Hall is not.")
        rope = explainer.cell("Rope", "envelope")
        assert rope.steps[-1].text == (
            "Every other weapon is accounted for, so Rope is in the envelope.")
        assert explainer.cell("Study", "envelope").steps[-1].text == (
            "Study is yours, so it is not in the envelope.")
        cellar = explainer.cell("Cellar", "envelope")
        assert cellar.value is Knowledge.YES and cellar.events == (1, 2, 3)


def test_first_in_order_and_whole_hand() -> None:
    cards = {"suspects": ["Plum", "Green"], "weapons": ["Rope", "Axe", "Knife"],
             "rooms": ["Hall", "Study", "Cellar"]}
    log = small_log(cards, {"Ann": 2, "Bob": 2, "Cy": 1, "Dee": 0}, [
        {"type": "suggestion", "by": "Ann", "cards": ["Plum", "Rope", "Hall"], "passes": [],
         "refuted_by": "Bob", "shown": "Rope", "shown_by_rule": "first-in-order"},
        {"type": "reveal", "player": "Bob", "cards": ["Rope", "Study"], "whole_hand": True},
    ], me="Ann", my_cards=["Axe", "Hall"])
    with Explainer.of(log) as explainer:
        plum = explainer.cell("Plum", "Bob")
        assert plum.steps[-1].rule == "first-in-order" and plum.events == (1,)
        assert plum.steps[-1].text == (
            "In event 1 Bob's card was picked by the first-in-order rule (suspect, weapon, room) "
            "and it was Rope, so Bob does not hold Plum.")
        cellar = explainer.cell("Cellar", "Bob")
        assert cellar.steps[-1].rule == "whole-hand" and cellar.events == (2,)
        assert "whole hand (Rope, Study) was revealed in event 2" in cellar.steps[-1].text
        assert explainer.cell("Knife", "Dee").steps[-1].text == (
            "Dee holds no cards at all, so not Knife.")


def test_a_side_peek() -> None:
    cards = {"suspects": ["S1", "S2"], "weapons": ["W1", "W2"], "rooms": ["R1", "R2", "R3"]}
    log = small_log(cards, {"Aino": 1, "Niko": 2}, [
        {"type": "suggestion", "by": "Aino", "cards": ["S1", "W1", "R1"], "passes": ["Niko"],
         "side_peek": {"slot": 1, "card": "R1"}},
    ], me="Aino", my_cards=["S2"], side_cards=1)
    with Explainer.of(log) as explainer:
        peek = explainer.cell("R1", "side")
        assert peek.steps[-1].text == (
            "After event 1 you looked at side card 1: R1, so R1 is a side card.")
        weapon = explainer.cell("W1", "envelope")
        assert weapon.value is Knowledge.YES and weapon.events == (1,)
        assert "The 1 side card is known (R1), so no other card is: not W1." in weapon.text()


def test_the_whole_grid_as_one_sequence() -> None:
    log = refresh_log([suggestion("Oona", (REGINA, "pistooli", "keittiö"), (), "Veera"),
                       reveal("Niko", REGINA)], mine=("pistooli",))
    with Explainer.of(log) as explainer:
        sequence = explainer.sequence()
        settled = {s.fact for s in sequence if s.fact is not None}
        for row in explainer.all().values():
            for explanation in row.values():
                if explanation.steps[-1].rule != "face-up":
                    assert explanation.steps[-1].fact in settled
        assert all(u < n for n, s in enumerate(sequence, 1) for u in s.uses)
        assert [s.rule for s in sequence[:1]] == ["my-hand"]


def test_the_forum_variant_says_place() -> None:
    """The forum variant has no board: its third category is places, and a step about that
    category says "place" (`solver.editions.forum_dealt`), as the first-in-order rule does;
    a deck of rooms keeps "room" (the tests above)."""
    cards = {"suspects": ["Alisa", "Kolya", "Yulya"], "weapons": ["Flip", "Mop", "Door"],
             "rooms": ["School", "Spaceport", "Zoo", "Theatre", "Sea", "Moon"]}
    hands = {"Ann": 3, "Bob": 3, "Cy": 3}
    asked = small_log(cards, hands, [
        {"type": "suggestion", "by": "Ann", "cards": ["Kolya", "Mop", "Theatre"], "passes": [],
         "refuted_by": "Bob", "shown": "Mop", "shown_by_rule": "first-in-order"},
    ], me="Ann", my_cards=["Alisa", "School", "Spaceport"])
    with Explainer.of(asked) as explainer:
        assert explainer.cell("Kolya", "Bob").steps[-1].text == (
            "In event 1 Bob's card was picked by the first-in-order rule (suspect, weapon, "
            "place) and it was Mop, so Bob does not hold Kolya.")
    seen = small_log(cards, hands, [reveal("Bob", "Zoo", "Theatre"), reveal("Cy", "Sea")],
                     me="Ann", my_cards=["Alisa", "School", "Spaceport"])
    with Explainer.of(seen) as explainer:
        moon = explainer.cell("Moon", "envelope")
        assert moon.value is Knowledge.YES
        assert moon.steps[-1].text == (
            "Every other place is accounted for, so Moon is in the envelope.")


def test_a_read_link_reader_is_told_the_owners_name_not_you() -> None:
    """Not addressed (a read link's reader), an explanation names the notebook's own player
    where it said "you": a reader of Aino's game read "Veera showed you köysi", "You hold
    pistooli (your own hand)", "You noted ...", the owner's words, as if to them."""
    log = refresh_log([suggestion("Aino", (REGINA, "köysi", "autotalli"), ("Niko",), "Veera",
                                  "köysi"),
                       {"type": "note", "owner": "Oona", "holds": ["autotalli"],
                        "text": "saw it"}], mine=("pistooli",))
    with Explainer.of(log) as owner:
        assert owner.cell("köysi", "Veera").steps[-1].text == "Veera showed you köysi (event 1)."
    with Explainer.of(log, addressed=False) as reader:
        seen, mine = reader.cell("köysi", "Veera"), reader.cell("pistooli", "Aino")
        noted = reader.cell("autotalli", "Oona")
        assert seen.steps[-1].text == "Veera showed köysi to Aino (event 1)."
        assert mine.text().startswith("Aino holds pistooli: yes.")
        assert mine.steps[0].text == "Aino holds pistooli (Aino's own hand)."
        assert noted.steps[-1].text == "Aino noted in event 2 that Oona holds autotalli — “saw it”."
        passed = reader.cell("autotalli", "Niko")
        said = [seen.text(), mine.text(), noted.text(), passed.text()]
        assert not any(word in text.lower().split() for text in said
                       for word in ("you", "your", "yours")), said


def test_a_reader_is_told_who_looked_at_a_side_card() -> None:
    """A side card's look is the notebook's own player's, named to a reader ("After event 1
    Ann looked at side card 1: Hall"), "you" to the owner."""
    deck = Deck(("Plum", "Green", "White"), ("Rope", "Knife"), ("Hall", "Study", "Lounge"))
    game = Game(deck, (Player("Ann", 2), Player("Bob", 1)), me="Ann",
                my_cards=("Green", "Knife"), side_cards=2)
    log = GameLog(game, (Suggestion("Ann", ("Plum", "Rope", "Hall"), passes=("Bob",),
                                    side_peek=SidePeek(1, "Hall")),))
    with Explainer.of(log) as owner, Explainer.of(log, addressed=False) as reader:
        assert owner.cell("Hall", "side").steps[-1].text.startswith(
            "After event 1 you looked at side card 1: Hall")
        assert reader.cell("Hall", "side").steps[-1].text == (
            "After event 1 Ann looked at side card 1: Hall, so Hall is a side card.")


def test_a_reader_of_a_spectators_game_is_not_told_your_note() -> None:
    """A spectator's game (no player of its own) opened by its read link: its notes read "your
    note" and "You noted", a side card's look "you looked", a reveal "revealed to you", though
    the reader wrote and saw none of them and there is nobody to name (21481d9 names the
    notebook's own player). Said without a person; the keeper of the notebook still reads
    "your"."""
    deck = Deck(("Plum", "Green", "White"), ("Rope", "Knife"), ("Hall", "Study", "Lounge"))
    game = Game(deck, (Player("Ann", 2), Player("Bob", 2)), side_cards=1)
    log = GameLog(game, (
        Suggestion("Ann", ("Plum", "Rope", "Hall"), passes=("Bob",), side_peek=SidePeek(1, "Hall")),
        Note("Bob", holds_one_of=("Green", "Knife"), text="said so"),
        Note("Ann", lacks=("Study",)),
        Reveal("Bob", ("White",)),
    ))
    with Explainer.of(log) as keeper, Explainer.of(log, addressed=False) as reader:
        assert keeper.cell("Study", "Ann").steps[-1].text.startswith("You noted in event 3")
        said = [reader.cell(card, owner) for card, owner in (
            ("Hall", "side"), ("Study", "Ann"), ("White", "Bob"), ("Lounge", "Bob"))]
        texts = [e.text() for e in said]
        assert said[0].steps[-1].text == (
            "After event 1 side card 1 was looked at: Hall, so Hall is a side card.")
        assert said[1].steps[-1].text == "Noted in event 3 that Ann does not hold Study."
        assert said[2].steps[-1].text == "Bob's White was revealed (event 4)."
        assert "White and one of (Green, Knife) (a note, event 2)" in texts[3], texts[3]
        texts.append(reader.words.event(2, log.events[1]).render())  # in a combined step
        assert texts[-1].startswith("a note: Bob holds at least one of (Green, Knife)")
        assert not any(word in text.lower().replace(",", " ").replace(".", " ").split()
                       for text in texts for word in ("you", "your", "yours")), texts
