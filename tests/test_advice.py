"""Accusation check, suggestion advisor and what to show, against brute force where it counts."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from solver.advice import (
    LISTED,
    QUIET,
    Advice,
    Rule,
    accuse,
    advise,
    asker_view,
    honest_notes,
    reason,
    reason_said,
    sample,
    what_to_show,
)
from solver.cards import Deck
from solver.editions import Dealing, editions, new_game
from solver.errors import ContradictionError, InvalidLogError
from solver.game import (
    ENVELOPE,
    SIDE,
    Event,
    Game,
    GameLog,
    Note,
    Player,
    Reveal,
    SidePeek,
    Suggestion,
)
from solver.odds import OverBudget, grid_of, odds
from tests.brute import Deal, deals
from tests.programme_check import python_budgets

DECK = Deck(("Plum", "Green", "White"), ("Rope", "Knife"), ("Hall", "Study", "Lounge"))
INFO = Rule.INFORMATION


def small(me: str | None = "Ann", my_cards: tuple[str, ...] = ("Green", "Knife")) -> GameLog:
    players = (Player("Ann", 2), Player("Bob", 2), Player("Cy", 1))
    return GameLog(Game(DECK, players, me=me, my_cards=my_cards if me else ()))


def brute_entropy(log: GameLog, allowed: list[Deal] | None = None) -> float:
    found = list(deals(log)) if allowed is None else allowed
    envelopes = Counter(tuple(c for c in log.game.deck if d.get(c) == ENVELOPE) for d in found)
    total = sum(envelopes.values())
    return -sum(n / total * math.log2(n / total) for n in envelopes.values())


Answers = dict[tuple[str | None, str | None], dict[tuple[str, ...], Fraction]]


def brute_gain(log: GameLog, triple: tuple[str, str, str], to: str | None = None,
               allowed: list[Deal] | None = None) -> float:
    """Entropy of the envelope minus its expected entropy after I suggest ``triple`` (over
    ``allowed`` deals, equally likely; by default every deal of the log)."""
    found, outcomes = brute_answers(log, triple, to, allowed)
    after = 0.0
    for counts in outcomes.values():
        weight = float(sum(counts.values()))
        after += weight / found * -sum(
            float(n) / weight * math.log2(float(n) / weight) for n in counts.values() if n
        )
    return brute_entropy(log, allowed) - after


def brute_settles(log: GameLog, triple: tuple[str, str, str]) -> float:
    """The chance that the answer to ``triple`` leaves a single envelope."""
    found, outcomes = brute_answers(log, triple)
    return sum(float(sum(c.values())) for c in outcomes.values() if len(c) == 1) / found


def brute_answers(log: GameLog, triple: tuple[str, str, str], to: str | None = None,
                  allowed: list[Deal] | None = None) -> tuple[int, Answers]:
    """How many deals the log allows, and for each answer (refuter, card seen) the weight of
    each envelope among them."""
    me = log.game.me
    assert me is not None
    names = log.game.player_names
    seat = names.index(me)
    asked = (to,) if to else names[seat + 1 :] + names[:seat]
    peeked = {e.side_peek.card for e in log.events
              if isinstance(e, Suggestion) and e.by == me and e.side_peek is not None}
    found = list(deals(log)) if allowed is None else allowed
    outcomes: Answers = {}
    for deal in found:
        envelope = tuple(c for c in log.game.deck if deal.get(c) == ENVELOPE)
        refuter = next((p for p in asked if any(deal.get(c) == p for c in triple)), None)
        held: list[str | None] = [c for c in triple if refuter and deal.get(c) == refuter]
        if refuter is None:
            held = [c for c, o in deal.items() if o == SIDE and c not in peeked] or [None]
        for card in held:
            counts = outcomes.setdefault((refuter, card), {})
            counts[envelope] = counts.get(envelope, Fraction(0)) + Fraction(1, len(held))
    return len(found), outcomes


def test_accuse_is_safe_only_when_the_envelope_is_certain() -> None:
    log = small().append(Reveal("Bob", ("Plum", "Rope"), whole_hand=True))
    log = log.append(Reveal("Cy", ("Hall",), whole_hand=True))
    log = log.append(Reveal("Bob", ("Study",)))  # contradicts nothing: Bob's hand is known
    with pytest.raises(ContradictionError):
        accuse(log, ("White", "Knife", "Lounge"))
    log = small().append(Reveal("Bob", ("Plum", "Study"), whole_hand=True))
    log = log.append(Reveal("Cy", ("Hall",), whole_hand=True))
    check = accuse(log, ("White", "Rope", "Lounge"))
    assert check.safe and check.probability == 1
    wrong = accuse(log, ("White", "Knife", "Lounge"))
    assert not wrong.safe and wrong.probability == 0
    assert wrong.alternatives[0][:3] == ("White", "Rope", "Lounge")


def test_accuse_gives_the_chance_and_alternatives() -> None:
    log = small().append(Reveal("Bob", ("Plum",)))
    check = accuse(log, ("White", "Rope", "Hall"))
    assert not check.safe and check.exact
    assert check.probability == odds(log).envelope(("White", "Rope", "Hall"))
    assert 0 < check.probability < 1
    assert all(t[:3] != ("White", "Rope", "Hall") for t in check.alternatives)
    chances = [t[3] for t in check.alternatives]
    assert chances == sorted(chances, reverse=True)


@pytest.mark.parametrize(
    ("cards", "field"),
    [(("Rope", "Rope", "Hall"), "suspect"), (("Plum", "Rope", "Pool"), "room"),
     (("Plum", "Rope"), "cards")],
)
def test_accuse_names_the_bad_field(cards: tuple[str, ...], field: str) -> None:
    with pytest.raises(InvalidLogError, match=field):
        accuse(small(), cards)


def played(log: GameLog) -> list[Deal]:
    """The deals in which every other player holds none of the cards they named, unless they
    hold one of them in every deal; every deal when none is left (brute force)."""
    allowed = list(deals(log))
    named: dict[str, set[str]] = {}
    for e in log.events:
        if isinstance(e, Suggestion) and e.by != log.game.me:
            named.setdefault(e.by, set()).update(e.cards)
    kept = allowed
    for player, cards in named.items():
        if not any(all(d.get(c) == player for d in allowed) for c in cards):
            kept = [d for d in kept if not any(d.get(c) == player for c in cards)]
    return kept or allowed


def in_envelope(log: GameLog, allowed: list[Deal]) -> dict[str, float]:
    return {c: sum(d.get(c) == ENVELOPE for d in allowed) / len(allowed) for c in log.game.deck}


def test_by_default_the_advisor_names_the_likeliest_cards_as_players_play() -> None:
    # Bob asked about Plum, Rope, Study: players ask about cards they do not hold
    log = small(my_cards=("Green", "Lounge")).append(
        Suggestion("Bob", ("Plum", "Rope", "Study"), refuted_by="Cy"))
    allowed = played(log)
    chance, plain = in_envelope(log, allowed), in_envelope(log, list(deals(log)))
    assert len(allowed) < len(list(deals(log)))  # the test means something
    ranked = advise(log, samples=40_000, seed=3, table_weight=0)
    assert len(ranked) == 3 * 2 * 3
    for advice in ranked:
        assert advice.rule is Rule.LIKELIEST and advice.settles == 0
        assert advice.score == pytest.approx(sum(chance[c] for c in advice.triple))
        exact = brute_gain(log, advice.triple, allowed=allowed)
        assert advice.gain == pytest.approx(exact, abs=0.03), advice.triple
    best = max(sum(chance[c] for c in a.triple) for a in ranked)
    assert ranked[0].score == pytest.approx(best)
    scores = [round(a.score, 9) for a in ranked]
    assert scores == sorted(scores, reverse=True)
    # the plain notebook would rank otherwise: the weighting is what picks the first
    plain_best = max(ranked, key=lambda a: sum(plain[c] for c in a.triple)).triple
    assert plain_best != ranked[0].triple


def test_of_the_likeliest_the_advisor_can_ask_what_tells_the_table_least() -> None:
    """With a table weight the best `LISTED` are ranked by their summed chance less that weight
    times what the table hears (who refutes, in bits); the rest follow by chance alone. By
    default the weight is `QUIET`."""
    deck = editions()["clue-classic"].deck
    game = new_game(deck, ("Ann", "Bob", "Cy", "Dee"), Dealing.CLASSIC, me="Ann",
                    my_cards=("Miss Scarlet", "Rope", "Hall", "Study"))
    log = GameLog(game, (Suggestion("Bob", ("Mr. Green", "Knife", "Lounge"), ("Cy",), "Dee"),))
    plain = advise(log, samples=2000, seed=2, table_weight=0)
    quiet = advise(log, samples=2000, seed=2, table_weight=1)
    assert advise(log, samples=2000, seed=2, table_weight=QUIET) == advise(log, samples=2000,
                                                                           seed=2)
    chance = {a.triple: a.score for a in plain}
    head = quiet[:LISTED]
    assert {a.triple for a in head} == {a.triple for a in plain[:LISTED]}
    assert sum(a.public > 0 for a in head) > LISTED // 2  # worked out for them
    for advice in head:
        assert advice.score == pytest.approx(chance[advice.triple] - advice.public)
    scores = [round(a.score, 9) for a in head]
    assert scores == sorted(scores, reverse=True)
    assert [a.triple for a in quiet[LISTED:]] == [a.triple for a in plain[LISTED:]]
    assert [a.triple for a in head] != [a.triple for a in plain[:LISTED]]  # it re-ranks


def test_in_a_settled_category_the_advisor_names_my_own_card() -> None:
    """I hold Knife, so Rope is in the envelope: naming Knife instead tells me the same, and
    the table hears that nobody holds my card rather than the envelope's."""
    log = small()  # Ann holds Green and Knife
    ranked = advise(log, samples=2000, table_weight=0)
    assert all("Knife" in a.triple for a in ranked[:3])
    rope = next(a for a in ranked if a.triple[0] == ranked[0].triple[0]
                and a.triple[2] == ranked[0].triple[2] and "Rope" in a.triple)
    assert rope.score == pytest.approx(ranked[0].score)  # ties go to my own card


