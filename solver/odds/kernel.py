"""The programme's inner loop, compiled (numba): one layer's transitions, forward and backward.

A state is one 64-bit key, its parts in bit fields, or in mixed radix where those do not fit
(``part``: the room of every hand, the cards left in each block, the count held of each tally).
Counts are arrays with one column per modulus (`residues`), or one column of exact counts when
the modulus is `EXACT` (a bound proves they fit 64 bits), or `EXACT` then a prime: a column
modulo 2^64 (`wrapped`) and one modulo the prime (`compiled.WRAP`). The rules of a move are those of
`solver.odds.programme` (``programme_steps``'s ``step``), written over keys;
`solver.odds.compiled` drives the layers and checks the budget.

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
def wrapped(a: Any, b: Any, c: Any) -> Any:
    """``a * b + c`` modulo 2^64, as a signed 64-bit integer. Where a count is known to fit 62
    bits but a factor need not (the ways into a state, from residues: `exact_ways`), the sum is
    right modulo 2^64, so exact. In unsigned arithmetic: numba's signed overflow is undefined."""
    return np.int64(np.uint64(c) + np.uint64(a) * np.uint64(b))


@compiled
def exact_ways(ways: Any, moduli: Any, inverse: Any, prefix: Any, keep: int) -> Any:
    """Per state, the number below the moduli's product with these residues (``ways``, one
    column per modulus), modulo 2^64 (as signed 64-bit integers: `wrapped`), one column, and
    where ``keep`` is 1 its residue modulo the first modulus beside it (the backward pass
    counting modulo 2^64 and that prime: `compiled.Backward`): by Garner's mixed radix,
    ``inverse[i, j]`` the inverse of ``moduli[i]`` modulo ``moduli[j]``, ``prefix[j]`` the
    product of the moduli before ``j`` modulo 2^64. Each multiplication by an inverse by
    Shoup's method (as in `forward`: the residue below ``p``), so no division per state where
    the moduli are alike (the primes just below 2^31)."""
    columns = moduli.shape[0]
    ratio = np.zeros((columns, columns), np.int64)
    for j in range(columns):
        for i in range(j):
            ratio[i, j] = (inverse[i, j] << 32) // moduli[j]
    out = np.empty((ways.shape[0], 1 + keep), np.int64)
    digit = np.empty(columns, np.int64)
    for u in range(ways.shape[0]):
        x = np.int64(ways[u, 0])
        digit[0] = x
        for j in range(1, columns):
            p = moduli[j]
            d = np.int64(ways[u, j])
            for i in range(j):
                e = digit[i]
                if e >= p:
                    e = e - p if e < 2 * p else e % p
                d += p - e
                if d >= p:
                    d -= p
                d = d * inverse[i, j] - ((d * ratio[i, j]) >> 32) * p
                if d >= p:
                    d -= p
            digit[j] = d
            x = wrapped(d, prefix[j], x)
        out[u, 0] = x
        if keep:
            out[u, 1] = digit[0]
    return out


