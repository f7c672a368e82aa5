"""The count owner by owner (`solver.odds.owners`) against brute force on small games, and
against the card-by-card programme on every example log and on generated forum games."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from solver.cards import Deck
from solver.editions import Dealing, forum_deck
from solver.errors import ContradictionError
from solver.game import GameLog
from solver.logfile import load
from solver.odds import OverBudget, count, grid_of, odds, puzzle
from solver.odds.choice import first_finished
from solver.odds.owners import owner_odds, owner_steps
from solver.odds.programme import Budget
from solver.odds.setup import Puzzle
from solver.simulate import Absence, play, random_setup
from tests.brute import deals
from tests.programme_check import same_as_programme
from tests.strategies import forum_game, small_logs
from tests.test_odds import brute_odds

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.json"))
PLENTY = 10**9


def by_owner(log: GameLog, refuter_model: bool = False):  # type: ignore[no-untyped-def]
    return owner_odds(log, puzzle(log, grid_of(log), refuter_model=refuter_model),
                      Budget(PLENTY), refuter_model)


def assert_brute(log: GameLog, refuter_model: bool) -> None:
    if not any(True for _ in deals(log)):
        with pytest.raises(ContradictionError):
            by_owner(log, refuter_model)
        return
    result = by_owner(log, refuter_model)
    cells, envelope = brute_odds(log, refuter_model)
    assert result.exact
    assert result.probabilities == cells
    assert {t[:3]: t[3] for t in result.envelope_odds} == envelope
    assert sum(t[3] for t in result.envelope_odds) == 1


@SETTINGS
@given(small_logs())
def test_equal_to_brute_force(log: GameLog) -> None:
    assert_brute(log, refuter_model=False)


@SETTINGS
@given(small_logs())
def test_refuter_model_equal_to_weighted_brute_force(log: GameLog) -> None:
    assert_brute(log, refuter_model=True)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_logs(rule=Dealing.FORUM, max_events=10))
def test_forum_rules_equal_to_brute_force(log: GameLog) -> None:
    assert_brute(log, refuter_model=False)


def assert_same_as_programme(log: GameLog, refuter_model: bool) -> bool:
    """True when compared; False when the programme is over its budget."""
    return same_as_programme(
        log, lambda pz: owner_odds(log, pz, Budget(PLENTY), refuter_model), refuter_model)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_equal_the_programme(path: Path) -> None:
    log = load(path)
    cuts = [*range(0, len(log.events), 5), len(log.events)]
    compared = sum(
        assert_same_as_programme(GameLog(log.game, log.events[:n]), refuter_model)
        for n in cuts
        for refuter_model in (False, True)
    )
    assert compared, f"no stage of {path.name} was counted"


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("players", [6, 8])
def test_forum_games_equal_the_programme(players: int, seed: int) -> None:
    log = forum_game(players, seed)
    compared = sum(assert_same_as_programme(log.upto(n), False) for n in (0, 5, 30, 60))
    assert compared >= 2


def steps_of(work: list[int], budget: Budget, result: str):  # type: ignore[no-untyped-def]
    for w in work:
        budget.spend(w)
        yield
    return result


def turns_of(order: list[str], name: str, budget: Budget, n: int):  # type: ignore[no-untyped-def]
    """``n`` steps of 10 units each, writing ``name`` to ``order`` at each; returns ``name``."""
    for _ in range(n):
        budget.spend(10)
        order.append(name)
        yield
    return name


def test_the_count_with_less_work_finishes_first() -> None:
    cheap, dear = Budget(100), Budget(100)
    runs = [(steps_of([30, 30, 30], dear, "dear"), dear, 1),
            (steps_of([5, 5], cheap, "cheap"), cheap, 1)]
    assert first_finished(runs) == "cheap"
    assert dear.spent <= 30  # the dearer count stopped once the cheaper one finished


def test_the_favoured_count_takes_more_turns() -> None:
    favoured, other = Budget(1_000), Budget(1_000)
    runs = [(steps_of([10] * 8, favoured, "favoured"), favoured, 4),
            (steps_of([10] * 3, other, "other"), other, 1)]
    assert first_finished(runs) == "favoured"  # 80 units against the other's 20 so far
    assert other.spent == 20


def test_the_favoured_count_runs_alone_for_its_head_start() -> None:
    order: list[str] = []
    steps = partial(turns_of, order)
    favoured, other = Budget(1_000), Budget(1_000)
    runs = [(steps("f", favoured, 8), favoured, 1), (steps("o", other, 8), other, 1)]
    assert first_finished(runs, head_start=50 * Budget.pace) == "f"
    # alone until it has spent 50, then the other catches up, then they take turns
    assert "".join(order) == "fffff" + "ooooo" + "fofofo"
    quick, slow = Budget(1_000), Budget(1_000)
    runs = [(steps("q", quick, 3), quick, 1), (steps("s", slow, 3), slow, 1)]
    assert first_finished(runs, head_start=50 * Budget.pace) == "q"
    assert slow.spent == 0  # never started


def test_a_count_past_its_budget_drops_out() -> None:
    small, large = Budget(10), Budget(1_000)
    runs = [(steps_of([5, 5, 5], small, "small"), small, 1),
            (steps_of([40, 40], large, "large"), large, 1)]
    assert first_finished(runs) == "large"
    over_a, over_b = Budget(1), Budget(1)
    with pytest.raises(OverBudget):
        first_finished([(steps_of([5], over_a, "a"), over_a, 1),
                        (steps_of([5], over_b, "b"), over_b, 1)])


def failing(budget: Budget):  # type: ignore[no-untyped-def]
    budget.spend(5)
    yield
    raise ArithmeticError("inclusion-exclusion: a count is not a whole number")


def test_a_count_that_fails_its_check_drops_out(caplog: pytest.LogCaptureFixture) -> None:
    broken, sound = Budget(1_000), Budget(1_000)
    runs = [(failing(broken), broken, 1), (steps_of([10, 10], sound, "sound"), sound, 1)]
    assert first_finished(runs) == "sound"
    assert "failed its check" in caplog.text
    alone = Budget(1_000)
    with pytest.raises(OverBudget):
        first_finished([(failing(alone), alone, 1)])


def test_a_count_past_its_turns_waits_for_the_others() -> None:
    """Past its turns (`Budget.shared`) a count goes on only once every other count has
    finished or dropped out: the others run as if it had dropped out."""
    order: list[str] = []
    steps = partial(turns_of, order)
    patient, other = Budget(1_000, shared=20), Budget(1_000)
    runs = [(steps("p", patient, 6), patient, 1), (steps("o", other, 4), other, 1)]
    assert first_finished(runs) == "o"
    assert "".join(order) == "pop" + "ooo"
    order.clear()
    patient, small = Budget(1_000, shared=20), Budget(25)
    runs = [(steps("p", patient, 6), patient, 1), (steps("o", small, 4), small, 1)]
    assert first_finished(runs) == "p"  # the other dropped out: the patient one goes on
    assert "".join(order) == "popo" + "pppp"


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry for each count owner by owner that `choice` starts (clear it to count again)."""
    from solver.odds import choice

    counts: list[int] = []

    def spied(pz: Puzzle, budget: Budget) -> Any:
        counts.append(1)
        return (yield from owner_steps(pz, budget))

    monkeypatch.setattr(choice, "owner_steps", spied)
    return counts


