"""The compiled programme (`solver.odds.compiled`) against brute force on small games, with exact
64-bit counts and with counts modulo several primes; and against the Python programme on every
example log at every fifth event and on generated forum games: the same figures, the same work
charged, the same logs past the budget."""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from solver.cards import CATEGORIES, Deck
from solver.editions import Dealing, editions, new_game
from solver.errors import ContradictionError
from solver.game import Accusation, GameLog, Suggestion
from solver.logfile import load
from solver.odds import Odds, OverBudget, grid_of, odds, puzzle
from solver.odds import compiled as compiled_module
from solver.odds import exact as exact_module
from solver.odds import programme as programme_module
from solver.odds.choice import exact_count
from solver.odds.exact import DEFAULT_BUDGET, Count, count_steps, exact_odds
from solver.odds.programme import Budget, finish
from solver.odds.residues import is_prime, moduli_for
from solver.odds.setup import Puzzle, Tally
from solver.simulate import play, random_setup
from tests.brute import deals
from tests.processes import running
from tests.strategies import forum_game, small_logs
from tests.test_odds import brute_odds
from tests.test_odds_notes import logs_with_notes

pytest.importorskip("numba")

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.json"))
PLENTY = 10**9


@pytest.fixture(autouse=True, scope="module")
def loaded() -> None:
    """Load the kernels first, so every count here runs compiled from its first layer."""
    assert compiled_module.kernel() is not None


def counted(pz: Puzzle, compiled: bool, budget: int = PLENTY) -> tuple[Count, Budget]:
    """The programme's whole count, compiled or in Python, and the work it charged."""
    spent = Budget(budget)
    result = finish(count_steps(pz, spent, compiled=compiled))
    if compiled:  # the Python loop keeps every layer's moves, the compiled one none
        assert not result.run.trans, "the compiled loop did not run"
    return result, spent


def small_moduli(bound: int, top: int = 0, first: int = 1009) -> tuple[int, ...]:
    """Primes from ``first`` (odd) up, as many as the bound needs: many residues for a small
    count."""
    moduli: list[int] = []
    product, n = 1, first
    while product <= bound:
        if is_prime(n):
            moduli.append(n)
            product *= n
        n += 2
    return tuple(moduli)


def modulo_small_primes(patch: pytest.MonkeyPatch, module: ModuleType) -> None:
    """Counts in ``module`` (a compiled count) kept modulo primes near 1000, many residues
    each, never in exact 64-bit integers."""
    patch.setattr(module, "EXACT_LIMIT", 0)
    patch.setattr(module, "moduli_for", small_moduli)
    if hasattr(module, "WRAPS"):  # the backward pass too, never modulo 2^64 and a prime
        patch.setattr(module, "WRAPS", False)


def backward_passes(patch: pytest.MonkeyPatch, read: Callable[[Any], Any]) -> list[Any]:
    """What ``read`` takes from each backward pass `compiled.Backward.of` makes from now on."""
    of = compiled_module.Backward.of.__func__  # type: ignore[attr-defined]
    seen: list[Any] = []

    def spy(cls: type, *args: Any) -> Any:
        back = of(cls, *args)
        seen.append(read(back))
        return back

    patch.setattr(compiled_module.Backward, "of", classmethod(spy))
    return seen


