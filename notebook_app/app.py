"""Clue Notebook, the app: ``streamlit run notebook_app/app.py``.

The entry point: it matches the session to the URL and the database, then draws one screen.
Each screen is a module of `notebook_app.screens` (``home``; for an open game ``play``, whose
tabs are ``turn``, ``grid``, ``log``, ``review`` and ``game``). The state of a session (the open
game, saving, following other screens' changes) is in `notebook_app.session`, the entry form's
logic in `notebook_app.entry`, turn logic in `notebook_app.turns`, the grid table in
`notebook_app.grid_view`, solvers in `notebook_app.live`, the database in `notebook_app.store`.
Every change goes through a callback that saves the new log at once; state per user lives in
``st.session_state`` only.
"""

from __future__ import annotations

import logging

import streamlit as st

from notebook_app import connection
from notebook_app.colours import page_colours, scheme
from notebook_app.language import choose, screen_reader_words, streamlit_words, switcher
from notebook_app.odds_count import drawing, one_wait
from notebook_app.plain import plain
from notebook_app.screens.home import home_screen
from notebook_app.screens.play import play_screen
from notebook_app.session import drop_stopped, sync, take_unseen_tap
from notebook_app.tap_targets import TAP_TARGETS
from solver.i18n import N_, _
from solver.limits import Stopped
from solver.odds import warm

# (No bare strings at module level here: Streamlit would print them.)
# PHONE_CSS: on a phone narrower than 400 px (360 px is common on Android) the switches' segments
# (language, screen, kind of entry) take less padding, so each keeps to one row in every
# language down to 320 px: at 16 px a side, Finnish and Russian wrapped at 360. A caption is
# faded less than Streamlit's 0.6, which gave 3.89:1 on white: 0.7 gives 5.1:1, over WCAG's
# 4.5:1 for small text (tests/test_browser_contrast.py). What a finger taps is sized in
# `notebook_app.tap_targets`.
SCROLL_TOP = """<script>
document.querySelector('[data-testid="stMain"]')?.scrollTo(0, 0);
</script>"""
PHONE_CSS = """<style>
.block-container {padding-top: 2.2rem; padding-left: 0.7rem; padding-right: 0.7rem;}
[data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"] {gap: 0.55rem;}
[data-testid="stButtonGroup"] [data-testid="stWidgetLabel"] {margin-bottom: 0.1rem;}
[data-testid="stAlert"] > div {padding: 0.55rem 0.9rem;}
.stApp [data-testid="stCaptionContainer"] {opacity: 0.7;}
@media (max-width: 400px) {[data-testid="stButtonGroup"] button[data-variant="segmented_control"] {
  padding-left: 0.55rem; padding-right: 0.55rem;}}
.st-key-log button {justify-content: flex-start; text-align: left; padding: 0.3rem 0.2rem;
  border-bottom: 1px solid var(--clue-rule); border-radius: 0;}
.st-key-log button > div, .st-key-log button [data-testid="stMarkdownContainer"] {width: 100%;
  justify-content: flex-start; text-align: left;}
.st-key-log button p {font-size: 0.92rem; text-align: left;}
.st-key-saved_games button {justify-content: flex-start; text-align: left;}
.st-key-saved_games button > div, .st-key-saved_games button [data-testid="stMarkdownContainer"] {
  min-width: 0; justify-content: flex-start; text-align: left;}
.st-key-saved_games button [data-testid="stMarkdownContainer"] {flex: 1;}
.st-key-saved_games button p {white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
  text-align: left;}
.st-key-undo button p {display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2;
  line-clamp: 2; overflow: hidden; overflow-wrap: anywhere;}
</style>"""
STEADY_CHIPS = """<script>
(() => {
  if (window.clueSteadyChips) return;
  window.clueSteadyChips = true;
  let pressing = false;
  for (const [type, down] of [['pointerdown', true], ['pointerup', false],
                              ['pointercancel', false], ['keydown', false],
                              ['mousedown', true], ['click', false]])
    document.addEventListener(type, () => { pressing = down; }, true);
  const focus = HTMLElement.prototype.focus;
  HTMLElement.prototype.focus = function (options) {
    const chip = pressing && this.closest?.('[data-testid="stButtonGroup"]');
    return focus.call(this, chip ? {...options, preventScroll: true} : options);
  };
})();
</script>"""
"""A row of chips (Streamlit's button group, react-aria's toolbar) hands the focus to the chip
focused last whenever focus comes in from outside the row. On a tap that chip may be off the
screen, and the browser's scroll to it moved the page under the finger: the tap was lost (a
chip low on the screen, its row's last-focused chip below it). While a pointer is down, focus
moves within a chip row without scrolling; keys still scroll to what they focus. A finger's tap
focuses later, on the mouse events the browser makes after it (pointerup, then mousedown, then
click): until 2026-12-04 the press ended at pointerup, so on a touch phone the row still scrolled
to its last-focused chip between the finger lifting and the click, which landed elsewhere (a
12-player forum game: 5 of 228 chip taps lost); now mousedown presses too, until the click."""

TROUBLE = N_("Something went wrong on the server while drawing this page. Every entry that was "
           "saved is kept. Reload the page; if this happens again, export the game from the Game "
           "tab and report the problem with it.")
"""What a user sees when drawing a page fails; the details go to the server's log only (the
server runs with ``client.showErrorDetails = "none"``, so errors in callbacks show no details
either)."""

state = st.session_state
logger = logging.getLogger("notebook_app")


def show_flash() -> None:
    """Errors at the top, where the page opens; what was done ("Recorded event 5") goes to the
    open game's status line under the tabs (`notebook_app.screens.play`): a toast would cover
    the verdict the player wants to read right then."""
    done = []
    for kind, text in state.pop("flash", []):
        if kind == "error":
            st.error(plain(text), icon=":material/warning:")
        else:
            done.append(text)
    redrawn = state.pop("redrawn", False)
    if redrawn and not done:  # a note's look drew the page again, not a tap: what was just
        done = state.get("done_shown", [])  # done stays ("Undid: …" went with the race line)
    state.done_notes = done


def main() -> None:
    st.set_page_config(page_title="Clue Notebook", page_icon=":mag:", layout="centered")
    colours = page_colours(scheme(st.context.theme.type), connection.RECONNECTED)
    st.html(PHONE_CSS + TAP_TARGETS + STEADY_CHIPS + colours, unsafe_allow_javascript=True)
    try:
        warm.start()  # the compiled odds, once per server, in a process of their own
        with drawing(), one_wait():  # the work beside gives way; the run waits once for it
            draw()
    except Stopped:  # the session ended mid-computation: nobody waits for this page
        drop_stopped()  # (in a fragment or a dialog: `stoppable`)
    except Exception:  # the error boundary: a message for the user, the traceback for the log
        logger.exception("drawing the page failed")
        st.error(_(TROUBLE), icon=":material/error:")


def draw() -> None:
    take_unseen_tap()  # (a page's first tap after a server restart: `session.button`)
    choose()
    streamlit_words()
    screen_reader_words()
    switcher()
    sync()
    show_flash()
    if "live" in state:
        play_screen()
    else:
        home_screen()
    if state.pop("scroll_top", False):
        st.html(SCROLL_TOP, unsafe_allow_javascript=True)
    connection.watch()  # (last: a script alone, drawn below the screen)


main()
