"""Clue Notebook's deduction engine: the game log, editions, and a SAT model of every deal."""

from .cards import CATEGORIES, Category, Deck
from .errors import ClueError, ContradictionError, InvalidLogError
from .game import (
    ENVELOPE,
    SIDE,
    Accusation,
    Event,
    Game,
    GameLog,
    Player,
    Reveal,
    SidePeek,
    Suggestion,
)

__all__ = [
    "CATEGORIES",
    "ENVELOPE",
    "SIDE",
    "Accusation",
    "Category",
    "ClueError",
    "ContradictionError",
    "Deck",
    "Event",
    "Game",
    "GameLog",
    "InvalidLogError",
    "Player",
    "Reveal",
    "SidePeek",
    "Suggestion",
]
