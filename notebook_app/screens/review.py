"""The Review screen: step through the game event by event, the grid as it was then (tap a
cell to see why it was so), and how the possible envelopes shrank."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd
import streamlit as st

from solver.game import Accusation
from solver.i18n import _

from ..grid_view import verdict
from ..plain import plain
from ..session import live
from ..turns import describe
from .grid import show_grid

state = st.session_state


def step(delta: int) -> None:
    count = len(live().log.events)
    state.review_step = max(0, min(count, int(state.get("review_step", count)) + delta))


def review_view() -> None:
    events = live().log.events
    count = len(events)
    if state.get("review_step") is None or state.review_step > count:
        state.review_step = count
    if count:
        st.slider(_("After event"), 0, count, value=int(state.review_step),  # also its default:
                  key="review_step")  # what it shows if drawn late (see `home.derived_key`)
    with st.container(horizontal=True):
        st.button(_("Back"), key="review_back", on_click=step, args=(-1,),
                  icon=":material/chevron_left:")
        st.button(_("Next"), key="review_next", on_click=step, args=(1,),
                  icon=":material/chevron_right:")
    upto = int(state.review_step)
    st.markdown(f"**#{upto}** {plain(describe(events[upto - 1]))}" if upto
                else _("Before the first event"))
    grid = live().grid_at(upto)
    counts = live().counts
    if grid is None:
        st.error(_("The events up to here contradict each other."))
    else:
        st.caption(plain(verdict(grid, counts[upto]))
                   + " · " + _("Tap a cell to see why, as of this event."))
        show_grid(grid, "review_table", upto=upto)
    heading = _("Possible envelopes after each event")
    st.markdown("**" + heading + "**")
    with st.container(key="envelope_chart"):
        st.altair_chart(envelope_chart(counts, heading), width="stretch")
    safe = next((i for i, n in enumerate(counts) if n == 1), None)
    if safe is None:
        st.write(_("An accusation has not been safe yet."))
    elif safe == 0:
        st.write(_("An accusation was safe from the start."))
    else:
        st.markdown(plain(_("An accusation was safe after event #{n}: {entry}").format(
            n=safe, entry=describe(events[safe - 1]))))
    accusations = [(i, e) for i, e in enumerate(events, 1) if isinstance(e, Accusation)]
    for number, accusation in accusations:
        st.markdown(plain(f"#{number}: {describe(accusation)}"))


CHART_CSS = ("<style>.st-key-envelope_chart [data-testid='stElementToolbar'] {display: none;}"
             "</style>")
"""The chart's toolbar (show data, download, full screen) speaks English only and a player needs
none of it."""


def envelope_chart(counts: Sequence[int], heading: str) -> alt.Chart:
    """The count of possible envelopes after each event as a line; every word on it (axis titles,
    the tooltip, the description a screen reader says) from the catalog, none of Vega's English
    descriptions of marks and axes. The heading says what is counted, so the axis titles stay
    short (a long one is cut off)."""
    st.html(CHART_CSS)
    event, envelopes = _("event"), _("envelopes")
    data = pd.DataFrame({"event": range(len(counts)), "envelopes": counts})
    chart: alt.Chart = alt.Chart(data, description=heading, height=180).mark_line().encode(
        x=alt.X("event:Q", title=event, axis=alt.Axis(tickMinStep=1, format="d")),
        y=alt.Y("envelopes:Q", title=envelopes),
        tooltip=[alt.Tooltip("event:Q", title=event), alt.Tooltip("envelopes:Q", title=envelopes)],
    ).configure(aria=False)
    return chart
