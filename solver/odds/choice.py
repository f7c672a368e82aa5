"""Which exact count: the counts take turns, work for work, and the first to finish wins.

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

At a table of more than `CROWD` open hands whose passes have ruled out some cells, at most
`FEW_CELLS`, a third count takes its turns too, and is favoured (it goes first, for the head
start, and takes `LEAD` units for each one of the others'): inclusion-exclusion over the
ruled-out cells (`exclusion`, not under the refuter model), compiled where numba loads
(`exclusion_compiled`). It finishes every 12-player log measured at 10 events, where the other
two often do not, and where they finish too it was as quick. The count owner by owner waits
there (`Budget.shared` of 0) until no other count is still taking turns: inclusion-exclusion
has dropped out and the programme has dropped out or spent its turns (`DEFAULT_BUDGET`; with no
further budget of its own, ``alone``, until it drops out). On the 12-player logs
measured it never finished such a log first, and at 30 events, where it never finished at all,
its turns cost 0.14-0.41 s of CPU on each log inclusion-exclusion finished
(docs/odds-measurements.md,
"Where the time goes", night). A unit of its work (a move) costs
about three of the count owner by owner's in Python, so its pace is three times theirs;
compiled, three sixteenths of one (`exclusion_compiled.PACE`). Which counts finish does not
depend on the shares (each has its own budget); only how soon. Beside the programme (where it
is not behind, below) inclusion-exclusion stops at `BESIDE` units: past that the programme,
or card by card after it, was the quicker count.

At such a table, where the programme's hands alone allow more than `BEHIND` states
(`programme_states`: 45 cards at 30 events), the programme finished none of the logs measured,
and inclusion-exclusion card by card is the count that finishes where inclusion-exclusion does
not: there the programme is not tried at all (it finished none of the 27 such logs measured).

Late in a game the passes give almost every open card its own set of possible holders, and the
count owner by owner, which counts cards by kind, has little left to merge: where its kinds
allow more states than its budget (`owner_states`) it takes no turns and starts only once the
other counts have dropped out; where they allow more than `HOPELESS` times its budget, it is
not tried at all (it finished none of the 71 such logs measured). Of the 168 forum and
45-card logs of 8 and 12 players measured (seeds 0-11, 0-100 events), 49 are such logs where
inclusion-exclusion does not run: it finished 4 (the programme alone took 8-59 ms there, it
0.3-0.5 s), and on the 34 the programme finished its turns cost 0.3-0.7 s of CPU a log for
nothing (``docs/odds-measurements.md``, "Where the time goes", late in a game). Where
inclusion-exclusion
runs the same holds (before
inclusion-exclusion card by card): there it drops out only from 30 events on, where the count
owner by owner's kinds allow 2^21 states or more and it finished none of the 39 such logs
measured; its turns cost 0.4-0.7 s on each log the programme finished after
inclusion-exclusion dropped out (forum, 30 events, seeds 0, 19 and 27; 45 cards, 30 events,
seed 10: docs/odds-measurements.md, "Where the time goes", early morning). Not under the refuter
model's
weights, which inclusion-exclusion declines at once (`expands`): there the count owner by owner
takes its turns as before (without those weights it finished 16 of the 24 12-player logs
measured at 10 events, 9 of them past the programme's 20 million units).
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections import defaultdict
from typing import TypeVar

from ..errors import ContradictionError
from . import pins
from .exact import Count, count_steps, dealt
from .exclusion import is_refutation
from .exclusion_compiled import exclusion_steps
from .owners import OwnerCount, owner_steps
from .pins_compiled import pins_steps
from .programme import Budget, OverBudget, Steps
from .setup import Puzzle

T = TypeVar("T")

LEAD = 4
"""Units of work the favoured count takes for each one of the other's."""
FEW_HANDS = 6
"""Up to this many open hands, the programme is favoured; past it, the count owner by owner."""
HEAD_START = 64_000
"""Effort (`Budget.effort`: sixteenths of a unit of work in Python, about 25 ms of either
count) the favoured count spends alone before the other starts. On the 20 spectator logs of
`docs/odds.md` the odds went from 21-23 / 32-35 ms to 14-17 / 21-26 ms (median / p95): the
count owner by owner's first step (its set-up, 6-8 ms) was no longer paid."""
CROWD = 8
"""Past this many open hands (a 12-player table), inclusion-exclusion takes turns too; at eight
players the count owner by owner finished every forum log measured, and the third count only
slowed it (p95 309 -> 712 ms at 10 events)."""
FEW_CELLS = 52
"""Past this many ruled-out cells (player, open card), inclusion-exclusion is not tried: its
states grow with the pins it can place (card by card still counts alone once the others have
dropped out, where its work estimated fits, `pins_fit`). Compiled, within 3 million moves (its
budget until 2026-12-01; the moves then included look-ups for the card figures, 1.2-2.8 times
the work now), on the 12-player logs of `docs/odds.md` (forum and 45 cards, seeds 0-5, 10-100
events) it finished every log at 10 events (6-26 such cells) and, of the later ones (25-101
cells), those with 25, 28, 39, 40, 51, 52 and 65 cells (the one with 65 the count owner by owner
finishes too), none with more; giving up on a log cost it 0.08-0.57 s, paid on top of the other
counts' where the log is sampled in the end. With none, the other counts finish at once. (In
Python, within 150,000 moves, the cut was 24.)"""
HOPELESS = 40
"""Where the count owner by owner's kinds allow more than this many times its budget in states
(`owner_states`), it is not tried at all, not even once the other counts have dropped out: of
the 93 logs measured whose kinds allow more states than its budget (12-player forum and
45-card, 8-player forum; seeds 0-11, 10-100 events) it finished 17, every one with fewer than
2^20 such states (9.1 times its budget at most), and none of the 71 with 2^20 or more (11 to
515,000 times), where it spent 0.33-0.81 s of CPU: paid, where it runs last, before the log is
counted by inclusion-exclusion card by card or sampled (`docs/odds-measurements.md`, "Where the
time goes",
morning: the envelope's slots in order). A property of the log, so the label is the same on
every machine."""
BEHIND = 1 << 29
"""Where inclusion-exclusion runs, or the table is crowded past `FEW_CELLS`, the count owner by
owner is not tried (`HOPELESS`) and the programme's hands allow more states than this
(`programme_states`), the programme is not tried at all: inclusion-exclusion (where it runs),
then inclusion-exclusion card by card, and where they drop out the odds are sampled. Past
`FEW_CELLS` (since 2026-12-03): of 45-card logs at 60 events (seeds 0-143) 28 are above it, at 30
events (seeds 0-71) 14, and the programme finished none of them, each past its 20 million units
(0.34-0.77 s of CPU for nothing before card by card or sampling); forum logs at 30 and 60 events
and 45-card logs at 100 (seeds 0-23) have none above it. Of the crowded 12-player logs measured
at 30 events (45 cards, seeds 0-35: 27; forum, seeds 0-11: 11) the programme finished 4, with
2^26.1-2^27.6 such states, and none of the 24 with 2^27.9 or more (20 million units spent for
nothing on each); forum logs at 30 events (seeds 0-29) have at most 2^27.1, crowded ones at 10
events at most 2^28.1; at 60 events (45 cards, seeds 0-11, not crowded) it finished none above
2^28.2. Above 2^29 are 15 of those logs, all 45 cards at 30 events: 7 that only card by card
finishes, which no longer pay the programme's 20 million units first (0.4-1.0 s of CPU), 4 that
inclusion-exclusion finishes and 4 that no count does. Until 2026-12-02, evening, the programme
still counted alone once card by card had dropped out (the order does not change which counts
finish); it finished none of these 15, nor of the 12 more above 2^29 at seeds 36-71
(2^29.1-2^31.1: each past its 20 million units, 0.41-0.90 s of CPU for nothing before the log was
sampled), so it is no longer tried there: a property of the log, so the label is the same on
every machine; no log measured changes label (`docs/odds-measurements.md`, "Where the time goes",
2026-12-02: the programme behind card by card, and evening: the programme not tried where it is
behind)."""
EARLY = 1 << 28
"""Where inclusion-exclusion runs, the count owner by owner is not tried (`HOPELESS`) and the
programme's hands allow more states than this (`programme_states`), inclusion-exclusion card by
card takes turns beside inclusion-exclusion, favoured (`PINS_SHARE`), rather than only once
every other count has dropped out. Both charge their work in their states passes, before they
count (card by card a unit compiled at `pins_compiled.PACE`, inclusion-exclusion at
`exclusion_compiled.PACE`), so past inclusion-exclusion's head start the count with the least
effort per share in all finishes, the other having spent at most as much (card by card charges
plan by plan: on a log of several plans its later plans' work shows only once it has counted the
earlier ones); which counts finish does not change, only which one gives the figures, the same.
On the 45-card logs at 30 events (seeds 0-35) it holds for 23 of the 27 crowded ones; of the
four below it, the programme finishes two (2^26.7, 2^27.6) and only card by card the other two
(2^27.4, 2^27.9); forum logs at 30 events have at most 2^27.1 (`docs/odds-measurements.md`,
"Where the time goes", 2026-12-02, 13:00-13:20: card by card beside inclusion-exclusion)."""
PINS_SHARE = 3 * LEAD
"""Card by card's share of the turns beside inclusion-exclusion (`EARLY`), three times its `LEAD`:
at their paces (`pins_compiled.PACE`, 1; `exclusion_compiled.PACE`, 3) card by card gives the
figures where it needs less than 9 times inclusion-exclusion's units. Each count alone on the 43
such 45-card logs at 30 events of seeds 0-71 (after `7184602`): a unit of card by card's cost
0.043-0.095 microseconds of CPU, one of inclusion-exclusion's 0.32-0.63 where it finishes; on
the 13 logs both finish, 3.4-10.6 times less (median 7), and card by card was the cheaper count
on the 10 where it needed at most 7.0 times inclusion-exclusion's units, the dearer on the 3
where it needed 8.7 times or more. Each count's recorded steps replayed through
`first_finished`: any share from 10 to 24 costs the 43 logs the same within 1.5 %; 8 times
`LEAD` spares 2-4 % of the bench's six (seeds 0-5, where card by card gives every figure) but
cost seed 69 3.1-3.7 s more in `odds` (card by card counts its first plans, then drops out at 70
million units; inclusion-exclusion 1.8 s) and seed 65 0.5-0.8 s (55.7 million units against 1.8
million). When this share was set the two cost 0.13-0.2 and 1.0-1.6 microseconds a unit, and
with the share of `LEAD` card by card lost seed 2 to inclusion-exclusion
(`docs/odds-measurements.md`, "Where the time goes", 2026-12-02, 13:35-13:45: card by card's
share, and late evening, 23:22-23:37: card by card's share, measured again)."""
SURE = 15_000_000
"""Where card by card would take turns beside inclusion-exclusion (`EARLY`) and its work
estimated (`pins_fit`) is within this, it counts alone and inclusion-exclusion is not started:
it charged at most 1.4 times its estimate where measured, so about a second of CPU at most,
and beside it inclusion-exclusion's set-up and head start (its owners' order, 10-40 ms, and
`HEAD_START`) were paid on logs card by card finished anyway. On the 45-card logs at 30 events
of seeds 0-71, each log counted in turns, by card by card alone within 15, 30 and 50 million
units estimated, in one process (load 3-5): CPU 53.1 s in all against 49.7, 48.3 and 47.4 s,
median 653 against 603, 612 and 610 ms, and on the bench's six (seeds 0-5) 0.16-0.42 s alone
within 15 million against 0.24-0.46 s in turns. Past this, a log where inclusion-exclusion
needs far fewer units (seed 65: 1.8 million against card by card's 55.7) would pay seconds
(`docs/odds-measurements.md`, "Where the time goes", 2026-12-03, 08:20: card by card alone
where its estimate is small)."""
BESIDE = 1_500_000
"""Where the programme takes turns beside it, inclusion-exclusion's budget is at most this:
in the owners' order searched (`exclusion._order`) a unit of its work costs about 1
microsecond of CPU (its passes, charged nothing, are most of it), the programme's about 0.1,
so past this the programme, or card by card after it, was the quicker count on every crowded
log measured that inclusion-exclusion needs more for: forum at 30 events seeds 0, 7, 13, 19,
21 (1.6-3.2 million units; 1.0-1.6 s of `odds` against 1.8-4.1 s), 45 cards at 30 events
seeds 5, 10, 17, 20 (2.3, 0.6, 1.7, 1.5 s against 2.7, 0.7, 1.8, 2.0 s), seed 12 the exception
(2.9 s against 2.5). Where the programme is behind (`BEHIND`), the whole budget: there the
count after it is card by card, or none (`docs/odds-measurements.md`, "Where the time goes",
2026-12-02, afternoon: inclusion-exclusion's owners' order)."""
EXCLUSION_UNCOMPILED = 150_000
"""The most moves inclusion-exclusion makes where its plan does not fit the compiled loops (a
turn's state past one key, `exclusion_compiled.fits`): a property of the log, so on every
install; the budget it had in Python (about 1.5 s)."""
EXCLUSION_PACE = 3 * Budget.pace
"""What a move of the count by inclusion-exclusion costs in Python, in sixteenths of a Python
unit (`Budget.pace`): about three units of the count owner by owner (compiled, the count sets
its own pace, `exclusion_compiled.PACE`)."""


