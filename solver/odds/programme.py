"""The exact count: a dynamic programme over the open cards.

The state is the room left in every hand (and in the envelope's one-card slots), how many cards
of each block of interchangeable cards are left, and how many cards of each open refutation its
player holds so far. A forward pass counts the ways into every state (and, with envelope axes,
splits them by which envelope candidates went in); a backward pass counts the ways out, so
forward x weight x backward gives every card's marginal at once. The work is bounded by a
`Budget` of transitions, never by time: the same puzzle is exact or over budget on every machine.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import TypeVar

from ..cards import CATEGORIES
from ..limits import checkpoint
from .setup import Tally

T = TypeVar("T")


class OverBudget(Exception):
    """The exact count would take more work (programme transitions) than allowed."""


@dataclass
class Budget:
    """The programme transitions the exact count may still spend (work, never time)."""

    transitions: int
    spent: int = 0
    """Work spent so far."""
    pace: int = 16
    """What a unit of work costs on the path spending it, in sixteenths of a unit counted in
    Python (16; a compiled transition is about 1): only for taking turns fairly (`choice`),
    never for whether the count finishes."""
    effort: int = 0
    """Work spent so far, each unit weighted by its ``pace``."""
    uncompiled: int | None = None
    """The most work in all where the programme's plan cannot run compiled (its state does not
    fit one key, `compiled.fits`): a property of the log, not of the install, so the label is
    the same with numba or without. ``None``: the whole budget."""
    shared: int | None = None
    """The work this count spends taking turns (`choice.first_finished`): past it, it goes on
    only once every other count has finished or dropped out. ``None``: all of it."""

    @property
    def waiting(self) -> bool:
        """Whether this count has spent its share of turns and waits for the others."""
        return self.shared is not None and self.spent >= self.shared

    def spend(self, transitions: int) -> None:
        """Spend ``transitions``; `OverBudget` once the budget is exhausted (`Stopped` when the
        caller asked to stop, `solver.limits.checkpoint`)."""
        checkpoint()
        self.spent += transitions
        self.effort += transitions * self.pace
        self.transitions -= transitions
        if self.transitions < 0:
            raise OverBudget

    def cap(self, most: int | None) -> None:
        """Spend no more than ``most`` in all (``None``: no cap)."""
        if most is not None:
            self.transitions = min(self.transitions, most - self.spent)

    def refund(self, transitions: int) -> None:
        """Give back work a count charged and will charge again (its effort stays spent)."""
        self.spent -= transitions
        self.transitions += transitions


@dataclass
class Layer:
    """One step of the programme: a single card, or one owner's share of a block of cards."""

    card: str | None = None
    allowed: tuple[int, ...] = ()
    hooks: tuple[tuple[int, int], ...] = ()
    """(tally, owner) pairs the single card counts towards."""
    closes: tuple[int, ...] = ()
    """Tallies whose last card this is."""
    block: tuple[str, ...] = ()
    owner: int = -1
    first: bool = False
    last: bool = False
    changed: tuple[int, ...] = ()
    """Owners whose reachable card count drops at this layer (checked for pruning)."""
    room: tuple[int, ...] = ()
    """Per owner: cards that may still reach it after this layer."""
    envelope_class: int = 0
    """Index of this card (or block) among its category's envelope candidates (1-based)."""
    slot: int = -1
    """Block share: the state position holding how many of the block's cards are left."""
    pending: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """owner -> refutations: the refutations only that owner can satisfy that are still open
    after this card; a path that fills the owner's hand with none of them satisfied is dead."""


State = tuple[int, ...]
Transition = tuple[int, State, int]
"""(label: owner for a card, count for a block share; next state; weight)."""


@dataclass
class Run:
    """The programme for one set of open cards, counted forward and backward."""

    layers: list[Layer]
    start: State
    trans: list[dict[State, list[Transition]]]
    """Per layer: every state's moves (for exact draws; empty when counted compiled)."""
    back: list[dict[State, int]]
    """Per layer: the ways out of every state (empty when counted compiled)."""
    total: int
    marginals: list[dict[int, int]]
    classes: list[list[tuple[str, ...]]] = field(default_factory=list)
    """Per envelope axis (category): the candidate classes, in index order from 1."""
    envelope: dict[tuple[int, ...], int] | None = None
    """Counts by envelope class triple (index of the class per category, from 1)."""
    factor: int = 1
    accused: list[tuple[int, list[dict[int, int]]]] = field(default_factory=list)
    """Per accused class triple (`programme_steps`'s ``accused``): the deals whose slots take
    those classes, and their marginals layer by layer (as ``total`` and ``marginals``)."""


