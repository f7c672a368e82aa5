"""Exact odds: how likely each owner holds each card, and each envelope triple, given the log.

Every deal consistent with the log is equally likely (a fair shuffle). The count is exact
(Python integers): the SAT grid first settles every forced cell, so what is left is cards with a
set of possible owners, hand sizes, the open "holds at least one of" refutations, and wrong
accusations. A dynamic programme over the cards, whose state is the room left in every hand and
in the envelope's three one-card slots plus the open refutations, counts the deals; a backward
pass gives every card's marginal at once, and the forward pass carries the counts split by
envelope triple. Interchangeable cards are dealt as one block (binomial weights); wrong
accusations are subtracted by inclusion-exclusion. See ``docs/odds.md``. Past a budget (very
large custom games) the figures come from a Markov chain over deals instead, labelled
approximate, with a standard error per figure.
"""

from __future__ import annotations

import math
import random
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import accumulate, product
from typing import Any

import numpy as np
from pysat.solvers import Solver

from .cards import CATEGORIES, Category
from .errors import ContradictionError
from .game import (
    ENVELOPE,
    FIRST_IN_ORDER,
    Accusation,
    Game,
    GameLog,
    Suggestion,
    Triple,
)
from .model import DealModel
from .notebook import SOLVER, Grid, Knowledge, Notebook

Number = Fraction | float
"""An exact probability (`Fraction`) or an approximate one (`float`)."""

DEFAULT_BUDGET = 200_000
"""Programme transitions allowed before falling back to sampling (a transition that carries
many envelope combinations costs more)."""
EXACT_SECONDS = 0.4
"""Time the exact count of a large game may take before falling back to sampling."""
LARGE_GAME = 24
"""Decks with more cards than this (beyond the classic box) get the time limit too."""
SAMPLING_SECONDS = 0.4
"""Time the Markov chain may take when the exact count is over budget."""
CHOICE_WEIGHT = 6
"""Refuter model weights are scaled by lcm(1, 2, 3) so that counts stay integers."""


@dataclass(frozen=True)
class Odds:
    """Probabilities for every card and owner, and for every envelope triple still possible."""

    game: Game
    """The setup."""
    probabilities: Mapping[str, Mapping[str, Number]]
    """card -> owner -> probability that the owner holds the card (every card, every owner)."""
    envelope_odds: tuple[tuple[str, str, str, Number], ...]
    """(suspect, weapon, room, probability) for every possible envelope, most likely first."""
    exact: bool
    """True for an exact count; False for the sampling fallback."""
    refuter_model: bool = False
    """Whether a refuter with several matches was assumed to show one at random."""
    error: Mapping[str, Mapping[str, float]] | None = None
    """Approximate only: standard error of each figure in ``probabilities``."""
    envelope_error: Mapping[Triple, float] | None = None
    """Approximate only: standard error of each envelope triple's probability."""
    deals: int | None = None
    """Exact only: the number of consistent deals (weighted, scaled, under the refuter model)."""

    def envelope(self, triple: Triple) -> Number:
        """The probability that ``triple`` is the answer."""
        return next((p for s, w, r, p in self.envelope_odds if (s, w, r) == triple), 0)

    def entropy(self) -> float:
        """Entropy of the envelope distribution, in bits."""
        return entropy(float(p) for *_, p in self.envelope_odds)


def entropy(probabilities: Iterable[float]) -> float:
    """Shannon entropy in bits of a distribution (zeros ignored)."""
    return -sum(p * math.log2(p) for p in probabilities if p > 0)


# --- the simplified problem ------------------------------------------------------------------


@dataclass(frozen=True)
class _Tally:
    """A weight on how many of ``cards`` the player ``owner`` holds (a refutation, or a choice)."""

    owner: int
    cards: tuple[str, ...]
    weights: tuple[int, ...]
    """Weight by count held, index 0..len(cards)."""


