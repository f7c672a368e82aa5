"""The race against brute force: for every deal my log allows, every card a refuter could have
shown an opponent and every order of the side cards, enumerate what that opponent could
conclude."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from fractions import Fraction
from itertools import permutations, product
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from solver.cards import CATEGORIES, Deck
from solver.cli import main
from solver.editions import Dealing
from solver.errors import InvalidLogError
from solver.game import ENVELOPE, SIDE, Accusation, Event, GameLog, Suggestion
from solver.logfile import load
from solver.race import BLUFF, Play, accuse_or_wait, open_after_showing, public_events, race
from solver.simulate import play, random_setup
from solver.values import replace
from tests.brute import Deal, deals
from tests.strategies import small_logs

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
SAMPLES = 3000


def _views(log: GameLog, player: str, deal: Deal) -> Iterator[GameLog]:
    """Every view ``player`` may have of ``deal``, equally likely: each unseen refutation of
    their suggestions shows any matching card, the side cards lie in any order my peeks allow."""
    public = public_events(log)
    mine: dict[int, str] = {}
    for e in log.events:
        if isinstance(e, Suggestion) and e.side_peek is not None and e.side_peek.card:
            mine[e.side_peek.slot] = e.side_peek.card
    side = [c for c, o in deal.items() if o == SIDE]
    orders = [p for p in permutations(side) if all(p[s - 1] == c for s, c in mine.items())]
    choices: list[list[str | None]] = []
    for e in log.events:
        if isinstance(e, Suggestion) and e.by == player and e.refuted_by is not None:
            held = [c for c in e.cards if deal.get(c) == e.refuted_by]
            choices.append([e.shown] if e.shown is not None else list(held))
    hand = tuple(c for c in log.game.deck if deal.get(c) == player)
    game = replace(log.game, me=player, my_cards=hand)
    for picks in product(*choices):
        for order in orders or [()]:
            cards = iter(picks)
            events: list[Event] = []
            for original, seen in zip(log.events, _public_positions(log, public), strict=True):
                if seen is None:
                    continue
                if (
                    isinstance(original, Suggestion)
                    and isinstance(seen, Suggestion)
                    and original.by == player
                ):
                    if original.refuted_by is not None:
                        rule = original.shown_by_rule if original.shown is not None else None
                        seen = replace(seen, shown=next(cards), shown_by_rule=rule)
                    if seen.side_peek is not None:
                        slot = seen.side_peek.slot
                        seen = replace(seen, side_peek=replace(seen.side_peek,
                                                               card=order[slot - 1]))
                events.append(seen)
            yield GameLog(game, tuple(events))


def _public_positions(log: GameLog, public: tuple[Event, ...]) -> list[Event | None]:
    """Each event of the log matched with its public form (``None``: private to me)."""
    out: list[Event | None] = []
    rest = iter(public)
    for e in log.events:
        if isinstance(e, Suggestion | Accusation) or getattr(e, "whole_hand", False):
            out.append(next(rest))
        else:
            out.append(None)
    return out


def _knows(view: GameLog, cache: dict[GameLog, bool]) -> bool:
    if view not in cache:
        envelopes = {tuple(c for c, o in d.items() if o == ENVELOPE) for d in deals(view)}
        cache[view] = len(envelopes) == 1
    return cache[view]


def bluff_weight(log: GameLog, deal: Deal, bluff: Fraction) -> Fraction:
    """How much ``deal`` weighs as players play: ``bluff`` for every card another player named
    while holding it (each card once per player), straight from the definition."""
    named: dict[str, set[str]] = {}
    for e in log.events:
        if isinstance(e, Suggestion) and e.by != log.game.me:
            named.setdefault(e.by, set()).update(e.cards)
    held = sum(deal.get(c) == player for player, cards in named.items() for c in cards)
    return bluff ** held


def weighed_deals(log: GameLog, bluff: Fraction = BLUFF) -> list[tuple[Deal, Fraction]]:
    """Every deal my log allows, with its weight as players play."""
    return [(d, bluff_weight(log, d, bluff)) for d in deals(log)]


def brute_race(log: GameLog, bluff: Fraction = BLUFF) -> dict[str, float]:
    """Each other player's chance to know the envelope over every consistent deal (weighed by
    `bluff_weight`) and, within a deal, over every hidden choice (equally likely)."""
    allowed = weighed_deals(log, bluff)
    total = sum(w for _, w in allowed)
    cache: dict[GameLog, bool] = {}
    out = {}
    for player in (n for n in log.game.player_names if n != log.game.me):
        chance = Fraction(0)
        for deal, weight in allowed:
            known = [_knows(view, cache) for view in _views(log, player, deal)]
            chance += weight * Fraction(sum(known), len(known))
        out[player] = float(chance / total)
    return out


def brute_envelopes(log: GameLog, bluff: Fraction) -> dict[tuple[str, ...], Fraction]:
    """Each envelope's chance over every consistent deal weighed by `bluff_weight`."""
    allowed = weighed_deals(log, bluff)
    total = sum(w for _, w in allowed)
    out: dict[tuple[str, ...], Fraction] = {}
    for deal, weight in allowed:
        triple = tuple(c for c in log.game.deck if deal.get(c) == ENVELOPE)
        out[triple] = out.get(triple, Fraction(0)) + weight / total
    return out


