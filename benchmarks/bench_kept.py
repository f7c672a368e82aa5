"""What keeping the Turn form for a reload costs a tap (`notebook_app.kept`): the write alone
(`Store.keep_draft`, an upsert of the browser's draft row) and a tap's whole run through
`AppTest`, with the form kept and without (``keep_typing`` replaced by nothing), alternating
tap by tap in one process, on a SQLite file and on PostgreSQL (a private server,
`tests.pgserver`, started without the tests' ``fsync=off``, ``synchronous_commit=off`` and
``full_page_writes=off``: a real server's durability, not the tests' speed).

    python benchmarks/bench_kept.py --taps 40
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from notebook_app.store import DB_ENV, Store  # noqa: E402
from solver.logfile import loads  # noqa: E402
from solver.values import replace  # noqa: E402

FORM = {"kind": "Suggestion", "by": "Bob", "e_suspect": "Mr. Green", "e_weapon": "Rope",
        "e_room": "Library", "e_refuter": None, "e_shown": None, "e_slot": None,
        "editing": None, "draft": "typing", "events": 20, "entry": None}
"""A half-entered turn as the draft keeps it."""
CHIPS = (("e_suspect", ("Mr. Green", "Mrs. Peacock")), ("e_weapon", ("Rope", "Knife")),
         ("e_room", ("Library", "Hall")))
"""The chips tapped, in turn: each tap changes the form."""


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.1f} ms, p90 " \
           f"{sorted(values)[int(len(values) * 0.9)] * 1000:.1f} ms (n={len(values)})"


def writes(store: Store, game_id: str, taps: int) -> list[float]:
    took = []
    for i in range(taps):
        form = {**FORM, "e_suspect": CHIPS[0][1][i % 2]}
        started = time.perf_counter()
        store.keep_draft("bench", game_id, form, wait=0.25)
        took.append(time.perf_counter() - started)
    return took


def tap_runs(where: str, game_id: str, taps: int) -> dict[str, list[float]]:
    """A tap's run, the form kept or not, alternating (same process, same game)."""
    from streamlit.testing.v1 import AppTest

    import notebook_app.kept as kept
    import notebook_app.screens.play as play
    import notebook_app.session as session

    os.environ[DB_ENV] = where
    session.browser_cookie = lambda: "bench"  # type: ignore[assignment]
    at = AppTest.from_file(str(ROOT / "notebook_app" / "app.py"), default_timeout=120)
    at.query_params["game"] = game_id
    at.run()
    assert not at.exception, at.exception
    runs: dict[str, list[float]] = {"form kept": [], "not kept (before)": []}
    for i in range(taps):
        keep = i % 2 == 0
        play.keep_typing = kept.keep_typing if keep else (lambda: None)  # type: ignore[assignment]
        key, values = CHIPS[i % len(CHIPS)]
        widget = at.pills(key=key).set_value(values[(i // len(CHIPS)) % 2])
        started = time.perf_counter()
        widget.run()
        runs["form kept" if keep else "not kept (before)"].append(time.perf_counter() - started)
        assert not at.exception, at.exception
    play.keep_typing = kept.keep_typing  # type: ignore[assignment]
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--taps", type=int, default=40)
    args = parser.parse_args()
    example = loads((ROOT / "examples" / "classic-six-players.json").read_text(encoding="utf-8"))
    log = replace(example, events=example.events[:20])
    folder = Path(tempfile.mkdtemp(prefix="bench-kept-"))
    places = {"SQLite file": str(folder / "games.sqlite3")}
    server = None
    from tests.pgserver import PostgresServer, find_bin

    bindir, why = find_bin()
    if bindir is not None:
        run = PostgresServer._run

        def durable(self: PostgresServer, tool: str, *args: str) -> None:
            """The server started with PostgreSQL's own durability (the tests' turn it off)."""
            run(self, tool, *(a.replace("-c fsync=off -c synchronous_commit=off -c "
                                        "full_page_writes=off", "") for a in args))

        PostgresServer._run = durable  # type: ignore[method-assign]
        server = PostgresServer(bindir)
        places["PostgreSQL (fsync on)"] = server.new_database()
    else:
        print("PostgreSQL left out:", why)
    try:
        for name, where in places.items():
            store = Store(where)
            if store.engine.dialect.name == "postgresql":
                with store.engine.connect() as db:
                    said = [db.exec_driver_sql(f"SHOW {s}").scalar_one()
                            for s in ("fsync", "synchronous_commit")]
                print(f"{name}: fsync {said[0]}, synchronous_commit {said[1]}")
            game_id = store.create(log, "bench")
            print(f"{name}: keep_draft alone: {ms(writes(store, game_id, args.taps))}")
            for label, took in tap_runs(where, game_id, args.taps).items():
                print(f"{name}: a tap's run, {label}: {ms(took)}")
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
