"""Inclusion-exclusion card by card (`solver.odds.pins_compiled`), alone, on `bench_odds`'s
logs: the work it needs (every figure and envelope triple), its CPU, the tracemalloc peak and,
with ``--check``, whether every figure equals `odds`'s where `odds` is exact.

    python benchmarks/pins_count.py custom 30 0 1 2 3 4 5 --check
    python benchmarks/pins_count.py forum 30 0 1 2 3 4 5 --budget 30e6

Each log is counted in a process of its own (``--fork``, default) so the peak RSS is the
count's; numba's kernels are loaded before it is measured.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
import tracemalloc

from pins_by_card import log_of

from solver.odds import OverBudget, grid_of, odds, puzzle
from solver.odds.owners import odds_of
from solver.odds.pins_compiled import kernel, pins_steps
from solver.odds.programme import Budget, finish


def one(game: str, events: int, seed: int, budget_units: float, check: bool) -> None:
    log = log_of(game, events, seed)
    pz = puzzle(log, grid_of(log))
    kernel()
    finish(pins_steps(puzzle(log_of("classic", 4, 0), grid_of(log_of("classic", 4, 0))),
                      Budget(10**9)))  # every kernel loaded and compiled
    budget = Budget(int(budget_units))
    tracemalloc.start()
    start = time.process_time()
    try:
        result = finish(pins_steps(pz, budget))
        status = "exact"
    except OverBudget:
        result, status = None, "past the budget"
    cpu = time.process_time() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    line = (f"{game} {events} events seed {seed}: {status} at {budget.spent / 1e6:.2f} M units, "
            f"{cpu:.1f} s CPU, tracemalloc peak {peak / 2**20:.0f} MB, peak RSS {rss:.0f} MB")
    if check and result is not None:
        by_odds = odds(log, grid=grid_of(log))
        if by_odds.exact:
            mine = odds_of(log, pz, result, False)
            same = (mine.probabilities == by_odds.probabilities
                    and mine.envelope_odds == by_odds.envelope_odds
                    and mine.deals == by_odds.deals)
            line += "; every figure and triple same as odds" if same else "; DIFFERENT from odds"
        else:
            line += "; odds sampled"
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("classic", "forum", "custom"))
    parser.add_argument("events", type=int)
    parser.add_argument("seeds", type=int, nargs="+")
    parser.add_argument("--budget", type=float, default=100e6)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    for seed in args.seeds:
        pid = os.fork()
        if pid == 0:
            one(args.game, args.events, seed, args.budget, args.check)
            os._exit(0)
        os.waitpid(pid, 0)


if __name__ == "__main__":
    main()
