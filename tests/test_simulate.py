"""The simulator plays by the rules, and what it logs is true of the deal it dealt."""

from __future__ import annotations

import random

import pytest

from solver.cards import CATEGORIES
from solver.editions import Dealing, editions, forum_deck, new_game
from solver.errors import InvalidLogError
from solver.game import (
    ENVELOPE,
    FIRST_IN_ORDER,
    SIDE,
    Accusation,
    Game,
    GameLog,
    Note,
    Suggestion,
)
from solver.logfile import check
from solver.notebook import Knowledge, Notebook
from solver.odds import odds
from solver.simulate import (
    BLUFF_RATE,
    Absence,
    Moment,
    Opponent,
    Outcome,
    TrueDeal,
    answer,
    play,
    play_to_win,
    random_deal,
    random_setup,
    true_note,
)
from solver.values import replace

from .brute import allows

CLASSIC = editions()["clue-classic"].deck
REFRESH = editions()["cluedo-refresh-2012-fi"].deck
FORUM = editions()["forum-gostya-iz-budushchego"].deck
SIX = ("Anna", "Ben", "Chloe", "Dev", "Emma", "Felix")
FOUR = ("Aino", "Niko", "Veera", "Oona")


def _table(kind: str, seed: int) -> tuple[Game, TrueDeal, GameLog]:
    """One simulated game of each kind the project supports."""
    rng = random.Random(seed)
    if kind == "classic":
        game, truth = random_setup(CLASSIC, SIX, Dealing.CLASSIC, "Chloe", rng)
        log = play(game, truth, 60, rng, wrong_accusations=0.05, reveals=0.05, notes=0.1)
    elif kind == "spectator":
        game, truth = random_setup(CLASSIC, SIX[:4], Dealing.CLASSIC, None, rng)
        log = play(game, truth, 40, rng, wrong_accusations=0.05)
    elif kind == "refresh":
        game, truth = random_setup(REFRESH, FOUR, Dealing.REFRESH, "Aino", rng)
        log = play(game, truth, 40, rng, reveals=0.1, notes=0.1)
    elif kind == "two-player":
        game, truth = random_setup(REFRESH, FOUR[:2], Dealing.TWO_PLAYER, "Niko", rng)
        log = play(game, truth, 40, rng)
    else:
        game, truth = random_setup(FORUM, SIX, Dealing.FORUM, "Anna", rng)
        absence = Absence("Dev", from_turn=12, revealed_at=24)
        log = play(game, truth, 36, rng, directed=True, per_turn=3, absence=absence)
    return game, truth, log


