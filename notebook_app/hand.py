"""A spectator's game made one player's notebook: which player the user is, and their hand.

A game started without "You are" (a player recording before picking up their cards, a phone
handed to a player) gets ``me`` and ``my_cards`` in its setup, as ``clue-notebook/1`` has them
from the start; every entry stays as it was recorded. The hand is refused, each problem naming
its field as the Game screen labels it, where it is not the player's whole hand or where the log
already places one of its cards elsewhere.

>>> from solver.editions import Dealing, editions, new_game
>>> from solver.game import Reveal
>>> deck = editions()["clue-classic"].deck
>>> log = GameLog(new_game(deck, ("Ann", "Bob", "Cat"), Dealing.CLASSIC),
...               (Reveal("Bob", ("Rope",)),))
>>> mine = ("Mrs. White", "Rope", "Hall", "Lounge", "Knife", "Study")
>>> with_hand(log, "Ann", mine, FIELDS).game.me
Traceback (most recent call last):
solver.errors.InvalidLogError: Your cards: Rope is Bob's, as the log shows (tap its cell on \
the Grid to see why)
>>> with_hand(log, "Ann", mine[:2], FIELDS).game.me
Traceback (most recent call last):
solver.errors.InvalidLogError: Your cards: 2 chosen, but Ann was dealt 6 cards
>>> with_hand(log, "Ann", ("Mr. Green", "Mrs. White", *mine[2:]), FIELDS).game.my_cards
('Mrs. White', 'Mr. Green', 'Knife', 'Lounge', 'Hall', 'Study')
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from solver.errors import InvalidLogError
from solver.game import ENVELOPE, SIDE, GameLog
from solver.i18n import _, list_said, ngettext
from solver.logfile import check
from solver.notebook import Grid, Knowledge, Notebook
from solver.values import replace

FIELDS = {"me": "You are", "my_cards": "Your cards"}
"""The fields' labels the messages name (the Game screen gives its own, translated)."""


def with_hand(log: GameLog, player: str | None, cards: Collection[str],
              fields: Mapping[str, str], grid: Grid | None = None,
              ignored: Collection[int] = ()) -> GameLog:
    """``log`` as ``player``'s notebook holding ``cards`` (kept in deck order), its entries as
    they are; `InvalidLogError` listing every problem, each after the label ``fields`` gives
    its field (``me``, ``my_cards``): no player chosen, a hand not of the size dealt, a card
    unknown or face up, a card the log (``grid``, worked out here when not given, without the
    entries ``ignored`` past a clash) places with another owner or not with ``player``; then
    a hand that clashes with entries of the log only together."""
    game = log.game
    you, yours = fields["me"], fields["my_cards"]
    if player is None or player not in game.player_names:
        raise InvalidLogError([_("{field}: choose which player you are").format(field=you)])
    mine = tuple(c for c in game.deck if c in set(cards))
    new = replace(log, game=replace(game, me=player, my_cards=mine))
    problems: list[str] = []
    dealt = game.capacity(player)
    if len(mine) != dealt:
        problems.append(ngettext("{field}: {chosen} chosen, but {player} was dealt {count} card",
                                 "{field}: {chosen} chosen, but {player} was dealt {count} cards",
                                 dealt).format(field=yours, chosen=len(mine), player=player,
                                               count=dealt))
    try:
        check(new)
    except InvalidLogError as err:
        problems += [named(p, fields) for p in err.problems]
    if problems:
        raise InvalidLogError(problems)
    if grid is None:
        with Notebook(game, log.events) as notebook:
            grid = notebook.grid(without=ignored)
    problems = [placed for card in mine if (placed := elsewhere(grid, player, card, yours))]
    if problems:
        raise InvalidLogError(problems)
    with Notebook(new.game, new.events) as notebook:
        if notebook.consistent(without=ignored):
            return new
        clash = notebook.conflict(without=ignored)
    raise InvalidLogError([_("{field}: these cards and entries {entries} cannot all be true; "
                             "check the entries and your cards").format(
        field=yours, entries=list_said(f"#{n}" for n in clash))])


def mine_label(count: int) -> str:
    """The label of the user's cards, which says how many they were dealt."""
    return ngettext("Your {count} card", "Your {count} cards", count).format(count=count)


def elsewhere(grid: Grid, player: str, card: str, field: str) -> str | None:
    """Why ``player`` cannot hold ``card`` as the log stands (``grid``), or ``None``."""
    if grid[card, player] is not Knowledge.NO:
        return None
    holder = grid.holder(card)
    if holder == ENVELOPE:
        said = _("{field}: {card} is in the envelope, as the log shows (tap its cell on the "
                 "Grid to see why)")
    elif holder == SIDE:
        said = _("{field}: {card} is a side card, as the log shows (tap its cell on the Grid "
                 "to see why)")
    elif holder is not None:
        said = _("{field}: {card} is {owner}'s, as the log shows (tap its cell on the Grid to "
                 "see why)")
    else:
        said = _("{field}: the log shows that {player} does not hold {card} (tap its cell on "
                 "the Grid to see why)")
    return said.format(field=field, card=card, owner=holder, player=player)


def named(problem: str, fields: Mapping[str, str]) -> str:
    """A setup problem (``my_cards[2]: unknown card 'X'``) with its field's label.

    >>> named("my_cards: card 'Rope' is also face up", {"my_cards": "Your 4 cards"})
    "Your 4 cards: card 'Rope' is also face up"
    """
    field, said, rest = problem.partition(": ")
    label = fields.get(field.split("[", 1)[0])
    return f"{label}: {rest}" if said and label else problem