def test_the_advisor_reads_the_log_plainly_when_honest_notes_contradict_it() -> None:
    """Bob named five cards between two questions, but must hold two of the six left."""
    log = small().append(Suggestion("Bob", ("Plum", "Rope", "Hall"), passes=("Cy", "Ann")))
    log = log.append(Suggestion("Bob", ("White", "Rope", "Study"), refuted_by="Cy"))
    assert played(log) == list(deals(log))
    with pytest.raises(ContradictionError):
        grid_of(honest_notes(log))
    chance = in_envelope(log, list(deals(log)))
    for advice in advise(log, samples=5000, seed=1, table_weight=0):
        steer = advice.triple[1] == "Knife"  # Rope is certain: my Knife counts as 1
        assert advice.score == pytest.approx(
            sum(1.0 if steer and c == "Knife" else chance[c] for c in advice.triple))


def test_a_player_seen_naming_their_own_card_is_not_taken_to_lack_the_others() -> None:
    """Bob asked about Plum, which he showed me: a bluffer, so no note says he lacks Rope."""
    log = small().append(Suggestion("Ann", ("Plum", "Knife", "Hall"), refuted_by="Bob",
                                    shown="Plum"))
    log = log.append(Suggestion("Bob", ("Plum", "Rope", "Study"), refuted_by="Cy"))
    assert played(log) == list(deals(log)) and honest_notes(log) is log
    chance = in_envelope(log, list(deals(log)))
    assert 0 < chance["Hall"] < 1  # the test means something
    # White and Rope are certain (I hold Green and Knife, Bob showed Plum): mine count 1
    value = chance | {"Green": 1.0, "Knife": 1.0}
    for advice in advise(log, samples=500, table_weight=0):
        assert advice.score == pytest.approx(sum(value[c] for c in advice.triple))


def test_advisor_gain_matches_brute_force() -> None:
    log = small().append(Suggestion("Bob", ("Plum", "Rope", "Study"), refuted_by="Cy"))
    ranked = advise(log, rule=INFO, samples=40_000, seed=3)
    assert len(ranked) == 3 * 2 * 3
    for advice in ranked:
        exact = brute_gain(log, advice.triple)
        assert advice.gain == pytest.approx(exact, abs=0.03), advice.triple
    best = max(ranked, key=lambda a: brute_gain(log, a.triple))
    assert ranked[0].gain == pytest.approx(best.gain, abs=0.03)


