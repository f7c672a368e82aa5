"""Strategy benchmark: whole games played to the end against a table that keeps notes.

Classic box, no board (any room may be named). Each game is dealt from its seed; I sit at seat
``seed % players``; the opponents keep a perfect notebook (this engine) or a paper one
(`solver.simulate.Opponent`), ask about their likeliest cards, show a random match, and accuse
as soon as they are certain. Every strategy plays the same seeds, and the simulator gives each
player and purpose its own random stream, so the comparisons are paired game by game.

My strategies (the suggestion I make; I accuse as soon as my notebook is certain):

- ``likeliest``: the likeliest envelope card of each category (the baseline);
- ``advise``: `solver.advice.advise`'s `Rule.LIKELIEST` without the table weight (the likeliest
  cards with the deals weighed as players play, my own card in a settled category, ties to the
  most telling);
- ``likeliest-honest``: the likeliest cards with the deals weighed as players play (ties at
  random); ``steer``: the same with my own card in a settled category; ``quiet-advise``: what
  `advise` suggests by default (of ``advise``'s 20 best, the highest likeliness minus what the
  table hears, in bits);
- ``advisor``: the most expected information about the envelope (`Rule.INFORMATION`);
- ``quiet``, ``closer``, ``resolver``, ``hands``: the same, minus half of what the whole table
  hears (who refutes), plus the chance of settling the envelope, of settling a category, plus
  half of what the answer tells about the hands (`solver.advice.gains`).

In every game the accuse-or-wait rule (`solver.race.accuse_or_wait`) watches my turns without
changing the play: the first time it says "accuse", it would have named its envelope there. Its
win is scored against "accuse only when certain" in the same game, and so are other ways of
valuing the wait on the figures recorded at each moment (`WAITING_SHARES`, `WORTHS`). The watch
stops at the first other player's correct accusation: the simulator plays on (to measure my
turns to certainty) without it in my log, and those moments cannot happen at a real table. At
the same moments the race is scored against what each opponent's notebook really knew
(calibration). Both are scored for every bluff factor asked for (``--bluffs``: how much a deal
weighs for each card a player named while holding it, `solver.race.Play`), on the same games. In
the ``likeliest`` games, every time I refuted holding several of the named cards, the cards I
could show are scored by how many envelopes the asker (who knows their own hand and what they
were shown) still has open after seeing each: today's rule (`solver.advice.what_to_show`)
against a random pick.

Results go to a JSON-lines file, one game per line, so a long run can be read at any point:

    python benchmarks/bench_strategy.py --games 300 --players 3 4 6 --out strategy.jsonl
    python benchmarks/bench_strategy.py --report strategy.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from fractions import Fraction
from itertools import pairwise
from pathlib import Path
from typing import Any

from solver.advice import (
    Rule,
    advise,
    asker_view,
    honest_notes,
    public_entropy_after,
    what_to_show,
)
from solver.editions import editions
from solver.envelopes import possible_triples
from solver.errors import ContradictionError
from solver.game import ENVELOPE, GameLog, Triple
from solver.odds import Count, OverBudget, count, exact_odds, grid_of, odds, puzzle
from solver.race import BLUFF, Play, accuse_or_wait, race
from solver.simulate import Chooser, Moment, Opponent, Outcome, play_to_win
from solver.values import replace

DECK = editions()["clue-classic"].deck
SAMPLES = 1000
"""Deals the advisors draw per turn."""
RACE_SAMPLES = 150
"""Deals the race draws per turn (the accuse-or-wait rule and the calibration)."""
BLUFFS: list[Fraction] = [BLUFF]
"""The bluff factors the race and accuse-or-wait are scored with (`solver.race.Play`)."""
WATCHED = {"advisor"}
"""Strategies whose games the accuse-or-wait rule and the race calibration watch (the race is
the costliest part of a game, and the rule does not depend on how I suggest)."""

times: list[float] = []
_count: dict[str, Any] = {}
"""The exact count of the log of my current turn, shared by the watch and my strategy (the
strategy's time is charged the count's CPU time even when the watch computed it first)."""


def counted(log: GameLog) -> Count | None:
    """The exact count of ``log`` (``None`` past the budget), computed once per log."""
    if _count.get("log") is not log:
        start = time.process_time()
        try:
            found: Count | None = count(puzzle(log, grid_of(log)))
        except OverBudget:
            found = None
        _count.update(log=log, count=found, cpu=time.process_time() - start, charged=False)
    return _count["count"]  # type: ignore[no-any-return]


_honest: dict[str, Any] = {}


def honest_counted(log: GameLog) -> tuple[GameLog, Count | None]:
    """``log`` read as players play (`solver.advice.honest_notes`: every other player names
    only cards they do not hold) and its exact count; the plain log when that contradicts it."""
    if _honest.get("log") is not log:
        honest = honest_notes(log)
        try:
            found = count(puzzle(honest, grid_of(honest))) if honest is not log else counted(log)
        except ContradictionError:
            honest, found = log, counted(log)
        except OverBudget:
            found = None
        _honest.update(log=log, honest=honest, count=found)
    return _honest["honest"], _honest["count"]


def _timed(choose: Chooser) -> Chooser:
    def timed(log: GameLog, rng: random.Random) -> Triple:
        start = time.process_time()  # CPU: wall-clock on the shared machine measures neighbours
        fresh = _count.get("log") is not log
        triple = choose(log, rng)
        spent = time.process_time() - start
        if not fresh and _count.get("log") is log and not _count["charged"]:
            spent += _count["cpu"]  # the watch counted this log first: the strategy pays it
        _count["charged"] = True
        times.append(spent)
        return triple

    return timed


def likeliest(log: GameLog, rng: random.Random) -> Triple:
    return _likeliest(log, counted(log), rng)


def likeliest_honest(log: GameLog, rng: random.Random) -> Triple:
    """The likeliest cards with the deals weighed as players play (`honest_counted`)."""
    return _likeliest(*honest_counted(log), rng)


def steer(log: GameLog, rng: random.Random) -> Triple:
    """`likeliest_honest`, but in a category my notebook has settled, one of my own cards
    rather than the envelope's: the answer tells me the same, the table hears of my card."""
    picks = list(likeliest_honest(log, rng))
    known = grid_of(log).envelope()
    for i, category in enumerate(known):
        mine = [c for c in log.game.my_cards if log.game.category_of(c) is category]
        if known[category] is not None and mine:
            picks[i] = rng.choice(mine)
    return picks[0], picks[1], picks[2]


