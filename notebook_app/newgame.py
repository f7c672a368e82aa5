"""Setting up a new game from what the user typed: names, card lists, hand sizes.

>>> parse_names("Ann, Bob\\nCat\\n\\n")
('Ann', 'Bob', 'Cat')
>>> log = build_game(custom_deck("Plum, Green", "Rope", "Hall"), ("Ann", "Bob"), (1, 0),
...                  me="Ann", my_cards=("Green",))
>>> log.game.capacity("Ann")
1
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from solver.cards import CATEGORIES, Category, Deck
from solver.editions import Deal, Dealing, deal, new_game
from solver.errors import InvalidLogError
from solver.game import GameLog
from solver.i18n import N_, _
from solver.logfile import check, load

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
"""Example logs shipped with the project."""


INVISIBLE = r"\s\u200b\u200c\u200d\u2060\ufeff\u2066-\u2069"
EDGES = re.compile(rf"^[{INVISIBLE}]+|[{INVISIBLE}]+$")
"""Trimmed off a typed name's ends: spaces of any width (every one `str.strip` takes: thin and
narrow no-break ones too), and the invisible characters a name copied from a chat or a web
page may bring along (zero-width space and joiners, the byte-order mark, and the isolates a
messaging app wraps a name in, which a name may not hold, `solver.limits`, and which change
nothing of how it reads; an override does, and is refused, not dropped)."""


def parse_names(text: str) -> tuple[str, ...]:
    """Names one per line or separated by commas, trimmed (`EDGES`), blanks dropped, each in
    Unicode's composed form (NFC): "é" typed as "e" and a combining accent is the same name as
    "é", so two players who look alike on every screen are refused as one name listed twice.

    >>> parse_names("Jose\u0301, Jos\u00e9\u200b, \u2009Jos\u00e9\u202f") == ("Jos\u00e9",) * 3
    True
    >>> parse_names("\u2068Emma\u2069, \u2067Noa\u2069")
    ('Emma', 'Noa')
    """
    names = (unicodedata.normalize("NFC", EDGES.sub("", name)) for name in re.split(r"[,\n]", text))
    return tuple(name for name in names if name)


def custom_deck(suspects: str, weapons: str, rooms: str) -> Deck:
    """A deck from three typed lists (one card per line or comma-separated)."""
    return Deck(parse_names(suspects), parse_names(weapons), parse_names(rooms))


NUMBERED = {
    Category.SUSPECT: N_("Suspect {number}"),
    Category.WEAPON: N_("Weapon {number}"),
    Category.ROOM: N_("Place {number}"),
}
"""The name of a card the forum deck needs and nobody typed yet."""


def forum_sizes(players: int) -> tuple[int, int, int]:
    """The forum variant's deck for ``players``: as many suspects and weapons, 3 more places."""
    return players, players, players + 3


def forum_filled(deck: Deck, players: int) -> Deck:
    """``deck`` made the forum variant's deck for ``players``: each category's names cut to the
    size needed, the missing cards numbered (a number no card of the deck has yet).

    >>> filled = forum_filled(custom_deck("Plum, Green, Peach", "Rope", ""), 2)
    >>> filled.suspects, filled.weapons
    (('Plum', 'Green'), ('Rope', 'Weapon 2'))
    >>> filled.rooms
    ('Place 1', 'Place 2', 'Place 3', 'Place 4', 'Place 5')
    """
    taken = set(deck.cards)
    lists: list[tuple[str, ...]] = []
    for category, size in zip(CATEGORIES, forum_sizes(players), strict=True):
        names = list(deck.of(category)[:size])
        number = len(names)
        while len(names) < size:
            number += 1
            name = _(NUMBERED[category]).format(number=number)
            if name not in taken:
                names.append(name)
                taken.add(name)
        lists.append(tuple(names))
    return Deck(*lists)


def dealt_sizes(rule: Dealing, deck: Deck, names: tuple[str, ...]) -> tuple[int, ...]:
    """Hand sizes the dealing rule gives, or ``()`` when it cannot deal to these players."""
    try:
        return deal(rule, len(deck), len(names)).hand_sizes
    except InvalidLogError:
        return ()


def dealing(rule: Dealing, deck: Deck, names: tuple[str, ...]) -> Deal | InvalidLogError:
    """How ``rule`` deals ``deck`` to these players, or why it cannot (the error, not raised).

    >>> dealing(Dealing.REFRESH, custom_deck("A, B", "C, D", "E, F, G"), ("Ann", "Bob", "Cat"))
    Deal(hand_sizes=(1, 1, 1), face_up=1, side_cards=0)
    >>> dealing(Dealing.TWO_PLAYER, custom_deck("A", "C", "E"), ("Ann", "Bob", "Cat")).problems
    ('players: the 2-player rule needs 2 players, got 3',)
    """
    try:
        return deal(rule, len(deck), len(names))
    except InvalidLogError as err:
        return err


def build_game(
    deck: Deck,
    names: tuple[str, ...],
    hand_sizes: tuple[int, ...],
    *,
    rule: Dealing = Dealing.CLASSIC,
    me: str | None = None,
    my_cards: tuple[str, ...] = (),
    face_up: tuple[str, ...] = (),
    title: str | None = None,
    edition: str | None = None,
) -> GameLog:
    """A validated empty log; `InvalidLogError` lists every problem by field and value.

    The 2-player rule sets up its 4 side cards; other rules have none.
    """
    game = new_game(
        deck, names, rule, me=me, my_cards=my_cards if me is not None else (),
        face_up=face_up, title=title or None, edition_name=edition, hand_sizes=hand_sizes,
    )
    log = GameLog(game)
    check(log)
    return log


EXAMPLE_TITLES = {
    "classic-four-players-notes": N_("Clue with notes, four players"),
    "classic-six-players": N_("Friday night Clue, six players"),
    "forum-gostya-iz-budushchego": N_("Forum game “Guest from the Future” (Polina's notes)"),
    "refresh-four-players": N_("Sunday Cluedo, four players (Veera's notes)"),
    "refresh-two-players": N_("Two players: Aino and Niko, four side cards (Aino's notes)"),
    "rules-example-1": N_("Rules example 1: Niko cannot answer, Veera shows Aino the rope"),
    "rules-example-2-four-players": N_(
        "Rules example 2 (four players): I ask about my own cards, nobody shows"),
    "rules-example-2-two-players": N_(
        "Rules example 2 (two players): Niko cannot answer, I look at side card 1"),
    "rules-example-3": N_("Rules example 3: Veera shows Oona, later I see Niko's Regina"),
    "rules-example-4": N_("Rules example 4: Niko's pistol and Oona's garage, then Veera shows "
                          "Aino"),
}
"""Each example's title as the home screen lists it, in the reader's language (a log's own
title is in the language the game was played in; its file name is in none)."""


def examples() -> dict[str, Path]:
    """The example logs by file name (without ``.json``)."""
    return {p.stem: p for p in sorted(EXAMPLES.glob("*.json"))}


def example_title(name: str) -> str:
    """An example's title in the current language; one left out of `EXAMPLE_TITLES`: its log's
    own title, else its file name."""
    if name in EXAMPLE_TITLES:
        return _(EXAMPLE_TITLES[name])
    path = examples().get(name)
    title = load(path).game.title if path is not None else None
    return title or name


def open_example(name: str) -> GameLog:
    """Load an example by name; `InvalidLogError` when it is missing or broken."""
    path = examples().get(name)
    if path is None:
        raise InvalidLogError([_("example: no example called {name}").format(name=repr(name))])
    return load(path)
