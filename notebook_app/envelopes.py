"""Counting the envelope triples that are still possible, exactly, after every event.

A triple is possible when some deal consistent with the log puts those three cards in the
envelope. Events only add constraints, so the possible set shrinks monotonically; each triple
keeps a witness deal, and a new event only costs a SAT call for the triples whose witness it
breaks.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product
from types import TracebackType

from pysat.solvers import Solver

from solver.cards import CATEGORIES
from solver.game import ENVELOPE, Event, Game
from solver.model import Clause, DealModel

Triple = tuple[str, str, str]


class EnvelopeCounter:
    """The possible envelope triples of a game, updated event by event.

    >>> from solver.cards import Deck
    >>> from solver.game import Accusation, Player
    >>> game = Game(Deck(("Plum", "Green"), ("Rope",), ("Hall",)),
    ...             (Player("Ann", 1), Player("Bob", 0)))
    >>> with EnvelopeCounter(game) as counter:
    ...     counter.push(Accusation("Bob", ("Plum", "Rope", "Hall")))
    ...     counter.counts
    1
    [2, 1]
    """

    def __init__(self, game: Game, events: Iterable[Event] = (), *, solver: str = "glucose4"):
        self.game = game
        self.model = DealModel(game)
        self._solver = Solver(name=solver, bootstrap_with=self.model.clauses)
        self._cells = set(self.model.cells)
        self._active: list[int] = []
        self._witness: dict[Triple, frozenset[int]] = {}
        categories = [
            [c for c in game.deck.of(cat) if c in self.model.live_cards] for cat in CATEGORIES
        ]
        for triple in product(*categories):
            self._check((triple[0], triple[1], triple[2]))
        self._history: list[dict[Triple, frozenset[int]]] = [dict(self._witness)]
        for event in events:
            self.push(event)

    def __enter__(self) -> EnvelopeCounter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Free the solver."""
        self._solver.delete()

    @property
    def counts(self) -> list[int]:
        """Possible triples before any event, then after each event."""
        return [len(witnesses) for witnesses in self._history]

    @property
    def triples(self) -> tuple[Triple, ...]:
        """The triples possible after every event pushed so far."""
        return tuple(self._witness)

    def push(self, event: Event) -> int:
        """Add the next event; returns how many triples remain possible."""
        selector, clauses = self.model.add(event)
        self._solver.append_formula(clauses)
        self._active.append(selector)
        guarded = [c for c in clauses if -selector in c]
        for triple, witness in list(self._witness.items()):
            if not all(self._satisfied(c, selector, witness) for c in guarded):
                del self._witness[triple]
                self._check(triple)
        if any(-selector not in c for c in clauses):
            # New hard clauses (side-card slots) may mention variables no witness decides.
            for triple in list(self._witness):
                del self._witness[triple]
                self._check(triple)
        self._history.append(dict(self._witness))
        return len(self._witness)

    def truncate(self, count: int) -> None:
        """Forget every event after the first ``count`` (for undo, edit and delete).

        The dropped events' clauses stay in the solver, guarded by selectors that are never
        assumed again; new events get new selectors.
        """
        self._active = self._active[:count]
        self._history = self._history[: count + 1]
        self._witness = dict(self._history[-1])

    def _satisfied(self, clause: Clause, selector: int, witness: frozenset[int]) -> bool:
        for lit in clause:
            if lit == -selector:
                continue
            var = abs(lit)
            if var not in self._cells:
                return False
            if (var in witness) == (lit > 0):
                return True
        return False

    def _check(self, triple: Triple) -> None:
        assumptions = [*self._active, *(self.model.holds(ENVELOPE, c) for c in triple)]
        if self._solver.solve(assumptions=assumptions):
            model = self._solver.get_model() or []
            self._witness[triple] = frozenset(v for v in model if v > 0 and v in self._cells)