def card_order(singles: list[str], tallies: Sequence[Tally]) -> list[str]:
    """Cards in an order that keeps few refutations open at once (greedy)."""
    remaining = {i: set(t.cards) for i, t in enumerate(tallies)}
    opened: set[int] = set()
    order: list[str] = []
    left = sorted(singles, key=lambda c: -sum(c in t.cards for t in tallies))

    def cost(card: str, opened: set[int]) -> tuple[int, int]:
        now_open = opened | {i for i, cs in remaining.items() if card in cs}
        still = {i for i in now_open if remaining[i] - {card}}
        return (len(still), -len(now_open - still))

    while left:
        best = min(left, key=lambda card: cost(card, opened))
        left.remove(best)
        order.append(best)
        for i, cs in remaining.items():
            if best in cs:
                opened.add(i)
                cs.discard(best)
        opened = {i for i in opened if remaining[i]}
    return order


def hand_by_hand(cards: Sequence[str], allowed: Mapping[str, frozenset[int]],
                 slots: Mapping[int, int] | None = None) -> list[str]:
    """``cards`` again and again, every one that may go to the hand the fewest of them may reach
    (kept in their order within a hand), so that hands close early: fewer hands are open at
    once, so fewer states. Where that hand is an envelope slot (``slots``: owner -> axis), the
    slot of the first axis with cards left goes instead: the envelope counts are packed with the
    first axis lowest (`Packing`) and a move is charged for the fields up to the highest with a
    count, so the room's slot, the highest, is best filled last (filled first, on forum logs
    whose room slot the fewest cards reach, it cost up to 2.2 times the work)."""
    slots = slots or {}
    left = list(cards)
    out: list[str] = []
    while left:
        reach: dict[int, int] = defaultdict(int)
        for card in left:
            for o in allowed[card]:
                reach[o] += 1
        hand = min(reach, key=lambda o: (reach[o], o))
        if hand in slots:
            hand = min((o for o in reach if o in slots), key=lambda o: slots[o])
        out.extend(card for card in left if hand in allowed[card])
        left = [card for card in left if hand not in allowed[card]]
    return out


