"""Whether another player surely knows the envelope: logic, not the race's drawn deals.

The race (`solver.race`) reads each player's chance off deals drawn as players play, so it says
">99%", never "100%". Here two copies of the deal go to one SAT call: the true deal, which fits
my log, and another that fits that player's view of it (their hand, the cards shown to them,
every public event) with a different envelope. No such pair: whatever the deal and whichever
card each refuter showed them, they can name the envelope.
"""

from __future__ import annotations

from collections.abc import Callable

from pysat.solvers import Solver

from .cards import CATEGORIES
from .game import ENVELOPE, FIRST_IN_ORDER, GameLog, Suggestion
from .model import Clause, DealModel
from .notebook import SOLVER
from .values import replace


def public_view(log: GameLog) -> DealModel:
    """The SAT model of what everyone at the table heard: no hand, no card shown."""
    from .race import public_events

    model = DealModel(replace(log.game, me=None, my_cards=()))
    for event in public_events(log):
        model.add(event)
    return model


def knows_surely(log: GameLog, player: str) -> bool:
    """Whether ``player`` can name the envelope in every deal that fits ``log``, whichever of
    the named cards each refuter showed them where my log does not say. Not with side cards
    (which one a player looked at is not modelled here): False, as for any doubt."""
    game = log.game
    if game.side_cards or player == game.me:
        return False
    true = DealModel(game)
    for event in log.events:
        true.add(event)
    seen = public_view(log)
    shift = int(true.pool.top)
    top = shift + int(seen.pool.top)

    def other(lit: int) -> int:
        return lit + shift if lit > 0 else lit - shift

    def fresh() -> int:
        nonlocal top
        top += 1
        return top

    clauses: list[Clause] = [*true.clauses, *([s] for s in true.selectors)]
    clauses += [[other(lit) for lit in clause] for clause in seen.clauses]
    clauses += [[other(s)] for s in seen.selectors]
    live = true.live_cards
    for card in live:  # their hand is the same in both
        mine, theirs = true.holds(player, card), other(seen.holds(player, card))
        clauses += [[-mine, theirs], [mine, -theirs]]
    for event in log.events:
        if isinstance(event, Suggestion) and event.by == player and event.refuted_by:
            clauses += _shown(event, true, seen, other, fresh)
    differs = []
    for card in live:  # another envelope: a card of the true one is not theirs
        d = fresh()
        differs.append(d)
        clauses += [[-d, true.holds(ENVELOPE, card)], [-d, -other(seen.holds(ENVELOPE, card))]]
    clauses.append(differs)
    with Solver(name=SOLVER, bootstrap_with=clauses) as solver:
        return not solver.solve()


def _shown(event: Suggestion, true: DealModel, seen: DealModel, other: Callable[[int], int],
           fresh: Callable[[], int]) -> list[Clause]:
    """What the card shown to the asker of ``event`` tells them, in their copy (``other`` maps a
    variable there): the card, when my log says it; under the first-in-order rule, the first of
    the named cards the refuter holds in the true deal, in the order suspect, weapon, room, and
    that they lack the earlier ones; else one of the named cards the refuter holds in the true
    deal, any of them (a fresh choice variable each, ``fresh``)."""
    refuter = event.refuted_by
    assert refuter is not None
    game = true.game
    live = sorted((c for c in event.cards if c in true.live_cards),
                  key=lambda c: CATEGORIES.index(game.category_of(c)))
    first = event.shown_by_rule == FIRST_IN_ORDER
    if event.shown is not None:
        if event.shown not in true.live_cards:
            return []
        out = [[other(seen.holds(refuter, event.shown))]]
        if first:
            out += [[-other(seen.holds(refuter, c))] for c in live[:live.index(event.shown)]]
        return out
    if first:  # the refuter's first card: if they hold it and none before it, they showed it
        out = []
        for i, card in enumerate(live):
            before = [true.holds(refuter, c) for c in live[:i]]
            told = [other(seen.holds(refuter, card)),
                    *(-other(seen.holds(refuter, c)) for c in live[:i])]
            out += [[-true.holds(refuter, card), *before, lit] for lit in told]
        return out
    picks = []
    out = []
    for card in live:
        pick = fresh()
        picks.append(pick)
        out += [[-pick, true.holds(refuter, card)], [-pick, other(seen.holds(refuter, card))]]
    return [*out, picks] if picks else []


__all__ = ["knows_surely", "public_view"]