@compiled
def part(key: int, stride: Any, radix: Any, d: int) -> int:
    """Part ``d`` of a state key: ``radix`` holds each part's number of values, then each part's
    bit offset where the key is packed in bit fields (a shift and a mask), else -1 (mixed radix:
    a division and a remainder)."""
    shift = radix[radix.shape[0] // 2 + d]
    if shift >= 0:
        return (key >> shift) & (radix[d] - 1)  # type: ignore[no-any-return]
    return (key // stride[d]) % radix[d]  # type: ignore[no-any-return]


@compiled
def move_work(top: Any, i: int, bits: int) -> int:
    """The work of one move from state ``i``: the transition, and the packed envelope counts it
    moves (`programme.fields_work` of its fields up to the highest with a count, ``top[i]``, of
    ``bits`` each; 0 bits: none, and ``top`` is not read: a count without envelope counts, such
    as one for a wrong accusation, keeps no entry per state)."""
    if bits == 0:
        return 1
    return 1 + ((top[i] + 1) * bits >> 15)  # type: ignore[no-any-return]


@compiled
def listed(moves: int, width: int, limit: int) -> int:
    """Room for a layer's moves (``width`` at most per state): a move costs at least a unit, and
    listing stops at the first state past ``limit`` units, so no more than ``limit + width``."""
    return min(moves, max(limit, 0) + width)


@compiled
def grown(target: Any, label: Any, weight: Any, moves: int, size: int
          ) -> tuple[Any, Any, Any]:
    """The move lists with room for ``size`` moves, their first ``moves`` kept."""
    t, lab, w = np.empty(size, target.dtype), np.empty(size, label.dtype), np.empty(
        size, weight.dtype)
    t[:moves], lab[:moves], w[:moves] = target[:moves], label[:moves], weight[:moves]
    return t, lab, w


@compiled
def card_moves(keys: Any, stride: Any, radix: Any, allowed: Any, room: Any, hook_tally: Any,
               hook_owner: Any, closes: Any, weights: Any, saturation: Any, pending_from: Any,
               pending: Any, base: int, top: Any, bits: int, limit: int
               ) -> tuple[Any, Any, Any, Any, int]:
    """Every move of a single card from every state: where each state's moves start (the moves
    are listed state by state: state ``i``'s are ``start[i]`` to ``start[i + 1]``, 8 bytes a
    state where each move's origin took 4), then per move (next key, owner, weight), and
    the work they cost (`move_work`), listed up to the first state past ``limit`` units of work
    (then the layer is past the budget, and its moves so far are all it stored).

    The card may go to any of ``allowed`` with room; an owner whose room exceeds the cards that
    may still reach it (``room``) must take it. Tallies hooked to the taker count one more (up to
    their saturation); tallies closing here weigh the path and reset. A path that fills an
    owner's hand while one of its ``pending`` refutations (``pending_from[o]`` to
    ``pending_from[o + 1]``) is unsatisfied is dead.
    """
    states = keys.shape[0]
    width = allowed.shape[0]
    most = listed(states * width, width, limit)
    size = min(most, 2 * states + width)  # grown as needed: most states take a few owners
    start = np.empty(states + 1, np.int64)
    target = np.empty(size, np.int64)
    label = np.empty(size, np.int16)
    weight = np.empty(size, np.int64)
    # each possible owner's room, read once per state (in bit fields: its shift and mask, found
    # once per layer); a card no tally counts needs no more of the key (late in a game, most)
    held_of = np.empty(width, np.int64)
    shift = np.empty(width, np.int64)
    mask = np.empty(width, np.int64)
    fields = radix[radix.shape[0] // 2] >= 0
    for x in range(width):
        shift[x] = radix[radix.shape[0] // 2 + allowed[x]]
        mask[x] = radix[allowed[x]] - 1
    plain = hook_tally.shape[0] == 0 and closes.shape[0] == 0
    room_x = np.empty(width, np.int64)  # each possible owner's room, stride, refutations
    stride_x = np.empty(width, np.int64)
    checks = np.zeros(width, np.bool_)
    for x in range(width):
        room_x[x] = room[allowed[x]]
        stride_x[x] = stride[allowed[x]]
        checks[x] = pending_from[allowed[x] + 1] > pending_from[allowed[x]]
    m = 0
    units = 0
    done = states
    for i in range(states):
        if units > limit:
            done = i
            break
        start[i] = m
        if m + width > size:
            size = min(most, max(2 * size, m + width))
            target, label, weight = grown(target, label, weight, m, size)
        before = m
        key = keys[i]
        full = -1
        fulls = 0
        for x in range(width):
            held = (key >> shift[x]) & mask[x] if fields else part(key, stride, radix,
                                                                   allowed[x])
            held_of[x] = held
            over = held > room_x[x]
            fulls += over
            full = allowed[x] if over else full
        if fulls > 1:
            continue
        if plain:
            # No tally (late in a game, most layers): every owner's move is written and kept
            # only where it may be made (``m`` moves on by 0 or 1), so no branch to mispredict
            # per owner but the refutations' checks (a quarter less time on a late log).
            for x in range(width):
                o = allowed[x]
                held = held_of[x]
                ok = (held != 0) & (held - 1 <= room_x[x]) & ((fulls == 0) | (o == full))
                nxt = key - stride_x[x]
                if ok & (held == 1) & checks[x]:
                    for q in range(pending_from[o], pending_from[o + 1]):
                        if part(nxt, stride, radix, base + pending[q]) == 0:
                            ok = False
                target[m] = nxt
                label[m] = o
                weight[m] = 1
                m += ok
            units += (m - before) * move_work(top, i, bits)
            continue
        for x in range(width):
            o = allowed[x]
            if fulls == 1 and o != full:
                continue
            held = held_of[x]
            if held == 0 or held - 1 > room[o]:
                continue
            nxt = key - stride[o]
            w = 1
            if not plain:
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
            target[m] = nxt
            label[m] = o
            weight[m] = w
            m += 1
        units += (m - before) * move_work(top, i, bits)
    start[done] = m
    return start[: done + 1], target[:m], label[:m], weight[:m], units


@compiled
def block_moves(keys: Any, stride: Any, radix: Any, owner: int, slot: int, size: int,
                first: bool, last: bool, room: int, comb: Any, top: Any, bits: int, limit: int
                ) -> tuple[Any, Any, Any, Any, int]:
    """Every move of one owner's share of a block: where each state's moves start, then per move
    (next key, cards taken, weight), and their work, listed as `card_moves` lists them.

    The owner takes ``k`` of the block's cards left (all of them at its last owner) in
    ``comb[left, k]`` ways, keeping no more room than the cards that may still reach it.
    """
    states = keys.shape[0]
    most = listed(states * (size + 1), size + 1, limit)
    room_for = min(most, 2 * states + size + 1)  # grown as needed, as in `card_moves`
    start = np.empty(states + 1, np.int64)
    target = np.empty(room_for, np.int64)
    label = np.empty(room_for, np.int16)
    weight = np.empty(room_for, np.int64)
    m = 0
    units = 0
    done = states
    for i in range(states):
        if units > limit:
            done = i
            break
        start[i] = m
        if m + size + 1 > room_for:
            room_for = min(most, max(2 * room_for, m + size + 1))
            target, label, weight = grown(target, label, weight, m, room_for)
        before = m
        key = keys[i]
        had = part(key, stride, radix, slot)
        left = size if first else had
        cap = part(key, stride, radix, owner)
        for k in range(left if last else 0, (left if last else min(cap, left)) + 1):
            if k > cap or cap - k > room:
                continue
            target[m] = key - k * stride[owner] + (left - k - had) * stride[slot]
            label[m] = k
            weight[m] = comb[left, k]
            m += 1
        units += (m - before) * move_work(top, i, bits)
    start[done] = m
    return start[: done + 1], target[:m], label[:m], weight[:m], units


@compiled
def merged(target: Any) -> tuple[Any, Any]:
    """The states a layer's moves reach (keys, in the order their first move reaches them) and
    each move's next state (index): moves reaching the same key are merged in a hash table
    (open addressing, at most half full). The same moves give the same states in the same
    order."""
    moves = target.shape[0]
    bits = 1
    while (1 << bits) < 2 * moves:
        bits += 1
    mask = (1 << bits) - 1
    table = np.full(1 << bits, -1, np.int32)
    keys = np.empty(moves, np.int64)
    into = np.empty(moves, np.int32)
    u = 0
    for t in range(moves):
        key = target[t]
        h = np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits))
        while True:
            i = table[h]
            if i < 0:
                table[h] = u
                keys[u] = key
                into[t] = u
                u += 1
                break
            if keys[i] == key:
                into[t] = i
                break
            h = (h + 1) & mask
    return keys[:u].copy(), into


@compiled
def found(target: Any, reached: Any) -> tuple[Any, bool]:
    """Each move's next state, as an index into ``reached`` (the next layer's keys, as `forward`
    numbered them), looked up in a hash table of those keys (open addressing, at most half
    full: the states, not the moves, so it is several times smaller than `merged`'s); and
    whether every move's key was there (else the moves are not the ones counted forward)."""
    states = reached.shape[0]
    bits = 1
    while (1 << bits) < 2 * states:
        bits += 1
    mask = (1 << bits) - 1
    table = np.full(1 << bits, -1, np.int32)
    for u in range(states):
        key = reached[u]
        h = np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits))
        while table[h] >= 0:
            h = (h + 1) & mask
        table[h] = u
    into = np.empty(target.shape[0], np.int32)
    for t in range(target.shape[0]):
        key = target[t]
        h = np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits))
        while True:
            i = table[h]
            if i < 0:
                return into, False
            if reached[i] == key:
                into[t] = i
                break
            h = (h + 1) & mask
    return into, True


