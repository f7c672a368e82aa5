"""The app server's CPU per tap on the Turn screen, through a real ``streamlit run`` server.

A phone without a browser (`tests.wsclient`, the messages a page sends) opens a game and taps,
one rerun per tap: chips only (the suspect, weapon and room rows in turn, nothing recorded), or
whole turns (``--record``: the example's next suggestions, one tap per field that differs from
the form, then Record). The server's CPU (its process and the processes it waited for, from
``/proc``) is read before and after, once the work beside the runs (the race line) has ended.
AppTest cannot measure this: it runs the script without the server around it (no garbage
collection after a run, no messages sent).

Each configuration gets its own server; the configurations alternate round by round, so the
load of a shared machine falls on both. By default: Streamlit's ``runner.postScriptGC`` on
(its default: a full ``gc.collect(2)`` after every run) against off (``.streamlit/config.toml``).

    python benchmarks/bench_taps.py                       # classic example and 12-player forum
    python benchmarks/bench_taps.py --rounds 3 --taps 30 --record 10
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from contextlib import suppress
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from notebook_app.store import Store  # noqa: E402
from solver.game import GameLog, Suggestion  # noqa: E402
from solver.logfile import loads  # noqa: E402
from solver.values import replace  # noqa: E402
from tests.appserver import Server  # noqa: E402
from tests.wsclient import Phone  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
CONFIGS = {"gc after each run": "true", "no gc after each run": "false"}
"""Name -> the server's ``STREAMLIT_RUNNER_POST_SCRIPT_GC``."""


def cpu(pid: int) -> float:
    """Seconds of CPU of process ``pid``, its threads and the children it waited for, and of
    its live children."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    total = sum(int(f) for f in fields[11:15]) / TICK
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            with suppress(FileNotFoundError):  # (ended meanwhile)
                total += cpu(int(child))
    return total


def quiet(pid: int, still: float = 0.5, most: float = 60) -> float:
    """The server's CPU once it has used none for ``still`` seconds (the race line weighed
    beside the last run has ended), waiting at most ``most`` seconds."""
    deadline = time.monotonic() + most
    last = cpu(pid)
    while time.monotonic() < deadline:
        time.sleep(still)
        now = cpu(pid)
        if now - last < 0.01:
            return now
        last = now
    return last


def logs() -> dict[str, tuple[GameLog, tuple[Suggestion, ...]]]:
    """Label -> the log the game opens with and the suggestions ``--record`` enters after it."""
    from bench_odds import forum_log

    example = loads((ROOT / "examples" / "classic-six-players.json").read_text(encoding="utf-8"))
    later = tuple(e for e in example.events[20:] if isinstance(e, Suggestion))
    return {"classic 6p, 20 events": (replace(example, events=example.events[:20]), later),
            "forum 12p, 40 events": (forum_log(12, 40, 0, "P1"), ())}


def chip_taps(phone: Phone, log: GameLog, taps: int) -> int:
    """``taps`` taps on the card chips, one row after the other; how many taps."""
    phone.tap(kind="Suggest")
    deck = log.game.deck
    rows = (("e_suspect", deck.suspects), ("e_weapon", deck.weapons), ("e_room", deck.rooms))
    for i in range(taps):
        key, cards = rows[i % 3]
        phone.tap(**{key: cards[(i // 3 + 1) % len(cards)]})
    return taps + 1


def turn_taps(phone: Phone, log: GameLog, turns: tuple[Suggestion, ...]) -> int:
    """Enter ``turns``: a tap per field (who suggested, the three cards, who showed, the card
    shown when the form asks for it), then Record; how many taps. (A player taps fewer: the
    form shows some of these already. The same taps for every configuration.)"""
    taps = 0
    for event in turns:
        for key, value in (("by", event.by), ("e_suspect", event.cards[0]),
                           ("e_weapon", event.cards[1]), ("e_room", event.cards[2]),
                           ("e_refuter", event.refuted_by or "Nobody")):
            phone.tap(**{key: value})
            taps += 1
        if event.shown is not None and "e_shown" in phone.screen.widgets:
            label = next(o for o in phone.screen.options("e_shown") if o.startswith(event.shown))
            phone.tap(e_shown=label)
            taps += 1
        screen = phone.tap(submit=True)
        taps += 1
        if "recorded event" not in screen.text().lower():
            raise RuntimeError(f"not recorded: {screen.text()[:400]}")
        log = log.append(event)
    return taps


def measure(config: str, log: GameLog, turns: tuple[Suggestion, ...], taps: int,
            record: int, tmp: Path) -> tuple[float, float]:
    """(ms of server CPU per chip tap, per tap of whole turns) on a fresh server."""
    database = tmp / f"{time.monotonic_ns()}.sqlite3"
    store = Store(database)
    game_id = store.create(log, "bench-taps")
    server = Server(database)
    server.env["STREAMLIT_RUNNER_POST_SCRIPT_GC"] = CONFIGS[config]
    server.start()
    try:
        assert server.process is not None
        pid = server.process.pid
        phone = Phone(server.url, "bench-taps", query=f"game={store.links(game_id).edit}")
        phone.open()
        start = quiet(pid)
        made = chip_taps(phone, log, taps)
        chips_ms = 1000 * (quiet(pid) - start) / made
        turns_ms = float("nan")
        if record and turns:
            phone.open()  # a fresh form
            start = quiet(pid)
            made = turn_taps(phone, log, turns[:record])
            turns_ms = 1000 * (quiet(pid) - start) / made
        phone.close()
    finally:
        server.stop()
    return chips_ms, turns_ms


def main() -> None:
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--taps", type=int, default=30, help="chip taps per server")
    parser.add_argument("--record", type=int, default=8,
                        help="whole turns entered per server (the classic example only)")
    args = parser.parse_args()
    found: dict[tuple[str, str, str], list[float]] = {}
    print(f"load average at start: {os.getloadavg()[0]:.1f}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(args.rounds):
            for label, (log, turns) in logs().items():
                for config in (CONFIGS if round_ % 2 == 0 else reversed(CONFIGS)):
                    chips_ms, turns_ms = measure(config, log, turns, args.taps, args.record,
                                                 Path(tmp))
                    found.setdefault((label, config, "chips"), []).append(chips_ms)
                    if turns_ms == turns_ms:  # (not NaN)
                        found.setdefault((label, config, "turns"), []).append(turns_ms)
                    print(f"round {round_ + 1} {label} / {config}: {chips_ms:.1f} ms per chip "
                          f"tap, {turns_ms:.1f} ms per tap of whole turns", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    print("\nmedian server CPU per tap (ms):")
    for (label, config, what), values in found.items():
        print(f"  {label:<24} {what:<6} {config:<22} {statistics.median(values):7.1f}"
              f"   ({', '.join(f'{v:.1f}' for v in values)})")


if __name__ == "__main__":
    main()
