"""What the others' questions tell the race: a measurement, not a change to it.

The race (`solver.race.race`) weighs deals by the bluff factor only for the cards a player named
while holding them. The simulated opponents (like careful players) never name a card they have
already placed outside the envelope in any way: seen in their hand, shown to them, or deduced.
This replays the moments a strategy benchmark recorded (``bench_strategy.py --out``, the
``likeliest`` games against perfect opponents at 6 players), draws deals as the race does (`Play`
at 1/4, kept when nobody still in the game could have named the envelope at the end of their
last turn), and reads each opponent's chance to know four ways on the same drawn deals and the
same hidden choices (which card a refuter showed when I did not see it):

- ``race``: the race itself (its own 150 deals, as the benchmark recorded it);
- ``kept``: the share among the deals drawn here (the race again, another draw);
- ``shown 1/4``: each deal weighs 1/4 more for every card a player named after it had been shown
  to them (no SAT call: the cheap part);
- ``placed 1/4``: 1/4 for every card a player named after their view (hand, cards shown to them,
  the public log up to then) had placed it outside the envelope, not holding it;
- ``placed 0``: such deals dropped.

Only moments where the race said more than 0 or the opponent knew are replayed (the others
stay near 0 whatever the weighting). Points of a game are summed per game for the interval.

    python benchmarks/bench_race_questions.py RUN.jsonl [...] [--deals 300] [--part 0 --parts 2]
    python benchmarks/bench_race_questions.py --report OUT.jsonl [...]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import bench_strategy as bs

from solver.game import ENVELOPE, GameLog, Suggestion
from solver.race import Play, _deals, _Table, heard_before, race
from solver.simulate import Moment, Opponent, play_to_win

WAYS = ("race", "kept", "shown 1/4", "placed 1/4", "placed 0")
FACTOR = 0.25
RACE_SAMPLES = 150


def recorded(paths: Iterable[str]) -> dict[int, set[tuple[int, bool]]]:
    """Seed -> the (turn, answered) moments with a point where the race said > 0 or they knew."""
    wanted: dict[int, set[tuple[int, bool]]] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            r = json.loads(line)
            points = r["calibration"]["1/4"]
            moments = r["moments"]["1/4"]
            per = len(points) // max(1, len(moments))
            for i, m in enumerate(moments):
                if any(p > 0 or k for p, k in points[i * per:(i + 1) * per]):
                    wanted.setdefault(r["seed"], set()).add((m["turn"], m["answered"]))
    return wanted


def _views(table: _Table, log: GameLog, deal: Mapping[str, str], rng: random.Random
           ) -> dict[str, tuple[list[int], list[tuple[int, int, str]]]]:
    """Per opponent: their hand as facts, and (event index, fact, card) for each card shown to
    them (a uniform pick among the refuter's matches when I did not see it)."""
    holds = table.model.holds
    views = {}
    for player in log.game.player_names:
        if player == log.game.me:
            continue
        hand = [holds(player, c) if deal[c] == player else -holds(player, c) for c in table.live]
        shown = []
        for i, event in enumerate(log.events):
            if not isinstance(event, Suggestion) or event.by != player or event.refuted_by is None:
                continue
            matches = [c for c in event.cards if deal.get(c) == event.refuted_by]
            card = event.shown or (rng.choice(matches) if matches else None)
            if card in table.live:
                shown.append((i, holds(event.refuted_by, card), card))
        views[player] = (hand, shown)
    return views


def _named_placed(table: _Table, log: GameLog, deal: Mapping[str, str],
                  views: Mapping[str, tuple[list[int], list[tuple[int, int, str]]]]
                  ) -> tuple[int, int]:
    """How many cards the others named after being shown them, and after placing them in any
    way (their own cards left out: `Play` weighs those)."""
    holds = table.model.holds
    heard = heard_before(log)
    shown_named = placed = 0
    for i, event in enumerate(log.events):
        by = event.by if isinstance(event, Suggestion) else None  # accusations name no cards
        if by is None or by == log.game.me or by not in views:
            continue
        hand, shown = views[by]
        seen = {card for j, _, card in shown if j < i}
        base = table.selectors[:heard[i]] + hand + [fact for j, fact, _ in shown if j < i]
        for card in event.cards:
            if card not in table.live or deal[card] == by:
                continue
            shown_named += card in seen
            placed += not table.solver.solve(assumptions=[*base, holds(ENVELOPE, card)])
    return shown_named, placed


def measure(moment: Moment, deals: int) -> dict[str, Any]:
    """Each opponent's chance to know at ``moment``, the ways of `WAYS`."""
    log = moment.log
    start = time.process_time()
    play = Play(log, Fraction(1, 4))
    said = race(log, samples=RACE_SAMPLES, seed=moment.turn, play=play).players
    drawn = _deals(log, play.draw(deals, seed=1000 + moment.turn))
    rng = random.Random(moment.turn)
    table = _Table(log, random.Random(moment.turn))
    mass = [0.0] * 4
    knew = {p: [0.0] * 4 for p in moment.knows}
    try:
        for deal in drawn:
            views = _views(table, log, deal, rng)
            now, kept = set(), True
            for player, (hand, shown) in views.items():
                facts = hand + [fact for _, fact, _ in shown]
                if table.knows(player, deal, facts):
                    now.add(player)
                    if player in table.turn_end and table.knows(player, deal, facts,
                                                                 table.turn_end[player]):
                        kept = False
            if not kept:
                continue
            shown_named, placed = _named_placed(table, log, deal, views)
            weights = (1.0, FACTOR ** shown_named, FACTOR ** placed, float(placed == 0))
            for j, w in enumerate(weights):
                mass[j] += w
                for player in knew:
                    knew[player][j] += w * (player in now)
    finally:
        table.close()
    chances = {p: [said[p]] + [k / m if m else None for k, m in zip(knew[p], mass, strict=True)]
               for p in knew}
    return {"turn": moment.turn, "answered": moment.answered, "knows": dict(moment.knows),
            "chances": chances, "mass": mass, "cpu": time.process_time() - start}


def replay(seed: int, wanted: set[tuple[int, bool]],
           measure_moment: Callable[[Moment], dict[str, Any]]) -> list[dict[str, Any]]:
    """Replay the benchmark's ``likeliest`` game of ``seed`` (6 players, perfect opponents),
    measuring each ``wanted`` (turn, answered) moment not yet certain or solved."""
    names = tuple(f"P{i}" for i in range(1, 7))
    rows: list[dict[str, Any]] = []

    def watch(moment: Moment) -> None:
        if moment.certain or moment.solved or (moment.turn, moment.answered) not in wanted:
            return
        rows.append({"seed": seed, **measure_moment(moment)})

    play_to_win(bs.DECK, names, names[seed % len(names)], seed, bs.likeliest,
                opponents=Opponent.PERFECT, watch=watch)
    return rows


def report(rows: list[dict[str, Any]]) -> None:
    print(f"{len(rows)} moments of {len({r['seed'] for r in rows})} games")
    print(f"{'':12} {'points':>6} {'knew':>5} {'said':>6}  {'mean where knew':>15}  "
          f"{'where not':>9}  {'Brier':>6}  knew - said per game, 95 %")
    for j, way in enumerate(WAYS):
        points = [(r["seed"], c[j], r["knows"][p]) for r in rows for p, c in r["chances"].items()
                  if (c[0] > 0 or r["knows"][p]) and c[j] is not None]
        per: dict[int, float] = {}
        for seed, p, k in points:
            per[seed] = per.get(seed, 0.0) + k - p
        if not points:  # no moment where the race said more than 0 or they knew
            print(f"{way:12} {0:6}")
            continue
        yes = [p for _, p, k in points if k]
        no = [p for _, p, k in points if not k]
        brier = sum((p - k) ** 2 for _, p, k in points) / len(points)
        print(f"{way:12} {len(points):6} {len(yes):5} {sum(p for _, p, _ in points):6.1f}  "
              f"{sum(yes) / max(1, len(yes)):15.3f}  {sum(no) / max(1, len(no)):9.3f}  "
              f"{brier:6.3f}  {bs.paired(list(per.values()))} ({len(per)} games)")


def replay_parser(description: str) -> argparse.ArgumentParser:
    """The arguments of a benchmark that replays recorded moments: the runs, this process's
    part of the seeds, where to append the moments, or only a report of files."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("runs", nargs="*", help="bench_strategy.py --out files")
    parser.add_argument("--part", type=int, default=0)
    parser.add_argument("--parts", type=int, default=1)
    parser.add_argument("--out", help="append one JSON line per moment here")
    parser.add_argument("--report", nargs="+", help="only print the report of files")
    return parser


def replay_runs(args: argparse.Namespace,
                replay_seed: Callable[[int, set[tuple[int, bool]]], list[dict[str, Any]]],
                report_rows: Callable[[list[dict[str, Any]]], None]) -> None:
    """Replay this part's seeds of the recorded moments (appending each seed's moments to
    ``--out`` as they come) and report them; with ``--report``, only report those files."""
    if args.report:
        report_rows([json.loads(line) for path in args.report
                     for line in Path(path).read_text().splitlines()])
        return
    wanted = recorded(args.runs)
    rows: list[dict[str, Any]] = []
    for seed in sorted(wanted)[args.part::args.parts]:
        got = replay_seed(seed, wanted[seed])
        rows += got
        if args.out:
            with open(args.out, "a") as out:
                out.writelines(json.dumps(r) + "\n" for r in got)
        print(f"seed {seed}: {len(got)} moments", file=sys.stderr, flush=True)
    if rows:
        report_rows(rows)


def main() -> None:
    parser = replay_parser(__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    args = parser.parse_args()
    replay_runs(args, lambda seed, wanted: replay(seed, wanted, lambda m: measure(m, args.deals)),
                report)


if __name__ == "__main__":
    main()
