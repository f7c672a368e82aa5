"""Inclusion-exclusion card by card (`solver.odds.pins`, compiled in `pins_compiled`) against
brute force on small games, the Python count against the compiled one (the same figures and
the same work), and the programme on every example log."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.editions import Dealing
from solver.game import GameLog
from solver.logfile import load
from solver.odds import OverBudget, grid_of, odds, pins, puzzle
from solver.odds.exclusion import Unsupported, is_refutation
from solver.odds.owners import odds_of
from solver.odds.pins import candidates, count_by_pins, pins_steps, plan, python_steps
from solver.odds.pins_compiled import WIDE_KEPT, compiled_steps, enough, fits, kept_below, kernel
from solver.odds.pins_compiled import pins_steps as compiled_pins
from solver.odds.programme import Budget, finish
from solver.odds.residues import TOP, WIDER, moduli_for
from solver.odds.result import Odds
from solver.odds.setup import Puzzle
from tests.brute import deals
from tests.programme_check import same_as_programme
from tests.strategies import small_logs
from tests.test_odds import brute_odds
from tests.test_odds_owners import forty_five_cards

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
FORUM = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.json"))
PLENTY = 10**9
NEAR_1000 = (997, 991, 983, 977, 971, 967, 953, 947, 941, 937, 929, 919, 911, 907, 887, 883,
             881, 877, 863, 859, 857, 853, 839, 829, 827, 823, 821, 811, 809, 797, 787, 773)
"""Primes small enough that a count needs many of them (the Chinese remainder theorem at work)."""


def by_pins(log: GameLog, compiled: bool) -> Odds:
    pz = puzzle(log, grid_of(log))
    steps = compiled_pins(pz, Budget(PLENTY)) if compiled else pins_steps(pz, Budget(PLENTY))
    return odds_of(log, pz, finish(steps), False)


def assert_brute(log: GameLog) -> None:
    if not any(True for _ in deals(log)):
        return  # a contradiction: the SAT grid says so before any count
    cells, envelope = brute_odds(log, False)
    for compiled in (False, True):
        result = by_pins(log, compiled)
        assert result.probabilities == cells
        assert {t[:3]: t[3] for t in result.envelope_odds} == envelope


@SETTINGS
@given(small_logs())
def test_equal_to_brute_force(log: GameLog) -> None:
    assert_brute(log)


@FORUM
@given(small_logs(rule=Dealing.FORUM, max_events=10))
def test_forum_rules_equal_to_brute_force(log: GameLog) -> None:
    assert_brute(log)


@SETTINGS
@given(small_logs(), st.randoms(use_true_random=False))
def test_any_card_order_gives_the_same_figures(log: GameLog, rng: random.Random) -> None:
    """The figures do not depend on the order the cards are dealt in: `plan` keeps the order
    whose work is estimated least (`pins.order_of`, `pins.order_by_state`), any other gives
    them too."""
    def shuffled(touch: dict[str, set[int]], *_: Any) -> list[str]:
        return rng.sample(sorted(touch), len(touch))

    with mock.patch.object(pins, "order_of", shuffled), \
            mock.patch.object(pins, "order_by_state", shuffled):
        assert_brute(log)


def test_the_order_is_searched_for_less_work() -> None:
    """`plan` deals the cards in the greedy order that bounds the states least by
    `work_estimate`, the pin counts alone (`order_of`) or the whole state, the refutations
    open too (`order_by_state`), then moves a card at a time where the bound drops
    (`Bound.searched`). (45 cards, 12 players, 30 events, seed 0: 45.6 million units estimated
    by the pins alone, about 2 now; card by card charged 66.7 million units.) `Bound.work` and
    its compiled twin `order_kernel.bound` are `work_estimate`'s bound, from the order alone, on
    any order."""
    log = forty_five_cards(30, 0)
    pz = puzzle(log, grid_of(log))
    kept = pins.work_estimate(plan(pz))
    with mock.patch.object(pins, "order_by_state", lambda touch, places, _: pins.order_of(
            touch, places)), mock.patch.object(pins.Bound, "searched", lambda _, order: order):
        greedy = pins.work_estimate(pins._plan(pz))
    assert 4 * kept < greedy
    rng = random.Random(0)
    for _ in range(5):
        order = rng.sample([card.name for card in plan(pz).cards], len(plan(pz).cards))
        def given(*_: Any, order: list[str] = order) -> list[str]:
            return order

        with mock.patch.object(pins, "order_of", given), \
                mock.patch.object(pins, "order_by_state", given), \
                mock.patch.object(pins.Bound, "searched", lambda _, order: order):
            shuffled = pins._plan(pz)
        assert [card.name for card in shuffled.cards] == order
        bound = bound_of(pz)
        assert bound.work(order) == pins.work_estimate(shuffled)
        compiled = pins.searcher()
        assert compiled is not None
        indexed = bound.arrays(order)
        assert compiled.bound(np.arange(len(order)), *indexed,
                              bound.refutations) == pins.work_estimate(shuffled)


def test_where_numba_does_not_load_the_order_is_searched_in_python() -> None:
    """Without the compiled search (`pins.searcher` gives ``None``) the order is still searched,
    one card a try (`pins.TRIES`), and less work is estimated than greedily. (45 cards, 12
    players, 30 events, seed 0.)"""
    log = forty_five_cards(30, 0)
    pz = puzzle(log, grid_of(log))
    with mock.patch.object(pins, "searcher", lambda: None):
        python = pins.work_estimate(pins._plan(pz))
        with mock.patch.object(pins, "TRIES", 0):
            greedy = pins.work_estimate(pins._plan(pz))
    assert python < greedy
    assert pins.work_estimate(plan(pz)) < python  # compiled, more tries


def bound_of(pz: Puzzle) -> pins.Bound:
    """The `Bound` `plan` searched with."""
    found: list[pins.Bound] = []

    def spied(bound: pins.Bound, order: list[str]) -> list[str]:
        found.append(bound)
        return order

    with mock.patch.object(pins.Bound, "searched", spied):
        pins._plan(pz)
    return found[0]


def assert_same_both_ways(log: GameLog) -> None:
    """The compiled count gives the Python count's figures, triples and work, modulo primes
    below 2^52 (64-bit residues), near 1000 (as few as the deals need, and every one of them:
    many residues rebuilt) and below 2^31 (32-bit residues); its passes reading the moves'
    shapes kept by the states pass, listing the moves again (no shapes kept), or both (a layer
    with more than one lists them again)."""
    if not any(True for _ in deals(log)):
        return
    pz = puzzle(log, grid_of(log))
    main = plan(pz)
    if not (main.possible and fits(main)):
        return
    in_python, compiled, small = Budget(PLENTY), Budget(PLENTY), Budget(PLENTY)
    expected = finish(python_steps(main, in_python))
    assert finish(compiled_steps(kernel(), main, compiled)) == expected
    assert in_python.spent == compiled.spent
    assert finish(compiled_steps(kernel(), main, small, NEAR_1000, shapes=0)) == expected
    assert finish(compiled_steps(kernel(), main, Budget(PLENTY), NEAR_1000, fewest=False)
                  ) == expected
    assert finish(compiled_steps(kernel(), main, Budget(PLENTY), below=TOP, shapes=1)
                  ) == expected


def test_the_forward_counts_kept_decide_how_wide_the_primes_are() -> None:
    """64-bit residues (primes below 2^52, fewer passes) while the forward pass keeps at most
    `WIDE_KEPT` counts, else 32-bit ones (primes below 2^31, half the memory)."""
    assert kept_below(WIDE_KEPT) == WIDER
    assert kept_below(WIDE_KEPT + 1) == TOP


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=3), st.integers(min_value=0),
       st.integers(min_value=0), st.integers(min_value=-3, max_value=3))
def test_a_product_modulo_a_prime_below_2_to_the_52(index: int, a: int, b: int, off: int
                                                    ) -> None:
    """`pins_kernel.mul` modulo the primes below 2^52 it counts with: residues at the edges
    (0, 1, p - 1), between, and products just either side of a multiple of ``p`` (where the
    floating-point quotient is most often off)."""
    p = moduli_for(1 << 300, WIDER)[index]
    k = kernel()
    assert k is not None
    a, b = a % p, b % p
    near = (b * p // max(a, 1) + off) % p  # a * near is about b * p (b < a), or a multiple
    for x, y in ((a, b), (p - 1, p - 1), (p - 1, b), (0, p - 1), (1, p - 1), (a, near)):
        assert k.mul(x, y, p, 1 / p) == x * y % p


@SETTINGS
@given(small_logs())
def test_compiled_equals_python(log: GameLog) -> None:
    assert_same_both_ways(log)


@FORUM
@given(small_logs(rule=Dealing.FORUM, max_events=10))
def test_compiled_equals_python_forum_rules(log: GameLog) -> None:
    assert_same_both_ways(log)


def assert_same_as_programme(log: GameLog) -> bool:
    """True when compared; False when the programme is over its budget."""
    return same_as_programme(
        log, lambda pz: odds_of(log, pz, finish(compiled_pins(pz, Budget(PLENTY))), False))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_equal_the_programme(path: Path) -> None:
    log = load(path)
    cuts = [*range(0, len(log.events), 5), len(log.events)]
    compared = sum(assert_same_as_programme(GameLog(log.game, log.events[:n])) for n in cuts)
    assert compared, f"no stage of {path.name} was counted"


def test_the_refuter_model_is_left_to_the_other_counts() -> None:
    for path in EXAMPLES:
        log = load(path)
        pz = puzzle(log, grid_of(log), refuter_model=True)
        if not all(is_refutation(t) for t in pz.tallies):
            with pytest.raises(Unsupported):
                count_by_pins(pz, Budget(PLENTY))
            return
    pytest.fail("no example log has a weighted refutation")


def test_past_its_budget_the_count_stops_compiled_or_not() -> None:
    """The same work is charged either way, so a budget one unit short stops both."""
    full = load(EXAMPLES[0])
    log = GameLog(full.game, full.events[:10])
    pz = puzzle(log, grid_of(log))
    spent = Budget(PLENTY)
    finish(compiled_pins(pz, spent))
    assert spent.spent > 1000
    for steps in (pins_steps, compiled_pins):
        with pytest.raises(OverBudget):
            finish(steps(pz, Budget(spent.spent - 1)))
        finish(steps(pz, Budget(spent.spent)))


def test_a_forty_five_card_log_equals_odds() -> None:
    """45 cards, 12 players, 30 events, seed 4 (one wrong accusation still possible): every
    figure and envelope triple as `odds` gives them (exact there by inclusion-exclusion owner
    by owner)."""
    log = forty_five_cards(30, 4)
    pz = puzzle(log, grid_of(log))
    assert pz.accusations
    expected = odds(log)
    assert expected.exact
    assert odds_of(log, pz, finish(compiled_pins(pz, Budget(PLENTY))), False) == expected


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=math.prod(NEAR_1000) - 1))
def test_the_fewest_primes_that_hold_the_deals(deals: int) -> None:
    """`enough`: the first primes whose product exceeds the deals, and not one fewer."""
    taken = enough(deals, NEAR_1000)
    assert taken == NEAR_1000[:len(taken)]
    assert math.prod(taken) > deals
    assert len(taken) == 1 or math.prod(taken[:-1]) <= deals


class Spy:
    """The kernels, noting the primes of the full passes (`forward`), and the deals pass
    (`totals`) off by one where ``wrong``."""

    def __init__(self, wrong: bool = False) -> None:
        self.primes: set[int] = set()
        self.wrong = wrong

    def __getattr__(self, name: str) -> Any:
        return getattr(kernel(), name)

    def forward(self, *args: Any) -> Any:
        self.primes.add(args[-2])
        return kernel().forward(*args)

    def totals(self, *args: Any) -> Any:
        out = kernel().totals(*args)
        return out + 1 if self.wrong else out


def test_the_full_passes_take_only_the_primes_the_deals_need() -> None:
    """45 cards at 30 events seed 4: a figure may reach 2^128 before the hands' ``c!`` are
    divided out (three primes below 2^52), the deals are below 2^104: two full passes, and
    the figures as with three; a deals pass that disagrees fails the count's check."""
    pz = puzzle(forty_five_cards(30, 4), grid_of(forty_five_cards(30, 4)))
    main = plan(pz)
    spy = Spy()
    fewest = finish(compiled_steps(spy, main, Budget(PLENTY)))
    rows = candidates(main)
    bound = math.factorial(main.room) * math.prod(len(rows[a]) for a in main.open_axes)
    assert len(moduli_for(bound, WIDER)) == 3
    assert fewest.total < (1 << 104) * main.scale
    assert len(spy.primes) == 2
    assert finish(compiled_steps(kernel(), main, Budget(PLENTY), fewest=False)) == fewest
    with pytest.raises(ArithmeticError):
        finish(compiled_steps(Spy(wrong=True), main, Budget(PLENTY)))
