"""Inclusion-exclusion, compiled: the same count as `exclusion`, its loops in machine code.

A move in Python costs about 10 microseconds (tuples, a `Move` per move, big integers, a
dictionary look-up per pin); compiled (`exclusion_kernel`, numba) a fraction of that. The plan
is the Python count's own (`exclusion.prepare`: the classes, the owners' order and turns, the
start states), and so are the moves and the work: a unit per state the forward pass reaches
and per move of it. Here every turn's states are found first, turn by turn (the states its
moves lead to), each turn charged before its moves are listed, then the completions backward
(per state, also what one more pin leaves, per kind: `exclusion_kernel.backward`), then the
forward figures and every card's figure. So whether a log is exact never depends on which ran.

Counts are exact: in 64-bit integers where `Setup.bound` (every figure and partial sum) is
below 2^62, else modulo a few primes below 2^50 (`residues.WIDE`) that multiply to more than any
final figure (a start state's completions are at most ``places!``, a card's figure at most the
envelope triples' weight times that; both are counts, never negative) and rebuilt by the
Chinese remainder theorem; the forward pass only modulo the fewest of them whose product
exceeds the deals, which the backward pass has counted by then (`_enough`). Per class the
figures are arrays of residues, not fields of one integer. `exclusion.counted` checks every
figure is a whole number of deals and every card's figures add up to the deals.

Where numba is missing, or the plan does not fit the kernels (`fits`: a turn's state past one
key, a state's moves past a small array, a group of moves' weight past 62 bits), the Python
count runs instead, within the budget's ``uncompiled`` part (`choice`: the 150,000 moves it had
in Python). Where the plan does not fit, that is a property of the log, the same on every
install. Where numba does
not load (a broken install: numba is required), a log that needs more moves is sampled there and
exact elsewhere, never given other figures: the compiled budget in Python would cost up to about
30 s and 1 GB (10 microseconds and 350 bytes a move), as `compiled.PYTHON_MOST` caps the
programme.
"""

from __future__ import annotations

import logging
import math
import operator
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

from ..limits import Stopped
from . import warm
from .compiled import installed
from .exclusion import Setup, State, Turn, counted, prepare, python_steps
from .owners import OwnerCount
from .programme import Budget, OverBudget, Steps, python_first
from .residues import WIDE, garner, moduli_for

PACE = 3
"""A compiled unit's effort, in sixteenths of a unit of the count owner by owner in Python
(`Budget.pace`; a Python unit: `choice.EXCLUSION_PACE`, 48): measured 0.8-1.5 microseconds a
unit (a state the forward pass reaches, or a move of it) on the 12-player logs of
`docs/odds.md` it finishes past 250,000 units (30 events), against 5.3-7.7 for a unit of the
count owner by owner on the same logs: about a sixth (it was 2, an eighth, while the card
figures looked up states the forward pass does not reach: more units, each cheaper)."""
SWITCH = 10_000
"""Moves the count makes in Python before loading its kernels, in a process that has not
loaded them yet: about a tenth of a second."""
KEY_LIMIT = 1 << 62
"""Turns whose states need this many keys or more are counted in Python."""
WEIGHT_LIMIT = 1 << 62
"""A group of moves' summed weight times its places left must stay below this (`shapes`)."""
NUMBERS = 8
"""The most 64-bit numbers the count keeps at once per unit of its budget, besides `FLOOR`: a
count whose arrays would keep more gives up (`OverBudget`) before allocating them (`kept`), so
its memory is bounded by its budget whatever the log (within 5 million units, 305 MiB and
`FLOOR`'s 8). More than `STATES_PASS`: the states pass's share, and one state's moves. The
12-player logs of `docs/odds.md` it finishes keep up to 4.7 per unit of 5 million (45 cards,
30 events, seed 1: 23.4 million numbers at 4.24 million units)."""
FLOOR = 1 << 20
"""64-bit numbers any count may keep (8 MiB), whatever its budget: small budgets are for small
logs, whose arrays are many per unit of work (up to 10 measured: few moves per state)."""
STATES_PASS = 7
"""The most 64-bit numbers the states pass keeps per unit charged, besides one state's moves
(`_scratch`): every key (one per state, each charged; the last turn's, one per move), and
`exclusion_kernel.expand`'s hash set (fewer than four slots per move, six while it grows) and
its keys sorted (two per key)."""
MOVES_LIMIT = 1 << 20
"""Turns where a state may have this many moves or more are counted in Python."""
LANES = 4
"""Classes the forward pass's class loops take at a time where they run in vectors (four 64-bit
numbers in 256 bits); padded to a multiple of it, the loop leaves none to take one by one:
about 5-8 % less of the forward pass on forum at 30 events, seed 5 (29 classes to 32)."""
EXACT_LIMIT = 1 << 62
"""Counts bounded below this are kept exact in 64-bit integers, larger ones modulo primes."""


