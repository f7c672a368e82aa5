"""Hypothesis strategies for small games of every dealing rule, with every kind of event.

Games are small enough for `tests.brute` to enumerate every deal (at most about ten cards).
Events are played out from a hidden true deal, so logs are consistent, except that
``small_logs(noise=True)`` sometimes corrupts an event to produce contradictions.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from solver.cards import CATEGORIES, Deck
from solver.editions import Dealing, deal
from solver.game import (
    ENVELOPE,
    FIRST_IN_ORDER,
    SIDE,
    Accusation,
    Event,
    Game,
    GameLog,
    Note,
    Player,
    Reveal,
    SidePeek,
    Suggestion,
)
from solver.logfile import check
from solver.values import replace

NAMES = ("Aino", "Niko", "Veera", "Oona")


def _deck(rng: random.Random, sizes: tuple[int, int, int]) -> Deck:
    labels = ("S", "W", "R")
    return Deck(*(tuple(f"{label}{i}" for i in range(1, n + 1))
                  for label, n in zip(labels, sizes, strict=True)))


def _setup(rng: random.Random, rule: Dealing) -> tuple[Game, dict[str, str]]:
    """A setup and its hidden true deal (card -> owner, face-up cards left out)."""
    players = 2 if rule is Dealing.TWO_PLAYER else rng.randint(2, 4)
    if rule is Dealing.FORUM:  # everyone gets the same number of cards
        players = rng.randint(2, 3)
    while True:
        sizes = (rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 4))
        total = sum(sizes)
        if rule is Dealing.FORUM and (total - 3) % players:
            continue
        if 5 <= total <= 10:
            break
    deck = _deck(rng, sizes)
    names = NAMES[:players]
    dealt = deal(rule, total, players)
    side = dealt.side_cards
    if rule is Dealing.TWO_PLAYER:
        side = min(side, rng.randint(1, 2))
    hand_sizes = list(dealt.hand_sizes)
    extra = dealt.side_cards - side
    for i in range(extra):
        hand_sizes[i % players] += 1
    cards = list(deck)
    rng.shuffle(cards)
    envelope = [rng.choice(deck.of(cat)) for cat in CATEGORIES]
    rest = [c for c in cards if c not in envelope]
    face_up = tuple(rest[: dealt.face_up])
    rest = rest[dealt.face_up :]
    truth = dict.fromkeys(envelope, ENVELOPE)
    for name, size in zip(names, hand_sizes, strict=True):
        truth.update(dict.fromkeys(rest[:size], name))
        rest = rest[size:]
    truth.update(dict.fromkeys(rest, SIDE))
    me = rng.choice([*names, None])
    mine = [c for c, o in truth.items() if o == me]
    if me is not None and rng.random() < 0.2:
        mine = mine[: rng.randint(0, len(mine))]
    game = Game(
        deck=deck,
        players=tuple(Player(n, s) for n, s in zip(names, hand_sizes, strict=True)),
        me=me,
        my_cards=tuple(mine) if me else (),
        face_up=face_up,
        side_cards=side,
    )
    return game, truth


def _suggestion(rng: random.Random, game: Game, truth: dict[str, str], rule: Dealing,
                peeked: dict[str, set[int]]) -> Suggestion:
    names = game.player_names
    by = rng.choice(names)
    cards = tuple(rng.choice(game.deck.of(cat)) for cat in CATEGORIES)
    triple = (cards[0], cards[1], cards[2])
    if rule is Dealing.FORUM or rng.random() < 0.15:
        asked = [rng.choice([n for n in names if n != by])]
    else:
        seat = names.index(by)
        asked = [names[(seat + k) % len(names)] for k in range(1, len(names))]
    passes: list[str] = []
    refuter = None
    for player in asked:
        matches = [c for c in triple if truth.get(c) == player]
        if matches:
            refuter = player
            break
        passes.append(player)
    shown = None
    rule_used = None
    peek = None
    if refuter is not None:
        matches = [c for c in triple if truth.get(c) == refuter]
        if rule is Dealing.FORUM and rng.random() < 0.5:
            shown, rule_used = matches[0], FIRST_IN_ORDER
        else:
            shown = rng.choice(matches)
        if by != game.me and refuter != game.me and rng.random() < 0.7:
            shown = None  # the host's rule is kept: it says what the asker was shown
    elif game.side_cards:
        free = [s for s in range(1, game.side_cards + 1) if s not in peeked.setdefault(by, set())]
        if free and rng.random() < 0.8:
            slot = rng.choice(free)
            peeked[by].add(slot)
            side = sorted(c for c, o in truth.items() if o == SIDE)
            card = side[slot - 1] if by == game.me or rng.random() < 0.3 else None
            peek = SidePeek(slot, card)
    return Suggestion(by, triple, tuple(passes), refuter, shown, rule_used, peek)


def _note(rng: random.Random, game: Game, truth: dict[str, str]) -> Note:
    """A true note about any owner (a player, the envelope, the side pile), of any kind; its
    cards may lie face up."""
    owner = SIDE if game.side_cards and rng.random() < 0.3 else rng.choice(game.owners)
    cards = list(game.deck)
    held = [c for c in cards if truth.get(c) == owner]
    lacked = [c for c in cards if truth.get(c) != owner]
    text = rng.choice([None, None, "saw it by accident", "“house rule”"])
    kind = rng.choice(("holds", "lacks", "holds_one_of") if held else ("lacks",))
    if kind == "holds":
        return Note(owner, holds=tuple(rng.sample(held, rng.randint(1, min(2, len(held))))),
                    text=text)
    if kind == "lacks":
        return Note(owner, lacks=tuple(rng.sample(lacked, rng.randint(1, min(3, len(lacked))))),
                    text=text)
    pool = [*rng.sample(lacked, rng.randint(0, min(3, len(lacked)))), rng.choice(held)]
    rng.shuffle(pool)
    return Note(owner, holds_one_of=tuple(pool), text=text)


def _event(rng: random.Random, game: Game, truth: dict[str, str], rule: Dealing,
           peeked: dict[str, set[int]]) -> Event:
    roll = rng.random()
    if roll < 0.12:
        return _note(rng, game, truth)
    if roll < 0.7:
        return _suggestion(rng, game, truth, rule, peeked)
    if roll < 0.85:
        cards = tuple(rng.choice(game.deck.of(cat)) for cat in CATEGORIES)
        triple = (cards[0], cards[1], cards[2])
        correct = all(truth.get(c) == ENVELOPE for c in triple)
        return Accusation(rng.choice(game.player_names), triple, correct)
    player = rng.choice(game.player_names)
    hand = [c for c, o in truth.items() if o == player]
    if not hand:
        return _suggestion(rng, game, truth, rule, peeked)
    whole = rng.random() < 0.3
    shown = hand if whole else rng.sample(hand, rng.randint(1, len(hand)))
    return Reveal(player, tuple(shown), whole)


def _corrupt(rng: random.Random, game: Game, event: Event) -> Event:
    """The same event with one plausible recording mistake."""
    names = game.player_names
    peek = event.side_peek if isinstance(event, Suggestion) else None
    if isinstance(event, Suggestion) and peek and peek.card and rng.random() < 0.7:
        slot = rng.randint(1, game.side_cards)
        return replace(event, side_peek=SidePeek(slot, peek.card))
    if isinstance(event, Reveal) and event.whole_hand and rng.random() < 0.5:
        return replace(event, cards=event.cards[1:] or event.cards)
    if isinstance(event, Suggestion):
        others = [n for n in names if n != event.by]
        if event.refuted_by is None:
            return replace(event, passes=(), refuted_by=rng.choice(others), side_peek=None)
        if event.shown is not None:
            return replace(event, shown=rng.choice(event.cards))
        return replace(event, passes=tuple(n for n in others if n != event.refuted_by)[:1])
    if isinstance(event, Accusation):
        return replace(event, correct=not event.correct)
    if isinstance(event, Note):
        # the same cards, the opposite claim: holds -> lacks, lacks -> one of, one of -> lacks
        if event.holds:
            return replace(event, holds=(), lacks=event.holds)
        if event.lacks:
            return replace(event, lacks=(), holds_one_of=event.lacks)
        return replace(event, holds_one_of=(), lacks=event.holds_one_of)
    return replace(event, player=rng.choice(names))


@st.composite
def small_logs(draw: st.DrawFn, noise: bool = False, max_events: int = 6,
               rule: Dealing | None = None) -> GameLog:
    """A small valid log (all four dealing rules, or only ``rule``; every event kind); with
    ``noise`` maybe contradictory."""
    rule = draw(st.sampled_from(list(Dealing))) if rule is None else rule
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    count = draw(st.integers(0, max_events))
    game, truth = _setup(rng, rule)
    peeked: dict[str, set[int]] = {}
    events = [_event(rng, game, truth, rule, peeked) for _ in range(count)]
    if noise and events and draw(st.booleans()):
        # prefer corrupting the events whose mistakes are subtle: side peeks and whole hands
        subtle = [i for i, e in enumerate(events)
                  if (isinstance(e, Suggestion) and e.side_peek and e.side_peek.card)
                  or (isinstance(e, Reveal) and e.whole_hand)]
        i = rng.choice(subtle) if subtle and rng.random() < 0.5 else rng.randrange(len(events))
        events[i] = _corrupt(rng, game, events[i])
    log = GameLog(game, tuple(events))
    check(log)
    return log


def forum_game(players: int, seed: int) -> GameLog:
    """A 60-event forum game at a table of ``players`` (P1 playing), with directed questions,
    wrong accusations, reveals, notes and a player away for a while: the odds tests' common
    many-player log."""
    from solver.editions import forum_deck
    from solver.simulate import Absence, play, random_setup

    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(1, players + 1))
    game, truth = random_setup(forum_deck(players), names, Dealing.FORUM, "P1", rng)
    return play(game, truth, 60, rng, directed=True, wrong_accusations=0.1, reveals=0.1,
                notes=0.05, absence=Absence(names[-1], 20, 30))
