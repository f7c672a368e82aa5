"""Peak memory of the compiled programme alone on one benchmark log, layer by layer
(`tracemalloc`, which sees numpy's arrays): where a long count's memory goes.

    python benchmarks/programme_memory.py custom 30 1 --budget 20e6
    python benchmarks/programme_memory.py forum 30 0 --budget 20e6 --layers

The logs are `bench_odds`'s (12 players, player P1); the count is `count_steps`, compiled, with
``--budget`` units of work; CPU time includes tracemalloc's overhead.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

from bench_odds import custom_log, forum_log

from solver.odds import OverBudget, grid_of, puzzle
from solver.odds.compiled import kernel
from solver.odds.exact import count_steps
from solver.odds.programme import Budget


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("forum", "custom"))
    parser.add_argument("events", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("--budget", type=float, default=20e6)
    parser.add_argument("--layers", action="store_true", help="print every layer's peak")
    args = parser.parse_args()
    log = (custom_log if args.game == "custom" else forum_log)(12, args.events, args.seed, "P1")
    pz = puzzle(log, grid_of(log))
    kernel()
    budget = Budget(int(args.budget))
    steps = count_steps(pz, budget, compiled=True)
    layers: list[tuple[int, int, int]] = []  # (peak, after, work spent) per pause
    status = "exact"
    tracemalloc.start()
    start = time.process_time()
    try:
        while True:
            next(steps)
            peak_after = tracemalloc.get_traced_memory()
            layers.append((peak_after[1], peak_after[0], budget.spent))
            tracemalloc.reset_peak()
    except StopIteration:
        pass
    except OverBudget:
        status = "past the budget"
    cpu = time.process_time() - start
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    layers.append((peak, current, budget.spent))
    top = max(range(len(layers)), key=lambda i: layers[i][0])
    mb = 2**20
    print(f"{args.game} {args.events} events seed {args.seed}, {args.budget / 1e6:g} M units: "
          f"{status} at {budget.spent / 1e6:.2f} M, {cpu:.2f} s CPU, peak "
          f"{layers[top][0] / mb:.0f} MB (pause {top}, {layers[top][2] / 1e6:.2f} M spent)")
    if args.layers:
        for i, (p, after, spent) in enumerate(layers):
            print(f"  pause {i:3}: {spent / 1e6:6.2f} M spent, peak {p / mb:4.0f} MB, "
                  f"after {after / mb:4.0f} MB")


if __name__ == "__main__":
    main()
