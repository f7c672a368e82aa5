"""Exact odds against brute-force counting, a case counted by hand, sampling and its errors."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings

from solver.cards import CATEGORIES
from solver.editions import Dealing, editions, new_game
from solver.errors import ContradictionError
from solver.game import (
    ENVELOPE,
    FIRST_IN_ORDER,
    Accusation,
    GameLog,
    Reveal,
    Suggestion,
)
from solver.odds import count, grid_of, odds, puzzle, sample_deals
from solver.simulate import play, random_setup
from tests.brute import Deal, deals
from tests.strategies import small_logs

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def choice_weight(log: GameLog, deal: Deal) -> Fraction:
    """The refuter model's weight of a deal: a refuter whose card the user saw picked it
    uniformly among the named cards they hold (not the user's own choices, not a fixed rule)."""
    weight = Fraction(1)
    for event in log.events:
        if (
            isinstance(event, Suggestion)
            and event.refuted_by is not None
            and event.shown is not None
            and event.shown_by_rule != FIRST_IN_ORDER
            and event.refuted_by != log.game.me
        ):
            weight /= sum(deal.get(c) == event.refuted_by for c in event.cards)
    return weight


def brute_odds(
    log: GameLog, refuter_model: bool = False
) -> tuple[dict[str, dict[str, Fraction]], dict[tuple[str, ...], Fraction]]:
    """Card-owner and envelope probabilities by enumerating every consistent deal."""
    found = list(deals(log))
    weights = [choice_weight(log, d) if refuter_model else Fraction(1) for d in found]
    total = sum(weights)
    cells: dict[str, dict[str, Fraction]] = {
        c: dict.fromkeys(log.game.owners, Fraction(0)) for c in log.game.deck
    }
    envelope: dict[tuple[str, ...], Fraction] = defaultdict(Fraction)
    for deal, weight in zip(found, weights, strict=True):
        for card, owner in deal.items():
            cells[card][owner] += weight / total
        envelope[tuple(c for c in log.game.deck if deal.get(c) == ENVELOPE)] += weight / total
    return cells, dict(envelope)


def assert_matches_brute(log: GameLog, refuter_model: bool) -> None:
    if not any(True for _ in deals(log)):
        with pytest.raises(ContradictionError):
            odds(log, refuter_model=refuter_model)
        return
    result = odds(log, refuter_model=refuter_model)
    cells, envelope = brute_odds(log, refuter_model)
    assert result.exact
    assert result.probabilities == cells
    assert {t[:3]: t[3] for t in result.envelope_odds} == envelope
    chances = [t[3] for t in result.envelope_odds]
    assert all(isinstance(p, Fraction) for p in chances)
    # most likely first, ties in the order of the triples (sorted here by the Fractions)
    assert list(result.envelope_odds) == sorted(result.envelope_odds, key=lambda t: (-t[3], t[:3]))
    assert sum(chances) == 1


@SETTINGS
@given(small_logs())
def test_probabilities_equal_brute_force(log: GameLog) -> None:
    assert_matches_brute(log, refuter_model=False)


@SETTINGS
@given(small_logs())
def test_refuter_model_equals_weighted_brute_force(log: GameLog) -> None:
    assert_matches_brute(log, refuter_model=True)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_logs(noise=True))
def test_contradictions_raise(log: GameLog) -> None:
    assert_matches_brute(log, refuter_model=False)


def classic(players: int, me: str | None = None) -> GameLog:
    deck = editions()["clue-classic"].deck
    names = tuple(f"P{i}" for i in range(1, players + 1))
    return GameLog(new_game(deck, names, Dealing.CLASSIC, me=me))


def test_hand_count_six_players() -> None:
    """Six players hold 3 cards each (classic 21 cards); a spectator sees P1 suggest Plum,
    Knife, Hall, P2..P5 pass and P6 refute unseen.

    So each named card is in the envelope, with P1 or with P6, and P6 holds at least one. For an
    envelope with m of the named cards outside it, P6 takes j >= 1 of them and P1 the other m - j;
    the other 18 - m cards fill the hands: C(m, j) (18-m)! / ((3-m+j)! (3-j)! 3!^4) deals.
    In units of 15!/3!^4:  f(3) = 3/2 + 3/2 + 1/6 = 19/6,  f(2) = 16 (2/4 + 1/6) = 32/3,
    f(1) = 17 * 16 / 12 = 68/3,  f(0) = 0.  Envelopes: 5*5*8 = 200 with m = 3, 40+40+25 = 105
    with m = 2, 8+5+5 = 18 with m = 1.  Total 200*19/6 + 105*32/3 + 18*68/3 = 6484/3.
    Plum in the envelope: 40 envelopes with m = 2, 13 with m = 1:
        (40*32/3 + 13*68/3) / (6484/3) = 2164/6484 = 541/1621.
    Hall in the envelope: (25*32/3 + 10*68/3) / (6484/3) = 1480/6484 = 370/1621.
    P6 holds Plum: by symmetry among the m named cards outside, weight j/m per term:
        m = 3: (1/3)(3/2) + (2/3)(3/2) + 1/6 = 5/3 over 200 envelopes; m = 2 with Plum out:
        16 (1/4 + 1/6) = 20/3 over 65; m = 1 with Plum out: 68/3 over 5.
        (1000 + 1300 + 340)/3 / (6484/3) = 2640/6484 = 660/1621.  P1: 1 - 541/1621 - 660/1621.
    One envelope with none of the three, (Scarlet, Rope, Study), m = 3:
        (19/6) / (6484/3) = 19/12968.
    """
    log = classic(6).append(
        Suggestion(
            "P1",
            ("Professor Plum", "Knife", "Hall"),
            passes=("P2", "P3", "P4", "P5"),
            refuted_by="P6",
        )
    )
    result = odds(log)
    plum = result.probabilities["Professor Plum"]
    assert plum[ENVELOPE] == Fraction(541, 1621)
    assert plum["P6"] == Fraction(660, 1621)
    assert plum["P1"] == Fraction(420, 1621)
    assert plum["P2"] == 0
    assert result.probabilities["Hall"][ENVELOPE] == Fraction(370, 1621)
    assert result.envelope(("Miss Scarlet", "Rope", "Study")) == Fraction(19, 12968)
    assert result.envelope(("Professor Plum", "Knife", "Hall")) == 0
    assert result.deals is not None


