"""Explanations and probabilities for grid cells, from the engine modules once they exist.

``solver.explain`` and ``solver.odds`` are built in parallel with the app; both imports are
optional, so the app runs (and says what is missing) without them.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from solver.game import GameLog


def _optional(name: str) -> ModuleType | None:
    try:
        return import_module(name)
    except ImportError:
        return None


def explanation(log: GameLog, card: str, owner: str) -> str | None:
    """Why the notebook knows what it knows about one cell, or ``None`` when explanations are
    not available in this version."""
    explain = _optional("solver.explain")
    if explain is None:
        return None
    return str(explain)  # replaced by the real call once solver.explain has landed


def odds(log: GameLog) -> dict[str, dict[str, float]] | None:
    """card -> owner -> probability, or ``None`` when probabilities are not available."""
    return None
