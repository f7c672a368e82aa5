"""Two versions of the race on the same games: the report of two ``bench_strategy.py --out`` runs
of the same seeds and settings, one per checkout (the watch does not change the play, so the
games and the moments are the same; a game whose moments differ is skipped and counted).

Over the informative points (either race said more than 0, or the opponent knew): how often they
knew, what each race said, its mean where they knew and where not, the Brier score, and knew -
said summed per game (95 % interval over all games); then the paired differences per game, and
accuse-or-wait's win (the rule as the runs scored it) paired.

    python benchmarks/bench_race_paired.py --before a.jsonl [...] --after b.jsonl [...]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from bench_strategy import paired


def games(paths: list[str]) -> dict[int, dict[str, Any]]:
    return {r["seed"]: r for path in paths for r in map(json.loads, Path(path).read_text()
                                                         .splitlines())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", nargs="+", required=True)
    parser.add_argument("--after", nargs="+", required=True)
    parser.add_argument("--bluff", default="1/4")
    args = parser.parse_args()
    before, after = games(args.before), games(args.after)
    seeds = sorted(set(before) & set(after))
    points: list[tuple[int, float, float, bool]] = []
    per: dict[str, list[float]] = {"before": [], "after": []}
    skipped = 0
    for seed in seeds:
        old, new = (g[seed]["calibration"][args.bluff] for g in (before, after))
        if len(old) != len(new) or any(a[1] != b[1] for a, b in zip(old, new, strict=True)):
            skipped += 1
            continue
        per["before"].append(sum(k - p for p, k in old))
        per["after"].append(sum(k - p for p, k in new))
        points += [(seed, p, q, k) for (p, k), (q, _) in zip(old, new, strict=True)]
    told = [t for t in points if t[1] > 0 or t[2] > 0 or t[3]]
    print(f"{len(seeds) - skipped} games paired ({skipped} skipped), {len(points)} points, "
          f"{len(told)} informative")
    for j, name in ((1, "before"), (2, "after")):
        yes = [t[j] for t in told if t[3]]
        no = [t[j] for t in told if not t[3]]
        brier = sum((t[j] - t[3]) ** 2 for t in told) / max(1, len(told))
        print(f"  {name:7} knew {len(yes)}  said {sum(t[j] for t in told):.1f}  mean where knew "
              f"{sum(yes) / max(1, len(yes)):.3f}  where not {sum(no) / max(1, len(no)):.3f}  "
              f"Brier {brier:.4f}  knew - said per game {paired(per[name])}")
    said = [a - b for a, b in zip(per["before"], per["after"], strict=True)]
    print(f"  after - before: said per game {paired(said)}")
    brier: dict[int, float] = {}
    for seed, p, q, k in told:
        brier[seed] = brier.get(seed, 0.0) + (q - k) ** 2 - (p - k) ** 2
    print(f"  after - before: Brier summed per game {paired(list(brier.values()))} "
          f"({len(brier)} games with an informative point)")
    wins = [float(after[s]["rule_win"][args.bluff]) - float(before[s]["rule_win"][args.bluff])
            for s in seeds]
    rate = {name: sum(g[s]["rule_win"][args.bluff] for s in seeds) / len(seeds)
            for name, g in (("before", before), ("after", after))}
    print(f"  accuse-or-wait win: before {rate['before']:.3f}, after {rate['after']:.3f}; "
          f"after - before {paired(wins)} ({len(seeds)} paired games)")


if __name__ == "__main__":
    main()
