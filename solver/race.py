"""The race: how likely each other player could already name the whole envelope.

A player knows what the table heard (every suggestion, who passed, who refuted, accusations,
hands revealed to all), their own hand, the cards shown to them, and the side cards they looked
at. I do not know their hand, nor which card another player showed them, but every deal my
notebook allows says: draw deals in proportion to their weight (`solver.advice.sample`), read
each opponent's hand off the deal, let each refuter they asked show one of the named cards they
hold (uniformly, as the refuter model assumes; the card itself when I saw it, and the first in
order under the forum host's rule), and ask the SAT model whether that opponent's view leaves a
single envelope. The chance is the share of drawn deals in which it does.

Deals are weighed as players play, not only as the rules allow: by default (``honest``) the
draw assumes every other player names only cards they do not hold, since a player who names
their own cards learns less and players mostly ask about what they have not seen. A player my
notebook has seen naming a card they hold is taken as a bluffer and drawn without that
assumption; if the assumption contradicts the log, the draw goes without it altogether.
Without it, deals where a player named their own cards keep their full weight, and the race
says too little: in simulated games it gave 4-34% to opponents who knew in 33-40% of such
moments (docs/strategy.md).

`accuse_or_wait` weighs the chance that my likeliest envelope is right against the chance that
somebody else names it before my next turn.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pysat.solvers import Solver

from .advice import accuse as check_accusation
from .advice import sample
from .cards import CATEGORIES
from .errors import ContradictionError, InvalidLogError
from .game import (
    ENVELOPE,
    FIRST_IN_ORDER,
    SIDE,
    Accusation,
    Event,
    GameLog,
    Note,
    Reveal,
    SidePeek,
    Suggestion,
    Triple,
)
from .i18n import Message, _, say
from .limits import RACE_VIEWS, RACE_WORK
from .model import DealModel
from .notebook import SOLVER
from .odds import DealMatrix, Odds, grid_of, odds
from .values import replace

SAMPLES = 400
"""Deals drawn to estimate the race (standard error at most 0.025 per player)."""


@dataclass(frozen=True)
class Race:
    """For each player, the chance they could name the whole envelope now."""

    players: Mapping[str, float]
    """Player -> chance, in seating order (every player but me)."""
    samples: int
    """How many deals the chances were read from."""
    out: tuple[str, ...] = ()
    """Players who have accused wrongly: they may know, but can no longer win."""

    def threat(self) -> float:
        """The chance that at least one player still in the game could name it now (the players
        taken as independent)."""
        miss = 1.0
        for name, chance in self.players.items():
            if name not in self.out:
                miss *= 1.0 - chance
        return 1.0 - miss

    def to_json(self) -> dict[str, Any]:
        """``{"players": {name: chance}, "samples": n, "out": [names]}``."""
        return {
            "players": {name: round(p, 4) for name, p in self.players.items()},
            "samples": self.samples,
            "out": list(self.out),
        }


def public_events(log: GameLog) -> tuple[Event, ...]:
    """What everyone at the table heard: suggestions with their passes and refuters but no card
    shown and no side card named, accusations, and whole hands revealed to all."""
    events: list[Event] = []
    for event in log.events:
        if isinstance(event, Suggestion):
            peek = None if event.side_peek is None else SidePeek(event.side_peek.slot)
            events.append(replace(event, shown=None, shown_by_rule=None, side_peek=peek))
        elif isinstance(event, Accusation) or (isinstance(event, Reveal) and event.whole_hand):
            events.append(event)
    return tuple(events)


class _Table:
    """The public SAT model, and the views of one drawn deal per player."""

    def __init__(self, log: GameLog, rng: random.Random) -> None:
        game = log.game
        self.log = log
        self.rng = rng
        public = replace(game, me=None, my_cards=())
        self.model = DealModel(public)
        for event in public_events(log):
            self.model.add(event)
        self.solver = Solver(name=SOLVER, bootstrap_with=self.model.clauses)
        self.selectors = list(self.model.selectors)
        self.live = self.model.live_cards
        self.my_slots: dict[int, str] = {}
        """Side-card slots I have looked at (2-player game), and what lay there."""
        for event in log.events:
            if isinstance(event, Suggestion) and event.side_peek and event.side_peek.card:
                self.my_slots[event.side_peek.slot] = event.side_peek.card
        self.known: dict[tuple[Any, ...], bool] = {}

    def close(self) -> None:
        self.solver.delete()

    def knows(self, player: str, deal: Mapping[str, str]) -> bool:
        """Whether ``player`` could name the envelope of ``deal`` from their view of the game
        (the refuters' choices and the side slots they looked at drawn at random)."""
        holds = self.model.holds
        facts = self._facts(player, deal)
        envelope = tuple(c for c in self.live if deal[c] == ENVELOPE)
        key = (player, tuple(sorted(facts)), envelope)
        if key not in self.known:
            base = self.selectors + facts
            self.known[key] = not any(
                self.solver.solve(assumptions=[*base, -holds(ENVELOPE, card)]) for card in envelope
            )
        return self.known[key]

    def open_cards(self, player: str, deal: Mapping[str, str]) -> frozenset[str]:
        """The cards ``player`` could still find in the envelope, from their view of ``deal``."""
        holds = self.model.holds
        base = self.selectors + self._facts(player, deal)
        return frozenset(
            c for c in self.live
            if deal[c] != player and self.solver.solve(assumptions=[*base, holds(ENVELOPE, c)])
        )

    def _facts(self, player: str, deal: Mapping[str, str]) -> list[int]:
        """What ``player`` knows in ``deal``: their hand, the cards shown to them (drawn when I
        did not see them), the side cards they looked at."""
        holds = self.model.holds
        facts = [holds(player, c) if deal[c] == player else -holds(player, c) for c in self.live]
        facts += self._shown(player, deal)
        facts += [holds(SIDE, c) for c in self._peeked(player, deal)]
        return facts

    def _shown(self, player: str, deal: Mapping[str, str]) -> list[int]:
        """Facts from the cards shown to ``player``: the card, or a uniform pick among the
        refuter's matches when I did not see it; under the first-in-order rule, the earlier
        categories the refuter lacks."""
        holds = self.model.holds
        game = self.log.game
        facts: list[int] = []
        for event in self.log.events:
            if not isinstance(event, Suggestion) or event.by != player:
                continue
            refuter = event.refuted_by
            if refuter is None:
                continue
            card = event.shown
            if card is None:
                matches = [c for c in event.cards if deal.get(c) == refuter]
                if not matches:  # a face-up card only: nothing to read from this deal
                    continue
                card = self.rng.choice(matches)
            if card not in self.live:
                continue
            facts.append(holds(refuter, card))
            if event.shown_by_rule == FIRST_IN_ORDER:
                rank = CATEGORIES.index(game.category_of(card))
                facts += [
                    -holds(refuter, c)
                    for c in event.cards
                    if c in self.live and CATEGORIES.index(game.category_of(c)) < rank
                ]
        return facts

    def _peeked(self, player: str, deal: Mapping[str, str]) -> list[str]:
        """The side cards ``player`` looked at: what I saw in a slot I looked at too, else a
        uniform pick among the side cards whose slot nobody has told me."""
        slots = [p.slot for p in self.log.side_peeks(player)]
        if not slots:
            return []
        free = [c for c in self.live if deal[c] == SIDE and c not in self.my_slots.values()]
        self.rng.shuffle(free)
        return [self.my_slots[s] if s in self.my_slots else free.pop() for s in slots]


def _deals(log: GameLog, drawn: DealMatrix) -> list[dict[str, str]]:
    owners = log.game.owners
    return [
        {card: owners[o] for card, o in zip(drawn.cards, row.tolist(), strict=True) if o >= 0}
        for row in drawn.owners
    ]


def draw_size(samples: int | None, opponents: int) -> int:
    """Deals to draw for the race among ``opponents``: ``samples``, or by default `SAMPLES` cut
    to `RACE_VIEWS` views (at least 100); an asked-for size past the budget `RACE_WORK` is
    refused.

    >>> draw_size(None, 5), draw_size(None, 15), draw_size(2000, 5), draw_size(600, 15)
    (400, 133, 2000, 600)
    """
    if samples is None:
        return min(SAMPLES, max(100, RACE_VIEWS // max(1, opponents)))
    fits = max(100, RACE_WORK // max(1, opponents))
    if samples > fits:
        raise InvalidLogError([
            _("--samples: {samples} deals x {opponents} players is more than "
              "the race's budget of {budget} views; draw at most {fits} "
              "deals").format(
                  samples=f"{samples:,}", opponents=opponents, budget=f"{RACE_WORK:,}",
                  fits=f"{fits:,}")
        ])
    return samples


def honest_play(log: GameLog) -> GameLog:
    """``log`` with a note, for each other player, that they hold none of the cards they named
    in their suggestions; not for a player my notebook knows holds one of them (a bluffer).

    The notes are an assumption about play, not a deduction: only the race's draw uses them.
    """
    game = log.game
    named: dict[str, set[str]] = {}
    for event in log.events:
        if isinstance(event, Suggestion) and event.by != game.me:
            named.setdefault(event.by, set()).update(event.cards)
    if not named:
        return log
    grid = grid_of(log)
    face_up = set(game.face_up)
    notes: list[Event] = []
    for player, cards in named.items():
        if any(grid.holder(c) == player for c in cards):
            continue
        lacks = tuple(c for c in game.deck if c in cards and c not in face_up)
        if lacks:
            notes.append(Note(player, lacks=lacks, text="names only cards they do not hold"))
    return GameLog(game, (*log.events, *notes))


def sample_play(log: GameLog, samples: int, *, seed: int = 0, honest: bool = True) -> DealMatrix:
    """Deals drawn from my notebook as players play: with ``honest``, under `honest_play`
    (without it when that contradicts the log)."""
    if honest:
        try:
            return sample(honest_play(log), samples, seed=seed)
        except ContradictionError:
            pass
    return sample(log, samples, seed=seed)


def race(log: GameLog, *, samples: int | None = None, seed: int = 0,
         drawn: DealMatrix | None = None, honest: bool = True) -> Race:
    """For every player but me (every player in a spectator's log), the chance they could name
    the whole envelope now, over ``samples`` deals drawn from my notebook (or ``drawn``; by
    default as many as the work budget allows, `draw_size`), players taken to name only cards
    they do not hold unless seen otherwise (``honest``, `honest_play`)."""
    game = log.game
    players = [n for n in game.player_names if n != game.me]
    samples = samples if samples is not None else draw_size(None, len(players))
    out = tuple(
        dict.fromkeys(e.by for e in log.events if isinstance(e, Accusation) and not e.correct)
    )
    solved = any(isinstance(e, Accusation) and e.correct for e in log.events)
    if solved:  # a correct accusation was said aloud: everyone knows
        return Race(dict.fromkeys(players, 1.0), 0, out)
    drawn = drawn if drawn is not None else sample_play(log, samples, seed=seed, honest=honest)
    deals = _deals(log, drawn)
    table = _Table(log, random.Random(seed))
    try:
        hits = {n: sum(table.knows(n, deal) for deal in deals) for n in players}
    finally:
        table.close()
    return Race({n: hits[n] / len(deals) for n in players}, len(deals), out)


SHOW_SAMPLES = 60
"""Deals drawn to judge what the asker deduces from the card I show."""


def open_after_showing(log: GameLog, asker: str, cards: Sequence[str], *,
                       samples: int = SHOW_SAMPLES, seed: int = 0) -> dict[str, float]:
    """For each card of ``cards`` (mine): how many envelopes ``asker`` is expected to still have
    open once I show it to them, over deals drawn from my notebook (their hand and the cards
    others showed them read off each deal). An envelope is open while each of its cards is;
    their count is the product of the open cards per category, and seeing a card closes the
    share of envelopes that hold it (nothing, when they had already ruled it out)."""
    game = log.game
    drawn = sample(log, samples, seed=seed)
    table = _Table(log, random.Random(seed))
    totals = dict.fromkeys(cards, 0.0)
    deals = _deals(log, drawn)
    try:
        for deal in deals:
            open_ = table.open_cards(asker, deal)
            per = {cat: sum(game.category_of(c) is cat for c in open_) for cat in CATEGORIES}
            envelopes = per[CATEGORIES[0]] * per[CATEGORIES[1]] * per[CATEGORIES[2]]
            for card in cards:
                closed = envelopes / per[game.category_of(card)] if card in open_ else 0.0
                totals[card] += envelopes - closed
    finally:
        table.close()
    return {card: total / len(deals) for card, total in totals.items()}


# --- accuse or wait --------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """Whether to accuse now, from the chance of being right and the race."""

    accuse: bool
    """Accuse now (True) or wait for another turn."""
    triple: Triple
    """The envelope to name: the certain one, or the likeliest."""
    right: float
    """The chance that ``triple`` is the envelope."""
    threat: float
    """The chance that another player still in the game could name it before my next turn."""
    race: Race | None
    """Each player's chance (``None`` when the envelope is certain)."""

    def reason(self) -> str:
        """One line a player can follow, in the current language."""
        return self.said().render()

    def said(self) -> Message:
        """`reason` kept unrendered, to show in whatever language is asked for later."""
        if self.race is None:
            return say("the envelope is certain: accuse now")
        leader = max(
            (n for n in self.race.players if n not in self.race.out),
            key=lambda n: self.race.players[n] if self.race else 0.0,
            default=None,
        )
        right, threat = f"{self.right:.0%}", f"{self.threat:.0%}"
        odds = (say("accuse now: right {right}, someone else solves first {threat}",
                    right=right, threat=threat) if self.accuse else
                say("wait: right {right}, someone else solves first {threat}",
                    right=right, threat=threat))
        if leader is None:
            return odds
        chance = self.race.players[leader]
        if chance >= 0.005:
            return say("{verdict}; {player} may already know: {chance}", verdict=odds,
                       player=leader, chance=f"{chance:.0%}")
        return say("{verdict}; nobody seems to know it yet", verdict=odds)


def accuse_or_wait(log: GameLog, *, samples: int | None = None, seed: int = 0,
                   race_of: Race | None = None, found: Odds | None = None) -> Verdict:
    """Accuse now when the envelope is certain, or when the chance my likeliest envelope is
    right is at least the chance that nobody else names it before my next turn.

    Waiting wins at best when nobody solves first (chance ``1 - threat``); accusing wins with
    chance ``right``. The threat counts only what the others could already know (`race`), so it
    errs towards waiting. ``found`` is the log's odds when the caller has them already.
    """
    grid = grid_of(log)
    if grid.accusation_safe:
        envelope = grid.envelope()
        triple = tuple(str(envelope[cat]) for cat in CATEGORIES)
        return Verdict(True, (triple[0], triple[1], triple[2]), 1.0, 0.0, None)
    result = found if found is not None else odds(log, grid=grid)
    s, w, r, chance = result.envelope_odds[0]
    current = race_of if race_of is not None else race(log, samples=samples, seed=seed)
    threat = current.threat()
    right = float(chance)
    return Verdict(right >= 1.0 - threat, (s, w, r), right, threat, current)


def accusation_verdict(log: GameLog, triple: Sequence[str], **kwargs: Any) -> Verdict:
    """`accuse_or_wait` for a chosen triple (the CLI's ``accuse``): its own chance of being
    right, weighed against the same race (both from the same odds, computed once)."""
    found = kwargs.pop("found", None)
    if found is None and not grid_of(log).accusation_safe:
        found = odds(log)
    verdict = accuse_or_wait(log, found=found, **kwargs)
    check = check_accusation(log, triple, found=found)
    right = float(check.probability)
    return dataclasses.replace(verdict, triple=check.triple, right=right,
                   accuse=check.safe or right >= 1.0 - verdict.threat)


__all__ = [
    "SAMPLES",
    "SHOW_SAMPLES",
    "Race",
    "Verdict",
    "accusation_verdict",
    "accuse_or_wait",
    "draw_size",
    "honest_play",
    "open_after_showing",
    "public_events",
    "race",
    "sample_play",
]
