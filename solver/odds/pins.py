"""The exact count by inclusion-exclusion card by card, the envelope as three slots.

`exclusion` expands the ruled-out cells and the open refutations into a signed sum over *pins*
and deals the pins owner by owner, the envelope first, one triple at a time. Here the pins are
dealt card by card instead: each open card in turn goes into its category's envelope slot
(sign +1), stays *free* (+1: some player holds it, left to the multinomial at the end) or is
pinned at a player who may not hold it (-1). A refutation "P holds one of S" is
1 - [P holds none of S]: taken as "none" at its first card (-1), its cards may then also be
pinned at P (-1 each), and slot moves of an envelope note taken as "none" are barred. The state
is which slots are filled, which open refutations were taken as "none", the pins of every
player a later card may still be pinned at, and the pins in all. A player past their last
possible pin folds ``c!/(c-p)!`` into the weight; an end state with every slot filled weighs
``(places - pins)!``, and the count is divided by the product of the hands' ``c!``.

**Every figure in one pass each way.** A card x at a slot, or pinned at a player P whose
refutation was taken as "none" (P may hold x): forward x weight x backward at x's layer. x free
at a player o who may hold it: in a term with ``p`` pins in all and ``p_o`` at o, a share
``(c_o - p_o) / (places - p)`` of the term's deals put x at o. So beside the ways into a state,
the forward pass carries, per player whose last possible pin is past, the ways times that
player's places left (``c_o - p_o``, folded in with the player); the backward pass carries the
completions with end weight ``(places - pins)!``, those with ``(places - pins - 1)!`` (a place
fewer, for x) and, per player whose last pin is still to come, those with ``(places - pins -
1)!`` times the player's places left. Whichever side o's pins are settled on carries o's factor:
one vector per state, each pass listing every move once.

**Envelope triples.** With all three slots open, a triple's count is, at the move that fills the
second slot, the forward ways of the state with one slot filled split by that slot's card, times
the move's weight, times the completions of the state it leads to split by the card that will
fill the third. Two open slots: the forward split times the plain completions; one: the slot
figures. Wrong accusations are counted apart, each with its triple in the envelope, and
subtracted.

This module is the reference, in Python integers; `pins_compiled` runs the same count with
numba, the same work charged: a unit per state of every layer and per move listed, in each
pass, and one per pair of envelope rows multiplied at a second slot.
"""

from __future__ import annotations

import logging
import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

from ..cards import CATEGORIES
from ..game import Triple
from ..limits import Stopped
from . import warm
from .exclusion import Unsupported, is_refutation
from .owners import OwnerCount, owner_count
from .programme import Budget, Steps, finish
from .setup import Puzzle, Tally

State = tuple[int, int, tuple[int, ...], int]
"""(slots filled, bits; refutations taken as "none", bits; pins per player; pins in all)."""
FREE, SLOT, PIN = 0, 1, 2
Move = tuple[int, int, State, int, tuple[int, ...]]
"""(FREE, SLOT or PIN; the player pinned at, else -1; next state; weight; per player folded
at this card, their places left, ``c - p``)."""


@dataclass
class Card:
    """One layer: an open card and what it may do."""

    name: str
    axis: int
    slot: bool
    """Whether it may go into its category's envelope slot (the slot open, the envelope may
    hold it)."""
    opens: list[int]
    """Refutations whose first card (in the order) this is."""
    closes: int
    """Bits of the refutations whose last card this is."""
    ruled_out: list[int]
    """Players (positions in `Plan.places`) who may not hold it."""
    named_by: list[tuple[int, int]]
    """(refutation, player) for every player's refutation that names it."""
    sealed: list[int]
    """Envelope notes that name it (taken as "none": it may not go into the slot)."""
    holders: list[int]
    """Players who may hold it."""
    folds: list[int]
    """Players whose last possible pin this is."""


@dataclass
class Plan:
    """One count: the envelope open, or holding a given triple."""

    pz: Puzzle
    players: list[int]
    """Owner index of every player with places left."""
    places: list[int]
    room: int
    cards: list[Card]
    last_pin: list[int]
    """Per player: the layer of their last possible pin (-1: never pinned)."""
    full: int
    """Slot bits once every open slot is filled."""
    open_axes: list[int]
    known: list[str | None]
    """Per category: the envelope's card where the log settles it (or the triple's)."""
    possible: bool
    refutations: int
    """How many refutations and envelope notes (their bits in a state)."""

    @property
    def scale(self) -> int:
        return math.prod(math.factorial(c) for c in self.places)


