"""Shared test set-up: slow tests, browser tests, and where screenshots go.

Slow tests
    Mark with ``@pytest.mark.slow``. They are skipped unless pytest gets ``--runslow``
    (``scripts/test --runslow``).

Browser tests
    Mark with ``@pytest.mark.browser`` and take the ``chromium_executable`` fixture. The browser
    is Debian's ``chromium`` (``scripts/test`` installs it when run as root); Playwright's own
    browser downloads are not used and do not work on our machines. Without Chromium, or without
    the ``playwright`` package, a browser test is skipped with the reason, except under
    ``CI=true``, where it fails instead, so CI never passes by skipping them. Launch it so::

        from playwright.sync_api import sync_playwright
        from tests.phone import PHONE, new_page, settle

        def test_page(app_url, chromium_executable, chromium_args, artifacts_dir):
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
                page = new_page(browser, viewport=PHONE)
                page.goto(app_url)
                settle(page)
                page.screenshot(path=artifacts_dir / "home.png")
                browser.close()

    ``tests.phone.new_page`` (of a browser or a context) watches the app's runs on the page's
    websocket; after every tap a test waits with ``tests.phone.after`` or ``settle`` until the
    run it asked for has ended and is drawn, never with a fixed ``wait_for_timeout``.

    ``chromium_args`` is ``CHROMIUM_ARGS``: ``--no-sandbox`` (CI runs as root), ``--disable-gpu``,
    and flags that stop Chromium's own network calls, which this machine's closed network refuses.
    Serve pages on 127.0.0.1 only. Set ``CHROMIUM_EXECUTABLE`` to use another Chromium binary.
    To serve the app, take the ``app_url`` fixture: it starts ``python -m streamlit run
    notebook_app/server.py`` on a free localhost port with its own database (``app_db``, in the
    test's ``tmp_path``), with the flags ``scripts/app`` uses (no prompts, no calls out), waits for
    ``/_stcore/health``, and stops the server after the test. The odds kernels are in numba's
    cache before it starts (``kernels_cached``), so no server compiles them on a test's clock.

Artifacts
    ``artifacts_dir`` is ``test-artifacts/`` at the repository root (git ignores it): save
    screenshots there under names that say which test and screen they show.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tests.appserver import Server

ROOT = Path(__file__).resolve().parent.parent

CHROMIUM_ARGS: tuple[str, ...] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
"""Command-line flags for launching Chromium on our machines (see the module docstring)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--runslow", action="store_true", default=False, help="also run tests marked slow"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow"):
        return
    skip_slow = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Under a test that failed with an app server (`app_url`): whether the server was still
    running, and the end of its log."""
    report = yield
    served = getattr(item, "app_server", None)
    if served is not None and report.failed:
        server, log = served
        status = server.poll()
        text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
        report.sections.append((
            "app server", f"{'running' if status is None else f'ended, status {status}'}\n"
                          f"{text[-4000:]}"))
    return report


def in_ci() -> bool:
    """Whether we run under CI (``CI=true``), where a missing browser is a failure."""
    return os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}


def find_chromium() -> tuple[str | None, str]:
    """The path of a working Chromium, or None and why there is none."""
    override = os.environ.get("CHROMIUM_EXECUTABLE")
    if override:
        candidates = [override]
    else:
        candidates = [
            path for path in (shutil.which("chromium"), "/usr/bin/chromium") if path is not None
        ]
    for path in candidates:
        if not os.access(path, os.X_OK):
            continue
        try:
            version = subprocess.run(
                [path, "--version"], capture_output=True, text=True, timeout=30, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            return None, f"Chromium at {path} does not start: {error}"
        if version.returncode != 0:
            detail = (version.stderr or version.stdout).strip()[-300:]
            return None, f"Chromium at {path} does not start: {detail}"
        return path, ""
    if override:
        return None, f"CHROMIUM_EXECUTABLE={override!r} is not an executable file"
    return None, (
        "Chromium not found: install Debian's package "
        "(apt-get install --no-install-recommends chromium; scripts/test does it as root)"
    )


def _missing(reason: str) -> None:
    if in_ci():
        pytest.fail(f"browser test cannot run under CI=true: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium_executable() -> str:
    """Path of Debian's Chromium; skips the test without it (fails under ``CI=true``)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as error:
        _missing(f"the playwright package is not installed: {error}")
    path, reason = find_chromium()
    if path is None:
        _missing(reason)
    assert path is not None
    return path


