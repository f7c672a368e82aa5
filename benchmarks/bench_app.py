"""Server time per interaction of the notebook app, measured through `AppTest`.

A classic 6-player game is simulated to 60 events, saved, and opened in the app. Then, many
times over: tap the three cards and who answered (each tap is a rerun), record the turn (the
save and the rerun that shows the new verdict), undo it, switch to the grid, and open a cell's
explanation (the first one after a change builds the explainer and derives only the tapped
cell; later ones reuse what it derived). Prints median and p95 in milliseconds; the target for
every interaction is p95 < 150 ms. The baseline is a rerun of the Turn screen with nothing
changed: what any tap costs at least.

    python benchmarks/bench_app.py [--samples 30] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import streamlit.testing.v1.local_script_runner as local_runner
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import AppTest

from notebook_app.store import DB_ENV, Store
from solver.editions import Dealing, editions
from solver.explain import Explainer
from solver.game import GameLog
from solver.notebook import Knowledge, Notebook
from solver.simulate import answer, play, random_setup

# A real server compiles the script once and keeps its bytecode; AppTest compiles it on every
# run. Sharing one cache makes the figures the server's (pass --compile-each-run to see both).
_SHARED_CACHE = ScriptCache()

APP = str(Path(__file__).resolve().parent.parent / "notebook_app" / "app.py")
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


def timed(action: Callable[[], object], cpu: list[float] | None = None) -> float:
    """Wall-clock milliseconds of ``action``; its CPU milliseconds go to ``cpu`` (the machine
    may be shared, and CPU time is what contention does not inflate)."""
    start, start_cpu = time.perf_counter(), time.process_time()
    action()
    if cpu is not None:
        cpu.append((time.process_time() - start_cpu) * 1000)
    return (time.perf_counter() - start) * 1000


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def summary(name: str, samples: list[float], cpu: list[float]) -> str:
    return (f"{name:<30} n={len(samples):>3}  wall median {statistics.median(samples):6.1f}"
            f"  p95 {percentile(samples, 0.95):6.1f} ms   cpu median {statistics.median(cpu):6.1f}"
            f"  p95 {percentile(cpu, 0.95):6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--events", type=int, default=60)
    parser.add_argument("--compile-each-run", action="store_true",
                        help="AppTest's default: recompile the script on every rerun")
    args = parser.parse_args()
    if not args.compile_each_run:
        local_runner.ScriptCache = lambda: _SHARED_CACHE  # type: ignore[attr-defined]

    rng = random.Random(args.seed)
    deck = editions()["clue-classic"].deck
    game, truth = random_setup(deck, NAMES, Dealing.CLASSIC, "Ann", rng)
    log = play(game, truth, args.events, rng)
    folder = tempfile.mkdtemp()
    os.environ[DB_ENV] = str(Path(folder) / "bench.sqlite3")
    game_id = Store(os.environ[DB_ENV]).create(log, "bench")

    def fresh(game: str | None) -> AppTest:
        """A new browser session (a new tab), with the game open if ``game``."""
        session = AppTest.from_file(APP, default_timeout=120)
        session.session_state["shelf"] = "bench"
        if game is not None:
            session.session_state["game_id"] = game
        return session

    fresh(None).run()  # the server has imported everything before anyone opens a game
    opened: dict[str, tuple[list[float], list[float]]] = {
        "baseline: open the home screen": ([], []), "open the saved game": ([], [])}
    for _ in range(max(5, args.samples // 3)):
        for name, which in zip(opened, (None, game_id), strict=True):
            session = fresh(which)
            opened[name][0].append(timed(session.run, opened[name][1]))
            assert not session.exception, session.exception
    print(f"classic 6 players, {len(log.events)} events")
    for name, (spent, spent_cpu) in opened.items():
        print(summary(name, spent, spent_cpu))
    at = fresh(game_id)
    at.run()

    names = ("baseline: rerun, no change", "tap a chip", "record a turn", "undo",
             "switch to the grid",
             "open an explanation (first)", "open an explanation (cached)")
    wall: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}

    def measure(name: str, action: Callable[[], object]) -> None:
        wall[name].append(timed(action, cpu[name]))

    cards = list(deck)
    for i in range(args.samples):
        at.segmented_control(key="view").set_value("Turn").run()
        measure(names[0], at.run)
        by = at.pills(key="by").value
        triple = (rng.choice(deck.suspects), rng.choice(deck.weapons), rng.choice(deck.rooms))
        truth_says = answer(game, truth, by, triple, rng)  # what the table would answer
        for key, card in zip(("e_suspect", "e_weapon", "e_room"), triple, strict=True):
            measure("tap a chip", at.pills(key=key).set_value(card).run)
        assert not at.exception, (at.segmented_control(key="kind").value, at.exception)
        measure("tap a chip", at.pills(key="e_refuter").set_value(truth_says.refuted_by or "").run)
        offered = [p for p in at.pills if p.key == "e_shown"]
        if by == game.me and offered and truth_says.shown in offered[0].options:
            offered[0].set_value(truth_says.shown)
        measure("record a turn", at.button(key="submit").click().run)
        assert not at.exception, at.exception
        if i % 2:
            measure("undo", at.button(key="undo").click().run)
        measure("switch to the grid", at.segmented_control(key="view").set_value("Grid").run)
        grid, _ = at.session_state["live"].grid()
        known = [(c, o) for c in cards for o in grid.owners
                 if grid[c, o] is not Knowledge.MAYBE]
        for j in range(3):
            at.session_state["explain_cell"] = (*rng.choice(known), None)  # a tapped cell
            measure(names[5] if j == 0 else names[6], at.run)
            assert not at.exception, at.exception
            shown = [re.sub(r"\\(.)", r"\1", str(m.value)) for m in at.markdown
                     if str(m.value).startswith("**")]  # as read: names arrive escaped
            assert any(": yes.**" in v or ": no.**" in v for v in shown), shown

    for name in names:
        print(summary(name, wall[name], cpu[name]))
    explain = names[5:]
    print(summary("open an explanation (all)", [t for n in explain for t in wall[n]],
                  [t for n in explain for t in cpu[n]]))
    first_explanation(at.session_state["live"].log, args.samples, rng)


def first_explanation(log: GameLog, samples: int, rng: random.Random) -> None:
    """The first explanation after a change, engine only: deriving toward the tapped cell
    (what the app does) beside deriving every determined cell first (the baseline)."""
    notebook = Notebook(log.game, log.events)
    grid = notebook.grid()
    known = [(c, o) for c in log.game.deck for o in grid.owners
             if grid[c, o] is not Knowledge.MAYBE and c not in log.game.face_up]
    spent: dict[str, tuple[list[float], list[float]]] = {
        "baseline: derive every cell": ([], []), "derive toward the tapped cell": ([], [])}
    for _ in range(samples):
        cell = rng.choice(known)
        for (wall, cpu), lazy in zip(spent.values(), (False, True), strict=True):
            explainer = Explainer(notebook, grid=grid, lazy=lazy)
            wall.append(timed(lambda e=explainer, c=cell: e.cell(*c), cpu))
    print(f"first explanation, engine only ({len(log.events)} events):")
    for name, (wall, cpu) in spent.items():
        print(summary(name, wall, cpu))
    notebook.close()

if __name__ == "__main__":
    main()
