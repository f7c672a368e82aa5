"""Odds: how likely each owner holds each card, and each envelope triple, given the log.

Every deal consistent with the log is equally likely (a fair shuffle). The method, one module
per part (see ``docs/odds.md``):

- `setup`: the SAT grid settles every forced cell; what is left is a `Puzzle` (open cards with
  their possible owners, places left per hand, open refutations, wrong accusations);
  `symmetry`: interchangeable players dealt as one;
- `owners`: the exact count owner by owner, cards counted by kind (the many-player decks);
- `programme`: the exact count card by card (few players with big hands, many refutations);
- `exclusion`: the exact count by inclusion-exclusion over the ruled-out cells (many players,
  few cells ruled out); `pins`: the same sum dealt card by card, the envelope as three slots;
- `compiled`, `exclusion_compiled`, `pins_compiled`: the same counts with their loops in
  machine code (`kernel`, `exclusion_kernel`, `pins_kernel`, numba), where numba is installed;
  `warm`: the kernels made ready as a server starts;
- `exact`: the programme's whole count with the envelope's slots and wrong accusations, and the
  probabilities from a count;
- `triples`: which envelopes are possible, exactly (a SAT question);
- `chain`: past the work budget, a Markov chain over deals, labelled approximate;
- `result`: the `Odds` every path returns (the text and JSON are in `solver.odds_report`).

Which count gives the figures, and whether they are exact, depends only on the log and the
budgets, counted in work: never on the machine's speed or load.

- `choice`: the exact counts take turns, work for work; the first to finish gives the figures;
- `draws`: deals drawn exactly from the programme's count (for the advisor);
- `residues`: big counts kept exactly in machine integers, modulo a few primes (rebuilt by the
  Chinese remainder theorem).
"""

from __future__ import annotations

from ..game import GameLog
from ..notebook import Grid
from .chain import SAMPLING_MOVES, sampled_odds
from .choice import exact_count
from .draws import DealMatrix, deal_matrix, sample_deals
from .exact import DEFAULT_BUDGET, Count, count, exact_odds
from .owners import odds_of
from .programme import OverBudget
from .result import Number, Odds, entropy
from .setup import Puzzle, grid_of, puzzle

OWNER_BUDGET = 100_000
"""Work (states and transitions) the count owner by owner may take, while the programme takes
turns with it within ``budget`` (`choice`)."""
EXCLUSION_BUDGET = 5_000_000
"""Work the count by inclusion-exclusion may take, when it runs (`choice`): a unit per state its
forward pass reaches and per move of it. Compiled (`exclusion_compiled`), about a microsecond a
unit on the long 12-player logs of `docs/odds.md` it finishes: 45-card logs at 30 events that
need 4.2 and 4.9 million units took 4-6 s and peaked at 235-300 MiB in `odds` (`tracemalloc`;
the next log needs 5.1 million, then 9.7); a log it gives up on costs it about 0.1-0.4 s (a
turn past the budget is only counted, never listed). Where numba does not load (numba is
required), 150,000 in Python (`choice.EXCLUSION_UNCOMPILED`; about 10 microseconds and 350 bytes
a unit: the whole budget would be up to about a minute and 2 GB)."""
PINS_BUDGET = 50_000_000
"""Work inclusion-exclusion card by card may take (`choice.exact_count`): beside
inclusion-exclusion owner by owner, or alone once every other count has dropped out, where its
work estimated fits (`choice.pins_fit`): a unit per state of every layer and per move, for each
of its two passes, and one per pair of envelope rows multiplied. Compiled (`pins_compiled`),
0.06-0.2 microseconds a unit on the 12-player logs measured (more at 60 events than at 30).
Its cards' order searched (`pins.plan`), the 45-card logs at 30 events need 3-33 million units
(seeds 0-23, all but seed 11, past 100 million); 70 million, its budget until 2026-12-03, would
also try 45-card logs at 60 events estimated at 63-70 million, 4-10 s of CPU each (one past 70
million, 431 MiB `tracemalloc`). Where its kernels do not run, 150,000 units in Python."""
PROGRAMME_BUDGET = 20_000_000
"""Work (transitions and the envelope fields they move) the programme may take in `odds`: its
`DEFAULT_BUDGET` taking turns with the other counts, the rest alone once they have dropped out
(`choice.exact_count`). Compiled (`compiled`), on 12-player logs, 0.05-0.2 microseconds a unit;
the programme alone peaked at 312 MB (`tracemalloc`) on the 36 benchmark logs at 30-100 events
(45 cards, 30 events, seed 1, past the budget); the next benchmark logs need more than 20
million (`docs/odds-measurements.md`, "The programme's budget"). Where the state does not fit the
compiled
loop, `DEFAULT_BUDGET` only; where numba does not load, `compiled.PYTHON_MOST` in Python."""


def odds(
    log: GameLog,
    *,
    refuter_model: bool = False,
    budget: int = PROGRAMME_BUDGET,
    moves: int = SAMPLING_MOVES,
    seed: int = 0,
    grid: Grid | None = None,
    kept: list[dict[str, int]] | None = None,
) -> Odds:
    """Probabilities for every card and owner and every envelope triple, given ``log``.

    Exact unless the count owner by owner needs more than `OWNER_BUDGET` units of work (at
    most ``budget``), the programme more than ``budget`` (`PROGRAMME_BUDGET`; `DEFAULT_BUDGET`
    where its state does not fit the compiled loop, with numba or without) and
    inclusion-exclusion (where it runs) more than `EXCLUSION_BUDGET` units (at most twice
    ``budget``; they take turns, `choice`) and, after them, inclusion-exclusion card by card
    more than `PINS_BUDGET` (at most four times ``budget``); then a Markov chain makes
    ``moves`` moves and every figure carries a standard error, and ``kept`` (when given) gets
    the deals it visits (`sampled_odds`). Raises `ContradictionError` when no deal fits the
    log.
    """
    grid = grid if grid is not None else grid_of(log)
    pz = puzzle(log, grid, refuter_model=refuter_model)
    try:
        counted = exact_count(pz, min(budget, OWNER_BUDGET), min(budget, DEFAULT_BUDGET),
                              min(2 * budget, EXCLUSION_BUDGET), budget,
                              min(4 * budget, PINS_BUDGET))
    except OverBudget:
        return sampled_odds(log, pz, moves=moves, seed=seed, refuter_model=refuter_model,
                            kept=kept)
    if isinstance(counted, Count):
        return exact_odds(log, counted, refuter_model)
    return odds_of(log, pz, counted, refuter_model)


__all__ = [
    "DEFAULT_BUDGET",
    "EXCLUSION_BUDGET",
    "OWNER_BUDGET",
    "PINS_BUDGET",
    "PROGRAMME_BUDGET",
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
