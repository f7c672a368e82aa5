"""How long the notebook takes to redraw the whole grid after each event, against a naive baseline.

    python benchmarks/bench_engine.py            # the full run (a few minutes)
    python benchmarks/bench_engine.py --quick    # one game per table, fewer baseline samples
    python benchmarks/bench_engine.py --wall     # wall-clock instead of process CPU time
    python benchmarks/bench_engine.py --notebook mymodule:FastNotebook   # try another engine

Logs are simulated (`solver.simulate`) from fixed seeds and replayed event by event.

- engine: one incremental `Notebook`; after each event, `record(event)` then `grid()`, timed
  together.
- baseline: the same SAT model (`DealModel`, same clauses), but every cell asked twice ("can it
  be yes?", "can it be no?"), each question to a fresh `Solver` bootstrapped with every clause.
  It is slow, so it is timed after every k-th event only (k is printed); the engine is timed
  after every event, and the speed-up compares the two on the same events.

Times are process CPU time by default: on a shared machine wall-clock mostly measures the
neighbours (the load average is printed). On an idle machine the two agree for this code.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pysat.solvers import Solver

from solver.editions import Dealing, editions, forum_deck
from solver.game import GameLog
from solver.model import DealModel
from solver.notebook import SOLVER, Knowledge, Notebook
from solver.simulate import play, random_setup


@dataclass(frozen=True)
class Table:
    """One kind of game to measure."""

    name: str
    """Label in the printed table."""
    make: Callable[[int], GameLog]
    """Seed -> a simulated log."""
    baseline_every: int
    """Time the baseline after every k-th event."""


def classic(seed: int) -> GameLog:
    """US Clue, 6 players, the user's notebook, 100 events."""
    rng = random.Random(seed)
    names = ("Anna", "Ben", "Chloe", "Dev", "Emma", "Felix")
    game, truth = random_setup(editions()["clue-classic"].deck, names, Dealing.CLASSIC, "Anna", rng)
    log = play(game, truth, 150, rng, wrong_accusations=0.02)
    return log.upto(100)


def two_player(seed: int) -> GameLog:
    """Finnish Refresh, 2 players, side cards, 60 events."""
    rng = random.Random(seed)
    deck = editions()["cluedo-refresh-2012-fi"].deck
    game, truth = random_setup(deck, ("Aino", "Niko"), Dealing.TWO_PLAYER, "Aino", rng)
    return play(game, truth, 60, rng)


def forum_twelve(seed: int) -> GameLog:
    """Forum variant, 12 players (12 + 12 + 15 cards, 3 each), directed suggestions, 300 events."""
    rng = random.Random(seed)
    names = tuple(f"Player {i}" for i in range(1, 13))
    game, truth = random_setup(forum_deck(12), names, Dealing.FORUM, "Player 1", rng)
    log = play(game, truth, 400, rng, directed=True, reveals=0.01)
    return log.upto(300)


TABLES = (
    Table("classic, 6 players, 100 events", classic, 5),
    Table("2 players + side cards, 60 events", two_player, 5),
    Table("forum, 12 players, 300 events", forum_twelve, 100),
)


Clock = Callable[[], float]
"""A stopwatch: `time.process_time` (CPU) or `time.perf_counter` (wall-clock)."""


def engine_times(log: GameLog, engine: type[Notebook], clock: Clock) -> list[float]:
    """Seconds for record + grid after each event."""
    times: list[float] = []
    with engine(log.game) as notebook:
        for event in log.events:
            start = clock()
            notebook.record(event)
            notebook.grid()
            times.append(clock() - start)
    return times


def baseline_grid(model: DealModel) -> dict[int, Knowledge]:
    """Each cell asked twice, each time to a fresh solver holding every clause."""
    cells: dict[int, Knowledge] = {}
    for var in model.cells:
        possible = []
        for literal in (var, -var):
            with Solver(name=SOLVER, bootstrap_with=model.clauses) as solver:
                possible.append(solver.solve(assumptions=[*model.selectors, literal]))
        can_hold, can_lack = possible
        if can_hold and can_lack:
            cells[var] = Knowledge.MAYBE
        else:
            cells[var] = Knowledge.YES if can_hold else Knowledge.NO
    return cells