@dataclass
class Puzzle:
    """What is left to count once the SAT grid has settled every forced cell."""

    game: Game
    """The setup."""
    owners: tuple[str, ...]
    """``game.owners``; owners are referred to by index into it."""
    envelope: int
    """Index of the envelope in ``owners``."""
    fixed: dict[str, int]
    """card -> owner index for cards whose owner is certain."""
    allowed: dict[str, frozenset[int]]
    """Open cards -> possible owner indices."""
    capacity: list[int]
    """Open places left per owner (the envelope's entry is unused)."""
    tallies: list[_Tally]
    """Open refutations (and, under the refuter model, the weights of seen ones)."""
    accusations: list[Triple]
    """Wrong accusations not yet excluded by the grid."""

    def category(self, card: str) -> Category:
        """The category of ``card``."""
        return self.game.category_of(card)


def puzzle(log: GameLog, grid: Grid, *, refuter_model: bool = False) -> Puzzle:
    """Reduce ``log`` to open cards, hand sizes left, open refutations and wrong accusations."""
    game = log.game
    owners = game.owners
    index = {o: i for i, o in enumerate(owners)}
    env = index[ENVELOPE]
    face_up = set(game.face_up)
    fixed: dict[str, int] = {}
    allowed: dict[str, frozenset[int]] = {}
    capacity = [game.capacity(o) for o in owners]
    for card in game.deck:
        if card in face_up:
            continue
        cells = grid.cells[card]
        holder = next((o for o, k in cells.items() if k is Knowledge.YES), None)
        if holder is not None:
            fixed[card] = index[holder]
            capacity[index[holder]] -= 1
        else:
            allowed[card] = frozenset(index[o] for o, k in cells.items() if k is Knowledge.MAYBE)

    def state(owner: int, card: str) -> str:
        if card in fixed:
            return "yes" if fixed[card] == owner else "no"
        return "maybe" if owner in allowed.get(card, ()) else "no"

    tallies: list[_Tally] = []
    accusations: list[Triple] = []
    for event in log.events:
        if isinstance(event, Accusation):
            if not event.correct and all(state(env, c) != "no" for c in event.cards):
                accusations.append(event.cards)
            continue
        if not isinstance(event, Suggestion) or event.refuted_by is None:
            continue
        refuter = index[event.refuted_by]
        named = [c for c in event.cards if c not in face_up]
        if event.shown is None:
            if any(state(refuter, c) == "yes" for c in named):
                continue
            open_cards = tuple(c for c in named if state(refuter, c) == "maybe")
            tallies.append(_Tally(refuter, open_cards, (0,) + (1,) * len(open_cards)))
        elif (
            refuter_model
            and event.shown_by_rule != FIRST_IN_ORDER
            and event.refuted_by != game.me
        ):
            others = [c for c in named if c != event.shown]
            held = 1 + sum(state(refuter, c) == "yes" for c in others)
            open_cards = tuple(c for c in others if state(refuter, c) == "maybe")
            if open_cards:
                weights = tuple(CHOICE_WEIGHT // (held + j) for j in range(len(open_cards) + 1))
                tallies.append(_Tally(refuter, open_cards, weights))
    return Puzzle(game, owners, env, fixed, allowed, capacity, tallies, accusations)


# --- the dynamic programme -------------------------------------------------------------------


class OverBudget(Exception):
    """The exact count would take more states (or time) than allowed."""


@dataclass
class _Budget:
    """What the exact count may still spend: transitions, and time until ``deadline``."""

    transitions: int
    deadline: float | None = None

    def spend(self, transitions: int) -> None:
        self.transitions -= transitions
        if self.transitions < 0 or (
            self.deadline is not None and time.perf_counter() > self.deadline
        ):
            raise OverBudget


@dataclass
class _Layer:
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


State = tuple[int, ...]
Transition = tuple[int, State, int]
"""(label: owner for a card, count for a block share; next state; weight)."""


@dataclass
class _Run:
    """The programme for one set of open cards, counted forward and backward."""

    layers: list[_Layer]
    start: State
    trans: list[dict[State, list[Transition]]]
    back: list[dict[State, int]]
    total: int
    marginals: list[dict[int, int]]
    classes: list[list[tuple[str, ...]]] = field(default_factory=list)
    """Per envelope axis (category): the candidate classes, in index order from 1."""
    envelope: dict[tuple[int, ...], int] | None = None
    """Counts by envelope class triple (index of the class per category, from 1)."""
    factor: int = 1


def _order(singles: list[str], tallies: Sequence[_Tally]) -> list[str]:
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


def _layers(
    allowed: Mapping[str, frozenset[int]],
    tallies: Sequence[_Tally],
    owners: int,
    axes: Mapping[int, int],
) -> tuple[list[_Layer], list[list[tuple[str, ...]]], int]:
    """The programme's steps: refutation cards one by one, then blocks of interchangeable cards
    owner by owner."""
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
    classes: list[list[tuple[str, ...]]] = [[] for _ in CATEGORIES]

    def envelope_class(owners_of: Iterable[int], cards: tuple[str, ...]) -> int:
        for o in owners_of:
            if o in axes:
                classes[axes[o]].append(cards)
                return len(classes[axes[o]])
        return 0

    last_of = {}
    order = _order(singles, tallies) + free
    for pos, card in enumerate(order):
        for i, t in enumerate(tallies):
            if card in t.cards:
                last_of[i] = pos
    single_layers: list[_Layer] = []
    for pos, card in enumerate(order):
        hooks = tuple((i, t.owner) for i, t in enumerate(tallies) if card in t.cards)
        closes = tuple(i for i, p in last_of.items() if p == pos)
        reach = tuple(sorted(allowed[card]))
        single_layers.append(_Layer(card=card, allowed=reach, hooks=hooks, closes=closes,
                             changed=reach, envelope_class=envelope_class(reach, (card,))))
    # Blocks are dealt owner by owner (each block keeps its own count of cards left), so an
    # owner's hand is settled before the next owner's is opened: few hand-size states at once.
    ordered: list[tuple[frozenset[int], list[str]]] = sorted(
        blocks.items(), key=lambda kv: (len(kv[0]), sorted(kv[0]))
    )
    block_owners = [sorted(o, key=lambda x: (x in axes, x)) for o, _ in ordered]
    classes_of = [envelope_class(o, tuple(cards)) for o, cards in ordered]
    every = sorted({o for members in block_owners for o in members}, key=lambda x: (x in axes, x))
    block_layers: list[_Layer] = []
    for owner in every:
        for bi, (members, (_, cards)) in enumerate(zip(block_owners, ordered, strict=True)):
            if owner in members:
                block_layers.append(
                    _Layer(block=tuple(cards), owner=owner, first=owner == members[0],
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


def _saturation(weights: Sequence[int]) -> int:
    """The smallest count from which the weight no longer changes."""
    top = len(weights) - 1
    while top > 0 and weights[top - 1] == weights[top]:
        top -= 1
    return top


def _count(
    capacity: Sequence[int],
    allowed: Mapping[str, frozenset[int]],
    tallies: Sequence[_Tally],
    budget: _Budget,
    axes: Mapping[int, int] | None = None,
) -> _Run:
    """Count the deals of ``allowed`` cards into ``capacity`` places, weighted by ``tallies``.

    With ``axes`` (envelope owner -> category axis) the forward pass also keeps, per state, the
    counts split by which envelope candidates went in, so the end state gives every triple.
    """
    n = len(capacity)
    layers, classes, nblocks = _layers(allowed, tallies, n, axes or {})
    saturation = [_saturation(t.weights) for t in tallies]
    base = n + nblocks
    start: State = (*capacity, *([0] * nblocks), *([0] * len(tallies)))
    end: State = tuple([0] * (base + len(tallies)))
    first_room = [0] * n
    for layer in layers:
        if layer.card is not None:
            for o in layer.allowed:
                first_room[o] += 1
        else:
            first_room[layer.owner] += len(layer.block)
    if any(c > r or c < 0 for c, r in zip(capacity, first_room, strict=True)):
        return _Run(layers, start, [], [], 0, [], classes)

    def step(layer: _Layer, st: State) -> list[Transition]:
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
            if weight:
                out.append((o, tuple(s), weight))
        return out

    track = axes is not None
    # Envelope counts per state: (class of the suspect, weapon, room slot card; 0 = empty) ->
    # count. Sparse: until the last envelope slots are dealt, few combinations are live.
    Identity = dict[tuple[int, ...], int]
    arrays: dict[State, Identity] = {start: {(0, 0, 0): 1}} if track else {}
    forward: list[dict[State, int]] = [{start: 1}]
    trans: list[dict[State, list[Transition]]] = []
    for layer in layers:
        nxt: dict[State, int] = defaultdict(int)
        nxt_arrays: dict[State, Identity] = {}
        shared: set[State] = set()
        here: dict[State, list[Transition]] = {}
        block = layer.card is None
        cls = layer.envelope_class
        for st, f in forward[-1].items():
            moves = step(layer, st)
            here[st] = moves
            for _, st2, w in moves:
                nxt[st2] += f * w
            if not track:
                budget.spend(len(moves))
                continue
            ident = arrays[st]
            budget.spend(len(moves) * (1 + len(ident) // 16))
            for label, st2, w in moves:
                owner = layer.owner if block else label
                moved: Identity
                if owner in axes and (label == 1 or not block):  # type: ignore[operator]
                    axis = axes[owner]  # type: ignore[index]
                    moved = {
                        (*key[:axis], cls, *key[axis + 1 :]): v * w
                        for key, v in ident.items()
                        if key[axis] == 0
                    }
                    owned = True
                elif w == 1:
                    moved, owned = ident, False
                else:
                    moved, owned = {key: v * w for key, v in ident.items()}, True
                prev = nxt_arrays.get(st2)
                if prev is None:
                    nxt_arrays[st2] = moved
                    if not owned:
                        shared.add(st2)
                    continue
                if st2 in shared:
                    prev = nxt_arrays[st2] = dict(prev)
                    shared.discard(st2)
                for key, v in moved.items():
                    prev[key] = prev.get(key, 0) + v
        trans.append(here)
        forward.append(nxt)
        arrays = nxt_arrays
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
    run = _Run(layers, start, trans, back, total, marginals, classes)
    if track:
        run.envelope = arrays.get(end)
    return run


def _card_counts(run: _Run) -> dict[str, dict[int, int]]:
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


# --- the whole count -------------------------------------------------------------------------


@dataclass
class Count:
    """The exact count of a log's deals, ready for marginals and for sampling.

    The envelope is three owners, one per category, each with room for one card. Wrong
    accusations are subtracted (inclusion-exclusion: the deals with each accused envelope are
    counted apart; distinct envelopes never overlap).
    """

    pz: Puzzle
    run: _Run
    """Every deal, wrong accusations ignored."""
    excluded: list[tuple[Triple, _Run]]
    """For each wrong accusation still possible: the deals with exactly that envelope."""
    envelope_owner: dict[Category, int]
    """The programme's owner index of each category's envelope slot."""

    @property
    def total(self) -> int:
        """The (weighted) number of consistent deals."""
        return self.run.total - sum(r.total for _, r in self.excluded)


def _prepared(
    pz: Puzzle, envelope: Triple | None = None
) -> tuple[list[int], dict[str, frozenset[int]], list[_Tally], int, dict[Category, int]] | None:
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
    tallies: list[_Tally] = []
    for t in pz.tallies:
        cards = tuple(c for c in t.cards if c not in removed)
        weights = t.weights[: len(cards) + 1]
        if cards:
            tallies.append(_Tally(t.owner, cards, weights))
        else:
            factor *= weights[0]
    if factor == 0:
        return None
    return capacity, allowed, tallies, factor, slot


def time_limit(pz: Puzzle, seconds: float | None = EXACT_SECONDS) -> float | None:
    """The time the exact count of ``pz`` may take: none for classic-size decks."""
    return seconds if len(pz.game.deck) > LARGE_GAME else None


def count(pz: Puzzle, budget: int = DEFAULT_BUDGET, seconds: float | None = None) -> Count:
    """Count every consistent deal exactly; `OverBudget` past ``budget`` transitions or
    ``seconds``."""
    remaining = _Budget(budget, None if seconds is None else time.perf_counter() + seconds)
    prepared = _prepared(pz)
    if prepared is None:
        raise ContradictionError((), "no deal fits the log")
    capacity, allowed, tallies, factor, slot = prepared
    axes = {slot[cat]: i for i, cat in enumerate(CATEGORIES)}
    run = _count(capacity, allowed, tallies, remaining, axes)
    run.factor = factor
    run.total *= factor
    excluded: list[tuple[Triple, _Run]] = []
    for triple in sorted(set(pz.accusations)):
        fixed = _prepared(pz, triple)
        if fixed is None:
            continue
        capacity, allowed, tallies, factor, _ = fixed
        sub = _count(capacity, allowed, tallies, remaining)
        sub.factor = factor
        sub.total *= factor
        if sub.total:
            excluded.append((triple, sub))
    return Count(pz, run, excluded, slot)


# --- from counts to probabilities ------------------------------------------------------------


def _envelope_counts(counted: Count) -> dict[Triple, int]:
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


def _exact_odds(log: GameLog, counted: Count, refuter_model: bool) -> Odds:
    pz = counted.pz
    total = counted.total
    if total <= 0:
        raise ContradictionError((), "no deal fits the log")
    slots = {i: ENVELOPE for i in counted.envelope_owner.values()}
    name = {i: o for i, o in enumerate(pz.owners)} | slots
    tally: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for card, by_owner in _card_counts(counted.run).items():
        for o, v in by_owner.items():
            tally[card][name[o]] += v
    for triple, sub in counted.excluded:
        for card, by_owner in _card_counts(sub).items():
            for o, v in by_owner.items():
                tally[card][name[o]] -= v
        for card in triple:
            if card in pz.allowed:
                tally[card][ENVELOPE] -= sub.total
    probabilities: dict[str, dict[str, Number]] = {}
    for card in pz.game.deck:
        row: dict[str, Number] = {}
        for i, owner in enumerate(pz.owners):
            if card in pz.fixed:
                row[owner] = Fraction(int(pz.fixed[card] == i))
            elif card in pz.allowed:
                row[owner] = Fraction(tally[card].get(owner, 0), total)
            else:
                row[owner] = Fraction(0)
        probabilities[card] = row
    envelope_odds = sorted(
        ((s, w, r, Fraction(v, total)) for (s, w, r), v in _envelope_counts(counted).items()),
        key=lambda t: (-t[3], t[:3]),
    )
    return Odds(log.game, probabilities, tuple(envelope_odds), True, refuter_model,
                deals=total)


def grid_of(log: GameLog) -> Grid:
    """The SAT grid of the log (`ContradictionError` when no deal fits)."""
    with Notebook(log.game, log.events) as notebook:
        return notebook.grid()


def odds(
    log: GameLog,
    *,
    refuter_model: bool = False,
    budget: int = DEFAULT_BUDGET,
    exact_seconds: float | None = EXACT_SECONDS,
    seconds: float = SAMPLING_SECONDS,
    seed: int = 0,
    grid: Grid | None = None,
) -> Odds:
    """Probabilities for every card and owner and every envelope triple, given ``log``.

    Exact unless the count needs more than ``budget`` transitions (or, for a deck of more than
    `LARGE_GAME` cards, ``exact_seconds``); then a Markov chain runs for about
    ``seconds`` and every figure carries a standard error. Raises `ContradictionError` when no
    deal fits the log.
    """
    grid = grid if grid is not None else grid_of(log)
    pz = puzzle(log, grid, refuter_model=refuter_model)
    try:
        counted = count(pz, budget, time_limit(pz, exact_seconds))
    except OverBudget:
        return sampled_odds(log, pz, seconds=seconds, seed=seed, refuter_model=refuter_model)
    return _exact_odds(log, counted, refuter_model)


# --- exact samples (for the advisor) ---------------------------------------------------------


@dataclass
class DealMatrix:
    """Deals drawn in proportion to their weight, one row per deal."""

    cards: tuple[str, ...]
    """Column order: every card of the deck."""
    owners: Any
    """``owners[i, j]``: index into ``game.owners`` of who holds card j in deal i (-1: face up)."""
    envelope: Any
    """``envelope[i]``: index into ``triples`` of deal i's envelope."""
    triples: list[Triple]
    """The envelopes that occur."""


def sample_deals(counted: Count, size: int, seed: int = 0) -> DealMatrix:
    """``size`` deals drawn exactly in proportion to their weight (vectorised over deals).

    All deals walk the programme together: at each step the deals in the same state choose
    their next step at once, in proportion to weight times the count of completions. Block
    cards are then placed by a random permutation per deal. Deals with a wrongly accused
    envelope are drawn again (rejection keeps the draw exact).
    """
    pz = counted.pz
    run = counted.run
    gen = np.random.default_rng(seed)
    cards = tuple(pz.game.deck)
    column = {c: j for j, c in enumerate(cards)}
    slots = set(counted.envelope_owner.values())

    def owner_of(label: int) -> int:
        return pz.envelope if label in slots else label

    wrong = {t for t, _ in counted.excluded}
    rows: list[Any] = []
    have = 0
    while have < size:
        want = size - have + (size // 4 if wrong else 0)
        owners = np.full((want, len(cards)), -1, dtype=np.int16)
        for card, o in pz.fixed.items():
            owners[:, column[card]] = o
        states: list[State] = [run.start]
        ids = np.zeros(want, dtype=np.int64)
        shares: dict[tuple[str, ...], list[tuple[int, Any]]] = defaultdict(list)
        for i, layer in enumerate(run.layers):
            later = run.back[i + 1]
            labels = np.empty(want, dtype=np.int64)
            next_ids = np.empty(want, dtype=np.int64)
            next_states: dict[State, int] = {}
            order = np.argsort(ids, kind="stable")
            unique, starts = np.unique(ids[order], return_index=True)
            ends = [*starts[1:], want]
            for u, lo, hi in zip(unique.tolist(), starts.tolist(), ends, strict=True):
                members = order[lo:hi]
                moves = run.trans[i][states[u]]
                if len(moves) == 1:
                    choice = moves[0]
                    next_ids[members] = next_states.setdefault(choice[1], len(next_states))
                    labels[members] = choice[0]
                    continue
                cumulative = list(accumulate(w * later.get(s2, 0) for _, s2, w in moves))
                top = cumulative[-1]
                draws = gen.random(len(members)) * top
                if isinstance(top, int) and top > 2**52:
                    scale = top >> 52
                    cumulative = [c // scale for c in cumulative]
                    draws = draws / scale
                picks = np.searchsorted(np.array(cumulative, dtype=float), draws, side="right")
                picks = np.minimum(picks, len(moves) - 1)
                move_ids = np.array(
                    [next_states.setdefault(s2, len(next_states)) for _, s2, _ in moves]
                )
                next_ids[members] = move_ids[picks]
                labels[members] = np.array([m[0] for m in moves])[picks]
            states = list(next_states)
            ids = next_ids
            if layer.card is not None:
                owners[:, column[layer.card]] = np.vectorize(owner_of)(labels)
            else:
                shares[layer.block].append((owner_of(layer.owner), labels))
        for block, parts in shares.items():
            shares_of = np.stack([k for _, k in parts], axis=1)
            bounds = shares_of.cumsum(axis=1)
            positions = np.arange(len(block))
            part = (positions[None, :, None] >= bounds[:, None, :]).sum(axis=2)
            holder = np.array([o for o, _ in parts])[part]
            perm = gen.random((want, len(block))).argsort(axis=1)
            block_columns = np.array([column[c] for c in block])[perm]
            owners[np.arange(want)[:, None], block_columns] = holder
        if wrong:
            keep = np.ones(want, dtype=bool)
            for triple in wrong:
                hit = np.ones(want, dtype=bool)
                for c in triple:
                    hit &= owners[:, column[c]] == pz.envelope
                keep &= ~hit
            owners = owners[keep]
        rows.append(owners)
        have += len(owners)
    return _matrix(pz, np.concatenate(rows)[:size])


def deal_matrix(pz: Puzzle, deals: Sequence[Mapping[str, int]]) -> DealMatrix:
    """Deals (open card -> owner index, as the chain keeps them) as a `DealMatrix`."""
    cards = tuple(pz.game.deck)
    matrix = np.full((len(deals), len(cards)), -1, dtype=np.int16)
    for j, card in enumerate(cards):
        if card in pz.fixed:
            matrix[:, j] = pz.fixed[card]
        elif card in pz.allowed:
            matrix[:, j] = [deal[card] for deal in deals]
    return _matrix(pz, matrix)


def _matrix(pz: Puzzle, matrix: Any) -> DealMatrix:
    cards = tuple(pz.game.deck)
    column = {c: j for j, c in enumerate(cards)}
    picked = []
    for cat in CATEGORIES:
        cols = [column[c] for c in pz.game.deck.of(cat)]
        inside = (matrix[:, cols] == pz.envelope).argmax(axis=1)
        picked.append(np.array([pz.game.deck.of(cat)[j] for j in range(len(cols))])[inside])
    keys = [(str(s), str(w), str(r)) for s, w, r in zip(*picked, strict=True)]
    index: dict[Triple, int] = {}
    envelope = np.array([index.setdefault(k, len(index)) for k in keys], dtype=np.int64)
    return DealMatrix(cards, matrix, envelope, list(index))


# --- the sampling fallback -------------------------------------------------------------------


def _initial_deal(log: GameLog, pz: Puzzle) -> dict[str, int]:
    """One consistent deal, from the SAT model."""
    model = DealModel(log.game)
    for event in log.events:
        model.add(event)
    with Solver(name=SOLVER, bootstrap_with=model.clauses) as solver:
        if not solver.solve(assumptions=model.selectors):
            raise ContradictionError((), "no deal fits the log")
        found = solver.get_model() or []
    index = {o: i for i, o in enumerate(pz.owners)}
    deal: dict[str, int] = {}
    for lit in found:
        if lit > 0 and lit in model.cells:
            card, owner = model.cells[lit]
            if card in pz.allowed:
                deal[card] = index[owner]
    return deal


def _walk(run: _Run, rng: random.Random) -> dict[str, int]:
    """One deal of ``run`` drawn in proportion to its weight: card -> programme owner."""
    deal: dict[str, int] = {}
    st = run.start
    shares: dict[tuple[str, ...], list[tuple[int, int]]] = defaultdict(list)
    for i, layer in enumerate(run.layers):
        later = run.back[i + 1]
        moves = run.trans[i][st]
        weights = [w * later.get(s2, 0) for _, s2, w in moves]
        label, st, _ = rng.choices(moves, weights=weights)[0]
        if layer.card is not None:
            deal[layer.card] = label
        else:
            shares[layer.block].append((layer.owner, label))
    for block, parts in shares.items():
        cards = list(block)
        rng.shuffle(cards)
        pos = 0
        for owner, k in parts:
            for card in cards[pos : pos + k]:
                deal[card] = owner
            pos += k
    return deal


def sampled_odds(
    log: GameLog,
    pz: Puzzle,
    *,
    seconds: float = SAMPLING_SECONDS,
    seed: int = 0,
    refuter_model: bool = False,
    batches: int = 20,
    kept: list[dict[str, int]] | None = None,
) -> Odds:
    """Approximate odds from a Markov chain over consistent deals (labelled ``exact=False``).

    With ``kept``, every deal the chain visits after its burn-in is appended to it (open card ->
    owner index).

    Each move picks two to four owners, pools their unknown cards and deals the pool again,
    drawn exactly from every re-deal that fits their hand sizes, the cards' possible owners, the
    envelope's one card per category and the refutations (the same counting programme as the
    exact method, on the small pool). This heat-bath move keeps the target distribution; it
    contains every swap, every cycle of cards among up to four owners and every exchange of
    several cards at once, so it reaches deals that no chain of two-card swaps reaches. Each
    figure's standard error comes from batch means.
    """
    rng = random.Random(seed)
    deal = _initial_deal(log, pz)
    owners = pz.owners
    n = len(owners)
    env = pz.envelope
    cards = sorted(pz.allowed)
    if not cards:
        return _exact_odds(log, count(pz), refuter_model)
    hands: dict[int, list[str]] = defaultdict(list)
    for c in cards:
        hands[deal[c]].append(c)
    holders = sorted(o for o in range(n) if hands[o])
    wrong = set(pz.accusations)
    category = {c: pz.category(c) for c in pz.game.deck}
    known_env = {category[c]: c for c, o in pz.fixed.items() if o == env}
    slot_of = {cat: [env, n, n + 1][i] for i, cat in enumerate(CATEGORIES)}

    def envelope() -> Triple:
        inside = dict(known_env)
        for c in hands[env]:
            inside[category[c]] = c
        return (inside[CATEGORIES[0]], inside[CATEGORIES[1]], inside[CATEGORIES[2]])

    def block_move() -> None:
        k = min(len(holders), rng.choice((2, 2, 2, 2, 2, 3, 3, 4)))
        chosen = set(rng.sample(holders, k))
        pool = [c for o in chosen for c in hands[o]]
        capacity = [0] * (n + 2)
        for o in chosen:
            capacity[o] = len(hands[o])
        if env in chosen:
            capacity[env] = 0
            for c in hands[env]:
                capacity[slot_of[category[c]]] = 1
        allowed: dict[str, frozenset[int]] = {}
        for c in pool:
            reach = {o for o in pz.allowed[c] if o in chosen and o != env}
            if env in chosen and env in pz.allowed[c] and capacity[slot_of[category[c]]]:
                reach.add(slot_of[category[c]])
            allowed[c] = frozenset(reach)
        in_pool = set(pool)
        tallies = [
            _Tally(t.owner, tuple(c for c in t.cards if c in in_pool), t.weights)
            for t in pz.tallies
            if t.owner in chosen
        ]
        tallies = [
            _Tally(t.owner, t.cards, t.weights[: len(t.cards) + 1]) if t.cards else t
            for t in tallies
        ]
        if any(not t.cards and not t.weights[0] for t in tallies):
            return
        try:
            run = _count(capacity, allowed, [t for t in tallies if t.cards], _Budget(20_000))
        except OverBudget:
            return
        if not run.total:
            return
        for _ in range(20):
            new = _walk(run, rng)
            placed = {c: (env if o >= n or o == env else o) for c, o in new.items()}
            old = {c: deal[c] for c in pool}
            deal.update(placed)
            for o in chosen:
                hands[o] = []
            for c in pool:
                hands[deal[c]].append(c)
            if not (env in chosen and wrong and envelope() in wrong):
                return
            deal.update(old)
            for o in chosen:
                hands[o] = []
            for c in pool:
                hands[deal[c]].append(c)

    hits: list[dict[tuple[str, int], float]] = []
    env_hits: list[dict[Triple, float]] = []
    batch_hits: dict[tuple[str, int], int] = defaultdict(int)
    batch_env: dict[Triple, int] = defaultdict(int)
    in_batch = 0
    start = time.perf_counter()
    batch_time = seconds / batches
    batch_end = start + batch_time
    moves = 0
    while True:
        moves += 1
        if len(holders) >= 2:
            block_move()
        if moves < 20:
            continue
        for c in cards:
            batch_hits[(c, deal[c])] += 1
        batch_env[envelope()] += 1
        if kept is not None:
            kept.append(dict(deal))
        in_batch += 1
        if time.perf_counter() >= batch_end:
            hits.append({key: v / in_batch for key, v in batch_hits.items()})
            env_hits.append({key: v / in_batch for key, v in batch_env.items()})
            batch_hits = defaultdict(int)
            batch_env = defaultdict(int)
            in_batch = 0
            batch_end = time.perf_counter() + batch_time
            if len(hits) >= batches:
                break
    nb = len(hits)

    def mean_err(values: list[float]) -> tuple[float, float]:
        mean = sum(values) / nb
        var = sum((v - mean) ** 2 for v in values) / (nb - 1)
        return mean, math.sqrt(var / nb)

    probabilities: dict[str, dict[str, Number]] = {}
    error: dict[str, dict[str, float]] = {}
    for card in pz.game.deck:
        probabilities[card] = {}
        error[card] = {}
        for i, owner in enumerate(owners):
            if card in pz.allowed:
                p, e = mean_err([h.get((card, i), 0.0) for h in hits])
            else:
                p, e = float(pz.fixed.get(card) == i), 0.0
            probabilities[card][owner] = p
            error[card][owner] = e
    triples = {triple for h in env_hits for triple in h}
    env_error: dict[Triple, float] = {}
    env_odds: list[tuple[str, str, str, Number]] = []
    for triple in triples:
        p, e = mean_err([h.get(triple, 0.0) for h in env_hits])
        env_odds.append((*triple, p))
        env_error[triple] = e
    env_odds.sort(key=lambda x: (-x[3], x[:3]))
    return Odds(log.game, probabilities, tuple(env_odds), False, refuter_model,
                error=error, envelope_error=env_error)


__all__ = [
    "Count",
    "DealMatrix",
    "Number",
    "Odds",
    "OverBudget",
    "Puzzle",
    "count",
    "deal_matrix",
    "entropy",
    "grid_of",
    "odds",
    "puzzle",
    "sample_deals",
    "sampled_odds",
    "time_limit",
]
