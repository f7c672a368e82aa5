"""A simulator of real play: deal the cards, answer suggestions as the table would, log a game.

Everything here knows the true deal, so it is the notebook's opposite: the notebook works from
what the user saw, the simulator produces exactly that view. Used for the example logs, the
benchmarks, and strategy experiments.

>>> import random
>>> from solver.editions import Dealing, editions
>>> rng = random.Random(7)
>>> game, truth = random_setup(editions()["clue-classic"].deck, ("Ann", "Bob", "Cy"),
...                            Dealing.CLASSIC, "Ann", rng)
>>> len(game.my_cards), len(truth.hand("Bob"))
(6, 6)
>>> log = play(game, truth, 12, rng)
>>> len(log.events)
12
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from .cards import CATEGORIES, Deck
from .editions import Dealing, new_game
from .errors import ClueError
from .game import (
    ENVELOPE,
    FIRST_IN_ORDER,
    SIDE,
    Accusation,
    Event,
    Game,
    GameLog,
    Reveal,
    SidePeek,
    Suggestion,
    Triple,
)
from .logfile import check
from .notebook import Notebook

Strategy = Callable[[GameLog, str, random.Random], Triple]
"""Picks the suggester's triple from the log as the user saw it so far."""


@dataclass(frozen=True)
class TrueDeal:
    """Where every card really is: the ground truth a game log is consistent with."""

    owner: Mapping[str, str] = field(hash=False)
    """card -> owner (a player, the envelope or the side pile) for every card not face up."""
    side_slots: tuple[str, ...] = ()
    """The face-down side cards in their row, slot 1 first (2-player game)."""

    def hand(self, owner: str) -> tuple[str, ...]:
        """The cards ``owner`` holds, in deck order."""
        return tuple(card for card, o in self.owner.items() if o == owner)

    @property
    def envelope(self) -> Triple:
        """The answer: suspect, weapon, room (in deck order, which lists categories so)."""
        suspect, weapon, room = self.hand(ENVELOPE)
        return suspect, weapon, room


def random_deal(game: Game, rng: random.Random) -> TrueDeal:
    """A uniformly random deal fitting the setup: face-up cards out, my cards in my hand."""
    return _deal(game, rng)


def _deal(game: Game, rng: random.Random, envelope: Sequence[str] | None = None) -> TrueDeal:
    face_up = set(game.face_up)
    mine = set(game.my_cards) if game.me is not None else set()
    if envelope is None:
        picked = []
        for category in CATEGORIES:
            free = [c for c in game.deck.of(category) if c not in face_up and c not in mine]
            if not free:
                raise ClueError(
                    f"my_cards: no {category.value} is left for the envelope once my cards "
                    f"and the face-up cards are set aside"
                )
            picked.append(rng.choice(free))
        envelope = picked
    owner: dict[str, str] = dict.fromkeys(envelope, ENVELOPE)
    rest = [c for c in game.deck if c not in face_up and c not in mine and c not in owner]
    rng.shuffle(rest)
    seats: list[str] = []
    for player in game.players:
        count = player.hand_size - (len(mine) if player.name == game.me else 0)
        seats.extend([player.name] * count)
    seats.extend([SIDE] * game.side_cards)
    if len(seats) != len(rest):
        raise ClueError(
            f"players: hand sizes and side cards take {len(seats)} cards, "
            f"but {len(rest)} are left to deal"
        )
    owner.update(dict.fromkeys(mine, game.me or ""))
    owner.update(zip(rest, seats, strict=True))
    ordered = {card: owner[card] for card in game.deck if card in owner}
    side = [card for card, o in ordered.items() if o == SIDE]
    rng.shuffle(side)
    return TrueDeal(ordered, tuple(side))


def random_setup(
    deck: Deck,
    names: Sequence[str],
    rule: Dealing,
    me: str | None,
    rng: random.Random,
    *,
    title: str | None = None,
    edition_name: str | None = None,
) -> tuple[Game, TrueDeal]:
    """Shuffle and deal a new game: the envelope, face-up cards (Refresh), side cards, hands.

    ``me`` (or ``None`` for a spectator) gets their whole hand as ``my_cards``.
    """
    envelope = [rng.choice(deck.of(category)) for category in CATEGORIES]
    blank = new_game(deck, tuple(names), rule)
    face_up_count = len(deck) - len(CATEGORIES) - sum(p.hand_size for p in blank.players)
    face_up_count -= blank.side_cards
    rest = [c for c in deck if c not in envelope]
    face_up = set(rng.sample(rest, face_up_count))
    game = new_game(
        deck,
        tuple(names),
        rule,
        me=me,
        face_up=tuple(c for c in deck if c in face_up),
        title=title,
        edition_name=edition_name,
    )
    check(GameLog(game))  # unknown "me", duplicate names...: a clear InvalidLogError
    truth = _deal(game, rng, envelope)
    if me is not None:
        game = replace(game, my_cards=truth.hand(me))
    return game, truth


def random_strategy(log: GameLog, suggester: str, rng: random.Random) -> Triple:
    """Any suspect, any weapon, any room, uniformly (there is no board to restrict rooms)."""
    deck = log.game.deck
    return rng.choice(deck.suspects), rng.choice(deck.weapons), rng.choice(deck.rooms)