def _likeliest(log: GameLog, found: Count | None, rng: random.Random) -> Triple:
    chances = (odds(log) if found is None else exact_odds(log, found, False)).probabilities
    picks = [
        max(cards, key=lambda c: (float(chances[c][ENVELOPE]), rng.random()))
        for cards in (DECK.suspects, DECK.weapons, DECK.rooms)
    ]
    return picks[0], picks[1], picks[2]


def advised(log: GameLog, rng: random.Random) -> Triple:
    """`advise`'s `Rule.LIKELIEST` without its table weight (the default before it: the plain
    count only when nobody else has suggested yet, so the advisor counts it itself)."""
    return advise(log, samples=SAMPLES, seed=rng.randrange(2**31), table_weight=0)[0].triple


def quiet_advise(log: GameLog, rng: random.Random) -> Triple:
    """What `advise` suggests by default: of `advised`'s 20 best, the one whose likeliness
    minus what the table hears (who refutes, in bits) is highest."""
    return advise(log, samples=SAMPLES, seed=rng.randrange(2**31))[0].triple


def advisor(log: GameLog, rng: random.Random) -> Triple:
    return advise(log, rule=Rule.INFORMATION, samples=SAMPLES, seed=rng.randrange(2**31),
                  counted=counted(log))[0].triple


def quiet(log: GameLog, rng: random.Random) -> Triple:
    return advise(log, rule=Rule.INFORMATION, samples=SAMPLES, seed=rng.randrange(2**31),
                  table_weight=0.5,
                  counted=counted(log))[0].triple


def closer(log: GameLog, rng: random.Random) -> Triple:
    return advise(log, rule=Rule.INFORMATION, samples=SAMPLES, seed=rng.randrange(2**31),
                  finish=1.0,
                  counted=counted(log))[0].triple


def resolver(log: GameLog, rng: random.Random) -> Triple:
    return advise(log, rule=Rule.INFORMATION, samples=SAMPLES, seed=rng.randrange(2**31),
                  resolve=1.0,
                  counted=counted(log))[0].triple


