"""The programme, compiled: the same count as `programme`, its loop over states in machine code.

The Python programme spends 3-8 microseconds on a transition (dictionary updates, big-integer
additions, the step function); compiled (`kernel`, numba), a transition costs a fraction of
that. The layers, the pruning and the budget are the programme's own: the same `Plan`, the same
moves, and the same units of work charged layer by layer (a transition, plus the packed
envelope counts it moves: `Packing.work`), so whether a log is exact never depends on which
of the two ran.

Counts are kept exactly in 64-bit integers: as they are when a bound proves every count fits
(every partial deal extends to a deal of the open cards into the hands' places, so no count
exceeds the multinomial of the places times the heaviest weights), else modulo a few primes
and rebuilt by the Chinese remainder theorem (`residues`). The state is one 64-bit key (the
room of every hand, the cards left of each block, the count of each tally, in bit fields, or
in mixed radix where those do not fit).
Where numba is missing, or the state does not fit a key, the Python programme runs instead:
where numba is missing, within the same budget up to `PYTHON_MOST` (about six times the time
of a whole count); where the state does not fit (on every install), within the budget's
``uncompiled`` part.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.util import find_spec
from types import ModuleType
from typing import Any

from ..limits import Stopped
from .programme import (
    Budget,
    Plan,
    Run,
    Steps,
    field_width,
    finish,
    plan_of,
    programme_steps,
    python_first,
)
from .residues import crt, moduli_for
from .setup import Tally

PACE = 1
"""A compiled transition's effort, in sixteenths of a Python one (`Budget.pace`): measured
about 15 times cheaper (0.4 against 6 microseconds on the spectator logs), so the programme
takes sixteen times the work per turn beside the Python count owner by owner (`choice`)."""
SWITCH = 20_000
"""Work (transitions) a count does in Python before loading numba, in a process that has not
loaded it yet: about a tenth of a second, where loading numba and the cached kernels takes
about a third (measured)."""
PYTHON_MOST = 1_500_000
"""The most work the programme does where numba does not load (a broken install: numba is a
required dependency): the Python programme stores about 500 bytes a unit (866 MB and 9 s of
CPU at this much, on a 12-player log), so it keeps the budget `odds` had before the compiled
count grew it; such an install finds fewer logs exact, never a different figure."""
KEY_LIMIT = 1 << 62
"""States whose parts need this many keys or more are counted in Python."""
WEIGHT_LIMIT = 1 << 62
"""A move's weight must stay below this (its exact value is reduced by each modulus)."""
EXACT_LIMIT = 1 << 62
"""Counts bounded below this are kept exact in 64-bit integers, larger ones modulo primes."""


@cache
def installed() -> bool:
    """Whether numba can be imported (without importing it)."""
    return find_spec("numba") is not None


@cache
def kernel() -> ModuleType | None:
    """The compiled kernels, or ``None`` where numba does not load or cannot compile them (loaded
    on first use; an ``ImportError`` for a numba built for another numpy, an ``OSError`` for a
    broken llvmlite, a numba error for a numba release that types the kernels otherwise): the
    Python programme counts instead, logged once, never a traceback for the user."""
    try:
        from . import kernel as compiled_kernel

        _warm_up(compiled_kernel)
    except Stopped:  # the session ended during the load: the next count loads them again
        raise
    except Exception:
        logging.getLogger(__name__).warning("compiled odds unavailable; counting in Python",
                                            exc_info=True)
        return None
    return compiled_kernel


def _warm_up(k: ModuleType) -> None:
    """Count a tiny deal (a refutation, a block, an envelope slot), in exact counts and modulo
    primes (64- and 32-bit arrays): every kernel's machine code loads at its first call (from
    numba's cache, else compiled), so no real count pays for it."""
    two = frozenset({0, 1})
    capacity = [2, 2, 1]
    allowed = {"a": two, "b": two, "c": two, "d": two, "e": frozenset({1, 2})}
    tallies = [Tally(0, ("a", "b"), (0, 1, 1))]
    axes = {2: 0}
    plan = plan_of(capacity, allowed, tallies, axes)
    for exact_limit in (EXACT_LIMIT, 0):
        finish(_compiled(k, capacity, allowed, tallies, Budget(1_000), axes, plan, exact_limit))


