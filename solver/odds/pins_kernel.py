"""The count card by card by inclusion-exclusion (`pins`), its loops compiled (numba).

A state is one 64-bit key in bit fields: the slots filled (bits 0-2), the refutations taken as
"none" (one bit each from `NONE`), each player's pins (``offset``, ``width``) and, on top, the
pins in all. A card's moves are `pins.moves`'s, in the same order: per set of the refutations
it opens taken as "none", free, the slot, then a pin per player who may take one. Counts are
residues modulo one prime at a time (`residues`), below 2^52 in 64 bits or below 2^31 in 32
(the arrays' type: ``ways``, ``later``), multiplied by the floating-point quotient (`mul`) or,
below 2^31, by Shoup's method (`shoup`). `pins_compiled` drives the layers, picks the primes
and charges the work.

Imported only where the compiled count runs (numba is heavy to load).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .exclusion_kernel import add
from .kernel import compiled
from .residues import TOP

NONE = 3
"""The bit of the first refutation taken as "none" in a key."""
FREE, SLOT, PIN = 0, 1, 2
MOST = 256
"""The most moves a state may have (2^opens x (2 + players)); `pins_compiled.fits`."""
FOLDS = 16
"""The most players folded at one card."""
SHAPE_BITS = 20
"""The most bits of a move's shape's code (`listed`): a layer past them (many players folded
at its card) lists its moves again in every pass."""
FIRST = 1 << 31
"""The bit of a move (``dst``) that says it is the first of its state's."""
HEADER = 11
"""A layer's table: axis, may go into the slot, refutations closed (bits), players ruled out
(bits), envelope notes naming it (bits), how many refutations it opens, how many name it, how
many players fold at it, its row among its axis's candidates, the players who may hold it
(bits), the players a refutation's pin there counts for (bits); then the refutations it
opens, (refutation, player) per refutation naming it, the players folded."""


@compiled
def mul(a: int, b: int, p: int, inv: float) -> int:
    """``a * b`` modulo ``p`` (residues, ``p`` below `residues.WIDER`, 2^52; ``inv`` is ``1 /
    p``). The quotient from floating point (of ``a * b`` below 2^104, three roundings: relative
    error under 3.01 * 2^-53, so off by under 1.51) is off by at most two either way: the
    remainder, from -2p to below 3p, exact in 64 bits wrapping (unsigned: defined), is
    corrected."""
    q = np.uint64(float(a) * float(b) * inv)
    r = np.int64(np.uint64(a) * np.uint64(b) - q * np.uint64(p))
    if r < 0:
        r += p
        return int(r + p if r < 0 else r)
    if r >= p:
        r -= p
    return int(r - p if r >= p else r)


@compiled
def times(a: int, w: int, residue: int, p: int, inv: float) -> int:
    """``a * w`` modulo ``p`` (``residue``: ``w`` modulo ``p``): most weights are 1 or -1, an
    addition or a subtraction."""
    x = int(a)
    if w == 1:
        return x
    if w == -1:
        return p - x if x else x
    return mul(x, residue, p, inv)


@compiled
def ratio_of(a: int, p: int) -> int:
    """Shoup's multiplier for ``a`` modulo ``p``: ``(a << 32) // p`` below `TOP` (0 above)."""
    return (a << 32) // p if p < TOP else 0


@compiled
def shoup(b: int, a: int, ratio: int, p: int, inv: float) -> int:
    """``a * b`` modulo ``p`` (residues): below `TOP` by Shoup's method (``ratio`` from
    `ratio_of`, found once for many ``b``; no division), else by `mul`."""
    if p >= TOP:
        return mul(a, int(b), p, inv)
    v = np.int64(b)
    y = a * v - ((v * ratio) >> 32) * p  # from 0 to below 2p
    return int(y - p if y >= p else y)


