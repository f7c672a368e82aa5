"""Advice from the odds: is an accusation safe, which suggestion to make, which card to show.

`advise` ranks suggestions by default by the chance that the named cards are in the envelope,
with the deals weighed as players play (each other player names only cards they do not hold,
`honest_notes`), and in a category my notebook has settled names one of my own
cards. Measured in simulated games it makes my notebook certain sooner than asking the plain
likeliest cards (docs/strategy.md). `Rule.INFORMATION` ranks by the expected information the
answer gives about the envelope: the entropy of the envelope now minus its expected entropy
after the answer (who refutes, and which card I would see, each refuter choosing uniformly among
their matches). Either way the figures of each suggestion are taken over deals drawn exactly
from the count (`solver.odds`), all suggestions scored on the same draw.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from .cards import CATEGORIES, Category
from .editions import forum_dealt
from .errors import ContradictionError, InvalidLogError
from .game import (
    ENVELOPE,
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
from .i18n import N_, Chance, Listing, Message, _, list_said, say, say_n
from .limits import ADVICE_WORK, shorten
from .notebook import Grid, Knowledge, Notebook
from .odds import (
    Count,
    DealMatrix,
    Number,
    Odds,
    OverBudget,
    Puzzle,
    deal_matrix,
    grid_of,
    odds,
    puzzle,
    sample_deals,
    sampled_odds,
)
from .odds.compiled import kernel, loaded
from .odds.exact import DEFAULT_BUDGET, count_steps, exact_odds
from .odds.programme import Budget, finish
from .values import replace

if TYPE_CHECKING:  # race imports this module
    from .race import Race

SAMPLES = 2000
"""Deals drawn to score suggestions."""
LISTED = 20
"""Under `Rule.LIKELIEST`, the figures (gain, who refutes) are worked out for the best
suggestions only (and every one tied with the first)."""
QUIET = 0.0
"""Under `Rule.LIKELIEST`, how much what the table hears (bits) counts against a suggestion's
summed chance by default: none, since the table lets me accuse on the turn my own question
settles the envelope (at 1, the rule won less: docs/strategy.md)."""
TABLE_LISTED = 20
"""Without a table weight, what the table hears is measured for the best suggestions only."""
ALTERNATIVES = 5
"""How many other envelopes `accuse` lists."""
LOOK = 20_000
"""The advisor's own count's work (in Python: about a tenth of a second) before it asks the
compiled count whether it finishes within the budget at all (`drawable_count`), in a process
that has not loaded the compiled count (one that has asks it first): most counts at 3-6
players end sooner and never ask."""


_NOT_A = {
    "suspect": lambda: _("{field}: {card} is not a suspect"),
    "weapon": lambda: _("{field}: {card} is not a weapon"),
    "room": lambda: _("{field}: {card} is not a room"),
    "place": lambda: _("{field}: {card} is not a place"),
}
"""A card named in a field for another category; "place" is the forum variant's room
(`solver.editions.forum_dealt`)."""


def _other(log: GameLog, to: str | None, me: str) -> None:
    """Check ``to``, the one player a forum suggestion is put to: another player of the game."""
    if to is not None and (to not in log.game.player_names or to == me):
        raise InvalidLogError([_("to: {to} is not another player of this game").format(
            to=shorten(to))])


def _card(log: GameLog, card: str, category: Category, field: str) -> str:
    deck = log.game.deck
    if card not in deck:
        raise InvalidLogError([_("{field}: unknown card {card}").format(
            field=field, card=shorten(card))])
    if deck.category_of(card) is not category:
        raise not_a(log, card, category, field)
    return card


def not_a(log: GameLog, card: str, category: Category, field: str) -> InvalidLogError:
    """The refusal of ``card`` (as typed) named in ``field`` for ``category``: "weapon: 'Hall'
    is not a weapon" (a place in the forum variant)."""
    kind = "place" if category is Category.ROOM and forum_dealt(log.game) else category.value
    return InvalidLogError([_NOT_A[kind]().format(field=field, card=shorten(card))])


def _me(log: GameLog, what: str) -> str:
    if log.game.me is None:
        raise InvalidLogError([_("me: {what} needs a log with \"me\" (this is a spectator's)")
                               .format(what=_(what))])
    return log.game.me


# --- accusation check ------------------------------------------------------------------------


@dataclass(frozen=True)
class AccusationCheck:
    """Whether accusing ``triple`` is safe, and if not, how likely it is to be right."""

    triple: Triple
    """The accusation considered: suspect, weapon, room."""
    safe: bool
    """True only when every consistent deal has exactly this envelope."""
    probability: Number
    """The chance that this triple is the envelope."""
    alternatives: tuple[tuple[str, str, str, Number], ...]
    """The most likely other envelopes, most likely first."""
    exact: bool
    """Whether the figures are exact (not sampled)."""
    interval: tuple[float, float] | None = None
    """Approximate only: the chance within two standard errors."""
    alternative_errors: tuple[float, ...] = ()
    """Approximate only: the standard error of each alternative's chance."""
    warning: str | None = None
    """Approximate only: why the figures may be unreliable (the sampler's chains disagree)."""


def accuse(log: GameLog, triple: Sequence[str], *, refuter_model: bool = False,
           found: Odds | None = None, grid: Grid | None = None) -> AccusationCheck:
    """Check an accusation against the log: "safe" only when the envelope is certain.
    ``found`` is the log's odds (with the same ``refuter_model``) and ``grid`` its SAT grid
    when the caller has them."""
    if len(triple) != len(CATEGORIES):
        raise InvalidLogError([_("cards: an accusation names 3 cards, got {count}").format(
            count=len(triple))])
    names = ("suspect", "weapon", "room")
    s, w, r = (
        _card(log, c, cat, name) for c, cat, name in zip(triple, CATEGORIES, names, strict=True)
    )
    chosen: Triple = (s, w, r)
    grid = grid if grid is not None else grid_of(log)
    if grid.accusation_safe:
        envelope = grid.envelope()
        known = tuple(str(envelope[cat]) for cat in CATEGORIES)
        right = known == chosen
        certain: tuple[tuple[str, str, str, Number], ...] = (
            () if right else ((known[0], known[1], known[2], Fraction(1)),)
        )
        return AccusationCheck(chosen, right, Fraction(int(right)), certain, True)
    result = found if found is not None else odds(log, refuter_model=refuter_model, grid=grid)
    others = tuple(t for t in result.envelope_odds if t[:3] != chosen)[:ALTERNATIVES]
    if result.exact:
        return AccusationCheck(chosen, False, result.envelope(chosen), others, True)
    errors = result.envelope_error or {}
    return AccusationCheck(
        chosen, False, result.envelope(chosen), others, False,
        interval=result.envelope_interval(chosen),
        alternative_errors=tuple(errors.get(t[:3], 0.0) for t in others),
        warning=result.warning,
    )


# --- suggestion advisor ----------------------------------------------------------------------


class Rule(StrEnum):
    """How `advise` ranks suggestions; the value is the CLI's word."""

    LIKELIEST = "likeliest"
    """The cards likeliest to be in the envelope, the deals weighed as players play (every other
    player names only cards they do not hold); in a category my notebook has settled, one of my
    own cards (the answer tells me the same, the table hears less). The default."""
    INFORMATION = "information"
    """The expected information the answer gives about the envelope (with `gains`' weights)."""


