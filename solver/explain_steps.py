"""The step-wise derivation behind every explanation: simple rules first, the SAT model last.

A `Derivation` turns a log into a sequence of small steps, in the spirit of Bogaerts, Gamba,
Guns et al. (AIJ 2021): at each point it takes the cheapest new fact, where a step costs its
rule's weight plus the weights of every step it rests on, so each fact gets (close to) its
shortest chain. Only when no rule a player knows applies does it fall back to a *combined*
step: a minimal unsatisfiable subset of the cited events and known facts, shrunk by deletion as
in python-sat's ``musx``. Every rule mirrors one kind of clause of `solver.model.DealModel`, so
each step is sound by construction and checked by the solver in the tests.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from pysat.solvers import Solver

from .cards import CATEGORIES, Category
from .editions import forum_dealt
from .game import (
    ENVELOPE,
    FIRST_IN_ORDER,
    SIDE,
    Accusation,
    Event,
    Game,
    Note,
    Reveal,
    Suggestion,
)
from .i18n import Arg, Listing, Message, say, say_n
from .limits import checkpoint
from .model import DealModel
from .notebook import SOLVER
from .notes import statement_message


@dataclass(frozen=True, order=True)
class Fact:
    """One cell of the grid settled: ``owner`` holds ``card`` (or not)."""

    card: str
    """The card."""
    owner: str
    """A player, the envelope or the side pile."""
    holds: bool
    """True for a ``yes`` cell, False for a ``no`` cell."""

    @property
    def cell(self) -> tuple[str, str]:
        """The (card, owner) pair."""
        return self.card, self.owner

    def negated(self) -> Fact:
        """The opposite fact about the same cell."""
        return Fact(self.card, self.owner, not self.holds)


TRIAL_CONFLICTS = 20000
"""Conflict budget of one solver call that tries dropping premises of a combined step."""

DEALS_KEPT = 64
"""How many deals found by the solver `Context.entails` keeps to answer later questions."""

# Rule weights: simplest first. A step costs its weight plus the weights of the steps it needs.
WEIGHTS: dict[str, int] = {
    "my-hand": 1, "face-up": 1, "empty-hand": 1, "seen": 1, "reveal": 1, "pass": 1, "note": 1,
    "accusation-right": 1, "side-peek": 1, "whole-hand": 2, "first-in-order": 2,
    "one-owner": 1, "one-per-category": 1, "full-hand": 2, "narrowed": 2, "full-with-answers": 3,
    "wrong-accusation": 2, "single-owner": 2, "last-candidate": 2, "needs-all": 3,
    "clash": 1, "impossible": 1, "combined": 8,
}


@dataclass(frozen=True)
class RawStep:
    """A step of the whole derivation; ``premises`` are indices of earlier steps."""

    fact: Fact | None
    """What it concludes; ``None`` for an impossibility (the log contradicts itself)."""
    rule: str
    """Which rule (a key of `WEIGHTS`)."""
    text: Message
    """The step in a player's words (rendered in the reader's language)."""
    events: tuple[int, ...] = ()
    """The log events (1-based) it cites directly."""
    premises: tuple[int, ...] = ()
    """Earlier steps it uses (indices into `Derivation.steps`)."""


@dataclass(frozen=True)
class OneOf:
    """An owner holds at least one of some cards: a refutation nobody saw, or a note."""

    event: int
    """The event (1-based) that says so."""
    owner: str
    """Who holds one of them: the refuter, or the note's owner."""
    cards: tuple[str, ...]
    """The cards (live or face up)."""
    said: Message
    """The event as a clause: "Veera answered (Regina, köysi, autotalli) in event 3"."""
    source: Message
    """Where the set comes from, briefly: "answered in event 3", "your note, event 5"."""
    noted: bool = False
    """True for a note, False for a refutation."""


@dataclass(order=True)
class _Candidate:
    cost: int
    seq: int
    step: RawStep = field(compare=False)