@compiled
def _emit(nxt: int, w: int, kind: int, j: int, m: int, i: int, t: Any, places: Any,
          offset: Any, width: Any, perm: Any, nfolds: int, fbase: int, o_key: Any, o_w: Any,
          o_kind: Any, o_j: Any, o_left: Any) -> int:
    """Write the ``m``-th move (the players folded at this card folded into its key and
    weight); returns ``m + 1``."""
    for f in range(nfolds):
        q = t[i, fbase + f]
        p = (nxt >> offset[q]) & ((1 << width[q]) - 1)
        w *= perm[places[q], p]
        o_left[m, f] = places[q] - p
        nxt -= p << offset[q]
    o_key[m] = nxt
    o_w[m] = w
    o_kind[m] = kind
    o_j[m] = j
    return m + 1


@compiled
def card_moves(key: int, i: int, t: Any, places: Any, offset: Any, width: Any, top: int,
               perm: Any, o_key: Any, o_w: Any, o_kind: Any, o_j: Any, o_left: Any) -> int:
    """Every move of the card at layer ``i`` from ``key``: the next key, the weight, the kind
    (FREE, SLOT, PIN), the player pinned at and, per player folded at this card, their places
    left. ``t`` holds the layer's table (`pins_compiled.tables`). Returns how many."""
    axis = t[i, 0]
    can_slot = t[i, 1]
    closes = t[i, 2]
    ruled = t[i, 3]
    sealed = t[i, 4]
    nopens = t[i, 5]
    nnamed = t[i, 6]
    nfolds = t[i, 7]
    base = HEADER
    slots = key & 7
    m = 0
    for chosen in range(1 << nopens):
        bits = key
        sign = 1
        for b in range(nopens):
            if (chosen >> b) & 1:
                bits |= 1 << (NONE + t[i, base + b])
                sign = -sign
        where = ruled
        for q in range(nnamed):
            k = t[i, base + nopens + 2 * q]
            if (bits >> (NONE + k)) & 1:
                where |= 1 << t[i, base + nopens + 2 * q + 1]
        after = bits & ~(closes << NONE)
        # free, the slot, then a pin per player who may take one (only the players in
        # ``where``: not a pass over every player)
        fbase = base + nopens + 2 * nnamed
        m = _emit(after, sign, FREE, -1, m, i, t, places, offset, width, perm, nfolds, fbase,
                  o_key, o_w, o_kind, o_j, o_left)
        if can_slot != 0 and not (slots >> axis) & 1 and (bits >> NONE) & sealed == 0:
            m = _emit(after | (1 << axis), sign, SLOT, -1, m, i, t, places, offset, width, perm,
                      nfolds, fbase, o_key, o_w, o_kind, o_j, o_left)
        j = 0
        while (where >> j) != 0:
            if (where >> j) & 1 and ((after >> offset[j]) & ((1 << width[j]) - 1)) < places[j]:
                m = _emit(after + (1 << offset[j]) + (1 << top), -sign, PIN, j, m, i, t, places,
                          offset, width, perm, nfolds, fbase, o_key, o_w, o_kind, o_j, o_left)
            j += 1
    return m


@compiled
def scratch() -> tuple[Any, Any, Any, Any, Any]:
    return (np.empty(MOST, np.int64), np.empty(MOST, np.int64), np.empty(MOST, np.int64),
            np.empty(MOST, np.int64), np.empty((MOST, FOLDS), np.int64))


@compiled
def count_moves(keys: Any, i: int, t: Any, places: Any, offset: Any, width: Any, top: int,
                perm: Any, middle: Any) -> tuple[int, int]:
    """The moves of the layer's states in all, and the work of its second-slot moves (per
    such move, `pins.middle_work`: ``middle`` by layer and the filled slots' bits)."""
    o_key, o_w, o_kind, o_j, o_left = scratch()
    total = 0
    rows = 0
    for s in range(keys.shape[0]):
        m = card_moves(keys[s], i, t, places, offset, width, top, perm, o_key, o_w, o_kind,
                       o_j, o_left)
        total += m
        for q in range(m):
            if o_kind[q] == SLOT:
                rows += middle[i, keys[s] & 7]
    return total, rows


