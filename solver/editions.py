"""Edition presets (card names are data, in ``editions/*.json``) and the four dealing rules."""

from __future__ import annotations

import json
from collections.abc import Sequence
from enum import Enum
from functools import cache
from pathlib import Path

from .cards import CATEGORIES, Deck
from .errors import InvalidLogError
from .game import Game, Player
from .i18n import N_, _
from .limits import MAX_PLAYERS, shorten
from .values import Value, replace


class Dealing(Enum):
    """How the cards left after the envelope end up."""

    CLASSIC = "classic"
    """All dealt round the table; earlier seats get the extra cards."""
    REFRESH = "refresh"
    """Refresh 2012, 3+ players: equal hands, the leftovers lie face up."""
    TWO_PLAYER = "two-player"
    """Refresh 2012, 2 players or teams: 4 face-down side cards, the rest split evenly."""
    FORUM = "forum"
    """Play-by-post: the host keeps the envelope, everyone gets 3 cards."""


class Edition(Value):
    """A named box of cards and the dealing rule it comes with."""

    __slots__ = ("dealing", "deck", "language", "name", "title")
    name: str
    """Short name used in logs (``"edition": "clue-classic"``) and on the command line."""
    title: str
    """Human title, as the preset file writes it (logs and ``--json`` keep it so)."""
    language: str
    """Language code of the card names."""
    dealing: Dealing
    """The box's dealing rule (3+ players; the 2-player rule applies to 2 players in Refresh)."""
    deck: Deck
    """The cards."""

    def __init__(self, name: str, title: str, language: str, dealing: Dealing,
                 deck: Deck) -> None:
        self._set(name, title, language, dealing, deck)

    @property
    def shown_title(self) -> str:
        """The title in the reader's language: an English box's title is translated (the
        editions in other languages keep theirs, card names are never translated).

        >>> from .i18n import speaking
        >>> with speaking("fi"):
        ...     edition("clue-classic").shown_title != edition("clue-classic").title
        True
        """
        return _(self.title) if self.title in TRANSLATED_TITLES else self.title


TRANSLATED_TITLES = frozenset({
    N_("Clue (US, classic box)"),
    N_("Cluedo (UK, classic box)"),
})
"""The English boxes' titles, as the catalogs translate them (each preset in English is here:
tests/test_i18n.py)."""


class Deal(Value):
    """Hand sizes and the cards left out of hands that a dealing rule produces."""

    __slots__ = ("face_up", "hand_sizes", "side_cards")
    hand_sizes: tuple[int, ...]
    """Cards per seat, in seating order."""
    face_up: int
    """How many cards lie face up."""
    side_cards: int
    """How many cards lie face down beside the board."""

    def __init__(self, hand_sizes: tuple[int, ...], face_up: int = 0, side_cards: int = 0) -> None:
        self._set(hand_sizes, face_up, side_cards)


PRESETS = Path(__file__).parent / "presets"
"""One ``NAME.json`` file per preset, named as the preset."""


@cache
def editions() -> dict[str, Edition]:
    """Every preset, by name."""
    found: dict[str, Edition] = {}
    for entry in sorted(PRESETS.glob("*.json")):
        preset = _read(entry)
        found[preset.name] = preset
    return found


@cache
def preset(name: str) -> Edition | None:
    """The preset called ``name``, or ``None``: its own file is read alone (a log names one
    preset, and reading every preset would cost each command's start-up).

    >>> preset("clue-classic") == editions()["clue-classic"], preset("monopoly"), preset("x" * 300)
    (True, None, None)
    """
    if f"{name}.json" in _preset_files():  # a name from a log is never made a path unchecked
        found = _read(PRESETS / f"{name}.json")
        if found.name == name:
            return found
    return editions().get(name)


@cache
def _preset_files() -> frozenset[str]:
    """The presets' file names (``NAME.json``): a name too long for a path, or holding a
    separator or a NUL, is none of them (it made ``stat`` raise, a traceback)."""
    return frozenset(entry.name for entry in PRESETS.glob("*.json"))


def _read(path: Path) -> Edition:
    data = json.loads(path.read_text(encoding="utf-8"))
    cards = data["cards"]
    deck = Deck(*(tuple(cards[c.plural]) for c in CATEGORIES))
    return Edition(data["name"], data["title"], data["language"], Dealing(data["dealing"]), deck)