def hands(log: GameLog, rng: random.Random) -> Triple:
    return advise(log, rule=Rule.INFORMATION, samples=SAMPLES, seed=rng.randrange(2**31),
                  hands=0.5,
                  counted=counted(log))[0].triple


STRATEGIES: dict[str, Chooser] = {
    "likeliest": likeliest, "advise": advised, "advisor": advisor, "quiet": quiet, "closer": closer,
    "resolver": resolver, "hands": hands, "likeliest-honest": likeliest_honest,
    "steer": steer, "quiet-advise": quiet_advise,
}


def one_game(players: int, name: str, seed: int, kind: Opponent, *,
             show_choices: bool = True, watched: bool | None = None) -> dict[str, Any]:
    """Play one game; return what the report needs."""
    names = tuple(f"P{i}" for i in range(1, players + 1))
    me = names[seed % players]
    verdict: dict[str, dict[str, Any]] = {str(b): {} for b in BLUFFS}
    """Per bluff factor: the first turn the rule said "accuse"."""
    calibration: dict[str, list[tuple[float, bool]]] = {str(b): [] for b in BLUFFS}
    moments: dict[str, list[dict[str, Any]]] = {str(b): [] for b in BLUFFS}
    """Per bluff factor: every moment watched, with the rule's figures (to score other rules
    on the same games afterwards, `--thresholds`)."""

    def watch(moment: Moment) -> None:
        if moment.certain or moment.solved:
            return  # I accuse and win; or another player has won: the game is over
        for bluff in BLUFFS:
            start = time.process_time()
            weighed = Play(moment.log, bluff)
            current = race(moment.log, samples=RACE_SAMPLES, seed=moment.turn, play=weighed)
            decision = accuse_or_wait(moment.log, race_of=current, found=weighed.odds(),
                                      play=weighed, seed=moment.turn)
            cpu = time.process_time() - start
            assert decision.race is not None and decision.outlook is not None
            key = str(bluff)
            for player, knows in moment.knows.items():
                calibration[key].append((decision.race.players[player], knows))
            ahead = decision.outlook
            moments[key].append({"turn": moment.turn, "answered": moment.answered,
                                 "right": decision.right, "threat": decision.threat,
                                 "clear": ahead.clear, "worth": ahead.worth,
                                 "first": ahead.first,
                                 "later": ahead.later, "accuse": decision.accuse, "cpu": cpu,
                                 "players": dict(decision.race.players),
                                 "correct": decision.triple == moment.envelope})
            if decision.accuse and not verdict[key]:
                verdict[key].update(turn=moment.turn, answered=moment.answered,
                                    correct=decision.triple == moment.envelope,
                                    right=decision.right, threat=decision.threat)

    times.clear()
    watched = name in WATCHED if watched is None else watched
    outcome = play_to_win(DECK, names, me, seed, _timed(STRATEGIES[name]), opponents=kind,
                          watch=watch if watched else None)
    others = [t for p, t in outcome.solved_at.items() if p != me]
    first_other = min(others, default=math.inf)
    rule_win = {
        key: (said["correct"] and said["turn"] < first_other) if said else outcome.winner == me
        for key, said in verdict.items()
    }
    record = {
        "players": players, "strategy": name, "seed": seed, "opponents": kind.value,
        "win": outcome.winner == me, "turns": outcome.my_suggestions,
        "watched": watched, "rule_win": rule_win,
        "rule": {key: said or None for key, said in verdict.items()},
        "first_other": None if math.isinf(first_other) else first_other,
        "calibration": calibration,
        "moments": moments,
        "times": list(times),
    }
    if name == "likeliest" and show_choices:
        record["show"] = list(_show_choices(outcome))
    return record


