"""Explanations a person can follow: why each ``yes`` and ``no`` cell of the grid holds.

Compute everything once per log state, then ask per cell:

>>> from solver.logfile import loads
>>> log = loads('''{"format": "clue-notebook/1",
...   "cards": {"suspects": ["Plum", "Green"], "weapons": ["Rope", "Axe"], "rooms": ["Hall"]},
...   "players": [{"name": "Ann", "hand_size": 1}, {"name": "Bob", "hand_size": 1}],
...   "me": "Ann", "my_cards": ["Green"],
...   "events": [{"type": "suggestion", "by": "Ann", "cards": ["Plum", "Rope", "Hall"],
...               "refuted_by": "Bob", "shown": "Rope"}]}''')
>>> with Explainer.of(log) as explainer:
...     print(explainer.cell("Axe", "envelope").text())
Axe is in the envelope: yes.
  1. Bob showed you Rope (event 1).
  2. Every other weapon is accounted for, so Axe is in the envelope.  (from step 1)
Rests on event 1.

`explain_cell` is the one-off shortcut. Each step cites the log events (1-based) it uses
directly and the earlier steps it builds on; a cell's explanation keeps only the steps it
depends on. The events a whole explanation rests on entail the cell with the setup, and none of
them can be dropped: when the shared derivation leans on more events than needed, the cell is
derived again from a minimal set of events.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .closing import Closing
from .errors import ContradictionError, InvalidLogError
from .explain_steps import Context, Derivation, Fact, RawStep, Words
from .game import Game, GameLog
from .i18n import Arg, Listing, Message, _, current, list_said, say, say_n
from .limits import shorten
from .notebook import Grid, Knowledge, Notebook

__all__ = [
    "Conflict",
    "Explainer",
    "Explanation",
    "Fact",
    "Step",
    "explain_cell",
    "explain_clash",
    "explain_conflict",
]


@dataclass(frozen=True)
class Step:
    """One step of an explanation, numbered from 1 within it."""

    said: Message
    """The step in a player's words, in any language (`text` renders it)."""
    events: tuple[int, ...]
    """Log events (1-based) the step cites directly."""
    uses: tuple[int, ...]
    """Numbers of earlier steps of the same explanation it builds on (``from`` in JSON)."""
    fact: Fact | None
    """The cell it settles; ``None`` for the impossibility that ends a conflict."""
    rule: str
    """Which rule: ``"pass"``, ``"narrowed"``, ``"combined"``…"""

    @property
    def text(self) -> str:
        """The step in the current language."""
        return self.said.render(start=True)

    def to_json(self) -> dict[str, Any]:
        """``{"text", "events", "from", "fact"}`` as in ``explain --json``."""
        fact = None
        if self.fact is not None:
            value = Knowledge.YES if self.fact.holds else Knowledge.NO
            fact = {"card": self.fact.card, "owner": self.fact.owner, "value": value.value}
        return {"text": self.text, "events": list(self.events), "from": list(self.uses),
                "fact": fact}


def _template(step: Step) -> tuple[object, ...] | None:
    """What a step says with its card left out, for grouping steps that differ only there.

    Steps group when the card is the last word of the English sentence ("… not Rope."), so every
    language groups the same steps and cites the same events."""
    if step.fact is None:
        return None
    card = step.fact.card
    english = step.said.render("en", start=True)
    at = english.rfind(card)
    if at < 0:
        return None
    after = english[at + len(card) :]
    if not (after == "." or after.startswith(" (")):
        return None  # the card is not the sentence's last word: "X is not in the envelope."
    blank = _swap(step.said, card, "\0").render("en", start=True)
    if blank.count("\0") != 1 or blank.find("\0") != at:
        return None
    fact = step.fact
    return _swap(step.said, card, ""), step.rule, step.events, step.uses, fact.owner, fact.holds


def _swap(said: Message, card: str, value: Arg) -> Message:
    """The sentence with its ``card`` placeholders that name ``card`` (at any depth) replaced."""
    args = tuple(
        (name, value if name == "card" and arg == card
         else _swap(arg, card, value) if isinstance(arg, Message) else arg)
        for name, arg in said.args
    )
    return Message(said.msgid, args, said.plural, said.n)


