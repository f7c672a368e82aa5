"""``streamlit run notebook_app/server.py`` as a test's server: a free port on 127.0.0.1, one
database (a file path or a URL), restartable; `Server.kill` is ``kill -9``."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """One app server on one port and one database."""

    def __init__(self, database: str | Path, port: int | None = None,
                 root: Path | None = None) -> None:
        """``root``: another checkout to serve (a benchmark's baseline), else this one."""
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "CLUE_NOTEBOOK_DB": str(database)}
        self.root = root or ROOT
        self.env["PYTHONPATH"] = str(self.root)  # (not the checkout the venv's install names)
        self.process: subprocess.Popen[bytes] | None = None
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - the server's log, all its runs

    def start(self, timeout: float = 90) -> None:
        """Start it and wait until it answers (`RuntimeError` if it does not)."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "notebook_app/server.py",
             "--server.port", str(self.port), "--server.address", "127.0.0.1",
             "--server.headless", "true", "--browser.gatherUsageStats", "false"],
            cwd=self.root, env=self.env, stdout=subprocess.DEVNULL, stderr=self.log,
        )  # a file, not a pipe: a pipe nobody reads fills up and stops the server mid-write
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    self.log.seek(0)
                    err = self.log.read().decode(errors="replace")
                    raise RuntimeError(f"streamlit did not start: {err[-2000:]}") from None
                time.sleep(0.3)

    def kill(self) -> None:
        """``kill -9``: no clean-up of any kind."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)
            self.process = None

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None