@pytest.fixture
def residues(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Counts modulo primes near 1000 (three to ten of them on the small games), never exact."""
    modulo_small_primes(monkeypatch, compiled_module)
    yield


def assert_brute(log: GameLog, refuter_model: bool) -> None:
    if not any(True for _ in deals(log)):
        with pytest.raises(ContradictionError):
            exact_odds(log, counted(puzzle(log, grid_of(log), refuter_model=refuter_model),
                                    True)[0], refuter_model)
        return
    pz = puzzle(log, grid_of(log), refuter_model=refuter_model)
    result = exact_odds(log, counted(pz, True)[0], refuter_model)
    cells, envelope = brute_odds(log, refuter_model)
    assert result.probabilities == cells
    assert {t[:3]: t[3] for t in result.envelope_odds} == envelope


@SETTINGS
@given(small_logs())
def test_equal_to_brute_force(log: GameLog) -> None:
    assert_brute(log, refuter_model=False)


@SETTINGS
@given(small_logs())
def test_refuter_model_equal_to_weighted_brute_force(log: GameLog) -> None:
    assert_brute(log, refuter_model=True)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(logs_with_notes())
def test_notes_equal_brute_force(log: GameLog) -> None:
    assert_brute(log, refuter_model=False)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_logs())
def test_modulo_primes_equal_to_brute_force(log: GameLog) -> None:
    with pytest.MonkeyPatch.context() as patched:
        modulo_small_primes(patched, compiled_module)
        assert_brute(log, refuter_model=True)


def mixed_radix(radix: list[int]) -> tuple[list[int], list[int]]:
    """`compiled.layout` as where the bit fields do not fit 62 bits: every key in mixed radix."""
    return [math.prod(radix[:d]) for d in range(len(radix))], list(radix) + [-1] * len(radix)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_logs())
def test_mixed_radix_modulo_primes_equal_to_brute_force(log: GameLog) -> None:
    """Keys in mixed radix (a division and a remainder per part) and counts modulo primes near
    1000, the refuter model's weights: the paths no benchmark log takes."""
    with pytest.MonkeyPatch.context() as patched:
        modulo_small_primes(patched, compiled_module)
        patched.setattr(compiled_module, "layout", mixed_radix)
        assert_brute(log, refuter_model=True)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(logs_with_notes())
def test_notes_modulo_primes_equal_brute_force(log: GameLog) -> None:
    with pytest.MonkeyPatch.context() as patched:
        modulo_small_primes(patched, compiled_module)
        assert_brute(log, refuter_model=False)


def test_kernels_modulo_the_largest_primes() -> None:
    """The kernels' arithmetic modulo the primes just below 2^31 the counts use (residues in
    32 bits, Shoup's multiplication with one conditional subtraction) at its edges: residues
    0, 1, p - 2, p - 1, weights 1, p - 1, p, p + 1 and up to 2^62 - 1, against Python's
    integers; also modulo a few small primes."""
    import numpy as np

    k = compiled_module.kernel()
    assert k is not None
    primes = [*moduli_for(1 << 120), 3, 1009, 65_537]
    assert primes[0] == (1 << 31) - 1
    moduli = np.array(primes, np.int64)
    rng = random.Random(7)

    def residue(p: int) -> int:
        return rng.choice([0, 1, p - 2, p - 1, rng.randrange(p)])

    states, moves, labels = 40, 400, 5
    ways = [[residue(p) for p in primes] for _ in range(states)]
    origin = sorted(rng.randrange(states) for _ in range(moves))  # listed state by state
    start = np.searchsorted(np.array(origin), np.arange(states + 1)).astype(np.int64)
    target = [rng.randrange(25) for _ in range(moves)]
    weight = [rng.choice([1, 1, 2, primes[0] - 1, primes[0], primes[0] + 1, (1 << 62) - 1,
                          rng.randrange(1, 1 << 62)]) for _ in range(moves)]
    keys, into, count = k.forward(start, np.array(target, np.int64),
                                  np.array(weight, np.int64), np.array(ways, np.int32), moduli)
    expected: dict[int, list[int]] = {}
    for s, t, w in zip(origin, target, weight, strict=True):
        row = expected.setdefault(t, [0] * len(primes))
        for j, p in enumerate(primes):
            row[j] = (row[j] + ways[s][j] * w) % p
    assert {int(key): count[u].tolist() for u, key in enumerate(keys)} == expected

    later = [[residue(p) for p in primes] for _ in range(len(keys))]
    label = [rng.randrange(labels) for _ in range(moves)]
    for weighed in (weight, []):  # no weights: every move weighs 1 (`Step.kept`)
        out, by_label = k.backward(
            start, into, np.array(label, np.int16),
            np.array(weighed, np.int64), np.array(ways, np.int32), np.array(later, np.int32),
            labels, moduli)
        ways_out = [[0] * len(primes) for _ in range(states)]
        per_label = [[0] * len(primes) for _ in range(labels)]
        for t, (s, lab) in enumerate(zip(origin, label, strict=True)):
            for j, p in enumerate(primes):
                v = (weighed[t] if weighed else 1) * later[int(into[t])][j]
                ways_out[s][j] = (ways_out[s][j] + v) % p
                per_label[lab][j] = (per_label[lab][j] + ways[s][j] * v) % p
        assert out.tolist() == ways_out
        assert by_label.tolist() == per_label


def test_kernels_count_back_exactly_from_residues() -> None:
    """Where the total fits 62 bits the backward pass counts exactly from the ways in as
    residues (`compiled.Backward`): each state's number modulo 2^64 (`kernel.exact_ways`, at the
    residues' edges, modulo the four largest primes and three small ones), and per label the
    ways in x weight x ways out summed modulo 2^64, ways in beyond 2^64 (`kernel.wrapped`)."""
    import numpy as np

    k = compiled_module.kernel()
    assert k is not None
    rng = random.Random(11)

    def signed(x: int) -> int:
        x %= 1 << 64
        return x - (1 << 64) if x >= 1 << 63 else x

    for primes in ([*moduli_for(1 << 120)], [3, 1009, 65_537]):
        product = math.prod(primes)
        numbers = [0, 1, product - 1, product - 2, (1 << 64) - 1, 1 << 63,
                   *(rng.randrange(product) for _ in range(30))]
        numbers = [n % product for n in numbers]
        back = compiled_module.Backward.of(k, np.array(primes, np.int64),
                                           np.array([1] + [1] * (len(primes) - 1)), 1 << 62)
        residues = np.array([[n % p for p in primes] for n in numbers], np.int32)
        assert back.ways(k, residues)[:, 0].tolist() == [signed(n) for n in numbers]
    states, moves, labels = 30, 200, 4
    ways = [rng.randrange(1 << 100) for _ in range(states)]
    origin = sorted(rng.randrange(states) for _ in range(moves))
    start = np.searchsorted(np.array(origin), np.arange(states + 1)).astype(np.int64)
    into = np.array([rng.randrange(20) for _ in range(moves)], np.int32)
    label = [rng.randrange(labels) for _ in range(moves)]
    later = [rng.randrange(1 << 20) for _ in range(20)]
    out, by_label = k.backward(start, into, np.array(label, np.int16), np.zeros(0, np.int64),
                               np.array([[signed(w)] for w in ways], np.int64),
                               np.array([[v] for v in later], np.int64), labels,
                               np.array([k.EXACT], np.int64))
    ways_out, per_label = [0] * states, [0] * labels
    for t, s in enumerate(origin):
        ways_out[s] += later[into[t]]
        per_label[label[t]] += ways[s] * later[into[t]]
    assert out[:, 0].tolist() == ways_out
    assert by_label[:, 0].tolist() == [signed(v) for v in per_label]


def test_kernels_count_back_modulo_two_to_the_64_and_a_prime() -> None:
    """Where the total is past 2^62 but below 2^64 x the first prime, the backward pass counts
    modulo 2^64 (wrapping) and that prime (`compiled.Backward`): the ways in from their
    residues modulo four primes (`kernel.exact_ways`, keeping the first prime's), the ways out
    and per label the ways in x weight x ways out in both columns, against Python's integers
    beyond 2^64, rebuilt (`Backward.number`)."""
    import numpy as np

    k = compiled_module.kernel()
    assert k is not None
    rng = random.Random(13)
    primes = [*moduli_for(1 << 120)]
    p = primes[0]
    back = compiled_module.Backward.of(k, np.array(primes, np.int64),
                                       np.array([(1 << 70) % q for q in primes]), 1 << 62)
    assert back.values == [k.EXACT, p]
    states, moves, labels, reached = 30, 300, 4, 20
    ways = [rng.choice([0, 1, (1 << 64) - 1, 1 << 64, rng.randrange(1 << 92)])
            for _ in range(states)]
    ways_in = back.ways(k, np.array([[w % q for q in primes] for w in ways], np.int32))
    assert [back.number(row) for row in ways_in] == [w % ((1 << 64) * p) for w in ways]
    origin = sorted(rng.randrange(states) for _ in range(moves))
    start = np.searchsorted(np.array(origin), np.arange(states + 1)).astype(np.int64)
    into = np.array([rng.randrange(reached) for _ in range(moves)], np.int32)
    label = [rng.randrange(labels) for _ in range(moves)]
    later = [rng.choice([0, 1, (1 << 64) + 1, rng.randrange(1 << 70)]) for _ in range(reached)]
    later_in = np.array([[v % (1 << 64) - (1 << 64) * (v % (1 << 64) >= 1 << 63), v % p]
                         for v in later], np.int64)
    weight = [rng.choice([1, 1, 2, p - 1, p, p + 1, (1 << 62) - 1]) for _ in range(moves)]
    for weighed in (weight, []):
        out, by_label = k.backward(start, into, np.array(label, np.int16),
                                   np.array(weighed, np.int64), ways_in, later_in, labels,
                                   back.moduli)
        ways_out, per_label = [0] * states, [0] * labels
        for t, s in enumerate(origin):
            v = (weighed[t] if weighed else 1) * later[into[t]]
            ways_out[s] += v
            per_label[label[t]] += ways[s] * v
        modulus = (1 << 64) * p
        assert [back.number(row) for row in out] == [v % modulus for v in ways_out]
        assert [back.number(row) for row in by_label] == [v % modulus for v in per_label]


def five_players_on_45_cards() -> GameLog:
    """Five players dealt 45 cards, two events: about 2^65 deals, the Python programme in a
    quarter of a second."""
    rng = random.Random(1)
    deck = Deck(tuple(f"Suspect {i}" for i in range(1, 13)),
                tuple(f"Weapon {i}" for i in range(1, 13)),
                tuple(f"Room {i}" for i in range(1, 22)))
    names = tuple(f"P{i}" for i in range(1, 6))
    game, truth = random_setup(deck, names, Dealing.CLASSIC, "P1", rng)
    return play(game, truth, 2, rng, wrong_accusations=0.05)


def test_counted_modulo_two_to_the_64_and_a_prime(monkeypatch: pytest.MonkeyPatch) -> None:
    """A count past 2^64 (bound about 2^81) is counted modulo 2^64 and the first prime below
    2^31 both ways; forward modulo four primes (a bound past 2^95) and back modulo 2^64 and the
    first; and, that turned off (`compiled.WRAPS`), modulo three primes both ways: each gives
    the Python programme's figures, envelope triples and work to the last digit, and so do a
    wrong accusation's deals, counted with them (`compiled.Accused`)."""
    log = five_players_on_45_cards()
    before = puzzle(log, grid_of(log))
    s, w, r = (next(c for c in log.game.deck.of(cat)
                    if before.envelope in before.allowed.get(c, ())) for cat in CATEGORIES)
    log = log.append(Accusation("P2", (s, w, r), correct=False))
    pz = puzzle(log, grid_of(log))
    assert pz.accusations
    python, python_work = counted(pz, False)
    assert python.run.total >= 1 << 64
    columns: list[tuple[list[int], list[int]]] = backward_passes(
        monkeypatch, lambda back: (back.forward, back.values))
    p = (1 << 31) - 1
    bound = compiled_module.bound
    for wraps, wide, forward, backward in ((True, False, [0, p], [0, p]),
                                           (True, True, 4, [0, p]), (False, False, 3, 3)):
        monkeypatch.setattr(compiled_module, "WRAPS", wraps)
        monkeypatch.setattr(compiled_module, "bound",
                            (lambda *_: 1 << 120) if wide else bound)
        mine, work = counted(pz, True)
        # modulo 2^64 (`kernel.EXACT`) and p, or so many primes
        assert [c if c[0] == 0 else len(c) for c in columns[-1]] == [forward, backward]
        assert work.spent == python_work.spent
        assert (mine.run.total, mine.run.envelope, mine.run.marginals, mine.run.accused) == (
            python.run.total, python.run.envelope, python.run.marginals, python.run.accused)


@pytest.mark.parametrize("wide", [False, True])
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_logs())
def test_counted_modulo_wrapping_and_a_small_prime_equal_to_brute_force(wide: bool,
                                                                        log: GameLog) -> None:
    """Counted modulo 2^64 and a small prime (5) both ways, or (``wide``: a bound of 2^120)
    forward modulo the primes from 5 up, two dozen, and back modulo 2^64 and the first of them
    (`compiled.Backward`), under the refuter model's weights."""
    with pytest.MonkeyPatch.context() as patched:
        if wide:
            patched.setattr(compiled_module, "bound", lambda *_: 1 << 120)
        patched.setattr(compiled_module, "moduli_for", lambda bound: small_moduli(bound, first=5))
        patched.setattr(compiled_module, "EXACT_LIMIT", 0)
        assert_brute(log, refuter_model=True)


