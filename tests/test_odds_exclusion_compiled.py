"""Inclusion-exclusion compiled (`solver.odds.exclusion_compiled`) against brute force on small
games, with exact 64-bit counts and with counts modulo several small primes; against the Python
count (the same figures, the same work charged, the same logs past the budget) and the
programme on every example log at every fifth event and on generated forum games; and the
Python count where numba is missing or its kernels do not compile."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.editions import Dealing
from solver.errors import ContradictionError
from solver.game import GameLog
from solver.logfile import load
from solver.odds import OverBudget, count, grid_of, odds, puzzle
from solver.odds import exclusion_compiled as compiled_module
from solver.odds.exact import exact_odds
from solver.odds.exclusion import Setup, Unsupported, count_by_exclusion, prepare, python_steps
from solver.odds.owners import OwnerCount, odds_of
from solver.odds.programme import Budget, finish
from solver.odds.residues import WIDE, moduli_for
from solver.odds.setup import Puzzle
from tests.brute import deals
from tests.strategies import forum_game, small_logs
from tests.test_odds import brute_odds
from tests.test_odds_compiled import modulo_small_primes
from tests.test_odds_exclusion import forum_log
from tests.test_odds_notes import logs_with_notes

pytest.importorskip("numba")

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.json"))
PLENTY = 10**9


@pytest.fixture(autouse=True, scope="module")
def loaded() -> None:
    """Load the kernels first, so every count here runs compiled from its first turn."""
    assert compiled_module.kernel() is not None


def compiled(pz: Puzzle, budget: int = PLENTY) -> tuple[OwnerCount, Budget] | None:
    """The count compiled and the work it charged; ``None`` where the compiled loops do not
    take the puzzle (no turn, or a state past one key)."""
    spent = Budget(budget)
    setup = prepare(pz, spent)
    if not compiled_module.fits(setup):
        return None
    k = compiled_module.kernel()
    return finish(compiled_module.compiled_steps(k, setup, spent)), spent


def python(pz: Puzzle, budget: int = PLENTY) -> tuple[OwnerCount, Budget]:
    spent = Budget(budget)
    return finish(python_steps(prepare(pz, spent), spent)), spent


def assert_brute(log: GameLog) -> None:
    try:
        pz = puzzle(log, grid_of(log))
    except ContradictionError:
        return
    done = compiled(pz)
    if done is None:
        return
    result, _ = done
    if not any(True for _ in deals(log)):
        assert result.total == 0
        return
    mine = odds_of(log, pz, result, False)
    cells, envelope = brute_odds(log, False)
    assert mine.probabilities == cells
    assert {t[:3]: t[3] for t in mine.envelope_odds} == envelope


@SETTINGS
@given(small_logs())
def test_equal_to_brute_force(log: GameLog) -> None:
    assert_brute(log)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_logs(rule=Dealing.FORUM, max_events=10))
def test_forum_rules_equal_to_brute_force(log: GameLog) -> None:
    assert_brute(log)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_logs())
def test_modulo_primes_equal_to_brute_force(log: GameLog) -> None:
    """Counts modulo primes near 1000 (many residues each), never exact."""
    with pytest.MonkeyPatch.context() as patched:
        modulo_small_primes(patched, compiled_module)
        assert_brute(log)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(logs_with_notes())
def test_notes_equal_brute_force(log: GameLog) -> None:
    """"Holds one of" notes expand as refutations do, exact and modulo primes near 1000."""
    assert_brute(log)
    with pytest.MonkeyPatch.context() as patched:
        modulo_small_primes(patched, compiled_module)
        assert_brute(log)


def assert_same_as_python(log: GameLog, budget: int = PLENTY) -> bool:
    """The same figures and work as the Python count, or past the budget both; True when both
    finished."""
    try:
        pz = puzzle(log, grid_of(log))
    except ContradictionError:
        return False
    try:
        plain, plain_work = python(pz, budget)
    except OverBudget:
        with pytest.raises(OverBudget):
            compiled(pz, budget)
        return False
    except Unsupported:
        return False
    done = compiled(pz, budget)
    if done is None:
        return False
    mine, work = done
    assert work.spent == plain_work.spent
    assert (mine.total, mine.cells, mine.envelopes) == (plain.total, plain.cells,
                                                        plain.envelopes)
    return True


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_equal_the_python_count_and_the_programme(path: Path) -> None:
    log = load(path)
    cuts = [*range(0, len(log.events), 5), len(log.events)]
    compared = 0
    for n in cuts:
        part = log.upto(n)
        if not assert_same_as_python(part, 200_000):
            continue
        compared += 1
        pz = puzzle(part, grid_of(part))
        done = compiled(pz)
        assert done is not None
        mine = odds_of(part, pz, done[0], False)
        if done[0].total:
            plain = exact_odds(part, count(pz, PLENTY), False)
            assert (mine.probabilities, mine.envelope_odds, mine.deals) == (
                plain.probabilities, plain.envelope_odds, plain.deals)
    assert compared, f"no stage of {path.name} was counted"


@pytest.mark.parametrize("path", EXAMPLES[:2], ids=lambda p: p.stem)
def test_examples_modulo_primes_equal_the_python_count(path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Many primes near 1000: the forward pass keeps only those the deals need, its classes
    padded to whole vectors where that fits the memory of all of them (both on some stage)."""
    modulo_small_primes(monkeypatch, compiled_module)
    kept: list[tuple[int, int]] = []
    enough, padded = compiled_module._enough, compiled_module._padded

    def recorded(values: tuple[int, ...], deals: int, exact: int) -> tuple[int, ...]:
        fewer = enough(values, deals, exact)
        kept.append((len(values), len(fewer)))
        return fewer

    widths: list[tuple[int, int]] = []

    def width(classes: int, columns: int, allowed: int) -> int:
        widths.append((classes, padded(classes, columns, allowed)))
        return widths[-1][1]

    monkeypatch.setattr(compiled_module, "_enough", recorded)
    monkeypatch.setattr(compiled_module, "_padded", width)
    log = load(path)
    cuts = [*range(0, len(log.events), 10), len(log.events)]
    assert sum(assert_same_as_python(log.upto(n), 200_000) for n in cuts)
    assert any(after < before for before, after in kept)
    assert any(after > before for before, after in widths)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=4), min_size=1, max_size=5),
       st.integers(min_value=0, max_value=5), st.data())
