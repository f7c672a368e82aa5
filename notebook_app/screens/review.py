"""The Review screen: step through the game event by event, the grid as it was then (tap a
cell to see why it was so), and how the possible envelopes shrank."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd
import streamlit as st

from solver.game import Accusation
from solver.i18n import _

from .. import reader
from ..colours import CHART_AXIS, Scheme, scheme
from ..grid_view import verdict
from ..plain import plain
from ..session import button, live, say_in_address, unset
from ..turns import describe
from .grid import show_grid

state = st.session_state


def shown_step(count: int) -> int:
    """The event the Review shows the grid after: the player's step (``review_at``, kept in a
    key of our own, since Streamlit drops the slider's value in a run that does not draw it),
    else the latest event. A step at the end follows the end: a turn recorded since shows."""
    at = state.get("review_at")
    return count if at is None or not 0 <= at < count else int(at)


def keep_step(upto: int, count: int) -> None:
    state.review_at = None if upto >= count else upto


def mark_step() -> None:
    """Say in the address (``&step=<n>``) which event the Review shows the grid after, while it
    is not the latest: a reload, or a page that reconnects after a server restart, opens the
    game in a new session, which takes the step from there (`session.open_game`)."""
    say_in_address("step", state.get("review_at"))


def step(delta: int) -> None:
    count = len(live().log.events)
    upto = max(0, min(count, shown_step(count) + delta))
    keep_step(upto, count)
    state.review_step = upto  # the slider follows


def review_view() -> None:
    events = live().log.events
    count = len(events)
    upto = shown_step(count)
    if count:
        slider = state.get("review_step")
        moved = slider is not None and slider != state.get("review_drawn")  # by the player
        if not moved and slider != upto and unset("review_step"):  # (`session.browser_sent`:
            state.review_step = upto  # the step a reconnected page's slider sent is kept)
        st.slider(_("After event"), 0, count, value=upto,  # also its default: what it shows
                  key="review_step")  # if drawn late (see `home.derived_key`)
        upto = state.review_drawn = max(0, min(count, int(state.review_step)))
        keep_step(upto, count)
    with st.container(horizontal=True):
        button(_("Back"), key="review_back", on_click=step, args=(-1,),
                  icon=":material/chevron_left:")
        button(_("Next"), key="review_next", on_click=step, args=(1,),
                  icon=":material/chevron_right:")
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
    st.html(reader.heading(heading, 3))
    with st.container(key="envelope_chart"):
        st.altair_chart(envelope_chart(counts, heading, upto,
                                       scheme(st.context.theme.type)), width="stretch")
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


def envelope_chart(counts: Sequence[int], heading: str, upto: int,
                   colours: Scheme = "light") -> alt.LayerChart:
    """The count of possible envelopes after each event as a line, the step shown (``upto``)
    marked by a dashed rule and a dot on the line: unmarked, the chart did not say where in the
    game the grid above stood. Every word on it (axis titles, the tooltip, the description a
    screen reader says) from the catalog, none of Vega's English descriptions of marks and axes.
    The heading says what is counted, so the axis titles stay short (a long one is cut off).
    The event axis ends at the last event (Vega's rounding ran it to 24 after 23 events).
    The axes' words and the dashed rule are `CHART_AXIS`'s in the page's colour scheme
    (``colours``): Streamlit's theme drew the words at 3.72:1 in light, and the rule (its own
    dark grey, faded) at 1.12:1 on the dark ground, unseen."""
    st.html(CHART_CSS)
    event, envelopes = _("event"), _("envelopes")
    data = pd.DataFrame({"event": range(len(counts)), "envelopes": counts})
    here = data.iloc[[upto]]
    x = alt.X("event:Q", title=event, axis=alt.Axis(tickMinStep=1, format="d"),
              scale=alt.Scale(domain=[0, max(1, len(counts) - 1)], nice=False))
    y = alt.Y("envelopes:Q", title=envelopes)
    tooltip = [alt.Tooltip("event:Q", title=event), alt.Tooltip("envelopes:Q", title=envelopes)]
    line = alt.Chart(data).mark_line().encode(x=x, y=y, tooltip=tooltip)
    rule = alt.Chart(here).mark_rule(strokeDash=[4, 3], color=CHART_AXIS[colours]).encode(x=x)
    dot = alt.Chart(here).mark_point(filled=True, size=90, opacity=1).encode(x=x, y=y,
                                                                             tooltip=tooltip)
    chart: alt.LayerChart = alt.layer(line, rule, dot).properties(
        description=heading, height=180).configure(aria=False).configure_axis(
            labelColor=CHART_AXIS[colours], titleColor=CHART_AXIS[colours])
    return chart
