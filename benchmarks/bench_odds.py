"""Time to compute every probability (cards x owners and envelope triples), how often it is exact,
and how honest the sampled figures are.

Games are simulated from fixed seeds, cut after 0, 10, 30, 60 (and 100) events; the SAT grid is
computed first and not timed (the notebook has it already). Times are process CPU time (the
machine is shared; ``--wall`` for wall clock), the best of ``--repeat`` runs. Baselines, in the
same run and on the same logs: the SAT grid itself (`grid_of`), the engine's own work per log;
and the odds as they were before the count owner by owner (`solver.odds.owners`): the
card-by-card programme within its budget, else sampling (``--no-old`` leaves it out); or, with
``--against REV``, the odds of an earlier git revision (its ``solver`` package, imported beside
this one, on the same logs read back from their JSON). Where both are exact the benchmark checks
that they agree to the last digit.

Tables:
- classic box, the user's log (``--spectator``: nobody's hand known), 6 / 3 / 4 players;
- forum variant (N suspects, N weapons, N + 3 places, 3 cards each; suggestions to one player,
  the host answering first-in-order for an absent player whose hand is later revealed, a few
  revealed cards and notes), 6, 8 and 12 players;
- a 12-player custom game of 45 cards (12 + 12 + 21, hands of 3 and 4), directed suggestions;
- the sampling fallback forced on logs whose exact answer is known: error against exact, share
  of cells within two standard errors, and how often the chains were reported stuck.

    python benchmarks/bench_odds.py                  # everything, about 15 minutes
    python benchmarks/bench_odds.py --only forum --games 5
    python benchmarks/bench_odds.py --only classic --spectator --games 20
    python benchmarks/bench_odds.py --only forum --players 8 12 --games 10
    python benchmarks/bench_odds.py --only custom --games 6 --against 1d62e40

The compiled count (numba, `solver.odds.compiled`) is loaded before timing, as in the app's
long-running process, and the time to load it printed; ``--cold`` leaves it to the first counts
long enough to switch to it, as in a fresh command-line process.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import importlib
import io
import math
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import ModuleType

from solver.cards import Deck
from solver.editions import Dealing, editions, forum_deck
from solver.game import GameLog
from solver.logfile import dumps
from solver.odds import DEFAULT_BUDGET, Odds, OverBudget, count, grid_of, odds, puzzle
from solver.odds.chain import sampled_odds
from solver.odds.compiled import kernel
from solver.odds.exact import exact_odds
from solver.simulate import Absence, play, random_setup

EVENTS = (0, 10, 30, 60)
FORUM_EVENTS = (0, 10, 30, 60, 100)

clock: Callable[[], float] = time.process_time
against: tuple[ModuleType, ModuleType] | None = None
ARGS_AGAINST = ""
"""``--against``: the earlier revision's ``odds`` and ``logfile`` modules."""


def classic_log(deck: Deck, players: int, events: int, seed: int, me: str | None) -> GameLog:
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(1, players + 1))
    game, truth = random_setup(deck, names, Dealing.CLASSIC, me, rng)
    return play(game, truth, events, rng, wrong_accusations=0.05)


def forum_log(players: int, events: int, seed: int, me: str | None) -> GameLog:
    """A forum game: directed suggestions, an absent player the host answers for (first match in
    the order suspect, weapon, place) and whose hand is revealed later, revealed cards, notes."""
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(1, players + 1))
    game, truth = random_setup(forum_deck(players), names, Dealing.FORUM, me, rng)
    absence = Absence(names[-1], events // 3, events // 2) if events >= 30 else None
    return play(game, truth, events, rng, directed=True, wrong_accusations=0.05,
                reveals=0.1, notes=0.05, absence=absence)


def custom_log(players: int, events: int, seed: int, me: str | None) -> GameLog:
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(1, players + 1))
    game, truth = random_setup(big_deck(), names, Dealing.CLASSIC, me, rng)
    return play(game, truth, events, rng, directed=True, wrong_accusations=0.05, reveals=0.1)


def big_deck() -> Deck:
    return Deck(
        tuple(f"Suspect {i}" for i in range(1, 13)),
        tuple(f"Weapon {i}" for i in range(1, 13)),
        tuple(f"Room {i}" for i in range(1, 22)),
    )