def layers_of(
    allowed: Mapping[str, frozenset[int]],
    tallies: Sequence[Tally],
    owners: int,
    axes: Mapping[int, int],
    by_hand: bool = False,
) -> tuple[list[Layer], list[list[tuple[str, ...]]], int]:
    """The programme's steps: refutation cards one by one, then the cards alone in their kind
    (the most constrained first, or ``by_hand``: `hand_by_hand`), then blocks of
    interchangeable cards owner by owner."""
    in_tally = {c for t in tallies for c in t.cards}
    blocks: dict[frozenset[int], list[str]] = defaultdict(list)
    singles: list[str] = []
    for card, owners_of in allowed.items():
        if card in in_tally:
            singles.append(card)
        else:
            blocks[owners_of].append(card)
    # A card alone in its block is dealt as a single card, after the refutation cards (so
    # their open refutations do not multiply with the hand-size states these add), the most
    # constrained first.
    free: list[str] = []
    for key in [k for k, cards in blocks.items() if len(cards) == 1]:
        free.extend(blocks.pop(key))
    free.sort(key=lambda c: len(allowed[c]))
    if by_hand:
        free = hand_by_hand(free, allowed, axes)
    classes: list[list[tuple[str, ...]]] = [[] for _ in CATEGORIES]

    def envelope_class(owners_of: Iterable[int], cards: tuple[str, ...]) -> int:
        for o in owners_of:
            if o in axes:
                classes[axes[o]].append(cards)
                return len(classes[axes[o]])
        return 0

    last_of = {}
    order = card_order(singles, tallies) + free
    for pos, card in enumerate(order):
        for i, t in enumerate(tallies):
            if card in t.cards:
                last_of[i] = pos
    single_layers: list[Layer] = []
    for pos, card in enumerate(order):
        hooks = tuple((i, o) for i, t in enumerate(tallies) if card in t.cards for o in t.holders)
        closes = tuple(i for i, p in last_of.items() if p == pos)
        reach = tuple(sorted(allowed[card]))
        pending = dict(
            (o, ts) for o in reach
            if (ts := tuple(i for i, t in enumerate(tallies) if t.holders == (o,)
                            and t.weights[0] == 0 and last_of[i] > pos)))
        single_layers.append(Layer(card=card, allowed=reach, hooks=hooks, closes=closes,
                             changed=reach, envelope_class=envelope_class(reach, (card,)),
                             pending=pending))
    # Blocks are dealt owner by owner (each block keeps its own count of cards left), so an
    # owner's hand is settled before the next owner's is opened: few hand-size states at once.
    ordered: list[tuple[frozenset[int], list[str]]] = sorted(
        blocks.items(), key=lambda kv: (len(kv[0]), sorted(kv[0]))
    )
    block_owners = [sorted(o, key=lambda x: (x in axes, x)) for o, _ in ordered]
    classes_of = [envelope_class(o, tuple(cards)) for o, cards in ordered]
    every = sorted({o for members in block_owners for o in members}, key=lambda x: (x in axes, x))
    block_layers: list[Layer] = []
    for owner in every:
        for bi, (members, (_, cards)) in enumerate(zip(block_owners, ordered, strict=True)):
            if owner in members:
                block_layers.append(
                    Layer(block=tuple(cards), owner=owner, first=owner == members[0],
                           last=owner == members[-1], changed=(owner,),
                           envelope_class=classes_of[bi], slot=owners + bi)
                )
    layers = single_layers + block_layers
    room = [0] * owners
    for layer in reversed(layers):
        layer.room = tuple(room)
        if layer.card is not None:
            for o in layer.allowed:
                room[o] += 1
        else:
            room[layer.owner] += len(layer.block)
    return layers, classes, len(ordered)


def saturation_of(weights: Sequence[int]) -> int:
    """The smallest count from which the weight no longer changes."""
    top = len(weights) - 1
    while top > 0 and weights[top - 1] == weights[top]:
        top -= 1
    return top


def field_width(owners: int, cards: int, tallies: Sequence[Tally]) -> int:
    """Bits per packed count: a count is at most ``owners ** cards`` (each card to one owner),
    times the largest weight once per tally."""
    heaviest: int = max((max(t.weights) for t in tallies), default=1)
    bound: int = owners ** cards * heaviest ** len(tallies)
    return bound.bit_length() + 1


ACCUSED_SHARE = 2
"""Accused triples' counts a move carries (`accused_counts`) for a unit of work, charged per
state for the triples with a way into it only (`accused_work`): compiled, a triple and move
cost 0.28-1.23 of a unit of the count of every deal, about half in most runs (the whole count
with and without its triples, best of 2-3 in one process: 45 cards at 60 events, seeds 0, 1,
3, 4, 9 and 11); an eighth until 2026-12-02, when every triple was charged at every state, a
quarter of a unit by then (docs/odds-measurements.md, "Where the time goes", 2026-12-02,
12:25-13:40: wrong accusations where a way reaches)."""


def accused_work(moves: int, triples: int) -> int:
    """The work of carrying ``triples`` accused triples' counts along one state's ``moves``
    (the triples with a way into the state: `accused_counts` counts no other)."""
    return moves * triples // ACCUSED_SHARE


def fields_work(fields: int, width: int) -> int:
    """The work of moving ``fields`` packed counts of ``width`` bits (`Packing.work`)."""
    return fields * width >> 15


