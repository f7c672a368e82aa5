"""The least widths `benchmarks/pins_widths.py` reports (issue 12's case against any other order
or tree of parts) are the known pathwidth and treewidth of small graphs."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))

from pins_widths import widths


def graph(n: int, edges: list[tuple[int, int]]) -> list[int]:
    adj = [0] * n
    for a, b in edges:
        adj[a] |= 1 << b
        adj[b] |= 1 << a
    return adj


def test_a_path_and_a_clique() -> None:
    assert widths(graph(5, [(i, i + 1) for i in range(4)]), [1.0] * 5) == (1.0, 1.0)
    k4 = graph(4, [(a, b) for a in range(4) for b in range(a + 1, 4)])
    assert widths(k4, [1.0] * 4) == (3.0, 3.0)


def test_a_tree_of_parts_beats_a_path_on_the_subdivided_claw() -> None:
    # three legs of two edges from a centre: the smallest tree of pathwidth 2; every tree: 1
    claw = graph(7, [(0, 1), (1, 2), (0, 3), (3, 4), (0, 5), (5, 6)])
    assert widths(claw, [1.0] * 7) == (2.0, 1.0)


def test_a_cycle_keeps_its_lightest_separator() -> None:
    # a 4-cycle keeps two vertices either way: the light opposite corners, not a heavy one
    # (weights of a half, so that counting vertices instead of weighing them gives 2, not 1)
    cycle = graph(4, [(0, 1), (1, 2), (2, 3), (3, 0)])
    assert widths(cycle, [0.5, 5.0, 0.5, 5.0]) == (1.0, 1.0)
