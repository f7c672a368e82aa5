"""The tests' private PostgreSQL server (`tests.pgserver`) ends with the process that started it."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import in_ci
from tests.pgserver import find_bin
from tests.processes import running

ROOT = Path(__file__).resolve().parent.parent

HOLDS_A_SERVER = """
import sys, time
from pathlib import Path
from tests.pgserver import PostgresServer
server = PostgresServer(Path(sys.argv[1]))
print(server.folder, flush=True)
time.sleep(120)
"""


def test_server_stops_when_its_test_process_is_killed() -> None:
    """A test process killed before its teardown (SIGKILL: an xdist worker whose master was
    killed ends by ``os._exit``) leaves no server running nor its files: the server's watchdog
    stops it. Before, ``pg_ctl`` had started it in a session of its own and it ran on,
    reparented to init."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("reads processes from Linux's /proc")
    bindir, reason = find_bin()
    if bindir is None:
        if in_ci():
            pytest.fail(reason)
        pytest.skip(reason)
    holder = subprocess.Popen([sys.executable, "-c", HOLDS_A_SERVER, str(bindir)], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    postgres, folder = 0, None
    try:
        assert holder.stdout is not None
        said = holder.stdout.readline().strip()
        assert said, "the server did not start"
        folder = Path(said)
        postgres = int((folder / "data/postmaster.pid").read_text().split()[0])
        assert running(postgres)
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        deadline = time.monotonic() + 10
        while (running(postgres) or folder.exists()) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not running(postgres)
        assert not folder.exists()
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
        if postgres and running(postgres):
            os.kill(postgres, signal.SIGKILL)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
