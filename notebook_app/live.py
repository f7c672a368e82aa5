"""A game in play: its log, the incremental notebook, and the envelope count, kept in step.

Appending an event is incremental (one more selector for each solver); editing or deleting one
rebuilds both solvers from the log, which stays the only source of truth. A contradictory log is
never a dead end: the grid is shown without the latest clashing events, and says which.
"""

from __future__ import annotations

from solver.errors import ContradictionError
from solver.game import Event, GameLog
from solver.notebook import Grid, Notebook

from .envelopes import EnvelopeCounter


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

    def close(self) -> None:
        """Free both solvers."""
        self.notebook.close()
        self.counter.close()

    def append(self, event: Event) -> None:
        """Record one more event (already validated)."""
        self.notebook.record(event)
        self.counter.push(event)
        self.log = self.log.append(event)
        self._grid = self._conflict = None

    def replace(self, log: GameLog) -> LiveGame:
        """This game with ``log`` instead: incremental when ``log`` only adds events, else a
        fresh `LiveGame` (this one is closed)."""
        count = len(self.log.events)
        if log.game == self.log.game and log.events[:count] == self.log.events:
            for event in log.events[count:]:
                self.append(event)
            return self
        self.close()
        return LiveGame(log)

    @property
    def conflict(self) -> tuple[int, ...]:
        """A minimal set of clashing events (1-based), or ``()`` when the log is consistent."""
        if self._conflict is None:
            self._conflict = self.notebook.conflict()
        return self._conflict

    @property
    def triples_left(self) -> int:
        """Envelope triples still possible (0 when the log is contradictory)."""
        return self.counter.counts[-1]

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
        """The grid after the first ``upto`` events, or ``None`` if they already clash."""
        try:
            return self.notebook.grid(upto=upto)
        except ContradictionError:
            return None
