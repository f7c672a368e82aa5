"""The set-up scripts and the conftest rules for slow and browser tests."""

from __future__ import annotations

import os
import pty
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.processes import running

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ("scripts/app", "scripts/test", ".ci/run")


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_is_executable_bash(script: str) -> None:
    path = ROOT / script
    assert os.access(path, os.X_OK), f"{script} is not executable"
    subprocess.run(["bash", "-n", str(path)], check=True)


def test_ci_runs_exactly_the_readme_test_command() -> None:
    commands = [
        line
        for line in (ROOT / ".ci/run").read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert commands[-1].split() in (["scripts/test"], ["exec", "scripts/test"])
    assert "set -euo pipefail" in commands


FAKE_PYTHON = """#!/usr/bin/env bash
# Stands in for .venv/bin/python: records pip installs, lists a pip configuration, succeeds at
# everything else.
if [[ "$1 $2 $3" == "-m pip install" ]]; then echo install >>"$(dirname "$0")/../installs"; fi
if [[ "$1 $2 $3 $4" == "-m pip config list" ]]; then
    echo "global.extra-index-url='file:///mirror/simple file:///more/simple'"
    echo ":env:.find-links='/wheels'"
fi
"""

FAKE_UV = """#!/usr/bin/env bash
# Stands in for uv: records its installs; fails them where FAIL is set.
if [[ $1 == --version ]]; then echo "uv 0.0.0"; exit 0; fi
echo "$*" >>"$(dirname "$0")/../uv-installs"
[[ -z ${FAIL:-} ]]
"""


def _bootstrap(repo: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", "set -euo pipefail; source scripts/_bootstrap.sh; bootstrap_venv"],
        cwd=repo,
        env={**os.environ, "PATH": f"{repo / 'bin'}:{os.environ['PATH']}", **env},
        capture_output=True,
        text=True,
        check=True,
    )


def _fake_repo(tmp_path: Path, uv: bool) -> None:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts/_bootstrap.sh", tmp_path / "scripts")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    for path, text in [(".venv/bin/python", FAKE_PYTHON), ("bin/uv", FAKE_UV)][: 1 + uv]:
        (tmp_path / path).parent.mkdir(parents=True)
        (tmp_path / path).write_text(text)
        (tmp_path / path).chmod(0o755)


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def test_bootstrap_installs_again_only_when_pyproject_changes(tmp_path: Path) -> None:
    _fake_repo(tmp_path, uv=False)
    installs = tmp_path / ".venv/installs"

    _bootstrap(tmp_path, CLUE_NOTEBOOK_PIP="1")
    _bootstrap(tmp_path, CLUE_NOTEBOOK_PIP="1")
    assert _lines(installs) == ["install"]

    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "2"\n')
    _bootstrap(tmp_path, CLUE_NOTEBOOK_PIP="1")
    _bootstrap(tmp_path, CLUE_NOTEBOOK_PIP="1")
    assert _lines(installs) == ["install", "install"]


def test_bootstrap_installs_with_uv_from_pips_indexes(tmp_path: Path) -> None:
    _fake_repo(tmp_path, uv=True)

    _bootstrap(tmp_path)
    _bootstrap(tmp_path)
    assert _lines(tmp_path / ".venv/installs") == []
    [install] = _lines(tmp_path / "uv-installs")
    python = tmp_path / ".venv/bin/python"
    assert install.startswith("pip install --quiet --native-tls --compile-bytecode "
                              f"--python {python}")
    assert install.endswith(f"--editable {tmp_path}[dev]")
    for option in ("--index-strategy unsafe-best-match", "--find-links /wheels",
                   "--extra-index-url file:///mirror/simple --extra-index-url file:///more/simple"):
        assert option in install


def test_bootstrap_falls_back_to_pip_when_uv_fails(tmp_path: Path) -> None:
    _fake_repo(tmp_path, uv=True)

    run = _bootstrap(tmp_path, FAIL="1")
    _bootstrap(tmp_path, FAIL="1")
    assert len(_lines(tmp_path / "uv-installs")) == 1
    assert _lines(tmp_path / ".venv/installs") == ["install"]
    assert "pip tries instead" in run.stderr


def test_python_names_one_interpreter_whole(tmp_path: Path) -> None:
    """PYTHON with a space in its path is that one interpreter, not two words tried apart (and
    the system's python3 taken instead)."""
    python = tmp_path / "my pythons/python3"
    python.parent.mkdir()
    python.write_text("#!/bin/sh\nexit 0\n")  # passes the 3.11+ check
    python.chmod(0o755)
    found = subprocess.run(
        ["bash", "-c", f"source {ROOT / 'scripts/_bootstrap.sh'}; _find_python"],
        env={**os.environ, "PYTHON": str(python)}, capture_output=True, text=True, check=True)
    assert found.stdout == f"{python}\n"


FAKE_APT_GET = """#!/usr/bin/env bash
# Stands in for apt-get: records what it was asked, slowly (so that another's call overlaps
# it); fails where FAIL is set, as offline.
echo "$*" >>"$(dirname "$0")/../apt-calls"
sleep 0.5
[[ -z ${FAIL:-} ]]
"""


@pytest.mark.parametrize("offline", [False, True], ids=["online", "offline"])
def test_apt_get_update_runs_once_a_run(tmp_path: Path, offline: bool) -> None:
    """One apt-get update a run, whether it succeeded or not (offline, each package's try
    updated again), shared by scripts/test's job installing Debian's packages and bootstrap_venv
    beside it (python3.X-venv): two shells, which share it through APT_UPDATE_MARK."""
    apt = tmp_path / "bin/apt-get"
    apt.parent.mkdir()
    apt.write_text(FAKE_APT_GET)
    apt.chmod(0o755)
    script = (f"source {ROOT / 'scripts/_bootstrap.sh'}; APT_UPDATE_MARK={tmp_path / 'mark'}; "
              "{ _apt_update; echo job $?; _apt_update; echo job $?; } & "
              "_apt_update; echo main $?; wait; _apt_update; echo main $?")
    run = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True,
        env={**os.environ, "PATH": f"{apt.parent}:{os.environ['PATH']}",
             "TMPDIR": str(tmp_path), **({"FAIL": "1"} if offline else {})})
    assert _lines(tmp_path / "apt-calls") == ["update -qq"]
    status = "1" if offline else "0"
    assert sorted(run.stdout.split("\n")[:-1]) == [f"{who} {status}" for who in
                                                  ("job", "job", "main", "main")]