class KernelSpy:
    """The kernels, each call's name recorded."""

    def __init__(self, k: ModuleType) -> None:
        self.k, self.called = k, set[str]()

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.k, name)
        if not callable(value):
            return value

        def call(*args: Any) -> Any:
            self.called.add(name)
            return value(*args)

        return call


@pytest.mark.parametrize("columns", ["exact", "2^64 and a prime", "primes"])
def test_a_state_with_one_row_of_the_split_takes_its_ways_out(monkeypatch: pytest.MonkeyPatch,
                                                               columns: str) -> None:
    """The envelope split of a state whose empty slots have one class left each is its ways out
    (`kernel.envelope_backward` takes them, its moves unread): layer by layer the same split and
    triples as reading every move (an empty ``ways_out``), on an 8-player forum game at 30
    events, where both kinds of state occur, counted exactly, modulo 2^64 and a prime near
    1000, and modulo primes near 1000."""
    if columns != "exact":
        modulo_small_primes(monkeypatch, compiled_module)
        monkeypatch.setattr(compiled_module, "WRAPS", columns != "primes")
    kinds: list[list[int]] = backward_passes(monkeypatch, lambda back: back.values)
    import numpy as np

    split = compiled_module.Envelope.split
    seen = {"one row": 0, "more": 0}

    def both(self: Any, k: Any, i: int, start: Any, into: Any, label: Any, weight: Any,
             ways: Any, ways_out: Any, after: Any, moduli: Any) -> Any:
        _, rows = k.rows_after(self.full[i], self.whole, self.lo[i], self.sizes)
        counts = np.diff(rows)[self.full[i] != 0]
        seen["one row"] += int((counts == 1).sum())
        seen["more"] += int((counts > 1).sum())
        triples = self.triples
        self.triples = triples.copy()
        read = split(self, k, i, start, into, label, weight, ways, ways_out[:0], after, moduli)
        read_triples, self.triples = self.triples, triples
        taken = split(self, k, i, start, into, label, weight, ways, ways_out, after, moduli)
        assert np.array_equal(read, taken) and np.array_equal(read_triples, self.triples), i
        return taken

    monkeypatch.setattr(compiled_module.Envelope, "split", both)
    log = forum_game(8, 0).upto(30)
    result, _ = counted(puzzle(log, grid_of(log)), True)
    assert result.run.envelope and seen["one row"] and seen["more"], seen
    backward = kinds[0]  # the backward pass's columns: 0 is exact (or modulo 2^64)
    assert (backward == [0] if columns == "exact" else backward == [0, 1009]
            if columns == "2^64 and a prime" else len(backward) > 1 and 0 not in backward)


