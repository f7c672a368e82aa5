"""The benchmark's calibration figures: the mean calibration error and what a perfectly
calibrated race would show at the same moments."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))

import bench_strategy as bench


def test_the_error_weighs_each_bins_gap_by_its_share() -> None:
    # said 0.5 twice, knew once: no gap; said 0.95 twice, knew never: a gap of 0.95, half the pairs
    points = [(0.5, True), (0.5, False), (0.95, False), (0.95, False)]
    assert abs(bench.calibration_error(points) - 0.95 / 2) < 1e-12
    assert bench.calibration_error([(0.0, False)] * 5 + [(1.0, True)] * 5) == 0.0


def test_a_certain_race_shows_no_error_by_chance() -> None:
    assert bench.calibrated_error([1.0] * 20) == (0.0, 0.0)


def test_few_moments_show_an_error_by_chance_alone_and_many_less() -> None:
    rng = random.Random(5)
    few = [rng.uniform(0.05, 0.95) for _ in range(40)]
    many = [rng.uniform(0.05, 0.95) for _ in range(2000)]
    typical, high = bench.calibrated_error(few, draws=400)
    assert 0.03 < typical < high < 0.3
    assert bench.calibrated_error(many, draws=100)[0] < typical / 3
