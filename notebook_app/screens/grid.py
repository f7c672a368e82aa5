"""The Grid screen: every card against every owner (tap a cell to see why, in a dialog over the
grid), with the odds; and `show_grid`, the table the Review screen shows too."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from solver.i18n import _
from solver.notebook import Grid

from ..grid_view import (
    CELL_WIDTH,
    as_markdown,
    card_column_width,
    cell_at,
    column_labels,
    grid_styles,
    grid_table,
    likeliest,
)
from ..plain import plain
from ..session import live

state = st.session_state


def show_grid(grid: Grid, key: str | None = None,
              on_select: Callable[[], None] | None = None,
              odds: dict[str, dict[str, float]] | None = None) -> None:
    table = grid_table(grid, odds)
    styles = grid_styles(grid)
    styles.index, styles.columns = table.index, table.columns
    config = {"_index": st.column_config.TextColumn(_("Card"), width=card_column_width(grid))}
    for label in table.columns:
        config[label] = st.column_config.TextColumn(label, width=CELL_WIDTH)
    styled = table.style.apply(lambda _: styles, axis=None)
    if key is None or on_select is None:
        st.dataframe(styled, height="content", row_height=28, column_config=config)
    else:
        st.dataframe(styled, height="content", row_height=28, column_config=config, key=key,
                     on_select=on_select, selection_mode="single-cell")


def tapped_cell(key: str, grid: Grid) -> tuple[str, str] | None:
    """The card and owner of the cell tapped in the table ``key`` showing ``grid``, if any."""
    selection = state[key].selection
    cells = selection.get("cells", []) if isinstance(selection, dict) else selection.cells
    if not cells:
        return None
    row, label = cells[0]
    labels = list(column_labels(grid).values())
    column = labels.index(label) if label in labels else -1
    return cell_at(grid, int(row), column)


def on_grid_select() -> None:
    cell = tapped_cell("grid_table", live().grid()[0])
    if cell is None:
        state.pop("explain_cell", None)
    else:
        state.explain_cell = cell


def grid_view() -> None:
    grid = live().grid()[0]
    chances = live().odds() if state.get("show_odds", True) else None
    st.caption(_("✓ holds it · ✗ does not · % chance. Tap a cell to see why.") if chances
               else _("✓ holds it · ✗ does not · ? maybe. Tap a cell to see why."))
    show_grid(grid, key="grid_table", on_select=on_grid_select,
              odds=None if chances is None else chances.probabilities)
    if chances is not None and not grid.accusation_safe:
        text = likeliest(chances.envelopes)
        if text and not chances.exact:
            text += " " + _("(Estimated by sampling.)")
        if text:
            st.caption(plain(text))
    st.toggle(_("Show odds"), key="show_odds", value=True)
    cell = state.pop("explain_cell", None)
    if cell is not None:
        explain(*cell)


@st.dialog("Why?", width="small")
def explain(card: str, owner: str, upto: int | None = None) -> None:
    """A cell's explanation over the grid, where the player is looking (it opens once per tap:
    closing it or any other tap leaves the grid as it was); ``upto``: of the grid after that
    many events (Review)."""
    text = live().explain(card, owner) if upto is None else live().explain_at(upto, card, owner)
    st.markdown(as_markdown(text))
