"""Sampling, for what the exact count cannot finish within its budget: Markov chains over deals.

Several chains start from deals with different envelopes (witnesses from `triples`) and run a
fixed number of moves, so the same log always gives the same figures. A move is a heat-bath
re-deal of the cards of two to four owners (drawn exactly by the counting programme on that
small pool), followed by a few Metropolis swaps of two cards. Figures are the mean over every
chain's batches; a standard error comes from the spread of the batch means of all chains
together (so chains that disagree widen it), floored by what the effective number of draws can
resolve. Chains that disagree far beyond their own noise are reported as stuck (`Odds.warning`).
"""

from __future__ import annotations

import logging
import math
import random
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..cards import CATEGORIES
from ..game import GameLog, Triple
from ..i18n import gettext
from .compiled import compiled_steps, fits, kernel, loaded
from .draws import walk
from .exact import count, exact_odds
from .programme import Budget, OverBudget, finish, plan_of, run_programme
from .result import Number, Odds
from .setup import Puzzle, Tally
from .triples import Deal, envelope_of, possible_envelopes

SAMPLING_MOVES = 480
"""Chain moves in all, after the burn-in (work, not time: the same log gives the same figures)."""
CHAINS = 4
"""Independent chains, each started from a deal with another envelope."""
BATCHES = 10
"""Batches per chain, for the batch-means standard errors."""
BURN_IN = 20
"""Moves of each chain before its visits are counted."""
SWAPS = 30
"""Metropolis two-card swaps after each re-deal (cheap; they help the re-deals mix)."""
POOL = 14
"""A re-deal takes owners in random order until it holds this many cards (at least two owners;
every owner when the open cards are few, which makes each move an exact draw)."""
WIDE_EVERY = 8
"""Every this many moves, the re-deal is wide."""
WIDE_BUDGET = 2_000
"""Programme transitions a wide re-deal may take (past it the move is skipped: the choice of
owners does not depend on the deal, so skipping keeps the chain exact)."""
NARROW_BUDGET = 1_000
STUCK = 1.5
"""A cell whose potential scale reduction factor (chains against batches) passes this means the
chains disagree: the figures are reported as unreliable."""


class Chain:
    """One Markov chain over the consistent deals of a puzzle (open card -> owner index)."""

    def __init__(self, pz: Puzzle, deal: Deal, rng: random.Random):
        self.pz = pz
        self.deal = dict(deal)
        self.rng = rng
        self.cards = sorted(pz.allowed)
        self.n = len(pz.owners)
        self.wrong = set(pz.accusations)
        self.category = {c: pz.category(c) for c in pz.game.deck}
        self.hands: dict[int, list[str]] = defaultdict(list)
        for c in self.cards:
            self.hands[self.deal[c]].append(c)
        self.holders = sorted(o for o in range(self.n) if self.hands[o])
        self.tallies_of: dict[str, list[int]] = defaultdict(list)
        for i, t in enumerate(pz.tallies):
            for c in t.cards:
                self.tallies_of[c].append(i)
        env = pz.envelope
        self.slot_of = {cat: [env, self.n, self.n + 1][i] for i, cat in enumerate(CATEGORIES)}

    def envelope(self) -> Triple:
        """The envelope of the current deal."""
        return envelope_of(self.pz, self.deal)

    def move(self, wide: bool = False) -> None:
        """One re-deal of a few owners' cards (``wide``: of as many as `POOL` allows), then a
        few swaps."""
        if len(self.holders) >= 2:
            self._redeal(POOL if wide else 0, WIDE_BUDGET if wide else NARROW_BUDGET)
        for _ in range(SWAPS):
            self._swap()

    def _held(self, tally: int, owner: int, lose: str, gain: str) -> int:
        t = self.pz.tallies[tally]
        return sum(self.deal[c] == owner for c in t.cards if c != lose) + (gain in t.cards)

    def _swap(self) -> None:
        """Metropolis: two random cards of different owners change hands (a symmetric proposal,
        accepted with the ratio of the deal weights)."""
        a, b = self.rng.sample(self.cards, 2)
        oa, ob = self.deal[a], self.deal[b]
        env = self.pz.envelope
        if (
            oa == ob
            or ob not in self.pz.allowed[a]
            or oa not in self.pz.allowed[b]
            or (env in (oa, ob) and self.category[a] is not self.category[b])
        ):
            return
        ratio = 1.0
        for owner, lose, gain in ((oa, a, b), (ob, b, a)):
            for i in {*self.tallies_of[lose], *self.tallies_of[gain]}:
                t = self.pz.tallies[i]
                if t.owner != owner:
                    continue
                before = t.weights[self._held(i, owner, "", "")]
                after = t.weights[self._held(i, owner, lose, gain)]
                if not after:
                    return
                ratio *= after / before
        if ratio < 1 and self.rng.random() >= ratio:
            return
        self.deal[a], self.deal[b] = ob, oa
        if env in (oa, ob) and self.wrong and self.envelope() in self.wrong:
            self.deal[a], self.deal[b] = oa, ob
            return
        self.hands[oa].remove(a)
        self.hands[oa].append(b)
        self.hands[ob].remove(b)
        self.hands[ob].append(a)

    def _redeal(self, pool_size: int, budget: int) -> None:
        """Heat bath: pool a few owners' cards and deal the pool again, drawn exactly
        from every re-deal that fits (the counting programme on the small pool)."""
        pz, n, env, rng = self.pz, self.n, self.pz.envelope, self.rng
        chosen: set[int] = set()
        size = 0
        for owner in rng.sample(self.holders, len(self.holders)):
            if len(chosen) >= 2 and size >= pool_size:
                break
            chosen.add(owner)
            size += len(self.hands[owner])
        pool = [c for o in chosen for c in self.hands[o]]
        capacity = [0] * (n + 2)
        for o in chosen:
            capacity[o] = len(self.hands[o])
        if env in chosen:
            capacity[env] = 0
            for c in self.hands[env]:
                capacity[self.slot_of[self.category[c]]] = 1
        allowed: dict[str, frozenset[int]] = {}
        for c in pool:
            reach = {o for o in pz.allowed[c] if o in chosen and o != env}
            slot = self.slot_of[self.category[c]]
            if env in chosen and env in pz.allowed[c] and capacity[slot]:
                reach.add(slot)
            allowed[c] = frozenset(reach)
        in_pool = set(pool)
        tallies: list[Tally] = []
        for t in pz.tallies:
            if t.owner not in chosen:
                continue
            cards = tuple(c for c in t.cards if c in in_pool)
            if not cards:
                if not t.weights[0]:
                    return
                continue
            slots = (n, n + 1) if t.owner == env else ()
            tallies.append(Tally(t.owner, cards, t.weights[: len(cards) + 1], slots))
        if pool_size and past_budget(capacity, allowed, tallies, budget):
            return
        try:
            run = run_programme(capacity, allowed, tallies, Budget(budget))
        except OverBudget:
            return
        if not run.total:
            return
        old = {c: self.deal[c] for c in pool}
        for _ in range(20):
            new = walk(run, rng)
            self.deal.update({c: (env if o >= n or o == env else o) for c, o in new.items()})
            if not (env in chosen and self.wrong and self.envelope() in self.wrong):
                break
            self.deal.update(old)
        for o in chosen:
            self.hands[o] = []
        for c in pool:
            self.hands[self.deal[c]].append(c)


