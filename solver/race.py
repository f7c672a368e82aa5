"""The race: how likely each other player could already name the whole envelope.

A player knows what the table heard (every suggestion, who passed, who refuted, accusations,
hands revealed to all), their own hand, the cards shown to them, and the side cards they looked
at. I do not know their hand, nor which card another player showed them, but every deal my
notebook allows says: draw deals in proportion to their weight (`solver.advice.sample`), read
each opponent's hand off the deal, let each refuter they asked show one of the named cards they
hold (uniformly, as the refuter model assumes; the card itself when I saw it, and the first in
order under the forum host's rule), and ask the SAT model whether that opponent's view leaves a
single envelope. The chance is the share of drawn deals in which it does, among those kept:
players accuse as soon as they are certain (the rules allow it right after the answer to their
own suggestion), so a deal in which a player still in the game could have named the envelope
at the end of their last turn is dropped (all are read, flagged, when none is kept). In the
forum variant an accusation is a post of its own, after the answers come in: a player who could
have named the envelope when they posted their last question would have accused instead, but
one its answers told may not have posted since, so their last turn ends as that question is
asked.

Deals are weighed as players play, not only as the rules allow (`Play`): players mostly ask
about cards they have not seen, so a deal in which a player holds a card they named weighs
``bluff`` times as much for each such card (the bluff factor: 1 weighs every deal alike, towards
0 nobody ever names their own cards). Players also seldom name a card they were shown: each
drawn deal, with the hidden choices drawn for it (which card each refuter showed when my log
does not say), weighs ``bluff`` times as much again for every card a player named after it had
been shown to them (`_Table.weight`). The race, the chance that my likeliest envelope is right
and what to show all read this one weighting. Without it the race says too little (deals where
a player learned nothing from their own question weigh in full); as a hard rule ("nobody names
their own cards") it says far too much at a real table, where players do bluff
(docs/strategy.md).

`accuse_or_wait` weighs the chance that my likeliest envelope is right against the chance that
somebody else names it before my next turn.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pysat.solvers import Solver

from .advice import Whom
from .advice import accuse as check_accusation
from .cards import CATEGORIES
from .editions import forum_dealt
from .ending import Close, Ending, ending
from .errors import InvalidLogError
from .game import (
    ENVELOPE,
    FIRST_IN_ORDER,
    SIDE,
    Accusation,
    Event,
    GameLog,
    Reveal,
    SidePeek,
    Suggestion,
    Triple,
)
from .i18n import Chance, Listing, Message, _, say, say_n
from .knowing import knows_surely
from .limits import MAX_SAMPLES, RACE_VIEWS, RACE_WORK, checkpoint
from .model import DealModel
from .notebook import SOLVER, Grid, Knowledge
from .odds import (
    Count,
    DealMatrix,
    Odds,
    OverBudget,
    Puzzle,
    deal_matrix,
    grid_of,
    puzzle,
    sample_deals,
    sampled_odds,
)
from .odds.compiled import kernel, loaded
from .odds.exact import DEFAULT_BUDGET, count_steps, exact_odds
from .odds.programme import Budget, finish
from .odds.setup import Tally
from .values import replace
from .witness import Swaps

SAMPLES = 400
"""Deals drawn to estimate the race (standard error at most 0.025 per player)."""
SURE = 0.995
"""A share of the deals drawn that reads ">99%": only there is logic asked whether it is all
of them (`knows_surely`)."""
Choices = tuple[tuple[str, ...], tuple[str, ...]]
"""One draw of a player's hidden choices in a deal: the card shown at each refutation of their
suggestions that my log does not say (in log order, where the refuter held a named card), and
the side cards they looked at (in order)."""
BLUFF = Fraction(1, 4)
"""The bluff factor: how much a deal weighs for each card a player named while holding it
(chosen from the figures in docs/strategy.md)."""
WIDE = 2 * DEFAULT_BUDGET
"""The most work the count without bluff weights may need for the weighted count to go on past
its first `LOOK` units (`too_wide`)."""
LOOK = 20_000
"""The weighted count's work (in Python: about a tenth of a second) before it asks whether the
count without the weights is too wide, in a process that has not loaded the compiled count (one
that has asks first): most counts at 3-6 players end sooner and never ask."""


@dataclass(frozen=True)
class Race:
    """For each player, the chance they could name the whole envelope now."""

    players: Mapping[str, float]
    """Player -> chance, in seating order (every player but me)."""
    samples: int
    """How many deals the chances were read from."""
    out: tuple[str, ...] = ()
    """Players who have accused wrongly: they may know, but can no longer win."""
    kept: int | None = None
    """How many of the drawn deals were kept: those in which no player still in the game could
    have named the envelope at the end of their last turn (they would have accused then);
    ``None`` when none was drawn."""
    fallback: bool = False
    """Every drawn deal was dropped (say, an accusation not yet entered): the chances are read
    from all of them, without that assumption."""
    envelopes: Mapping[Triple, tuple[float, int]] = dataclasses.field(default_factory=dict)
    """Envelope -> (the weight of the kept deals holding it, as in `weights`, the drawn deals
    holding it): how the assumption and the questions asked after a card was shown reweigh it
    (all drawn deals count as kept on a fallback)."""
    deals: tuple[Mapping[str, str], ...] = dataclasses.field(default=(), compare=False,
                                                              repr=False)
    """The kept deals (card -> owner; all drawn deals on a fallback), to play the turns ahead
    on (`outlook`)."""
    weights: tuple[float, ...] = dataclasses.field(default=(), compare=False, repr=False)
    """The weight of each of `deals` with the hidden choices drawn for it (`_Table.weight`),
    relative to the heaviest, which weighs 1 (empty: all alike)."""
    choices: tuple[Mapping[str, Choices], ...] = dataclasses.field(default=(), compare=False,
                                                                    repr=False)
    """The hidden choices drawn for each of `deals` (player -> `Choices`), which its weight
    and its being kept depend on: the turns ahead are played out from them (empty: drawn
    anew)."""
    surely: frozenset[str] = frozenset()
    """Players still in the game who can name the envelope in every deal that fits the log,
    whichever card each refuter showed them (`knows_surely`: logic, asked only where every
    deal drawn says so)."""

    def threat(self) -> float:
        """The chance that at least one player still in the game could name it now (the players
        taken as independent)."""
        miss = 1.0
        for name, chance in self.players.items():
            if name not in self.out:
                miss *= 1.0 - chance
        return 1.0 - miss

    def said(self, player: str) -> str:
        """``player``'s chance in words (`percent_said`): drawn from deals weighed as players
        play, so never "0%" or "100%" ("<1%", ">99%"); certain once a correct accusation was
        said aloud (everyone knows, nothing drawn) or where logic proves it (`surely`).

        >>> Race({"Bob": 1.0, "Cat": 0.0}, 100).said("Bob"), Race({"Bob": 1.0}, 0).said("Bob")
        ('>99%', '100%')
        >>> Race({"Bob": 1.0}, 100, surely=frozenset({"Bob"})).said("Bob")
        '100%'
        """
        return self.chance(player).render()

    def chance(self, player: str) -> Chance:
        """``player``'s chance as `said`, for a sentence (written in the language it is read
        in)."""
        sure = self.samples == 0 or player in self.surely
        return Chance(self.players[player], undecided=not sure)

    def leader(self) -> str | None:
        """The player still in the game likeliest to know the envelope now, one who surely
        does first (the first in seating order among equals); ``None`` when all are out."""
        return max((n for n in self.players if n not in self.out),
                   key=lambda n: (self.players[n], n in self.surely), default=None)

    def leader_said(self) -> Message | None:
        """Who may already know, in words: the `leader` and their chance ("Ben may already
        know: 40%"), "Ben already knows the envelope" where logic proves it (`surely`), or
        that nobody seems to (a chance that rounds to 0%); ``None`` when all are out."""
        leader = self.leader()
        if leader is None:
            return None
        if leader in self.surely:
            return say("{player} already knows the envelope", player=leader)
        if self.players[leader] < 0.005:  # "0%" reads as a slip
            return say("nobody seems to know the envelope yet")
        return say("{player} may already know: {chance}", player=leader,
                   chance=self.chance(leader))

    def to_json(self) -> dict[str, Any]:
        """``{"players": {name: chance}, "samples": n, "kept": k, "fallback": bool,
        "out": [names], "surely": [names]}`` (`surely` in seating order)."""
        return {
            "players": {name: round(p, 4) for name, p in self.players.items()},
            "samples": self.samples,
            "kept": self.kept,
            "fallback": self.fallback,
            "out": list(self.out),
            "surely": [name for name in self.players if name in self.surely],
        }

    def conditioned(self, found: Odds) -> dict[Triple, tuple[float, float]]:
        """Each envelope's chance under the same weighting and assumption as the race, with its
        standard error: its chance in ``found`` (the deals as drawn) times the weighed share of
        its drawn deals that were kept (over all drawn deals where none held it), normalised.
        Exact when no deal was dropped or weighed down; the error counts each share as a
        binomial estimate (one success and one failure added, so a share of 0 or 1 has an
        error too; a weighed share of values in [0, 1] varies no more), first order."""
        drawn = self.kept is not None and any(k != n for k, n in self.envelopes.values())
        weight = sum(k for k, _ in self.envelopes.values())
        overall = (weight + 1, self.samples + 2) if drawn else (1.0, 1)
        rate = weight / self.samples if drawn else 1.0
        scores: dict[Triple, tuple[float, float, float]] = {}
        for s, w, r, chance in found.envelope_odds:
            kept, seen = self.envelopes.get((s, w, r), (0.0, 0)) if drawn else (0.0, 0)
            share = kept / seen if seen else rate
            hits, tries = (kept + 1, seen + 2) if seen else overall
            spread = hits * (tries - hits) / tries**2 / max(1, tries - 2) if drawn else 0.0
            scores[s, w, r] = (float(chance), share, spread)
        total = sum(p * share for p, share, _ in scores.values()) or 1.0
        noise = sum(p * p * v for p, _, v in scores.values())
        out: dict[Triple, tuple[float, float]] = {}
        for triple, (p, share, v) in scores.items():
            right = p * share / total
            own = p * p * v
            var = (own * (1 - right) ** 2 + right**2 * (noise - own)) / total**2
            out[triple] = (right, max(0.0, var) ** 0.5)
        return out


def public_form(event: Event) -> Event | None:
    """``event`` as everyone at the table heard it: a suggestion with its passes and refuter but
    no card shown and no side card named, an accusation, a whole hand revealed to all; ``None``
    for what only I know (a note, a card revealed to me)."""
    if isinstance(event, Suggestion):
        peek = None if event.side_peek is None else SidePeek(event.side_peek.slot)
        return replace(event, shown=None, shown_by_rule=None, side_peek=peek)
    if isinstance(event, Accusation) or (isinstance(event, Reveal) and event.whole_hand):
        return event
    return None


def public_events(log: GameLog) -> tuple[Event, ...]:
    """What everyone at the table heard (`public_form`), in order: one `_Table` selector each."""
    return tuple(seen for event in log.events if (seen := public_form(event)) is not None)


def heard_before(log: GameLog) -> list[int]:
    """For each event of the log, how many public events came before it: the `_Table`
    selectors the table had heard when it happened (the log's notes and the cards revealed to
    me are no selectors, so an event's index in the log is not its count)."""
    counts: list[int] = []
    heard = 0
    for event in log.events:
        counts.append(heard)
        heard += public_form(event) is not None
    return counts


class _Table:
    """The public SAT model, and the views of one drawn deal per player."""

    def __init__(self, log: GameLog, rng: random.Random, bluff: Fraction | float = 1) -> None:
        game = log.game
        self.log = log
        self.rng = rng
        self.bluff = math.log(bluff)
        """The log of how much a drawn deal weighs for each card a player named after it was
        shown to them (`weight`; 0: every draw alike)."""
        self.named: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
        """Player (not me) -> (event index, cards named) of each of their suggestions."""
        self.peeks: dict[str, list[int]] = {}
        """Player -> the event index of each side card they looked at, in order."""
        for i, event in enumerate(log.events):
            if isinstance(event, Suggestion) and event.by != game.me:
                self.named.setdefault(event.by, []).append((i, event.cards))
            if isinstance(event, Suggestion) and event.side_peek is not None:
                self.peeks.setdefault(event.by, []).append(i)
        public = replace(game, me=None, my_cards=())
        self.model = DealModel(public)
        self.turn_end: dict[str, int] = {}
        """Player -> how many public events (selectors) the table had heard at the end of their
        last turn: their last suggestion answered; in the forum variant, as they asked their
        last question (its answer came after the post they could have accused in)."""
        asked_first = forum_dealt(game)
        for heard, event in enumerate(public_events(log), 1):
            self.model.add(event)
            if isinstance(event, Suggestion):
                self.turn_end[event.by] = heard - 1 if asked_first else heard
        self.solver = Solver(name=SOLVER, bootstrap_with=self.model.clauses)
        self.swaps = Swaps(self.model) if not game.side_cards else None
        """One-swap witnesses, asked before the solver (not with side cards, whose slots the
        cell clauses only read as the side pile)."""
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

    def knows(self, player: str, deal: Mapping[str, str], facts: list[int] | None = None,
              upto: int | None = None) -> bool:
        """Whether ``player`` could name the envelope of ``deal`` from their view of the game
        (``facts``, by default with the refuters' choices and the side slots they looked at
        drawn at random), from every public event or the first ``upto``."""
        holds = self.model.holds
        facts = self.facts(player, deal) if facts is None else facts
        envelope = tuple(c for c in self.live if deal[c] == ENVELOPE)
        key = (player, upto, tuple(sorted(facts)), envelope)
        if key not in self.known:
            base = self.selectors[:upto] + facts
            self.known[key] = not self._another(deal, base) and not any(
                self.solver.solve(assumptions=[*base, -holds(ENVELOPE, card)]) for card in envelope
            )
        return self.known[key]

    def open_cards(self, player: str, deal: Mapping[str, str],
                   facts: list[int] | None = None) -> frozenset[str]:
        """The cards ``player`` could still find in the envelope, from their view of ``deal``
        (``facts``, by default with the hidden choices drawn)."""
        holds = self.model.holds
        base = self.selectors + (self.facts(player, deal) if facts is None else facts)
        view = set(base)
        return frozenset(
            c for c in self.live
            if deal[c] != player and (self._swapped_in(deal, view, c)
                                      or self.solver.solve(assumptions=[*base, holds(ENVELOPE, c)]))
        )

    def _another(self, deal: Mapping[str, str], view: list[int]) -> bool:
        """Whether one swap of ``deal`` (which fits ``view``) fits it with another envelope."""
        return self.swaps is not None and self.swaps.another_envelope(deal, set(view))

    def _swapped_in(self, deal: Mapping[str, str], view: set[int], card: str) -> bool:
        """Whether ``deal`` or one swap of it fits ``view`` with ``card`` in the envelope."""
        return self.swaps is not None and self.swaps.envelope_can_hold(deal, view, card)

    def facts(self, player: str, deal: Mapping[str, str]) -> list[int]:
        """What ``player`` knows in ``deal``: their hand, the cards shown to them (drawn when I
        did not see them), the side cards they looked at."""
        return self.view(player, deal)[0]

    def view(self, player: str, deal: Mapping[str, str], given: Choices | None = None
             ) -> tuple[list[int], int, Choices]:
        """`facts`, how many cards ``player`` named after they were shown them in this draw of
        the hidden choices (by a refuter or as a side card they looked at; each card once:
        `weight`), and the draw (``given``, else drawn)."""
        holds = self.model.holds
        facts = [holds(player, c) if deal[c] == player else -holds(player, c) for c in self.live]
        shown, seen, picks = self._shown(player, deal, None if given is None else given[0])
        facts += shown
        peeked = self._peeked(player, deal) if given is None else given[1]
        facts += [holds(SIDE, c) for c in peeked]
        for i, card in zip(self.peeks.get(player, ()), peeked, strict=True):
            seen.setdefault(card, i)
        return facts, self._named_after(player, seen), (picks, tuple(peeked))

    def _named_after(self, player: str, seen: Mapping[str, int]) -> int:
        """How many of the cards ``seen`` (card -> the event it was first shown to ``player``
        in) they named in a later suggestion."""
        if not seen:
            return 0
        return sum(
            any(at > i and card in cards for at, cards in self.named.get(player, ()))
            for card, i in seen.items()
        )

    def weight(self, named_after: int) -> float:
        """The log of how much a drawn deal with its hidden choices weighs as players play: the
        bluff factor for every card a player named after it had been shown to them, by a
        refuter or as a side card they looked at (they already knew where it was), as `Play`
        weighs the cards they named while holding them. A log, since a hundred such cards at
        1/1000 weigh less than the smallest float (`race` weighs the deals it keeps against
        the heaviest)."""
        return self.bluff * named_after

    def _shown(self, player: str, deal: Mapping[str, str], given: Sequence[str] | None = None
               ) -> tuple[list[int], dict[str, int], tuple[str, ...]]:
        """Facts from the cards shown to ``player``: the card, or when I did not see it a
        uniform pick among the refuter's matches (the next of ``given`` when given; under the
        first-in-order rule, the first of them in the order suspect, weapon, room); under that
        rule, the earlier categories the refuter lacks. With them, each card
        shown -> the event it was first shown in, and the picks."""
        holds = self.model.holds
        game = self.log.game
        facts: list[int] = []
        seen: dict[str, int] = {}
        picks: list[str] = []
        ahead = None if given is None else iter(given)
        for i, event in enumerate(self.log.events):
            if not isinstance(event, Suggestion) or event.by != player:
                continue
            refuter = event.refuted_by
            if refuter is None:
                continue
            card = event.shown
            first = event.shown_by_rule == FIRST_IN_ORDER
            if card is None:
                matches = sorted((c for c in event.cards if deal.get(c) == refuter),
                                 key=lambda c: CATEGORIES.index(game.category_of(c)))
                if not matches:  # a face-up card only: nothing to read from this deal
                    continue
                if first:  # the host's rule leaves no choice
                    card = matches[0]
                else:
                    card = self.rng.choice(matches) if ahead is None else next(ahead)
                    picks.append(card)
            if card not in self.live:
                continue
            seen.setdefault(card, i)
            facts.append(holds(refuter, card))
            if first:
                rank = CATEGORIES.index(game.category_of(card))
                facts += [
                    -holds(refuter, c)
                    for c in event.cards
                    if c in self.live and CATEGORIES.index(game.category_of(c)) < rank
                ]
        return facts, seen, tuple(picks)

    def _peeked(self, player: str, deal: Mapping[str, str]) -> list[str]:
        """The side cards ``player`` looked at: what I saw in a slot I looked at too, else a
        uniform pick among the side cards whose slot nobody has told me."""
        slots = [p.slot for p in self.log.side_peeks(player)]
        if not slots:
            return []
        free = [c for c in self.live if deal[c] == SIDE and c not in self.my_slots.values()]
        self.rng.shuffle(free)
        return [self.my_slots[s] if s in self.my_slots else free.pop() for s in slots]

    def read(self, players: Sequence[str], still: Sequence[str], deal: Mapping[str, str]
             ) -> tuple[set[str], bool, float, dict[str, Choices]]:
        """Who could name the envelope of ``deal`` now, whether it is kept (no player of
        ``still`` could have named it at the end of their last turn, or they would have accused
        then), the log of how much it weighs with the hidden choices drawn (`weight`) and
        those choices.
        One draw of the hidden choices serves both views and the weight; the earlier view is
        asked only of a player who knows now, as it holds less."""
        now: set[str] = set()
        kept = True
        named_after = 0
        drawn: dict[str, Choices] = {}
        for name in players:
            facts, named, drawn[name] = self.view(name, deal)
            named_after += named
            if not self.knows(name, deal, facts):
                continue
            now.add(name)
            if kept and name in still and name in self.turn_end:
                kept = not self.knows(name, deal, facts, self.turn_end[name])
        return now, kept, self.weight(named_after), drawn


class _Round(_Table):
    """The turns until my next question is answered, played out on drawn deals: the others ask
    about their likeliest cards, the table answers as the deal says (round the table, or in a
    forum game the one player asked, `askable`)."""

    def __init__(self, log: GameLog, rng: random.Random, chances: Mapping[Triple, float],
                 likely: Mapping[str, float]) -> None:
        super().__init__(log, rng)
        self.chances = {t: p for t, p in chances.items() if p > 0}
        """Envelope -> my chance of it now."""
        self.mine = {c for t in self.chances for c in t}
        """The cards I could still find in the envelope."""
        self.likely = likely
        """Card -> its chance to be in the envelope as the table sees it (the public log),
        standing in for each player's own."""
        holds = self.model.holds
        self.card_of = {holds(o, c): c for o in log.game.owners for c in self.live}
        """A "holds" variable -> its card."""
        self.said: dict[tuple[str, tuple[str, ...]], int] = {}
        """(refuter, cards named) -> the selector of "the refuter holds one of them", made
        once: the same answer in another deal or turn reuses it, so the solver and the swaps'
        clauses grow with the answers that differ, not with every answer played out."""
        self.targets = ({n: askable(log, n) for n in log.game.player_names}
                        if forum_dealt(log.game) else {})
        """A forum game's players -> whom each may put a question to (`askable`), who alone
        answers; empty in any other game."""

    def ahead(self, deal: Mapping[str, str], seats: Sequence[str], question: Triple,
              drawn: Mapping[str, Choices] | None = None, to: str | None = None
              ) -> tuple[bool, float, bool]:
        """In ``deal``: whether none of ``seats`` (in turn order) could name the envelope at the
        start or the end of their turn; if so, my chance of naming it right after the answer to
        ``question`` (put to ``to`` in a forum game; my chances now, over the envelopes my view
        leaves open then) and whether I know it then. Each of them names the likeliest card of
        each category (`likely`) among those their view leaves possible in the envelope
        (`_likeliest`), in a forum game to one player drawn alike among those they may ask
        (`askable`); a refuter shows one of their matches at random; everyone hears who passed
        and who refuted, the asker also the card. What each knows at the start comes from the
        hidden choices ``drawn`` for this deal (the race's: its weight and its being kept
        depend on them), else from a new draw."""
        me = self.log.game.me
        assert me is not None
        heard = list(self.selectors)
        drawn = drawn or {}
        seen = {name: self.view(name, deal, drawn.get(name))[0] for name in (*seats, me)}
        for name in seats:
            if self._pins(deal, heard + seen[name]):
                return False, 0.0, False
            asked = self._likeliest(deal, name, seen[name], heard + seen[name])
            whom = self.rng.choice(self.targets[name]) if self.targets else None
            self._answer(deal, name, asked, heard, seen[name], whom)
            if self._pins(deal, heard + seen[name]):
                return False, 0.0, False
        # A forum question's card is drawn from a stream of its own, one draw of the table's
        # taken whatever I ask: the turns before it (and `Outlook.clear`) are the same whichever
        # question is played out, the likeliest envelope or the one "Suggest for me" gives.
        mine = random.Random(self.rng.random()) if self.targets else None
        self._answer(deal, me, question, heard, seen[me], to if self.targets else None, mine)
        open_ = self._open(deal, heard + seen[me], self.mine)
        left = {t: p for t, p in self.chances.items() if all(c in open_ for c in t)}
        if not left:  # my chances gave the true envelope nothing: only the deal's is left
            return True, 1.0, True
        return True, max(left.values()) / sum(left.values()), len(left) == 1

    def _pins(self, deal: Mapping[str, str], view: list[int]) -> bool:
        """Whether ``view`` leaves the envelope of ``deal`` the only one."""
        holds = self.model.holds
        return not self._another(deal, view) and not any(
            self.solver.solve(assumptions=[*view, -holds(ENVELOPE, card)])
            for card in self.live if deal[card] == ENVELOPE)

    def _open(self, deal: Mapping[str, str], view: list[int], cards: Collection[str]
              ) -> set[str]:
        """The ``cards`` that ``view`` (which ``deal`` fits) leaves possible in the envelope:
        those one swap of ``deal`` puts there, then the solver's (each model found marks every
        envelope card in it as possible: only the rest need asking)."""
        holds = self.model.holds
        assumed = set(view)
        found = {c for c in cards if self._swapped_in(deal, assumed, c)}
        for card in cards:
            if card in found or not self.solver.solve(assumptions=[*view, holds(ENVELOPE, card)]):
                continue
            found.update(self._swapped_from_model(assumed, cards, found))
        return found

    def _swapped_from_model(self, view: set[int], cards: Collection[str],
                            known: Collection[str]) -> set[str]:
        """The ``cards`` that the solver's last model (a deal fitting ``view``) or one swap of it
        puts in the envelope (`_swapped_in`; its envelope cards without a swap), beyond those
        ``known`` already: each a proof, so fewer questions to the solver, and the same set of
        open cards in the end."""
        deal = self._model_deal()
        if self.swaps is None:
            return {c for c in cards if deal.get(c) == ENVELOPE}
        return {c for c in cards if c not in known and self._swapped_in(deal, view, c)}

    def _model_deal(self) -> dict[str, str]:
        """The deal of the solver's last model (card -> owner), read off the cells alone (the
        model also holds every selector and counter variable; a cell the solver never saw is
        not in it)."""
        found = self.solver.get_model() or ()
        return {card: owner for v, (card, owner) in self.model.cells.items()
                if v <= len(found) and found[v - 1] > 0}

    def _likeliest(self, deal: Mapping[str, str], name: str, facts: list[int],
                   view: list[int]) -> Triple:
        """What ``name`` asks about: the likeliest card of each category (`likely`) among those
        their ``view`` leaves possible in the envelope, as a player asking about their own
        likeliest cards names the envelope's more often the fewer they have left (asked in
        order of likeliness, so mostly only the first); where none is left to them (the card
        is settled for the whole table), among those they neither hold nor were shown. Each
        deal the solver finds is kept, and the next cards asked about are first looked for in
        it or one swap of it (`_swapped_in`), only those cards: fewer questions to the solver,
        the same answers."""
        holds = self.model.holds
        found: list[dict[str, str]] = []  # the deals the solver found fitting ``view``

        assumed = set(view)

        def open_(card: str) -> bool:
            if self._swapped_in(deal, assumed, card) or any(
                    other.get(card) == ENVELOPE or self._swapped_in(other, assumed, card)
                    for other in found):
                return True
            if not self.solver.solve(assumptions=[*view, holds(ENVELOPE, card)]):
                return False
            found.append(self._model_deal())
            return True

        return self._picks(deal, name, facts, open_)

    def _picks(self, deal: Mapping[str, str], name: str, facts: list[int],
               open_: Callable[[str], bool]) -> Triple:
        """Per category, the likeliest card ``name`` does not hold in ``deal`` that ``open_``
        says their view leaves possible in the envelope; where none is, the likeliest they
        neither hold nor were shown (`_likeliest`)."""
        game = self.log.game
        picks = []
        for cat in CATEGORIES:
            ranked = sorted((c for c in game.deck.of(cat) if c in self.live and deal[c] != name),
                            key=lambda c: -self.likely.get(c, 0.0))  # stable: ties in deck order
            pick = next((c for c in ranked if open_(c)), None)
            if pick is None:
                known = {self.card_of[f] for f in facts if f in self.card_of}
                pick = max((c for c in game.deck.of(cat) if c not in known and deal.get(c) != name),
                           key=lambda c: self.likely.get(c, 0.0), default=game.deck.of(cat)[0])
            picks.append(pick)
        return picks[0], picks[1], picks[2]

    def _answer(self, deal: Mapping[str, str], by: str, cards: Triple, heard: list[int],
                facts: list[int], to: str | None = None,
                rng: random.Random | None = None) -> None:
        """The table's answer to ``by`` naming ``cards`` in ``deal`` (``to``'s alone when
        given): what everyone hears goes to ``heard`` (a clause behind a selector for "the
        refuter holds one of them", `said`), the card shown (drawn from ``rng``, else the
        table's stream) to ``facts``."""
        holds = self.model.holds
        named = [c for c in cards if c in self.live]
        for player in self.log.game.answer_order(by) if to is None else (to,):
            held = [c for c in named if deal.get(c) == player]
            if not held:
                heard += [-holds(player, c) for c in named]
                continue
            key = (player, tuple(named))
            if key not in self.said:
                self.said[key] = selector = self.model.fresh()
                self.solver.add_clause([-selector, *(holds(player, c) for c in named)])
                if self.swaps is not None:
                    self.swaps.add(selector, [[holds(player, c) for c in named]])
            heard.append(self.said[key])
            facts.append(holds(player, (rng or self.rng).choice(held)))
            return


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


def bluff_factor(bluff: Fraction | float) -> Fraction:
    """``bluff`` as an exact fraction in (0, 1] (floats to the nearest 1/1000, and a factor
    above 0 to 1/1000 at least: ``--bluff 0.0004``, a factor above 0, was rounded to 0 and
    refused as "bluff: expected a factor above 0 and at most 1, got 1/2500").

    >>> bluff_factor(0.25), bluff_factor(1), bluff_factor(Fraction(1, 2500))
    (Fraction(1, 4), Fraction(1, 1), Fraction(1, 1000))
    """
    if not 0 < bluff <= 1:
        raise InvalidLogError([_("bluff: expected a factor above 0 and at most 1, got {value}")
                               .format(value=bluff)])
    return max(Fraction(bluff).limit_denominator(1000), Fraction(1, 1000))


def bluff_weights(log: GameLog, pz: Puzzle, bluff: Fraction) -> list[Tally]:
    """One weight per other player and open card they named: ``bluff`` when they hold it.

    A card named twice by the same player counts once (players repeat a question they still want
    answered, bluff or not); a card the grid already gives them weighs the same in every deal.
    """
    if bluff == 1:
        return []
    game = log.game
    index = {o: i for i, o in enumerate(pz.owners)}
    named: dict[str, dict[str, None]] = {}
    for event in log.events:
        if isinstance(event, Suggestion) and event.by != game.me:
            named.setdefault(event.by, {}).update(dict.fromkeys(event.cards))
    weights = (bluff.denominator, bluff.numerator)
    return [
        Tally(index[player], (card,), weights)
        for player, cards in named.items()
        for card in cards
        if index[player] in pz.allowed.get(card, ())
    ]


def too_wide(plain: Puzzle) -> bool:
    """Whether the count without bluff weights needs more than twice the work the weighted count
    may spend (`WIDE`; the compiled loop, which charges the same work as the Python one in a
    tenth of its time or less). The weighted count runs in Python (its weights do not fit the
    compiled loop's key) and reaches the same states split by how many named cards each player
    holds, so it is then past its budget too: at a 12-player table mid-game it would spend
    1.5-2 s of CPU finding that out. The weights change the cards' order and groups, so the
    weighted work is not always more than the plain one; on the logs measured it was never
    less than 0.70 of it (docs/strategy.md), so a factor 2 left the weighted count to every
    log measured where it finishes (a rule of work: the same on every machine)."""
    try:
        finish(count_steps(plain, Budget(WIDE), compiled=True))
    except OverBudget:
        return True
    return False


def weighed_count(pz: Puzzle, plain: Puzzle | None) -> Count:
    """`count` of the weighed deals (``pz``), within the same budget; `OverBudget` at once where
    the count without the weights (``plain``) is `too_wide`: asked first where this process has
    loaded the compiled count (at a 12-player table 5-25 ms, where the first `LOOK` units of
    Python took about a tenth of a second), else past the first `LOOK` units."""
    if plain is not None and loaded() and kernel() is not None:
        if too_wide(plain):
            raise OverBudget
        plain = None
    budget = Budget(DEFAULT_BUDGET)
    steps = count_steps(pz, budget)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        if plain is not None and budget.spent >= LOOK:
            if too_wide(plain):
                raise OverBudget
            plain = None


class Play:
    """The deals my notebook allows, weighed as players play (`bluff_weights`): the count (exact,
    or past its budget the sampling chain), its odds and draws from it."""

    def __init__(self, log: GameLog, bluff: Fraction | float = BLUFF,
                 grid: Grid | None = None) -> None:
        self.log = log
        self.bluff = bluff_factor(bluff)
        plain = puzzle(log, grid if grid is not None else grid_of(log))
        weights = bluff_weights(log, plain, self.bluff)
        self.pz = dataclasses.replace(plain, tallies=[*plain.tallies, *weights])
        self.counted: Count | None = None
        with contextlib.suppress(OverBudget):
            self.counted = weighed_count(self.pz, plain if weights else None)
        self._odds: Odds | None = None
        self._visited: list[dict[str, int]] = []

    @property
    def exact(self) -> bool:
        """Whether the count is exact (else the chain's visits stand in for it)."""
        return self.counted is not None

    def odds(self) -> Odds:
        """Every card's and every envelope's chance under this weighting."""
        if self._odds is None:
            if self.counted is not None:
                self._odds = exact_odds(self.log, self.counted, False)
            else:
                self._odds = sampled_odds(self.log, self.pz, kept=self._visited)
        return self._odds

    def draw(self, size: int, seed: int = 0) -> DealMatrix:
        """``size`` deals drawn in proportion to their weight: exactly, or past the budget
        evenly spaced along the chain's visits."""
        if self.counted is not None:
            return sample_deals(self.counted, size, seed)
        self.odds()
        visited = self._visited
        step = (len(visited) - 1) / max(1, size - 1)
        return deal_matrix(self.pz, [visited[round(i * step)] for i in range(size)])


def race(log: GameLog, *, samples: int | None = None, seed: int = 0,
         drawn: DealMatrix | None = None, bluff: Fraction | float = BLUFF,
         play: Play | None = None, grid: Grid | None = None) -> Race:
    """For every player but me (every player in a spectator's log), the chance they could name
    the whole envelope now, over ``samples`` deals drawn from my notebook (or ``drawn``; by
    default as many as the work budget allows, `draw_size`) weighed as players play (`Play`,
    with ``bluff`` on the log's SAT grid, ``grid`` when the caller has it, or ``play``), each
    with its hidden choices drawn and weighed by the same factor for every card a player named
    after it had been shown to them (`_Table.weight`).

    Players accuse as soon as they are certain (the rules allow it right after the answer to
    their own suggestion), so a deal in which a player who has not accused could have named the
    envelope at the end of their last turn is dropped: the chances are weighed shares of the
    deals kept (of all of them, flagged ``fallback``, when none is)."""
    game = log.game
    players = [n for n in game.player_names if n != game.me]
    samples = samples if samples is not None else draw_size(None, len(players))
    if not 1 <= samples <= MAX_SAMPLES and drawn is None:  # no deal to read a chance from
        raise InvalidLogError([_("--samples: expected 1 to {most} deals, got {value}").format(
            most=f"{MAX_SAMPLES:,}", value=samples)])
    accusers = [e.by for e in log.events if isinstance(e, Accusation)]
    out = tuple(
        dict.fromkeys(e.by for e in log.events if isinstance(e, Accusation) and not e.correct)
    )
    solved = any(isinstance(e, Accusation) and e.correct for e in log.events)
    if solved:  # a correct accusation was said aloud: everyone knows
        return Race(dict.fromkeys(players, 1.0), 0, out)
    if drawn is None:
        drawn = (play if play is not None else Play(log, bluff, grid)).draw(samples, seed)
    deals = _deals(log, drawn)
    still = [n for n in players if n not in accusers]
    factor = play.bluff if play is not None else bluff_factor(bluff)
    table = _Table(log, random.Random(seed), factor)
    try:
        read = [table.read(players, still, deal) for deal in deals]
    finally:
        table.close()
    rows = [i for i, (_now, kept, _w, _c) in enumerate(read) if kept]
    fallback = not rows
    if fallback:
        rows = list(range(len(read)))
    heaviest = max((read[i][2] for i in rows), default=0.0)  # weights are logs: see `weight`
    weights = [math.exp(read[i][2] - heaviest) for i in rows]
    weight_of = dict(zip(rows, weights, strict=True))
    envelopes: dict[Triple, tuple[float, int]] = {}
    for i, deal in enumerate(deals):
        s, w, r = (next(c for c in game.deck.of(cat) if deal.get(c) == ENVELOPE)
                   for cat in CATEGORIES)
        k, n = envelopes.get((s, w, r), (0.0, 0))
        envelopes[s, w, r] = (k + weight_of.get(i, 0.0), n + 1)
    total = sum(weights)
    chances = {n: sum(w for i, w in zip(rows, weights, strict=True) if n in read[i][0]) / total
               for n in players}
    surely = frozenset(n for n in still if chances[n] >= SURE and knows_surely(log, n))
    return Race(chances, len(deals), out, 0 if fallback else len(rows), fallback, envelopes,
                tuple(deals[i] for i in rows), tuple(weights), tuple(read[i][3] for i in rows),
                surely)


SHOW_SAMPLES = 60
"""Deals drawn to judge what the asker deduces from the card I show."""


def open_after_showing(log: GameLog, asker: str, cards: Sequence[str], *,
                       samples: int = SHOW_SAMPLES, seed: int = 0,
                       bluff: Fraction | float = BLUFF, race_of: Race | None = None
                       ) -> dict[str, float]:
    """For each card of ``cards`` (mine): how many envelopes ``asker`` is expected to still have
    open once I show it to them, over the race's kept deals (``race_of``, else a race of
    ``samples`` deals weighed as players play, `Play`): their hand read off each deal and the
    cards others showed them as the race drew them, each deal with its weight (`Race.weights`).
    So a deal in which a player still in the game could have named the envelope on their last
    turn counts here no more than in the race. An envelope is open while each of its cards is;
    their count is the product of the open cards per category, and seeing a card closes the
    share of envelopes that hold it (nothing, when they had already ruled it out). After a
    correct accusation everyone knows the envelope: one stays open, whatever I show."""
    game = log.game
    race_of = race_of if race_of is not None else race(log, samples=samples, seed=seed,
                                                       bluff=bluff)
    if not race_of.deals:  # solved aloud: nothing is drawn
        return dict.fromkeys(cards, 1.0)
    weights = race_of.weights or (1.0,) * len(race_of.deals)
    drawn = race_of.choices or ({},) * len(race_of.deals)
    table = _Table(log, random.Random(seed))
    totals = dict.fromkeys(cards, 0.0)
    try:
        for deal, weight, choices in zip(race_of.deals, weights, drawn, strict=True):
            facts = table.view(asker, deal, choices.get(asker))[0]
            open_ = table.open_cards(asker, deal, facts)
            per = {cat: sum(game.category_of(c) is cat for c in open_) for cat in CATEGORIES}
            envelopes = per[CATEGORIES[0]] * per[CATEGORIES[1]] * per[CATEGORIES[2]]
            for card in cards:
                closed = envelopes / per[game.category_of(card)] if card in open_ else 0.0
                totals[card] += weight * (envelopes - closed)
    finally:
        table.close()
    mass = sum(weights)
    return {card: total / mass for card, total in totals.items()}


# --- past advice: the game is over, or I am out of it -----------------------------------------


def won_by(log: GameLog, without: Collection[int] = ()) -> tuple[int, str] | None:
    """The event number (from 1) and the player of the first correct accusation: the game is
    over from there. ``without``: event numbers left out (the app's grid past a clash)."""
    return next(((i, e.by) for i, e in enumerate(log.events, 1)
                 if isinstance(e, Accusation) and e.correct and i not in without), None)


def out_since(log: GameLog, player: str | None, without: Collection[int] = ()) -> int | None:
    """The event number (from 1) where ``player`` accused wrongly: they take no more turns from
    there and only show cards when asked (``None`` while they play, and for no player).
    ``without``: event numbers left out."""
    return next((i for i, e in enumerate(log.events, 1) if isinstance(e, Accusation)
                 and e.by == player and not e.correct and i not in without), None)


def past_advice(log: GameLog, without: Collection[int] = (), *,
                addressed: bool = True) -> Message | None:
    """Why nothing is left to advise me on, in words: the game is over (`ended_said`), or I
    accused wrongly and can no longer win; ``None`` while I may still win. What `accuse` and
    `show` say in place of their advice, `race` above its figures, and the app in place of its
    advice. ``without``: event numbers left out (the app's header speaks from the entries its
    grid keeps past a clash). Not ``addressed`` (a read link's reader), I am named, not
    "you"."""
    end = ending(log, without)
    if end is not None:
        return ended_said(end, log.game.me, addressed=addressed)
    me = log.game.me
    out = out_since(log, me, without)
    if out is not None and addressed:
        return say("You accused wrongly in event {n}: you can no longer accuse, only show cards "
                   "when asked.", n=out)
    if out is not None and me is not None:
        return say("{player} accused wrongly in event {n}: {player} can no longer accuse, only "
                   "shows cards when asked.", player=me, n=out)
    return None


def ended_said(end: Ending, me: str | None, *, addressed: bool = True) -> Message:
    """How the game ended, in words: who won and why, "you" for me where ``addressed``
    (`past_advice`).

    >>> from .ending import Close
    >>> ended_said(Ending(9, "Ann", Close.STANDING), "Ann").render("en")
    'You win: every other player accused wrongly.'
    >>> ended_said(Ending(9, None, Close.UNSOLVED), "Ann").render("en")
    'Every player accused wrongly: the game is over with no winner.'
    """
    mine = addressed and end.winner is not None and end.winner == me
    if end.close is Close.UNSOLVED or end.winner is None:
        return say("Every player accused wrongly: the game is over with no winner.")
    if end.close is Close.STANDING:
        if mine:
            return say("You win: every other player accused wrongly.")
        return say("{player} wins: every other player accused wrongly.", player=end.winner)
    if mine:
        return say("You accused correctly: the game is over.")
    return say("{player} accused correctly: the game is over.", player=end.winner)


def ended_at_said(end: Ending, me: str | None) -> Message:
    """How the game ended, naming the entry that ended it: what `accuse` says last of a
    finished game, below its line on the cards asked about (which "You accused correctly"
    seemed to answer, whatever they were).

    >>> from .ending import Close
    >>> ended_at_said(Ending(43, "Ann", Close.ACCUSED), "Ann").render("en")
    'The game ended in event 43: you accused correctly and won.'
    """
    if end.close is Close.UNSOLVED or end.winner is None:
        return say("The game ended in event {n} with no winner: every player accused wrongly.",
                   n=end.at)
    mine = end.winner == me
    if end.close is Close.STANDING and mine:
        return say("The game ended in event {n}: every other player had accused wrongly, so "
                   "you won.", n=end.at)
    if end.close is Close.STANDING:
        return say("The game ended in event {n}: every other player had accused wrongly, so "
                   "{player} won.", n=end.at, player=end.winner)
    if mine:
        return say("The game ended in event {n}: you accused correctly and won.", n=end.at)
    return say("The game ended in event {n}: {player} accused correctly and won.", n=end.at,
               player=end.winner)


# --- accuse or wait --------------------------------------------------------------------------

AHEAD_SAMPLES = 60
"""Kept deals on which the turns until my next question are played out (`outlook`)."""


@dataclass(frozen=True)
class Outlook:
    """What waiting may win: the turns until my next question is answered, played out on the
    race's kept deals."""

    question: Triple
    """My next suggestion as judged: the envelope I would name (nobody refuting it proves it);
    in a forum game "Suggest for me"'s question, when the caller has it (``advised``)."""
    later: bool
    """My question is not the next thing to happen: I have asked this turn, or other players
    move first (`moving_first`); else it is my turn and nobody moves before my question."""
    clear: float
    """The chance that nobody else could name the envelope before my question is answered: what
    waiting wins at most (the verdict's threshold)."""
    worth: float
    """What waiting wins at least: nobody else could name it first, and I accuse right after
    that answer (my chances now, over the envelopes left open then)."""
    first: float
    """The chance that nobody else could name it first and I can name it after that answer."""
    deals: int
    """How many deals the turns were played out on."""
    before_my_turn: int = 0
    """How many players move before my turn, as the log tells (the last turn taken was not
    mine): I cannot accuse before then. 0 in my turn, and where the log cannot tell (no turn
    yet, a forum game: every other player's turn is played out, as the most that may come
    first, `moving_first`)."""

    to: str | None = None
    """The player my question is put to in a forum game; ``None``: the table answers it in
    turn."""
    advised: bool = False
    """A forum game's ``question`` and ``to`` are "Suggest for me"'s (`Advisor.whom`), so the
    line may name ``to`` ("before you ask P3 next"): the advice says the same. Else they are
    the envelope I would name, put to `my_target`, which the advice may contradict: the line
    says "your next question"."""

    @property
    def known(self) -> float:
        """The chance I can name it right after my next answer, when nobody has before."""
        return self.first / self.clear if self.clear else 0.0


def asked_this_turn(log: GameLog) -> bool:
    """Whether the last suggestion in the log is mine: my question of this turn is answered,
    and my next one comes after the others' turns."""
    last = next((e for e in reversed(log.events) if isinstance(e, Suggestion)), None)
    return last is not None and last.by == log.game.me


def last_turn(log: GameLog) -> str | None:
    """Who took the last turn in the log (its last suggestion or accusation); ``None`` where
    the log cannot tell whose turn comes next: before the first, and in the forum variant,
    whose players ask whenever they like in a game day (three questions each, to anyone)."""
    if forum_dealt(log.game):
        return None
    return next((e.by for e in reversed(log.events) if isinstance(e, Suggestion | Accusation)),
                None)


def moving_first(log: GameLog) -> tuple[str, ...]:
    """The players still in the game who move before my next question, in turn order (seating
    order, clockwise): those after the last player to take a turn (`last_turn`) and before me;
    every other player when that was me, or where the log cannot tell (nobody has taken a turn
    yet, or a forum game): the most that may come first."""
    game = log.game
    me = game.me
    if me is None:
        return ()
    out = {e.by for e in log.events if isinstance(e, Accusation) and not e.correct}
    seat = game.player_names.index(me)
    order = game.player_names[seat + 1:] + game.player_names[:seat]
    last = last_turn(log)
    if last is not None and last != me:
        order = order[order.index(last) + 1:]
    return tuple(n for n in order if n not in out)


TABLE_BUDGET = 20_000
"""Work allowed for counting the public log (`table_odds`): early in a game it is wide open and
costs more than the rest of the verdict, for odds that say little."""


def table_odds(log: GameLog) -> dict[str, float] | None:
    """Each card's chance to be in the envelope as the whole table sees it: the exact odds of
    the public log (no hand, no card shown), as a notebook counts them; ``None`` past
    `TABLE_BUDGET`. Counted by the compiled loop where this process has loaded it (the same
    figures and work: at a 12-player forum table 2-4 ms to find it past the budget, where
    Python took 50-90)."""
    public = GameLog(replace(log.game, me=None, my_cards=()), public_events(log))
    fast = loaded() and kernel() is not None
    try:
        counted = finish(count_steps(puzzle(public, grid_of(public)), Budget(TABLE_BUDGET),
                                     compiled=fast))
    except OverBudget:
        return None
    found = exact_odds(public, counted, False)
    return {card: float(row[ENVELOPE]) for card, row in found.probabilities.items()}


def askable(log: GameLog, asker: str) -> tuple[str, ...]:
    """The players ``asker`` may put a forum question to, clockwise from their left: every
    other player (one out of the game still answers), but one whose whole hand was revealed to
    all, whose answer everyone knows (all others when every hand is).

    >>> from solver.editions import Dealing, forum_deck, new_game
    >>> log = GameLog(new_game(forum_deck(3), ("A", "B", "C"), Dealing.FORUM))
    >>> askable(log, "B"), askable(log.append(Reveal("C", ("Place 1",), whole_hand=True)), "B")
    (('C', 'A'), ('A',))
    """
    order = log.game.answer_order(asker)
    shown = {e.player for e in log.events if isinstance(e, Reveal) and e.whole_hand}
    return tuple(n for n in order if n not in shown) or order


def my_target(log: GameLog, question: Triple, deals: Sequence[Mapping[str, str]],
              weights: Sequence[float]) -> str | None:
    """Whom I put ``question`` to in a forum game (``None`` in any other, or for a spectator):
    the player (`askable`) likeliest to hold one of its cards over ``deals`` (each with its
    weight), clockwise from my left among equals. Asking about the envelope I would name, a
    card shown rules it out, and a pass from the player likeliest to show one tells most for
    it."""
    me = log.game.me
    if me is None or not forum_dealt(log.game):
        return None
    targets = askable(log, me)
    chance = dict.fromkeys(targets, 0.0)
    for deal, weight in zip(deals, weights, strict=True):
        for player in {deal.get(c) for c in question}:
            if player in chance:
                chance[player] += weight
    return max(targets, key=lambda n: (chance[n], -targets.index(n)))


def outlook(log: GameLog, race_of: Race, question: Triple, chances: Mapping[Triple, float],
            likely: Mapping[str, float], *, samples: int = AHEAD_SAMPLES,
            seed: int = 0, to: str | None = None) -> Outlook:
    """What waiting is worth (`Outlook`), from the race's kept deals (at most ``samples``, each
    with its weight, `Race.weights`): in each, the turns until my next question is answered
    are played out (the players still in the game who move first, in turn order,
    `moving_first`), each player asking about the likeliest cards as the table sees them
    (``likely``, `table_odds`, standing in for their own odds) among those they cannot rule out
    of the envelope (what they deduced too, not only their hand and the cards shown to them:
    a player with few cards left names the envelope's, and nobody refuting it tells them), and
    accusing as soon as they can name the envelope; then my ``question``,
    after which my chance of being right is my ``chances`` now of the likeliest envelope still
    open to me, renormalised over those open. What each player can know is read as in the race
    (their hand, the cards shown to them, every public event; the hidden choices the race drew
    for the deal, `Race.choices`), what they hear in these turns added; the 2-player game's
    side cards aside.

    In a forum game a question is put to one player, who alone answers (../shared/rules.md),
    never passed round the table: each other player's goes to one drawn alike among those they
    may ask (`askable`), mine to ``to`` ("Suggest for me"'s player, `Advisor.whom`, with its
    cards as ``question``: `Outlook.advised`), else to `my_target`. The asker chooses from
    their own view, which I cannot read, so no player is likelier than another, as a refuter's
    card is drawn; not the player whose answer would tell them most in the deal drawn: nobody
    can see the deal to choose so. (The most that may come is in who asks: every other player,
    `moving_first`.) Whom I ask and what changes only what my answer tells me: the turns before
    it, and so `Outlook.clear`, are the same whichever (`_Round.ahead`)."""
    game = log.game
    me = game.me
    seats = moving_first(log)
    later = bool(seats) or asked_this_turn(log)
    waits = len(seats) if last_turn(log) not in (None, me) else 0
    deals = race_of.deals[:samples]
    weights = race_of.weights[:samples] or (1.0,) * len(deals)
    drawn = race_of.choices[:samples] or ({},) * len(deals)
    if me is None or not deals:
        return Outlook(question, later, 1.0, 0.0, 0.0, 0, waits)
    advised = to is not None and forum_dealt(game)
    to = to if advised else my_target(log, question, deals, weights)
    table = _Round(log, random.Random(seed), chances, likely)
    played = []
    try:
        for deal, choices in zip(deals, drawn, strict=True):
            checkpoint()  # a unit of work: beside the app's runs it gives way to them, or stops
            played.append(table.ahead(deal, seats, question, choices, to))
    finally:
        table.close()
    total = sum(weights)
    clear, worth, first = (sum(w * row[i] for w, row in zip(weights, played, strict=True)) / total
                           for i in range(3))
    return Outlook(question, later, clear, worth, first, len(played), waits, to, advised)


def settles_surely(log: GameLog, question: Triple, to: str | None = None) -> bool | None:
    """Whether the answer to my ``question`` leaves me the envelope in every deal that fits
    ``log`` (True), in none (False), or in some only (``None``): each answer the table may
    give, a player showing me one of the cards after those before them passed, or nobody
    refuting (put to ``to`` alone, a forum question: ``to`` showing one, or passing), is put
    to the SAT model (an answer no deal gives is skipped). Not for a spectator, nor with side
    cards (nobody refuting, I look at one: ``None``)."""
    game = log.game
    me = game.me
    if me is None or game.side_cards:
        return None
    model = DealModel(game)
    for event in log.events:
        model.add(event)
    base = list(model.selectors)
    order = game.answer_order(me) if to is None else (to,)
    answers = [Suggestion(me, question, passes=order[:i], refuted_by=player, shown=card)
               for i, player in enumerate(order) for card in question
               if card not in game.my_cards and card in model.live_cards]
    answers.append(Suggestion(me, question, passes=order))
    solver = Solver(name=SOLVER, bootstrap_with=model.clauses)
    settles: set[bool] = set()
    try:
        for answer in answers:
            selector, clauses = model.add(answer)
            solver.append_formula(clauses)
            view = [*base, selector]
            if not solver.solve(assumptions=view):
                continue
            found = set(solver.get_model() or ())
            envelope = [c for c in model.live_cards if model.holds(ENVELOPE, c) in found]
            settles.add(not any(solver.solve(assumptions=[*view, -model.holds(ENVELOPE, c)])
                                for c in envelope))
            if len(settles) > 1:
                return None
    finally:
        solver.delete()
    return settles.pop() if settles else None


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
    """The chance that another player still in the game could name it now (`Race.threat`)."""
    race: Race | None
    """Each player's chance (``None`` when the envelope is certain)."""
    right_error: float = 0.0
    """The standard error of ``right`` (0 when it is exact)."""
    outlook: Outlook | None = None
    """What waiting is worth (``None`` when the envelope is certain)."""
    ruled_out: bool = False
    """``triple`` is in no deal that fits the log (`accusation_verdict`'s chosen triple): its
    ``right`` of 0 is certain, not only as players play."""
    settles: bool | None = None
    """Before my question: whether its answer leaves me the envelope in every deal that fits
    the log, or in none (`settles_surely`, asked only where the deals drawn all agree);
    ``None``: in some, or not asked. Only "every deal" is said plainly ("100%"): a player may
    move before mine where the log cannot tell (a turn without a suggestion is not logged) and
    add what settles it."""
    chances: Mapping[Triple, tuple[float, float]] = dataclasses.field(default_factory=dict,
                                                                       compare=False)
    """Every envelope still possible -> its chance of being right and that chance's standard
    error, weighed as ``right`` is (`Race.conditioned`; empty when the envelope is certain):
    what `accuse` lists beside ``triple``, so one envelope has one chance there."""
    bluff: Fraction = BLUFF
    """The bluff factor ``right`` and ``chances`` were weighed with (`Play`)."""
    even: bool = False
    """``triple`` is no likelier than the others: its chance, less twice its standard error,
    is no more than an even share of the envelopes still possible (`accuse_or_wait`). At the
    start of a 12-player game all 1694 are alike (0.059% each) and the line named the first,
    then whichever the deals' noise put ahead, entry to entry; the line of waiting says so in
    place of a triple. Never for a chosen triple (`accusation_verdict`)."""

    def reason(self) -> str:
        """One line a player can follow, in the current language."""
        return self.said().render()

    def said(self) -> Listing:
        """`reason` kept unrendered, to show in whatever language is asked for later: short
        statements one after another (what to do and the envelope's chance; whether anyone
        else solves first; what my next answer tells; who may already know), which a screen
        shows a line each and `reason` joins ("; "). In a forum game whose question played
        out is "Suggest for me"'s (`Outlook.advised`) the line of waiting names whom it goes to
        (`Outlook.to`), the player its "then you know it" is figured on; any other player it
        could name, the advice may contradict."""
        if self.race is None or self.outlook is None:  # certain: of `triple`, or of another
            return Listing((say("the envelope is certain: accuse now") if self.accuse else
                            say("do not accuse this: the envelope is certainly another"),), ".")
        leader = self.race.leader()
        ahead = self.outlook
        # as players play, on the deals drawn: never 0 % or 100 % unless every deal that fits
        # the log agrees (the triple ruled out; nobody else left, or to move, before my question)
        # every line names the envelope its "right" is for: the Grid's count may rank another
        suspect, weapon, room = self.triple
        figures: dict[str, Chance | Message | str] = {
            "suspect": suspect, "weapon": weapon, "room": room,
            "right": Chance(self.right, undecided=not self.ruled_out),
            "clear": Chance(ahead.clear, undecided=leader is not None and ahead.later),
            "known": Chance(ahead.known, undecided=not (self.settles and ahead.known >= 0.5)),
            "basis": bluff_said(self.bluff)}
        clear = say("nobody else solves before your next question: {clear}", **figures)
        known = say("then you know it: {known}", **figures)
        settles = say("the answer settles the envelope in {known}", **figures)
        wait = say("wait: {suspect}, {weapon}, {room}: right {right} {basis}",
                   **figures)
        even = self.even and not self.accuse
        if even and ahead.before_my_turn:  # naming one would be a pick among equals
            lines = [say_n("{n} player moves before your turn: no envelope is likelier than "
                           "the others yet",
                           "{n} players move before your turn: no envelope is likelier than "
                           "the others yet", ahead.before_my_turn, n=ahead.before_my_turn),
                     clear, known]
        elif even and ahead.later:
            lines = [say("wait: no envelope is likelier than the others yet"),
                     *([say("nobody else solves before you ask {player} next: {clear}",
                            player=ahead.to, **figures)] if ahead.advised and ahead.to
                       is not None else [clear]), known]
        elif even and ahead.advised and ahead.to is not None:
            lines = [say("ask {player} first, then decide: no envelope is likelier than the "
                         "others yet", player=ahead.to), settles]
        elif even:
            lines = [say("suggest first, then decide: no envelope is likelier than the others "
                         "yet"), settles]
        elif ahead.before_my_turn:  # not my turn: no accusing until it comes
            lines = [say_n("{n} player moves before your turn: {suspect}, {weapon}, {room}: "
                           "right {right} {basis}",
                           "{n} players move before your turn: {suspect}, {weapon}, {room}: "
                           "right {right} {basis}",
                           ahead.before_my_turn, n=ahead.before_my_turn, **figures), clear, known]
        elif self.accuse:
            lines = [say("accuse now: {suspect}, {weapon}, {room}: right {right} {basis}",
                         **figures), clear]
        elif ahead.later and ahead.advised and ahead.to is not None:  # the advice's player
            lines = [wait, say("nobody else solves before you ask {player} next: {clear}",
                               player=ahead.to, **figures), known]
        elif ahead.later:
            lines = [wait, clear, known]
        elif ahead.advised and ahead.to is not None:
            lines = [say("ask {player} first, then decide: {suspect}, {weapon}, {room}: right "
                         "{right} {basis}", player=ahead.to, **figures), settles]
        else:
            lines = [say("suggest first, then decide: {suspect}, {weapon}, {room}: right "
                         "{right} {basis}", **figures), settles]
        lines.append(self.race.leader_said()  # None: every other player accused wrongly
                     or say("nobody else can win: every other player accused wrongly"))
        if self.race.fallback:
            lines[-1] = fallback_note(lines[-1])
        return Listing(tuple(lines), ".")


def bluff_said(bluff: Fraction) -> Message:
    """What a chance weighed with the bluff factor ``bluff`` assumes, as a line says it after
    the chance: the default's "if players seldom bluff"; any other factor named, as ``--bluff``
    takes it (1 weighs every deal alike: "seldom" would be untrue).

    >>> str(bluff_said(BLUFF)), str(bluff_said(Fraction(1))), str(bluff_said(Fraction(1, 20)))
    ('if players seldom bluff', 'with --bluff 1', 'with --bluff 1/20')
    """
    if bluff == BLUFF:
        return say("if players seldom bluff")
    return say("with --bluff {factor}", factor=str(bluff))


def fallback_note(line: Message) -> Message:
    """``line`` with the note that the race could not assume players accuse when certain."""
    return say("{verdict} ({note})", verdict=line,
               note=say("every deal drawn has a player who could have named the envelope on "
                        "their last turn without accusing: is an accusation missing from the "
                        "log?"))


def accuse_or_wait(log: GameLog, *, samples: int | None = None, seed: int = 0,
                   race_of: Race | None = None, found: Odds | None = None,
                   bluff: Fraction | float = BLUFF, play: Play | None = None,
                   grid: Grid | None = None, advice: Whom | None = None) -> Verdict:
    """Accuse now when the envelope is certain, or when the chance my likeliest envelope is
    right is above the chance that nobody else names it before my next question is answered
    (`outlook`: those turns played out on the race's kept deals, so what the others know now,
    what their own questions and the rest of the table's tell them, turn by turn).

    Both come from the same weighting (`Play`, with ``bluff``, or ``play``) and the same kept
    deals (`Race.conditioned`: the likeliest envelope is read there); ``race_of`` and ``found``
    are its race and odds, and ``grid`` the log's SAT grid, when the caller has them already.
    At the start of my turn (the last turn taken was that of the player before me, as the log
    tells, `moving_first`) nobody moves before my question is answered, so waiting for that
    answer is never worse. Waiting wins at most that chance (when nobody else is first, I may
    still be unsure then); at least `Outlook.worth` (accusing right after). Measured, the bound
    won as much with fewer wrong accusations (docs/strategy.md). While others move before my
    turn, as the log tells (`Outlook.before_my_turn`), I cannot accuse: their turns are played
    out and the line says how many come first.

    In a forum game my next question is played out as ``advice`` says ("Suggest for me",
    `Advisor.whom` of this log: its cards, put to its player), and the line names that player
    (`Outlook.advised`); without it, as the envelope I would name put to `my_target`, whom the
    line does not name (the advice may say another). Making the advisor here would take the
    verdict's CPU at 12 players from a median 0.68 s to 1.18 s (docs/strategy.md): a caller
    that has it passes it. The decision does not change with it, only "then you know it" and
    the name (`outlook`). A classic or Refresh game ignores ``advice``: its table answers in
    turn.
    """
    grid = grid if grid is not None else grid_of(log)
    if grid.accusation_safe:
        envelope = grid.envelope()
        triple = tuple(str(envelope[cat]) for cat in CATEGORIES)
        return Verdict(True, (triple[0], triple[1], triple[2]), 1.0, 0.0, None)
    weighed = play if play is not None else Play(log, bluff, grid)
    found = found if found is not None else weighed.odds()
    if race_of is None:
        race_of = race(log, samples=samples, seed=seed, play=weighed)
    chances = race_of.conditioned(found)
    order = {t: i for i, t in enumerate(chances)}
    best = max(chances, key=lambda t: (chances[t][0], -order[t]))
    right, error = chances[best]
    mine = {t: p for t, (p, _e) in chances.items()}
    table = table_odds(log) if moving_first(log) else None
    if table is None:  # the table's odds are not needed, or too costly: mine stand in
        table = {}
        for triple, chance in mine.items():
            for card in triple:
                table[card] = table.get(card, 0.0) + chance
    whom = advice if forum_dealt(log.game) else None  # else the table answers in turn
    question = best if whom is None else whom.best.triple
    ahead = outlook(log, race_of, question, mine, table, seed=seed,
                    to=None if whom is None else whom.player)
    sure = None  # where the deals drawn all agree, whether every deal that fits the log does
    if not ahead.later and not 0.005 <= ahead.known < 0.995:
        sure = settles_surely(log, question, ahead.to)
    accuse = right > ahead.clear and not ahead.before_my_turn  # only in my turn
    even = len(chances) > 1 and right - 2 * error <= (1 + 1e-9) / len(chances)  # an even share
    return Verdict(accuse, best, right, race_of.threat(), race_of, error, ahead, settles=sure,
                   chances=chances, bluff=weighed.bluff, even=even)


def accusation_verdict(log: GameLog, triple: Sequence[str], *, grid: Grid | None = None,
                       **kwargs: Any) -> Verdict:
    """`accuse_or_wait` for a chosen triple (the CLI's ``accuse``): its own chance of being
    right, weighed against the same race and the same turns played out (both from the same
    weighting, counted once, on the log's SAT grid worked out once: ``grid`` when the caller
    has it)."""
    grid = grid if grid is not None else grid_of(log)
    found = kwargs.pop("found", None)
    play = kwargs.pop("play", None)
    if found is None and not grid.accusation_safe:
        play = play if play is not None else Play(log, kwargs.pop("bluff", BLUFF), grid)
        found = play.odds()
    verdict = accuse_or_wait(log, found=found, play=play, grid=grid, **kwargs)
    check = check_accusation(log, triple, found=found, grid=grid)
    if verdict.race is None or verdict.outlook is None:
        right, error = float(check.probability), 0.0
        clear = 1.0
    else:
        right, error = verdict.chances.get(check.triple, (0.0, 0.0))
        clear = verdict.outlook.clear
    ruled_out = (check.exact and check.probability == 0) or any(
        grid[c, ENVELOPE] is Knowledge.NO for c in check.triple)
    turn = verdict.outlook is None or not verdict.outlook.before_my_turn
    return dataclasses.replace(verdict, triple=check.triple, right=right, right_error=error,
                               accuse=check.safe or (right > clear and turn),
                               ruled_out=ruled_out, even=False)


__all__ = [
    "AHEAD_SAMPLES",
    "BLUFF",
    "SAMPLES",
    "SHOW_SAMPLES",
    "TABLE_BUDGET",
    "Outlook",
    "Play",
    "Race",
    "Verdict",
    "accusation_verdict",
    "accuse_or_wait",
    "askable",
    "asked_this_turn",
    "bluff_factor",
    "bluff_said",
    "bluff_weights",
    "draw_size",
    "ended_at_said",
    "ended_said",
    "fallback_note",
    "heard_before",
    "last_turn",
    "moving_first",
    "my_target",
    "open_after_showing",
    "out_since",
    "outlook",
    "past_advice",
    "public_events",
    "public_form",
    "race",
    "settles_surely",
    "table_odds",
    "won_by",
]