def _render(steps: Sequence[Step]) -> list[str]:
    """Numbered lines; consecutive steps that differ only in their card share one line."""
    lines = []
    number = 1
    while number <= len(steps):
        step = steps[number - 1]
        template = _template(step)
        last = number
        while (template is not None and last < len(steps)
               and _template(steps[last]) == template):
            last += 1
        several = min(len(step.uses), 2)  # one or several: Russian says 21 as it says 1
        note = ("  " + say_n("(from step {steps})", "(from steps {steps})", several,
                             steps=Listing(tuple(map(str, step.uses)), ",")).render()
                if step.uses else "")
        if last == number or step.fact is None:
            lines.append(f"  {number}. {step.text}{note}")
        else:
            cards = tuple(s.fact.card for s in steps[number - 1 : last] if s.fact is not None)
            joined = Listing(cards, "and" if step.fact.holds else "or")
            text = _swap(step.said, step.fact.card, joined).render(start=True)
            lines.append(f"  {number}-{last}. {text}{note}")
        number = last + 1
    return lines


def _rests_on(events: Sequence[int]) -> str:
    if not events:
        return say("Rests on the setup alone.").render()
    return say_n("Rests on event {events}.", "Rests on events {events}.", len(events),
                 events=Listing(tuple(str(n) for n in events))).render()


@dataclass(frozen=True)
class Explanation:
    """Why a cell of the grid is ``yes``, ``no`` or ``maybe``."""

    card: str
    """The card (row)."""
    owner: str
    """The owner (column): a player, the envelope or the side pile."""
    value: Knowledge
    """The cell's value in the grid."""
    events: tuple[int, ...]
    """Every log event (1-based) the chain rests on; minimal: none can be dropped."""
    steps: tuple[Step, ...]
    """The chain, simplest steps first; the last one settles the cell. Empty for ``maybe``."""
    examples: tuple[Mapping[str, tuple[str, ...]], ...] = ()
    """For ``maybe``: a deal (owner -> cards) where the owner holds the card, then one where not."""
    words: Words | None = field(default=None, repr=False, compare=False)
    """How to name owners in `text` (set by `Explainer`)."""

    def text(self, language: str | None = None) -> str:
        """The chain as lines a player reads, in ``language`` (default: the current one)."""
        if language is not None and language != current():
            from .i18n import speaking

            with speaking(language):
                return self.text()
        words = self.words
        assert words is not None
        title = words.fact(Fact(self.card, self.owner, True))
        if self.value is Knowledge.MAYBE:
            lines = [say("{fact}? Not known: some deals that fit the log say yes, some say no.",
                         fact=title).render(start=True)]
            for deal, holds in zip(self.examples, (True, False), strict=False):
                lines.append("  " + (say("A deal where the answer is yes:") if holds
                                     else say("A deal where the answer is no:")).render())
                lines += [f"    {holder}: {cards}" for holder, cards in _hands(words, deal)]
            return "\n".join(lines)
        answer = (say("{fact}: yes.", fact=title) if self.value is Knowledge.YES
                  else say("{fact}: no.", fact=title))
        lines = [answer.render(start=True)]
        lines += _render(self.steps)
        lines.append(_rests_on(self.events))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """``{"card", "owner", "value", "events", "steps"}``; ``maybe`` adds ``examples``."""
        out: dict[str, Any] = {
            "card": self.card, "owner": self.owner, "value": self.value.value,
            "events": list(self.events), "steps": [s.to_json() for s in self.steps],
        }
        if self.value is Knowledge.MAYBE:
            out["examples"] = [
                {"holds": holds, "deal": {o: list(cards) for o, cards in deal.items()}}
                for deal, holds in zip(self.examples, (True, False), strict=False)
            ]
        return out


