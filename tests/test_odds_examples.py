"""Every example log, at every stage: the exact count with interchangeable players dealt as one
(`solver.odds.symmetry`) gives the same figures as the programme dealing every player apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.errors import ContradictionError
from solver.game import GameLog
from solver.logfile import load
from solver.odds import Odds, OverBudget, count, grid_of, odds, puzzle
from solver.odds import exact as exact_module
from solver.odds.exact import exact_odds

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.json"))


def stages(log: GameLog) -> list[GameLog]:
    """The log cut after 0, 5, 10, ... events, and whole."""
    cuts = [*range(0, len(log.events), 5), len(log.events)]
    return [GameLog(log.game, log.events[:n]) for n in cuts]


def apart(log: GameLog, monkeypatch: pytest.MonkeyPatch) -> Odds | None:
    """The odds with every player dealt apart; None when that is over the budget."""
    with monkeypatch.context() as patched:
        patched.setattr(exact_module, "interchangeable", lambda *_: [])
        try:
            counted = count(puzzle(log, grid_of(log)))
        except OverBudget:
            return None
        return exact_odds(log, counted, False)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_equal_the_count_with_every_player_apart(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compared = 0
    for log in stages(load(path)):
        try:
            plain = apart(log, monkeypatch)
        except ContradictionError:
            continue
        if plain is None:
            continue
        merged = odds(log)
        assert merged.exact
        assert merged.probabilities == plain.probabilities
        assert merged.envelope_odds == plain.envelope_odds
        assert merged.deals == plain.deals
        compared += 1
    assert compared, f"no stage of {path.name} was counted"