def greedy(cards: Iterable[str], cost: Callable[[str], Any], took: Callable[[str], None]
           ) -> list[str]:
    """``cards`` in a greedy order: each time the one of least ``cost`` (ties: by name, as each
    cost ends with the card), then ``took(card)``."""
    left = set(cards)
    order: list[str] = []
    while left:
        card = min(left, key=cost)
        left.remove(card)
        order.append(card)
        took(card)
    return order


def order_of(touch: dict[str, set[int]], places: Sequence[int]) -> list[str]:
    """Cards in a greedy order: each time the one after which the players with open pins (some
    of their possible pins taken, some not) allow the fewest pin counts."""
    total = [sum(j in at for at in touch.values()) for j in range(len(places))]
    seen = [0] * len(places)

    def cost(card: str) -> tuple[int, str]:
        after = [seen[j] + (j in touch[card]) for j in range(len(places))]
        return (math.prod(min(places[j], after[j]) + 1 for j in range(len(places))
                          if 0 < after[j] < total[j]), card)

    def took(card: str) -> None:
        for j in touch[card]:
            seen[j] += 1

    return greedy(touch, cost, took)


def order_by_state(touch: dict[str, set[int]], places: Sequence[int],
                   refutations: Sequence[set[str]]) -> list[str]:
    """Cards in a greedy order: each time the one after which the states are bounded by least
    (as `work_estimate` bounds them): the pin counts of the players with pins open, times one
    plus the pins of those past their last, doubled for every refutation open (some of its cards
    come, some not)."""
    total = [sum(j in at for at in touch.values()) for j in range(len(places))]
    seen = [0] * len(places)
    come = [0] * len(refutations)

    def cost(card: str) -> tuple[int, str]:
        after = [seen[j] + (j in touch[card]) for j in range(len(places))]
        held = [min(places[j], after[j]) for j in range(len(places))]
        states = math.prod(held[j] + 1 for j in range(len(places)) if 0 < after[j] < total[j])
        folded = sum(held[j] for j in range(len(places)) if 0 < after[j] == total[j])
        open_ = sum(0 < come[k] + (card in cards) < len(cards)
                    for k, cards in enumerate(refutations))
        return states * (1 + folded) << open_, card

    def took(card: str) -> None:
        for j in touch[card]:
            seen[j] += 1
        for k, cards in enumerate(refutations):
            come[k] += card in cards

    return greedy(touch, cost, took)


MOST = 20_000
"""The most tries of the compiled search (`Bound.searched`, about 1 microsecond a try)."""
WORTH = 500
"""Units of estimated work per try of the compiled search."""
REACH = 16
"""How far the compiled search moves a card in one try."""
SLACKS = (0.1, 0.3)
"""How much higher a bound the compiled search keeps at its first try (falling to nothing):
one search each, the best order of both kept."""
SHIFT = 8
"""How far `Bound.searched` moves a card in one try, where numba does not load."""
TRY_WORTH = 20_000
"""Units of estimated work per try of `Bound.searched`."""
TRIES = 1_000
"""The most tries of `Bound.searched`."""


