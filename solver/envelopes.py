"""Counting the envelope triples that are still possible, exactly, after every event.

A triple is possible when some deal consistent with the log puts those three cards in the
envelope. Events only add constraints, so the possible set shrinks monotonically; each triple
keeps a witness deal, and a new event only costs a SAT call for the triples whose witness it
breaks. Opening a long game counts the current state directly, one SAT call per possible triple
(each deal found names a triple, which is then blocked); the per-event history the review chart
needs is replayed only when asked for. `possible_triples` is the same enumeration for a log.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product

from pysat.solvers import Solver

from .cards import CATEGORIES
from .closing import Closing
from .game import ENVELOPE, Event, Game, GameLog, Triple
from .limits import checkpoint
from .model import Clause, DealModel
from .notebook import SOLVER

Witnesses = dict[Triple, frozenset[int]]


class EnvelopeCounter(Closing):
    """The possible envelope triples of a game, updated event by event.

    >>> from solver.cards import Deck
    >>> from .game import Accusation, Player
    >>> game = Game(Deck(("Plum", "Green"), ("Rope",), ("Hall",)),
    ...             (Player("Ann", 1), Player("Bob", 0)))
    >>> with EnvelopeCounter(game) as counter:
    ...     counter.push(Accusation("Bob", ("Plum", "Rope", "Hall")))
    ...     counter.counts
    1
    [2, 1]
    """

    def __init__(self, game: Game, events: Iterable[Event] = (), *, solver: str = SOLVER):
        self.game = game
        self.model = DealModel(game)
        self._solver = Solver(name=solver, bootstrap_with=self.model.clauses)
        self._cells = set(self.model.cells)
        self._candidates: list[Triple] = [
            (s, w, r)
            for s, w, r in product(
                *([c for c in game.deck.of(cat) if c in self.model.live_cards]
                  for cat in CATEGORIES)
            )
        ]
        self._active: list[int] = []
        """Selectors of the events counted, in log order."""
        self._guarded: dict[int, list[Clause]] = {}
        """Each event's clauses (guarded by its selector)."""
        self._hard: set[int] = set()
        """Events that brought new hard clauses (side-card slots): every witness is rechecked."""
        for event in events:
            self._add(event)
        self._witness: Witnesses = self._enumerate()
        self._history: dict[int, Witnesses] = {len(self._active): dict(self._witness)}

    def close(self) -> None:
        """Free the solver."""
        self._solver.delete()

    @property
    def count(self) -> int:
        """How many triples are possible after every event so far."""
        return len(self._witness)

    @property
    def triples(self) -> tuple[Triple, ...]:
        """The triples possible after every event so far."""
        return tuple(self._witness)

    @property
    def counts(self) -> list[int]:
        """Possible triples before any event, then after each event (replayed when missing)."""
        if len(self._history) <= len(self._active):
            self._replay()
        return [len(self._history[k]) for k in range(len(self._active) + 1)]

    def push(self, event: Event) -> int:
        """Add the next event; returns how many triples remain possible."""
        selector = self._add(event)
        self._advance(selector)
        self._history[len(self._active)] = dict(self._witness)
        return len(self._witness)

    def truncate(self, count: int) -> None:
        """Forget every event after the first ``count`` (for undo, edit and delete).

        The dropped events' clauses stay in the solver, guarded by selectors that are never
        assumed again; new events get new selectors.
        """
        self._active = self._active[:count]
        self._history = {k: w for k, w in self._history.items() if k <= count}
        known = self._history.get(count)
        self._witness = dict(known) if known is not None else self._enumerate()
        self._history[count] = dict(self._witness)

    def _add(self, event: Event) -> int:
        selector, clauses = self.model.add(event)
        self._solver.append_formula(clauses)
        self._active.append(selector)
        self._guarded[selector] = [c for c in clauses if -selector in c]
        if any(-selector not in c for c in clauses):
            self._hard.add(selector)
        return selector

    def _advance(self, selector: int) -> None:
        """Update the witnesses for the newest event (already active)."""
        guarded = self._guarded[selector]
        recheck_all = selector in self._hard
        for triple, witness in list(self._witness.items()):
            if recheck_all or not all(self._satisfied(c, selector, witness) for c in guarded):
                del self._witness[triple]
                self._check(triple)

    def _replay(self) -> None:
        """Fill in the history of every prefix, event by event from the start."""
        selectors = self._active
        current = self._witness
        self._active = []
        self._witness = self._enumerate()
        self._history = {0: dict(self._witness)}
        for selector in selectors:
            self._active.append(selector)
            self._advance(selector)
            self._history[len(self._active)] = dict(self._witness)
        self._witness = current

    def _enumerate(self) -> Witnesses:
        """Witnesses of every possible triple, found from scratch."""
        found = _enumerate(self._solver, self.model, self._active)
        order = {triple: i for i, triple in enumerate(self._candidates)}
        self._witness = dict(sorted(found.items(), key=lambda item: order[item[0]]))
        return self._witness

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
        checkpoint()
        assumptions = [*self._active, *(self.model.holds(ENVELOPE, c) for c in triple)]
        if self._solver.solve(assumptions=assumptions):
            model = self._solver.get_model() or []
            self._witness[triple] = frozenset(v for v in model if v > 0 and v in self._cells)


def _enumerate(
    solver: Solver, model: DealModel, assumptions: list[int], limit: int | None = None
) -> Witnesses:
    """Every possible triple with a witness deal (at most ``limit`` + 1 of them).

    Each deal the solver finds names one triple, which is then blocked under a fresh
    activation literal (retired afterwards), so the cost is one call per possible triple.
    """
    found: Witnesses = {}
    cells = model.cells
    envelope = {model.cell[c, ENVELOPE]: c for c in model.live_cards}
    rank = {c: CATEGORIES.index(model.game.category_of(c)) for c in model.live_cards}
    active = model.fresh()
    while (limit is None or len(found) <= limit) and solver.solve(
        assumptions=[*assumptions, active]
    ):
        checkpoint()
        deal = solver.get_model() or []
        cards = sorted((envelope[v] for v in deal if v > 0 and v in envelope), key=rank.__getitem__)
        found[cards[0], cards[1], cards[2]] = frozenset(v for v in deal if v > 0 and v in cells)
        solver.add_clause([-active, *(-model.cell[c, ENVELOPE] for c in cards)])
    solver.add_clause([-active])
    return found


def possible_triples(log: GameLog, limit: int | None = None) -> list[Triple]:
    """The envelope triples some deal consistent with ``log`` allows, in deck order.

    With ``limit``, enumeration stops after ``limit`` + 1 triples: getting more than ``limit``
    back means "more than ``limit``". Empty for a contradictory log.
    """
    model = DealModel(log.game)
    for event in log.events:
        model.add(event)
    with Solver(name=SOLVER, bootstrap_with=model.clauses) as solver:
        found = _enumerate(solver, model, model.selectors, limit)
    position = {card: i for i, card in enumerate(log.game.deck)}
    return sorted(found, key=lambda triple: tuple(position[c] for c in triple))