def edition(name: str, *, field: str = "edition") -> Edition:
    """The preset called ``name``; `InvalidLogError` naming ``field`` if there is none."""
    found = preset(name)
    if found is None:
        known = ", ".join(sorted(editions()))
        raise InvalidLogError([_("{field}: unknown edition {name} (known: {known})").format(
            field=field, name=shorten(name), known=known)])
    return found


def forum_deck(
    players: int,
    suspects: tuple[str, ...] | None = None,
    weapons: tuple[str, ...] | None = None,
    places: tuple[str, ...] | None = None,
    *,
    extra_places: int = 3,
) -> Deck:
    """The forum variant's deck: N suspects, N weapons, N + 3 places for N players.

    Names not given are numbered. Given lists are cut to the needed size; a host who wants more
    cards passes a larger ``extra_places`` or builds a `Deck` directly.

    >>> forum_deck(2).rooms
    ('Place 1', 'Place 2', 'Place 3', 'Place 4', 'Place 5')
    """
    if players < 2:
        raise InvalidLogError([_("players: the forum variant needs at least 2 players, got "
                                 "{players}").format(players=players)])
    if players > MAX_PLAYERS:  # before naming a card: new --forum 99999999999 never returned
        raise InvalidLogError(["players: " + _("{count} players; a game may have at most "
                                               "{limit}").format(count=f"{players:,}",
                                                                 limit=MAX_PLAYERS)])
    sizes = (players, players, players + extra_places)
    given = (suspects, weapons, places)
    labels = ("Suspect", "Weapon", "Place")
    lists: list[tuple[str, ...]] = []
    for size, names, label in zip(sizes, given, labels, strict=True):
        if names is None:
            lists.append(tuple(f"{label} {i}" for i in range(1, size + 1)))
        elif len(names) < size:
            raise InvalidLogError([_("{field}: {players} players need {size} names, got {count}")
                                   .format(field=f"{label.lower()}s", players=players, size=size,
                                           count=len(names))])
        else:
            lists.append(tuple(names[:size]))
    return Deck(*lists)