class Bound:
    """`work_estimate` of the plans alike but for their cards' order, from the order alone (no
    `Plan` built: a fraction of a millisecond), and a search for an order it bounds lower."""

    def __init__(self, touch: dict[str, list[int]], of: dict[str, list[int]], refutations: int,
                 slot: dict[str, int | None], places: Sequence[int]) -> None:
        self.touch = touch
        """Per card, the players it may be pinned at."""
        self.of = of
        """Per card, the refutations (and envelope notes) that name it, of ``refutations``."""
        self.refutations = refutations
        self.slot = slot
        """Per card, its category's axis where it may go into the envelope's slot, else None."""
        self.places = list(places)

    @classmethod
    def of_plan(cls, p: Plan) -> Bound:
        """The bound of ``p``'s plans, whatever their order."""
        return cls({c.name: sorted(set(c.ruled_out) | {j for _, j in c.named_by})
                    for c in p.cards},
                   {c.name: [k for k, _ in c.named_by] + c.sealed for c in p.cards},
                   p.refutations, {c.name: c.axis if c.slot else None for c in p.cards},
                   p.places)

    def work(self, order: Sequence[str]) -> int:
        """`work_estimate` of the plan with its cards in ``order``."""
        players = len(self.places)
        last_pin = [-1] * players
        first = [-1] * self.refutations
        last = [-1] * self.refutations
        for i, c in enumerate(order):
            for j in self.touch[c]:
                last_pin[j] = i
            for k in self.of[c]:
                if first[k] < 0:
                    first[k] = i
                last[k] = i
        seen = [0] * players
        axes: set[int] = set()
        opened = 0
        states = 1
        work = 0
        for i, c in enumerate(order):
            touched = self.touch[c]
            opens = sum(first[k] == i for k in self.of[c])
            axis = self.slot[c]
            work += 2 * states * (1 + (1 << opens) * (1 + (axis is not None) + len(touched)))
            for j in touched:
                seen[j] += 1
            if axis is not None:
                axes.add(axis)
            opened += opens - sum(last[k] == i for k in self.of[c])
            pinned, folded = 1, 1
            for j in range(players):
                if last_pin[j] > i:
                    pinned *= min(self.places[j], seen[j]) + 1
                elif last_pin[j] >= 0:
                    folded += min(self.places[j], seen[j])
            states = pinned * folded << (opened + len(axes))
        return work

    def searched(self, order: list[str]) -> list[str]:
        """``order``, improved where the bound allows. Compiled (`order_kernel.searched`): one
        try per `WORTH` units of the bound, at most `MOST`, a card moved up to `REACH` places,
        a move kept where the bound rises by less than a slack falling from `SLACKS` to nothing
        (one search each, the best kept).
        Where numba does not load: a card at a time moved up to `SHIFT` places, the move kept
        where the bound is no higher, one try per `TRY_WORTH` units, at most `TRIES`. Both from
        fixed seeds: the same order on every machine."""
        best = self.work(order)
        found = searcher()
        if found is not None:
            import numpy as np

            arrays = self.arrays(order)
            tries = min(MOST, best // WORTH)
            if tries <= 0:
                return order
            kept = [found.searched(np.arange(len(order)), *arrays, self.refutations, tries,
                                   REACH, slack) for slack in SLACKS]
            return min(([order[i] for i in k] for k in kept), key=self.work)
        rng = random.Random(len(order))
        for _ in range(min(TRIES, best // TRY_WORTH)):
            i = rng.randrange(len(order))
            j = min(len(order) - 1, max(0, i + rng.randint(-SHIFT, SHIFT)))
            moved = order[:]
            moved.insert(j, moved.pop(i))
            if i != j and (work := self.work(moved)) <= best:
                order, best = moved, work
        return order

    def arrays(self, order: Sequence[str]) -> tuple[Any, ...]:
        """The bound's tables for `order_kernel`, cards by their index in ``order``."""
        touch_at, refutes_at = [0], [0]
        touch: list[int] = []
        refutes: list[int] = []
        for c in order:
            touch += self.touch[c]
            refutes += self.of[c]
            touch_at.append(len(touch))
            refutes_at.append(len(refutes))
        axis = [-1 if self.slot[c] is None else self.slot[c] for c in order]
        import numpy as np

        return tuple(np.array(a, np.int64) for a in (
            touch, touch_at, refutes, refutes_at, axis, self.places))


@cache
def searcher() -> ModuleType | None:
    """The compiled search (`order_kernel`), or ``None`` where numba does not load (logged
    once)."""
    warm.wait()  # a server making the kernels ready apart: its compile, not a second one here
    try:
        with warm.held():
            import numpy as np

            from . import order_kernel

            one = np.zeros(1, np.int64)
            order_kernel.searched(np.arange(2), one, np.zeros(3, np.int64), one,
                                  np.zeros(3, np.int64), np.full(2, -1, np.int64),
                                  np.ones(1, np.int64), 1, 2, 1, 0.5)  # its machine code loaded
    except Stopped:
        raise
    except Exception:
        logging.getLogger(__name__).warning("compiled card order search unavailable",
                                            exc_info=True)
        return None
    return order_kernel


MADE = 16
"""Plans kept (`plan`): `choice.pins_fit` and the count ask for the same ones."""
_made: list[tuple[Puzzle, Triple | None, Plan]] = []


def plan(pz: Puzzle, envelope: Triple | None = None) -> Plan:
    """The count of ``pz``'s deals, or of those with ``envelope`` in the envelope
    (`Unsupported` under the refuter model's weights); the last `MADE` plans made are kept, by
    puzzle (the same object) and envelope, since searching a plan's order takes up to a tenth
    of a second."""
    for of, inside, kept in reversed(_made):
        if of is pz and inside == envelope:
            return kept
    made = _plan(pz, envelope)
    _made.append((pz, envelope, made))
    del _made[:-MADE]
    return made


def _plan(pz: Puzzle, envelope: Triple | None = None) -> Plan:
    """`plan`, made."""
    env = pz.envelope
    if not all(is_refutation(t) for t in pz.tallies):
        raise Unsupported
    players = [o for o in range(len(pz.owners)) if o != env and pz.capacity[o] > 0]
    places = [pz.capacity[o] for o in players]
    index = {o: j for j, o in enumerate(players)}
    inside = set(envelope or ())
    possible = not any(c in pz.allowed and env not in pz.allowed[c] for c in inside)
    possible &= all(c in pz.allowed or pz.fixed.get(c) == env for c in inside)
    known: list[str | None] = []
    for a, cat in enumerate(CATEGORIES):
        settled = [c for c in pz.game.deck.of(cat) if pz.fixed.get(c) == env]
        known.append(settled[0] if settled else (envelope[a] if envelope else None))
    tallies = list(pz.tallies)
    if envelope is not None:  # the envelope's notes are settled by the triple
        possible &= all(t.owner != env or inside & set(t.cards) for t in tallies)
        tallies = [t for t in tallies if t.owner != env]
    cards = [c for c in sorted(pz.allowed) if c not in inside]
    ruled = {c: {index[o] for o in players if o not in pz.allowed[c]} for c in cards}
    touch = {c: ruled[c] | {index[t.owner] for t in tallies if c in t.cards and t.owner != env}
             for c in cards}
    refutations = [cards_in for t in tallies if (cards_in := set(t.cards) & set(touch))]
    axis = {c: CATEGORIES.index(pz.category(c)) for c in cards}
    slot = {c: axis[c] if known[axis[c]] is None and env in pz.allowed[c] else None
            for c in cards}
    if envelope is not None:  # a wrong accusation's count: every deal's order, searched once
        order = [card.name for card in plan(pz).cards if card.name in touch]
    else:
        bound = Bound({c: sorted(js) for c, js in touch.items()},
                      {c: [k for k, cards in enumerate(refutations) if c in cards]
                       for c in touch}, len(refutations), slot, places)
        order = bound.searched(min(
            (order_of(touch, places), order_by_state(touch, places, refutations)),
            key=bound.work))
    return _plan_in(pz, order, players, places, ruled, touch, tallies, known, possible, env)


def _plan_in(pz: Puzzle, order: list[str], players: list[int], places: list[int],
             ruled: dict[str, set[int]], touch: dict[str, set[int]], tallies: list[Tally],
             known: list[str | None], possible: bool, env: int) -> Plan:
    """`plan` with its cards in ``order`` (``touch``: per card, the players it may be pinned
    at)."""
    index = {o: j for j, o in enumerate(players)}
    open_axes = [a for a in range(3) if known[a] is None]
    at = {c: i for i, c in enumerate(order)}
    last_pin = [max((at[c] for c in order if j in touch[c]), default=-1)
                for j in range(len(players))]
    spans = [[at[c] for c in t.cards if c in at] for t in tallies]
    possible &= all(spans)  # else a refutation's every card is in the envelope
    layers: list[Card] = []
    for i, c in enumerate(order):
        axis = CATEGORIES.index(pz.category(c))
        layers.append(Card(
            c, axis, known[axis] is None and env in pz.allowed[c],
            [k for k, span in enumerate(spans) if span and min(span) == i],
            sum(1 << k for k, span in enumerate(spans) if span and max(span) == i),
            sorted(ruled[c]),
            [(k, index[t.owner]) for k, t in enumerate(tallies)
             if c in t.cards and t.owner != env],
            [k for k, t in enumerate(tallies) if c in t.cards and t.owner == env],
            [j for j, o in enumerate(players) if o in pz.allowed[c]],
            [j for j in range(len(players)) if last_pin[j] == i]))
    full = sum(1 << a for a in open_axes)
    return Plan(pz, players, places, sum(places), layers, last_pin, full, open_axes, known,
                possible, len(tallies))


def work_estimate(p: Plan) -> int:
    """About the work counting ``p`` charges (`compiled_steps`, both passes: twice the states
    and moves of every layer), from the plan alone (a few milliseconds): per layer, the states
    before it bounded by the values their parts may take (the slots whose candidates have
    come, the refutations open, each player's pins while later ones may come, the pins in all
    of the players past their last), times one plus the moves a state may make (free, the slot,
    a pin at each player it may be pinned at; for each way of taking the refutations it opens).
    The work charged was 0.59-1.50 times this on the 12-player forum and 45-card logs
    card by card finishes (`choice.pins_fit`)."""
    return Bound.of_plan(p).work([card.name for card in p.cards])


def candidates(p: Plan) -> list[list[str]]:
    """Per category, the cards that may go into its slot (the rows of the envelope split)."""
    rows: list[list[str]] = [[], [], []]
    for card in p.cards:
        if card.slot:
            rows[card.axis].append(card.name)
    return rows


def around(p: Plan, i: int) -> tuple[list[int], list[int]]:
    """Per category, how many of its slot's candidates come before layer ``i``, and how many
    after it."""
    before, after = [0, 0, 0], [0, 0, 0]
    for at, card in enumerate(p.cards):
        if card.slot and at < i:
            before[card.axis] += 1
        elif card.slot and at > i:
            after[card.axis] += 1
    return before, after


def middle_work(p: Plan, i: int, slots: int) -> int:
    """The work of the move that puts layer ``i``'s card into its slot from a state with
    ``slots`` filled: the rows multiplied where it is the second slot filled (the candidates of
    the first slot's category before it, times those of the third's after it where there are
    three)."""
    card = p.cards[i]
    if (not card.slot or filled(slots) != 1 or len(p.open_axes) < 2
            or slots >> card.axis & 1):
        return 0
    before, after = around(p, i)
    first = (slots & -slots).bit_length() - 1
    if len(p.open_axes) == 2:
        return before[first]
    return before[first] * after[3 - first - card.axis]


def moves(p: Plan, i: int, st: State) -> list[Move]:
    """The moves of the card at layer ``i`` from ``st``."""
    card = p.cards[i]
    slots, none, pins, pinned = st
    out: list[Move] = []
    for chosen in range(1 << len(card.opens)):
        bits, sign = none, 1
        for b, k in enumerate(card.opens):
            if chosen >> b & 1:
                bits, sign = bits | 1 << k, -sign
        after = bits & ~card.closes
        where = set(card.ruled_out) | {j for k, j in card.named_by if bits >> k & 1}
        steps: list[tuple[int, int, int, tuple[int, ...], int, int]] = [
            (FREE, -1, slots, pins, pinned, sign)]
        if (card.slot and not slots >> card.axis & 1
                and not any(bits >> k & 1 for k in card.sealed)):
            steps.append((SLOT, -1, slots | 1 << card.axis, pins, pinned, sign))
        for j in sorted(where):
            if pins[j] < p.places[j]:
                moved = list(pins)
                moved[j] += 1
                steps.append((PIN, j, slots, tuple(moved), pinned + 1, -sign))
        for kind, j, slots2, pins2, pinned2, weight in steps:
            kept = list(pins2)
            lefts = []
            for f in card.folds:
                weight *= math.perm(p.places[f], kept[f])
                lefts.append(p.places[f] - kept[f])
                kept[f] = 0
            out.append((kind, j, (slots2, after, tuple(kept), pinned2), weight, tuple(lefts)))
    return out


def filled(slots: int) -> int:
    return bin(slots).count("1")


@dataclass
class Figures:
    """What one count gives: the deals, every card's figure at every player, the envelope's
    per card (a check) and every envelope triple's, all times the hands' ``c!``."""

    total: int
    cells: dict[str, dict[int, int]]
    slots: dict[str, int]
    triples: dict[Triple, int]


def python_steps(p: Plan, budget: Budget) -> Steps[Figures]:
    """Count ``p`` in Python integers, pausing after every layer."""
    n = len(p.cards)
    k = len(p.players)
    three = len(p.open_axes) == 3
    start: State = (0, 0, (0,) * k, 0)
    # forward: per state [ways, then per player folded before it, ways x places left]; per state
    # with one slot of two or three filled, the ways by that slot's card
    ways: list[dict[State, list[int]]] = [{start: [1] + [0] * k}]
    rows: list[dict[State, dict[str, int]]] = [{}]
    for i in range(n):
        card = p.cards[i]
        nxt: dict[State, list[int]] = defaultdict(lambda: [0] * (k + 1))
        nrows: dict[State, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for st, v in ways[-1].items():
            out = moves(p, i, st)
            budget.spend(1 + len(out))
            r = rows[-1].get(st)
            for kind, _, st2, w, lefts in out:
                u = nxt[st2]
                u[0] += v[0] * w
                for j in range(k):
                    if 0 <= p.last_pin[j] < i:
                        u[1 + j] += v[1 + j] * w
                for f, left in zip(card.folds, lefts, strict=True):
                    u[1 + f] += v[0] * w * left
                if len(p.open_axes) >= 2:
                    if kind == SLOT and filled(st[0]) == 0:
                        nrows[st2][card.name] += v[0] * w
                    elif kind != SLOT and r:
                        for name, x in r.items():
                            nrows[st2][name] += x * w
            yield
        ways.append(dict(nxt))  # ways that cancel to 0 stay: other figures go through them
        rows.append({st: dict(r) for st, r in nrows.items()})

    # backward: per state [completions, with a place fewer, then per player whose last pin is
    # still to come, with a place fewer times their places left]; per state with two slots of
    # three filled, the completions by the third slot's card; the figures of every layer
    def end(st: State) -> list[int]:
        if st[0] != p.full:
            return [0] * (k + 2)
        less = p.room - st[3] - 1
        return [math.factorial(p.room - st[3]), math.factorial(less) if less >= 0 else 0
                ] + [0] * k

    later = {st: end(st) for st in ways[n]}
    later_rows: dict[State, dict[str, int]] = {}
    cells: dict[str, dict[int, int]] = {}
    slot_figures: dict[str, int] = {}
    triples: dict[tuple[str, ...], int] = defaultdict(int)
    zero = [0] * (k + 2)
    for i in range(n - 1, -1, -1):
        card = p.cards[i]
        here: dict[State, list[int]] = {}
        here_rows: dict[State, dict[str, int]] = {}
        row = [0] * k
        in_slot = 0
        for st, v in ways[i].items():
            out = moves(p, i, st)
            budget.spend(1 + len(out))
            b = [0] * (k + 2)
            br: dict[str, int] = defaultdict(int)
            r = rows[i].get(st)
            for kind, j, st2, w, lefts in out:
                a = later.get(st2, zero)
                b[0] += w * a[0]
                b[1] += w * a[1]
                for q in range(k):
                    if p.last_pin[q] > i:
                        b[2 + q] += w * a[2 + q]
                for f, left in zip(card.folds, lefts, strict=True):
                    b[2 + f] += w * left * a[1]
                if kind == SLOT:
                    budget.spend(middle_work(p, i, st[0]))
                    in_slot += v[0] * w * a[0]
                    if three and filled(st[0]) == 2:
                        br[card.name] += w * a[0]
                    elif filled(st[0]) == 1 and r:  # the second slot of two or three
                        if three:
                            ar = later_rows.get(st2, {})
                            for one, fx in r.items():
                                for three_, gz in ar.items():
                                    triples[(one, card.name, three_)] += fx * w * gz
                        else:
                            for one, fx in r.items():
                                triples[(one, card.name)] += fx * w * a[0]
                    continue
                if three and filled(st[0]) == 2:
                    for z, gz in later_rows.get(st2, {}).items():
                        br[z] += w * gz
                if kind == PIN:
                    if p.players[j] in p.pz.allowed[card.name]:
                        row[j] += v[0] * w * a[0]
                    continue
                for q in card.holders:  # free: a share of the term's deals put it at q
                    lp = p.last_pin[q]
                    if lp < 0:
                        row[q] += p.places[q] * v[0] * w * a[1]
                    elif lp < i:
                        row[q] += v[1 + q] * w * a[1]
                    elif lp == i:
                        row[q] += v[0] * w * lefts[card.folds.index(q)] * a[1]
                    else:
                        row[q] += v[0] * w * a[2 + q]
            here[st] = b
            if br:
                here_rows[st] = dict(br)
            yield
        later, later_rows = here, here_rows
        cells[card.name] = {p.players[q]: x for q, x in enumerate(row) if x}
        slot_figures[card.name] = in_slot
    total = later.get(start, zero)[0] if n else (
        math.factorial(p.room) if p.full == 0 else 0)
    return Figures(total, cells, slot_figures, dict(triples_of(p, triples, slot_figures,
                                                                 total)))


def triples_of(p: Plan, split: dict[tuple[str, ...], int], slot_figures: dict[str, int],
                total: int) -> dict[Triple, int]:
    """Every envelope triple's count, the settled categories' cards put in."""

    def triple(names: Sequence[str]) -> Triple:
        it = iter(names)
        s, w, r = (known if known is not None else next(it) for known in p.known)
        return (s, w, r)

    axes = len(p.open_axes)
    if axes == 0:
        return {triple(()): total} if total else {}
    if axes == 1:
        return {triple((c,)): v for c, v in slot_figures.items() if v}
    out: dict[Triple, int] = {}
    for names, v in split.items():
        if v:  # the cards in the order of the categories
            ordered = sorted(names, key=lambda c: CATEGORIES.index(p.pz.category(c)))
            out[triple(ordered)] = out.get(triple(ordered), 0) + v
    return out


Counter = Callable[[Plan, Budget], Steps[Figures]]


def pins_steps(pz: Puzzle, budget: Budget, count: Counter = python_steps
               ) -> Steps[OwnerCount]:
    """The count of ``pz``: all its deals less those of each wrong accusation, pausing after
    every layer (`OverBudget` past ``budget``, `Unsupported` under the refuter model); each
    plan counted by ``count``."""
    main = plan(pz)
    found = yield from count(main, budget) if main.possible else _nothing(main)
    for wrong in sorted(set(pz.accusations)):
        p = plan(pz, wrong)
        if not p.possible:
            continue
        theirs = yield from count(p, budget)
        found = _less(found, theirs, wrong)
    return counted(main, found)


def _nothing(p: Plan) -> Steps[Figures]:
    return Figures(0, {}, {}, {})
    yield


def _less(found: Figures, wrong: Figures, triple: Triple) -> Figures:
    cells = {c: dict(row) for c, row in found.cells.items()}
    for c, row in wrong.cells.items():
        for o, v in row.items():
            cells.setdefault(c, {})[o] = cells.get(c, {}).get(o, 0) - v
    slots = dict(found.slots)
    for c in triple:
        if c in slots:
            slots[c] -= wrong.total
    triples = dict(found.triples)
    if triples.get(triple, 0) != wrong.total:
        raise ArithmeticError("pins: a wrong accusation's count is not its triple's")
    triples.pop(triple, None)
    return Figures(found.total - wrong.total, cells, slots, triples)


def counted(p: Plan, found: Figures) -> OwnerCount:
    """The count in deals (the hands' ``c!`` divided out): `ArithmeticError` where a figure is
    not a whole number of deals or a card's figures do not add up to the deals."""
    scale = p.scale

    def deals(value: int) -> int:
        quotient, rest = divmod(value, scale)
        if rest or quotient < 0:
            raise ArithmeticError("pins: a count is not a whole number of deals")
        return quotient

    total = deals(found.total)
    envelopes = {t: deals(v) for t, v in found.triples.items() if v}
    cells = {c: {o: deals(v) for o, v in row.items() if v} for c, row in found.cells.items()}
    for c in p.pz.allowed:
        cells.setdefault(c, {})
    held = {c: sum(row.values()) for c, row in cells.items()}
    for c, v in found.slots.items():
        if c in held:
            held[c] += deals(v)
    if any(v != total for v in held.values()):
        raise ArithmeticError("pins: a card's figures do not add up to the deals")
    in_envelope: dict[str, int] = defaultdict(int)
    for t, v in envelopes.items():
        for c in t:
            in_envelope[c] += v
    if any(deals(v) != in_envelope.get(c, 0) for c, v in found.slots.items()):
        raise ArithmeticError("pins: the envelope's triples do not add up to its cards")
    return owner_count(total, cells, envelopes, p.pz.envelope, [])


def count_by_pins(pz: Puzzle, budget: Budget) -> OwnerCount:
    """Count every consistent deal of ``pz`` exactly, card by card (`OverBudget` past
    ``budget``)."""
    return finish(pins_steps(pz, budget))