class Words:
    """How the notebook names owners, cards and facts in explanations: every sentence is a
    `Message`, rendered later in the reader's language."""

    def __init__(self, game: Game, *, addressed: bool = True) -> None:
        self.game = game
        self.you = game.me if addressed else None
        """Who is "you": the notebook's own player (``game.me``), or nobody (not ``addressed``:
        a read link's reader, told that player's name)."""
        self.addressed = addressed
        """Whether the reader keeps this notebook (its notes, looks and reveals are "yours"),
        not a read link's reader."""

    @property
    def noter(self) -> str | None:
        """The player named where "you" would be for what only the notebook's own player does
        (notes, a look at a side card, the hand entered): ``None`` where they are "you"."""
        return self.game.me if self.you is None else None

    @property
    def unnamed(self) -> bool:
        """Whether what only the notebook's keeper does (notes, a look at a side card) is said
        without a person: to a read link's reader of a game with no player of its own (a
        spectator's), there is nobody to name and it is not theirs ("your note" was)."""
        return not self.addressed and self.game.me is None

    def who(self, owner: str) -> Arg:
        """A player's name, "you", "the envelope" or "the side cards"."""
        if owner == self.you:
            return say("you")
        if owner == ENVELOPE:
            return say("the envelope")
        if owner == SIDE:
            return say("the side cards")
        return owner

    def owned(self, card: str, owner: str) -> Message:
        """"köysi is Veera's", "köysi is yours", "köysi is in the envelope"."""
        if owner == self.you:
            return say("{card} is yours", card=card)
        if owner == ENVELOPE:
            return say("{card} is in the envelope", card=card)
        if owner == SIDE:
            return say("{card} is a side card", card=card)
        return say("{card} is {player}'s", card=card, player=owner)

    def fact(self, fact: Fact, *, it: bool = False) -> Message:
        """The fact as a clause: "Veera holds köysi", "köysi is not in the envelope"; with
        ``it`` (a ``no`` fact) the card is "it"."""
        card, owner = fact.card, fact.owner
        if it and not fact.holds:
            if owner == ENVELOPE:
                return say("it is not in the envelope")
            if owner == SIDE:
                return say("it is not a side card")
            if owner == self.you:
                return say("you do not hold it")
            return say("{player} does not hold it", player=owner)
        if owner == ENVELOPE:
            if fact.holds:
                return say("{card} is in the envelope", card=card)
            return say("{card} is not in the envelope", card=card)
        if owner == SIDE:
            if fact.holds:
                return say("{card} is a side card", card=card)
            return say("{card} is not a side card", card=card)
        if owner == self.you:
            if fact.holds:
                return say("you hold {card}", card=card)
            return say("you do not hold {card}", card=card)
        if fact.holds:
            return say("{player} holds {card}", player=owner, card=card)
        return say("{player} does not hold {card}", player=owner, card=card)

    def reason_not(self, card: str, owner: str, premise: Fact | None) -> Message:
        """Why ``owner`` lacks ``card``: the premise fact, or the card lies face up."""
        if premise is None:
            return say("{card} lies face up", card=card)
        if premise.holds:
            return self.owned(card, premise.owner)
        return self.fact(premise)

    @staticmethod
    def triple(cards: Iterable[str]) -> Listing:
        """"(Regina, köysi, autotalli)"; "(Regina、köysi、autotalli)" in Japanese."""
        return Listing(tuple(cards), ",", enclosed=True)

    @staticmethod
    def listing(items: Sequence[Arg], conjunction: str = "and") -> Listing:
        """"a", "a and b", "a, b and c" (in the reader's language)."""
        return Listing(tuple(items), conjunction)

    def note(self, note: Note) -> Message:
        """A note as a clause, with its remark: "Bob does not hold Rope — “saw it”"."""
        return statement_message(note, self.you, remarked=True)

    def event(self, number: int, event: Event) -> Message | Listing:
        """What happened in one event, briefly (for combined steps)."""
        me = self.you
        if isinstance(event, Note):
            if self.noter is not None:
                return say("{player}'s note: {note}", player=self.noter, note=self.note(event))
            if self.unnamed:
                return say("a note: {note}", note=self.note(event))
            return say("your note: {note}", note=self.note(event))
        cards = self.triple(event.cards)
        if isinstance(event, Reveal):
            if event.whole_hand:
                return say("{player}'s whole hand {cards} revealed", player=event.player,
                           cards=cards)
            return say("{player}'s {cards} revealed", player=event.player, cards=cards)
        if isinstance(event, Accusation):
            if event.by == me:
                if event.correct:
                    return say("You accused {cards}, right", cards=cards)
                return say("You accused {cards}, wrong", cards=cards)
            if event.correct:
                return say("{player} accused {cards}, right", player=event.by, cards=cards)
            return say("{player} accused {cards}, wrong", player=event.by, cards=cards)
        parts: list[Arg] = [
            say("You asked {cards}", cards=cards) if event.by == me
            else say("{player} asked {cards}", player=event.by, cards=cards)
        ]
        if event.passes:
            parts.append(say_n("{players} passed", "{players} passed", len(event.passes),
                               players=self.listing([self.who(p) for p in event.passes])))
        if event.refuted_by is not None:
            refuter = self.who(event.refuted_by)
            if event.shown:
                parts.append(say("{player} answered with {card}", player=refuter,
                                 card=event.shown))
            else:
                parts.append(say("{player} answered", player=refuter))
        elif event.side_peek is not None:
            card, slot = event.side_peek.card, event.side_peek.slot
            if card:
                parts.append(say("nobody answered; side card {slot} was looked at: {card}",
                                 slot=slot, card=card))
            else:
                parts.append(say("nobody answered; side card {slot} was looked at", slot=slot))
        else:
            parts.append(say("nobody answered"))
        return self.listing(parts, ",")


class Context:
    """What every derivation of one log state shares: setup, events, SAT model and a solver."""

    def __init__(
        self,
        model: DealModel,
        events: Sequence[Event],
        setup: Iterable[Fact] = (),
        *,
        solver: str = SOLVER,
        addressed: bool = True,
    ) -> None:
        self.game = model.game
        self.model = model
        self.events: tuple[Event, ...] = tuple(events)
        self.words = Words(self.game, addressed=addressed)
        self.places = forum_dealt(self.game)
        """Whether the third category is called places (the forum variant's)."""
        self.live = frozenset(model.live_cards)
        self.solver = Solver(name=solver, bootstrap_with=model.clauses)
        self.owners = self.game.owners
        self.players = self.game.player_names
        self.setup: frozenset[Fact] = frozenset(f for f in setup if f.card in self.live)
        self._literals: dict[Fact, int] = {}
        self._deals: list[set[int]] = []
        number = {s: n for n, s in enumerate(model.selectors, 1)}
        self._event_clauses: dict[int, list[list[int]]] = {n: [] for n in number.values()}
        for clause in model.clauses:
            if clause and clause[0] < 0 and -clause[0] in number:
                self._event_clauses[number[-clause[0]]].append(clause[1:])
        watched = set(model.cells)
        for clauses in self._event_clauses.values():
            watched.update(abs(lit) for clause in clauses for lit in clause)
        self._watched = sorted(watched)
        """Facts the setup alone entails (the grid before any event)."""

    def close(self) -> None:
        """Free the solver."""
        self.solver.delete()

    def literal(self, fact: Fact) -> int:
        """The SAT literal of a fact."""
        literal = self._literals.get(fact)
        if literal is None:
            var = self.model.holds(fact.owner, fact.card)
            literal = self._literals[fact] = var if fact.holds else -var
        return literal

    def selector(self, number: int) -> int:
        """The selector of event ``number`` (1-based)."""
        return self.model.selectors[number - 1]

    def entails(self, events: Iterable[int], facts: Iterable[Fact], goal: Fact | None) -> bool:
        """Whether the setup, ``events`` and ``facts`` entail ``goal`` (``None``: a clash).

        A deal the solver found earlier that fits the premises but not the goal settles it
        without a solver call (most premises checked are needed, so most answers are "no").
        """
        numbers = list(events)
        literals = [self.literal(f) for f in facts if f.card in self.live]
        if goal is not None:
            if goal.card not in self.live:
                return not goal.holds
            literals.append(-self.literal(goal))
        for true in reversed(self._deals):
            if all((lit in true) if lit > 0 else (-lit not in true) for lit in literals) and all(
                self._fits(true, n) for n in numbers
            ):
                return False
        checkpoint()
        if self.solver.solve(assumptions=[self.selector(n) for n in numbers] + literals):
            model = self.solver.get_model() or []
            self._deals.append({v for v in self._watched if model[v - 1] > 0})
            del self._deals[:-DEALS_KEPT]
            return False
        return True

    def _fits(self, true: set[int], number: int) -> bool:
        """Whether a deal (its true variables) satisfies event ``number``'s clauses."""
        return all(
            any((lit in true) if lit > 0 else (-lit not in true) for lit in clause)
            for clause in self._event_clauses[number]
        )

    def minimal_events(self, events: Iterable[int], goal: Fact | None) -> tuple[int, ...]:
        """A subset of ``events`` entailing ``goal`` from which no event can be dropped."""
        kept = sorted(events)
        i = 0
        while i < len(kept):
            trial = kept[:i] + kept[i + 1 :]
            if self.entails(trial, (), goal):
                kept = trial
            else:
                i += 1
        return tuple(kept)


