"""The compiled kernels made ready for a server without slowing its screens.

Once after an install or an upgrade numba compiles the kernels (`compiled`, `exclusion_compiled`,
`pins_compiled`): about a minute of CPU, in Python for the most part. Compiled on a thread of
the server, it shared the interpreter's lock with the screens' runs: a tap took 3-13 s instead
of a fraction of one while it compiled. `start` has them compiled in a process of its own,
which writes numba's cache, then loads them in this process from that cache (a third of a
second). Meanwhile a count that needs them waits for them (`wait`, in each ``kernel()``), so
what a count finds never depends on when it ran; the app draws what needs them in a script run
only once they are `ready`, and says so meanwhile.

Where numba's cache already holds them (every start but the first after an install), they
are loaded here at once, as before.

numba keys each kernel's cached machine code on its own file only, yet bakes into it the other
kernels it calls and the constants it reads (`exclusion_kernel.add` in `pins_kernel`,
`residues.TOP`): after an edit or an upgrade that changed one of those alone, the cache would
go on serving the old code. So the cache is kept for one version of all the kernels' sources
(`SOURCES`, a digest stamped beside it): another version's cached kernels are dropped before
any is loaded (`drop_stale`) and compiled again.

Processes share numba's cache, so loading the kernels (compiling those it lacks) is done under
a lock across processes (`held`): a second process that needs them while another compiles them
waits and then loads what the first wrote, rather than compiling the same kernels beside it
(the test runner's workers, two servers started together); and two compiles never update the
same cache index at once (numba reads it, adds an entry and writes it back).
"""

from __future__ import annotations

import hashlib
import logging
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import IO, Any

_started = threading.Event()
_loaded = threading.Event()
_here = threading.local()
"""``preparing``: whether this thread is `start`'s."""
_held = threading.RLock()
"""This process's hold on the kernels' lock (`held`), by one thread at a time, re-entrant."""
_lock_file: list[IO[bytes]] = []
"""The lock file while this process holds it."""


KERNELS = ("kernel", "exclusion_kernel", "pins_kernel")
"""The modules of compiled kernels (numba's cache files start with their names)."""
SOURCES = (*KERNELS, "residues")
"""The modules the compiled kernels are made of: the kernels' own and every module whose
functions or constants they use (`tests/test_odds_compiled.py` checks their imports)."""
STAMP = "kernels.sha256"
"""The file beside numba's cache naming the version of `SOURCES` it holds kernels of."""


def load_all() -> None:
    """Load the three counts' kernels in this process (compiled where numba's cache lacks
    them), the programme's first as the others' warm-ups count with it, and card by card's
    search for its cards' order (`pins.searcher`)."""
    from . import compiled, exclusion_compiled, pins, pins_compiled

    compiled.kernel()
    exclusion_compiled.kernel()
    pins.searcher()
    pins_compiled.kernel()


@contextmanager
def held() -> Iterator[None]:
    """Hold the kernels' lock, across processes where the system has ``flock`` (waiting while
    another process loads or compiles them), for loading them: each count's ``kernel()``.
    Re-entrant within a process."""
    with _held:
        if _lock_file:  # held by this thread already
            yield
            return
        opened = _open_lock()
        if opened is not None:
            _lock_file.append(opened)
        try:
            yield
        finally:
            if opened is not None:
                _lock_file.clear()
                opened.close()  # closing releases the lock


def _open_lock() -> IO[bytes] | None:
    """The lock file beside numba's cache of the kernels, locked (``flock``, waiting for another
    process to let go of it); ``None`` where there is no such lock (no ``fcntl``, no writable
    place): then this process loads them unguarded, as numba alone would."""
    try:
        import fcntl
    except ImportError:
        return None
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256(str(here).encode()).hexdigest()[:16]
    for path in (Path(os.environ.get("NUMBA_CACHE_DIR") or here / "__pycache__") / "kernels.lock",
                 Path(tempfile.gettempdir()) / f"clue-notebook-kernels-{digest}.lock"):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            opened = open(path, "ab")  # noqa: SIM115 (held open while locked: `held` closes it)
        except OSError:
            continue
        try:
            fcntl.flock(opened, fcntl.LOCK_EX)
        except OSError:
            opened.close()
            continue
        return opened
    return None


@cache
def start() -> None:
    """Make the kernels ready on a thread of its own, once per process, where numba is
    installed: compiled in a process of its own (`compile_apart`), then loaded here. A server
    calls this as it starts (the app's first run)."""
    from .compiled import installed

    if not installed():
        return
    _started.set()
    threading.Thread(target=_prepare, name="odds-kernels", daemon=True).start()


def _prepare() -> None:
    _here.preparing = True
    try:
        if uncached():
            compile_apart()
        load_all()
    finally:
        _loaded.set()


