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
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

from ..cards import CATEGORIES
from ..game import GameLog, Triple
from .exact import as_odds
from .programme import Budget
from .result import Odds
from .setup import Puzzle, Tally
from .symmetry import interchangeable, merge, split

Kind = tuple[frozenset[int], frozenset[int]]
"""(later owners that may hold the cards, later players' refutations that name them)."""
State = tuple[int, ...]
"""Cards left per kind; while a player is dealt, then their places left and, per refutation of
theirs, how many of its cards they took so far."""


@dataclass
class Turn:
    """One owner's hand in the count, with the kinds of card still unplaced before it."""

    owner: int
    capacity: int
    kinds: list[Kind]
    """Kinds of card unplaced before this owner, as the later owners (this one included) see
    them; the state's counts are in this order."""
    alive: list[int]
    """Classes of card that may still be unplaced (U vectors are in this order)."""
    members: list[list[int]]
    """Per kind: positions in ``alive`` of its classes."""
    takes: list[int]
    """Kinds this owner may take, the ones only it can hold first."""
    forced: list[bool]
    """Per kind in ``takes``: only this owner can hold it (it takes them all)."""
    tallies: list[tuple[int, ...]]
    """Weights (by how many of its cards are held) of this owner's refutations."""
    counted: list[tuple[int, ...]]
    """Per kind in ``takes``: positions in ``tallies`` of the refutations naming it."""
    after: list[int]
    """Per kind: its kind for the next owner (-1: this owner must take them all)."""


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
    """Owners in the order that keeps the fewest states (greedy: after each owner, the fewest
    ways to split the unplaced cards into kinds, ``prod(size of kind + 1)``)."""
    left = set(owners)
    order: list[int] = []
    while left:

        def spread(o: int) -> float:
            later = frozenset(left - {o})
            size: dict[Kind, int] = defaultdict(int)
            for c, kind in _kinds(classes, later, owner_of).items():
                size[kind] += sizes[c]
            return sum(math.log(n + 1) for n in size.values())

        best = min(sorted(left), key=spread)
        order.append(best)
        left.discard(best)
    return order


