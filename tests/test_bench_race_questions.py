"""`benchmarks/bench_race_questions.py` reads each player's view at the time of their question:
the public events heard before it, however many notes and cards revealed to me lie between."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from solver.cards import Deck
from solver.editions import Dealing
from solver.game import GameLog, Note, Reveal
from solver.race import Play, _deals, _Table, heard_before, public_form
from solver.simulate import play, random_setup

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))

import bench_race_questions as bench

DECK = Deck(("S1", "S2", "S3"), ("W1", "W2", "W3"), tuple(f"R{i}" for i in range(1, 8)))
"""13 cards for 4 players: 2 each and 2 face up in Refresh's deal."""


def _busy(seed: int) -> GameLog:
    """A 4-player Refresh game (two cards face up) with notes, cards revealed to me and wrong
    accusations between the suggestions."""
    rng = random.Random(seed)
    game, truth = random_setup(DECK, ("Ann", "Bob", "Cy", "Dee"), Dealing.REFRESH, "Ann", rng)
    return play(game, truth, rng.randint(4, 8), rng, wrong_accusations=0.3, reveals=0.5,
                notes=0.5)


def _public_only(log: GameLog) -> GameLog:
    """``log`` without what only I know (its notes, the cards revealed to me alone)."""
    return GameLog(log.game, tuple(e for e in log.events if public_form(e) is not None))


def test_heard_before_counts_public_events_only() -> None:
    log = _busy(3)
    private = [i for i, e in enumerate(log.events) if public_form(e) is None]
    assert private and log.game.face_up
    heard = heard_before(log)
    assert heard[0] == 0 and heard == sorted(heard)
    for i, event in enumerate(log.events[:-1]):
        assert heard[i + 1] - heard[i] == (i not in private), (i, event)


def test_the_busy_games_hold_every_kind_of_event() -> None:
    kinds = {type(e).__name__ for seed in range(12) for e in _busy(seed).events}
    assert kinds == {"Suggestion", "Accusation", "Reveal", "Note"}


@pytest.mark.parametrize("seed", range(12))
def test_named_placed_reads_the_public_events_before_each_question(seed: int) -> None:
    """What the others had placed when they named a card is the same whether or not my notes
    and the cards revealed to me lie between the questions (before, the log's event index cut
    the public selectors: a later answer leaked into an earlier question)."""
    log = _busy(seed)
    assert any(isinstance(e, Note | Reveal) for e in log.events)
    public = _public_only(log)
    drawn = _deals(log, Play(log).draw(20, seed))
    got = []
    for each in (log, public):
        table = _Table(each, random.Random(0))
        try:
            rng = random.Random(seed)
            got.append([bench._named_placed(table, each, deal, bench._views(table, each, deal, rng))
                        for deal in drawn])
        finally:
            table.close()
    assert got[0] == got[1]