@compiled
def forward(start: Any, target: Any, weight: Any, ways: Any, moduli: Any
            ) -> tuple[Any, Any, Any]:
    """The next layer's states (keys, in the order their first move reaches them: `merged`),
    each move's next state (index) and the ways into each next state (stored as ``ways`` are:
    32-bit residues, or exact, or modulo `EXACT` then a prime: modulo 2^64 then that prime);
    state ``s``'s moves are ``start[s]`` to ``start[s + 1]``.

    A hash table merges the moves: about twice as fast as sorting the keys on the 12-player
    logs, and the next states come roughly in the order of the states they come from, which
    the envelope split's writes follow."""
    keys, into = merged(target)
    u = keys.shape[0] - 1
    columns = moduli.shape[0]
    count = np.zeros((u + 1, columns), ways.dtype)
    states = start.shape[0] - 1
    if moduli[0] == EXACT and columns == 1:
        for s in range(states):
            for t in range(start[s], start[s + 1]):
                count[into[t], 0] += ways[s, 0] * weight[t]
        return keys, into, count
    if moduli[0] == EXACT:  # modulo 2^64 (`wrapped`) and a prime (`compiled.Backward`)
        p = moduli[1]
        w1, ratio1, seen = np.int64(1), np.int64(0), np.int64(1)
        for s in range(states):
            for t in range(start[s], start[s + 1]):
                d = into[t]
                count[d, 0] = wrapped(ways[s, 0], weight[t], count[d, 0])
                x = ways[s, 1]
                if weight[t] != 1:
                    if weight[t] != seen:
                        seen = weight[t]
                        w1 = seen % p
                        ratio1 = (w1 << 32) // p
                    x = x * w1 - ((x * ratio1) >> 32) * p
                    x = x - p if x >= p else x
                v = x + count[d, 1]
                count[d, 1] = v - p if v >= p else v
        return keys, into, count
    w = np.empty(columns, np.int64)
    ratio = np.empty(columns, np.int64)
    last = -1
    for s in range(states):
        for t in range(start[s], start[s + 1]):
            d = into[t]
            if weight[t] == 1:  # most moves: only an addition (as in `envelope_forward`)
                for j in range(columns):
                    p = moduli[j]
                    v = np.int64(count[d, j]) + ways[s, j]
                    count[d, j] = v - p if v >= p else v
                continue
            if weight[t] != last:
                last = weight[t]
                for j in range(columns):
                    w[j] = last % moduli[j]
                    ratio[j] = (w[j] << 32) // moduli[j]
            for j in range(columns):
                p = moduli[j]
                x = np.int64(ways[s, j])
                x = x * w[j] - ((x * ratio[j]) >> 32) * p
                v = (x - p if x >= p else x) + count[d, j]
                count[d, j] = v - p if v >= p else v
    return keys, into, count