@dataclass(frozen=True)
class Advice:
    """One suggestion and what it is expected to teach about the envelope."""

    triple: Triple
    """Suspect, weapon, room to name."""
    gain: float
    """Expected information about the envelope, in bits (entropy now minus expected after)."""
    refuted: float
    """The chance that somebody refutes it."""
    public: float = 0.0
    """What the whole table hears (who passes, who refutes, not the card) tells about the
    envelope, in bits, as far as my notebook can judge (without a table weight: for the best
    `TABLE_LISTED` suggestions only, else 0)."""
    answers: tuple[tuple[str | None, float], ...] = ()
    """Who refutes (``None``: nobody), with its chance, likeliest first."""
    score: float = 0.0
    """What the ranking used: ``gain`` minus the table's share (`gains`' ``table_weight``),
    plus the weight on settling the envelope (`gains`' ``finish``)."""
    settles: float = 0.0
    """The chance that the answer leaves a single envelope (as far as the drawn deals tell)."""
    hands: float = 0.0
    """What the answer tells me about the whole deal (who holds what, the envelope included), in
    bits: the answer's entropy minus that of the refuter's choice."""
    resolves: float = 0.0
    """The envelope's entropy, category by category, in the categories the answer may settle:
    the sum over categories of its entropy now times the chance the answer leaves one card."""
    to: str | None = None
    """The one player asked (the forum variant), or ``None``: the players to my left in turn."""
    rule: Rule = Rule.INFORMATION
    """How the ranking was made. Under `Rule.LIKELIEST` ``score`` is the summed chance that the
    named cards are in the envelope (as players play; a card of mine in a category I have
    settled counts 1), for the best `LISTED` less the table's share (`advise`); the figures
    are taken over deals drawn as players play (for the best `LISTED` suggestions; the rest:
    0), and ``settles`` is not estimated (0: my notebook's certainty needs its own deals)."""


def drawable_count(pz: Puzzle, budget: int = DEFAULT_BUDGET, look: int = LOOK) -> Count:
    """`count` of ``pz`` in Python (deals can be drawn from it, `sample_deals`; not from the
    compiled count), within ``budget``; `OverBudget` at once where the compiled count is past
    that budget. The compiled count charges the same work (`solver.odds.compiled`), so the
    answer is the one the Python count would reach, in a tenth of the time or less: at a
    12-player table mid-game the Python count spent 1.2-1.4 s of CPU finding it out. Where this
    process has loaded the compiled count it is asked first (about a millisecond on a classic
    log, 4-22 ms at a 12-player table, where the Python count's first ``look`` units took 60-110
    ms); else after the Python count's first ``look`` units (loading it costs a third of a
    second: most counts at 3-6 players end sooner and never ask)."""
    asked = loaded() and kernel() is not None
    if asked and _past_budget(pz, budget):
        raise OverBudget
    python = Budget(budget)
    steps = count_steps(pz, python)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        if not asked and python.spent >= look:
            asked = True
            if _past_budget(pz, budget):
                steps.close()
                raise OverBudget


def _past_budget(pz: Puzzle, budget: int) -> bool:
    """Whether the compiled count of ``pz`` is past ``budget`` (`drawable_count`); ``False``,
    logged, where its own check fails (a bug): the Python count decides."""
    try:
        finish(count_steps(pz, Budget(budget), compiled=True))
    except OverBudget:
        return True
    except ArithmeticError:
        logging.getLogger(__name__).exception("the compiled count failed its check")
    return False


def sample(log: GameLog, size: int = SAMPLES, *, seed: int = 0,
           refuter_model: bool = False, counted: Count | None = None,
           grid: Grid | None = None) -> DealMatrix:
    """Draw ``size`` deals of the log in proportion to their weight: exactly, or past the exact
    budget from the sampling chain (its visits, evenly spaced). ``counted`` is the log's exact
    count (with the same ``refuter_model``) and ``grid`` its SAT grid when the caller has them."""
    if counted is not None:
        return sample_deals(counted, size, seed)
    pz = puzzle(log, grid if grid is not None else grid_of(log), refuter_model=refuter_model)
    try:
        counted = drawable_count(pz)
    except OverBudget:
        return _chain_sample(log, pz, size, seed, refuter_model)
    return sample_deals(counted, size, seed)


def _chain_sample(log: GameLog, pz: Puzzle, size: int, seed: int,
                  refuter_model: bool) -> DealMatrix:
    """`sample` past the exact budget: the sampling chain's visits, evenly spaced."""
    visited: list[dict[str, int]] = []
    sampled_odds(log, pz, seed=seed, refuter_model=refuter_model, kept=visited)
    return _spaced(pz, visited, size)


def _spaced(pz: Puzzle, visited: Sequence[dict[str, int]], size: int) -> DealMatrix:
    """``size`` of the chain's ``visited`` deals, evenly spaced."""
    step = (len(visited) - 1) / max(1, size - 1)
    return deal_matrix(pz, [visited[round(i * step)] for i in range(size)])


def _xlogx(values: Any) -> Any:
    safe = np.where(values > 0, values, 1.0)
    return values * np.log2(safe)


def _side_peeks(log: GameLog, drawn: DealMatrix, by: str) -> tuple[Any, Any, Any] | None:
    """For each drawn deal, the side cards ``by`` may see on an unanswered suggestion (2-player
    game): (row, column, chance) triples, a uniform choice among the side cards not yet seen;
    ``None`` when there are no side cards or every slot has been looked at."""
    game = log.game
    if not log.unpeeked_slots(by):
        return None
    seen = {p.card for p in log.side_peeks(by) if p.card is not None}
    side = game.owners.index(SIDE)
    unseen = (drawn.owners == side) & ~np.isin(np.array(drawn.cards), list(seen))[None, :]
    rows, columns = np.nonzero(unseen)
    return rows, columns, 1.0 / unseen.sum(axis=1)[rows]


