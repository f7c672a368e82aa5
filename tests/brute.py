"""Ground truth by brute force: enumerate every deal of a small game and keep those the log allows.

Written straight from the rules (`shared/rules.md`), independently of the SAT encoding, so the
engine can be checked against it cell by cell.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, product

from solver.cards import CATEGORIES
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
    face_up = set(game.face_up)
    live = [c for c in game.deck if c not in face_up]
    holders = [(o, game.capacity(o)) for o in game.owners if o != ENVELOPE]
    per_category = [[c for c in game.deck.of(cat) if c not in face_up] for cat in CATEGORIES]
    for triple in product(*per_category):
        rest = [c for c in live if c not in triple]
        for hands in _distribute(rest, holders):
            deal = dict.fromkeys(triple, ENVELOPE)
            deal.update(hands)
            if game.me is None or all(deal.get(c) == game.me for c in game.my_cards):
                yield deal


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