@compiled
def filled_slots(keys: Any, stride: Any, radix: Any, slots: Any) -> Any:
    """Per state, its filled envelope slots as bits (axis ``a`` is bit ``a``): ``slots[a]`` is
    the state part of axis ``a``'s slot, 0 once filled (-1 when the axis's card is known and it
    has no slot)."""
    out = np.zeros(keys.shape[0], np.uint8)
    half = radix.shape[0] // 2
    for a in range(3):  # axis by axis, the slot's place in the key read once (20 times faster)
        d = slots[a]
        if d < 0:
            continue
        shift, mask = radix[half + d], radix[d] - 1
        for u in range(keys.shape[0]):
            room = (keys[u] >> shift) & mask if shift >= 0 else part(keys[u], stride, radix, d)
            if room == 0:
                out[u] |= np.uint8(1 << a)
    return out


@compiled
def tops(top: Any, start: Any, into: Any, label: Any, axis_of: Any, shift: Any, states: int
         ) -> Any:
    """Per next state, the packed index (`Packing.index`) of its highest envelope class triple
    with a count, which prices its moves: the highest of its moves' sources', moved up by
    ``shift[a]`` (the class dealt times the axis's packed stride) where a move fills slot ``a``
    (counts are positive: a state's triples are its sources' moved, none cancel)."""
    out = np.full(states, -1, np.int64)
    for s in range(start.shape[0] - 1):
        for t in range(start[s], start[s + 1]):
            a = axis_of[label[t]]
            v = top[s] + (shift[a] if a >= 0 else 0)
            if v > out[into[t]]:
                out[into[t]] = v
    return out


@compiled
def rows_after(full: Any, whole: int, lo: Any, sizes: Any) -> tuple[Any, Any]:
    """Per state, the classes each axis's rows range over in the envelope split (by the classes
    that fill the slots still empty, from here on): an axis whose slot is empty over those that
    may still fill it (``lo[a]`` to its last, ``sizes[a] - 1``), any other axis over one (its
    slot filled, or none); and where its rows start (the last entry: all rows). A state with no
    slot filled yet (``full`` 0, not ``whole``) has none: its deals are counted where they fill
    their first slot."""
    states = full.shape[0]
    extent = np.ones((states, 3), np.int64)
    start = np.zeros(states + 1, np.int64)
    for u in range(states):
        if full[u] == 0:
            start[u + 1] = start[u]
            continue
        rows = 1
        for a in range(3):
            if whole >> a & 1 and not full[u] >> a & 1:
                extent[u, a] = max(sizes[a] - lo[a], 0)
            rows *= extent[u, a]
        start[u + 1] = start[u] + rows
    return extent, start