def ruled_out(pz: Puzzle) -> int:
    """How many (player, open card) cells the log has ruled out, among hands with places left."""
    open_hands = [o for o in range(len(pz.owners)) if o != pz.envelope and pz.capacity[o] > 0]
    return sum(o not in owners for owners in pz.allowed.values() for o in open_hands)


def owner_states(pz: Puzzle) -> int:
    """How many states the count owner by owner's first turn may hold at most: the product of
    ``size + 1`` over the kinds of open card as the players with places left see them (which of
    them may hold it, which of their refutations name it): the widest of its turns on each of
    the 72 forum logs of 8 and 12 players compared (10-100 events). Late in a game the passes
    give each open card its own kind, so this is ``2 ** cards``."""
    env = pz.envelope
    tallies = [t for t in pz.tallies if t.owner != env]
    hands = frozenset(o for o in range(len(pz.owners)) if o != env and pz.capacity[o] > 0)
    size: dict[tuple[frozenset[int], frozenset[int]], int] = defaultdict(int)
    for card, owners in pz.allowed.items():
        if owners & hands:
            size[owners & hands, frozenset(i for i, t in enumerate(tallies)
                                           if card in t.cards)] += 1
    return math.prod(n + 1 for n in size.values())


def programme_states(pz: Puzzle) -> int:
    """How many states the programme's layers hold at most, counting only the places left in
    each hand (not its blocks' and refutations' counts): per layer (as `exact.dealt` deals
    them, players merged, the envelope's slots as hands), the product over hands of the values
    their places left may take there, at least what the cards dealt cannot have filled and at
    most what the cards to come can, summed over the layers. On the crowded logs measured the
    programme spent 0.05-0.17 units of work for each such state where it finished."""
    try:
        d = dealt(pz)
    except ContradictionError:
        return 0
    capacity, plan = d.capacity, d.plan
    seen = [0] * len(capacity)
    states = 0
    for layer in plan.layers:
        if layer.card is not None:
            for o in layer.allowed:
                seen[o] += 1
        else:
            seen[layer.owner] += len(layer.block)
        states += math.prod(max(1, min(c, room) - max(0, c - placed) + 1) for c, room, placed
                            in zip(capacity, layer.room, seen, strict=True) if c > 0)
    return states


