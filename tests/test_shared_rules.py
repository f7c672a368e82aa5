"""The app, the simulator and the advisor follow one copy of each table rule (`solver.game`):
who answers a suggestion, which side card is looked at next, what I have already shown."""

from __future__ import annotations

import json
import random

from notebook_app.turns import next_side_slot, show_choice, suggestion
from solver.advice import ShowReason, what_to_show
from solver.cards import Deck
from solver.editions import Dealing, editions
from solver.game import Game, GameLog, Player, Suggestion
from solver.odds_report import show_json, show_text
from solver.simulate import play, random_setup

CLASSIC = editions()["clue-classic"].deck
DECK = Deck(("Plum", "Green", "White"), ("Rope", "Knife"), ("Hall", "Study", "Lounge"))


def test_the_simulated_table_answers_as_the_app_records() -> None:
    rng = random.Random(3)
    game, truth = random_setup(CLASSIC, ("Ann", "Bob", "Cy", "Dee"), Dealing.CLASSIC, "Ann", rng)
    log = play(game, truth, 24, rng)
    suggestions = [e for e in log.events if isinstance(e, Suggestion)]
    assert suggestions and any(e.passes for e in suggestions)
    for e in suggestions:
        asked = (*e.passes, *([e.refuted_by] if e.refuted_by else []))
        assert asked == game.answer_order(e.by)[: len(asked)]
        entered = suggestion(game, e.by, e.cards, refuted_by=e.refuted_by, shown=e.shown)
        assert entered == e


def test_side_peeks_take_the_slots_the_app_offers() -> None:
    rng = random.Random(5)
    game, truth = random_setup(CLASSIC, ("Ann", "Bob"), Dealing.TWO_PLAYER, "Ann", rng)
    log = play(game, truth, 40, rng)
    for i, e in enumerate(log.events):
        if isinstance(e, Suggestion) and e.side_peek is not None:
            before = log.upto(i)
            assert e.side_peek.slot in before.unpeeked_slots(e.by)
            assert next_side_slot(before, e.by) == before.unpeeked_slots(e.by)[0]
    for player in game.player_names:  # each slot once per player, then no more peeks
        assert sorted(p.slot for p in log.side_peeks(player)) == [1, 2, 3, 4]
        assert log.unpeeked_slots(player) == () and next_side_slot(log, player) is None


def test_reminder_and_show_command_name_the_same_card() -> None:
    """Bob saw Knife, then Green, then Knife again from me: both say show Knife."""
    game = Game(DECK, (Player("Ann", 2), Player("Bob", 2), Player("Cy", 1)), me="Ann",
                my_cards=("Green", "Knife"))
    asked = Suggestion("Bob", ("Green", "Knife", "Hall"), refuted_by="Ann")
    log = GameLog(game)
    for card, latest in (("Knife", "Knife"), ("Green", "Green"), ("Knife", "Knife")):
        log = log.append(Suggestion(asked.by, asked.cards, refuted_by="Ann", shown=card))
        advice = what_to_show(log, "Bob", ("Green", "Knife", "Study"))
        choice = show_choice(log, "Bob", ("Green", "Knife", "Study"))
        assert advice.reason is ShowReason.ALREADY_SEEN and advice.card == latest
        assert choice.already_seen[-1] == latest
    assert log.shown_to("Bob") == ("Green", "Knife") and log.shown_to("Cy") == ()
    assert choice.advice == "Bob has already seen Green, Knife from you: show Knife again."


def test_show_reason_prints_as_before() -> None:
    game = Game(DECK, (Player("Ann", 2), Player("Bob", 2), Player("Cy", 1)), me="Ann",
                my_cards=("Green", "Knife"))
    advice = what_to_show(GameLog(game), "Bob", ("Green", "Rope", "Hall"))
    assert advice.reason is ShowReason.ONLY_MATCH
    assert json.loads(json.dumps(show_json(advice)))["reason"] == "only match"
    assert show_text(advice) == "show Green: it is your only match"
