"""Which exact count finishes `odds` on 12-player `bench_odds` logs, and what each count spent in
its turns before that: per log, the work, effort and CPU of every count `choice` started (each
call of `choice.first_finished`: the turns, then any count that goes alone), the puzzle's
set-up and the rest (the figures from the count that finished).

    python benchmarks/count_turns.py forum 30 0 1 2 3 4 5
    python benchmarks/count_turns.py custom 30 10

Numba's kernels are loaded first, as `bench_odds` does; `count_alone.py` runs one count alone.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Generator
from typing import Any

from bench_odds import custom_log, forum_log

from solver.odds import choice, grid_of, odds, pins_compiled, puzzle
from solver.odds.compiled import kernel
from solver.odds.exclusion_compiled import kernel as exclusion_kernel
from solver.odds.programme import OverBudget

clock = time.process_time
calls: list[list[dict[str, Any]]] = []
plain_first_finished = choice.first_finished


def timed(steps: Generator[None, None, Any], run: dict[str, Any]) -> Generator[None, None, Any]:
    """``steps``, their CPU and how they ended noted in ``run``."""
    while True:
        start = clock()
        try:
            next(steps)
        except StopIteration as done:
            run["end"] = "finished"
            return done.value
        except (OverBudget, ArithmeticError):
            run["end"] = "dropped out"
            raise
        finally:
            run["cpu"] += clock() - start
            run["steps"] += 1
        yield


def first_finished(runs: list[Any], head_start: int = 0) -> Any:
    noted = [{"name": steps.__name__, "cpu": 0.0, "steps": 0, "end": "not finished",
              "budget": budget} for steps, budget, _ in runs]
    calls.append(noted)
    return plain_first_finished(
        [(timed(steps, run), budget, share) for (steps, budget, share), run
         in zip(runs, noted, strict=True)], head_start)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", choices=("forum", "custom"))
    parser.add_argument("events", type=int)
    parser.add_argument("seeds", type=int, nargs="+")
    args = parser.parse_args()
    kernel()
    exclusion_kernel()
    pins_compiled.kernel()
    choice.first_finished = first_finished  # type: ignore[assignment]
    for seed in args.seeds:
        log = (custom_log if args.game == "custom" else forum_log)(12, args.events, seed, "P1")
        grid = grid_of(log)
        start = clock()
        pz = puzzle(log, grid)
        set_up = clock() - start
        calls.clear()
        start = clock()
        result = odds(log, grid=grid)
        took = clock() - start
        counted = sum(run["cpu"] for noted in calls for run in noted)
        print(f"{args.game} {args.events} events seed {seed}: {took * 1000:.0f} ms, "
              f"{'exact' if result.exact else 'sampled'}; ruled-out cells "
              f"{choice.ruled_out(pz)}, owner_states 2^{choice.owner_states(pz).bit_length() - 1}"
              f"; puzzle {set_up * 1000:.1f} ms, outside the counts {(took - counted) * 1000:.0f}"
              " ms")
        for i, noted in enumerate(calls):
            for run in noted:
                budget = run["budget"]
                print(f"  turns {i}: {run['name']:16} {run['end']:13} {budget.spent / 1e6:7.3f} M"
                      f" units, effort {budget.effort / 1e6:8.3f} M, {run['steps']:4d} steps, "
                      f"{run['cpu'] * 1000:6.0f} ms")


if __name__ == "__main__":
    main()