def expands(pz: Puzzle) -> bool:
    """Whether inclusion-exclusion can count ``pz``: every open refutation is "holds one of"
    (under the refuter model's weights it declines, `exclusion.Unsupported`)."""
    return all(is_refutation(t) for t in pz.tallies if t.owner != pz.envelope)


def first_finished(runs: list[tuple[Steps[T], Budget, int]], head_start: int = 0) -> T:
    """The result of the run that finishes first when the runs take turns: the first run alone
    until its effort reaches ``head_start``, then the one that has spent the least effort (work
    weighted by its pace, `Budget.effort`) per unit of its share (the int) next (ties: the
    earlier one), leaving out a run past its turns (`Budget.shared`) while another is not;
    `OverBudget` if every run is past its budget. A run whose own check fails (an
    `ArithmeticError`, such as a count that is not a whole number) drops out too, logged: the
    others' figures are as exact, and the user sees them rather than a traceback."""
    running = list(runs)
    while running:
        first = running[0]
        if first is runs[0] and first[1].effort < head_start:
            steps = first[0]
        else:
            turns = [run for run in running if not run[1].waiting] or running
            steps = min(turns, key=lambda run: run[1].effort / run[2])[0]
        try:
            next(steps)
        except StopIteration as done:
            for other, _, _ in running:
                other.close()
            return done.value  # type: ignore[no-any-return]
        except OverBudget:
            running = [run for run in running if run[0] is not steps]
        except ArithmeticError:  # a count's own check failed (a bug): the others still count
            logging.getLogger(__name__).exception("an exact count failed its check; dropped")
            running = [run for run in running if run[0] is not steps]
    raise OverBudget


