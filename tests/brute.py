"""Ground truth by brute force: enumerate every deal of a small game and keep those the log allows.

Written straight from the rules (`shared/rules.md`), independently of the SAT encoding, so the
engine can be checked against it cell by cell.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations, product
from math import comb, prod
from typing import NamedTuple

from solver.cards import CATEGORIES, Deck
from solver.game import (
    ENVELOPE,
    FIRST_IN_ORDER,
    SIDE,
    Accusation,
    Event,
    Game,
    GameLog,
    Note,
    Reveal,
)

Deal = dict[str, str]
"""card -> owner, for every card that is not face up."""


def all_deals(game: Game) -> Iterator[Deal]:
    """Every deal of the setup (envelope one per category, hand sizes, my cards), unfiltered."""
    holders = tuple((o, game.capacity(o)) for o in game.owners if o != ENVELOPE)
    setup = _Setup(game.deck, tuple(game.face_up), holders)
    many = _how_many(setup) > KEPT_DEALS
    if many and game.me is not None:  # dealt again: deal me mine first
        yield from _dealt_with(setup, game.me, game.my_cards)
        return
    every = _dealt(setup) if many else _every_deal(setup)
    for deal in every:
        if game.me is None or all(deal.get(c) == game.me for c in game.my_cards):
            yield deal


class _Setup(NamedTuple):
    """What the deals of a game depend on, whoever's notebook it is: many views of one table
    (each player's, in `tests.test_race`) share it."""

    deck: Deck
    face_up: tuple[str, ...]
    holders: tuple[tuple[str, int], ...]


KEPT_DEALS = 10_000
"""The most deals of one setup kept in memory (`_every_deal`, 8 setups: 25 MB at most); a
larger setup is dealt again on every call. The races' 3-player tables have 2,430."""


@lru_cache(maxsize=8)
def _every_deal(setup: _Setup) -> tuple[Deal, ...]:
    """`_dealt` once per setup (the same deals in the same order): a brute-force race reads
    thousands of views of one small table, and dealing it again for each was most of its time.
    Callers only read the deals."""
    return tuple(_dealt(setup))


def _how_many(setup: _Setup) -> int:
    """How many deals `_dealt` yields."""
    face_up = set(setup.face_up)
    total = prod(sum(c not in face_up for c in setup.deck.of(cat)) for cat in CATEGORIES)
    left = sum(c not in face_up for c in setup.deck) - len(CATEGORIES)
    for _, size in setup.holders:
        if size > left:
            return 0
        total *= comb(left, size)
        left -= size
    return total if left == 0 else 0


def _dealt(setup: _Setup) -> Iterator[Deal]:
    face_up = set(setup.face_up)
    live = [c for c in setup.deck if c not in face_up]
    per_category = [[c for c in setup.deck.of(cat) if c not in face_up] for cat in CATEGORIES]
    for triple in product(*per_category):
        rest = [c for c in live if c not in triple]
        for hands in _distribute(rest, setup.holders):
            deal = dict.fromkeys(triple, ENVELOPE)
            deal.update(hands)
            yield deal


def _dealt_with(setup: _Setup, me: str, mine: Sequence[str]) -> Iterator[Deal]:
    """The deals of `_dealt` that give ``me`` the cards ``mine``, in the same order, without
    dealing the others (a 3-player forum table has 90,720 deals; one player's view, some
    thousand)."""
    taken = set(mine)
    rest = _Setup(setup.deck, (*setup.face_up, *mine),
                  tuple((o, n - len(taken) if o == me else n) for o, n in setup.holders))
    for deal in _dealt(rest):
        yield {**deal, **dict.fromkeys(mine, me)}


def _distribute(cards: Sequence[str], holders: Sequence[tuple[str, int]]) -> Iterator[Deal]:
    if not holders:
        if not cards:
            yield {}
        return
    (owner, size), others = holders[0], holders[1:]
    if size > len(cards):
        return
    for hand in combinations(cards, size):
        rest = [c for c in cards if c not in hand]
        for deal in _distribute(rest, others):
            yield {**deal, **dict.fromkeys(hand, owner)}


def allows(game: Game, events: Sequence[Event], deal: Deal) -> bool:
    """Whether ``deal`` agrees with every event."""
    slot_card: dict[int, str] = {}
    for event in events:
        if isinstance(event, Note):
            held = [deal.get(c) == event.owner for c in (*event.holds, *event.lacks,
                                                          *event.holds_one_of)]
            if event.holds and not all(held):
                return False
            if event.lacks and any(held):
                return False
            if event.holds_one_of and not any(held):
                return False
            continue
        if isinstance(event, Reveal):
            if any(deal.get(c) != event.player for c in event.cards):
                return False
            if event.whole_hand and sum(o == event.player for o in deal.values()) != len(
                event.cards
            ):
                return False
            continue
        in_envelope = all(deal.get(c) == ENVELOPE for c in event.cards)
        if isinstance(event, Accusation):
            if in_envelope != event.correct:
                return False
            continue
        if any(deal.get(c) == p for p in event.passes for c in event.cards):
            return False
        refuter = event.refuted_by
        if refuter is not None:
            if event.shown is not None:
                if deal.get(event.shown) != refuter:
                    return False
                if event.shown_by_rule == FIRST_IN_ORDER:
                    rank = CATEGORIES.index(game.category_of(event.shown))
                    earlier = [c for c in event.cards
                               if CATEGORIES.index(game.category_of(c)) < rank]
                    if any(deal.get(c) == refuter for c in earlier):
                        return False
            elif not any(deal.get(c) == refuter for c in event.cards):
                return False
        peek = event.side_peek
        if peek is not None and peek.card is not None:
            if deal.get(peek.card) != SIDE:
                return False
            if slot_card.setdefault(peek.slot, peek.card) != peek.card:
                return False
    # one card cannot lie in two slots
    return len(set(slot_card.values())) == len(slot_card)


def deals(log: GameLog) -> Iterator[Deal]:
    """Every deal consistent with the whole log."""
    for deal in all_deals(log.game):
        if allows(log.game, log.events, deal):
            yield deal


def consistent(game: Game, events: Sequence[Event]) -> bool:
    """Whether some deal satisfies the setup and these events."""
    return any(allows(game, events, d) for d in all_deals(game))


def brute_grid(log: GameLog) -> dict[str, dict[str, str]] | None:
    """card -> owner -> "yes"/"no"/"maybe" over all consistent deals; ``None`` if there are none."""
    owners_seen: dict[str, set[str]] = {c: set() for c in log.game.deck}
    count = 0
    for deal in deals(log):
        count += 1
        for card, owner in deal.items():
            owners_seen[card].add(owner)
    if count == 0:
        return None
    grid: dict[str, dict[str, str]] = {}
    for card, seen in owners_seen.items():
        grid[card] = {}
        for owner in log.game.owners:
            if owner not in seen:
                grid[card][owner] = "no"
            else:
                grid[card][owner] = "yes" if seen == {owner} else "maybe"
    return grid
