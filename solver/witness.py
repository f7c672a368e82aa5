"""Cheap witnesses: more deals consistent with the log, found by swapping two cards.

Every deal the solver finds shows some cells as possible. Swapping two cards between their
holders keeps hand sizes and one owner per card (and one envelope card per category, when the
swap keeps categories at the envelope), so a swap only needs checking against the log's clauses
that mention the four cells it changes. Each valid swap is a new consistent deal that may open
cells without a SAT call. Witnesses only ever show cells *possible*; proofs stay with the solver.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from .game import ENVELOPE
from .model import Clause, DealModel


class Witnesses:
    """Random-walk over consistent deals by valid two-card swaps, opening grid cells."""

    def __init__(self, model: DealModel, events: Iterable[int]) -> None:
        """``events``: 0-based indexes of the events that count."""
        self.model = model
        self.cells = model.cells
        self._clauses: dict[int, list[Clause]] = {}
        for clause in self._active(model, events):
            for lit in clause:
                self._clauses.setdefault(abs(lit), []).append(clause)
        self.holder: dict[str, str] = {}
        self.hands: dict[str, set[str]] = {o: set() for o in model.game.owners}

    @staticmethod
    def _active(model: DealModel, events: Iterable[int]) -> Iterable[Clause]:
        yield from model.setup_facts
        for i in events:
            yield from model.facts[i]

    def start(self, solver_model: Sequence[int]) -> None:
        """Take a deal found by the solver as the walk's position."""
        for hand in self.hands.values():
            hand.clear()
        for var, (card, owner) in self.cells.items():
            if solver_model[var - 1] > 0:
                self.holder[card] = owner
                self.hands[owner].add(card)

    def _valid_swap(self, card: str, other: str) -> bool:
        """Whether exchanging the holders of ``card`` and ``other`` keeps every clause true."""
        here, there = self.holder[card], self.holder[other]
        if (here == ENVELOPE or there == ENVELOPE) and (
            self.model.game.category_of(card) is not self.model.game.category_of(other)
        ):
            return False
        moved = {card: there, other: here}
        cell, cells, holder = self.model.cell, self.cells, self.holder
        for key in ((card, here), (card, there), (other, there), (other, here)):
            for clause in self._clauses.get(cell[key], ()):
                for lit in clause:
                    held_by = cells[abs(lit)]
                    if (moved.get(held_by[0]) or holder[held_by[0]]) == held_by[1]:
                        if lit > 0:
                            break
                    elif lit < 0:
                        break
                else:
                    return False
        return True

    def _swap(self, card: str, other: str, open_cells: dict[int, bool]) -> None:
        here, there = self.holder[card], self.holder[other]
        self.hands[here].discard(card)
        self.hands[there].discard(other)
        self.hands[there].add(card)
        self.hands[here].add(other)
        self.holder[card], self.holder[other] = there, here
        cell = self.model.cell
        for var, held in (
            (cell[card, here], False),
            (cell[card, there], True),
            (cell[other, there], False),
            (cell[other, here], True),
        ):
            if var in open_cells and open_cells[var] != held:
                del open_cells[var]

    def explore(self, open_cells: dict[int, bool], rounds: int = 2, tries: int = 8) -> None:
        """Open as many cells as valid swaps reach; ``open_cells`` maps each cell not yet seen
        both ways to the one value seen, and loses every cell a new deal shows the other way.

        Each open cell gets at most ``tries`` swap checks a round: a cell that is in fact settled
        never opens, and the solver proves those in one call afterwards.
        """
        for _ in range(rounds):
            progress = False
            for var in list(open_cells):
                if var not in open_cells:
                    continue
                card, owner = self.cells[var]
                partners: Iterable[str]
                if open_cells[var]:  # always seen held: move the card away
                    partners = (d for o in self.hands if o != owner for d in self.hands[o])
                else:  # never seen held: bring the card to this owner
                    partners = self.hands[owner]
                for _, other in zip(range(tries), partners, strict=False):
                    if self._valid_swap(card, other):
                        self._swap(card, other, open_cells)
                        progress = True
                        break
            if not progress:
                return


class Swaps:
    """Cheap proofs that a view of the game leaves an envelope card open: a deal known to fit
    the view with two cards' holders exchanged, checked against the clauses the swap touches.

    A view is a list of assumptions: selectors of clauses registered here (`add`) and unit
    literals over cells. Swapping keeps hand sizes, one owner per card and, within a category,
    one envelope card; so the swapped deal fits the view if every registered clause whose
    selector is in the view, and every unit literal of the view, that mentions one of the four
    changed cells still holds. A valid swap is a deal: it proves a card possible; what no swap
    shows, the solver still decides."""

    def __init__(self, model: DealModel) -> None:
        self.model = model
        self._clauses: dict[int, list[tuple[int, Clause]]] = {}
        """Cell variable -> (selector, clause) of every registered clause that mentions it."""
        for selector, facts in zip(model.selectors, model.facts, strict=True):
            self.add(selector, facts)

    def add(self, selector: int, clauses: Iterable[Clause]) -> None:
        """Register ``clauses`` (over cells) as holding when ``selector`` is assumed."""
        for clause in clauses:
            for lit in clause:
                self._clauses.setdefault(abs(lit), []).append((selector, clause))

    def valid(self, deal: Mapping[str, str], view: Collection[int], card: str, other: str
              ) -> bool:
        """Whether ``deal`` (which fits ``view``, a set) still fits it with the holders of
        ``card`` and ``other`` exchanged; ``card`` and ``other`` of one category if either is in
        the envelope."""
        here, there = deal[card], deal[other]
        moved = {card: there, other: here}
        cell, cells = self.model.cell, self.model.cells
        for key, now in (((card, here), False), ((card, there), True),
                         ((other, there), False), ((other, here), True)):
            var = cell[key]
            if (-var if now else var) in view:
                return False
            for selector, clause in self._clauses.get(var, ()):
                if selector not in view:
                    continue
                for lit in clause:
                    c, owner = cells[abs(lit)]
                    if ((moved.get(c) or deal[c]) == owner) == (lit > 0):
                        break
                else:
                    return False
        return True

    def envelope_can_hold(self, deal: Mapping[str, str], view: Collection[int], card: str
                          ) -> bool:
        """Whether ``deal`` or one swap puts ``card`` in the envelope of a deal fitting ``view``
        (exchanged with the envelope card of its category)."""
        if deal[card] == ENVELOPE:
            return True
        category = self.model.game.category_of(card)
        return any(self.valid(deal, view, card, e) for e in self.model.live_cards
                   if deal[e] == ENVELOPE and self.model.game.category_of(e) == category)

    def another_envelope(self, deal: Mapping[str, str], view: Collection[int]) -> bool:
        """Whether one swap gives a deal fitting ``view`` whose envelope is not ``deal``'s: an
        envelope card exchanged with another card of its category."""
        game, live = self.model.game, self.model.live_cards
        for e in live:
            if deal[e] != ENVELOPE:
                continue
            category = game.category_of(e)
            if any(deal[c] != ENVELOPE and game.category_of(c) == category
                   and self.valid(deal, view, e, c) for c in live):
                return True
        return False