def _show_choices(outcome: Outcome) -> Iterable[dict[str, Any]]:
    """Each refutation of mine with a choice: the asker's open envelopes after each card."""
    log = outcome.log
    me = log.game.me
    assert me is not None
    for i, event in enumerate(outcome.table):
        held = [c for c in event.cards if c in log.game.my_cards]
        if event.refuted_by != me or len(held) < 2:
            continue
        asker = event.by
        heard = tuple(e if asker in (e.by, e.refuted_by) else replace(e, shown=None)
                      for e in outcome.table[:i])
        game = replace(log.game, me=asker, my_cards=outcome.truth.hand(asker))
        left = {}
        for card in held:
            shown = GameLog(game, (*heard, replace(event, shown=card)))
            left[card] = len(possible_triples(shown))
        before = log.upto(i)
        new = what_to_show(before, asker, event.cards, seed=i).card
        yield {"left": left, "rule": _old_rule(before, asker, held), "new": new}


def _old_rule(log: GameLog, asker: str, held: list[str]) -> str:
    """The show rule before the asker's hand was weighed: a card they have seen from me, else
    the one leaving the public view of the envelope least sharp."""
    seen = [c for c in log.shown_to(asker) if c in held]
    if seen:
        return seen[-1]
    after = public_entropy_after(log, asker, held)
    before = odds(asker_view(log, asker)).probabilities
    me = log.game.me
    return max(held, key=lambda c: (round(after[c], 9), float(before[c][me])))


# --- the report ------------------------------------------------------------------------------


def paired(diffs: list[float]) -> str:
    """Mean difference with its 95% interval (normal approximation)."""
    if len(diffs) < 2:
        return "n/a"
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"


def report(records: list[dict[str, Any]]) -> None:
    by: dict[tuple[str, int, str], dict[int, dict[str, Any]]] = defaultdict(dict)
    for r in records:
        by[r["opponents"], r["players"], r["strategy"]][r["seed"]] = r
    for kind, players in sorted({(k, p) for k, p, _ in by}):
        base = by.get((kind, players, "likeliest"), {})
        print(f"\n== {players} players, {kind} opponents ==")
        for name in STRATEGIES:
            games = by.get((kind, players, name))
            if not games:
                continue
            wins = [g["win"] for g in games.values()]
            turns = [g["turns"] for g in games.values() if g["turns"] is not None]
            line = (f"{name:<10} games {len(games):4}  win {statistics.mean(wins):.3f}  "
                    f"turns to certainty mean {statistics.mean(turns):.2f}")
            ts = sorted(t for g in games.values() for t in g["times"])
            if ts:
                p95 = ts[int(0.95 * (len(ts) - 1))]
                line += (f"  per turn median {statistics.median(ts) * 1000:.0f} ms"
                         f" p95 {p95 * 1000:.0f} ms")
            print(line)
            seeds = sorted(set(games) & set(base))
            if name != "likeliest" and seeds:
                dw = [float(games[s]["win"]) - float(base[s]["win"]) for s in seeds]
                dt = [games[s]["turns"] - base[s]["turns"] for s in seeds
                      if games[s]["turns"] is not None and base[s]["turns"] is not None]
                print(f"{'':10} vs likeliest ({len(seeds)} paired): win {paired(dw)}  "
                      f"turns {paired([float(d) for d in dt])}")
            watched = [_by_bluff(g) for g in games.values() if g.get("watched", True)]
            for key in sorted({k for g in watched for k in g["rule_win"]}, key=_factor):
                kept = [g for g in watched if key in g["rule_win"]]
                rule = [float(g["rule_win"][key]) - float(g["win"]) for g in kept]
                fired = [g["rule"][key] for g in kept if g["rule"][key]]
                right = sum(f["correct"] for f in fired)
                early = statistics.mean(float(g["rule_win"][key]) for g in kept)
                print(f"{'':10} with accuse-or-wait (bluff {key}): win {early:.3f}; "
                      f"vs only-when-certain {paired(rule)}  "
                      f"(accused early in {len(fired)} of {len(kept)} games, right in {right})")
                recorded = [g for g in kept if key in g.get("moments", {})]
                for waiting in WAITING_SHARES if recorded else ():
                    other = [_waiting_win(g, key, waiting) - float(g["win"]) for g in recorded]
                    print(f"{'':10}   accusing when right >= {waiting} x (1 - threat): "
                          f"vs only-when-certain {paired(other)} ({len(recorded)} games)")
                worth = [g for g in recorded if all("first" in m for m in g["moments"][key])]
                for name, value in WORTHS.items() if worth else ():
                    new = [_worth_win(g, key, value) for g in worth]
                    old = [_waiting_win(g, key, 1.0) for g in worth]
                    base_wins = [float(g["win"]) for g in worth]
                    print(f"{'':10}   accusing when right > {name}: vs only-when-certain "
                          f"{paired([n - b for n, b in zip(new, base_wins, strict=True)])}"
                          f"  vs right >= 1 - threat "
                          f"{paired([n - o for n, o in zip(new, old, strict=True)])} "
                          f"({len(worth)} games)")
                cpu = sorted(m["cpu"] for g in recorded for m in g["moments"][key] if "cpu" in m)
                if cpu:
                    print(f"{'':10}   accuse-or-wait per moment ({RACE_SAMPLES} deals, the count "
                          f"included): median {statistics.median(cpu) * 1000:.0f} ms, p95 "
                          f"{cpu[int(0.95 * (len(cpu) - 1))] * 1000:.0f} ms over {len(cpu)}")
                both = sorted(g["seed"] for g in kept if g["seed"] in base)
                if name != "likeliest" and both:
                    full = [float(games[s]["rule_win"][key]) - float(base[s]["win"])
                            for s in both]
                    print(f"{'':10} with accuse-or-wait (bluff {key}) vs likeliest "
                          f"only-when-certain: win {paired(full)}")
    calibration(records)
    outlook_calibration(records)
    show(records)


