"""The grid table's owner labels."""

from __future__ import annotations

import pytest

from notebook_app.grid_view import column_labels, grid_styles, grid_table
from solver.cards import Deck
from solver.game import Game, Player
from solver.notebook import Notebook


@pytest.mark.parametrize(
    ("names", "side"),
    [(("Enver", "Bob"), 0), (("Env", "Envy", "Bob"), 0), (("Sideshow Bob", "Side"), 2)],
)
def test_bug_player_named_like_envelope_or_side_column(names: tuple[str, ...], side: int) -> None:
    """A player called "Enver" got the label "Env", the envelope's: the styled table had two
    columns of one name and pandas refused to draw it (and a tap picked the wrong column)."""
    deck = Deck(("S1", "S2", "S3"), ("W1", "W2"), ("R1", "R2", "R3"))
    dealt = len(deck) - 3 - side
    sizes = [dealt // len(names) + (i < dealt % len(names)) for i in range(len(names))]
    game = Game(deck, tuple(Player(n, s) for n, s in zip(names, sizes, strict=True)),
                side_cards=side)
    with Notebook(game) as notebook:
        grid = notebook.grid()
    labels = column_labels(grid)
    assert len(set(labels.values())) == len(labels) == len(game.owners)
    table = grid_table(grid)
    styles = grid_styles(grid)
    styles.index, styles.columns = table.index, table.columns  # as the app draws it
    table.style.apply(lambda _: styles, axis=None).to_html()
