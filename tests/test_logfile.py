"""Reading, writing and validating ``clue-notebook/1`` logs."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from hypothesis import given, settings

from solver.errors import InvalidLogError
from solver.game import GameLog, Note, Reveal, Suggestion
from solver.logfile import check, dumps, load, loads, parse, to_json

from .strategies import small_logs


def refresh_log(**changes: Any) -> dict[str, Any]:
    """A valid 4-player Refresh log (worked example 1) as decoded JSON, with top-level changes."""
    data: dict[str, Any] = {
        "format": "clue-notebook/1",
        "title": "Perjantai",
        "edition": "cluedo-refresh-2012-fi",
        "players": [{"name": n, "hand_size": 4} for n in ("Aino", "Niko", "Veera", "Oona")],
        "me": "Aino",
        "my_cards": ["Regina Päiväperhonen", "köysi", "tikari", "keittiö"],
        "face_up": ["veranta", "putki"],
        "events": [
            {"type": "suggestion", "by": "Aino",
             "cards": ["Regina Päiväperhonen", "köysi", "autotalli"],
             "passes": ["Niko"], "refuted_by": "Veera", "shown": "köysi"},
        ],
    }
    data.update(changes)
    return data


def problems_of(data: object) -> str:
    with pytest.raises(InvalidLogError) as err:
        parse(data)
    text = str(err.value)
    assert "Traceback" not in text
    return text


@settings(max_examples=100, deadline=None)
@given(small_logs(noise=True))
def test_round_trip(log: GameLog) -> None:
    assert loads(dumps(log)) == log


def test_reads_contract_example() -> None:
    log = parse(refresh_log())
    event = log.events[0]
    assert isinstance(event, Suggestion)
    assert event.refuted_by == "Veera" and event.shown == "köysi" and event.passes == ("Niko",)
    assert log.game.deck.rooms[4] == "autotalli"
    assert log.game.owners == ("Aino", "Niko", "Veera", "Oona", "envelope")


def test_cards_are_read_in_category_order() -> None:
    """The format lists suspect, weapon, room; a log that lists them otherwise means the same."""
    data = refresh_log()
    data["events"][0]["cards"] = ["autotalli", "köysi", "Regina Päiväperhonen"]
    assert parse(data).events[0].cards == ("Regina Päiväperhonen", "köysi", "autotalli")


def test_unknown_fields_are_kept() -> None:
    data = refresh_log(house_rule="bonus cards")
    data["events"][0]["note"] = "Veera hesitated"
    again = to_json(parse(data))
    assert again["house_rule"] == "bonus cards"
    assert again["events"][0]["note"] == "Veera hesitated"


def test_names_are_written_as_utf8() -> None:
    assert "Päiväperhonen" in dumps(parse(refresh_log()))


def test_spectator_log_has_no_my_cards() -> None:
    data = refresh_log()
    del data["me"], data["my_cards"]
    log = parse(data)
    assert log.game.me is None
    assert "me" not in to_json(log)


def test_reveal_defaults() -> None:
    data = refresh_log(events=[{"type": "reveal", "player": "Niko", "cards": ["pistooli"]}])
    assert parse(data).events[0] == Reveal("Niko", ("pistooli",), False)


def test_reads_the_contract_notes() -> None:
    """The three notes of the shared contract, with the remark and an unknown field kept."""
    notes = [
        {"type": "note", "owner": "Niko", "holds": ["pistooli"],
         "text": "saw it when he dropped it"},
        {"type": "note", "owner": "envelope", "lacks": ["köysi", "tikari"]},
        {"type": "note", "owner": "Veera", "holds_one_of": ["köysi", "veranta"],
         "seen_by": "Aino"},
    ]
    log = parse(refresh_log(events=notes))
    assert log.events == (
        Note("Niko", holds=("pistooli",), text="saw it when he dropped it"),
        Note("envelope", lacks=("köysi", "tikari")),
        Note("Veera", holds_one_of=("köysi", "veranta"), extra={"seen_by": "Aino"}),
    )
    assert to_json(log)["events"] == notes
    assert loads(dumps(log)) == log


def test_a_null_list_or_remark_is_not_given() -> None:
    note = {"type": "note", "owner": "Niko", "holds": None, "lacks": ["köysi"], "text": None}
    assert parse(refresh_log(events=[note])).events == (Note("Niko", lacks=("köysi",)),)


def test_a_side_note_in_the_two_player_game() -> None:
    data = refresh_log(players=[{"name": "Aino", "hand_size": 7}, {"name": "Niko", "hand_size": 7}],
                       side_cards=4, events=[{"type": "note", "owner": "side",
                                              "holds": ["pistooli", "putki", "veranta"]}])
    data["face_up"] = []
    assert parse(data).events[0] == Note("side", holds=("pistooli", "putki", "veranta"))
    data["events"][0]["holds"].extend(["köysi", "tikari"])
    text = problems_of(data)
    assert "events[0].holds" in text and "5 cards, but there are 4" in text


BAD_NOTES = [
    ({"owner": "Mikko", "lacks": ["köysi"]}, ["events[0].owner", "unknown owner 'Mikko'",
                                              "a player or 'envelope'"]),
    ({"owner": "side", "lacks": ["köysi"]}, ["events[0].owner", "no side cards"]),
    ({"owner": None, "lacks": ["köysi"]}, ["events[0].owner", "None"]),
    ({"owner": "Niko", "holds": ["Knife"]}, ["events[0].holds[0]", "unknown card 'Knife'"]),
    ({"owner": "Niko", "holds_one_of": ["köysi", "veranta", "köysi"]},
     ["events[0].holds_one_of", "'köysi' is listed more than once"]),
    ({"owner": "Niko"}, ["events[0])", "exactly one of 'holds', 'lacks' or 'holds_one_of'",
                         "got none"]),
    ({"owner": "Niko", "holds": ["köysi"], "lacks": ["tikari"]},
     ["exactly one of", "got 'holds' and 'lacks'"]),
    ({"owner": "Niko", "lacks": []}, ["events[0].lacks", "at least one card"]),
    ({"owner": "Niko", "holds_one_of": "köysi"}, ["events[0].holds_one_of", "list of names"]),
    ({"owner": "Niko", "holds": [""]}, ["events[0].holds[0]", "non-empty name"]),
    ({"owner": "Niko", "holds": ["köysi", "tikari", "putki", "pistooli", "veranta"]},
     ["events[0].holds", "5 cards, but 'Niko' holds 4"]),
    ({"owner": "envelope", "holds": ["köysi", "tikari", "pistooli", "veranta"]},
     ["events[0].holds", "4 cards, but the envelope holds 3"]),
    ({"owner": "Niko", "lacks": ["köysi"], "text": 12}, ["events[0].text", "12"]),
    ({"owner": "Niko", "lacks": ["köysi"], "text": "a\x00b"},
     ["events[0].text", "control character"]),
    ({"owner": "Niko", "lacks": ["köysi"], "text": "saw it \u2067\u202e"},
     ["events[0].text", "'\\u2067', a character that reverses the direction"]),
    ({"owner": "Niko", "lacks": ["köysi"], "text": "x" * 2001},
     ["events[0].text", "2001 characters long"]),
]


@pytest.mark.parametrize(("note", "expected"), BAD_NOTES)
def test_bad_note_is_named(note: dict[str, Any], expected: list[str]) -> None:
    text = problems_of(refresh_log(events=[{"type": "note", **note}]))
    assert "event 1" in text
    for part in expected:
        assert part in text


@pytest.mark.parametrize(
    ("note", "expected"),
    [
        (Note("Niko"), "event 1 (events[0]): a note needs exactly one of 'holds', 'lacks' or "
                       "'holds_one_of', got none"),
        (Note("Niko", holds=("köysi",), holds_one_of=("tikari",)),
         "got 'holds' and 'holds_one_of'"),
        (Note("Niko", lacks=("köysi",), text=3), "events[0].text"),  # type: ignore[arg-type]
    ],
)
def test_check_refuses_a_bad_note_built_in_code(note: Note, expected: str) -> None:
    log = parse(refresh_log(events=[]))
    with pytest.raises(InvalidLogError) as err:
        check(log.append(note))
    assert expected in str(err.value)


BAD_EVENTS = [
    ({"type": "suggestion", "by": "Aino", "cards": ["Regina Päiväperhonen", "Knife", "autotalli"],
      "passes": [], "refuted_by": None}, ["events[0].cards[1]", "'Knife'"]),
    ({"type": "suggestion", "by": "Aino", "cards": ["köysi", "tikari", "autotalli"],
      "passes": [], "refuted_by": None},
     ["events[0].cards", "one suspect, one weapon and one room"]),
    ({"type": "suggestion", "by": "Aino", "cards": ["Regina Päiväperhonen", "köysi", "autotalli"],
      "passes": [], "refuted_by": "Veera", "shown": "tikari"}, ["events[0].shown", "'tikari'"]),
    ({"type": "suggestion", "by": "Mikko", "cards": ["Regina Päiväperhonen", "köysi", "autotalli"],
      "passes": [], "refuted_by": None}, ["events[0].by", "'Mikko'"]),
    ({"type": "suggestion", "by": "Aino", "cards": ["Regina Päiväperhonen", "köysi", "autotalli"],
      "passes": ["Veera"], "refuted_by": "Veera"}, ["events[0].passes[0]", "'Veera'"]),
    ({"type": "suggestion", "by": "Aino", "cards": ["Regina Päiväperhonen", "köysi", "autotalli"],
      "passes": [], "refuted_by": "Aino"}, ["events[0].refuted_by", "'Aino'"]),
    ({"type": "suggestion", "by": "Aino", "cards": ["Regina Päiväperhonen", "köysi", "autotalli"],
      "passes": [], "refuted_by": None, "side_peek": {"slot": 1}}, ["events[0].side_peek",
                                                                   "no side cards"]),
    ({"type": "suggestion", "by": "Aino", "cards": ["Regina Päiväperhonen", "köysi"],
      "passes": [], "refuted_by": None}, ["events[0].cards", "[suspect, weapon, room]"]),
    ({"type": "accusation", "by": "Oona", "cards": ["Regina Päiväperhonen", "köysi", "autotalli"],
      "correct": "no"}, ["events[0].correct", "'no'"]),
    ({"type": "reveal", "player": "Niko", "cards": ["pistooli", "pistooli"]},
     ["events[0].cards", "'pistooli'"]),
    ({"type": "vote", "by": "Aino"}, ["events[0].type", "'vote'"]),
]


@pytest.mark.parametrize(("event", "expected"), BAD_EVENTS)
def test_bad_event_is_named(event: dict[str, Any], expected: list[str]) -> None:
    text = problems_of(refresh_log(events=[event]))
    assert "event 1" in text
    for part in expected:
        assert part in text


def test_sizes_that_do_not_add_up() -> None:
    data = refresh_log(face_up=["veranta"])
    text = problems_of(data)
    assert "players" in text and "21 cards" in text and "= 20" in text


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"format": "clue-notebook/2"}, ["format", "'clue-notebook/2'"]),
        ({"edition": "monopoly"}, ["edition", "'monopoly'"]),
        ({"me": "Mikko"}, ["me", "'Mikko'"]),
        ({"my_cards": ["Regina Päiväperhonen", "Knife"]}, ["my_cards[1]", "'Knife'"]),
        ({"face_up": ["veranta", "köysi"], "my_cards": ["köysi"]}, ["my_cards", "'köysi'"]),
        ({"side_cards": -1}, ["side_cards", "-1"]),
        ({"players": [{"name": "Aino", "hand_size": "four"}]}, ["players[0].hand_size", "'four'"]),
        ({"players": [{"name": "envelope", "hand_size": 8}, {"name": "Niko", "hand_size": 8}]},
         ["players[0].name", "'envelope'"]),
        ({"events": "none"}, ["events", "text"]),
    ],
)
def test_bad_setup_is_named(change: dict[str, Any], expected: list[str]) -> None:
    text = problems_of(refresh_log(**change))
    for part in expected:
        assert part in text


def test_duplicate_players_and_cards() -> None:
    data = refresh_log(edition=None, cards={"suspects": ["A", "A"], "weapons": ["B"],
                                            "rooms": ["C"]})
    data["players"] = [{"name": "Aino", "hand_size": 0}, {"name": "Aino", "hand_size": 0}]
    data.update(my_cards=[], face_up=[], events=[])
    text = problems_of(data)
    assert "card 'A' is listed more than once" in text
    assert "player 'Aino' is listed more than once" in text


def test_a_category_with_no_card_left_for_the_envelope() -> None:
    data = refresh_log(face_up=["veranta", "putki"])
    data["my_cards"] = ["köysi", "tikari", "jakoavain", "pistooli"]
    data["face_up"] = ["kynttilänjalka", "putki"]
    data["events"] = []
    assert "every weapon is face up or in my hand" in problems_of(data)


def test_collects_every_problem_at_once() -> None:
    data = refresh_log(me="Mikko", side_cards="x")
    text = problems_of(data)
    assert "me:" in text and "side_cards:" in text


def test_bad_json_and_missing_file(tmp_path: Any) -> None:
    with pytest.raises(InvalidLogError, match=r"JSON: .* line 1 column"):
        loads("{not json")
    with pytest.raises(InvalidLogError, match="cannot read"):
        load(tmp_path / "missing.json")
    not_object = json.dumps([1, 2])
    with pytest.raises(InvalidLogError, match="expected a JSON object"):
        loads(not_object)


@pytest.mark.parametrize("text", ['{"format": "clue-notebook/1", "players": [',
                                  '{"format": "clue-notebook/1", "title": "Fri',
                                  '{"format": 1,}', '{"format": 1} x', '{"a" 1}'])
def test_bad_json_is_said_in_the_users_language(text: str) -> None:
    """Python's JSON reader speaks English only: the Japanese paste box said "JSON: 157 行 7 列:
    Expecting value" of a log cut off halfway; now that it is cut off, in Japanese."""
    from solver.i18n import speaking

    with speaking("ja"), pytest.raises(InvalidLogError) as refused:
        loads(text)
    said = "\n".join(refused.value.problems)
    assert said.startswith("JSON: ") and not re.search("[A-Za-z]{3,}", said[6:]), said


