"""The programme, compiled: the same count as `programme`, its loop over states in machine code.

The Python programme spends 3-8 microseconds on a transition (dictionary updates, big-integer
additions, the step function); compiled (`kernel`, numba), a transition costs a fraction of
that. The layers, the pruning and the budget are the programme's own: the same `Plan`, the same
moves, and the same units of work charged layer by layer (a transition, plus the packed
envelope counts it moves: `Packing.work`), so whether a log is exact never depends on which
of the two ran.

Counts are kept exactly in 64-bit integers: as they are when a bound proves every count fits
(every partial deal extends to a deal of the open cards into the hands' places, so no count
exceeds the multinomial of the places times the heaviest weights), else, below 2^64 x the
first prime, modulo 2^64 (wrapping) and that prime (`WRAP`), else modulo a few primes, and
rebuilt by the Chinese remainder theorem (`residues`, `Backward`). The state is one 64-bit
key (the room of every hand, the cards left of each block, the count of each tally, in bit
fields, or in mixed radix where those do not fit).
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
from functools import cache, cached_property
from importlib.util import find_spec
from types import ModuleType
from typing import Any

from ..limits import Stopped
from . import warm
from .programme import (
    ACCUSED_SHARE,
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
from .residues import crt, garner, moduli_for
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
MOVES_KEPT = 8_000_000
"""The forward pass keeps its layers' moves (about 6 bytes a move: the next state's index and
the label; the weight where some move weighs more than 1) for the backward pass while they
are no more than this many in all; later layers' moves are listed again from their states
(`Step.listed`): listing them and finding their next states took a quarter of a late 45-card
count. A count past that keeps its first layers' moves only, so its peak memory grows by about
50 MB (64 MB with where each state's moves start: 75 to 139 MB on a forum log at 30 events;
up to 112 MB more where every layer has weights)."""
EXACT_LIMIT = 1 << 62
"""Counts bounded below this are kept exact in 64-bit integers, larger ones modulo primes."""
WRAP = 1 << 64
"""The backward pass counts modulo this (in 64-bit integers that wrap) and the forward pass's
first prime where the total is below their product, from `EXACT_LIMIT` on (`Backward`): two
columns where three primes below 2^31 would take three (totals to about 2^95)."""
WRAPS = True
"""Whether the backward pass may count modulo `WRAP` and a prime (the tests turn it off to
reach the primes' columns on small counts)."""


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
    warm.wait()  # a server making them ready apart: its compile, not a second one here
    try:
        with warm.held():  # not while another process compiles them
            warm.drop_stale()  # another version's kernels, cached
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
    primes (64- and 32-bit arrays), and turn residues into exact ways in (`Backward.ways`, for
    a total that fits 64 bits), and find a layer's states again: every kernel's machine code
    loads at its first call (from numba's cache, else compiled), so no real count pays for it
    (and `warm.uncached` finds every kernel in numba's cache)."""
    import numpy as np

    two = frozenset({0, 1})
    capacity = [2, 2, 1]
    allowed = {"a": two, "b": two, "c": two, "d": two, "e": frozenset({1, 2})}
    tallies = [Tally(0, ("a", "b"), (0, 1, 1))]
    axes = {2: 0}
    plan = plan_of(capacity, allowed, tallies, axes)
    for exact_limit, wraps in ((EXACT_LIMIT, True), (0, False)):  # modulo 2^64 and a prime:
        # 64-bit arrays, as exact counts
        finish(_compiled(k, capacity, allowed, tallies, Budget(1_000), axes, plan, exact_limit,
                         [(1, 0, 0)], wraps))
    moduli = np.array(moduli_for(EXACT_LIMIT), np.int64)
    Backward.of(k, moduli, None, EXACT_LIMIT).ways(k, np.zeros((1, len(moduli)), np.int32))
    keys = np.zeros(1, np.int64)
    k.found(keys, keys)  # (the moves of a layer listed again: `Step.listed`)


def loaded() -> bool:
    """Whether this process has loaded the kernels already (or failed to)."""
    return kernel.cache_info().currsize > 0


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
    plan: Plan | None = None,
    accused: Sequence[Sequence[int]] = (),
) -> Steps[Run]:
    """`programme_steps`, compiled where it can be (the same figures, the same work charged).

    In a process that has not loaded numba yet, the count runs in Python for its first `SWITCH`
    units of work: a count that short is over before loading numba would pay off. Past that,
    the compiled count starts again from the first layer and the Python count's work is given
    back (the compiled one charges every layer the same), so the work charged, and whether the
    count finishes within the budget, are the same whichever ran.
    """
    plan = plan or plan_of(capacity, allowed, tallies, axes)
    budget.pace = Budget.pace
    if plan.feasible and not fits(capacity, plan, tallies):
        budget.cap(budget.uncompiled)  # Python by necessity, on every install
        return (yield from programme_steps(capacity, allowed, tallies, budget, axes, plan,
                                                   accused))
    if not (installed() and plan.feasible):
        budget.cap(PYTHON_MOST)
        return (yield from programme_steps(capacity, allowed, tallies, budget, axes, plan,
                                                   accused))
    if not loaded():
        python = programme_steps(capacity, allowed, tallies, budget, axes, plan, accused)
        done = yield from python_first(python, budget, SWITCH)
        if done is not None:
            return done
    k = kernel()
    if k is None:
        budget.cap(PYTHON_MOST)
        return (yield from programme_steps(capacity, allowed, tallies, budget, axes, plan,
                                                   accused))
    budget.pace = PACE
    return (yield from _compiled(k, capacity, allowed, tallies, budget, axes, plan,
                                 accused=accused))


def _compiled(
    k: Any,
    capacity: Sequence[int],
    allowed: Mapping[str, frozenset[int]],
    tallies: Sequence[Tally],
    budget: Budget,
    axes: Mapping[int, int] | None,
    plan: Plan,
    exact_limit: int | None = None,
    accused: Sequence[Sequence[int]] = (),
    wraps: bool | None = None,
) -> Steps[Run]:
    """The compiled count; counts bounded below ``exact_limit`` (`EXACT_LIMIT`) exact, larger
    ones, where ``wraps`` (`WRAPS`) and the bound is below `WRAP` x the first prime, modulo
    2^64 (64-bit integers that wrap) and that prime, else modulo primes; ``accused`` as in
    `programme_steps` (`Accused`)."""
    import numpy as np

    def array(values: Sequence[int]) -> Any:
        return np.array(values, dtype=np.int64)

    n = len(capacity)
    base = n + plan.blocks
    strides, parts = layout(radices(capacity, plan))
    stride, radix_ = array(strides), array(parts)
    big = bound(capacity, len(allowed), tallies)
    exact_limit = EXACT_LIMIT if exact_limit is None else exact_limit
    wraps = WRAPS if wraps is None else wraps
    first = moduli_for(1)[0]
    if big < exact_limit:
        moduli = array([k.EXACT])
    elif wraps and big < WRAP * first:  # modulo 2^64 and a prime: two columns, not three
        moduli = array([k.EXACT, first])
    else:
        moduli = array(moduli_for(big))
    # residues below 2^31 are stored in 32 bits (half the memory of the envelope split)
    residue = np.int64 if moduli[0] == k.EXACT else np.int32
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
    packed = [1, int(sizes[0]), int(sizes[0] * sizes[1])]  # `Packing.stride`
    top = array([0])  # per state, the highest packed field with a count (`Packing.work`)
    envelope = Envelope([k.filled_slots(keys, stride, radix_, slots)], [], slots, sizes,
                        residue) if track else None
    bits = width if track else 0  # what a field costs: nothing without envelope counts
    suspects = Accused.of(accused, ways) if track and accused else None

    def limit() -> int:
        """The work left, where listing a layer's moves stops (`kernel.card_moves`)."""
        return min(budget.transitions, KEY_LIMIT)

    steps: list[Step] = []
    kept = 0  # moves kept so far (`MOVES_KEPT`)
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
        if suspects is not None:  # per state and triple with a way in, as in Python
            units += int((np.diff(start) * suspects.live.sum(axis=1)[: len(start) - 1]
                          // ACCUSED_SHARE).sum())
        budget.spend(units)  # past the budget: raises, having listed no more moves than that
        if budget.waiting:
            yield  # past its turns: the other counts go first, before this layer's work
        next_keys, into, next_ways = k.forward(start, target, weight, ways, moduli)
        if envelope is not None:
            cls = layer.envelope_class
            top = k.tops(top, start, into, label, axis_of, array([cls * p for p in packed]),
                         len(next_keys))
            envelope.full.append(k.filled_slots(next_keys, stride, radix_, slots))
            envelope.moves.append((axis_of, cls, into_axes))
        step = Step(keys, ways, moves, labels, len(target))
        if suspects is not None:
            step.accused = suspects.ways, suspects.live
            suspects.ways, suspects.live = k.accused_forward(
                start, into, label, weight, suspects.ways, suspects.live, axis_of,
                layer.envelope_class, suspects.classes, moduli, len(next_keys))
        if kept + len(target) <= MOVES_KEPT:  # kept for the backward pass, as it reads them
            kept += len(target)
            step.kept = (start, into, label.copy(),
                         weight.copy() if (weight != 1).any() else weight[:0].copy())
        steps.append(step)
        del start, target, into, label, weight  # else listed again by the backward pass
        keys, ways = next_keys, next_ways
        yield
    return _backward(k, plan, keys, ways, steps, moduli, envelope, exact_limit, suspects)


def _backward(k: Any, plan: Plan, keys: Any, ways: Any, steps: list[Step], moduli: Any,
              envelope: Envelope | None, exact_limit: int, suspects: Accused | None = None
              ) -> Run:
    """Ways out of every state and every layer's marginals, and with them the envelope triples
    (`Envelope.split`): each layer's moves are listed again from its states (`Step.listed`),
    once, and its ways in dropped once it is counted.

    Counted modulo primes, the forward pass ends with the total (the ways into the end state,
    ``ways``), and every count of the backward pass is at most that total (each is a number of
    deals, or of ways to finish a state that at least one way reaches). So where the total
    fits `EXACT_LIMIT` the backward pass counts exactly, in one column of 64-bit integers (the
    ways into each state, from their residues, modulo 2^64: `Backward.ways`), else modulo the
    fewest of the primes whose product exceeds the total: fewer columns for the same
    figures."""
    import numpy as np

    ends = np.flatnonzero(keys == 0)  # the end state: every part 0
    complete = len(ends) > 0
    end = int(ends[0]) if complete else 0
    back = Backward.of(k, moduli, ways[end] if complete else None, exact_limit)
    moduli, values = back.moduli, back.values
    number = back.number
    if envelope is not None:
        envelope.residue = back.residue
    later = np.zeros((len(keys), len(values)), dtype=back.residue)
    if complete:
        later[end] = 1
    split = envelope.last(k, end, len(values)) if envelope is not None and complete else None
    if suspects is not None:
        suspects.last(len(keys), end if complete else -1, back)
    marginals: list[dict[int, int]] = []
    reached = keys
    for i in reversed(range(len(steps))):
        step = steps[i]
        start, into, label, weight = step.listed(k, reached)
        ways_in = back.ways(k, step.ways)
        later_here, by_label = k.backward(start, into, label, weight, ways_in, later,
                                          step.labels, moduli)
        if envelope is not None and split is not None:
            split = envelope.split(k, i, start, into, label, weight, ways_in, later_here, split,
                                   moduli)
        if suspects is not None and envelope is not None:
            suspects.back(k, back, step, start, into, label, weight, envelope.moves[i])
        del ways_in
        del start, into, label, weight
        later = later_here
        step.ways = None  # counted: not needed again
        marginals.insert(0, {lab: v for lab in range(step.labels)
                             if (v := number(by_label[lab]))})
        reached = step.keys
    total = (number(later[0]) if len(later) else 0) if plan.layers else int(
        plan.start == plan.end)
    run = Run(plan.layers, plan.start, [], [], total, marginals, plan.classes)
    if envelope is not None and complete:
        run.envelope = envelope.counted(number, total)
    if suspects is not None:
        run.accused = suspects.counted(number)
    return run


@dataclass
class Backward:
    """How the backward pass counts: modulo ``values`` (`kernel.EXACT`: exactly; `kernel.EXACT`
    then a prime: modulo `WRAP` then that prime), the forward pass having counted modulo
    ``forward``."""

    values: list[int]
    forward: list[int]
    exact: int
    moduli: Any
    residue: Any
    inverse: Any = None
    prefix: Any = None

    @classmethod
    def of(cls, k: Any, moduli: Any, total: Any, exact_limit: int) -> Backward:
        """As the forward pass counted (``moduli``), or, where its total (residues; ``None``:
        the end state was not reached, so every count is 0) shows fewer columns suffice,
        exactly, modulo `WRAP` and the first prime (rebuilt as `residues.crt` would: the
        number below their product with these residues), or modulo fewer primes."""
        import numpy as np

        forward = [int(m) for m in moduli]
        values = forward
        if len(forward) == 2 and forward[0] == k.EXACT:  # modulo 2^64 and a prime
            if total is None or cls.mixed(total, forward[1]) < exact_limit:
                values = [k.EXACT]
        elif forward[0] != k.EXACT:
            most = crt(total.tolist(), forward) if total is not None else 0
            if most < exact_limit:
                values = [k.EXACT]
            elif WRAPS and most < WRAP * forward[0] and len(forward) > 2:
                values = [k.EXACT, forward[0]]
            else:
                product, n = forward[0], 1
                while product <= most:
                    product, n = product * forward[n], n + 1
                values = forward[:n]
        exact = values[0] == k.EXACT
        back = cls(values, forward, k.EXACT, np.array(values, np.int64),
                   np.int64 if exact else np.int32)
        if exact and forward[0] != k.EXACT:
            columns = len(forward)
            back.inverse = np.zeros((columns, columns), np.int64)
            back.prefix = np.zeros(columns, np.int64)
            product = 1
            for j, p in enumerate(forward):
                for i in range(j):
                    back.inverse[i, j] = pow(forward[i], -1, p)
                signed = product % (1 << 64)
                back.prefix[j] = signed - (1 << 64) if signed >= 1 << 63 else signed
                product *= p
        return back

    def ways(self, k: Any, ways: Any) -> Any:
        """The ways into a layer's states as the backward pass counts them."""
        import numpy as np

        if self.inverse is not None:
            return k.exact_ways(ways, np.array(self.forward, np.int64), self.inverse,
                                self.prefix, len(self.values) - 1)
        if len(self.values) < len(self.forward):
            return np.ascontiguousarray(ways[:, : len(self.values)])
        return ways

    def number(self, residues: Any) -> int:
        """A count from its residues (or itself, counted exactly)."""
        if self.values[0] != self.exact:
            return self.rebuild(residues.tolist())
        if len(self.values) == 1:
            return int(residues[0])
        return self.mixed(residues, self.values[1])

    @staticmethod
    def mixed(residues: Any, prime: int) -> int:
        """The number below `WRAP` x ``prime`` with these residues: modulo `WRAP` (a signed
        64-bit integer), then modulo ``prime``."""
        low = int(residues[0]) % WRAP
        return low + WRAP * ((int(residues[1]) - low) * _lift(prime) % prime)

    @cached_property
    def rebuild(self) -> Callable[[Sequence[int]], int]:
        """`residues.garner` modulo ``values``: its inverses worked out once."""
        return garner(self.values)


@cache
def _lift(prime: int) -> int:
    """The inverse of `WRAP` modulo ``prime`` (`Backward.mixed`)."""
    return pow(WRAP, -1, prime)


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
    list their moves (`Moves`), and how many labels its moves take. Its moves are kept as the
    forward pass counted them up to `MOVES_KEPT` in all (6 bytes a move, 2-6 moves a state on
    the 12-player logs); past that, the backward pass and the envelope split list them again,
    a layer at a time."""

    keys: Any
    ways: Any
    moves: Moves
    labels: int
    listed_forward: int
    """How many moves the forward pass listed (a check on the moves listed again)."""
    accused: Any = None
    """The ways into its states per accused triple, and whether any (`Accused`), where there
    are accused triples."""
    kept: tuple[Any, Any, Any, Any] | None = None
    """The moves as the forward pass listed them, where they were kept (`MOVES_KEPT`): where
    each state's moves start, then per move its next state (index), label and weight (empty
    where every move weighs 1)."""

    def listed(self, k: Any, reached: Any) -> tuple[Any, Any, Any, Any]:
        """The layer's moves listed again, as the forward pass listed them: where each state's
        moves start, then per move the index of the state it reaches among ``reached`` (the
        next layer's keys, as `kernel.forward` numbered them: `kernel.found`), label and
        weight. Their work was charged by the forward pass."""
        import numpy as np

        if self.kept is not None:
            kept, self.kept = self.kept, None
            return kept
        # their work was charged once: with 0 bits a move's work is 1 and ``top`` is never read
        start, target, label, weight, _ = self.moves(self.keys, np.zeros(1, np.int64), 0,
                                                     KEY_LIMIT)
        into, every = k.found(target, reached)
        if not every or len(target) != self.listed_forward:
            raise ArithmeticError("a layer's moves listed again reach other states")
        return start, into, label, weight


@dataclass
class Envelope:
    """The envelope split, in the backward pass: per state with a slot filled, its ways out split
    by the classes that fill its empty slots (`kernel.envelope_backward`); a move that fills a
    state's first slot adds ways in x weight x that split to the triples' counts. Kept by the
    forward pass: per state its filled slots (`kernel.filled_slots`), per layer its moves'
    axes, class and the axes it may fill."""

    full: list[Any]
    moves: list[tuple[Any, int, list[int]]]
    slots: Any
    sizes: Any
    residue: Any
    triples: Any = None
    """Per packed class triple (`Packing.index`), its count (per modulus), as the split adds."""
    lo: list[Any] | None = None
    """Per layer (and the end), per axis the first class that may fill it from there on
    (``sizes[a]`` where none may: the axis's rows are empty)."""

    @property
    def whole(self) -> int:
        """The axes with a slot, as bits."""
        return sum(1 << a for a in range(3) if self.slots[a] >= 0)

    def last(self, k: Any, end: int, columns: int) -> Any:
        """The split of the last layer's states: one row, 1, at the end state (every slot
        filled), nothing elsewhere; and, for the split to add to, no triple counted yet."""
        import numpy as np

        sizes = [int(x) for x in self.sizes]
        lo = np.array(sizes, np.int64)
        self.lo = [lo]
        for _, cls, axes in reversed(self.moves):
            lo = lo.copy()
            for a in axes:
                lo[a] = min(lo[a], cls)
            self.lo.insert(0, lo)
        self.triples = np.zeros((sizes[0] * sizes[1] * sizes[2], columns), np.int64)
        _, start = k.rows_after(self.full[-1], self.whole, self.lo[-1], self.sizes)
        after = np.zeros((start[-1], columns), self.residue)
        if start[end + 1] > start[end]:
            after[start[end]] = 1
        return after

    def split(self, k: Any, i: int, start: Any, into: Any, label: Any, weight: Any, ways: Any,
              ways_out: Any, after: Any, moduli: Any) -> Any:
        """Layer ``i``'s split from the next layer's (``after``), its moves as listed, and its
        states' ways out (``ways_out``: a state with one row takes them)."""
        assert self.lo is not None
        axis_of, cls, _ = self.moves[i]
        return k.envelope_backward(after, self.full[i], self.full[i + 1], self.whole,
                                   self.lo[i], self.lo[i + 1], start, into, label, weight,
                                   axis_of, cls, ways, ways_out, self.triples, self.sizes,
                                   moduli)

    def counted(self, number: Callable[[Any], int], total: int) -> dict[tuple[int, ...], int]:
        """class triple -> count, once the backward pass is over."""
        if not self.whole:  # every envelope card known: one triple, every deal
            return {(0, 0, 0): total} if total else {}
        sizes = [int(x) for x in self.sizes]
        out: dict[tuple[int, ...], int] = {}
        for index in range(len(self.triples)):
            if v := number(self.triples[index]):
                out[(index % sizes[0], index // sizes[0] % sizes[1],
                     index // (sizes[0] * sizes[1]))] = v
        return out


@dataclass
class Accused:
    """The wrong accusations' deals, counted with every deal's on the same moves
    (`programme.accused_counts`): per state and accused class triple, the ways in, in the
    forward pass's columns (kept per layer, `Step.accused`), and the ways out, in the backward
    pass's (`Backward`: exactly where the total fits 62 bits, each count being at most the
    total), triple after triple (`kernel.accused_forward`, `kernel.accused_backward`)."""

    classes: Any
    """Per accused triple, per axis the class its slot must take (0: any)."""
    ways: Any
    """Per state and triple (a state's triples side by side), the ways into the layer being
    counted forward (as `kernel.forward` stores them), then the ways out of the layer counted
    backward (as `kernel.backward`)."""
    live: Any
    """Per state of the layer counted forward and triple, whether a way reaches it (the work
    charged: `programme.accused_work`)."""
    marginals: list[Any]

    @classmethod
    def of(cls, accused: Sequence[Sequence[int]], ways: Any) -> Accused:
        """At the start state: one way in for every triple (``ways``: the count's own)."""
        import numpy as np

        classes = np.array([list(c) for c in accused], np.int64)
        return cls(classes, np.stack([ways] * len(accused), axis=1),
                   np.ones((len(ways), len(accused)), np.bool_), [])

    def last(self, states: int, end: int, back: Backward) -> None:
        """The ways out of the last layer's states: 1 at the end state (``-1``: not reached)."""
        import numpy as np

        self.ways = np.zeros((states, len(self.classes), len(back.values)), back.residue)
        if end >= 0:
            self.ways[end] = 1

    def back(self, k: Any, back: Backward, step: Step, start: Any, into: Any, label: Any,
             weight: Any, move: tuple[Any, int, list[int]]) -> None:
        """A layer counted backward: its ways out and its marginals per triple."""
        import numpy as np

        axis_of, cls, _ = move
        ways, live = step.accused
        step.accused = None
        if back.inverse is not None:  # exactly, from the residues (`Backward.ways`), where live
            exact = np.zeros((ways.shape[0] * ways.shape[1], len(back.values)), np.int64)
            where = np.flatnonzero(live.ravel())
            exact[where] = back.ways(k, ways.reshape(len(exact), -1)[where])
            ways = exact.reshape(ways.shape[0], ways.shape[1], -1)
        self.ways, by_label = k.accused_backward(start, into, label, weight, ways, self.ways,
                                                 axis_of, cls, self.classes, step.labels,
                                                 back.moduli, live)
        self.marginals.insert(0, by_label)

    def counted(self, number: Callable[[Any], int]) -> list[tuple[int, list[dict[int, int]]]]:
        """Per triple, its deals and marginals layer by layer (``number``: `Backward.number`)."""
        out: list[tuple[int, list[dict[int, int]]]] = []
        for q in range(len(self.classes)):
            total = number(self.ways[0, q]) if len(self.ways) else 0
            marginals = [{lab: v for lab in range(len(by_label[q]))
                          if (v := number(by_label[q, lab]))} for by_label in self.marginals]
            out.append((total, marginals))
        return out
