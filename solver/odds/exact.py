"""The whole exact count: envelope slots, wrong accusations, and the probabilities from it.

The envelope is three owners, one per category, each with room for one card; the programme's
forward pass carries the counts split by envelope candidate, so its end state gives every
triple. Wrong accusations are subtracted by inclusion-exclusion (distinct envelopes never
overlap): the deals with each accused envelope are counted with every deal's, on the same
moves but those that put another class of card into a slot (`programme.accused_counts`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product

from ..cards import CATEGORIES, Category
from ..errors import ContradictionError
from ..game import ENVELOPE, GameLog, Triple
from ..i18n import gettext
from .compiled import compiled_steps
from .programme import (
    Budget,
    Plan,
    Run,
    Steps,
    card_counts,
    finish,
    plan_of,
    programme_steps,
)
from .result import Number, Odds
from .setup import Puzzle, Tally
from .symmetry import Group, interchangeable, merge, split

DEFAULT_BUDGET = 200_000
"""Programme transitions allowed before falling back to sampling (a transition that carries
many envelope combinations costs more). Work, not time: the label never depends on load."""

@dataclass
class Excluded:
    """The deals whose envelope is exactly one wrongly accused triple (`accused_deals`)."""

    total: int
    counts: dict[str, dict[int, int]]
    """card -> owner (the programme's index, a slot for the envelope) -> deals."""


ACCUSED_AT_ONCE = 4
"""Wrong accusations counted with one count of every deal: each keeps a number per state and
residue for every layer (about 20 MiB a triple on a 45-card log at 60 events, where the work
charged for it, `programme.ACCUSED_SHARE`, does not bound it), so past four the count runs
again for the next four, and charges its work again (docs/odds.md, the programme over cards)."""

@dataclass
class Count:
    """The exact count of a log's deals, ready for marginals and for sampling.

    The envelope is three owners, one per category, each with room for one card. Wrong
    accusations are subtracted (inclusion-exclusion: the deals with each accused envelope are
    counted with every deal's, `accused_deals`; distinct envelopes never overlap).
    """

    pz: Puzzle
    run: Run
    """Every deal, wrong accusations ignored."""
    excluded: list[tuple[Triple, Excluded]]
    """For each wrong accusation still possible: the deals with exactly that envelope."""
    envelope_owner: dict[Category, int]
    """The programme's owner index of each category's envelope slot."""
    groups: list[Group] = field(default_factory=list)
    """Interchangeable players dealt as one (`symmetry`): the programme's owner is the first."""

    @property
    def total(self) -> int:
        """The (weighted) number of consistent deals."""
        return self.run.total - sum(r.total for _, r in self.excluded)


def envelope_slots(
    pz: Puzzle, envelope: Triple | None = None
) -> tuple[list[int], dict[str, frozenset[int]], list[Tally], int, dict[Category, int]] | None:
    """Capacities, owners and refutations with one envelope slot per category.

    With ``envelope`` the envelope is fixed to that triple (its cards leave the problem).
    Returns ``None`` when that is impossible; the int is a constant weight factor.
    """
    n = len(pz.owners)
    slot = {CATEGORIES[0]: pz.envelope, CATEGORIES[1]: n, CATEGORIES[2]: n + 1}
    capacity = [*pz.capacity, 0, 0]
    removed = set(envelope or ()) - set(pz.fixed)
    for cat in CATEGORIES:
        known = any(pz.fixed.get(c) == pz.envelope for c in pz.game.deck.of(cat))
        capacity[slot[cat]] = 0 if known or envelope else 1
    allowed: dict[str, frozenset[int]] = {}
    for card, owners in pz.allowed.items():
        if card in removed:
            continue
        if pz.envelope in owners:
            owners = owners - {pz.envelope}
            if envelope is None:
                owners = owners | {slot[pz.category(card)]}
        if not owners:
            return None
        allowed[card] = owners
    factor = 1
    tallies: list[Tally] = []
    for t in pz.tallies:
        if t.owner == pz.envelope:
            if envelope is not None:  # the envelope is complete: the tally is settled
                factor *= t.weights[sum(c in removed for c in t.cards)]
            else:  # a card in any of the three slots counts
                tallies.append(Tally(t.owner, t.cards, t.weights, (n, n + 1)))
            continue
        cards = tuple(c for c in t.cards if c not in removed)
        weights = t.weights[: len(cards) + 1]
        if cards:
            tallies.append(Tally(t.owner, cards, weights))
        else:
            factor *= weights[0]
    if factor == 0:
        return None
    return capacity, allowed, tallies, factor, slot


def count(pz: Puzzle, budget: int = DEFAULT_BUDGET) -> Count:
    """Count every consistent deal exactly; `OverBudget` past ``budget`` transitions."""
    return finish(count_steps(pz, Budget(budget)))


@dataclass
class Dealt:
    """The programme's count of a log set up: the hands (interchangeable players merged, the
    envelope's slots as hands) and the order its cards are dealt in."""

    capacity: list[int]
    allowed: dict[str, frozenset[int]]
    tallies: list[Tally]
    factor: int
    """A constant weight (`envelope_slots`) times the ways to split the merged players' cards."""
    slot: dict[Category, int]
    groups: list[Group]
    axes: dict[int, int]
    plan: Plan


def dealt(pz: Puzzle) -> Dealt:
    """`count_steps`'s set-up of ``pz``; `ContradictionError` when no deal fits."""
    prepared = envelope_slots(pz)
    if prepared is None:
        raise ContradictionError((), gettext("no deal fits the log"))
    capacity, allowed, tallies, factor, slot = prepared
    players = [pz.owners.index(p) for p in pz.game.player_names]
    groups = interchangeable(capacity, allowed, tallies, players)
    capacity, allowed, ways = merge(capacity, allowed, groups)
    axes = {slot[cat]: i for i, cat in enumerate(CATEGORIES)}
    # the cards dealt hand by hand (`programme.hand_by_hand`): never more work than the most
    # constrained card first on the logs measured, and up to 3.7 times less
    # (docs/odds-measurements.md, "Where the time goes", morning: the envelope's slots in order)
    plan = plan_of(capacity, allowed, tallies, axes, by_hand=True)
    return Dealt(capacity, allowed, tallies, factor * ways, slot, groups, axes, plan)


def count_steps(pz: Puzzle, remaining: Budget, compiled: bool = False) -> Steps[Count]:
    """`count`, pausing after every step of the programme; ``compiled``: its loop in machine
    code where it can be (`compiled_steps`: the same figures and work, no draws from it)."""
    programme = compiled_steps if compiled else programme_steps
    d = dealt(pz)
    # each wrong accusation's deals are counted with every deal's, on the same moves (the
    # programme's ``accused``): the moves that put another class in a slot left out
    accused = [(t, c) for t in sorted(set(pz.accusations))
               if (c := accused_classes(pz, t, d.plan.classes)) is not None]
    batches = [accused[i:i + ACCUSED_AT_ONCE] for i in range(0, len(accused), ACCUSED_AT_ONCE)]
    run = yield from programme(d.capacity, d.allowed, d.tallies, remaining, d.axes, d.plan,
                               [c for _, c in batches[0]] if batches else [])
    for batch in batches[1:]:  # the count again, for the next few: memory bounded, work paid
        again = yield from programme(d.capacity, d.allowed, d.tallies, remaining, d.axes,
                                     d.plan, [c for _, c in batch])
        run.accused += again.accused
    run.factor = d.factor
    run.total *= run.factor
    excluded: list[tuple[Triple, Excluded]] = []
    for (triple, classes), (deals, marginals) in zip(accused, run.accused, strict=True):
        if deals:
            excluded.append((triple, accused_deals(run, triple, classes, deals, marginals,
                                                   [d.slot[cat] for cat in CATEGORIES])))
    return Count(pz, run, excluded, d.slot, d.groups)


def accused_classes(pz: Puzzle, triple: Triple, classes: Sequence[Sequence[tuple[str, ...]]]
                    ) -> tuple[int, int, int] | None:
    """Per axis, the envelope class (`Plan.classes`, from 1) holding ``triple``'s card, 0 where
    the envelope's card of that category is known (and is this one); ``None`` where the triple
    cannot be the envelope."""
    out: list[int] = []
    for axis, card in enumerate(triple):
        if card not in pz.allowed:
            if pz.fixed.get(card) != pz.envelope:
                return None
            out.append(0)
            continue
        found = [i for i, members in enumerate(classes[axis], 1) if card in members]
        if not found:
            return None
        out.append(found[0])
    return out[0], out[1], out[2]


def accused_deals(run: Run, triple: Triple, classes: Sequence[int], deals: int,
                  marginals: Sequence[Mapping[int, int]], slots: Sequence[int]) -> Excluded:
    """The deals with envelope ``triple`` and every card's figures, from the programme's count
    of the deals whose slots take its ``classes`` (``deals``, ``marginals``: `Run.accused`;
    ``slots``: the slot's owner per axis).

    A class may be a block of interchangeable cards; the deals with any of its cards in the slot
    split evenly among them, so they are divided by the product ``M`` of the classes' sizes.
    Within the block of the triple's card ``x``, the cards at an owner ``o`` (``N``: the block's
    figure, cards counted) are the other cards', evenly: each ``N / (M (m - 1))``."""
    sizes = [len(run.classes[a][c - 1]) if c else 1 for a, c in enumerate(classes)]
    scale = math.prod(sizes)
    factor = run.factor
    counts: dict[str, dict[int, int]] = {}
    for layer, marg in zip(run.layers, marginals, strict=True):
        if layer.card is not None:
            counts[layer.card] = {o: v * factor // scale for o, v in marg.items() if v}
            continue
        held = sum(k * v for k, v in marg.items()) * factor
        mine = [(a, card) for a, card in enumerate(triple) if card in layer.block]
        for card in layer.block:
            counts.setdefault(card, {})
        if not held:
            continue
        if not mine:
            for card in layer.block:
                counts[card][layer.owner] = held // (scale * len(layer.block))
            continue
        axis, accused = mine[0]
        if layer.owner == slots[axis]:
            counts[accused][layer.owner] = held // scale
            continue
        for card in layer.block:
            if card != accused:
                counts[card][layer.owner] = held // (scale * (sizes[axis] - 1))
    return Excluded(deals * factor // scale, counts)


# --- from counts to probabilities ------------------------------------------------------------


def envelope_counts(counted: Count) -> dict[Triple, int]:
    """Weighted count of deals for every envelope triple still possible."""
    pz = counted.pz
    run = counted.run
    choices: list[list[tuple[tuple[str, ...], int]]] = []
    for axis, cat in enumerate(CATEGORIES):
        known = [c for c in pz.game.deck.of(cat) if pz.fixed.get(c) == pz.envelope]
        if known:
            choices.append([((known[0],), 0)])
        else:
            choices.append([(members, i) for i, members in enumerate(run.classes[axis], 1)])
    out: dict[Triple, int] = {}
    counts = run.envelope
    if counts is None:
        return out
    for (ms, i), (mw, j), (mr, k) in product(*choices):
        value = counts.get((i, j, k), 0) * run.factor
        if not value:
            continue
        share = value // (len(ms) * len(mw) * len(mr))
        for triple in product(ms, mw, mr):
            out[triple] = share
    for triple, _ in counted.excluded:
        out.pop(triple, None)
    return out


def _shared(run: Run, groups: list[Group]) -> dict[str, dict[int, int]]:
    """card -> owner -> count, with each group's count shared among its members."""
    counts = card_counts(run)
    split(counts, groups)
    return counts


def exact_odds(log: GameLog, counted: Count, refuter_model: bool) -> Odds:
    pz = counted.pz
    total = counted.total
    if total <= 0:
        raise ContradictionError((), gettext("no deal fits the log"))
    slots = {i: ENVELOPE for i in counted.envelope_owner.values()}
    name = {i: o for i, o in enumerate(pz.owners)} | slots
    tally: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for card, by_owner in _shared(counted.run, counted.groups).items():
        for o, v in by_owner.items():
            tally[card][name[o]] += v
    for _, sub in counted.excluded:
        counts = {card: dict(row) for card, row in sub.counts.items()}
        split(counts, counted.groups)
        for card, by_owner in counts.items():
            for o, v in by_owner.items():
                tally[card][name[o]] -= v
    return as_odds(log, pz, tally, envelope_counts(counted), total, refuter_model)


def as_odds(
    log: GameLog,
    pz: Puzzle,
    tally: Mapping[str, Mapping[str, int]],
    envelopes: Mapping[Triple, int],
    total: int,
    refuter_model: bool,
) -> Odds:
    """Exact `Odds` from weighted counts: open card -> owner name -> deals, triple -> deals.

    Every figure shares the denominator ``total``, so the envelopes are sorted by their counts
    (integers; sorting the fractions took two thirds of this on 12-player logs) and equal
    counts share one `Fraction`."""
    if total <= 0:
        raise ContradictionError((), "no deal fits the log")
    chances: dict[int, Fraction] = {}

    def chance(deals: int) -> Fraction:
        found = chances.get(deals)
        if found is None:
            found = chances[deals] = Fraction(deals, total)
        return found

    no, yes = chance(0), chance(total)
    owners = pz.owners
    probabilities: dict[str, dict[str, Number]] = {}
    for card in pz.game.deck:
        if card in pz.fixed:
            holder = pz.fixed[card]
            probabilities[card] = {o: yes if i == holder else no for i, o in enumerate(owners)}
        elif card in pz.allowed:
            deals = tally[card]
            probabilities[card] = {o: chance(deals.get(o, 0)) for o in owners}
        else:
            probabilities[card] = dict.fromkeys(owners, no)
    ranked = sorted(envelopes.items(), key=lambda item: (-item[1], item[0]))
    envelope_odds = tuple((s, w, r, chance(v)) for (s, w, r), v in ranked)
    return Odds(log.game, probabilities, envelope_odds, True, refuter_model, deals=total)
