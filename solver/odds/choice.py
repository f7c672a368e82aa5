"""Which exact count: the two counts take turns, work for work, and the first to finish wins.

The count owner by owner (`owners`) is fast on the forum decks (many players, small hands) and
the card-by-card programme (`programme`) where a few big hands meet many open refutations; which
one a log needs is hard to tell in advance. So both run, each paused after every step of its
own (`Steps`), and the one that has spent less work so far goes next: the first to finish has
cost at most about twice the cheaper one. A count past its own budget drops out; when both
have, `OverBudget`. Work is counted (states and transitions), never time, so the same log gets
the same count, figures and label on every machine.
"""

from __future__ import annotations

from typing import TypeVar

from .exact import Count, count_steps
from .owners import OwnerCount, owner_steps
from .programme import Budget, OverBudget, Steps
from .setup import Puzzle

T = TypeVar("T")


def first_finished(runs: list[tuple[Steps[T], Budget]]) -> T:
    """The result of the run that finishes first when the runs take turns, the one that has
    spent the least work going next (ties: the earlier one); `OverBudget` if every run is."""
    running = list(runs)
    while running:
        steps = min(running, key=lambda run: run[1].spent)[0]
        try:
            next(steps)
        except StopIteration as done:
            for other, _ in running:
                other.close()
            return done.value  # type: ignore[no-any-return]
        except OverBudget:
            running = [run for run in running if run[0] is not steps]
    raise OverBudget


def exact_count(pz: Puzzle, owner_budget: int, budget: int) -> OwnerCount | Count:
    """Whichever exact count finishes first: owner by owner within ``owner_budget`` units of
    work, or the programme within ``budget`` transitions (`OverBudget` when neither does)."""
    runs: list[tuple[Steps[OwnerCount | Count], Budget]] = []
    by_owner = Budget(owner_budget)
    runs.append((owner_steps(pz, by_owner), by_owner))
    by_card = Budget(budget)
    runs.append((count_steps(pz, by_card), by_card))
    return first_finished(runs)
