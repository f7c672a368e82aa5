"""Sampling, for what the exact count cannot finish within its budget: a Markov chain over deals.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict

from pysat.solvers import Solver

from ..cards import CATEGORIES
from ..errors import ContradictionError
from ..game import GameLog, Triple
from ..model import DealModel
from ..notebook import SOLVER
from .draws import walk
from .exact import count, exact_odds
from .programme import Budget, OverBudget, run_programme
from .result import Number, Odds
from .setup import Puzzle, Tally

SAMPLING_MOVES = 2000
"""Chain moves after the burn-in (work, not time: the same log gives the same figures)."""
BURN_IN = 20
"""Moves before the chain's visits are counted."""

def initial_deal(log: GameLog, pz: Puzzle) -> dict[str, int]:
    """One consistent deal, from the SAT model."""
    model = DealModel(log.game)
    for event in log.events:
        model.add(event)
    with Solver(name=SOLVER, bootstrap_with=model.clauses) as solver:
        if not solver.solve(assumptions=model.selectors):
            raise ContradictionError((), "no deal fits the log")
        found = solver.get_model() or []
    index = {o: i for i, o in enumerate(pz.owners)}
    deal: dict[str, int] = {}
    for lit in found:
        if lit > 0 and lit in model.cells:
            card, owner = model.cells[lit]
            if card in pz.allowed:
                deal[card] = index[owner]
    return deal


def sampled_odds(
    log: GameLog,
    pz: Puzzle,
    *,
    moves: int = SAMPLING_MOVES,
    seed: int = 0,
    refuter_model: bool = False,
    batches: int = 20,
    kept: list[dict[str, int]] | None = None,
) -> Odds:
    """Approximate odds from a Markov chain over consistent deals (labelled ``exact=False``).

    With ``kept``, every deal the chain visits after its burn-in is appended to it (open card ->
    owner index).

    Each move picks two to four owners, pools their unknown cards and deals the pool again,
    drawn exactly from every re-deal that fits their hand sizes, the cards' possible owners, the
    envelope's one card per category and the refutations (the same counting programme as the
    exact method, on the small pool). This heat-bath move keeps the target distribution; it
    contains every swap, every cycle of cards among up to four owners and every exchange of
    several cards at once, so it reaches deals that no chain of two-card swaps reaches. Each
    figure's standard error comes from batch means.
    """
    rng = random.Random(seed)
    deal = initial_deal(log, pz)
    owners = pz.owners
    n = len(owners)
    env = pz.envelope
    cards = sorted(pz.allowed)
    if not cards:
        return exact_odds(log, count(pz), refuter_model)
    hands: dict[int, list[str]] = defaultdict(list)
    for c in cards:
        hands[deal[c]].append(c)
    holders = sorted(o for o in range(n) if hands[o])
    wrong = set(pz.accusations)
    category = {c: pz.category(c) for c in pz.game.deck}
    known_env = {category[c]: c for c, o in pz.fixed.items() if o == env}
    slot_of = {cat: [env, n, n + 1][i] for i, cat in enumerate(CATEGORIES)}

    def envelope() -> Triple:
        inside = dict(known_env)
        for c in hands[env]:
            inside[category[c]] = c
        return (inside[CATEGORIES[0]], inside[CATEGORIES[1]], inside[CATEGORIES[2]])

    def block_move() -> None:
        k = min(len(holders), rng.choice((2, 2, 2, 2, 2, 3, 3, 4)))
        chosen = set(rng.sample(holders, k))
        pool = [c for o in chosen for c in hands[o]]
        capacity = [0] * (n + 2)
        for o in chosen:
            capacity[o] = len(hands[o])
        if env in chosen:
            capacity[env] = 0
            for c in hands[env]:
                capacity[slot_of[category[c]]] = 1
        allowed: dict[str, frozenset[int]] = {}
        for c in pool:
            reach = {o for o in pz.allowed[c] if o in chosen and o != env}
            if env in chosen and env in pz.allowed[c] and capacity[slot_of[category[c]]]:
                reach.add(slot_of[category[c]])
            allowed[c] = frozenset(reach)
        in_pool = set(pool)
        tallies = [
            Tally(t.owner, tuple(c for c in t.cards if c in in_pool), t.weights)
            for t in pz.tallies
            if t.owner in chosen
        ]
        tallies = [
            Tally(t.owner, t.cards, t.weights[: len(t.cards) + 1]) if t.cards else t
            for t in tallies
        ]
        if any(not t.cards and not t.weights[0] for t in tallies):
            return
        try:
            run = run_programme(capacity, allowed, [t for t in tallies if t.cards], Budget(20_000))
        except OverBudget:
            return
        if not run.total:
            return
        for _ in range(20):
            new = walk(run, rng)
            placed = {c: (env if o >= n or o == env else o) for c, o in new.items()}
            old = {c: deal[c] for c in pool}
            deal.update(placed)
            for o in chosen:
                hands[o] = []
            for c in pool:
                hands[deal[c]].append(c)
            if not (env in chosen and wrong and envelope() in wrong):
                return
            deal.update(old)
            for o in chosen:
                hands[o] = []
            for c in pool:
                hands[deal[c]].append(c)

    hits: list[dict[tuple[str, int], float]] = []
    env_hits: list[dict[Triple, float]] = []
    batch_hits: dict[tuple[str, int], int] = defaultdict(int)
    batch_env: dict[Triple, int] = defaultdict(int)
    in_batch = 0
    per_batch = max(1, moves // batches)
    for move in range(BURN_IN + per_batch * batches):
        if len(holders) >= 2:
            block_move()
        if move < BURN_IN:
            continue
        for c in cards:
            batch_hits[(c, deal[c])] += 1
        batch_env[envelope()] += 1
        if kept is not None:
            kept.append(dict(deal))
        in_batch += 1
        if in_batch == per_batch:
            hits.append({key: v / in_batch for key, v in batch_hits.items()})
            env_hits.append({key: v / in_batch for key, v in batch_env.items()})
            batch_hits = defaultdict(int)
            batch_env = defaultdict(int)
            in_batch = 0
    nb = len(hits)

    def mean_err(values: list[float]) -> tuple[float, float]:
        mean = sum(values) / nb
        var = sum((v - mean) ** 2 for v in values) / (nb - 1)
        return mean, math.sqrt(var / nb)

    probabilities: dict[str, dict[str, Number]] = {}
    error: dict[str, dict[str, float]] = {}
    for card in pz.game.deck:
        probabilities[card] = {}
        error[card] = {}
        for i, owner in enumerate(owners):
            if card in pz.allowed:
                p, e = mean_err([h.get((card, i), 0.0) for h in hits])
            else:
                p, e = float(pz.fixed.get(card) == i), 0.0
            probabilities[card][owner] = p
            error[card][owner] = e
    triples = {triple for h in env_hits for triple in h}
    env_error: dict[Triple, float] = {}
    env_odds: list[tuple[str, str, str, Number]] = []
    for triple in triples:
        p, e = mean_err([h.get(triple, 0.0) for h in env_hits])
        env_odds.append((*triple, p))
        env_error[triple] = e
    env_odds.sort(key=lambda x: (-x[3], x[:3]))
    return Odds(log.game, probabilities, tuple(env_odds), False, refuter_model,
                error=error, envelope_error=env_error)