@compiled
def row_plan(plan: Any, k: int, at: int, empty: int, axis: int, cls: int, lo: Any,
             next_lo: Any, stride: Any, sizes: Any) -> None:
    """Row ``k`` of ``plan``: where a move's next state's rows go in `envelope_backward`, the
    same for every move of a state that fills the same slot (or none). The next state's empty
    slots are ``empty`` (bits); a move filling ``axis`` (-1: none) puts class ``cls`` there.
    Its rows, class by class from ``next_lo`` on each empty axis, map to this state's (or the
    triples') at ``at`` plus a step per class: ``stride[a]`` on axis ``a``, whose classes start
    at ``lo[a]`` (an array of 0s for the triples). They vary on two axes at most, ``inner``
    (rows next to each other there) and ``outer``: ``plan[k]`` is at, inner, its step, outer,
    its step."""
    inner, step_in, outer, step_out = 1, 0, 1, 0
    for a in range(3):
        if a == axis:
            at += (cls - lo[a]) * stride[a]
        elif empty >> a & 1:
            at += (next_lo[a] - lo[a]) * stride[a]
            x = max(sizes[a] - next_lo[a], 0)
            if x > 1:
                if inner == 1:
                    inner, step_in = x, stride[a]
                else:
                    outer, step_out = x, stride[a]
    plan[k, 0] = at
    plan[k, 1] = inner
    plan[k, 2] = step_in
    plan[k, 3] = outer
    plan[k, 4] = step_out


