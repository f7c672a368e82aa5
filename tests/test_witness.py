"""One-swap witnesses (`solver.witness.Swaps`) against brute force: a swap is valid exactly when
the swapped deal agrees with the log."""

from __future__ import annotations

from itertools import islice

from hypothesis import assume, given, settings

from solver.game import ENVELOPE, GameLog
from solver.model import DealModel
from solver.values import replace
from solver.witness import Swaps
from tests.brute import allows, deals
from tests.strategies import small_logs


def _swaps(log: GameLog) -> tuple[Swaps, set[int]]:
    """Swaps over the log's events in a model without my hand, and a view: every event, and my
    hand as unit literals (as the race gives each player's view)."""
    game = log.game
    model = DealModel(replace(game, me=None, my_cards=()))
    for event in log.events:
        model.add(event)
    view = set(model.selectors) | {model.holds(game.me, c) for c in game.my_cards}
    return Swaps(model), view


@settings(max_examples=60, deadline=None)
@given(small_logs(max_events=6))
def test_a_swap_is_valid_exactly_when_the_swapped_deal_fits_the_log(log: GameLog) -> None:
    game = log.game
    assume(not game.side_cards)
    swaps, view = _swaps(log)
    first = len(log.events) // 2  # a view of the first events only: the others do not bind
    early = view - set(swaps.model.selectors[first:])
    for deal in islice(deals(log), 4):
        live = list(deal)
        for i, a in enumerate(live):
            for b in live[i + 1:]:
                if deal[a] == deal[b]:
                    continue
                if ENVELOPE in (deal[a], deal[b]) and (
                        game.category_of(a) != game.category_of(b)):
                    continue
                swapped = {**deal, a: deal[b], b: deal[a]}
                mine = all(swapped[c] == game.me for c in game.my_cards)
                fits = allows(game, log.events, swapped) and mine
                assert swaps.valid(deal, view, a, b) == fits, (a, b, deal)
                fits = allows(game, log.events[:first], swapped) and mine
                assert swaps.valid(deal, early, a, b) == fits, (a, b, deal, first)


@settings(max_examples=40, deadline=None)
@given(small_logs(max_events=6))
def test_what_a_swap_shows_open_is_open(log: GameLog) -> None:
    game = log.game
    assume(not game.side_cards)
    swaps, view = _swaps(log)
    every = list(deals(log))
    envelopes = {tuple(sorted(c for c in d if d[c] == ENVELOPE)) for d in every}
    for deal in every[:4]:
        mine = tuple(sorted(c for c in deal if deal[c] == ENVELOPE))
        if swaps.another_envelope(deal, view):
            assert len(envelopes) > 1
        assert swaps.another_envelope(deal, view) <= (envelopes != {mine})
        for card in deal:
            if swaps.envelope_can_hold(deal, view, card):
                assert any(card in e for e in envelopes), card
