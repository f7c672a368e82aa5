"""Notes in the odds: "holds one of" for any owner (a player, the envelope, the side pile) and of
any size counts exactly like an unseen refutation; equal to brute force, in the exact count, the
possible envelopes and the exact samples."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.editions import Dealing, editions, new_game
from solver.game import ENVELOPE, GameLog, Note
from solver.odds import count, grid_of, odds, puzzle, sample_deals
from solver.odds.triples import possible_envelopes
from tests.brute import deals
from tests.strategies import small_logs
from tests.test_odds import assert_matches_brute

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))


@st.composite
def logs_with_notes(draw: st.DrawFn) -> GameLog:
    """A small log plus one to three true "holds one of" notes (owner and size drawn freely:
    from one card to most of the deck, any categories)."""
    log = draw(small_logs(max_events=4))
    found = list(deals(log))
    if not found:
        return log
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    truth = rng.choice(found)
    for _ in range(draw(st.integers(1, 3))):
        owner = rng.choice([o for o in log.game.owners if any(v == o for v in truth.values())])
        held = [c for c, o in truth.items() if o == owner]
        others = [c for c in log.game.deck if c not in held]
        cards = [rng.choice(held), *rng.sample(others, rng.randint(0, len(others) - 1))]
        rng.shuffle(cards)
        log = log.append(Note(owner, holds_one_of=tuple(cards)))
    return log


@SETTINGS
@given(logs_with_notes())
def test_notes_equal_brute_force(log: GameLog) -> None:
    assert_matches_brute(log, refuter_model=False)


@SETTINGS
@given(logs_with_notes())
def test_notes_under_the_refuter_model_equal_brute_force(log: GameLog) -> None:
    assert_matches_brute(log, refuter_model=True)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(logs_with_notes())
def test_notes_in_the_possible_envelopes(log: GameLog) -> None:
    truth = {tuple(c for c in log.game.deck if d.get(c) == ENVELOPE) for d in deals(log)}
    if truth:
        assert set(possible_envelopes(log, puzzle(log, grid_of(log)))) == truth


def test_envelope_note_is_one_refutation_not_many_accusations() -> None:
    """The envelope holds one of two cards on the classic deck: one tally on the envelope's
    three slots (not every other triple as a wrong accusation); samples follow the count."""
    game = new_game(editions()["clue-classic"].deck, ("P1", "P2", "P3"), Dealing.CLASSIC)
    log = GameLog(game).append(Note(ENVELOPE, holds_one_of=("Rope", "Hall")))
    pz = puzzle(log, grid_of(log))
    assert not pz.accusations and len(pz.tallies) == 1
    result = odds(log)
    assert result.exact
    assert all("Rope" in t[:3] or "Hall" in t[:3] for t in result.envelope_odds)
    # 6 * 6 * 9 triples, those with Rope or Hall: 324 - 6 * 5 * 8 = 84, all equally likely
    assert len(result.envelope_odds) == 84
    assert {t[3] for t in result.envelope_odds} == {result.envelope_odds[0][3]}
    assert result.probabilities["Rope"][ENVELOPE] == Fraction(6 * 9, 84)
    drawn = sample_deals(count(pz), 3000, seed=4)
    seen = Counter(drawn.triples[k] for k in drawn.envelope.tolist())
    assert all("Rope" in t or "Hall" in t for t in seen)
    approx = odds(log, budget=0, moves=80)
    assert not approx.exact and len(approx.envelope_odds) == 84
    for card in ("Rope", "Hall"):  # Rope in: 6 * 9 of the 84 triples
        assert abs(float(approx.probabilities[card][ENVELOPE]) - 54 / 84) < 0.2
