"""Which envelopes are possible, exactly, each with a witness deal (a SAT question, not a
sampling one): the sampler may never visit a rare envelope, but it is still listed.

From one deal of the SAT model, every single swap of an envelope card with a card of the same
category in a player's hand that keeps the deal consistent gives another possible envelope
(searched breadth first). Every candidate envelope the search did not reach is then asked of
the SAT solver directly, so the set is exact whatever the search finds: the search only saves
solver calls (one call per possible triple took 2-7 s on 12-player decks).
"""

from __future__ import annotations

from itertools import product

from pysat.solvers import Solver

from ..cards import CATEGORIES
from ..errors import ContradictionError
from ..game import ENVELOPE, GameLog, Triple
from ..i18n import gettext
from ..model import DealModel
from ..notebook import SOLVER
from .setup import Puzzle

Deal = dict[str, int]
"""Open card -> index of its owner in ``Puzzle.owners``."""


class Deals:
    """Consistent deals of a puzzle, as the SAT model finds them."""

    def __init__(self, log: GameLog, pz: Puzzle):
        self.pz = pz
        self.model = DealModel(log.game)
        for event in log.events:
            self.model.add(event)
        self.solver = Solver(name=SOLVER, bootstrap_with=self.model.clauses)
        self.index = {o: i for i, o in enumerate(pz.owners)}

    def close(self) -> None:
        """Free the solver."""
        self.solver.delete()

    def find(self, envelope: Triple | None = None) -> Deal | None:
        """A consistent deal (with ``envelope`` in the envelope), or ``None`` if there is none."""
        assumptions = list(self.model.selectors)
        for card in envelope or ():
            assumptions.append(self.model.holds(ENVELOPE, card))
        if not self.solver.solve(assumptions=assumptions):
            return None
        deal: Deal = {}
        for lit in self.solver.get_model() or []:
            if lit > 0 and lit in self.model.cells:
                card, owner = self.model.cells[lit]
                if card in self.pz.allowed:
                    deal[card] = self.index[owner]
        return deal


def envelope_of(pz: Puzzle, deal: Deal) -> Triple:
    """The envelope of ``deal``: its open cards there, and the cards known to be there."""
    inside = {pz.category(c): c for c, o in pz.fixed.items() if o == pz.envelope}
    inside.update({pz.category(c): c for c, o in deal.items() if o == pz.envelope})
    return (inside[CATEGORIES[0]], inside[CATEGORIES[1]], inside[CATEGORIES[2]])


def _weight_ok(pz: Puzzle, deal: Deal, owner: int, lose: str, gain: str) -> bool:
    """Whether ``owner``'s refutations still hold once it gives ``lose`` and takes ``gain``."""
    for t in pz.tallies:
        if t.owner != owner:
            continue
        held = sum(deal.get(c) == owner for c in t.cards if c != lose) + (gain in t.cards)
        if not t.weights[held]:
            return False
    return True


def possible_envelopes(log: GameLog, pz: Puzzle) -> dict[Triple, Deal]:
    """Every envelope some deal consistent with the log allows, with one such deal each.

    Raises `ContradictionError` when no deal fits the log.
    """
    env = pz.envelope
    wrong = set(pz.accusations)
    by_category = {cat: [c for c in pz.allowed if pz.category(c) is cat] for cat in CATEGORIES}
    deals = Deals(log, pz)
    try:
        first = deals.find()
        if first is None:
            raise ContradictionError((), gettext("no deal fits the log"))
        found: dict[Triple, Deal] = {}

        axis = {c: CATEGORIES.index(pz.category(c)) for c in pz.allowed}

        def search(start: Deal) -> None:
            first_triple = envelope_of(pz, start)
            queue = [(first_triple, start)]
            found.setdefault(first_triple, start)
            while queue:
                triple, deal = queue.pop()
                for card in triple:
                    if deal.get(card) != env:
                        continue  # known to be in the envelope
                    k = axis[card]
                    for other in by_category[pz.category(card)]:
                        holder = deal[other]
                        if (
                            holder == env
                            or holder not in pz.allowed[card]
                            or env not in pz.allowed[other]
                        ):
                            continue
                        new = (*triple[:k], other, *triple[k + 1 :])
                        if (
                            new in found
                            or new in wrong
                            or not _weight_ok(pz, deal, holder, other, card)
                            or not _weight_ok(pz, deal, env, card, other)
                        ):
                            continue
                        swapped = dict(deal)
                        swapped[card], swapped[other] = holder, env
                        found[new[0], new[1], new[2]] = swapped
                        queue.append(((new[0], new[1], new[2]), swapped))

        search(first)
        candidates = product(*(
            [c for c in pz.game.deck.of(cat)
             if pz.fixed.get(c) == env or env in pz.allowed.get(c, ())]
            for cat in CATEGORIES
        ))
        for s, w, r in candidates:
            if (s, w, r) in found or (s, w, r) in wrong:
                continue
            deal = deals.find((s, w, r))
            if deal is not None:
                search(deal)
    finally:
        deals.close()
    position = {card: i for i, card in enumerate(pz.game.deck)}
    return dict(sorted(found.items(), key=lambda kv: tuple(position[c] for c in kv[0])))