def timed(log: GameLog, repeat: int = 1, **options: object) -> tuple[float, float, Odds]:
    """Seconds for `odds` and for the baseline (the grid), best of ``repeat``; and the odds."""
    best = base = math.inf
    result: Odds | None = None
    for _ in range(repeat):
        start = clock()
        grid = grid_of(log)
        base = min(base, clock() - start)
        start = clock()
        result = odds(log, grid=grid, **options)  # type: ignore[arg-type]
        best = min(best, clock() - start)
    assert result is not None
    return best, base, result


def old_odds(log: GameLog) -> tuple[float, Odds]:
    """Seconds for the odds as before the count owner by owner (programme, else sampling)."""
    grid = grid_of(log)
    start = clock()
    pz = puzzle(log, grid)
    try:
        result = exact_odds(log, count(pz, DEFAULT_BUDGET), False)
    except OverBudget:
        result = sampled_odds(log, pz)
    return clock() - start, result


def earlier(revision: str, into: Path) -> tuple[ModuleType, ModuleType]:
    """The ``solver`` package of a git revision, as ``solver_<revision>`` (its odds, logfile)."""
    root = Path(__file__).resolve().parent.parent
    archive = subprocess.run(["git", "archive", revision, "solver"], cwd=root, check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    name = f"solver_{revision.replace('-', '_').replace('/', '_').replace('.', '_')}"
    (into / "solver").rename(into / name)
    sys.path.insert(0, str(into))
    return importlib.import_module(f"{name}.odds"), importlib.import_module(f"{name}.logfile")


def odds_against(log: GameLog) -> tuple[float, Odds]:
    """Seconds for the earlier revision's odds of the same log (read back from its JSON)."""
    assert against is not None
    old_odds_module, old_logfile = against
    old_log = old_logfile.loads(dumps(log))
    grid = old_odds_module.grid_of(old_log)
    start = clock()
    result = old_odds_module.odds(old_log, grid=grid)
    return clock() - start, result


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[round(q * (len(ordered) - 1))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f}"


def table(label: str, make: Callable[[int, int], GameLog], games: int, events: tuple[int, ...],
          repeat: int, old: bool = True) -> None:
    for count_ in events:
        times: list[float] = []
        bases: list[float] = []
        olds: list[float] = []
        exact = warned = old_exact = 0
        for seed in range(games):
            log = make(count_, seed)
            seconds, base, result = timed(log, repeat)
            times.append(seconds)
            bases.append(base)
            exact += result.exact
            warned += result.warning is not None
            if old:
                took, before = odds_against(log) if against else old_odds(log)
                olds.append(took)
                old_exact += before.exact
                if before.exact and result.exact:
                    assert before.probabilities == result.probabilities, (label, count_, seed)
                    assert before.envelope_odds == result.envelope_odds, (label, count_, seed)
        print(
            f"{label} {count_:3d} events: odds median {ms(statistics.median(times))} ms"
            f"  p95 {ms(percentile(times, 0.95))}  max {ms(max(times))}"
            f"  exact {exact}/{games}" + (f", stuck {warned}" if warned else "")
            + (f"  | {'at ' + ARGS_AGAINST if against else 'before'}: median "
               f"{ms(statistics.median(olds))}  p95 {ms(percentile(olds, 0.95))}"
               f"  exact {old_exact}/{games}" if old else "")
            + f"  | grid median {ms(statistics.median(bases))}",
            flush=True,
        )


def sampling_error(label: str, logs: list[GameLog]) -> None:
    """Force the sampling fallback where the exact count finishes, and compare."""
    worst: list[float] = []
    mean_abs: list[float] = []
    z_scores: list[float] = []
    warned = 0
    seconds: list[float] = []
    for seed, log in enumerate(logs):
        _, _, exact = timed(log)
        took, _, approx = timed(log, budget=0, seed=seed)
        seconds.append(took)
        assert approx.error is not None
        assert {t[:3] for t in approx.envelope_odds} == {t[:3] for t in exact.envelope_odds}
        warned += approx.warning is not None
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
        f"{label}, sampling forced ({len(logs)} logs, {len(z_scores)} cells): mean |error| "
        f"{statistics.mean(mean_abs):.4f}  worst cell {max(worst):.4f}  within 2 standard "
        f"errors {100 * within:.1f}%  chains reported stuck {warned}  sampler median "
        f"{ms(statistics.median(seconds))} ms",
        flush=True,
    )


