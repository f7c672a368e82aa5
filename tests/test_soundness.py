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


@SETTINGS
@given(small_logs(noise=True))
def test_an_entry_tried_before_record_clashes_as_the_log_would(log: GameLog) -> None:
    """`Notebook.conflict_with` (the Turn form's check before Record): each event tried in its
    own place clashes exactly when the log does, with real and minimal events, and leaves the
    notebook as it was."""
    truth = consistent(log.game, log.events)
    with Notebook(log.game, log.events) as notebook:
        for at, event in enumerate(log.events, 1):
            found = notebook.conflict_with(event, at=at)
            assert bool(found) == (not truth)
            chosen = [log.events[i - 1] for i in found]
            assert not found or not consistent(log.game, chosen)
            for drop in range(len(chosen)):
                assert consistent(log.game, chosen[:drop] + chosen[drop + 1 :])
        assert notebook.consistent() == truth
    before = log.events[:-1]
    if not log.events or not consistent(log.game, before):
        return  # (the app tries an entry on the log as its grid reads it: consistent)
    with Notebook(log.game, before) as earlier:
        found = earlier.conflict_with(log.events[-1])
    assert bool(found) == (not truth)
    assert not found or found[-1] == len(log.events)
