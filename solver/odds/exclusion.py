"""The exact count by inclusion-exclusion over the ruled-out cells, owner by owner.

Late in a forum game almost every open card has its own set of possible holders, but the cells
the passes ruled out are few. So count the other way round. Deal the envelope first, one triple
at a time (as `owners` does). For the players, "card c is not at owner o" for every ruled-out
cell, and "P holds one of S" = all - "P holds none of S" for every open refutation, expand into
a signed sum over *pins*: sets of cells, at most one per card, each a ruled-out cell (sign -1)
or, for a refutation taken as "none", a cell of its cards at its player (sign -1 too, the
refutation's own -1 aside). The deals that hold a set of ``p`` pins number

    (n - p)! / prod over owners (places - pinned there)!

(the other cards go anywhere: a multinomial), so the count is a sum of multinomials. The pins are
dealt owner by owner: a card still unpinned matters only through which *later* owners may not
hold it and which later refutations name it (its *kind*), so the state is how many unpinned
cards of each kind are left and how many pins were placed. An owner with ``c`` places pins
``f`` of its ruled-out cards, weight ``(-1)^f c!/(c-f)!`` (the multinomial's factor for its
hand, up to ``c!``), one ``C(n, k)`` per kind.

Every card's figure: the deals giving card x to owner o are the same sum with one more pin,
(x, o), of sign +1. The forward pass carries, per state, the ways in which a given card of each
*class* (cards alike throughout) is still unpinned, packed in one integer; the backward pass,
over the same states, carries besides a state's completions the completions once such a card
is pinned (one more pin) in which it stays unpinned, per class too (it depends only on the
card's kind). At o's turn, forward x the move's weight x o's places left x backward, class by
class, is the figure. Each envelope triple's count is its weight times the completions of the
state it leads to.

Only refutations and notes ("holds one of") are expanded here; under the refuter model, whose
weights depend on how many of the named cards are held, this count declines (`Unsupported`) and
the other counts give the figures. The work (a unit per state the forward pass reaches and
per move of it) is bounded by a `Budget`: the same log is exact or over budget on every
machine.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from ..game import Triple
from .owners import OwnerCount, envelope_triples, fewest_states_first, owner_count
from .programme import Budget, OverBudget, Steps, finish
from .setup import Puzzle, Tally
from .symmetry import Group, interchangeable, merge

Kind = tuple[frozenset[int], frozenset[int]]
"""(later owners that may not hold the cards, later players' refutations that name them)."""
State = tuple[int, ...]
"""Unpinned cards per kind, then the number of pins placed so far."""


class Unsupported(OverBudget):
    """The puzzle has weights this count does not expand (the refuter model's)."""


@dataclass(frozen=True)
class Move:
    """One way an owner pins cards: the refutations taken as "none", the pins, the result."""

    chosen: int
    """Bit mask of the owner's refutations taken as "none"."""
    pinned: int
    """How many cards the owner pins."""
    picks: tuple[tuple[int, int, int], ...]
    """(kind, cards of it left before, cards pinned) for every kind pinned from."""
    after: State
    weight: int


@dataclass
class Turn:
    """One owner's pins, with the kinds of unpinned card as this owner and the later ones see
    them."""

    owner: int
    capacity: int
    kinds: list[Kind]
    classes: list[list[int]]
    """Per kind: its classes."""
    kind_of: list[int]
    """Per class: its kind (-1: no owner from this one on may rule out or name its cards)."""
    mine: list[int]
    """This owner's refutations (positions in the list of tallies)."""
    after: list[int]
    """Per kind: its kind for the next owner (-1: no later owner cares)."""
    later: int
    """How many kinds the next owner sees."""
    open: list[list[int]]
    """Per set of this owner's refutations taken as "none" (a bit mask): the kinds it may pin."""
    signs: list[int]
    """Per such set: (-1) ** its size."""

    def eligible(self) -> list[list[int]]:
        """Per set of refutations taken as "none": the kinds whose cards the owner may hold
        (the others, `open`)."""
        return [[j for j in range(len(self.kinds)) if j not in kinds] for kinds in self.open]


def is_refutation(tally: Tally) -> bool:
    """Whether ``tally`` is "holds at least one of" (weight 0 for none, 1 otherwise)."""
    return tally.weights[0] == 0 and all(w == 1 for w in tally.weights[1:])


def count_by_exclusion(pz: Puzzle, budget: Budget) -> OwnerCount:
    """Count every consistent deal of ``pz`` exactly by inclusion-exclusion (`OverBudget` past
    ``budget``, `Unsupported` under the refuter model's weights)."""
    return finish(exclusion_steps(pz, budget))


def _kind(forbidden: frozenset[int], names: frozenset[int], later: frozenset[int],
          owner_of: Sequence[int]) -> Kind:
    return forbidden & later, frozenset(t for t in names if owner_of[t] in later)


@dataclass
class Setup:
    """What both loops (this one and the compiled one, `exclusion_compiled`) count from: the
    classes of alike cards, the owners' turns, and the start states the envelope leads to."""

    pz: Puzzle
    cards: list[str]
    of_class: list[list[str]]
    """Per class: its cards (the first one stands for the class)."""
    turns: list[Turn]
    places: int
    """The dealt owners' places in all."""
    capacity: list[int]
    dealt: list[int]
    ways: int
    """Ways to split the merged players' cards among them (`symmetry.merge`)."""
    groups: list[Group]
    entry: dict[State, int]
    """Start state -> the weight of the envelope triples leading to it."""
    inside: dict[State, dict[int, int]]
    """Start state -> class -> the weight of those triples that hold the class's first card."""
    led: dict[Triple, tuple[State, int]]
    """Envelope triple -> (its start state, its weight)."""

    @property
    def scale(self) -> int:
        """The product of the hands' ``c!`` the counts carry (divided out at the end)."""
        return math.prod(math.factorial(self.capacity[o]) for o in self.dealt)

    def bound(self) -> int:
        """No count this method computes, nor any partial sum of one, exceeds this in absolute
        value: the forward figures, the backward counts and every card's figure.

        Proof. A move of an owner with ``c`` places and ``r`` refutations from any state weighs
        ``c!/(c-f)! prod C(n_j, k_j)`` (up to sign), summed over the ``k`` with ``sum k = f``
        to ``C(sum n_j, f) <= C(N, f)`` (Vandermonde; ``N`` open cards), so its moves' weights
        sum to at most ``M = 2^r c! (N + 1)^c`` in absolute value; a forward coefficient, or a
        backward one that keeps a card unpinned, is a weight with one binomial made smaller. So
        a backward count (also one with a card pinned beforehand and kept unpinned) is at most
        ``places! prod M`` over the owners after it (induction from ``(places - pins)! <=
        places!``); the forward figures of a layer sum to at most ``W prod M`` over the owners
        before it (``W`` the weight of the envelope triples: a start state's figure is its
        weight less that of the triples holding the card); a card's figure at an owner sums
        forward x (places left <= the largest hand) x weight x backward. Every partial sum is
        bounded by the sum of its terms' absolute values, so by the product below."""
        n = len(self.cards)
        owner_of = [t.owner for t in self.pz.tallies if t.owner != self.pz.envelope]
        moves: int = math.prod((1 << sum(o == t for t in owner_of))
                               * math.factorial(self.capacity[o]) * (n + 1) ** self.capacity[o]
                               for o in self.dealt)
        weight = sum(w for _, w in self.led.values())
        largest = max((self.capacity[o] for o in self.dealt), default=0)
        return weight * math.factorial(self.places) * moves * max(largest, 1)


def prepare(pz: Puzzle, budget: Budget) -> Setup:
    """The classes, the turns and the start states of ``pz`` (`Unsupported` under the refuter
    model; the envelope triples tried are charged to ``budget``)."""
    env = pz.envelope
    tallies = [t for t in pz.tallies if t.owner != env]
    sealed = [t for t in pz.tallies if t.owner == env]
    if not all(is_refutation(t) for t in tallies):
        raise Unsupported
    cards = sorted(pz.allowed)
    wrong = set(pz.accusations)
    players = [pz.owners.index(p) for p in pz.game.player_names]
    groups = interchangeable(pz.capacity, pz.allowed, tallies, players)
    capacity, allowed, ways = merge(pz.capacity, pz.allowed, groups)
    dealt = [o for o in range(len(pz.owners)) if o != env and capacity[o] > 0]
    forbidden = {c: frozenset(o for o in dealt if o not in allowed[c]) for c in cards}
    names = {c: frozenset(i for i, t in enumerate(tallies) if c in t.cards) for c in cards}
    owner_of = [t.owner for t in tallies]

    # classes of alike cards: same ruled-out owners, refutations, envelope rights, accusations
    keys: dict[tuple[object, ...], int] = {}
    class_of: dict[str, int] = {}
    for c in cards:
        key = (forbidden[c], names[c], env in allowed[c], pz.category(c),
               frozenset(i for i, t in enumerate(sealed) if c in t.cards),
               frozenset(t for t in wrong if c in t))
        class_of[c] = keys.setdefault(key, len(keys))
    of_class: list[list[str]] = [[] for _ in range(len(keys))]
    for c in cards:
        of_class[class_of[c]].append(c)
    rep = [members[0] for members in of_class]

    order = _order(cards, forbidden, names, dealt, owner_of, capacity)
    places = sum(capacity[o] for o in dealt)
    turns = _turns(order, capacity, rep, forbidden, names, owner_of)

    # the envelope, one triple at a time: the states the players start from
    later0 = frozenset(order)
    first_kinds = {k: j for j, k in enumerate(turns[0].kinds)} if turns else {}

    @cache
    def kind_at_start(c: str) -> int:
        k = _kind(forbidden[c], names[c], later0, owner_of)
        return first_kinds[k] if (k[0] or k[1]) else -1

    base = [0] * len(first_kinds)
    for c in cards:
        if kind_at_start(c) >= 0:
            base[kind_at_start(c)] += 1
    stranded = {c for c in cards if not allowed[c] & frozenset(dealt)}
    entry: dict[State, int] = defaultdict(int)
    inside: dict[State, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    led: dict[Triple, tuple[State, int]] = {}
    for triple, weight in envelope_triples(pz, allowed, stranded, budget):
        counts = list(base)
        for c in triple:
            if c in pz.allowed and kind_at_start(c) >= 0:
                counts[kind_at_start(c)] -= 1
        st = (*counts, 0)
        entry[st] += weight
        for c in triple:
            if c in class_of and rep[class_of[c]] == c:
                inside[st][class_of[c]] += weight
        led[triple] = (st, weight)
    return Setup(pz, cards, of_class, turns, places, capacity, dealt, ways, groups,
                 dict(entry), {st: dict(v) for st, v in inside.items()}, led)


def exclusion_steps(pz: Puzzle, budget: Budget) -> Steps[OwnerCount]:
    """`count_by_exclusion`, pausing after every owner's turn and during the backward count."""
    return (yield from python_steps(prepare(pz, budget), budget))


def python_steps(setup: Setup, budget: Budget) -> Steps[OwnerCount]:
    """The count of a prepared puzzle in Python, every class's figure packed in one integer."""
    turns = setup.turns
    nclasses = len(setup.of_class)
    places = setup.places
    # every figure and partial sum fits a signed field of ``width`` bits (`Setup.bound`)
    width = setup.bound().bit_length() + 2
    field = (1 << width) - 1
    half = 1 << (width - 1)
    bias = sum(half << (width * x) for x in range(nclasses))
    masks = [[sum(field << (width * x) for x in members) for members in turn.classes]
             for turn in turns]
    free_masks = [sum(field << (width * x) for x in range(nclasses) if turn.kind_of[x] < 0)
                  for turn in turns]

    def select(packed: int, mask: int) -> int:
        """The fields of ``mask`` in ``packed`` (fields are signed)."""
        return ((packed + bias) & mask) - (bias & mask)

    everyone = sum(1 << (width * x) for x in range(nclasses))
    unpinned = {st: f * everyone - sum(v << (width * x)
                                       for x, v in setup.inside.get(st, {}).items())
                for st, f in setup.entry.items()}

    # forward: per state and class, the ways into it in which a given card of the class is
    # still unpinned (the totals come from the backward count)
    moves: list[dict[State, list[Move]]] = [{} for _ in turns]

    layers: list[dict[State, int]] = []
    forward_unpinned = unpinned
    for i in range(len(turns)):
        layers.append(forward_unpinned)
        nu: dict[State, int] = defaultdict(int)
        for st, u in forward_unpinned.items():
            moves[i][st] = _moves(turns[i], st)
            budget.spend(1 + len(moves[i][st]))
            for m in moves[i][st]:
                v = u * m.weight
                for j, n, k in m.picks:
                    v -= select(u, masks[i][j]) * (m.weight * k // n)
                nu[m.after] += v
            yield  # a turn's states may be many (`exclusion_compiled` switches between two)
        forward_unpinned = dict(nu)
        yield

    # backward, over the states the forward pass reached: per state its completions (times
    # (places - pins)! at the end) and, packed per class, its completions once a card of the
    # class is pinned at an earlier owner (one more pin, of sign +1) in which that card stays
    # unpinned (times (places - pins - 1)! at the end); with the forward figures, the card
    # figures of each turn
    end = places - 1
    completions = {st: math.factorial(places - st[-1]) for st in forward_unpinned}
    spared = {st: math.factorial(end - st[-1]) * everyone if st[-1] <= end else 0
              for st in forward_unpinned}
    figures: dict[int, list[int]] = {}
    for i in range(len(turns) - 1, -1, -1):
        turn = turns[i]
        eligible = turn.eligible()
        here: dict[State, int] = {}
        spared_here: dict[State, int] = {}
        got = [0] * nclasses
        for st, u in layers[i].items():
            total = spare = held = 0
            may = [free_masks[i] + sum(masks[i][j] for j in kinds if st[j]) for kinds in eligible]
            for m in moves[i][st]:
                later = spared[m.after]
                total += m.weight * completions[m.after]
                spare += later * m.weight
                for j, n, k in m.picks:
                    spare -= select(later, masks[i][j]) * (m.weight * k // n)
                places_left = turn.capacity - m.pinned
                if places_left:
                    held += select(later, may[m.chosen]) * (m.weight * places_left)
            here[st] = total
            spared_here[st] = spare
            unpinned_fields, held_fields = u + bias, held + bias
            for x in range(nclasses):
                got[x] += ((((unpinned_fields >> (width * x)) & field) - half)
                           * (((held_fields >> (width * x)) & field) - half))
            yield
        completions, spared = here, spared_here
        figures[turn.owner] = got
    return counted(setup, completions, figures)


def counted(setup: Setup, starts: dict[State, int], figures: dict[int, list[int]]
            ) -> OwnerCount:
    """The count from the backward count of every start state and, per owner, every class's
    figure (both times the hands' ``c!``): `ArithmeticError` where a figure is not a whole
    number of deals or a card's figures do not add up to the deals (a bug, or a bound that does
    not hold: `choice` drops the count)."""
    scale = setup.scale
    total = 0
    envelopes: dict[Triple, int] = {}
    for triple, (st, weight) in setup.led.items():
        v = weight * starts[st] * setup.ways
        if v:
            envelopes[triple] = _exact_division(v, scale)
            total += envelopes[triple]
    cells: dict[str, dict[int, int]] = {c: {} for c in setup.cards}
    for o, row in figures.items():
        for x, value in enumerate(row):
            if value:
                deals = _exact_division(value * setup.ways, scale)
                for c in setup.of_class[x]:
                    cells[c][o] = deals
    held = {c: sum(row.values()) for c, row in cells.items()}
    for triple, v in envelopes.items():
        for c in triple:
            if c in held:
                held[c] += v
    if any(v != total for v in held.values()):
        raise ArithmeticError("inclusion-exclusion: a card's figures do not add up to the deals")
    return owner_count(total, cells, envelopes, setup.pz.envelope, setup.groups)


def _exact_division(value: int, by: int) -> int:
    quotient, rest = divmod(value, by)
    if rest:
        raise ArithmeticError("inclusion-exclusion: a count is not a whole number")
    return quotient


ORDER_MOST = 11
"""Past this many owners who are ruled out of a card or hold a refutation (a 12-player table
has 11 besides me), the owners' order is the greedy one (`fewest_states_first`): the search
over every set of owners still to deal (`_order`) takes ``2^owners`` steps of Python (20-80 ms
at 10-11 owners)."""
ORDER_CELLS = 25
"""Below this many ruled-out cells (owner, open card), the greedy order: there the count is
small whatever the order (12-player forum logs at 10 events: 5,000-160,000 units, the search
saving 0-50 %), and the search would cost more than it saves."""
ORDER_SETS = 1 << 16
"""Past this many sets of refutations taken as "none" to weigh (`_turn_moves`: ``2^r`` for an
owner holding ``r``, in each of the ``2^(owners - 1)`` sets of owners still to deal that hold
it), the greedy order: the search is Python no budget is charged for. The `bench_odds` logs
it runs on weigh at most 12,288 (forum at 30 events seed 14, 88 ms; forum and 45 cards at
10-100 events seeds 0-11, forum at 30 and 60 seeds 12-23); a 10-player log at 19 events
whose one player holds 14 open refutations weighed 8.4 million (4.3 s of CPU before its count
began)."""


def _order(
    cards: Sequence[str],
    forbidden: dict[str, frozenset[int]],
    names: dict[str, frozenset[int]],
    owners: Sequence[int],
    owner_of: Sequence[int],
    capacity: Sequence[int],
) -> list[int]:
    """Owners in the order expected to cost the count the least work: the best order over
    every set of owners still to deal (dynamic programming over ``2^owners`` sets), where a
    turn is expected to cost its states times ``1 +`` a state's moves. Its states: at most the
    ways the cards dealt so far (the envelope's three, then the places of the owners dealt
    before) may have left the kinds it sees, times the pins so far (`_ways`); a state's moves:
    the ways its owner may pin up to its places among the kinds it may not hold, per set of its
    refutations taken as "none" (`_turn_moves`). The greedy order (`fewest_states_first`,
    each time the owner after whom the cards split into the fewest kinds) looks only at the
    states after a turn, not at its moves: on forum logs at 30 events (seeds 0-23) it took up
    to 3.3 times this order's work, less on one log of 21 (0.26 million units against 0.35),
    and gave up on three this order finishes; a unit costs more CPU in this order, though
    (`choice.BESIDE`; `docs/odds-measurements.md`, "Where the time goes", 2026-12-02,
    afternoon: inclusion-exclusion's owners' order).
    Owners ruled out of no card and holding no refutation change no kind and pin nothing: they
    go last. With fewer than `ORDER_CELLS` ruled-out cells, more than `ORDER_MOST` other
    owners or more than `ORDER_SETS` sets of refutations to weigh, the greedy order."""
    index = {o: i for i, o in enumerate(owners)}
    involved = sorted({o for c in cards for o in forbidden[c] if o in index}
                      | {owner_of[t] for t in range(len(owner_of)) if owner_of[t] in index})
    idle = [o for o in owners if o not in involved]
    cells = sum(len(forbidden[c] & frozenset(involved)) for c in cards)
    held = [sum(1 << t for t in range(len(owner_of)) if owner_of[t] == o) for o in involved]
    weighed = sum(1 << h.bit_count() for h in held) << max(len(involved) - 1, 0)
    if len(involved) > ORDER_MOST or cells < ORDER_CELLS or weighed > ORDER_SETS:
        def kind_sizes(later: frozenset[int]) -> Iterable[int]:
            size: dict[Kind, int] = defaultdict(int)
            for c in cards:
                k = _kind(forbidden[c], names[c], later, owner_of)
                if k[0] or k[1]:
                    size[k] += 1
            return size.values()

        return fewest_states_first(owners, kind_sizes)
    bit = {o: 1 << i for i, o in enumerate(involved)}
    # per card: the owners who may not hold it, the refutations naming it (bits)
    shapes: dict[tuple[int, int], int] = defaultdict(int)
    for c in cards:
        shapes[sum(bit[o] for o in forbidden[c] if o in bit),
               sum(1 << t for t in names[c] if owner_of[t] in bit)] += 1
    spent = [capacity[o] for o in involved]
    items = list(shapes.items())
    # per set of owners still to deal (bits), the cost of the best order of them
    full = (1 << len(involved)) - 1
    best = [0] * (full + 1)
    first = [-1] * (full + 1)
    named = [0] * (full + 1)  # the refutations of the owners still to deal
    dealt = [3 + sum(spent)] * (full + 1)  # the envelope's cards, the places dealt before
    for later in range(1, full + 1):
        low = later & -later
        i = low.bit_length() - 1
        named[later] = named[later ^ low] | held[i]
        dealt[later] = dealt[later ^ low] - spent[i]
        sizes: dict[tuple[int, int], int] = defaultdict(int)
        for (no, refuted), n in items:
            if no & later or refuted & named[later]:
                sizes[no & later, refuted & named[later]] += n
        before = dealt[later]
        states = _ways(before, tuple(sorted(sizes.values()))) * (before + 1)
        # per owner still to deal, the kinds it may not hold: how many, of 2 cards or more, of
        # 3 or more (all a turn of up to 3 places needs, `_closed`)
        counts = [[0, 0, 0] for _ in involved]
        for (no, _), n in sizes.items():
            while no:
                low = no & -no
                i = low.bit_length() - 1
                count = counts[i]
                count[0] += 1
                count[1] += n >= 2
                count[2] += n >= 3
                no ^= low
        rest = later
        while rest:
            low = rest & -rest
            rest ^= low
            i = low.bit_length() - 1
            if held[i] or spent[i] > 3:
                moves = _turn_moves([n for (no, _), n in sizes.items() if no & low],
                                    [(refuted, n) for (no, refuted), n in sizes.items()
                                     if refuted & held[i] and not no & low], held[i], spent[i])
            else:
                moves = _closed(spent[i], *counts[i])
            cost = best[later ^ low] + states * (1 + moves)
            if first[later] < 0 or cost < best[later]:
                best[later], first[later] = cost, i
    order = []
    later = full
    while later:
        order.append(involved[first[later]])
        later &= ~(1 << first[later])
    return order + idle


@lru_cache(maxsize=1 << 12)  # per log some 150-800 keys: a server counting log after log
def _ways(total: int, sizes: tuple[int, ...]) -> int:
    """How many ways to take ``k_j <= n_j`` of each kind (``sizes``), ``sum k <= total``: the
    coefficients up to ``x^total`` of ``prod (1 + x + ... + x^n_j)`` added up, the polynomials
    as integers with a digit per power (wide enough for every coefficient)."""
    total = min(total, sum(sizes))
    width = math.prod(n + 1 for n in sizes).bit_length() + 1
    digits = (1 << width * (total + 1)) - 1
    x = 1 << width
    product = 1
    for n in sizes:
        product = product * (((1 << width * (n + 1)) - 1) // (x - 1)) & digits
    return product * (((1 << width * (total + 1)) - 1) // (x - 1)) >> width * total & (x - 1)


def _pins(places: int, sizes: list[int]) -> int:
    """How many ways to pin up to ``places`` cards among kinds of ``sizes`` cards (`_ways`; for
    up to 3 places, in closed form: `_closed`)."""
    if places > 3:
        return _ways(places, tuple(sorted(sizes)))
    return _closed(places, len(sizes), sum(n >= 2 for n in sizes), sum(n >= 3 for n in sizes))


def _closed(places: int, kinds: int, pairs: int, triples: int) -> int:
    """How many ways to pin up to ``places`` (at most 3) cards among ``kinds`` kinds, of which
    ``pairs`` have 2 cards or more and ``triples`` 3 or more: the coefficients of ``x^0`` to
    ``x^places`` in the product of ``1 + x + ... + x^n`` over the kinds."""
    a = kinds
    ways = (1, a, a * (a - 1) // 2 + pairs, a * (a - 1) * (a - 2) // 6 + pairs * (a - 1) + triples)
    return sum(ways[:places + 1])


def _turn_moves(barred: list[int], named: list[tuple[int, int]], mine: int, places: int
                ) -> int:
    """How many moves a state of an owner's turn has at most (`_moves`): per set of its
    refutations (``mine``, bits) taken as "none", the ways to pin up to ``places`` cards among
    the kinds it may not hold: those it is ruled out of (``barred``, their sizes) and those
    (``named``: the refutations naming them, bits, and their sizes) a refutation taken as
    "none" names."""
    moves = 0
    taken = mine
    while True:
        moves += _pins(places, barred + [n for refuted, n in named if refuted & taken])
        if not taken:
            return moves
        taken = (taken - 1) & mine


def _turns(
    order: Sequence[int],
    capacity: Sequence[int],
    rep: Sequence[str],
    forbidden: dict[str, frozenset[int]],
    names: dict[str, frozenset[int]],
    owner_of: Sequence[int],
) -> list[Turn]:
    """Each owner's turn: the kinds before it and how they merge after it."""
    turns: list[Turn] = []

    def kinds_seen(later: frozenset[int]) -> dict[int, Kind]:
        out: dict[int, Kind] = {}
        for x, c in enumerate(rep):
            k = _kind(forbidden[c], names[c], later, owner_of)
            if k[0] or k[1]:
                out[x] = k
        return out

    def ordered(kinds: set[Kind]) -> list[Kind]:
        return sorted(kinds, key=lambda k: (sorted(k[0]), sorted(k[1])))

    for i, owner in enumerate(order):
        by_class = kinds_seen(frozenset(order[i:]))
        kinds = ordered(set(by_class.values()))
        index = {k: j for j, k in enumerate(kinds)}
        kind_of = [index[by_class[x]] if x in by_class else -1 for x in range(len(rep))]
        classes = [[x for x in range(len(rep)) if kind_of[x] == j] for j in range(len(kinds))]
        rest = frozenset(order[i + 1:])
        nxt = ordered({k2 for k in kinds if (k2 := _kind(k[0], k[1], rest, owner_of)) != (
            frozenset(), frozenset())})
        nindex = {k: j for j, k in enumerate(nxt)}
        after = [nindex.get(_kind(k[0], k[1], rest, owner_of), -1) for k in kinds]
        mine = [t for t, o in enumerate(owner_of) if o == owner]
        chosen = [{t for b, t in enumerate(mine) if m >> b & 1} for m in range(1 << len(mine))]
        pinnable = [[j for j, (no, named) in enumerate(kinds) if owner in no or named & taken]
                    for taken in chosen]
        signs = [(-1) ** len(taken) for taken in chosen]
        turns.append(Turn(owner, capacity[owner], kinds, classes, kind_of, mine, after,
                          len(nxt), pinnable, signs))
    return turns


def _moves(turn: Turn, st: State) -> list[Move]:
    """Every way the owner of ``turn`` pins cards from state ``st``: for every set of its
    refutations taken as "none" (sign -1 each), ``f`` pins among the cards it may not hold."""
    out: list[Move] = []
    c = turn.capacity
    pins = st[-1]
    folded = [0] * turn.later
    for j, a in enumerate(turn.after):
        if a >= 0:
            folded[a] += st[j]
    for chosen, kinds in enumerate(turn.open):
        sign = turn.signs[chosen]
        open_kinds = [j for j in kinds if st[j]]

        def pick(p: int, left: int, counts: list[int], weight: int,
                 picks: tuple[tuple[int, int, int], ...], chosen: int = chosen,
                 open_kinds: list[int] = open_kinds) -> None:
            if p == len(open_kinds) or not left:
                f = c - left
                out.append(Move(chosen, f, picks, (*counts, pins + f),
                                weight * (-1) ** f * math.perm(c, f)))
                return
            j = open_kinds[p]
            n = st[j]
            a = turn.after[j]
            for k in range(min(n, left) + 1):
                if k and a >= 0:  # one more of the kind pinned: one fewer for later owners
                    counts = list(counts)
                    counts[a] -= 1
                pick(p + 1, left - k, counts, weight * math.comb(n, k),
                     (*picks, (j, n, k)) if k else picks)

        pick(0, c, folded, sign, ())
    return out
