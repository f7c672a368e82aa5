"""The game log: a setup (`Game`) and the events recorded at the table.

Every class here is an immutable value; the SAT model is derived from them and can be rebuilt
at any time. Reading and writing the ``clue-notebook/1`` JSON format lives in `solver.logfile`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from .cards import CATEGORIES, Category, Deck

ENVELOPE = "envelope"
"""The owner name of the envelope in grids and in the ``analyze`` output."""
SIDE = "side"
"""The owner name of the 2-player game's face-down side cards."""
RESERVED_OWNERS = (ENVELOPE, SIDE)

FIRST_IN_ORDER = "first-in-order"
"""``shown_by_rule`` value: the card was the first match in the order suspect, weapon, room."""

Triple = tuple[str, str, str]


@dataclass(frozen=True)
class Player:
    """A seat at the table."""

    name: str
    """Unique name; may equal a card's name."""
    hand_size: int
    """How many cards the player was dealt."""


@dataclass(frozen=True)
class SidePeek:
    """After an unrefuted suggestion in the 2-player game, the suggester looked at a side card."""

    slot: int
    """Which side card (1-based position in the row)."""
    card: str | None = None
    """The card, when the user was the one who looked; ``None`` when the opponent peeked."""


@dataclass(frozen=True)
class Suggestion:
    """A suggestion and its answers, as the user saw them.

    >>> Suggestion("Aino", ("Regina", "köysi", "autotalli"), passes=("Niko",), refuted_by="Veera")
    Suggestion(by='Aino', cards=('Regina', 'köysi', 'autotalli'), passes=('Niko',), \
refuted_by='Veera', shown=None, shown_by_rule=None, side_peek=None)
    """

    by: str
    """Who suggested."""
    cards: Triple
    """Suspect, weapon, room."""
    passes: tuple[str, ...] = ()
    """Everyone who said they could not refute, in the order asked: they hold none of the three."""
    refuted_by: str | None = None
    """Who showed a card, or ``None`` when nobody did."""
    shown: str | None = None
    """The card shown, when the user saw it."""
    shown_by_rule: str | None = None
    """``"first-in-order"`` when the card was chosen by the fixed order suspect, weapon, room."""
    side_peek: SidePeek | None = None
    """2-player game: the side card looked at after nobody refuted."""
    extra: Mapping[str, object] = field(default_factory=dict, repr=False, hash=False)
    """Fields this version does not know, kept so that nothing the user wrote is lost."""


@dataclass(frozen=True)
class Accusation:
    """An accusation said aloud, and whether the envelope matched."""

    by: str
    """Who accused."""
    cards: Triple
    """Suspect, weapon, room."""
    correct: bool = False
    """Whether it was right (the game ends) or wrong (the accuser is out but keeps refuting)."""
    extra: Mapping[str, object] = field(default_factory=dict, repr=False, hash=False)
    """Fields this version does not know."""


@dataclass(frozen=True)
class Reveal:
    """Cards of a player revealed to the user, by a rule or a bonus card."""

    player: str
    """Whose cards."""
    cards: tuple[str, ...]
    """The cards seen."""
    whole_hand: bool = False
    """True when these are all the player's cards (the forum rule for a player who went missing)."""
    extra: Mapping[str, object] = field(default_factory=dict, repr=False, hash=False)
    """Fields this version does not know."""


@dataclass(frozen=True)
class Note:
    """A fact learned outside the suggestion rules: a card seen by accident, a house rule, a
    dropped card. Exactly one of ``holds``, ``lacks`` and ``holds_one_of`` is non-empty.

    >>> Note("Bob", lacks=("Rope",), text="house rule")
    Note(owner='Bob', holds=(), lacks=('Rope',), holds_one_of=(), text='house rule')
    """

    owner: str
    """A player, ``"envelope"`` or ``"side"``."""
    holds: tuple[str, ...] = ()
    """The owner holds every one of these cards."""
    lacks: tuple[str, ...] = ()
    """The owner holds none of these cards."""
    holds_one_of: tuple[str, ...] = ()
    """The owner holds at least one of these cards (any cards, any categories)."""
    text: str | None = None
    """An optional remark kept with the event."""
    extra: Mapping[str, object] = field(default_factory=dict, repr=False, hash=False)
    """Fields this version does not know."""

    @property
    def relation(self) -> NoteRelation:
        """Which list the note gives: ``"holds"``, ``"lacks"`` or ``"holds_one_of"`` (the first
        non-empty one; ``"holds"`` for an empty note, which `solver.logfile.check` refuses).

        >>> Note("envelope", holds_one_of=("Rope", "Hall")).relation
        'holds_one_of'
        """
        if self.lacks and not self.holds:
            return "lacks"
        if self.holds_one_of and not self.holds and not self.lacks:
            return "holds_one_of"
        return "holds"

    @property
    def listed(self) -> tuple[str, ...]:
        """The cards of the note's list (see `relation`)."""
        return tuple(getattr(self, self.relation))


NoteRelation = Literal["holds", "lacks", "holds_one_of"]
NOTE_RELATIONS: tuple[NoteRelation, ...] = ("holds", "lacks", "holds_one_of")
"""The three kinds of note, as their JSON field names."""

Event = Suggestion | Accusation | Reveal | Note
EventType = Literal["suggestion", "accusation", "reveal", "note"]


