"""Explanations and probabilities for grid cells, from the engine's optional modules.

``solver.explain`` and ``solver.odds`` were built in parallel with the app; both imports are
optional, so the app runs (and says what is missing) in a version without them.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any, Protocol

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


def explainer(notebook: Notebook, grid: Grid | None) -> CellExplainer | None:
    """An explainer for the notebook's current events, or ``None`` without ``solver.explain``."""
    explain = _optional("solver.explain")
    if explain is None:
        return None
    made: CellExplainer = explain.Explainer(notebook, grid=grid)
    return made
