"""Setting up the count: the SAT grid settles every forced cell, and what is left is a `Puzzle`.

A puzzle is the open cards with their possible owners, the places left in every hand, the open
"holds at least one of" refutations and notes (and, under the refuter model, the weight of each
seen refutation) and the envelopes ruled out: wrong accusations the grid has not already
excluded, and every triple outside an envelope note's "holds one of".
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Category
from ..game import ENVELOPE, FIRST_IN_ORDER, Accusation, Game, GameLog, Note, Suggestion, Triple
from ..notebook import Grid, Knowledge, Notebook

CHOICE_WEIGHT = 6
"""Refuter model weights are scaled by lcm(1, 2, 3) so that counts stay integers."""


def grid_of(log: GameLog) -> Grid:
    """The SAT grid of the log (`ContradictionError` when no deal fits)."""
    with Notebook(log.game, log.events) as notebook:
        return notebook.grid()


@dataclass(frozen=True)
class Tally:
    """A weight on how many of ``cards`` the player ``owner`` holds (a refutation, or a choice)."""

    owner: int
    cards: tuple[str, ...]
    weights: tuple[int, ...]
    """Weight by count held, index 0..len(cards)."""
    slots: tuple[int, ...] = ()
    """Other programme owners that count as ``owner`` (the envelope's weapon and room slots,
    when ``owner`` is the envelope)."""

    @property
    def holders(self) -> tuple[int, ...]:
        """Every programme owner whose cards count towards the tally."""
        return (self.owner, *self.slots)


@dataclass
class Puzzle:
    """What is left to count once the SAT grid has settled every forced cell."""

    game: Game
    """The setup."""
    owners: tuple[str, ...]
    """``game.owners``; owners are referred to by index into it."""
    envelope: int
    """Index of the envelope in ``owners``."""
    fixed: dict[str, int]
    """card -> owner index for cards whose owner is certain."""
    allowed: dict[str, frozenset[int]]
    """Open cards -> possible owner indices."""
    capacity: list[int]
    """Open places left per owner (the envelope's entry is unused)."""
    tallies: list[Tally]
    """Open refutations (and, under the refuter model, the weights of seen ones)."""
    accusations: list[Triple]
    """Wrong accusations not yet excluded by the grid."""

    def category(self, card: str) -> Category:
        """The category of ``card``."""
        return self.game.category_of(card)


def puzzle(log: GameLog, grid: Grid, *, refuter_model: bool = False) -> Puzzle:
    """Reduce ``log`` to open cards, hand sizes left, open refutations and wrong accusations."""
    game = log.game
    owners = game.owners
    index = {o: i for i, o in enumerate(owners)}
    env = index[ENVELOPE]
    face_up = set(game.face_up)
    fixed: dict[str, int] = {}
    allowed: dict[str, frozenset[int]] = {}
    capacity = [game.capacity(o) for o in owners]
    for card in game.deck:
        if card in face_up:
            continue
        cells = grid.cells[card]
        holder = next((o for o, k in cells.items() if k is Knowledge.YES), None)
        if holder is not None:
            fixed[card] = index[holder]
            capacity[index[holder]] -= 1
        else:
            allowed[card] = frozenset(index[o] for o, k in cells.items() if k is Knowledge.MAYBE)

    def state(owner: int, card: str) -> str:
        if card in fixed:
            return "yes" if fixed[card] == owner else "no"
        return "maybe" if owner in allowed.get(card, ()) else "no"

    tallies: list[Tally] = []
    accusations: list[Triple] = []
    for event in log.events:
        if isinstance(event, Accusation):
            if not event.correct and all(state(env, c) != "no" for c in event.cards):
                accusations.append(event.cards)
            continue
        if isinstance(event, Note):
            # holds and lacks are cells of the grid; "holds one of" is a refutation nobody saw,
            # for any owner (for the envelope, a card in any of its three slots counts)
            one_of = event.holds_one_of
            owner = index[event.owner]
            if not one_of or any(state(owner, c) == "yes" for c in one_of):
                continue
            open_cards = tuple(c for c in one_of if state(owner, c) == "maybe")
            tallies.append(Tally(owner, open_cards, (0,) + (1,) * len(open_cards)))
            continue
        if not isinstance(event, Suggestion) or event.refuted_by is None:
            continue
        refuter = index[event.refuted_by]
        named = [c for c in event.cards if c not in face_up]
        if event.shown is None:
            if any(state(refuter, c) == "yes" for c in named):
                continue
            open_cards = tuple(c for c in named if state(refuter, c) == "maybe")
            tallies.append(Tally(refuter, open_cards, (0,) + (1,) * len(open_cards)))
        elif (
            refuter_model
            and event.shown_by_rule != FIRST_IN_ORDER
            and event.refuted_by != game.me
        ):
            others = [c for c in named if c != event.shown]
            held = 1 + sum(state(refuter, c) == "yes" for c in others)
            open_cards = tuple(c for c in others if state(refuter, c) == "maybe")
            if open_cards:
                weights = tuple(CHOICE_WEIGHT // (held + j) for j in range(len(open_cards) + 1))
                tallies.append(Tally(refuter, open_cards, weights))
    return Puzzle(game, owners, env, fixed, allowed, capacity, tallies, accusations)
