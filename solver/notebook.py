"""The notebook: what is certain, excluded and possible for every card and owner.

A cell is ``yes`` when the owner holds the card in every deal consistent with the log, ``no``
when in none, ``maybe`` otherwise. `Notebook` keeps one incremental SAT solver; each model it
finds marks the values it shows as possible, so only cells no model has shown both ways yet need
a probe, and a probe that fails proves the cell.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import Enum

from pysat.solvers import Solver

from .cards import CATEGORIES, Category
from .closing import Closing
from .errors import ContradictionError
from .game import ENVELOPE, Event, Game, GameLog
from .model import DealModel
from .values import Value
from .witness import Witnesses

SOLVER = "glucose4"


class Knowledge(Enum):
    """What the notebook knows about one card and one owner."""

    YES = "yes"
    """Holds it in every consistent deal."""
    NO = "no"
    """Holds it in none."""
    MAYBE = "maybe"
    """Holds it in some consistent deals but not all."""


class Grid(Value):
    """The notebook page: a `Knowledge` for every card (rows) and owner (columns)."""

    __slots__ = ("cells", "game")
    game: Game
    """The setup the grid belongs to."""
    cells: Mapping[str, Mapping[str, Knowledge]]
    """card -> owner -> knowledge, in deck order and owner order."""

    def __init__(self, game: Game, cells: Mapping[str, Mapping[str, Knowledge]]) -> None:
        self._set(game, cells)

    def __getitem__(self, key: tuple[str, str]) -> Knowledge:
        card, owner = key
        return self.cells[card][owner]

    @property
    def owners(self) -> tuple[str, ...]:
        """Players in seating order, then the envelope, then the side pile if any."""
        return self.game.owners

    def holder(self, card: str) -> str | None:
        """Who certainly holds ``card`` (a player, the envelope or the side pile), if known."""
        return next((o for o, k in self.cells[card].items() if k is Knowledge.YES), None)

    def envelope(self) -> dict[Category, str | None]:
        """For each category, the card known to be in the envelope, or ``None``."""
        return {
            cat: next((c for c in self.game.deck.of(cat) if self.holder(c) == ENVELOPE), None)
            for cat in CATEGORIES
        }

    def envelope_candidates(self, category: Category) -> tuple[str, ...]:
        """The cards of ``category`` that may still be in the envelope."""
        return tuple(
            c for c in self.game.deck.of(category) if self.cells[c][ENVELOPE] is not Knowledge.NO
        )

    @property
    def accusation_safe(self) -> bool:
        """True exactly when every consistent deal has the same envelope."""
        return all(card is not None for card in self.envelope().values())


class Notebook(Closing):
    """An incremental SAT model of one game: record events, then ask for the grid.

    >>> from solver.logfile import loads
    >>> log = loads('''{"format": "clue-notebook/1",
    ...   "cards": {"suspects": ["Plum", "Green"], "weapons": ["Rope"], "rooms": ["Hall"]},
    ...   "players": [{"name": "Ann", "hand_size": 1}, {"name": "Bob", "hand_size": 0}],
    ...   "me": "Ann", "my_cards": ["Green"], "events": []}''')
    >>> with Notebook(log.game) as notebook:
    ...     notebook.grid()["Plum", "envelope"]
    <Knowledge.YES: 'yes'>
    """

    def __init__(self, game: Game, events: Iterable[Event] = (), *, solver: str = SOLVER):
        self.game = game
        self.model = DealModel(game)
        self._solver = Solver(name=solver, bootstrap_with=self.model.clauses)
        self.events: list[Event] = []
        for event in events:
            self.record(event)

    def close(self) -> None:
        """Free the solver."""
        self._solver.delete()

    def record(self, event: Event) -> int:
        """Add an event (already validated); returns its 1-based number."""
        _, clauses = self.model.add(event)
        self._solver.append_formula(clauses)
        self.events.append(event)
        return len(self.events)

    def _active(self, upto: int | None, without: Iterable[int] = ()) -> list[int]:
        """0-based indexes of events 1..upto (all by default), minus the 1-based ``without``."""
        count = len(self.events) if upto is None else upto
        dropped = set(without)
        return [i for i in range(min(count, len(self.events))) if i + 1 not in dropped]

    def _assumptions(self, upto: int | None, without: Iterable[int] = ()) -> list[int]:
        """Selectors of the events that count (see `_active`)."""
        return [self.model.selectors[i] for i in self._active(upto, without)]

    def consistent(self, upto: int | None = None, without: Iterable[int] = ()) -> bool:
        """Whether some deal fits the setup and the chosen events."""
        return bool(self._solver.solve(assumptions=self._assumptions(upto, without)))

    def grid(self, upto: int | None = None, without: Iterable[int] = ()) -> Grid:
        """The grid after the first ``upto`` events (all by default), ignoring ``without``.

        Raises `ContradictionError` with a minimal conflict when no deal fits.
        """
        assumptions = self._assumptions(upto, without)
        solver = self._solver
        if not solver.solve(assumptions=assumptions):
            raise ContradictionError(self.conflict(upto, without))
        cells = self.model.cells
        model = solver.get_model()
        # open_cells[v]: the only value of cell v seen in a deal so far. Cheap swaps and then
        # the solver look for deals showing the other value; what none can show is proven.
        open_cells = {v: model[v - 1] > 0 for v in cells}
        known: dict[int, bool] = {}
        fixed: list[int] = []

        def settle(var: int, held: bool) -> None:
            known[var] = held
            open_cells.pop(var, None)
            fixed.append(var if held else -var)
            if held:  # one owner per card: the rest of the row is settled too
                card = cells[var][0]
                for other in self.model.row(card):
                    if other != var and other not in known:
                        known[other] = False
                        open_cells.pop(other, None)

        _, implied = solver.propagate(assumptions=assumptions)
        for lit in implied or ():
            if abs(lit) in cells and abs(lit) not in known:
                settle(abs(lit), lit > 0)
        walk = Witnesses(self.model, self._active(upto, without))
        walk.start(model)
        walk.explore(open_cells)
        while open_cells:
            # One question for all open cells: can any of them take the value not seen yet?
            # No: every one is proven at once. Yes: the new deal opens at least one.
            solver.set_phases([-v if held else v for v, held in open_cells.items()])
            flip = self.model.fresh()
            solver.add_clause([-flip, *(-v if held else v for v, held in open_cells.items())])
            found = solver.solve(assumptions=[*assumptions, *fixed, flip])
            solver.add_clause([-flip])
            if not found:
                for var, held in list(open_cells.items()):
                    settle(var, held)
                break
            model = solver.get_model()
            for v, seen in list(open_cells.items()):
                if (model[v - 1] > 0) != seen:
                    del open_cells[v]
            walk.start(model)
            walk.explore(open_cells)
        values: dict[str, dict[str, Knowledge]] = {c: {} for c in self.model.live_cards}
        for var, (card, owner) in cells.items():
            if var not in known:
                values[card][owner] = Knowledge.MAYBE
            else:
                values[card][owner] = Knowledge.YES if known[var] else Knowledge.NO
        ordered = {
            card: (
                {o: values[card][o] for o in self.game.owners}
                if card in values
                else dict.fromkeys(self.game.owners, Knowledge.NO)
            )
            for card in self.game.deck
        }
        return Grid(self.game, ordered)

    def conflict(self, upto: int | None = None, without: Iterable[int] = ()) -> tuple[int, ...]:
        """A minimal set of events (1-based) that no deal satisfies together with the setup.

        Empty when the log is consistent. Minimal: dropping any one event leaves the rest
        consistent (the core is shrunk by deletion, as in python-sat's ``musx``).
        """
        return self._minimal(self._assumptions(upto, without))

    def conflict_with(self, event: Event, at: int | None = None,
                      without: Iterable[int] = ()) -> tuple[int, ...]:
        """A minimal set of events that no deal satisfies once ``event`` (not recorded) is
        added to the log, or put in place of event ``at`` (1-based); ``without`` dropped.
        ``event`` is numbered ``at``, else as the next event. Empty when it fits.

        The what-if's clauses are switched off for good by a unit clause, so the solver drops
        them as satisfied (1,000 what-ifs on a 43-event example: 992 clauses left of 1,535);
        only its selector, one variable, stays.
        """
        selector, clauses = self.model.trial(event)
        solver = self._solver
        solver.append_formula(clauses)
        try:
            dropped = {*without, *((at,) if at is not None else ())}
            assumptions = [*self._assumptions(None, dropped), selector]
            return self._minimal(assumptions, {selector: at or len(self.events) + 1})
        finally:
            solver.add_clause([-selector])

    def _minimal(self, assumptions: list[int],
                 numbers: Mapping[int, int] | None = None) -> tuple[int, ...]:
        """A minimal unsatisfiable subset of the selectors ``assumptions``, as event numbers
        (the log's, and ``numbers`` for others); empty when they are satisfiable."""
        solver = self._solver
        if solver.solve(assumptions=assumptions):
            return ()
        number = {s: i for i, s in enumerate(self.model.selectors, 1)}
        number.update(numbers or {})
        core = [s for s in assumptions if s in set(solver.get_core() or ())]
        i = 0
        while i < len(core):
            trial = core[:i] + core[i + 1 :]
            if solver.solve(assumptions=trial):
                i += 1
            else:
                smaller = set(solver.get_core() or trial)
                core = [s for s in trial if s in smaller]
        return tuple(sorted(number[s] for s in core))


class Analysis(Value):
    """The notebook after a whole log: a grid, or the events that clash."""

    __slots__ = ("conflict", "grid", "log")
    log: GameLog
    """The log analysed."""
    grid: Grid | None
    """The grid; ``None`` when the log is contradictory."""
    conflict: tuple[int, ...]
    """When contradictory: a minimal set of clashing events (1-based)."""

    def __init__(self, log: GameLog, grid: Grid | None, conflict: tuple[int, ...] = ()) -> None:
        self._set(log, grid, conflict)

    @property
    def consistent(self) -> bool:
        """Whether some deal fits the log."""
        return self.grid is not None


def analyze(log: GameLog) -> Analysis:
    """The grid of a whole (validated) log, or its minimal conflict."""
    with Notebook(log.game, log.events) as notebook:
        try:
            return Analysis(log, notebook.grid())
        except ContradictionError as err:
            return Analysis(log, None, err.events)
