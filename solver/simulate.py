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
from dataclasses import dataclass, field
from enum import StrEnum

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
    Note,
    Reveal,
    SidePeek,
    Suggestion,
    Triple,
)
from .logfile import check
from .notebook import Grid, Notebook
from .odds import odds
from .values import replace

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
    weapon, room (the rule is recorded whoever asked). The card shown is recorded only when the
    user suggested or refuted.
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
            FIRST_IN_ORDER if host else None,  # the host's posts say so to all
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
    notes: float = 0.0,
    absence: Absence | None = None,
    finish: bool = False,
) -> GameLog:
    """Simulate ``turns`` turns clockwise from the first seat and return the user's log.

    Each turn the suggester picks ``per_turn`` triples with ``strategy`` (random by default) and
    the table answers (`answer`); with ``directed`` (forum variant) each suggestion goes to one
    other player chosen at random. After a turn, with probability ``wrong_accusations``, an
    opponent of the user accuses wrongly (said aloud; they stop taking turns but keep
    answering), with probability ``reveals`` another player's card is revealed to the user, and
    with probability ``notes`` the user notes something learned outside the rules (`true_note`).
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
            if notes and game.me is not None and rng.random() < notes:
                note = true_note(game, deal, rng)
                if note is not None:
                    log = _add(log, notebook, note)
        return log
    finally:
        if notebook is not None:
            notebook.close()


def true_note(game: Game, deal: TrueDeal, rng: random.Random) -> Note | None:
    """Something the user learns about another player outside the rules, true of ``deal``: a
    card seen when it was dropped (holds), a glimpse of a card's corner (holds one of two or
    three), or table talk such as "I have no weapons" (lacks every card of a category).
    ``None`` when no other player holds a card."""
    others = [n for n in game.player_names if n != game.me and deal.hand(n)]
    if not others:
        return None
    player = rng.choice(others)
    hand = deal.hand(player)
    kind = rng.choice(("holds", "holds_one_of", "lacks"))
    if kind == "lacks":
        category = rng.choice(CATEGORIES)
        if not any(game.category_of(c) is category for c in hand):
            return Note(player, lacks=game.deck.of(category),
                        text=f"{player} said they have no {category.plural}")
        kind = "holds_one_of"
    card = rng.choice(hand)
    if kind == "holds":
        return Note(player, holds=(card,), text=f"saw it when {player} dropped it")
    decoys = [c for c in game.deck.of(game.category_of(card)) if c not in hand]
    glimpse = [card, *rng.sample(decoys, min(len(decoys), rng.randint(1, 2)))]
    rng.shuffle(glimpse)
    return Note(player, holds_one_of=tuple(glimpse), text="glimpsed the corner of the card")


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


# --- playing to win: a table of opponents who keep their own notebooks -----------------------

Chooser = Callable[[GameLog, random.Random], Triple]
"""My suggestion from my log so far, with my own dice."""
Shower = Callable[[GameLog, str, Triple, random.Random], str]
"""The card I show: my log, the asker, the cards they named (I hold one or more), my dice."""


class Opponent(StrEnum):
    """How the simulated opponents keep their notes."""

    PERFECT = "perfect"
    """This engine's notebook over what they saw; they ask about their likeliest envelope cards
    (exact odds) and accuse as soon as the envelope is certain."""
    PAPER = "paper"
    """A paper notebook: they cross off the cards they have seen (their hand, the face-up
    cards, cards shown to them) and nothing else (no passes, no counting); they ask about
    cards not crossed off and accuse when one card per category is left."""
    BLUFFING = "bluffing"
    """Perfect notebooks, but in `BLUFF_RATE` of their suggestions they name one of their own
    cards in place of their likeliest card of its category (a category they hold a card of,
    at random): the bluff real players are advised to make."""


BLUFF_RATE = 0.3
"""The share of a bluffing opponent's suggestions that name one of their own cards."""


