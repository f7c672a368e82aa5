"""Inclusion-exclusion's inner loops, compiled (numba): one owner's pins, forward and backward.

A state is one 64-bit key: the unpinned cards of each kind the owner sees, then the pins placed,
in mixed radix (``stride``; the pins are the last part). A turn's moves are those of
`solver.odds.exclusion` (``_moves``): for every set of the owner's refutations taken as "none"
(a row of ``open_``), every way to pin ``k_j <= n_j`` cards of each open kind with ``sum k <= c``,
weight ``sign (-1)^f c!/(c-f)! prod C(n_j, k_j)``, listed in the same order. Counts are arrays
with one column per modulus (`residues`), or one column of exact counts when the modulus is
`EXACT` (a bound proves they fit 64 bits); residues are kept from 0 to below their prime (below
2^50: three where five primes below 2^31 were needed), a product of two by its floating-point
quotient (`mul`). `solver.odds.exclusion_compiled` drives the turns and charges the
work.

Imported only where the compiled count runs (numba is heavy to load).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .kernel import EXACT, compiled


@compiled
def mul(a: int, b: int, p: int, inv: float) -> int:
    """``a * b`` modulo ``p`` (``a``, ``b`` residues; ``inv`` is ``1 / p``; ``p`` below
    `residues.WIDE`, 2^50), exact where ``p`` is `EXACT`. The quotient from floating point (of
    ``a * b < 2^100``, relative error under 2^-51, so off by under 0.4 below 2^50) is off by at
    most one either way: corrected."""
    if p == EXACT:
        return a * b
    q = np.uint64(float(a) * float(b) * inv)
    # a * b - q * p is from -p to below 2p: exact in 64 bits wrapping (unsigned: defined)
    r = np.int64(np.uint64(a) * np.uint64(b) - q * np.uint64(p))
    r = r + p if r < 0 else r
    return int(r - p if r >= p else r)


@compiled
def add(a: int, b: int, p: int) -> int:
    """``a + b`` modulo ``p`` (both residues), exact where ``p`` is `EXACT`."""
    s = a + b
    if p != EXACT and s >= p:
        s -= p
    return s


@compiled
def residue(w: int, p: int) -> int:
    """A signed 64-bit number as a residue modulo ``p`` (itself where ``p`` is `EXACT`): most
    are small (a move's weight), no division."""
    if p == EXACT or 0 <= w < p:
        return w
    if -p < w < 0:
        return w + p
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
def moves_of(counts: Any, open_: Any, c: int, ways: Any) -> int:
    """How many moves `state_moves` lists for a state with these ``counts``, without listing
    them: per set of refutations taken as "none", the ways to pin ``k_j <= n_j`` of each open
    kind with ``sum k <= c`` (``ways[f]``: those with ``sum k = f``, kind by kind)."""
    total = 0
    for chosen in range(open_.shape[0]):
        ways[0] = 1
        top = 0
        for j in range(counts.shape[0]):
            n = counts[j]
            if open_[chosen, j] and n > 0:
                ways[top + 1:min(top + n, c) + 1] = 0
                top = min(top + n, c)
                for f in range(top, 0, -1):  # downwards: ways[f - k] not yet updated
                    for k in range(1, min(n, f) + 1):
                        ways[f] += ways[f - k]
        for f in range(top + 1):
            total += ways[f]
    return total


@compiled
def count_moves(keys: Any, stride: Any, radix: Any, after: Any, nstride: Any, open_: Any,
                signs: Any, c: int, comb: Any, perm: Any, most: int, limit: int) -> int:
    """How many moves the states of ``keys`` have in all (the work a turn charges, with one
    unit per state), or a number past ``limit`` once they are more (`moves_of`: counted, not
    listed)."""
    kinds = radix.shape[0] - 1
    counts = np.empty(max(kinds, 1), np.int64)[:kinds]
    ways = np.empty(c + 1, np.int64)
    total = 0
    for s in range(keys.shape[0]):
        decode(keys[s], stride, radix, counts)
        total += moves_of(counts, open_, c, ways)
        if total > limit:
            break
    return total


@compiled
def widest(open_: Any) -> int:
    """The set of refutations taken as "none" that opens every kind some set opens (all of
    them: taking one more as "none" only opens more), so its moves lead to every next state
    the state's moves lead to."""
    best = open_.shape[0] - 1
    for chosen in range(open_.shape[0]):
        for j in range(open_.shape[1]):
            if open_[chosen, j] and not open_[best, j]:
                raise ValueError("a set of refutations opens a kind the widest does not")
    return best  # type: ignore[no-any-return]


@compiled
def _insert(table: Any, key: int) -> bool:
    """Put ``key`` in the hash set ``table`` (-1: empty); whether it was new."""
    size = table.shape[0]
    h = _slot(key, size)
    while table[h] >= 0:
        if table[h] == key:
            return False
        h = (h + 1) & (size - 1)
    table[h] = key
    return True


@compiled
def _grown(table: Any) -> Any:
    """The hash set with twice the slots."""
    bigger = np.full(2 * table.shape[0], -1, np.int64)
    for h in range(table.shape[0]):
        if table[h] >= 0:
            _insert(bigger, table[h])
    return bigger


@compiled
def grouped(moves: int, stride: Any, o_j: Any, o_k: Any, o_n: Any, key: Any, order: Any
            ) -> None:
    """A state's moves in groups that pin the same cards of each kind (the same ``k_j``, so
    the same next state and the same share of every class; they differ in the refutations
    taken as "none", and often cancel): each move's group key (into ``key``) and the moves in
    key order (into ``order``; by insertion, a state has few moves)."""
    for t in range(moves):
        v = 0
        for q in range(o_n[t]):
            v += o_k[t, q] * stride[o_j[t, q]]
        key[t] = v
    if moves > 64:
        order[:moves] = np.argsort(key[:moves])
        return
    for t in range(moves):
        q = t
        while q > 0 and key[order[q - 1]] > key[t]:
            order[q] = order[q - 1]
            q -= 1
        order[q] = t


@compiled
def expand(keys: Any, stride: Any, radix: Any, after: Any, nstride: Any, open_: Any,
           signs: Any, c: int, comb: Any, perm: Any, most: int) -> Any:
    """The next turn's states, keys in increasing order: every move's next state (those of the
    `widest` set of refutations taken as "none": every other set's moves pin the same cards as
    some of them)."""
    kinds = radix.shape[0] - 1
    o_key, o_w, o_ch, o_f, o_j, o_k, o_n, counts, picked, ks = scratch(most, c, kinds)
    counts = counts[:kinds]
    table = np.full(1024, -1, np.int64)
    size = 0
    row = widest(open_)
    wide = open_[row:row + 1]
    sign = signs[row:row + 1]
    for s in range(keys.shape[0]):
        pins = decode(keys[s], stride, radix, counts)
        moves = state_moves(counts, pins, after, nstride, wide, sign, c, comb, perm, o_key,
                            o_w, o_ch, o_f, o_j, o_k, o_n, picked, ks)
        while 2 * (size + moves) > table.shape[0]:
            table = _grown(table)
        for t in range(moves):
            size += _insert(table, o_key[t])
    out = np.empty(size, np.int64)
    n = 0
    for h in range(table.shape[0]):
        if table[h] >= 0:
            out[n] = table[h]
            n += 1
    return np.sort(out)


@compiled
def index(keys: Any) -> Any:
    """A hash table of ``keys`` (open addressing, at most half full): slot -> position in
    ``keys``, -1 where empty."""
    size = 1
    while size < 2 * keys.shape[0]:
        size *= 2
    table = np.full(size, -1, np.int64)
    for i in range(keys.shape[0]):
        h = _slot(keys[i], size)
        while table[h] >= 0:
            h = (h + 1) & (size - 1)
        table[h] = i
    return table


@compiled
def _slot(key: int, size: int) -> int:
    """Where a key's search starts (Fibonacci hashing: times 2^64 / golden ratio, wrapping)."""
    return ((key * -7046029254386353131) >> 17) & (size - 1)


@compiled
def find(keys: Any, table: Any, key: int) -> int:
    """The position of ``key`` in ``keys`` (it is there), by the hash table of `index`."""
    size = table.shape[0]
    h = _slot(key, size)
    while keys[table[h]] != key:
        h = (h + 1) & (size - 1)
    return table[h]  # type: ignore[no-any-return]


@compiled
def backward(keys: Any, stride: Any, radix: Any, after: Any, nstride: Any, open_: Any,
             signs: Any, c: int, comb: Any, perm: Any, most: int, next_keys: Any, later: Any,
             moduli: Any, inverse: Any) -> Any:
    """The completions of every state of a turn, from those of the states its moves lead to
    (``later``, per state of ``next_keys``).

    Per state and modulus, ``kinds + 2`` columns: per kind of the turn, the completions once a
    card of that kind is pinned at an earlier owner (one more pin, of sign +1) in which the card
    stays unpinned (a move that pins ``k`` of the ``n`` cards of the kind leaves it unpinned in
    ``C(n - 1, k)`` of its ``C(n, k)`` ways; its kind at the next turn, or the next turn's
    column ``kinds`` where no later owner cares about it); then the same for a card no owner
    from this one on cares about; then the completions. Moves that pin the same cards are summed
    first (`grouped`)."""
    kinds = radix.shape[0] - 1
    nkinds = nstride.shape[0] - 1
    columns = moduli.shape[0]
    o_key, o_w, o_ch, o_f, o_j, o_k, o_n, counts, picked, ks = scratch(most, c, kinds)
    counts = counts[:kinds]
    out = np.zeros((keys.shape[0], columns, kinds + 2), np.int64)
    table = index(next_keys)
    group = np.empty(most, np.int64)
    order = np.arange(most)
    sets = open_.shape[0]
    source = np.empty(kinds, np.int64)
    for j in range(kinds):
        source[j] = after[j] if after[j] >= 0 else nkinds
    # per state, the moves' weights times the next state's columns as they are (contiguous),
    # then, per kind pinned from, what the cards pinned take off (`C(n, k) - C(n - 1, k)`)
    acc = np.empty((columns, nkinds + 2), np.int64)
    taken = np.empty((columns, max(kinds, 1)), np.int64)
    for s in range(keys.shape[0]):
        pins = decode(keys[s], stride, radix, counts)
        moves = state_moves(counts, pins, after, nstride, open_, signs, c, comb, perm, o_key,
                            o_w, o_ch, o_f, o_j, o_k, o_n, picked, ks)
        if sets > 1:  # else every move pins cards of its own
            grouped(moves, stride, o_j, o_k, o_n, group, order)
        acc[:, :] = 0
        taken[:, :] = 0
        a = 0
        while a < moves:
            first = order[a]
            weight = o_w[first]
            b = a + 1
            while sets > 1 and b < moves and group[order[b]] == group[first]:
                weight += o_w[order[b]]
                b += 1
            a = b
            if weight == 0:
                continue
            d = find(next_keys, table, o_key[first])
            for r in range(columns):
                p = moduli[r]
                inv = inverse[r]
                w = residue(weight, p)
                for e in range(nkinds + 2):  # contiguous: the compiler vectorises it
                    acc[r, e] = add(acc[r, e], mul(w, later[d, r, e], p, inv), p)
            for q in range(o_n[first]):
                j = o_j[first, q]
                n = counts[j]
                k = o_k[first, q]
                off = weight - weight // comb[n, k] * comb[n - 1, k]
                for r in range(columns):
                    p = moduli[r]
                    taken[r, j] = add(taken[r, j], mul(residue(off, p), later[d, r, source[j]],
                                                       p, inverse[r]), p)
        for r in range(columns):
            p = moduli[r]
            for j in range(kinds):
                out[s, r, j] = add(acc[r, source[j]], residue(-taken[r, j], p), p)
            out[s, r, kinds] = acc[r, nkinds]
            out[s, r, kinds + 1] = acc[r, nkinds + 1]
    return out


@compiled
def forward(keys: Any, unpinned: Any, kind_of: Any, stride: Any, radix: Any, after: Any,
            nstride: Any, open_: Any, signs: Any, c: int, comb: Any, perm: Any, most: int,
            next_keys: Any, later: Any, moduli: Any, inverse: Any) -> tuple[Any, Any]:
    """The forward figures of the next turn and this owner's card figures.

    ``unpinned[s, r, x]``: per state (in key order), modulus and class, the ways into it in
    which a given card of the class is still unpinned; a move that pins ``k`` of the ``n``
    cards of the class's kind leaves it unpinned in ``C(n - 1, k)`` of its ``C(n, k)`` ways
    (every class at the move's weight, then the classes of the kinds pinned from corrected).
    A class's figure at the owner: the ways in which its card is unpinned, times each move
    with places left times its places left (one more pin, of sign +1, of a card the owner may
    hold) times the completions of the state the move leads to in which the card stays
    unpinned (``later``, `backward`'s columns): per state, a sum over its moves per column of
    the next turn (``acc``), the same for every kind the owner may hold whatever refutations
    it takes as "none"; summed apart for the kinds it may hold only under some (``mixed``:
    named by its refutations), none for those it may not hold. Moves that pin the same cards
    are summed first (`grouped`; every move pins cards of its own where the owner has no
    refutation)."""
    kinds = radix.shape[0] - 1
    nkinds = nstride.shape[0] - 1
    classes = kind_of.shape[0]
    columns = moduli.shape[0]
    sets = open_.shape[0]
    o_key, o_w, o_ch, o_f, o_j, o_k, o_n, counts, picked, ks = scratch(most, c, kinds)
    counts = counts[:kinds]
    table = index(next_keys)
    group = np.empty(most, np.int64)
    order = np.arange(most)
    out = np.zeros((next_keys.shape[0], columns, classes), np.int64)
    got = np.zeros((columns, classes), np.int64)
    less = np.empty(max(c, 1), np.int64)
    # per kind: where its classes start in ``members`` (classes in kind order)
    first_of = np.zeros(kinds + 2, np.int64)
    for x in range(classes):
        if kind_of[x] >= 0:
            first_of[kind_of[x] + 1] += 1
    for j in range(kinds):
        first_of[j + 1] += first_of[j]
    members = np.empty(classes, np.int64)
    filled = first_of.copy()
    for x in range(classes):
        if kind_of[x] >= 0:
            members[filled[kind_of[x]]] = x
            filled[kind_of[x]] += 1
    # kinds the owner may hold whatever refutations it takes as "none" (``held``: 1), never
    # (0), or only for some sets (2: their own sum of weights per group)
    held = np.empty(kinds, np.int64)
    mixed = np.empty(kinds, np.int64)
    n_mixed = 0
    for j in range(kinds):
        opened = 0
        for chosen in range(sets):
            if open_[chosen, j]:
                opened += 1
        held[j] = 1 if opened == 0 else 0 if opened == sets else 2
        if held[j] == 2:
            mixed[n_mixed] = j
            n_mixed += 1
    eligible = np.empty(max(n_mixed, 1), np.int64)
    # per state: the moves' weights times places left times the next state's columns (the
    # kinds and "no later owner cares"), and the kinds held only for some sets apart
    acc = np.empty((columns, nkinds + 1), np.int64)
    apart = np.empty((columns, max(n_mixed, 1)), np.int64)
    source = np.empty(kinds, np.int64)
    for j in range(kinds):
        source[j] = after[j] if after[j] >= 0 else nkinds
    slot_pinned = np.empty((columns, kinds + 1), np.int64)
    slot = np.empty(classes, np.int64)
    for x in range(classes):
        slot[x] = kind_of[x] if kind_of[x] >= 0 else kinds
    for s in range(keys.shape[0]):
        pins = decode(keys[s], stride, radix, counts)
        moves = state_moves(counts, pins, after, nstride, open_, signs, c, comb, perm, o_key,
                            o_w, o_ch, o_f, o_j, o_k, o_n, picked, ks)
        acc[:, :] = 0
        apart[:, :] = 0
        if sets > 1:
            grouped(moves, stride, o_j, o_k, o_n, group, order)
        a = 0
        while a < moves:
            first = order[a]
            weight = o_w[first]
            b = a + 1
            if sets > 1:
                for q in range(n_mixed):
                    eligible[q] = 0 if open_[o_ch[first], mixed[q]] else o_w[first]
                while b < moves and group[order[b]] == group[first]:
                    t = order[b]
                    weight += o_w[t]
                    for q in range(n_mixed):
                        if not open_[o_ch[t], mixed[q]]:
                            eligible[q] += o_w[t]
                    b += 1
            a = b
            left = c - o_f[first]
            if weight == 0 and (left == 0 or n_mixed == 0):
                continue  # nothing to carry: the group's moves cancel
            d = find(next_keys, table, o_key[first])
            if weight != 0:
                # every class's card left unpinned in all the group's ways, then those of the
                # kinds pinned from in C(n - 1, k) of C(n, k): the difference added
                for q in range(o_n[first]):
                    j = o_j[first, q]
                    k = o_k[first, q]
                    less[q] = weight // comb[counts[j], k] * comb[counts[j] - 1, k] - weight
                for r in range(columns):
                    p = moduli[r]
                    inv = inverse[r]
                    w = residue(weight, p)
                    for x in range(classes):  # contiguous: the compiler vectorises it
                        out[d, r, x] = add(out[d, r, x], mul(unpinned[s, r, x], w, p, inv), p)
                    for q in range(o_n[first]):
                        j = o_j[first, q]
                        v = residue(less[q], p)
                        for y in range(first_of[j], first_of[j + 1]):
                            x = members[y]
                            out[d, r, x] = add(out[d, r, x], mul(unpinned[s, r, x], v, p, inv),
                                               p)
            if left == 0:
                continue
            for r in range(columns):
                p = moduli[r]
                inv = inverse[r]
                if weight != 0:
                    w = residue(weight * left, p)
                    for e in range(nkinds + 1):  # contiguous
                        acc[r, e] = add(acc[r, e], mul(w, later[d, r, e], p, inv), p)
                for q in range(n_mixed):
                    j = mixed[q]
                    if sets > 1 and eligible[q] != 0 and counts[j] > 0:
                        apart[r, q] = add(apart[r, q],
                                          mul(residue(eligible[q] * left, p),
                                              later[d, r, source[j]], p, inv), p)
        for r in range(columns):
            p = moduli[r]
            for j in range(kinds):
                slot_pinned[r, j] = acc[r, source[j]] if held[j] == 1 and counts[j] > 0 else 0
            for q in range(n_mixed):
                slot_pinned[r, mixed[q]] = apart[r, q]
            slot_pinned[r, kinds] = acc[r, nkinds]
            for x in range(classes):
                got[r, x] = add(got[r, x], mul(unpinned[s, r, x], slot_pinned[r, slot[x]], p,
                                               inverse[r]), p)
    return out, got
