"""The count by inclusion-exclusion (`solver.odds.exclusion`) against brute force on small
games, and against the other exact counts on every example log and on generated forum games."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings

from solver.editions import Dealing, forum_deck
from solver.errors import ContradictionError
from solver.game import GameLog
from solver.logfile import load
from solver.odds import OWNER_BUDGET, OverBudget, exclusion, grid_of, odds, puzzle
from solver.odds.choice import FEW_CELLS, ruled_out
from solver.odds.exclusion import Unsupported, count_by_exclusion, is_refutation
from solver.odds.owners import count_by_owner, odds_of
from solver.odds.programme import Budget
from solver.odds.result import Odds
from solver.simulate import Absence, play, random_setup
from tests.brute import deals
from tests.programme_check import same_as_programme
from tests.strategies import forum_game, small_logs
from tests.test_odds import brute_odds

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.json"))
PLENTY = 10**9


def by_exclusion(log: GameLog) -> Odds:
    pz = puzzle(log, grid_of(log))
    return odds_of(log, pz, count_by_exclusion(pz, Budget(PLENTY)), False)


def assert_brute(log: GameLog) -> None:
    if not any(True for _ in deals(log)):
        with pytest.raises(ContradictionError):
            by_exclusion(log)
        return
    result = by_exclusion(log)
    cells, envelope = brute_odds(log, False)
    assert result.exact
    assert result.probabilities == cells
    assert {t[:3]: t[3] for t in result.envelope_odds} == envelope
    assert sum(t[3] for t in result.envelope_odds) == 1


@SETTINGS
@given(small_logs())
def test_equal_to_brute_force(log: GameLog) -> None:
    assert_brute(log)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_logs(rule=Dealing.FORUM, max_events=10))
def test_forum_rules_equal_to_brute_force(log: GameLog) -> None:
    assert_brute(log)


def test_the_refuter_model_is_left_to_the_other_counts() -> None:
    for path in EXAMPLES:
        log = load(path)
        pz = puzzle(log, grid_of(log), refuter_model=True)
        if not all(is_refutation(t) for t in pz.tallies):
            with pytest.raises(Unsupported):
                count_by_exclusion(pz, Budget(PLENTY))
            return
    pytest.fail("no example log has a weighted refutation")


def assert_same_as_programme(log: GameLog) -> bool:
    """True when compared; False when the programme is over its budget."""
    return same_as_programme(
        log, lambda pz: odds_of(log, pz, count_by_exclusion(pz, Budget(PLENTY)), False))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_equal_the_programme(path: Path) -> None:
    log = load(path)
    cuts = [*range(0, len(log.events), 5), len(log.events)]
    compared = sum(assert_same_as_programme(GameLog(log.game, log.events[:n])) for n in cuts)
    assert compared, f"no stage of {path.name} was counted"


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("players", [6, 8])
def test_forum_games_equal_the_programme(players: int, seed: int) -> None:
    log = forum_game(players, seed)
    compared = sum(assert_same_as_programme(log.upto(n)) for n in (0, 5, 30, 60))
    assert compared >= 2


def forum_log(players: int, events: int, seed: int) -> GameLog:
    """A generated forum game, as `benchmarks/bench_odds.py` makes them."""
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(1, players + 1))
    game, truth = random_setup(forum_deck(players), names, Dealing.FORUM, "P1", rng)
    absence = Absence(names[-1], events // 3, events // 2) if events >= 30 else None
    return play(game, truth, events, rng, directed=True, wrong_accusations=0.05,
                reveals=0.1, notes=0.05, absence=absence)


@pytest.mark.parametrize("seed", [1, 3])
def test_twelve_player_forum_logs_equal_the_count_owner_by_owner(seed: int) -> None:
    log = forum_log(12, 10, seed)
    pz = puzzle(log, grid_of(log))
    assert odds_of(log, pz, count_by_exclusion(pz, Budget(PLENTY)), False) == odds_of(
        log, pz, count_by_owner(pz, Budget(PLENTY)), False)


def test_few_ruled_out_cells_let_inclusion_exclusion_take_turns() -> None:
    log = forum_log(12, 10, 1)
    pz = puzzle(log, grid_of(log))
    assert 0 < ruled_out(pz) <= FEW_CELLS
    assert ruled_out(puzzle(forum_log(12, 60, 0), grid_of(forum_log(12, 60, 0)))) > FEW_CELLS


@pytest.mark.slow
def test_a_twelve_player_forum_log_only_inclusion_exclusion_finishes_is_exact() -> None:
    """Forum, 12 players, 10 events, seed 0: past the budgets of the other two counts (the count
    owner by owner needs more than 300,000 units), exact by inclusion-exclusion in 61,372 units
    (112,151 while the card figures looked up states the forward pass does not reach)."""
    log = forum_log(12, 10, 0)
    result = odds(log)
    assert result.exact
    pz = puzzle(log, grid_of(log))
    assert result == odds_of(log, pz, count_by_exclusion(pz, Budget(PLENTY)), False)
    with pytest.raises(OverBudget):
        count_by_owner(pz, Budget(OWNER_BUDGET))
    with pytest.raises(OverBudget):
        count_by_exclusion(pz, Budget(60_000))
    sampled = odds(log, refuter_model=True)  # not this count's: the other counts, or sampling
    assert sampled.refuter_model


def test_the_count_pauses_within_a_turn() -> None:
    """The count pauses after every state of the forward pass, not only after every turn: a
    process that has not loaded the compiled kernels counts in Python until `SWITCH` moves
    (`exclusion_compiled`, about a tenth of a second), and one turn of this log (forum, 12
    players, 30 events) has some 850,000 moves (11 s in Python before the switch, when the
    count paused only between turns)."""
    from solver.odds.exclusion import prepare, python_steps
    from solver.odds.exclusion_compiled import SWITCH

    log = forum_log(12, 30, 2)
    spent = Budget(3_000_000)
    steps = python_steps(prepare(puzzle(log, grid_of(log)), spent), spent)
    before = spent.spent
    while spent.spent - before <= SWITCH:
        next(steps)
    steps.close()
    assert spent.spent - before <= SWITCH + 2_000  # a state's moves at most


def test_the_work_is_the_forward_pass() -> None:
    """The count charges a unit per state its forward pass reaches and per move of it, and
    nothing more: the card figures come from a backward pass over the same states (what one
    more pin leaves, per kind), not from look-ups of the states one more pin leads to (which
    charged 1.2-2.8 times the work on the 12-player logs). Counted here turn by turn from the
    start states, on 12-player forum logs; the figures are the count owner by owner's."""
    from solver.odds.exclusion import _moves, prepare

    for seed in (1, 3):
        log = forum_log(12, 10, seed)
        pz = puzzle(log, grid_of(log))
        setup_work = Budget(PLENTY)
        setup = prepare(pz, setup_work)
        states, forward = set(setup.entry), 0
        for turn in setup.turns:
            reached: set[tuple[int, ...]] = set()
            for st in states:
                moves = _moves(turn, st)
                forward += 1 + len(moves)
                reached.update(m.after for m in moves)
            states = reached
        spent = Budget(PLENTY)
        result = count_by_exclusion(pz, spent)
        assert spent.spent == setup_work.spent + forward
        assert odds_of(log, pz, result, False) == odds_of(
            log, pz, count_by_owner(pz, Budget(PLENTY)), False)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_logs(rule=Dealing.FORUM, max_events=10) | small_logs())