class Dice:
    """Separate random streams per purpose and player, so that my choices never shift the
    table's dice: every strategy meets the same deal, the same opponents' tie-breaks and the
    same refuters' picks (for as long as the game itself stays the same)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._streams: dict[tuple[str, str], random.Random] = {}

    def __call__(self, purpose: str, player: str = "") -> random.Random:
        """The stream for ``purpose`` (deal, ask, show, mine) and ``player``."""
        key = (purpose, player)
        if key not in self._streams:
            self._streams[key] = random.Random(f"{self.seed}:{purpose}:{player}")
        return self._streams[key]


@dataclass(frozen=True)
class Moment:
    """The start of one of my turns, before I act: what a rule watching the game may read."""

    turn: int
    """The table's turn number (0-based, every seat's turn counts)."""
    log: GameLog
    """My log so far."""
    certain: bool
    """Whether my notebook says the accusation is safe."""
    envelope: Triple
    """The true envelope (for scoring a rule, never for playing)."""
    knows: Mapping[str, bool]
    """Opponents with a perfect notebook (bluffing or not) still playing -> whether their
    notebook is certain now."""
    answered: bool = False
    """After the answer to my suggestion of this turn (I may still accuse before the others
    move), not at the start of my turn."""
    solved: tuple[str, ...] = ()
    """Other players who have accused correctly already: at a real table the game is over here
    (the simulator plays on to measure my turns to certainty, without their accusation in my
    log), so a rule watching should not score this moment."""


@dataclass(frozen=True)
class Outcome:
    """How a game played to the end went."""

    winner: str | None
    """The first player whose notebook was certain on their own turn, at its start or after
    their suggestion's answer (they accuse then and win); ``None`` if nobody within the turn
    limit."""
    solved_at: Mapping[str, int]
    """Player -> the table's turn on which they could first accuse correctly."""
    heard: Mapping[str, int]
    """Player -> how many of the table's suggestions they had heard when they could first
    accuse (their own last one included when it settled it)."""
    my_suggestions: int | None
    """My suggestions until my notebook was certain (the one whose answer settled it
    included; ``None``: never within the turn limit)."""
    log: GameLog
    """My log of the whole game (to my certainty, or the turn limit)."""
    truth: TrueDeal
    """The deal."""
    table: tuple[Suggestion, ...]
    """Every suggestion with the card shown, whoever saw it (what nobody's log holds)."""


class _Seat:
    """One opponent's notes: a notebook (perfect) or the cards crossed off (paper)."""

    def __init__(self, game: Game, name: str, hand: tuple[str, ...], kind: Opponent) -> None:
        self.name = name
        self.kind = kind
        self.game = replace(game, me=name, my_cards=hand)
        self.events: list[Event] = []
        self.notebook = Notebook(self.game) if kind is not Opponent.PAPER else None
        self.seen = set(hand) | set(game.face_up)
        self._grid: tuple[int, Grid] | None = None

    def close(self) -> None:
        if self.notebook is not None:
            self.notebook.close()

    def record(self, event: Event) -> None:
        self.events.append(event)
        if self.notebook is not None:
            self.notebook.record(event)
        if isinstance(event, Suggestion) and event.shown is not None:
            self.seen.add(event.shown)

    def grid(self) -> Grid:
        """The notebook's grid, worked out once per event heard."""
        assert self.notebook is not None
        if self._grid is None or self._grid[0] != len(self.events):
            self._grid = (len(self.events), self.notebook.grid())
        return self._grid[1]

    def certain(self) -> bool:
        if self.notebook is not None:
            return self.grid().accusation_safe
        deck = self.game.deck
        return all(sum(c not in self.seen for c in deck.of(cat)) == 1 for cat in CATEGORIES)

    def ask(self, rng: random.Random, bluff: random.Random) -> Triple:
        """The likeliest envelope card of each category (`BLUFFING`: now and then one of
        their own instead, drawn with ``bluff``, a stream of its own so the rest stays paired)."""
        deck = self.game.deck
        if self.notebook is None:
            picks = [rng.choice([c for c in deck.of(cat) if c not in self.seen] or
                                list(deck.of(cat))) for cat in CATEGORIES]
        else:
            log = GameLog(self.game, tuple(self.events))
            chances = odds(log, grid=self.grid()).probabilities
            picks = [max(deck.of(cat), key=lambda c: (float(chances[c][ENVELOPE]), rng.random()))
                     for cat in CATEGORIES]
        if self.kind is Opponent.BLUFFING and bluff.random() < BLUFF_RATE:
            hand = self.game.my_cards
            held = [i for i, cat in enumerate(CATEGORIES) if any(c in hand for c in deck.of(cat))]
            i = bluff.choice(held)
            picks[i] = bluff.choice([c for c in deck.of(CATEGORIES[i]) if c in hand])
        return picks[0], picks[1], picks[2]


