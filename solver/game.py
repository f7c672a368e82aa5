"""The game log: a setup (`Game`) and the events recorded at the table.

Every class here is an immutable `Value` (a changed copy: `solver.values.replace`); the SAT
model is derived from them and can be rebuilt at any time. Reading and writing the
``clue-notebook/1`` JSON format lives in `solver.logfile`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import Literal

from .cards import CATEGORIES, Category, Deck
from .values import Value, replace

ENVELOPE = "envelope"
"""The owner name of the envelope in grids and in the ``analyze`` output."""
SIDE = "side"
"""The owner name of the 2-player game's face-down side cards."""
RESERVED_OWNERS = (ENVELOPE, SIDE)

FIRST_IN_ORDER = "first-in-order"
"""``shown_by_rule`` value: the card was the first match in the order suspect, weapon, room."""

Triple = tuple[str, str, str]


class Player(Value):
    """A seat at the table."""

    __slots__ = ("hand_size", "name")
    name: str
    """Unique name; may equal a card's name."""
    hand_size: int
    """How many cards the player was dealt."""

    def __init__(self, name: str, hand_size: int) -> None:
        self._set(name, hand_size)


class SidePeek(Value):
    """After an unrefuted suggestion in the 2-player game, the suggester looked at a side card."""

    __slots__ = ("card", "slot")
    slot: int
    """Which side card (1-based position in the row)."""
    card: str | None
    """The card, when the user was the one who looked; ``None`` when the opponent peeked."""

    def __init__(self, slot: int, card: str | None = None) -> None:
        self._set(slot, card)


class Suggestion(Value):
    """A suggestion and its answers, as the user saw them.

    >>> Suggestion("Aino", ("Regina", "köysi", "autotalli"), passes=("Niko",), refuted_by="Veera")
    Suggestion(by='Aino', cards=('Regina', 'köysi', 'autotalli'), passes=('Niko',), \
refuted_by='Veera', shown=None, shown_by_rule=None, side_peek=None)
    """

    __slots__ = (
        "by",
        "cards",
        "extra",
        "passes",
        "refuted_by",
        "shown",
        "shown_by_rule",
        "side_peek",
    )
    by: str
    """Who suggested."""
    cards: Triple
    """Suspect, weapon, room."""
    passes: tuple[str, ...]
    """Everyone who said they could not refute, in the order asked: they hold none of the three."""
    refuted_by: str | None
    """Who showed a card, or ``None`` when nobody did."""
    shown: str | None
    """The card shown, when the user saw it."""
    shown_by_rule: str | None
    """``"first-in-order"`` when the card was chosen by the fixed order suspect, weapon, room."""
    side_peek: SidePeek | None
    """2-player game: the side card looked at after nobody refuted."""
    extra: Mapping[str, object]
    """Fields this version does not know, kept so that nothing the user wrote is lost."""

    def __init__(self, by: str, cards: Triple, passes: tuple[str, ...] = (),
                 refuted_by: str | None = None, shown: str | None = None,
                 shown_by_rule: str | None = None, side_peek: SidePeek | None = None,
                 extra: Mapping[str, object] | None = None) -> None:
        self._set(by, cards, passes, refuted_by, shown, shown_by_rule, side_peek,
                  {} if extra is None else extra)


class Accusation(Value):
    """An accusation said aloud, and whether the envelope matched."""

    __slots__ = ("by", "cards", "correct", "extra")
    by: str
    """Who accused."""
    cards: Triple
    """Suspect, weapon, room."""
    correct: bool
    """Whether it was right (the game ends) or wrong (the accuser is out but keeps refuting)."""
    extra: Mapping[str, object]
    """Fields this version does not know."""

    def __init__(self, by: str, cards: Triple, correct: bool = False,
                 extra: Mapping[str, object] | None = None) -> None:
        self._set(by, cards, correct, {} if extra is None else extra)


class Reveal(Value):
    """Cards of a player revealed to the user, by a rule or a bonus card."""

    __slots__ = ("cards", "extra", "player", "whole_hand")
    player: str
    """Whose cards."""
    cards: tuple[str, ...]
    """The cards seen."""
    whole_hand: bool
    """True when these are all the player's cards (the forum rule for a player who went missing)."""
    extra: Mapping[str, object]
    """Fields this version does not know."""

    def __init__(self, player: str, cards: tuple[str, ...], whole_hand: bool = False,
                 extra: Mapping[str, object] | None = None) -> None:
        self._set(player, cards, whole_hand, {} if extra is None else extra)


class Note(Value):
    """A fact learned outside the suggestion rules: a card seen by accident, a house rule, a
    dropped card. Exactly one of ``holds``, ``lacks`` and ``holds_one_of`` is non-empty.

    >>> Note("Bob", lacks=("Rope",), text="house rule")
    Note(owner='Bob', holds=(), lacks=('Rope',), holds_one_of=(), text='house rule')
    """

    __slots__ = ("extra", "holds", "holds_one_of", "lacks", "owner", "text")
    owner: str
    """A player, ``"envelope"`` or ``"side"``."""
    holds: tuple[str, ...]
    """The owner holds every one of these cards."""
    lacks: tuple[str, ...]
    """The owner holds none of these cards."""
    holds_one_of: tuple[str, ...]
    """The owner holds at least one of these cards (any cards, any categories)."""
    text: str | None
    """An optional remark kept with the event."""
    extra: Mapping[str, object]
    """Fields this version does not know."""

    def __init__(self, owner: str, holds: tuple[str, ...] = (), lacks: tuple[str, ...] = (),
                 holds_one_of: tuple[str, ...] = (), text: str | None = None,
                 extra: Mapping[str, object] | None = None) -> None:
        self._set(owner, holds, lacks, holds_one_of, text, {} if extra is None else extra)

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


