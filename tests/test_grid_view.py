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


def test_a_big_decks_envelopes_under_1_percent_are_not_called_equally_likely() -> None:
    """A 45-card log at 30 events has 1,960 envelopes, each under 1% but far from alike (0.012%
    to 0.11%): rounded to whole percents they read the same and the Grid said "All 1960
    possible envelopes are equally likely"."""
    from notebook_app.grid_view import likeliest

    envelopes = [("S2", "W1", "R2", 0.0011), ("S3", "W1", "R2", 0.0011),
                 ("S4", "W1", "R2", 0.00104), *[("S5", "W2", f"R{i}", 0.00012) for i in range(50)]]
    said = likeliest(envelopes)
    assert "equally" not in said
    assert said == "Likeliest, tied at 0.11% each: S2, W1, R2 · S3, W1, R2"