def main() -> None:
    global clock, against, ARGS_AGAINST
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs")
    parser.add_argument("--spectator", action="store_true", help="logs without 'me'")
    parser.add_argument("--wall", action="store_true", help="wall clock instead of CPU time")
    parser.add_argument("--only", choices=("classic", "forum", "custom", "sampling"))
    parser.add_argument("--players", type=int, nargs="*", help="only these table sizes")
    parser.add_argument("--events", type=int, nargs="*", help="only these numbers of events")
    parser.add_argument("--no-old", dest="old", action="store_false",
                        help="leave out the odds as they were before (the baseline)")
    parser.add_argument("--against", metavar="REV",
                        help="baseline: the odds of this git revision instead")
    parser.add_argument("--cold", action="store_true",
                        help="do not load the compiled count (numba) before timing: the first "
                             "long counts then pay for loading it, as in a fresh process")
    args = parser.parse_args()
    if args.wall:
        clock = time.perf_counter
    if args.against:
        ARGS_AGAINST = args.against
        copy = tempfile.TemporaryDirectory(prefix="bench_odds_")
        atexit.register(copy.cleanup)
        against = earlier(args.against, Path(copy.name))
    me = None if args.spectator else "P1"
    who = "spectator" if me is None else "player"
    print(f"{who} logs, {args.games} games per line, {'wall' if args.wall else 'CPU'} time, "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    if not args.cold:
        start = clock()
        loaded = kernel() is not None
        try:  # inclusion-exclusion's own kernels, where this revision has them
            from solver.odds.exclusion_compiled import kernel as exclusion_kernel
        except ImportError:
            pass
        else:
            loaded = exclusion_kernel() is not None and loaded
        with contextlib.suppress(ImportError):  # and card by card's, where it has them
            from solver.odds.pins_compiled import kernel as pins_kernel
            loaded = pins_kernel() is not None and loaded
        print(f"compiled count {'loaded' if loaded else 'not installed'} before timing: "
              f"{ms(clock() - start).strip()} ms (--cold to time it in the first counts)",
              flush=True)
        if against is not None:  # the earlier revision's own compiled count, if it has one
            start = clock()
            try:
                earlier_kernel = importlib.import_module(f"{against[0].__name__}.compiled").kernel
            except (ImportError, AttributeError):
                earlier_kernel = None
            if earlier_kernel is not None:
                earlier_kernel()
                # and both inclusion-exclusion counts' kernels, where it has them (else its
                # first log counted card by card paid their compiling, about 15 s)
                for module in ("exclusion_compiled", "pins_compiled"):
                    with contextlib.suppress(ImportError, AttributeError):
                        importlib.import_module(f"{against[0].__name__}.{module}").kernel()
                print(f"at {ARGS_AGAINST}: compiled count loaded before timing: "
                      f"{ms(clock() - start).strip()} ms", flush=True)
    classic = editions()["clue-classic"].deck
    if args.only in (None, "classic"):
        for players in args.players or (6, 3, 4):
            table(f"classic {players:2d} players", partial(classic_log, classic, players, me=me),
                  args.games, tuple(args.events or EVENTS), args.repeat, args.old)
    if args.only in (None, "forum"):
        for players in args.players or (6, 8, 12):
            table(f"forum {players:2d} players", partial(forum_log, players, me=me),
                  args.games, tuple(args.events or FORUM_EVENTS), args.repeat, args.old)
    if args.only in (None, "custom"):
        table("custom 12 players 45 cards", lambda n, s: custom_log(12, n, s, me),
              args.games, tuple(args.events or FORUM_EVENTS), args.repeat, args.old)
    if args.only in (None, "sampling"):
        n = max(3, args.games)
        sampling_error("classic 6 players 10 events, player",
                       [classic_log(classic, 6, 10, s, "P1") for s in range(n)])
        sampling_error("classic 6 players 10 events, spectator",
                       [classic_log(classic, 6, 10, s, None) for s in range(n)])
        sampling_error("classic 4 players 8 events, player",
                       [classic_log(classic, 4, 8, s, "P1") for s in range(n)])
        sampling_error("forum 6 players 30 events, player",
                       [forum_log(6, 30, s, "P1") for s in range(n)])


if __name__ == "__main__":
    main()
