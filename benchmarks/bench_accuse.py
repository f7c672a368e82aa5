"""The verdict's cost: CPU per `accuse_or_wait` (the race, the right-chance and the turns played
out) with the app's 100 deals, on every second state of a log, this checkout against another
one (``--against``, say a ``git worktree`` of main) in the same run, the two alternating.

    python benchmarks/bench_accuse.py [--log examples/classic-six-players.json] [--samples 100]
        [--rounds 2] [--against /path/to/other/checkout]
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

HERE = Path(__file__).resolve().parent.parent


def measure(log_path: str, samples: int) -> list[float]:
    """CPU seconds of `accuse_or_wait` at every second state of the log."""
    from solver.errors import ClueError
    from solver.logfile import load
    from solver.race import accuse_or_wait

    log = load(log_path)
    times = []
    for k in range(2, len(log.events) + 1, 2):
        part = log.upto(k)
        start = time.process_time()
        try:
            accuse_or_wait(part, samples=samples)
        except ClueError:
            continue
        times.append(time.process_time() - start)
    return times


def run(checkout: Path, log_path: str, samples: int) -> list[float]:
    """`measure` in a fresh interpreter importing ``checkout``'s solver."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run(
        [sys.executable, __file__, "--measure", "--log", log_path, "--samples", str(samples)],
        env=env, cwd=HERE, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[round(0.95 * (len(ordered) - 1))]
    return (f"{len(ordered)} states: median {statistics.median(ordered) * 1000:.0f} ms, "
            f"p95 {p95 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", default="examples/classic-six-players.json")
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--against", type=Path, help="another checkout, timed alternately")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.log, args.samples)))
        return
    checkouts = {"this checkout": HERE}
    if args.against:
        checkouts[f"against {args.against}"] = args.against.resolve()
    times: dict[str, list[float]] = {name: [] for name in checkouts}
    for _ in range(args.rounds):
        for name, path in checkouts.items():
            times[name] += run(path, args.log, args.samples)
    print(f"accuse_or_wait, {args.samples} deals, {args.log}, CPU, {args.rounds} rounds:")
    for name, got in times.items():
        print(f"  {name:40} {summary(got)}")


if __name__ == "__main__":
    main()