class Packing:
    """Counts by envelope class triple, packed in one integer: a field of ``width`` bits per
    triple ``(i, j, k)`` (the class in each slot, 0 while empty), at ``i + a * (j + b * k)``."""

    def __init__(self, classes: Sequence[Sequence[object]], owners: int, cards: int,
                 tallies: Sequence[Tally]) -> None:
        self.sizes = [len(c) + 1 for c in classes]
        self.width: int = field_width(owners, cards, tallies)
        self.stride: list[int] = [1, self.sizes[0], self.sizes[0] * self.sizes[1]]
        field = (1 << self.width) - 1
        self.empty: list[int] = []
        """Per axis: the mask of the fields whose slot on that axis is still empty."""
        for axis in range(len(self.sizes)):
            mask = 0
            for key in product(*(range(n) for n in self.sizes)):
                if key[axis] == 0:
                    mask |= field << (self.width * self.index(key))
            self.empty.append(mask)

    def index(self, key: Sequence[int]) -> int:
        """The field of a class triple."""
        return sum(k * s for k, s in zip(key, self.stride, strict=True))

    def into(self, packed: int, axis: int, cls: int) -> int:
        """The counts once a card of class ``cls`` fills the empty slot ``axis``."""
        return (packed & self.empty[axis]) << (self.width * self.stride[axis] * cls)

    def work(self, packed: int) -> int:
        """The work of moving packed counts, beyond the transition itself: a unit per 32 kbit of
        fields up to the highest one with a count (a big-integer operation on that many bits
        costs about as much as a transition)."""
        return fields_work(packed.bit_length() and (packed.bit_length() - 1) // self.width + 1,
                           self.width)

    def unpack(self, packed: int) -> dict[tuple[int, ...], int]:
        """class triple -> count, for the triples with a count."""
        field = (1 << self.width) - 1
        out: dict[tuple[int, ...], int] = {}
        for key in product(*(range(n) for n in self.sizes)):
            v = (packed >> (self.width * self.index(key))) & field
            if v:
                out[key] = v
        return out


Steps = Generator[None, None, T]
"""A count that pauses after each step of work (so two counts can take turns, `choice`) and
returns its result at the end."""


def python_first(python: Steps[T], budget: Budget, switch: int) -> Generator[None, None, T | None]:
    """Take ``python``'s steps until it has spent ``switch`` units: its result if it finished,
    else ``None``, its work given back (a compiled count that starts again charges the same work,
    so whether a count finishes does not depend on which loop ran it)."""
    before = budget.spent
    while budget.spent - before <= switch:
        try:
            next(python)
        except StopIteration as done:
            result: T = done.value
            return result
        yield
    python.close()
    budget.refund(budget.spent - before)
    return None


def finish(steps: Steps[T]) -> T:
    """Run a count to the end."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]


@dataclass
class Plan:
    """The programme's steps and the shape of its state, before any counting."""

    layers: list[Layer]
    classes: list[list[tuple[str, ...]]]
    """Per envelope axis (category): the candidate classes, in index order from 1."""
    blocks: int
    """Blocks of interchangeable cards (each keeps a count of cards left in the state)."""
    saturation: list[int]
    """Per tally: the count held from which its weight no longer changes."""
    start: State
    end: State
    feasible: bool
    """False when some hand has more places than cards that may reach it (no deal at all)."""


def plan_of(
    capacity: Sequence[int],
    allowed: Mapping[str, frozenset[int]],
    tallies: Sequence[Tally],
    axes: Mapping[int, int] | None = None,
    by_hand: bool = False,
) -> Plan:
    """The programme's steps for ``allowed`` cards into ``capacity`` places (`layers_of`), and
    its start and end states: the room of every hand, each block's cards left (0 before its
    first share) and each tally's count held."""
    n = len(capacity)
    layers, classes, blocks = layers_of(allowed, tallies, n, axes or {}, by_hand)
    first_room = [0] * n
    for layer in layers:
        if layer.card is not None:
            for o in layer.allowed:
                first_room[o] += 1
        else:
            first_room[layer.owner] += len(layer.block)
    feasible = all(0 <= c <= r for c, r in zip(capacity, first_room, strict=True))
    return Plan(layers, classes, blocks, [saturation_of(t.weights) for t in tallies],
                (*capacity, *([0] * blocks), *([0] * len(tallies))),
                tuple([0] * (n + blocks + len(tallies))), feasible)


def run_programme(
    capacity: Sequence[int],
    allowed: Mapping[str, frozenset[int]],
    tallies: Sequence[Tally],
    budget: Budget,
    axes: Mapping[int, int] | None = None,
) -> Run:
    """Count the deals of ``allowed`` cards into ``capacity`` places (`programme_steps`)."""
    return finish(programme_steps(capacity, allowed, tallies, budget, axes))


