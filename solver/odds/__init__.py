"""Odds: how likely each owner holds each card, and each envelope triple, given the log.

Every deal consistent with the log is equally likely (a fair shuffle). The method, one module
per part (see ``docs/odds.md``):

- `setup`: the SAT grid settles every forced cell; what is left is a `Puzzle` (open cards with
  their possible owners, places left per hand, open refutations, wrong accusations);
- `programme`: the exact count, a dynamic programme over the open cards (Python integers);
- `exact`: the whole count with the envelope's slots and wrong accusations, and the
  probabilities from it;
- `draws`: deals drawn exactly from the count (for the advisor);
- `chain`: past the work budget, a Markov chain over deals, labelled approximate;
- `result`: the `Odds` every path returns (the text and JSON are in `solver.odds_report`).

Whether a figure is exact depends only on the log and the budget, counted in work: never on
the machine's speed or load.
"""

from __future__ import annotations

from ..game import GameLog
from ..notebook import Grid
from .chain import SAMPLING_MOVES, sampled_odds
from .draws import DealMatrix, deal_matrix, sample_deals
from .exact import DEFAULT_BUDGET, Count, count, exact_odds
from .programme import OverBudget
from .result import Number, Odds, entropy
from .setup import Puzzle, grid_of, puzzle


def odds(
    log: GameLog,
    *,
    refuter_model: bool = False,
    budget: int = DEFAULT_BUDGET,
    moves: int = SAMPLING_MOVES,
    seed: int = 0,
    grid: Grid | None = None,
) -> Odds:
    """Probabilities for every card and owner and every envelope triple, given ``log``.

    Exact unless the count needs more than ``budget`` programme transitions; then a Markov
    chain makes ``moves`` moves and every figure carries a standard error. Raises
    `ContradictionError` when no deal fits the log.
    """
    grid = grid if grid is not None else grid_of(log)
    pz = puzzle(log, grid, refuter_model=refuter_model)
    try:
        counted = count(pz, budget)
    except OverBudget:
        return sampled_odds(log, pz, moves=moves, seed=seed, refuter_model=refuter_model)
    return exact_odds(log, counted, refuter_model)


__all__ = [
    "DEFAULT_BUDGET",
    "Count",
    "DealMatrix",
    "Number",
    "Odds",
    "OverBudget",
    "Puzzle",
    "count",
    "deal_matrix",
    "entropy",
    "grid_of",
    "odds",
    "puzzle",
    "sample_deals",
    "sampled_odds",
]