@SETTINGS
@given(small_logs(max_events=5))
def test_race_matches_brute_force(log: GameLog) -> None:
    expected = brute_race(log)
    got = race(log, samples=SAMPLES, seed=1)
    assert set(got.players) == set(expected)
    for player, chance in expected.items():
        assert got.players[player] == pytest.approx(chance, abs=0.05), player


def test_the_race_reads_a_spectators_log_for_every_player() -> None:
    log = load("examples/refresh-two-players.json")
    spectator = replace(log, game=replace(log.game, me=None, my_cards=()))
    assert set(race(spectator.upto(10), samples=50).players) == set(log.game.player_names)


def test_race_command_prints_one_chance_per_opponent(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["race", "examples/refresh-two-players.json", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["players"]) == {"Niko"}
    assert 0.0 <= data["players"]["Niko"] <= 1.0
    assert main(["race", "examples/refresh-two-players.json", "--upto", "15"]) == 0
    assert "Niko" in capsys.readouterr().out


def test_race_command_names_a_bad_sample_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["race", "examples/refresh-two-players.json", "--samples", "0"]) == 2
    assert "--samples" in capsys.readouterr().err


def test_accuse_or_wait_accuses_a_certain_envelope() -> None:
    log = load("examples/classic-six-players.json")
    verdict = accuse_or_wait(log)
    assert verdict.accuse and verdict.right == 1.0
    early = accuse_or_wait(log.upto(10), samples=100)
    assert not early.accuse and early.right < 0.5
    assert early.reason().startswith("wait: right")


SMALL = Deck(("S1", "S2", "S3"), ("W1", "W2", "W3"), ("R1", "R2", "R3"))


def _played(seed: int, names: tuple[str, ...], deck: Deck) -> GameLog:
    """A few turns of a small classic game (a spectator's log when ``seed`` is a multiple of 5)."""
    rng = random.Random(seed)
    me = None if seed % 5 == 0 else names[0]
    game, truth = random_setup(deck, names, Dealing.CLASSIC, me, rng)
    return play(game, truth, rng.randint(2, 6), rng)


@pytest.mark.parametrize("seed", range(40))
def test_race_matches_brute_force_in_played_games(seed: int) -> None:
    """Played suggestions leave opponents half-sure more often than generated events do."""
    log = _played(seed, ("Ann", "Bob", "Cy"), SMALL)
    expected = brute_race(log)
    got = race(log, samples=SAMPLES, seed=1)
    for player, chance in expected.items():
        assert got.players[player] == pytest.approx(chance, abs=0.04), player


@pytest.mark.parametrize("bluff", [Fraction(1), Fraction(1, 20)])
@pytest.mark.parametrize("seed", range(0, 40, 3))
def test_race_with_another_bluff_factor_matches_brute_force(seed: int, bluff: Fraction) -> None:
    """1: every consistent deal equally likely, whoever named what; 1/20: nearly honest play."""
    log = _played(seed, ("Ann", "Bob", "Cy"), SMALL)
    expected = brute_race(log, bluff)
    got = race(log, samples=SAMPLES, seed=1, bluff=bluff)
    for player, chance in expected.items():
        assert got.players[player] == pytest.approx(chance, abs=0.04), player


def test_the_bluff_factor_changes_the_race_where_players_named_cards() -> None:
    """The tests above would pass with any factor if it never mattered."""
    differ = 0
    for seed in range(40):
        log = _played(seed, ("Ann", "Bob", "Cy"), SMALL)
        weighed, plain = brute_race(log), brute_race(log, Fraction(1))
        differ += any(abs(weighed[p] - plain[p]) > 0.1 for p in weighed)
    assert differ >= 3


@pytest.mark.parametrize("bluff", [BLUFF, Fraction(1), Fraction(1, 20)])
@pytest.mark.parametrize("seed", [s for s in range(24) if s % 5])
def test_the_odds_as_players_play_are_exactly_the_weighed_deals(seed: int, bluff: Fraction) -> None:
    """The right-chance that accuse-or-wait reads is the same weighting as the race's, exactly."""
    log = _played(seed, ("Ann", "Bob", "Cy"), SMALL)
    expected = brute_envelopes(log, bluff)
    got = Play(log, bluff).odds()
    assert got.exact
    assert {(s, w, r): p for s, w, r, p in got.envelope_odds} == expected
    verdict = accuse_or_wait(log, samples=50, bluff=bluff)
    if verdict.race is not None:
        assert verdict.right == pytest.approx(float(max(expected.values())))