def test_the_chance_an_answer_settles_the_envelope_matches_brute_force() -> None:
    log = small().append(Suggestion("Bob", ("Plum", "Rope", "Study"), refuted_by="Cy"))
    ranked = advise(log, rule=INFO, samples=40_000, seed=3)
    exact = {a.triple: brute_settles(log, a.triple) for a in ranked}
    assert min(exact.values()) == 0 < 0.25 < max(exact.values())  # the test means something
    for advice in ranked:
        assert advice.settles == pytest.approx(exact[advice.triple], abs=0.03), advice.triple
    closing = advise(log, rule=INFO, samples=40_000, seed=3, finish=10.0)
    assert exact[closing[0].triple] == pytest.approx(max(exact.values()), abs=0.03)
    assert closing[0].score > closing[0].gain


def brute_resolves(log: GameLog, triple: tuple[str, str, str]) -> float:
    """Over the categories: the entropy of the envelope's card of that category times the
    chance that the answer to ``triple`` leaves one card of it."""
    found, outcomes = brute_answers(log, triple)
    total = 0.0
    for axis in range(3):
        now: Counter[str] = Counter()
        settled = 0.0
        for counts in outcomes.values():
            cards: dict[str, Fraction] = {}
            for envelope, n in counts.items():
                cards[envelope[axis]] = cards.get(envelope[axis], Fraction(0)) + n
                now[envelope[axis]] += float(n)  # type: ignore[assignment]
            if len(cards) == 1:
                settled += float(sum(cards.values()))
        entropy = -sum(n / found * math.log2(n / found) for n in now.values() if n)
        total += entropy * settled / found
    return total


def test_what_an_answer_settles_category_by_category_matches_brute_force() -> None:
    log = small().append(Suggestion("Bob", ("Plum", "Rope", "Study"), refuted_by="Cy"))
    ranked = advise(log, rule=INFO, samples=40_000, seed=3, resolve=1.0)
    exact = {a.triple: brute_resolves(log, a.triple) for a in ranked}
    assert len({round(v, 3) for v in exact.values()}) > 2  # the test means something
    for advice in ranked:
        assert advice.resolves == pytest.approx(exact[advice.triple], abs=0.03), advice.triple
    def worth(a: Advice) -> float:
        return a.gain + exact[a.triple]

    assert worth(ranked[0]) == pytest.approx(max(worth(a) for a in ranked), abs=0.05)


def brute_hands(log: GameLog, triple: tuple[str, str, str]) -> float:
    """What the answer to ``triple`` tells about the whole deal: its entropy minus the
    refuter's pick's (no side cards here)."""
    found, outcomes = brute_answers(log, triple)
    weights = [float(sum(c.values())) / found for c in outcomes.values()]
    names = log.game.player_names
    seat = names.index("Ann")
    asked = names[seat + 1:] + names[:seat]
    picks = 0.0
    for deal in deals(log):
        refuter = next((p for p in asked if any(deal.get(c) == p for c in triple)), None)
        held = [c for c in triple if refuter and deal.get(c) == refuter]
        picks += math.log2(max(1, len(held))) / found
    return -sum(w * math.log2(w) for w in weights if w) - picks


def test_what_an_answer_tells_about_the_hands_matches_brute_force() -> None:
    log = small().append(Suggestion("Bob", ("Plum", "Rope", "Study"), refuted_by="Cy"))
    ranked = advise(log, rule=INFO, samples=40_000, seed=3, hands=0.5)
    exact = {a.triple: brute_hands(log, a.triple) for a in ranked}
    assert len({round(v, 2) for v in exact.values()}) > 2  # the test means something
    for advice in ranked:
        assert advice.hands == pytest.approx(exact[advice.triple], abs=0.03), advice.triple
        assert advice.hands >= advice.gain - 0.03  # the envelope is part of the deal


def test_advisor_for_a_suggestion_to_one_player() -> None:
    """Forum variant: only the player asked answers."""
    log = small().append(Suggestion("Bob", ("Plum", "Rope", "Study"), refuted_by="Cy"))
    for advice in advise(log, "Study", rule=INFO, samples=40_000, seed=4, to="Cy"):
        assert advice.gain == pytest.approx(brute_gain(log, advice.triple, "Cy"), abs=0.03)
    with pytest.raises(InvalidLogError, match="to"):
        advise(log, to="Ann")


def forum_four() -> GameLog:
    """Four players who put each question to one player (as in the forum variant)."""
    deck = Deck(("Plum", "Green", "White"), ("Rope", "Knife", "Pipe"),
                ("Hall", "Study", "Lounge"))
    players = (Player("Ann", 2), Player("Bob", 1), Player("Cy", 1), Player("Dan", 2))
    game = Game(deck, players, me="Ann", my_cards=("Green", "Knife"))
    return GameLog(game, (Suggestion("Bob", ("Plum", "Rope", "Study"), refuted_by="Cy"),
                          Suggestion("Cy", ("White", "Pipe", "Hall"), passes=("Bob",))))


@pytest.mark.parametrize("room", [None, "Lounge", "Study"])
def test_whom_to_ask_is_the_player_whose_answer_tells_most(room: str | None) -> None:
    """Forum variant: each other player is put the best suggestion to them alone (`advise` with
    ``to``) and the one to ask is the player whose answer tells most about the envelope, by
    brute force over the deals as players play (the advisor's draw)."""
    from solver.advice import Advisor

    log = forum_four()
    advisor = Advisor(log, samples=20_000, seed=5)
    whom = advisor.whom(room)
    played = honest_notes(log)
    exact = {}
    assert sorted(p for p, _ in whom.players) == ["Bob", "Cy", "Dan"]
    for player, advice in whom.players:
        assert advice == advisor.asking(player, room)[0]
        assert advice == advise(log, room, to=player, samples=20_000, seed=5)[0]
        assert advice.to == player and (room is None or advice.triple[2] == room)
        assert advice.score == advisor.asking("Bob", room)[0].score  # the likeliest cards
        exact[player] = brute_gain(played, advice.triple, player)
        assert advice.gain == pytest.approx(exact[player], abs=0.03), player
    assert max(exact.values()) - min(exact.values()) > 0.2  # the choice means something
    assert whom.player != "Bob"  # not merely the first after me
    assert exact[whom.player] == max(exact.values())
    told = [exact[p] for p, _ in whom.players]
    assert told == sorted(told, reverse=True)
    assert whom.best == whom.players[0][1] and whom.players[0][0] == whom.player
    with pytest.raises(InvalidLogError, match="to"):
        advisor.asking("Ann")