@dataclass(frozen=True)
class Conflict:
    """Why no deal fits the log: the clashing events and a chain ending in an impossibility."""

    events: tuple[int, ...]
    """A minimal set of clashing events (1-based): dropping any one leaves a consistent log."""
    steps: tuple[Step, ...]
    """From those events to the impossibility (the last step)."""

    def text(self, language: str | None = None, *, heading: bool = True) -> str:
        """The chain as lines a player reads, in ``language`` (default: the current one).
        Without ``heading``, no first line saying no deal fits the log: for an entry not
        recorded yet, whose warning names the clashing entries itself."""
        if language is not None and language != current():
            from .i18n import speaking

            with speaking(language):
                return self.text(heading=heading)
        if len(self.events) == 1:  # the entry against the setup (my hand, the hand sizes)
            number = self.events[0]
            lines = [say("No deal fits the log: event {number} cannot be true with the game's "
                         "setup. Why:", number=number).render()][:heading]
            lines += _render(self.steps)
            lines.append(say("Event {number} is wrong, or the setup is: without it the clash "
                             "is gone.", number=number).render())
            return "\n".join(lines)
        numbers = Words.listing([str(n) for n in self.events]) if self.events else say("none")
        lines = [say("No deal fits the log: events {numbers} cannot all be true. Why:",
                     numbers=numbers).render()][:heading]
        lines += _render(self.steps)
        lines.append(say("One of these entries is wrong: without any one of them the clash is "
                         "gone.").render())
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """``{"events", "steps"}``."""
        return {"events": list(self.events), "steps": [s.to_json() for s in self.steps]}


def _hands(words: Words, deal: Mapping[str, Sequence[str]]) -> Iterator[tuple[str, str]]:
    for owner, cards in deal.items():
        who = words.who(owner)
        yield (who.render(start=True) if isinstance(who, Message) else str(who)), list_said(cards)


