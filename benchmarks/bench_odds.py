"""Time to compute every probability (cards x owners and envelope triples), and sampling error.

Games are simulated (classic box, the user at seat 1, opponents ask at random), cut after 0, 10,
30 and 60 events; the SAT grid is computed first and not timed (the notebook has it already).
Each figure is the best of three runs (one for 12 players), since the machine is shared.

    python benchmarks/bench_odds.py                 # classic 6 / 3 / 4 players, 12 players
    python benchmarks/bench_odds.py --games 20 --spectator
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from solver.cards import Deck
from solver.editions import Dealing, editions
from solver.game import GameLog
from solver.odds import Odds, grid_of, odds
from solver.simulate import play, random_setup

EVENTS = (0, 10, 30, 60)


def game_log(deck: Deck, players: int, events: int, seed: int, me: str | None) -> GameLog:
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(1, players + 1))
    game, truth = random_setup(deck, names, Dealing.CLASSIC, me, rng)
    return play(game, truth, events, rng, wrong_accusations=0.05)


def timed(log: GameLog, repeat: int = 1, **options: object) -> tuple[float, Odds]:
    """Seconds for `odds` (best of ``repeat`` runs: the machine is shared) and its result."""
    grid = grid_of(log)
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        result = odds(log, grid=grid, **options)  # type: ignore[arg-type]
        best = min(best, time.perf_counter() - start)
    return best, result


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[round(q * (len(ordered) - 1))]


def table(
    deck: Deck, players: int, games: int, me: str | None, events: tuple[int, ...], repeat: int = 3
) -> None:
    for count in events:
        times: list[float] = []
        exact = 0
        for seed in range(games):
            seconds, result = timed(game_log(deck, players, count, seed, me), repeat)
            times.append(seconds)
            exact += result.exact
        print(
            f"{players:2d} players {count:3d} events: median {statistics.median(times) * 1000:7.1f}"
            f" ms  p95 {percentile(times, 0.95) * 1000:7.1f} ms  max {max(times) * 1000:7.1f} ms"
            f"  exact {exact}/{games}",
            flush=True,
        )


def sampling_error(deck: Deck, players: int, games: int, me: str | None, count: int) -> None:
    """Force the sampling fallback where the exact count finishes, and compare."""
    worst: list[float] = []
    mean_abs: list[float] = []
    z_scores: list[float] = []
    for seed in range(games):
        log = game_log(deck, players, count, seed, me)
        _, exact = timed(log)
        _, approx = timed(log, budget=0, seed=seed)
        assert approx.error is not None
        diffs = [
            (abs(float(exact.probabilities[c][o]) - float(approx.probabilities[c][o])),
             approx.error[c][o])
            for c in exact.probabilities
            for o in exact.probabilities[c]
            if 0 < exact.probabilities[c][o] < 1
        ]
        if not diffs:
            continue
        worst.append(max(d for d, _ in diffs))
        mean_abs.append(statistics.mean(d for d, _ in diffs))
        z_scores.extend(d / e for d, e in diffs if e > 0)
    within = sum(z <= 2 for z in z_scores) / max(1, len(z_scores))
    print(
        f"{players:2d} players {count:3d} events, sampling forced ({games} games): "
        f"mean |error| {statistics.mean(mean_abs):.4f}  worst cell {max(worst):.4f}"
        f"  within 2 standard errors {100 * within:.0f}%",
        flush=True,
    )


def big_deck() -> Deck:
    return Deck(
        tuple(f"Suspect {i}" for i in range(1, 13)),
        tuple(f"Weapon {i}" for i in range(1, 13)),
        tuple(f"Room {i}" for i in range(1, 22)),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--spectator", action="store_true", help="logs without 'me'")
    args = parser.parse_args()
    me = None if args.spectator else "P1"
    classic = editions()["clue-classic"].deck
    print(f"classic box, {'spectator' if me is None else 'player'} logs, {args.games} games each")
    for players in (6, 3, 4):
        table(classic, players, args.games, me, EVENTS)
    print("12 players, 45 cards (12 + 12 + 21)")
    table(big_deck(), 12, max(3, args.games // 4), me, (0, 10, 30, 60, 100), repeat=1)
    print("sampling fallback against exact")
    sampling_error(classic, 6, max(3, args.games // 4), me, 10)
    sampling_error(classic, 4, max(3, args.games // 4), me, 8)
    sampling_error(big_deck(), 12, 3, me, 0)


if __name__ == "__main__":
    main()