def loaded() -> bool:
    """Whether this process has loaded the kernels already (or failed to)."""
    return kernel.cache_info().currsize > 0


@cache
def load_in_background() -> None:
    """Load the kernels on a thread of their own, once per process, where numba is installed:
    a server calls this as it starts, so its first long count does not wait the third of a
    second numba takes to load (about twelve seconds once after an install, compiling into the
    cache). A count that starts meanwhile goes on in Python until `SWITCH`, then waits for the
    load (numba compiles under a lock of its own)."""
    if installed() and not loaded():
        import threading

        threading.Thread(target=kernel, name="odds-kernels", daemon=True).start()


def fits(capacity: Sequence[int], plan: Plan, tallies: Sequence[Tally]) -> bool:
    """Whether the compiled loop can count this plan: the state fits one key and every move's
    weight a 64-bit integer."""
    radix = radices(capacity, plan)
    blocks = max((len(layer.block) for layer in plan.layers), default=0)
    weights = math.prod(max(t.weights) for t in tallies)
    return (math.prod(radix) < KEY_LIMIT and math.comb(blocks, blocks // 2) < WEIGHT_LIMIT
            and weights < WEIGHT_LIMIT)


def radices(capacity: Sequence[int], plan: Plan) -> list[int]:
    """How many values each part of the state takes: a hand's room 0 to its places, a block's
    cards left 0 to its size, a tally's count 0 to its saturation."""
    sizes = {layer.slot: len(layer.block) for layer in plan.layers if layer.card is None}
    blocks = [sizes[len(capacity) + b] + 1 for b in range(plan.blocks)]
    return [c + 1 for c in capacity] + blocks + [s + 1 for s in plan.saturation]


def layout(radix: Sequence[int]) -> tuple[list[int], list[int]]:
    """Where each part of the state sits in its key (``stride``: the key of a 1 there) and how
    the kernels read it (`kernel.part`: each part's values, then its bit offset or -1): in bit
    fields where they fit 62 bits (a shift and a mask: 12-player logs need 26-45), else in mixed
    radix (a division and a remainder, the fewest keys: `fits`)."""
    bits = [max(1, (r - 1).bit_length()) for r in radix]
    if sum(bits) <= 62:
        offsets = [sum(bits[:d]) for d in range(len(bits))]
        return [1 << o for o in offsets], [1 << b for b in bits] + offsets
    return [math.prod(radix[:d]) for d in range(len(radix))], list(radix) + [-1] * len(radix)


def bound(capacity: Sequence[int], cards: int, tallies: Sequence[Tally]) -> int:
    """No count of the programme exceeds this: every partial deal extends to a deal of all
    ``cards`` into the places (when the places are as many as the cards: their multinomial;
    else ``owners ** cards``), times the heaviest weight of each tally."""
    if sum(capacity) == cards:
        deals = math.factorial(cards) // math.prod(math.factorial(c) for c in capacity)
    else:
        deals = len(capacity) ** cards
    return deals * math.prod(max(t.weights) for t in tallies)


def compiled_steps(
    capacity: Sequence[int],
    allowed: Mapping[str, frozenset[int]],
    tallies: Sequence[Tally],
    budget: Budget,
    axes: Mapping[int, int] | None = None,
) -> Steps[Run]:
    """`programme_steps`, compiled where it can be (the same figures, the same work charged).

    In a process that has not loaded numba yet, the count runs in Python for its first `SWITCH`
    units of work: a count that short is over before loading numba would pay off. Past that,
    the compiled count starts again from the first layer and the Python count's work is given
    back (the compiled one charges every layer the same), so the work charged, and whether the
    count finishes within the budget, are the same whichever ran.
    """
    plan = plan_of(capacity, allowed, tallies, axes)
    budget.pace = Budget.pace
    if plan.feasible and not fits(capacity, plan, tallies):
        budget.cap(budget.uncompiled)  # Python by necessity, on every install
        return (yield from programme_steps(capacity, allowed, tallies, budget, axes, plan))
    if not (installed() and plan.feasible):
        budget.cap(PYTHON_MOST)
        return (yield from programme_steps(capacity, allowed, tallies, budget, axes, plan))
    if not loaded():
        python = programme_steps(capacity, allowed, tallies, budget, axes, plan)
        done = yield from python_first(python, budget, SWITCH)
        if done is not None:
            return done
    k = kernel()
    if k is None:
        budget.cap(PYTHON_MOST)
        return (yield from programme_steps(capacity, allowed, tallies, budget, axes, plan))
    budget.pace = PACE
    return (yield from _compiled(k, capacity, allowed, tallies, budget, axes, plan))


def _compiled(
    k: Any,
    capacity: Sequence[int],
    allowed: Mapping[str, frozenset[int]],
    tallies: Sequence[Tally],
    budget: Budget,
    axes: Mapping[int, int] | None,
    plan: Plan,
    exact_limit: int | None = None,
) -> Steps[Run]:
    """The compiled count; counts bounded below ``exact_limit`` (`EXACT_LIMIT`) exact, larger
    ones modulo primes."""
    import numpy as np

    def array(values: Sequence[int]) -> Any:
        return np.array(values, dtype=np.int64)

    n = len(capacity)
    base = n + plan.blocks
    strides, parts = layout(radices(capacity, plan))
    stride, radix_ = array(strides), array(parts)
    big = bound(capacity, len(allowed), tallies)
    exact = big < (EXACT_LIMIT if exact_limit is None else exact_limit)
    moduli = array((k.EXACT,) if exact else moduli_for(big))
    # residues below 2^31 are stored in 32 bits (half the memory of the envelope split)
    residue = np.int64 if exact else np.int32
    key_of = sum(s * int(stride[d]) for d, s in enumerate(plan.start))
    keys = array([key_of])
    ways = np.ones((1, len(moduli)), dtype=residue)
    longest = max((len(t.weights) for t in tallies), default=1)
    weights = np.zeros((max(len(tallies), 1), longest), dtype=np.int64)
    for i, t in enumerate(tallies):
        weights[i, : len(t.weights)] = t.weights
    saturation = array(plan.saturation or [0])
    largest = max((len(layer.block) for layer in plan.layers), default=0)
    comb = np.zeros((largest + 1, largest + 1), dtype=np.int64)
    for a in range(largest + 1):
        for b in range(a + 1):
            comb[a, b] = math.comb(a, b)

    track = axes is not None
    slot_of = {axis: owner for owner, axis in (axes or {}).items()}
    slots = array([slot_of[a] if a in slot_of and capacity[slot_of[a]] == 1 else -1
                   for a in range(3)])
    sizes = array([len(c) + 1 for c in plan.classes])
    width = field_width(n, len(allowed), tallies)
    axis_of_owner = array([(axes or {}).get(o, -1) for o in range(n)])
    seen = array([0, 0, 0])
    packed = [1, int(sizes[0]), int(sizes[0] * sizes[1])]  # `Packing.stride`
    top = array([0])  # per state, the highest packed field with a count (`Packing.work`)
    envelope = Envelope([k.filled_slots(keys, stride, radix_, slots)], [seen], [], slots,
                        sizes, residue) if track else None
    bits = width if track else 0  # what a field costs: nothing without envelope counts

    def limit() -> int:
        """The work left, where listing a layer's moves stops (`kernel.card_moves`)."""
        return min(budget.transitions, KEY_LIMIT)

    steps: list[Step] = []
    for layer in plan.layers:
        if layer.card is not None:
            hooks = layer.hooks
            pending_from = [0]
            pending: list[int] = []
            for o in range(n):
                pending.extend(layer.pending.get(o, ()))
                pending_from.append(len(pending))
            moves = _card_moves(k, stride, radix_, array(layer.allowed), array(layer.room),
                                array([t for t, _ in hooks]), array([o for _, o in hooks]),
                                array(layer.closes), weights, saturation, array(pending_from),
                                array(pending), base)
            axis_of = axis_of_owner
            into_axes = [int(axis_of[o]) for o in layer.allowed if axis_of[o] >= 0]
            labels = n
        else:
            axis = (axes or {}).get(layer.owner, -1)
            moves = _block_moves(k, stride, radix_, layer.owner, layer.slot, len(layer.block),
                                 layer.first, layer.last, layer.room[layer.owner], comb)
            axis_of = array([-1, axis] + [-1] * (len(layer.block) - 1))
            into_axes = [axis] if axis >= 0 else []
            labels = len(layer.block) + 1
        start, target, label, weight, units = moves(keys, top, bits, limit())
        budget.spend(units)  # past the budget: raises, having listed no more moves than that
        if budget.waiting:
            yield  # past its turns: the other counts go first, before this layer's work
        next_keys, into, next_ways = k.forward(start, target, weight, ways, moduli)
        if envelope is not None:
            cls = layer.envelope_class
            seen = seen.copy()
            for a in into_axes:
                seen[a] = max(seen[a], cls)
            top = k.tops(top, start, into, label, axis_of, array([cls * p for p in packed]),
                         len(next_keys))
            envelope.full.append(k.filled_slots(next_keys, stride, radix_, slots))
            envelope.seen.append(seen)
            envelope.moves.append((axis_of, cls))
        steps.append(Step(keys, ways, moves, labels))
        del start, target, into, label, weight  # the moves: listed again by the backward pass
        keys, ways = next_keys, next_ways
        yield
    return _backward(k, plan, keys, steps, moduli, envelope)


def _backward(k: Any, plan: Plan, keys: Any, steps: list[Step], moduli: Any,
              envelope: Envelope | None) -> Run:
    """Ways out of every state, every layer's marginals, and then the envelope triples (which
    need the ways out of every state: `Envelope.counted`). Each layer's moves are listed again
    from its states (`Step.listed`); once a layer is counted its ways in are dropped."""
    import numpy as np

    values = [int(m) for m in moduli]

    def number(residues: Any) -> int:
        return int(residues[0]) if values[0] == k.EXACT else crt(residues.tolist(), values)

    ends = np.flatnonzero(keys == 0)  # the end state: every part 0
    complete = len(ends) > 0
    end = int(ends[0]) if complete else 0
    later = np.zeros((len(keys), len(values)), dtype=np.int64 if values[0] == k.EXACT
                     else np.int32)
    if complete:
        later[end] = 1
    marginals: list[dict[int, int]] = []
    laters = [later]  # per layer, from the last: the ways out of its states
    reached = keys
    for step in reversed(steps):
        start, into, label, weight = step.listed(k, reached)
        later, by_label = k.backward(start, into, label, weight, step.ways, later,
                                     step.labels, moduli)
        del start, into, label, weight
        step.ways = None  # not needed again: the envelope split needs only the ways out
        marginals.insert(0, {lab: v for lab in range(step.labels)
                             if (v := number(by_label[lab]))})
        if envelope is not None:
            laters.append(later)
        reached = step.keys
    total = (number(later[0]) if len(later) else 0) if plan.layers else int(
        plan.start == plan.end)
    run = Run(plan.layers, plan.start, [], [], total, marginals, plan.classes)
    if envelope is not None and complete:
        laters.reverse()
        run.envelope = envelope.counted(k, steps, keys, laters, moduli, number, total)
    return run


Moves = Callable[[Any, Any, int, int], tuple[Any, Any, Any, Any, int]]
"""A layer's moves from its states (keys), priced by ``top`` and ``bits`` and listed up to the
first state past a limit of work (`kernel.card_moves`): where each state's moves start, then
per move the key it reaches, its label and weight; and their work."""

def _card_moves(k: Any, *rules: Any) -> Moves:
    """A single card's layer (`kernel.card_moves`, ``rules`` its arguments up to ``base``)."""

    def moves(keys: Any, top: Any, bits: int, limit: int) -> tuple[Any, Any, Any, Any, int]:
        return k.card_moves(keys, *rules, top, bits, limit)  # type: ignore[no-any-return]

    return moves


def _block_moves(k: Any, *rules: Any) -> Moves:
    """One owner's share of a block (`kernel.block_moves`, ``rules`` its arguments up to
    ``comb``)."""

    def moves(keys: Any, top: Any, bits: int, limit: int) -> tuple[Any, Any, Any, Any, int]:
        return k.block_moves(keys, *rules, top, bits, limit)  # type: ignore[no-any-return]

    return moves


@dataclass
class Step:
    """One layer as the backward pass keeps it: its states (keys) and the ways into them, how to
    list their moves (`Moves`), and how many labels its moves take. The moves themselves are
    not kept (8-14 bytes a move, 2-6 moves a state on the 12-player logs): the backward pass
    and the envelope split list them again, each a layer at a time."""

    keys: Any
    ways: Any
    moves: Moves
    labels: int

    def listed(self, k: Any, reached: Any) -> tuple[Any, Any, Any, Any]:
        """The layer's moves listed again, as the forward pass listed them: where each state's
        moves start, then per move the index of the state it reaches among ``reached`` (the
        next layer's keys, as `kernel.forward` numbered them: `kernel.merged`), label and
        weight. Their work was charged by the forward pass."""
        import numpy as np

        # their work was charged once: with 0 bits a move's work is 1 and ``top`` is never read
        start, target, label, weight, _ = self.moves(self.keys, np.zeros(1, np.int64), 0,
                                                     KEY_LIMIT)
        keys, into = k.merged(target)
        if not np.array_equal(keys, reached):
            raise ArithmeticError("a layer's moves listed again reach other states")
        return start, into, label, weight


@dataclass
class Envelope:
    """What the envelope split needs of each layer, kept by the forward pass: per state its
    filled slots (`kernel.filled_slots`), per layer the classes dealt so far on each axis and
    its moves' axes and class."""

    full: list[Any]
    seen: list[Any]
    moves: list[tuple[Any, int]]
    slots: Any
    sizes: Any
    residue: Any

    def counted(self, k: Any, steps: list[Step], keys: Any, laters: list[Any], moduli: Any,
                number: Callable[[Any], int], total: int) -> dict[tuple[int, ...], int]:
        """class triple -> count: the split forward layer by layer (`kernel.envelope_forward`),
        each deal counted when its last slot is filled, times the ways on from there. Each
        layer's moves are listed again (`Step.listed`; ``keys``: the last layer's states), and
        the ways out of a layer's states are dropped once the split is past it."""
        import numpy as np

        whole = sum(1 << a for a in range(3) if self.slots[a] >= 0)
        if not whole:  # every envelope card known: one triple, every deal
            return {(0, 0, 0): total} if total else {}
        sizes = [int(x) for x in self.sizes]
        triples = np.zeros((sizes[0] * sizes[1] * sizes[2], len(moduli)), np.int64)
        split = np.ones((1, len(moduli)), dtype=self.residue)  # the start: every slot empty
        for i, step in enumerate(steps):
            axis_of, cls = self.moves[i]
            reached = steps[i + 1].keys if i + 1 < len(steps) else keys
            start, into, label, weight = step.listed(k, reached)
            laters[i] = None  # the ways out of the states the split has passed
            split = k.envelope_forward(
                split, self.full[i], self.full[i + 1], whole, self.seen[i], self.seen[i + 1],
                start, into, label, weight, axis_of, cls, laters[i + 1], triples, self.sizes,
                moduli)
            del start, into, label, weight
        out: dict[tuple[int, ...], int] = {}
        for index in range(len(triples)):
            if v := number(triples[index]):
                out[(index % sizes[0], index // sizes[0] % sizes[1],
                     index // (sizes[0] * sizes[1]))] = v
        return out