class Game(Value):
    """The setup of one game: cards, seating, and what the user knows before the first turn."""

    __slots__ = (
        "deck",
        "edition",
        "extra",
        "face_up",
        "me",
        "my_cards",
        "players",
        "side_cards",
        "title",
    )
    deck: Deck
    """Cards by category."""
    players: tuple[Player, ...]
    """Seating order, clockwise: the order of turns and of refutations."""
    me: str | None
    """Whose notebook this is; ``None`` for a spectator (public information only)."""
    my_cards: tuple[str, ...]
    """The user's own cards."""
    face_up: tuple[str, ...]
    """Leftover cards lying face up for everyone to see."""
    side_cards: int
    """Face-down side cards (4 in the 2-player Refresh game)."""
    title: str | None
    """A name for the game."""
    edition: str | None
    """The preset the cards came from, if any."""
    extra: Mapping[str, object]
    """Top-level fields beyond the contract's, kept as written: those this version does not
    know, and the rule the cards were dealt by where they do not say it
    (`solver.editions.DEALING`)."""

    def __init__(self, deck: Deck, players: tuple[Player, ...], me: str | None = None,
                 my_cards: tuple[str, ...] = (), face_up: tuple[str, ...] = (),
                 side_cards: int = 0, title: str | None = None, edition: str | None = None,
                 extra: Mapping[str, object] | None = None) -> None:
        self._set(deck, players, me, my_cards, face_up, side_cards, title, edition,
                  {} if extra is None else extra)

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


class GameLog(Value):
    """A setup and the events recorded so far, in the order they happened (numbered from 1)."""

    __slots__ = ("events", "game")
    game: Game
    """The setup."""
    events: tuple[Event, ...]
    """What happened, in order."""

    def __init__(self, game: Game, events: tuple[Event, ...] = ()) -> None:
        self._set(game, events)

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
        shown (the most recent last); empty for a spectator's log. A card not noted counts where
        it was the user's only card of the three.

        >>> deck = Deck(("Plum", "Green"), ("Rope",), ("Hall",))
        >>> game = Game(deck, (Player("Ann", 2), Player("Bob", 1)), me="Ann",
        ...             my_cards=("Plum", "Rope"))
        >>> asked = Suggestion("Bob", ("Plum", "Rope", "Hall"), refuted_by="Ann")
        >>> log = GameLog(game, (replace(asked, shown="Rope"), replace(asked, shown="Plum"),
        ...                      replace(asked, shown="Rope")))
        >>> log.shown_to("Bob"), log.shown_to("Ann")
        (('Plum', 'Rope'), ())
        >>> GameLog(game, (Suggestion("Bob", ("Green", "Rope", "Hall"), refuted_by="Ann"),
        ...                )).shown_to("Bob")
        ('Rope',)
        """
        last: dict[str, int] = {}
        for i, cards in self._shown_by_me(player):
            if len(cards) == 1:
                last[cards[0]] = i
        return tuple(sorted(last, key=last.__getitem__))

    def unnoted_to(self, player: str, among: Collection[str] | None = None
                   ) -> tuple[tuple[int, tuple[str, ...]], ...]:
        """Where the user showed ``player`` a card without noting which, of several of theirs:
        (the entry's number, counted from 1, and the user's cards among the three); with
        ``among``, only where one of those may be one of ``among``.

        >>> deck = Deck(("Plum", "Green"), ("Rope",), ("Hall",))
        >>> game = Game(deck, (Player("Ann", 2), Player("Bob", 1)), me="Ann",
        ...             my_cards=("Plum", "Rope"))
        >>> asked = Suggestion("Bob", ("Plum", "Rope", "Hall"), refuted_by="Ann")
        >>> GameLog(game, (asked, replace(asked, shown="Rope"))).unnoted_to("Bob")
        ((1, ('Plum', 'Rope')),)
        >>> GameLog(game, (asked,)).unnoted_to("Bob", among=("Green", "Hall"))
        ()
        """
        return tuple((i + 1, cards) for i, cards in self._shown_by_me(player)
                     if len(cards) > 1 and (among is None or set(cards) & set(among)))

    def _shown_by_me(self, player: str) -> Iterator[tuple[int, tuple[str, ...]]]:
        """Each suggestion of ``player`` the user refuted (its index) with the card shown, or
        where it was not noted, the user's cards among the three."""
        me = self.game.me
        if me is None:
            return
        mine = set(self.game.my_cards)
        for i, e in enumerate(self.events):
            if isinstance(e, Suggestion) and e.by == player and e.refuted_by == me:
                yield i, ((e.shown,) if e.shown else tuple(c for c in e.cards if c in mine))
