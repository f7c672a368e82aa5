"""Every log in `examples/` is valid, round-trips, fits some deal, is what the script makes, and
its notation twin (``.clue``) reads as the same log."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from solver.game import Accusation, Suggestion
from solver.logfile import dumps, load, loads
from solver.notation import read_text, write_text
from solver.notebook import Notebook, analyze

EXAMPLES = Path(__file__).parent.parent / "examples"
FILES = sorted(EXAMPLES.glob("*.json"))


def test_every_expected_example_is_there() -> None:
    names = {f.name for f in FILES}
    assert {
        "rules-example-1.json",
        "rules-example-2-four-players.json",
        "rules-example-2-two-players.json",
        "rules-example-3.json",
        "rules-example-4.json",
        "classic-six-players.json",
        "refresh-four-players.json",
        "refresh-two-players.json",
        "forum-gostya-iz-budushchego.json",
        "classic-four-players-notes.json",
    } <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_example_is_valid_titled_and_round_trips(path: Path) -> None:
    path.read_bytes().decode("utf-8")
    log = load(path)
    assert log.game.title
    assert loads(dumps(log)) == log


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_example_is_consistent(path: Path) -> None:
    assert analyze(load(path)).consistent


@pytest.mark.parametrize("path", [p for p in FILES if not p.name.startswith("rules-")],
                         ids=lambda p: p.name)
def test_whole_games_end_with_a_safe_correct_accusation(path: Path) -> None:
    log = load(path)
    last = log.events[-1]
    assert isinstance(last, Accusation) and last.correct and last.by == log.game.me
    with Notebook(log.game, log.events[:-1]) as notebook:
        grid = notebook.grid()
    assert grid.accusation_safe
    assert tuple(grid.envelope().values()) == last.cards


def test_the_classic_game_is_a_full_six_player_game() -> None:
    log = load(EXAMPLES / "classic-six-players.json")
    assert log.game.edition == "clue-classic" and len(log.game.players) == 6
    assert 60 <= len(log.events) <= 100
    previous_turn = max(
        i for i, e in enumerate(log.events[:-1]) if isinstance(e, Suggestion) and e.by == "Chloe"
    )
    with Notebook(log.game, log.events) as notebook:
        assert not notebook.grid(upto=previous_turn).accusation_safe, (
            "the user accuses on the first turn the notebook allows it, not later"
        )


def _make_examples() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_examples", EXAMPLES / "make_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_script_makes_exactly_the_committed_files() -> None:
    make = _make_examples()
    logs = make.worked_examples()
    logs.update({name: maker(seed) for name, (maker, seed) in make.GAMES.items()})
    for name, log in logs.items():
        assert (EXAMPLES / name).read_text(encoding="utf-8") == dumps(log), name
        clue = (EXAMPLES / name).with_suffix(".clue")
        assert clue.read_text(encoding="utf-8") == write_text(log), clue.name


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_game_in_notation_is_the_same_log(path: Path) -> None:
    clue = path.with_suffix(".clue")
    assert read_text(clue.read_text(encoding="utf-8")) == load(path)