def uncached() -> bool:
    """Whether loading the kernels here would compile some: numba's cache on disk has no index
    for a kernel's source as it is (read from numba's own cache objects; anything unexpected
    counts as uncached), or holds another version's (`drop_stale` would drop them). Where numba
    caches nothing (no writable directory), ``False``: a process apart could not hand its
    compile over."""
    try:
        digest = sources_digest()
        caches = list(_caches())
        if any(_stamped(d) != digest for d in {Path(c._cache_path) for c in caches}):
            return True
        if any(not cache._cache_file._load_index() for cache in caches):
            return True
    except Exception:
        logging.getLogger(__name__).warning("numba's cache could not be read", exc_info=True)
        return True
    return False


def _caches() -> Iterator[Any]:
    """numba's cache object of every kernel (none where numba caches nothing)."""
    from importlib import import_module

    from numba.core.dispatcher import Dispatcher

    for name in KERNELS:
        module = import_module(f"{__package__}.{name}")
        for value in vars(module).values():
            if isinstance(value, Dispatcher) and value.py_func.__module__ == module.__name__:
                cache = getattr(value, "_cache", None)
                if hasattr(cache, "_cache_path") and hasattr(cache, "_cache_file"):
                    yield cache


def sources_digest() -> str:
    """A digest of the sources of every module in `SOURCES`."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update((here / f"{name}.py").read_bytes())
    return digest.hexdigest()


@cache
def drop_stale() -> None:
    """Once per process, before a kernel is loaded (under `held`): drop from numba's cache
    every kernel cached from another version of `SOURCES`, so that they compile again."""
    try:
        digest = sources_digest()
        for directory in {Path(cache._cache_path) for cache in _caches()}:
            drop_stale_in(directory, digest)
    except OSError:
        logging.getLogger(__name__).warning("numba's cache could not be checked", exc_info=True)


def drop_stale_in(directory: Path, digest: str) -> bool:
    """In one cache ``directory``: unless it is stamped with ``digest``, delete the kernels'
    cache files (`KERNELS`: ``<module>.<function>-<line>.pyXY[.N].nbi/.nbc``) and stamp it;
    whether any was stale."""
    if _stamped(directory) == digest:
        return False
    for name in KERNELS:
        for path in [*directory.glob(f"{name}.*.nbi"), *directory.glob(f"{name}.*.nbc")]:
            path.unlink(missing_ok=True)
    stamp = directory / STAMP
    fresh = stamp.with_suffix(f".{os.getpid()}.tmp")
    fresh.write_text(digest + "\n", encoding="utf-8")
    fresh.replace(stamp)
    return True


def _stamped(directory: Path) -> str | None:
    try:
        return (directory / STAMP).read_text(encoding="utf-8").strip()
    except OSError:
        return None


def compile_apart() -> bool:
    """Load the kernels in a process of its own (`load_all`), which compiles those numba's
    cache lacks into it; whether it succeeded. Where it fails (no process
    may start, numba cannot write its cache), this process compiles them itself when loading.

    That process ends with this one (`_load_all_apart`): a server stopped (SIGTERM, SIGKILL)
    or a test run interrupted while it compiles leaves no compile running on."""
    root = Path(__file__).resolve().parents[2]
    path = os.pathsep.join(filter(None, (str(root), os.environ.get("PYTHONPATH"))))
    with tempfile.TemporaryFile() as err:  # a file, not a pipe: nothing reads it meanwhile
        try:
            child = subprocess.Popen([sys.executable, "-c", "from solver.odds import warm; "
                                      "warm._load_all_apart()"], cwd=root,
                                     env={**os.environ, "PYTHONPATH": path},
                                     stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                     stderr=err)
        except OSError:
            logging.getLogger(__name__).warning("the odds kernels could not compile apart",
                                                exc_info=True)
            return False
        assert child.stdin is not None
        try:
            returncode = child.wait()
        finally:  # its end of the pipe: where this thread stops waiting early, the child ends
            child.stdin.close()
        if returncode != 0:
            err.seek(0)
            logging.getLogger(__name__).warning(
                "the odds kernels did not compile apart: %s",
                err.read().decode(errors="replace")[-2000:])
    return returncode == 0


def _load_all_apart() -> None:
    """`compile_apart`'s process: `load_all`, ending at once when its standard input ends,
    which is when the process that started it ends, however it ends (its end of the pipe is
    closed with it), or stops waiting. Its cache files are written whole or not at all (numba
    writes each to a temporary file and renames it)."""

    def orphaned() -> None:
        while os.read(0, 4096):  # nothing is written: this returns at the end of input
            pass  # (the raw descriptor: sys.stdin's lock, held here, would stop the exit)
        os._exit(1)

    threading.Thread(target=orphaned, name="parent-gone", daemon=True).start()
    load_all()


def wait() -> None:
    """Where `start` is making the kernels ready, wait until they are (each count's
    ``kernel()`` calls this first: loading them meanwhile would compile them here too); else
    return at once."""
    if _started.is_set() and not getattr(_here, "preparing", False):
        _loaded.wait()


def ready() -> bool:
    """Whether nothing waits for the kernels any more: `start` was not called (a command, a
    test), or they are loaded (or failed to load: the counts then count in Python)."""
    return not _started.is_set() or _loaded.is_set()

