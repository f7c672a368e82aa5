"""Which exact count: the two counts take turns, work for work, and the first to finish wins.

The count owner by owner (`owners`) is fast on the forum decks (many players, small hands) and
the card-by-card programme (`programme`) where a few big hands meet many open refutations; which
one a log needs is hard to tell in advance. So both run, each paused after every step of its
own (`Steps`), and the one that is behind goes next. The count the table favours gets `LEAD`
units of work for each one of the other's: owner by owner at a table of more than
`FEW_HANDS` open hands, the programme at a smaller one (the classic box, spectator logs with
many open refutations). The favoured count first runs alone for `HEAD_START` of effort: most
logs it suits finish there, and the other count's set-up is never paid. The first to finish has
cost at most ``1 + 1 / LEAD`` times the cheaper count when that count was favoured, ``1 + LEAD``
times when it was not (plus the head start). A count past
its own budget drops out; when both have, `OverBudget`. Work is counted (states and
transitions), never time, so the same log gets the same count, figures and label on every
machine.
"""

from __future__ import annotations

from typing import TypeVar

from .exact import Count, count_steps
from .owners import OwnerCount, owner_steps
from .programme import Budget, OverBudget, Steps
from .setup import Puzzle

T = TypeVar("T")

LEAD = 4
"""Units of work the favoured count takes for each one of the other's."""
FEW_HANDS = 6
"""Up to this many open hands, the programme is favoured; past it, the count owner by owner."""
HEAD_START = 64_000
"""Effort (`Budget.effort`: sixteenths of a unit of work in Python, about 25 ms of either
count) the favoured count spends alone before the other starts. On 20 spectator logs the
compiled programme went from 19 / 28 to 12 / 19 ms (median / p95): the count owner by owner's
first step (its set-up, 6-8 ms) was no longer paid."""


def first_finished(runs: list[tuple[Steps[T], Budget, int]], head_start: int = 0) -> T:
    """The result of the run that finishes first when the runs take turns: the first run alone
    until its effort reaches ``head_start``, then the one that has spent the least effort (work
    weighted by its pace, `Budget.effort`) per unit of its share (the int) next (ties: the
    earlier one); `OverBudget` if every run is past its budget."""
    running = list(runs)
    while running:
        first = running[0]
        if first is runs[0] and first[1].effort < head_start:
            steps = first[0]
        else:
            steps = min(running, key=lambda run: run[1].effort / run[2])[0]
        try:
            next(steps)
        except StopIteration as done:
            for other, _, _ in running:
                other.close()
            return done.value  # type: ignore[no-any-return]
        except OverBudget:
            running = [run for run in running if run[0] is not steps]
    raise OverBudget


def exact_count(pz: Puzzle, owner_budget: int, budget: int) -> OwnerCount | Count:
    """Whichever exact count finishes first: owner by owner within ``owner_budget`` units of
    work, or the programme within ``budget`` transitions (`OverBudget` when neither does)."""
    hands = sum(1 for p in pz.game.player_names if pz.capacity[pz.owners.index(p)] > 0)
    many = hands > FEW_HANDS
    runs: list[tuple[Steps[OwnerCount | Count], Budget, int]] = []
    by_owner = Budget(owner_budget)
    runs.append((owner_steps(pz, by_owner), by_owner, LEAD if many else 1))
    by_card = Budget(budget)
    runs.append((count_steps(pz, by_card, compiled=True), by_card, 1 if many else LEAD))
    if not many:
        runs.reverse()
    return first_finished(runs, HEAD_START)