def test_moves_are_counted_as_they_are_listed(counts: list[int], c: int,
                                              data: st.DataObject) -> None:
    """`exclusion_kernel.moves_of` (the work a turn charges) counts what `state_moves` lists,
    and the widest set of refutations taken as "none" leads to every next state."""
    import numpy as np

    k = compiled_module.kernel()
    kinds = len(counts)
    rows = data.draw(st.lists(st.lists(st.booleans(), min_size=kinds, max_size=kinds),
                              min_size=1, max_size=4))
    widest = [any(column) for column in zip(*rows, strict=True)]
    open_ = np.array([*rows, widest], dtype=np.bool_)
    n = sum(counts) + 1
    comb = np.array([[math.comb(a, b) for b in range(n)] for a in range(n)], dtype=np.int64)
    perm = np.array([math.perm(c, f) for f in range(c + 1)], dtype=np.int64)
    radix = np.array([*(x + 1 for x in counts), n], dtype=np.int64)
    stride = np.array([math.prod(radix[:d]) for d in range(kinds + 1)], dtype=np.int64)
    after = np.arange(kinds, dtype=np.int64)
    signs = np.ones(len(open_), dtype=np.int64)
    most = 1
    for row in open_:
        most += math.prod(x + 1 for x, o in zip(counts, row, strict=True) if o)
    out = k.scratch(most, c, kinds)
    state = np.array(counts, dtype=np.int64)
    listed = k.state_moves(state, 0, after, stride, open_, signs, c, comb, perm, *out[:7],
                           *out[8:])
    assert k.moves_of(state, open_, c, np.empty(c + 1, np.int64)) == listed
    key = sum(x * int(s) for x, s in zip(counts, stride, strict=False))
    reached = k.expand(np.array([key], dtype=np.int64), stride, radix, after, stride, open_,
                       signs, c, comb, perm, most)
    assert sorted(set(out[0][:listed].tolist())) == reached.tolist()


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("players", [6, 8, 12])
def test_forum_games_equal_the_python_count(players: int, seed: int) -> None:
    """A small budget keeps the Python count short; where it gives up the compiled one must
    give up too."""
    compared = sum(assert_same_as_python(forum_game(players, seed).upto(n), 20_000)
                   for n in (0, 5, 30, 60))
    assert compared