def programme_steps(
    capacity: Sequence[int],
    allowed: Mapping[str, frozenset[int]],
    tallies: Sequence[Tally],
    budget: Budget,
    axes: Mapping[int, int] | None = None,
    plan: Plan | None = None,
    accused: Sequence[Sequence[int]] = (),
) -> Steps[Run]:
    """Count the deals of ``allowed`` cards into ``capacity`` places, weighted by ``tallies``.

    With ``axes`` (envelope owner -> category axis) the forward pass also keeps, per state, the
    counts split by which envelope candidates went in, so the end state gives every triple.
    ``plan`` is `plan_of` these, when the caller has it already. With ``accused`` (class
    triples, per axis the class a slot must take, 0 where any; only with ``axes``) the run
    also counts, for each, the deals whose slots take those classes and their marginals
    (`accused_counts`), for more work per state (`accused_work`).
    """
    n = len(capacity)
    plan = plan or plan_of(capacity, allowed, tallies, axes)
    layers, classes, saturation, start, end = (
        plan.layers, plan.classes, plan.saturation, plan.start, plan.end)
    base = n + plan.blocks
    if not plan.feasible:
        return Run(layers, start, [], [], 0, [], classes)

    def step(layer: Layer, st: State) -> list[Transition]:
        out: list[Transition] = []
        room = layer.room
        if layer.card is None:
            o = layer.owner
            slot = layer.slot
            rem = len(layer.block) if layer.first else st[slot]
            cap = st[o]
            ks = (rem,) if layer.last else range(min(cap, rem) + 1)
            for k in ks:
                if k > cap or cap - k > room[o]:
                    continue
                s = list(st)
                s[o] = cap - k
                s[slot] = rem - k
                out.append((k, tuple(s), math.comb(rem, k)))
            return out
        hooks = layer.hooks
        closes = layer.closes
        pending = layer.pending
        # The card shrinks every possible owner's supply of cards by one; an owner whose room
        # now exceeds that supply must take this very card.
        full = [x for x in layer.allowed if st[x] > room[x]]
        if len(full) > 1:
            return out
        for o in full or layer.allowed:
            if st[o] == 0 or st[o] - 1 > room[o]:
                continue
            s = list(st)
            s[o] -= 1
            weight = 1
            for t, towner in hooks:
                if towner == o:
                    v = s[base + t] + 1
                    s[base + t] = v if v < saturation[t] else saturation[t]
            for t in closes:
                weight *= tallies[t].weights[s[base + t]]
                s[base + t] = 0
            if weight and not (s[o] == 0 and o in pending and any(
                    s[base + t] == 0 for t in pending[o])):
                out.append((o, tuple(s), weight))
        return out

    track = axes is not None
    # Envelope counts per state, by (class of the suspect, weapon, room slot card; 0 = empty),
    # packed in one integer: a field of ``width`` bits per triple of classes, so that merging
    # two states' counts or moving a card into a slot is a few big-integer operations.
    pack = Packing(classes, n, len(allowed), tallies) if track else None
    arrays: dict[State, int] = {start: 1} if track else {}
    forward: list[dict[State, int]] = [{start: 1}]
    trans: list[dict[State, list[Transition]]] = []
    # per accused triple, per layer, the ways into its states whose slots take its classes
    suspects: list[list[dict[State, int]]] = [[{start: 1}] for _ in accused] if track else []
    for layer in layers:
        nxt: dict[State, int] = defaultdict(int)
        nxt_arrays: dict[State, int] = defaultdict(int)
        here: dict[State, list[Transition]] = {}
        block = layer.card is None
        cls = layer.envelope_class
        barred = [refused(layer, axes, triple) for triple in accused] if axes else []
        nxt_suspects: list[dict[State, int]] = [defaultdict(int) for _ in suspects]
        for st, f in forward[-1].items():
            moves = step(layer, st)
            here[st] = moves
            if pack is None:
                budget.spend(len(moves))
                for _, st2, w in moves:
                    nxt[st2] += f * w
                continue
            ident = arrays[st]
            live = [q for q, ways in enumerate(suspects) if st in ways[-1]]
            budget.spend(len(moves) * (1 + pack.work(ident)) + accused_work(len(moves),
                                                                          len(live)))
            for q in live:
                g = suspects[q][-1][st]
                for label, st2, w in moves:
                    if label not in barred[q]:
                        nxt_suspects[q][st2] += g * w
            for label, st2, w in moves:
                nxt[st2] += f * w
                axis = axes.get(layer.owner if block else label)  # type: ignore[union-attr]
                if axis is not None and (label == 1 or not block):
                    nxt_arrays[st2] += pack.into(ident, axis, cls) * w
                else:
                    nxt_arrays[st2] += ident * w
        trans.append(here)
        yield
        forward.append(nxt)
        arrays = nxt_arrays
        for ways, ahead in zip(suspects, nxt_suspects, strict=True):
            ways.append(ahead)
    back: list[dict[State, int]] = [{end: 1}]
    marginals: list[dict[int, int]] = []
    for i in range(len(layers) - 1, -1, -1):
        later = back[0]
        mine: dict[State, int] = {}
        marg: dict[int, int] = defaultdict(int)
        for st, moves in trans[i].items():
            total = 0
            f = forward[i][st]
            for label, st2, w in moves:
                b = later.get(st2)
                if b:
                    v = w * b
                    total += v
                    marg[label] += f * v
            if total:
                mine[st] = total
        back.insert(0, mine)
        marginals.insert(0, dict(marg))
    total = back[0].get(start, 0) if layers else int(start == end)
    run = Run(layers, start, trans, back, total, marginals, classes)
    if axes is not None:
        run.accused = [accused_counts(layers, trans, ways, axes, triple, end)
                       for ways, triple in zip(suspects, accused, strict=True)]
    if pack is not None and end in arrays:
        run.envelope = pack.unpack(arrays[end])
    return run


