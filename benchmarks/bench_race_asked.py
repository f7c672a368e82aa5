"""What the others' last questions tell the race: weighings of the asking rule, measured, not
built.

The simulated opponents ask about their likeliest envelope card of each category. The race
(`solver.race.race`) reads a question only as "the asker probably lacks these cards and was not
shown them" (`Play`, `_Table.weight`). This replays the moments a strategy benchmark recorded
(``bench_strategy.py --out``, the ``likeliest`` games against perfect opponents at 6 players)
where the race said more than 0 or an opponent knew, and runs the race there several ways on
the same drawn deals and the same hidden choices (each way multiplies a drawn deal's weight by a
factor per other player, from the last ``n`` of their suggestions; a card they named that is
theirs or was shown to them before is left to the race's own weights):

- ``race``: the race as it is;
- ``placed n``: the bluff factor for each card named that their view just before that question
  (their hand, the cards shown to them, the public log up to then) had placed outside the
  envelope (one SAT call per model, see ``open n``);
- ``open n``: as ``placed n``, and 1 / the cards of its category their view left open for each
  card named that was open ("they ask uniformly among the cards they still think possible");
  the open cards are found a model at a time, each category asked again without the cards found;
- ``public n``: no SAT call: each card named counts its chance in the public log now
  (`table_odds`, plus 0.01) over the sum of those of its category that they neither hold nor
  were shown ("they ask in proportion to the table's odds among the cards they have not seen");
- ``own open n`` (and ``own placed n``, ``own public n``): each player's chance weighed by their
  own factor only, not the product over all players.

Points of a game are summed per game for the interval; the Brier differences are paired.

    python benchmarks/bench_race_asked.py RUN.jsonl [...] [--ways race "placed 1" "open 1"]
        [--part 0 --parts 2] --out OUT.jsonl
    python benchmarks/bench_race_asked.py --report OUT.jsonl [...]
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import bench_strategy as bs
from bench_race_questions import replay, replay_parser, replay_runs

import solver.race as race_module
from solver.cards import CATEGORIES
from solver.game import ENVELOPE, SIDE, Accusation, GameLog
from solver.race import Choices, Play, heard_before, race, table_odds
from solver.simulate import Moment

WAYS = ("race", "placed 1", "open 1", "public 1")
RACE_SAMPLES = 150
Plain = race_module._Table


class Asked(Plain):
    """The race's table, each drawn deal weighed also by ``rule`` over the last ``questions``
    suggestions of every other player."""

    rule = "placed"
    questions = 1
    public: Mapping[str, float] = {}

    def __init__(self, log: GameLog, rng: random.Random, bluff: Fraction | float = 1) -> None:
        super().__init__(log, rng, bluff)
        self.heard_before = heard_before(log)
        """Log event index -> how many public events were heard before it."""
        self.open_at: dict[tuple[int, tuple[int, ...]], dict[Any, frozenset[str]]] = {}

    def read(self, players: Any, still: Any, deal: Mapping[str, str]) -> Any:
        now, kept, weight, drawn = super().read(players, still, deal)  # a log, as `weight`
        for name in players:
            weight += self.asked(name, deal, drawn[name])
        return now, kept, weight, drawn

    def asked(self, player: str, deal: Mapping[str, str], drawn: Choices) -> float:
        """The log of the factor ``player``'s last questions give ``deal`` (``self.bluff`` is
        the log of the bluff factor, as `_Table.weight` reads it)."""
        if not self.questions:  # [-0:] would read them all
            return 0.0
        holds = self.model.holds
        game = self.log.game
        factor = 0.0
        full = self.log
        for i, cards in self.named.get(player, [])[-self.questions:]:
            self.log = full.upto(i)
            try:
                shown, seen, _ = self._shown(player, deal, drawn[0])
            finally:
                self.log = full
            peeks = [c for at, c in zip(self.peeks.get(player, ()), drawn[1], strict=True)
                     if at < i]
            known = set(seen) | set(peeks)
            wanted = [c for c in cards if c in self.live and deal[c] != player and c not in known]
            if not wanted:
                continue
            if self.rule == "public":
                for card in wanted:
                    pool = [c for c in game.deck.of(game.category_of(card))
                            if c in self.live and deal[c] != player and c not in known]
                    factor += math.log((self.public.get(card, 0.0) + 0.01)
                                       / sum(self.public.get(c, 0.0) + 0.01 for c in pool))
                continue
            facts = [holds(player, c) if deal[c] == player else -holds(player, c)
                     for c in self.live]
            facts += shown + [holds(SIDE, c) for c in peeks]
            open_ = self.open_sets(self.heard_before[i], facts, deal)
            for card in wanted:
                cat = game.category_of(card)
                if card not in open_[cat]:
                    factor += self.bluff
                elif self.rule == "open":
                    factor -= math.log(len(open_[cat]))
        return factor

    def open_sets(self, heard: int, facts: list[int], deal: Mapping[str, str]
                  ) -> dict[Any, frozenset[str]]:
        """Per category, the cards the view (the first ``heard`` public events and ``facts``,
        which ``deal`` satisfies) leaves possible in the envelope."""
        key = (heard, tuple(facts))
        if key not in self.open_at:
            holds = self.model.holds
            game = self.log.game
            found: dict[Any, set[str]] = {cat: set() for cat in CATEGORIES}
            for c in self.live:
                if deal[c] == ENVELOPE:
                    found[game.category_of(c)].add(c)
            base = self.selectors[:heard] + facts
            for cat in CATEGORIES:
                while self.solver.solve(
                        assumptions=[*base, *(-holds(ENVELOPE, c) for c in found[cat])]):
                    model = set(self.solver.get_model() or ())
                    for c in self.live:
                        if holds(ENVELOPE, c) in model:
                            found[game.category_of(c)].add(c)
            self.open_at[key] = {cat: frozenset(cards) for cat, cards in found.items()}
        return self.open_at[key]


def own(log: GameLog, play: Play, seed: int, rule: str, questions: int) -> dict[str, float]:
    """The race with each player's chance weighed by their own questions only (the others'
    factors left out: each player's chance reads one factor, not the product of all)."""
    game = log.game
    players = [n for n in game.player_names if n != game.me]
    still = [n for n in players
             if not any(isinstance(e, Accusation) and e.by == n for e in log.events)]
    deals = race_module._deals(log, play.draw(RACE_SAMPLES, seed))
    Asked.rule, Asked.questions = rule, questions
    Asked.public = (table_odds(log) or {}) if rule == "public" else {}
    table = Asked(log, random.Random(seed), play.bluff)
    rows = []
    try:
        for deal in deals:
            now, kept, weight, drawn = Plain.read(table, players, still, deal)
            rows.append((now, kept, weight, {n: table.asked(n, deal, drawn[n]) for n in players}))
    finally:
        table.close()
    if not any(kept for _, kept, _, _ in rows):
        rows = [(now, True, w, f) for now, _, w, f in rows]
    chances = {}
    for n in players:
        top = max(w + f[n] for _, kept, w, f in rows if kept)  # logs, as `_Table.weight`
        mass = sum(math.exp(w + f[n] - top) for _, kept, w, f in rows if kept)
        chances[n] = sum(math.exp(w + f[n] - top) for now, kept, w, f in rows
                         if kept and n in now) / mass
    return chances


