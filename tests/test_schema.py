"""The shipped JSON Schema of ``clue-notebook/1`` accepts every log we write and read, and
refuses malformed events (notes above all), as outside tools would check them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from jsonschema import Draft202012Validator

from solver.errors import InvalidLogError
from solver.game import GameLog
from solver.limits import MAX_NAME_CHARS, MAX_TEXT_CHARS
from solver.logfile import json_schema, load, parse, to_json

from .strategies import small_logs
from .test_logfile import BAD_NOTES, refresh_log

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.json"))
VALIDATOR = Draft202012Validator(json_schema())


def errors(data: object) -> list[str]:
    return [e.message for e in VALIDATOR.iter_errors(data)]


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(json_schema())


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_validates(path: Path) -> None:
    assert errors(json.loads(path.read_text(encoding="utf-8"))) == []
    assert errors(to_json(load(path))) == []


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_logs(noise=True))
def test_generated_logs_validate(log: GameLog) -> None:
    assert errors(to_json(log)) == []


def test_the_contract_notes_validate() -> None:
    notes = [
        {"type": "note", "owner": "Niko", "holds": ["pistooli"], "text": "saw it"},
        {"type": "note", "owner": "envelope", "lacks": ["köysi", "tikari"]},
        {"type": "note", "owner": "Veera", "holds_one_of": ["köysi", "veranta"], "x": 1},
        {"type": "note", "owner": "Veera", "holds": None, "lacks": ["köysi"], "text": None},
    ]
    assert errors(refresh_log(events=notes)) == []


SHAPE_ONLY = {"Mikko", "side", "Knife", "5 cards", "4 cards"}
"""Bad notes whose problem needs the game (names, sizes): the reader's job, not the schema's."""


@pytest.mark.parametrize(
    ("note", "expected"),
    [case for case in BAD_NOTES if not any(word in " ".join(case[1]) for word in SHAPE_ONLY)],
)
def test_the_schema_refuses_a_malformed_note(note: dict[str, Any], expected: list[str]) -> None:
    data = refresh_log(events=[{"type": "note", **note}])
    assert errors(data), note
    with pytest.raises(InvalidLogError):  # the reader refuses it as well
        parse(data)


@pytest.mark.parametrize("event", [
    {"type": "vote", "by": "Aino"},
    {"type": "accusation", "by": "Aino", "cards": ["a", "b", "c"]},
    {"type": "reveal", "player": "Niko", "cards": []},
    {"type": "suggestion", "by": "Aino", "cards": ["a", "b"]},
    {"type": "suggestion", "by": "Aino", "cards": ["a", "b", "c"], "side_peek": {"card": "x"}},
])
def test_the_schema_refuses_other_malformed_events(event: dict[str, Any]) -> None:
    assert errors(refresh_log(events=[event]))


def test_the_schema_is_package_data() -> None:
    pyproject = (Path(__file__).parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert '"schema/*.json"' in pyproject and '"jsonschema' in pyproject


def test_the_schema_has_the_readers_limits_on_names_and_text() -> None:
    defs = json_schema()["$defs"]
    assert defs["name"]["maxLength"] == MAX_NAME_CHARS
    assert defs["text"]["maxLength"] == MAX_TEXT_CHARS
    assert errors(refresh_log(title="line one\nline two\tand a tab")) == []
    assert errors(refresh_log(title="a\x1bb"))
    assert errors(refresh_log(title="a\u202eb")) and errors(refresh_log(title="a\u2066b"))
    assert errors(refresh_log(title="\u200f\u05e9\u05dc\u05d5\u05dd")) == []  # RLM, Hebrew
