"""What a read link's look at its game costs (`notebook_app.session.reader_behind`, every
`FOLLOW_EVERY` seconds per open reader tab): this browser's access, then the game's revision
number, on SQLite (a 67-revision game among 200 on 200 shelves), median and 95th percentile
of 2,000 looks, with opening the game (its newest revision) for scale.

    python benchmarks/bench_follow.py
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from notebook_app.store import Store
from solver.logfile import load
from solver.values import replace

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = load(ROOT / "examples" / "classic-six-players.json")


def timed(look: Callable[[], object], times: int) -> list[float]:
    """Milliseconds per call of ``look``."""
    took = []
    for _ in range(times):
        start = time.perf_counter()
        look()
        took.append((time.perf_counter() - start) * 1000)
    return took


def main() -> None:
    with tempfile.TemporaryDirectory() as where:
        store = Store(str(Path(where) / "games.sqlite3"))
        games = [store.create(replace(EXAMPLE, events=()), f"shelf{n:04d}", "started the game")
                 for n in range(200)]
        game = games[100]
        for n in range(1, 67):
            store.save(game, replace(EXAMPLE, events=EXAMPLE.events[:n]), f"recorded event {n}",
                       after=n)
        shelf = "shelf0100"

        def look() -> None:
            store.access(shelf, game)
            store.seq(game)

        for name, call, times in (("look (access + seq)", look, 2000),
                                  ("open (latest revision)", lambda: store.latest(game), 200)):
            took = sorted(timed(call, times))
            print(f"{name}: median {statistics.median(took):.3f} ms, "
                  f"95th percentile {took[int(len(took) * 0.95)]:.3f} ms")


if __name__ == "__main__":
    main()
