"""How long ``clue-notebook analyze`` takes as a whole process, beside a bare interpreter.

    python benchmarks/bench_cli.py              # 15 rounds
    python benchmarks/bench_cli.py --rounds 40
    python benchmarks/bench_cli.py --before /tmp/old   # also an older checkout's analyze
    python benchmarks/bench_cli.py --instructions      # also count instructions (valgrind)

Each round starts, in turn: ``python -c pass`` (the baseline: interpreter start-up), the same
interpreter importing everything ``analyze`` loaded before issue 9 (numpy, odds, explanations;
for reference), and ``clue-notebook analyze`` on the classic example game as JSON, as notation,
and with ``--json``. Taking them in turn spreads a busy neighbour over all of them. For each,
the best and the median over the rounds (modules compiled once, as after an install: the
``.pyc`` cache goes to a temporary folder), in wall-clock time and in CPU time of the child
(user + system, less sensitive to a shared machine), and the median's excess over the baseline.

Target (issue 9): ``analyze`` of a classic log within 60 ms of bare interpreter start-up. The
verdict uses the CPU medians: on a shared machine a wall-clock time mostly measures the
neighbours (the load average is printed); on an idle one the two agree for these processes.
Under heavy load CPU times swell too (shared caches and cores); ``--instructions`` then adds a
figure no neighbour can change: each run's user-space instructions, counted once by valgrind's
callgrind, with the excess over the baseline also priced at the baseline's own best rate.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = ROOT / "examples" / "classic-six-players.json"
TARGET_MS = 60.0
EAGER = "import solver.cli, solver.notebook, solver.report, solver.odds, solver.explain, " \
        "solver.advice, solver.odds_report, solver.envelopes, numpy"


def command() -> list[str]:
    """The ``clue-notebook`` console script beside this interpreter, else ``python -m solver``."""
    script = Path(sys.executable).parent / "clue-notebook"
    if script.exists():
        return [str(script)]
    found = shutil.which("clue-notebook")
    return [found] if found else [sys.executable, "-m", "solver"]


def timed(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall-clock and child CPU seconds of one run (its output discarded; it must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, check=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def instructions(argv: list[str], env: dict[str, str] | None = None) -> int:
    """User-space instructions of one run, counted by valgrind (the same on any load)."""
    if argv[0] != sys.executable:  # a console script: valgrind runs the interpreter itself
        argv = [sys.executable, *argv]
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          check=True, env=env)
    return int(done.stderr.rsplit("Collected :", 1)[1].split()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--before", metavar="DIR",
                        help="a checkout of an older version (git worktree add DIR REF): "
                             "its analyze is timed too, with PYTHONPATH=DIR")
    parser.add_argument("--instructions", action="store_true",
                        help="also count each run's instructions with valgrind (load-free)")
    args = parser.parse_args()
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind (apt-get install valgrind)")
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    cli = command()
    with tempfile.TemporaryDirectory() as tmp:
        # As installed: modules compiled once and cached (a sandbox may forbid writing .pyc
        # files; the cache goes to a temporary folder, never into the source tree).
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        text = Path(tmp) / "classic-six-players.clue"
        subprocess.run([*cli, "convert", str(CLASSIC), "-o", str(text)], check=True,
                       stderr=subprocess.DEVNULL)
        runs = {
            "python -c pass (baseline)": [sys.executable, "-c", "pass"],
            "imports analyze loaded before (reference)": [sys.executable, "-c", EAGER],
            "analyze classic .json": [*cli, "analyze", str(CLASSIC)],
            "analyze classic .clue (notation)": [*cli, "analyze", str(text)],
            "analyze classic .json --json": [*cli, "analyze", str(CLASSIC), "--json"],
        }
        envs: dict[str, dict[str, str] | None] = dict.fromkeys(runs)
        if args.before:
            name = f"analyze classic .json, {Path(args.before).name} (before)"
            runs[name] = [*cli, "analyze", str(CLASSIC)]
            envs[name] = {**os.environ, "PYTHONPATH": str(Path(args.before).resolve())}
        for name, argv in runs.items():  # warm the file cache and the .pyc files
            timed(argv, envs[name])
        wall: dict[str, list[float]] = {name: [] for name in runs}
        cpu: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.rounds):
            for name, argv in runs.items():
                w, c = timed(argv, envs[name])
                wall[name].append(w * 1000)
                cpu[name].append(c * 1000)
        counted = {name: instructions(argv, envs[name]) for name, argv in runs.items()
                   if args.instructions}
    print(f"{' '.join(Path(a).name for a in cli)}; {args.rounds} rounds; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    base = "python -c pass (baseline)"
    header = (f"| {'run':<42} | wall best | wall median | +median | cpu best | cpu median "
              f"| +median |")
    print(header)
    print("|" + "|".join("-" * (len(cell)) for cell in header.split("|")[1:-1]) + "|")
    for name in runs:
        w, c = wall[name], cpu[name]
        dw = statistics.median(w) - statistics.median(wall[base])
        dc = statistics.median(c) - statistics.median(cpu[base])
        print(f"| {name:<42} | {min(w):6.0f} ms | {statistics.median(w):8.0f} ms | "
              f"{dw:+5.0f} ms | {min(c):5.0f} ms | {statistics.median(c):7.0f} ms | "
              f"{dc:+5.0f} ms |")
    if counted:
        base_count = counted[base]
        rate = min(cpu[base]) / base_count  # ms per instruction, the baseline's best
        print(f"\n| {'run':<42} | instructions | +excess | excess at the baseline's rate |")
        print(f"|{'-' * 44}|--------------|---------|-------------------------------|")
        for name, count in counted.items():
            extra = count - base_count
            print(f"| {name:<42} | {count / 1e6:10.1f} M | {extra / 1e6:+5.0f} M | "
                  f"{extra * rate:+27.0f} ms |")
    for name in ("analyze classic .json", "analyze classic .clue (notation)"):
        excess = statistics.median(cpu[name]) - statistics.median(cpu[base])
        walled = statistics.median(wall[name]) - statistics.median(wall[base])
        verdict = "met" if excess <= TARGET_MS else "NOT met"
        print(f"target: {name} within {TARGET_MS:.0f} ms of python -c pass: CPU median "
              f"{excess:+.0f} ms, {verdict} (wall median {walled:+.0f} ms: on an idle machine "
              f"the two agree)")


if __name__ == "__main__":
    main()
