"""What Streamlit's file watcher costs a server of the app.

With ``server.fileWatcherType`` other than ``none``, every session keeps a watcher of the source
files of the modules it has loaded: after its first run, and after any run that loaded a module,
it walks every module in ``sys.modules`` (the app loads about 1,900: pandas, pyarrow, numba...)
to find those under the app's folder. Streamlit does this on the server's event loop, which
serves every session's websocket meanwhile.

This loads the modules the app loads (a six-player game opened through `AppTest` on each tab,
its odds counted), then times the walk of a fresh watcher, as each new session does, in CPU
time of this thread (the machine is shared: wall-clock time would measure the neighbours).

    python benchmarks/bench_watcher.py
"""

from __future__ import annotations

import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 15


def load_the_apps_modules(database: Path) -> None:
    from streamlit.testing.v1 import AppTest

    from notebook_app.store import DB_ENV, Store
    from solver.logfile import load

    os.environ[DB_ENV] = str(database)
    game_id = Store(database).create(
        load(ROOT / "examples" / "classic-six-players.json").upto(20), "shelf")
    at = AppTest.from_file(str(ROOT / "notebook_app" / "app.py"), default_timeout=300)
    at.session_state["shelf"] = "shelf"
    at.session_state["game_id"] = game_id
    at.run()
    for view in ("Grid", "Review", "Log", "Game", "Turn"):
        at.segmented_control(key="view").set_value(view).run()
    at.session_state["live"].odds()


def main() -> None:
    logging.disable(logging.WARNING)  # AppTest's "no ScriptRunContext" notes
    with tempfile.TemporaryDirectory() as folder:
        load_the_apps_modules(Path(folder) / "games.sqlite3")
    from streamlit import config
    from streamlit.watcher.local_sources_watcher import LocalSourcesWatcher

    class Pages:  # what the watcher asks of a session's pages
        main_script_path = str(ROOT / "notebook_app" / "app.py")

        def get_pages(self) -> dict[str, dict[str, str]]:
            return {"main": {"script_path": self.main_script_path}}

    config.set_option("server.fileWatcherType", "auto")
    costs, watched = [], 0
    for _ in range(ROUNDS):
        watcher = LocalSourcesWatcher(Pages())  # type: ignore[arg-type]
        start = time.thread_time()
        watcher.update_watched_modules()
        costs.append(time.thread_time() - start)
        watched = len(watcher._watched_modules)
        watcher.close()
    print(f"load average {os.getloadavg()[0]:.1f}; {len(sys.modules)} modules loaded")
    median = statistics.median(costs) * 1000
    print(f"a new session's walk (fileWatcherType auto): median {median:.0f} ms CPU, max "
          f"{max(costs) * 1000:.0f} ms, over {ROUNDS} sessions; {watched} files watched per "
          "session")
    print("fileWatcherType none: no watcher, no walk (0 ms)")


if __name__ == "__main__":
    main()
