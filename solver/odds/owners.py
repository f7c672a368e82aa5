"""The exact count owner by owner: hands are dealt one at a time, cards counted by kind.

The envelope is dealt first, one triple at a time; then the players (and side-card slots) in an
order chosen to keep the state small. Before each player is dealt, a card still unplaced matters
only through which *later* owners may hold it and which later players' refutations name it: its
*kind*. Cards of the same kind are interchangeable for the rest of the count, so the state is
how many cards of each kind are left, not which. A player takes ``k`` of the ``n`` cards of a
kind in ``C(n, k)`` ways, one kind at a time (the state then also holds the places the player has
left and how many cards of each of their refutations they took); their refutations are settled
once their hand is full. On forum decks the passes give almost every card its own set of
possible owners, so the card-by-card programme (`programme`) keeps every hand open at once;
here only the later owners' view of the cards is kept, and kinds merge as owners are dealt.

Every card's figure comes from one forward and one backward pass. The forward pass carries, per
state, the weighted number of ways into it in which a given card is still unplaced (one number
per *class* of cards with the same possible owners, refutations and wrong accusations: those
are alike throughout). Taking ``k`` of ``n`` cards of a kind leaves a given one of them in
``C(n - 1, k)`` of the ``C(n, k)`` ways and takes it in ``C(n - 1, k - 1)``, whatever happened
before, so forward x weight x backward gives how many deals give that card to that player.
Since the envelope is dealt first, each triple's count is its weight times the backward count
of the state it leads to: every envelope triple exactly, wrong accusations simply left out.

The work (transitions, each weighted by the classes it carries) is bounded by a `Budget`: the
same log is exact or over budget on every machine.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from ..cards import CATEGORIES
from ..game import GameLog, Triple
from .exact import as_odds
from .programme import Budget, Steps, finish
from .result import Odds
from .setup import Puzzle, Tally
from .symmetry import Group, interchangeable, merge, split

Kind = tuple[frozenset[int], frozenset[int]]
"""(later owners that may hold the cards, later players' refutations that name them)."""
State = tuple[int, ...]
"""Cards left per kind; while a player is dealt, then their places left and, per refutation of
theirs, how many of its cards they took so far."""


@dataclass
class Turn:
    """One owner's hand in the count, with the kinds of card still unplaced before it.

    While the owner is dealt, the state is the counts of the kinds as the *next* owners see
    them (the kinds this owner cannot take are folded in at once, the others once taken from),
    then the counts of the kinds this owner may take and has not yet, its places left and how
    many cards of each of its refutations it took."""

    owner: int
    capacity: int
    kinds: list[Kind]
    """Kinds of card unplaced before this owner, as this owner and the later ones see them."""
    classes: list[list[int]]
    """Per kind: its classes of card."""
    takes: list[int]
    """Kinds this owner may take, the ones only it can hold first."""
    forced: list[bool]
    """Per kind in ``takes``: only this owner can hold it (it takes them all)."""
    weights: list[tuple[int, ...]]
    """Weights (by how many of its cards are held) of this owner's refutations."""
    counted: list[tuple[int, ...]]
    """Per kind in ``takes``: positions in ``weights`` of the refutations naming it."""
    after: list[int]
    """Per kind: its kind for the next owner (-1: this owner must take them all)."""
    later: int
    """How many kinds the next owner sees."""


@dataclass
class OwnerCount:
    """Every deal counted owner by owner: the total, every card's owners, every envelope."""

    total: int
    cells: dict[str, dict[int, int]]
    """Open card -> owner index (the envelope as ``Puzzle.envelope``) -> weighted count."""
    envelopes: dict[Triple, int]
    """Weighted count of every envelope triple still possible."""


def _kinds(
    classes: Sequence[tuple[frozenset[int], frozenset[int]]],
    later: frozenset[int],
    owner_of: Sequence[int],
) -> dict[int, Kind]:
    """Class -> its kind as ``later`` owners see it (classes none of them can hold left out)."""
    out: dict[int, Kind] = {}
    for c, (owners, tallies) in enumerate(classes):
        seen = owners & later
        if seen:
            out[c] = (seen, frozenset(t for t in tallies if owner_of[t] in later))
    return out


def _order(
    classes: Sequence[tuple[frozenset[int], frozenset[int]]],
    sizes: Sequence[int],
    owners: Sequence[int],
    owner_of: Sequence[int],
) -> list[int]:
    """Owners in the order that keeps the fewest states (`fewest_states_first`, the unplaced
    cards split into kinds)."""

    def kind_sizes(later: frozenset[int]) -> Iterable[int]:
        size: dict[Kind, int] = defaultdict(int)
        for c, kind in _kinds(classes, later, owner_of).items():
            size[kind] += sizes[c]
        return size.values()

    return fewest_states_first(owners, kind_sizes)


def fewest_states_first(
    owners: Sequence[int], kind_sizes: Callable[[frozenset[int]], Iterable[int]]
) -> list[int]:
    """``owners`` in the order that keeps the fewest states, greedily: next, the owner after
    whom the cards the later owners care about split into kinds the fewest ways,
    ``prod(size of kind + 1)`` (``kind_sizes(later)``: the kinds' sizes with ``later`` still to
    deal); ties: the lowest owner."""
    left = set(owners)
    order: list[int] = []
    while left:
        rest = frozenset(left)
        best = min(sorted(left), key=lambda o: sum(
            math.log(n + 1) for n in kind_sizes(rest - {o})))
        order.append(best)
        left.discard(best)
    return order


def count_by_owner(pz: Puzzle, budget: Budget) -> OwnerCount:
    """Count every consistent deal of ``pz`` exactly, owner by owner (`OverBudget` past
    ``budget``)."""
    return finish(owner_steps(pz, budget))


def owner_steps(pz: Puzzle, budget: Budget) -> Steps[OwnerCount]:
    """`count_by_owner`, pausing after every step."""
    env = pz.envelope
    cards = sorted(pz.allowed)
    tallies = [t for t in pz.tallies if t.owner != env]
    sealed = [t for t in pz.tallies if t.owner == env]
    wrong = set(pz.accusations)
    others = [o for o in range(len(pz.owners)) if o != env]
    capacity = list(pz.capacity)
    players = [pz.owners.index(p) for p in pz.game.player_names]
    groups = interchangeable(capacity, pz.allowed, tallies, players)
    capacity, allowed, ways = merge(capacity, pz.allowed, groups)
    dealt = [o for o in others if capacity[o] > 0]
    hands = {c: frozenset(allowed[c]) & frozenset(dealt) for c in cards}

    # classes of alike cards: same hands, refutations, wrong accusations, envelope rights
    key_of: dict[str, tuple[object, ...]] = {}
    for c in cards:
        key_of[c] = (
            hands[c],
            frozenset(i for i, t in enumerate(tallies) if c in t.cards),
            env in allowed[c],
            pz.category(c),
            frozenset(i for i, t in enumerate(sealed) if c in t.cards),
            frozenset(t for t in wrong if c in t),
        )
    class_of: dict[str, int] = {}
    keys: dict[tuple[object, ...], int] = {}
    for c in cards:
        class_of[c] = keys.setdefault(key_of[c], len(keys))
    classes: list[tuple[frozenset[int], frozenset[int]]] = [
        (k[0], k[1]) for k in keys  # type: ignore[misc]
    ]
    sizes = [0] * len(classes)
    for c in cards:
        sizes[class_of[c]] += 1
    owner_of = [t.owner for t in tallies]

    turns = _turns(classes, _order(classes, sizes, dealt, owner_of), capacity, tallies)

    # the envelope, one triple at a time: the states the players start from
    first = turns[0] if turns else None
    start_kinds = {c: first.kinds.index(k) for c, k in _kinds(
        classes, frozenset(dealt), owner_of).items()} if first else {}
    base = [0] * (len(first.kinds) if first else 0)
    for c in cards:
        if class_of[c] in start_kinds:
            base[start_kinds[class_of[c]]] += 1
    stranded = {c for c in cards if class_of[c] not in start_kinds}
    entry: dict[State, int] = defaultdict(int)
    inside: dict[State, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    led: dict[Triple, tuple[State, int]] = {}
    representative = {class_of[c]: c for c in reversed(cards)}
    for triple, weight in envelope_triples(pz, allowed, stranded, budget):
        counts = list(base)
        for c in triple:
            if c in pz.allowed and class_of[c] in start_kinds:
                counts[start_kinds[class_of[c]]] -= 1
        st = tuple(counts)
        if first is not None and not _fillable(first, st, capacity):
            continue
        entry[st] += weight
        for c in triple:
            if representative.get(class_of.get(c, -1)) == c:
                inside[st][class_of[c]] += weight
        led[triple] = (st, weight)

    # every figure fits in ``width`` bits: at most (owners + 1) ** cards deals, weighted
    bound = (len(capacity) + 1) ** len(cards) * max(
        (max(t.weights) for t in tallies), default=1) ** len(tallies) * len(led)
    width = bound.bit_length() + 1
    unplaced = {st: sum((f - inside[st].get(c, 0)) << (width * c) for c in range(len(classes)))
                for st, f in entry.items()}
    backward, packed = yield from _deal(turns, dict(entry), unplaced, width, capacity, budget)
    field = (1 << width) - 1
    marginals = {o: [(v >> (width * c)) & field for c in range(len(classes))]
                 for o, v in packed.items()}

    total = 0
    envelopes: dict[Triple, int] = {}
    for triple, (st, weight) in led.items():
        v = weight * backward.get(st, 0) * ways
        if v:
            envelopes[triple] = v
            total += v
    cells: dict[str, dict[int, int]] = {c: {} for c in cards}
    for c in cards:
        for o, row in marginals.items():
            if row[class_of[c]]:
                cells[c][o] = row[class_of[c]] * ways
    return owner_count(total, cells, envelopes, env, groups)


def owner_count(total: int, cells: dict[str, dict[int, int]], envelopes: dict[Triple, int],
                env: int, groups: Sequence[Group]) -> OwnerCount:
    """The count with every card's envelope cell the sum of the triples that hold it, and each
    group of interchangeable players' cells shared among its members (`split`)."""
    for triple, v in envelopes.items():
        for c in triple:
            if c in cells:
                cells[c][env] = cells[c].get(env, 0) + v
    split(cells, groups)
    return OwnerCount(total, cells, envelopes)


def envelope_triples(
    pz: Puzzle, allowed: Mapping[str, frozenset[int]], stranded: set[str], budget: Budget
) -> Iterator[tuple[Triple, int]]:
    """Every envelope triple the log leaves possible, with its weight (the envelope's own
    tallies): per category the known envelope card, else every open card the envelope may hold
    (in ``allowed``); never a wrong accusation, always every ``stranded`` card (no player may
    hold it). One unit of ``budget`` per triple tried."""
    env = pz.envelope
    sealed = [t for t in pz.tallies if t.owner == env]
    wrong = set(pz.accusations)
    candidates: list[list[str]] = []
    for cat in CATEGORIES:
        known = [c for c in pz.game.deck.of(cat) if pz.fixed.get(c) == env]
        candidates.append(known or [c for c in pz.game.deck.of(cat)
                                    if c in pz.allowed and env in allowed[c]])
    budget.spend(math.prod(len(c) for c in candidates))
    for suspect, weapon, room in product(*candidates):
        triple = (suspect, weapon, room)
        if triple in wrong or not stranded <= set(triple):
            continue
        weight = 1
        for t in sealed:
            weight *= t.weights[sum(c in triple for c in t.cards)]
        if weight:
            yield triple, weight


def _turns(
    classes: Sequence[tuple[frozenset[int], frozenset[int]]],
    order: Sequence[int],
    capacity: Sequence[int],
    tallies: Sequence[Tally],
) -> list[Turn]:
    """Each owner's turn: the kinds before it and how they merge after it."""
    owner_of = [t.owner for t in tallies]
    turns: list[Turn] = []

    def ordered(kinds: set[Kind]) -> list[Kind]:
        return sorted(kinds, key=lambda k: (sorted(k[0]), sorted(k[1])))

    for i, owner in enumerate(order):
        by_class = _kinds(classes, frozenset(order[i:]), owner_of)
        kinds = ordered(set(by_class.values()))
        index = {k: j for j, k in enumerate(kinds)}
        members: list[list[int]] = [[] for _ in kinds]
        for c, k in sorted(by_class.items()):
            members[index[k]].append(c)
        mine = sorted({t for k in kinds for t in k[1] if owner_of[t] == owner})
        takes = sorted((j for j, k in enumerate(kinds) if owner in k[0]),
                       key=lambda j: (len(kinds[j][0]) > 1, -len(members[j]), j))
        rest = frozenset(order[i + 1:])

        def seen_next(k: Kind, rest: frozenset[int] = rest) -> Kind:
            return k[0] & rest, frozenset(t for t in k[1] if owner_of[t] in rest)

        nxt = ordered({seen_next(k) for k in kinds if k[0] & rest})
        nindex = {k: j for j, k in enumerate(nxt)}
        turns.append(Turn(
            owner, capacity[owner], kinds, members, takes,
            [len(kinds[j][0]) == 1 for j in takes], [tallies[t].weights for t in mine],
            [tuple(p for p, t in enumerate(mine) if t in kinds[j][1]) for j in takes],
            [nindex[seen_next(k)] if k[0] & rest else -1 for k in kinds], len(nxt),
        ))
    return turns


def _fillable(turn: Turn, counts: State, capacity: Sequence[int]) -> bool:
    """Whether every owner from ``turn`` on can still fill their hand from the cards left."""
    supply: dict[int, int] = defaultdict(int)
    for (owners, _), n in zip(turn.kinds, counts, strict=True):
        if n:
            for o in owners:
                supply[o] += n
    return all(supply[o] >= capacity[o] for k in turn.kinds for o in k[0])


Move = tuple[int, State, int]
"""(cards taken, next state, weight)."""


def _open(turn: Turn, st: State) -> list[Move]:
    """Fold the kinds this owner cannot take into the next owner's kinds; set out the rest."""
    counts = [0] * turn.later
    takes = set(turn.takes)
    for j, n in enumerate(st):
        if n and j not in takes:
            counts[turn.after[j]] += n
    pending = [st[j] for j in turn.takes]
    if sum(pending) < turn.capacity:
        return []
    return [(0, (*counts, *pending, turn.capacity, *([0] * len(turn.weights))), 1)]


def _take(turn: Turn, p: int, st: State) -> list[Move]:
    """The owner takes ``k`` of the ``n`` cards of its ``p``-th kind, in ``C(n, k)`` ways."""
    base = turn.later
    size = len(turn.takes)
    n = st[base + p]
    left = st[base + size]
    supply = sum(st[base + p + 1 : base + size])
    a = turn.after[turn.takes[p]]
    out: list[Move] = []
    for k in (n,) if turn.forced[p] else range(min(n, left) + 1):
        if k > left or left - k > supply:
            continue
        s = list(st)
        s[base + p] = 0
        s[base + size] = left - k
        if a >= 0:
            s[a] += n - k
        for q in turn.counted[p]:
            s[base + size + 1 + q] += k
        out.append((k, tuple(s), math.comb(n, k)))
    return out


def _close(turn: Turn, nxt: Turn | None, st: State, capacity: Sequence[int]) -> list[Move]:
    """The hand is full: settle the owner's refutations; the state is the next owner's."""
    base = turn.later + len(turn.takes)
    if st[base]:
        return []
    w = 1
    for q, ws in enumerate(turn.weights):
        w *= ws[st[base + 1 + q]]
    s2 = st[: turn.later]
    if not w or (nxt is not None and not _fillable(nxt, s2, capacity)):
        return []
    return [(0, s2, w)]


def _deal(
    turns: Sequence[Turn],
    forward: dict[State, int],
    unplaced: dict[State, int],
    width: int,
    capacity: Sequence[int],
    budget: Budget,
) -> Steps[tuple[dict[State, int], dict[int, int]]]:
    """Deal every turn forward from ``forward`` (ways into each start state; ``unplaced``: per
    state, the ways in which each class's card is still unplaced, packed ``width`` bits per
    class), then backward. Returns the ways out of each start state and, per owner, how many
    deals give it a card of each class (packed the same way)."""
    field = (1 << width) - 1
    steps: list[tuple[Turn, int, Turn | None]] = []
    for i, turn in enumerate(turns):
        nxt = turns[i + 1] if i + 1 < len(turns) else None
        steps.append((turn, -1, nxt))
        steps.extend((turn, p, nxt) for p in range(len(turn.takes)))
        steps.append((turn, len(turn.takes), nxt))
    masks: dict[tuple[int, int], int] = {}
    for turn in turns:
        for p, j in enumerate(turn.takes):
            masks[id(turn), p] = sum(field << (width * c) for c in turn.classes[j])
    moves: list[dict[State, list[Move]]] = []
    unplaceds: list[dict[State, int]] = []
    for turn, p, nxt in steps:
        taking = 0 <= p < len(turn.takes)
        mask = masks[id(turn), p] if taking else 0
        here: dict[State, list[Move]] = {}
        nf: dict[State, int] = defaultdict(int)
        nu: dict[State, int] = defaultdict(int)
        for st, f in forward.items():
            if p < 0:
                out = _open(turn, st)
            elif taking:
                out = _take(turn, p, st)
            else:
                out = _close(turn, nxt, st, capacity)
            here[st] = out
            budget.spend(1 + len(out))
            u = unplaced[st]
            n = st[turn.later + p] if taking else 0
            for k, s2, w in out:
                nf[s2] += f * w
                if not taking:
                    nu[s2] += u * w
                elif k == 0:
                    nu[s2] += u
                else:
                    nu[s2] += u * w - (u & mask) * (w - math.comb(n - 1, k))
        moves.append(here)
        unplaceds.append(unplaced)
        yield
        forward = nf
        unplaced = nu
    back: dict[State, int] = {(): 1}
    marginals: dict[int, int] = defaultdict(int)
    for si in range(len(steps) - 1, -1, -1):
        turn, p, _ = steps[si]
        taking = 0 <= p < len(turn.takes)
        mask = masks[id(turn), p] if taking else 0
        us = unplaceds[si]
        nb: dict[State, int] = {}
        got = 0
        for st, out in moves[si].items():
            b = 0
            inner = 0
            n = st[turn.later + p] if taking else 0
            for k, s2, w in out:
                b2 = back.get(s2)
                if b2:
                    b += w * b2
                    if k:
                        inner += math.comb(n - 1, k - 1) * b2
            if b:
                nb[st] = b
            if inner:
                got += (us[st] & mask) * inner
        if got:
            marginals[turn.owner] += got
        back = nb
    return back, marginals


def owner_odds(log: GameLog, pz: Puzzle, budget: Budget, refuter_model: bool) -> Odds:
    """Exact `Odds` from the count owner by owner (`OverBudget` past ``budget``)."""
    return odds_of(log, pz, count_by_owner(pz, budget), refuter_model)


def odds_of(log: GameLog, pz: Puzzle, counted: OwnerCount, refuter_model: bool) -> Odds:
    """Exact `Odds` from a count owner by owner."""
    tally = {card: {pz.owners[o]: v for o, v in row.items()}
             for card, row in counted.cells.items()}
    return as_odds(log, pz, tally, counted.envelopes, counted.total, refuter_model)
