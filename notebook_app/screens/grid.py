"""The Grid screen: every card against every owner, with the odds; tap a cell and a dialog says
why. `show_grid` is the table the Review screen shows (and explains) too."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import streamlit as st

from solver.game import ENVELOPE
from solver.i18n import _
from solver.notebook import Grid, Knowledge

from ..choices import chosen
from ..colours import PALETTES, scheme
from ..grid_view import (
    FACE_UP,
    OWNERS_IN_SIGHT,
    PHONE_TABLE,
    as_markdown,
    card_width_beside,
    cell_at,
    column_labels,
    grid_styles,
    grid_table,
    likeliest,
    odds_basis,
    owner_order,
    owner_widths,
    unfaded,
)
from ..plain import plain
from ..reader import READER_GRID, grid_table_html
from ..session import can_edit, ignore_stale_widgets, live, stoppable

state = st.session_state

PLAIN_GRID = """<style>
.st-key-notebook_grid [data-testid="stElementToolbar"], .st-key-notebook_grid .gdg-search-bar
  {display: none;}
.st-key-notebook_grid [data-testid="stDataFrameResizable"] > .stDataFrameGlideDataEditor::before
  {content: ""; position: absolute; left: 0; right: 0; top: 0; height: 36px; z-index: 3;}
</style>"""
"""The grid as a notebook page, not a spreadsheet. Streamlit gives every table a toolbar (show or
hide columns, download, search, full screen) and a column menu on a tap of a header (sort, pin,
hide, autosize, statistics), all in English and none turned off by an option (Streamlit 1.67).
The player needs none of them: sorting would scatter a category's cards under the other
headings, the Game tab exports the game, and a hidden column hides a player. So the toolbar and
the search box are not shown, and a shield over the header row (36 px in Streamlit's tables)
takes the taps meant for the menu; the cells below stay tappable."""
GRID_TAPS = """<script>
(() => {
  if (window.clueGridTaps) return;
  window.clueGridTaps = true;
  document.documentElement.addEventListener('pointermove', event => {
    if (!event.buttons && !event.target.closest?.('[data-testid="stDataFrame"]'))
      event.stopPropagation();  // before the table's listener on the document
  });
  const scrollers = '.st-key-notebook_grid .dvn-scroller';
  let kept = null;  // the grid's sideways scroll and the width it scrolls over
  document.addEventListener('scroll', event => {
    if (event.target.clueKept && event.target.matches?.(scrollers))
      kept = [event.target.scrollLeft, event.target.scrollWidth];
  }, true);
  const putBack = (scroller, frames) => {
    if (kept !== null && scroller.scrollWidth === kept[1]) scroller.scrollLeft = kept[0];
    else if (kept !== null && frames > 0) return requestAnimationFrame(() =>
      putBack(scroller, frames - 1));  // not laid out yet, or another table: wait a second
    scroller.clueKept = true;
  };
  const drawn = '.st-key-notebook_grid [data-testid="stDataFrame"], .st-key-grid_swipe';
  const hide = () => {  // read from the table beside it, unless keys brought the focus here
    for (const seen of document.querySelectorAll(drawn)) {
      const hidden = !seen.contains(document.activeElement);
      if ((seen.getAttribute('aria-hidden') === 'true') !== hidden)
        hidden ? seen.setAttribute('aria-hidden', 'true') : seen.removeAttribute('aria-hidden');
    }
  };
  new MutationObserver(() => {
    for (const scroller of document.querySelectorAll(scrollers))
      if (!scroller.clueSeen) { scroller.clueSeen = true; putBack(scroller, 60); }
    hide();
  }).observe(document.body, {childList: true, subtree: true});
  document.addEventListener('focusin', hide);
  document.addEventListener('focusout', () => setTimeout(hide));
})();
</script>"""
"""The grid takes the first tap after the pointer was elsewhere, and a table drawn anew keeps
the sideways scroll of the one before.

Streamlit's table (1.67, ``DataFrame.tsx``) takes a selection only while it believes the
pointer is over it (``isFocused``, from Glide's hover callback; on a touch screen, ``(pointer:
coarse)``, always): a guard against its own editors' pop-ups selecting a cell. Any pointer move
outside the table (a tap on Show odds, on Back, on a dialog's close) marks it unfocused, and a
tap that comes without a hover first (a fine pointer's click sent at once, a finger on a
laptop's screen) only marks it focused again: the tap went unseen, the second acted. A new key
mounts a new table, focused, which is why one per tap seemed to help, but it scrolls back to
its first column. The grid has no editors, so pointer moves outside any table, with no button
pressed, are kept from the table's listener (Glide listens on the document; this one is on the
page's root, before it). A table still gets a new key after each tap (tapping the same cell
again) and each step of the Review: its sideways scroll, remembered as the player scrolls, is
put back where the new table is as wide. The cost, with a mouse only: the row last hovered keeps
its faint tint (2 of 255 levels) once the pointer has left the table.

Screen readers are not given the drawn table (a canvas, whose cells Streamlit hands them only
once focused, each a bare "✓", the card a cell like the others) nor the hint to swipe it, but
the table in words beside it (`notebook_app.reader.grid_table_html`), except while the focus is
in the drawn table: a key (Tab) moves it there, not to the table in words (its cells take no Tab
stop), and a reader on a hidden element with the focus said nothing."""
SWIPE_HINT = """<style>
.st-key-notebook_grid {container-type: inline-size;}
@container (min-width: WIDEpx) {.st-key-grid_swipe {display: none;}}
</style>"""
"""`swipe_hint` shown only while the grid's container is narrower than the table (``WIDE``)."""
TABLE_BORDERS = 1.5
"""Pixels the grid's container takes beyond its columns where the table does not scroll: its
border, a pixel each side, less half a pixel, as the table scrolls only where its columns are
wider than its scroller's width in whole pixels. At 390 px the container is 367.6 px, its
scroller 365.6, counted as 366: a table of 366 px (`PHONE_TABLE`, the Russian box at five
players in Russian) does not scroll; with 2 here the hint said it did."""


CARDS = "_cards"
"""The card names' column of the drawn grid. Not the table's index, which Streamlit pins and
draws faded with no colour of ours, 3.89:1 on white (a11y audit): a pinned column of our own,
its text darkened to read 5.7:1 (`unfaded`); the index stays the cards, hidden. Longer than any
owner's label (`notebook_app.grid_view.column_labels`), so never taken for one."""


def show_grid(grid: Grid, name: str, odds: dict[str, dict[str, float]] | None = None,
              upto: int | None = None) -> None:
    """The grid as a table; tapping a cell explains it (after the first ``upto`` events, or
    after all of them). ``name`` keeps the selections of different screens apart."""
    table = grid_table(grid, odds)
    palette = PALETTES[scheme(st.context.theme.type)]
    styles = grid_styles(grid, palette)
    styles.index, styles.columns = table.index, table.columns
    widths = owner_widths(table)
    names = card_width_beside(grid, widths)
    table.insert(0, CARDS, table.index)  # the names as a column, its colours ours (`CARDS`)
    styles.insert(0, CARDS, unfaded(palette.card))
    config = {CARDS: st.column_config.TextColumn(_("Card"), width=names, pinned=True)}
    for label, width in widths.items():
        config[label] = st.column_config.TextColumn(label, width=width)
    order = None
    wide = names + sum(widths.values())
    if wide > PHONE_TABLE:  # the owners scroll sideways: the envelope's column first, mine last
        envelope = column_labels(grid)[ENVELOPE]
        order = [CARDS, *owner_order(grid)]
        if len(grid.owners) > OWNERS_IN_SIGHT:  # more owners than a phone shows: it stays
            # beside the names (Streamlit draws a pinned column's text faded: `unfaded`)
            config[envelope] = st.column_config.TextColumn(envelope, width=widths[envelope],
                                                           pinned=True)
            styles[envelope] = styles[envelope].map(unfaded)
    styled = table.style.apply(lambda _: styles, axis=None)
    # A new key after every tap clears the selection, so tapping the same cell again explains
    # it again, and one for every step of the Review; the sideways scroll is put back
    # (`GRID_TAPS`). A table drawn again otherwise keeps its key, and its scroll.
    key = f"{name}_{'' if upto is None else upto}_{state.get('grid_taps', 0)}"
    st.html(PLAIN_GRID + GRID_TAPS, unsafe_allow_javascript=True)
    with st.container(key="notebook_grid"):
        reader_key = f"{name}_reader_{'' if upto is None else upto}"
        READER_GRID(key=reader_key, data=grid_table_html(grid, odds),
                    on_cell_change=partial(on_reader_tap, reader_key, upto))
        swipe_hint(wide, mine_last=grid.game.me if order is not None else None)
        st.dataframe(styled, height="content", row_height=28, column_config=config, key=key,
                     column_order=order, hide_index=True,
                     on_select=partial(on_cell_tap, key, upto), selection_mode="single-cell")
    tapped = state.get("explain_cell")
    if tapped is not None and len(tapped) == 3 and tapped[2] == upto:
        explanation_dialog(tapped[0], tapped[1], upto)
    elif tapped is not None:  # another step's (the Review moved on): not this grid's
        state.pop("explain_cell", None)


def swipe_hint(wide: int, *, mine_last: str | None) -> None:
    """Above a table ``wide`` pixels wide, where it is wider than the screen shows (a CSS
    container query on the grid's own width: a phone's, not a desktop's), that more players
    are to the right, a swipe away, and, where my column is last (``mine_last``, my name:
    `owner_order`), that it is (named, to a read link's reader): a 5-6 player table with long
    card names scrolled by a column or two and nothing said so."""
    st.html(SWIPE_HINT.replace("WIDE", str(wide + TABLE_BORDERS)))
    if mine_last is None:
        hint = _("More players to the right: swipe the table.")
    elif can_edit():
        hint = _("More players to the right, your own column last: swipe the table.")
    else:
        hint = _("More players to the right, {player}'s column last: swipe the table.").format(
            player=plain(mine_last))
    with st.container(key="grid_swipe"):
        st.caption(":material/swipe_left: " + hint)


def on_cell_tap(key: str, upto: int | None) -> None:
    selection = state[key].selection
    cells = selection.get("cells", []) if isinstance(selection, dict) else selection.cells
    state.grid_taps = state.get("grid_taps", 0) + 1
    if not cells:
        return
    row, label = cells[0]
    grid = live().grid()[0] if upto is None else live().grid_at(upto)
    if grid is None:
        return
    labels = list(column_labels(grid).values())
    column = labels.index(label) if label in labels else -1
    cell = cell_at(grid, int(row), column)
    if cell is not None:
        state.explain_cell = (*cell, upto)


def on_reader_tap(key: str, upto: int | None) -> None:
    """A screen reader pressed a cell of the grid's table in words: explained as a tap on the
    drawn grid is (`on_cell_tap`)."""
    cell = state[key].cell
    grid = live().grid()[0] if upto is None else live().grid_at(upto)
    if grid is None or not isinstance(cell, list) or len(cell) != 2:
        return
    card, owner = cell
    if card in grid.game.deck and owner in grid.owners:
        state.explain_cell = (card, owner, upto)


def explanation_dialog(card: str, owner: str, upto: int | None) -> None:
    """A dialog explaining the tapped cell (titled in the session's language, so made per
    run); only that cell is derived, not the rest of the grid. The cell stays in the session
    (``explain_cell``) until the player closes the dialog (`explained`): a run that draws the
    page again draws it again, so it stays open where it closed before: the run the page asks
    for once it has reconnected after the network dropped (`notebook_app.connection`). While
    the odds are counted or the race line weighed the page is not drawn again when they
    arrive, only once the dialog is closed; so, on a read link, when the game moves on
    (`session.reader_behind`)."""
    from .play import race_weighing

    waiting = ((upto is None and state.get("odds_counting", False)) or race_weighing()
               or not can_edit())
    state.explaining = waiting
    st.dialog(_("Why this cell?"), on_dismiss=explained)(
        stoppable(explanation))(card, owner, upto)


def explained() -> None:
    """The player closed the cell's explanation: it is not drawn again."""
    state.explaining = False
    state.pop("explain_cell", None)


def explanation(card: str, owner: str, upto: int | None) -> None:
    addressed = can_edit()  # a reader is told the owner's name, not "you"
    text = (live().explain(card, owner, addressed=addressed) if upto is None
            else live().explain_at(upto, card, owner, addressed=addressed))
    basis = odds_basis_of(card, owner) if upto is None else None
    if basis is not None:  # under the first line, which says the cell is not known
        first, _newline, rest = text.partition("\n")
        text = "\n".join([first, basis, rest])
    with st.container(key="explanation"):
        st.markdown(as_markdown(text))


def odds_basis_of(card: str, owner: str) -> str | None:
    """What the percentage the Grid shows in a cell is based on (`odds_basis`); ``None`` where
    it shows none (a known cell, the odds off or still counted)."""
    if not odds_on() or not live().odds_counted():
        return None
    chances = live().odds()
    grid = live().grid()[0]
    if (chances is None or grid[card, owner] is not Knowledge.MAYBE
            or card in grid.game.face_up):
        return None
    error = None if chances.error is None else chances.error[card][owner]
    return odds_basis(chances.probabilities[card][owner], chances.deals, error)


ODDS_WAIT = 0.3
"""Seconds a run waits for the odds before it draws the grid without them (within the run's one
wait for all the work beside it, `notebook_app.odds_count.RUN_WAIT`): a classic game's are
counted in tens of milliseconds and show at once, with no "counting" note flashing by."""
ODDS_POLL = 1.0
"""Seconds between looks at odds still being counted (each look is a short run of its own)."""


def grid_view() -> None:
    grid = live().grid()[0]
    wanted = odds_on()
    counting = wanted and not live().odds_counted(wait=ODDS_WAIT)
    chances = live().odds() if wanted and not counting else None
    state.odds_counting, state.explaining = counting, False
    if counting:  # the deductions now, the odds when counted
        st.fragment(stoppable(counting_note), run_every=ODDS_POLL)()
    else:
        # "% probability", not "% chance": "% c" reads as a format directive (msgfmt --check);
        # named: the Likeliest line under the table may weigh deals as players play
        st.caption((_("✓ holds it · ✗ does not · % probability if every deal that fits the log "
                      "is equally likely. Tap a cell to see why.")
                    if chances else
                    _("✓ holds it · ✗ does not · ? maybe. Tap a cell to see why.")) + face_up_key())
    show_grid(grid, "grid_table", odds=None if chances is None else chances.probabilities)
    if chances is not None and not grid.accusation_safe:
        weighed = weighed_envelopes(grid)
        text = likeliest(chances.envelopes if weighed is None else weighed,
                         weighed=weighed is not None)
        if text and weighed is None and not chances.exact:
            text += " " + _("(Estimated by sampling.)")
        if text:
            st.caption(plain(text))
    if st.toggle(_("Show odds"), key="show_odds", value=wanted,
                 on_change=keep_odds_choice) != wanted:  # a reconnected page's toggle, sent
        keep_odds_choice()  # with its first tap to a new session, no callback called
        st.rerun()  # (`notebook_app.session.browser_sent`): the grid as the toggle says


def weighed_envelopes(grid: Grid) -> list[tuple[str, str, str, float]] | None:
    """The envelopes still possible, likeliest first, with their chances as the header's race
    line and the accusation form weigh them (`turn.race_chances`: players seldom bluff, and
    accuse once they know), once the line has drawn them for this log; ``None`` before, and
    where the line weighs no accusation of mine (a spectator, a reader, me out of the game).
    The Likeliest line said "tied at 35% each: …, Conservatory · …, Lounge" under the line's
    "Accuse now: …, Conservatory: right 61% if players seldom bluff", of which Lounge was <1%:
    one envelope, two chances (a 3-player phone play-through)."""
    from .turn import race_chances

    drawn = state.get("race_drawn")
    if drawn is None or drawn[0] != live().log or drawn[1].play is None:
        return None
    chances = race_chances(grid)
    if chances is None:
        return None
    ranked = sorted(chances.items(), key=lambda item: -item[1][0])  # ties: the count's order
    return [(s, w, r, p) for (s, w, r), (p, _error) in ranked]


def face_up_key() -> str:
    """What the face-up cards' rows show, where the game has any (the legend said nothing of
    their ▲)."""
    if "live" not in state or not live().log.game.face_up:
        return ""
    return " " + _("{mark} face up: nobody holds it.").format(mark=FACE_UP)


def odds_on() -> bool:
    """Whether the player wants the odds on the Grid (they do until they turn them off; the
    choice is kept, `notebook_app.choices`)."""
    return chosen("odds_on")


def keep_odds_choice() -> None:
    state.odds_on = state.show_odds


def counting_note() -> None:
    """The caption while the odds are counted, drawn again every `ODDS_POLL` seconds; once
    they are counted (or the game has changed) the page is drawn again, with them (after the
    player has closed the explanation they are reading)."""
    working_note(_("✓ holds it · ✗ does not · ? maybe. Counting the odds…") + face_up_key(),
                 "live" not in state or (live().odds_counted() and not state.get("explaining")))


def working_note(text: str, ready: bool, box: Callable[[str], object] | None = None) -> None:
    """In a fragment that looks again now and then: draw the whole page again when ``ready``
    (what was worked out beside the runs can show), else ``text`` after an hourglass in a
    caption, or with one after it in ``box`` (an alert takes an icon before its text as its own,
    drawn apart) (the browser tests wait while one shows: `tests.phone.WORKING`). The widgets'
    values the browser sent with this look may be older than the screen
    (`ignore_stale_widgets`)."""
    ignore_stale_widgets()
    if ready:
        state.redrawn = True  # not a tap: the status line keeps what was just done
        st.rerun()
    if box is None:
        st.caption(":material/hourglass_top: " + text)
    else:
        box(text + " :material/hourglass_top:")
