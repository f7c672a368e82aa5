"""The Grid screen: every card against every owner (tap a cell to see why), with the odds; and
`show_grid`, the table the Review screen shows too."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from solver.notebook import Grid

from ..grid_view import as_markdown, cell_at, column_labels, grid_styles, grid_table, percent
from ..plain import plain
from ..session import live

state = st.session_state


def show_grid(grid: Grid, key: str | None = None,
              on_select: Callable[[], None] | None = None,
              odds: dict[str, dict[str, float]] | None = None) -> None:
    table = grid_table(grid, odds)
    styles = grid_styles(grid)
    styles.index, styles.columns = table.index, table.columns
    config = {"_index": st.column_config.TextColumn("Card", width=104)}
    for label in table.columns:
        config[label] = st.column_config.TextColumn(label, width=36)
    styled = table.style.apply(lambda _: styles, axis=None)
    if key is None or on_select is None:
        st.dataframe(styled, height="content", row_height=28, column_config=config)
    else:
        st.dataframe(styled, height="content", row_height=28, column_config=config, key=key,
                     on_select=on_select, selection_mode="single-cell")


def on_grid_select() -> None:
    selection = state["grid_table"].selection
    cells = selection.get("cells", []) if isinstance(selection, dict) else selection.cells
    if not cells:
        state.pop("explain_cell", None)
        return
    row, label = cells[0]
    grid, _ = live().grid()
    labels = list(column_labels(grid).values())
    column = labels.index(label) if label in labels else -1
    state.explain_cell = cell_at(grid, int(row), column)


def grid_view() -> None:
    grid, _ = live().grid()
    chances = live().odds() if state.get("show_odds", True) else None
    maybe = "% chance" if chances is not None else "? maybe"
    st.caption(f"✓ holds it · ✗ does not · {maybe}. Tap a cell to see why.")
    show_grid(grid, key="grid_table", on_select=on_grid_select,
              odds=None if chances is None else chances.probabilities)
    if chances is not None and chances.likeliest is not None and not grid.accusation_safe:
        s, w, r, p = chances.likeliest
        note = "" if chances.exact else " (estimated by sampling)"
        st.caption(plain(f"Likeliest envelope: {s}, {w}, {r}: {percent(p)}{note}"))
    st.toggle("Show odds", key="show_odds", value=True)
    cell = state.get("explain_cell")
    if cell is not None:
        card, owner = cell
        text = live().explain(card, owner)
        with st.container(border=True, key="explanation"):
            st.markdown(as_markdown(text))