def test_a_count_owner_by_owner_with_too_many_kinds_goes_last(started: list[int]) -> None:
    """Where the count owner by owner's kinds allow more states than its budget
    (`choice.owner_states`), it takes no turns: it starts only once the other counts have
    dropped out, so a log is exact or not exactly as before, and a log the programme finishes
    costs only the programme. (8 players, 10 events, seed 0: 3,456 such states, 954 units of
    work owner by owner, about 509,000 for the programme.)"""
    from solver.odds import choice
    from solver.odds.exact import Count
    from solver.odds.owners import OwnerCount
    from tests.test_odds_exclusion import forum_log

    log = forum_log(8, 10, 0)
    pz = puzzle(log, grid_of(log))
    assert choice.owner_states(pz) == 3_456
    programme = choice.exact_count(pz, 1_000, 10**6)
    assert isinstance(programme, Count) and not started  # never started
    last = choice.exact_count(pz, 1_000, 200_000)  # the programme drops out: it still counts
    assert isinstance(last, OwnerCount) and started
    assert last.total == programme.total
    with pytest.raises(OverBudget):
        choice.exact_count(pz, 900, 200_000)
    started.clear()
    favoured = choice.exact_count(pz, 4_000, 10**6)  # within its budget: favoured, as before
    assert isinstance(favoured, OwnerCount) and started


