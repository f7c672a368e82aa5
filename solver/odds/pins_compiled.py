"""Inclusion-exclusion card by card, compiled: `pins`'s count with its loops in machine code
(`pins_kernel`, numba).

The plan is `pins.plan`'s, and so are the moves and the work charged: a unit per state of every
layer and per move listed, once for the forward pass and once for the backward one, and one
per pair of envelope rows multiplied at a second slot (`pins.middle_work`). Here every layer's
states are found first (each layer charged, both passes, before its moves are listed: a count
past its budget stops there), then the forward counts, kept for every layer, then the
backward counts layer by layer, each layer's figures taken as it goes; both passes once per
prime.

Counts are residues modulo primes that multiply to more than any final figure (a scaled count
is at most ``places!`` times the envelope triples), rebuilt by the Chinese remainder theorem
(`residues`): below 2^52, 64 bits a residue, where the forward counts kept fit `WIDE_KEPT`,
else below 2^31, 32 bits (one pass or two more; `kept_below`). The deals come first, from the
ways into every state alone modulo all those primes (`pins_kernel.totals`, one cheap pass);
every figure is a number of deals, at most the deals, so the full passes run modulo only the
fewest primes whose product exceeds them (`enough`; the hands' ``c!`` divided out of the
residues): two of three on the 45-card logs at 30 events. Where numba is missing or the plan
does not fit the kernels (`fits`), the Python count runs instead.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from functools import cache
from types import ModuleType
from typing import Any

from ..limits import Stopped
from . import pins, warm
from .compiled import installed
from .owners import OwnerCount
from .pins import Figures, Plan, around, candidates, middle_work, python_steps, triples_of
from .programme import Budget, Steps, finish
from .residues import TOP, WIDER, garner, moduli_for
from .setup import Puzzle

KEY_BITS = 62
PACE = 1
"""A compiled unit's effort, in sixteenths of a unit of the count owner by owner in Python
(`Budget.pace`), for taking turns beside inclusion-exclusion (`choice.EARLY`): 0.043-0.095
microseconds a unit, the whole count, on the 45-card logs at 30 events it finishes (0.13-0.2
until the passes' per-state call went, 2026-12-02), against 0.32-0.63 for inclusion-exclusion's
units at its pace of 3 where it finishes; its share (`choice.PINS_SHARE`) makes up the rest."""
SHAPES = 1 << 15
"""The most shapes of moves (kind, player, weight, places left) a layer keeps for its passes
(`pins_kernel.recall`, in the bits of each move's next state left free); a layer with more
lists its moves again in each pass."""
WIDE_KEPT = 24 << 20
"""The most counts the forward pass may keep (for every layer) as 64-bit residues modulo
primes below 2^52 (192 MiB; 45 cards at 30 events seed 0: 22.4 million, 3 primes where below
2^31 takes 5); a count keeping more keeps them in 32 bits, modulo primes below 2^31."""


@cache
def kernel() -> ModuleType | None:
    """The compiled kernels, or ``None`` where numba does not load (logged once)."""
    warm.wait()  # a server making them ready apart: its compile, not a second one here
    try:
        with warm.held():  # not while another process compiles them
            warm.drop_stale()  # another version's kernels, cached
            from . import pins_kernel

            _warm_up(pins_kernel)
    except Stopped:  # the session ended during the load: the next count loads them again
        raise
    except Exception:
        logging.getLogger(__name__).warning("compiled pins unavailable", exc_info=True)
        return None
    return pins_kernel


def loaded() -> bool:
    """Whether this process has loaded the kernels already (or failed to)."""
    return kernel.cache_info().currsize > 0


def _warm_up(k: ModuleType) -> None:
    """Count a tiny game (a pass, a refutation, every envelope slot open) with the
    kernels, in 64-bit residues and in 32-bit ones: their machine code loads at its first call
    (from numba's cache, else compiled: about 15 s), so no real count pays for it."""
    from ..cards import Deck
    from ..editions import Dealing, new_game
    from ..game import GameLog, Suggestion
    from ..notebook import Notebook
    from .setup import puzzle

    deck = Deck(("Plum", "Green"), ("Rope", "Knife"), ("Hall", "Study", "Lounge"))
    game = new_game(deck, ("Ann", "Bob", "Cat", "Dan"), Dealing.CLASSIC, me="Ann",
                    my_cards=("Hall",))
    log = GameLog(game, (Suggestion("Ann", ("Plum", "Rope", "Study"), passes=("Bob",),
                                    refuted_by="Cat"),))
    with Notebook(game, log.events) as notebook:
        p = pins.plan(puzzle(log, notebook.grid()))
    if p.possible and fits(p):
        for below in (WIDER, TOP):  # 64-bit residues, and 32-bit ones (`kept_below`)
            finish(compiled_steps(k, p, Budget(1_000_000), below=below))


def count_plan(p: Plan, budget: Budget) -> Steps[Figures]:
    """Count ``p`` compiled where numba loads and the plan fits the kernels, else in Python
    (the same work charged either way)."""
    k = kernel() if installed() and fits(p) else None
    if k is None:  # in Python, the budget's uncompiled part: not minutes and gigabytes
        budget.cap(budget.uncompiled)
        return (yield from python_steps(p, budget))
    budget.pace = PACE
    return (yield from compiled_steps(k, p, budget))


def pins_steps(pz: Puzzle, budget: Budget) -> Steps[OwnerCount]:
    """`pins.pins_steps`, compiled where it can be."""
    return (yield from pins.pins_steps(pz, budget, count_plan))


def layout(p: Plan) -> tuple[list[int], list[int], int] | None:
    """Each player's pin field (offset, width) and the offset of the pins in all, or ``None``
    where the key would pass 62 bits."""
    from .pins_kernel import NONE

    at = NONE + p.refutations
    offset, width = [], []
    for c in p.places:
        offset.append(at)
        width.append(c.bit_length())
        at += c.bit_length()
    if at + p.room.bit_length() > KEY_BITS:
        return None
    return offset, width, at


def fits(p: Plan) -> bool:
    """Whether the kernels can count ``p``: its key fits 62 bits, a state's moves and a card's
    folds their arrays."""
    from .pins_kernel import FOLDS, MOST

    return (layout(p) is not None and len(p.places) < 62 and bool(p.cards)
            and all((1 << len(c.opens)) * (2 + len(p.places)) <= MOST
                    and len(c.folds) <= FOLDS for c in p.cards))


def tables(p: Plan) -> Any:
    """Per layer, the card's table (`pins_kernel.HEADER`)."""
    import numpy as np

    from .pins_kernel import HEADER

    rows = candidates(p)
    out = []
    for c in p.cards:
        holders = sum(1 << j for j in c.holders)
        pins_held = sum(1 << j for j in range(len(p.players))
                        if p.players[j] in p.pz.allowed[c.name])
        out.append([c.axis, int(c.slot), c.closes, sum(1 << j for j in c.ruled_out),
                    sum(1 << k for k in c.sealed), len(c.opens), len(c.named_by),
                    len(c.folds), rows[c.axis].index(c.name) if c.slot else 0, holders,
                    pins_held, *c.opens, *[x for k, j in c.named_by for x in (k, j)],
                    *c.folds])
        assert len(out[-1]) >= HEADER
    wide = max(len(r) for r in out)
    return np.array([r + [0] * (wide - len(r)) for r in out], dtype=np.int64)


def kept_below(kept: int) -> int:
    """Below what the primes are, for a count whose forward pass keeps ``kept`` counts: 2^52
    (`residues.WIDER`: fewer primes, so fewer passes; 8 bytes a count) where they fit
    `WIDE_KEPT`, else 2^31 (4 bytes)."""
    return WIDER if kept <= WIDE_KEPT else TOP


def enough(deals: int, values: Sequence[int]) -> tuple[int, ...]:
    """The fewest of ``values``, in order, whose product exceeds ``deals``: every figure, a
    number of deals from 0 to ``deals``, is rebuilt from its residues modulo them."""
    product = 1
    for d, q in enumerate(values):
        product *= q
        if product > deals:
            return tuple(values[:d + 1])
    return tuple(values)


def expand(k: Any, keys: Any, moves: int, i: int, moves_of: tuple[Any, ...], shapes: int
           ) -> tuple[Any, Any, Any, int]:
    """The states pass at layer ``i``: the next layer's keys, in increasing order, without
    repeats, every move's next state (its position among them) in the order the moves are
    listed, with its shape (`pins_kernel.numbered`), the layer's shapes and where the moves'
    shapes start in their 32 bits (31: none kept, where the layer has more than ``shapes``).
    Both passes and every prime read them, so the moves are listed once, here. The moves' keys
    are sorted by numpy: its sort is several times numba's (0.06 s against 0.35 for seed 0's
    3.5 million states at 45 cards and 30 events), and against a hash table the moves' 11
    million keys sort faster than the table's lookups and its keys' sort together."""
    import numpy as np

    reached, codes, move_shapes = k.listed(keys, moves, i, *moves_of, shapes)
    next_keys, targets, shift = k.numbered(reached, np.argsort(reached), codes,
                                           len(move_shapes))
    return next_keys, targets, move_shapes if shift < 31 else move_shapes[:0], shift


def compiled_steps(k: Any, p: Plan, budget: Budget, moduli: Sequence[int] | None = None,
                   below: int | None = None, shapes: int = SHAPES, fewest: bool = True
                   ) -> Steps[Figures]:
    """Count ``p`` with the kernels ``k``: the states once, then both passes once per prime
    (the memory of one residue a count). The primes are the fewest below ``below`` that hold
    every figure: by default below 2^52 where the forward counts kept fit `WIDE_KEPT`, else
    below 2^31 (`kept_below`); ``moduli`` (tests) instead; the deals counted modulo all of
    them first, the full passes take only the fewest that hold the deals (``fewest``; tests:
    every one). The passes read every move's shape
    as the states pass found it, where a layer has at most ``shapes`` (`SHAPES`; tests: 0)."""
    import numpy as np

    spots = layout(p)
    assert spots is not None
    offset_, width_, top = spots
    offset = np.array(offset_, dtype=np.int64)
    width = np.array(width_, dtype=np.int64)
    places = np.array(p.places, dtype=np.int64)
    most = max([*p.places, 1])
    perm = np.zeros((most + 1, most + 1), dtype=np.int64)
    for c in range(most + 1):
        for q in range(c + 1):
            perm[c, q] = math.perm(c, q)
    t = tables(p)
    n = len(p.cards)
    rows = candidates(p)
    axes_rows = np.array([max(len(r), 1) for r in rows], dtype=np.int64)
    three = len(p.open_axes) == 3
    split = len(p.open_axes) >= 2
    middle = np.array([[middle_work(p, i, slots) for slots in range(8)] for i in range(n)],
                      dtype=np.int64).reshape(n, 8)
    before = np.array([around(p, i)[0] for i in range(n + 1)], dtype=np.int64).reshape(n + 1, 3)
    axis_of_bit = np.array([{1: 0, 2: 1, 4: 2}.get(s, -1) for s in range(8)], dtype=np.int64)
    pinned = sorted((j for j in range(len(p.places)) if p.last_pin[j] >= 0),
                    key=lambda j: p.last_pin[j])
    rank = np.zeros(len(p.places), dtype=np.int64)
    desc = np.zeros(len(p.places), dtype=np.int64)
    for r, j in enumerate(pinned):
        rank[j] = r
        desc[j] = len(pinned) - 1 - r
    last_pin = np.array(p.last_pin, dtype=np.int64)
    folded = [sum(0 <= lp < i for lp in p.last_pin) for i in range(n + 1)]
    unfolded = [sum(lp >= i for lp in p.last_pin) for i in range(n + 1)]
    moves_of = (t, places, offset, width, top, perm)

    def with_slots(keys: Any, count: int, used: bool) -> Any:
        """Per state, its row among those with ``count`` slots filled (-1: another count)."""
        filled = (keys & 1) + ((keys >> 1) & 1) + ((keys >> 2) & 1)
        where = (filled == count) & used
        out = np.full(len(keys), -1, dtype=np.int32)
        out[where] = np.arange(int(where.sum()))
        return out

    def runs(i: int) -> tuple[Any, int]:
        """Per state of layer ``i`` with one slot filled, where its run of the forward split
        starts (one count per candidate of that slot before the layer), else -1; and the
        runs' length in all."""
        where = with_slots(keys[i], 1, split) >= 0
        size = np.where(where, before[i][axis_of_bit[keys[i] & 7]], 0)
        total = int(size.sum())
        assert total < 1 << 31
        return np.where(where, np.cumsum(size) - size, -1).astype(np.int32), total

    # every layer's states, each layer charged (both passes) before its moves are listed
    keys = [np.zeros(1, dtype=np.int64)]
    dst: list[Any] = []
    listed: list[tuple[Any, int]] = []  # per layer, its moves' shapes (`pins_kernel.recall`)
    for i in range(n):
        moves, mid = k.count_moves(keys[i], i, *moves_of, middle)
        budget.spend(2 * (len(keys[i]) + int(moves)) + int(mid))
        next_keys, targets, move_shapes, shift = expand(k, keys[i], int(moves), i, moves_of,
                                                        shapes)
        keys.append(next_keys)
        dst.append(targets)
        listed.append((move_shapes, int(shift)))
        yield
    # where a state's rows start (``runs``, ``with_slots``): worked out again per layer and
    # prime as the passes need them (a few array operations), not kept for every layer
    row_sizes = [runs(i)[1] for i in range(n + 1)]
    kept = sum(len(keys[i]) * (1 + folded[i]) + row_sizes[i] for i in range(n + 1))
    values = moduli or moduli_for(
        math.factorial(p.room) * math.prod(len(rows[a]) for a in p.open_axes),
        below or kept_below(kept))
    # the deals first (the ways into every state alone, modulo every prime), then the full
    # passes modulo only the primes the figures need: each is a number of deals, at most those
    scale = p.scale
    primes = np.array(values, dtype=np.int64)
    every = np.ones((1, len(values)), dtype=np.int64)
    for i in range(n):
        every = k.totals(keys[i], every, keys[i + 1], dst[i], *listed[i], i, *moves_of,
                         primes, 1 / primes)
        yield
    ends = [(j, math.factorial(p.room - (key >> top)))
            for j, key in enumerate(keys[n].tolist()) if key & 7 == p.full]
    whole = garner(values)([sum(int(every[j, c]) * end for j, end in ends) % q
                            for c, q in enumerate(values)])
    if whole % scale:
        raise ArithmeticError("pins: a count is not a whole number of deals")
    if fewest and math.gcd(scale, math.prod(values)) == 1:
        values = enough(whole // scale, values)
        unscale = [pow(scale, -1, q) for q in values]
    else:
        scale, unscale = 1, [1] * len(values)
    store = np.uint32 if max(values) < TOP else np.int64
    width_rows = int(axes_rows.max())

    got: list[list[Any]] = [[] for _ in range(n)]  # per layer, per prime: the card's figures
    totals: list[int] = []
    triples: list[Any] = []
    for q in values:
        inverse = 1 / q
        # forward, kept for every layer
        ways: list[Any] = [np.ones((1, 1), dtype=store)]
        split_rows: list[Any] = [np.zeros(0, dtype=store)]
        row_of = runs(0)[0]
        for i in range(n):
            next_row_of = runs(i + 1)[0]
            w_next, r_next = k.forward(
                keys[i], ways[i], split_rows[i], row_of, keys[i + 1], dst[i], *listed[i],
                next_row_of, 1 + folded[i + 1], row_sizes[i + 1], rank, folded[i], before,
                axis_of_bit, i, *moves_of, q, inverse)
            row_of = next_row_of
            ways.append(w_next)
            split_rows.append(r_next)
            yield

        # backward, and every layer's figures
        def factorial(x: int, q: int = q) -> int:
            return math.factorial(x) % q if x >= 0 else 0

        later = np.array([[factorial(p.room - (key >> top)),
                           factorial(p.room - (key >> top) - 1)] if key & 7 == p.full
                          else [0, 0] for key in keys[n].tolist()], dtype=store
                         ).reshape(len(keys[n]), 2)
        next_row2_of = with_slots(keys[n], 2, three)
        later_rows = np.zeros((int((next_row2_of >= 0).sum()), width_rows), dtype=store)
        shape = tuple(int(axes_rows[a]) if a in p.open_axes else 1 for a in range(3))
        split_counts = np.zeros(shape, dtype=np.int64)
        for i in range(n - 1, -1, -1):
            row2_of = with_slots(keys[i], 2, three)
            later, later_rows, figures = k.backward(
                keys[i], ways[i], split_rows[i], runs(i)[0],
                keys[i + 1], dst[i], *listed[i], later, later_rows, next_row2_of, row2_of,
                int((row2_of >= 0).sum()), 2 + unfolded[i], rank, desc, last_pin, i,
                *moves_of, q, inverse, three, axes_rows, before, split_counts, axis_of_bit)
            next_row2_of = row2_of
            ways[i + 1] = split_rows[i + 1] = None  # its figures are taken: free it
            got[i].append(figures)
            yield
        totals.append(int(later[0, 0]))
        triples.append(split_counts)

    rebuilt = garner(values)

    def number(residues: Sequence[int]) -> int:  # a figure times the hands' c!
        return scale * rebuilt([int(r) * u % q
                                for r, u, q in zip(residues, unscale, values, strict=True)])

    if any(t != whole % q for t, q in zip(totals, values, strict=True)):
        raise ArithmeticError("pins: the passes' deals are not the first pass's")
    cells: dict[str, dict[int, int]] = {}
    slots: dict[str, int] = {}
    for i, card in enumerate(p.cards):
        cells[card.name] = {p.players[j]: v for j in range(len(p.places))
                            if (v := number([g[j] for g in got[i]]))}
        slots[card.name] = number([g[len(p.places)] for g in got[i]])
    total = whole
    split_counts_: dict[tuple[str, ...], int] = {}
    if split:
        stacked = np.stack(triples, axis=-1)
        for index in zip(*np.nonzero(stacked.any(axis=3)), strict=True):
            names = tuple(rows[a][int(index[a])] for a in p.open_axes)
            split_counts_[names] = number(stacked[index])
    return Figures(total, cells, slots, triples_of(p, split_counts_, slots, total))
