""""Suggest for me" at 8-12-player tables, in CPU: making the log's advisor
(`solver.advice.Advisor`, the app's 1,000 deals, the SAT grid handed in as the app has it),
then what the app asks of it beside the runs (`anywhere`, and `whom` in any room: the forum
variant, or any log with an addressed suggestion) and per tap (`here` in the first room), on
`bench_odds` logs: 12-player forum logs at 10, 30 and 60 events and 45-card 12-player custom
logs at 30 events, player P1's view. This checkout against another one (``--against``, say an
unpacked ``git archive`` of main) in the same run, the two alternating, each in a fresh
interpreter with every count's compiled kernels loaded first (`warm.load_all`). Each row says
whether the two answered the same: the advice listed (best three anywhere, whom and what, the
best here) with its figures to the last digit, so a change of the deals drawn shows.

    python benchmarks/bench_advisor.py [--against /path/to/other/checkout] [--rounds 2]
        [--seeds 0 1 2 3 4 5] [--events 10 30 60] [--custom 0 1 4] [--samples 1000]
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
PARTS = ("advisor", "whom", "here")


def logs(seeds: list[int], events: list[int], custom: list[int]) -> dict[str, Any]:
    """The logs measured, by label."""
    sys.path.insert(0, str(HERE / "benchmarks"))
    from bench_odds import custom_log, forum_log

    made: dict[str, Any] = {}
    for count in events:
        for seed in seeds:
            made[f"forum 12p {count}ev seed {seed}"] = forum_log(12, count, seed, "P1")
    for seed in custom:
        made[f"custom 45c 12p 30ev seed {seed}"] = custom_log(12, 30, seed, "P1")
    return made


def said(advice: Any) -> list[Any]:
    """An advice's triple and figures, to compare two checkouts' answers."""
    return [list(advice.triple), advice.to, advice.score, advice.gain, advice.hands,
            [list(a) for a in advice.answers]]


def measure(seeds: list[int], events: list[int], custom: list[int],
            samples: int) -> dict[str, list[Any]]:
    """Per log: CPU seconds of each part and its answers, in this interpreter."""
    from solver.advice import Advisor
    from solver.odds import grid_of, warm

    warm.load_all()  # every count's kernels, as a server has them
    out: dict[str, list[Any]] = {}
    for label, log in logs(seeds, events, custom).items():
        grid = grid_of(log)  # the app has it from the notebook
        start = time.process_time()
        advisor = Advisor(log, samples=samples, grid=grid)
        made = time.process_time()
        anywhere = advisor.anywhere()
        whom = advisor.whom()
        asked = time.process_time()
        here = advisor.here(log.game.deck.rooms[0])
        tapped = time.process_time()
        answer = [[said(a) for a in anywhere[:3]], whom.player, said(whom.best),
                  said(here.best)]
        out[label] = [[made - start, asked - made, tapped - asked], answer]
    return out


def run(checkout: Path, args: argparse.Namespace) -> dict[str, list[Any]]:
    """`measure` in a fresh interpreter importing ``checkout``'s solver."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    command = [sys.executable, __file__, "--measure", "--samples", str(args.samples),
               "--seeds", *map(str, args.seeds), "--events", *map(str, args.events),
               "--custom", *map(str, args.custom)]
    done = subprocess.run(command, env=env, cwd=HERE, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another checkout, timed alternately")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4, 5])
    parser.add_argument("--events", type=int, nargs="+", default=[10, 30, 60])
    parser.add_argument("--custom", type=int, nargs="*", default=[0, 1, 4])
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.seeds, args.events, args.custom, args.samples)))
        return
    checkouts = {"this": HERE}
    if args.against:
        checkouts["against"] = args.against.resolve()
    times: dict[str, dict[str, list[list[float]]]] = {name: {} for name in checkouts}
    answers: dict[str, dict[str, Any]] = {name: {} for name in checkouts}
    loads = []
    for _ in range(args.rounds):
        for name, path in checkouts.items():
            for label, (seconds, answer) in run(path, args).items():
                times[name].setdefault(label, []).append(seconds)
                answers[name][label] = answer
            loads.append(os.getloadavg()[0])
    print(f"CPU seconds, median of {args.rounds} rounds; load average "
          f"{min(loads):.1f}-{max(loads):.1f}")
    print(f"  {'':32} " + "  ".join(f"{name + ' ' + part:>15}" for part in PARTS
                                     for name in checkouts))
    totals: dict[str, list[float]] = {name: [] for name in checkouts}
    for label in times["this"]:
        cells = []
        for part in range(len(PARTS)):
            for name in checkouts:
                cells.append(f"{statistics.median(r[part] for r in times[name][label]):15.3f}")
        for name in checkouts:
            totals[name].append(statistics.median(sum(r) for r in times[name][label]))
        same = ("" if len(checkouts) == 1 else
                "  same answer" if answers["this"][label] == answers["against"][label]
                else "  ANSWER DIFFERS")
        print(f"  {label:32} {'  '.join(cells)}{same}")
    for name, spent in totals.items():
        print(f"  {name}: all three parts, median {statistics.median(spent):.3f} s, "
              f"max {max(spent):.3f} s, sum {sum(spent):.2f} s over {len(spent)} logs")


if __name__ == "__main__":
    main()