def test_a_count_owner_by_owner_with_far_too_many_kinds_is_not_tried(started: list[int]) -> None:
    """Where its kinds allow more than `choice.HOPELESS` times its budget in states, the count
    owner by owner is not tried even once the others have dropped out (8 players, 10 events,
    seed 0: 3,456 such states, 954 units owner by owner, past 200,000 for the programme)."""
    from solver.odds import choice
    from tests.test_odds_exclusion import forum_log

    log = forum_log(8, 10, 0)
    pz = puzzle(log, grid_of(log))
    assert choice.owner_states(pz) == 3_456
    with pytest.raises(OverBudget):
        choice.exact_count(pz, 3_456 // choice.HOPELESS - 1, 200_000)
    assert not started
    with pytest.raises(OverBudget):  # within the bound: tried, and past its budget
        choice.exact_count(pz, 3_456 // choice.HOPELESS + 1, 200_000)
    assert started


def test_at_a_crowded_table_too_many_kinds_go_last_unless_the_weights_are_the_refuter_models(
        started: list[int]) -> None:
    """Where inclusion-exclusion runs, the count owner by owner with more kinds' states than its
    budget (`choice.owner_states`) goes last too: once inclusion-exclusion has dropped out, the
    programme counts alone and the count owner by owner never starts. Under the refuter model's
    weights, which inclusion-exclusion declines (`choice.expands`), it takes turns as before.
    (12 players, 10 events: seed 3, 54,432 such states, 19,158 units owner by owner, about
    622,000 for the programme; seed 6 with the refuter model, 248,832 states, 32,565 units.)"""
    from solver.odds import choice
    from solver.odds.exact import Count
    from solver.odds.owners import OwnerCount
    from tests.test_odds_exclusion import forum_log

    log = forum_log(12, 10, 3)
    pz = puzzle(log, grid_of(log))
    assert choice.expands(pz) and choice.owner_states(pz) == 54_432
    # inclusion-exclusion drops out at 1,000 units; the programme may go on to 2 million alone
    programme = choice.exact_count(pz, 40_000, 200_000, 1_000, 2_000_000)
    assert isinstance(programme, Count) and not started
    last = choice.exact_count(pz, 40_000, 200_000, 1_000, 300_000)  # the programme drops out
    assert isinstance(last, OwnerCount) and started and last.total == programme.total
    started.clear()
    log = forum_log(12, 10, 6)
    weighted = puzzle(log, grid_of(log), refuter_model=True)
    assert not choice.expands(weighted) and choice.owner_states(weighted) == 248_832
    favoured = choice.exact_count(weighted, 40_000, 200_000, 1_000, 2_000_000)
    assert isinstance(favoured, OwnerCount) and started


def test_where_the_programme_is_hopeless_card_by_card_counts_before_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At a crowded table where the count owner by owner is hopeless and the programme's hands
    allow more states than `choice.BEHIND` (`choice.programme_states`), the programme is not
    tried: once inclusion-exclusion has dropped out, inclusion-exclusion card by card counts
    (the same total), and where that drops out too, `OverBudget` (the programme, which would
    finish here within 2 million units, is not started). (12 players, 10 events, seed 3: its
    2^20.3 such states are below `BEHIND`, lowered here; the count owner by owner's 54,432
    states are past `HOPELESS` times a budget of 1,000.)"""
    from solver.odds import choice
    from solver.odds.exact import Count, count_steps
    from solver.odds.owners import OwnerCount
    from tests.test_odds_exclusion import forum_log

    started: list[int] = []

    def spied(pz: Puzzle, budget: Budget, compiled: bool = False) -> Any:
        started.append(1)
        return (yield from count_steps(pz, budget, compiled))

    monkeypatch.setattr(choice, "count_steps", spied)
    log = forum_log(12, 10, 3)
    pz = puzzle(log, grid_of(log))
    # inclusion-exclusion drops out at 1,000 units; the programme may go on to 2 million alone
    budgets = (1_000, 200_000, 1_000, 2_000_000)
    programme = choice.exact_count(pz, *budgets, pins_budget=10**7)
    assert isinstance(programme, Count) and started
    monkeypatch.setattr(choice, "BEHIND", choice.programme_states(pz) - 1)
    started.clear()
    by_pins = choice.exact_count(pz, *budgets, pins_budget=10**7)
    assert isinstance(by_pins, OwnerCount) and not started
    assert by_pins.total == programme.total
    with pytest.raises(OverBudget):  # card by card drops out, and no count is left
        choice.exact_count(pz, *budgets, pins_budget=1_000)
    assert not started


@pytest.mark.parametrize(("seed", "share", "by_pins"), [(0, None, True), (2, 1, False)])
def test_card_by_card_takes_turns_beside_inclusion_exclusion_and_the_lesser_work_finishes(
        monkeypatch: pytest.MonkeyPatch, seed: int, share: int | None, by_pins: bool) -> None:
    """Where the programme's hands allow more than `choice.EARLY` states (lowered here), card by
    card takes turns beside inclusion-exclusion; both charge their work before they count, so
    past inclusion-exclusion's head start the one with less effort (work x pace, compiled) per
    share gives the figures, the same. (12 players, 10 events, the count owner by owner
    hopeless within 1,000 units: seed 0, inclusion-exclusion an effort of 260,346 for a share
    of `choice.LEAD`, card by card 150,419 for `choice.PINS_SHARE`; seed 2, 203,658 against
    369,414, card by card's share lowered to 1.)"""
    from solver.odds import choice
    from solver.odds.exclusion_compiled import exclusion_steps
    from solver.odds.exclusion_compiled import kernel as exclusion_kernel
    from solver.odds.pins_compiled import kernel as pins_kernel
    from solver.odds.programme import finish
    from tests.test_odds_exclusion import forum_log

    assert exclusion_kernel() is not None and pins_kernel() is not None
    log = forum_log(12, 10, seed)
    pz = puzzle(log, grid_of(log))
    if share is not None:
        monkeypatch.setattr(choice, "PINS_SHARE", share)
    monkeypatch.setattr(choice, "SURE", 0)  # the turns, not card by card alone
    alone = {}
    for name, steps, pace in (("exclusion", exclusion_steps, choice.EXCLUSION_PACE),
                              ("pins", choice.pins_steps, Budget.pace)):
        budget = Budget(10**8, pace=pace)  # as `choice` gives them (compiled, its own pace)
        alone[name] = finish(steps(pz, budget)).total, budget.effort
    pins, exclusion = alone["pins"][1], alone["exclusion"][1]
    assert (exclusion > choice.HEAD_START
            and pins / choice.PINS_SHARE < exclusion / choice.LEAD) == by_pins
    finished: list[int] = []

    def spied(pz: Puzzle, budget: Budget) -> Any:
        done = yield from alone_pins(pz, budget)
        finished.append(1)
        return done

    alone_pins = choice.pins_steps
    monkeypatch.setattr(choice, "pins_steps", spied)
    monkeypatch.setattr(choice, "EARLY", choice.programme_states(pz) - 1)
    assert choice.programme_states(pz) <= choice.BEHIND
    result = choice.exact_count(pz, 1_000, 200_000, 10**7, 2_000_000, pins_budget=10**7)
    assert bool(finished) == by_pins
    assert result.total == alone["pins"][0] == alone["exclusion"][0]


@pytest.mark.parametrize("sure", [True, False])
def test_card_by_card_counts_alone_where_its_estimate_is_within_sure(
        monkeypatch: pytest.MonkeyPatch, sure: bool) -> None:
    """Where card by card would take turns beside inclusion-exclusion (`choice.EARLY`, lowered
    here) and its work estimated is within `choice.SURE`, inclusion-exclusion is not started:
    card by card alone gives the figures. With `SURE` below the estimate, the turns as before
    (12 players, 10 events, seed 0: card by card finishes there either way)."""
    from solver.odds import choice
    from solver.odds.exclusion_compiled import kernel as exclusion_kernel
    from solver.odds.pins_compiled import kernel as pins_kernel
    from solver.odds.pins_compiled import pins_steps
    from solver.odds.programme import finish
    from tests.test_odds_exclusion import forum_log

    assert exclusion_kernel() is not None and pins_kernel() is not None
    log = forum_log(12, 10, 0)
    pz = puzzle(log, grid_of(log))
    monkeypatch.setattr(choice, "EARLY", choice.programme_states(pz) - 1)
    estimate = choice.pins_work(pz, 10**7)
    assert estimate is not None
    monkeypatch.setattr(choice, "SURE", estimate if sure else estimate - 1)
    exclusion_started = starts(monkeypatch, "exclusion_steps")
    started = pins_started(monkeypatch)
    result = choice.exact_count(pz, 1_000, 200_000, 10**7, 2_000_000, pins_budget=10**7)
    assert started and bool(exclusion_started) != sure
    assert result.total == finish(pins_steps(pz, Budget(10**8))).total


def starts(monkeypatch: pytest.MonkeyPatch, steps: str) -> list[int]:
    """Record every start of the count ``steps`` names in `choice` (such as ``pins_steps``)
    from now on, in the list returned."""
    from solver.odds import choice

    started: list[int] = []
    alone = getattr(choice, steps)

    def spied(pz: Puzzle, budget: Budget) -> Any:
        started.append(1)
        return (yield from alone(pz, budget))

    monkeypatch.setattr(choice, steps, spied)
    return started


def pins_started(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record every start of card by card (`choice.pins_steps`) from now on (`starts`)."""
    return starts(monkeypatch, "pins_steps")


def test_card_by_card_is_not_started_beside_inclusion_exclusion_past_its_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Beside inclusion-exclusion (`choice.EARLY`, lowered here) card by card takes turns only
    where its work estimated is within its budget (`choice.pins_fit`); past it
    inclusion-exclusion alone gives the figures, the same. (12 players, 10 events, seed 0, where
    card by card gives them when it takes turns.)"""
    from solver.odds import choice, pins
    from tests.test_odds_exclusion import forum_log

    started = pins_started(monkeypatch)
    log = forum_log(12, 10, 0)
    pz = puzzle(log, grid_of(log))
    monkeypatch.setattr(choice, "EARLY", choice.programme_states(pz) - 1)
    estimate = pins.work_estimate(pins.plan(pz))
    assert not pz.accusations and estimate > 0
    budgets = (1_000, 200_000, 10**7, 2_000_000)
    within = choice.exact_count(pz, *budgets, pins_budget=estimate)
    assert started
    started.clear()
    past = choice.exact_count(pz, *budgets, pins_budget=estimate - 1)
    assert not started and past.total == within.total


def test_beside_the_programme_inclusion_exclusion_counts_within_its_share(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the programme takes turns at a crowded table, inclusion-exclusion counts within
    `choice.BESIDE` units at most (past it the programme is the quicker count); where the
    programme is behind (`choice.BEHIND`), within its whole budget. (12 players, 10 events,
    seed 3: inclusion-exclusion finishes within 1.5 million units; `BESIDE` lowered here.)"""
    from solver.odds import choice
    from solver.odds.exact import Count
    from solver.odds.owners import OwnerCount
    from tests.test_odds_exclusion import forum_log

    log = forum_log(12, 10, 3)
    pz = puzzle(log, grid_of(log))
    budgets = (1_000, 200_000, 5_000_000, 2_000_000)
    assert isinstance(choice.exact_count(pz, *budgets, pins_budget=10**7), OwnerCount)
    monkeypatch.setattr(choice, "BESIDE", 1_000)
    beside = choice.exact_count(pz, *budgets, pins_budget=10**7)
    assert isinstance(beside, Count)
    monkeypatch.setattr(choice, "BEHIND", choice.programme_states(pz) - 1)
    # card by card, after inclusion-exclusion where it is behind, drops out at 1,000 units
    behind = choice.exact_count(pz, *budgets, pins_budget=1_000)
    assert isinstance(behind, OwnerCount) and behind.total == beside.total


def test_forum_game_of_eight_at_ten_events_is_exact_and_the_same_on_every_run() -> None:
    """Past the programme's budget (sampled before the count owner by owner)."""
    rng = random.Random(1)
    names = tuple(f"P{i}" for i in range(1, 9))
    game, truth = random_setup(forum_deck(8), names, Dealing.FORUM, "P1", rng)
    log = play(game, truth, 10, rng, directed=True, wrong_accusations=0.05, reveals=0.1,
               notes=0.05)
    pz = puzzle(log, grid_of(log))
    with pytest.raises(OverBudget):
        count(pz)
    first, again = odds(log), odds(log)
    assert first.exact and again.exact
    assert first.probabilities == again.probabilities
    assert first.envelope_odds == again.envelope_odds
    assert first == owner_odds(log, pz, Budget(PLENTY), False)


def forty_five_cards(events: int, seed: int) -> GameLog:
    """A 12-player custom game of 45 cards (12 + 12 + 21), as `benchmarks/bench_odds.py`."""
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(1, 13))
    deck = Deck(tuple(f"Suspect {i}" for i in range(1, 13)),
                tuple(f"Weapon {i}" for i in range(1, 13)),
                tuple(f"Room {i}" for i in range(1, 22)))
    game, truth = random_setup(deck, names, Dealing.CLASSIC, "P1", rng)
    return play(game, truth, events, rng, directed=True, wrong_accusations=0.05, reveals=0.1)


def forum_at_30() -> GameLog:
    """A 12-player forum game at 30 events (`bench_odds`'s seed 0)."""
    rng = random.Random(0)
    names = tuple(f"P{i}" for i in range(1, 13))
    game, truth = random_setup(forum_deck(12), names, Dealing.FORUM, "P1", rng)
    return play(game, truth, 30, rng, directed=True, wrong_accusations=0.05, reveals=0.1,
                notes=0.05, absence=Absence(names[-1], 10, 15))


@pytest.mark.slow
@pytest.mark.parametrize(("make", "exact"), [(partial(forty_five_cards, 60, 1), True),
                                             (partial(forty_five_cards, 60, 3), False),
                                             (partial(forty_five_cards, 30, 31), True),
                                             (partial(forty_five_cards, 30, 11), False),
                                             (forum_at_30, True)])
def test_the_work_budgets_bound_memory(make: Callable[[], GameLog], exact: bool) -> None:
    """A 45-card game at 60 events (seed 1) the programme finishes at 14.9 million units, its
    two wrong accusations counted with every deal (133 MiB at the peak in `odds`). Another
    (seed 3) is past every count's budget: the programme gives up at its 20 million units
    with the most wrong accusations one count carries (four, `exact.ACCUSED_AT_ONCE`: their
    ways in kept per layer) having stored no more than its work allows (265 MiB at the peak),
    then the sampler runs (seed 0, three accusations, 175 MiB, was this test's exact case
    until they were charged half a unit a move, 21.1 million units: docs/odds.md). At 30
    events (seed 31) the programme gives up at its 20 million units and card by card, alone,
    finishes at 19.8 million (293 MiB at the peak in `odds`, the programme's; seed 0, this
    test's case until 2026-12-03, needed 66.7 million units of card by card and peaked at 329
    MiB, 1.9 million and 60 MiB since its cards' order is searched). Another (seed 11)
    inclusion-exclusion gives up at its 5 million units and card by card, estimated past its
    budget (51 million), is not tried (11 MiB; seed 6, this test's case until card by card
    finished it, peaked at 306 MiB while card by card stored its states to its budget). A
    forum game at 30 events the programme finishes at 17.8 million units (139 MB counted alone,
    keeping its first 8 million moves; 75 keeping none; 307 MiB in `odds` while it kept every
    layer's moves and split the envelope in a second forward pass). tracemalloc sees
    numpy's arrays, not the kernels' compilation (loaded first: about 20 MiB where no cache
    holds them). Inclusion-exclusion's are bounded by its budget, by construction
    (`exclusion_compiled.NUMBERS`: 313 MiB within 5 million units)."""
    import tracemalloc

    from solver.odds import compiled, exclusion_compiled, pins_compiled

    log = make()
    grid = grid_of(log)
    for counter in (compiled, exclusion_compiled, pins_compiled):
        counter.kernel()  # loaded (or compiled, with no cache) before: the counts are measured
    tracemalloc.start()
    try:
        result = odds(log, grid=grid)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.exact == exact
    assert peak < 400 * 2**20


def test_past_few_cells_card_by_card_counts_alone_where_its_work_estimated_fits(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At a table of more than `choice.CROWD` open hands past `choice.FEW_CELLS` ruled-out
    cells, inclusion-exclusion is not tried; once the others have dropped out, card by card
    counts alone where its work estimated (`choice.pins_fit`) is within its budget, and is not
    started where it is not, even if it would finish. (12-player forum, 60 events, seed 6: 77
    such cells; card by card finishes at 2.3 million units, estimated 3.3 million, its cards'
    order searched; 7.6 and 9.5 million in the greedy order.)"""
    from solver.odds import choice, pins
    from solver.odds.exact import Count
    from solver.odds.owners import OwnerCount
    from tests.test_odds_exclusion import forum_log

    started = pins_started(monkeypatch)
    log = forum_log(12, 60, 6)
    pz = puzzle(log, grid_of(log))
    assert choice.ruled_out(pz) > choice.FEW_CELLS and choice.expands(pz)
    programme = choice.exact_count(pz, 1_000, 200_000, 1_000, 20_000_000)
    assert isinstance(programme, Count) and not started
    budgets = (1_000, 200_000, 1_000, 200_000)  # every other count drops out
    by_pins = choice.exact_count(pz, *budgets, pins_budget=10**7)
    assert isinstance(by_pins, OwnerCount) and by_pins.total == programme.total and started
    estimate = pins.work_estimate(pins.plan(pz)) + sum(
        pins.work_estimate(p) for wrong in sorted(set(pz.accusations))
        if (p := pins.plan(pz, wrong)).possible)
    assert 2_500_000 < estimate < 10**7  # card by card would finish below it
    started.clear()
    with pytest.raises(OverBudget):
        choice.exact_count(pz, *budgets, pins_budget=estimate - 1)
    assert not started


def test_past_few_cells_where_the_programme_is_behind_card_by_card_counts_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Past `choice.FEW_CELLS` ruled-out cells too, where the count owner by owner is hopeless
    and the programme's hands allow more than `choice.BEHIND` states, the programme is not
    started (it finished none of the 42 such 45-card logs measured): card by card counts at
    once, the same total, and where it does not fit its budget, `OverBudget` at once.
    (12-player forum, 60 events, seed 6, as above: its programme states are below `BEHIND`,
    lowered here.)"""
    from solver.odds import choice
    from solver.odds.exact import Count, count_steps
    from solver.odds.owners import OwnerCount
    from tests.test_odds_exclusion import forum_log

    programmes: list[int] = []

    def spied(pz: Puzzle, budget: Budget, compiled: bool = False) -> Any:
        programmes.append(1)
        return (yield from count_steps(pz, budget, compiled))

    monkeypatch.setattr(choice, "count_steps", spied)
    started = pins_started(monkeypatch)
    log = forum_log(12, 60, 6)
    pz = puzzle(log, grid_of(log))
    assert choice.ruled_out(pz) > choice.FEW_CELLS and choice.expands(pz)
    assert choice.owner_states(pz) > choice.HOPELESS * 1_000
    budgets = (1_000, 200_000, 1_000, 20_000_000)
    programme = choice.exact_count(pz, *budgets, pins_budget=10**7)
    assert isinstance(programme, Count) and programmes and not started
    monkeypatch.setattr(choice, "BEHIND", choice.programme_states(pz) - 1)
    programmes.clear()
    by_pins = choice.exact_count(pz, *budgets, pins_budget=10**7)
    assert isinstance(by_pins, OwnerCount) and by_pins.total == programme.total
    assert started and not programmes
    with pytest.raises(OverBudget):  # card by card does not fit, and no count is left
        choice.exact_count(pz, *budgets, pins_budget=1_000)
    assert not programmes