@cache
def kernel() -> ModuleType | None:
    """The compiled kernels, or ``None`` where numba does not load or cannot compile them
    (logged once; the Python count counts instead, never a traceback for the user)."""
    warm.wait()  # a server making them ready apart: its compile, not a second one here
    try:
        with warm.held():  # not while another process compiles them
            warm.drop_stale()  # another version's kernels, cached
            from . import exclusion_kernel

            _warm_up(exclusion_kernel)
    except Stopped:  # the session ended during the load: the next count loads them again
        raise
    except Exception:
        logging.getLogger(__name__).warning(
            "compiled inclusion-exclusion unavailable; counting in Python", exc_info=True)
        return None
    return exclusion_kernel


def loaded() -> bool:
    """Whether this process has loaded the kernels already (or failed to)."""
    return kernel.cache_info().currsize > 0


@dataclass
class Shape:
    """One turn as the kernels see it: keys before and after, the owner's moves, the kinds of
    the classes."""

    stride: Any
    radix: Any
    after: Any
    nstride: Any
    open_: Any
    signs: Any
    capacity: int
    perm: Any
    most: int
    """The most moves a state of the turn can have."""
    kind_of: Any
    """Per class counted apart: its kind at this turn (-1: none)."""

    def moves(self) -> tuple[Any, ...]:
        """The arguments every kernel takes about the turn's moves (after ``keys``)."""
        return (self.stride, self.radix, self.after, self.nstride, self.open_, self.signs,
                self.capacity)


def _strides(radix: Sequence[int]) -> list[int]:
    return [math.prod(radix[:d]) for d in range(len(radix))]


def _most_moves(turn: Turn, sizes: Sequence[int]) -> int:
    """The most moves a state of ``turn`` can have: per set of refutations taken as "none",
    the ways to pin ``k_j <= n_j`` of each open kind with ``sum k <= c``."""
    c = turn.capacity
    most = 0
    for kinds in turn.open:
        ways = [1] + [0] * c
        for j in kinds:
            ways = [sum(ways[f - k] for k in range(min(sizes[j], f) + 1)) for f in range(c + 1)]
        most += sum(ways)
    return max(most, 1)


def shapes(setup: Setup) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """Per turn (and the end) the radix of each part of the state; per turn the most moves a
    state has; the largest weight of a group of moves that pin the same cards, times places
    left (what the kernels hold in a 64-bit integer, exact or not)."""
    turns = setup.turns
    sizes = [[sum(len(setup.of_class[x]) for x in members) for members in turn.classes]
             for turn in turns]
    radices = [[n + 1 for n in s] + [setup.places + 1] for s in sizes] + [[setup.places + 1]]
    most = [_most_moves(turn, s) for turn, s in zip(turns, sizes, strict=True)]
    # a move pins f <= c of the cards of the turn's kinds: C(those, f) ways at most; the
    # kernels sum the moves that pin the same cards (one per set of refutations taken as
    # "none", `exclusion_kernel.grouped`) and multiply the sum by the places left
    heaviest = [len(t.open) * max(math.perm(t.capacity, f) * math.comb(sum(s), f)
                                  * max(t.capacity, 1)
                                  for f in range(min(t.capacity, sum(s)) + 1))
                for t, s in zip(turns, sizes, strict=True)]
    return radices, [[m] for m in most], heaviest


