"""The game's records behave as the frozen dataclasses they replaced (`solver.values`)."""

from __future__ import annotations

import copy
import pickle

import pytest

from solver import Accusation, Deck, Game, GameLog, Player, Reveal, SidePeek, Suggestion
from solver.game import Note
from solver.logfile import load
from solver.values import field_names, replace

from .test_notation_cli import CLASSIC


def test_equal_by_field_and_class_hashed_without_extra() -> None:
    asked = Suggestion("Ann", ("Plum", "Rope", "Hall"), ("Bob",), refuted_by="Cy")
    assert asked == Suggestion("Ann", ("Plum", "Rope", "Hall"), ("Bob",), "Cy")
    assert asked != replace(asked, shown="Rope")
    noted = replace(asked, extra={"x": 1})
    assert noted != asked and hash(noted) == hash(asked)  # compared, not hashed, as before
    # same fields, another kind of event: never equal
    assert Accusation("Ann", ("Plum", "Rope", "Hall")) != Reveal("Ann", ("Plum", "Rope", "Hall"))
    assert len({asked, replace(asked), noted}) == 2


def test_immutable_and_replace_checks_field_names() -> None:
    player = Player("Ann", 3)
    with pytest.raises(AttributeError, match="immutable"):
        player.name = "Bob"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable"):
        del player.hand_size
    with pytest.raises(TypeError, match="no field 'size'"):
        replace(player, size=4)
    assert replace(player, hand_size=4) == Player("Ann", 4) and player.hand_size == 3
    assert field_names(Note) == ("owner", "holds", "lacks", "holds_one_of", "text", "extra")


def test_repr_pastes_back() -> None:
    values = [Player("Ann", 3), SidePeek(2), Note("Bob", lacks=("Rope",), text="seen"),
              Suggestion("Ann", ("Plum", "Rope", "Hall"), side_peek=SidePeek(1, "Hall")),
              Deck(("Plum",), ("Rope",), ("Hall",))]
    for value in values:
        assert eval(repr(value)) == value


def test_pickle_and_copy_keep_everything() -> None:
    log = load(CLASSIC)
    for copied in (pickle.loads(pickle.dumps(log)), copy.deepcopy(log), copy.copy(log)):
        assert copied == log
        assert copied.game.deck.category_of("Rope") is log.game.deck.category_of("Rope")
    game = Game(Deck(("Plum",), ("Rope",), ("Hall",)), (Player("Ann", 0),), extra={"x": [1]})
    assert pickle.loads(pickle.dumps(GameLog(game))).game.extra == {"x": [1]}