@compiled
def listed(keys: Any, moves: int, i: int, t: Any, places: Any, offset: Any, width: Any,
           top: int, perm: Any, most_shapes: int) -> tuple[Any, Any, Any]:
    """The states pass's first half (`pins_compiled.expand`): every move of the layer's states,
    in order, as its next state's key and its shape, its row among the layer's shapes (kind,
    weight, player, places left) with ``0x8000`` for the first of a state's moves. Returns the
    keys, the rows and the shapes; no rows nor shapes where the layer has more than
    ``most_shapes`` or their codes do not fit `SHAPE_BITS`."""
    o_key, o_w, o_kind, o_j, o_left = scratch()
    reached = np.empty(moves, np.int64)
    # every move's shape as a code (kind, sign, player, places left per player folded), its
    # row found in a table indexed by the code (`SHAPE_BITS`)
    nfolds = t[i, 7]
    fbase = HEADER + t[i, 5] + 2 * t[i, 6]
    who = 3
    while (1 << (who - 3)) <= places.shape[0]:
        who += 1
    bits = who
    for f in range(nfolds):
        bits += width[t[i, fbase + f]]
    most = min(most_shapes, 1 << 15, moves) if bits <= SHAPE_BITS else 0
    codes = np.empty(moves if most > 0 else 0, np.uint16)
    shapes = np.empty((most, 3 + nfolds), np.int64)
    row_of = np.full(1 << bits if most > 0 else 1, -1, np.int64)
    nshapes = 0
    described = most > 0
    n = 0
    for s in range(keys.shape[0]):
        m = card_moves(keys[s], i, t, places, offset, width, top, perm, o_key, o_w, o_kind,
                       o_j, o_left)
        if described:
            for q in range(m):
                c = o_kind[q] | ((1 if o_w[q] < 0 else 0) << 2) | ((o_j[q] + 1) << 3)
                above = who
                for f in range(nfolds):
                    c |= o_left[q, f] << above
                    above += width[t[i, fbase + f]]
                r = row_of[c]
                if r < 0:
                    if nshapes == most:  # too many: the passes list the moves again
                        described = False
                        break
                    r = nshapes
                    row_of[c] = r
                    shapes[r, 0] = o_w[q]
                    shapes[r, 1] = o_kind[q]
                    shapes[r, 2] = o_j[q]
                    for f in range(nfolds):
                        shapes[r, 3 + f] = o_left[q, f]
                    nshapes += 1
                codes[n + q] = r | (0x8000 if q == 0 else 0)
        for q in range(m):
            reached[n + q] = o_key[q]
        n += m
    if not described:
        return reached, codes[:0], shapes[:0]
    return reached, codes, shapes[:nshapes].copy()


@compiled
def numbered(reached: Any, order: Any, codes: Any, nshapes: int) -> tuple[Any, Any, int]:
    """The states pass's second half (`pins_compiled.expand`): from every move's next key
    (``reached``) and their order by key (``order``), the next layer's keys, in increasing
    order, without repeats, and every move's next state (its position among them), with its
    shape's row (``codes``) in the same 32 bits, above the position's ``shift`` bits, and
    `FIRST` for the first of a state's moves. Returns the keys, the moves and ``shift``: 31
    where there are no shapes or they do not fit (the passes list the moves again)."""
    moves = reached.shape[0]
    dst = np.empty(moves, np.uint32)
    out = np.empty(moves, np.int64)
    found = 0
    last = -1  # keys are never negative
    for r in range(moves):
        q = order[r]
        key = reached[q]
        if key != last:
            out[found] = key
            found += 1
            last = key
        dst[q] = found - 1
    shift = 1
    while (1 << shift) < found:
        shift += 1
    if codes.shape[0] == 0 or shift > 30 or nshapes > 1 << (31 - shift):
        return out[:found].copy(), dst, 31
    for q in range(moves):
        dst[q] |= ((codes[q] & 0x7FFF) << shift) | (FIRST if codes[q] & 0x8000 else 0)
    return out[:found].copy(), dst, shift