class Explainer(Closing):
    """Every explanation of one log state, derived once and handed out per cell.

    Build it with `Explainer.of` (a log) or `Explainer(notebook)`; it snapshots the notebook's
    events, so record new events, then build a new one. `cell` is cheap after the first call;
    `all` returns every determined cell at once (what ``analyze --json`` prints). A ``lazy``
    explainer derives only as far as the cells asked about so far need (the app, where a player
    taps one cell) instead of every determined cell on the first call. Not ``addressed``, it
    names the notebook's own player where it would say "you" (a read link's reader).
    """

    def __init__(self, notebook: Notebook, *, grid: Grid | None = None,
                 lazy: bool = False, addressed: bool = True) -> None:
        self.game = notebook.game
        self.context = Context(notebook.model, notebook.events, _setup_facts(notebook),
                               addressed=addressed)
        self.event_count = len(notebook.events)
        self.words = self.context.words
        self._notebook_conflict: tuple[int, ...] = ()
        self._cache: dict[tuple[str, str], Explanation] = {}
        self._conflict: Conflict | None = None
        self._own: Notebook | None = None
        self.grid: Grid | None = grid
        if self.grid is None:
            try:
                self.grid = notebook.grid()
            except ContradictionError as err:
                self._notebook_conflict = err.events
        self._derivation: Derivation | None = None
        self._lazy = lazy
        self.rederived = 0
        """How many cells were derived again because the shared chain cited needless events."""
        self._narrower: dict[frozenset[int], Derivation] = {}

    @classmethod
    def of(cls, log: GameLog, *, lazy: bool = False, addressed: bool = True) -> Explainer:
        """An explainer for a whole (validated) log; close it, or use it in ``with``."""
        notebook = Notebook(log.game, log.events)
        explainer = cls(notebook, lazy=lazy, addressed=addressed)
        explainer._own = notebook
        return explainer

    def close(self) -> None:
        """Free the solvers."""
        self.context.close()
        if self._own is not None:
            self._own.close()

    @property
    def consistent(self) -> bool:
        """Whether some deal fits the log."""
        return self.grid is not None

    # --- cells ----------------------------------------------------------------------------------

    def _grid(self) -> Grid:
        if self.grid is None:
            raise ContradictionError(self._notebook_conflict)
        return self.grid

    def derivation(self) -> Derivation:
        """The shared step-by-step derivation of every determined cell (computed once); a
        ``lazy`` explainer's reaches only the cells asked about so far."""
        if self._derivation is None:
            grid = self._grid()
            goals = [] if self._lazy else [
                Fact(card, owner, value is Knowledge.YES)
                for card, row in grid.cells.items() if card in self.context.live
                for owner, value in row.items() if value is not Knowledge.MAYBE
            ]
            every = range(1, self.event_count + 1)
            derivation = Derivation(self.context, every, goals).run()
            if derivation.contradiction is not None or not derivation.done():
                raise RuntimeError("the explanation rules disagree with the SAT model")
            self._derivation = derivation
        return self._derivation

    def cell(self, card: str, owner: str) -> Explanation:
        """Why ``owner`` holds ``card`` (or not), or two example deals for a ``maybe`` cell.

        `InvalidLogError` for an unknown card or owner; `ContradictionError` when no deal fits.
        """
        problems = []
        if card not in self.game.deck:
            problems.append(_("CARD: unknown card {card}").format(card=shorten(card)))
        if owner not in self.game.owners:
            known = list_said(self.game.owners)
            problems.append(_("OWNER: unknown owner {owner} (owners: {known})").format(
                owner=shorten(owner), known=known))
        if problems:
            raise InvalidLogError(problems)
        key = (card, owner)
        if key not in self._cache:
            self._cache[key] = self._explain(card, owner)
        return self._cache[key]

    def all(self) -> dict[str, dict[str, Explanation]]:
        """Every ``yes`` and ``no`` cell: card -> owner -> explanation."""
        grid = self._grid()
        return {
            card: {owner: self.cell(card, owner)
                   for owner, value in row.items() if value is not Knowledge.MAYBE}
            for card, row in grid.cells.items()
        }

    def sequence(self) -> tuple[Step, ...]:
        """The whole grid as one chain of steps, simplest first (every cell's part of it)."""
        derivation = self.derivation()
        return _chain(derivation, range(len(derivation.steps)))

    def all_json(self) -> dict[str, dict[str, dict[str, Any]]]:
        """`all` as JSON: ``analyze --json``'s ``"explanations"`` object."""
        return {card: {owner: e.to_json() for owner, e in row.items()}
                for card, row in self.all().items()}

    def _explain(self, card: str, owner: str) -> Explanation:
        value = self._grid()[card, owner]
        words = self.words
        if value is Knowledge.MAYBE:
            return Explanation(card, owner, value, (), (), self._examples(card, owner), words)
        fact = Fact(card, owner, value is Knowledge.YES)
        if card not in self.context.live:
            step = Step(say("{card} lies face up, so nobody holds it.", card=card), (), (), fact,
                        "face-up")
            return Explanation(card, owner, value, (), (step,), (), words)
        derivation = self.derivation()
        index = derivation.known[fact.cell] if not self._lazy else derivation.reach(fact)
        events = derivation.event_closure[index]
        if not self._minimal(events, fact):
            self.rederived += 1
            needed = frozenset(self.context.minimal_events(events, fact))
            if needed not in self._narrower:
                self._narrower[needed] = Derivation(self.context, needed, [fact]).run()
            derivation = self._narrower[needed]
            index = derivation.reach(fact)
            events = derivation.event_closure[index]
        steps = _chain(derivation, index)
        return Explanation(card, owner, value, tuple(sorted(events)), steps, (), words)

    def _minimal(self, events: frozenset[int], fact: Fact) -> bool:
        """Whether no event can be dropped. One event always is needed: facts the setup alone
        gives were derived first, without events."""
        if len(events) <= 1:
            return True
        context = self.context
        return not any(context.entails(events - {n}, (), fact) for n in events)

    def _examples(self, card: str, owner: str) -> tuple[Mapping[str, tuple[str, ...]], ...]:
        context = self.context
        solver = context.solver
        selectors = [context.selector(n) for n in range(1, self.event_count + 1)]
        deals = []
        for holds in (True, False):
            literal = context.literal(Fact(card, owner, holds))
            if not solver.solve(assumptions=[*selectors, literal]):
                raise RuntimeError("a maybe cell without a deal on both sides")
            model = solver.get_model() or []
            solver.set_phases(model)  # the second deal then differs from the first little
            true = {v for v in model if v > 0}
            deal = {c: o for v, (c, o) in context.model.cells.items() if v in true}
            deals.append({
                holder: tuple(c for c in self.game.deck if deal.get(c) == holder)
                for holder in self.game.owners
            })
        return tuple(deals)

    # --- conflicts ------------------------------------------------------------------------------

    def conflict(self) -> Conflict | None:
        """Why no deal fits the log, or ``None`` when some deal does."""
        if self.grid is not None:
            return None
        if self._conflict is None:
            self._conflict = _clash(self.context, self._notebook_conflict)
        return self._conflict


