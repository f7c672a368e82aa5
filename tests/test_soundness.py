"""The engine's grid equals brute-force enumeration of every deal, cell by cell."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from solver.game import GameLog
from solver.notebook import Notebook, analyze

from .brute import brute_grid, consistent
from .strategies import small_logs

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(small_logs())
def test_grid_equals_enumeration(log: GameLog) -> None:
    expected = brute_grid(log)
    assert expected is not None, "generated from a true deal, so some deal fits"
    grid = analyze(log).grid
    assert grid is not None
    got = {card: {o: k.value for o, k in row.items()} for card, row in grid.cells.items()}
    assert got == expected


@SETTINGS
@given(small_logs(noise=True))
def test_conflicts_are_real_and_minimal(log: GameLog) -> None:
    result = analyze(log)
    truth = consistent(log.game, log.events)
    assert result.consistent == truth
    if truth:
        return
    chosen = [log.events[i - 1] for i in result.conflict]
    assert not consistent(log.game, chosen), "the reported events really clash"
    for drop in range(len(chosen)):
        rest = chosen[:drop] + chosen[drop + 1 :]
        assert consistent(log.game, rest), f"event {result.conflict[drop]} is not needed"


@SETTINGS
@given(small_logs(noise=True))
def test_every_prefix_and_undo_matches_enumeration(log: GameLog) -> None:
    """One incremental notebook answers for any prefix and with any event left out."""
    with Notebook(log.game, log.events) as notebook:
        for upto in range(len(log.events) + 1):
            prefix = log.upto(upto)
            assert notebook.consistent(upto) == consistent(log.game, prefix.events)
        for drop in range(1, len(log.events) + 1):
            kept = tuple(e for i, e in enumerate(log.events, 1) if i != drop)
            expected = brute_grid(GameLog(log.game, kept))
            if expected is None:
                assert not notebook.consistent(without=[drop])
                continue
            grid = notebook.grid(without=[drop])
            got = {c: {o: k.value for o, k in row.items()} for c, row in grid.cells.items()}
            assert got == expected