def test_no_events_is_uniform() -> None:
    result = odds(classic(4, me=None))
    assert len(result.envelope_odds) == 6 * 6 * 9
    assert {t[3] for t in result.envelope_odds} == {Fraction(1, 324)}
    # 18 cards in hands of 5, 5, 4, 4: a suspect is with P1 with chance (5/18)(5/6)
    assert result.probabilities["Mrs. White"]["P1"] == Fraction(5, 18) * Fraction(5, 6)


def test_wrong_accusations_and_reveals_in_the_count() -> None:
    log = classic(3, me=None)
    log = log.append(Reveal("P2", ("Rope", "Hall"), whole_hand=False))
    log = log.append(Accusation("P3", ("Mrs. White", "Knife", "Study"), correct=False))
    result = odds(log)
    assert result.envelope(("Mrs. White", "Knife", "Study")) == 0
    assert result.probabilities["Rope"]["P2"] == 1
    # 6 * 5 * 8 envelopes avoid Rope and Hall, minus the accused one; all equally likely
    assert result.envelope(("Mrs. White", "Knife", "Kitchen")) == Fraction(1, 239)


def test_exact_samples_follow_the_count() -> None:
    rng = random.Random(5)
    game, truth = random_setup(editions()["clue-classic"].deck, ("P1", "P2", "P3"),
                               Dealing.CLASSIC, "P1", rng)
    log = play(game, truth, 6, rng)
    pz = puzzle(log, grid_of(log))
    exact = odds(log)
    drawn = sample_deals(count(pz), 4000, seed=1)
    size = drawn.owners.shape[0]
    assert size == 4000
    for j, card in enumerate(drawn.cards):
        for i, owner in enumerate(log.game.owners):
            p = float(exact.probabilities[card][owner])
            seen = float((drawn.owners[:, j] == i).mean())
            assert abs(seen - p) < 5 * (p * (1 - p) / size) ** 0.5 + 0.005, (card, owner)
    envelopes = Counter(drawn.triples[k] for k in drawn.envelope.tolist())
    for triple, hits in envelopes.items():
        p = float(exact.envelope(triple))
        assert abs(hits / size - p) < 5 * (p * (1 - p) / size) ** 0.5 + 0.005, triple


def test_samples_never_hold_a_wrong_accusation() -> None:
    log = classic(3).append(Accusation("P2", ("Mrs. White", "Knife", "Study"), correct=False))
    log = log.append(Reveal("P1", ("Miss Scarlet",)))
    drawn = sample_deals(count(puzzle(log, grid_of(log))), 2000, seed=2)
    assert ("Mrs. White", "Knife", "Study") not in drawn.triples
    scarlet = drawn.cards.index("Miss Scarlet")
    assert (drawn.owners[:, scarlet] == 0).all()


def test_sampling_fallback_is_labelled_and_close() -> None:
    rng = random.Random(11)
    game, truth = random_setup(editions()["clue-classic"].deck, ("P1", "P2", "P3", "P4"),
                               Dealing.CLASSIC, "P1", rng)
    log = play(game, truth, 8, rng)
    exact = odds(log)
    approx = odds(log, budget=0, seed=3)
    assert exact.exact and not approx.exact
    assert approx.error is not None and approx.envelope_error is not None
    worst = max(
        abs(float(exact.probabilities[c][o]) - float(approx.probabilities[c][o]))
        for c in exact.probabilities
        for o in exact.probabilities[c]
    )
    assert worst < 0.2
    for card, row in approx.probabilities.items():
        assert abs(sum(float(p) for p in row.values()) - 1) < 1e-9, card
    assert abs(sum(float(t[3]) for t in approx.envelope_odds) - 1) < 1e-9


def test_categories_of_envelope_odds() -> None:
    result = odds(classic(3))
    deck = result.game.deck
    for suspect, weapon, room, _ in result.envelope_odds[:5]:
        assert [deck.category_of(c) for c in (suspect, weapon, room)] == list(CATEGORIES)
