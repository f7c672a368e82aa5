"""The app server's CPU per tap on the Turn screen, through a real ``streamlit run`` server.

A phone without a browser (`tests.wsclient`, the messages a page sends) opens a game and taps,
one rerun per tap: chips only (the suspect, weapon and room rows in turn, nothing recorded), or
whole turns (``--record``: the example's next suggestions, one tap per field that differs from
the form, then Record). With ``--answered`` the chips are also tapped on a form whose answer
is tapped first (who showed, or in the forum variant whom the player after me asked and the
answer), once with someone showing and once with nobody (no card), so every tap names a whole
entry and the form's check before Record (`LiveGame.clash`) runs on it: mostly an entry that
fits, and mostly one that clashes (a minimal conflict worked out). The server's CPU (its
process and the processes it waited for, from ``/proc``) is read before and after, once the
work beside the runs (the race line) has ended.
AppTest cannot measure this: it runs the script without the server around it (no garbage
collection after a run, no messages sent).

Each configuration gets its own server; the configurations alternate round by round, so the
load of a shared machine falls on both. By default: Streamlit's ``runner.postScriptGC`` on
(its default: a full ``gc.collect(2)`` after every run) against off (``.streamlit/config.toml``);
with ``--against CHECKOUT``: this checkout against another one (say an unpacked ``git archive``
of main), both as shipped (gc off).

    python benchmarks/bench_taps.py                       # classic example and 12-player forum
    python benchmarks/bench_taps.py --rounds 3 --taps 30 --record 10
    python benchmarks/bench_taps.py --against /tmp/main --answered --record 0
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
from solver.editions import forum_dealt  # noqa: E402
from solver.game import GameLog, Suggestion  # noqa: E402
from solver.logfile import loads  # noqa: E402
from solver.values import replace  # noqa: E402
from tests.appserver import Server  # noqa: E402
from tests.wsclient import Phone  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
CONFIGS: dict[str, tuple[str, Path | None]] = {"gc after each run": ("true", None),
                                                "no gc after each run": ("false", None)}
"""Name -> the server's ``STREAMLIT_RUNNER_POST_SCRIPT_GC`` and the checkout it serves
(``None``: this one)."""
ANSWERS = ("someone showed", "nobody showed")
"""``--answered``: the answers the chips are tapped under (`answer`)."""


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
    phone.tap(kind="Ask one" if forum_dealt(log.game) else "Suggest")
    deck = log.game.deck
    rows = (("e_suspect", deck.suspects), ("e_weapon", deck.weapons), ("e_room", deck.rooms))
    for i in range(taps):
        key, cards = rows[i % 3]
        phone.tap(**{key: cards[(i // 3 + 1) % len(cards)]})
    return taps + 1


def seats(log: GameLog) -> tuple[str, str]:
    """Who suggests under `answer` (the player after me) and who answers (the next one)."""
    names = log.game.player_names
    seat = names.index(log.game.me) if log.game.me in names else -1
    return names[(seat + 1) % len(names)], names[(seat + 2) % len(names)]


def answered_entries(log: GameLog, taps: int, which: str) -> list[Suggestion]:
    """The entries `answered_taps` names, one a tap, as the form makes them."""
    from notebook_app.turns import directed, suggestion

    by, after = seats(log)
    showed = which == ANSWERS[0]
    deck = log.game.deck
    cards = [deck.suspects[0], deck.weapons[0], deck.rooms[0]]
    entries = []
    for i in range(taps):
        row = (deck.suspects, deck.weapons, deck.rooms)[i % 3]
        cards[i % 3] = row[(i // 3 + 1) % len(row)]
        triple = (cards[0], cards[1], cards[2])
        entries.append(directed(by, triple, asked=after, refuted=showed)
                       if forum_dealt(log.game) else
                       suggestion(log.game, by, triple, refuted_by=after if showed else None))
    return entries


def check_alone(log: GameLog, taps: int, which: str) -> tuple[list[float], int]:
    """The form's check before Record alone (`LiveGame.clash`), in this process, on the
    entries `answered_taps` names: ms of CPU for each, and how many clash."""
    from notebook_app.live import LiveGame

    game = LiveGame(log)
    game.grid()  # (a run has it before the form is drawn)
    spent, clashes = [], 0
    for entry in answered_entries(log, taps, which):
        start = time.process_time()
        clashes += bool(game.clash(entry))
        spent.append(1000 * (time.process_time() - start))
    game.close()
    return spent, clashes


def answer(phone: Phone, log: GameLog, which: str) -> int:
    """Tap the form's answer (`ANSWERS`) before the chips: in the classic example, a
    suggestion by the player after me that the next player showed, or nobody; in the forum
    variant, their question to the next player, who showed a card, or had none (my own cards
    named in a pass would draw the warning that says so instead). How many taps."""
    by, after = seats(log)
    showed = which == ANSWERS[0]
    if forum_dealt(log.game):
        phone.tap(by=by)
        phone.tap(e_asked=after)
        phone.tap(e_answer=f"{after} showed a card" if showed else "no card")
        return 3
    phone.tap(kind="Suggest")
    phone.tap(by=by)
    phone.tap(e_refuter=after if showed else "Nobody")
    return 3


def answered_taps(phone: Phone, log: GameLog, taps: int, which: str) -> tuple[int, int]:
    """``taps`` taps on the card chips (as `chip_taps`) under an answer (`answer`), each naming
    a whole entry; how many taps, and how many of them drew the warning that the entry would
    clash."""
    made = answer(phone, log, which)
    deck = log.game.deck
    rows = (("e_suspect", deck.suspects), ("e_weapon", deck.weapons), ("e_room", deck.rooms))
    warned = 0
    for i in range(taps):
        key, cards = rows[i % 3]
        screen = phone.tap(**{key: cards[(i // 3 + 1) % len(cards)]})
        warned += "cannot be true" in screen.text()
    return made + taps, warned


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
            record: int, answered: bool, tmp: Path) -> dict[str, float]:
    """Ms of server CPU per tap on a fresh server, by what was tapped: chips, chips under each
    answer (``answered``: with how many taps warned of a clash), whole turns (``record``)."""
    database = tmp / f"{time.monotonic_ns()}.sqlite3"
    store = Store(database)
    game_id = store.create(log, "bench-taps")
    gc, root = CONFIGS[config]
    server = Server(database, root=root)
    server.env["STREAMLIT_RUNNER_POST_SCRIPT_GC"] = gc
    server.start()
    try:
        assert server.process is not None
        pid = server.process.pid
        phone = Phone(server.url, "bench-taps", query=f"game={store.links(game_id).edit}")
        phone.open()
        found: dict[str, float] = {}
        start = quiet(pid)
        made = chip_taps(phone, log, taps)
        found["chips"] = 1000 * (quiet(pid) - start) / made
        for which in ANSWERS if answered else ():
            phone.open()  # a fresh form
            start = quiet(pid)
            made, warned = answered_taps(phone, log, taps, which)
            found[f"chips, {which}"] = 1000 * (quiet(pid) - start) / made
            found[f"warned, {which}"] = warned
        if record and turns:
            phone.open()
            start = quiet(pid)
            made = turn_taps(phone, log, turns[:record])
            found["turns"] = 1000 * (quiet(pid) - start) / made
        phone.close()
    finally:
        server.stop()
    return found


def main() -> None:
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--taps", type=int, default=30, help="chip taps per server")
    parser.add_argument("--record", type=int, default=8,
                        help="whole turns entered per server (the classic example only)")
    parser.add_argument("--answered", action="store_true",
                        help="also chip taps under each answer (every tap a whole entry)")
    parser.add_argument("--against", type=Path,
                        help="another checkout to measure against (both with gc off)")
    args = parser.parse_args()
    if args.against is not None:
        CONFIGS.clear()
        CONFIGS.update({"this checkout": ("false", None),
                        "against": ("false", args.against.resolve())})
    found: dict[tuple[str, str, str], list[float]] = {}
    print(f"load average at start: {os.getloadavg()[0]:.1f}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(args.rounds):
            for label, (log, turns) in logs().items():
                for config in (CONFIGS if round_ % 2 == 0 else reversed(CONFIGS)):
                    measured = measure(config, log, turns, args.taps, args.record,
                                       args.answered, Path(tmp))
                    for what, ms in measured.items():
                        found.setdefault((label, config, what), []).append(ms)
                    print(f"round {round_ + 1} {label} / {config}: " + ", ".join(
                        f"{what} {ms:.1f}" for what, ms in measured.items()) + " ms per tap",
                          flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")
    if args.answered:
        print("\nthe check alone, in this process (ms of CPU per entry, median and largest):")
        for label, (log, _) in logs().items():
            for which in ANSWERS:
                spent, clashes = check_alone(log, args.taps, which)
                print(f"  {label:<24} {which:<16} {statistics.median(spent):6.2f} "
                      f"{max(spent):6.2f}   ({clashes} of {len(spent)} clash)")
    print("\nmedian server CPU per tap (ms):")
    for (label, config, what), values in found.items():
        print(f"  {label:<24} {what:<26} {config:<22} {statistics.median(values):7.1f}"
              f"   ({', '.join(f'{v:.1f}' for v in values)})")


if __name__ == "__main__":
    main()