def fits(setup: Setup) -> bool:
    """Whether the compiled loops can count this plan: every turn's state fits one key, every
    weight a 64-bit integer, a state's moves a small array."""
    if not setup.turns:
        return False
    radices, most, heaviest = shapes(setup)
    return (all(math.prod(r) < KEY_LIMIT for r in radices)
            and all(m[0] < MOVES_LIMIT for m in most) and max(heaviest) < WEIGHT_LIMIT)


def exclusion_steps(pz: Any, budget: Budget) -> Steps[OwnerCount]:
    """`exclusion.exclusion_steps`, compiled where it can be (the same figures, the same work
    charged).

    In a process that has not loaded the kernels yet, the count runs in Python for its first
    `SWITCH` moves: a count that short is over before loading them would pay off. Past that,
    the compiled count starts again and the Python count's work is given back, so the work
    charged, and whether the count finishes within the budget, are the same whichever ran."""
    setup = prepare(pz, budget)
    if setup.turns and not fits(setup):
        budget.cap(budget.uncompiled)  # Python by necessity, on every install
        return (yield from python_steps(setup, budget))
    if not (installed() and setup.turns):
        budget.cap(budget.uncompiled)  # numba missing: the Python budget, not 30 s and 1 GB
        return (yield from python_steps(setup, budget))
    if not loaded():
        done = yield from python_first(python_steps(setup, budget), budget, SWITCH)
        if done is not None:
            return done
    k = kernel()
    if k is None:
        budget.cap(budget.uncompiled)
        return (yield from python_steps(setup, budget))
    budget.pace = PACE
    return (yield from compiled_steps(k, setup, budget))