def _view(event: Suggestion, player: str) -> Suggestion:
    """The suggestion as ``player`` heard it: the card shown only to the asker and refuter."""
    if player in (event.by, event.refuted_by):
        return event
    return replace(event, shown=None)


def random_show(log: GameLog, asker: str, cards: Triple, rng: random.Random) -> str:
    """Show any of my matching cards, uniformly (the table's rule too)."""
    return rng.choice([c for c in cards if c in log.game.my_cards])


def play_to_win(
    deck: Deck,
    names: Sequence[str],
    me: str,
    seed: int,
    choose: Chooser,
    *,
    show: Shower = random_show,
    opponents: Opponent = Opponent.PERFECT,
    rounds: int = 30,
    watch: Callable[[Moment], None] | None = None,
) -> Outcome:
    """Play a classic game to the end: deal, then turns clockwise from the first seat.

    On my turn I accuse when my notebook is certain, else suggest ``choose``'s triple; I show
    cards by ``show``. Opponents play as ``opponents`` says and refuters among them show a
    uniformly random match. As the rules allow a suggestion and an accusation on the same turn,
    whoever is certain at the start of their turn, or right after the answer to their own
    suggestion, accuses then; the first to do so wins. The game goes on (the winners fall
    silent but keep answering) until I am certain too, so my turns to certainty are known in
    every game. ``watch`` sees each of my turns (`Moment`). Every random
    choice comes from its own stream (`Dice`), so two strategies meet the same table.
    """
    dice = Dice(seed)
    game, truth = random_setup(deck, names, Dealing.CLASSIC, me, dice("deal"))
    seats = {n: _Seat(game, n, truth.hand(n), opponents) for n in names if n != me}
    mine = Notebook(game)
    log = GameLog(game)
    solved: dict[str, int] = {}
    heard: dict[str, int] = {}
    suggestions = 0
    table: list[Suggestion] = []

    def accuses(player: str, turn: int) -> None:
        solved[player] = turn
        heard[player] = len(table)

    def seen(turn: int, certain: bool, answered: bool = False) -> None:
        if watch is not None:
            knows = {n: s.certain() for n, s in seats.items()
                     if s.notebook is not None and n not in solved}
            over = tuple(n for n in solved if n != me)
            watch(Moment(turn, log, certain, truth.envelope, knows, answered, over))

    try:
        for turn in range(rounds * len(names)):
            by = names[turn % len(names)]
            if by == me:
                certain = mine.grid().accusation_safe
                seen(turn, certain)
                if certain:
                    accuses(me, turn)
                    break
                cards = choose(log, dice("mine"))
                suggestions += 1
            else:
                seat = seats[by]
                if by in solved:
                    continue
                if seat.certain():
                    accuses(by, turn)
                    continue
                cards = seat.ask(dice("ask", by), dice("bluff", by))
            event = _answer_all(game, truth, by, cards, me, log, show, dice)
            table.append(event)
            log = log.append(_view(event, me))
            mine.record(_view(event, me))
            for name, seat in seats.items():
                seat.record(_view(event, name))
            # the same turn: the suggester accuses at once if the answer settled it
            if by == me:
                if mine.grid().accusation_safe:
                    accuses(me, turn)
                    break
                seen(turn, False, answered=True)
            elif seats[by].certain():
                accuses(by, turn)
    finally:
        mine.close()
        for seat in seats.values():
            seat.close()
    winner = min(solved, key=solved.__getitem__) if solved else None
    return Outcome(winner, solved, heard, suggestions if me in solved else None, log, truth,
                   tuple(table))


def _answer_all(game: Game, truth: TrueDeal, by: str, cards: Triple, me: str, log: GameLog,
                show: Shower, dice: Dice) -> Suggestion:
    """The whole table's answer, with the card shown whoever saw it."""
    passes: list[str] = []
    for player in game.answer_order(by):
        held = [c for c in cards if truth.owner.get(c) == player]
        if not held:
            passes.append(player)
            continue
        if player == me:
            card = show(log, by, cards, dice("mine-show"))
        else:
            card = dice("show", player).choice(held)
        return Suggestion(by, cards, tuple(passes), player, card)
    return Suggestion(by, cards, tuple(passes))