@pytest.mark.parametrize("size", ["4", 4.0, None, -1])
def test_a_bad_hand_size_is_the_one_problem(size: object) -> None:
    """A player whose hand size cannot be read is still a player: "players[0].hand_size:
    expected a whole number" was followed by "unknown player 'Aino'" for every event naming her
    (a dozen lines in a 20-event game), and, as she was "me", by her cards being too many."""
    players = [{"name": n, "hand_size": 4} for n in ("Aino", "Niko", "Veera", "Oona")]
    players[0]["hand_size"] = size  # type: ignore[assignment]
    text = problems_of(refresh_log(players=players))
    assert text.count("\n") == 0 and "players[0].hand_size" in text, text


def test_parse_does_not_modify_input() -> None:
    data = refresh_log()
    before = copy.deepcopy(data)
    parse(data)
    assert data == before


def test_the_forum_variant_says_no_place_is_left() -> None:
    """In the forum variant (`solver.editions.forum_dealt`) a hand of every place was "every
    room is face up or in my hand"; a classic game keeps rooms."""
    from solver.editions import editions

    places = list(editions()["forum-gostya-iz-budushchego"].deck.rooms)
    forum = {"format": "clue-notebook/1", "edition": "forum-gostya-iz-budushchego",
             "players": [{"name": "Ann", "hand_size": len(places)},
                         {"name": "Bob", "hand_size": 18 - len(places)}],
             "me": "Ann", "my_cards": places, "events": []}
    with pytest.raises(InvalidLogError) as caught:
        parse(forum)
    assert list(caught.value.problems) == [
        "cards.rooms: every place is face up or in my hand, so none is left for the envelope"]
    rooms = list(editions()["clue-classic"].deck.rooms)
    with pytest.raises(InvalidLogError, match=r"cards\.rooms: every room is face up"):
        parse({**forum, "edition": "clue-classic", "my_cards": rooms})