@dataclass(frozen=True)
class Game:
    """The setup of one game: cards, seating, and what the user knows before the first turn."""

    deck: Deck
    """Cards by category."""
    players: tuple[Player, ...]
    """Seating order, clockwise: the order of turns and of refutations."""
    me: str | None = None
    """Whose notebook this is; ``None`` for a spectator (public information only)."""
    my_cards: tuple[str, ...] = ()
    """The user's own cards."""
    face_up: tuple[str, ...] = ()
    """Leftover cards lying face up for everyone to see."""
    side_cards: int = 0
    """Face-down side cards (4 in the 2-player Refresh game)."""
    title: str | None = None
    """A name for the game."""
    edition: str | None = None
    """The preset the cards came from, if any."""
    extra: Mapping[str, object] = field(default_factory=dict, repr=False, hash=False)
    """Top-level fields this version does not know."""

    @property
    def player_names(self) -> tuple[str, ...]:
        """Player names in seating order."""
        return tuple(p.name for p in self.players)

    @property
    def owners(self) -> tuple[str, ...]:
        """Every place a card can be: the players, the envelope, and the side pile if any."""
        side = (SIDE,) if self.side_cards else ()
        return (*self.player_names, ENVELOPE, *side)

    def capacity(self, owner: str) -> int:
        """How many cards ``owner`` holds."""
        if owner == ENVELOPE:
            return len(CATEGORIES)
        if owner == SIDE:
            return self.side_cards
        return next(p.hand_size for p in self.players if p.name == owner)

    def category_of(self, card: str) -> Category:
        """The category of a card of this game's deck."""
        return self.deck.category_of(card)

    def answer_order(self, by: str) -> tuple[str, ...]:
        """Who answers a suggestion by ``by``: everyone else, clockwise from ``by``'s left.

        >>> deck = Deck(("Plum",), ("Rope",), ("Hall",))
        >>> game = Game(deck, (Player("Ann", 0), Player("Bob", 0), Player("Cy", 0)))
        >>> game.answer_order("Bob")
        ('Cy', 'Ann')
        """
        names = self.player_names
        seat = names.index(by)
        return names[seat + 1 :] + names[:seat]


@dataclass(frozen=True)
class GameLog:
    """A setup and the events recorded so far, in the order they happened (numbered from 1)."""

    game: Game
    """The setup."""
    events: tuple[Event, ...] = ()
    """What happened, in order."""

    def append(self, event: Event) -> GameLog:
        """This log with one more event."""
        return replace(self, events=(*self.events, event))

    def upto(self, count: int) -> GameLog:
        """The log as it stood after its first ``count`` events."""
        return replace(self, events=self.events[:count])

    def side_peeks(self, by: str) -> tuple[SidePeek, ...]:
        """The side cards ``by`` looked at after unanswered suggestions, in order (2-player game).

        >>> deck = Deck(("Plum",), ("Rope",), ("Hall",))
        >>> game = Game(deck, (Player("Ann", 0), Player("Bob", 0)), side_cards=2)
        >>> log = GameLog(game, (Suggestion("Ann", ("Plum", "Rope", "Hall"), ("Bob",),
        ...                                 side_peek=SidePeek(2)),))
        >>> log.side_peeks("Ann"), log.side_peeks("Bob")
        ((SidePeek(slot=2, card=None),), ())
        """
        return tuple(
            e.side_peek
            for e in self.events
            if isinstance(e, Suggestion) and e.by == by and e.side_peek is not None
        )

    def unpeeked_slots(self, by: str) -> tuple[int, ...]:
        """The side-card slots ``by`` has not looked at yet, in row order: a peek takes one of
        these (a different side card each time); empty when all have been seen or there are none.

        >>> deck = Deck(("Plum",), ("Rope",), ("Hall",))
        >>> game = Game(deck, (Player("Ann", 0), Player("Bob", 0)), side_cards=3)
        >>> log = GameLog(game, (Suggestion("Ann", ("Plum", "Rope", "Hall"), ("Bob",),
        ...                                 side_peek=SidePeek(2)),))
        >>> log.unpeeked_slots("Ann"), log.unpeeked_slots("Bob")
        ((1, 3), (1, 2, 3))
        """
        peeked = {peek.slot for peek in self.side_peeks(by)}
        return tuple(s for s in range(1, self.game.side_cards + 1) if s not in peeked)

    def shown_to(self, player: str) -> tuple[str, ...]:
        """The cards the user (``game.me``) has shown ``player``, each once, in the order last
        shown (the most recent last); empty for a spectator's log.

        >>> deck = Deck(("Plum", "Green"), ("Rope",), ("Hall",))
        >>> game = Game(deck, (Player("Ann", 2), Player("Bob", 1)), me="Ann",
        ...             my_cards=("Plum", "Rope"))
        >>> asked = Suggestion("Bob", ("Plum", "Rope", "Hall"), refuted_by="Ann")
        >>> log = GameLog(game, (replace(asked, shown="Rope"), replace(asked, shown="Plum"),
        ...                      replace(asked, shown="Rope")))
        >>> log.shown_to("Bob"), log.shown_to("Ann")
        (('Plum', 'Rope'), ())
        """
        me = self.game.me
        last: dict[str, int] = {}
        for i, e in enumerate(self.events):
            if (
                me is not None
                and isinstance(e, Suggestion)
                and e.by == player
                and e.refuted_by == me
                and e.shown is not None
            ):
                last[e.shown] = i
        return tuple(sorted(last, key=last.__getitem__))
