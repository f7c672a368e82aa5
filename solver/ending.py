"""How a game ends, by its box's rule sheet.

A correct accusation ends every game. Wrong accusations end it too, differently by edition:

- the classic sheet (Clue, Cluedo UK, the Japanese and Russian classic boxes): "if every player
  but one has accused wrongly, the last player standing wins";
- Refresh 2012 (Finnish) and the forum variant: the last player still in must still accuse
  correctly; once every player has accused wrongly the murder stays unsolved, no winner.

A setup that says which rule dealt it (`solver.editions.dealt_by`: a custom deck dealt by
another rule than the classic one) ends by that rule's sheet. A box's cards listed in place of
its edition's name end by its sheet. A deck of no preset (a custom deck) ends by the classic
sheet, unless its setup shows another rule: the forum's shape (`forum_dealt`), or cards face up
or aside (only Refresh deals those). Only what ends the game changes here: a wrong accusation
still only excludes its triple (`solver.model`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum
from functools import cache

from .cards import CATEGORIES
from .editions import Dealing, dealt_by, editions, forum_dealt, preset
from .game import ENVELOPE, Accusation, Event, Game, GameLog, Note


class Close(Enum):
    """What ended a game."""

    ACCUSED = "accused"
    """A player accused correctly and won."""
    STANDING = "standing"
    """Every other player accused wrongly: the last player still in won (the classic sheet)."""
    UNSOLVED = "unsolved"
    """Every player accused wrongly: no winner (Refresh 2012, the forum)."""


@dataclass(frozen=True)
class Ending:
    """Where and how a game ended."""

    at: int
    """The event number (from 1) of the accusation that ended it."""
    winner: str | None
    """Who won; ``None`` when nobody did."""
    close: Close
    """What ended it."""


def last_one_wins(game: Game) -> bool:
    """Whether the last player who has not accused wrongly wins without accusing: the classic
    sheet's rule (a custom deck's too, unless it was dealt by another rule: as its setup says,
    `dealt_by`, or as its shape shows).

    >>> from .editions import edition, new_game
    >>> three = ("Ann", "Bob", "Cid")
    >>> def rule(name: str) -> bool:
    ...     box = edition(name)
    ...     return last_one_wins(new_game(box.deck, three, box.dealing, edition_name=name))
    >>> rule("clue-classic-ja"), rule("cluedo-refresh-2012-fi"), rule("cluedo-classic-ru")
    (True, False, True)
    """
    dealing = dealt_by(game)
    if dealing is not None:
        return dealing is Dealing.CLASSIC
    if game.edition is not None:
        box = preset(game.edition)
        dealing = None if box is None else box.dealing
    else:  # a box's cards listed in place of its name
        dealing = _box_dealing().get(frozenset(game.deck.cards))
    if dealing is not None:
        return dealing is Dealing.CLASSIC
    return not (forum_dealt(game) or game.face_up or game.side_cards)


@cache
def _box_dealing() -> dict[frozenset[str], Dealing]:
    """Each box's cards -> how it is dealt: a log may list a box's cards instead of naming its
    edition (the log format lets ``cards`` stand for it), and is the same game."""
    return {frozenset(box.deck.cards): box.dealing for box in editions().values()}


def ending(log: GameLog, without: Collection[int] = ()) -> Ending | None:
    """How the game ended (the first accusation that ended it), ``None`` while it goes on.
    ``without``: event numbers left out (the app's grid past a clash). Entries after the end
    (a last accusation, hands shown) do not change it."""
    game = log.game
    still_in = list(game.player_names)
    last_wins = last_one_wins(game)
    for number, event in enumerate(log.events, 1):
        if not isinstance(event, Accusation) or number in without:
            continue
        if event.correct:
            return Ending(number, event.by, Close.ACCUSED)
        if event.by in still_in:
            still_in.remove(event.by)
        if last_wins and len(still_in) == 1:
            return Ending(number, still_in[0], Close.STANDING)
        if not still_in:
            return Ending(number, None, Close.UNSOLVED)
    return None


def opened(log: GameLog, without: Collection[int] = ()) -> int | None:
    """The entry (its number, from 1) that records the envelope opened once the game was over:
    the first note after the end that the envelope holds three cards (`opens_envelope`); ``None``
    while the game goes on or until it is recorded. The log format has no event of its own for
    it: a note on the envelope is the contract's way to record a fact learned outside the
    suggestion rules, and the three cards are the whole envelope."""
    end = ending(log, without)
    if end is None:
        return None
    return next((n for n, event in enumerate(log.events[end.at:], end.at + 1)
                 if n not in without and opens_envelope(event)), None)


def opens_envelope(event: Event) -> bool:
    """Whether ``event`` says the envelope holds three cards: its whole content."""
    return (isinstance(event, Note) and event.owner == ENVELOPE
            and len(event.holds) == len(CATEGORIES))


def to_open(log: GameLog, without: Collection[int] = ()) -> bool:
    """Whether the envelope is opened now and not yet recorded (`opened`): every player accused
    wrongly (Refresh 2012: "kuoren sisältö katsotaan yhdessä", the envelope is looked at
    together; the forum too, which ends the same way)."""
    end = ending(log, without)
    return end is not None and end.close is Close.UNSOLVED and opened(log, without) is None


def last_in(log: GameLog, without: Collection[int] = ()) -> str | None:
    """The only player who has not accused wrongly, in a game that goes on (a rule sheet where
    they must still accuse correctly to win); ``None`` otherwise."""
    if ending(log, without) is not None:
        return None
    out = {e.by for n, e in enumerate(log.events, 1)
           if isinstance(e, Accusation) and not e.correct and n not in without}
    left = [name for name in log.game.player_names if name not in out]
    return left[0] if len(left) == 1 else None


__all__ = ["Close", "Ending", "ending", "last_in", "last_one_wins", "opened", "opens_envelope",
           "to_open"]