def outlook_calibration(records: list[dict[str, Any]]) -> None:
    """What the turns played out said (`solver.race.Outlook`) against what happened next: right
    after my answer, whether nobody else solved before my next answer and whether I then knew;
    at the start of my turn, whether my answer settled it (every bluff factor's moments)."""
    clear: list[tuple[float, bool]] = []
    first: list[tuple[float, bool]] = []
    settles: list[tuple[float, bool]] = []
    for r in map(_by_bluff, records):
        first_other = r.get("first_other")
        for moments in r.get("moments", {}).values():
            seen = {(m["turn"], m["answered"]) for m in moments}
            for m in moments:
                if "first" not in m:
                    continue
                if not m["answered"]:  # my answer comes next: did it settle it?
                    settles.append((m["first"], (m["turn"], True) not in seen))
                    continue
                nxt = m["turn"] + r["players"]
                nobody = first_other is None or first_other > nxt
                clear.append((m["clear"], nobody))
                first.append((m["first"], nobody and (nxt, True) not in seen))
    for title, points in (("nobody else solves before my next answer", clear),
                          ("nobody else does and then I know it", first),
                          ("at the start of my turn: my answer settles it", settles)):
        if points:
            said = statistics.mean(p for p, _ in points)
            saw = statistics.mean(float(k) for _, k in points)
            print(f"\n== turns played out: {title} ==\n  said {said:.3f}  happened {saw:.3f} "
                  f"over {len(points)} moments")
            for lo, hi in pairwise((0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 1.0001)):
                cell = [(p, k) for p, k in points if lo <= p < hi]
                if cell:
                    print(f"  said {lo:4.2f}-{min(hi, 1):4.2f}: n {len(cell):5}  mean said "
                          f"{statistics.mean(p for p, _ in cell):.3f}  happened "
                          f"{statistics.mean(float(k) for _, k in cell):.3f}")


WAITING_SHARES = (1.0, 0.8, 0.6, 0.5)
"""Other accuse-or-wait thresholds scored on the recorded moments: accuse when the chance of
being right is at least this share of the chance nobody else names the envelope first."""


def _waiting_win(record: dict[str, Any], key: str, waiting: float) -> float:
    """Whether I would have won with the threshold ``waiting`` (the first moment it accuses)."""
    first_other = record["first_other"] if record["first_other"] is not None else math.inf
    for moment in record["moments"][key]:
        if moment["right"] >= waiting * (1.0 - moment["threat"]):
            return float(moment["correct"] and moment["turn"] < first_other)
    return float(record["win"])


WORTHS: dict[str, Callable[[dict[str, Any]], float]] = {
    "nobody else first (the rule)": lambda m: m["clear"],
    "worth: nobody else first, then accuse": lambda m: m["worth"],
    "first to know only": lambda m: m["first"],
    "nobody else first x right now": lambda m: m["clear"] * m["right"],
}
"""Ways to value waiting scored on the recorded moments (`solver.race.Outlook`): the chance
nobody else solves before my next answer (the rule: what waiting wins at most), that and then
accusing the likeliest envelope left open (at least), only knowing first, and the chance
nobody else solves first times my right-chance now."""