def exact_count(
    pz: Puzzle, owner_budget: int, budget: int, exclusion_budget: int = 0, alone: int = 0,
    pins_budget: int = 0,
) -> OwnerCount | Count:
    """Whichever exact count finishes first: owner by owner within ``owner_budget`` units of
    work, the programme within ``budget`` transitions, or (many hands, few ruled-out cells)
    inclusion-exclusion within ``exclusion_budget`` units (`OverBudget` when none does); where
    inclusion-exclusion runs, the count owner by owner starts once no other count is still
    taking turns (inclusion-exclusion dropped out, the programme past its turns or out).

    With ``alone`` larger than ``budget``, the programme, once the others have dropped out, goes
    on up to ``alone`` in all where its state fits the compiled loop (`compiled.fits`; where
    numba does not load, in Python up to `compiled.PYTHON_MOST`): logs another count finishes
    cost what they did, and logs none finishes in its turns cost only the programme's further
    work. Where the count owner by owner's kinds allow more states than ``owner_budget``
    (`owner_states`), it starts only once the programme and inclusion-exclusion (unless it
    declines the log, `expands`) have dropped out: whether the log is exact does not change,
    only the time it takes.

    Where inclusion-exclusion runs (``crowd``) and every count has dropped out, inclusion-
    exclusion card by card (`pins_compiled`) counts alone, within ``pins_budget`` units (where
    its kernels do not run, `EXCLUSION_UNCOMPILED`): it finishes 45-card logs at 30 events the
    others leave to sampling (when first measured, at 23-67 million units and 6-17 s; its cards'
    order searched since, 13-33 million), and on the logs they finish it was not quicker when
    first measured (`docs/odds-measurements.md`, "Where the time goes", late night, card by
    card). Where, besides, the count owner by owner is not tried (`HOPELESS`) and the
    programme's hands allow more than `BEHIND` states (`programme_states`), the programme is
    not tried: card by card counts once inclusion-exclusion has dropped out, and where it drops
    out too, `OverBudget`. So too past `FEW_CELLS` below, card by card then counting at once.

    At a table of more than `CROWD` open hands past `FEW_CELLS` ruled-out cells (not under the
    refuter model, `expands`), card by card counts alone too once every other count has
    dropped out. There, where it counts alone at a crowded table, and where it takes turns
    beside inclusion-exclusion, it is tried only where its work estimated from its plans is
    within ``pins_budget`` (`pins_fit`): the logs it would not finish are left to
    sampling at the cost of the estimate (2-14 ms), not of the 0.7-8 s card by card
    spent before dropping out. Where it would take turns beside inclusion-exclusion and its
    estimate is within `SURE`, it counts alone (inclusion-exclusion not started); where it
    drops out all the same, the counts take turns as above without it."""
    hands = sum(1 for p in pz.game.player_names if pz.capacity[pz.owners.index(p)] > 0)
    many = hands > FEW_HANDS
    runs: list[tuple[Steps[OwnerCount | Count], Budget, int]] = []
    cells = ruled_out(pz)
    crowd = hands > CROWD and exclusion_budget > 0 and 0 < cells <= FEW_CELLS
    past = hands > CROWD and cells > FEW_CELLS  # card by card alone, last (`pins_fit`)
    states = owner_states(pz)
    last = states > owner_budget and (not crowd or expands(pz))  # once the others
    hopeless = states > HOPELESS * owner_budget
    states_by_card = (programme_states(pz) if (crowd or past) and hopeless and pins_budget > 0
                      and expands(pz) else 0)
    behind = states_by_card > BEHIND  # the programme not at all
    # card by card takes turns with inclusion-exclusion
    early = crowd and (behind or states_by_card > EARLY)
    work = pins_work(pz, pins_budget) if early else None  # (`pins_fit`)
    sure = work is not None and work <= SURE
    if sure:  # card by card alone: it finishes within about a second
        with contextlib.suppress(OverBudget):
            return pins_alone(pz, pins_budget)
    by_owner = Budget(owner_budget, shared=0 if crowd and not last else None)  # waits for them
    if not last:
        runs.append((owner_steps(pz, by_owner), by_owner, LEAD if many and not crowd else 1))
    if not behind:
        by_card = (Budget(alone, uncompiled=budget, shared=budget) if alone > budget
                   else Budget(budget))
        runs.append((count_steps(pz, by_card, compiled=True), by_card, 1 if many else LEAD))
    if not many:
        runs.reverse()
    if crowd:  # inclusion-exclusion is favoured, and goes first
        if not behind:
            exclusion_budget = min(exclusion_budget, BESIDE)
        by_exclusion = Budget(exclusion_budget, pace=EXCLUSION_PACE,
                              uncompiled=min(exclusion_budget, EXCLUSION_UNCOMPILED))
        runs.insert(0, (exclusion_steps(pz, by_exclusion), by_exclusion, LEAD))
    if work is not None and not sure:  # its turns right after inclusion-exclusion's
        runs.insert(1, pins_run(pz, pins_budget, PINS_SHARE))
    with contextlib.suppress(OverBudget):
        return first_finished(runs, HEAD_START)
    if last and not hopeless:  # else it is not tried at all
        with contextlib.suppress(OverBudget):
            return first_finished([(owner_steps(pz, by_owner), by_owner, 1)])
    if early or not (crowd or past) or not expands(pz) or not pins_fit(pz, pins_budget):
        raise OverBudget
    return pins_alone(pz, pins_budget)