def count_by_owner(pz: Puzzle, budget: Budget) -> OwnerCount:
    """Count every consistent deal of ``pz`` exactly, owner by owner (`OverBudget` past
    ``budget``)."""
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
    candidates: list[list[str]] = []
    for cat in CATEGORIES:
        known = [c for c in pz.game.deck.of(cat) if pz.fixed.get(c) == env]
        candidates.append(known or [c for c in pz.game.deck.of(cat)
                                    if c in pz.allowed and env in allowed[c]])
    entry: dict[State, int] = defaultdict(int)
    inside: dict[State, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    led: dict[Triple, tuple[State, int]] = {}
    representative = {class_of[c]: c for c in reversed(cards)}
    for s, w, r in product(*candidates):
        triple = (s, w, r)
        if triple in wrong or not stranded <= set(triple):
            continue
        weight = 1
        for t in sealed:
            weight *= t.weights[sum(c in triple for c in t.cards)]
        if not weight:
            continue
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

    forward: dict[State, int] = dict(entry)
    unplaced: dict[State, list[int]] = {}
    if first is not None:
        for st, f in entry.items():
            unplaced[st] = [f - inside[st].get(c, 0) for c in first.alive]
    marginals: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    backward = _deal(turns, forward, unplaced, marginals, capacity, budget)

    total = 0
    envelopes: dict[Triple, int] = {}
    for triple, (st, weight) in led.items():
        v = weight * backward.get(st, 0) * ways
        if v:
            envelopes[triple] = v
            total += v
    cells: dict[str, dict[int, int]] = {c: {} for c in cards}
    for c in cards:
        for o, v in marginals[class_of[c]].items():
            if v:
                cells[c][o] = v * ways
    for triple, v in envelopes.items():
        for c in triple:
            if c in cells:
                cells[c][env] = cells[c].get(env, 0) + v
    split(cells, groups)
    return OwnerCount(total, cells, envelopes)


def _turns(
    classes: Sequence[tuple[frozenset[int], frozenset[int]]],
    order: Sequence[int],
    capacity: Sequence[int],
    tallies: Sequence[Tally],
) -> list[Turn]:
    """Each owner's turn: the kinds before it and how they merge after it."""
    owner_of = [t.owner for t in tallies]
    turns: list[Turn] = []
    for i, owner in enumerate(order):
        later = frozenset(order[i:])
        by_class = _kinds(classes, later, owner_of)
        kinds = sorted(set(by_class.values()), key=lambda k: (sorted(k[0]), sorted(k[1])))
        index = {k: j for j, k in enumerate(kinds)}
        alive = sorted(by_class)
        position = {c: p for p, c in enumerate(alive)}
        members: list[list[int]] = [[] for _ in kinds]
        for c, k in by_class.items():
            members[index[k]].append(position[c])
        mine = [t for t in sorted({t for k in kinds for t in k[1]}) if owner_of[t] == owner]
        takes = sorted((j for j, k in enumerate(kinds) if owner in k[0]),
                       key=lambda j: (len(kinds[j][0]) > 1, j))
        rest = later - {owner}
        nxt = sorted({(k[0] & rest, frozenset(t for t in k[1] if owner_of[t] != owner))
                      for k in kinds if k[0] & rest},
                     key=lambda k: (sorted(k[0]), sorted(k[1])))
        nindex = {k: j for j, k in enumerate(nxt)}
        after = [nindex.get((k[0] & rest, frozenset(t for t in k[1] if owner_of[t] != owner)),
                            -1) if k[0] & rest else -1 for k in kinds]
        turns.append(Turn(
            owner, capacity[owner], kinds, alive, members, takes,
            [len(kinds[j][0]) == 1 for j in takes], [tallies[t].weights for t in mine],
            [tuple(p for p, t in enumerate(mine) if t in kinds[j][1]) for j in takes], after,
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


def _deal(
    turns: Sequence[Turn],
    forward: dict[State, int],
    unplaced: dict[State, list[int]],
    marginals: dict[int, dict[int, int]],
    capacity: Sequence[int],
    budget: Budget,
) -> dict[State, int]:
    """Deal every turn forward from ``forward`` (ways into each start state, ``unplaced``: the
    ways with each alive class's card still unplaced), then backward; adds every player's card
    counts into ``marginals`` (class -> owner -> count) and returns the ways out of each start
    state."""
    # Each step: (turn, kind position in turn.takes, or -1 for closing the hand, its next turn)
    steps: list[tuple[Turn, int, Turn | None]] = []
    for i, turn in enumerate(turns):
        nxt = turns[i + 1] if i + 1 < len(turns) else None
        steps.extend((turn, p, nxt) for p in range(len(turn.takes)))
        steps.append((turn, -1, nxt))
    moves: list[dict[State, list[tuple[int, State, int]]]] = []
    forwards: list[dict[State, int]] = []
    unplaceds: list[dict[State, list[int]]] = []
    for si, (turn, p, nxt) in enumerate(steps):
        if si == 0 or steps[si - 1][0] is not turn:
            # open the hand: places left, and a count per refutation of this owner
            tail = (turn.capacity, *([0] * len(turn.tallies)))
            forward = {st + tail: f for st, f in forward.items()}
            unplaced = {st + tail: u for st, u in unplaced.items()}
        forwards.append(forward)
        unplaceds.append(unplaced)
        here: dict[State, list[tuple[int, State, int]]] = {}
        nf: dict[State, int] = defaultdict(int)
        nu: dict[State, list[int]] = {}
        nkinds = len(turn.kinds)
        width = len(turn.alive)
        if p >= 0:
            j = turn.takes[p]
            forced = turn.forced[p]
            counted = turn.counted[p]
            supply_after = turn.takes[p + 1:]
            mem = turn.members[j]
            for st, f in forward.items():
                n = st[j]
                left = st[nkinds]
                later = sum(st[x] for x in supply_after)
                ks = (n,) if forced else range(min(n, left) + 1)
                out: list[tuple[int, State, int]] = []
                for k in ks:
                    if k > left or left - k > later:
                        continue
                    s = list(st)
                    s[j] = n - k
                    s[nkinds] = left - k
                    for q in counted:
                        s[nkinds + 1 + q] += k
                    out.append((k, tuple(s), math.comb(n, k)))
                here[st] = out
                budget.spend(len(out) * (1 + width // 8))
                u = unplaced[st]
                for k, s2, w in out:
                    nf[s2] += f * w
                    if k == 0:
                        moved = u
                    else:
                        keep = math.comb(n - 1, k)
                        moved = [x * w for x in u]
                        for m in mem:
                            moved[m] = u[m] * keep
                    prev = nu.get(s2)
                    nu[s2] = moved if prev is None else [a + b for a, b in zip(
                        prev, moved, strict=True)]
        else:  # close the hand: settle the refutations, see the cards as later owners do
            keep_at = [turn.alive.index(c) for c in nxt.alive] if nxt else []
            weights = turn.tallies
            for st, f in forward.items():
                out = []
                if st[nkinds] == 0:
                    w = 1
                    for q, ws in enumerate(weights):
                        w *= ws[st[nkinds + 1 + q]]
                    counts = [0] * (len(nxt.kinds) if nxt else 0)
                    dead = False
                    for j2, n in enumerate(st[:nkinds]):
                        if n:
                            a = turn.after[j2]
                            if a < 0:
                                dead = True
                                break
                            counts[a] += n
                    s2 = tuple(counts)
                    if w and not dead and (nxt is None or _fillable(nxt, s2, capacity)):
                        out.append((0, s2, w))
                here[st] = out
                budget.spend(len(out) * (1 + width // 8))
                u = unplaced[st]
                for _, s2, w in out:
                    nf[s2] += f * w
                    moved = [u[x] * w for x in keep_at]
                    prev = nu.get(s2)
                    nu[s2] = moved if prev is None else [a + b for a, b in zip(
                        prev, moved, strict=True)]
        moves.append(here)
        forward = dict(nf)
        unplaced = nu
    # backward
    back: dict[State, int] = {(): 1}
    for si in range(len(steps) - 1, -1, -1):
        turn, p, _ = steps[si]
        nb: dict[State, int] = {}
        if p >= 0:
            j = turn.takes[p]
            mem = turn.members[j]
            us = unplaceds[si]
            for st, out in moves[si].items():
                b = 0
                n = st[j]
                u = us[st]
                for k, s2, w in out:
                    b2 = back.get(s2)
                    if not b2:
                        continue
                    b += w * b2
                    if k:
                        inner = math.comb(n - 1, k - 1) * b2
                        for m in mem:
                            marginals[turn.alive[m]][turn.owner] += u[m] * inner
                if b:
                    nb[st] = b
        else:
            for st, out in moves[si].items():
                b = sum(w * back.get(s2, 0) for _, s2, w in out)
                if b:
                    nb[st] = b
        back = nb
        if si == 0 or steps[si - 1][0] is not turn:
            cut = 1 + len(turn.tallies)
            back = {st[:-cut]: b for st, b in back.items()}
    return back


def owner_odds(log: GameLog, pz: Puzzle, budget: Budget, refuter_model: bool) -> Odds:
    """Exact `Odds` from the count owner by owner (`OverBudget` past ``budget``)."""
    counted = count_by_owner(pz, budget)
    tally = {card: {pz.owners[o]: v for o, v in row.items()}
             for card, row in counted.cells.items()}
    return as_odds(log, pz, tally, counted.envelopes, counted.total, refuter_model)