def _worth_win(record: dict[str, Any], key: str, worth: Callable[[dict[str, Any]], float]) -> float:
    """Whether I would have won accusing when right > ``worth`` (the first moment it does)."""
    first_other = record["first_other"] if record["first_other"] is not None else math.inf
    for moment in record["moments"][key]:
        if moment["right"] > worth(moment):
            return float(moment["correct"] and moment["turn"] < first_other)
    return float(record["win"])


def _by_bluff(record: dict[str, Any]) -> dict[str, Any]:
    """A record with its rule and calibration per bluff factor (older files: one, "honest")."""
    if isinstance(record["rule_win"], bool):
        return {**record, "rule_win": {"honest": record["rule_win"]},
                "rule": {"honest": record["rule"]},
                "calibration": {"honest": record["calibration"]}}
    return record


def _factor(key: str) -> Fraction:
    return Fraction(0) if key == "honest" else Fraction(key)


def calibration(records: list[dict[str, Any]]) -> None:
    cells: dict[tuple[str, str], list[tuple[float, bool]]] = defaultdict(list)
    games: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in map(_by_bluff, records):
        for key, points in r["calibration"].items():
            cells[r["opponents"], key].extend((p, k) for p, k in points)
            games[r["opponents"], key].append(sum(k - p for p, k in points))
    for (kind, key), points in sorted(cells.items(), key=lambda kv: (kv[0][0], _factor(kv[0][1]))):
        if points:
            diagram(points, f"{kind} opponents, bluff {key}", games[kind, key])


EDGES = (0.0, 0.001, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.999, 1.0001)
"""The reliability diagram's bins: never, below 10%, tenths, always."""


def calibration_error(points: list[tuple[float, bool]]) -> float:
    """The mean calibration error of (said, knew) pairs: each bin's gap between the mean said
    and the share that knew, weighed by the bin's share of the pairs."""
    error = 0.0
    for lo, hi in pairwise(EDGES):
        cell = [(p, k) for p, k in points if lo <= p < hi]
        if cell:
            said = statistics.mean(p for p, _ in cell)
            knew = statistics.mean(float(k) for _, k in cell)
            error += len(cell) / len(points) * abs(said - knew)
    return error