def past_budget(capacity: list[int], allowed: dict[str, frozenset[int]], tallies: list[Tally],
                budget: int) -> bool:
    """Whether a re-deal's count is past ``budget``, as the compiled count finds it where this
    process has loaded it (it charges the same work as the Python one, whose run the re-deal
    draws from, in a fifth of the time or less); else ``False``: the Python count finds out.
    At a 12-player table two wide re-deals in three go over, each after 2-3 ms of Python."""
    if not (loaded() and kernel() is not None):
        return False
    plan = plan_of(capacity, allowed, tallies)
    if plan.feasible and not fits(capacity, plan, tallies):  # it would count in Python too
        return False
    try:
        finish(compiled_steps(capacity, allowed, tallies, Budget(budget), plan=plan))
    except OverBudget:
        return True
    except ArithmeticError:  # its own check failed (a bug): the Python count decides
        logging.getLogger(__name__).exception("the compiled count failed its check")
    return False


@dataclass
class _Batches:
    """Per chain, per batch: the share of visits in which each (card, owner) and each envelope
    occurred."""

    cells: list[list[dict[tuple[str, int], float]]]
    envelopes: list[list[dict[Triple, float]]]
    visits: int


def _run_chains(
    pz: Puzzle, starts: list[Deal], moves: int, seed: int, kept: list[Deal] | None
) -> _Batches:
    per_batch = max(1, moves // (len(starts) * BATCHES))
    cells: list[list[dict[tuple[str, int], float]]] = []
    envelopes: list[list[dict[Triple, float]]] = []
    for k, start in enumerate(starts):
        chain = Chain(pz, start, random.Random(seed * 1_000_003 + k))
        for i in range(BURN_IN):
            chain.move(wide=i % WIDE_EVERY == 0)
        cells.append([])
        envelopes.append([])
        for _ in range(BATCHES):
            hits: dict[tuple[str, int], int] = defaultdict(int)
            inside: dict[Triple, int] = defaultdict(int)
            for i in range(per_batch):
                chain.move(wide=i % WIDE_EVERY == 0)
                for c in chain.cards:
                    hits[(c, chain.deal[c])] += 1
                inside[chain.envelope()] += 1
                if kept is not None:
                    kept.append(dict(chain.deal))
            cells[-1].append({key: v / per_batch for key, v in hits.items()})
            envelopes[-1].append({key: v / per_batch for key, v in inside.items()})
    return _Batches(cells, envelopes, per_batch * BATCHES * len(starts))


def _starts(found: dict[Triple, Deal], chains: int) -> list[Deal]:
    """Witness deals of envelopes spread over the possible ones (the list is in deck order)."""
    deals = list(found.values())
    return [deals[(i * len(deals)) // chains] for i in range(chains)]


def _scale_reduction(per_chain: Any) -> Any:
    """Gelman-Rubin potential scale reduction of each figure (axis 2), batches as draws (axis
    1) of each chain (axis 0): 1 when the chains agree; infinite when each chain is constant
    but they differ."""
    size = per_chain.shape[1]
    within = per_chain.var(axis=1, ddof=1).mean(axis=0)
    between = per_chain.mean(axis=1).var(axis=0, ddof=1) * size
    pooled = (size - 1) / size * within + between / size
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(within > 0, pooled / np.where(within > 0, within, 1), np.inf)
    return np.where(between > 0, np.sqrt(ratio), 1.0)


def sampled_odds(
    log: GameLog,
    pz: Puzzle,
    *,
    moves: int = SAMPLING_MOVES,
    seed: int = 0,
    refuter_model: bool = False,
    kept: list[Deal] | None = None,
) -> Odds:
    """Approximate odds from Markov chains over consistent deals (labelled ``exact=False``).

    Every envelope that is possible is listed (the set is exact, `possible_envelopes`), each
    with a standard error; one the chains never visited gets estimate 0 and the error that the
    effective number of draws leaves (so its interval is never just 0). With ``kept``, every
    deal the chains visit after their burn-in is appended to it (open card -> owner index).
    """
    found = possible_envelopes(log, pz)
    if not pz.allowed or len(found) == 0:
        return exact_odds(log, count(pz), refuter_model)
    batches = _run_chains(pz, _starts(found, CHAINS), moves, seed, kept)
    keys = [(c, i) for c in sorted(pz.allowed) for i in sorted(pz.allowed[c])]
    cells = np.array([[[b.get(k, 0.0) for k in keys] for b in chain] for chain in batches.cells])
    triples = list(found)
    inside = np.array(
        [[[b.get(t, 0.0) for t in triples] for b in chain] for chain in batches.envelopes]
    )
    size = cells.shape[0] * cells.shape[1]
    flat = cells.reshape(size, len(keys))
    cell_mean, cell_err = flat.mean(axis=0), flat.std(axis=0, ddof=1) / math.sqrt(size)
    flat_env = inside.reshape(size, len(triples))
    env_mean, env_err = flat_env.mean(axis=0), flat_env.std(axis=0, ddof=1) / math.sqrt(size)
    # Effective number of independent draws: what the batch errors of well-sampled cells imply
    # (at most the visits); it floors every error, and sets the error of what was never seen.
    usable = (cell_mean > 0.05) & (cell_mean < 0.95) & (cell_err > 0)
    ratios = cell_mean[usable] * (1 - cell_mean[usable]) / cell_err[usable] ** 2
    effective = min(float(batches.visits), float(np.median(ratios)) if ratios.size else size)

    def floored(p: Any, e: Any) -> Any:
        return np.maximum.reduce([e, np.sqrt(p * (1 - p) / effective),
                                  np.full_like(p, 1.5 / effective)])

    cell_err = floored(cell_mean, cell_err)
    env_err = floored(env_mean, env_err)
    estimate = {k: (float(p), float(e)) for k, p, e in zip(keys, cell_mean, cell_err, strict=True)}
    probabilities: dict[str, dict[str, Number]] = {}
    error: dict[str, dict[str, float]] = {}
    for card in pz.game.deck:
        probabilities[card] = {}
        error[card] = {}
        for i, owner in enumerate(pz.owners):
            p, e = estimate.get((card, i), (float(pz.fixed.get(card) == i), 0.0))
            probabilities[card][owner], error[card][owner] = p, e
    env_odds: list[tuple[str, str, str, Number]] = sorted(
        ((*t, float(p)) for t, p in zip(triples, env_mean, strict=True)),
        key=lambda x: (-x[3], x[:3]),
    )
    env_error = {t: float(e) for t, e in zip(triples, env_err, strict=True)}
    reduction = _scale_reduction(cells)
    worst = int(np.argmax(reduction))
    warning = None
    if reduction[worst] > STUCK:
        card, holder = keys[worst]
        worst_on = {"chains": cells.shape[0], "owner": pz.owners[holder], "card": card}
        warning = (gettext("the sampler's {chains} chains never mix, worst on '{owner} holds "
                     "{card}': these figures are unreliable").format(**worst_on)
                   if math.isinf(reduction[worst]) else
                   gettext("the sampler's {chains} chains disagree (scale reduction {reduction}), "
                     "worst on '{owner} holds {card}': these figures are unreliable").format(
                       reduction=f"{reduction[worst]:.1f}", **worst_on))
    return Odds(log.game, probabilities, tuple(env_odds), False, refuter_model,
                error=error, envelope_error=env_error, warning=warning)