@pytest.mark.parametrize("seed", [1, 3])
def test_twelve_player_forum_logs_modulo_primes(seed: int) -> None:
    """Forum, 12 players, 10 events (the logs the count runs on): counts up to about 2^130, a
    few residues modulo primes below 2^31 each; the same as in Python."""
    log = forum_log(12, 10, seed)
    pz = puzzle(log, grid_of(log))
    setup = prepare(pz, Budget(PLENTY))
    assert setup.bound() >= compiled_module.EXACT_LIMIT
    assert assert_same_as_python(log)


def test_every_budget_gives_up_at_the_same_point() -> None:
    """Work is charged turn by turn for the same states as in Python: just enough budget
    finishes, one unit less gives up, compiled or not."""
    pz = puzzle(forum_log(12, 10, 1), grid_of(forum_log(12, 10, 1)))
    _, work = python(pz)
    assert compiled(pz, work.spent) is not None
    with pytest.raises(OverBudget):
        compiled(pz, work.spent - 1)
    with pytest.raises(OverBudget):
        python(pz, work.spent - 1)


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=4), st.integers(min_value=0),
       st.integers(min_value=0))
def test_a_product_modulo_a_wide_prime(index: int, a: int, b: int) -> None:
    """`exclusion_kernel.mul` modulo the primes below 2^50 it counts with, residues at the
    edges (0, 1, p - 1) and between."""
    p = moduli_for(1 << 240, WIDE)[index]
    k = compiled_module.kernel()
    for x, y in ((a % p, b % p), (p - 1, p - 1), (p - 1, b % p), (0, p - 1), (1, p - 1)):
        assert k.mul(x, y, p, 1 / p) == x * y % p


def test_its_arrays_stay_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The arrays the count keeps (`kept`, tracemalloc sees numpy's and numba's) stay within
    what it allows for them, and a count whose arrays would keep more than `NUMBERS` 64-bit
    numbers per unit of its budget (and `FLOOR`) gives up before allocating them."""
    import tracemalloc

    pz = puzzle(forum_log(12, 10, 0), grid_of(forum_log(12, 10, 0)))
    said: list[int] = []

    def spy(*args: Any) -> int:
        said.append(kept(*args))
        return said[-1]

    kept = compiled_module.kept
    monkeypatch.setattr(compiled_module, "kept", spy)
    tracemalloc.start()
    try:
        done = compiled(pz)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert done is not None
    units = done[1].spent
    assert 8 * said[0] < peak + 2**20 and peak < 8 * said[0] + 2**20  # the plan: under 1 MiB
    monkeypatch.setattr(compiled_module, "FLOOR", 0)
    monkeypatch.setattr(compiled_module, "NUMBERS", (said[0] - 1) // units)  # short of room
    with pytest.raises(OverBudget):
        compiled(pz, units)
    monkeypatch.setattr(compiled_module, "NUMBERS", -(-said[0] // units))
    assert compiled(pz, units) is not None


def test_without_numba_the_python_count_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    log = forum_log(12, 10, 3)
    pz = puzzle(log, grid_of(log))
    fast = Budget(PLENTY, pace=48)
    expected = finish(compiled_module.exclusion_steps(pz, fast))
    assert fast.pace == compiled_module.PACE
    monkeypatch.setattr(compiled_module, "installed", lambda: False)
    slow = Budget(PLENTY, pace=48)
    again = finish(compiled_module.exclusion_steps(pz, slow))
    assert slow.pace == 48 and slow.spent == fast.spent
    assert (again.total, again.cells, again.envelopes) == (
        expected.total, expected.cells, expected.envelopes)


def test_without_numba_the_python_count_keeps_its_python_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken install (numba is required) counts in Python within the budget's ``uncompiled``
    part, as a plan past the compiled loops does, not the compiled millions (30 s, 1 GB)."""
    pz = puzzle(forum_log(12, 10, 3), grid_of(forum_log(12, 10, 3)))
    _, work = python(pz)
    monkeypatch.setattr(compiled_module, "installed", lambda: False)
    with pytest.raises(OverBudget):
        finish(compiled_module.exclusion_steps(pz, Budget(PLENTY, uncompiled=work.spent - 1)))
    spent = Budget(PLENTY, uncompiled=work.spent)
    finish(compiled_module.exclusion_steps(pz, spent))
    assert spent.spent == work.spent


