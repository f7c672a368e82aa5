"""The programme's inner loop, compiled (numba): one layer's transitions, forward and backward.

A state is one 64-bit key, its parts in mixed radix (``part``: the room of every hand, the cards
left in each block, the count held of each tally). Counts are arrays with one column per modulus
(`residues`), or one column of exact counts when the modulus is `EXACT` (a bound proves they fit
64 bits). The rules of a move are those of `solver.odds.programme` (``programme_steps``'s
``step``), written over keys; `solver.odds.compiled` drives the layers and checks the budget.

Imported only where the compiled count runs (numba is heavy to load). Functions are cached on
disk (numba's ``cache=True``); where no cache directory is writable they are compiled afresh in
each process.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

EXACT = 0
"""The modulus that means "no modulus": the counts are exact 64-bit integers."""


def compiled(function: F) -> F:
    """``function`` compiled to machine code, cached on disk where a cache directory is
    writable (numba refuses ``cache=True`` with a `RuntimeError` where none is)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", numba.NumbaWarning)
            return cast(F, numba.njit(cache=True, nogil=True)(function))
    except RuntimeError:
        return cast(F, numba.njit(nogil=True)(function))


@compiled
def part(key: int, stride: Any, radix: Any, d: int) -> int:
    """Part ``d`` of a state key."""
    return (key // stride[d]) % radix[d]  # type: ignore[no-any-return]


@compiled
def mul_add(acc: int, a: int, b: int, p: int) -> int:
    """``acc + a * b``, modulo ``p`` unless ``p`` is `EXACT`."""
    if p == EXACT:
        return acc + a * b
    return (acc + a * b) % p


@compiled
def move_work(top: Any, i: int, bits: int) -> int:
    """The work of one move from state ``i``: the transition, and the packed envelope counts it
    moves (`programme.fields_work` of its fields up to the highest with a count, ``top[i]``, of
    ``bits`` each; 0 bits: none)."""
    return 1 + ((top[i] + 1) * bits >> 15)  # type: ignore[no-any-return]


@compiled
def listed(moves: int, width: int, limit: int) -> int:
    """Room for a layer's moves (``width`` at most per state): a move costs at least a unit, and
    listing stops at the first state past ``limit`` units, so no more than ``limit + width``."""
    return min(moves, max(limit, 0) + width)


@compiled
def card_moves(keys: Any, stride: Any, radix: Any, allowed: Any, room: Any, hook_tally: Any,
               hook_owner: Any, closes: Any, weights: Any, saturation: Any, pending_from: Any,
               pending: Any, base: int, top: Any, bits: int, limit: int
               ) -> tuple[Any, Any, Any, Any, int]:
    """Every move of a single card from every state: (from, next key, owner, weight), and the
    work they cost (`move_work`), listed state by state up to the first state past ``limit``
    units of work (then the layer is past the budget, and its moves so far are all it stored).

    The card may go to any of ``allowed`` with room; an owner whose room exceeds the cards that
    may still reach it (``room``) must take it. Tallies hooked to the taker count one more (up to
    their saturation); tallies closing here weigh the path and reset. A path that fills an
    owner's hand while one of its ``pending`` refutations (``pending_from[o]`` to
    ``pending_from[o + 1]``) is unsatisfied is dead.
    """
    states = keys.shape[0]
    width = allowed.shape[0]
    size = listed(states * width, width, limit)
    origin = np.empty(size, np.int32)
    target = np.empty(size, np.int64)
    label = np.empty(size, np.int16)
    weight = np.empty(size, np.int64)
    m = 0
    units = 0
    for i in range(states):
        if units > limit:
            break
        before = m
        key = keys[i]
        full = -1
        fulls = 0
        for x in allowed:
            if part(key, stride, radix, x) > room[x]:
                fulls += 1
                full = x
        if fulls > 1:
            continue
        for o in allowed:
            if fulls == 1 and o != full:
                continue
            held = part(key, stride, radix, o)
            if held == 0 or held - 1 > room[o]:
                continue
            nxt = key - stride[o]
            w = 1
            for h in range(hook_tally.shape[0]):
                if hook_owner[h] == o:
                    t = hook_tally[h]
                    c = part(nxt, stride, radix, base + t)
                    nxt += (min(c + 1, saturation[t]) - c) * stride[base + t]
            for t in closes:
                c = part(nxt, stride, radix, base + t)
                w *= weights[t, c]
                nxt -= c * stride[base + t]
            if w == 0:
                continue
            if held == 1:
                dead = False
                for q in range(pending_from[o], pending_from[o + 1]):
                    if part(nxt, stride, radix, base + pending[q]) == 0:
                        dead = True
                if dead:
                    continue
            origin[m] = i
            target[m] = nxt
            label[m] = o
            weight[m] = w
            m += 1
        units += (m - before) * move_work(top, i, bits)
    return origin[:m], target[:m], label[:m], weight[:m], units


@compiled
def block_moves(keys: Any, stride: Any, radix: Any, owner: int, slot: int, size: int,
                first: bool, last: bool, room: int, comb: Any, top: Any, bits: int, limit: int
                ) -> tuple[Any, Any, Any, Any, int]:
    """Every move of one owner's share of a block: (from, next key, cards taken, weight), and
    their work, listed as `card_moves` lists them.

    The owner takes ``k`` of the block's cards left (all of them at its last owner) in
    ``comb[left, k]`` ways, keeping no more room than the cards that may still reach it.
    """
    states = keys.shape[0]
    moves = listed(states * (size + 1), size + 1, limit)
    origin = np.empty(moves, np.int32)
    target = np.empty(moves, np.int64)
    label = np.empty(moves, np.int16)
    weight = np.empty(moves, np.int64)
    m = 0
    units = 0
    for i in range(states):
        if units > limit:
            break
        before = m
        key = keys[i]
        had = part(key, stride, radix, slot)
        left = size if first else had
        cap = part(key, stride, radix, owner)
        for k in range(left if last else 0, (left if last else min(cap, left)) + 1):
            if k > cap or cap - k > room:
                continue
            origin[m] = i
            target[m] = key - k * stride[owner] + (left - k - had) * stride[slot]
            label[m] = k
            weight[m] = comb[left, k]
            m += 1
        units += (m - before) * move_work(top, i, bits)
    return origin[:m], target[:m], label[:m], weight[:m], units


@compiled
def forward(origin: Any, target: Any, weight: Any, ways: Any, moduli: Any
            ) -> tuple[Any, Any, Any]:
    """The next layer's states (keys, in increasing order), each move's next state (index) and
    the ways into each next state."""
    moves = target.shape[0]
    order = np.argsort(target, kind="mergesort")
    keys = np.empty(moves, np.int64)
    into = np.empty(moves, np.int64)
    u = -1
    for r in range(moves):
        t = order[r]
        if r == 0 or target[t] != keys[u]:
            u += 1
            keys[u] = target[t]
        into[t] = u
    count = np.zeros((u + 1, moduli.shape[0]), np.int64)
    for t in range(moves):
        for j in range(moduli.shape[0]):
            p = moduli[j]
            w = weight[t] if p == EXACT else weight[t] % p
            count[into[t], j] = mul_add(count[into[t], j], ways[origin[t], j], w, p)
    return keys[: u + 1], into, count


@compiled
def filled(key: int, stride: Any, radix: Any, slots: Any) -> tuple[bool, bool, bool]:
    """Per envelope axis, whether a state's slot holds a card (``slots[a]``: the state part of
    axis ``a``'s slot, 0 once filled; -1 when the axis's card is known and it has no slot)."""
    return (slots[0] >= 0 and part(key, stride, radix, slots[0]) == 0,
            slots[1] >= 0 and part(key, stride, radix, slots[1]) == 0,
            slots[2] >= 0 and part(key, stride, radix, slots[2]) == 0)


@compiled
def shapes(keys: Any, seen: Any, stride: Any, radix: Any, slots: Any) -> tuple[Any, Any, Any]:
    """Per state: which slots are filled (`filled`), the classes each axis ranges over (``seen``
    once filled, else 1: only "empty") and where its rows start (the last entry: all rows)."""
    states = keys.shape[0]
    full = np.zeros((states, 3), np.bool_)
    extent = np.ones((states, 3), np.int64)
    start = np.zeros(states + 1, np.int64)
    for u in range(states):
        f = filled(keys[u], stride, radix, slots)
        for a in range(3):
            full[u, a] = f[a]
            if f[a]:
                extent[u, a] = seen[a]
        start[u + 1] = start[u] + extent[u, 0] * extent[u, 1] * extent[u, 2]
    return full, extent, start


@compiled
def envelope_forward(keys: Any, split: Any, seen: Any, next_keys: Any, next_seen: Any,
                     origin: Any, into: Any, label: Any, weight: Any, axis_of: Any, cls: int,
                     stride: Any, radix: Any, slots: Any, sizes: Any, moduli: Any
                     ) -> tuple[Any, Any, Any]:
    """The ways into each next state split by envelope classes.

    A state's split is a run of rows of ``split`` (`shapes`: the states' rows one after the
    other): one row per class triple its slots allow, an axis ranging over the ``seen[a]``
    classes dealt so far (1 to ``seen[a]``) once its slot is filled (`filled`), else only over
    "empty" (0). A move whose label ``axis_of`` maps to an axis puts a card of class ``cls`` into
    that slot. Returns where each next state's rows start, the rows, and per next state the
    packed field index (`Packing.index`, with ``sizes``) of its highest class triple with a
    count (-1: none), which prices the next layer's moves.
    """
    columns = moduli.shape[0]
    _, extent, start = shapes(keys, seen, stride, radix, slots)
    next_full, next_extent, next_start = shapes(next_keys, next_seen, stride, radix, slots)
    out = np.zeros((next_start[-1], columns), np.int64)
    w = np.empty(columns, np.int64)
    for t in range(origin.shape[0]):
        s = origin[t]
        d = into[t]
        axis = axis_of[label[t]]
        for j in range(columns):
            w[j] = weight[t] if moduli[j] == EXACT else weight[t] % moduli[j]
        # a source row's class on each axis (0 if empty) and the destination row it feeds:
        # the destination's axis stride times (class - 1) where its slot is filled
        e0, e1, e2 = extent[s, 0], extent[s, 1], extent[s, 2]
        d0 = next_extent[d, 0]
        d01 = d0 * next_extent[d, 1]
        shift = 0
        if axis == 0:
            shift = cls - 1
        elif axis == 1:
            shift = d0 * (cls - 1)
        elif axis == 2:
            shift = d01 * (cls - 1)
        here = start[s]
        for l2 in range(e2):
            for l1 in range(e1):
                to = next_start[d] + shift + d0 * l1 + d01 * l2
                for l0 in range(e0):
                    for j in range(columns):
                        out[to + l0, j] = mul_add(out[to + l0, j], split[here, j], w[j],
                                                  moduli[j])
                    here += 1
    top = np.full(next_keys.shape[0], -1, np.int64)
    for u in range(next_keys.shape[0]):
        e0, e1, e2 = next_extent[u, 0], next_extent[u, 1], next_extent[u, 2]
        f0, f1, f2 = next_full[u, 0], next_full[u, 1], next_full[u, 2]
        here = next_start[u]
        for l2 in range(e2):
            for l1 in range(e1):
                for l0 in range(e0):
                    for j in range(columns):
                        if out[here, j] != 0:
                            index = ((l0 + 1 if f0 else 0) + sizes[0] * (
                                (l1 + 1 if f1 else 0) + sizes[1] * (l2 + 1 if f2 else 0)))
                            top[u] = max(top[u], index)
                    here += 1
    return next_start, out, top


@compiled
def backward(origin: Any, into: Any, label: Any, weight: Any, ways: Any, later: Any,
             labels: int, moduli: Any) -> tuple[Any, Any]:
    """The ways out of each state of a layer (from the ways out of the next layer's states) and,
    per label, the ways in x weight x ways out summed over the moves with that label."""
    columns = moduli.shape[0]
    out = np.zeros((ways.shape[0], columns), np.int64)
    by_label = np.zeros((labels, columns), np.int64)
    for t in range(origin.shape[0]):
        s = origin[t]
        for j in range(columns):
            p = moduli[j]
            w = weight[t] if p == EXACT else weight[t] % p
            v = mul_add(0, w, later[into[t], j], p)
            out[s, j] = mul_add(out[s, j], 1, v, p)
            by_label[label[t], j] = mul_add(by_label[label[t], j], ways[s, j], v, p)
    return out, by_label
