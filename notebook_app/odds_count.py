"""The grid's odds and the race line, worked out on a thread beside the app's script runs.

An exact count takes seconds on the largest decks (a 12-player game of 45 cards); counted in a
script run it froze the screen. Each log state's odds are counted on a thread of their own
(`OddsCount`), stopped at the count's next unit of work once nobody wants them (the log
changed, the game closed, the session ended); so is the race line (`Beside`, a second or more
at a 12-player table). The compiled loops of the count let go of the
interpreter's lock; its Python parts share it with the script runs, so while a count runs a
script run takes longer (docs/odds-measurements.md, "The app counts beside the screen").

What is counted depends only on the log (the counts have budgets of work, not of time); only
when the odds are ready depends on the machine.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Generic, TypeVar

from solver.errors import ContradictionError
from solver.game import GameLog
from solver.limits import Stopped
from solver.notebook import Grid
from solver.odds import odds as deal_odds

T = TypeVar("T")


@dataclass(frozen=True)
class CellOdds:
    """Probabilities for the grid, from `solver.odds`, as the screen shows them."""

    probabilities: dict[str, dict[str, float]]
    """card -> owner -> probability that the owner holds the card."""
    exact: bool
    """False when the engine had to sample (very large custom games)."""
    envelopes: tuple[tuple[str, str, str, float], ...]
    """Every possible envelope with its probability, most likely first."""
    deals: int | None = None
    """Exact only: how many deals fit the log (`solver.odds.Odds.deals`)."""
    error: dict[str, dict[str, float]] | None = None
    """Sampled only: the standard error of each probability."""

    @classmethod
    def of(cls, log: GameLog, grid: Grid) -> CellOdds | None:
        """The odds of a consistent log (``grid`` is its grid); ``None`` if it clashes."""
        try:
            found = deal_odds(log, grid=grid)
        except ContradictionError:
            return None
        probabilities = {
            card: {owner: float(p) for owner, p in row.items()}
            for card, row in found.probabilities.items()
        }
        envelopes = tuple((s, w, r, float(p)) for s, w, r, p in found.envelope_odds)
        error = None if found.error is None else {
            card: dict(row) for card, row in found.error.items()}
        return cls(probabilities, found.exact, envelopes, found.deals, error)


class Beside(Generic[T]):
    """Work done on a thread of its own so that the screen is drawn meanwhile (the grid's odds,
    the race line). `cancel`, or ``unwanted`` answering true (the session that asked has
    ended), stops it at its next unit of work (`solver.limits.checkpoint`)."""

    def __init__(self, work: Callable[[], T] | None, unwanted: Callable[[], bool] = lambda: False,
                 name: str = "beside", ahead: bool = False, expect: float = 0) -> None:
        """``ahead``: work the player waits on to go on (the advice on their own turn, which
        a run used to make): the other work beside the runs gives way to it as to a run that
        draws (`drawing`), and it gives way to nothing. ``expect``: the seconds the same work
        took for the log state before (`expected`): a run does not wait for work that will not
        be over within its wait (`ready`)."""
        self.stopped = False
        """Whether the work stopped before it finished (nothing was found)."""
        self._unwanted = unwanted
        self._ahead = ahead
        self._expect = expect
        self._started = time.monotonic()
        self._ended: float | None = None
        self._cancelled = threading.Event()
        self._done = threading.Event()
        self._found: T | None = None
        self._error: Exception | None = None
        self._missed = False
        if work is None:  # nothing to do: found None
            self._ended = self._started
            self._done.set()
            return
        thread = threading.Thread(target=self._work, args=(work,), name=name, daemon=True)
        try:
            thread.start()
        except RuntimeError:  # no thread to spare on a server at its limits: work right here,
            with aside():  # in the run, giving way to other runs drawing but not to this one
                self._work(work)

    def cancel(self) -> None:
        """Stop working: nobody will read what it finds."""
        self._cancelled.set()

    def unwanted(self) -> bool:
        """Whether to stop: cancelled, or nobody waits any more."""
        return self._cancelled.is_set() or self._unwanted()

    def checkpoint(self) -> bool:
        """Between two units of the work: give way to a script run that draws (`give_way`),
        then whether to stop (`unwanted`)."""
        if not self._ahead and not self.unwanted():  # (stopped: at once)
            give_way()
        return self.unwanted()

    def done(self, wait: float = 0) -> bool:
        """Whether the work is over (found, stopped or failed), waiting up to ``wait`` seconds
        for it (a script run that waits draws nothing meanwhile: `aside`)."""
        if wait <= 0:
            return self._done.is_set()
        with aside():
            return self._done.wait(wait)

    def ready(self, most: float) -> bool:
        """Whether the work is over, as a script run that would show it asks: waiting up to
        ``most`` seconds, within what is left of the run's one wait for all the work beside it
        (`one_wait`). Work that a run waited for and did not find over, later runs only peek
        at: its note's fragment looks again, and taps meanwhile do not each wait for it. So is
        work expected to take longer than ``most`` (the same work for the log state before
        did, `expected`: it would not have shown within the wait either): at a 12-player table
        the race line, the advice and the odds take seconds, and every Record run waited its
        whole wait for them in vain before it drew the fresh form. (At 3-6 players they take a
        tenth or two: where one took longer once, its note may show for a moment.)"""
        if self._missed or self._expect > most:
            return self.done()
        over = self.done(run_wait(most))
        self._missed = not over
        return over

    def expected(self) -> float:
        """The seconds this work took, or, while it goes on or where it stopped before it was
        over, at least takes (the longer of how long it has been going and what was expected
        of it): what the same work for the next log state is expected to take."""
        ended = self._ended
        if ended is not None and not self.stopped:
            return ended - self._started
        return max((ended or time.monotonic()) - self._started, self._expect)

    def result(self) -> T | None:
        """What the work found, once over; raises what it raised."""
        self._done.wait()
        if self._error is not None:
            raise self._error
        return self._found

    def _work(self, work: Callable[[], T]) -> None:
        """Work on this thread (its checkpoints ask `unwanted`: `counting_here`)."""
        _counting.odds = self
        try:
            with drawing() if self._ahead else nullcontext():
                self._found = work()
        except Stopped:
            self.stopped = True
        except Exception as error:  # raised where it is read (`result`)
            self._error = error
        finally:
            _counting.odds = None
            self._ended = time.monotonic()
            self._done.set()


class OddsCount(Beside[CellOdds | None]):
    """The odds of one log state (``None`` when the log clashes: ``grid`` is None), counted
    beside the screen."""

    def __init__(self, log: GameLog, grid: Grid | None,
                 unwanted: Callable[[], bool] = lambda: False, expect: float = 0) -> None:
        self.log = log
        """The log state counted."""
        super().__init__(None if grid is None else lambda: CellOdds.of(log, grid), unwanted,
                         name="odds", expect=expect)


_counting = threading.local()
"""``odds``: the `Beside` work this thread does, where it does one."""


def counting_here() -> Beside[object] | None:
    """The work this thread does beside the screen, if it does (on a thread, not in a
    process)."""
    work: Beside[object] | None = getattr(_counting, "odds", None)
    return work


RUN_WAIT = 0.3
"""The most a script run waits, in all, for the work beside it (`Beside.ready`): the race line,
the grid's odds, the advice; at 3-6 players each is done in a tenth of a second or two and
shows in the run that asked for it, with no note flashing by. Each look has its own limit too
(``most``: the screen's ``*_WAIT``)."""
_run = threading.local()
"""``deadline``: when the wait of the script run on this thread ends (`one_wait`)."""


@contextmanager
def one_wait() -> Iterator[None]:
    """A script run: its looks at the work beside it share one wait of `RUN_WAIT` seconds,
    from the first look that waits (a run waited for the race line and then as long again for
    the advice, or the odds)."""
    _run.deadline = None
    try:
        yield
    finally:
        del _run.deadline


def run_wait(most: float) -> float:
    """How long a look at work beside the run may wait: ``most`` seconds, within what is left
    of the run's one wait (`one_wait`; outside a run, ``most``)."""
    if most <= 0 or not hasattr(_run, "deadline"):
        return max(most, 0)
    now = time.monotonic()
    if _run.deadline is None:
        _run.deadline = now + RUN_WAIT
    deadline: float = _run.deadline
    return max(0.0, min(most, deadline - now))


GIVE_WAY_MOST = 0.5
"""The longest a count waits, at one checkpoint, for the script runs to stop drawing: a run
that takes long (a big race line) slows the counts, never stops them."""
_drawing = 0
"""Script runs of this process drawing a screen now."""
_screen = threading.Condition()


@contextmanager
def drawing() -> Iterator[None]:
    """A script run draws a screen: the counts give way meanwhile (`give_way`)."""
    global _drawing
    with _screen:
        _drawing += 1
    try:
        yield
    finally:
        with _screen:
            _drawing -= 1
            _screen.notify_all()


@contextmanager
def aside() -> Iterator[None]:
    """Within `drawing`, a run that only waits (for a count): counts go on meanwhile."""
    global _drawing
    with _screen:
        _drawing -= 1
        _screen.notify_all()
    try:
        yield
    finally:
        with _screen:
            _drawing += 1


def give_way(most: float = GIVE_WAY_MOST) -> None:
    """Wait, up to ``most`` seconds, while a script run draws. The count's Python shares the
    interpreter's lock with the runs (its compiled loops let go of it): without this, a run
    drawing the grid took twice as long while a count ran."""
    with _screen:
        _screen.wait_for(lambda: _drawing <= 0, timeout=most)