def answer(
    game: Game,
    deal: TrueDeal,
    by: str,
    cards: Triple,
    rng: random.Random,
    *,
    to: str | None = None,
    host: bool = False,
    history: Sequence[Event] = (),
) -> Suggestion:
    """The table's answer to ``by`` suggesting ``cards``, as ``game.me`` records it.

    Classic and Refresh: the players to the suggester's left answer in seating order; the first
    who holds one of the cards shows one of their choice. In the 2-player game, when the opponent
    cannot answer, the suggester looks at a side card they have not looked at yet (``history``,
    the events so far, says which). Forum variant: ``to`` names the one player asked; with
    ``host`` the host answers for that absent player with the first match in the order suspect,
    weapon, room. The card shown is recorded only when the user suggested or refuted.
    """
    asked = (to,) if to is not None else game.answer_order(by)
    passes: list[str] = []
    for player in asked:
        held = [c for c in cards if deal.owner.get(c) == player]
        if not held:
            passes.append(player)
            continue
        shown = held[0] if host else rng.choice(held)
        seen = game.me is not None and game.me in (by, player)
        return Suggestion(
            by,
            cards,
            tuple(passes),
            player,
            shown if seen else None,
            FIRST_IN_ORDER if host and seen else None,
        )
    unseen = GameLog(game, tuple(history)).unpeeked_slots(by)
    if not unseen:  # no side cards, or all looked at
        return Suggestion(by, cards, tuple(passes))
    slot = rng.choice(unseen)
    peek = SidePeek(slot, deal.side_slots[slot - 1] if by == game.me else None)
    return Suggestion(by, cards, tuple(passes), side_peek=peek)


@dataclass(frozen=True)
class Absence:
    """Forum variant: a player stops answering; the host answers, then reveals their hand."""

    player: str
    """Who goes missing (never the user)."""
    from_turn: int
    """From this turn (0-based) the player takes no turns and the host answers for them."""
    revealed_at: int | None = None
    """At this turn the host reveals the player's whole hand; nobody asks them after that."""


def play(
    game: Game,
    deal: TrueDeal,
    turns: int,
    rng: random.Random,
    *,
    strategy: Strategy | None = None,
    directed: bool = False,
    per_turn: int = 1,
    wrong_accusations: float = 0.0,
    reveals: float = 0.0,
    absence: Absence | None = None,
    finish: bool = False,
) -> GameLog:
    """Simulate ``turns`` turns clockwise from the first seat and return the user's log.

    Each turn the suggester picks ``per_turn`` triples with ``strategy`` (random by default) and
    the table answers (`answer`); with ``directed`` (forum variant) each suggestion goes to one
    other player chosen at random. After a turn, with probability ``wrong_accusations``, an
    opponent of the user accuses wrongly (said aloud; they stop taking turns but keep
    answering), and with probability ``reveals`` another player's card is revealed to the user.
    Forum variant: ``absence`` makes one player go missing (the host answers for them, then
    reveals their hand). With ``finish`` the user accuses correctly at the start of their first
    turn on which the notebook says the accusation is safe, and the game ends there.
    """
    choose = strategy or random_strategy
    names = game.player_names
    log = GameLog(game)
    out: set[str] = set()
    notebook = Notebook(game) if finish and game.me is not None else None
    try:
        for turn in range(turns):
            suggester = names[turn % len(names)]
            absent = absence.player if absence is not None and turn >= absence.from_turn else None
            revealed = (
                absence is not None
                and absence.revealed_at is not None
                and turn >= absence.revealed_at
            )
            if absence is not None and turn == absence.revealed_at:
                hand = deal.hand(absence.player)
                log = _add(log, notebook, Reveal(absence.player, hand, whole_hand=True))
            if suggester in out or suggester == absent:
                continue
            if notebook is not None and suggester == game.me:
                grid = notebook.grid()
                if grid.accusation_safe:
                    envelope = tuple(c for c in grid.envelope().values() if c is not None)
                    if envelope != deal.envelope:
                        raise ClueError(f"the notebook's safe envelope {envelope} is wrong")
                    return log.append(Accusation(suggester, deal.envelope, correct=True))
            for _ in range(per_turn if directed else 1):
                cards = choose(log, suggester, rng)
                to = None
                if directed:
                    targets = [n for n in names if n != suggester]
                    if revealed:  # nobody asks a player whose whole hand is known
                        targets = [n for n in targets if n != absent]
                    to = rng.choice(targets)
                event = answer(
                    game, deal, suggester, cards, rng,
                    to=to, host=to is not None and to == absent, history=log.events,
                )
                log = _add(log, notebook, event)
            if suggester != game.me and rng.random() < wrong_accusations:
                active = [n for n in names if n not in out and n != game.me]
                guess = _wrong_guess(game, deal, suggester, rng)
                if len(active) > 2 and guess is not None:
                    log = _add(log, notebook, Accusation(suggester, guess))
                    out.add(suggester)
            if game.me is not None and rng.random() < reveals:
                others = [n for n in names if n != game.me and deal.hand(n)]
                if others:
                    player = rng.choice(others)
                    reveal = Reveal(player, (rng.choice(deal.hand(player)),))
                    log = _add(log, notebook, reveal)
        return log
    finally:
        if notebook is not None:
            notebook.close()


def _add(log: GameLog, notebook: Notebook | None, event: Event) -> GameLog:
    if notebook is not None:
        notebook.record(event)
    return log.append(event)


def _wrong_guess(game: Game, deal: TrueDeal, accuser: str, rng: random.Random) -> Triple | None:
    """A plausible wrong accusation: the answer with one or two categories guessed wrong.

    Avoids the accuser's own cards and face-up cards; ``None`` when no wrong guess exists.
    """
    guess = list(deal.envelope)
    for i in rng.sample(range(len(CATEGORIES)), len(CATEGORIES)):
        others = [
            c
            for c in game.deck.of(CATEGORIES[i])
            if c != guess[i] and c not in game.face_up and deal.owner.get(c) != accuser
        ]
        if others:
            guess[i] = rng.choice(others)
            if rng.random() < 0.7:  # usually only one category is wrong
                break
    if tuple(guess) == deal.envelope:
        return None
    return guess[0], guess[1], guess[2]
