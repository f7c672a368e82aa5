"""Another exact count against the programme: the same figures, envelope odds and deals."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from solver.errors import ContradictionError
from solver.game import GameLog
from solver.odds import Odds, OverBudget, count, grid_of, puzzle
from solver.odds.exact import exact_odds
from solver.odds.setup import Puzzle


def same_as_programme(log: GameLog, odds_by: Callable[[Puzzle], Odds],
                      refuter_model: bool = False) -> bool:
    """Assert that ``odds_by(pz)`` gives the programme's odds of ``log``; True when compared,
    False when no deal fits or the programme is over its budget."""
    try:
        grid = grid_of(log)
    except ContradictionError:
        return False
    pz = puzzle(log, grid, refuter_model=refuter_model)
    try:
        plain = exact_odds(log, count(pz), refuter_model)
    except OverBudget:
        return False
    mine = odds_by(pz)
    assert mine.probabilities == plain.probabilities
    assert mine.envelope_odds == plain.envelope_odds
    assert mine.deals == plain.deals
    return True


def python_budgets(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Record the `Budget` of every count the Python programme (`exact.programme_steps`) makes
    from now on, in the list returned."""
    import solver.odds.exact

    python = solver.odds.exact.programme_steps
    ran: list[object] = []

    def recorded(*args: object, **kwargs: object) -> object:
        ran.append(args[3])
        return python(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(solver.odds.exact, "programme_steps", recorded)
    return ran