@compiled
def recall(dst: Any, n: int, shift: int, shapes: Any, nfolds: int, o_w: Any, o_kind: Any,
           o_j: Any, o_left: Any) -> int:
    """The moves of a state from their shapes (`numbered`), its first the ``n``-th of the
    layer's, as `card_moves` lists them (without the next keys: ``dst`` has them). Returns
    how many. The passes choose between this and `card_moves` (no shapes kept) themselves,
    state by state: a function of their own making that choice (as `moves_of` did until
    2026-12-02) took about 120 ns a state called, on 45 cards at 30 events more than half
    of the passes' CPU (`docs/odds-measurements.md`)."""
    mask = (1 << (31 - shift)) - 1
    m = 0
    while True:
        r = (dst[n + m] >> shift) & mask
        o_w[m] = shapes[r, 0]
        o_kind[m] = shapes[r, 1]
        o_j[m] = shapes[r, 2]
        for f in range(nfolds):
            o_left[m, f] = shapes[r, 3 + f]
        m += 1
        if n + m == dst.shape[0] or dst[n + m] & FIRST:
            return m


@compiled
def totals(keys: Any, ways: Any, nkeys: Any, dst: Any, shapes: Any, shift: int, i: int,
           t: Any, places: Any, offset: Any, width: Any, top: int, perm: Any, primes: Any,
           inverses: Any) -> Any:
    """The next layer's ways into each state modulo each of ``primes`` (a column each): the
    forward pass's first count alone, for the total (`pins_compiled`: how many primes the
    figures need)."""
    o_key, o_w, o_kind, o_j, o_left = scratch()
    low = (1 << shift) - 1  # a move's next state, below its shape
    columns = primes.shape[0]
    out = np.zeros((nkeys.shape[0], columns), np.int64)
    nfolds = t[i, 7]
    n = 0
    for s in range(keys.shape[0]):
        if shapes.shape[0] > 0:  # this test here, not in a function of its own (`recall`)
            m = recall(dst, n, shift, shapes, nfolds, o_w, o_kind, o_j, o_left)
        else:
            m = card_moves(keys[s], i, t, places, offset, width, top, perm, o_key, o_w, o_kind,
                           o_j, o_left)
        for q in range(m):
            d = dst[n] & low
            n += 1
            for c in range(columns):
                p = primes[c]
                x = times(ways[s, c], o_w[q], o_w[q] % p, p, inverses[c])
                out[d, c] = add(out[d, c], x, p)
    return out


@compiled
def forward(keys: Any, ways: Any, rows: Any, row_of: Any, nkeys: Any, dst: Any, shapes: Any,
            shift: int, nrow_of: Any,
            nwidth: int, nrows: int, rank: Any, folded: int, before: Any,
            axis_of_bit: Any, i: int, t: Any, places: Any, offset: Any, width: Any, top: int,
            perm: Any, p: int, inv: float) -> tuple[Any, Any]:
    """The next layer's forward counts modulo ``p``: per state the ways into it, then per
    player folded (by ``rank``, the first ``folded`` before this card) the ways times their
    places left; per state with one slot filled the ways by that slot's card (its position
    among its category's candidates before the layer, in the order of the layers), a run of
    ``rows`` from ``row_of`` (the next layer's: ``nrow_of``; -1: no slot or two filled)."""
    o_key, o_w, o_kind, o_j, o_left = scratch()
    low = (1 << shift) - 1  # a move's next state, below its shape
    out = np.zeros((nkeys.shape[0], nwidth), ways.dtype)
    out_rows = np.zeros(nrows, ways.dtype)
    nfolds = t[i, 7]
    fbase = HEADER + t[i, 5] + 2 * t[i, 6]
    cand = t[i, 8]
    n = 0
    for s in range(keys.shape[0]):
        if shapes.shape[0] > 0:  # this test here, not in a function of its own (`recall`)
            m = recall(dst, n, shift, shapes, nfolds, o_w, o_kind, o_j, o_left)
        else:
            m = card_moves(keys[s], i, t, places, offset, width, top, perm, o_key, o_w, o_kind,
                           o_j, o_left)
        r = row_of[s]
        v0 = int(ways[s, 0])
        live = before[i, axis_of_bit[keys[s] & 7]] if r >= 0 else 0
        for q in range(m):
            d = dst[n] & low
            n += 1
            w = o_w[q] % p
            out[d, 0] = add(out[d, 0], times(v0, o_w[q], w, p, inv), p)
            for g in range(folded):
                out[d, 1 + g] = add(out[d, 1 + g], times(ways[s, 1 + g], o_w[q], w, p, inv), p)
            for f in range(nfolds):
                g = rank[t[i, fbase + f]]
                x = mul(v0, (w * o_left[q, f]) % p, p, inv)
                out[d, 1 + g] = add(out[d, 1 + g], x, p)
            nr = nrow_of[d]
            if nr < 0:
                continue
            if o_kind[q] == SLOT:  # the first slot filled: this card's row
                out_rows[nr + cand] = add(out_rows[nr + cand], times(v0, o_w[q], w, p, inv), p)
            elif r >= 0:
                for a in range(live):
                    x = times(rows[r + a], o_w[q], w, p, inv)
                    out_rows[nr + a] = add(out_rows[nr + a], x, p)
    return out, out_rows


