"""What makes a 12-player benchmark log hard to count: its open hands, refutations, ruled-out
cells, and the shapes of the programme and of inclusion-exclusion on it.

    python benchmarks/log_shape.py custom 30 0 1 2 3 4 5

Per log (`bench_odds`'s, player P1): the open cards and the places left in every open hand;
the open refutations ("showed one of ...") by how many open cards they name; wrong accusations
still possible; the (player, open card) cells ruled out (`choice.ruled_out`) and how many open
cards have 0, 1, 2 ... players ruled out; players merged as interchangeable (`symmetry`); the
programme's single cards and blocks; and inclusion-exclusion's start states (envelope triples
that lead to different states) and, per owner's turn, the kinds of card it sees and the
product of (cards of a kind + 1), a bound on its states from one start state.
"""

from __future__ import annotations

import argparse
import math
from collections import Counter

from bench_odds import custom_log, forum_log

from solver.odds import grid_of, puzzle
from solver.odds.choice import ruled_out
from solver.odds.exact import envelope_slots
from solver.odds.exclusion import prepare
from solver.odds.programme import Budget, plan_of
from solver.odds.symmetry import interchangeable, merge


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("forum", "custom"))
    parser.add_argument("events", type=int)
    parser.add_argument("seeds", type=int, nargs="+")
    args = parser.parse_args()
    for seed in args.seeds:
        log = (custom_log if args.game == "custom" else forum_log)(12, args.events, seed, "P1")
        pz = puzzle(log, grid_of(log))
        prepared = envelope_slots(pz)
        assert prepared is not None
        capacity, allowed, tallies, _, slot = prepared
        players = [pz.owners.index(p) for p in pz.game.player_names]
        groups = interchangeable(capacity, allowed, tallies, players)
        merged, merged_allowed, _ = merge(capacity, allowed, groups)
        plan = plan_of(merged, merged_allowed, tallies,
                       {slot[cat]: i for i, cat in enumerate(slot)})
        dealt = [o for o in players if capacity[o] > 0]
        by_ruled_out = Counter(sum(o not in pz.allowed[c] for o in dealt) for c in pz.allowed)
        setup = prepare(pz, Budget(10**12))
        turns = []
        for turn in setup.turns:
            sizes = [sum(len(setup.of_class[x]) for x in members) for members in turn.classes]
            turns.append(f"{len(turn.kinds)}/{math.prod(n + 1 for n in sizes):.0e}")
        print(f"{args.game} {args.events} events seed {seed}: {len(pz.allowed)} open cards; "
              f"places {[capacity[o] for o in dealt]}; refutations by cards named "
              f"{dict(sorted(Counter(len(t.cards) for t in tallies).items()))}; "
              f"wrong accusations {len(pz.accusations)}; ruled-out cells {ruled_out(pz)}, "
              f"open cards by players ruled out {dict(sorted(by_ruled_out.items()))}; "
              f"merged players {sum(len(g) for g in groups)}; programme: "
              f"{sum(layer.card is not None for layer in plan.layers)} single cards, "
              f"{plan.blocks} blocks; inclusion-exclusion: {len(setup.entry)} start states, "
              f"kinds/product per turn {' '.join(turns)}")


if __name__ == "__main__":
    main()