class Derivation:
    """Derive facts step by step from some of the log's events until the goals are reached.

    ``goals``: the facts to reach (the determined cells of the grid). ``None`` means: the events
    are contradictory, derive until an impossibility. Steps land in `steps`; `known` maps each
    settled cell to the step that settled it.
    """

    def __init__(
        self,
        context: Context,
        events: Iterable[int],
        goals: Iterable[Fact] | None,
    ) -> None:
        self.ctx = context
        self.allowed = tuple(sorted(set(events)))
        self.goals: set[Fact] | None = None if goals is None else set(goals)
        self._phase_goals: set[Fact] | None = set(context.setup)
        self._phase_events: tuple[int, ...] = ()
        self.steps: list[RawStep] = []
        self.known: dict[tuple[str, str], int] = {}
        self.closure: list[frozenset[int]] = []
        self.event_closure: list[frozenset[int]] = []
        self.cost: list[int] = []
        self._literal: dict[int, int] = {}
        self.contradiction: int | None = None
        self._queue: list[_Candidate] = []
        self._seq = 0
        self._holder: dict[str, int] = {}
        self._yes: dict[str, list[int]] = {o: [] for o in context.owners}
        game = context.game
        self._by_card: dict[str, list[OneOf]] = {c: [] for c in game.deck}
        self._answers: dict[str, list[OneOf]] = {o: [] for o in context.owners}
        self._accusations: dict[str, list[tuple[int, Accusation]]] = {c: [] for c in game.deck}

    # --- the main loop ------------------------------------------------------------------------

    def run(self) -> Derivation:
        """Derive until every goal is settled (or a contradiction is shown).

        First what the setup alone entails, without any event, so that no later step cites an
        event for a fact the setup already gives; then everything else.
        """
        self._seed_setup()
        self._loop()
        self._phase_goals, self._phase_events = self.goals, self.allowed
        for n in self.allowed:
            self._seed_event(n, self.ctx.events[n - 1])
        for player in self.ctx.players:
            self._full_with_answers(player)
        self._loop()
        return self

    def reach(self, goal: Fact) -> int:
        """Derive one more goal after `run` (entailed by the allowed events); its step."""
        if goal.cell not in self.known:
            assert self.goals is not None and self._phase_goals is self.goals
            self.goals.add(goal)
            self._loop()
        return self.known[goal.cell]

    def _loop(self) -> None:
        while not self.done():
            if self._queue:
                step = heapq.heappop(self._queue).step
                fact = step.fact
                if fact is not None and fact.cell in self.known and self.fact_of(fact.cell) == fact:
                    continue
                if not self._checked(step):
                    continue
                if step.fact is not None and step.fact.cell in self.known:
                    self._clash(step)
                else:
                    self._add(step)
            else:
                combined = self._combined()
                if combined is None:
                    break
                self._add(combined)

    def done(self) -> bool:
        """Whether every goal of the current phase is settled, or a contradiction shown."""
        if self.contradiction is not None:
            return True
        if self._phase_goals is None:
            return False
        return all(g.cell in self.known for g in self._phase_goals)

    def _checked(self, step: RawStep) -> bool:
        """Whether the solver confirms a rule step: what it cites entails its conclusion, and no
        cited event or fact (beyond the setup's) can be dropped. Combined steps are cores."""
        if step.rule == "combined":
            return True
        facts = [self.fact_of_step(p) for p in step.premises]
        if not self.ctx.entails(step.events, facts, step.fact):
            return False
        droppable = [("e", n) for n in step.events]
        droppable += [("f", p) for p in step.premises if self.event_closure[p]]
        if len(droppable) < 2:
            return True
        for item in droppable:
            events = [n for n in step.events if item != ("e", n)]
            facts = [self.fact_of_step(p) for p in step.premises if item != ("f", p)]
            if self.ctx.entails(events, facts, step.fact):
                return False
        return True

    def fact_of(self, cell: tuple[str, str]) -> Fact:
        """The settled fact of a cell."""
        fact = self.steps[self.known[cell]].fact
        assert fact is not None
        return fact

    def _push(self, step: RawStep) -> None:
        fact = step.fact
        if fact is not None and fact.cell in self.known and self.fact_of(fact.cell) == fact:
            return
        union = frozenset().union(*(self.closure[p] for p in step.premises))
        cost = WEIGHTS[step.rule] + sum(WEIGHTS[self.steps[p].rule] for p in union)
        self._seq += 1
        heapq.heappush(self._queue, _Candidate(cost, self._seq, step))

    def _add(self, step: RawStep) -> int:
        index = len(self.steps)
        self.steps.append(step)
        closure = frozenset({index}).union(*(self.closure[p] for p in step.premises))
        self.closure.append(closure)
        self.event_closure.append(
            frozenset(step.events).union(*(self.event_closure[p] for p in step.premises))
        )
        self.cost.append(sum(WEIGHTS[self.steps[p].rule] for p in closure))
        fact = step.fact
        if fact is None:
            self.contradiction = index
            return index
        self.known[fact.cell] = index
        if fact.card in self.ctx.live:
            self._literal[index] = self.ctx.literal(fact)
        if fact.holds:
            self._holder[fact.card] = index
            self._yes[fact.owner].append(index)
            self._after_yes(fact, index)
        else:
            self._after_no(fact)
        return index

    def _clash(self, step: RawStep) -> None:
        assert step.fact is not None
        earlier = self.known[step.fact.cell]
        index = self._add_detached(step)
        words = self.ctx.words
        yes = step.fact if step.fact.holds else step.fact.negated()
        both = {"yes": words.fact(yes), "no": words.fact(yes.negated())}
        cited = self.event_closure[earlier] | self.event_closure[index]
        if len(cited) > 1:
            text = say("So both “{yes}” and “{no}” would be true: these entries cannot all be "
                       "right.", **both)
        elif cited:  # one entry against the setup (my hand, the hand sizes)
            text = say("So both “{yes}” and “{no}” would be true: this entry cannot be right "
                       "with the game's setup.", **both)
        else:
            text = say("So both “{yes}” and “{no}” would be true: the game's setup cannot be "
                       "right.", **both)
        self._add(RawStep(None, "clash", text, (), (earlier, index)))

    def _add_detached(self, step: RawStep) -> int:
        """Record a step whose cell is already settled the other way (it shows a clash)."""
        index = len(self.steps)
        self.steps.append(step)
        self.closure.append(frozenset({index}).union(*(self.closure[p] for p in step.premises)))
        self.event_closure.append(
            frozenset(step.events).union(*(self.event_closure[p] for p in step.premises))
        )
        self.cost.append(0)
        return index

    # --- premises -----------------------------------------------------------------------------

    def excluded(self, card: str, owner: str) -> int | None:
        """The cheapest settled step showing ``owner`` lacks ``card``: a ``no`` or a holder."""
        options = []
        index = self.known.get((card, owner))
        if index is not None and not self.fact_of((card, owner)).holds:
            options.append(index)
        holder = self._holder.get(card)
        if holder is not None and self.fact_of_step(holder).owner != owner:
            options.append(holder)
        return min(options, key=lambda i: self.cost[i], default=None)

    def fact_of_step(self, index: int) -> Fact:
        """The fact a step concluded."""
        fact = self.steps[index].fact
        assert fact is not None
        return fact

    def _reason(self, card: str, owner: str, premise: int | None) -> Message:
        fact = None if premise is None else self.fact_of_step(premise)
        return self.ctx.words.reason_not(card, owner, fact)

    # --- rules from the setup and from single events --------------------------------------------

    def _seed_setup(self) -> None:
        ctx, game = self.ctx, self.ctx.game
        if game.me is not None:
            for card in game.my_cards:
                self._push(RawStep(Fact(card, game.me, True), "my-hand", say(
                    "You hold {card} (your own hand).", card=card) if ctx.words.noter is None
                    else say("{player} holds {card} ({player}'s own hand).", player=game.me,
                             card=card)))
        for owner in ctx.owners:
            if owner != ENVELOPE and game.capacity(owner) == 0:
                for card in sorted(ctx.live):
                    if owner == ctx.words.you:
                        text = say("You hold no cards at all, so not {card}.", card=card)
                    elif owner == SIDE:
                        text = say("There are no side cards, so {card} is not one.", card=card)
                    else:
                        text = say("{player} holds no cards at all, so not {card}.",
                                   player=owner, card=card)
                    self._push(RawStep(Fact(card, owner, False), "empty-hand", text))
        for card in sorted(ctx.live):
            self._single_owner(card)
        for category in CATEGORIES:
            self._last_candidate(category)
        for owner in ctx.owners:
            self._needs_all(owner)

    def _seed_event(self, n: int, event: Event) -> None:
        words, live = self.ctx.words, self.ctx.live
        if isinstance(event, Reveal):
            mine, player = event.player == words.you, event.player
            for card in event.cards:
                if card not in live:
                    text = (say("Your {card} was revealed in event {n}, but {card} lies face up.",
                                card=card, n=n) if mine else
                            say("{player}'s {card} was revealed in event {n}, but {card} lies "
                                "face up.", player=player, card=card, n=n))
                    self._impossible(text, (n,))
                else:
                    text = (say("Your {card} was revealed to you (event {n}).", card=card, n=n)
                            if mine else
                            say("{player}'s {card} was revealed to you (event {n}).",
                                player=player, card=card, n=n) if words.addressed else
                            say("{player}'s {card} was revealed (event {n}).", player=player,
                                card=card, n=n))
                    self._push(RawStep(Fact(card, player, True), "reveal", text, (n,)))
            if event.whole_hand:
                shown = words.triple(event.cards)
                for card in sorted(live - set(event.cards)):
                    text = (say("Your whole hand {cards} was revealed in event {n}, so you hold "
                                "nothing else: not {card}.", cards=shown, n=n, card=card)
                            if mine else
                            say("{player}'s whole hand {cards} was revealed in event {n}, so "
                                "{player} holds nothing else: not {card}.", player=player,
                                cards=shown, n=n, card=card))
                    self._push(RawStep(Fact(card, player, False), "whole-hand", text, (n,)))
            return
        if isinstance(event, Accusation):
            if not event.correct:
                for card in event.cards:
                    self._accusations[card].append((n, event))
                self._wrong_accusation(n, event)
            if event.correct:
                triple = words.triple(event.cards)
                said = (say("You accused {cards} in event {n} and were right", cards=triple, n=n)
                        if event.by == words.you else
                        say("{player} accused {cards} in event {n} and was right",
                            player=event.by, cards=triple, n=n))
                for card in event.cards:
                    if card not in live:
                        self._impossible(_face_up(said, card), (n,))
                    else:
                        self._push(RawStep(Fact(card, ENVELOPE, True), "accusation-right",
                                           say("{said}, so {card} is in the envelope.",
                                               said=said, card=card), (n,)))
            return
        if isinstance(event, Note):
            self._seed_note(n, event)
            return
        self._seed_suggestion(n, event)

    def _seed_note(self, n: int, note: Note) -> None:
        words, live = self.ctx.words, self.ctx.live
        noter = words.noter
        said = (say("{player} noted in event {n} that {note}", player=noter, n=n,
                    note=words.note(note)) if noter is not None else
                say("Noted in event {n} that {note}", n=n, note=words.note(note))
                if words.unnamed else
                say("You noted in event {n} that {note}", n=n, note=words.note(note)))
        if note.holds_one_of:
            self._one_of(OneOf(n, note.owner, note.holds_one_of, said,
                               say("{player}'s note, event {n}", player=noter, n=n)
                               if noter is not None else
                               say("a note, event {n}", n=n) if words.unnamed else
                               say("your note, event {n}", n=n), noted=True))
        for card in note.holds:
            if card not in live:
                self._impossible(_face_up(said, card), (n,))
            else:
                fact = Fact(card, note.owner, True)
                text = (say("{said}.", said=said) if len(note.holds) == 1 else
                        say("{said}: {fact}.", said=said, fact=words.fact(fact)))
                self._push(RawStep(fact, "note", text, (n,)))
        for card in note.lacks:
            if card in live:
                fact = Fact(card, note.owner, False)
                text = (say("{said}.", said=said) if len(note.lacks) == 1 else
                        say("{said}: not {card}.", said=said, card=card))
                self._push(RawStep(fact, "note", text, (n,)))

    def _one_of(self, one: OneOf) -> None:
        """Record an open "holds at least one of" and narrow it down if it already can be."""
        self._answers[one.owner].append(one)
        for card in one.cards:
            self._by_card[card].append(one)
        if not any(c in self.ctx.live for c in one.cards):
            self._impossible(say("{said}, but all of them lie face up.", said=one.said),
                             (one.event,))
        else:
            self._narrow(one)

    def _seed_suggestion(self, n: int, event: Suggestion) -> None:
        words, live = self.ctx.words, self.ctx.live
        me, noter = words.you, words.noter
        asked = words.triple(event.cards)
        for player in event.passes:
            for card in event.cards:
                if card in live:
                    text = (say("You could not answer {cards} in event {n}, so you hold none of "
                                "them: not {card}.", cards=asked, n=n, card=card)
                            if player == me else
                            say("{player} could not answer {cards} in event {n}, so {player} "
                                "holds none of them: not {card}.", player=player, cards=asked,
                                n=n, card=card))
                    self._push(RawStep(Fact(card, player, False), "pass", text, (n,)))
        refuter, shown = event.refuted_by, event.shown
        if refuter is not None and shown is not None:
            if shown not in live:
                if event.by == me:
                    text = say("{player} showed you {card} (event {n}), but {card} lies face up.",
                               player=words.who(refuter), card=shown, n=n)
                elif refuter == me:
                    text = say("You showed {card} to {player} (event {n}), but {card} lies face "
                               "up.", card=shown, player=event.by, n=n)
                else:
                    text = say("{refuter} showed {card} to {player} (event {n}), but {card} "
                               "lies face up.", refuter=refuter, card=shown,
                               player=words.who(event.by), n=n)
                self._impossible(text, (n,))
            else:
                if event.by == me:
                    text = say("{player} showed you {card} (event {n}).",
                               player=words.who(refuter), card=shown, n=n)
                elif refuter == me:
                    text = say("You showed {card} to {player} (event {n}).", card=shown,
                               player=event.by, n=n)
                else:
                    text = say("{refuter} showed {card} to {player} (event {n}).",
                               refuter=refuter, card=shown, player=words.who(event.by), n=n)
                self._push(RawStep(Fact(shown, refuter, True), "seen", text, (n,)))
            if event.shown_by_rule == FIRST_IN_ORDER:
                rank = CATEGORIES.index(self.ctx.game.category_of(shown))
                for card in event.cards:
                    category = self.ctx.game.category_of(card)
                    if card in live and CATEGORIES.index(category) < rank:
                        self._push(RawStep(
                            Fact(card, refuter, False), "first-in-order",
                            say("In event {n} {player}'s card was picked by the first-in-order "
                                "rule (suspect, weapon, place) and it was {shown}, so {fact}.",
                                n=n, player=refuter, shown=shown,
                                fact=words.fact(Fact(card, refuter, False)))
                            if self.ctx.places else
                            say("In event {n} {player}'s card was picked by the first-in-order "
                                "rule (suspect, weapon, room) and it was {shown}, so {fact}.",
                                n=n, player=refuter, shown=shown,
                                fact=words.fact(Fact(card, refuter, False))), (n,)))
        elif refuter is not None:
            said = (say("You answered {cards} in event {n}", cards=asked, n=n) if refuter == me
                    else say("{player} answered {cards} in event {n}", player=refuter,
                             cards=asked, n=n))
            self._one_of(OneOf(n, refuter, event.cards, said, say("answered in event {n}", n=n)))
        peek = event.side_peek
        if peek is not None and peek.card is not None:
            if peek.card not in live:
                self._impossible(say("After event {n} {player} looked at side card {slot}: "
                                     "{card}, but {card} lies face up.", n=n, player=noter,
                                     slot=peek.slot, card=peek.card) if noter is not None else
                                 say("After event {n} side card {slot} was looked at: {card}, "
                                     "but {card} lies face up.", n=n, slot=peek.slot,
                                     card=peek.card) if words.unnamed else
                                 say("After event {n} you looked at side card {slot}: {card}, "
                                     "but {card} lies face up.", n=n, slot=peek.slot,
                                     card=peek.card), (n,))
            else:
                self._push(RawStep(Fact(peek.card, SIDE, True), "side-peek",
                                   say("After event {n} {player} looked at side card {slot}: "
                                       "{card}, so {card} is a side card.", n=n, player=noter,
                                       slot=peek.slot, card=peek.card) if noter is not None else
                                   say("After event {n} side card {slot} was looked at: {card}, "
                                       "so {card} is a side card.", n=n, slot=peek.slot,
                                       card=peek.card) if words.unnamed else
                                   say("After event {n} you looked at side card {slot}: {card}, "
                                       "so {card} is a side card.", n=n, slot=peek.slot,
                                       card=peek.card), (n,)))

    def _impossible(self, text: Message, events: tuple[int, ...],
                    premises: Sequence[int] = ()) -> None:
        self._push(RawStep(None, "impossible", text, events, tuple(premises)))

    # --- rules that combine facts ---------------------------------------------------------------

    def _after_yes(self, fact: Fact, index: int) -> None:
        ctx, words = self.ctx, self.ctx.words
        card, owner = fact.card, fact.owner
        game = ctx.game
        for other in ctx.owners:
            if other != owner:
                self._push(RawStep(
                    Fact(card, other, False), "one-owner",
                    _so(words.owned(card, owner), words.fact(Fact(card, other, False), it=True)),
                    (), (index,)))
        category = game.category_of(card)
        if owner == ENVELOPE:
            for other_card in self._category_live(category):
                if other_card != card:
                    self._push(RawStep(
                        Fact(other_card, ENVELOPE, False), "one-per-category",
                        _one_per_category(category, card, other_card, ctx.places), (),
                        (index,)))
            for n, accusation in self._accusations[card]:
                self._wrong_accusation(n, accusation)
        else:
            self._full_hand(owner)
            self._full_with_answers(owner)
            self._last_candidate(category)
        for one in self._by_card[card]:
            if one.owner != owner:
                self._narrow(one)
        for other in ctx.owners:
            if other not in (ENVELOPE, owner):
                self._needs_all(other)
                if any(card in one.cards for one in self._answers[other]):
                    self._full_with_answers(other)
        self._needs_all(owner)

    def _after_no(self, fact: Fact) -> None:
        card, owner = fact.card, fact.owner
        self._single_owner(card)
        for one in self._by_card[card]:
            if one.owner == owner:
                self._narrow(one)
        if owner == ENVELOPE:
            self._last_candidate(self.ctx.game.category_of(card))
        else:
            self._needs_all(owner)
            if any(card in one.cards for one in self._answers[owner]):
                self._full_with_answers(owner)

    def _category_live(self, category: Category) -> list[str]:
        return [c for c in self.ctx.game.deck.of(category) if c in self.ctx.live]

    def _narrow(self, one: OneOf) -> None:
        """A refutation or a note: the owner holds one of the cards; all but one are ruled out."""
        owner, words = one.owner, self.ctx.words
        open_cards, reasons, premises = [], [], []
        for card in one.cards:
            if card not in self.ctx.live:
                reasons.append(self._reason(card, owner, None))
                continue
            premise = self.excluded(card, owner)
            if premise is None:
                open_cards.append(card)
            else:
                reasons.append(self._reason(card, owner, premise))
                premises.append(premise)
        if len(open_cards) > 1:
            return
        said = (say("{said}; {reasons}", said=one.said, reasons=words.listing(reasons))
                if reasons else one.said)
        if not open_cards:
            left = (say("{said}, so none of them is left.", said=said) if one.noted
                    else say("{said}, so nothing is left to have shown.", said=said))
            self._impossible(left, (one.event,), premises)
            return
        fact = Fact(open_cards[0], owner, True)
        text = _so(said, words.fact(fact)) if reasons else say("{said}.", said=said)
        self._push(RawStep(fact, "narrowed" if reasons else "note", text, (one.event,),
                           tuple(premises)))

    def _wrong_accusation(self, n: int, event: Accusation) -> None:
        if not all(c in self.ctx.live for c in event.cards):
            return
        inside = [self._holder.get(c) for c in event.cards]
        known = [i for i in inside if i is not None and self.fact_of_step(i).owner == ENVELOPE]
        if len(known) < 2:
            return
        words = self.ctx.words
        cards = [self.fact_of_step(i).card for i in known[:2]]
        triple, both = words.triple(event.cards), words.listing(cards)
        said = (say("Your accusation {cards} in event {n} was wrong; {known} are in the "
                    "envelope", cards=triple, n=n, known=both) if event.by == words.you
                else say("{player}'s accusation {cards} in event {n} was wrong; {known} are in "
                         "the envelope", player=event.by, cards=triple, n=n, known=both))
        rest = [c for c in event.cards if c not in cards]
        if len(known) == 3:
            self._impossible(say("{said}, and so is {card}.", said=said, card=rest[0]), (n,),
                             known)
            return
        fact = Fact(rest[0], ENVELOPE, False)
        self._push(RawStep(fact, "wrong-accusation",
                           say("{said}, so {card} is not.", said=said, card=rest[0]), (n,),
                           tuple(known)))

    def _full_hand(self, owner: str) -> None:
        """An owner's cards are all known: nothing else is theirs."""
        game, words = self.ctx.game, self.ctx.words
        yes = self._yes[owner]
        capacity = game.capacity(owner)
        if len(yes) < capacity or capacity == 0:
            return
        cards = [self.fact_of_step(i).card for i in yes[:capacity]]
        known = words.triple(cards)
        if owner == SIDE:
            said = say_n("The {count} side card is known {cards}",
                         "The {count} side cards are all known {cards}", capacity,
                         count=capacity, cards=known)
        elif owner == words.you:
            said = say_n("Your {count} card is known {cards}",
                         "Your {count} cards are all known {cards}", capacity,
                         count=capacity, cards=known)
        else:
            said = say_n("{player}'s {count} card is known {cards}",
                         "{player}'s {count} cards are all known {cards}", capacity,
                         player=owner, count=capacity, cards=known)
        if len(yes) > capacity:
            extra = self.fact_of_step(yes[capacity]).card
            self._impossible(say("{said}, yet {owned} too.", said=said,
                                 owned=words.owned(extra, owner)), (), yes[: capacity + 1])
            return
        for card in sorted(self.ctx.live - set(cards)):
            fact = Fact(card, owner, False)
            text = (say("{said}, so no other card is: not {card}.", said=said, card=card)
                    if owner == SIDE else _so(said, words.fact(fact)))
            self._push(RawStep(fact, "full-hand", text, (), tuple(yes)))

    def _full_with_answers(self, owner: str) -> None:
        """Known cards plus one card for each separate open answer fill the hand.

        Answers count as separate when they share no card the owner may hold; a shared card
        the owner cannot hold is set aside, citing why.
        """
        if owner not in self.ctx.players:
            return
        live, words = self.ctx.live, self.ctx.words
        yes = self._yes[owner]
        capacity = self.ctx.game.capacity(owner)
        need = capacity - len(yes)
        if need <= 0:
            return
        held = {self.fact_of_step(i).card for i in yes}
        used = set(held)
        premises = list(yes)
        parts: list[Arg] = list(sorted(held))
        events: list[int] = []
        for one in self._answers[owner]:
            cards = {c for c in one.cards if c in live}
            if cards & held:
                continue
            reasons, excluded = [], []
            for card in sorted(cards & used):
                premise = self.excluded(card, owner)
                if premise is None:
                    break
                reasons.append(self._reason(card, owner, premise))
                excluded.append(premise)
            else:
                left = [c for c in one.cards if c in cards - used]
                if not left:
                    continue
                group = words.triple(left)
                parts.append(
                    say("one of {cards} ({source}; {reasons})", cards=group, source=one.source,
                        reasons=words.listing(reasons)) if reasons else
                    say("one of {cards} ({source})", cards=group, source=one.source))
                events.append(one.event)
                premises += excluded
                used |= cards
                if len(events) == need:
                    break
        if len(events) < need:
            return
        mine, listed = owner == words.you, words.listing(parts)
        for card in sorted(live - used):
            fact = Fact(card, owner, False)
            text = (say_n("You hold {count} card: {cards}, so you hold nothing else: not {card}.",
                          "You hold {count} cards: {cards}, so you hold nothing else: "
                          "not {card}.", capacity, count=capacity, cards=listed, card=card)
                    if mine else
                    say_n("{player} holds {count} card: {cards}, so {player} holds nothing "
                          "else: not {card}.", "{player} holds {count} cards: {cards}, so "
                          "{player} holds nothing else: not {card}.", capacity, player=owner,
                          count=capacity, cards=listed, card=card))
            self._push(RawStep(fact, "full-with-answers", text,
                               tuple(events), tuple(dict.fromkeys(premises))))

    def _needs_all(self, owner: str) -> None:
        """An owner holds k cards and only k are possible: all of them are theirs.

        Only the exclusions are premises: a card already known to be the owner's counts as
        possible, so citing it would add nothing.
        """
        if owner == ENVELOPE:
            return
        game, words = self.ctx.game, self.ctx.words
        capacity = game.capacity(owner)
        held = {self.fact_of_step(i).card for i in self._yes[owner]}
        if len(held) >= capacity:
            return
        possible: list[str] = []
        premises = []
        for card in sorted(self.ctx.live):
            premise = None if card in held else self.excluded(card, owner)
            if premise is None:
                possible.append(card)
                if len(possible) > capacity:
                    return
            else:
                premises.append(premise)
        only = (say_n("only {cards} is possible", "only {cards} are possible", len(possible),
                      cards=words.listing(possible))
                if possible else say("only none are possible"))
        if owner == SIDE:
            said = say_n("There is {count} side card and {possible}",
                         "There are {count} side cards and {possible}", capacity,
                         count=capacity, possible=only)
        elif owner == words.you:
            said = say_n("You hold {count} card and {possible}",
                         "You hold {count} cards and {possible}", capacity,
                         count=capacity, possible=only)
        else:
            said = say_n("{player} holds {count} card and {possible}",
                         "{player} holds {count} cards and {possible}", capacity,
                         player=owner, count=capacity, possible=only)
        if len(possible) < capacity:
            self._impossible(say("{said}: too few.", said=said), (), premises)
            return
        for card in possible:
            if card not in held:
                fact = Fact(card, owner, True)
                self._push(RawStep(fact, "needs-all", _so(said, words.fact(fact)), (),
                                   tuple(premises)))

    def _single_owner(self, card: str) -> None:
        """Every owner but one lacks the card: the last one holds it."""
        if card in self._holder:
            return
        words = self.ctx.words
        found = self._sole_possible((card, owner) for owner in self.ctx.owners)
        if found is None:
            return
        left = [owner for _, owner in found[0]]
        premises = found[1]
        others = [words.who(o) for o in self.ctx.owners if o not in left]
        said = say("{owners} cannot hold {card}", owners=words.listing(others), card=card)
        if not left:
            self._impossible(say("{said}: nobody can.", said=said), (), premises)
            return
        fact = Fact(card, left[0], True)
        self._push(RawStep(fact, "single-owner", _so(said, words.fact(fact)), (),
                           tuple(premises)))

    def _last_candidate(self, category: Category) -> None:
        """Every other card of a category is accounted for: the last one is in the envelope."""
        cards = self._category_live(category)
        if any(self._holder_is(c, ENVELOPE) for c in cards):
            return
        found = self._sole_possible((card, ENVELOPE) for card in cards)
        if found is None:
            return
        left = [card for card, _ in found[0]]
        premises = found[1]
        if not premises and left:
            fact = Fact(left[0], ENVELOPE, True)
            self._push(RawStep(fact, "last-candidate",
                               _only_left(category, left[0], self.ctx.places)))
            return
        if not left:
            self._impossible(_none_left(category, self.ctx.places), (), premises)
            return
        fact = Fact(left[0], ENVELOPE, True)
        self._push(RawStep(fact, "last-candidate",
                           _every_other(category, left[0], self.ctx.places),
                           (), tuple(premises)))

    def _sole_possible(
        self, cells: Iterable[tuple[str, str]]
    ) -> tuple[list[tuple[str, str]], list[int]] | None:
        """Of these (card, owner) cells, the ones not yet excluded (at most one) and the steps
        excluding the rest; ``None`` as soon as two are still possible."""
        left: list[tuple[str, str]] = []
        premises: list[int] = []
        for card, owner in cells:
            premise = self.excluded(card, owner)
            if premise is None:
                left.append((card, owner))
                if len(left) > 1:
                    return None
            else:
                premises.append(premise)
        return left, premises

    def _holder_is(self, card: str, owner: str) -> bool:
        index = self._holder.get(card)
        return index is not None and self.fact_of_step(index).owner == owner

    # --- the combined step ----------------------------------------------------------------------

    def _combined(self) -> RawStep | None:
        """No simple rule applies: explain the cheapest open goal with a minimal core."""
        ctx = self.ctx
        if self._phase_goals is None:
            open_goals: list[Fact | None] = [None]
        else:
            open_goals = [g for g in sorted(self._phase_goals) if g.cell not in self.known]
        if not open_goals:
            return None
        facts = [i for i, s in enumerate(self.steps)
                 if s.fact is not None and self.event_closure[i] and s.fact.card in ctx.live
                 and self.known.get(s.fact.cell) == i]
        sized = []
        for goal in open_goals:
            core = self._core(goal, list(self._phase_events), facts)
            if core is not None:
                sized.append((len(core[0]), len(core[1]), goal, core[0]))
        if not sized:
            return None
        # a "yes" first on a tie: one owner per card then settles the rest of its row
        _, _, goal, events = min(sized, key=lambda t: (t[0], t[1], not (t[2] and t[2].holds)))
        events, premises = self._shrink(goal, events, facts)
        return self._combined_step(goal, events, premises)

    def _assume(self, events: Sequence[int], premises: Sequence[int]) -> list[int]:
        ctx = self.ctx
        return [ctx.selector(n) for n in events] + [self._literal[p] for p in premises]

    def _core(
        self, goal: Fact | None, events: list[int], premises: list[int], *, trial: bool = False
    ) -> tuple[list[int], list[int]] | None:
        """The events and facts of an unsatisfiable core with the goal negated, or ``None``.

        A ``trial`` (a candidate for dropping premises) gets a conflict budget: when the solver
        cannot settle it within the budget, the premises are kept (``None``), so a rare hard
        case costs a less than minimal step instead of seconds.
        """
        checkpoint()
        ctx = self.ctx
        extra = [] if goal is None else [-ctx.literal(goal)]
        assumptions = self._assume(events, premises) + extra
        if trial:
            ctx.solver.conf_budget(TRIAL_CONFLICTS)
            if ctx.solver.solve_limited(assumptions=assumptions) is not False:
                return None
        elif ctx.solver.solve(assumptions=assumptions):
            return None
        core = set(ctx.solver.get_core() or ())
        return ([n for n in events if ctx.selector(n) in core],
                [p for p in premises if self._literal[p] in core])

    def _shrink(
        self, goal: Fact | None, events: list[int], facts: list[int]
    ) -> tuple[list[int], list[int]]:
        """A minimal core (as python-sat's ``musx``, by deletion), small in what it cites.

        Two orders, the shorter result wins (fewer events on a tie). Facts first, with the
        first core's events: a fact the events give anyway is dropped; this is cheap and
        avoids long counting arguments over many facts. Events first, with every known fact:
        known facts stand in for events; this reads best but can be costly, so it runs on a
        budget of solver calls and only when the first order cites two events or more.
        Dropping premises of one kind never makes one of the other kind unneeded, so both
        results are minimal.
        """
        core = self._core(goal, events, facts)
        assert core is not None
        chosen = sorted(core[1], key=lambda p: -self.cost[p])
        chosen = _deletion(chosen, lambda t: self._core(goal, events, t, trial=True), 1)
        kept = _deletion(events, lambda t: self._core(goal, t, chosen, trial=True), 0)
        best = (kept, sorted(chosen))
        if len(kept) < 2:
            return best
        calls = [4 * (len(kept) + len(chosen)) + 20]

        def budgeted(
            trial_events: list[int], trial_facts: list[int]
        ) -> tuple[list[int], list[int]] | None:
            calls[0] -= 1
            if calls[0] < 0:
                raise _OutOfBudget
            return self._core(goal, trial_events, trial_facts, trial=True)

        try:
            other = _deletion(kept, lambda t: budgeted(t, facts), 0)
            core = budgeted(other, facts)
            if core is None:
                return best
            rest = sorted(core[1], key=lambda p: -self.cost[p])
            rest = _deletion(rest, lambda t: budgeted(other, t), 1)
        except _OutOfBudget:
            return best
        if (len(other) + len(rest), len(other)) < (len(kept) + len(chosen), len(kept)):
            return other, sorted(rest)
        return best

    def _combined_step(self, goal: Fact | None, events: list[int], premises: list[int]) -> RawStep:
        words = self.ctx.words
        cited = words.listing([say("event {n} ({event})", n=n,
                                   event=words.event(n, self.ctx.events[n - 1]))
                               for n in events])
        known = words.listing([words.fact(self.fact_of_step(p)) for p in premises], ";")
        if events:
            said = (say("Combining {events} with what is known ({facts})", events=cited,
                        facts=known) if premises else say("Combining {events}", events=cited))
        else:
            said = (say("Combining what is known ({facts})", facts=known) if premises
                    else say("By the deal alone"))
        if goal is None:
            text = say("{said}: no deal fits them all.", said=said)
        else:
            text = say("{said}: no deal fits them in which {negated}, so {fact}.", said=said,
                       negated=words.fact(goal.negated()), fact=words.fact(goal))
        return RawStep(goal, "combined", text, tuple(events), tuple(premises))