def test_the_warm_up_calls_every_kernel_a_count_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    """`compiled._warm_up` calls every kernel a count calls, so none loads (or, where no cache
    is writable, compiles: a second) in a real count: also the count modulo primes whose
    total fits 64 bits, counted back exactly (`compiled.Backward`)."""
    k = compiled_module.kernel()
    assert k is not None
    warm, counting = KernelSpy(k), KernelSpy(k)
    compiled_module._warm_up(warm)  # type: ignore[arg-type]
    two = frozenset({0, 1})
    capacity = [2, 2, 1]
    allowed = {"a": two, "b": two, "c": two, "d": two, "e": frozenset({1, 2})}
    tallies = [Tally(0, ("a", "b"), (0, 1, 1))]
    plan = programme_module.plan_of(capacity, allowed, tallies, {2: 0})
    monkeypatch.setattr(compiled_module, "bound", lambda *_: 1 << 120)
    run = finish(compiled_module._compiled(counting, capacity, allowed, tallies, Budget(1_000),
                                           {2: 0}, plan))
    assert run.total and counting.called <= warm.called, counting.called - warm.called


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_logs())
def test_counted_back_exactly_from_residues_equal_to_brute_force(log: GameLog) -> None:
    """Counted forward modulo the primes from 5 up (for a bound of 2^120: two dozen), then, the
    total being small, backward exactly from those residues (`compiled.Backward`)."""
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(compiled_module, "bound", lambda *_: 1 << 120)
        patched.setattr(compiled_module, "moduli_for", lambda bound: small_moduli(bound, first=5))
        assert_brute(log, refuter_model=True)


@pytest.mark.parametrize("me", [None, "P1"])
def test_wrong_accusations_of_interchangeable_cards_equal_brute_force(me: str | None) -> None:
    """Wrong accusations whose cards are in blocks of interchangeable cards (nothing else known;
    as a spectator the players are alike too): each accused envelope's deals are counted with
    every deal's, on the moves that fill the slots with its cards' classes, and shared among a
    block's cards (`exact.accused_deals`). Compiled and in Python, every figure as brute force
    finds it, and the same work and figures both ways."""
    deck = Deck(("S1", "S2", "S3"), ("W1", "W2"), ("R1", "R2", "R3", "R4"))
    log = GameLog(new_game(deck, ("P1", "P2", "P3"), Dealing.CLASSIC, me=me,
                           my_cards=("S3", "R4") if me else ()))
    for by, triple in (("P1", ("S1", "W1", "R1")), ("P2", ("S1", "W2", "R2")),
                       ("P3", ("S2", "W1", "R1"))):
        log = log.append(Accusation(by, triple, correct=False))
    pz = puzzle(log, grid_of(log))
    cells, envelope = brute_odds(log)
    for compiled in (True, False):
        result = exact_odds(log, counted(pz, compiled)[0], False)
        assert result.probabilities == cells
        assert {t[:3]: t[3] for t in result.envelope_odds} == envelope
    assert assert_same_as_python(log, False)


def test_wrong_accusations_past_a_few_are_counted_again_a_few_at_a_time() -> None:
    """Past `exact.ACCUSED_AT_ONCE` wrong accusations the count of every deal runs again for
    the next few (each keeps a number per state for every layer: memory the work charged does
    not bound): the same figures as brute force, both ways, and the count's work paid again."""
    deck = Deck(("S1", "S2", "S3"), ("W1", "W2", "W3"), ("R1", "R2", "R3", "R4"))
    log = GameLog(new_game(deck, ("P1", "P2", "P3"), Dealing.CLASSIC))
    for by, triple in (("P1", ("S1", "W1", "R1")), ("P2", ("S2", "W2", "R2")),
                       ("P3", ("S3", "W3", "R3")), ("P1", ("S1", "W2", "R4"))):
        log = log.append(Accusation(by, triple, correct=False))
    pz = puzzle(log, grid_of(log))
    cells, envelope = brute_odds(log)
    spent = {}
    for at_once in (4, 3, 1):
        with pytest.MonkeyPatch.context() as patched:
            patched.setattr(exact_module, "ACCUSED_AT_ONCE", at_once)
            for compiled in (True, False):
                result, work = counted(pz, compiled)
                assert len(result.excluded) == 4
                found = exact_odds(log, result, False)
                assert found.probabilities == cells
                assert {t[:3]: t[3] for t in found.envelope_odds} == envelope
                spent[at_once, compiled] = work.spent
            assert assert_same_as_python(log, False)
    assert spent[4, True] == spent[4, False]
    assert spent[4, True] < spent[3, True] < spent[1, True]


