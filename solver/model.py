"""The SAT model of every deal consistent with a setup, with one selector per log event.

Variables come from an `IDPool` keyed by domain tuples: ``("holds", owner, card)`` for each
place a card can be, and ``("slot", n, card)`` for a side card seen in slot ``n``. The setup
(one owner per card, hand sizes, one envelope card per category, my cards, face-up cards) is
hard; each event's clauses are guarded by its selector literal, so a set of assumptions picks
which events count: undo, what-if and conflict cores are all just assumption sets.
"""

from __future__ import annotations

from collections.abc import Iterator

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from .cards import CATEGORIES
from .game import (
    ENVELOPE,
    FIRST_IN_ORDER,
    SIDE,
    Accusation,
    Event,
    Game,
    Note,
    Reveal,
    Suggestion,
)

Clause = list[int]


class DealModel:
    """Clauses over who holds which card: the hard setup plus one guarded group per event."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.pool = IDPool()
        face_up = set(game.face_up)
        self.live_cards: tuple[str, ...] = tuple(c for c in game.deck if c not in face_up)
        """Cards that some owner holds (every card but the face-up ones)."""
        self.cells: dict[int, tuple[str, str]] = {}
        """Variable -> (card, owner) for every cell of the grid that is not face up."""
        self.cell: dict[tuple[str, str], int] = {}
        """(card, owner) -> variable: the inverse of `cells`."""
        for card in self.live_cards:
            for owner in game.owners:
                var = self.holds(owner, card)
                self.cells[var] = (card, owner)
                self.cell[card, owner] = var
        self.clauses: list[Clause] = list(self._setup())
        """Every clause so far: the setup, then each event's guarded and hard clauses."""
        self.selectors: list[int] = []
        """Selector of each recorded event, in log order."""
        self.setup_facts: list[Clause] = []
        """The setup's clauses over cells beyond hand sizes and one owner per card (my cards)."""
        if game.me is not None:
            self.setup_facts = [[self.holds(game.me, c)] for c in game.my_cards]
        self.facts: list[list[Clause]] = []
        """Each recorded event's clauses over cells alone (a side-card slot read as the side
        pile holding the card), for checking a whole deal against the log without the solver."""
        self._slots: dict[int, set[str]] = {}
        self._side_of_slot: dict[int, int] = {}
        self._activations = 0

    def fresh(self) -> int:
        """A new variable for the solver's own bookkeeping (activation literals)."""
        self._activations += 1
        return int(self.pool.id(("activation", self._activations)))

    def row(self, card: str) -> list[int]:
        """The variables "``owner`` holds ``card``" for every owner."""
        return [self.cell[card, owner] for owner in self.game.owners]

    def holds(self, owner: str, card: str) -> int:
        """The variable "``owner`` holds ``card``" (owner may be the envelope or the side pile)."""
        return int(self.pool.id(("holds", owner, card)))

    def _setup(self) -> Iterator[Clause]:
        game = self.game
        for card in self.live_cards:
            lits = [self.holds(o, card) for o in game.owners]
            yield from CardEnc.equals(lits, 1, vpool=self.pool, encoding=EncType.pairwise).clauses
        for owner in game.owners:
            if owner == ENVELOPE:
                continue
            lits = [self.holds(owner, c) for c in self.live_cards]
            yield from self._exactly(lits, game.capacity(owner))
        for category in CATEGORIES:
            lits = [self.holds(ENVELOPE, c) for c in game.deck.of(category) if c in self.live_cards]
            yield from self._exactly(lits, 1)
        if game.me is not None:
            for card in game.my_cards:
                yield [self.holds(game.me, card)]

    def _exactly(self, lits: list[int], bound: int) -> list[Clause]:
        if bound > len(lits):
            return [[]]
        cnf = CardEnc.equals(lits, bound, vpool=self.pool, encoding=EncType.seqcounter)
        return [list(c) for c in cnf.clauses]

    def add(self, event: Event) -> tuple[int, list[Clause]]:
        """Register ``event``; returns its selector and every new clause (guarded and hard)."""
        selector = int(self.pool.id(("event", len(self.selectors))))
        self.selectors.append(selector)
        hard: list[Clause] = []
        facts = list(self._facts(event, hard))
        clauses = [[-selector, *clause] for clause in facts] + hard
        self.clauses.extend(clauses)
        side = self._side_of_slot
        self.facts.append([[side.get(lit, lit) for lit in clause] for clause in facts])
        return selector, clauses

    def trial(self, event: Event) -> tuple[int, list[Clause]]:
        """``event``'s clauses for a what-if, guarded by a fresh selector that is none of the
        log's (`selectors` and `facts` do not change); its hard clauses (a side slot's links)
        are kept, as `add` keeps them."""
        selector = self.fresh()
        hard: list[Clause] = []
        facts = list(self._facts(event, hard))
        self.clauses.extend(hard)
        return selector, [[-selector, *clause] for clause in facts] + hard

    def _facts(self, event: Event, hard: list[Clause]) -> Iterator[Clause]:
        """The clauses an event asserts (unguarded); new hard clauses go into ``hard``."""
        holds = self.holds
        if isinstance(event, Reveal):
            for card in event.cards:
                yield self._holds_or_false(event.player, card)
            if event.whole_hand:
                for card in self.live_cards:
                    if card not in event.cards:
                        yield [-holds(event.player, card)]
            return
        if isinstance(event, Accusation):
            if event.correct:
                for card in event.cards:
                    yield self._holds_or_false(ENVELOPE, card)
            elif all(c in self.live_cards for c in event.cards):
                yield [-holds(ENVELOPE, c) for c in event.cards]
            return
        if isinstance(event, Note):
            yield from self._note(event)
            return
        yield from self._suggestion(event, hard)

    def _note(self, note: Note) -> Iterator[Clause]:
        """Holds: a unit clause per card; lacks: a negated one per card (a face-up card is
        lacked anyway); holds one of: one clause (empty when every card lies face up)."""
        for card in note.holds:
            yield self._holds_or_false(note.owner, card)
        for card in note.lacks:
            if card in self.live_cards:
                yield [-self.holds(note.owner, card)]
        if note.holds_one_of:
            yield [self.holds(note.owner, c) for c in note.holds_one_of if c in self.live_cards]

    def _suggestion(self, event: Suggestion, hard: list[Clause]) -> Iterator[Clause]:
        live = [c for c in event.cards if c in self.live_cards]
        for player in event.passes:
            for card in live:
                yield [-self.holds(player, card)]
        refuter = event.refuted_by
        if refuter is not None and event.shown is not None:
            yield self._holds_or_false(refuter, event.shown)
            if event.shown_by_rule == FIRST_IN_ORDER:
                rank = {c: CATEGORIES.index(self.game.category_of(c)) for c in event.cards}
                for card in live:
                    if rank[card] < rank[event.shown]:
                        yield [-self.holds(refuter, card)]
        elif refuter is not None:
            yield [self.holds(refuter, c) for c in live]
        peek = event.side_peek
        if peek is not None and peek.card is not None:
            if peek.card not in self.live_cards:
                yield []
                return
            yield [self._slot(peek.slot, peek.card, hard)]

    def _holds_or_false(self, owner: str, card: str) -> Clause:
        """The unit clause "owner holds card", or the empty clause for a face-up card."""
        return [self.holds(owner, card)] if card in self.live_cards else []

    def _slot(self, slot: int, card: str, hard: list[Clause]) -> int:
        """Variable "side card number ``slot`` is ``card``", adding its hard links when new."""
        key = ("slot", slot, card)
        if self.pool.obj2id.get(key) is None:
            var = int(self.pool.id(key))
            hard.append([-var, self.holds(SIDE, card)])
            self._side_of_slot[var] = self.holds(SIDE, card)
            for other_slot, cards in self._slots.items():
                for other in cards:
                    if other_slot == slot or other == card:
                        hard.append([-var, -int(self.pool.id(("slot", other_slot, other)))])
            self._slots.setdefault(slot, set()).add(card)
        return int(self.pool.id(key))