KINDS = ("classic", "spectator", "refresh", "two-player", "forum")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(10))
def test_the_notebook_never_contradicts_the_true_deal(kind: str, seed: int) -> None:
    game, truth, log = _table(kind, seed)
    check(log)
    assert allows(game, log.events, dict(truth.owner))
    with Notebook(game, log.events) as notebook:
        for upto in (len(log.events) // 3, len(log.events)):
            grid = notebook.grid(upto)
            for card, owner in truth.owner.items():
                assert grid[card, owner] is not Knowledge.NO, (upto, card, owner)
                for other in game.owners:
                    if other != owner:
                        assert grid[card, other] is not Knowledge.YES, (upto, card, other)


@pytest.mark.parametrize("kind", KINDS)
def test_the_deal_fills_every_hand_exactly(kind: str) -> None:
    game, truth, _ = _table(kind, 99)
    for owner in game.owners:
        assert len(truth.hand(owner)) == game.capacity(owner)
    assert set(truth.owner) == set(game.deck) - set(game.face_up)
    assert set(game.my_cards) == (set(truth.hand(game.me)) if game.me else set())
    assert sorted(truth.side_slots) == sorted(truth.hand(SIDE))
    assert [game.category_of(c) for c in truth.envelope] == list(CATEGORIES)


def test_refresh_leaves_two_cards_face_up_and_the_two_player_game_four_side_cards() -> None:
    rng = random.Random(1)
    refresh, _ = random_setup(REFRESH, FOUR, Dealing.REFRESH, "Aino", rng)
    assert len(refresh.face_up) == 2
    assert {p.hand_size for p in refresh.players} == {4}
    duel, truth = random_setup(REFRESH, FOUR[:2], Dealing.TWO_PLAYER, "Aino", rng)
    assert duel.side_cards == 4 and len(truth.side_slots) == 4
    assert [p.hand_size for p in duel.players] == [7, 7]


def test_random_deal_honours_a_partly_known_hand() -> None:
    rng = random.Random(3)
    game, _ = random_setup(CLASSIC, SIX[:3], Dealing.CLASSIC, "Anna", rng)
    partial = Game(game.deck, game.players, me="Anna", my_cards=game.my_cards[:2])
    for _ in range(20):
        truth = random_deal(partial, rng)
        assert set(partial.my_cards) <= set(truth.hand("Anna"))
        assert len(truth.hand("Anna")) == 6


def _fixed(game: Game, owners: dict[str, str]) -> TrueDeal:
    return TrueDeal({c: owners.get(c, ENVELOPE) for c in game.deck if c not in game.face_up})


def test_the_first_holder_to_the_left_refutes_and_stops_the_round() -> None:
    game = new_game(CLASSIC, SIX[:4], Dealing.CLASSIC, me="Anna")
    owners = {c: SIX[i % 4] for i, c in enumerate(CLASSIC)}
    cards = ("Miss Scarlet", "Candlestick", "Kitchen")
    owners.update({"Miss Scarlet": "Chloe", "Candlestick": "Dev", "Kitchen": "Chloe"})
    truth = _fixed(game, owners)
    event = answer(game, truth, "Anna", cards, random.Random(0))
    assert event.passes == ("Ben",) and event.refuted_by == "Chloe"
    assert event.shown in ("Miss Scarlet", "Kitchen")
    # Dev suggests: Anna is first to Dev's left and passes; Ben passes; Chloe shows, Anna sees
    # nothing, not even which card.
    event = answer(game, truth, "Dev", cards, random.Random(0))
    assert event.passes == ("Anna", "Ben") and event.refuted_by == "Chloe"
    assert event.shown is None
    # Chloe suggests: Dev answers first and shows the candlestick; Anna, the user, refutes nobody.
    event = answer(game, truth, "Chloe", cards, random.Random(0))
    assert event.passes == () and event.refuted_by == "Dev" and event.shown is None


def test_side_peeks_take_a_new_slot_each_time_per_suggester() -> None:
    rng = random.Random(5)
    game, truth = random_setup(REFRESH, ("Aino", "Niko"), Dealing.TWO_PLAYER, "Aino", rng)

    def own(player: str) -> tuple[str, str, str]:
        """A triple only ``player`` (or the envelope) can hold: nobody else can answer it."""
        hand = set(truth.hand(player)) | set(truth.envelope)
        suspect, weapon, room = (
            next(c for c in game.deck.of(cat) if c in hand) for cat in CATEGORIES
        )
        return suspect, weapon, room

    log = GameLog(game)
    for by in ("Aino", "Niko", "Aino", "Aino", "Aino", "Aino"):
        log = log.append(answer(game, truth, by, own(by), rng, history=log.events))
    peeks = [e.side_peek for e in log.events if isinstance(e, Suggestion) and e.by == "Aino"]
    assert [p is None for p in peeks] == [False, False, False, False, True]
    assert sorted(p.slot for p in peeks if p is not None) == [1, 2, 3, 4]
    for peek in peeks:
        if peek is not None:
            assert peek.card == truth.side_slots[peek.slot - 1]
    niko = log.events[1]
    assert isinstance(niko, Suggestion) and niko.passes == ("Aino",)
    assert niko.side_peek is not None and niko.side_peek.card is None


def test_the_forum_host_shows_the_first_match_in_order_and_only_the_suggester_sees_it() -> None:
    rng = random.Random(2)
    game, truth = random_setup(forum_deck(4), FOUR, Dealing.FORUM, "Aino", rng)
    niko = truth.hand("Niko")
    cards = (
        next((c for c in niko if c in game.deck.suspects), game.deck.suspects[0]),
        next((c for c in niko if c in game.deck.weapons), game.deck.weapons[0]),
        next((c for c in niko if c in game.deck.rooms), game.deck.rooms[0]),
    )
    first = next(c for c in cards if truth.owner[c] == "Niko")
    for _ in range(5):
        event = answer(game, truth, "Aino", cards, rng, to="Niko", host=True)
        assert (event.refuted_by, event.shown, event.shown_by_rule) == (
            "Niko", first, FIRST_IN_ORDER)
    event = answer(game, truth, "Veera", cards, rng, to="Niko", host=True)
    assert (event.refuted_by, event.shown, event.shown_by_rule) == ("Niko", None, FIRST_IN_ORDER)
    empty = next(p for p in FOUR if p != "Aino" and not set(cards) & set(truth.hand(p)))
    event = answer(game, truth, "Aino", cards, rng, to=empty)
    assert event.passes == (empty,) and event.refuted_by is None


def test_a_spectator_never_sees_a_card() -> None:
    _, _, log = _table("spectator", 4)
    assert all(e.shown is None for e in log.events if isinstance(e, Suggestion))


def test_a_finished_game_ends_with_the_right_accusation_once_it_is_safe() -> None:
    rng = random.Random(11)
    game, truth = random_setup(REFRESH, ("Aino", "Niko", "Veera"), Dealing.REFRESH, "Aino", rng)
    log = play(game, truth, 300, rng, finish=True)
    last = log.events[-1]
    assert isinstance(last, Accusation) and last.correct and last.by == "Aino"
    assert last.cards == truth.envelope
    with Notebook(game, log.events[:-1]) as notebook:
        assert notebook.grid().accusation_safe


def test_players_out_after_a_wrong_accusation_take_no_more_turns_but_still_answer() -> None:
    rng = random.Random(8)
    game, truth = random_setup(CLASSIC, SIX, Dealing.CLASSIC, "Anna", rng)
    log = play(game, truth, 120, rng, wrong_accusations=0.2)
    wrong = [(i, e.by) for i, e in enumerate(log.events) if isinstance(e, Accusation)]
    assert wrong, "some accusation happens at this rate"
    for i, accuser in wrong:
        later = [e for e in log.events[i + 1 :] if isinstance(e, Suggestion)]
        assert all(e.by != accuser for e in later)
        assert any(accuser in e.passes or e.refuted_by == accuser for e in later)


def test_a_bad_table_is_refused_with_the_field_named() -> None:
    with pytest.raises(InvalidLogError, match="me: 'Zoe' is not one of the players"):
        random_setup(CLASSIC, SIX[:3], Dealing.CLASSIC, "Zoe", random.Random(0))
    with pytest.raises(InvalidLogError, match="player 'Anna' is listed more than once"):
        random_setup(CLASSIC, ("Anna", "Anna", "Ben"), Dealing.CLASSIC, None, random.Random(0))


def test_notes_are_true_of_the_deal_and_of_every_kind() -> None:
    """`true_note` writes every kind of note about other players, each true of the deal."""
    kinds: set[str] = set()
    for seed in range(30):
        rng = random.Random(seed)
        game, truth = random_setup(CLASSIC, SIX[:4], Dealing.CLASSIC, "Anna", rng)
        note = true_note(game, truth, rng)
        assert note is not None and note.owner != "Anna" and note.text
        check(GameLog(game, (note,)))
        assert allows(game, (note,), dict(truth.owner))
        kinds.add(note.relation)
    assert kinds == {"holds", "lacks", "holds_one_of"}
    rng = random.Random(1)
    game, truth = random_setup(CLASSIC, SIX, Dealing.CLASSIC, "Chloe", rng)
    log = play(game, truth, 40, rng, notes=0.5)
    assert sum(isinstance(e, Note) for e in log.events) > 5


# --- playing to win --------------------------------------------------------------------------

def _likeliest(log: GameLog, rng: random.Random) -> tuple[str, str, str]:
    chances = odds(log).probabilities
    deck = log.game.deck
    picks = [max(deck.of(cat), key=lambda c: (float(chances[c][ENVELOPE]), c))
             for cat in CATEGORIES]
    return picks[0], picks[1], picks[2]


def _likeliest_noisy(log: GameLog, rng: random.Random) -> tuple[str, str, str]:
    """The same choice, after rolling my own dice a lot: the table must not notice."""
    for _ in range(rng.randrange(50)):
        rng.random()
    return _likeliest(log, rng)


@pytest.mark.parametrize("kind", list(Opponent))
@pytest.mark.parametrize("seed", range(3))
def test_a_game_to_the_end_is_sound_and_reproducible(kind: Opponent, seed: int) -> None:
    names = SIX[:4]
    outcome = play_to_win(CLASSIC, names, "Ben", seed, _likeliest, opponents=kind)
    again = play_to_win(CLASSIC, names, "Ben", seed, _likeliest_noisy, opponents=kind)
    assert again.log == outcome.log and again.table == outcome.table
    assert outcome.winner == min(outcome.solved_at, key=outcome.solved_at.__getitem__)
    game = outcome.log.game
    assert allows(game, outcome.log.events, dict(outcome.truth.owner))
    assert allows(replace(game, me=None, my_cards=()), outcome.table, dict(outcome.truth.owner))
    assert outcome.my_suggestions is not None
    with Notebook(game, outcome.log.events) as notebook:
        grid = notebook.grid()
    assert grid.accusation_safe
    assert tuple(grid.envelope()[cat] for cat in CATEGORIES) == outcome.truth.envelope
    for name, heard in outcome.heard.items():
        if name == "Ben":
            continue
        # what they had heard when they accused leaves them one envelope; when the answer to
        # their own suggestion settled it (they accused on that turn), what came before did not
        assert _safe_for(outcome, name, heard)
        if outcome.table[heard - 1].by == name:
            assert not _safe_for(outcome, name, heard - 1)


def _safe_for(outcome: Outcome, name: str, heard: int) -> bool:
    """Whether the first ``heard`` suggestions of the table leave ``name`` one envelope."""
    game = outcome.log.game
    seen = tuple(
        e if name in (e.by, e.refuted_by) else replace(e, shown=None)
        for e in outcome.table[:heard]
    )
    view = GameLog(replace(game, me=name, my_cards=outcome.truth.hand(name)), seen)
    with Notebook(view.game, view.events) as notebook:
        return notebook.grid().accusation_safe


def test_the_same_seed_deals_the_same_cards_to_every_strategy() -> None:
    first = play_to_win(CLASSIC, SIX, "Anna", 5, _likeliest)
    second = play_to_win(CLASSIC, SIX, "Anna", 5, _random_triple)
    assert first.truth == second.truth
    assert first.log.game == second.log.game
    assert first.table[0] != second.table[0]  # Anna suggests first, her own way


def _random_triple(log: GameLog, rng: random.Random) -> tuple[str, str, str]:
    deck = log.game.deck
    return rng.choice(deck.suspects), rng.choice(deck.weapons), rng.choice(deck.rooms)


def test_a_watch_sees_my_turns_and_the_perfect_opponents_certainty() -> None:
    moments: list[Moment] = []
    outcome = play_to_win(CLASSIC, SIX[:3], "Chloe", 2, _likeliest, watch=moments.append)
    assert [m.turn % 3 for m in moments] == [2] * len(moments)
    assert not any(m.certain for m in moments[:-1])
    assert all(set(m.knows) <= {"Anna", "Ben"} for m in moments)
    # each turn: its start, then the answer to my suggestion (unless it settled the envelope:
    # I accused then); the last moment is certain unless my last suggestion's answer settled it
    starts = [m for m in moments if not m.answered]
    answered = [m for m in moments if m.answered]
    assert len(starts) == (outcome.my_suggestions or 0) + moments[-1].certain
    assert len(answered) == len(starts) - 1
    assert all(a.turn == s.turn and len(a.log.events) == len(s.log.events) + 1
               for s, a in zip(starts, answered, strict=False))


def _own_cards_named(outcome: Outcome) -> list[int]:
    """For each opponent's suggestion: how many of the named cards the suggester holds."""
    me = outcome.log.game.me
    return [sum(outcome.truth.owner.get(c) == e.by for c in e.cards)
            for e in outcome.table if e.by != me]


def test_bluffing_opponents_name_one_of_their_own_cards_at_the_stated_rate() -> None:
    named = [n for seed in range(4) for n in _own_cards_named(
        play_to_win(CLASSIC, SIX[:4], "Ben", seed, _likeliest, opponents=Opponent.BLUFFING))]
    honest = [n for seed in range(4) for n in _own_cards_named(
        play_to_win(CLASSIC, SIX[:4], "Ben", seed, _likeliest))]
    assert set(named) == {0, 1} and set(honest) == {0}
    share = sum(named) / len(named)
    assert abs(share - BLUFF_RATE) < 3 * (BLUFF_RATE * (1 - BLUFF_RATE) / len(named)) ** 0.5


def test_a_watch_is_told_when_another_player_has_already_won() -> None:
    """The table plays on after another player's correct accusation (to measure my turns to
    certainty) without it in my log; a rule watching must know the game is over by then."""
    for seed in range(20):
        moments: list[Moment] = []
        outcome = play_to_win(CLASSIC, SIX[:3], "Chloe", seed, _likeliest, watch=moments.append)
        others = {p: t for p, t in outcome.solved_at.items() if p != "Chloe"}
        if not others or min(others.values()) > moments[-1].turn:
            continue
        first = min(others.values())
        for m in moments:
            assert set(m.solved) == {p for p, t in others.items() if t < m.turn}
            assert m.solved or m.turn < first
            assert not set(m.solved) & set(m.knows)
        assert any(m.solved for m in moments)
        return
    pytest.fail("no game in 20 where another player solved before my last turn")
