"""A game in play: its log, the incremental notebook, and the envelope count, kept in step.

Appending an event is incremental (one more selector for each solver); editing or deleting one
rebuilds both solvers from the log, which stays the only source of truth. A contradictory log is
never a dead end: the grid is shown without the latest clashing events, and says which.

The odds are counted beside the script runs (`notebook_app.odds_count`), so the grid is drawn
while they are counted (seconds on the largest decks); the count of a log state that is no
longer shown is stopped.

The solvers' work stops when the session that asked for it ends (`work_unwanted`, installed as
`solver.limits.stop_when`): a closed tab stops its count or its odds at the next unit of work
instead of finishing them for nobody.
"""

from __future__ import annotations

from collections.abc import Callable

from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from solver import limits
from solver.envelopes import EnvelopeCounter
from solver.errors import ContradictionError
from solver.explain import Explainer
from solver.game import Event, GameLog
from solver.i18n import _
from solver.notebook import Grid, Notebook

from .odds_count import CellOdds, OddsCount, counting_here


def session_ended() -> bool:
    """Whether this thread runs the script of a session that has been told to stop (its tab
    closed or it disconnected). ``False`` outside a Streamlit script run.

    >>> session_ended()
    False
    """
    ctx = get_script_run_ctx(suppress_warning=True)
    requests = None if ctx is None else ctx.script_requests
    # Streamlit keeps the request in a private field; read defensively, never stop by mistake.
    return getattr(requests, "_state", None) is ScriptRequestType.STOP


def session_active(session: str) -> bool:
    """Whether the session ``session`` (an id) is still connected; ``True`` where no Streamlit
    server runs (a test's `AppTest`)."""
    return not Runtime.exists() or Runtime.instance().is_active_session(session)