@pytest.fixture(scope="session")
def chromium_args() -> list[str]:
    """Flags to pass as ``args=`` to ``p.chromium.launch``; see ``CHROMIUM_ARGS``."""
    return list(CHROMIUM_ARGS)


@pytest.fixture(autouse=True)
def _browser_tests_need_chromium(request: pytest.FixtureRequest) -> None:
    """A test marked ``browser`` skips (or fails under CI) without Chromium, fixture or not."""
    if request.node.get_closest_marker("browser") is not None:
        request.getfixturevalue("chromium_executable")


BESIDE_WAIT = 120.0
"""Seconds an AppTest run waits for the work done beside it (`notebook_app.odds_count`)."""


@pytest.fixture(autouse=True)
def _app_runs_wait_for_the_work_beside(request: pytest.FixtureRequest,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """In an AppTest a run waits for the grid's odds, the race line, the envelope count and the
    advisor of "Suggest for me", worked out on threads beside the runs, until they are ready: in
    the browser a run waits a fraction of a second for them (none for work that took longer the
    time before), then a fragment looks again, which AppTest does not run; so what a test reads
    never depends on how busy the machine is (the run's one wait for them all too,
    `notebook_app.odds_count.RUN_WAIT`). Tests of the waiting itself set the waits to 0, or to
    the app's own (`tests.test_app.Beside2`)."""
    if not hasattr(request.module, "AppTest"):
        return
    monkeypatch.setattr("notebook_app.odds_count.RUN_WAIT", BESIDE_WAIT)
    monkeypatch.setattr("notebook_app.screens.grid.ODDS_WAIT", BESIDE_WAIT)
    monkeypatch.setattr("notebook_app.screens.play.RACE_WAIT", BESIDE_WAIT)
    monkeypatch.setattr("notebook_app.screens.play.COUNT_WAIT", BESIDE_WAIT)
    monkeypatch.setattr("notebook_app.screens.turn.ADVICE_WAIT", BESIDE_WAIT)


COMPONENTS: list[list[Any]] = []
"""What Streamlit's scan of the installed packages for components found, once scanned."""


@pytest.fixture(autouse=True)
def _components_scanned_once(request: pytest.FixtureRequest,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Every new AppTest, on its first run, scans the metadata of every installed package for
    Streamlit components (0.15 s of CPU on a quiet machine, a few hundred times a suite; the app
    uses none, so it finds none). The packages do not change during a test session: scan once
    per process and hand each AppTest what was found."""
    if not hasattr(request.module, "AppTest"):
        return
    from streamlit.components.v2 import manifest_scanner

    scan = manifest_scanner.scan_component_manifests

    def scanned_once(max_workers: int | None = None) -> list[Any]:
        if not COMPONENTS:
            COMPONENTS.append(scan(max_workers))
        return list(COMPONENTS[0])

    monkeypatch.setattr(manifest_scanner, "scan_component_manifests", scanned_once)


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """``test-artifacts/`` at the repository root, created if missing (git ignores it)."""
    path = ROOT / "test-artifacts"
    path.mkdir(exist_ok=True)
    return path


# --- databases -------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[object]:
    """A PostgreSQL server of the test session (`tests.pgserver.PostgresServer`); skips the test
    without PostgreSQL (fails under ``CI=true``), or yields ``None`` when
    ``CLUE_TEST_POSTGRES_URL`` names a server of your own."""
    if os.environ.get("CLUE_TEST_POSTGRES_URL"):
        yield None
        return
    from tests.pgserver import PostgresServer, find_bin

    bindir, reason = find_bin()
    if bindir is None:
        _missing_database(reason)
    assert bindir is not None
    try:
        server = PostgresServer(bindir)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as err:
        _missing_database(f"PostgreSQL did not start: {err}")
    try:
        yield server
    finally:
        server.stop()


def _missing_database(reason: str) -> None:
    if in_ci():
        pytest.fail(f"PostgreSQL tests cannot run under CI=true: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
def postgres_url(postgres_server: object) -> str:
    """The URL of a new, empty PostgreSQL database for the test."""
    if postgres_server is None:
        return os.environ["CLUE_TEST_POSTGRES_URL"]
    from tests.pgserver import PostgresServer

    assert isinstance(postgres_server, PostgresServer)
    return postgres_server.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[object]:
    """A fresh, empty games database (`notebook_app.store.Store`), once on SQLite and once on
    PostgreSQL: the same tests hold on both."""
    from notebook_app.store import Store

    if request.param == "sqlite":
        yield Store(tmp_path / "games.sqlite3")
        return
    opened = Store(request.getfixturevalue("postgres_url"))
    try:
        yield opened
    finally:
        opened.engine.dispose()


# --- the app server ----------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def app_db(tmp_path: Path) -> Path:
    """The database the ``app_url`` server of this test uses (save games there to open them)."""
    return tmp_path / "games.sqlite3"


@pytest.fixture(scope="session")
def kernels_cached() -> None:
    """The odds kernels in numba's cache before a test starts an app server. A server that finds
    them missing (in CI, while ``scripts/test``'s warm-up still compiles them beside the first
    tests; after a change to a kernel, or a rebase onto one) has them compiled and waits for that
    (`solver.odds.warm`: about two minutes of one core) while its page says "The odds are being
    prepared", the note of the work beside the runs that a browser test waits out
    (`tests.phone.BESIDE_MOST`): on a loaded machine, past that wait. Here the wait is the
    set-up's, with no server or browser started yet: where they are missing they are compiled
    apart, under the kernels' lock (`warm.held`: after a compile already under way, a load from
    the cache). Half a second of CPU per test process where they are cached."""
    from solver.odds import warm
    from solver.odds.compiled import installed

    if installed() and warm.uncached():
        warm.compile_apart()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """An app server of this test's own, on its own database, that the test may stop, restart
    or kill (`tests.appserver.Server`; ``app_url`` is one the test only uses)."""
    from tests.appserver import Server

    running = Server(tmp_path / "games.sqlite3")
    try:
        running.start()
    except RuntimeError as err:
        pytest.fail(str(err))
    try:
        yield running
    finally:
        running.stop()

@pytest.fixture
def app_url(app_db: Path, request: pytest.FixtureRequest, kernels_cached: None
            ) -> Iterator[str]:
    """``streamlit run notebook_app/server.py`` on a free localhost port, with its own database,
    the odds kernels compiled (`kernels_cached`). Its log is shown under a test that fails
    (`pytest_runtest_makereport`)."""
    port = _free_port()
    log = app_db.with_name("server.log")
    env = {**os.environ, "CLUE_NOTEBOOK_DB": str(app_db)}
    with log.open("ab") as err:  # a file, not a pipe nobody reads: it could fill and block
        server = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "notebook_app/server.py",
             "--server.port", str(port), "--server.address", "127.0.0.1",
             "--server.headless", "true", "--browser.gatherUsageStats", "false",
             "--browser.serverAddress", "localhost"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err,
        )
    request.node.app_server = (server, log)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    said = log.read_text(encoding="utf-8", errors="replace")
                    pytest.fail(f"streamlit did not start: {said[-2000:]}")
                time.sleep(0.3)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