def test_a_bluff_factor_out_of_range_is_refused_with_the_field_named() -> None:
    log = _played(1, ("Ann", "Bob", "Cy"), SMALL)
    for bad in (0, -0.5, 1.5):
        with pytest.raises(InvalidLogError, match="bluff"):
            race(log, samples=10, bluff=bad)


FIXTURE = Path(__file__).parent / "fixtures" / "race-unrefuted-four-players.json"


def test_bug_unrefuted_suggestion_is_not_proof() -> None:
    """Four players, three events: Cid named Plum, Wrench, Hall and nobody could refute. Under the
    old hard rule (nobody names their own cards) the race said "Cid may already know: 100%",
    "someone else solves first: 100%", and the verdict said accuse at 12% (the grid's odds):
    two weightings mixed. Cid knows only if all three are in the envelope, so his chance and
    the chance that this envelope is right must be one figure, from one weighting."""
    log = load(FIXTURE)
    verdict = accuse_or_wait(log)
    assert verdict.race is not None
    cid = verdict.race.players["Cid"]
    assert verdict.triple == ("Professor Plum", "Wrench", "Hall")
    assert 0.2 < cid < 0.8 and cid == pytest.approx(verdict.right, abs=0.06)
    assert verdict.race.players["Bob"] == 0.0 and verdict.race.players["Dee"] == 0.0
    assert not verdict.accuse and verdict.reason().startswith("wait: right ")
    assert "if players seldom bluff" in verdict.reason()
    # at eps = 1 (every deal alike) the same figure is the grid's own 11.8%
    plain = accuse_or_wait(log, bluff=1)
    assert plain.right == pytest.approx(0.118, abs=0.001)
    assert plain.race is not None and plain.race.players["Cid"] == pytest.approx(0.118, abs=0.05)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20))
def test_race_matches_brute_force_at_four_players(seed: int) -> None:
    deck = Deck(("S1", "S2", "S3"), ("W1", "W2", "W3"), ("R1", "R2", "R3", "R4"))
    log = _played(seed, ("Ann", "Bob", "Cy", "Dee"), deck)
    expected = brute_race(log)
    got = race(log, samples=SAMPLES, seed=1)
    for player, chance in expected.items():
        assert got.players[player] == pytest.approx(chance, abs=0.04), player


def brute_open_after(log: GameLog, asker: str, cards: tuple[str, ...]) -> dict[str, float]:
    """`open_after_showing` by enumeration: over every deal my log allows (weighed as players
    play) and every view the asker may have of it, the envelopes they still have open (product
    of the open cards per category) once each card is closed to them."""
    allowed = weighed_deals(log)
    weight = float(sum(w for _, w in allowed))
    category = log.game.category_of
    totals = dict.fromkeys(cards, 0.0)
    for deal, w in allowed:
        views = list(_views(log, asker, deal))
        for view in views:
            open_ = {c for d in deals(view) for c, o in d.items() if o == ENVELOPE}
            per = {cat: sum(category(c) is cat for c in open_) for cat in CATEGORIES}
            envelopes = per[CATEGORIES[0]] * per[CATEGORIES[1]] * per[CATEGORIES[2]]
            for card in cards:
                closed = envelopes / per[category(card)] if card in open_ else 0.0
                totals[card] += float(w) * (envelopes - closed) / len(views)
    return {card: total / weight for card, total in totals.items()}


@pytest.mark.parametrize("seed", [s for s in range(14) if s % 5])
def test_what_the_asker_keeps_open_matches_brute_force(seed: int) -> None:
    log = _played(seed, ("Ann", "Bob", "Cy"), SMALL)
    mine = log.game.my_cards
    cards = tuple({log.game.category_of(c): c for c in mine}.values())[:2]
    if len(cards) < 2:
        pytest.skip("my hand is one category")
    expected = brute_open_after(log, "Bob", cards)
    got = open_after_showing(log, "Bob", cards, samples=SAMPLES, seed=1)
    for card in cards:
        assert got[card] == pytest.approx(expected[card], rel=0.05, abs=0.05), card


def test_race_and_accuse_commands_take_a_bluff_factor(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["race", str(FIXTURE), "--json", "--bluff", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["players"]["Cid"] == pytest.approx(0.118, abs=0.05)
    assert main(["accuse", str(FIXTURE), "Professor Plum", "Wrench", "Hall", "--json",
                 "--bluff", "1/4"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["probability"] == pytest.approx(0.118, abs=0.001)  # the plain count
    assert data["advice"]["right"] == pytest.approx(0.39, abs=0.01)  # weighed as players play
    assert not data["advice"]["accuse"] and "if players seldom bluff" in data["advice"]["reason"]
    for bad in ("0", "2", "x"):
        assert main(["race", str(FIXTURE), "--bluff", bad]) == 2
        err = capsys.readouterr().err
        assert "--bluff" in err and repr(bad) in err and "Traceback" not in err
