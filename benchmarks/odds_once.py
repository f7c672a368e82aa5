"""One `odds` on one 12-player `bench_odds` log, in a process of its own, with the programme's
budget of your choosing: exact or sampled, the work each count `choice` ran spent, the CPU of
`odds` and the process's peak RSS (``--traced``: also `tracemalloc`'s peak, as the tests bound
it; the sampler's CPU is then several times slower).

    python benchmarks/odds_once.py custom 60 3 --budget 25e6
    python benchmarks/odds_once.py forum 30 0 --budget 20e6 --no-accusations

The grid is computed first and not timed, and numba's kernels are loaded first, as in
`bench_odds`; the peak RSS is the whole process's, those kernels included. ``--no-accusations``
drops the log's wrong accusations from the puzzle (what they cost; the figures are then not the
log's). One line: game, events, seed, budget, exact or sampled, then ``count=work`` for each
count that ran (in millions of units), the CPU in seconds and the peak RSS in MB.
"""

from __future__ import annotations

import argparse
import dataclasses
import resource
import time
import tracemalloc
from collections.abc import Callable

from bench_odds import custom_log, forum_log

import solver.odds as odds_package
from solver.game import GameLog
from solver.notebook import Grid
from solver.odds import Puzzle, choice, compiled, exclusion_compiled, grid_of, odds, pins_compiled
from solver.odds.programme import Budget

spent: list[tuple[str, Budget]] = []


def recorded(name: str, steps: Callable[..., object], at: int) -> Callable[..., object]:
    """``steps`` with the `Budget` it is handed (argument ``at``) kept under ``name``."""
    def run(*args: object, **kwargs: object) -> object:
        budget = args[at]
        assert isinstance(budget, Budget)
        spent.append((name, budget))
        return steps(*args, **kwargs)
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("forum", "custom"))
    parser.add_argument("events", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("--budget", type=float, default=20e6)
    parser.add_argument("--no-accusations", action="store_true")
    parser.add_argument("--traced", action="store_true", help="also tracemalloc's peak")
    args = parser.parse_args()
    log = (custom_log if args.game == "custom" else forum_log)(12, args.events, args.seed, "P1")
    grid = grid_of(log)
    for counter in (compiled, exclusion_compiled, pins_compiled):
        counter.kernel()
    if args.no_accusations:
        puzzle = odds_package.puzzle

        def unaccused(log: GameLog, grid: Grid, *, refuter_model: bool = False) -> Puzzle:
            return dataclasses.replace(puzzle(log, grid, refuter_model=refuter_model),
                                       accusations=[])

        odds_package.puzzle = unaccused
    for name, steps in (("programme", "count_steps"), ("owners", "owner_steps"),
                        ("exclusion", "exclusion_steps"), ("pins", "pins_steps")):
        setattr(choice, steps, recorded(name, getattr(choice, steps), 1))
    if args.traced:
        tracemalloc.start()
    start = time.process_time()
    result = odds(log, grid=grid, budget=int(args.budget))
    cpu = time.process_time() - start
    traced = f" traced={tracemalloc.get_traced_memory()[1] / 2**20:.0f}" if args.traced else ""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    works = " ".join(f"{name}={b.spent / 1e6:.2f}" for name, b in spent)
    print(f"{args.game} {args.events} {args.seed} budget={args.budget / 1e6:g} "
          f"{'exact' if result.exact else 'sampled'} {works} cpu={cpu:.2f} rss={rss:.0f}{traced}",
          flush=True)


if __name__ == "__main__":
    main()
