"""Card by card's card order searched (`pins.Bound.searched`), its loop compiled (numba).

`bound` is `pins.Bound.work` on arrays: the cards by index, each card's players it may be
pinned at and refutations (in compressed rows: ``touch[touch_at[c]:touch_at[c + 1]]``), its
slot's axis (-1: none) and the players' places. `searched` moves a card at a time up to
``shift`` places and keeps the move where the bound rises by less than a threshold that falls
to nothing over the tries (threshold accepting: only additions, multiplications and
comparisons of floating-point numbers, and a 64-bit xorshift generator, so the order found is
the same on every machine); it returns the best order seen.

Imported only where the compiled counts run (numba is heavy to load).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .kernel import compiled


@compiled
def bound(order: Any, touch: Any, touch_at: Any, refutes: Any, refutes_at: Any, axis: Any,
          places: Any, refutations: int) -> float:
    """`pins.Bound.work` of ``order`` (as a float: exact below 2^53)."""
    n = order.shape[0]
    players = places.shape[0]
    last_pin = np.full(players, -1, np.int64)
    first = np.full(refutations, -1, np.int64)
    last = np.full(refutations, -1, np.int64)
    for i in range(n):
        c = order[i]
        for t in range(touch_at[c], touch_at[c + 1]):
            last_pin[touch[t]] = i
        for t in range(refutes_at[c], refutes_at[c + 1]):
            k = refutes[t]
            if first[k] < 0:
                first[k] = i
            last[k] = i
    seen = np.zeros(players, np.int64)
    axes = 0
    opened = 0
    states = 1.0
    work = 0.0
    for i in range(n):
        c = order[i]
        opens = 0
        closes = 0
        for t in range(refutes_at[c], refutes_at[c + 1]):
            k = refutes[t]
            opens += first[k] == i
            closes += last[k] == i
        touched = touch_at[c + 1] - touch_at[c]
        work += 2.0 * states * (1.0 + (1 << opens) * (1.0 + (axis[c] >= 0) + touched))
        for t in range(touch_at[c], touch_at[c + 1]):
            seen[touch[t]] += 1
        if axis[c] >= 0:
            axes |= 1 << axis[c]
        opened += opens - closes
        pinned = 1.0
        folded = 1.0
        for j in range(players):
            held = min(places[j], seen[j])
            if last_pin[j] > i:
                pinned *= held + 1
            elif last_pin[j] >= 0:
                folded += held
        filled = (axes & 1) + (axes >> 1 & 1) + (axes >> 2 & 1)
        states = pinned * folded * float(1 << (opened + filled))
    return work


@compiled
def searched(order: Any, touch: Any, touch_at: Any, refutes: Any, refutes_at: Any, axis: Any,
             places: Any, refutations: int, tries: int, shift: int, slack: float) -> Any:
    """The order of least `bound` seen from ``order`` in ``tries`` moves of one card up to
    ``shift`` places, a move kept where the bound is at most ``1 + slack`` times the current
    one, the slack falling linearly to nothing."""
    n = order.shape[0]
    current = order.copy()
    best = order.copy()
    moved = order.copy()
    now = bound(current, touch, touch_at, refutes, refutes_at, axis, places, refutations)
    least = now
    state = np.uint64(0x9E3779B97F4A7C15)
    for attempt in range(tries):
        state ^= state << np.uint64(13)
        state ^= state >> np.uint64(7)
        state ^= state << np.uint64(17)
        i = np.int64(state % np.uint64(n))
        state ^= state << np.uint64(13)
        state ^= state >> np.uint64(7)
        state ^= state << np.uint64(17)
        j = i + np.int64(state % np.uint64(2 * shift + 1)) - shift
        if j < 0:
            j = np.int64(0)
        if j > n - 1:
            j = np.int64(n - 1)
        if i == j:
            continue
        card = current[i]
        if i < j:
            moved[:i] = current[:i]
            moved[i:j] = current[i + 1:j + 1]
            moved[j] = card
            moved[j + 1:] = current[j + 1:]
        else:
            moved[:j] = current[:j]
            moved[j] = card
            moved[j + 1:i + 1] = current[j:i]
            moved[i + 1:] = current[i + 1:]
        work = bound(moved, touch, touch_at, refutes, refutes_at, axis, places, refutations)
        if work <= now * (1.0 + slack * (tries - attempt) / tries):
            current, moved = moved, current
            now = work
            if work < least:
                least = work
                best[:] = current
    return best
