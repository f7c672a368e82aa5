"""A game in play: its log, the incremental notebook, and the envelope count, kept in step.

Appending an event is incremental (one more selector for each solver); editing or deleting one
rebuilds both solvers from the log, which stays the only source of truth. A contradictory log
is never a dead end: the grid is shown without some clashing events, and says which: the entry
the player last recorded or edited where it clashes (`LiveGame.changes`), else the latest.

The envelope count follows the log beside the script runs (`LiveGame.envelopes_left`): at a
12-player table one event costs it hundreds of SAT calls, 0.1-1.2 s, which the Record run spent
before it drew the fresh form.

The odds are counted beside the script runs (`notebook_app.odds_count`), so the grid is drawn
while they are counted (seconds on the largest decks); the count of a log state that is no
longer shown is stopped.

The solvers' work stops when the run that asked for it is stopped (`work_unwanted`, installed
as `solver.limits.stop_when`): a closed tab stops its count or its odds at the next unit of work
instead of finishing them for nobody. So does a run cut short by the next one: a tap during a
run stops it and starts the next run at once, on another thread, with the same session state.
The stopped run goes on until its next unit of work, so one `LiveGame` serves one thread at a
time, and a change to it that was stopped halfway is mended before it is used again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import wraps
from typing import Concatenate, ParamSpec, TypeVar

from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

from solver import limits
from solver.envelopes import EnvelopeCounter
from solver.errors import ContradictionError
from solver.explain import Conflict, Explainer, explain_clash
from solver.game import Event, GameLog
from solver.i18n import _
from solver.notebook import Grid, Notebook

from .odds_count import Beside, CellOdds, OddsCount, aside, counting_here

P = ParamSpec("P")
T = TypeVar("T")
Changes = Callable[[], Sequence[int]]


def session_ended() -> bool:
    """Whether this thread runs a script run that has been told to stop: its tab closed or
    disconnected, or a tap asked for the next run (which starts at once on another thread).
    ``False`` outside a Streamlit script run.

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
    (`OddsCount.unwanted`), or a script run that was stopped (`session_ended`; also where the
    count works in the run itself, no thread having started)."""
    count = counting_here()
    return (count is not None and count.checkpoint()) or session_ended()


limits.stop_when(work_unwanted)


def common_prefix(old: tuple[Event, ...], new: tuple[Event, ...]) -> int:
    """How many events ``old`` and ``new`` share from the first."""
    return next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
                min(len(old), len(new)))


def speaks(explainer: Explainer, addressed: bool) -> bool:
    """Whether ``explainer`` words its steps as asked: to the notebook's own player as "you"
    (``addressed``), or naming them (a read link's reader)."""
    return explainer.words.addressed == addressed


def one_at_a_time(method: Callable[Concatenate[LiveGame, P], T]
                   ) -> Callable[Concatenate[LiveGame, P], T]:
    """A `LiveGame` method run by one thread at a time, on solvers that are whole: a run
    stopped by the next one finishes its unit of work first (`LiveGame.torn` says whether a
    change was stopped halfway; it is mended here before anything else uses the solvers). On
    a closed game, `solver.limits.Stopped`: only a stopped run still holds one."""

    @wraps(method)
    def run(self: LiveGame, /, *args: P.args, **kwargs: P.kwargs) -> T:
        with self._turn:
            if self._closed:
                raise limits.Stopped
            if self.torn and method.__name__ != "replace":  # (replace builds them anew)
                self._rebuild(self.log)
                self.mended = True
            return method(self, *args, **kwargs)

    return run


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

    def __init__(self, log: GameLog, changes: Changes = lambda: ()) -> None:
        self.log = log
        self.changes = changes
        """Reads the entries (1-based) of `log` the player recorded or edited, the latest
        change first (`notebook_app.store.Store.changes`): the likely mistakes when the log
        clashes. Read once per log state, only while it clashes (`grid`)."""
        self.notebook = Notebook(log.game, log.events)
        self.counter = EnvelopeCounter(log.game, log.events)
        self._counted = log.events
        """The events the envelope count has counted (`_count_up`)."""
        self._counting = threading.Lock()
        """Held by whatever thread uses the envelope count (`_count_up`)."""
        self._envelopes: Beside[int] | None = None
        self._took: dict[str, float] = {}
        """Seconds the odds and the envelope count took for the log state before
        (`odds_count.Beside.expected`): a run does not wait for work that will take longer."""
        self._grid: tuple[Grid, tuple[int, ...]] | None = None
        self._conflict: tuple[int, ...] | None = None
        self._clashes: dict[tuple[Event, int | None], tuple[int, ...]] = {}
        """`clash` of each entry tried on this log state."""
        self._whys: dict[tuple[Event, int | None], Conflict] = {}
        """`why_clash` of each entry tried on this log state."""
        self._explainer: Explainer | None = None
        self._odds: OddsCount | None = None
        self.odds_wanted = False
        """Whether odds were asked for in this game: a new log state's are then counted at
        once (`count_odds`), wherever the player is, to be ready when the Grid shows."""
        self._grids_at: dict[int, Grid | None] = {}
        self._past: tuple[int, Notebook, Explainer] | None = None
        self._turn = threading.RLock()
        self._closed = False
        self.torn = False
        """Whether a change (`append`, `replace`) was stopped halfway: the solvers may hold
        part of it. The next use builds them again from `log`, which a change sets last; the
        change may have been saved already: `notebook_app.session.follow` reloads the game."""
        self.mended = False
        """Whether the solvers were built again from `log` after a stopped change, so the game
        may be behind the revision shown: `notebook_app.session.follow` reloads it."""

    def close(self) -> None:
        """Free the solvers (once: a run stopped meanwhile finds the game closed)."""
        with self._turn:
            if self._closed:
                return
            self._closed = True
            self._forget()
            self.notebook.close()
            with self._count_held():  # (a count beside stops at its next unit of work)
                self.counter.close()

    def _rebuild(self, log: GameLog) -> None:
        """Solvers built anew for ``log`` (if stopped meanwhile, the old ones stay, torn)."""
        notebook = Notebook(log.game, log.events)
        try:
            counter = EnvelopeCounter(log.game, log.events)
        except BaseException:
            notebook.close()
            raise
        self._forget()
        self._grids_at = {}
        self.notebook.close()
        with self._count_held():
            self.counter.close()
            self.counter, self._counted = counter, log.events
        self.notebook, self.log = notebook, log
        self.torn = False

    def _forget(self, kept: int = 0) -> None:
        """Drop what was derived from the previous events (grids after the first ``kept``
        events, which stay the same, excepted)."""
        if self._odds is not None:
            self._odds.cancel()
            self._took["odds"] = self._odds.expected()
        if self._envelopes is not None:  # (not stopped: the next log's count goes on from it)
            self._took["envelopes"] = self._envelopes.expected()
            if self._closed or kept == 0:
                self._envelopes.cancel()
        self._grid = self._conflict = self._odds = self._envelopes = None
        self._clashes, self._whys = {}, {}
        self._grids_at = {n: grid for n, grid in self._grids_at.items() if n <= kept}
        if self._explainer is not None:
            self._explainer.close()
            self._explainer = None
        if self._past is not None:
            self._past[2].close()
            self._past[1].close()
            self._past = None

    @one_at_a_time
    def append(self, event: Event) -> None:
        """Record one more event (already validated)."""
        self._append(event)

    def _append(self, event: Event) -> None:
        self.torn = True
        self.notebook.record(event)
        self._forget(kept=len(self.log.events))
        self.log = self.log.append(event)
        self.torn = False

    @one_at_a_time
    def replace(self, log: GameLog, changes: Changes = lambda: ()) -> LiveGame:
        """This game with ``log`` instead, ``changes`` reading its entries last written
        (`changes`): the same `LiveGame`, so that a run stopped while it works on it holds no other
        (another setup, or solvers torn by a stopped change: built anew for ``log``).

        Events after the common prefix are replayed: appending costs one event; undo, edit or
        delete rebuild the notebook (cheap); the envelope count follows (`envelopes_left`).
        """
        if log.game != self.log.game or self.torn:
            self._rebuild(log)
            self.changes, self.mended = changes, False
            return self
        old = self.log.events
        common = common_prefix(old, log.events)
        self._forget(kept=common)
        if common < len(old):
            self.torn = True
            notebook = Notebook(log.game, log.events[:common])
            self.notebook.close()
            self.notebook = notebook
            self.log = log.upto(common)
            self.torn = False
        for event in log.events[common:]:
            self._append(event)
        self.log, self.changes = log, changes
        self.mended = False
        return self

    @property
    @one_at_a_time
    def conflict(self) -> tuple[int, ...]:
        """A minimal set of clashing events (1-based), or ``()`` when the log is consistent."""
        if self._conflict is None:
            self._conflict = self.notebook.conflict()
        return self._conflict

    @property
    @one_at_a_time
    def triples_left(self) -> int:
        """Envelope triples still possible (0 when the log is contradictory), counted here if
        the count beside the runs has not (`envelopes_left`)."""
        with self._count_held():
            return self._count_up(self.log.events)

    @property
    @one_at_a_time
    def counts(self) -> list[int]:
        """Envelope triples possible before any event, then after each (the Review screen's).
        The first call works them out in the envelope count (`EnvelopeCounter.counts`: 0.3-0.4 s
        of CPU at a 12-player table of 60 events); a stop leaves the count as it was,
        and the next call works them out again."""
        with self._count_held():
            self._count_up(self.log.events)
            return self.counter.counts

    @contextmanager
    def _count_held(self) -> Iterator[None]:
        """The envelope count, for this thread alone; a script run that waits for the count
        beside it meanwhile draws nothing, and that count does not give way to it (`aside`)."""
        if not self._counting.acquire(blocking=False):
            with aside():
                self._counting.acquire()
        try:
            yield
        finally:
            self._counting.release()

    def _count_up(self, events: tuple[Event, ...]) -> int:
        """The envelope count brought to ``events`` (the lock `_counting` held): back to what
        it shares with them, then one event at a time; how many triples are still possible."""
        common = common_prefix(self._counted, events)
        if common < len(self._counted):
            self.counter.truncate(common)
            self._counted = self._counted[:common]
        for event in events[common:]:
            self.counter.push(event)  # (stopped: the events before it stay counted)
            self._counted = (*self._counted, event)
        return self.counter.count

    def _count_beside(self, events: tuple[Event, ...]) -> int:
        """`_count_up`, on a thread beside the runs."""
        with self._counting:
            limits.checkpoint()  # (stopped while it waited: the game closed, or built anew)
            if self._closed:
                raise limits.Stopped
            return self._count_up(events)

    @one_at_a_time
    def count_envelopes(self) -> Beside[int]:
        """The envelope count of the current log state, started on a thread of its own if it
        was not (once per log state; again if it stopped). The count of the state before, if
        it still goes on, is not stopped: this one goes on from where it ends. It goes ahead
        of the other work beside the runs (`Beside`'s ``ahead``), as when the Record run made
        it: the verdict is the line the player reads first."""
        if self._envelopes is None or self._envelopes.stopped:
            events = self.log.events
            self._envelopes = Beside(lambda: self._count_beside(events), session_gone(),
                                     name="envelopes", ahead=True,
                                     expect=self._took.get("envelopes", 0))
        return self._envelopes

    def envelopes_left(self, wait: float = 0) -> int | None:
        """Envelope triples still possible after the current log state, once the count beside
        the runs has them (waiting up to ``wait`` seconds, within the run's one wait:
        `odds_count.Beside.ready`), else ``None``; a count that failed raises here."""
        if self._counting.acquire(blocking=False):  # counted already (opened, undone): here
            try:
                if self._counted == self.log.events:
                    return self.counter.count
            finally:
                self._counting.release()
        count = self.count_envelopes()
        return count.result() if count.ready(wait) else None

    @one_at_a_time
    def grid(self) -> tuple[Grid, tuple[int, ...]]:
        """The current grid and the events left out to get past contradictions (usually none).

        While the log clashes, one event of a minimal conflict is left out, until what remains
        is consistent: of its entries the one the player recorded or edited last (`changes`: an
        early entry edited wrongly clashes with every later one that contradicts it; they stay,
        also once more entries are recorded after it), else the latest.
        """
        if self._grid is None:
            ignored: list[int] = []
            conflict = self.conflict
            written = self.changes() if conflict else ()
            while conflict:
                ignored.append(next((n for n in written if n in conflict), max(conflict)))
                conflict = self.notebook.conflict(without=ignored)
            self._grid = (self.notebook.grid(without=ignored), tuple(sorted(ignored)))
        return self._grid

    @one_at_a_time
    def clash(self, event: Event, at: int | None = None) -> tuple[int, ...]:
        """The entries (1-based) a minimal conflict holds if ``event`` is recorded: added, or in
        place of entry ``at`` (an edit); ``event`` is among them, numbered ``at`` or as the next
        entry. ``()`` when it fits. Tried on the log as the grid reads it (past a clash, without
        the entries it leaves out), but an edit on every other entry when they fit together
        (the edit may mend the clash). Worked out once per log state and entry (the form's
        reruns ask again): one SAT call when it fits."""
        key = (event, at)
        if key not in self._clashes:
            ignored = self.grid()[1]
            if ignored and at is not None and self.notebook.consistent(without=(at,)):
                ignored = ()
            self._clashes[key] = self.notebook.conflict_with(event, at, ignored)
        return self._clashes[key]

    @one_at_a_time
    def why_clash(self, event: Event, at: int | None = None) -> str | None:
        """Why `clash` finds ``event`` clashing, step by step (``None`` if it fits): the banner's
        explanation (`why_conflict`) of the log with ``event`` recorded, on a notebook of its
        own. Once per log state and entry."""
        found = self.clash(event, at)
        key = (event, at)
        if found and key not in self._whys:
            events = list(self.log.events)
            if at is None:
                events.append(event)
            else:
                events[at - 1] = event
            with Notebook(self.log.game, events) as notebook:
                self._whys[key] = explain_clash(notebook, found)
        return self._whys[key].text(heading=False) if found else None  # (the warning says
        # which entries clash; "no deal fits the log" would read as if it were recorded)

    @one_at_a_time
    def grid_at(self, upto: int) -> Grid | None:
        """The grid after the first ``upto`` events, or ``None`` if they already clash; computed
        once per log state (the Review tab asks again on every rerun)."""
        if upto not in self._grids_at:
            try:
                self._grids_at[upto] = self.notebook.grid(upto=upto)
            except ContradictionError:
                self._grids_at[upto] = None
        return self._grids_at[upto]

    @one_at_a_time
    def explain(self, card: str, owner: str, *, addressed: bool = True) -> str:
        """Why the grid shows what it shows for one cell, as lines to read. While the log
        clashes, says to fix that first. Not ``addressed`` (a read link's reader), the
        notebook's own player is named, not "you"."""
        if self.conflict:  # (a reader cannot fix it)
            return (_("The log has a contradiction: fix it first, then every cell can be "
                      "explained.") if addressed else
                    _("The log has a contradiction: once it is fixed, every cell can be "
                      "explained."))
        if self._explainer is not None and not speaks(self._explainer, addressed):
            self._explainer.close()
            self._explainer = None
        if self._explainer is None:
            self._explainer = Explainer(self.notebook, grid=self.grid()[0], lazy=True,
                                        addressed=addressed)
        return self._explainer.cell(card, owner).text()

    @one_at_a_time
    def explain_at(self, upto: int, card: str, owner: str, *, addressed: bool = True) -> str:
        """Why the grid after the first ``upto`` events shows what it shows for one cell (the
        Review screen's grid); the explainer of the step last asked for is kept."""
        if upto >= len(self.log.events):
            return self.explain(card, owner, addressed=addressed)
        if self.grid_at(upto) is None:
            return _("The events up to here contradict each other.")
        if (self._past is None or self._past[0] != upto
                or not speaks(self._past[2], addressed)):
            if self._past is not None:
                self._past[2].close()
                self._past[1].close()
                self._past = None
            notebook = Notebook(self.log.game, self.log.events[:upto])
            self._past = (upto, notebook, Explainer(notebook, grid=self.grid_at(upto),
                                                   lazy=True, addressed=addressed))
        return self._past[2].cell(card, owner).text()

    @one_at_a_time
    def why_conflict(self, *, addressed: bool = True) -> str | None:
        """Why the clashing events cannot all be true, step by step (``None`` if consistent);
        ``addressed`` as for `explain`."""
        if not self.conflict:
            return None
        if self._explainer is not None and not speaks(self._explainer, addressed):
            self._explainer.close()
            self._explainer = None
        if self._explainer is None:
            self._explainer = Explainer(self.notebook, addressed=addressed)
        found = self._explainer.conflict()
        return None if found is None else found.text()

    @one_at_a_time
    def count_odds(self) -> OddsCount:
        """The count of the current log state's odds, started on a thread of its own if it was
        not: once per log state (again only if it stopped because its session ended)."""
        self.odds_wanted = True
        if self._odds is None or self._odds.stopped:
            self._odds = OddsCount(self.log, None if self.conflict else self.grid()[0],
                                   session_gone(), expect=self._took.get("odds", 0))
        return self._odds

    def odds_counted(self, wait: float = 0) -> bool:
        """Whether the current log state's odds are ready, waiting up to ``wait`` seconds for
        them within the run's one wait (`odds_count.Beside.ready`; their count starts if it
        had not)."""
        return self.count_odds().ready(wait)

    def odds(self) -> CellOdds | None:
        """Probabilities of the current grid (``None`` while the log clashes), waiting until
        they are counted; counted once per log state. A count that failed raises here, and the
        next call counts again."""
        count = self.count_odds()
        try:
            return count.result()
        except Exception:
            with self._turn:  # (unless another run has started a new count meanwhile)
                if self._odds is count:
                    self._odds = None
            raise