def baseline_times(log: GameLog, every: int, clock: Clock) -> dict[int, float]:
    """Event index -> seconds for the baseline grid after that event (every k-th event)."""
    model = DealModel(log.game)
    times: dict[int, float] = {}
    for i, event in enumerate(log.events):
        start = clock()
        model.add(event)
        if (i + 1) % every == 0:
            baseline_grid(model)
            times[i] = clock() - start
    return times


def p95(values: Sequence[float]) -> float:
    """The 95th percentile (inclusive method; the only value when there is one)."""
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f}"


def check_agreement(log: GameLog, engine: type[Notebook]) -> None:
    """The baseline and the engine draw the same grid."""
    model = DealModel(log.game)
    for event in log.events:
        model.add(event)
    naive = baseline_grid(model)
    with engine(log.game, log.events) as notebook:
        grid = notebook.grid()
    for var, (card, owner) in model.cells.items():
        if naive[var] is not grid[card, owner]:
            raise SystemExit(f"baseline and engine disagree on {card} / {owner}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games (seeds) per table")
    parser.add_argument("--quick", action="store_true", help="1 game per table, sparse baseline")
    parser.add_argument("--wall", action="store_true", help="wall-clock time, not CPU time")
    parser.add_argument("--notebook", metavar="MODULE:CLASS",
                        help="a Notebook subclass to measure instead of solver.notebook.Notebook")
    args = parser.parse_args(argv)
    clock: Clock = time.perf_counter if args.wall else time.process_time
    engine = Notebook
    if args.notebook:
        module, _, name = args.notebook.partition(":")
        engine = getattr(importlib.import_module(module), name)
    games = 1 if args.quick else args.games
    header = (
        f"{'game':35} {'events':>6} {'median':>8} {'p95':>8} {'max':>8} | "
        f"{'base k':>6} {'base med':>8} {'base p95':>8} {'speed-up':>8}"
    )
    kind = "wall-clock" if args.wall else "CPU"
    print(f"{engine.__module__}.{engine.__name__}: {kind} ms to record one event and recompute "
          f"the whole grid; {games} game(s) per table; load average {os.getloadavg()[0]:.1f}")
    print(header)
    print("-" * len(header))
    figures: dict[str, tuple[float, float, float]] = {}
    for table in TABLES:
        every = table.baseline_every * (3 if args.quick else 1)
        measured: list[float] = []
        base: list[float] = []
        engine_same: list[float] = []
        for seed in range(games):
            log = table.make(seed)
            check_agreement(log.upto(len(log.events) // 2), engine)
            times = engine_times(log, engine, clock)
            measured.extend(times)
            for i, seconds in baseline_times(log, every, clock).items():
                base.append(seconds)
                engine_same.append(times[i])
        speedup = statistics.median(base) / statistics.median(engine_same)
        figures[table.name] = (statistics.median(measured), p95(measured), speedup)
        print(
            f"{table.name:35} {len(measured):6d} {ms(statistics.median(measured))} "
            f"{ms(p95(measured))} {ms(max(measured))} | {every:6d} "
            f"{ms(statistics.median(base))} {ms(p95(base))} {speedup:7.1f}x",
            flush=True,
        )
    classic_median, classic_p95, classic_speedup = figures[TABLES[0].name]
    forum_p95 = figures[TABLES[2].name][1]
    print("\ntargets:")
    for label, ok in (
        (f"classic median {classic_median * 1000:.2f} ms < 5 ms", classic_median < 0.005),
        (f"classic p95 {classic_p95 * 1000:.2f} ms < 20 ms", classic_p95 < 0.020),
        (f"classic {classic_speedup:.0f}x faster than the baseline (>= 3x)", classic_speedup >= 3),
        (f"12-player p95 {forum_p95 * 1000:.2f} ms < 100 ms", forum_p95 < 0.100),
    ):
        print(f"  {'met ' if ok else 'MISSED'}  {label}")


if __name__ == "__main__":
    main()
