"""How few pin counts any card-by-card count must combine at one step on `bench_odds`'s logs:
the players' graph (two players joined where a card may be pinned at both; with ``--slots`` the
envelope's three slots too, joined to the players of their candidates) and its least widths,
exactly.

A count that deals the cards one at a time keeps, between two cards, the pin counts of the
players some of whose cards have come and some not, and combines them with those of the card it
deals: at some card, a whole separator of a path through this graph. A count over a tree of
parts (a tensor network, a tree decomposition) combines, at some part, a separator of the tree.
What is kept between two steps can be less: one card pinned at three players joins them in a
triangle (width two players) and leaves nothing to keep. Both least widths are printed in log2
of the pin counts (a player of ``c`` places left counts ``c + 1`` values, a slot 2): by subsets
of the players, at most 14 vertices.

With ``--hybrid``, also the work bound (`pins.Bound`, order searched) where each card is dealt
its cheaper way: pinned at the players ruled out for it (as now) or, where fewer, dealt to one
of the players who may hold it (as the programme deals).

    python benchmarks/pins_widths.py custom 60 0 1 2 3 6 8 --slots --hybrid
"""

from __future__ import annotations

import argparse
import itertools
import math
from collections.abc import Sequence

from pins_by_card import log_of

from solver.odds import grid_of, pins, puzzle
from solver.odds.pins import Bound, order_by_state, order_of


def widths(adj: Sequence[int], weight: Sequence[float]) -> tuple[float, float]:
    """The least weighted vertex separation (pathwidth) and treewidth (the separator left as a
    vertex is summed out, without it), over every order of the vertices."""
    n = len(adj)
    full = (1 << n) - 1

    def weigh(s: int) -> float:
        return sum(weight[v] for v in range(n) if s >> v & 1)

    def beyond(inside: int, v: int) -> int:
        """The vertices outside ``inside`` and ``v`` that ``v`` reaches through ``inside``."""
        seen, stack, out = 1 << v, [v], 0
        while stack:
            u = stack.pop()
            new = adj[u] & ~seen
            seen |= new
            for w in range(n):
                if new >> w & 1:
                    if inside >> w & 1:
                        stack.append(w)
                    else:
                        out |= 1 << w
        return out

    path = [0.0] * (1 << n)
    tree = [0.0] * (1 << n)
    for s in range(1, 1 << n):
        members = [v for v in range(n) if s >> v & 1]
        rim = sum(weight[v] for v in members if adj[v] & full & ~s)
        path[s] = max(rim, min(path[s & ~(1 << v)] for v in members))
        tree[s] = min(max(tree[s & ~(1 << v)], weigh(beyond(s & ~(1 << v), v)))
                      for v in members)
    return path[full], tree[full]


def hybrid_work(p: pins.Plan) -> tuple[int, int, int]:
    """(cards cheaper dealt to a holder, the bound as planned, the bound with those cards so)."""
    now = Bound.of_plan(p)
    pinned = {c.name: sorted(set(c.ruled_out) | {j for _, j in c.named_by}) for c in p.cards}
    held = {c.name: sorted(c.holders) for c in p.cards}
    touch = {c: held[c] if len(held[c]) < len(pinned[c]) else pinned[c] for c in pinned}
    mixed = Bound(touch, now.of, now.refutations, now.slot, now.places)
    named: list[set[str]] = [set() for _ in range(now.refutations)]
    for c, ks in now.of.items():
        for k in ks:
            named[k].add(c)
    sets = {c: set(js) for c, js in touch.items()}
    order = mixed.searched(min((order_of(sets, now.places),
                                order_by_state(sets, now.places, named)), key=mixed.work))
    return (sum(touch[c] is held[c] for c in touch), now.work([c.name for c in p.cards]),
            mixed.work(order))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("classic", "forum", "custom"))
    parser.add_argument("events", type=int)
    parser.add_argument("seeds", type=int, nargs="+")
    parser.add_argument("--slots", action="store_true")
    parser.add_argument("--hybrid", action="store_true")
    args = parser.parse_args()
    for seed in args.seeds:
        log = log_of(args.game, args.events, seed)
        p = pins.plan(puzzle(log, grid_of(log)))
        k = len(p.players)
        n = k + 3 * args.slots
        adj = [0] * n
        weight = [math.log2(c + 1) for c in p.places] + [1.0] * (n - k)
        for card in p.cards:
            at = set(card.ruled_out) | {j for _, j in card.named_by}
            if args.slots and card.slot:
                at.add(k + card.axis)
            for a, b in itertools.permutations(at, 2):
                adj[a] |= 1 << b
        pairs = sum(bin(adj[v] & ((1 << k) - 1)).count("1") for v in range(k)) // 2
        path, tree = widths(adj, weight)
        line = (f"{args.game} {args.events} events seed {seed}: {k} players, {pairs} of "
                f"{k * (k - 1) // 2} pairs joined; least widths: path 2^{path:.1f}, tree "
                f"2^{tree:.1f}, all 2^{sum(weight):.1f}")
        if args.hybrid:
            dealt, now, mixed = hybrid_work(p)
            line += (f"; {dealt} of {len(p.cards)} cards cheaper dealt to a holder, bound "
                     f"{now / 1e6:.1f} M as planned, {mixed / 1e6:.1f} M so")
        print(line, flush=True)


if __name__ == "__main__":
    main()