def pins_fit(pz: Puzzle, pins_budget: int) -> bool:
    """Whether inclusion-exclusion card by card is tried, alone or beside inclusion-exclusion:
    its plans' work estimated (`pins_work`) is within ``pins_budget``. On the 12-player logs
    measured it charged 0.84-1.40 times the estimate where it finished, its cards in the order
    searched (`pins.plan`), and 0.59-1.50 times in the greedy order before
    (`docs/odds-measurements.md`, "Where the time goes", 2026-12-03: card by card's work
    estimated, and morning: card by card's card order). A property of the log: the same label
    on every machine."""
    return pins_work(pz, pins_budget) is not None


def pins_work(pz: Puzzle, most: int) -> int | None:
    """Card by card's work estimated (`pins.work_estimate`, the main count's and each wrong
    accusation's), or ``None`` once it is past ``most`` (or ``most`` is not positive)."""
    if most <= 0:
        return None
    work = 0
    for wrong in [None, *sorted(set(pz.accusations))]:  # every deal's plan, then each accusation's
        p = pins.plan(pz, wrong)
        work += pins.work_estimate(p) if p.possible else 0
        if work > most:
            return None
    return work


def pins_run(pz: Puzzle, pins_budget: int, share: int
             ) -> tuple[Steps[OwnerCount | Count], Budget, int]:
    """Inclusion-exclusion card by card within ``pins_budget`` units (where its kernels do not
    run, `EXCLUSION_UNCOMPILED`), taking ``share`` in turns."""
    by_pins = Budget(pins_budget, uncompiled=min(pins_budget, EXCLUSION_UNCOMPILED))
    return pins_steps(pz, by_pins), by_pins, share


def pins_alone(pz: Puzzle, pins_budget: int) -> OwnerCount:
    """Inclusion-exclusion card by card, alone (`pins_run`)."""
    return first_finished([pins_run(pz, pins_budget, 1)])  # type: ignore[return-value]
