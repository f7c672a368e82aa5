"""Counting the envelope triples that are still possible, exactly, after every event.

A triple is possible when some deal consistent with the log puts those three cards in the
envelope. Events only add constraints, so the possible set shrinks monotonically; each triple
keeps a witness deal, and a new event only costs a SAT call for the triples whose witness it
breaks. Opening a long game counts the current state directly, one SAT call per possible triple
(each deal found names a triple, which is then blocked); the per-event history the review chart
needs is worked out only when asked for, from the end (`EnvelopeCounter.counts`).
`possible_triples` is the same enumeration for a log.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, product

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

    Safe to stop midway (`solver.limits.checkpoint` raising `solver.limits.Stopped`): each
    change is worked out aside and swapped in whole, so a stopped one leaves the count as it
    was before it. An event whose push was stopped keeps its clauses in the solver, guarded by
    a selector that is never assumed (as after `truncate`).

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
        suspects, weapons, rooms = ([c for c in game.deck.of(cat) if c in self.model.live_cards]
                                    for cat in CATEGORIES)
        self._order: dict[Triple, int] = {
            triple: i for i, triple in enumerate(product(suspects, weapons, rooms))}
        """Every triple of live cards, in deck order (the order witnesses are kept in)."""
        self._active: list[int] = []
        """Selectors of the events counted, in log order."""
        self._guarded: dict[int, list[Clause]] = {}
        """Each event's clauses (guarded by its selector)."""
        self._hard: set[int] = set()
        """Events that brought new hard clauses (side-card slots): every witness is rechecked."""
        for event in events:
            self._active.append(self._add(event))
        self._witness: Witnesses = self._enumerate(self._active)
        self._history: dict[int, Witnesses] = {len(self._active): dict(self._witness)}
        """Witnesses after the first k events, where known (a `truncate` back to k keeps them)."""
        self._counts: list[int] | None = None if self._active else [len(self._witness)]
        """`counts`, once known."""

    def close(self) -> None:
        """Free the solver."""
        self._solver.delete()

    @property
    def count(self) -> int:
        """How many triples are possible after every event so far."""
        return len(self._witness)

    @property
    def triples(self) -> tuple[Triple, ...]:
        """The triples possible after every event so far, in deck order."""
        return tuple(self._witness)

    @property
    def counts(self) -> list[int]:
        """Possible triples before any event, then after each event (worked out when missing:
        `_deaths`)."""
        if self._counts is None:
            deaths = self._deaths()
            alive, counts = len(self._order), []
            for upto in range(len(self._active) + 1):
                alive -= deaths.get(upto, 0)
                counts.append(alive)
            self._counts = counts
        return list(self._counts)

    def push(self, event: Event) -> int:
        """Add the next event; returns how many triples remain possible."""
        selector = self._add(event)
        active = [*self._active, selector]
        witness = self._advanced(self._witness, active)
        self._active, self._witness = active, witness
        self._history[len(active)] = dict(witness)
        if self._counts is not None:
            self._counts = [*self._counts, len(witness)]
        return len(witness)

    def truncate(self, count: int) -> None:
        """Forget every event after the first ``count`` (for undo, edit and delete).

        The dropped events' clauses stay in the solver, guarded by selectors that are never
        assumed again; new events get new selectors.
        """
        active = self._active[:count]
        known = self._history.get(count)
        witness = dict(known) if known is not None else self._enumerate(active)
        history = {k: w for k, w in self._history.items() if k <= count}
        history[count] = dict(witness)
        counts = None if self._counts is None else self._counts[:count + 1]
        self._active, self._witness, self._history = active, witness, history
        self._counts = counts

    def _add(self, event: Event) -> int:
        """Put the event's clauses into the solver; returns its selector (not yet counted)."""
        selector, clauses = self.model.add(event)
        self._solver.append_formula(clauses)
        self._guarded[selector] = [c for c in clauses if -selector in c]
        if any(-selector not in c for c in clauses):
            self._hard.add(selector)
        return selector

    def _advanced(self, witness: Witnesses, active: list[int]) -> Witnesses:
        """The witnesses after the last event of ``active``, from ``witness`` (those before it,
        left as they are)."""
        selector = active[-1]
        guarded = self._guarded[selector]
        recheck_all = selector in self._hard
        after: Witnesses = {}
        for triple, deal in witness.items():
            if recheck_all or not all(self._satisfied(c, selector, deal) for c in guarded):
                found = self._witness_of(triple, active)
                if found is None:
                    continue
                deal = found
            after[triple] = deal
        return after

    def _deaths(self) -> dict[int, int]:
        """For each k, how many triples the first k events allow but the first k - 1 do not
        (k = 0: triples no deal allows at all); those the last event still allows are left out.

        Events only add constraints, so a triple is possible up to some event and never after.
        Where it stops being possible is found from the end: a triple that the first k events
        rule out has a core, the assumptions the solver needed to rule it out, and the latest
        event in the core (say the j-th) already rules it out, so the next question is the
        first j - 1 events. A core that needs only some of the triple's cards in the envelope
        rules out every triple holding those (a card someone was shown, a pair): it is kept
        and tried on the triples after it. Most ruled-out triples then cost one call, the one
        that finds it possible just before; replaying the log from the first event cost a call
        per triple and event whose witness an event broke (seconds at a 12-player table).
        """
        active = self._active
        position = {selector: k for k, selector in enumerate(active, 1)}
        ruled_out: dict[frozenset[int], int] = {}
        """Envelope literals -> a number of first events that rules them out together."""
        deaths: dict[int, int] = {}
        for triple in self._order:
            if triple in self._witness:
                continue
            cards = [self.model.holds(ENVELOPE, c) for c in triple]
            parts = [frozenset(part) for size in range(3) for part in combinations(cards, size)]
            upto = len(active)  # ruled out by these first events; when possible?
            while True:
                upto = min([upto, *(ruled_out[p] for p in parts if p in ruled_out)])
                if upto == 0:
                    break
                checkpoint()
                if self._solver.solve(assumptions=[*active[:upto - 1], *cards]):
                    break
                core = self._solver.get_core() or []
                upto = max((position[lit] for lit in core if lit in position), default=0)
                part = frozenset(lit for lit in core if lit not in position)
                ruled_out[part] = min(upto, ruled_out.get(part, upto))
            deaths[upto] = deaths.get(upto, 0) + 1
        return deaths

    def _enumerate(self, active: list[int]) -> Witnesses:
        """Witnesses of every triple possible after the events ``active``, found from scratch,
        in deck order."""
        found = _enumerate(self._solver, self.model, active)
        return dict(sorted(found.items(), key=lambda item: self._order[item[0]]))

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

    def _witness_of(self, triple: Triple, active: list[int]) -> frozenset[int] | None:
        """A deal allowed by the events ``active`` with ``triple`` in the envelope, if any."""
        checkpoint()
        assumptions = [*active, *(self.model.holds(ENVELOPE, c) for c in triple)]
        if not self._solver.solve(assumptions=assumptions):
            return None
        model = self._solver.get_model() or []
        return frozenset(v for v in model if v > 0 and v in self._cells)


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
    try:
        while (limit is None or len(found) <= limit) and solver.solve(
            assumptions=[*assumptions, active]
        ):
            checkpoint()
            deal = solver.get_model() or []
            cards = sorted((envelope[v] for v in deal if v > 0 and v in envelope),
                           key=rank.__getitem__)
            found[cards[0], cards[1], cards[2]] = frozenset(v for v in deal
                                                            if v > 0 and v in cells)
            solver.add_clause([-active, *(-model.cell[c, ENVELOPE] for c in cards)])
    finally:  # (stopped midway too: the blocking clauses never bind again)
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