def session_gone() -> Callable[[], bool]:
    """For work started beside this script run: whether the session that asked for it has
    ended (never, outside a Streamlit run)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    session = None if ctx is None else ctx.session_id
    return lambda: session is not None and not session_active(session)


def work_unwanted() -> bool:
    """Whether the work on this thread should stop: a count of odds no longer wanted
    (`OddsCount.unwanted`), else a script run whose session ended (`session_ended`)."""
    count = counting_here()
    return count.checkpoint() if count is not None else session_ended()


limits.stop_when(work_unwanted)


class LiveGame:
    """The solvers behind one open game. Keep one per session (it holds per-user data).

    >>> from solver.logfile import loads
    >>> log = loads('''{"format": "clue-notebook/1",
    ...   "cards": {"suspects": ["Plum", "Green"], "weapons": ["Rope"], "rooms": ["Hall"]},
    ...   "players": [{"name": "Ann", "hand_size": 1}, {"name": "Bob", "hand_size": 0}],
    ...   "events": []}''')
    >>> live = LiveGame(log)
    >>> live.triples_left
    2
    """

    def __init__(self, log: GameLog) -> None:
        self.log = log
        self.notebook = Notebook(log.game, log.events)
        self.counter = EnvelopeCounter(log.game, log.events)
        self._grid: tuple[Grid, tuple[int, ...]] | None = None
        self._conflict: tuple[int, ...] | None = None
        self._explainer: Explainer | None = None
        self._odds: OddsCount | None = None
        self.odds_wanted = False
        """Whether odds were asked for in this game: a new log state's are then counted at
        once (`count_odds`), wherever the player is, to be ready when the Grid shows."""
        self._grids_at: dict[int, Grid | None] = {}
        self._past: tuple[int, Notebook, Explainer] | None = None

    def close(self) -> None:
        """Free the solvers."""
        self._forget()
        self.notebook.close()
        self.counter.close()

    def _forget(self, kept: int = 0) -> None:
        """Drop what was derived from the previous events (grids after the first ``kept``
        events, which stay the same, excepted)."""
        if self._odds is not None:
            self._odds.cancel()
        self._grid = self._conflict = self._odds = None
        self._grids_at = {n: grid for n, grid in self._grids_at.items() if n <= kept}
        if self._explainer is not None:
            self._explainer.close()
            self._explainer = None
        if self._past is not None:
            self._past[2].close()
            self._past[1].close()
            self._past = None

    def append(self, event: Event) -> None:
        """Record one more event (already validated)."""
        self.notebook.record(event)
        self.counter.push(event)
        self._forget(kept=len(self.log.events))
        self.log = self.log.append(event)

    def replace(self, log: GameLog) -> LiveGame:
        """This game with ``log`` instead (same setup: incremental; else a fresh `LiveGame`).

        Events after the common prefix are replayed: appending costs one event; undo, edit or
        delete rebuild the notebook (cheap) and rewind the envelope count to the prefix.
        """
        if log.game != self.log.game:
            self.close()
            fresh = LiveGame(log)
            fresh.odds_wanted = self.odds_wanted
            return fresh
        old = self.log.events
        common = next(
            (i for i, (a, b) in enumerate(zip(old, log.events, strict=False)) if a != b),
            min(len(old), len(log.events)),
        )
        self._forget(kept=common)
        if common < len(old):
            self.notebook.close()
            self.notebook = Notebook(log.game, log.events[:common])
            self.counter.truncate(common)
        self.log = log.upto(common)
        for event in log.events[common:]:
            self.append(event)
        self.log = log
        return self

    @property
    def conflict(self) -> tuple[int, ...]:
        """A minimal set of clashing events (1-based), or ``()`` when the log is consistent."""
        if self._conflict is None:
            self._conflict = self.notebook.conflict()
        return self._conflict

    @property
    def triples_left(self) -> int:
        """Envelope triples still possible (0 when the log is contradictory)."""
        return self.counter.count

    def grid(self) -> tuple[Grid, tuple[int, ...]]:
        """The current grid and the events left out to get past contradictions (usually none).

        While the log clashes, the latest event of a minimal conflict is left out, until what
        remains is consistent.
        """
        if self._grid is None:
            ignored: list[int] = []
            conflict = self.conflict
            while conflict:
                ignored.append(max(conflict))
                conflict = self.notebook.conflict(without=ignored)
            self._grid = (self.notebook.grid(without=ignored), tuple(sorted(ignored)))
        return self._grid

    def grid_at(self, upto: int) -> Grid | None:
        """The grid after the first ``upto`` events, or ``None`` if they already clash; computed
        once per log state (the Review tab asks again on every rerun)."""
        if upto not in self._grids_at:
            try:
                self._grids_at[upto] = self.notebook.grid(upto=upto)
            except ContradictionError:
                self._grids_at[upto] = None
        return self._grids_at[upto]

    def explain(self, card: str, owner: str) -> str:
        """Why the grid shows what it shows for one cell, as lines to read. While the log
        clashes, says to fix that first."""
        if self.conflict:
            return _("The log has a contradiction: fix it first, then every cell can be "
                     "explained.")
        if self._explainer is None:
            self._explainer = Explainer(self.notebook, grid=self.grid()[0], lazy=True)
        return self._explainer.cell(card, owner).text()

    def explain_at(self, upto: int, card: str, owner: str) -> str:
        """Why the grid after the first ``upto`` events shows what it shows for one cell (the
        Review screen's grid); the explainer of the step last asked for is kept."""
        if upto >= len(self.log.events):
            return self.explain(card, owner)
        if self.grid_at(upto) is None:
            return _("The events up to here contradict each other.")
        if self._past is None or self._past[0] != upto:
            if self._past is not None:
                self._past[2].close()
                self._past[1].close()
            notebook = Notebook(self.log.game, self.log.events[:upto])
            self._past = (upto, notebook, Explainer(notebook, grid=self.grid_at(upto),
                                                   lazy=True))
        return self._past[2].cell(card, owner).text()

    def why_conflict(self) -> str | None:
        """Why the clashing events cannot all be true, step by step (``None`` if consistent)."""
        if not self.conflict:
            return None
        if self._explainer is None:
            self._explainer = Explainer(self.notebook)
        found = self._explainer.conflict()
        return None if found is None else found.text()

    def count_odds(self) -> OddsCount:
        """The count of the current log state's odds, started on a thread of its own if it was
        not: once per log state (again only if it stopped because its session ended)."""
        self.odds_wanted = True
        if self._odds is None or self._odds.stopped:
            self._odds = OddsCount(self.log, None if self.conflict else self.grid()[0],
                                   session_gone())
        return self._odds

    def odds_counted(self, wait: float = 0) -> bool:
        """Whether the current log state's odds are ready, waiting up to ``wait`` seconds for
        them (their count starts if it had not)."""
        return self.count_odds().done(wait)

    def odds(self) -> CellOdds | None:
        """Probabilities of the current grid (``None`` while the log clashes), waiting until
        they are counted; counted once per log state. A count that failed raises here, and the
        next call counts again."""
        count = self.count_odds()
        try:
            return count.result()
        except Exception:
            self._odds = None
            raise
