"""An open game: the header every view shares (title, verdict, envelope, contradictions,
undo) above the tabs Turn, Grid, Log, Review and Game, one module each."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING

import streamlit as st

from solver.game import GameLog
from solver.i18n import N_, Listing, Message, _, current, list_said, ngettext

from ..choices import remember_choices
from ..entry import fill_form, kind_of, next_entry, start_edit
from ..grid_view import as_markdown, ended_envelope, envelope_line, verdict
from ..history import EDITED, RECORDED, before_edit, told
from ..kept import keep_typing
from ..plain import plain
from ..reader import heading
from ..session import (
    ENTRY_KEYS,
    FOLLOW_EVERY,
    beside_for,
    button,
    can_edit,
    drop_beside,
    flash,
    form_sent,
    ignore_stale_widgets,
    live,
    lost_tap,
    mark_editing,
    reader_behind,
    remember_drawn,
    say_in_address,
    still_working,
    stoppable,
    undo_revision,
    unset,
)
from ..turns import describe, described
from .game import ASKED, game_view
from .grid import grid_view, odds_on, working_note
from .log import log_view
from .notation import show_checks
from .review import mark_step, review_view
from .seat import HAND_KEYS
from .turn import advice_first, kinds_offered, turn_view

VIEWS: dict[str, Callable[[], None]] = {
    N_("Turn"): turn_view,
    N_("Grid"): grid_view,
    N_("Log"): log_view,
    N_("Review"): review_view,
    N_("Game"): game_view,
}
"""The tabs of an open game, in order, and the function that draws each."""
READ_VIEWS = ("Grid", "Log", "Review", "Game")
"""The tabs of a game opened by its read link."""

state = st.session_state
HIDDEN_FORM = "<style>.st-key-adopted_form {display: none;}</style>"
"""The Turn form drawn out of sight (`adopt_form`)."""

if TYPE_CHECKING:
    from solver.advice import Advisor, Whom
    from solver.notebook import Grid
    from solver.race import Play, Race

    from ..odds_count import Beside


def undo() -> None:
    before = live().log.events
    undone = undo_revision()
    if undone is not None:
        next_entry()
        if live().log.events == before[:-1] and before:  # the latest entry: say which it was,
            undone = f"#{len(before)} {describe(before[-1])}"
            if kind_of(before[-1]) in kinds_offered():  # the forum's form has no round
                fill_form(before[-1])  # and it is back in the form, as before Record, to fix
        flash("done", _("Undid: {entry}").format(entry=undone))


def header() -> None:
    from solver.ending import Close, ending
    from solver.race import past_advice

    log = live().log
    grid, ignored = live().grid()
    title = log.game.title or " · ".join(log.game.player_names)
    st.html(heading(title, 1))  # the page's title, for a screen reader to start at
    # in place of advice: the game is over, or I accused wrongly; past a clash, in the entries
    # the grid keeps, as the envelope line (#70, the game's end, left out: not over there)
    past = past_advice(log, ignored, addressed=can_edit())  # a reader: the owner by name
    end = ending(log, ignored)
    if past is not None and end is not None:  # no race, no advice: who won, if anyone
        said = past.render()
        if end.close is not Close.ACCUSED:  # nobody said the envelope aloud: is it known?
            # TRANSLATORS: two sentences: how the game ended, and its envelope
            said = _("{ending} {envelope}").format(ending=said, envelope=ended_envelope(grid))
        if end.winner is None:  # nobody won: no success to show
            st.info(plain(said), icon=":material/flag:")
        else:
            st.success(plain(said), icon=":material/flag:")
    elif past is not None:  # out of the game, still showing cards: who is close to winning
        st.info(plain(past.render()), icon=":material/block:")
        if not ignored:
            race_line(log)
    elif grid.accusation_safe and ignored:  # the envelope of the entries kept, and one of the
        # clash's may be the wrong one: an early entry edited into a clash left out #27-#70
        st.warning(_("Not safe to accuse until the clash below is fixed."),
                   icon=":material/warning:")
    elif grid.accusation_safe:
        st.success(plain(verdict(grid)), icon=":material/check_circle:")
    else:
        left = None if ignored else live().envelopes_left(COUNT_WAIT)
        if not ignored and left is None:
            st.fragment(stoppable(count_note), run_every=RACE_POLL)()
        else:
            st.info(plain(verdict(grid, left)))
        if not ignored:
            race_line(log)
    st.caption(plain(_("Envelope · {cards}").format(cards=envelope_line(grid))))
    conflict_banner(ignored)
    if not can_edit():
        st.fragment(stoppable(following), run_every=FOLLOW_EVERY)()
        return
    seq, note = state.revision
    lost_tap("undo", _("Undo"))
    st.button(plain(undo_label(note, log)), key="undo", on_click=undo,
              disabled=seq <= 1, icon=":material/undo:", width="stretch")


def following() -> None:
    """The read link's caption, looked at every `FOLLOW_EVERY` seconds without a tap: the page
    is drawn again once the game has moved on (`reader_behind`). An editor's screen has no such
    timer: its form must never be disturbed. The widgets' values the browser sent with this
    look may be older than the screen (`ignore_stale_widgets`)."""
    ignore_stale_widgets()
    if reader_behind():
        state.redrawn = True  # not a tap: the status line keeps what was just done
        st.rerun(scope="app")
    st.caption(_("Read only: you follow this game; what its players record shows here within "
                 "a few seconds."))


def undone_entry(note: str, log: GameLog) -> int | None:
    """The number of the entry that undoing the revision whose note is ``note`` takes back or
    changes back, where it recorded or edited one still in ``log``."""
    said = told(note)
    n = dict(said.args).get("n")
    if said.msgid in (RECORDED, EDITED) and isinstance(n, int) and 0 < n <= len(log.events):
        return n
    return None


def undo_label(note: str, log: GameLog) -> str:
    """The Undo button's words: which entry it takes back, as the log describes it
    (`describe`), where the revision recorded one ("Undo #4: Ann: Plum, Rope, Hall → Bob showed
    a card"; the number alone did not tell a player at the table which entry they were
    undoing); after an edit, the entry as it stood before, which Undo brings back ("Undo the
    edit of #4, back to: …": the entry's new words read as what Undo would restore); else what
    the revision did ("Undo: deleted event 2"). A long entry or file name is cut to "…" at
    two lines by the browser (`notebook_app.app.PHONE_CSS`), at any width: cut here to a
    width, a Russian entry took three lines of a 360 px phone, and a wide screen lost words it
    had room for."""
    n = undone_entry(note, log)
    if n is None:
        return _("Undo: {entry}").format(entry=told(note).render())
    if told(note).msgid == RECORDED:
        return _("Undo #{n}: {entry}").format(n=n, entry=described(log, n - 1))
    was = before_edit(note, log)
    if was is None:  # an edit noted before the entry was kept with it: its new words would
        return _("Undo the edit of #{n}").format(n=n)  # read as what Undo brings back
    return _("Undo the edit of #{n}, back to: {entry}").format(n=n, entry=describe(was))


RACE_WAIT = 0.3
"""Seconds a run waits for the race line before it draws the screen without it (within the
run's one wait for all the work beside it, `notebook_app.odds_count.RUN_WAIT`): at 3-6 players
it takes a tenth of a second or two and shows at once; at 12 players, seconds."""
RACE_POLL = 1.0
"""Seconds between looks at a race line still being weighed (each look a short run)."""
LINE_KEPT = "<style>.st-key-race_kept [data-testid='stCaptionContainer'] {opacity: 0.45;}</style>"
"""Greys the race line kept while it is weighed again (`line_kept`)."""


COUNT_WAIT = 0.1
"""Seconds a run waits for the envelope count of a new log state (`live.LiveGame.envelopes_left`)
before it draws the verdict without it ("at most", from the grid) and a note (within the run's
one wait): at 3-6 players an event is counted in milliseconds; at 12, in 0.1-1.2 s."""


def count_note() -> None:
    """The verdict while the envelopes still possible are counted beside the runs: that they
    are being counted, and an hourglass, in the verdict's own box, on one line as the count
    will be (a note of its own under it, or "at most 1,040 envelopes…" and the hourglass,
    moved the form down a line and back up within a second at 390 px); looked at every
    `RACE_POLL` seconds, and once counted the page is drawn again with the exact count."""
    ready = "live" not in state or (live().count_envelopes().done()
                                    and not state.get("explaining"))
    working_note(_("Not yet: counting the possible envelopes…"), ready, st.info)


@dataclass
class Drawn:
    """What weighing a log state's race line worked out before the turns played out, kept to
    weigh it again for another question of mine (`race_line`: "Suggest for me" asked for, a
    player or a place tapped) and for my accusation's chance (`turn.race_chances`): the deals
    as players play (`solver.race.Play`, its odds) took a median 0.26 s of CPU of the line's
    0.67 at a 12-player forum table, the race 0.03, the turns played out the rest."""

    play: Play | None = None
    race: Race | None = None


Asked = tuple[str | None, str | None]
"""The place and the player tapped for my next question (`turn.my_question_asked`)."""
Weighed = tuple["Message | Listing | None", "Race | None"]
"""A race line's words and the race it drew (`weigh`)."""
Question = tuple[str, tuple[str, ...]] | None
"""The question a race line played out as mine: the player it goes to and its cards, from
"Suggest for me"; ``None``: no advice (the envelope I would name, the line naming nobody)."""


def weigh(log: GameLog, watching: bool, grid: Grid | None = None,
          advice: Beside[Advisor] | None = None, before: Drawn | None = None,
          asked: Asked = (None, None)) -> Weighed:
    """The race line's words and the race it drew (see `race_line`), on the thread beside the
    run: no screen here. ``grid``: the log's SAT grid, when the run has it (not worked out
    again: 30-65 ms at a 12-player table). ``advice``: the making of this log's advisor for
    "Suggest for me" (`turn.advice_job`), when the Turn form asked for it: in a forum game my
    next question is played out as it advises for the place and the player ``asked``, and the
    line names the player (`advised`). ``before``: what an earlier weighing of this log state
    drew, read and filled in.

    The race draws as many deals as the command line's `race` and `accuse` do
    (`solver.race.draw_size`: 400 up to five opponents, fewer at a larger table), with the same
    seed, so the app and `accuse` say one chance for one log: at 100 deals the form said
    "right 61%" where `accuse` said 57%. CPU of `accuse_or_wait` per state
    (benchmarks/bench_accuse.py, compiled, one run each): the 6-player example, median 35 ms
    at 100 deals, 75 at 400 (p95 76, 115); two 12-player forum logs, states 10-40, 702 ms at
    100, 715 at 181."""
    from solver.errors import ClueError
    from solver.race import BLUFF, Play, accuse_or_wait, fallback_note, race

    line: Message | Listing | None = None
    try:
        if watching:
            drawn = race(log, grid=grid)
            line = drawn.leader_said()  # as players play: 100% only where logic proves it
            if line is not None and drawn.fallback:
                line = fallback_note(line)
            return line, drawn
        kept = before if before is not None else Drawn()
        play = kept.play = kept.play or Play(log, BLUFF, grid)
        found = play.odds()
        race_of = kept.race = kept.race or race(log, play=play)
        verdict = accuse_or_wait(log, race_of=race_of, found=found,
                                 play=play, grid=grid, advice=advised(advice, asked))
        return verdict.said(), verdict.race
    except ClueError:  # a clash the grid works around: no race to read
        return None, None


def advised(advice: Beside[Advisor] | None, asked: Asked = (None, None)) -> Whom | None:
    """Whom "Suggest for me" asks first and what, as the Turn form shows it for the place and
    the player ``asked`` (`turn.put_first`: with nothing tapped `Advisor.whom` in any place),
    once ``advice`` has made the advisor: waited for on the race line's thread (it goes ahead
    of it, `Beside`'s ``ahead``); ``None`` without one, or where it stopped (the toggle turned
    off) or failed (the Turn form says why)."""
    from solver.errors import ClueError

    from .turn import put_first

    advisor = None
    if advice is not None:
        with suppress(ClueError):
            advisor = advice.result()
    if advisor is None:
        return None
    try:
        return put_first(advisor, *asked)
    except ClueError:
        return None


def question_of(whom: Whom | None) -> Question:
    """The question ``whom`` plays out, as the race line's verdict reads it (player, cards)."""
    return None if whom is None else (whom.player, whom.best.triple)


def line_wanted(log: GameLog) -> tuple[Beside[Advisor] | None, Asked]:
    """What the race line of ``log`` is weighed with: in a forum game where I may accuse, the
    making of its advisor once the Turn form asked for "Suggest for me" (`advice_first`, not
    stopped), and the place and the player tapped for my question (`turn.my_question_asked`);
    else nothing."""
    from solver.editions import forum_dealt
    from solver.race import out_since

    from .turn import my_question_asked

    if log.game.me is None or out_since(log, log.game.me) is not None:
        return None, (None, None)
    job = state.get("advice_job")
    if not forum_dealt(log.game) or job is None or job[0] != log or job[1].stopped:
        return None, (None, None)
    return job[1], my_question_asked(log)


def beside_this_log() -> None:
    """Before the run draws: the race line and the advice worked out beside the runs for
    another log than the one shown (a turn recorded or undone since) are stopped, nobody will
    read them (the advice went on ahead of the new log's race line, `Beside`'s ``ahead``, until
    a form asked for advice again); the advice of this log is started when the Turn form will
    ask for it (`turn.advice_first`)."""
    log = live().log
    for key in ("race_job", "advice_job"):
        job = state.get(key)
        if job is not None and job[0] != log:
            drop_beside(key)  # back at its log (an undo), the work starts again, not stopped
    if can_edit():
        advice_first()


def race_weighing() -> bool:
    """Whether the race line of the game shown is still being weighed beside the runs."""
    return still_working("race_job")


def race_line(log: GameLog) -> None:
    """Beside the verdict: who may already know the envelope (`solver.race`) and, for a
    player still in the game, whether to accuse now or wait (a spectator, a player who
    accused wrongly, or a read link's reader, who cannot accuse for the owner, reads only who
    among the players still in may know). Weighed once per
    log state on a thread beside the runs (`weigh`): a run waits `RACE_WAIT` for it, else the
    screen is drawn with a note and a fragment looks again every `RACE_POLL`. Its race is kept
    as ``table_race`` for the Turn screen's what-to-show hint (`turn.least_telling`).

    In a forum game, once "Suggest for me" is worked out for this log (the Turn form asked for
    it, `advice_first`), the line waits for it and plays out the question it shows first for
    the place and the player tapped: "before you ask P3 next" names the player the advice
    names ("Ask P3: ..."), a player tapped under "Asked" too. A line weighed for another
    question (before the advice was asked for, another player tapped) is weighed again, from
    the deals it drew (`Drawn`: 0.37 s of CPU at 12 players, 0.06 at 6): a tap's run does not
    wait for that where the line took longer than its wait (`Beside.ready`), the note shows
    meanwhile; each question's line is kept for the log state, so a tap back shows it at once.
    Without the advice (the toggle off) the line names nobody ("your next question"): making
    the advisor for the line alone would take its CPU at 12 players from a median 0.68 s to
    1.18 s (docs/strategy.md). An advisor the Turn form made after the line was drawn has the
    page drawn again (`line_behind`)."""
    from solver.race import out_since

    watching = (log.game.me is None or out_since(log, log.game.me) is not None  # no accusing
                or not can_edit())  # a reader: who may know, not the owner's risk
    wanted = line_wanted(log)
    advice, asked = wanted
    state.line_drawn = (log, wanted)
    weighed = state.get("race_drawn")  # (also for the accusation form's chance, once drawn:
    if not watching and (weighed is None or weighed[0] != log):  # `turn.race_chances`)
        weighed = state.race_drawn = (log, Drawn())
    before: Drawn | None = weighed[1] if not watching and weighed is not None else None
    lines: tuple[GameLog, dict[Question, Weighed]] | None = state.get("race_lines")
    if lines is None or lines[0] != log:
        lines = state.race_lines = (log, {})
    kept = state.get("race_job")
    if (kept is not None and kept[0] == log
            and state.get("race_for") != wanted):  # weighed for another question
        drop_beside("race_job")  # (weighed again from what it drew: `Drawn`)
    found = None
    if advice is None or advice.done():  # the question is known at once: weighed before?
        found = lines[1].get(question_of(advised(advice, asked)))
    if found is None:
        job = beside_for("race_job", log,
                         lambda grid: weigh(log, watching, grid, advice, before, asked), "race")
        state.race_for = wanted
        if not job.ready(RACE_WAIT):
            shown: tuple[GameLog, str, list[str], str] | None = state.get("race_shown")
            state.race_kept = (shown is not None  # weighed again for another question, and
                               and shown[:2] == (log, current()))  # drawn in this language
            if shown is not None and state.race_kept:
                line_kept(shown[2], shown[3])
            st.fragment(stoppable(race_note), run_every=RACE_POLL)()
            return
        found = job.result()
        if found is not None:  # weighed (not stopped): its advisor is made, if it had one
            lines[1][question_of(advised(advice, asked))] = found
    line, drawn = found if found is not None else (None, None)
    state.table_race = (log, drawn)
    if line is None:
        return
    if not can_edit():
        why = _("From deals this notebook allows, a deal weighing less for each card a player "
                "named while holding it or after it was shown to them (players seldom bluff) "
                "and none in which a player still playing could have named the envelope on "
                "their last turn (they would have accused): how likely each player still in "
                "the game could name the whole envelope from what they have seen.")
    elif watching:  # no accusation of mine to weigh
        why = _("From deals your notebook allows, a deal weighing less for each card a player "
                "named while holding it or after it was shown to them (players seldom bluff) "
                "and none in which a player still playing could have named the envelope on "
                "their last turn (they would have accused): how likely each player still in "
                "the game could name the whole envelope from what they have seen.")
    else:
        why = _("From deals your notebook allows, a deal weighing less for each card a player "
                "named while holding it or after it was shown to them (players seldom bluff) "
                "and none in which a player still playing could have named the envelope on "
                "their last turn (they would have accused): how likely each other player could "
                "name the whole envelope from what they have seen, and whether your likeliest "
                "envelope is worth the risk before they do.")
    said = line.lines() if isinstance(line, Listing) else [line.render(start=True)]
    state.race_shown = (log, current(), said, why)  # (a line in another language is not kept)
    st.caption("  \n".join(plain(statement) for statement in said), help=why)  # a line each


def line_kept(said: list[str], why: str) -> None:
    """The race line drawn last for this log, while it is weighed again for another question
    (a chip tapped with "Suggest for me" on, about a second at 12 players): greyed, the
    hourglass before it (`LINE_KEPT`), where one line "Weighing who may already know…" took
    the place of four and the form below jumped 90-200 px up and back with every tap (a
    play-through at 390 px)."""
    with st.container(key="race_kept"):
        st.html(LINE_KEPT)
        st.caption(":material/hourglass_top: " + "  \n".join(plain(s) for s in said), help=why)


def race_note() -> None:
    """The race line's place while it is weighed, looked at every `RACE_POLL` seconds; once
    weighed (or the game has changed) the page is drawn again, with it (after the player has
    closed the explanation they are reading). Beside the line kept for this log (`line_kept`)
    it draws nothing: the kept line carries the hourglass."""
    from solver.odds import warm

    from .turn import PREPARING

    kept = state.get("race_kept", False)
    working_note(_("Weighing who may already know…") if warm.ready() else _(PREPARING),
                 not race_weighing() and not state.get("explaining"),
                 box=(lambda _text: None) if kept else None)


def conflict_banner(ignored: tuple[int, ...]) -> None:
    conflict = live().conflict
    if not conflict:
        return
    events = live().log.events
    with st.container(border=True, key="conflict"):
        st.error(
            (_("This entry cannot be true with the game's setup. It is wrong, or the setup "
               "is:") if len(conflict) == 1
             else _("These entries cannot all be true. One of them is wrong:"))
            + "".join(f"\n- **#{n}** {plain(describe(events[n - 1]))}" for n in conflict),
            icon=":material/error:",
        )
        if ignored:
            st.caption(ngettext("The grid and the envelope leave out {entries} until this is "
                                "fixed.",
                                "The grid and the envelope leave out {entries} until this is "
                                "fixed.",
                                len(ignored)).format(entries=list_said(f"#{n}" for n in ignored)))
        with st.container(horizontal=True):
            for n in conflict if can_edit() else ():
                button(_("Edit #{number}").format(number=n), key=f"conflict_edit_{n}",
                          on_click=start_edit,
                          args=(n - 1,))
        if st.toggle(_("Why does it clash?") if len(conflict) == 1 else _("Why do they clash?"),
                     key="why_conflict"):
            why = live().why_conflict(addressed=can_edit())
            st.markdown(as_markdown(why or _("The clash could not be explained step by step.")))


def scroll_to_top() -> None:
    state.scroll_top = True


def status_line() -> None:
    """One line under the tabs: what was just done (instead of a toast over the verdict)
    unless the Undo button already says it ("Undid: …", "New links made"), else the latest
    entry unless the Undo button names it (it recorded it: the same words twice took two
    lines of a phone)."""
    undo_says = told(state.revision[1]).render().lower()
    notes = state.pop("done_notes", [])
    state.done_shown = notes  # drawn again by a note's look (`app.show_flash`): still there
    done = [t for t in notes if t.lower() != undo_says]
    events = live().log.events
    if done:
        st.caption(":material/check_circle: " + " · ".join(plain(t) for t in done))
    elif events and state.get("view") != "Log" and not (  # the Log lists it right below,
            can_edit() and undone_entry(state.revision[1], live().log) == len(events)
            and told(state.revision[1]).msgid == RECORDED):  # the Undo button names it
        st.caption(plain(_("Latest: #{n} {entry}").format(n=len(events),
                                                          entry=described(live().log,
                                                                          len(events) - 1))))
    elif not events:
        st.caption(_("No entries yet."))


def keep_form() -> None:
    """Keep the Turn form, the paste box and the Game screen's hand while another tab shows:
    Streamlit drops the value of a widget that a run does not draw, and a half-entered turn
    must survive a look at the grid."""
    for key in (*ENTRY_KEYS, "kind", "paste_turns", *HAND_KEYS):
        if key in state:
            state[key] = state[key]


def line_behind() -> bool:
    """Whether the race line this run drew was weighed with other advice than the Turn form
    then asked for (`line_wanted`): the form made the advisor after the header had drawn the
    line (the run's start found the compiled odds not ready, `advice_first`, and the form found
    them ready; the form's first run put its own defaults in), and showed "Ask P3: ..." beside
    a line naming nobody until the next tap (seen once on a phone, right after a server
    started)."""
    drawn = state.get("line_drawn")
    log = live().log
    return drawn is not None and drawn[0] == log and drawn[1] != line_wanted(log)


def play_screen() -> None:
    state.pop("drawn_widgets", None)  # until this run has drawn the screen
    state.pop("line_drawn", None)  # until the header draws the race line
    keep_form()
    mark_editing()
    beside_this_log()
    header()
    if live().odds_wanted and odds_on():
        live().count_odds()  # a new log state's odds: counting while the player is elsewhere
    names = tuple(VIEWS) if can_edit() else READ_VIEWS
    if state.get("view") not in names and unset("view"):
        state.view = names[0]
    # the label (hidden) is what a screen reader says; with a key, a new label keeps the widget
    st.segmented_control(_("View"), names, key="view", label_visibility="collapsed",
                         width="stretch", on_change=scroll_to_top, format_func=_,
                         required=True)  # a tap on the tab shown keeps it (it showed Turn)
    view = state.view if state.view in names else names[0]
    # a reload, or a page back after a restart, opens it again (the first tab: a plain address)
    say_in_address("view", None if view == names[0] else view)
    if view != "Game":
        for asked in ASKED:  # a question left on the Game screen is not kept
            state.pop(asked, None)
    if view not in ("Grid", "Review"):  # a cell's explanation closed where its close was
        state.pop("explain_cell", None)  # not heard (the network down): not opened again
    status_line()
    show_checks("opened_check", opened=True)  # a game just pasted or uploaded, on any tab
    if view != "Turn" and can_edit() and form_sent():
        adopt_form()
    st.html(heading(_(view), 2, shown=False))  # the tab's name is on the tab row
    VIEWS[view]()
    remember_choices()
    mark_step()
    keep_typing()  # the form as this run left it, for a reload
    remember_drawn()
    if line_behind():  # drawn again at once, the line weighed with the advice shown
        state.redrawn = True  # not a tap: the status line keeps what was just done
        st.rerun()


def adopt_form() -> None:
    """A page that reconnected after a server restart sent a half-entered turn with a tap on
    another tab: the Turn form is drawn out of sight in this run, so its inputs take the values
    the browser sent (`keep_form` keeps them from then on)."""
    st.html(HIDDEN_FORM)
    with st.container(key="adopted_form"):
        turn_view()