def _clash(context: Context, events: tuple[int, ...]) -> Conflict:
    """Why ``events`` (a minimal conflict of ``context``'s) cannot all be true."""
    derivation = Derivation(context, events, None).run()
    if derivation.contradiction is None:
        raise RuntimeError("no impossibility found from a conflicting set of events")
    return Conflict(events, _chain(derivation, derivation.contradiction))


_SETUP_FACTS: OrderedDict[Game, tuple[Fact, ...]] = OrderedDict()
SETUP_CACHE_SIZE = 16
"""How many setups' facts are kept: an app rebuilds an `Explainer` after every event."""


def _setup_facts(notebook: Notebook) -> tuple[Fact, ...]:
    """The cells the setup alone settles (before any event), cached per setup."""
    game = notebook.game
    facts = _SETUP_FACTS.get(game)
    if facts is None:
        try:
            grid = notebook.grid(upto=0)
        except ContradictionError:
            return ()
        facts = tuple(Fact(card, owner, value is Knowledge.YES)
                      for card, row in grid.cells.items()
                      for owner, value in row.items() if value is not Knowledge.MAYBE)
        _SETUP_FACTS[game] = facts
        while len(_SETUP_FACTS) > SETUP_CACHE_SIZE:
            _SETUP_FACTS.popitem(last=False)
    return facts


def _chain(derivation: Derivation, index: int | Iterable[int]) -> tuple[Step, ...]:
    """The steps ``index`` depends on (or the given steps), in derivation order, from 1."""
    chosen = derivation.closure[index] if isinstance(index, int) else frozenset(index)
    order = sorted(chosen)
    number = {i: n for n, i in enumerate(order, 1)}
    steps = []
    for i in order:
        raw: RawStep = derivation.steps[i]
        uses = tuple(sorted(number[p] for p in raw.premises))
        steps.append(Step(raw.text, tuple(sorted(raw.events)), uses, raw.fact, raw.rule))
    return tuple(steps)


def explain_cell(log: GameLog | Notebook, card: str, owner: str) -> Explanation:
    """Why ``owner`` holds ``card`` or not: the one-off shortcut for `Explainer.cell`."""
    explainer = Explainer.of(log) if isinstance(log, GameLog) else Explainer(log)
    with explainer:
        return explainer.cell(card, owner)


def explain_clash(notebook: Notebook, events: Iterable[int]) -> Conflict:
    """Why ``events`` of ``notebook`` (1-based: a minimal conflict, such as
    `Notebook.conflict_with` finds, maybe not the one `Notebook.conflict` would) cannot all be
    true; without the grid an `Explainer` works out first."""
    context = Context(notebook.model, notebook.events, _setup_facts(notebook))
    try:
        return _clash(context, tuple(sorted(set(events))))
    finally:
        context.close()


def explain_conflict(log: GameLog | Notebook) -> Conflict | None:
    """Why no deal fits the log, or ``None`` when one does."""
    explainer = Explainer.of(log) if isinstance(log, GameLog) else Explainer(log)
    with explainer:
        return explainer.conflict()