def test_kernels_that_fail_to_compile_leave_the_python_count(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A numba that imports but cannot compile the kernels is no traceback: the Python count
    counts, the same figures and label."""
    from numba.core.errors import TypingError

    def broken(_: object) -> None:
        raise TypingError("a numba that types the kernels otherwise")

    log = forum_log(12, 10, 3)
    expected = odds(log)
    monkeypatch.setattr(compiled_module, "_warm_up", broken)
    compiled_module.kernel.cache_clear()
    try:
        assert compiled_module.kernel() is None
        pz = puzzle(log, grid_of(log))
        spent = Budget(PLENTY, pace=48)
        finish(compiled_module.exclusion_steps(pz, spent))
        assert spent.pace == 48
        again = odds(log)
        assert again.exact and again.probabilities == expected.probabilities
    finally:
        monkeypatch.undo()
        compiled_module.kernel.cache_clear()
        assert compiled_module.kernel() is not None


def test_before_the_kernels_are_loaded_short_counts_stay_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In a process that has not loaded the kernels, a count runs in Python for its first
    `SWITCH` moves, then switches and charges its work once."""
    pz = puzzle(forum_log(12, 10, 4), grid_of(forum_log(12, 10, 4)))
    plain, plain_work = python(pz)
    monkeypatch.setattr(compiled_module, "loaded", lambda: False)
    monkeypatch.setattr(compiled_module, "SWITCH", 2_000)
    spent = Budget(PLENTY, pace=48)
    switched = finish(compiled_module.exclusion_steps(pz, spent))
    assert spent.pace == compiled_module.PACE and spent.spent == plain_work.spent
    assert switched.cells == plain.cells
    monkeypatch.setattr(compiled_module, "SWITCH", plain_work.spent)
    spent = Budget(PLENTY, pace=48)
    finish(compiled_module.exclusion_steps(pz, spent))
    assert spent.pace == 48 and spent.spent == plain_work.spent


def test_a_field_too_narrow_for_the_figures_fails_its_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python count packs every class's figure in fields as wide as `Setup.bound`; were
    the bound wrong, the figures would not add up, and the count fails its check
    (`ArithmeticError`, which `choice` drops) rather than giving wrong odds."""
    log = forum_log(12, 10, 1)
    pz = puzzle(log, grid_of(log))
    count_by_exclusion(pz, Budget(PLENTY))
    monkeypatch.setattr(Setup, "bound", lambda self: 1 << 40)
    with pytest.raises(ArithmeticError):
        count_by_exclusion(pz, Budget(PLENTY))


def test_where_it_runs_inclusion_exclusion_goes_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """At a 12-player table with few ruled-out cells, inclusion-exclusion is favoured: it takes
    the first steps (the head start) and finishes a 10-event log the count owner by owner
    would take more work for, and the count owner by owner waits until it drops out (past a
    budget too small, the count owner by owner finishes the log); elsewhere it does not
    run."""
    from solver.odds import DEFAULT_BUDGET, EXCLUSION_BUDGET, OWNER_BUDGET, PROGRAMME_BUDGET, choice

    taken: list[str] = []

    def spied(name: str, steps_of: Any) -> Any:
        def wrapped(pz: Puzzle, budget: Budget) -> Any:
            inner = steps_of(pz, budget)
            while True:
                try:
                    next(inner)
                except StopIteration as done:
                    return done.value
                taken.append(name)
                yield

        return wrapped

    monkeypatch.setattr(choice, "exclusion_steps",
                        spied("exclusion", choice.exclusion_steps))
    monkeypatch.setattr(choice, "owner_steps", spied("owner", choice.owner_steps))
    log = forum_log(12, 10, 1)
    pz = puzzle(log, grid_of(log))
    result = choice.exact_count(pz, OWNER_BUDGET, DEFAULT_BUDGET, EXCLUSION_BUDGET,
                                PROGRAMME_BUDGET)
    assert isinstance(result, OwnerCount)
    assert taken and taken[0] == "exclusion"
    assert "owner" not in taken
    taken.clear()
    result = choice.exact_count(pz, OWNER_BUDGET, DEFAULT_BUDGET, 1_000, PROGRAMME_BUDGET)
    assert isinstance(result, OwnerCount)
    assert "owner" in taken
    assert result.total == count_by_exclusion(pz, Budget(PLENTY)).total
    taken.clear()
    eight = forum_game(8, 0).upto(10)
    choice.exact_count(puzzle(eight, grid_of(eight)), OWNER_BUDGET, DEFAULT_BUDGET,
                       EXCLUSION_BUDGET, PROGRAMME_BUDGET)
    assert "exclusion" not in taken


def test_a_plan_past_the_compiled_loops_keeps_the_python_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a turn's state does not fit one key (a property of the log, so on every install),
    the count runs in Python within the budget's ``uncompiled`` part (`choice` gives it the
    150,000 moves it had in Python), not the compiled budget."""
    pz = puzzle(forum_log(12, 10, 1), grid_of(forum_log(12, 10, 1)))
    _, work = python(pz)
    monkeypatch.setattr(compiled_module, "fits", lambda _: False)
    with pytest.raises(OverBudget):
        finish(compiled_module.exclusion_steps(pz, Budget(PLENTY, uncompiled=work.spent - 1)))
    spent = Budget(PLENTY, pace=48, uncompiled=work.spent)
    finish(compiled_module.exclusion_steps(pz, spent))
    assert spent.pace == 48 and spent.spent == work.spent


def test_a_group_of_moves_past_64_bits_is_counted_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernels sum the moves that pin the same cards (one per set of the owner's
    refutations taken as "none") in one 64-bit integer and multiply it by the places left, exact
    or modulo primes: `fits` must bound that sum, not one move's weight (past 2^63 it would
    wrap, and the residues taken of it be wrong)."""
    log = forum_log(12, 10, 3)
    setup = prepare(puzzle(log, grid_of(log)), Budget(PLENTY))
    sizes = [sum(len(setup.of_class[x]) for members in t.classes for x in members)
             for t in setup.turns]
    one_move = [max(math.perm(t.capacity, f) * math.comb(n, f) * max(t.capacity, 1)
                    for f in range(min(t.capacity, n) + 1))
                for t, n in zip(setup.turns, sizes, strict=True)]
    groups = [len(t.open) * w for t, w in zip(setup.turns, one_move, strict=True)]
    assert max(groups) > max(one_move)  # an owner with a refutation open: groups of two
    monkeypatch.setattr(compiled_module, "WEIGHT_LIMIT", max(one_move) + 1)
    assert not compiled_module.fits(setup)
    monkeypatch.setattr(compiled_module, "WEIGHT_LIMIT", max(groups) + 1)
    assert compiled_module.fits(setup)
