"""`benchmarks/bench_race_asked.py`: the cards a player's view left open before their last
question, against every deal that view allows; the race read there unweighed is the race."""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from solver.cards import CATEGORIES
from solver.game import ENVELOPE, GameLog
from solver.race import Play, _deals, public_events, race
from solver.values import replace
from tests.brute import deals
from tests.test_race import SMALL, _played

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))

import bench_race_asked as bench


def _open_by_enumeration(table: bench.Asked, heard: int, facts: list[int]
                         ) -> dict[object, frozenset[str]]:
    """Per category, the envelope cards of every deal the first ``heard`` public events allow
    that agrees with ``facts`` (each a "holds" literal read back to its owner and card)."""
    log = table.log
    public = GameLog(replace(log.game, me=None, my_cards=()), public_events(log)[:heard])
    literal = {table.model.holds(o, c): (o, c) for o in log.game.owners for c in table.live}
    found: dict[object, set[str]] = {cat: set() for cat in CATEGORIES}
    for deal in deals(public):
        if all((deal.get(literal[abs(f)][1]) == literal[abs(f)][0]) == (f > 0) for f in facts):
            for card, owner in deal.items():
                if owner == ENVELOPE:
                    found[log.game.category_of(card)].add(card)
    return {cat: frozenset(cards) for cat, cards in found.items()}


def _open_sets(seed: int) -> list[tuple[dict[object, frozenset[str]], bench.Asked, int,
                                          list[int]]]:
    """For a few drawn deals of a small played game, each other player's open cards before
    their last question (`Asked.open_sets`, their hand and the cards shown to them before it
    with the hidden choices drawn), with what to check them against."""
    log = _played(seed, ("Ann", "Bob", "Cy"), SMALL)
    table = bench.Asked(log, random.Random(0), Fraction(1, 4))
    holds = table.model.holds
    out = []
    try:
        for deal in _deals(log, Play(log).draw(6, seed)):
            for player, questions in table.named.items():
                i, _ = questions[-1]
                drawn = table.view(player, deal)[2]
                table.log = log.upto(i)
                shown = table._shown(player, deal, drawn[0])[0]
                table.log = log
                facts = [holds(player, c) if deal[c] == player else -holds(player, c)
                         for c in table.live] + shown
                out.append((table.open_sets(table.heard_before[i], facts, deal), table,
                            table.heard_before[i], facts))
    finally:
        table.close()
    return out


@pytest.mark.parametrize("seed", range(1, 20))
def test_open_sets_are_every_envelope_card_the_view_allows(seed: int) -> None:
    for got, table, heard, facts in _open_sets(seed):
        assert got == _open_by_enumeration(table, heard, facts)


def test_the_open_sets_are_neither_one_nor_every_card() -> None:
    """The comparison above would pass an implementation that returned one card (the deal's)
    or every card per category if no game had anything else: across these games both occur,
    and two of three too."""
    sizes = {len(cards) for seed in range(1, 20) for got, *_ in _open_sets(seed)
             for cards in got.values()}
    assert sizes == {1, 2, 3}


@pytest.mark.parametrize("seed", [2, 10, 25])
def test_the_race_read_by_each_players_own_factor_of_nothing_is_the_race(seed: int) -> None:
    log = _played(seed, ("Ann", "Bob", "Cy"), SMALL)
    play = Play(log, Fraction(1, 4))
    got = bench.own(log, play, 1, "placed", 0)
    expected = race(log, samples=bench.RACE_SAMPLES, seed=1, play=play).players
    assert got == pytest.approx(dict(expected), abs=1e-12)
