"""One exact count alone on one 12-player `bench_odds` log, with a budget of your choosing: the
work it needs to finish (or that it is past the budget), its CPU, the process's peak RSS, and
the work of every step (a layer of the programme, an owner's turn of the others).

    python benchmarks/count_alone.py programme custom 60 1 --budget 80e6
    python benchmarks/count_alone.py exclusion custom 30 1 --budget 30e6

``programme``: `count_steps`, compiled (as `odds` runs it past the turns); ``exclusion``:
inclusion-exclusion owner by owner, compiled (`exclusion_compiled.exclusion_steps`), whatever
the log's ruled-out cells (`odds` tries it only up to `choice.FEW_CELLS`); ``owners``: the count
owner by owner. Run one log per process: the peak RSS is the whole process's, numba's kernels
included (they are loaded before the count).
"""

from __future__ import annotations

import argparse
import resource
import time

from bench_odds import custom_log, forum_log

from solver.odds import OverBudget, grid_of, puzzle
from solver.odds.compiled import kernel
from solver.odds.exact import count_steps
from solver.odds.exclusion_compiled import exclusion_steps
from solver.odds.exclusion_compiled import kernel as exclusion_kernel
from solver.odds.owners import owner_steps
from solver.odds.programme import Budget


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", choices=("programme", "exclusion", "owners"))
    parser.add_argument("game", choices=("forum", "custom"))
    parser.add_argument("events", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("--budget", type=float, default=20e6)
    args = parser.parse_args()
    log = (custom_log if args.game == "custom" else forum_log)(12, args.events, args.seed, "P1")
    pz = puzzle(log, grid_of(log))
    kernel()
    exclusion_kernel()
    budget = Budget(int(args.budget))
    steps = (count_steps(pz, budget, compiled=True) if args.count == "programme" else
             exclusion_steps(pz, budget) if args.count == "exclusion" else
             owner_steps(pz, budget))
    spent: list[int] = []
    status = "exact"
    start = time.process_time()
    try:
        while True:
            next(steps)
            spent.append(budget.spent)
    except StopIteration:
        pass
    except OverBudget:
        status = "past the budget"
    cpu = time.process_time() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    steps_work = [b - a for a, b in zip([0, *spent], spent, strict=False)]
    print(f"{args.count}, {args.game} {args.events} events seed {args.seed}: {status} at "
          f"{budget.spent / 1e6:.2f} M, {cpu:.1f} s CPU, peak RSS {rss:.0f} MB")
    print("  work per step, M: " + " ".join(f"{w / 1e6:.2f}" for w in steps_work))


if __name__ == "__main__":
    main()
