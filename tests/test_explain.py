"""Explanations checked against brute force: every step follows from what it cites, and no
cited event or fact can be dropped; every cell's events are a minimal reason for it."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.explain import Explainer, Explanation, Fact, Step
from solver.game import Game, GameLog
from solver.notebook import Knowledge

from .brute import Deal, all_deals, allows, brute_grid
from .strategies import small_logs

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Oracle:
    """Entailment over every deal of a small setup, independent of the SAT model."""

    def __init__(self, log: GameLog) -> None:
        self.log = log
        self.game: Game = log.game
        self.deals: list[Deal] = list(all_deals(log.game))

    @staticmethod
    def true_in(fact: Fact, deal: Deal) -> bool:
        return (deal.get(fact.card) == fact.owner) == fact.holds

    def entails(self, events: Sequence[int], facts: Sequence[Fact], goal: Fact | None) -> bool:
        chosen = [self.log.events[n - 1] for n in events]
        for deal in self.deals:
            if (all(self.true_in(f, deal) for f in facts) and allows(self.game, chosen, deal)
                    and (goal is None or not self.true_in(goal, deal))):
                return False
        return True

    def setup_fact(self, fact: Fact) -> bool:
        return self.entails((), (), fact)

    def check_step(self, steps: Sequence[Step], number: int) -> None:
        step = steps[number - 1]
        facts = [steps[u - 1].fact for u in step.uses]
        assert all(u < number for u in step.uses), step
        premises = [f for f in facts if f is not None]
        assert len(premises) == len(facts), "a step builds on an impossibility"
        where = f"step {number} {step.text!r}"
        assert self.entails(step.events, premises, step.fact), f"{where} does not follow"
        for n in step.events:
            rest = [e for e in step.events if e != n]
            assert not self.entails(rest, premises, step.fact), f"{where}: event {n} not needed"
        for i, fact in enumerate(premises):
            if self.setup_fact(fact):
                continue
            rest_facts = premises[:i] + premises[i + 1 :]
            assert not self.entails(step.events, rest_facts, step.fact), (
                f"{where}: premise {fact} not needed")

    def check_chain(self, steps: Sequence[Step]) -> None:
        for number in range(1, len(steps) + 1):
            self.check_step(steps, number)
        needed = {len(steps)}
        for number in range(len(steps), 0, -1):
            if number in needed:
                needed.update(steps[number - 1].uses)
        assert needed == set(range(1, len(steps) + 1)), "the chain has steps the end never uses"

    def check_cell(self, explanation: Explanation) -> None:
        fact = Fact(explanation.card, explanation.owner, explanation.value is Knowledge.YES)
        assert explanation.steps[-1].fact == fact
        self.check_chain(explanation.steps)
        cited = {n for s in explanation.steps for n in s.events}
        assert set(explanation.events) == cited
        assert self.entails(explanation.events, (), fact)
        for n in explanation.events:
            rest = [e for e in explanation.events if e != n]
            assert not self.entails(rest, (), fact), f"{fact}: event {n} can be dropped"


@SETTINGS
@given(small_logs())
def test_every_determined_cell_is_explained_by_checked_steps(log: GameLog) -> None:
    oracle = Oracle(log)
    expected = brute_grid(log)
    assert expected is not None
    with Explainer.of(log) as explainer:
        every = explainer.all()
        for card, row in expected.items():
            determined = {o for o, v in row.items() if v != "maybe"}
            assert set(every[card]) == determined
            for owner in determined:
                explanation = every[card][owner]
                assert explanation.value.value == row[owner]
                oracle.check_cell(explanation)


@SETTINGS
@given(small_logs(), st.randoms(use_true_random=False))
def test_a_lazy_explainer_explains_each_cell_asked_by_checked_steps(
    log: GameLog, rng: Random
) -> None:
    """The app's explainer derives only toward the cells tapped so far, in any order."""
    oracle = Oracle(log)
    expected = brute_grid(log)
    assert expected is not None
    cells = [(c, o) for c, row in expected.items() for o, v in row.items() if v != "maybe"]
    rng.shuffle(cells)
    with Explainer.of(log, lazy=True) as explainer:
        for card, owner in cells[:6]:
            explanation = explainer.cell(card, owner)
            assert explanation.value.value == expected[card][owner]
            oracle.check_cell(explanation)


@SETTINGS
@given(small_logs())
def test_maybe_cells_show_one_deal_each_way(log: GameLog) -> None:
    expected = brute_grid(log)
    assert expected is not None
    with Explainer.of(log) as explainer:
        for card, row in expected.items():
            for owner, value in row.items():
                if value != "maybe":
                    continue
                explanation = explainer.cell(card, owner)
                assert explanation.steps == () and len(explanation.examples) == 2
                for example, holds in zip(explanation.examples, (True, False), strict=True):
                    deal = {c: o for o, cards in example.items() for c in cards}
                    assert (deal[card] == owner) == holds
                    assert allows(log.game, log.events, deal)
                    assert deal in list(all_deals(log.game))
                assert "Not known" in explanation.text()
                return


@SETTINGS
@given(small_logs(noise=True))
def test_conflicts_are_explained_down_to_an_impossibility(log: GameLog) -> None:
    with Explainer.of(log) as explainer:
        conflict = explainer.conflict()
        if explainer.consistent:
            assert conflict is None
            return
        assert conflict is not None
        oracle = Oracle(log)
        assert conflict.steps[-1].fact is None
        oracle.check_chain(conflict.steps)
        cited = {n for s in conflict.steps for n in s.events}
        assert cited == set(conflict.events), "the chain uses exactly the clashing events"
        assert ("cannot all be true" if len(conflict.events) > 1
                else "cannot be true with the game's setup") in conflict.text()