@compiled
def backward(keys: Any, ways: Any, rows: Any, row_of: Any, nkeys: Any, dst: Any,
             shapes: Any, shift: int, later: Any,
             later_rows: Any, nrow2_of: Any, row2_of: Any, nrows2: int, width_b: int,
             rank: Any, desc: Any, last_pin: Any, i: int, t: Any, places: Any, offset: Any,
             width: Any, top: int, perm: Any, p: int, inv: float, three: bool,
             axes_rows: Any, before: Any, triples: Any, axis_of_bit: Any
             ) -> tuple[Any, Any, Any]:
    """This layer's backward counts modulo ``p`` (per state the completions, those with a
    place fewer, then per player whose last pin is at this card or later, by ``desc``, with a
    place fewer times their places left; per state with two of three slots filled,
    ``row2_of`` >= 0, the completions by the third slot's card) and the card's figures: per
    player, then the slot (the last). Second-slot moves add to ``triples``."""
    o_key, o_w, o_kind, o_j, o_left = scratch()
    low = (1 << shift) - 1  # a move's next state, below its shape
    k = places.shape[0]
    out = np.zeros((keys.shape[0], width_b), later.dtype)
    out_rows = np.zeros((nrows2, later_rows.shape[1]), later.dtype)
    figures = np.zeros(k + 1, np.int64)
    nfolds = t[i, 7]
    fbase = HEADER + t[i, 5] + 2 * t[i, 6]
    cand = t[i, 8]
    holders = t[i, 9]
    allowed_pins = t[i, 10]
    axis = t[i, 0]
    unfolded = later.shape[1] - 2
    idx = np.zeros(3, np.int64)
    flat = triples.reshape(triples.size)
    stride3 = np.array([triples.shape[1] * triples.shape[2], triples.shape[2], 1], np.int64)
    free = np.zeros(width_b, np.int64)  # the free moves' share of the completions
    pinned = np.zeros(k, np.int64)
    # the players who may hold the card: pinned for the last time before it (their factor
    # forward), at it or later (backward)
    folded = np.empty(k, np.int64)
    still = np.empty(k, np.int64)
    nfolded = 0
    nopen = 0
    for j in range(k):
        if (holders >> j) & 1 and 0 <= last_pin[j] < i:
            folded[nfolded] = j
            nfolded += 1
        elif (holders >> j) & 1 and last_pin[j] >= i:
            still[nopen] = j
            nopen += 1
    unpinned = 0
    n = 0
    for s in range(keys.shape[0]):
        if shapes.shape[0] > 0:  # this test here, not in a function of its own (`recall`)
            m = recall(dst, n, shift, shapes, nfolds, o_w, o_kind, o_j, o_left)
        else:
            m = card_moves(keys[s], i, t, places, offset, width, top, perm, o_key, o_w, o_kind,
                           o_j, o_left)
        slots = keys[s] & 7
        r = row_of[s]
        r2 = row2_of[s]
        v0 = int(ways[s, 0])
        for g in range(width_b):
            free[g] = 0
        in_slot = 0
        for q in range(m):
            d = dst[n] & low
            n += 1
            kind = o_kind[q]
            w = o_w[q] % p
            a0 = later[d, 0]
            a1 = later[d, 1]
            if kind == FREE:
                free[0] = add(free[0], times(a0, o_w[q], w, p, inv), p)
                free[1] = add(free[1], times(a1, o_w[q], w, p, inv), p)
                for g in range(unfolded):
                    free[2 + g] = add(free[2 + g], times(later[d, 2 + g], o_w[q], w, p, inv), p)
                for f in range(nfolds):
                    g = 2 + desc[t[i, fbase + f]]
                    free[g] = add(free[g], mul((w * o_left[q, f]) % p, a1, p, inv), p)
            else:
                out[s, 0] = add(out[s, 0], times(a0, o_w[q], w, p, inv), p)
                out[s, 1] = add(out[s, 1], times(a1, o_w[q], w, p, inv), p)
                for g in range(unfolded):
                    out[s, 2 + g] = add(out[s, 2 + g], times(later[d, 2 + g], o_w[q], w, p, inv), p)
                for f in range(nfolds):
                    g = 2 + desc[t[i, fbase + f]]
                    out[s, g] = add(out[s, g], mul((w * o_left[q, f]) % p, a1, p, inv), p)
            if kind == PIN and (allowed_pins >> o_j[q]) & 1:
                j = o_j[q]
                pinned[j] = add(pinned[j], mul(v0, times(a0, o_w[q], w, p, inv), p, inv), p)
            if kind == SLOT:
                in_slot = add(in_slot, times(a0, o_w[q], w, p, inv), p)
                filled = (slots & 1) + ((slots >> 1) & 1) + ((slots >> 2) & 1)
                if three and filled == 2:  # the third slot: this card's row
                    out_rows[r2, cand] = add(out_rows[r2, cand], times(a0, o_w[q], w, p, inv), p)
                elif filled == 1 and r >= 0:  # the second slot: triples
                    first = axis_of_bit[slots]
                    idx[axis] = cand
                    if three:
                        third = 3 - first - axis
                        d2 = nrow2_of[d]
                        step = stride3[third]
                        for x in range(before[i, first]):
                            fx = times(rows[r + x], o_w[q], w, p, inv)
                            ratio = ratio_of(fx, p)
                            at = cand * stride3[axis] + x * stride3[first]
                            for z in range(before[i, third], axes_rows[third]):
                                y = (shoup(later_rows[d2, z], fx, ratio, p, inv)
                                     + flat[at + z * step])
                                flat[at + z * step] = y - p if y >= p else y
                    else:
                        for x in range(before[i, first]):
                            idx[first] = x
                            v = mul(times(rows[r + x], o_w[q], w, p, inv), a0, p, inv)
                            triples[idx[0], idx[1], idx[2]] = add(
                                triples[idx[0], idx[1], idx[2]], v, p)
                    idx[0] = 0
                    idx[1] = 0
                    idx[2] = 0
            elif three and r2 >= 0:  # the third slot's candidates after this layer
                d2 = nrow2_of[d]
                third = axis_of_bit[7 - slots]
                for z in range(before[i + 1, third], axes_rows[third]):
                    x = times(later_rows[d2, z], o_w[q], w, p, inv)
                    out_rows[r2, z] = add(out_rows[r2, z], x, p)
        for g in range(width_b):
            out[s, g] = add(out[s, g], free[g], p)
        # the figures: forward x the completions of the moves that put the card there (a
        # holder never pinned: times their places, once at the end)
        figures[k] = add(figures[k], mul(v0, in_slot, p, inv), p)
        one_fewer = free[1]
        if one_fewer != 0:
            unpinned = add(unpinned, mul(v0, one_fewer, p, inv), p)
            ratio = ratio_of(one_fewer, p)
            for e in range(nfolded):
                j = folded[e]
                x = shoup(ways[s, 1 + rank[j]], one_fewer, ratio, p, inv)
                figures[j] = add(figures[j], x, p)
        if v0 != 0:
            ratio = ratio_of(v0, p)
            for e in range(nopen):
                j = still[e]
                figures[j] = add(figures[j], shoup(free[2 + desc[j]], v0, ratio, p, inv), p)
    for j in range(k):
        if (holders >> j) & 1 and last_pin[j] < 0:
            figures[j] = add(figures[j], mul(places[j] % p, unpinned, p, inv), p)
        figures[j] = add(figures[j], pinned[j], p)
    return out, out_rows, figures
