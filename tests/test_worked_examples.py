"""The worked examples of the Finnish Refresh 2012 rules (`shared/rules.md`), read from `examples/`.

Each test states what the seed text says the player learns, and also what the player must NOT
conclude: those cells stay ``maybe``.
"""

from __future__ import annotations

from pathlib import Path

from solver.game import ENVELOPE, SIDE, GameLog, SidePeek, Suggestion
from solver.logfile import load
from solver.notebook import Grid, Knowledge, Notebook, analyze
from solver.values import replace

EXAMPLES = Path(__file__).parent.parent / "examples"
YES, NO, MAYBE = Knowledge.YES, Knowledge.NO, Knowledge.MAYBE
REGINA, ROPE, GARAGE = "Regina Päiväperhonen", "köysi", "autotalli"


def grid_of(log: GameLog) -> Grid:
    grid = analyze(log).grid
    assert grid is not None, "the example is consistent"
    return grid


def example(name: str) -> GameLog:
    return load(EXAMPLES / name)


def test_example_1_veera_shows_the_rope_after_niko_passes() -> None:
    grid = grid_of(example("rules-example-1.json"))
    assert grid[ROPE, "Veera"] is YES
    for card in (REGINA, ROPE, GARAGE):
        assert grid[card, "Niko"] is NO, card
    # Nothing about Oona, who was never asked: her Regina and autotalli stay open. (She cannot
    # hold the rope only because Veera does.)
    assert grid[REGINA, "Oona"] is MAYBE
    assert grid[GARAGE, "Oona"] is MAYBE
    assert grid[ROPE, "Oona"] is NO
    # Nothing about whether Veera also holds Regina (or the garage).
    assert grid[REGINA, "Veera"] is MAYBE
    assert grid[GARAGE, "Veera"] is MAYBE


def test_example_2_nobody_answers_my_own_two_cards_so_the_garage_is_in_the_envelope() -> None:
    log = example("rules-example-2-four-players.json")
    assert {REGINA, ROPE} <= set(log.game.my_cards)
    assert len(log.game.my_cards) == log.game.capacity("Aino"), "I know my whole hand"
    grid = grid_of(log)
    assert grid[GARAGE, ENVELOPE] is YES
    assert grid.envelope()[log.game.category_of(GARAGE)] == GARAGE


def test_example_2_unless_the_garage_lies_face_up() -> None:
    log = example("rules-example-2-four-players.json")
    game = replace(log.game, face_up=(GARAGE, "putki"))
    grid = grid_of(replace(log, game=game))
    assert all(k is NO for k in grid.cells[GARAGE].values())


def test_example_2_needs_my_whole_hand() -> None:
    """If I had noted only Regina and the rope, the garage could be one of my other cards."""
    log = example("rules-example-2-four-players.json")
    game = replace(log.game, my_cards=(REGINA, ROPE))
    grid = grid_of(replace(log, game=game))
    assert grid[GARAGE, ENVELOPE] is MAYBE
    assert grid[GARAGE, "Aino"] is MAYBE


def test_example_2_in_the_two_player_game_the_garage_may_be_a_side_card() -> None:
    log = example("rules-example-2-two-players.json")
    assert log.game.side_cards == 4
    event = log.events[0]
    assert isinstance(event, Suggestion) and event.side_peek is not None
    assert event.side_peek.card != GARAGE
    grid = grid_of(log)
    assert grid[GARAGE, "Niko"] is NO
    assert grid[GARAGE, ENVELOPE] is MAYBE
    assert grid[GARAGE, SIDE] is MAYBE


def test_example_2_two_players_once_all_four_side_cards_are_seen_the_garage_is_found() -> None:
    log = example("rules-example-2-two-players.json")
    question = log.events[0]
    assert isinstance(question, Suggestion)
    for slot, card in ((2, "putki"), (3, "veranta"), (4, "Aino Valkopesu")):
        log = log.append(replace(question, side_peek=SidePeek(slot, card)))
    grid = grid_of(log)
    assert grid[GARAGE, ENVELOPE] is YES
    assert grid.holder("Aino Valkopesu") == SIDE


def test_example_3_veera_must_have_shown_the_kitchen() -> None:
    log = example("rules-example-3.json")
    assert "pistooli" in log.game.my_cards
    with Notebook(log.game, log.events) as notebook:
        before = notebook.grid(upto=1)
        assert before["keittiö", "Veera"] is MAYBE
        assert before[REGINA, "Veera"] is MAYBE
        after = notebook.grid()
    assert after[REGINA, "Niko"] is YES
    assert after["keittiö", "Veera"] is YES


def test_example_4_veera_holds_juhani() -> None:
    log = example("rules-example-4.json")
    grid = grid_of(log)
    assert grid["pistooli", "Niko"] is YES
    assert grid[GARAGE, "Oona"] is YES
    assert grid["Juhani Viherlevä", "Veera"] is YES


def test_example_4_if_oonas_garage_was_only_a_guess_nothing_follows() -> None:
    log = example("rules-example-4.json")
    oona = next(
        i for i, e in enumerate(log.events, 1)
        if isinstance(e, Suggestion) and e.refuted_by == "Oona" and e.shown == GARAGE
    )
    with Notebook(log.game, log.events) as notebook:
        guess = notebook.grid(without=(oona,))
    assert guess["Juhani Viherlevä", "Veera"] is MAYBE
    assert guess[GARAGE, "Veera"] is MAYBE
