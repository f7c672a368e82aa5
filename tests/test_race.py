"""The race against brute force: for every deal my log allows, every card a refuter could have
shown an opponent and every order of the side cards, enumerate what that opponent could
conclude."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from itertools import permutations, product

import pytest
from hypothesis import HealthCheck, given, settings

from solver.cards import CATEGORIES, Deck
from solver.cli import main
from solver.editions import Dealing
from solver.game import ENVELOPE, SIDE, Accusation, Event, GameLog, Suggestion
from solver.logfile import load
from solver.race import accuse_or_wait, open_after_showing, public_events, race
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


def honest_deals(log: GameLog) -> list[Deal]:
    """The deals in which every other player holds none of the cards they named, except a
    player who holds one of them in every deal (a bluffer); every deal if none is left."""
    allowed = list(deals(log))
    named: dict[str, set[str]] = {}
    for e in log.events:
        if isinstance(e, Suggestion) and e.by != log.game.me:
            named.setdefault(e.by, set()).update(e.cards)
    kept = allowed
    for player, cards in named.items():
        if any(all(d.get(c) == player for d in allowed) for c in cards):
            continue
        kept = [d for d in kept if not any(d.get(c) == player for c in cards)]
    return kept or allowed


def brute_race(log: GameLog, honest: bool = True) -> dict[str, float]:
    """Each other player's chance to know the envelope, averaged over every consistent deal
    (equally likely; with ``honest`` only the deals of `honest_deals`) and, within a deal, over
    every hidden choice (equally likely)."""
    allowed = honest_deals(log) if honest else list(deals(log))
    cache: dict[GameLog, bool] = {}
    out = {}
    for player in (n for n in log.game.player_names if n != log.game.me):
        total = 0.0
        for deal in allowed:
            known = [_knows(view, cache) for view in _views(log, player, deal)]
            total += sum(known) / len(known)
        out[player] = total / len(allowed)
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


@pytest.mark.parametrize("seed", range(0, 40, 3))
def test_race_without_honest_play_matches_brute_force(seed: int) -> None:
    """Every consistent deal equally likely, whoever named what."""
    log = _played(seed, ("Ann", "Bob", "Cy"), SMALL)
    expected = brute_race(log, honest=False)
    got = race(log, samples=SAMPLES, seed=1, honest=False)
    for player, chance in expected.items():
        assert got.players[player] == pytest.approx(chance, abs=0.04), player


def test_honest_play_changes_the_race_where_players_named_cards() -> None:
    """The tests above would pass with or without the assumption if it never mattered."""
    differ = 0
    for seed in range(40):
        log = _played(seed, ("Ann", "Bob", "Cy"), SMALL)
        honest, plain = brute_race(log), brute_race(log, honest=False)
        differ += any(abs(honest[p] - plain[p]) > 0.1 for p in honest)
    assert differ >= 3


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
    """`open_after_showing` by enumeration: over every deal my log allows and every view the
    asker may have of it, the envelopes they still have open (product of the open cards per
    category) once each card is closed to them."""
    allowed = list(deals(log))
    category = log.game.category_of
    totals = dict.fromkeys(cards, 0.0)
    for deal in allowed:
        views = list(_views(log, asker, deal))
        for view in views:
            open_ = {c for d in deals(view) for c, o in d.items() if o == ENVELOPE}
            per = {cat: sum(category(c) is cat for c in open_) for cat in CATEGORIES}
            envelopes = per[CATEGORIES[0]] * per[CATEGORIES[1]] * per[CATEGORIES[2]]
            for card in cards:
                closed = envelopes / per[category(card)] if card in open_ else 0.0
                totals[card] += (envelopes - closed) / len(views)
    return {card: total / len(allowed) for card, total in totals.items()}


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