def measure(moment: Moment, ways: list[str]) -> dict[str, Any]:
    """Each opponent's chance to know at ``moment``, each way, and its CPU."""
    log = moment.log
    play = Play(log, Fraction(1, 4))
    chances: dict[str, dict[str, float]] = {}
    cpu: dict[str, float] = {}
    for way in ways:
        start = time.process_time()
        if way.startswith("own "):
            _, rule, n = way.split()
            chances[way] = own(log, play, moment.turn, rule, int(n))
            cpu[way] = time.process_time() - start
            continue
        if way == "race":
            race_module._Table = Plain
        else:
            rule, n = way.split()
            Asked.rule, Asked.questions = rule, int(n)
            Asked.public = (table_odds(log) or {}) if rule == "public" else {}
            race_module._Table = Asked
        try:
            chances[way] = dict(race(log, samples=RACE_SAMPLES, seed=moment.turn,
                                     play=play).players)
        finally:
            race_module._Table = Plain
        cpu[way] = time.process_time() - start
    return {"turn": moment.turn, "answered": moment.answered, "knows": dict(moment.knows),
            "chances": chances, "cpu": cpu}


def report(rows: list[dict[str, Any]]) -> None:
    ways = list(rows[0]["chances"])
    points = [(r["seed"], {w: r["chances"][w][p] for w in ways}, r["knows"][p])
              for r in rows for p in r["knows"]]
    told = [t for t in points if t[2] or any(c > 0 for c in t[1].values())]
    print(f"{len(rows)} moments of {len({r['seed'] for r in rows})} games, {len(told)} "
          f"informative points (some way said > 0 or they knew)")
    print(f"{'':12} {'knew':>5} {'said':>6}  {'mean where knew':>15}  {'where not':>9}  "
          f"{'Brier':>6}  {'knew - said per game, 95 %':28}  CPU per race: median, p95")
    for way in ways:
        yes = [c[way] for _, c, k in told if k]
        no = [c[way] for _, c, k in told if not k]
        per: dict[int, float] = {}
        for seed, c, k in told:
            per[seed] = per.get(seed, 0.0) + k - c[way]
        brier = sum((c[way] - k) ** 2 for _, c, k in told) / len(told)
        cpu = sorted(r["cpu"][way] for r in rows)
        print(f"{way:12} {len(yes):5} {sum(yes) + sum(no):6.1f}  "
              f"{sum(yes) / max(1, len(yes)):15.3f}  {sum(no) / max(1, len(no)):9.3f}  "
              f"{brier:6.4f}  {bs.paired(list(per.values())):28}  "
              f"{cpu[len(cpu) // 2] * 1000:.0f} ms, "
              f"{cpu[round(0.95 * (len(cpu) - 1))] * 1000:.0f} ms")
    for way in ways[1:]:
        diff: dict[int, float] = {}
        for seed, c, k in told:
            diff[seed] = diff.get(seed, 0.0) + (c[way] - k) ** 2 - (c[ways[0]] - k) ** 2
        print(f"  {way} - {ways[0]}: Brier summed per game {bs.paired(list(diff.values()))} "
              f"({len(diff)} games)")


def main() -> None:
    parser = replay_parser(__doc__.splitlines()[0])
    parser.add_argument("--ways", nargs="+", default=list(WAYS))
    args = parser.parse_args()
    replay_runs(args, lambda seed, wanted: replay(seed, wanted, lambda m: measure(m, args.ways)),
                report)


if __name__ == "__main__":
    main()