@pytest.mark.skipif(os.geteuid() != 0, reason="the packages are installed only as root")
@pytest.mark.parametrize("msgfmt", [True, False], ids=["with-msgfmt", "without-msgfmt"])
def test_gettext_goes_in_with_the_test_packages(tmp_path: Path, msgfmt: bool) -> None:
    """Where GNU gettext's msgfmt is missing, the test packages' one apt transaction installs
    Debian's gettext too, so tests/test_i18n.py's `msgfmt --check` of the catalogs runs on a
    fresh CI machine instead of skipping; where it is there, gettext is not asked for."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for name, text in (("apt-get", FAKE_APT_GET), ("dpkg", "#!/bin/sh\nexit 0\n"),
                       ("chromium", "#!/bin/sh\nexit 0\n"), ("initdb", "#!/bin/sh\nexit 0\n")):
        (bin_ / name).write_text(text)
        (bin_ / name).chmod(0o755)
    for tool in ("bash", "dirname", "sleep", "flock", "cat", *(("msgfmt",) if msgfmt else ())):
        found = shutil.which(tool)
        assert found is not None, tool
        (bin_ / tool).symlink_to(found)
    subprocess.run(
        [shutil.which("bash") or "bash", "-c",
         f"source {ROOT / 'scripts/_bootstrap.sh'}; ensure_test_packages"],
        cwd=tmp_path, capture_output=True, text=True, check=True,
        env={"PATH": str(bin_), "TMPDIR": str(tmp_path), "HOME": str(tmp_path)})
    calls = _lines(tmp_path / "apt-calls") if (tmp_path / "apt-calls").exists() else []
    installs = [call for call in calls if call.startswith("install")]
    if msgfmt:
        assert installs == []
    else:
        assert len(installs) == 1 and installs[0].split()[-1] == "gettext", calls


SAMPLE_TESTS = """
import pytest