def test_whom_asks_a_player_whose_answer_is_not_known_in_advance() -> None:
    """Forum variant, found in a 12-player play-through: Lina had put the likeliest cards to
    every other player and none held any. As players play (they seldom name their own cards)
    those cards are the envelope, so every answer tells nothing (gain 0) and the seat order
    chose: "Ask Gromo: ...: teaches you nothing: Gromo holds none of them", though Lina's own
    answer was not known in advance (she may hold one). Here Dan asks Bob, Cy and me twice:
    Bob and Cy surely hold none, Dan may, so Dan is asked."""
    from solver.advice import Advisor, idle_said

    deck = Deck(("Plum", "Green", "White"), ("Rope", "Knife", "Pipe"),
                ("Hall", "Study", "Lounge"))
    players = (Player("Ann", 2), Player("Bob", 1), Player("Cy", 1), Player("Dan", 2))
    game = Game(deck, players, me="Ann", my_cards=("Green", "Knife"))
    log = GameLog(game, tuple(Suggestion("Dan", ("Plum", "Rope", "Hall"), passes=(player,))
                              for player in ("Bob", "Cy", "Ann") * 2))
    advisor = Advisor(log, samples=1000)
    whom = advisor.whom()
    assert {round(a.gain, 9) for _, a in whom.players} == {0}  # as players play: told nothing
    assert whom.player == "Dan" and whom.best.triple == ("Plum", "Rope", "Hall")
    assert idle_said(log, whom.best, advisor.grid) is None
    assert [p for p, _ in whom.players] == ["Dan", "Bob", "Cy"]