def calibrated_error(said: list[float], draws: int = 2000) -> tuple[float, float]:
    """The mean calibration error a perfectly calibrated race would show at moments where it
    said ``said`` (each outcome drawn with the chance said; seeded): its median and 95th
    percentile over ``draws``. Few moments give a large error by chance alone, so the observed
    error over the informative moments is read against this, not against zero."""
    if not said:
        return 0.0, 0.0
    rng = random.Random(0)
    errors = sorted(calibration_error([(p, rng.random() < p) for p in said])
                    for _ in range(draws))
    return errors[draws // 2], errors[draws * 95 // 100]


def diagram(points: list[tuple[float, bool]], title: str, games: list[float] | None = None) -> None:
    """The reliability diagram and the mean calibration error of ``points`` (said, knew); with
    ``games`` (per game, how many more times they knew than the race said), that excess with a
    95% interval over games: the moments of one game move together (several opponents learn
    from the same answer), so an interval over points would be too narrow."""
    print(f"\n== race calibration ({title}, every turn of mine not yet certain) ==")
    print("  (reliability diagram: # = share of moments the opponent could name the envelope, "
          "| = what the race said; + where they meet)")
    error = calibration_error(points)
    informative = [(p, k) for p, k in points if p > 0 or k]
    for lo, hi in pairwise(EDGES):
        cell = [(p, k) for p, k in points if lo <= p < hi]
        if cell:
            said = statistics.mean(p for p, _ in cell)
            knew = statistics.mean(float(k) for _, k in cell)
            print(f"  said {lo:4.2f}-{min(hi, 1):4.2f}: n {len(cell):6}  mean said {said:.3f}  "
                  f"knew {knew:.3f}  |{_bar(said, knew)}|")
    print(f"  mean calibration error {error:.4f} over {len(points)} (player, moment) pairs; "
          f"{calibration_error(informative):.4f} over the {len(informative)} where the race "
          f"said > 0 or they knew")
    typical, high = calibrated_error([p for p, _ in points if p > 0])
    print(f"  a perfectly calibrated race at these moments (outcomes drawn with the chances it "
          f"said): {typical:.4f} median, {high:.4f} at the 95th percentile, over those where it "
          f"said > 0")
    if games:
        said_all, knew_all = sum(p for p, _ in points), sum(k for _, k in points)
        print(f"  they knew {knew_all} times where the race said {said_all:.1f} in all; knew - "
              f"said per game {paired(games)} over {len(games)} games")


def _bar(said: float, knew: float, width: int = 20) -> str:
    """The reliability diagram's row: ``#`` up to what they knew, ``|`` where the race said."""
    cells = ["#" if i < round(knew * width) else " " for i in range(width)]
    at = min(width - 1, int(said * width))
    cells[at] = "|" if cells[at] == " " else "+"
    return "".join(cells)


def show(records: list[dict[str, Any]]) -> None:
    choices = [c for r in records if r["strategy"] == "likeliest" for c in r.get("show", [])]
    if not choices:
        return
    rule = [float(c["left"][c["rule"]]) for c in choices]
    rand = [statistics.mean(c["left"].values()) for c in choices]
    best = [float(max(c["left"].values())) for c in choices]
    print("\n== what to show: envelopes the asker still has open after my card ==")
    print(f"  {len(choices)} choices: old rule {statistics.mean(rule):.2f}, random "
          f"{statistics.mean(rand):.2f}, best possible {statistics.mean(best):.2f}; "
          f"old rule - random {paired([a - b for a, b in zip(rule, rand, strict=True)])}")
    scored = [c for c in choices if "new" in c]
    if scored:
        new = [float(c["left"][c["new"]]) for c in scored]
        old = [float(c["left"][c["rule"]]) for c in scored]
        rand = [statistics.mean(c["left"].values()) for c in scored]
        differ = sum(c["new"] != c["rule"] for c in scored)
        print(f"  new rule (asker's hand weighed) {statistics.mean(new):.2f} over {len(scored)}; "
              f"new - old {paired([a - b for a, b in zip(new, old, strict=True)])} "
              f"(they differ in {differ}); new - random "
              f"{paired([a - b for a, b in zip(new, rand, strict=True)])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="first seed")
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 6])
    parser.add_argument("--strategies", nargs="+", default=list(STRATEGIES))
    parser.add_argument("--opponents", nargs="+", default=["perfect"],
                        choices=[o.value for o in Opponent])
    parser.add_argument("--watch", nargs="*", default=sorted(WATCHED),
                        help="strategies whose games the accuse-or-wait rule and the race watch")
    parser.add_argument("--watch-players", type=int, nargs="*",
                        help="watch only games at these table sizes (default: every size)")
    parser.add_argument("--bluffs", type=Fraction, nargs="+", default=[BLUFF],
                        help="bluff factors to score the race and accuse-or-wait with")
    parser.add_argument("--no-show-choices", action="store_true",
                        help="skip scoring the cards I could show (likeliest games)")
    parser.add_argument("--out", type=Path, help="append one JSON line per game here")
    parser.add_argument("--report", type=Path, nargs="+", help="only print the report of files")
    args = parser.parse_args()
    if args.report:
        records = [json.loads(line) for path in args.report
                   for line in path.read_text().splitlines() if line.strip()]
        report(records)
        return
    WATCHED.clear()
    WATCHED.update(args.watch)
    BLUFFS[:] = args.bluffs
    records = []
    for seed in range(args.first, args.first + args.games):
        for kind in args.opponents:
            for players in args.players:
                for name in args.strategies:
                    watched = name in WATCHED and (args.watch_players is None
                                                   or players in args.watch_players)
                    record = one_game(players, name, seed, Opponent(kind),
                                      show_choices=not args.no_show_choices, watched=watched)
                    records.append(record)
                    if args.out:
                        with args.out.open("a") as out:
                            out.write(json.dumps(record) + "\n")
        print(f"seed {seed} done", file=sys.stderr, flush=True)
    report(records)


if __name__ == "__main__":
    main()
