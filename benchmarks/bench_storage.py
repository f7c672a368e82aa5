"""What a long game costs in the database, stored the first release's way (a whole log per
revision) and the way `notebook_app.store` stores it now (only the events that changed).

Two games, both from ``examples/classic-six-players.json``:

- *66 events*: its first 66 events recorded one at a time (67 revisions);
- *1,000 revisions*: the same, then 933 edits of an event somewhere in the log (every tenth
  edit is undone, every twentieth a deletion followed by the event recorded again).

For each it prints the SQLite file size (after VACUUM), the bytes of stored text, and the time to
open the game (read its newest revision), median of 20. On PostgreSQL too with ``--postgres
URL`` (an empty database): the size of the tables (``pg_total_relation_size``).

    python benchmarks/bench_storage.py [--postgres postgresql://...]
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from notebook_app.store import Store
from solver.game import GameLog
from solver.logfile import dumps, load, loads
from solver.values import replace

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = load(ROOT / "examples" / "classic-six-players.json")
SIX = replace(EXAMPLE, events=EXAMPLE.events[:66])  # the 66 events of the measurement


def history(revisions: int, seed: int = 1) -> Iterator[tuple[str, GameLog | None]]:
    """(note, log) per change; ``None`` is an undo of the newest revision."""
    rng = random.Random(seed)
    empty = replace(SIX, events=())
    yield "started the game", empty
    events = list(SIX.events[:0])
    for n, event in enumerate(SIX.events, 1):
        events.append(event)
        yield f"recorded event {n}", replace(SIX, events=tuple(events))
    made = 1 + len(SIX.events)
    while made < revisions:
        made += 1
        if made % 10 == 0:
            yield "undo", None
            continue
        i = rng.randrange(len(events))
        if made % 20 == 1:
            removed = events.pop(i)
            yield f"deleted event {i + 1}", replace(SIX, events=tuple(events))
            events.insert(i, removed)
            made += 1
            yield f"recorded event {i + 1} again", replace(SIX, events=tuple(events))
            continue
        events[i] = SIX.events[rng.randrange(len(SIX.events))]
        yield f"edited event {i + 1}", replace(SIX, events=tuple(events))


class FirstRelease:
    """The first release's storage, as it was: one row with the whole log per revision."""

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(path)
        self.db.execute("""CREATE TABLE revisions (game_id TEXT NOT NULL, seq INTEGER NOT NULL,
            saved TEXT NOT NULL, note TEXT NOT NULL, title TEXT NOT NULL,
            events INTEGER NOT NULL, log TEXT NOT NULL, PRIMARY KEY (game_id, seq))""")

    def apply(self, note: str, log: GameLog | None) -> None:
        with self.db:
            newest = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM revisions").fetchone()[0]
            if log is None:
                self.db.execute("DELETE FROM revisions WHERE seq = ? AND seq > 1", (newest,))
                return
            self.db.execute("INSERT INTO revisions VALUES ('g', ?, 'now', ?, 't', ?, ?)",
                            (newest + 1, note, len(log.events), dumps(log)))

    def open(self) -> GameLog:
        text = self.db.execute("SELECT log FROM revisions ORDER BY seq DESC LIMIT 1").fetchone()
        return loads(text[0])


def file_size(path: Path) -> int:
    with sqlite3.connect(path) as db:
        db.execute("VACUUM")
    return path.stat().st_size


def text_bytes(path: Path) -> int:
    with sqlite3.connect(path) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        total = 0
        for table in tables:
            columns = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
            parts = " + ".join(f"COALESCE(LENGTH(CAST({c} AS BLOB)), 0)" for c in columns)
            total += db.execute(f"SELECT COALESCE(SUM({parts}), 0) FROM {table}").fetchone()[0]
    return int(total)


def median_ms(call: object, times: int = 20) -> float:
    assert callable(call)
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        call()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def measure(revisions: int, folder: Path, postgres: str | None) -> None:
    old_path, new_path = folder / f"old-{revisions}.sqlite3", folder / f"new-{revisions}.sqlite3"
    old, new = FirstRelease(old_path), Store(new_path)
    stores = [new] + ([Store(postgres)] if postgres else [])
    ids: list[str] = []
    for note, log in history(revisions):
        old.apply(note, log)
        for i, store in enumerate(stores):
            if log is None:
                store.undo(ids[i], store.seq(ids[i]) or 0)
            elif len(ids) < len(stores):
                ids.append(store.create(log, "bench", note))
            else:
                store.save(ids[i], log, note)
    final = old.open()
    assert new.load(ids[0]) == final, "the two stores disagree"
    old_ms = median_ms(old.open)
    new_ms = median_ms(lambda: new.latest(ids[0]))
    old_size, new_size = file_size(old_path), file_size(new_path)
    print(f"{revisions:>5} revisions, {len(final.events)} events in the end")
    print(f"  first release (whole log per revision): {old_size / 1024:9.1f} KiB file, "
          f"{text_bytes(old_path) / 1024:9.1f} KiB stored, open {old_ms:6.1f} ms")
    print(f"  now (changed events only):              {new_size / 1024:9.1f} KiB file, "
          f"{text_bytes(new_path) / 1024:9.1f} KiB stored, open {new_ms:6.1f} ms")
    print(f"  ratio: {old_size / new_size:.1f}x smaller")
    if postgres:
        pg = stores[1]
        with pg.engine.connect() as db:
            size = db.exec_driver_sql(
                "SELECT SUM(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n "
                "ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'"
            ).scalar_one()
        pg_ms = median_ms(lambda: pg.latest(ids[1]))
        print(f"  PostgreSQL (all games so far):           {int(size) / 1024:9.1f} KiB tables, "
              f"open {pg_ms:6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", help="URL of an empty PostgreSQL database to measure too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for revisions in (67, 1000):
            measure(revisions, Path(folder), args.postgres)


if __name__ == "__main__":
    main()
