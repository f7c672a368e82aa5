"""Deals drawn exactly in proportion to their weight, from the exact count (for the advisor).

A draw walks the programme from its start, choosing each step in proportion to weight times the
count of completions from where it leads; block cards are then placed by a random permutation.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

import numpy as np

from ..cards import CATEGORIES
from ..game import Triple
from .exact import Count
from .programme import Run, State
from .setup import Puzzle
from .symmetry import split_deals


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
    drawn = np.concatenate(rows)[:size]
    split_deals(drawn, np.array([column[c] for c in pz.allowed]), counted.groups, gen)
    return as_matrix(pz, drawn)


def deal_matrix(pz: Puzzle, deals: Sequence[Mapping[str, int]]) -> DealMatrix:
    """Deals (open card -> owner index, as the chain keeps them) as a `DealMatrix`."""
    cards = tuple(pz.game.deck)
    matrix = np.full((len(deals), len(cards)), -1, dtype=np.int16)
    for j, card in enumerate(cards):
        if card in pz.fixed:
            matrix[:, j] = pz.fixed[card]
        elif card in pz.allowed:
            matrix[:, j] = [deal[card] for deal in deals]
    return as_matrix(pz, matrix)


def as_matrix(pz: Puzzle, matrix: Any) -> DealMatrix:
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


def walk(run: Run, rng: random.Random) -> dict[str, int]:
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
