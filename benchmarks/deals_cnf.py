"""A benchmark log's consistent deals as a CNF (DIMACS) whose models are exactly the deals, for
trying an outside model counter on them (`docs/odds-measurements.md`, "What the 45-card logs at
30 and 60 events need": D4 through `d4solver`).

    python benchmarks/deals_cnf.py classic 10 0 /tmp/me/classic-10-0.cnf
    python benchmarks/deals_cnf.py custom 30 4 /tmp/me/custom-30-4.cnf

One variable per (open card, owner that may hold it), the envelope as one owner per category
with one place (`exact.envelope_slots`): every card at exactly one owner (one clause and the
pairs); every owner's places by a sequential counter whose counter variables are defined by
equivalences (so a deal has exactly one model); every open refutation a clause; every wrong
accusation still possible a clause. The header comment gives `odds`'s count of deals where it
is exact, to compare with the counter's. Classic logs: 6-player spectator logs (`bench_odds`);
forum and custom: 12 players, player P1. Not under the refuter model.
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

from bench_odds import classic_log, custom_log, forum_log

from solver.editions import editions
from solver.odds import grid_of, odds, puzzle
from solver.odds.exact import envelope_slots


class Cnf:
    """Clauses over numbered variables."""

    def __init__(self) -> None:
        self.variables = 0
        self.clauses: list[list[int]] = []

    def new(self) -> int:
        self.variables += 1
        return self.variables

    def exactly(self, xs: list[int], k: int) -> None:
        """Exactly ``k`` of ``xs`` true: ``at[j]`` is "at least j of the first i" (j = 1..k+1),
        defined by equivalences from the previous column."""
        before: dict[int, int] = {}
        for x in xs:
            now: dict[int, int] = {}
            for j in range(1, k + 2):
                s = now[j] = self.new()
                a = before.get(j)  # at least j among the earlier ones
                b = before.get(j - 1) if j > 1 else None  # at least j - 1 among them
                rest = [a] if a else []
                if a:
                    self.clauses.append([-a, s])
                if j == 1:  # s <-> a or x
                    self.clauses += [[-x, s], [-s, *rest, x]]
                elif b:  # s <-> a or (b and x)
                    self.clauses += [[-b, -x, s], [-s, *rest, b], [-s, *rest, x]]
                else:  # s <-> a (no earlier column reaches j - 1)
                    self.clauses.append([-s, *rest])
            before = now
        if k > 0:
            self.clauses.append([before[k]] if before else [])
        if before:
            self.clauses.append([-before[k + 1]])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("classic", "forum", "custom"))
    parser.add_argument("events", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    if args.game == "classic":
        log = classic_log(editions()["clue-classic"].deck, 6, args.events, args.seed, None)
    else:
        log = (custom_log if args.game == "custom" else forum_log)(12, args.events, args.seed,
                                                                   "P1")
    pz = puzzle(log, grid_of(log))
    prepared = envelope_slots(pz)
    assert prepared is not None
    capacity, allowed, tallies, factor, slot = prepared
    cnf = Cnf()
    var = {(c, o): cnf.new() for c in sorted(allowed) for o in sorted(allowed[c])}
    for c in sorted(allowed):
        xs = [var[c, o] for o in sorted(allowed[c])]
        cnf.clauses.append(xs)
        cnf.clauses += [[-a, -b] for a, b in itertools.combinations(xs, 2)]
    for o in sorted({o for owners in allowed.values() for o in owners}):
        cnf.exactly([var[c, o] for c in sorted(allowed) if o in allowed[c]], capacity[o])
    for t in tallies:
        cnf.clauses.append([var[c, o] for c in t.cards for o in t.holders if (c, o) in var])
    for triple in set(pz.accusations):
        cnf.clauses.append([-var[c, slot[pz.category(c)]] for c in triple
                            if (c, slot[pz.category(c)]) in var])
    result = odds(log, grid=grid_of(log))
    with args.out.open("w") as out:
        out.write(f"c {args.game} {args.events} events seed {args.seed}: odds "
                  f"{'exact, ' + str(result.deals) if result.exact else 'sampled'} deals"
                  f"{'' if factor == 1 else f' (the count times {factor})'}\n")
        out.write(f"p cnf {cnf.variables} {len(cnf.clauses)}\n")
        for clause in cnf.clauses:
            out.write(" ".join(map(str, clause)) + " 0\n")
    print(f"{args.out}: {len(var)} cells, {cnf.variables} variables, {len(cnf.clauses)} "
          f"clauses; odds {'exact: ' + str(result.deals) if result.exact else 'sampled'}")


if __name__ == "__main__":
    main()