def test_plain():
    pass

@pytest.mark.slow
def test_slow():
    pass

@pytest.mark.browser
def test_browser():
    pass
"""

INI = """[pytest]
addopts = -ra --strict-markers
markers =
    browser: real browser
    slow: long-running
"""


def _run_sample(tmp_path: Path, *args: str, ci: bool) -> subprocess.CompletedProcess[str]:
    shutil.copy(ROOT / "tests/conftest.py", tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text(INI)
    (tmp_path / "test_sample.py").write_text(SAMPLE_TESTS)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["CHROMIUM_EXECUTABLE"] = str(tmp_path / "no-such-chromium")
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # hypothesis and friends only slow the start
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_slow_and_browser_tests_skip_by_default(tmp_path: Path) -> None:
    run = _run_sample(tmp_path, ci=False)
    assert run.returncode == 0, run.stdout
    assert "1 passed, 2 skipped" in run.stdout
    assert "slow: run with --runslow" in run.stdout
    assert "no-such-chromium" in run.stdout


def test_runslow_runs_slow_tests(tmp_path: Path) -> None:
    run = _run_sample(tmp_path, "--runslow", ci=False)
    assert run.returncode == 0, run.stdout
    assert "2 passed, 1 skipped" in run.stdout


def test_missing_browser_fails_under_ci(tmp_path: Path) -> None:
    run = _run_sample(tmp_path, ci=True)
    assert run.returncode == 1, run.stdout
    assert "1 passed, 1 skipped, 1 error" in run.stdout
    assert "cannot run under CI=true" in run.stdout


FAKE_TOOL = """#!/usr/bin/env bash
# Stands in for NAME: says so, exits with $STATUS (0 where unset; python only for pytest).
echo "NAME ran: $*"
role=NAME
if [[ "$1 $2" == "-m pytest" ]]; then role=pytest; fi
if [[ ${2:-} == *warm.load_all* ]]; then role=warm; fi
if [[ " ${HANG:-} " == *" $role "* ]]; then  # runs until stopped, its pid in ROLE.pid; SIGINT
    echo $$ >"$role.pid"                     # stops it (pytest with 2, as pytest does)
    trap 'exit 2' INT
    while :; do sleep 0.1; done
fi
if [[ $role == pytest && -n ${READS:-} ]]; then  # a line from stdin, and whether pytest
    read -r line                                  # runs in a process group of its own
    own=no
    if [[ $(cut -d' ' -f5 /proc/$$/stat) != "$(cut -d' ' -f5 /proc/$PPID/stat)" ]]; then own=yes; fi
    echo "pytest read: $line; a group of its own: $own"
fi
if [[ NAME == python && $2 == *warm.load_all* ]]; then  # the kernels' warm-up
    sleep "${WARM_SECONDS:-0}"; touch warmed; exit 0
