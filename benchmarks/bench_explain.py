"""How long it takes to explain every determined cell of a grid, and how long the explanations are.

    python benchmarks/bench_explain.py            # 50 games per length (about a minute)
    python benchmarks/bench_explain.py --games 5  # a quick look

Games: US Clue, 6 players, the user's notebook, simulated by `solver.simulate` from fixed seeds
and cut after 10, 30 and 60 events. Timed per game: `Explainer(notebook)` (the grid, the setup
grid and the shared derivation) plus `Explainer.all()` (every yes/no cell, each with minimal
events), on a notebook that has already recorded the events. Target: under 1 s for the grid.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from solver.editions import Dealing, editions
from solver.explain import Explainer
from solver.game import GameLog
from solver.notebook import Notebook
from solver.simulate import play, random_setup

NAMES = ("Anna", "Ben", "Chloe", "Dev", "Emma", "Felix")
LENGTHS = (10, 30, 60)


def classic(seed: int, events: int) -> GameLog:
    """A classic 6-player game cut after ``events`` events."""
    rng = random.Random(seed)
    deck = editions()["clue-classic"].deck
    game, truth = random_setup(deck, NAMES, Dealing.CLASSIC, "Anna", rng)
    return play(game, truth, events + 10, rng, wrong_accusations=0.02).upto(events)


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def measure(length: int, games: int) -> None:
    """Print one row of figures for games cut after ``length`` events."""
    times: list[float] = []
    cpu: list[float] = []
    steps: list[int] = []
    cited: list[int] = []
    combined = rederived = 0
    for seed in range(games):
        log = classic(1000 + seed, length)
        with Notebook(log.game, log.events) as notebook:
            start, start_cpu = time.perf_counter(), time.process_time()
            with Explainer(notebook) as explainer:
                every = explainer.all()
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                rederived += explainer.rederived
        for row in every.values():
            for explanation in row.values():
                steps.append(len(explanation.steps))
                cited.append(len(explanation.events))
                combined += any(s.rule == "combined" for s in explanation.steps)
    print(
        f"{length:>6} {games:>5} {statistics.median(times) * 1000:>9.1f} "
        f"{percentile(times, 0.95) * 1000:>8.1f} {max(times) * 1000:>8.1f} "
        f"{statistics.median(cpu) * 1000:>8.1f} {percentile(cpu, 0.95) * 1000:>8.1f} "
        f"{len(steps) / games:>7.1f} {statistics.mean(steps):>6.2f} {max(steps):>5} "
        f"{statistics.mean(cited):>7.2f} {max(cited):>6} {combined:>9} {rederived:>9}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per length (default 50)")
    args = parser.parse_args()
    print("classic 6-player Clue; ms for the whole grid (explainer + all cells), wall and CPU")
    print(f"{'events':>6} {'games':>5} {'median':>9} {'p95':>8} {'max':>8} {'cpu med':>8} "
          f"{'cpu p95':>8} "
          f"{'cells':>7} {'steps':>6} {'worst':>5} {'events':>7} {'worst':>6} "
          f"{'combined':>9} {'rederived':>9}")
    print(" " * 59 + f"{'/game':>7} {'/cell':>6} {'':>5} {'/cell':>7} {'':>6} {'cells':>9} "
          f"{'cells':>9}")
    for length in LENGTHS:
        measure(length, args.games)


if __name__ == "__main__":
    main()