def test_wrong_accusations_are_charged_where_a_way_reaches(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """A wrong accusation's deals are counted, and charged, only from the states some way
    reaches with its classes in the filled slots (`programme.accused_work`): at a unit per
    triple and move, the work beyond the count of every deal is the moves of those states
    (found here by reachability over the Python count's moves, not by counting), the same
    compiled and in Python, and less than every state's moves for every triple; the figures
    as brute force."""
    deck = Deck(("S1", "S2", "S3"), ("W1", "W2", "W3"), ("R1", "R2", "R3", "R4"))
    log = GameLog(new_game(deck, ("P1", "P2", "P3"), Dealing.CLASSIC))
    # refutations nobody saw set the cards apart (no blocks, so the triples' classes differ)
    log = log.append(Suggestion("P1", ("S1", "W1", "R1"), refuted_by="P2"))
    log = log.append(Suggestion("P2", ("S2", "W3", "R2"), refuted_by="P3"))
    for by, triple in (("P1", ("S1", "W1", "R1")), ("P2", ("S2", "W2", "R2")),
                       ("P3", ("S3", "W3", "R3")), ("P1", ("S1", "W2", "R4"))):
        log = log.append(Accusation(by, triple, correct=False))
    pz = puzzle(log, grid_of(log))
    for module in (programme_module, compiled_module):
        monkeypatch.setattr(module, "ACCUSED_SHARE", 1)
    python, python_work = counted(pz, False)
    mine, work = counted(pz, True)
    _, alone = counted(dataclasses.replace(pz, accusations=[]), False)
    d = exact_module.dealt(pz)
    triples = [exact_module.accused_classes(pz, t, d.plan.classes) for t in pz.accusations]
    reached = 0
    for triple in triples:
        assert triple is not None
        states = {d.plan.start}
        for layer, moves in zip(d.plan.layers, python.run.trans, strict=True):
            barred = programme_module.refused(layer, d.axes, triple)
            reached += sum(len(moves[st]) for st in states)
            states = {st2 for st in states for label, st2, _ in moves[st] if label not in barred}
    every = sum(len(m) for moves in python.run.trans for m in moves.values()) * len(triples)
    assert work.spent == python_work.spent == alone.spent + reached
    assert reached < every
    cells, envelope = brute_odds(log)
    for result in (python, mine):
        found = exact_odds(log, result, False)
        assert found.probabilities == cells
        assert {t[:3]: t[3] for t in found.envelope_odds} == envelope


def assert_same_as_python(log: GameLog, refuter_model: bool, budget: int = DEFAULT_BUDGET
                          ) -> bool:
    """The same figures and work, or past the budget both; True when both finished."""
    try:
        pz = puzzle(log, grid_of(log), refuter_model=refuter_model)
    except ContradictionError:
        return False
    try:
        python, python_work = counted(pz, False, budget)
    except OverBudget:
        with pytest.raises(OverBudget):
            counted(pz, True, budget)
        return False
    mine, work = counted(pz, True, budget)
    assert work.spent == python_work.spent
    assert mine.total == python.total
    assert mine.run.envelope == python.run.envelope
    assert mine.run.marginals == python.run.marginals
    assert mine.run.accused == python.run.accused
    if python.total:
        a, b = exact_odds(log, mine, refuter_model), exact_odds(log, python, refuter_model)
        assert (a.probabilities, a.envelope_odds, a.deals) == (
            b.probabilities, b.envelope_odds, b.deals)
    return True


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_equal_the_python_programme(path: Path) -> None:
    log = load(path)
    cuts = [*range(0, len(log.events), 5), len(log.events)]
    compared = sum(assert_same_as_python(log.upto(n), refuter_model)
                   for n in cuts for refuter_model in (False, True))
    assert compared, f"no stage of {path.name} was counted"


@pytest.mark.parametrize("path", EXAMPLES[:2], ids=lambda p: p.stem)
def test_examples_modulo_primes_equal_the_python_programme(path: Path, residues: None) -> None:
    log = load(path)
    cuts = [*range(0, len(log.events), 10), len(log.events)]
    assert sum(assert_same_as_python(log.upto(n), True) for n in cuts)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("players", [6, 8, 12])
def test_forum_games_equal_the_python_programme(players: int, seed: int) -> None:
    """A small budget keeps the Python programme short; where it gives up the compiled one must
    give up too."""
    for n in (0, 5, 30, 60):
        assert_same_as_python(forum_game(players, seed).upto(n), False, budget=20_000)


def test_twelve_players_counted_modulo_three_primes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 12-player forum game at 5 events: counts up to about 2^90, modulo 2^64 and a prime
    (`compiled.WRAPS`), or, that turned off, three residues each: both the Python programme's
    figures and work (counted once in Python: two seconds)."""
    pz = puzzle(forum_game(12, 0).upto(5), grid_of(forum_game(12, 0).upto(5)))
    python, python_work = counted(pz, False)
    forward: list[list[int]] = backward_passes(monkeypatch, lambda back: back.forward)
    for wraps in (True, False):
        monkeypatch.setattr(compiled_module, "WRAPS", wraps)
        mine, work = counted(pz, True)
        assert forward[-1] == [0, (1 << 31) - 1] if wraps else len(forward[-1]) == 3
        assert work.spent == python_work.spent
        assert (mine.total, mine.run.envelope, mine.run.marginals, mine.run.accused) == (
            python.total, python.run.envelope, python.run.marginals, python.run.accused)


def spectator(seed: int) -> GameLog:
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(1, 7))
    game, truth = random_setup(editions()["clue-classic"].deck, names, Dealing.CLASSIC, None,
                               rng)
    return play(game, truth, 10, rng, wrong_accusations=0.05)


def test_the_count_deals_its_cards_hand_by_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """`count_steps` deals the cards no refutation names hand by hand (`programme.hand_by_hand`),
    compiled and in Python alike (the same order and work), and its figures are those of the
    cards dealt in the usual order (the most constrained first), for less work on this log."""
    log = forum_game(6, 1).upto(20)
    pz = puzzle(log, grid_of(log))
    hands, hands_work = counted(pz, True)
    python, python_work = counted(pz, False)
    assert hands_work.spent == python_work.spent
    order = [[layer.card for layer in c.run.layers] for c in (hands, python)]
    assert order[0] == order[1]

    def usual_order(*args: Any, by_hand: bool = False, **options: Any) -> programme_module.Plan:
        return programme_module.plan_of(*args, **options)

    monkeypatch.setattr(exact_module, "plan_of", usual_order)
    usual, usual_work = counted(pz, True)
    assert [layer.card for layer in usual.run.layers] != order[0]
    assert hands_work.spent < usual_work.spent
    assert exact_odds(log, usual, False) == exact_odds(log, hands, False)


def test_hand_by_hand_fills_the_envelope_slots_in_their_axes_order() -> None:
    """The hand the fewest cards reach goes first, but of the envelope's slots the suspect's
    first and the room's last: the room's axis is the highest of the packed envelope counts, and
    a move is charged for the fields up to the highest with a count (`Packing.work`)."""
    allowed = {"s1": frozenset({0, 1, 2}), "s2": frozenset({0, 1, 2}), "s3": frozenset({0, 1, 2}),
               "w1": frozenset({0, 1, 3}), "w2": frozenset({0, 1, 3}), "r1": frozenset({0, 1, 4})}
    cards = list(allowed)
    assert programme_module.hand_by_hand(cards, allowed) == ["r1", "w1", "w2", "s1", "s2", "s3"]
    assert programme_module.hand_by_hand(cards, allowed, {2: 0, 3: 1, 4: 2}) == cards


def test_keys_in_mixed_radix_count_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the state's bit fields would not fit 62 bits its key is in mixed radix (none of the
    benchmark's logs needs it): the same figures and work as the Python programme."""
    packed = compiled_module.layout([4, 3, 2, 5])
    assert packed == ([1, 4, 16, 32], [4, 4, 2, 8, 0, 2, 4, 5])  # bit fields: shifts, masks
    monkeypatch.setattr(compiled_module, "layout", mixed_radix)
    for seed in range(2):
        assert assert_same_as_python(spectator(seed), False)
    assert assert_same_as_python(forum_game(12, 0).upto(5), False)


def test_spectator_logs_equal_the_python_programme() -> None:
    for seed in range(3):
        assert assert_same_as_python(spectator(seed), False)


def test_every_budget_gives_up_at_the_same_point() -> None:
    """Work is charged layer by layer exactly as in Python: just enough budget finishes, one
    unit less gives up, compiled or not."""
    pz = puzzle(spectator(0), grid_of(spectator(0)))
    _, work = counted(pz, False)
    counted(pz, True, work.spent)
    with pytest.raises(OverBudget):
        counted(pz, True, work.spent - 1)


def test_past_its_budget_the_count_stores_no_more_than_its_budget() -> None:
    """Moves are charged as they are listed, state by state: a count past its budget gives up
    having charged (and stored) at most the budget and one state's moves, never the rest of
    the layer it was listing (it used to overshoot by up to a third)."""
    pz = puzzle(spectator(0), grid_of(spectator(0)))
    _, work = counted(pz, True)
    # A state's moves: one per hand that may take the card (the players' and its envelope
    # slot's), or a share of a block (at most a hand's places + 1); each a unit, and one more
    # for the envelope counts (a classic deck's 490 fields fit one unit).
    most = 2 * len(pz.capacity)
    for budget in range(work.spent // 10, work.spent, work.spent // 10):
        spent = Budget(budget)
        with pytest.raises(OverBudget):
            finish(count_steps(pz, spent, compiled=True))
        assert budget < spent.spent <= budget + most


def test_without_numba_the_python_programme_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    log = spectator(1)
    compiled = odds(log)
    monkeypatch.setattr(compiled_module, "installed", lambda: False)
    spent = Budget(PLENTY)
    finish(count_steps(puzzle(log, grid_of(log)), spent, compiled=True))
    assert spent.pace == Budget.pace
    assert spent.spent + spent.transitions == compiled_module.PYTHON_MOST  # capped in Python
    python: Odds = odds(log)
    assert python == compiled


def test_past_its_turns_the_programme_goes_on_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """`exact_count` with ``alone``: a log the programme needs more than its turns for is exact
    once the other count has dropped out, with the same figures; the same where numba is
    missing (the same work, in Python); not where the state does not fit the compiled loop
    (there the programme's budget is its turns', on every install)."""
    pz = puzzle(spectator(0), grid_of(spectator(0)))
    whole, work = counted(pz, False)
    turns = work.spent // 2
    with pytest.raises(OverBudget):
        exact_count(pz, 10, turns)
    alone = exact_count(pz, 10, turns, 0, work.spent)
    assert isinstance(alone, Count) and alone.run.marginals == whole.run.marginals
    monkeypatch.setattr(compiled_module, "installed", lambda: False)
    python = exact_count(pz, 10, turns, 0, work.spent)
    assert isinstance(python, Count) and python.run.trans  # counted in Python
    assert python.run.marginals == whole.run.marginals
    monkeypatch.undo()
    monkeypatch.setattr(compiled_module, "fits", lambda *_: False)
    with pytest.raises(OverBudget):
        exact_count(pz, 10, turns, 0, work.spent)


def test_kernels_that_fail_to_compile_leave_the_python_count(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A numba that imports but cannot compile the kernels (another release types them
    otherwise) is no traceback: the Python programme counts, the same figures and label."""
    from numba.core.errors import TypingError

    def broken(_: object) -> None:
        raise TypingError("a numba that types the kernels otherwise")

    log = spectator(1)
    expected = odds(log)
    monkeypatch.setattr(compiled_module, "_warm_up", broken)
    compiled_module.kernel.cache_clear()
    try:
        assert compiled_module.kernel() is None
        again = odds(log)
        assert again.exact and again.probabilities == expected.probabilities
    finally:
        monkeypatch.undo()
        compiled_module.kernel.cache_clear()
        assert compiled_module.kernel() is not None


def test_before_numba_is_loaded_short_counts_stay_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In a fresh process a count runs in Python for its first `SWITCH` units, then switches
    and charges its work once."""
    log = spectator(2)
    pz = puzzle(log, grid_of(log))
    python, python_work = counted(pz, False)
    assert python_work.spent > 2_000
    monkeypatch.setattr(compiled_module, "loaded", lambda: False)
    monkeypatch.setattr(compiled_module, "SWITCH", 2_000)
    spent = Budget(PLENTY)
    switched = finish(count_steps(pz, spent, compiled=True))
    assert spent.pace == compiled_module.PACE and spent.spent == python_work.spent
    assert switched.run.marginals == python.run.marginals
    monkeypatch.setattr(compiled_module, "SWITCH", python_work.spent)
    spent = Budget(PLENTY)
    finish(count_steps(pz, spent, compiled=True))
    assert spent.pace == Budget.pace and spent.spent == python_work.spent


@pytest.mark.slow
def test_where_no_cache_is_writable_the_count_still_runs(tmp_path: Path) -> None:
    """numba caches nothing where neither the package's ``__pycache__``, ``NUMBA_CACHE_DIR``
    nor the home cache can be written: it compiles in the process (about 6 s) and counts."""
    import os
    import shutil
    import subprocess
    import sys

    root = Path(__file__).parent.parent
    shutil.copytree(root / "solver", tmp_path / "solver",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "solver" / "odds" / "__pycache__").write_text("")  # not a directory
    log = tmp_path / "spectator.json"
    from solver.logfile import dumps

    log.write_text(dumps(spectator(0)))
    code = ("import sys; from solver.logfile import load; from solver.odds import odds; "
            "import solver.odds.compiled as c; k = c.kernel(); r = odds(load(sys.argv[1])); "
            "print(r.exact, r.deals, type(k.forward._cache).__name__, k.__file__)")
    env = dict(os.environ, PYTHONPATH=str(tmp_path), NUMBA_CACHE_DIR="/dev/null/numba",
               HOME="/dev/null", PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-c", code, str(log)], env=env, cwd=tmp_path,
                          capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", str(odds(spectator(0)).deals), "NullCache",
                                   str(tmp_path / "solver" / "odds" / "kernel.py")]


BOUNDS_CHECKED = """
import sys
from solver.odds import compiled, exclusion_compiled, grid_of, puzzle
from solver.odds.exact import count_steps
from solver.odds.exclusion import prepare
from solver.odds.programme import Budget, finish
from tests.strategies import forum_game
from tests.test_odds_exclusion import forum_log
assert compiled.kernel() is not None and exclusion_compiled.kernel() is not None
for players, seed, events in ((6, 1, 10), (8, 0, 10), (12, 0, 5)):
    log = forum_game(players, seed).upto(events)
    counted = finish(count_steps(puzzle(log, grid_of(log)), Budget(10**9), compiled=True))
    print(counted.run.total, len(counted.excluded), counted.excluded[0][1].total)
pz = puzzle(forum_log(12, 10, 1), grid_of(forum_log(12, 10, 1)))
setup = prepare(pz, Budget(10**9))
done = finish(exclusion_compiled.compiled_steps(exclusion_compiled.kernel(), setup,
                                                Budget(10**9)))
print(done.total)
"""


@pytest.mark.slow
def test_the_kernels_read_and_write_within_their_arrays(tmp_path: Path) -> None:
    """Both counts' kernels compiled with numba's bounds checks (about a minute), on
    logs with a wrong accusation (its deals counted with every deal's, `kernel.accused_forward`
    and `accused_backward`; while it was counted apart, with no envelope counts, the
    programme's kernels read a per-state array of one entry past its end, harmless only while
    the read did not reach unmapped memory) and a 12-player log by inclusion-exclusion: no index
    out of bounds, the figures as without the checks."""
    import os
    import subprocess
    import sys

    from solver.odds.exclusion import prepare
    from solver.odds.exclusion_compiled import compiled_steps
    from solver.odds.exclusion_compiled import kernel as exclusion_kernel
    from tests.test_odds_exclusion import forum_log

    root = Path(__file__).parent.parent
    env = dict(os.environ, PYTHONPATH=str(root), NUMBA_BOUNDSCHECK="1",
               NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    done = subprocess.run([sys.executable, "-c", BOUNDS_CHECKED], env=env, cwd=root,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    expected = []
    for players, seed, events in ((6, 1, 10), (8, 0, 10), (12, 0, 5)):
        log = forum_game(players, seed).upto(events)
        result, _ = counted(puzzle(log, grid_of(log)), True)
        expected.append(f"{result.run.total} {len(result.excluded)} "
                        f"{result.excluded[0][1].total}")
    pz = puzzle(forum_log(12, 10, 1), grid_of(forum_log(12, 10, 1)))
    k = exclusion_kernel()
    expected.append(str(finish(compiled_steps(k, prepare(pz, Budget(PLENTY)),
                                              Budget(PLENTY))).total))
    assert done.stdout.split("\n")[:-1] == expected


def test_without_envelope_counts_no_state_is_priced_by_its_fields() -> None:
    """A count without envelope counts (a wrong accusation's, while they were counted apart)
    keeps one entry of ``top``, not one per state: `kernel.move_work` must not read it (in
    Python, where indices are checked)."""
    import numpy as np

    k = compiled_module.kernel()
    assert k is not None
    assert k.move_work.py_func(np.zeros(1, np.int64), 5, 0) == 1
    assert k.move_work.py_func(np.array([0, 2**15 - 1]), 1, 2) == 1 + 2**15 * 2 // 2**15


def test_a_server_makes_the_kernels_ready_in_the_background(tmp_path: Path) -> None:
    """`warm.start` starts one thread per process, not ready at first; a count's kernel asked
    for meanwhile waits until all three are loaded (never a second compile beside theirs). With
    numba's cache holding them nothing is compiled apart; an empty cache (``NUMBA_CACHE_DIR``)
    would be. Checked in fresh processes: this one may have loaded them already."""
    import os
    import subprocess
    import sys

    code = ("import threading; from solver.odds import warm, compiled as c, "
            "exclusion_compiled as e, pins_compiled as p; warm.start(); warm.start(); "
            "t = [t for t in threading.enumerate() if t.name == 'odds-kernels']; "
            "print(len(t), warm.ready()); print(c.kernel() is not None, warm.ready(), "
            "c.loaded() and e.loaded() and p.loaded(), warm.uncached())")
    root = Path(__file__).parent.parent
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=root)
    assert done.stdout.split() == ["1", "False", "True", "True", "True", "False"]
    empty = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", "from solver.odds import warm; "
                           "print(warm.uncached(), warm.ready())"], capture_output=True,
                          text=True, check=True, cwd=root, env=empty)
    assert done.stdout.split() == ["True", "True"]  # (not started: nothing waits)


def test_the_kernels_sources_are_every_module_they_import() -> None:
    """numba bakes the functions and constants a kernel uses from other modules into its cached
    machine code, but keys that cache on the kernel's own file: `warm.SOURCES`, whose digest
    stamps the cache, must hold every module the kernels import from the package."""
    import ast

    from solver.odds import warm

    here = Path(warm.__file__).parent
    for name in warm.KERNELS:
        tree = ast.parse((here / f"{name}.py").read_text(encoding="utf-8"))
        used = {node.module for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module}
        assert used <= set(warm.SOURCES), (name, used - set(warm.SOURCES))


def test_another_versions_cached_kernels_are_dropped(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache stamped with another version of the kernels' sources (or none) loses the
    kernels' files, and only theirs, and is stamped; one stamped with this version is left
    alone. Where the stamp differs, loading the kernels would compile them (`warm.uncached`)."""
    from solver.odds import warm

    kernels = ["kernel.wrapped-42.py311.nbi", "kernel.wrapped-42.py311.1.nbc",
               "pins_kernel.count-7.py311.2.nbc", "exclusion_kernel.add-3.py311.nbi"]
    others = ["elsewhere.f-1.py311.nbi", "kernel.cpython-311.pyc"]
    for name in kernels + others:
        (tmp_path / name).write_bytes(b"x")
    assert warm.drop_stale_in(tmp_path, "v2")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*others, warm.STAMP])
    (tmp_path / kernels[0]).write_bytes(b"x")  # compiled since, for this version
    assert not warm.drop_stale_in(tmp_path, "v2")
    assert (tmp_path / kernels[0]).exists()
    assert warm.drop_stale_in(tmp_path, "v3") and not (tmp_path / kernels[0]).exists()

    compiled_module.kernel()  # cached for this version: nothing to compile
    assert not warm.uncached()
    monkeypatch.setattr(warm, "sources_digest", lambda: "another version")
    assert warm.uncached()


def test_a_process_loading_the_kernels_waits_while_another_compiles_them() -> None:
    """`warm.held` across processes: while one process holds the kernels' lock (compiling them,
    say: here it holds it, re-entered, until told to let go) another's ``kernel()`` waits,
    then loads them."""
    import subprocess
    import sys

    root = Path(__file__).parent.parent
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from solver.odds import warm\n"
         "with warm.held(), warm.held():\n    print('held', flush=True); sys.stdin.readline()"],
        cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdin is not None and holder.stdout is not None
    loader = None
    try:
        assert holder.stdout.readline().strip() == "held"
        loader = subprocess.Popen(
            [sys.executable, "-c", "from solver.odds import compiled; "
             "print(compiled.kernel() is not None)"],
            cwd=root, stdout=subprocess.PIPE, text=True)
        with pytest.raises(subprocess.TimeoutExpired):
            loader.wait(timeout=4)  # loading them from numba's cache takes about a second
        holder.stdin.write("\n")
        holder.stdin.flush()
        out, _ = loader.communicate(timeout=300)
        assert loader.returncode == 0 and out.split() == ["True"]
    finally:
        for process in (holder, loader):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def test_the_compile_apart_exits_cleanly_once_loaded() -> None:
    """`warm.compile_apart`'s process, its kernels loaded while its parent waits, exits with 0
    and says nothing: its watch on the parent (a thread reading its standard input) does not
    stop the interpreter's exit (a thread inside ``sys.stdin``'s reader did: "could not acquire
    lock for <stdin> at interpreter shutdown", and the compile counted as failed). Here
    ``load_all`` is a stand-in that returns at once."""
    import subprocess
    import sys

    child = subprocess.Popen(
        [sys.executable, "-c", "from solver.odds import warm; "
         "warm.load_all = lambda: None; warm._load_all_apart()"],
        cwd=Path(__file__).parent.parent, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdin is not None and child.stderr is not None
    try:
        assert child.wait(timeout=60) == 0
        assert child.stderr.read() == b""
    finally:
        child.stdin.close()
        if child.poll() is None:
            child.kill()
        child.wait()
        child.stderr.close()


@pytest.mark.parametrize("stop", ["SIGTERM", "SIGKILL"])
def test_the_compile_apart_ends_with_the_process_that_started_it(stop: str,
                                                                 tmp_path: Path) -> None:
    """A server stopped while its kernels compile apart (`warm.compile_apart`, on an empty
    numba cache) leaves no compile running on: the compiling process ends within seconds of
    its parent, stopped by SIGTERM (as the tests' servers are) or SIGKILL. It used to compile
    on for its minute of CPU, orphaned."""
    import os
    import signal
    import subprocess
    import sys
    import time

    if not Path("/proc/self/stat").exists():
        pytest.skip("reads processes from Linux's /proc")
    root = Path(__file__).parent.parent
    parent = subprocess.Popen(
        [sys.executable, "-c", "from solver.odds import warm; warm.compile_apart()"],
        cwd=root, env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})  # empty: compiles
    children: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while not children:
            assert parent.poll() is None and time.monotonic() < deadline, "no compile started"
            time.sleep(0.1)
            children = _children(parent.pid)
        time.sleep(1)  # well into its start (numba's import, then the compile)
        assert running(children[0])
        parent.send_signal(getattr(signal, stop))
        parent.wait(timeout=30)
        deadline = time.monotonic() + 20
        while running(children[0]) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not running(children[0]), "the compile went on after its parent ended"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for child in children:
            if running(child):
                os.kill(child, signal.SIGKILL)


@pytest.mark.parametrize("small", [False, True], ids=["exact", "modulo-primes"])
def test_bluff_weights_equal_the_python_programme(small: bool,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The race's weighting (`race.bluff_weights`: a tally per card another player named,
    weights 4 and 1) on spectator logs: the same figures and work as the Python programme,
    exact and modulo primes near 1000."""
    import dataclasses
    from fractions import Fraction

    from solver.race import bluff_weights

    if small:
        modulo_small_primes(monkeypatch, compiled_module)
    for seed in range(3):
        log = spectator(seed)
        plain = puzzle(log, grid_of(log))
        weights = bluff_weights(log, plain, Fraction(1, 4))
        assert weights
        pz = dataclasses.replace(plain, tallies=[*plain.tallies, *weights])
        python, python_work = counted(pz, False)
        mine, work = counted(pz, True)
        assert work.spent == python_work.spent
        assert (mine.total, mine.run.envelope, mine.run.marginals) == (
            python.total, python.run.envelope, python.run.marginals)