@compiled
def envelope_backward(after: Any, full: Any, next_full: Any, whole: int, lo: Any, next_lo: Any,
                      begin: Any, into: Any, label: Any, weight: Any, axis_of: Any, cls: int,
                      ways: Any, ways_out: Any, triples: Any, sizes: Any, moduli: Any) -> Any:
    """One layer of the envelope split, in the backward pass: per state with a slot filled, its
    ways out split by the classes that fill its empty slots (`rows_after`; ``after``: the next
    layer's, one row, the ways out, once every slot is filled); and, for the moves that fill a
    state's first slot, the ways in x weight x that split of the state they reach, added to
    ``triples`` (per packed class triple, `Packing.index` with ``sizes``). So every deal is
    counted once, at its first slot.

    A state with one row (every empty slot has one class left: its completions all fill them
    so) takes its ways out (``ways_out``: `backward`'s, as it counts them), its moves unread;
    ``ways_out`` empty: every state's moves are read (the tests compare the two).

    A move whose label ``axis_of`` maps to an axis puts a card of class ``cls`` into that slot;
    ``lo`` and ``next_lo``: per axis, the first class that may fill it from this layer and
    from the next on. State ``s``'s moves are ``begin[s]`` to ``begin[s + 1]``; ``weight``
    empty: every move weighs 1. Modulo `EXACT` then a prime (`compiled.Backward`), the first
    column is kept modulo 2^64 (`wrapped`) and the second modulo the prime.
    """
    columns = moduli.shape[0]
    extent, start = rows_after(full, whole, lo, sizes)
    _, next_start = rows_after(next_full, whole, next_lo, sizes)
    out = np.zeros((start[-1], columns), after.dtype)
    w = np.empty(columns, np.int64)
    scale = np.empty(columns, np.int64)
    ratio = np.empty(columns, np.int64)
    exact = moduli[0] == EXACT and columns == 1
    mixed = moduli[0] == EXACT and columns == 2
    p1 = moduli[columns - 1]  # the prime beside the column modulo 2^64, where mixed
    ones = weight.shape[0] == 0
    # Where a move's rows go depends only on its state and the slot it fills (or none), so
    # per state a plan per slot, row 1 + a (row 0: none); for a state with no slot filled yet,
    # per slot, into the triples (packed strides, classes from 0).
    plan = np.zeros((4, 5), np.int64)
    first_plan = np.zeros((4, 5), np.int64)
    zero = np.zeros(3, np.int64)
    packed = np.ones(3, np.int64)
    packed[1] = sizes[0]
    packed[2] = sizes[0] * sizes[1]
    for a in range(3):
        if whole >> a & 1:
            row_plan(first_plan, 1 + a, 0, whole & ~(1 << a), a, cls, zero, next_lo, packed,
                     sizes)
    stride = np.zeros(3, np.int64)
    for s in range(begin.shape[0] - 1):
        first = full[s] == 0
        if not first:
            if start[s + 1] - start[s] == 1 and ways_out.shape[0]:  # one row: the ways out
                for j in range(columns):
                    out[start[s], j] = ways_out[s, j]
                continue
            x = 1
            for a in range(3):
                stride[a] = x
                x *= extent[s, a]
            empty = whole & ~full[s]
            row_plan(plan, 0, start[s], empty, -1, cls, lo, next_lo, stride, sizes)
            for a in range(3):
                if empty >> a & 1:
                    row_plan(plan, 1 + a, start[s], empty & ~(1 << a), a, cls, lo, next_lo,
                             stride, sizes)
        for t in range(begin[s], begin[s + 1]):
            axis = axis_of[label[t]]
            if first and axis < 0:
                continue  # no slot filled yet: counted where the first one is
            d = into[t]
            here = next_start[d]
            if next_start[d + 1] == here:
                continue
            wt = 1 if ones else weight[t]
            if first:
                at, inner, step_in = first_plan[1 + axis, 0], first_plan[1 + axis, 1], \
                    first_plan[1 + axis, 2]
                outer, step_out = first_plan[1 + axis, 3], first_plan[1 + axis, 4]
                for j in range(columns):
                    if moduli[j] == EXACT:  # the ways in may be modulo 2^64 (`exact_ways`)
                        scale[j] = wrapped(ways[s, j], wt, 0)
                    else:  # multiplied by Shoup's method, as in `forward`
                        scale[j] = np.int64(ways[s, j]) * (wt % moduli[j]) % moduli[j]
                        ratio[j] = (scale[j] << 32) // moduli[j]
                for r in range(outer):
                    row = at + r * step_out
                    for q in range(inner):
                        index = row + q * step_in
                        for j in range(columns):
                            if moduli[j] == EXACT:
                                triples[index, j] = wrapped(scale[j], after[here, j],
                                                            triples[index, j])
                            else:
                                p = moduli[j]
                                v = np.int64(after[here, j])
                                x = scale[j] * v - ((v * ratio[j]) >> 32) * p
                                x = (x - p if x >= p else x) + triples[index, j]
                                triples[index, j] = x - p if x >= p else x
                        here += 1
                continue
            k = 1 + axis
            at, inner, step_in, outer, step_out = plan[k, 0], plan[k, 1], plan[k, 2], \
                plan[k, 3], plan[k, 4]
            if not ones:
                for j in range(columns):
                    w[j] = wt if moduli[j] == EXACT else wt % moduli[j]
            for r in range(outer):
                row = at + r * step_out
                if exact:
                    for q in range(inner):
                        out[row + q * step_in, 0] += wt * after[here + q, 0]
                    here += inner
                elif mixed:  # modulo 2^64 (in unsigned arithmetic), and modulo a prime
                    for q in range(inner):
                        o_row = row + q * step_in
                        out[o_row, 0] = wrapped(after[here, 0], wt, out[o_row, 0])
                        v = np.int64(after[here, 1])
                        o = out[o_row, 1] + (v if wt == 1 else v * w[1] % p1)
                        out[o_row, 1] = o - p1 if o >= p1 else o
                        here += 1
                elif wt == 1:  # most moves: an addition, row by row
                    for q in range(inner):
                        o_row = row + q * step_in
                        for j in range(columns):
                            p = moduli[j]
                            o = np.int64(out[o_row, j]) + after[here, j]
                            out[o_row, j] = o - p if o >= p else o
                        here += 1
                else:
                    for q in range(inner):
                        o_row = row + q * step_in
                        for j in range(columns):
                            p = moduli[j]
                            o = np.int64(out[o_row, j]) + np.int64(after[here, j]) * w[j] % p
                            out[o_row, j] = o - p if o >= p else o
                        here += 1
    return out