class _OutOfBudget(Exception):
    """A search for a smaller combined step ran out of solver calls."""


def _deletion(
    items: list[int],
    core_of: Callable[[list[int]], tuple[list[int], list[int]] | None],
    part: int,
) -> list[int]:
    """Shrink ``items`` to a minimal subset whose ``core_of`` is not ``None``.

    Deletion in halving chunks (big chunks drop many unneeded items per solver call), refining
    by each core found; the last pass drops one item at a time, so the result is minimal.
    """
    kept = list(items)
    chunk = max(1, len(kept) // 2)
    while True:
        i = 0
        while i < len(kept):
            trial = kept[:i] + kept[i + chunk :]
            core = core_of(trial)
            if core is None:
                i += chunk
            else:
                inside = set(core[part])
                kept = [item for item in trial if item in inside]
        if chunk == 1:
            return kept
        chunk = max(1, chunk // 2)


# --- sentences that differ by category (one message each: no category word spliced in) -----


def _so(said: Message, fact: Message) -> Message:
    """"X, so Y." — the commonest step."""
    return say("{said}, so {fact}.", said=said, fact=fact)


def _face_up(said: Message, card: str) -> Message:
    return say("{said}, but {card} lies face up.", said=said, card=card)


def _one_per_category(category: Category, card: str, other: str, places: bool) -> Message:
    if category is Category.SUSPECT:
        return say("The envelope holds one suspect and it is {card}, so not {other}.",
                   card=card, other=other)
    if category is Category.WEAPON:
        return say("The envelope holds one weapon and it is {card}, so not {other}.",
                   card=card, other=other)
    if places:
        return say("The envelope holds one place and it is {card}, so not {other}.",
                   card=card, other=other)
    return say("The envelope holds one room and it is {card}, so not {other}.",
               card=card, other=other)


def _only_left(category: Category, card: str, places: bool) -> Message:
    if category is Category.SUSPECT:
        return say("{card} is the only suspect left, so it is in the envelope.", card=card)
    if category is Category.WEAPON:
        return say("{card} is the only weapon left, so it is in the envelope.", card=card)
    if places:
        return say("{card} is the only place left, so it is in the envelope.", card=card)
    return say("{card} is the only room left, so it is in the envelope.", card=card)


def _none_left(category: Category, places: bool) -> Message:
    if category is Category.SUSPECT:
        return say("Every suspect is accounted for, so the envelope has no suspect.")
    if category is Category.WEAPON:
        return say("Every weapon is accounted for, so the envelope has no weapon.")
    if places:
        return say("Every place is accounted for, so the envelope has no place.")
    return say("Every room is accounted for, so the envelope has no room.")


def _every_other(category: Category, card: str, places: bool) -> Message:
    if category is Category.SUSPECT:
        return say("Every other suspect is accounted for, so {card} is in the envelope.",
                   card=card)
    if category is Category.WEAPON:
        return say("Every other weapon is accounted for, so {card} is in the envelope.",
                   card=card)
    if places:
        return say("Every other place is accounted for, so {card} is in the envelope.",
                   card=card)
    return say("Every other room is accounted for, so {card} is in the envelope.", card=card)