def gains(
    log: GameLog,
    drawn: DealMatrix,
    triples: Sequence[Triple],
    by: str,
    to: str | None = None,
    *,
    table_weight: float = 0.0,
    finish: float = 0.0,
    resolve: float = 0.0,
    hands: float = 0.0,
) -> list[Advice]:
    """Score each suggestion ``by`` a player on the same sample of deals, best first.

    The answer is who refutes (the players to the left in turn, or only ``to`` when the
    suggestion is addressed to one player, as in the forum variant) and which card is shown (a
    uniform choice among the refuter's matches); in the 2-player game an unanswered suggestion
    also shows one side card not seen yet. The gain is the mutual information between the
    envelope and the answer, estimated from the draw with the Miller-Madow correction (the plain
    estimate favours answers with many rare outcomes); ties go to the suggestion whose cards are
    likelier envelope cards. With ``table_weight`` the score is the gain minus that share of
    what the table hears (who refutes, no card): a suggestion that teaches me as much but the
    others less ranks first. With ``finish`` an answer that settles the envelope counts that
    share more: the score adds ``finish`` times the envelope's entropy now times the chance
    the answer leaves one envelope (`Advice.settles`; the race is won by being certain first,
    and information that leaves two envelopes open does not win it). With ``resolve`` the score
    adds that share of `Advice.resolves`: settling one category counts before the whole
    envelope can be. With ``hands`` it adds that share of `Advice.hands`, what the answer
    tells about who holds what (passes mark cards that later questions may settle).
    """
    game = log.game
    asked = (to,) if to is not None else game.answer_order(by)
    far = len(asked) + 1
    rank = np.full(len(game.owners) + 1, far, dtype=np.int64)
    for position, player in enumerate(asked):
        rank[game.owners.index(player)] = position
    column = {c: j for j, c in enumerate(drawn.cards)}
    size = drawn.owners.shape[0]
    peeks = _side_peeks(log, drawn, by)
    answers = 1 + 3 * len(asked)
    outcomes = answers + (len(drawn.cards) if peeks is not None else 0)
    bins = len(drawn.triples)
    target = drawn.envelope
    now = np.bincount(target, minlength=bins) / size
    entropy_now = float(-_xlogx(now).sum())
    # A card with the same holder in every drawn deal answers like any other such card of its
    # category: score one suggestion per class and copy the figures to the rest.
    same = (drawn.owners == drawn.owners[:1]).all(axis=0).tolist()
    first_of: dict[tuple[Any, ...], str] = {}
    stand_in = {
        c: first_of.setdefault(
            (game.category_of(c), int(drawn.owners[0, j])) if same[j] else (c,), c)
        for c, j in column.items()
    }
    scored: dict[Triple, Advice] = {}
    unique = list(dict.fromkeys(
        (stand_in[t[0]], stand_in[t[1]], stand_in[t[2]]) for t in triples))
    chunk = max(1, _CELLS // (outcomes * bins))  # suggestions scored at once, memory bounded
    for lo in range(0, len(unique), chunk):
        part = unique[lo:lo + chunk]
        columns = np.array([[column[c] for c in triple] for triple in part], dtype=np.int64)
        answer = _answers(drawn, rank[drawn.owners[:, columns]], far, peeks, answers, outcomes)
        public = (_informations(answer.heard, size) if table_weight
                  else np.zeros(len(part)))
        who = answer.heard.sum(axis=2) / size
        for k, triple in enumerate(part):
            refuters = sorted(
                ((asked[i] if i < len(asked) else None, float(who[k, i]))
                 for i in range(far + 1) if who[k, i]),
                key=lambda a: -a[1],
            )
            gain = max(float(answer.gain[k]), 0.0)
            settles = float(answer.settles[k])
            resolves = float(answer.resolves[k])
            about = float(answer.hands[k])
            score = (gain - table_weight * float(public[k]) + finish * entropy_now * settles
                     + resolve * resolves + hands * about)
            scored[triple] = Advice(triple, gain, float(answer.refuted[k]), float(public[k]),
                                    tuple(refuters), score, settles, hands=about,
                                    resolves=resolves, to=to)
    out = [dataclasses.replace(scored[(stand_in[t[0]], stand_in[t[1]], stand_in[t[2]])], triple=t)
           for t in triples]
    inside = dict.fromkeys(drawn.cards, 0.0)
    for envelope, hits in zip(drawn.triples, np.bincount(target).tolist(), strict=True):
        for card in envelope:
            inside[card] += hits / size
    out.sort(key=lambda a: (-round(a.score, 9), -sum(inside[c] for c in a.triple)))
    if not table_weight:  # the ranking did not need it: only for the suggestions listed
        listed = out[:TABLE_LISTED]
        columns = np.array([[column[c] for c in a.triple] for a in listed], dtype=np.int64)
        if len(listed):
            answer = _answers(drawn, rank[drawn.owners[:, columns]], far, peeks, answers,
                              outcomes)
            public = _informations(answer.heard, size)
            for i, advice in enumerate(listed):
                out[i] = dataclasses.replace(advice, public=float(public[i]))
    return out


_CELLS = 2_000_000
"""Answer-by-envelope cells scored at once (the memory `gains` uses: 8 bytes each)."""


@dataclass(frozen=True)
class _Answers:
    """What a batch of suggestions' answers tell, one entry per suggestion."""

    gain: Any
    """Mutual information between the answer (who refutes, which card) and the envelope."""
    settles: Any
    hands: Any
    """Per suggestion: the answer's entropy minus that of the refuter's pick (bits)."""
    resolves: Any
    """Per suggestion: the sum over categories of the category's entropy now times the chance
    the answer leaves one card of it (classes of at least two deals)."""
    """The chance the answer leaves one envelope among the drawn deals (a class of at least two
    deals: one deal alone proves little)."""
    refuted: Any
    """The chance somebody refutes."""
    heard: Any
    """``heard[t, who, envelope]``: deals where ``who`` refutes (the last index: nobody)."""


def _answers(drawn: DealMatrix, ranks: Any, far: int, peeks: tuple[Any, Any, Any] | None,
             answers: int, outcomes: int) -> _Answers:
    """Score suggestions at once: ``ranks[n, t, k]`` is the answering position of the holder of
    suggestion t's k-th card in deal n (``far``: nobody asked holds it)."""
    size, count, _ = ranks.shape
    bins = len(drawn.triples)
    target = drawn.envelope
    cells = outcomes * bins
    first = ranks.min(axis=2)
    answered = first < far
    matches = (ranks == first[:, :, None]) & answered[:, :, None]
    shown = matches.sum(axis=2)
    quiet = ~answered
    keys: list[Any] = []
    weights: list[Any] = []
    if peeks is None:
        n, t = np.nonzero(quiet)
        keys.append(t * cells + target[n])
        weights.append(np.ones(len(n)))
    else:
        rows, columns, chance = peeks
        blind = quiet & (np.bincount(rows, minlength=size) == 0)[:, None]
        n, t = np.nonzero(blind)
        keys.append(t * cells + target[n])
        weights.append(np.ones(len(n)))
        e, t = np.nonzero(quiet[rows])
        keys.append(t * cells + (answers + columns[e]) * bins + target[rows[e]])
        weights.append(chance[e])
    for j in range(3):
        n, t = np.nonzero(matches[:, :, j])
        keys.append(t * cells + (1 + first[n, t] * 3 + j) * bins + target[n])
        weights.append(1.0 / shown[n, t])
    joint = np.bincount(
        np.concatenate(keys), weights=np.concatenate(weights), minlength=count * cells
    ).reshape(count, outcomes, bins)
    by_outcome = joint.sum(axis=2)
    info = _mutual_information(joint, size)
    single = ((joint > 0).sum(axis=2) == 1) & (by_outcome >= 2)
    settles = (by_outcome * single).sum(axis=1) / size
    resolves = np.zeros(count)
    every = np.concatenate(keys)
    share = np.concatenate(weights)
    suggestion, rest = np.divmod(every, cells)
    answer, envelope = np.divmod(rest, bins)
    for axis in range(3):
        names = sorted({t[axis] for t in drawn.triples})
        if len(names) < 2:
            continue
        position = {c: i for i, c in enumerate(names)}
        card = np.array([position[t[axis]] for t in drawn.triples])[envelope]
        per = np.bincount((suggestion * outcomes + answer) * len(names) + card, weights=share,
                          minlength=count * outcomes * len(names)).reshape(count, outcomes, -1)
        mass = per.sum(axis=2)
        one = ((per > 0).sum(axis=2) == 1) & (mass >= 2)
        now = per[0].sum(axis=0) / size
        resolves += float(-_xlogx(now).sum()) * (mass * one).sum(axis=1) / size
    n, t = np.indices((size, count))
    heard = np.bincount(
        (t * (far + 1) + first).ravel() * bins + target[n.ravel()],
        minlength=count * (far + 1) * bins,
    ).reshape(count, far + 1, bins).astype(float)
    spread = by_outcome / size
    answers_seen = (by_outcome > 0).sum(axis=1) - 1
    told = (-_xlogx(spread).sum(axis=1) + answers_seen / (2 * size * np.log(2))  # side cards aside
            - np.log2(np.maximum(shown, 1)).mean(axis=0))
    return _Answers(info, settles, told, resolves, answered.mean(axis=0), heard)


def _mutual_information(joint: Any, size: int) -> Any:
    """For each suggestion ``t``, the mutual information (bits) between the answer and the
    envelope, from ``joint[t, answer, envelope]`` counts of ``size`` equally weighted deals,
    with the Miller-Madow correction for the answers and envelopes never drawn."""
    by_outcome = joint.sum(axis=2)
    by_target = joint.sum(axis=1)
    info = (
        _xlogx(joint).sum(axis=(1, 2)) - _xlogx(by_outcome).sum(axis=1)
        - _xlogx(by_target).sum(axis=1)
    ) / size + np.log2(size)
    used = ((joint > 0).sum(axis=(1, 2)) - (by_outcome > 0).sum(axis=1)
            - (by_target > 0).sum(axis=1) + 1)
    return info - used / (2 * size * np.log(2))


def _informations(heard: Any, size: int) -> Any:
    """For each suggestion, the mutual information (bits) between who refutes and the envelope,
    from ``heard[t, who, envelope]`` counts (`_mutual_information`, never below 0)."""
    return np.maximum(_mutual_information(heard, size), 0.0)


def honest_notes(log: GameLog, grid: Grid | None = None) -> GameLog:
    """``log`` with a note, for each other player, that they hold none of the cards they named
    in their suggestions; not for a player my notebook knows holds one of them (a bluffer).
    ``log`` itself when nobody else has suggested. An assumption about play, not a deduction:
    only the advisor's ranking reads it."""
    game = log.game
    named: dict[str, set[str]] = {}
    for event in log.events:
        if isinstance(event, Suggestion) and event.by != game.me:
            named.setdefault(event.by, set()).update(event.cards)
    if not named:
        return log
    grid = grid if grid is not None else grid_of(log)
    face_up = set(game.face_up)
    notes: list[Event] = []
    for player, cards in named.items():
        if any(grid.holder(c) == player for c in cards):
            continue
        lacks = tuple(c for c in game.deck if c in cards and c not in face_up)
        if lacks:
            notes.append(Note(player, lacks=lacks, text="names only cards they do not hold"))
    return GameLog(game, (*log.events, *notes)) if notes else log


def as_played(log: GameLog, *, refuter_model: bool = False, counted: Count | None = None,
              grid: Grid | None = None) -> tuple[GameLog, Count | None]:
    """``log`` read as players play (`honest_notes`: every other player names only cards they
    do not hold, unless my notebook has seen them name their own), or ``log`` itself when that
    contradicts it; with its exact count (``None`` past the budget). ``counted`` and ``grid``
    are ``log``'s own, when the caller has them. Raises `ContradictionError` only when ``log``
    itself has no deal."""
    played, _, found = _as_played(log, refuter_model, counted, grid)
    return played, found


def _as_played(log: GameLog, refuter_model: bool, counted: Count | None,
               grid: Grid | None) -> tuple[GameLog, Grid | None, Count | None]:
    """`as_played`, with the SAT grid of the log it returns when it was worked out (for its
    odds past the budget)."""
    played = honest_notes(log, grid)
    if played is not log:
        try:
            grid_played = grid_of(played)
            pz = puzzle(played, grid_played, refuter_model=refuter_model)
            return played, grid_played, drawable_count(pz)
        except ContradictionError:
            pass
        except OverBudget:
            return played, grid_played, None
    if counted is not None:
        return log, grid, counted
    grid = grid if grid is not None else grid_of(log)
    try:
        return log, grid, drawable_count(puzzle(log, grid, refuter_model=refuter_model))
    except OverBudget:
        return log, grid, None


def advise(
    log: GameLog,
    room: str | None = None,
    *,
    rule: Rule = Rule.LIKELIEST,
    samples: int | None = None,
    seed: int = 0,
    refuter_model: bool = False,
    to: str | None = None,
    table_weight: float | None = None,
    finish: float = 0.0,
    resolve: float = 0.0,
    hands: float = 0.0,
    counted: Count | None = None,
    grid: Grid | None = None,
    barred: str | None = None,
) -> list[Advice]:
    """Every suggestion I could make (in ``room``, or in any room but ``barred``: `barred_room`),
    best first.

    By default (`Rule.LIKELIEST`) the best names the cards likeliest to be in the envelope,
    the deals weighed as players play, and in a category my notebook has settled one of my own
    cards; ties go to the most telling (the gain). With a ``table_weight`` (default `QUIET`:
    none), the best `LISTED` are ranked again by their summed chance minus that weight times
    what the table hears (who refutes, `Advice.public`, in bits). The figures (gain, who
    refutes) are taken over deals drawn as players play, for the best `LISTED` suggestions only
    (and all tied with the first; the rest: 0).

    With `Rule.INFORMATION`, the gain ranks: the entropy of the envelope now minus its expected
    entropy once I have heard the answer: who refutes (players to my left in turn, or ``to``
    alone in the forum variant) and which card I am shown (a refuter with several matches picks
    one at random); in the 2-player game, the side card I look at when nobody answers.
    ``table_weight`` (default 0), ``finish``, ``resolve`` and ``hands`` as in `gains`.
    ``counted`` is the log's exact count and ``grid`` its SAT grid when the caller has them.
    """
    me = _me(log, N_("advice"))
    deck = log.game.deck
    rooms = (tuple(r for r in deck.rooms if r != barred) if room is None else
             (_card(log, room, Category.ROOM, "room"),))
    _other(log, to, me)
    triples = [(s, w, r) for r in rooms for s in deck.suspects for w in deck.weapons]
    size = samples if samples is not None else draw_size(None, len(triples))
    if rule is Rule.INFORMATION:
        drawn = sample(log, size, seed=seed, refuter_model=refuter_model, counted=counted,
                       grid=grid)
        return gains(log, drawn, triples, me, to, table_weight=table_weight or 0.0,
                     finish=finish, resolve=resolve, hands=hands)
    return _likeliest(log, [triples], me, to, size=size, seed=seed,
                      refuter_model=refuter_model, table_weight=table_weight,
                      counted=counted, grid=grid)[0]


def _likeliest(log: GameLog, choices: Sequence[list[Triple]], me: str, to: str | None, *,
               size: int, seed: int, refuter_model: bool, table_weight: float | None,
               counted: Count | None, grid: Grid | None) -> list[list[Advice]]:
    """`advise` under `Rule.LIKELIEST`, for each list of suggestions in ``choices``, all read
    from one count and one draw of ``size`` deals."""
    weighed = _weighed(log, me, to, size=size, seed=seed, refuter_model=refuter_model,
                       counted=counted, grid=grid)
    return [weighed.ranking(triples, table_weight) for triples in choices]


@dataclass(frozen=True)
class _Weighed:
    """What `Rule.LIKELIEST` reads of a log whatever suggestions it ranks (the same in every
    room): each card's value (its chance to be in the envelope as players play, 1 for a card of
    mine in a category my notebook has settled) and the deals drawn as players play."""

    log: GameLog
    me: str
    to: str | None
    value: dict[str, float]
    steers: frozenset[str]
    """My cards in the categories my notebook has settled (they steer the answer)."""
    drawn: DealMatrix
    sorted_: dict[tuple[Triple, ...], list[tuple[Triple, tuple[float, int], float]]] = field(
        default_factory=dict, compare=False)
    """`ranking`'s order of each list of triples, kept: the same for every player asked (a copy
    made with another ``to`` shares it), so `Advisor.whom` sorts the deck's triples once, not
    once a player."""

    def scored(self, triples: Sequence[Triple], ordered: bool = True) -> list[Advice]:
        """``triples`` scored on the drawn deals (`gains`), with their summed value as score:
        in the order given, or with ``ordered`` false in `gains`' (the most telling first)."""
        out = [dataclasses.replace(a, score=sum(self.value[c] for c in a.triple), settles=0.0,
                                   resolves=0.0, rule=Rule.LIKELIEST)
               for a in (gains(self.log, self.drawn, triples, self.me, self.to)
                         if triples else [])]
        if ordered:
            where = {t: i for i, t in enumerate(triples)}
            out.sort(key=lambda a: where[a.triple])
        return out

    def rank(self, triple: Triple) -> tuple[float, int]:
        return (-round(sum(self.value[c] for c in triple), 9),
                -sum(c in self.steers for c in triple))

    def ranking(self, triples: list[Triple], table_weight: float | None,
                ties: bool = True, rest: bool = True) -> list[Advice]:
        """``triples`` best first: by summed value, the best `LISTED` (and, with ``ties``, every
        one tied with the first) scored on the drawn deals (`gains`); without ``rest``, only
        those (the head of the same list)."""
        rank = self.rank
        key = tuple(triples)
        order = self.sorted_.get(key)
        if order is None:  # stable: deck order among equals
            order = self.sorted_[key] = sorted(
                ((t, rank(t), sum(self.value[c] for c in t)) for t in triples),
                key=lambda entry: entry[1])
        best = order[0][1]
        listed = [t for i, (t, r, _) in enumerate(order)
                  if i < LISTED or (ties and r == best)]
        ranked = self.scored(listed, ordered=False)  # ties: the most telling
        ranked.sort(key=lambda a: rank(a.triple))
        if rest:
            ranked += [Advice(t, 0.0, 0.0, to=self.to, score=value, rule=Rule.LIKELIEST)
                       for t, _, value in order[len(listed):]]
        weight = QUIET if table_weight is None else table_weight
        if weight:  # what the table hears is known for these (`gains` works it out for its best)
            head = [dataclasses.replace(a, score=a.score - weight * a.public)
                    for a in ranked[:LISTED]]
            head.sort(key=lambda a: -round(a.score, 9))
            ranked[:LISTED] = head
        return ranked


def _weighed(log: GameLog, me: str, to: str | None, *, size: int, seed: int,
             refuter_model: bool, counted: Count | None, grid: Grid | None) -> _Weighed:
    """The count as players play (`as_played`), the cards' values from its odds and ``size``
    deals drawn from it: exactly, or past the budget from the sampling chain."""
    deck = log.game.deck
    grid = grid if grid is not None else grid_of(log)
    played, grid_played, found = _as_played(log, refuter_model, counted, grid)
    visited: list[dict[str, int]] = []
    found_odds = (exact_odds(played, found, refuter_model) if found is not None
                  else odds(played, refuter_model=refuter_model, seed=seed, grid=grid_played,
                            kept=visited))
    chances = found_odds.probabilities
    settled = {cat: card is not None for cat, card in grid.envelope().items()}
    steers = frozenset(c for c in log.game.my_cards if settled[deck.category_of(c)])
    value = {c: 1.0 if c in steers else float(chances[c][ENVELOPE]) for c in deck}
    if found is not None:
        drawn = sample_deals(found, size, seed)
    else:  # past the budget (`_as_played` tried): not counted again, drawn from the chain
        grid_played = grid_played if grid_played is not None else grid_of(played)
        pz = puzzle(played, grid_played, refuter_model=refuter_model)
        drawn = (_spaced(pz, visited, size) if not found_odds.exact  # the chain of the odds
                 else _chain_sample(played, pz, size, seed, refuter_model))
    return _Weighed(log, me, to, value, steers, drawn)


def barred_room(log: GameLog, by: str) -> str | None:
    """The room ``by`` may not suggest in on their next turn, as far as the log knows: the room
    of their latest suggestion. Both board sheets allow one suggestion per visit: Refresh 2012
    (refresh-2012-rules-fi.txt: staying in the room gives no right to repeat the question turn
    after turn; only a pawn another player's suggestion moved may stay and ask) and the classic
    one (classic-rules-ru.txt: "Одно предположение на вход", leave and come back, or another
    room; classic-rules-ja.txt: no suggestion by staying in the same room). ``None`` in the
    forum variant (no board), before their first suggestion, and where a later suggestion by
    another player named a suspect of ``by``'s name (their pawn was moved: it may stay). A
    turn spent leaving and coming back is not in the log: the player knows it, the log does not.

    >>> from .editions import Dealing, edition, new_game
    >>> deck = edition("clue-classic").deck
    >>> game = new_game(deck, ("Ann", "Mr. Green", "Cat"), Dealing.CLASSIC, me="Ann")
    >>> log = GameLog(game, (Suggestion("Ann", ("Mr. Green", "Rope", "Hall"),
    ...                                 refuted_by="Mr. Green"),))
    >>> barred_room(log, "Ann"), barred_room(log, "Cat")
    ('Hall', None)
    >>> moved = log.append(Suggestion("Cat", ("Mr. Green", "Rope", "Hall"), refuted_by="Ann"))
    >>> barred_room(moved, "Mr. Green"), barred_room(moved, "Ann")
    (None, 'Hall')
    """
    if forum_dealt(log.game):
        return None
    for event in reversed(log.events):
        if not isinstance(event, Suggestion):
            continue
        if event.by == by:
            return event.cards[2]
        if event.cards[0] == by:  # another's suggestion moved their pawn
            return None
    return None


def moved_to(log: GameLog, by: str) -> str | None:
    """The room another player's suggestion moved ``by``'s pawn to since ``by``'s latest
    suggestion (it named a suspect of ``by``'s name: `barred_room`), where ``by`` may suggest
    without moving; ``None`` where none did, and in the forum variant (no board).

    >>> from .editions import Dealing, edition, new_game
    >>> deck = edition("clue-classic").deck
    >>> game = new_game(deck, ("Ann", "Mr. Green", "Cat"), Dealing.CLASSIC, me="Ann")
    >>> log = GameLog(game, (Suggestion("Mr. Green", ("Mr. Green", "Rope", "Hall")),))
    >>> moved_to(log, "Mr. Green"), moved_to(log.append(
    ...     Suggestion("Cat", ("Mr. Green", "Rope", "Study"))), "Mr. Green")
    (None, 'Study')
    """
    if forum_dealt(log.game):
        return None
    for event in reversed(log.events):
        if not isinstance(event, Suggestion):
            continue
        if event.by == by:
            return None
        if event.cards[0] == by:
            return event.cards[2]
    return None


@dataclass(frozen=True)
class Here:
    """The advice at a real table, where I can suggest only the room my pawn stands in."""

    best: Advice
    """The best suggestion in that room (`advise` with the room)."""
    elsewhere: Advice | None
    """Where to head: the best suggestion in any room (`advise` without one), when it is in
    another room and its cards are likelier (a higher `Advice.score`); when ``best`` is
    ``idle``, the best in another room whose answer tells something, unless ``stay`` is as
    likely; else ``None``."""
    ranked: tuple[Advice, ...] = ()
    """Every suggestion in the room, best first (`advise` with the room)."""
    idle: bool = False
    """Whether asking ``best`` teaches nothing about the envelope (`idle_said`: its answer is
    known in advance)."""
    stay: Advice | None = None
    """When ``best`` is ``idle``: the best in the room whose answer tells something, if any."""


@dataclass(frozen=True)
class Whom:
    """The forum variant, where I put each question to one player: whom to ask, and what."""

    player: str
    """The player to ask: the one whose answer to ``best`` tells most about the envelope."""
    best: Advice
    """What to ask them: the best suggestion put to them alone (`Advisor.asking`)."""
    players: tuple[tuple[str, Advice], ...] = ()
    """Every other player with the best suggestion put to them, the one to ask first."""


class Advisor:
    """"Suggest for me" for one log, room after room (and in the forum variant, player after
    player): what does not depend on the room or the player asked (the count as players play,
    the cards' values, the deals drawn, the best in any room) is worked out once, so another
    room costs only the ranking of its own suggestions. Every answer is `advise_here`'s (and
    `anywhere`, `advise`'s without a room; `asking`, `advise`'s with ``to``) with the same
    arguments: a new log (an event recorded, undone, another game) needs a new `Advisor`."""

    def __init__(self, log: GameLog, *, samples: int | None = None, seed: int = 0,
                 refuter_model: bool = False, to: str | None = None,
                 grid: Grid | None = None) -> None:
        me = _me(log, N_("advice"))
        _other(log, to, me)
        deck = log.game.deck
        self.log = log
        self.grid = grid if grid is not None else grid_of(log)  # for `reason` too
        self._everywhere = [(s, w, r) for r in deck.rooms for s in deck.suspects
                            for w in deck.weapons]
        size = samples if samples is not None else draw_size(None, len(self._everywhere))
        self._weighed = _weighed(log, me, to, size=size, seed=seed,
                                 refuter_model=refuter_model, counted=None, grid=self.grid)
        self._anywhere: list[Advice] | None = None
        self._away: dict[str, list[Advice]] = {}
        self._rooms: dict[str, list[Advice]] = {}
        self._asked: dict[tuple[str, str | None], list[Advice]] = {}
        self._heads: dict[tuple[str, str | None], Advice] = {}

    def anywhere(self, barred: str | None = None) -> list[Advice]:
        """Every suggestion in any room, best first (`advise` without a room); with ``barred``,
        in any room but that one (`barred_room`: the rules let me ask there again only once I
        have left it), ranked on its own: its best scored as `advise`'s best are."""
        if barred is not None:
            barred = _card(self.log, barred, Category.ROOM, "room")
            if barred not in self._away:
                self._away[barred] = self._weighed.ranking(
                    [t for t in self._everywhere if t[2] != barred], None)
            return self._away[barred]
        if self._anywhere is None:
            self._anywhere = self._weighed.ranking(self._everywhere, None)
        return self._anywhere

    def in_room(self, room: str) -> list[Advice]:
        """Every suggestion in ``room``, best first (`advise` with the room)."""
        room = _card(self.log, room, Category.ROOM, "room")
        if room not in self._rooms:
            self._rooms[room] = self._weighed.ranking(
                [t for t in self._everywhere if t[2] == room], None)
        return self._rooms[room]

    def here(self, room: str, barred: str | None = None) -> Here:
        """`advise_here` in ``room``; with ``barred`` (`barred_room`, another room), where to
        head is never that room."""
        in_room = self.in_room(room)
        anywhere = self.anywhere(barred if barred != room else None)
        best, top = in_room[0], anywhere[0]
        if idle_said(self.log, best, self.grid) is None:
            better = top.triple[2] != room and round(top.score, 9) > round(best.score, 9)
            return Here(best, top if better else None, tuple(in_room))
        stay = self.first_telling(in_room)
        away = self.first_telling([a for a in anywhere if a.triple[2] != room])
        if away is not None and stay is not None and round(away.score, 9) <= round(stay.score,
                                                                                   9):
            away = None  # a telling question here is as likely: no need to head elsewhere
        return Here(best, away, tuple(in_room), idle=True, stay=stay)

    def first_telling(self, ranked: Sequence[Advice]) -> Advice | None:
        """The first of ``ranked`` whose answer tells something about the envelope
        (`idle_said`), scoring on this advisor's draw those the ranking left unscored; ``None``
        when none does."""
        for lo in range(0, len(ranked), LISTED):
            chunk = ranked[lo:lo + LISTED]
            fresh = iter(self._weighed.scored([a.triple for a in chunk if not a.answers]))
            for advice in chunk:
                told = advice if advice.answers else next(fresh)
                if idle_said(self.log, told, self.grid) is None:
                    return told
        return None

    def asking(self, to: str, room: str | None = None) -> list[Advice]:
        """The forum variant: every suggestion put to ``to`` alone, in ``room`` or in any room,
        best first: `advise` with ``to`` and the room, from this advisor's count and draw
        (whoever it was made for), but that of more than `LISTED` equally likely suggestions
        only the first `LISTED` in deck order are scored (`whom` asks every player: at a
        12-player table's start every suggestion ties, and scoring them all took a second of
        CPU a player)."""
        _other(self.log, to, self._weighed.me)
        if room is not None:
            room = _card(self.log, room, Category.ROOM, "room")
        if (to, room) not in self._asked:
            self._asked[to, room] = self._put_to(to, room, rest=True)
        return self._asked[to, room]

    def _put_to(self, to: str, room: str | None, rest: bool) -> list[Advice]:
        """`asking`'s ranking (without ``rest``: its scored head only, `_Weighed.ranking`)."""
        triples = [t for t in self._everywhere if room is None or t[2] == room]
        weighed = dataclasses.replace(self._weighed, to=to)
        return weighed.ranking(triples, None, ties=False, rest=rest)

    def _best_put_to(self, to: str, room: str | None) -> Advice:
        """`asking`'s first: the rest of its list is not made (at a 12-player table, 4,000
        suggestions a player for `whom`, which reads only the first)."""
        if (to, room) not in self._asked:
            if (to, room) not in self._heads:
                self._heads[to, room] = self._put_to(to, room, rest=False)[0]
            return self._heads[to, room]
        return self._asked[to, room][0]

    def whom(self, room: str | None = None) -> Whom:
        """The forum variant: whom to ask, and what (in ``room``, or in any room). Each other
        player is put the best suggestion to them alone (`asking`: the likeliest cards, the
        same for everyone but among equally likely ones), and the one to ask is the player
        whose answer tells most about the envelope (`Advice.gain`; then most about the deal,
        `Advice.hands`; then the first in the seat order after me). Where no answer tells
        anything as players play (a player has named the likeliest cards to everyone and none
        held any: as players play they are the envelope), the first whose answer is not known
        in advance in every deal (`idle_said`) is asked: the others would teach nothing."""
        if room is not None:
            room = _card(self.log, room, Category.ROOM, "room")
        asked = [(player, self._best_put_to(player, room))
                 for player in self.log.game.answer_order(self._weighed.me)]
        asked.sort(key=lambda pa: (-round(pa[1].gain, 9), -round(pa[1].hands, 9)))
        if round(asked[0][1].gain, 9) <= 0:  # an answer known in advance has no gain either
            telling = next((pa for pa in asked if idle_said(self.log, pa[1], self.grid) is None),
                           None)
            if telling is not None:
                asked.remove(telling)
                asked.insert(0, telling)
        return Whom(asked[0][0], asked[0][1], tuple(asked))


def advise_here(log: GameLog, room: str, *, samples: int | None = None, seed: int = 0,
                refuter_model: bool = False, to: str | None = None,
                grid: Grid | None = None, barred: str | None = None) -> Here:
    """`advise` (`Rule.LIKELIEST`) in ``room``, and where to head: the best in any room (but
    ``barred``, `barred_room`) when it beats it; both from one count and one draw, as `advise`
    gives them with the same ``samples`` (by default as many deals as suit every room,
    `draw_size`). ``grid``: the log's SAT grid, when the caller has it. Room after room on one
    log: `Advisor`."""
    _me(log, N_("advice"))
    _card(log, room, Category.ROOM, "room")
    return Advisor(log, samples=samples, seed=seed, refuter_model=refuter_model, to=to,
                   grid=grid).here(room, barred)


LIKELY = 60
"""The chance, in percent as shown, from which the likeliest answer is said to be likely;
below it (a coin toss, or several players each refuting now and then) it is only the
likeliest."""
ANSWERS = {
    True: {"none": N_("{reason}; {player} likely holds none of them ({chance})"),
           "nobody": N_("{reason}; nobody is likely to refute ({chance})"),
           "refutes": N_("{reason}; {player} is likely to refute ({chance})")},
    False: {"none": N_("{reason}; likeliest answer: {player} holds none of them ({chance})"),
            "nobody": N_("{reason}; likeliest answer: nobody refutes ({chance})"),
            "refutes": N_("{reason}; likeliest answer: {player} refutes ({chance})")},
}
"""The likeliest answer, by whether it is `LIKELY`: the player asked holds none of the cards
(the forum variant), nobody refutes, or a player refutes."""
SURE = {"none": N_("{reason}; {player} holds none of them"),
        "nobody": N_("{reason}; nobody can refute"),
        "refutes": N_("{reason}; {player} will refute")}
"""`ANSWERS` when the answer is certain: every deal that fits the log gives it, not only the
deals as players play (`answer_certain`)."""
IDLE = 0.01
"""Bits: where nobody can refute, an answer expected to tell less than this about the
envelope (no side card to see) teaches nothing (`idle_said`)."""
ASKS_ABOUT = (N_("asks only about cards whose holders you know"),
              N_("asks about one card whose holder you do not know yet"),
              N_("asks about two cards whose holders you do not know yet"),
              N_("asks about three cards whose holders you do not know yet"))
"""How many of the named cards are open (the notebook does not know who holds them). Not
"placed": beside the forum variant's "Another place is likelier" that read as places."""


def reason(log: GameLog, advice: Advice, grid: Grid | None = None, *,
           likeliest: bool = True) -> str:
    """One line a player can follow: which cards are still open, which are my own (the answer
    is steered to the others), why these (`Rule.LIKELIEST`: "the likeliest in the envelope",
    unless not ``likeliest``), who is likely to answer, and the chance the answer settles the
    envelope; in the current language.

    A card is open while the notebook does not know who holds it (`ASKS_ABOUT`).
    """
    return reason_said(log, advice, grid, likeliest=likeliest).render()


def idle_said(log: GameLog, advice: Advice, grid: Grid) -> Message | None:
    """Why asking ``advice`` teaches nothing about the envelope, or ``None`` when it may (or
    was not scored): its answer is known in advance, in every deal that fits ``log``
    (`answer_certain`, not only as players play), and either the refuter holds a card of it
    that my notebook (``grid``) knows they hold, which they can show, or nobody can refute and
    no side card would be seen (the answer tells less than `IDLE`)."""
    if len(advice.answers) != 1 or not answer_certain(log, advice, grid):
        return None
    who = advice.answers[0][0]
    if who is not None:
        known = [c for c in advice.triple if grid.holder(c) == who]
        return say("{player} can show {card}, which you know they hold", player=who,
                   card=known[0]) if known else None
    if advice.gain >= IDLE:  # a side card to see (the two-player game)
        return None
    return (say("{player} holds none of them", player=advice.to) if advice.to is not None
            else say("nobody can refute it"))


def answer_certain(log: GameLog, advice: Advice, grid: Grid) -> bool:
    """Whether every deal that fits ``log`` (not only the deals as players play) gives
    ``advice``'s likeliest answer: the players asked before the refuter hold none of the cards
    for certain (``grid``: my notebook), and the refuter one of them (asked of the SAT model
    when no single card of theirs is known)."""
    who = advice.answers[0][0]
    cards = advice.triple
    asked = (advice.to,) if advice.to is not None else log.game.answer_order(log.game.me or "")
    before = asked if who is None else asked[:asked.index(who)] if who in asked else None
    if before is None or any(grid[c, p] is not Knowledge.NO for p in before for c in cards):
        return False
    if who is None or any(grid[c, who] is Knowledge.YES for c in cards):
        return True
    maybe = tuple(c for c in cards if grid[c, who] is Knowledge.MAYBE)
    if not maybe:
        return False
    with Notebook(log.game, (*log.events, Note(who, lacks=maybe))) as notebook:
        return not notebook.consistent()


def refuted_certain(log: GameLog, advice: Advice, grid: Grid) -> bool:
    """Whether ``advice.refuted`` holds in every deal that fits ``log``: a chance strictly
    between 0 and 1 says so itself; 0, where my notebook (``grid``) knows every player asked
    holds none of the cards; 1, where the SAT model finds no deal in which they all lack
    them."""
    if 0 < advice.refuted < 1:
        return True
    asked = (advice.to,) if advice.to is not None else log.game.answer_order(log.game.me or "")
    if advice.refuted <= 0:
        return all(grid[c, p] is Knowledge.NO for p in asked for c in advice.triple)
    notes = [Note(p, lacks=maybe) for p in asked
             if (maybe := tuple(c for c in advice.triple if grid[c, p] is not Knowledge.NO))]
    if not notes:
        return False
    with Notebook(log.game, (*log.events, *notes)) as notebook:
        return not notebook.consistent()


def reason_said(log: GameLog, advice: Advice, grid: Grid | None = None, *,
                likeliest: bool = True) -> Message:
    """`reason` kept unrendered, to show in whatever language is asked for later. Not
    ``likeliest``: the best in a room (or place) chosen, where a line beside it names likelier
    cards elsewhere; "the likeliest in the envelope" would contradict that line."""
    grid = grid if grid is not None else grid_of(log)
    idle = idle_said(log, advice, grid)
    if idle is not None:
        return say("teaches you nothing: {why}", why=idle)
    mine = [c for c in advice.triple if c in log.game.my_cards]
    open_ = [c for c in advice.triple if c not in mine and grid.holder(c) is None]
    line = say(ASKS_ABOUT[len(open_)])
    if mine:
        line = say_n("{asks}, steers with your own {cards}",
                     "{asks}, steers with your own {cards}", len(mine), asks=line,
                     cards=Listing(tuple(mine)))  # one card: "вашей картой", not "картами"
    if advice.rule is Rule.LIKELIEST and open_ and likeliest:
        line = say("{reason}, the likeliest in the envelope if players ask about cards they do "
                   "not hold", reason=line)
    if advice.answers:
        who, chance = advice.answers[0]
        answer = "none" if who is None and advice.to is not None else (
            "nobody" if who is None else "refutes")
        player = (advice.to if who is None else who) or ""
        if answer_certain(log, advice, grid):
            line = say(SURE[answer], reason=line, player=player)
        else:  # as players play, the deals drawn: never 0 % or 100 %
            likely = round(100 * chance) >= LIKELY
            line = say(ANSWERS[likely][answer], reason=line, player=player,
                       chance=Chance(chance, undecided=True))
    if advice.settles >= 0.005:  # among the deals drawn: never 100 %
        line = say("{reason}; the answer may settle the envelope ({chance})", reason=line,
                   chance=Chance(advice.settles, undecided=True))
    return line


def draw_size(samples: int | None, suggestions: int, *, places: bool = False) -> int:
    """Deals to draw for scoring ``suggestions``: ``samples``, or by default `SAMPLES` cut to
    the work budget `ADVICE_WORK` (at least 100); an asked-for size past the budget is refused
    (`advise` itself draws what its caller asks: the command line checks with this first),
    saying to name the room, or the place where ``places`` (the forum variant's word).

    >>> draw_size(None, 324), draw_size(None, 19_683), draw_size(500, 324)
    (2000, 203, 500)
    """
    fits = max(100, ADVICE_WORK // max(1, suggestions))
    if samples is None:
        return min(SAMPLES, fits)
    if samples * suggestions > ADVICE_WORK:
        too_many = (_("--samples: {samples} deals x {suggestions} suggestions is more than the "
                      "advisor's budget of {budget}; draw at most {fits} deals, or name the "
                      "place") if places else
                    _("--samples: {samples} deals x {suggestions} suggestions is "
                      "more than the advisor's budget of {budget}; draw at most "
                      "{fits} deals, or name the room"))
        raise InvalidLogError([too_many.format(
            samples=f"{samples:,}", suggestions=f"{suggestions:,}", budget=f"{ADVICE_WORK:,}",
            fits=f"{fits:,}")])
    return samples


# --- what to show ----------------------------------------------------------------------------


class ShowReason(StrEnum):
    """Why `what_to_show` picked its card; the value is the word the CLI prints and writes."""

    ONLY_MATCH = "only match"
    """I hold just one of the cards named."""
    ALREADY_SEEN = "already seen"
    """The asker has seen it from me before: showing it again tells them nothing new."""
    LEAST_TELLING = "least telling"
    """Of the cards they have not seen, it leaves them the most envelopes open."""


@dataclass(frozen=True)
class ShowAdvice:
    """Which of my matching cards to show the asker, and why."""

    card: str
    """The card to show."""
    reason: ShowReason
    """Why this card."""
    entropy_after: dict[str, float]
    """For each candidate (``least telling`` only): the asker's envelope entropy, in bits,
    after seeing it, as far as the public log and what I showed them tell."""
    open_after: dict[str, float] = field(default_factory=dict)
    """For each candidate (``least telling`` only): how many envelopes the asker is expected to
    still have open after seeing it, their own hand and what others showed them included
    (`solver.race.open_after_showing`). The card with the most is shown."""


def asker_view(log: GameLog, asker: str) -> GameLog:
    """The log as ``asker`` could know it from what I recorded: public facts, plus the cards
    I showed them and the cards they showed me (their own hand stays unknown to this view)."""
    me = log.game.me
    events: list[Event] = []
    for event in log.events:
        if isinstance(event, Suggestion):
            seen = event.shown is not None and {event.by, event.refuted_by} == {asker, me}
            peek = event.side_peek
            if peek is not None and event.by != asker:
                peek = SidePeek(peek.slot)
            events.append(
                replace(
                    event,
                    shown=event.shown if seen else None,
                    shown_by_rule=event.shown_by_rule if seen else None,
                    side_peek=peek,
                )
            )
        elif isinstance(event, Accusation) or (isinstance(event, Reveal) and event.whole_hand):
            events.append(event)
    game = replace(log.game, me=None, my_cards=())
    return GameLog(game, tuple(events))


def what_to_show(
    log: GameLog, asker: str, cards: Sequence[str], *, refuter_model: bool = False,
    samples: int | None = None, seed: int = 0, race_of: Race | None = None,
) -> ShowAdvice:
    """The card to show ``asker``, who named ``cards``: one they have already seen from me if
    any (the latest shown, `GameLog.shown_to`, as the app's reminder says), else the one that
    leaves them the most envelopes open, judged over deals drawn from my notebook (``samples``
    of them), so that their own hand and the cards others showed them count; ties go to the
    card that leaves the public view of the envelope least sharp (its entropy). ``race_of``:
    the race of this log already drawn (`solver.race.race`, as players play), read instead of a
    new draw.

    The rest of the table hears only that I refuted, whichever card I show."""
    from .race import SHOW_SAMPLES, open_after_showing

    mine = show_candidates(log, asker, cards)
    if len(mine) == 1:
        return ShowAdvice(mine[0], ShowReason.ONLY_MATCH, {})
    seen = [c for c in log.shown_to(asker) if c in mine]
    if seen:
        return ShowAdvice(seen[-1], ShowReason.ALREADY_SEEN, {})
    after = public_entropy_after(log, asker, mine, refuter_model=refuter_model)
    left = open_after_showing(log, asker, mine, seed=seed, race_of=race_of,
                              samples=SHOW_SAMPLES if samples is None else samples)
    best = max(mine, key=lambda c: (round(left[c], 6), round(after[c], 9)))
    return ShowAdvice(best, ShowReason.LEAST_TELLING, after, left)


def show_candidates(log: GameLog, asker: str, cards: Sequence[str]) -> list[str]:
    """My cards among ``cards``, which ``asker`` named: the ones I may show. A clear error
    naming the field when ``asker`` is no other player, a card is unknown or out of its place
    in a suggestion, or I hold none of them."""
    me = _me(log, N_("what to show"))
    if asker not in log.game.player_names or asker == me:
        raise InvalidLogError([_("asker: {asker} is not another player of this game").format(
            asker=shorten(asker))])
    for c in cards:
        if c not in log.game.deck:
            raise InvalidLogError([_("cards: unknown card {card}").format(card=shorten(c))])
    if len(cards) == len(CATEGORIES):  # a suggestion: a suspect, a weapon, a room
        for c, category in zip(cards, CATEGORIES, strict=True):
            _card(log, c, category, "cards")
    mine = [c for c in cards if c in log.game.my_cards]
    if not mine:
        raise InvalidLogError([_("cards: you hold none of {cards}").format(cards=list_said(cards))])
    return mine


def public_entropy_after(
    log: GameLog, asker: str, mine: Sequence[str], *, refuter_model: bool = False
) -> dict[str, float]:
    """For each card of mine: the envelope's entropy in the asker's view without their hand
    (`asker_view`) once they have seen it. Showing the card with the highest was the rule
    before `solver.race.open_after_showing` (kept for the benchmark's comparison)."""
    me = _me(log, N_("what to show"))
    view = asker_view(log, asker)
    return {
        c: odds(view.append(Reveal(me, (c,))), refuter_model=refuter_model).entropy()
        for c in mine
    }


__all__ = [
    "AccusationCheck",
    "Advice",
    "Advisor",
    "Here",
    "Rule",
    "ShowAdvice",
    "ShowReason",
    "Whom",
    "accuse",
    "advise",
    "advise_here",
    "answer_certain",
    "as_played",
    "asker_view",
    "barred_room",
    "gains",
    "honest_notes",
    "idle_said",
    "moved_to",
    "public_entropy_after",
    "reason",
    "refuted_certain",
    "sample",
    "show_candidates",
    "what_to_show",
]