def test_the_searched_order_of_the_owners_is_equal_to_brute_force(log: GameLog) -> None:
    """Small games rule out too few cells for the search (`ORDER_CELLS`): here it runs on every
    log, and the owners' order it picks counts the same deals."""
    with mock.patch.object(exclusion, "ORDER_CELLS", 0):
        assert_brute(log)


def test_an_owner_with_many_refutations_keeps_the_greedy_order() -> None:
    """The search weighs ``2^r`` sets of refutations for an owner holding ``r`` in each set of
    owners still to deal, in Python no budget is charged for: 14 open refutations at a
    10-player table took it 4.3 s before the count began. Past `ORDER_SETS` the greedy order
    (the search never starts), below it the search."""
    owners = list(range(1, 11))
    capacity = [0] + [5] * 10
    cards = [f"C{j}" for j in range(40)]
    forbidden = {c: frozenset({1 + j % 10}) for j, c in enumerate(cards)}  # 40 cells ruled out

    def order(refutations: int) -> list[int]:
        owner_of = [1] * refutations
        names = {c: frozenset(t for t in range(refutations) if j - 3 < t <= j)
                 for j, c in enumerate(cards)}
        return exclusion._order(cards, forbidden, names, owners, owner_of, capacity)

    with mock.patch.object(exclusion, "_turn_moves", side_effect=AssertionError("searched")):
        assert sorted(order(7)) == owners  # 2^7 x 2^9 + 9 x 2^9 sets: past `ORDER_SETS`
        with pytest.raises(AssertionError, match="searched"):
            order(6)


def test_ways_to_pin_are_counted_as_by_enumeration() -> None:
    rng = random.Random(5)
    for _ in range(300):
        sizes = [rng.randint(1, 4) for _ in range(rng.randint(0, 6))]
        total = rng.randint(0, 9)
        ways = sum(1 for k in itertools.product(*(range(n + 1) for n in sizes))
                   if sum(k) <= total)
        assert exclusion._ways(total, tuple(sorted(sizes))) == ways
        if total <= 3:
            assert exclusion._pins(total, sizes) == ways


def test_the_searched_order_of_the_owners_takes_less_work_than_the_greedy_one() -> None:
    """Forum, 12 players, 30 events, seed 9 (40 ruled-out cells): 104,820 units in the order
    searched, 170,206 in the greedy one (`fewest_states_first`), the same figures."""
    from solver.odds.exclusion_compiled import exclusion_steps
    from solver.odds.programme import finish

    log = forum_log(12, 30, 9)
    pz = puzzle(log, grid_of(log))
    searched, greedy = Budget(PLENTY), Budget(PLENTY)
    result = odds_of(log, pz, finish(exclusion_steps(pz, searched)), False)
    with mock.patch.object(exclusion, "ORDER_CELLS", 10**6):
        assert result == odds_of(log, pz, finish(exclusion_steps(pz, greedy)), False)
    assert searched.spent < 0.7 * greedy.spent