@compiled
def backward(start: Any, into: Any, label: Any, weight: Any, ways: Any, later: Any,
             labels: int, moduli: Any) -> tuple[Any, Any]:
    """The ways out of each state of a layer (from the ways out of the next layer's states; state
    ``s``'s moves are ``start[s]`` to ``start[s + 1]``) and, per label, the ways in x weight x
    ways out summed over the moves with that label (``weight`` empty: every move weighs 1).

    Modulo `EXACT` then a prime (two columns: `compiled.Backward`), the first column is kept
    modulo 2^64 (`wrapped`) and the second modulo the prime."""
    columns = moduli.shape[0]
    out = np.zeros((ways.shape[0], columns), later.dtype)
    by_label = np.zeros((labels, columns), np.int64)
    ones = weight.shape[0] == 0  # every move weighs 1
    states = start.shape[0] - 1
    if moduli[0] == EXACT and columns == 2:
        p = moduli[1]
        square = p * p
        for s in range(states):
            for t in range(start[s], start[s + 1]):
                d, lab = into[t], label[t]
                wt = np.int64(1 if ones else weight[t])
                v = wrapped(wt, later[d, 0], 0)
                out[s, 0] = wrapped(v, 1, out[s, 0])
                by_label[lab, 0] = wrapped(ways[s, 0], v, by_label[lab, 0])
                r = np.int64(later[d, 1])
                if wt != 1:
                    r = r * (wt % p) % p
                o = out[s, 1] + r
                out[s, 1] = o - p if o >= p else o
                b = by_label[lab, 1] + ways[s, 1] * r  # below p^2, as below
                by_label[lab, 1] = b - square if b >= square else b
        for lab in range(labels):
            by_label[lab, 1] %= p
        return out, by_label
    if moduli[0] == EXACT:
        for s in range(states):
            for t in range(start[s], start[s + 1]):
                v = (1 if ones else weight[t]) * later[into[t], 0]
                out[s, 0] += v
                # the ways in may be modulo 2^64 (`exact_ways`): the sum is exact
                by_label[label[t], 0] = wrapped(ways[s, 0], v, by_label[label[t], 0])
        return out, by_label
    square = np.empty(columns, np.int64)
    for j in range(columns):
        square[j] = moduli[j] * moduli[j]
    for s in range(states):
        for t in range(start[s], start[s + 1]):
            d, lab = into[t], label[t]
            wt = np.int64(1 if ones else weight[t])
            for j in range(columns):
                p = moduli[j]
                v = np.int64(later[d, j])
                if wt != 1:  # most moves weigh 1 (`forward`)
                    v = v * (wt % p) % p
                o = np.int64(out[s, j]) + v
                out[s, j] = o - p if o >= p else o
                # kept below p^2 (below 2^62) until the end, not below p: no division here
                b = by_label[lab, j] + ways[s, j] * v
                by_label[lab, j] = b - square[j] if b >= square[j] else b
    for lab in range(labels):
        for j in range(columns):
            by_label[lab, j] %= moduli[j]
    return out, by_label


@compiled
def accused_forward(start: Any, into: Any, label: Any, weight: Any, ways: Any, live: Any,
                    axis_of: Any, cls: int, accused: Any, moduli: Any, states: int
                    ) -> tuple[Any, Any]:
    """The ways into the next layer's states whose filled envelope slots take each accused
    triple's classes (``accused[q, a]``: the class on axis ``a``, 0 where any), from this
    layer's (``ways[s, q]``: triple ``q``'s at state ``s``, as `forward` stores them, a state's
    triples side by side; ``live[s, q]``: whether any), and where there are any: `forward`'s
    sums over the moves, but not over a move that puts a card of class ``cls`` into the slot
    of an axis (``axis_of[label]``) where the triple has another class (each way in is
    positive, so a state a way reaches has some)."""
    columns = moduli.shape[0]
    triples = accused.shape[0]
    count = np.zeros((states, triples, columns), ways.dtype)
    reached = np.zeros((states, triples), np.bool_)
    for s in range(start.shape[0] - 1):
        any_live = False
        for q in range(triples):
            any_live |= live[s, q]
        if not any_live:  # no way in agrees with any triple (a slot holds another class)
            continue
        for t in range(start[s], start[s + 1]):
            a = axis_of[label[t]]
            d = into[t]
            wt = np.int64(weight[t])
            for q in range(triples):
                if not live[s, q] or (a >= 0 and accused[q, a] != 0 and accused[q, a] != cls):
                    continue
                reached[d, q] = True
                for j in range(columns):
                    p = moduli[j]
                    if p == EXACT:  # exact, or modulo 2^64 beside a prime (`forward`)
                        count[d, q, j] = wrapped(ways[s, q, j], wt, count[d, q, j])
                        continue
                    v = np.int64(ways[s, q, j])
                    if wt != 1:
                        v = v * (wt % p) % p
                    v += count[d, q, j]
                    count[d, q, j] = v - p if v >= p else v
    return count, reached


