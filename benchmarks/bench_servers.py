"""A club night: many phones entering turns through two app servers that share one database.

Starts two ``streamlit run`` servers on 127.0.0.1 (free ports) on one database, then drives
``--phones`` websocket sessions (`tests.wsclient`, the messages a browser tab sends), half on
each server, two phones per game (one on each server, so every game sees the other server's
entries). Each phone records ``--turns`` turns: it opens the game, then per turn taps who
suggested ("choose") and then the cards, who showed and Record in one go ("record"). An entry the
app refuses because the other phone saved first ("Your entry was not saved", the stale-revision
rule) is entered again, as a player would. It prints p50/p95/max per interaction, and checks
afterwards that every entry the app said it recorded is in the database, in each phone's order,
and nothing else is.

**Baseline, in the same run**: one phone alone on one server, ``--turns`` turns, before the
crowd arrives: the same interactions without contention.

Bounded: at most ``--phones`` sessions and ``--turns`` turns each, and every phone stops at
``--deadline`` seconds (what was done by then is reported and checked).

    python benchmarks/bench_servers.py                    # 20 phones x 30 turns, PostgreSQL
    python benchmarks/bench_servers.py --phones 4 --turns 5
    python benchmarks/bench_servers.py --database /tmp/games.sqlite3   # one SQLite file
    python benchmarks/bench_servers.py --database postgresql://...     # a server of yours

Without ``--database`` it starts a private PostgreSQL server (`tests.pgserver`, Debian's
binaries).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from notebook_app.store import Store  # noqa: E402
from tests.appserver import Server  # noqa: E402
from tests.wsclient import (  # noqa: E402
    Phone,
    SessionLost,
    Turn,
    choose,
    new_table,
    press_record,
    turn_for,
    turns_saved,
)


class Timings:
    """Seconds per interaction, from every phone (thread-safe)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seconds: dict[str, list[float]] = defaultdict(list)

    def timed(self, what: str, call: object, *args: object) -> object:
        started = time.perf_counter()
        result = call(*args)  # type: ignore[operator]
        took = time.perf_counter() - started
        with self.lock:
            self.seconds[what].append(took)
        return result


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def report(title: str, timings: Timings) -> None:
    print(f"\n{title}")
    print(f"  {'interaction':<10} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for what in ("open", "choose", "record"):
        values = timings.seconds.get(what, [])
        if values:
            print(f"  {what:<10} {len(values):>6} {statistics.median(values) * 1000:>8.0f} "
                  f"{percentile(values, 0.95) * 1000:>8.0f} {max(values) * 1000:>8.0f}")


def play(phone: Phone, turns: list[Turn], timings: Timings, deadline: float,
         confirmed: list[Turn], refused: list[int], pending: list[Turn] | None = None) -> None:
    """Record ``turns``; ``pending`` gets the entry whose Record was pressed when the session
    was lost (the app may have saved it without the phone hearing so)."""
    timings.timed("open", phone.open)
    for turn in turns:
        for _ in range(50):
            if time.monotonic() > deadline:
                return
            timings.timed("choose", choose, phone, turn)
            try:
                said = timings.timed("record", press_record, phone, turn)
            except SessionLost:
                if pending is not None:
                    pending.append(turn)
                raise
            if said == "recorded":
                confirmed.append(turn)
                break
            refused.append(1)
    phone.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=20, help="sessions (even; default 20)")
    parser.add_argument("--turns", type=int, default=30, help="turns per phone (default 30)")
    parser.add_argument("--deadline", type=float, default=1200, help="seconds (default 1200)")
    parser.add_argument("--database", help="a SQLite path or a PostgreSQL URL")
    args = parser.parse_args()
    phones = max(2, min(args.phones, 40) // 2 * 2)
    turns = max(1, min(args.turns, 100))

    postgres = None
    database = args.database
    if database is None:
        from tests.pgserver import PostgresServer, find_bin

        bindir, reason = find_bin()
        if bindir is None:
            print(f"no PostgreSQL: {reason}; pass --database", file=sys.stderr)
            return 2
        postgres = PostgresServer(bindir)
        database = postgres.new_database()
    store = Store(database)
    servers = [Server(database), Server(database)]
    try:
        for server in servers:
            server.start()
        print(f"database: {store.engine.dialect.name}; servers: "
              f"{', '.join(s.url for s in servers)}; load average "
              f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs")

        alone = Timings()  # the baseline: one phone, nobody else
        game = store.create(new_table(), "shelf-baseline")
        solo: list[Turn] = []
        started = time.monotonic()
        play(Phone(servers[0].url, "shelf-baseline", f"game={game}"),
             [turn_for(n) for n in range(turns)], alone, started + args.deadline, solo, [])
        report(f"baseline: 1 phone on 1 server, {len(solo)} turns in "
               f"{time.monotonic() - started:.0f} s", alone)

        crowd = Timings()
        games = [store.create(new_table(), f"shelf-owner-{g:03d}") for g in range(phones // 2)]
        work: list[tuple[Phone, list[Turn], list[Turn], str]] = []
        for i in range(phones):
            game_id = games[i // 2]
            shelf = f"shelf-phone-{i:03d}"
            store.shelve(shelf, game_id, "edit")
            work.append((Phone(servers[i % 2].url, shelf, f"game={game_id}"),
                         [turn_for(n, seed=i % 2) for n in range(turns)], [], game_id))
        refused: list[int] = []
        pending: list[Turn] = []
        errors: list[str] = []
        deadline = time.monotonic() + args.deadline

        def run(phone: Phone, todo: list[Turn], confirmed: list[Turn]) -> None:
            try:
                play(phone, todo, crowd, deadline, confirmed, refused, pending)
            except Exception as err:  # reported with the figures
                errors.append(f"{type(err).__name__}: {err}")

        started = time.monotonic()
        threads = [threading.Thread(target=run, args=w[:3]) for w in work]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        took = time.monotonic() - started
        recorded = sum(len(w[2]) for w in work)
        report(f"{phones} phones on 2 servers, {phones // 2} games: {recorded} of "
               f"{phones * turns} turns recorded in {took:.0f} s ({recorded / took:.1f} per s); "
               f"{len(refused)} entries refused because the other phone saved first, "
               "entered again", crowd)

        lost = extra = 0
        for g, game_id in enumerate(games):
            latest = store.latest(game_id)
            on_disk = turns_saved(latest.log) if latest is not None else []
            mine = [w[2] for w in work if w[3] == game_id]
            want = Counter(t for confirmed in mine for t in confirmed)
            have = Counter(on_disk)
            lost += sum((want - have).values())
            extra += sum((have - want - Counter(pending)).values())
            for confirmed in mine:
                if [t for t in on_disk if t in confirmed] != confirmed:
                    errors.append(f"game {g}: a phone's entries are out of order")
        print(f"\ncheck: {recorded} entries confirmed, {lost} missing from the database, "
              f"{extra} in it that no phone was told were recorded (besides {len(pending)} "
              "whose Record was pressed when a session was lost)")
        for error in errors[:10]:
            print(f"  error: {error}")
        return 0 if lost == 0 and extra == 0 and not errors else 1
    finally:
        for server in servers:
            server.stop()
        store.engine.dispose()
        if postgres is not None:
            postgres.stop()


if __name__ == "__main__":
    sys.exit(main())
