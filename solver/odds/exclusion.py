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
*class* (cards alike throughout) is still unpinned, packed in one integer; at o's turn, the
pin of one such card at o leads to a state whose completions the backward count gives. Each
envelope triple's count is its weight times the backward count of the state it leads to.

Only refutations and notes ("holds one of") are expanded here; under the refuter model, whose
weights depend on how many of the named cards are held, this count declines (`Unsupported`) and
the other counts give the figures. The work (moves and backward look-ups) is bounded by a
`Budget`: the same log is exact or over budget on every machine.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..game import Triple
from .owners import OwnerCount, envelope_triples, fewest_states_first, owner_count
from .programme import Budget, OverBudget, Steps, finish
from .setup import Puzzle, Tally
from .symmetry import interchangeable, merge

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
    masks: list[int]
    """Per kind: the packed fields of its classes."""
    free: int
    """Packed fields of the classes no owner from this one on may rule out or name."""
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


def exclusion_steps(pz: Puzzle, budget: Budget) -> Steps[OwnerCount]:
    """`count_by_exclusion`, pausing after every owner's turn and during the backward count."""
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
    nclasses = len(keys)
    of_class: list[list[str]] = [[] for _ in range(nclasses)]
    for c in cards:
        of_class[class_of[c]].append(c)
    rep = [members[0] for members in of_class]

    order = _order(cards, forbidden, names, dealt, owner_of)
    places = sum(capacity[o] for o in dealt)
    # every partial sum fits in ``width`` bits (signed fields): a generous bound on the sum of
    # the absolute values of the terms
    bound: int = (len(pz.game.deck) ** 3 * math.factorial(places)
             * math.prod(2 ** sum(owner_of[t] == o for t in range(len(tallies)))
                         * (len(cards) + 1) ** capacity[o] * math.factorial(capacity[o])
                         for o in dealt) << 8)
    width = bound.bit_length() + 2
    field = (1 << width) - 1
    half = 1 << (width - 1)
    bias = sum(half << (width * x) for x in range(nclasses))
    turns = _turns(order, capacity, rep, forbidden, names, owner_of, width)

    def select(packed: int, mask: int) -> int:
        """The fields of ``mask`` in ``packed`` (fields are signed)."""
        return ((packed + bias) & mask) - (bias & mask)

    # the envelope, one triple at a time: the states the players start from
    later0 = frozenset(order)
    first_kinds = {k: j for j, k in enumerate(turns[0].kinds)} if turns else {}

    def kind_at_start(c: str) -> int:
        k = _kind(forbidden[c], names[c], later0, owner_of)
        return first_kinds[k] if (k[0] or k[1]) else -1

    base = [0] * len(first_kinds)
    for c in cards:
        if kind_at_start(c) >= 0:
            base[kind_at_start(c)] += 1
    stranded = {c for c in cards if not allowed[c] & frozenset(dealt)}
    entry: dict[State, int] = defaultdict(int)
    inside: dict[State, int] = defaultdict(int)
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
                inside[st] += weight << (width * class_of[c])
        led[triple] = (st, weight)
    everyone = sum(1 << (width * x) for x in range(nclasses))
    unpinned = {st: f * everyone - inside[st] for st, f in entry.items()}

    # forward: per state and class, the ways into it in which a given card of the class is
    # still unpinned (the totals come from the backward count)
    moves: list[dict[State, list[Move]]] = [{} for _ in turns]

    def moves_of(i: int, st: State) -> list[Move]:
        known_moves = moves[i].get(st)
        if known_moves is None:
            known_moves = _moves(turns[i], st)
            budget.spend(1 + len(known_moves))
            moves[i][st] = known_moves
        return known_moves

    layers: list[dict[State, int]] = []
    forward_unpinned = unpinned
    for i, turn in enumerate(turns):
        layers.append(forward_unpinned)
        nu: dict[State, int] = defaultdict(int)
        for st, u in forward_unpinned.items():
            for m in moves_of(i, st):
                v = u * m.weight
                for j, n, k in m.picks:
                    v -= select(u, turn.masks[j]) * (m.weight * k // n)
                nu[m.after] += v
        forward_unpinned = dict(nu)
        yield

    # backward, on demand: the completions of a state, times (n - pins)! at the end
    memo: list[dict[State, int]] = [{} for _ in range(len(turns) + 1)]

    def back(i: int, st: State) -> int:
        if i == len(turns):
            return math.factorial(places - st[-1])
        known_value = memo[i].get(st)
        if known_value is None:
            known_value = sum(m.weight * back(i + 1, m.after) for m in moves_of(i, st))
            memo[i][st] = known_value
        return known_value

    # every card's figure: one more pin, of sign +1, of a card the owner may hold
    marginals: dict[int, int] = defaultdict(int)
    for i, turn in enumerate(turns):
        eligible = [[j for j, (no, named) in enumerate(turn.kinds) if turn.owner not in no
                     and not any(chosen >> b & 1 for b, t in enumerate(turn.mine) if t in named)]
                    for chosen in range(1 << len(turn.mine))]
        got = 0
        for st, u in layers[i].items():
            free = 0
            pinned: dict[int, int] = defaultdict(int)
            for m in moves_of(i, st):
                places_left = turn.capacity - m.pinned
                if not places_left:
                    continue
                w = m.weight * places_left
                *left, pins = m.after
                free += w * back(i + 1, (*left, pins + 1))
                for j in eligible[m.chosen]:
                    if st[j]:
                        a = turn.after[j]
                        if a >= 0:
                            left[a] -= 1
                            pinned[j] += w * back(i + 1, (*left, pins + 1))
                            left[a] += 1
                        else:
                            pinned[j] += w * back(i + 1, (*left, pins + 1))
            got += select(u, turn.free) * free
            for j, g in pinned.items():
                got += select(u, turn.masks[j]) * g
            yield
        marginals[turn.owner] += got

    scale = math.prod(math.factorial(capacity[o]) for o in dealt)
    total = 0
    envelopes: dict[Triple, int] = {}
    for triple, (st, weight) in led.items():
        v = weight * back(0, st) * ways
        if v:
            envelopes[triple] = _exact_division(v, scale)
            total += envelopes[triple]
    cells: dict[str, dict[int, int]] = {c: {} for c in cards}
    for o, packed in marginals.items():
        fields = packed + bias
        for x in range(nclasses):
            value = ((fields >> (width * x)) & field) - half
            if value:
                for c in of_class[x]:
                    cells[c][o] = _exact_division(value * ways, scale)
    return owner_count(total, cells, envelopes, env, groups)


def _exact_division(value: int, by: int) -> int:
    quotient, rest = divmod(value, by)
    if rest:
        raise ArithmeticError("inclusion-exclusion: a count is not a whole number")
    return quotient


def _order(
    cards: Sequence[str],
    forbidden: dict[str, frozenset[int]],
    names: dict[str, frozenset[int]],
    owners: Sequence[int],
    owner_of: Sequence[int],
) -> list[int]:
    """Owners in the order that keeps the fewest states (`fewest_states_first`, the cards with
    a kind split into kinds)."""

    def kind_sizes(later: frozenset[int]) -> Iterable[int]:
        size: dict[Kind, int] = defaultdict(int)
        for c in cards:
            k = _kind(forbidden[c], names[c], later, owner_of)
            if k[0] or k[1]:
                size[k] += 1
        return size.values()

    return fewest_states_first(owners, kind_sizes)


def _turns(
    order: Sequence[int],
    capacity: Sequence[int],
    rep: Sequence[str],
    forbidden: dict[str, frozenset[int]],
    names: dict[str, frozenset[int]],
    owner_of: Sequence[int],
    width: int,
) -> list[Turn]:
    """Each owner's turn: the kinds before it and how they merge after it."""
    field = (1 << width) - 1
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
        masks = [0] * len(kinds)
        for x, k in by_class.items():
            masks[index[k]] |= field << (width * x)
        free = sum(field << (width * x) for x in range(len(rep)) if x not in by_class)
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
        turns.append(Turn(owner, capacity[owner], kinds, masks, free, mine, after, len(nxt),
                          pinnable, signs))
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
