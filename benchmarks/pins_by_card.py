"""A measurement, not a count the odds use: how many states inclusion-exclusion needs when it
pins card by card with the envelope as three slots, on `bench_odds`'s logs.

Only the number of deals (no card's figures, no envelope triples). Each open card in turn goes
into its category's envelope slot (+1, the slot empty), stays free (+1: some player holds it,
left to the multinomial at the end) or is pinned at a player who may not hold it (-1). A
refutation "P holds one of S" is 1 - [P holds none of S]: taken as "none" at its first card
(-1), its cards may then also be pinned at P. The state is which slots are filled, which open
refutations were taken as "none", the pins of every player a later card may still be pinned
at, and the pins in all; a player past their last possible pin folds ``c!/(c-p)!`` into the
count, and the end state weighs ``(places - pins)! / prod c!`` (`solver/odds/exclusion.py` has
the same sum owner by owner, the envelope dealt first, one triple at a time). Wrong
accusations are subtracted, each counted with its triple in the envelope. Cards are taken
greedily, each time the one that keeps the players with open pins fewest (the product of
``min(places, pins possible so far) + 1``).

    python benchmarks/pins_by_card.py custom 30 0 1 2 3 4 5 --check

``--check`` compares the number with `odds`'s deals (where `odds` is exact) and with
inclusion-exclusion owner by owner given ``--exclusion`` moves (default 40 million).
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict

from bench_odds import classic_log, custom_log, forum_log

from solver.cards import CATEGORIES
from solver.editions import editions
from solver.game import GameLog
from solver.odds import OverBudget, grid_of, odds, puzzle
from solver.odds.exclusion_compiled import exclusion_steps
from solver.odds.pins import order_of
from solver.odds.programme import Budget, finish
from solver.odds.setup import Puzzle

State = tuple[int, int, tuple[int, ...], int]
"""(envelope slots filled, bits; refutations taken as "none", bits; pins per player; pins)."""


def deals_with(pz: Puzzle, envelope: tuple[str, ...] | None, stats: dict[str, int]) -> int:
    """The deals of ``pz`` (wrong accusations aside), or those with ``envelope`` in it."""
    env = pz.envelope
    players = [pz.owners.index(p) for p in pz.game.player_names]
    places = {o: pz.capacity[o] for o in players if pz.capacity[o] > 0}
    dealt = list(places)
    index = {o: i for i, o in enumerate(dealt)}
    inside = set(envelope or ())
    if any(c in pz.allowed and env not in pz.allowed[c] for c in inside):
        return 0
    slot_open = [envelope is None and not any(pz.fixed.get(c) == env
                                              for c in pz.game.deck.of(cat))
                 for cat in CATEGORIES]
    tallies = pz.tallies
    if envelope is not None:  # the envelope's own notes are settled by the triple
        if any(t.owner == env and not inside & set(t.cards) for t in tallies):
            return 0
        tallies = [t for t in tallies if t.owner != env]
    if not all(t.weights[0] == 0 and set(t.weights[1:]) <= {1} for t in tallies):
        raise ValueError("the refuter model's weights are not expanded here")
    ruled_out = {c: {o for o in dealt if o not in pz.allowed[c]} for c in pz.allowed}
    touch = {c: ruled_out[c] | {t.owner for t in tallies if c in t.cards and t.owner != env}
             for c in pz.allowed if c not in inside}
    order = order_of({c: {index[o] for o in at} for c, at in touch.items()},
                     list(places.values()))
    at = {c: i for i, c in enumerate(order)}
    last_pin = {o: max((at[c] for c in order if o in touch[c]), default=-1) for o in dealt}
    spans = [[at[c] for c in t.cards if c in at] for t in tallies]
    if not all(spans):  # a player's refutation whose every card is in the envelope
        return 0
    axis = {cat: i for i, cat in enumerate(CATEGORIES)}
    states: dict[State, int] = {(0, 0, tuple(0 for _ in dealt), 0): 1}
    for i, card in enumerate(order):
        ax = axis[pz.category(card)]
        opens = [k for k, span in enumerate(spans) if span and min(span) == i]
        closes = [k for k, span in enumerate(spans) if span and max(span) == i]
        folding = [index[o] for o in dealt if last_pin[o] == i]
        closed = ~sum(1 << k for k in closes)
        nxt: dict[State, int] = defaultdict(int)
        for (slots, none, pins, pinned), ways in states.items():
            for chosen in range(1 << len(opens)):
                bits = none
                sign = 1
                for b, k in enumerate(opens):
                    if chosen >> b & 1:
                        bits |= 1 << k
                        sign = -sign
                mine = [tallies[k] for k in range(len(tallies))
                        if bits >> k & 1 and card in tallies[k].cards]
                where = ruled_out[card] | {t.owner for t in mine if t.owner != env}
                moves: list[tuple[int, tuple[int, ...], int, int]] = [
                    (slots, pins, pinned, sign)]  # free
                if (slot_open[ax] and not slots >> ax & 1 and env in pz.allowed[card]
                        and not any(t.owner == env for t in mine)):
                    moves.append((slots | 1 << ax, pins, pinned, sign))
                for o in where:
                    j = index[o]
                    if pins[j] < places[o]:
                        moved = list(pins)
                        moved[j] += 1
                        moves.append((slots, tuple(moved), pinned + 1, -sign))
                for slots2, pins2, pinned2, sign2 in moves:
                    stats["work"] += 1
                    weight = ways * sign2
                    kept = list(pins2)
                    for j in folding:
                        weight *= math.perm(places[dealt[j]], kept[j])
                        kept[j] = 0
                    nxt[(slots2, bits & closed, tuple(kept), pinned2)] += weight
        states = {st: w for st, w in nxt.items() if w}
        stats["peak"] = max(stats["peak"], len(states))
    full = sum(1 << a for a in range(3) if slot_open[a])
    room = sum(places.values())
    total = sum(w * math.factorial(room - pinned)
                for (slots, _, _, pinned), w in states.items() if slots == full)
    scale = math.prod(math.factorial(c) for c in places.values())
    deals, rest = divmod(total, scale)
    assert rest == 0
    return deals


def deals_of(pz: Puzzle, stats: dict[str, int]) -> int:
    """Every deal consistent with ``pz``: all of them less those of each wrong accusation."""
    return deals_with(pz, None, stats) - sum(deals_with(pz, triple, stats)
                                             for triple in sorted(set(pz.accusations)))


def log_of(game: str, events: int, seed: int) -> GameLog:
    """`bench_odds`'s log: classic, a 6-player spectator log; forum and custom, 12 players, P1."""
    if game == "classic":
        return classic_log(editions()["clue-classic"].deck, 6, events, seed, None)
    return (custom_log if game == "custom" else forum_log)(12, events, seed, "P1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("classic", "forum", "custom"))
    parser.add_argument("events", type=int)
    parser.add_argument("seeds", type=int, nargs="+")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--exclusion", type=float, default=40e6)
    args = parser.parse_args()
    for seed in args.seeds:
        log = log_of(args.game, args.events, seed)
        pz = puzzle(log, grid_of(log))
        stats = {"work": 0, "peak": 0}
        start = time.process_time()
        deals = deals_of(pz, stats)
        cpu = time.process_time() - start
        line = (f"{args.game} {args.events} events seed {seed}: {stats['work'] / 1e6:.2f} M "
                f"moves, at most {stats['peak']:,} states, {cpu:.1f} s CPU (Python)")
        if args.check:
            by_odds = odds(log, grid=grid_of(log))
            same = "same as odds" if by_odds.deals == deals else "DIFFERENT from odds"
            line += f"; {same}" if by_odds.exact else "; odds sampled"
            budget = Budget(int(args.exclusion))
            try:
                owner = finish(exclusion_steps(pz, budget))
                line += (f"; inclusion-exclusion owner by owner {budget.spent / 1e6:.2f} M "
                         f"moves, {'same' if owner.total == deals else 'DIFFERENT'}")
            except OverBudget:
                line += f"; inclusion-exclusion owner by owner past {args.exclusion / 1e6:g} M"
        print(line, flush=True)


if __name__ == "__main__":
    main()