def refused(layer: Layer, axes: Mapping[int, int], triple: Sequence[int]) -> frozenset[int]:
    """The labels of ``layer``'s moves that put a card of another class than ``triple``'s into
    an envelope slot (``triple``: per axis the class the slot must take, 0 where any)."""
    cls = layer.envelope_class
    if layer.card is None:
        axis = axes.get(layer.owner)
        wrong = axis is not None and triple[axis] not in (0, cls)
        return frozenset({1} if wrong else ())
    return frozenset(o for o in layer.allowed
                     if (axis := axes.get(o)) is not None and triple[axis] not in (0, cls))


def accused_counts(layers: Sequence[Layer], trans: Sequence[Mapping[State, list[Transition]]],
                   ways: Sequence[Mapping[State, int]], axes: Mapping[int, int],
                   triple: Sequence[int], end: State) -> tuple[int, list[dict[int, int]]]:
    """The deals whose envelope slots take the classes of ``triple`` (per axis, 0 where any),
    and their marginals layer by layer: the count of every deal's moves, but not those that put
    a card of another class into a slot (a path that does can never fill that slot with the
    triple's class, so the same states serve). ``ways``: per layer, the ways into its states
    so (the forward pass, `programme_steps`, where it charges them); here the backward pass
    over the moves the count listed, from the states a way reaches only."""
    if not layers:
        return int(bool(ways) and end in ways[0]), []
    barred = [refused(layer, axes, triple) for layer in layers]
    later: dict[State, int] = {end: 1}
    marginals: list[dict[int, int]] = []
    for i in range(len(layers) - 1, -1, -1):
        mine: dict[State, int] = {}
        marg: dict[int, int] = defaultdict(int)
        for st, f in ways[i].items():
            total = 0
            for label, st2, w in trans[i][st]:
                b = later.get(st2)
                if b and label not in barred[i]:
                    v = w * b
                    total += v
                    marg[label] += f * v
            if total:
                mine[st] = total
        later = mine
        marginals.insert(0, {lab: v for lab, v in marg.items() if v})
    start = next(iter(ways[0]))
    return later.get(start, 0), marginals


def card_counts(run: Run) -> dict[str, dict[int, int]]:
    """card -> owner -> weighted count of deals where the owner holds it (per card in blocks)."""
    counts: dict[str, dict[int, int]] = {}
    for layer, marg in zip(run.layers, run.marginals, strict=True):
        if layer.card is not None:
            counts[layer.card] = {o: v * run.factor for o, v in marg.items() if v}
        else:
            share = sum(k * v for k, v in marg.items()) * run.factor // len(layer.block)
            for card in layer.block:
                counts.setdefault(card, {})
                if share:
                    counts[card][layer.owner] = share
    return counts
