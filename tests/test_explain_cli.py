"""``clue-notebook explain`` and the ``"explanations"`` of ``analyze --json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from solver.cli import main
from solver.logfile import dumps

from .test_explain_examples import REGINA, refresh_log, reveal, suggestion


def write(tmp_path: Path, name: str, events: list[dict[str, Any]],
          mine: tuple[str, ...] = ()) -> str:
    path = tmp_path / name
    path.write_text(dumps(refresh_log(events, mine)), encoding="utf-8")
    return str(path)


@pytest.fixture
def example_3(tmp_path: Path) -> str:
    events = [suggestion("Oona", (REGINA, "pistooli", "keittiö"), (), "Veera"),
              reveal("Niko", REGINA)]
    return write(tmp_path, "example3.json", events, mine=("pistooli",))


@pytest.fixture
def clash(tmp_path: Path) -> str:
    return write(tmp_path, "clash.json", [
        suggestion("Aino", (REGINA, "köysi", "autotalli"), ("Niko",), "Veera", "köysi"),
        suggestion("Oona", ("Marjaana Punakulta", "köysi", "keittiö"), ("Aino", "Niko", "Veera")),
    ])


def test_explain_prints_the_chain(example_3: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", example_3, "keittiö", "Veera"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Veera holds keittiö: yes.")
    assert "1. You hold pistooli" in out and "so Veera holds keittiö." in out
    assert "Rests on events 1 and 2." in out


def test_explain_json(example_3: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", example_3, "keittiö", "Oona", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["card"], data["owner"], data["value"], data["events"]) == (
        "keittiö", "Oona", "no", [1, 2])
    last = data["steps"][-1]
    assert last["fact"] == {"card": "keittiö", "owner": "Oona", "value": "no"}
    assert last["from"] == [len(data["steps"]) - 1]


def test_explain_upto_a_maybe_cell(example_3: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", example_3, "keittiö", "Veera", "--upto", "1"]) == 0
    out = capsys.readouterr().out
    assert "Not known" in out and "A deal where the answer is no:" in out


def test_explain_a_contradiction_exits_3(clash: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", clash, "köysi", "Veera"]) == 3
    assert "events 1 and 2 cannot all be true" in capsys.readouterr().out
    assert main(["explain", clash, "köysi", "Veera", "--json"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["consistent"] is False and data["conflict"] == [1, 2]
    assert data["steps"][-1]["fact"] is None


def test_explain_bad_names_exit_2(example_3: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", example_3, "rope", "Veera"]) == 2
    assert "CARD: unknown card 'rope'" in capsys.readouterr().err
    assert main(["explain", example_3, "köysi", "Bob"]) == 2
    assert "OWNER: unknown owner 'Bob'" in capsys.readouterr().err


def test_analyze_json_has_explanations(example_3: str, clash: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", example_3, "--json"]) == 0
    assert "explanations" not in json.loads(capsys.readouterr().out)  # only when asked
    assert main(["analyze", example_3, "--json", "--explain"]) == 0
    data = json.loads(capsys.readouterr().out)
    explained = data["explanations"]
    for card, row in data["cells"].items():
        determined = {owner for owner, value in row.items() if value != "maybe"}
        assert set(explained.get(card, {})) == determined
        for owner in determined:
            assert explained[card][owner]["value"] == row[owner]
    assert explained["keittiö"]["Veera"]["events"] == [1, 2]
    assert main(["analyze", clash, "--json"]) == 3
    assert "conflict_steps" not in json.loads(capsys.readouterr().out)
    assert main(["analyze", clash, "--json", "--explain"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["conflict"] == [1, 2] and data["conflict_steps"][-1]["fact"] is None


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize(("name", "card", "owner", "expected"), [
    ("rules-example-1.json", "köysi", "Veera", "Veera showed you köysi (event 1)."),
    ("rules-example-2-four-players.json", "autotalli", "envelope",
     "so autotalli is in the envelope."),
    ("rules-example-2-two-players.json", "autotalli", "envelope", "Not known"),
    ("rules-example-3.json", "keittiö", "Veera", "so Veera holds keittiö."),
    ("rules-example-4.json", "Juhani Viherlevä", "Veera",
     "pistooli is Niko's and autotalli is Oona's, so Veera holds Juhani Viherlevä."),
])
def test_the_shipped_worked_examples(name: str, card: str, owner: str, expected: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(EXAMPLES / name), card, owner]) == 0
    assert expected in capsys.readouterr().out