@compiled
def accused_backward(start: Any, into: Any, label: Any, weight: Any, ways: Any, later: Any,
                     axis_of: Any, cls: int, accused: Any, labels: int, moduli: Any,
                     live: Any) -> tuple[Any, Any]:
    """`backward` per accused triple (the moves of `accused_forward`): the ways out of each
    state of a layer whose empty slots the triple's classes fill, from the next layer's
    (``later[s, q]``), and per triple and label the ways in (``ways[s, q]``, its first
    columns) x weight x ways out; counted as `backward` counts (``moduli``: the backward
    pass's; a column `EXACT`: modulo 2^64). Only where some way in takes the triple's classes
    (``live[s, q]``): elsewhere its ways out are left 0, which no state reached reads (a move
    into a state from one a way reaches, not barred, brings that state a way too)."""
    columns = moduli.shape[0]
    triples = accused.shape[0]
    states = start.shape[0] - 1
    out = np.zeros((states, triples, columns), later.dtype)
    by_label = np.zeros((triples, labels, columns), np.int64)
    ones = weight.shape[0] == 0
    if columns == 1 and moduli[0] == EXACT:  # late in a game, most: as `backward`, exactly
        for s in range(states):
            for t in range(start[s], start[s + 1]):
                a = axis_of[label[t]]
                d, lab = into[t], label[t]
                wt = np.int64(1 if ones else weight[t])
                for q in range(triples):
                    if not live[s, q] or (a >= 0 and accused[q, a] != 0
                                          and accused[q, a] != cls):
                        continue
                    v = wt * later[d, q, 0]
                    out[s, q, 0] += v
                    by_label[q, lab, 0] = wrapped(ways[s, q, 0], v, by_label[q, lab, 0])
        return out, by_label
    if columns == 2 and moduli[0] == EXACT:  # modulo 2^64 and a prime: as `backward`
        p = moduli[1]
        square1 = p * p
        for s in range(states):
            for t in range(start[s], start[s + 1]):
                a = axis_of[label[t]]
                d, lab = into[t], label[t]
                wt = np.int64(1 if ones else weight[t])
                for q in range(triples):
                    if not live[s, q] or (a >= 0 and accused[q, a] != 0
                                          and accused[q, a] != cls):
                        continue
                    v = wrapped(wt, later[d, q, 0], 0)
                    out[s, q, 0] = wrapped(v, 1, out[s, q, 0])
                    by_label[q, lab, 0] = wrapped(ways[s, q, 0], v, by_label[q, lab, 0])
                    r = np.int64(later[d, q, 1])
                    if wt != 1:
                        r = r * (wt % p) % p
                    o = out[s, q, 1] + r
                    out[s, q, 1] = o - p if o >= p else o
                    b = by_label[q, lab, 1] + ways[s, q, 1] * r  # below p^2, as below
                    by_label[q, lab, 1] = b - square1 if b >= square1 else b
        for q in range(triples):
            for lab in range(labels):
                by_label[q, lab, 1] %= p
        return out, by_label
    square = np.empty(columns, np.int64)
    for j in range(columns):
        square[j] = moduli[j] * moduli[j]
    for s in range(states):
        for t in range(start[s], start[s + 1]):
            a = axis_of[label[t]]
            d, lab = into[t], label[t]
            wt = np.int64(1 if ones else weight[t])
            for q in range(triples):
                if not live[s, q] or (a >= 0 and accused[q, a] != 0 and accused[q, a] != cls):
                    continue
                for j in range(columns):
                    p = moduli[j]
                    if p == EXACT:  # modulo 2^64 (`wrapped`), as `backward`
                        v = wrapped(wt, later[d, q, j], 0)
                        out[s, q, j] = wrapped(v, 1, out[s, q, j])
                        by_label[q, lab, j] = wrapped(ways[s, q, j], v, by_label[q, lab, j])
                        continue
                    v = np.int64(later[d, q, j])
                    if wt != 1:
                        v = v * (wt % p) % p
                    o = np.int64(out[s, q, j]) + v
                    out[s, q, j] = o - p if o >= p else o
                    b = by_label[q, lab, j] + np.int64(ways[s, q, j]) * v
                    by_label[q, lab, j] = b - square[j] if b >= square[j] else b
    for q in range(triples):
        for lab in range(labels):
            for j in range(columns):
                if moduli[j] != EXACT:
                    by_label[q, lab, j] %= moduli[j]
    return out, by_label
