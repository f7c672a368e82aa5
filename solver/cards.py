"""Card categories and the deck of one game."""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum

from .values import Value


class Category(Enum):
    """The three kinds of card; one of each goes into the envelope."""

    SUSPECT = "suspect"
    WEAPON = "weapon"
    ROOM = "room"

    @property
    def plural(self) -> str:
        """The key used in the log's ``cards`` object: ``suspects``, ``weapons``, ``rooms``."""
        return self.value + "s"


CATEGORIES: tuple[Category, ...] = (Category.SUSPECT, Category.WEAPON, Category.ROOM)


class Deck(Value):
    """The cards of one game by category, in the order the box (or the user) lists them.

    >>> deck = Deck(("Plum", "Green"), ("Rope",), ("Hall", "Study"))
    >>> deck.category_of("Rope")
    <Category.WEAPON: 'weapon'>
    >>> len(deck)
    5
    """

    __slots__ = ("_category", "rooms", "suspects", "weapons")
    suspects: tuple[str, ...]
    """Suspect cards."""
    weapons: tuple[str, ...]
    """Weapon cards."""
    rooms: tuple[str, ...]
    """Room (place) cards."""
    _category: dict[str, Category]

    def __init__(self, suspects: tuple[str, ...], weapons: tuple[str, ...],
                 rooms: tuple[str, ...]) -> None:
        self._set(suspects, weapons, rooms)
        category: dict[str, Category] = {}
        for cat in CATEGORIES:
            for card in self.of(cat):
                category.setdefault(card, cat)
        object.__setattr__(self, "_category", category)

    def of(self, category: Category) -> tuple[str, ...]:
        """The cards of one category."""
        if category is Category.SUSPECT:
            return self.suspects
        if category is Category.WEAPON:
            return self.weapons
        return self.rooms

    @property
    def cards(self) -> tuple[str, ...]:
        """Every card: suspects, then weapons, then rooms."""
        return self.suspects + self.weapons + self.rooms

    def category_of(self, card: str) -> Category:
        """The category of ``card``; ``KeyError`` for a card not in the deck."""
        return self._category[card]

    def __contains__(self, card: object) -> bool:
        return card in self._category

    def __iter__(self) -> Iterator[str]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.suspects) + len(self.weapons) + len(self.rooms)