def compiled_steps(k: Any, setup: Setup, budget: Budget) -> Steps[OwnerCount]:
    """The count of a prepared puzzle with the kernels ``k``."""
    import numpy as np

    def array(values: Sequence[int]) -> Any:
        return np.array(values, dtype=np.int64)

    turns = setup.turns
    n = len(setup.cards)
    comb = np.zeros((n + 1, n + 1), dtype=np.int64)
    for a in range(n + 1):
        for b in range(a + 1):
            comb[a, b] = math.comb(a, b)
    radices, most, _ = shapes(setup)
    big = setup.bound()
    largest = math.factorial(setup.places) * sum(w for _, w in setup.led.values())
    values = (k.EXACT,) if big < EXACT_LIMIT else moduli_for(largest, WIDE)
    moduli = array(values)
    inverse = np.array([1 / p if p else 0.0 for p in values], dtype=np.float64)

    # classes whose figures are the same in every state (the same kind at every turn and the
    # same start: the same weight of the triples holding its card at every start state) are
    # counted once
    stride0 = _strides(radices[0])
    keyed = sorted((_key(st, stride0), st) for st in setup.entry)
    starts = [st for _, st in keyed]
    holding: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for s, st in enumerate(starts):
        for x, v in setup.inside.get(st, {}).items():
            if v:
                holding[x].append((s, v))
    signature: dict[tuple[object, ...], int] = {}
    counted_as = [signature.setdefault(
        (tuple(t.kind_of[x] for t in turns), tuple(holding[x])), len(signature))
        for x in range(len(setup.of_class))]
    apart = [counted_as.index(y) for y in range(len(signature))]

    layers: list[Shape] = []
    for i, turn in enumerate(turns):
        layers.append(Shape(
            array(_strides(radices[i])), array(radices[i]), array(turn.after),
            array(_strides(radices[i + 1])),
            np.array([[j in kinds for j in range(len(turn.kinds))] for kinds in turn.open],
                     dtype=np.bool_).reshape(len(turn.open), len(turn.kinds)),
            array(turn.signs), turn.capacity,
            array([math.perm(turn.capacity, f)  # f pins at most: the cards of its kinds
                   for f in range(min(turn.capacity, radices[i][-1] - 1,
                                      sum(radices[i][:-1]) - len(turn.kinds)) + 1)]),
            most[i][0], array([turn.kind_of[x] for x in apart])))

    # every turn's states: those the moves lead to (their memory bounded by the work charged,
    # the other arrays by `kept`)
    whole = budget.spent + budget.transitions
    limit = NUMBERS * whole + FLOOR
    if max(_scratch(shape) for shape in layers) > limit - STATES_PASS * whole:
        raise OverBudget
    keys = [array([key for key, _ in keyed])]
    for shape in layers:
        # a turn past the budget is not counted to its end: it is past, whatever its size
        units = len(keys[-1]) + int(k.count_moves(keys[-1], *shape.moves(), comb, shape.perm,
                                                  shape.most, max(budget.transitions, 0)))
        budget.spend(units)
        keys.append(k.expand(keys[-1], *shape.moves(), comb, shape.perm, shape.most))
        yield

    number = _rebuild(values, k.EXACT)

    # backward: per state, what one more pin leaves (per kind, then for a card no owner cares
    # about, `exclusion_kernel.backward`) and the completions; (places - pins - 1)! and
    # (places - pins)! at the end
    def factorial(pins: int) -> list[int]:
        f = math.factorial(pins) if pins >= 0 else 0
        return [f % p if p else f for p in values]

    if kept([len(turn_keys) for turn_keys in keys], layers, len(values), len(apart)) > limit:
        raise OverBudget  # before the first array of the backward pass
    by_pins = np.array([[[a, b] for a, b in zip(factorial(setup.places - pins - 1),
                                                factorial(setup.places - pins), strict=True)]
                        for pins in range(setup.places + 1)], dtype=np.int64
                       ).reshape(setup.places + 1, len(values), 2)
    later: list[Any] = [by_pins[keys[-1]]]  # the last keys are the pins alone
    for i in range(len(layers) - 1, -1, -1):
        shape = layers[i]
        later.insert(0, k.backward(keys[i], *shape.moves(), comb, shape.perm, shape.most,
                                   keys[i + 1], later[0], moduli, inverse))
        yield

    # the start states' completions (``keys[0]`` are theirs, in the same order), and the
    # deals (times the hands' ``c!``): every card's figure is a count of deals, so from 0 to
    # that, and the forward pass keeps only the fewest primes whose product exceeds it
    back = dict(zip(starts, number(later[0][:, :, -1]), strict=True))
    later[0] = None  # the forward pass reads the later turns' only
    columns = len(values)
    values = _enough(values, sum(weight * back[st] for st, weight in setup.led.values()),
                     k.EXACT)
    moduli, inverse = moduli[:len(values)].copy(), inverse[:len(values)].copy()
    number = _rebuild(values, k.EXACT)

    # forward: the ways each class's card is still unpinned, and every card's figure
    entry = [setup.entry[st] for st in starts]
    width = _padded(len(apart), len(values), columns)
    unpinned = np.zeros((len(starts), len(values), width), dtype=np.int64)
    for r, p in enumerate(values):
        unpinned[:, r, :len(apart)] = array([v % p if p else v for v in entry])[:, None]
    for y, x in enumerate(apart):
        for s, inside in holding[x]:
            v = entry[s] - inside
            unpinned[s, :, y] = [v % p if p else v for p in values]
    figures: dict[int, list[int]] = {}
    for i, shape in enumerate(layers):
        kind_of = np.full(width, -1, dtype=np.int64)
        kind_of[:len(apart)] = shape.kind_of
        unpinned, got = k.forward(keys[i], unpinned, kind_of, *shape.moves(), comb,
                                  shape.perm, shape.most, keys[i + 1], later[i + 1], moduli,
                                  inverse)
        later[i + 1] = None  # its figures are taken: free it
        row = number(got.T)
        figures[turns[i].owner] = [row[counted_as[x]] for x in range(len(setup.of_class))]
        yield
    return counted(setup, back, figures)