fi
if [[ NAME == python && -e warmed ]]; then echo "pytest starts: kernels loaded"; fi
if [[ NAME != python || "$1 $2" == "-m pytest" ]]; then exit "${STATUS:-0}"; fi
"""


def _test_script(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """scripts/test in a repository whose venv is set up, and whose python (pytest and the
    kernels), ruff and mypy, chromium and postgresql are stand-ins."""
    _test_repo(tmp_path)
    return subprocess.run(
        ["bash", "scripts/test"],
        cwd=tmp_path,
        env={**os.environ, "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}", **env},
        capture_output=True,
        text=True,
        check=False,
    )


def _test_repo(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir(exist_ok=True)
    for script in ("scripts/_bootstrap.sh", "scripts/test"):
        shutil.copy(ROOT / script, tmp_path / script)
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\n')
    venv = tmp_path / ".venv/bin"
    venv.mkdir(parents=True, exist_ok=True)
    digest = subprocess.run(["sha256sum", str(pyproject)], capture_output=True, text=True,
                            check=True).stdout.split()[0]
    (tmp_path / ".venv/.pyproject.sha256").write_text(digest + "\n")
    stand_ins = {venv / "python": "PYTEST_STATUS", venv / "ruff": "RUFF_STATUS",
                 venv / "mypy": "MYPY_STATUS", tmp_path / "bin/chromium": "",
                 tmp_path / "bin/initdb": "", tmp_path / "bin/dpkg": ""}
    for path, status in stand_ins.items():
        path.parent.mkdir(exist_ok=True)
        path.write_text(FAKE_TOOL.replace("NAME", path.name).replace("STATUS", status or "NONE"))
        path.chmod(0o755)


def test_test_script_reports_mypy_after_the_tests(tmp_path: Path) -> None:
    run = _test_script(tmp_path)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert out.index("ruff ran: check .") < out.index("python ran: -m pytest")
    assert out.index("python ran: -m pytest") < out.index("mypy ran: --strict solver notebook_app")
    assert "== mypy done at" in out


def test_test_script_starts_the_tests_beside_the_kernels_warm_up(tmp_path: Path) -> None:
    """The tests do not wait for the kernels' compile (a worker that needs them waits for it,
    `solver.odds.warm.held`); the warm-up's end is reported after pytest's."""
    run = _test_script(tmp_path, WARM_SECONDS="2")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "python ran: -m pytest" in out
    assert "pytest starts: kernels loaded" not in out
    assert out.index("== pytest done at") < out.index("== kernels loaded at")


@pytest.mark.parametrize(("env", "status", "says"), [
    ({"MYPY_STATUS": "1"}, 1, "FAILED: mypy"),
    ({"RUFF_STATUS": "1"}, 1, "FAILED: ruff"),
    ({"MYPY_STATUS": "1", "PYTEST_STATUS": "1"}, 1, "FAILED: mypy"),
    ({"PYTEST_STATUS": "1"}, 1, ""),
    ({"PYTEST_STATUS": "5"}, 5, "collected no tests"),
])
def test_test_script_fails_when_a_step_fails(
    tmp_path: Path, env: dict[str, str], status: int, says: str
) -> None:
    run = _test_script(tmp_path, **env)
    assert run.returncode == status, run.stdout
    assert says in run.stderr


def _interruptible() -> None:
    """In the child, before bash starts: Ctrl-C as a terminal's foreground job gets it. Where
    these tests run as a background job of a shell without job control (a CI runner's `cmd &`),
    SIGINT arrives ignored, and a shell started with a signal ignored can neither trap it nor
    pass it on: the script would never see the Ctrl-C this test sends."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("stop", ["ctrl-c", "sigterm", "sigkill"])
def test_test_script_leaves_nothingrunning_when_stopped(tmp_path: Path, stop: str) -> None:
    """Stopped by Ctrl-C while pytest runs (the terminal's SIGINT to its foreground process
    group: the script, which passes it on to pytest's group, stdin being no terminal here;
    the work beside them has groups of its own), or by SIGTERM to the script alone
    while it waits for the work beside the tests (the kernels' warm-up, mypy), scripts/test ends
    then and there, by that signal, having stopped that work and removed its temporary files.
    Before, SIGTERM left the warm-up and mypy running (mypy: minutes of CPU) with nobody to read
    their reports; after Ctrl-C the script carried on and reported them failed.
    Killed (SIGKILL to its process group, which no trap sees, while pytest runs), it leaves
    nothing running either: the warm-up, mypy and pytest get a signal when their parent dies.
    Before, all three ran on."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("reads processes from Linux's /proc")
    _test_repo(tmp_path)
    (tmp_path / "tmp").mkdir()
    hang = ["warm", "mypy"] + (["pytest"] if stop != "sigterm" else [])
    with (tmp_path / "out").open("wb") as out:
        script = subprocess.Popen(
            ["bash", "scripts/test"], cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=out,
            stderr=subprocess.STDOUT, start_new_session=True,  # a terminal's process group
            env={**os.environ, "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}",
                 "HANG": " ".join(hang), "TMPDIR": str(tmp_path / "tmp")},
            preexec_fn=_interruptible)
    pids: dict[str, int] = {}

    def said() -> str:
        return (tmp_path / "out").read_text()

    try:
        deadline = time.monotonic() + 60
        while len(pids) < len(hang) or (stop == "sigterm" and "== pytest done" not in said()):
            assert script.poll() is None and time.monotonic() < deadline, said()
            time.sleep(0.1)
            for role in hang:
                written = tmp_path / f"{role}.pid"
                if written.exists() and written.read_text().strip():
                    pids[role] = int(written.read_text())
        if stop == "sigterm":
            script.send_signal(signal.SIGTERM)
        else:
            os.killpg(script.pid, signal.SIGINT if stop == "ctrl-c" else signal.SIGKILL)
        try:
            status = script.wait(timeout=20)
        except subprocess.TimeoutExpired:
            status = None
        deadline = time.monotonic() + 10
        while any(map(running, pids.values())) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [role for role, pid in pids.items() if running(pid)]
        assert left == [], f"still running: {left}\n{said()}"
        ended_by = {"ctrl-c": signal.SIGINT, "sigterm": signal.SIGTERM, "sigkill": signal.SIGKILL}
        assert status == -ended_by[stop], said()
        assert "FAILED" not in said()
        if stop != "sigkill":  # (which leaves the script no time to remove its files)
            assert list((tmp_path / "tmp").iterdir()) == []
    finally:
        if script.poll() is None:
            os.killpg(script.pid, signal.SIGKILL)
            script.wait()
        for pid in pids.values():
            if running(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("stdin", ["terminal", "pipe"])
def test_test_script_hands_pytest_its_stdin(tmp_path: Path, stdin: str) -> None:
    """pytest reads the script's stdin (`--pdb`, `breakpoint()`). From a terminal it runs in
    the foreground, in the script's process group, where the terminal's Ctrl-C and hangup reach
    it; otherwise as a job in a process group of its own, which the script's traps stop."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("reads processes from Linux's /proc")
    _test_repo(tmp_path)
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}", "READS": "1"}
    if stdin == "terminal":
        controller, terminal = pty.openpty()
        try:
            os.write(controller, b"c\n")
            run = subprocess.run(["bash", "scripts/test"], cwd=tmp_path, env=env,
                                 stdin=terminal, capture_output=True, text=True, timeout=60,
                                 check=False)
        finally:
            os.close(terminal)
            os.close(controller)
    else:
        run = subprocess.run(["bash", "scripts/test"], cwd=tmp_path, env=env, input="c\n",
                             capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    own = "no" if stdin == "terminal" else "yes"
    assert f"pytest read: c; a group of its own: {own}" in run.stdout


SLEEPING_TESTS = """
import os
from pathlib import Path
import time

import pytest


@pytest.fixture(scope="session")
def held():
    yield
    (Path(os.environ["PIDS"]) / f"{os.getpid()}.torn-down").touch()


@pytest.mark.parametrize("n", range(2))
def test_sleeps(n, held):
    (Path(os.environ["PIDS"]) / str(os.getpid())).touch()
    time.sleep(120)
"""

REAL_PYTEST = """#!/usr/bin/env bash
# Stands in for .venv/bin/python: the real pytest (its pid in pytest.pid), nothing else.
if [[ "$1 $2" == "-m pytest" ]]; then echo $$ >pytest.pid; exec PYTHON "$@"; fi
"""


@pytest.mark.parametrize(("stop", "sigint", "whom"), [
    pytest.param(signal.SIGTERM, signal.SIG_DFL, "script", id="sigterm"),
    pytest.param(signal.SIGHUP, signal.SIG_DFL, "script", id="sighup"),
    pytest.param(signal.SIGTERM, signal.SIG_IGN, "script", id="sigterm-sigint-ignored"),
    pytest.param(signal.SIGKILL, signal.SIG_DFL, "script", id="sigkill"),
    pytest.param(signal.SIGKILL, signal.SIG_DFL, "group", id="sigkill-group"),
])
def test_test_script_stops_pytest_however_signalled(
    tmp_path: Path, stop: signal.Signals, sigint: signal.Handlers, whom: str
) -> None:
    """SIGTERM or SIGHUP to scripts/test alone while pytest runs (stdin not a terminal) ends
    pytest and its xdist workers within seconds, and the script by that signal: pytest's group
    gets Ctrl-C's SIGINT, so the workers tear their fixtures down, also where the script started
    with SIGINT ignored (pytest starts with it at its default). Before, bash ran the trap only
    when pytest ended: pytest ran on, reparented to init, its workers respawning; and where
    SIGINT was ignored pytest inherited that, got SIGTERM and ended with no teardown.
    SIGKILL, to the script alone or to its process group (not pytest's), which no trap sees,
    ends pytest too (SIGINT from the kernel when the script dies), and its workers after it,
    tearing their fixtures down. Before, pytest ran on there too."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("reads processes from Linux's /proc")
    _test_repo(tmp_path)
    (tmp_path / ".venv/bin/python").write_text(REAL_PYTEST.replace("PYTHON", sys.executable))
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_sleeps.py").write_text(SLEEPING_TESTS)
    (tmp_path / "tmp").mkdir()
    workers = tmp_path / "pids"
    workers.mkdir()

    def signals() -> None:  # in the child: SIGHUP at its default, SIGINT as the case has it
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        signal.signal(signal.SIGINT, sigint)

    with (tmp_path / "out").open("wb") as out:
        script = subprocess.Popen(
            ["bash", "scripts/test", "-p", "xdist.plugin", "-n", "2", "-p", "no:cacheprovider",
             f"--basetemp={tmp_path / 'base'}", "test_sleeps.py"],
            cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}",
                 "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PIDS": str(workers),
                 "TMPDIR": str(tmp_path / "tmp")},
            preexec_fn=signals)
    pids: list[int] = []

    def said() -> str:
        return (tmp_path / "out").read_text()

    try:
        deadline = time.monotonic() + 90
        while len(pids) < 3:
            assert script.poll() is None and time.monotonic() < deadline, said()
            time.sleep(0.1)
            master = tmp_path / "pytest.pid"
            if master.exists() and master.read_text().strip():
                pids = [int(master.read_text()),
                        *(int(p.name) for p in workers.iterdir() if p.name.isdigit())]
        if whom == "group":
            os.killpg(script.pid, stop)
        else:
            script.send_signal(stop)
        deadline = time.monotonic() + 15
        while any(map(running, pids)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [pid for pid in pids if running(pid)] == [], f"pytest still runs\n{said()}"
        assert script.wait(timeout=5) == -stop, said()
        assert "FAILED" not in said()
        if stop != signal.SIGKILL:  # (which leaves the script no time to remove its files)
            assert list((tmp_path / "tmp").iterdir()) == []
        assert len(list(workers.glob("*.torn-down"))) == 2, said()
    finally:
        if script.poll() is None:
            os.killpg(script.pid, signal.SIGKILL)
            script.wait()
        for pid in pids:
            if running(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("args", [["init"], ["init", "de x"], ["init", "de", "fi"], ["fi"]])
def test_messages_says_its_usage_before_touching_the_catalogs(args: list[str]) -> None:
    """A wrong call of scripts/messages stops at once, naming what it got, before it
    bootstraps or rewrites the template (it used to fail on an unbound $2 after extracting)."""
    pot = ROOT / "solver" / "locale" / "clue_notebook.pot"
    before = pot.stat().st_mtime_ns
    done = subprocess.run(["bash", str(ROOT / "scripts" / "messages"), *args],
                          capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 2
    assert "usage: scripts/messages" in done.stderr
    assert "got:" in done.stderr
    assert pot.stat().st_mtime_ns == before
