"""The verdict's cost: CPU per `accuse_or_wait` (the race, the right-chance and the turns played
out) with the app's deals (as many as `accuse` draws, `solver.race.draw_size`), on every second
state of a log (or of several, from state ``--first`` on), this checkout against another one
(``--against``, say a ``git worktree`` of main) in the same run, the two alternating; beside it the
part after the race (the table's odds, the turns played out, `settles_surely`). ``--compiled`` loads
every count's compiled kernels first, as the app's server does (`warm.load_all`; else each loads at
a count's first use, and a 12-player count runs its first units in Python). Either way each
checkout's kernels are compiled before the runs, untimed: in a checkout numba has not compiled them
in (a fresh worktree, or after a change to a kernel), the first state that loaded one paid its
compile, 7-12 s of CPU a count (the advisor at 13.1, 6.6 and 10.2 s on seed 0's forum log, 12
players, states 3, 7 and 12; 0.4-2.1 s with them compiled). ``--whom``: in a forum game, "Suggest
for me" made first (`Advisor.whom` with the app's 1000 deals, its CPU timed on a line of its own)
and the verdict given its question to play out (a checkout whose `accuse_or_wait` takes no
``advice`` plays out its own).

    python benchmarks/bench_accuse.py [--log examples/classic-six-players.json ...]
        [--samples N] [--rounds 2] [--first 2] [--compiled] [--whom]
        [--against /path/to/checkout]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


ADVICE_SAMPLES = 1000
"""The app's advisor's deals (`notebook_app.screens.turn.ADVICE_SAMPLES`)."""


def measure(log_path: str, samples: int, first: int = 2, compiled: bool = False,
            whom: bool = False) -> list[tuple[float, float, float]]:
    """CPU seconds of `accuse_or_wait` at every second state of the log from ``first``, of its
    part after the race (the same calls: the weighting, its odds and the race given) and, with
    ``whom``, of the advisor made before it (0 without)."""
    import inspect

    from solver.advice import Advisor
    from solver.errors import ClueError
    from solver.logfile import load
    from solver.odds import grid_of
    from solver.race import BLUFF, Play, accuse_or_wait, race

    takes_advice = "advice" in inspect.signature(accuse_or_wait).parameters

    if compiled:
        load_kernels()
    log = load(log_path)
    times = []
    for k in range(first, len(log.events) + 1, 2):
        part = log.upto(k)
        grid = grid_of(part)  # the app's run has it
        advised: dict[str, Any] = {}
        try:
            start = time.process_time()
            if whom and not grid.accusation_safe:
                made = Advisor(part, samples=ADVICE_SAMPLES, grid=grid).whom()
                if takes_advice:
                    advised["advice"] = made
            advising = time.process_time() - start
            start = time.process_time()
            if grid.accusation_safe:
                accuse_or_wait(part, samples=samples or None, grid=grid)
                after = time.process_time()
            else:
                play = Play(part, BLUFF, grid)
                found = play.odds()
                drawn = race(part, samples=samples or None, play=play)
                after = time.process_time()
                accuse_or_wait(part, samples=samples or None, race_of=drawn, found=found,
                               play=play, grid=grid, **advised)
        except ClueError:
            continue
        end = time.process_time()
        times.append((end - start, end - after, advising))
    return times


def load_kernels() -> None:
    """Every count's compiled kernels loaded in this process (compiled where numba's cache lacks
    them); a checkout without `warm.load_all`, the programme's alone."""
    try:
        from solver.odds.warm import load_all
    except ImportError:
        from solver.odds.compiled import kernel as load_all  # type: ignore[assignment]
    load_all()


def compile_kernels(checkout: Path) -> None:
    """``checkout``'s kernels compiled into numba's cache (`load_kernels` in a process of its
    own), so that no timed state pays the compile."""
    subprocess.run([sys.executable, __file__, "--compile"],
                   env=dict(os.environ, PYTHONPATH=str(checkout)), cwd=HERE, check=True)


def run(checkout: Path, log_path: str, samples: int, first: int,
        compiled: bool, whom: bool = False) -> list[tuple[float, float, float]]:
    """`measure` in a fresh interpreter importing ``checkout``'s solver."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run(
        [sys.executable, __file__, "--measure", "--log", log_path, "--samples", str(samples),
         "--first", str(first), *(["--compiled"] if compiled else []),
         *(["--whom"] if whom else [])],
        env=env, cwd=HERE, capture_output=True, text=True, check=True)
    return [tuple(t) for t in json.loads(done.stdout)]


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[round(0.95 * (len(ordered) - 1))]
    return (f"{len(ordered)} states: median {statistics.median(ordered) * 1000:.0f} ms, "
            f"p95 {p95 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", nargs="+", default=["examples/classic-six-players.json"])
    parser.add_argument("--samples", type=int, default=0,
                        help="deals drawn (default: as many as the app and accuse draw)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--first", type=int, default=2, help="the first state measured")
    parser.add_argument("--compiled", action="store_true", help="load the compiled count first")
    parser.add_argument("--against", type=Path, help="another checkout, timed alternately")
    parser.add_argument("--whom", action="store_true",
                        help="make Suggest for me first and give the verdict its question")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--compile", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.compile:
        load_kernels()
        return
    if args.measure:
        print(json.dumps(measure(args.log[0], args.samples, args.first, args.compiled,
                                 args.whom)))
        return
    checkouts = {"this checkout": HERE}
    if args.against:
        checkouts[f"against {args.against}"] = args.against.resolve()
    for path in checkouts.values():
        compile_kernels(path)
    times: dict[str, list[tuple[float, float, float]]] = {name: [] for name in checkouts}
    for _ in range(args.rounds):
        for log in args.log:
            for name, path in checkouts.items():
                times[name] += run(path, log, args.samples, args.first, args.compiled,
                                   args.whom)
    deals = args.samples or "the app's"
    print(f"accuse_or_wait, {deals} deals, {' '.join(args.log)}, from state "
          f"{args.first}, CPU, {args.rounds} rounds:")
    for name, got in times.items():
        print(f"  {name:40} {summary([t for t, _, _ in got])}")
        print(f"  {'  after the race':40} {summary([a for _, a, _ in got])}")
        if args.whom:
            print(f"  {'  Suggest for me made before it':40} {summary([w for _, _, w in got])}")
            print(f"  {'  the two':40} {summary([t + w for t, _, w in got])}")


if __name__ == "__main__":
    main()