def deal(rule: Dealing, cards: int, players: int) -> Deal:
    """Hand sizes for ``players`` seats when ``cards`` cards (envelope too) are dealt by ``rule``.

    >>> deal(Dealing.CLASSIC, 21, 4).hand_sizes
    (5, 5, 4, 4)
    >>> deal(Dealing.REFRESH, 21, 4)
    Deal(hand_sizes=(4, 4, 4, 4), face_up=2, side_cards=0)
    >>> deal(Dealing.TWO_PLAYER, 21, 2)
    Deal(hand_sizes=(7, 7), face_up=0, side_cards=4)
    >>> deal(Dealing.FORUM, 21, 6).hand_sizes
    (3, 3, 3, 3, 3, 3)
    """
    if players < 2:
        raise InvalidLogError([_("players: at least 2 players are needed, got {players}").format(
            players=players)])
    dealt = cards - len(CATEGORIES)
    if dealt < 0:
        raise InvalidLogError([_("cards: {cards} cards cannot fill the envelope").format(
            cards=cards)])
    side = 0
    if rule is Dealing.TWO_PLAYER:
        if players != 2:
            raise InvalidLogError([_("players: the 2-player rule needs 2 players, got "
                                     "{players}").format(players=players)])
        side = min(4, dealt)
        dealt -= side
    if rule is Dealing.REFRESH:
        return Deal((dealt // players,) * players, face_up=dealt % players)
    if rule is Dealing.FORUM and dealt % players:
        raise InvalidLogError([
            _("players: the forum variant gives everyone the same number of "
              "cards (3 from a deck of N suspects, N weapons and N + 3 "
              "places), but {dealt} cards do not split among {players} "
              "players; use a deck made for {players} (new --forum "
              "{players}) or the classic rule").format(dealt=dealt, players=players)
        ])
    base, extra = divmod(dealt, players)
    return Deal(tuple(base + (seat < extra) for seat in range(players)), side_cards=side)


def rule_for(preset: Edition, players: int) -> Dealing:
    """The dealing rule a preset uses at this table size (Refresh switches to 2-player)."""
    if preset.dealing is Dealing.REFRESH and players == 2:
        return Dealing.TWO_PLAYER
    return preset.dealing


DEALING = "dealing"
"""The setup's top-level field naming the rule a game was dealt by (a `Dealing` value), where
its cards do not say it: a deck of no preset dealt by another rule than the classic one, or a
preset dealt by another rule than its own (`new_game`). The contract lets the project add
fields; a log without it is read as before (docs/log-format.md)."""


def dealt_by(game: Game) -> Dealing | None:
    """The rule ``game``'s setup says it was dealt by (`DEALING`), or ``None`` where it does not
    say (or names no rule this version knows).

    >>> from .cards import Deck
    >>> deck = Deck(tuple("ABCDEF"), tuple("GHIJKL"), tuple("MNOPQRSTU"))
    >>> dealt_by(new_game(deck, ("Ann", "Bob", "Cid"), Dealing.REFRESH))
    <Dealing.REFRESH: 'refresh'>
    >>> dealt_by(new_game(deck, ("Ann", "Bob", "Cid"), Dealing.CLASSIC)) is None
    True
    """
    said = game.extra.get(DEALING)
    return next((rule for rule in Dealing if rule.value == said), None)


def new_game(
    deck: Deck,
    names: tuple[str, ...],
    rule: Dealing,
    *,
    me: str | None = None,
    my_cards: tuple[str, ...] = (),
    face_up: tuple[str, ...] = (),
    title: str | None = None,
    edition_name: str | None = None,
    hand_sizes: Sequence[int] | None = None,
) -> Game:
    """A setup with hand sizes filled in by ``rule``, or as given (a table that dealt its own
    way); the 2-player rule sets up the side cards. Validate it with `solver.logfile.check`.
    Where the cards do not say which rule dealt them (a custom deck dealt by another rule than
    its shape implies, `forum_dealt`: a deck typed in for a themed box, 6, 6 and 9 cards at six
    players, has the forum's; a preset by another than its own), the setup says it
    (`DEALING`): the rule sheet, and how the game ends, go with it (`solver.ending`).

    >>> new_game(forum_deck(2), ("Ann", "Bob"), Dealing.CLASSIC, hand_sizes=(4, 2)).players
    (Player(name='Ann', hand_size=4), Player(name='Bob', hand_size=2))
    """
    if hand_sizes is None:
        dealt = deal(rule, len(deck), len(names))
        sizes, side = dealt.hand_sizes, dealt.side_cards
    elif len(hand_sizes) != len(names):
        raise InvalidLogError([_("hand sizes: {count} players need {count} sizes, "
                                 "got {got}").format(
                                     count=len(names), got=len(hand_sizes))])
    else:
        sizes = tuple(hand_sizes)
        two = rule is Dealing.TWO_PLAYER
        side = deal(rule, len(deck), len(names)).side_cards if two else 0
    players = tuple(Player(n, s) for n, s in zip(names, sizes, strict=True))
    box = preset(edition_name) if edition_name is not None else None
    game = Game(
        deck,
        players,
        me=me,
        my_cards=my_cards,
        face_up=face_up,
        side_cards=side,
        title=title,
        edition=edition_name,
    )
    if box is not None:
        implied: tuple[Dealing, ...] = (box.dealing, rule_for(box, len(names)))
    else:  # the cards' shape: a classic-shaped deck of 6, 6 and 9 at six has the forum's
        implied = (Dealing.FORUM if forum_dealt(game) else Dealing.CLASSIC,)
    return game if rule in implied else replace(game, extra={DEALING: rule.value})


def forum_dealt(game: Game) -> bool:
    """Whether ``game`` was set up by the forum variant's rule: its setup says so (`dealt_by`:
    the rule it plays by, as `solver.ending` reads it), or it says nothing and its edition deals
    that way, or a deck of no boxed edition has the forum's shape (N suspects, N weapons, N + 3
    or more places, 3 cards each). Its third category is places, not rooms: the forum has no
    board.

    >>> forum_dealt(new_game(forum_deck(4), ("A", "B", "C", "D"), Dealing.FORUM))
    True
    >>> classic = editions()["clue-classic"].deck  # six players hold 3 cards each here too
    >>> forum_dealt(new_game(classic, tuple("ABCDEF"), Dealing.CLASSIC))
    False
    """
    said = dealt_by(game)
    if said is not None:
        return said is Dealing.FORUM
    found = editions().get(game.edition or "")
    if found is not None:
        return found.dealing is Dealing.FORUM
    deck, n = game.deck, len(game.players)
    boxed = any(p.deck == deck and p.dealing is not Dealing.FORUM for p in editions().values())
    return (
        not boxed
        and len(deck.suspects) == len(deck.weapons) == n
        and len(deck.rooms) >= n + 3
        and all(p.hand_size == 3 for p in game.players)
        and not game.face_up
        and not game.side_cards
    )
