"""Explanations and probabilities for grid cells, from the engine's optional modules.

``solver.explain`` and ``solver.odds`` were built in parallel with the app; both imports are
optional, so the app runs (and says what is missing) in a version without them.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Any, Protocol

from solver.errors import ContradictionError
from solver.game import GameLog
from solver.notebook import Grid, Notebook


class CellExplainer(Protocol):
    """What the app needs of ``solver.explain.Explainer``."""

    def cell(self, card: str, owner: str) -> Any: ...

    def conflict(self) -> Any: ...

    def close(self) -> None: ...


def _optional(name: str) -> ModuleType | None:
    try:
        return import_module(name)
    except ImportError:
        return None


def available(name: str) -> bool:
    """Whether an optional engine module (``solver.explain``, ``solver.odds``) is present."""
    return _optional(name) is not None


def explainer(notebook: Notebook, grid: Grid | None) -> CellExplainer | None:
    """An explainer for the notebook's current events, or ``None`` without ``solver.explain``."""
    explain = _optional("solver.explain")
    if explain is None:
        return None
    made: CellExplainer = explain.Explainer(notebook, grid=grid)
    return made


@dataclass(frozen=True)
class CellOdds:
    """Probabilities for the grid, from ``solver.odds``."""

    probabilities: dict[str, dict[str, float]]
    """card -> owner -> probability that the owner holds the card."""
    exact: bool
    """False when the engine had to sample (very large custom games)."""
    likeliest: tuple[str, str, str, float] | None
    """The most likely envelope and its probability."""


def odds(log: GameLog, grid: Grid) -> CellOdds | None:
    """Probabilities for every cell, or ``None`` without ``solver.odds`` (or for a log that
    clashes)."""
    module = _optional("solver.odds")
    if module is None:
        return None
    try:
        found = module.odds(log, grid=grid)
    except ContradictionError:
        return None
    probabilities = {
        card: {owner: float(p) for owner, p in row.items()}
        for card, row in found.probabilities.items()
    }
    top = found.envelope_odds[0] if found.envelope_odds else None
    likeliest = None if top is None else (top[0], top[1], top[2], float(top[3]))
    return CellOdds(probabilities, bool(found.exact), likeliest)
