"""The player's tools at the table, in CPU: ``clue-notebook accuse`` (the check and the verdict,
`solver.race.accusation_verdict`) and the advisor (`solver.advice.advise`, the app's 1,000
deals, in every room and in one; and "Suggest for me" as the app asks it, room after room: the
first room and each further one, `solver.advice.Advisor` where the checkout has it, else
`advise_here` for each), on `bench_odds` logs (12-player forum; 6-player classic at
half the events), this checkout against another one (``--against``, say an unpacked ``git
archive`` of main) in the same run, the two alternating, each in a fresh interpreter with every
count's compiled kernels loaded first (`warm.load_all`: their loading is the same for both, and
in a checkout numba has not compiled them in, no log pays the compile of the inclusion-exclusion
or card-by-card kernels, 7-12 s of CPU each). Each run also prints whether the two checkouts
answered the same.

    python benchmarks/bench_table.py [--against /path/to/other/checkout] [--rounds 2]
        [--seeds 1 2 3] [--events 60] [--only accuse|advise|here]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def logs(seeds: list[int], events: int) -> dict[str, object]:
    """The logs measured, by label: 12-player forum at ``events`` and 6-player classic at half
    as many (at 60 events most classic games are settled), player P1's view."""
    sys.path.insert(0, str(HERE / "benchmarks"))
    from bench_odds import classic_log, forum_log

    from solver.editions import editions

    classic = editions()["clue-classic"].deck
    made: dict[str, object] = {}
    for seed in seeds:
        made[f"forum 12p {events}ev seed {seed}"] = forum_log(12, events, seed, "P1")
        made[f"classic 6p {events // 2}ev seed {seed}"] = classic_log(classic, 6, events // 2,
                                                                    seed, "P1")
    return made


def measure(seeds: list[int], events: int, only: str | None) -> dict[str, list[object]]:
    """CPU seconds and the answer of each tool on each log, in this interpreter."""
    from solver import cli
    from solver.advice import advise
    from solver.errors import ClueError
    from solver.logfile import save
    try:
        from solver.odds.warm import load_all
    except ImportError:  # a checkout before it: the programme's kernels alone
        from solver.odds.compiled import kernel as load_all  # type: ignore[assignment]

    load_all()
    out: dict[str, list[object]] = {}
    folder = Path(os.environ.get("TMPDIR", "/tmp"))
    for label, log in logs(seeds, events).items():
        deck = log.game.deck  # type: ignore[attr-defined]
        if only in (None, "accuse"):
            path = folder / f"bench_table_{os.getpid()}.json"
            save(log, path)  # type: ignore[arg-type]
            argv = ["accuse", str(path), deck.suspects[0], deck.weapons[0], deck.rooms[0],
                    "--json"]
            printed = io.StringIO()
            start = time.process_time()
            with contextlib.redirect_stdout(printed):
                cli.main(argv)
            out[f"accuse  {label}"] = [time.process_time() - start, printed.getvalue()]
            path.unlink()
        if only in (None, "advise"):
            for room in (None, deck.rooms[0]):
                best: list[object]
                start = time.process_time()
                try:
                    best = [a.triple for a in advise(log, room, samples=1000)[:3]]  # type: ignore[arg-type]
                except ClueError as error:
                    best = [str(error)]
                name = f"advise {'everywhere' if room is None else 'one room'} {label}"
                out[name] = [time.process_time() - start, best]
        if only in (None, "here"):
            out.update(room_after_room(log, label))
    return out


def room_after_room(log: object, label: str, rooms: int = 4) -> dict[str, list[object]]:
    """The app's "Suggest for me" (1,000 deals) in the first ``rooms`` rooms, one after the
    other on the same log: CPU of the first and the mean of the others, and every answer."""
    from solver import advice

    deck = log.game.deck  # type: ignore[attr-defined]
    made = getattr(advice, "Advisor", None)
    advisor = None
    spent: list[float] = []
    answers: list[object] = []
    for room in deck.rooms[:rooms]:
        start = time.process_time()
        if made is None:  # before the advisor kept what does not depend on the room
            here = advice.advise_here(log, room, samples=1000)  # type: ignore[arg-type]
        else:
            advisor = advisor if advisor is not None else made(log, samples=1000)
            here = advisor.here(room)
        spent.append(time.process_time() - start)
        answers.append([here.best.triple, here.elsewhere and here.elsewhere.triple])
    return {f"here, first room {label}": [spent[0], answers[0]],
            f"here, each next room {label}": [statistics.mean(spent[1:]), answers[1:]]}


def run(checkout: Path, args: argparse.Namespace) -> dict[str, list[object]]:
    """`measure` in a fresh interpreter importing ``checkout``'s solver."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    command = [sys.executable, __file__, "--measure", "--events", str(args.events),
               "--seeds", *map(str, args.seeds)]
    if args.only:
        command += ["--only", args.only]
    done = subprocess.run(command, env=env, cwd=HERE, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another checkout, timed alternately")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--events", type=int, default=60)
    parser.add_argument("--only", choices=("accuse", "advise", "here"))
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.seeds, args.events, args.only)))
        return
    checkouts = {"this": HERE}
    if args.against:
        checkouts["against"] = args.against.resolve()
    times: dict[str, dict[str, list[float]]] = {name: {} for name in checkouts}
    answers: dict[str, dict[str, object]] = {name: {} for name in checkouts}
    for _ in range(args.rounds):
        for name, path in checkouts.items():
            for label, (seconds, answer) in run(path, args).items():
                assert isinstance(seconds, float)  # (CPU seconds, from the JSON)
                times[name].setdefault(label, []).append(seconds)
                answers[name][label] = answer
    print(f"CPU seconds, median of {args.rounds} rounds; load average {os.getloadavg()[0]:.1f}")
    print(f"  {'':50} " + "  ".join(f"{name:>8}" for name in checkouts))
    for label in times["this"]:
        row = "  ".join(f"{statistics.median(times[name][label]):8.3f}" for name in checkouts)
        same = ("" if len(checkouts) == 1 else
                "  same answer" if answers["this"][label] == answers["against"][label]
                else "  ANSWER DIFFERS")
        print(f"  {label:50} {row}{same}")


if __name__ == "__main__":
    main()
