"""A measurement, not a count the odds use: every card's figure (each player and the envelope)
by inclusion-exclusion card by card (`pins_by_card.py`), and the work it takes beside the total.

    python benchmarks/pins_figures.py custom 30 4 --check
    python benchmarks/pins_figures.py classic 10 1 2 --check

The envelope slots' figures: forward x weight x backward at the card's own layer, the card
going into its slot. A player's: in a term where card x is free, the deals holding the term's
pins number ``(places - pins)! / prod (c - p)!`` and those with x at player o a share
``(c_o - p_o) / (places - pins)`` of them (``p_o``: o's pins once all are placed); in a term
where x is pinned at o (a refutation of o's taken as "none"), all of them. So x's figure at a
player o who may hold it is the sum over the terms where x is free of that share, plus those
where x is pinned at o (at a player ruled out for x the two cancel: 0). ``(c_o - p_o)`` is
folded in at o's last possible pin, so the passes are: forward, backward with end weight
``(places - pins)!`` and with ``(places - pins - 1)!``, and per player with pins a forward and
a backward pass with that factor; then every card's layer once more for the envelope and once
per player. The work is every move listed, in every pass. States whose ways cancel
to 0 are kept: other figures go through them. No envelope triples. ``--check`` compares every
figure with `odds`'s where it is exact.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict
from fractions import Fraction

from pins_by_card import State, log_of, order_of

from solver.cards import CATEGORIES
from solver.odds import grid_of, odds, puzzle
from solver.odds.setup import Puzzle

Move = tuple[str, int, State, int]
"""(kind: "free", "slot" or "pin"; owner, -1 when free; next state; weight)."""
Figures = dict[str, dict[int, int]]


class Pins:
    """The count card by card of the deals of ``pz``, or of those with ``envelope`` in it."""

    def __init__(self, pz: Puzzle, envelope: tuple[str, ...] | None, stats: dict[str, int]):
        self.pz = pz
        self.stats = stats
        env = self.env = pz.envelope
        players = [pz.owners.index(p) for p in pz.game.player_names]
        self.places = {o: pz.capacity[o] for o in players if pz.capacity[o] > 0}
        self.dealt = list(self.places)
        self.index = {o: i for i, o in enumerate(self.dealt)}
        self.inside = set(envelope or ())
        self.possible = not any(c in pz.allowed and env not in pz.allowed[c]
                                for c in self.inside)
        self.slot_open = [envelope is None and not any(pz.fixed.get(c) == env
                                                       for c in pz.game.deck.of(cat))
                          for cat in CATEGORIES]
        tallies = pz.tallies
        if envelope is not None:  # the envelope's own notes are settled by the triple
            self.possible &= all(t.owner != env or self.inside & set(t.cards) for t in tallies)
            tallies = [t for t in tallies if t.owner != env]
        if not all(t.weights[0] == 0 and set(t.weights[1:]) <= {1} for t in tallies):
            raise ValueError("the refuter model's weights are not expanded here")
        self.tallies = tallies
        self.ruled_out = {c: {o for o in self.dealt if o not in pz.allowed[c]}
                          for c in pz.allowed}
        touch = {c: self.ruled_out[c] | {t.owner for t in tallies
                                         if c in t.cards and t.owner != env}
                 for c in pz.allowed if c not in self.inside}
        self.order = order_of(touch, self.places)
        at = {c: i for i, c in enumerate(self.order)}
        self.last_pin = {o: max((at[c] for c in self.order if o in touch[c]), default=-1)
                         for o in self.dealt}
        self.spans = [[at[c] for c in t.cards if c in at] for t in tallies]
        self.possible &= all(self.spans)  # else a refutation's every card is in the envelope
        self.room = sum(self.places.values())
        self.full = sum(1 << a for a in range(3) if self.slot_open[a])
        self.start: State = (0, 0, tuple(0 for _ in self.dealt), 0)

    def moves(self, i: int, state: State, extra: int | None) -> list[Move]:
        """The moves of the card at layer ``i`` from ``state``; ``extra``: a player whose
        places left, ``c - p``, weigh the count once their last pin is past."""
        pz, card = self.pz, self.order[i]
        slots, none, pins, pinned = state
        ax = CATEGORIES.index(pz.category(card))
        opens = [k for k, span in enumerate(self.spans) if min(span) == i]
        closed = ~sum(1 << k for k, span in enumerate(self.spans) if max(span) == i)
        folding = [j for j, o in enumerate(self.dealt) if self.last_pin[o] == i]
        out: list[Move] = []
        for chosen in range(1 << len(opens)):
            bits, sign = none, 1
            for b, k in enumerate(opens):
                if chosen >> b & 1:
                    bits, sign = bits | 1 << k, -sign
            mine = [t for k, t in enumerate(self.tallies) if bits >> k & 1 and card in t.cards]
            where = self.ruled_out[card] | {t.owner for t in mine if t.owner != self.env}
            moves: list[tuple[str, int, int, tuple[int, ...], int, int]] = [
                ("free", -1, slots, pins, pinned, sign)]
            if (self.slot_open[ax] and not slots >> ax & 1 and self.env in pz.allowed[card]
                    and not any(t.owner == self.env for t in mine)):
                moves.append(("slot", self.env, slots | 1 << ax, pins, pinned, sign))
            for o in where:
                j = self.index[o]
                if pins[j] < self.places[o]:
                    moved = list(pins)
                    moved[j] += 1
                    moves.append(("pin", o, slots, tuple(moved), pinned + 1, -sign))
            for kind, o, slots2, pins2, pinned2, weight in moves:
                kept = list(pins2)
                for j in folding:
                    c = self.places[self.dealt[j]]
                    weight *= math.perm(c, kept[j]) * (c - kept[j] if self.dealt[j] == extra
                                                       else 1)
                    kept[j] = 0
                out.append((kind, o, (slots2, bits & closed, tuple(kept), pinned2), weight))
        self.stats["work"] += len(out)
        return out

    def forward(self, extra: int | None) -> list[dict[State, int]]:
        layers: list[dict[State, int]] = [{self.start: 1}]
        for i in range(len(self.order)):
            nxt: dict[State, int] = defaultdict(int)
            for st, ways in layers[-1].items():
                for _, _, st2, w in self.moves(i, st, extra):
                    nxt[st2] += ways * w
            layers.append(dict(nxt))  # ways that cancel to 0 stay: other figures pass there
        return layers

    def backward(self, extra: int | None, shift: int,
                 states: list[dict[State, int]]) -> list[dict[State, int]]:
        n = len(self.order)
        layers: list[dict[State, int]] = [{} for _ in range(n + 1)]
        layers[n] = {st: math.factorial(self.room - st[3] - shift) for st in states[n]
                     if st[0] == self.full and self.room - st[3] - shift >= 0}
        for i in range(n - 1, -1, -1):
            for st in states[i]:
                out = 0
                for _, _, st2, w in self.moves(i, st, extra):
                    out += w * layers[i + 1].get(st2, 0)
                if out:
                    layers[i][st] = out
        return layers

    def figures(self) -> tuple[int, Figures]:
        """The deals and every card's figure at every owner (the envelope's index for it)."""
        if not self.possible:
            return 0, {}
        pz = self.pz
        ways = self.forward(None)
        out = self.backward(None, 0, ways)
        out_less = self.backward(None, 1, ways)  # end weight (places - pins - 1)!
        marked = {o: (self.forward(o), self.backward(o, 1, ways))
                  for o in self.dealt if self.last_pin[o] >= 0}
        figures: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        for i, card in enumerate(self.order):
            row = figures[card]

            def free(into: dict[State, int], extra: int | None,
                     after: dict[State, int], i: int = i) -> int:
                return sum(v * w * after.get(st2, 0) for st, v in into.items()
                           for kind, _, st2, w in self.moves(i, st, extra) if kind == "free")

            for st, v in ways[i].items():
                for kind, o, st2, w in self.moves(i, st, None):
                    if kind == "slot" or (kind == "pin" and o in pz.allowed[card]):
                        row[o] += v * w * out[i + 1].get(st2, 0)
            for o in self.dealt:
                if o not in pz.allowed[card]:
                    continue
                if self.last_pin[o] < 0:  # never pinned: c_o places left in every term
                    row[o] += self.places[o] * free(ways[i], None, out_less[i + 1])
                elif self.last_pin[o] < i:
                    row[o] += free(marked[o][0][i], None, out_less[i + 1])
                elif self.last_pin[o] == i:
                    row[o] += free(ways[i], o, out_less[i + 1])
                else:
                    row[o] += free(ways[i], None, marked[o][1][i + 1])
        scale = math.prod(math.factorial(c) for c in self.places.values())
        total, rest = divmod(out[0].get(self.start, 0), scale)
        assert rest == 0
        result: Figures = {}
        for card, row in figures.items():
            result[card] = {}
            for o, v in row.items():
                result[card][o], rest = divmod(v, scale)
                assert rest == 0, (card, o)
        for card in self.inside & set(pz.allowed):
            result[card] = {self.env: total}
        return total, result


def figures_of(pz: Puzzle, stats: dict[str, int]) -> tuple[int, Figures]:
    """Every consistent deal and card's figure: all of them less each wrong accusation's."""
    total, figures = Pins(pz, None, stats).figures()
    for triple in sorted(set(pz.accusations)):
        wrong, theirs = Pins(pz, triple, stats).figures()
        total -= wrong
        for card, row in theirs.items():
            for o, v in row.items():
                figures.setdefault(card, {})
                figures[card][o] = figures[card].get(o, 0) - v
    return total, figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("classic", "forum", "custom"))
    parser.add_argument("events", type=int)
    parser.add_argument("seeds", type=int, nargs="+")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    for seed in args.seeds:
        log = log_of(args.game, args.events, seed)
        pz = puzzle(log, grid_of(log))
        stats = {"work": 0}
        start = time.process_time()
        total, figures = figures_of(pz, stats)
        cpu = time.process_time() - start
        line = (f"{args.game} {args.events} events seed {seed}: every card's figure in "
                f"{stats['work'] / 1e6:.2f} M moves, {cpu:.1f} s CPU (Python)")
        if args.check:
            by_odds = odds(log, grid=grid_of(log))
            if by_odds.exact:
                differ = sum(by_odds.probabilities[c][name]
                             != Fraction(figures.get(c, {}).get(o, 0), total)
                             for c in pz.allowed for o, name in enumerate(pz.owners))
                line += (f"; deals {'same as' if total == by_odds.deals else 'NOT'} odds', "
                         f"{differ} of {len(pz.allowed) * len(pz.owners)} cells differ")
            else:
                line += "; odds sampled"
        print(line, flush=True)


if __name__ == "__main__":
    main()