def test_whom_scores_each_players_best_without_listing_every_suggestion(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`whom` reads each player's first suggestion only: it scores their best `LISTED` and
    does not list the rest (at a 12-player table 4,000 suggestions a player, most of `whom`'s
    time); the players and their advice are still `asking`'s first, figures and all."""
    import solver.advice
    from solver.advice import Advisor
    from tests.strategies import forum_game

    log = forum_game(6, 0).upto(12)
    advisor = Advisor(log, samples=300)
    made: list[object] = []
    real = solver.advice.Advice

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(solver.advice, "Advice", counted)
    whom = advisor.whom()
    others = len(log.game.player_names) - 1
    assert len(whom.players) == others
    assert len(made) <= others * LISTED < len(advisor._everywhere)
    monkeypatch.setattr(solver.advice, "Advice", real)
    for player, advice in whom.players:
        assert advice == advisor.asking(player)[0]
    assert advisor.whom() == whom
    assert Advisor(log, samples=300).whom("Hall" if "Hall" in log.game.deck else
                                          log.game.deck.rooms[0]).players


def test_a_player_asked_alone_who_likely_holds_none_is_named() -> None:
    """The forum's answer "holds none of them" names the player asked. Where every deal that
    fits the log says so, asking teaches nothing; where only the deals as players play do (a
    player may ask about a card they hold), it is likely, never 100 %."""
    from solver.advice import Advisor

    log = forum_four()
    asked = Advisor(log, samples=2_000).asking("Bob", "Hall")[0]
    assert asked.answers == ((None, 1.0),)
    # Bob passed on White, Pipe, Hall: he holds none of them in every deal
    assert reason(log, asked) == "teaches you nothing: Bob holds none of them"
    # Cy's part only as players play (Cy asked about them): likely, never 100 %
    table = dataclasses.replace(asked, to=None)
    assert reason(log, table).endswith("; nobody is likely to refute (>99%)")
    dan = dataclasses.replace(asked, to="Dan", answers=((None, 0.998), ("Dan", 0.002)))
    assert reason(log, dan).endswith("; Dan likely holds none of them (>99%)")
    assert "100%" not in reason(log, dataclasses.replace(table, settles=1.0))


def test_an_answer_below_even_odds_is_only_the_likeliest() -> None:
    """"Likely" only from 60 %: a coin toss, or a refuter among several, is the likeliest
    answer, never a likely one."""
    from solver.advice import Advisor

    log = forum_four()
    asked = dataclasses.replace(Advisor(log, samples=2_000).asking("Dan", "Hall")[0],
                                answers=((None, 0.5), ("Dan", 0.5)))
    assert reason(log, asked).endswith("; likeliest answer: Dan holds none of them (50%)")
    table = dataclasses.replace(asked, to=None, answers=(("Cat", 0.45), (None, 0.3)))
    assert reason(log, table).endswith("; likeliest answer: Cat refutes (45%)")
    nobody = dataclasses.replace(table, answers=((None, 0.59), ("Cat", 0.41)))
    assert reason(log, nobody).endswith("; likeliest answer: nobody refutes (59%)")
    sure = dataclasses.replace(table, answers=(("Cat", 0.596), (None, 0.404)))
    assert reason(log, sure).endswith("; Cat is likely to refute (60%)")  # as it is shown


def stuck_in_study(*events: Event) -> GameLog:
    """A classic six-player game where I (Ann, holding Rope) asked Miss Scarlet, Rope, Study
    (the weapon settled: Revolver), Bob passed and Cat showed me Study: asking it again, Cat is
    the only one who can refute, with the Study I know they hold (a phone play-through met it
    three turns running)."""
    game = new_game(editions()["clue-classic"].deck, ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"),
                    Dealing.CLASSIC, me="Ann", my_cards=("Mr. Green", "Rope", "Lounge"))
    return GameLog(game, (Note("envelope", holds=("Revolver",), text="seen"),
                          Suggestion("Ann", ("Miss Scarlet", "Rope", "Study"), passes=("Bob",),
                                     refuted_by="Cat", shown="Study"), *events))


def test_in_a_room_whose_likeliest_question_teaches_nothing_the_advice_heads_elsewhere() -> None:
    """Asking where the answer is known in advance (the only possible refuter can show a card I
    know they hold) teaches nothing, however likely the cards: the advice says so, heads to
    another room's question that tells something, and offers the best here that does."""
    from solver.advice import IDLE, Advisor, idle_said

    log = stuck_in_study()
    advisor = Advisor(log, samples=1000)
    grid = advisor.grid
    here = advisor.here("Study")
    assert here.best.triple == ("Miss Scarlet", "Rope", "Study")  # still the likeliest here
    assert here.best.answers == (("Cat", 1.0),) and here.idle
    assert reason(log, here.best, grid) == ("teaches you nothing: Cat can show Study, which "
                                            "you know they hold")
    assert here.elsewhere is not None and here.stay is not None
    assert here.elsewhere.triple[2] != "Study" and here.stay.triple[2] == "Study"
    for telling in (here.elsewhere, here.stay):
        assert idle_said(log, telling, grid) is None and telling.gain >= IDLE
        assert "teaches you nothing" not in reason(log, telling, grid)
    assert here.elsewhere.score > here.stay.score
    assert here.stay == next(a for a in here.ranked if idle_said(log, a, grid) is None)
    assert not advisor.here("Hall").idle
    before = Advisor(GameLog(log.game, log.events[:1]), samples=1000).here("Study")
    assert not before.idle and before.stay is None  # before Cat showed Study: worth asking


def cat_asked_its_own_study() -> GameLog:
    """A phone play-through's first four turns, Eve to play: Cat asked Miss Scarlet, Revolver,
    Study and nobody refuted. As players play (nobody asks about a card they hold) nobody can
    refute it again, but Cat could, and did: Cat held Study."""
    game = new_game(editions()["clue-classic"].deck, ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"),
                    Dealing.CLASSIC, me="Eve", my_cards=("Mr. Green", "Rope", "Lounge"))
    return GameLog(game, (
        Suggestion("Ann", ("Colonel Mustard", "Lead Pipe", "Ballroom"), passes=("Bob",),
                   refuted_by="Cat"),
        Suggestion("Bob", ("Mr. Green", "Knife", "Ballroom"), passes=("Cat", "Dan"),
                   refuted_by="Eve", shown="Mr. Green"),
        Suggestion("Cat", ("Miss Scarlet", "Revolver", "Study"),
                   passes=("Dan", "Eve", "Fay", "Ann", "Bob")),
        Suggestion("Dan", ("Mrs. White", "Candlestick", "Dining Room"), passes=("Eve",),
                   refuted_by="Fay")))


def test_an_answer_sure_only_as_players_play_still_teaches() -> None:
    """Where the deals as players play all give one answer but not every deal that fits the
    log does (`cat_asked_its_own_study`), the answer is likely (never 100 %), and asking it is
    no question that teaches nothing."""
    from solver.advice import Advisor

    log = cat_asked_its_own_study()
    advisor = Advisor(log, samples=1000)
    best = advisor.anywhere()[0]
    assert best.triple == ("Miss Scarlet", "Revolver", "Study")
    assert best.answers == ((None, 1.0),)
    assert reason(log, best, advisor.grid).endswith("; nobody is likely to refute (>99%)")
    assert not advisor.here("Study").idle


def test_an_answer_every_deal_gives_is_said_without_a_chance() -> None:
    """Cat refuted Bob's Mrs. Peacock, Knife, Hall and I know Bob holds none of them: asked
    again, Cat refutes in every deal that fits the log, not only as players play."""
    from solver.advice import IDLE, answer_certain, as_played, gains

    log = stuck_in_study(
        Suggestion("Bob", ("Mrs. Peacock", "Knife", "Hall"), refuted_by="Cat"),
        Note("Bob", lacks=("Mrs. Peacock", "Knife", "Hall"), text="seen"))
    grid = grid_of(log)
    asked = next(a for a in advise(log, "Hall", rule=INFO, samples=1000)
                 if a.triple == ("Mrs. Peacock", "Knife", "Hall"))
    assert asked.answers == (("Cat", 1.0),) and answer_certain(log, asked, grid)
    assert reason(log, asked, grid).endswith("; Cat will refute")
    # without the note Bob's pass rests on his asking about cards he does not hold: the
    # deals as players play (the advisor's) all say Cat, not every deal that fits the log
    unsure = GameLog(log.game, log.events[:-1])
    played, counted = as_played(unsure)
    drawn = sample(played, 1000, counted=counted)
    asked = gains(unsure, drawn, [("Mrs. Peacock", "Knife", "Hall")], "Ann")[0]
    assert asked.answers == (("Cat", 1.0),) and asked.gain >= IDLE
    assert not answer_certain(unsure, asked, grid_of(unsure))
    assert reason(unsure, asked).endswith("; Cat is likely to refute (>99%)")


def test_advisor_counts_the_side_card_I_would_see() -> None:
    """2-player game: when Bob cannot answer I look at a side card I have not seen yet."""
    players = (Player("Ann", 2), Player("Bob", 1))
    game = Game(DECK, players, me="Ann", my_cards=("Green", "Knife"), side_cards=2)
    unanswered = Suggestion("Ann", ("Plum", "Rope", "Hall"), passes=("Bob",),
                            side_peek=SidePeek(1, "Hall"))
    log = GameLog(game, (unanswered,))
    ranked = advise(log, rule=INFO, samples=40_000, seed=5)
    for advice in ranked:
        assert advice.gain == pytest.approx(brute_gain(log, advice.triple), abs=0.03)


def test_asking_my_own_cards_teaches_nothing_about_the_rest() -> None:
    log = small(my_cards=("Green", "Knife"))
    ranked = advise(log, "Hall", rule=INFO, samples=3000)
    mine = next(a for a in ranked if a.triple == ("Green", "Knife", "Hall"))
    # only Hall can be refuted: the answer says whether Hall is out, nothing more
    assert mine.gain == pytest.approx(brute_gain(log, ("Green", "Knife", "Hall")), abs=0.03)
    assert mine.gain < ranked[0].gain


def test_advisor_needs_me_and_a_real_room() -> None:
    with pytest.raises(InvalidLogError, match="me"):
        advise(small(me=None))
    with pytest.raises(InvalidLogError, match="room"):
        advise(small(), "Pool")
    with pytest.raises(InvalidLogError, match="room"):
        advise(small(), "Rope")


def test_sample_rows_are_deals() -> None:
    log = GameLog(new_game(editions()["clue-classic"].deck, ("A", "B", "C"), Dealing.CLASSIC))
    drawn = sample(log, 200)
    hands = [(drawn.owners == i).sum(axis=1) for i in range(len(log.game.owners))]
    assert all((h == 6).all() for h in hands[:3])
    assert (hands[3] == 3).all()


def test_show_the_only_match_or_the_card_already_seen() -> None:
    log = small()
    assert what_to_show(log, "Bob", ("Green", "Rope", "Hall")).card == "Green"
    log = log.append(Suggestion("Bob", ("Green", "Knife", "Hall"), refuted_by="Ann",
                                shown="Knife"))
    advice = what_to_show(log, "Bob", ("Green", "Knife", "Study"))
    assert (advice.card, advice.reason) == ("Knife", "already seen")


def test_show_the_least_telling_card() -> None:
    log = small().append(Suggestion("Cy", ("Green", "Knife", "Hall"), refuted_by="Ann",
                                    shown="Knife"))
    advice = what_to_show(log, "Bob", ("Green", "Knife", "Lounge"))
    # Bob never saw a card of mine; Cy's Knife is private to Cy
    assert advice.reason == "least telling"
    view = asker_view(log, "Bob")
    assert all(isinstance(e, Suggestion) and e.shown is None for e in view.events)
    after = {c: brute_entropy(view.append(Reveal("Ann", (c,)))) for c in ("Green", "Knife")}
    assert advice.entropy_after == pytest.approx(after)
    assert after[advice.card] == max(after.values())


def test_show_reads_a_race_already_drawn_as_its_own_draw() -> None:
    """The app's hint reads the race its header drew for accuse-or-wait (`race_of`): the same
    deals, weights and answer as what_to_show drawing that many itself."""
    from pathlib import Path

    from solver.logfile import load
    from solver.race import accuse_or_wait

    log = load(Path(__file__).resolve().parent.parent / "examples"
               / "classic-four-players-notes.json").upto(10)
    cards = ("Miss Scarlet", "Revolver", "Conservatory")  # three of Ann's; Bob saw none
    kept = accuse_or_wait(log, samples=100).race
    assert kept is not None and len(kept.deals) == 100
    read = what_to_show(log, "Bob", cards, race_of=kept)
    drawn = what_to_show(log, "Bob", cards, samples=100)
    assert read.reason == "least telling"
    assert (read.card, read.open_after) == (drawn.card, drawn.open_after)


def test_show_needs_a_card_I_hold() -> None:
    with pytest.raises(InvalidLogError, match="cards"):
        what_to_show(small(), "Bob", ("Plum", "Rope", "Hall"))
    with pytest.raises(InvalidLogError, match="asker"):
        what_to_show(small(), "Zed", ("Green", "Rope", "Hall"))


def test_advisor_past_the_budget_uses_the_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    import solver.advice

    def over(*_: object, **__: object) -> None:
        raise OverBudget

    log = small().append(Suggestion("Bob", ("Plum", "Rope", "Study"), refuted_by="Cy"))
    monkeypatch.setattr(solver.advice, "drawable_count", over)
    drawn = sample(log, 300)
    assert drawn.owners.shape == (300, len(DECK))
    ranked = advise(log, "Study", rule=INFO, samples=300)
    best = max(ranked, key=lambda a: brute_gain(log, a.triple))
    assert ranked[0].gain == pytest.approx(brute_gain(log, ranked[0].triple), abs=0.3)
    assert brute_gain(log, ranked[0].triple) >= brute_gain(log, best.triple) - 0.3


def test_what_the_table_hears_is_part_of_what_i_learn() -> None:
    """Who refutes is public; the card is mine too: the table never learns more than I do,
    and a table weight ranks by gain minus that share."""
    log = small()
    plain = advise(log, rule=INFO, samples=3000)
    for a in plain:
        assert a.public <= a.gain + 0.05
        assert sum(p for _, p in a.answers) == pytest.approx(1.0)
        assert a.score == pytest.approx(a.gain)
    quiet = advise(log, rule=INFO, samples=3000, table_weight=0.5)
    assert all(q.score == pytest.approx(q.gain - 0.5 * q.public) for q in quiet)
    scores = [round(q.score, 9) for q in quiet]
    assert scores == sorted(scores, reverse=True)


def test_each_advice_has_a_line_a_player_can_follow() -> None:
    log = small()
    ranked = advise(log, rule=INFO, samples=500)
    steering = next(a for a in ranked if "Knife" in a.triple)
    line = reason(log, steering)
    assert "steers with your own Knife" in line
    said = reason_said(log, steering)  # one card of mine: not "your cards Knife"
    assert "направляет ответ вашей картой Knife" in said.render("ru")
    assert "ohjaa vastausta omalla kortillasi Knife" in said.render("fi")
    both = next(a for a in ranked if {"Green", "Knife"} <= set(a.triple))
    assert "вашими картами Green и Knife" in reason_said(log, both).render("ru")
    who, chance = steering.answers[0]
    if round(100 * chance) >= 60:
        assert (f"{who} is likely to refute" if who else "nobody is likely to refute") in line
    else:
        assert f"likeliest answer: {who or 'nobody'} refutes" in line
    assert f"({chance:.0%})" in line
    # Rope is certainly in the envelope (I hold Knife): its holder known, like my own cards
    open_ = next(a for a in ranked if not set(a.triple) & {"Green", "Knife"})
    assert reason(log, open_).startswith("asks about two cards whose holders you do not know yet;")
    likeliest = advise(log, samples=500)[0]
    assert likeliest.rule is Rule.LIKELIEST
    assert ("the likeliest in the envelope if players ask about cards they do not hold"
            in reason(log, likeliest))
    assert "the likeliest in the envelope" not in reason(log, open_)
    settling = max(ranked, key=lambda a: a.settles)
    assert settling.settles > 0.1
    assert f"the answer may settle the envelope ({settling.settles:.0%})" in reason(log, settling)


def test_the_best_in_a_room_beside_likelier_cards_elsewhere_is_not_called_the_likeliest(
) -> None:
    """`reason` without ``likeliest``: the best in a room chosen, shown beside a line that
    names likelier cards in another room ("Suggest for me"). "the likeliest in the envelope"
    then read as contradicting that line (phone play-throughs); the rest of the line stays."""
    log = small()
    here = advise(log, "Hall", samples=500)[0]
    full = reason(log, here)
    assert "the likeliest in the envelope if players ask about cards they do not hold" in full
    short = reason(log, here, likeliest=False)
    assert full == short.replace(";", ", the likeliest in the envelope if players ask about "
                                 "cards they do not hold;", 1)
    for language in ("fi", "ru", "ja"):  # the clause goes there too
        assert len(reason_said(log, here, likeliest=False).render(language)) < len(
            reason_said(log, here).render(language))


def test_the_advisors_count_gives_up_where_the_compiled_count_does() -> None:
    """The advisor counts in Python (deals are drawn from that count); past its first ``look``
    units it asks the compiled count, which charges the same work, and gives up at once where
    that one is past the budget: the same logs finish as with `count`, with the same total."""
    from solver.advice import drawable_count
    from solver.logfile import load
    from solver.odds import count, puzzle

    classic = load("examples/classic-six-players.json")
    finished = given_up = 0
    for log in (classic.upto(2), classic.upto(4), classic.upto(12), classic.upto(20)):
        pz = puzzle(log, grid_of(log))
        try:
            plain = count(pz, 20_000)
        except OverBudget:
            with pytest.raises(OverBudget):
                drawable_count(pz, 20_000, 2_000)
            given_up += 1
            continue
        assert drawable_count(pz, 20_000, 2_000).total == plain.total
        finished += 1
    assert finished and given_up


@pytest.mark.slow
def test_the_advisor_does_not_spend_its_python_budget_on_a_count_that_cannot_finish(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An 8-player forum log at 10 events: the count is past its budget. The advisor's Python
    count used to spend all of it (about a second) before the other counts ran; now at most its
    first `LOOK` units (none where the process has loaded the compiled count, which it then
    asks first)."""
    from solver.odds.exact import DEFAULT_BUDGET
    from tests.strategies import forum_game

    spent = python_budgets(monkeypatch)
    log = forum_game(8, 0).upto(10)
    assert advise(log, log.game.deck.rooms[0], samples=100)
    assert max((b.spent for b in spent), default=0) < DEFAULT_BUDGET // 2  # type: ignore[attr-defined]


def test_with_the_compiled_count_loaded_the_advisor_asks_it_before_counting_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the process has the compiled count (the app's), the advisor asks it first: a count
    past the budget (an 8-player forum log at 10 events) spends no Python work at all (it spent
    `LOOK` units, 60-110 ms at a 12-player table, before asking); one within it is the Python
    count's own, deals drawable."""
    import solver.advice
    import solver.odds.exact
    from solver.advice import drawable_count
    from solver.logfile import load
    from solver.odds import count, puzzle
    from solver.odds.compiled import kernel
    from tests.strategies import forum_game

    if kernel() is None:
        pytest.skip("numba does not load here")
    ran = python_budgets(monkeypatch)
    big = forum_game(8, 0).upto(10)
    with pytest.raises(OverBudget):
        drawable_count(puzzle(big, grid_of(big)))
    assert ran == []
    log = load("examples/classic-six-players.json").upto(12)
    pz = puzzle(log, grid_of(log))
    found = drawable_count(pz)
    assert ran and found.run.trans and found.total == count(pz).total
    ran.clear()  # a process without the compiled count loaded (a command): Python first
    monkeypatch.setattr(solver.advice, "loaded", lambda: False)
    with pytest.raises(OverBudget):
        drawable_count(puzzle(big, grid_of(big)), look=5_000)
    assert len(ran) == 1 and 5_000 <= ran[0].spent < 20_000  # type: ignore[attr-defined]


def test_the_advisors_count_goes_on_where_the_compiled_count_fails_its_check(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Review of 4f872ba: the compiled count asked whether the count finishes raises
    `ArithmeticError` where its own check fails (`choice` drops such a count); the advisor then
    counts on in Python, logged, rather than failing with a traceback."""
    import solver.advice
    from solver.advice import drawable_count
    from solver.logfile import load
    from solver.odds import count, puzzle

    real = solver.advice.count_steps

    def failing(pz: object, budget: object, compiled: bool = False) -> object:
        if compiled:
            raise ArithmeticError("a move not found")
        return real(pz, budget)  # type: ignore[arg-type]

    log = load("examples/classic-six-players.json").upto(12)
    pz = puzzle(log, grid_of(log))
    plain = count(pz, 20_000)
    monkeypatch.setattr(solver.advice, "count_steps", failing)
    assert drawable_count(pz, 20_000, 100).total == plain.total
    assert "failed its check" in caplog.text


def test_the_advice_in_my_room_and_where_to_head_are_advises_own() -> None:
    """`advise_here` reads one count and one draw for the room my pawn stands in and for every
    room: the same advice, figures and all, as `advise` with the room and without one."""
    from solver.advice import advise_here
    from solver.logfile import load

    log = load("examples/classic-six-players.json").upto(12)
    heads = 0
    anywhere = advise(log, samples=500)[0]
    for room in log.game.deck.rooms[:2]:
        here = advise_here(log, room, samples=500)
        assert here.best == advise(log, room, samples=500)[0]
        if here.elsewhere is None:
            assert anywhere.triple[2] == room or anywhere.score <= here.best.score + 1e-9
        else:
            assert here.elsewhere == anywhere and anywhere.triple[2] != room
            assert anywhere.score > here.best.score
            heads += 1
    assert heads
    with pytest.raises(InvalidLogError, match="room: 'Knife' is not a room"):
        advise_here(log, "Knife")


def test_the_advisor_room_after_room_is_advise_here_for_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`Advisor` (the app's "Suggest for me", room after room) counts and draws once per log, and
    every room's answer is `advise_here`'s own, figures and all; without a room, `advise`'s."""
    import solver.advice
    from solver.advice import Advisor, advise_here
    from solver.logfile import load

    log = load("examples/classic-six-players.json").upto(12)
    real = solver.advice._weighed
    made: list[object] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(args[0])
        return real(*args, **kwargs)

    expected = {room: advise_here(log, room, samples=500) for room in log.game.deck.rooms}
    anywhere = advise(log, samples=500)
    monkeypatch.setattr(solver.advice, "_weighed", counted)
    advisor = Advisor(log, samples=500)
    for room in (*log.game.deck.rooms, log.game.deck.rooms[0]):
        assert advisor.here(room) == expected[room]
    assert advisor.anywhere() == anywhere
    assert made == [log]  # one count and one draw for every room
    with pytest.raises(InvalidLogError, match="room: 'Knife' is not a room"):
        advisor.here("Knife")
    from solver.notebook import Knowledge

    card, grid = expected["Hall"].best.triple[0], grid_of(log)
    shows = next(p for p in log.game.player_names if grid[card, p] is Knowledge.MAYBE)
    later = log.append(Reveal(shows, (card,)))  # a new event: a new advisor, another answer
    assert Advisor(later, samples=500).here("Hall") == advise_here(later, "Hall", samples=500)
    assert advise_here(later, "Hall", samples=500) != expected["Hall"]


def test_advise_past_the_budget_draws_from_the_chain_its_odds_ran(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the odds as players play are sampled, the deals `advise` scores are the visits of
    that same chain (it ran twice before: for the odds, then again for the draw), and they are
    the deals the second run drew: the same chain, seed and moves."""
    import numpy as np

    import solver.advice
    import solver.odds
    import solver.odds.chain
    from solver.advice import Advisor, as_played
    from solver.logfile import load
    from solver.odds import puzzle

    def over(*args: Any, **kwargs: Any) -> Any:
        raise OverBudget

    log = load("examples/classic-six-players.json").upto(12)
    monkeypatch.setattr(solver.advice, "drawable_count", over)
    monkeypatch.setattr(solver.odds, "exact_count", over)
    runs: list[int] = []
    real = solver.odds.chain._run_chains

    def chains(*args: Any, **kwargs: Any) -> Any:
        runs.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(solver.odds.chain, "_run_chains", chains)
    advisor = Advisor(log, samples=300, seed=2)
    assert len(runs) == 1
    weighed = advisor._weighed
    played, found = as_played(log)
    assert found is None  # past the budget
    sampled = odds(played, seed=2)
    assert not sampled.exact
    assert weighed.value == {c: float(sampled.probabilities[c][ENVELOPE]) for c in log.game.deck
                             if c not in weighed.steers} | dict.fromkeys(weighed.steers, 1.0)
    again = solver.advice._chain_sample(played, puzzle(played, grid_of(played)), 300, 2, False)
    assert len(runs) == 3
    assert weighed.drawn.cards == again.cards and weighed.drawn.triples == again.triples
    assert np.array_equal(weighed.drawn.owners, again.owners)
    assert np.array_equal(weighed.drawn.envelope, again.envelope)


def test_the_room_of_my_last_suggestion_is_barred_on_a_board_not_in_the_forum() -> None:
    """One suggestion per visit (the classic and Refresh 2012 sheets): the room of my last
    suggestion is barred until I leave it, unless another's suggestion moved my pawn; the forum
    has no board. The advisor ranks the other rooms on their own, and where to head from
    another room is never the barred one."""
    from solver.advice import Advisor, barred_room

    log = stuck_in_study()
    assert barred_room(log, "Ann") == "Study" and barred_room(log, "Bob") is None
    two = new_game(editions()["cluedo-refresh-2012-fi"].deck, ("Aino", "Niko"),
                   Dealing.TWO_PLAYER, me="Aino")
    asked = GameLog(two, (Suggestion("Aino", ("Regina Päiväperhonen", "köysi", "autotalli"),
                                     refuted_by="Niko"),))
    assert barred_room(asked, "Aino") == "autotalli"
    forum = editions()["forum-gostya-iz-budushchego"]
    game = new_game(forum.deck, ("A", "B", "C", "D", "E", "F"), Dealing.FORUM)
    place = forum.deck.rooms[0]
    put = GameLog(game, (Suggestion("A", (forum.deck.suspects[0], forum.deck.weapons[0], place),
                                    passes=("B",)),))
    assert barred_room(put, "A") is None
    advisor = Advisor(log, samples=300)
    away = advisor.anywhere("Study")
    assert away and all(a.triple[2] != "Study" for a in away)
    assert len(away) == len(advisor.anywhere()) - 36 and away[0].answers  # scored
    # from the Study nowhere heads anyway (its question is idle): a table where the best
    # question is in the room I just asked in, so heading there is what a bar must stop
    garage = Advisor(asked_in_the_garage(), samples=300)
    unbarred = garage.here("olohuone").elsewhere
    assert unbarred is not None and unbarred.triple[2] == "autotalli"
    for room in ("olohuone", "keittiö"):
        here = garage.here(room, "autotalli")
        assert here.elsewhere is None or here.elsewhere.triple[2] != "autotalli"
    assert garage.here("olohuone", "autotalli").elsewhere is not None


def asked_in_the_garage() -> GameLog:
    """A Refresh table of four where Aino (me) just asked in the autotalli, the room whose
    question is likeliest: the one suggestion per visit bars it."""
    box = editions()["cluedo-refresh-2012-fi"]
    four = new_game(box.deck, ("Aino", "Niko", "Veera", "Oona"), Dealing.REFRESH, me="Aino",
                    my_cards=("Regina Päiväperhonen", "köysi", "veranta", "tikari"),
                    face_up=("pelihuone", "putki"))
    return GameLog(four, (
        Suggestion("Aino", ("Marjaana Punakulta", "jakoavain", "autotalli"), passes=("Niko",),
                   refuted_by="Veera", shown="jakoavain"),
        Suggestion("Niko", ("Aino Valkopesu", "pistooli", "keittiö"), refuted_by="Veera")))
