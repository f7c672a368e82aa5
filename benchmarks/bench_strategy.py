"""Strategy benchmark: how many of my turns until the envelope is certain.

Whole simulated games (classic box, no board: any room may be named; opponents ask at random).
I follow one of three strategies: the advisor (best expected information gain over every
suspect, weapon and room), the most likely cards (the most probable envelope card of each
category), or random triples. A game ends at the start of my first turn on which the notebook
says the accusation is safe; the figure is how many suggestions I made before that.

    python benchmarks/bench_strategy.py --games 30 --players 3 4 6
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from solver.advice import advise
from solver.editions import Dealing, editions
from solver.game import Accusation, GameLog, Suggestion, Triple
from solver.odds import odds
from solver.simulate import play, random_setup, random_strategy

ME = "P1"
SAMPLES = 2000
"""Deals the advisor draws per turn (its default)."""
Chooser = Callable[[GameLog, random.Random], Triple]

advisor_times: list[float] = []


def advisor(log: GameLog, rng: random.Random) -> Triple:
    start = time.perf_counter()
    best = advise(log, samples=SAMPLES, seed=rng.randrange(2**31))[0].triple
    advisor_times.append(time.perf_counter() - start)
    return best


def most_likely(log: GameLog, rng: random.Random) -> Triple:
    chances = odds(log).probabilities
    deck = log.game.deck
    picks = [
        max(cards, key=lambda c: (float(chances[c]["envelope"]), rng.random()))
        for cards in (deck.suspects, deck.weapons, deck.rooms)
    ]
    return picks[0], picks[1], picks[2]


def at_random(log: GameLog, rng: random.Random) -> Triple:
    return random_strategy(log, ME, rng)


STRATEGIES: dict[str, Chooser] = {"advisor": advisor, "most-likely": most_likely,
                                  "random": at_random}


def my_turns(players: int, chooser: Chooser, seed: int) -> int | None:
    """My suggestions before the envelope was certain at the start of my turn (None: never)."""
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(1, players + 1))
    game, truth = random_setup(editions()["clue-classic"].deck, names, Dealing.CLASSIC, ME, rng)

    mine = random.Random(seed + 1_000_003)  # my choices never disturb the table's dice

    def strategy(log: GameLog, suggester: str, table_rng: random.Random) -> Triple:
        if suggester == ME:
            return chooser(log, mine)
        return random_strategy(log, suggester, table_rng)

    log = play(game, truth, 40 * players, rng, strategy=strategy, finish=True)
    mine = sum(isinstance(e, Suggestion) and e.by == ME for e in log.events)
    solved = isinstance(log.events[-1], Accusation) and log.events[-1].correct
    return mine if solved else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 6])
    parser.add_argument("--strategies", nargs="+", default=list(STRATEGIES))
    args = parser.parse_args()
    for players in args.players:
        for name in args.strategies:
            advisor_times.clear()
            turns = [my_turns(players, STRATEGIES[name], seed) for seed in range(args.games)]
            done = [t for t in turns if t is not None]
            line = (
                f"{players} players  {name:<12} median {statistics.median(done):4.1f}  "
                f"mean {statistics.mean(done):5.2f}  unsolved {len(turns) - len(done)}"
                f"  (games {args.games})"
            )
            if advisor_times:
                ordered = sorted(advisor_times)
                p95 = ordered[int(0.95 * (len(ordered) - 1))]
                line += (f"  advisor per turn median {statistics.median(ordered) * 1000:.0f} ms"
                         f" p95 {p95 * 1000:.0f} ms max {ordered[-1] * 1000:.0f} ms")
            print(line, flush=True)


if __name__ == "__main__":
    main()
