"""Inclusion-exclusion's inner loops, compiled (numba): one owner's pins, forward and backward.

A state is one 64-bit key: the unpinned cards of each kind the owner sees, then the pins placed,
in mixed radix (``stride``; the pins are the last part). A turn's moves are those of
`solver.odds.exclusion` (``_moves``): for every set of the owner's refutations taken as "none"
(a row of ``open_``), every way to pin ``k_j <= n_j`` cards of each open kind with ``sum k <= c``,
weight ``sign (-1)^f c!/(c-f)! prod C(n_j, k_j)``, listed in the same order. Counts are arrays
with one column per modulus (`residues`), or one column of exact counts when the modulus is
`EXACT` (a bound proves they fit 64 bits); residues are kept from 0 to below their prime, so a
product of two fits 62 bits. `solver.odds.exclusion_compiled` drives the turns and charges the
work.

Imported only where the compiled count runs (numba is heavy to load).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .kernel import EXACT, compiled


@compiled
def mul(a: int, b: int, p: int, inv: float) -> int:
    """``a * b`` modulo ``p`` (``a``, ``b`` residues; ``inv`` is ``1 / p``), exact where ``p``
    is `EXACT`. The quotient from floating point is off by at most one: corrected."""
    if p == EXACT:
        return a * b
    q = np.int64(float(a) * float(b) * inv)
    r = int(a * b - q * p)
    while r < 0:
        r += p
    while r >= p:
        r -= p
    return r


@compiled
def add(a: int, b: int, p: int) -> int:
    """``a + b`` modulo ``p`` (both residues), exact where ``p`` is `EXACT`."""
    s = a + b
    if p != EXACT and s >= p:
        s -= p
    return s


@compiled
def residue(w: int, p: int) -> int:
    """A signed 64-bit number as a residue modulo ``p`` (itself where ``p`` is `EXACT`)."""
    if p == EXACT:
        return w
    return w % p


@compiled
def decode(key: int, stride: Any, radix: Any, counts: Any) -> int:
    """The unpinned cards of each kind of a key (into ``counts``) and its pins."""
    kinds = counts.shape[0]
    for j in range(kinds):
        counts[j] = (key // stride[j]) % radix[j]
    return key // stride[kinds]  # type: ignore[no-any-return]


@compiled
def state_moves(counts: Any, pins: int, after: Any, nstride: Any, open_: Any, signs: Any,
                c: int, comb: Any, perm: Any, out_key: Any, out_weight: Any, out_chosen: Any,
                out_f: Any, out_j: Any, out_k: Any, out_picks: Any, picked: Any, ks: Any
                ) -> int:
    """Every move of one state (its ``counts`` per kind, its ``pins``): the next key, weight,
    set of refutations taken as "none", pins placed, and the kinds pinned from (``out_j``,
    ``out_k``: the first ``out_picks`` of each row). Returns how many."""
    kinds = counts.shape[0]
    later = nstride.shape[0] - 1
    base = pins * nstride[later]
    for j in range(kinds):
        if after[j] >= 0:
            base += counts[j] * nstride[after[j]]
    m = 0
    for chosen in range(open_.shape[0]):
        size = 0
        for j in range(kinds):
            if open_[chosen, j] and counts[j] > 0:
                picked[size] = j
                size += 1
        for q in range(size):
            ks[q] = 0
        f = 0
        while True:
            weight = signs[chosen] * perm[f] * (1 - 2 * (f % 2))
            key = base + f * nstride[later]
            n_picks = 0
            for q in range(size):
                if ks[q] > 0:
                    j = picked[q]
                    weight *= comb[counts[j], ks[q]]
                    if after[j] >= 0:
                        key -= ks[q] * nstride[after[j]]
                    out_j[m, n_picks] = j
                    out_k[m, n_picks] = ks[q]
                    n_picks += 1
            out_key[m] = key
            out_weight[m] = weight
            out_chosen[m] = chosen
            out_f[m] = f
            out_picks[m] = n_picks
            m += 1
            q = size - 1
            while q >= 0:
                if ks[q] < counts[picked[q]] and f < c:
                    ks[q] += 1
                    f += 1
                    break
                f -= ks[q]
                ks[q] = 0
                q -= 1
            if q < 0:
                break
    return m


@compiled
def scratch(most: int, c: int, kinds: int) -> tuple[Any, Any, Any, Any, Any, Any, Any, Any,
                                                     Any, Any]:
    """Room for one state's moves (at most ``most``) and the enumeration's own arrays."""
    width = max(c, 1)
    return (np.empty(most, np.int64), np.empty(most, np.int64), np.empty(most, np.int64),
            np.empty(most, np.int64), np.empty((most, width), np.int64),
            np.empty((most, width), np.int64), np.empty(most, np.int64),
            np.empty(max(kinds, 1), np.int64), np.empty(max(kinds, 1), np.int64),
            np.empty(max(kinds, 1), np.int64))


@compiled
def count_moves(keys: Any, stride: Any, radix: Any, after: Any, nstride: Any, open_: Any,
                signs: Any, c: int, comb: Any, perm: Any, most: int, limit: int) -> int:
    """How many moves the states of ``keys`` have in all (the work a turn charges, with one
    unit per state), or a number past ``limit`` once they are more."""
    kinds = radix.shape[0] - 1
    o_key, o_w, o_ch, o_f, o_j, o_k, o_n, counts, picked, ks = scratch(most, c, kinds)
    counts = counts[:kinds]
    total = 0
    for s in range(keys.shape[0]):
        pins = decode(keys[s], stride, radix, counts)
        total += state_moves(counts, pins, after, nstride, open_, signs, c, comb, perm, o_key,
                             o_w, o_ch, o_f, o_j, o_k, o_n, picked, ks)
        if total > limit:
            break
    return total


@compiled
def _compact(buffer: Any, size: int) -> int:
    """Sort the first ``size`` entries (``key * 2 + forward``) and keep one per key, forward
    if any was; returns how many are left."""
    part = np.sort(buffer[:size])
    n = 0
    for r in range(size):
        v = part[r]
        if n and (buffer[n - 1] >> 1) == (v >> 1):
            buffer[n - 1] |= v & 1
        else:
            buffer[n] = v
            n += 1
    return n


@compiled
def expand(keys: Any, forward: Any, stride: Any, radix: Any, after: Any, nstride: Any,
           open_: Any, signs: Any, c: int, comb: Any, perm: Any, most: int
           ) -> tuple[Any, Any]:
    """The next turn's states (keys in increasing order, and whether each is reached forward):
    every move's next state, and from each state reached forward the states one more pin leads
    to (the card figures' look-ups: a card of an eligible kind, or of none, pinned at the
    owner)."""
    kinds = radix.shape[0] - 1
    later = nstride.shape[0] - 1
    o_key, o_w, o_ch, o_f, o_j, o_k, o_n, counts, picked, ks = scratch(most, c, kinds)
    counts = counts[:kinds]
    buffer = np.empty(max(4 * keys.shape[0], 1024), np.int64)
    size = 0
    for s in range(keys.shape[0]):
        pins = decode(keys[s], stride, radix, counts)
        moves = state_moves(counts, pins, after, nstride, open_, signs, c, comb, perm, o_key,
                            o_w, o_ch, o_f, o_j, o_k, o_n, picked, ks)
        need = moves * (kinds + 2)
        if size + need > buffer.shape[0]:
            size = _compact(buffer, size)
            if size + need > buffer.shape[0] // 2:
                bigger = np.empty(2 * buffer.shape[0] + need, np.int64)
                bigger[:size] = buffer[:size]
                buffer = bigger
        flag = 1 if forward[s] else 0
        for t in range(moves):
            buffer[size] = o_key[t] * 2 + flag
            size += 1
            if forward[s] and o_f[t] < c:
                pinned = o_key[t] + nstride[later]
                buffer[size] = pinned * 2
                size += 1
                for j in range(kinds):
                    if counts[j] > 0 and not open_[o_ch[t], j]:
                        a = after[j]
                        buffer[size] = (pinned - (nstride[a] if a >= 0 else 0)) * 2
                        size += 1
    size = _compact(buffer, size)
    out = np.empty(size, np.int64)
    reached = np.empty(size, np.bool_)
    for r in range(size):
        out[r] = buffer[r] >> 1
        reached[r] = (buffer[r] & 1) == 1
    return out, reached


@compiled
def find(keys: Any, key: int) -> int:
    """The index of ``key`` in the sorted ``keys`` (it is there)."""
    lo, hi = 0, keys.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo


@compiled
def backward(keys: Any, stride: Any, radix: Any, after: Any, nstride: Any, open_: Any,
             signs: Any, c: int, comb: Any, perm: Any, most: int, next_keys: Any, later: Any,
             moduli: Any, inverse: Any) -> Any:
    """The completions of every state of a turn: its moves' weights times the completions of
    the states they lead to (``later``, per state of ``next_keys``)."""
    kinds = radix.shape[0] - 1
    columns = moduli.shape[0]
    o_key, o_w, o_ch, o_f, o_j, o_k, o_n, counts, picked, ks = scratch(most, c, kinds)
    counts = counts[:kinds]
    out = np.zeros((keys.shape[0], columns), np.int64)
    for s in range(keys.shape[0]):
        pins = decode(keys[s], stride, radix, counts)
        moves = state_moves(counts, pins, after, nstride, open_, signs, c, comb, perm, o_key,
                            o_w, o_ch, o_f, o_j, o_k, o_n, picked, ks)
        for t in range(moves):
            d = find(next_keys, o_key[t])
            for r in range(columns):
                p = moduli[r]
                w = residue(o_w[t], p)
                out[s, r] = add(out[s, r], mul(w, later[d, r], p, inverse[r]), p)
    return out


@compiled
def forward(keys: Any, reached: Any, unpinned: Any, kind_of: Any, stride: Any, radix: Any,
            after: Any, nstride: Any, open_: Any, signs: Any, c: int, comb: Any, perm: Any,
            most: int, next_keys: Any, next_reached: Any, later: Any, moduli: Any,
            inverse: Any) -> tuple[Any, Any]:
    """The forward figures of the next turn and this owner's card figures.

    ``unpinned[s, x]``: per state reached forward (in key order) and class, the ways into it
    in which a given card of the class is still unpinned; a move that pins ``k`` of the ``n``
    cards of the class's kind leaves it unpinned in ``C(n - 1, k)`` of its ``C(n, k)`` ways.
    A class's figure at the owner: the ways in which its card is unpinned, times each move
    with places left times its places left (one more pin, of sign +1) times the completions
    of the state that pin leads to (``later``)."""
    kinds = radix.shape[0] - 1
    nstates = nstride.shape[0] - 1
    classes = kind_of.shape[0]
    columns = moduli.shape[0]
    o_key, o_w, o_ch, o_f, o_j, o_k, o_n, counts, picked, ks = scratch(most, c, kinds)
    counts = counts[:kinds]
    row = np.full(next_keys.shape[0], -1, np.int64)
    rows = 0
    for d in range(next_keys.shape[0]):
        if next_reached[d]:
            row[d] = rows
            rows += 1
    out = np.zeros((rows, classes, columns), np.int64)
    got = np.zeros((classes, columns), np.int64)
    coef = np.empty((kinds + 1, columns), np.int64)
    free = np.empty(columns, np.int64)
    pinned = np.empty((kinds + 1, columns), np.int64)
    slot = np.empty(classes, np.int64)
    for x in range(classes):
        slot[x] = kind_of[x] if kind_of[x] >= 0 else kinds
    s_row = -1
    for s in range(keys.shape[0]):
        if not reached[s]:
            continue
        s_row += 1
        pins = decode(keys[s], stride, radix, counts)
        moves = state_moves(counts, pins, after, nstride, open_, signs, c, comb, perm, o_key,
                            o_w, o_ch, o_f, o_j, o_k, o_n, picked, ks)
        for r in range(columns):
            free[r] = 0
            for j in range(kinds + 1):
                pinned[j, r] = 0
        for t in range(moves):
            weight = o_w[t]
            d = row[find(next_keys, o_key[t])]
            for r in range(columns):
                w = residue(weight, moduli[r])
                for j in range(kinds + 1):
                    coef[j, r] = w
            for q in range(o_n[t]):
                j = o_j[t, q]
                n = counts[j]
                k = o_k[t, q]
                share = weight // comb[n, k] * comb[n - 1, k]
                for r in range(columns):
                    coef[j, r] = residue(share, moduli[r])
            for x in range(classes):
                for r in range(columns):
                    p = moduli[r]
                    out[d, x, r] = add(out[d, x, r],
                                       mul(unpinned[s_row, x, r], coef[slot[x], r], p,
                                           inverse[r]), p)
            left = c - o_f[t]
            if left == 0:
                continue
            pin = o_key[t] + nstride[nstates]
            e = find(next_keys, pin)
            for r in range(columns):
                p = moduli[r]
                w = residue(weight * left, p)
                free[r] = add(free[r], mul(w, later[e, r], p, inverse[r]), p)
            for j in range(kinds):
                if counts[j] > 0 and not open_[o_ch[t], j]:
                    a = after[j]
                    e = find(next_keys, pin - (nstride[a] if a >= 0 else 0))
                    for r in range(columns):
                        p = moduli[r]
                        w = residue(weight * left, p)
                        pinned[j, r] = add(pinned[j, r], mul(w, later[e, r], p, inverse[r]), p)
        for r in range(columns):
            pinned[kinds, r] = free[r]
        for x in range(classes):
            for r in range(columns):
                p = moduli[r]
                got[x, r] = add(got[x, r], mul(unpinned[s_row, x, r], pinned[slot[x], r], p,
                                               inverse[r]), p)
    return out, got