def _enough(values: tuple[int, ...], deals: int, exact: int) -> tuple[int, ...]:
    """The first of ``values`` whose product exceeds ``deals`` (all of them where the counts
    are exact): enough to rebuild any number from 0 to ``deals`` from its residues."""
    if values[0] == exact:
        return values
    product = 1
    for n, p in enumerate(values):
        if product > deals:
            return values[:n]
        product *= p
    return values


def _padded(classes: int, columns: int, allowed: int) -> int:
    """How many classes the forward pass carries: padded with classes of no card to a multiple
    of `LANES` (the class loops then run in whole vectors), where that keeps no more numbers
    than ``classes`` at ``allowed`` moduli (`kept`'s figures), else as they are."""
    width = -(-classes // LANES) * LANES
    return width if width * columns <= classes * allowed else classes


def _rebuild(values: Sequence[int], exact: int) -> Callable[[Any], list[int]]:
    """The numbers of rows of residues modulo ``values`` (one row a number; by the Chinese
    remainder theorem, `residues.garner`), or of exact counts where the modulus is
    ``exact``."""
    if values[0] == exact:
        return lambda rows: [int(v) for v in rows[:, 0].tolist()]
    number = garner(values)
    return lambda rows: [number(row) for row in rows.tolist()]


def _scratch(shape: Shape) -> int:
    """The 64-bit numbers a kernel call keeps for one state's moves (`exclusion_kernel.scratch`,
    and `grouped`'s two arrays), at most."""
    return shape.most * (9 + 2 * max(shape.capacity, 1)) + 3 * len(shape.radix)


def kept(states: Sequence[int], layers: Sequence[Shape], columns: int, classes: int) -> int:
    """The most 64-bit numbers the count keeps at once after its states pass, given each
    turn's states (and the end's): every turn's keys, and the most of these at once: the
    completions of the turns counted backward so far, ``kinds + 2`` per state and modulus
    (`exclusion_kernel.backward`; the end's, 2); then, turn by turn forward, the first turn's
    completions, the later turns', and the forward figures of the turn and the next (per state,
    modulus and class counted apart); a hash table of the next turn's keys (fewer than 4 slots
    per state, `exclusion_kernel.index`); one state's moves (`_scratch`)."""
    later = [n * columns * (len(shape.radix) + 1)
             for n, shape in zip(states[:-1], layers, strict=True)]
    later.append(states[-1] * columns * 2)
    figures = [n * columns * classes for n in states]
    most = 0
    for i in range(len(layers)):
        backward = sum(later[i:]) + 4 * states[i + 1]
        forward = (later[0] + sum(later[i + 1:]) + figures[i] + figures[i + 1]
                   + 4 * states[i + 1])
        most = max(most, backward, forward)
    return sum(states) + most + max(_scratch(shape) for shape in layers)


def _key(st: State, stride: Sequence[int]) -> int:
    return sum(map(operator.mul, st, stride))


def _warm_up(k: ModuleType) -> None:
    """Count a tiny turn (two cards of one kind, a hand of one): every kernel's machine code
    loads at its first call (from numba's cache, else compiled), so no real count pays for
    it."""
    import numpy as np

    def array(values: Sequence[int]) -> Any:
        return np.array(values, dtype=np.int64)

    comb = array([1, 0, 0, 1, 1, 0, 1, 2, 1]).reshape(3, 3)
    moves = (array([1, 3]), array([3, 3]), array([-1]), array([1]),
             np.ones((1, 1), dtype=np.bool_), array([1]), 1)
    perm = array([1, 1])
    keys = array([2])
    assert k.count_moves(keys, *moves, comb, perm, 2, 10) == 2
    next_keys = k.expand(keys, *moves, comb, perm, 2)
    moduli = array([2_147_483_647])
    inverse = np.array([1 / 2_147_483_647])
    later = np.ones((len(next_keys), 1, 2), dtype=np.int64)
    k.backward(keys, *moves, comb, perm, 2, next_keys, later, moduli, inverse)
    k.forward(keys, np.ones((1, 1, 1), dtype=np.int64), array([0]), *moves, comb, perm, 2,
              next_keys, later, moduli, inverse)
