"""A throwaway PostgreSQL server for the tests: Debian's ``postgresql`` binaries, a data folder
of its own under /tmp, no TCP at all (a Unix socket in that folder), ``fsync`` off.

``scripts/test`` installs the package when run as root (``ensure_postgresql`` in
``scripts/_bootstrap.sh``). As root the server runs as the ``postgres`` user (PostgreSQL refuses
root). Each test gets a database of its own (`PostgresServer.new_database`). Set
``CLUE_TEST_POSTGRES_URL`` to use a server of your own instead (a URL to an empty database the
tests may fill and empty).

``pg_ctl`` starts the server in a session of its own, where no signal to the tests' process
group reaches it: a test process killed before its teardown (SIGKILL, or xdist ending a worker
with ``os._exit``) used to leave the server running, reparented to init. So each server has a
watchdog (this file run as a script, in a session of its own too) that waits for the end of the
process that started the server, however it ends, then stops the server and deletes its files;
`PostgresServer.stop` has it do so at once.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path


def find_bin() -> tuple[Path | None, str]:
    """The folder with ``initdb``, ``pg_ctl`` and ``postgres``, or ``None`` and why not."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                   key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit()
                   else 0)
    if found:
        return found[-1].parent, ""
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).resolve().parent, ""
    return None, ("PostgreSQL is not installed (apt-get install postgresql; scripts/test does "
                  "it as root)")


class PostgresServer:
    """One server for the test session; `stop` ends it and removes its files."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.folder = Path(tempfile.mkdtemp(prefix="clue-pg-"))
        self.data = self.folder / "data"
        self.user: str | None = None
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError as err:
                raise RuntimeError("running as root needs the 'postgres' user "
                                   "(Debian's postgresql package adds it)") from err
            self.user = "postgres"
            shutil.chown(self.folder, "postgres", "postgres")
        self.folder.chmod(0o700)
        self._watchdog, self._held = self._watch()
        try:
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust",
                      "--no-sync", "-E", "UTF8", "--locale=C")
            options = f"-k {self.folder} -c listen_addresses='' -c fsync=off " \
                      "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
            self._run("pg_ctl", "start", "-D", str(self.data), "-w", "-t", "60", "-s",
                      "-l", str(self.folder / "server.log"), "-o", options)
        except BaseException:
            self.stop()
            raise

    def _command(self, tool: str, *args: str) -> list[str]:
        command = [str(self.bindir / tool), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return command

    def _run(self, tool: str, *args: str) -> None:
        done = subprocess.run(self._command(tool, *args), capture_output=True, text=True,
                              timeout=120, check=False, cwd=self.folder)
        if done.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-1500:] if log.exists() else ""
            raise RuntimeError(f"{tool} failed ({done.returncode}): "
                               f"{(done.stderr or done.stdout).strip()[-1500:]}\n{tail}")

    def _watch(self) -> tuple[subprocess.Popen[bytes], int]:
        """The watchdog, and the end of its stdin this process holds: that end closes when
        this process ends, however it ends (the programs it starts do not inherit it), and the
        watchdog then reads the end of its input."""
        watched, held = os.pipe()
        stop = self._command("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-s")
        try:
            watchdog = subprocess.Popen(
                [sys.executable, __file__, str(self.folder), *stop], stdin=watched,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        except BaseException:
            os.close(held)
            raise
        finally:
            os.close(watched)
        return watchdog, held

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of one of its databases."""
        return f"postgresql+psycopg://postgres@/{database}?host={self.folder}"

    def new_database(self) -> str:
        """A new empty database; returns its URL."""
        import sqlalchemy as sa

        name = "t_" + uuid.uuid4().hex[:12]
        engine = sa.create_engine(self.url(), isolation_level="AUTOCOMMIT")
        with engine.connect() as db:
            db.exec_driver_sql(f'CREATE DATABASE "{name}"')
        engine.dispose()
        return self.url(name)

    def stop(self) -> None:
        """Stop the server at once and delete its files: the watchdog's work, done now."""
        if self._watchdog.returncode is None:
            os.close(self._held)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._watchdog.wait(timeout=150)


def watch(folder: Path, stop: list[str]) -> None:
    """The watchdog: once stdin ends, run the command ``stop`` in ``folder`` (``pg_ctl stop``,
    which fails harmlessly where no server runs) and delete the folder."""
    sys.stdin.buffer.read()
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        subprocess.run(stop, cwd=folder, capture_output=True, timeout=120, check=False)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    watch(Path(sys.argv[1]), sys.argv[2:])
