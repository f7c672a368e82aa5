"""The Turn screen: one tap per choice. Who asked (the player whose turn it is is already
chosen), the three cards as chips by category (the room where the suggester stands is already
chosen), who answered, or for a question to one player who was asked, in seat order (everyone
asked before the one who answered, from the suggester's left, passed); and, when the user saw
it, which card: only cards that can be the answer are offered. What the fields mean and what
saving does is in `notebook_app.entry`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, Any, NamedTuple

import streamlit as st

from solver.cards import CATEGORIES, Category
from solver.editions import forum_dealt
from solver.game import ENVELOPE, Game, GameLog, Reveal
from solver.i18n import N_, Listing, Message, _, list_said, ngettext, say, say_n
from solver.notebook import Knowledge
from solver.values import replace

from ..choices import chosen
from ..entry import (
    CARD_KEYS,
    KINDS,
    NO_CARD,
    NOBODY,
    RIGHT,
    SHOWED,
    WRONG,
    cancel_edit,
    default_by,
    default_kind,
    defaults_for,
    delete_event,
    host_rule,
    host_shows_mine,
    kind_of,
    on_by_change,
    on_kind_change,
    picked_cards,
    set_shown,
    skip_show,
    submit_entry,
    to_record,
)
from ..grid_view import accusation_said, as_markdown, verdict
from ..odds_count import Beside
from ..plain import plain
from ..reader import form_part
from ..session import (
    beside_for,
    button,
    left_out,
    live,
    lost_tap,
    shown_asked,
    still_working,
    stoppable,
    unset,
)
from ..turns import (
    answer_order,
    apart,
    describe,
    forum_style,
    fully_revealed,
    passed_holding,
    passes,
    possible_for,
    revealed_next,
    reveals_of,
    seen_line,
    show_choice,
    shown_candidates,
    side_candidates,
    unshown,
)
from .grid import ODDS_WAIT, odds_on, working_note
from .note import note_form

if TYPE_CHECKING:
    from solver.advice import Advice, Advisor, Here, Whom
    from solver.notebook import Grid

FORUM_KINDS: tuple[str, ...] = ("Asked one", "Accusation", "Reveal", "Note")
"""The forum variant's entry kinds: its suggestion is the question to one player, first."""
SHORT_KINDS = {"Suggestion": N_("Suggest"), "Accusation": N_("Accuse"), "Reveal": N_("Reveal"),
               "Asked one": N_("Ask one"), "Note": N_("Note")}
"""The entry kinds as the switch shows them, short enough for one row on a phone."""
ADVICE_SAMPLES = 1000
"""Deals the "Suggest for me" advice is scored on."""
ADVICE_WAIT = 0.3
"""Seconds a run waits for the log's advisor (`log_advisor`) before it draws the form with a
note in place of the advice (within the run's one wait for all the work beside it,
`notebook_app.odds_count.RUN_WAIT`; started before the header waits for the race line:
`advice_first`): at 3-6 players it is made in a tenth of a second or less and shows at once; at
12 players it takes about a second of CPU."""
ADVICE_POLL = 1.0
"""Seconds between looks at an advisor still being made (each look a short run)."""
PREPARING_POLL = 1.0
"""Seconds between looks at the compiled odds still being made ready (`preparing`)."""
PREPARING = N_("The odds are being prepared (once after an install, up to a minute)…")
"""What shows, while the compiled odds are made ready, in place of what needs them."""

OWN_CHIP = ("<style>.st-key-KEY [role='radio']:nth-of-type(SEAT) {opacity: 0.35; "
            "pointer-events: none;} .st-key-KEY {--clue-own-seat: SEAT;}</style>")
"""Greys the asker's own chip in the chip row keyed ``KEY`` ("Asked", "Who showed a card";
``SEAT``: their seat, from 1) and lets no tap reach it (`seat_chips`); screen readers are told
it is unavailable (`notebook_app.reader.OWN_CHIPS` reads ``--clue-own-seat``)."""

OUT_CHIP = "<style>SEATS {opacity: 0.7;}</style>"
"""Greys, under "Who asked", the chips (``SEATS``: their selectors) of players out of the game
(a wrong accusation: `solver.race.out_since`), each still in its seat and still tappable (the
form then says they take no more turns). At 0.7 their words read about 5:1 on white, 4.5:1
the least a control's words need (0.55 read 3.4:1)."""

state = st.session_state

Pick = tuple[str, str, str, str | None]
"""A suggestion "Suggest for me" gives: suspect, weapon, room, and whom to ask (the forum
variant's question to one player; ``None`` on a suggestion round the table)."""


class Advised(NamedTuple):
    """What "Suggest for me" says for the form's choice of chips."""

    lines: list[str]
    """Its lines, in the user's language."""
    pick: Pick | None
    """The first line's suggestion, which "Use this suggestion" fills in; ``None`` when it
    advises none (the game is over, or the log has a contradiction)."""


def chips(label: str, key: str, options: Sequence[object],
          format_func: Callable[[Any], str] | None = None, help: str | None = None,
          *, kept: bool = False, on_change: Callable[[], None] | None = None) -> None:
    """One tap picks: ``options`` as chips (a choice no longer offered is dropped first). The
    chips are shown as text; ``label`` is the app's words as they are, with any name in it
    already `plain`: Streamlit gives the label unrendered to screen readers as the group's
    name, so escaping the whole label had them read "Kortti\\, jonka Bob näytti sinulle".
    A tap on the chip chosen un-chooses it, unless ``kept``: then it stays chosen."""
    if state.get(key) not in options and unset(key):
        state[key] = None
    shown = format_func or str
    st.pills(label, options, key=key, format_func=lambda o: plain(shown(o)), help=help,
             required=kept, on_change=on_change)


def card_chips(game: Game, kind: str) -> None:
    """The three cards, a row of chips per category (the third is "Place" in the forum
    variant, which has no board: `solver.editions.forum_dealt`). On an accusation a tap on a
    card chosen keeps it: the form may have named the envelope already (my safe accusation,
    `notebook_app.entry.my_safe_accusation`; the room where the pawn stands), and a player who
    tapped the card they meant was left with none. On a suggestion it un-chooses it, which
    "Suggest for me" reads (no room chosen: the best in any room)."""
    labels = {Category.SUSPECT: _("Suspect"), Category.WEAPON: _("Weapon"),
              Category.ROOM: _("Place") if forum_dealt(game) else _("Room")}
    for category in CATEGORIES:
        chips(labels[category], CARD_KEYS[category], game.deck.of(category),
              kept=kind == "Accusation")


def kinds_offered() -> tuple[str, ...]:
    """Entry kinds of this game: "Asked one" only where players ask one player at a time; in
    the forum variant (`solver.editions.forum_dealt`) it takes the place of "Suggestion",
    since a forum suggestion is put to one player, never round the table. An entry being
    edited keeps its own kind (a forum log read from a file may hold a round of the table)."""
    log = live().log
    if forum_dealt(log.game):
        offered = FORUM_KINDS
    elif forum_style(log):
        offered = KINDS
    else:
        offered = tuple(k for k in KINDS if k != "Asked one")
    original = state.get("edit_original") if state.get("editing") is not None else None
    if original is not None and kind_of(original) not in offered:
        return (kind_of(original), *offered)
    return offered


def turn_view() -> None:
    log = live().log
    pending_show_prompt()  # a game that is over says so above, in the header
    editing = state.get("editing")
    lost_tap("delete_entry", _("Delete #{number}").format(
        number=st.query_params.get("edit", "") if editing is None else editing + 1))
    if editing is not None:
        st.warning(plain(_("Editing #{number}: {entry}").format(
            number=editing + 1, entry=describe(log.events[editing]))))
        hidden = unshown(state.edit_original, state.get("edit_loaded"))
        if hidden:
            st.caption(plain(_("The form cannot show all of this entry; kept as recorded unless "
                               "you change who suggested or who showed: {parts}").format(
                                   parts="; ".join(hidden))))
        with st.container(horizontal=True):
            button(_("Cancel edit"), key="cancel_edit", on_click=cancel_edit)
            st.button(_("Delete #{number}").format(number=editing + 1), key="delete_entry",
                      on_click=delete_event, args=(editing,), icon=":material/delete:")
    kinds = kinds_offered()
    if state.get("kind") not in kinds and unset("kind"):
        state.kind = default_kind()
    st.segmented_control(_("Entry"), kinds, key="kind", required=True, width="stretch",
                         on_change=on_kind_change, format_func=lambda kind: _(SHORT_KINDS[kind]),
                         label_visibility="collapsed")
    if editing is None and state.get("kind") == "Reveal" and game_won(log):
        st.caption(_("The game is over: record here the cards players show now, if any; the "
                     "log keeps them with the game."))
    if editing is None and state.get("kind") == "Note" and envelope_to_open(log):
        st.caption(_("Every player accused wrongly, so the envelope is opened: tap its three "
                     "cards, then Record. The log keeps them with the game."))
    state.pop("clash_said", None)
    if state.kind == "Reveal":
        reveal_form()
    elif state.kind == "Note":
        note_form()
    else:
        turn_form()
    clash_warning()
    problem = state.get("entry_problem")
    if problem:
        st.error(plain(problem), icon=":material/touch_app:")
    submit = _("Save changes") if editing is not None else _("Record")
    unseen = not unset("submit")  # a tap that reached a new session (`session.browser_sent`)
    if st.button(submit, type="primary", on_click=submit_entry, key="submit",
                 width="stretch") and unseen:  # Streamlit called no callback for it: the
        state.unseen_tap = (submit_entry, ())  # the next run records first, its form now
        st.rerun()  # read (`session.take_unseen_tap`)


def game_won(log: GameLog) -> bool:
    """Whether the game is over (`solver.ending`: a correct accusation, or wrong ones as the
    edition's rule sheet ends it), in the entries the header reads (past a clash, without those
    the grid leaves out: `left_out`)."""
    from solver.ending import ending

    return ending(log, left_out()) is not None


def envelope_to_open(log: GameLog) -> bool:
    """Whether the envelope is opened now and not yet recorded (`solver.ending.to_open`, in the
    entries the header reads past a clash)."""
    from solver.ending import to_open

    return to_open(log, left_out())


def turn_form() -> None:
    """Suggestion, accusation or a question to one player. Each part of the form starts with a
    heading for screen readers (`notebook_app.reader.form_part`): who suggested (accused,
    asked), the cards, then who showed a card (the result; who was asked and the answer)."""
    log = live().log
    game = log.game
    kind = state.kind
    if state.get("by") not in game.player_names and unset("by"):
        state.by = default_by(kind)
        defaults_for(state.by)
    label = {"Accusation": _("Who accused"), "Asked one": _("Who asked")}.get(
        kind, _("Who suggested"))
    from solver.race import out_since

    editing = state.get("editing")
    before = log if editing is None else log.upto(editing)
    skipped = left_out()
    gone = {p: n for p in game.player_names  # who is out, since which entry
            if (n := out_since(before, p, skipped)) is not None}
    form_part(label)
    st.pills(label, game.player_names, key="by", required=True, on_change=on_by_change,
             # TRANSLATORS: a chip under "Who asked": a player out after a wrong accusation
             format_func=lambda p: plain(_("{player} (out)").format(player=p) if p in gone
                                         else p))
    if gone:
        st.html(OUT_CHIP.replace("SEATS", ", ".join(
            f".st-key-by [role='radio']:nth-of-type({game.player_names.index(p) + 1})"
            for p in gone)))
    by = state.by
    out = gone.get(by)
    if out is not None:  # (the form starts at them only once everyone is out)
        warn(_("{player} accused wrongly in #{n}: out of the game, they take no more turns "
               "and only show cards.").format(player=by, n=out))
    if game.me is not None and by != game.me and kind != "Accusation":
        st.caption(plain(seen_line(log, by)))
    mine = by == game.me and kind in ("Suggestion", "Asked one") and state.get("editing") is None
    if mine and advise_toggle() and not preparing():
        advice = best_question(log) if kind == "Asked one" else best_suggestion(log)
        if advice is None:  # the log's advisor is still being made, beside the run
            st.fragment(stoppable(advice_note), run_every=ADVICE_POLL)()
        else:
            for line in advice.lines:
                st.caption(plain(line))
            if advice.pick is not None and not taken(advice.pick):
                button(_("Use this suggestion"), key="take_advice", on_click=take_advice,
                          args=(advice.pick,), icon=":material/touch_app:")
    form_part(_("The cards"))
    card_chips(game, kind)
    if mine and kind == "Suggestion":
        barred_note(log)
    if kind == "Accusation":
        form_part(_("Result"))
        chips(_("Result"), "e_result", (WRONG, RIGHT), format_func=_, kept=True)
        cards = picked_cards()
        if (by == game.me and cards is not None and editing is None
                and state.get("e_result") is None):
            accusation_check(cards)
        if state.get("e_result") == RIGHT and cards is not None and editing is None:
            grid = live().grid()[0]
            elsewhere = [c for c in cards if grid[c, ENVELOPE] is Knowledge.NO]
            if elsewhere:
                warn(ngettext("The notebook says {cards} cannot be in the envelope, so this "
                              "accusation was not right: check the entry.",
                              "The notebook says {cards} cannot be in the envelope, so this "
                              "accusation was not right: check the entry.", len(elsewhere),
                              ).format(cards=list_said(elsewhere)), clash=True)
        return
    if kind == "Asked one":
        form_part(_("Asked"))  # whom, part of the question; then the answer
        asked_chips(game, by)
        asked = state.get("e_asked")
        form_part(_("The answer"))
        chips(_("Answer"), "e_answer", (SHOWED, NO_CARD),
              format_func=lambda a: (_("{player} showed a card").format(player=asked) if asked
                                     else _("they showed a card")) if a == SHOWED else _(a))
        if state.get("e_answer") == SHOWED and asked is not None:
            shown_chips(asked)
        elif state.get("e_answer") == NO_CARD and asked is not None:
            held = held_though_passed((asked,))
            if held:
                warn(_("You hold {cards}, so you had a card to show: under “{field}”, tap "
                       "“{option}”.").format(cards=held, field=_("Answer"), option=_(
                           "{player} showed a card").format(player=game.me)), clash=True)
        if host_box_offered(game, by, asked):
            st.checkbox(_("Host answered: first match in order suspect, weapon, place")
                        if forum_dealt(game) else
                        _("Host answered: first match in order suspect, weapon, room"),
                        value=bool(state.get("e_rule")), key="e_rule")  # also if drawn late
        return
    order = answer_order(game, by)
    form_part(_("Who showed a card"))
    seat_chips(_("Who showed a card"), "e_refuter", game, by, (NOBODY,),
               format_func=lambda p: p or apart(_("Nobody"), game.player_names),
               help=_("Everyone asked before them passed."))
    refuter = state.get("e_refuter")
    passed = passes(game, by, refuter) if refuter in order else ()
    if passed:  # (the chips no longer run from the suggester's left, where it showed)
        st.caption(plain(say_n("{players} passed.", "{players} passed.", len(passed),
                               players=Listing(passed, "and")).render()))  # a sentence alone
    held = held_though_passed(passes(game, by, refuter or None)) if refuter in (
        *order, NOBODY) else None
    if held:
        warn(_("You hold {cards}, so you did not pass: under “{field}”, tap {player} if you "
               "showed it.").format(cards=held, field=_("Who showed a card"), player=game.me),
             clash=True)
    if refuter:
        shown_chips(refuter)
    elif refuter == NOBODY and game.side_cards:
        side_peek_chips()


def barred_note(log: GameLog) -> None:
    """Under the Room chips of my suggestion, with no room chosen or the room of my last
    suggestion: why the form did not start there (`notebook_app.turns.starting_room`), and why
    "Suggest for me" advises another room (`solver.advice.barred_room`: one suggestion per
    visit). A turn spent leaving and coming back is not in the log: the rule is said, and the
    room is still offered."""
    from solver.advice import barred_room

    barred = barred_room(log, log.game.me or "")
    if barred is not None and state.get(CARD_KEYS[Category.ROOM]) in (None, barred):
        st.caption(plain(_("Not {room}: you suggested there last, and the rules let you "
                           "suggest there again only once you have left it").format(
                               room=barred)))


def asked_chips(game: Game, by: str) -> None:
    """Who was asked, a question to one player: every player in seat order (`seat_chips`)."""
    seat_chips(_("Asked"), "e_asked", game, by)


def seat_chips(label: str, key: str, game: Game, by: str, after: tuple[str, ...] = (),
               **options: Any) -> None:
    """Who was asked ("Asked"), or who showed a card to ``by``'s suggestion ("Who showed a
    card", ``after``: its "Nobody"): every player in seat order, as under "Who asked", the
    asker's own chip greyed and taking no tap (`OWN_CHIP`), so each player stays in the same
    place from one asker to the next. In the order they answer, from the asker's left, the row
    turned with every asker, and at a 12-seat table the thumb landed on another name from turn
    to turn; who passed (everyone asked before the player tapped, round the table from the
    asker's left) is worked out from the tap as before (`notebook_app.turns.passes`)."""
    if state.get(key) == by and unset(key):
        state[key] = None  # (tapped for another asker, or by keys)
    chips(label, key, (*game.player_names, *after), on_change=lambda: not_the_asker(key),
          **options)
    st.html(OWN_CHIP.replace("KEY", key).replace("SEAT", str(game.player_names.index(by) + 1)))


def host_box_offered(game: Game, by: str, asked: str | None) -> bool:
    """Whether the question to one player offers "Host answered": where a card was shown, or
    the answer is not tapped yet (no card follows no order). On a question between others the
    log keeps the rule without the card: it says which card the asker was shown."""
    return state.get("e_answer") != NO_CARD


def not_the_asker(key: str) -> None:
    """A tap on the asker's own chip in the row ``key`` (greyed, reached by keys) chooses
    nobody."""
    if state.get(key) == state.get("by"):
        state[key] = None


def accusation_check(cards: tuple[str, str, str]) -> None:
    """Above Record, while my accusation's result is not tapped: whether accusing these three
    cards is safe (`accusation_said`), with their chance as the race line weighs it once drawn
    (`race_chances`), else as the Grid counts it (unless the player turned its odds off). The
    form said nothing of the cards tapped (the room my last suggestion's, though shown
    elsewhere) until "right" was tapped (a 2-player phone play-through). Nothing past a clash:
    the header says no accusation is safe until fixed."""
    grid, ignored = live().grid()
    if ignored:
        return
    counted = odds_on() and live().odds_counted(wait=ODDS_WAIT)  # (the Grid's choice)
    chances = live().odds() if counted else None
    envelopes, exact = (None, True) if chances is None else (chances.envelopes, chances.exact)
    weighed = race_chances(grid)
    if weighed is not None and cards not in weighed:  # the race weighs every envelope still
        envelopes, exact = (), True  # possible (`Race.conditioned`): no deal has this one
    safe, said = accusation_said(
        grid, cards, envelopes, exact=exact,
        triples_left=None if chances is not None else live().envelopes_left(),
        weighed=None if weighed is None else weighed.get(cards, (0.0, 0.0))[0])
    if safe:
        st.success(plain(said), icon=":material/check_circle:")
    else:
        st.warning(plain(said), icon=":material/warning:")


def race_chances(grid: Grid) -> dict[tuple[str, str, str], tuple[float, float]] | None:
    """Every envelope's chance as the header's race line weighs them (players seldom bluff,
    and accuse once they know: `solver.race.Race.conditioned`), from the race it drew for this
    log (``table_race``) and the odds it drew from (``race_drawn``: worked out again, 0.2-0.6 s
    of CPU at 12 players), once per log; ``None`` before the line is drawn, or while
    I am out of the game (its race then weighs no accusation of mine). The Grid's count weighs
    every deal alike: with Lounge and Conservatory tied at 35% there, the line said "Accuse
    now: ..., Conservatory: right 61%" (a 3-player phone play-through: Bob had named his own
    Lounge, and would have accused had it been the envelope), and the form said 35% of both."""
    from solver.errors import ClueError
    from solver.race import BLUFF, Play, out_since

    log = live().log
    kept, cached = state.get("table_race"), state.get("race_chances")
    if kept is None or kept[0] != log or kept[1] is None or out_since(log, log.game.me):
        return None
    if cached is None or cached[0] != log:
        drawn = state.get("race_drawn")
        play = drawn[1].play if drawn is not None and drawn[0] == log else None
        try:
            chances = kept[1].conditioned((play or Play(log, BLUFF, grid)).odds())
        except ClueError:
            return None
        cached = state.race_chances = (log, chances)
    return cached[1]  # type: ignore[no-any-return]


def held_though_passed(passed: tuple[str, ...]) -> str | None:
    """My cards among those named, when the form has me among the players who ``passed``: the
    entry would clash with my own hand (nothing said so until Record showed the clash)."""
    cards = picked_cards()
    held = () if cards is None else passed_holding(live().log.game, passed, cards)
    return list_said(held) or None


def warn(text: str, *, clash: bool = False) -> None:
    """A warning above Record; a ``clash`` one says why the entry would clash with the log, so
    `clash_warning` does not say it again."""
    st.warning(plain(text), icon=":material/warning:")
    if clash:
        state.clash_said = True


def clash_warning() -> None:
    """Above Record: the entry the form names (as Record would record it, `to_record`) would
    clash with the log, and with which entries (a minimal conflict, `LiveGame.clash`), as the
    clash banner names them once recorded; or with the setup alone. Record still records it
    (the earlier entry may be the wrong one). Nothing when a warning above has said why
    (``clash_said``: a pass I could not make, a right accusation the grid rules out)."""
    if state.pop("clash_said", False):
        return
    event = to_record()
    if event is None:
        return
    editing = state.get("editing")
    at = None if editing is None else editing + 1
    found = live().clash(event, at)
    if not found:
        return
    events = live().log.events
    number = at or len(events) + 1
    others = [n for n in found if n != number]
    if others:
        said = (_("This entry (#{number}) cannot be true together with:").format(number=number)
                + "".join(f"\n- **#{n}** {plain(describe(events[n - 1]))}" for n in others)
                + "\n\n" + check_the_taps(others[0] if len(others) == 1 else None,
                                            saving=editing is not None))
    else:
        said = _("This entry (#{number}) cannot be true with the game's setup: check the "
                 "taps.").format(number=number)
    st.warning(said, icon=":material/warning:")
    if st.toggle(_("Why would it clash?"), key="why_clash_ahead"):
        why = live().why_clash(event, at)
        st.markdown(as_markdown(why or _("The clash could not be explained step by step.")))


def check_the_taps(other: int | None, *, saving: bool) -> str:
    """What to do about a clash with entry ``other`` (``None``: with several), in the words of
    the form's button: Record, or Save changes for an edit (``saving``)."""
    if other is None:
        return (_("Check the taps. If one of those is wrong, save this, then edit it.") if saving
                else _("Check the taps. If one of those is wrong, record this, then edit it."))
    return (_("Check the taps. If #{number} is the wrong one, save this, then edit #{number}.")
            if saving else
            _("Check the taps. If #{number} is the wrong one, record this, then edit "
              "#{number}.")).format(number=other)


def preparing() -> bool:
    """Whether the compiled odds are still being made ready (`solver.odds.warm`: once after an
    install, up to a minute of compiling): what a run would wait for them on (the advice, which
    card to show) is not worked out meanwhile, and a note says so, looking again every
    `PREPARING_POLL` seconds; the form, the grid and recording a turn never wait for them."""
    from solver.odds import warm

    if warm.ready():
        return False
    st.fragment(stoppable(preparing_note), run_every=PREPARING_POLL)()
    return True


def preparing_note() -> None:
    """`preparing`'s note; once the odds are ready, the page is drawn again, with them."""
    from solver.odds import warm

    working_note(_(PREPARING), warm.ready())


def advise_toggle() -> bool:
    """The "Suggest for me" toggle, and whether it is on (the choice is kept,
    `notebook_app.choices`; a reconnected page's toggle, sent to a new session, is followed).
    Turned off, an advisor still being made is stopped: it goes ahead of the race line and the
    odds (`advice_job`), which would wait on advice nobody reads."""
    on = st.toggle(_("Suggest for me"), key="advise_me", value=chosen("advise_on"),
                   help=_("The suggestion whose answer should teach you most about the "
                          "envelope"))
    state.advise_on = on
    job = state.get("advice_job")
    if not on and job is not None and not job[1].done():
        job[1].cancel()
    return on


def taken(pick: Pick) -> bool:
    """Whether the form's chips already show ``pick``."""
    suspect, weapon, room, asked = pick
    cards = (state.get(CARD_KEYS[c]) for c in CATEGORIES)
    return tuple(cards) == (suspect, weapon, room) and asked in (None, state.get("e_asked"))


def take_advice(pick: Pick) -> None:
    """"Use this suggestion": the advised cards (and, in the forum variant, the player to ask)
    tapped in one go, leaving the answer to tap."""
    for category, card in zip(CATEGORIES, pick[:3], strict=True):
        state[CARD_KEYS[category]] = card
    if pick[3] is not None:
        state.e_asked = pick[3]


def best_suggestion(log: GameLog) -> Advised | None:
    """The advisor's first suggestion and why, then at most one line more, computed once per log
    and room: at a real table I can suggest only the room my pawn stands in, so with a room
    chosen (where another's suggestion moved my pawn, or the one tapped) the best in that room
    (`solver.advice.advise_here`) and, when the best in any room names likelier cards, where to
    head; with none, the best in any room (`solver.advice.advise`). Both from the log's
    `advisor`, so tapping another room ranks only that room's suggestions. Above it that the
    envelope is certain, when it is (as ``advise`` says), and then that no suggestion can teach
    more, with nothing to tap: a question that asked about other hands was advised as "the
    likeliest in the envelope" under a certain envelope that held none of its cards. Once the
    game is over, or I accused wrongly, only that (`solver.race.past_advice`).

    The room of my last suggestion is never advised (`solver.advice.barred_room`: one
    suggestion per visit, by the classic and the Refresh 2012 sheets): with it chosen (the chip
    no longer starts there: `notebook_app.turns.starting_room`) or with none, the best in
    another room whose answer tells something (`barred_lines`); nor is it where to head.

    With a room chosen the first line is the question to ask there, "Use this suggestion"'s;
    where another room's cards are likelier, a second line says where to head next (after this
    question: the rules let me ask here once per visit), and the first does not call its cards
    the likeliest in the envelope (a phone play-through read the two lines as contradicting
    each other)."""
    from solver.advice import barred_room

    room = state.get(CARD_KEYS[Category.ROOM])
    barred = barred_room(log, log.game.me or "")

    def lines(advisor: Advisor) -> tuple[list[Message], Pick | None]:
        if advisor.grid.accusation_safe:  # no answer can tell more: nothing to tap
            return [say("No suggestion would teach you anything more about the envelope")], None
        if barred is not None and room in (None, barred):
            return barred_lines(log, advisor, barred)
        if room is None:
            best = advisor.anywhere()[0]
            return [ask_line(log, best, advisor.grid)], (*best.triple, None)
        here = advisor.here(room, barred)
        if here.idle:
            return idle_lines(log, here, advisor.grid)
        said = [ask_line(log, here.best, advisor.grid, likeliest=here.elsewhere is None)]
        if here.elsewhere is not None:  # after this question, not instead of it
            said.append(head_line(log, here.elsewhere))
        return said, (*here.best.triple, None)

    return advised(log, ("Suggestion", room), lines)


def barred_lines(log: GameLog, advisor: Advisor,
                 barred: str) -> tuple[list[Message], Pick | None]:
    """`best_suggestion` where the rules bar the room of my last suggestion (`barred`, the
    room chosen on the chip, or none chosen): the best in another room whose answer tells
    something, which "Use this suggestion" taps. Why not the barred room is said under the
    Room chips (`barred_note`), with or without the advice."""
    best = advisor.first_telling(advisor.anywhere(barred))
    if best is None:
        return [say("No suggestion would teach you anything more about the envelope")], None
    return [ask_line(log, best, advisor.grid)], (*best.triple, None)


def ask_line(log: GameLog, advice: Advice, grid: Grid, *, likeliest: bool = True) -> Message:
    """"Ask ...: why" for one suggestion (`solver.advice.reason_said`; not ``likeliest``
    where a line below names likelier cards elsewhere)."""
    from solver.advice import reason_said

    suspect, weapon, room = advice.triple
    return say("Ask {suspect}, {weapon}, {room}: {reason}", suspect=suspect, weapon=weapon,
               room=room, reason=reason_said(log, advice, grid, likeliest=likeliest))


def idle_lines(log: GameLog, here: Here, grid: Grid) -> tuple[list[Message], Pick | None]:
    """`best_suggestion` where the room's likeliest suggestion teaches nothing (its answer is
    known in advance, `solver.advice.idle_said`): as elsewhere, the question to ask here first,
    the best here that teaches something, which "Use this suggestion" taps; then one line more,
    as everywhere: where to head next when another room's cards are likelier (`head_line`),
    else why not the likeliest here. With nothing here that teaches anything, where to head
    leads, saying why not here, with nothing to tap: my pawn is here this turn, and "Use this
    suggestion" moved the Room chip to the room to head for, a suggestion the rules do not
    allow (a phone play-through; the forum has no board: another place is tapped). Until
    2026-12-04 where to head led in both cases and the question here came after it ("If you
    stay: ..."), the one line of the advice that put the room's question second; then for a
    while the question here was followed by both why not the likeliest and where to head,
    three lines where the advice says one thing and at most one more (a phone play-through
    read 'Miss Scarlet, Candlestick, Library would teach you nothing (nobody can refute it)',
    my own three cards, between the question to ask and where to head)."""
    from solver.advice import idle_said

    why = idle_said(log, here.best, grid)
    suspect, weapon, room = here.best.triple
    said: list[Message] = []
    if here.stay is not None:
        said.append(ask_line(log, here.stay, grid, likeliest=False))  # the idle one is likelier
        if here.elsewhere is not None:  # the one line more: where to head, not why not here
            said.append(head_line(log, here.elsewhere))
        else:
            said.append(say("{suspect}, {weapon}, {room} would teach you nothing ({why})",
                            suspect=suspect, weapon=weapon, room=room, why=why or ""))
    elif here.elsewhere is not None:
        there = here.elsewhere.triple
        said.append(say("Another place: ask {suspect}, {weapon}, {room}: with this place "
                        "{asked} would teach you nothing ({why})", room=there[2],
                        suspect=there[0], weapon=there[1], asked=Listing((suspect, weapon), ","),
                        why=why or "") if forum_dealt(log.game) else
                    say("Where to head: {room}, to ask {suspect}, {weapon}: here {asked} "
                        "would teach you nothing ({why})", room=there[2], suspect=there[0],
                        weapon=there[1], asked=Listing((suspect, weapon), ","), why=why or ""))
    else:  # nothing scored anywhere tells anything
        said.append(say("No suggestion would teach you anything more about the envelope"))
    pick = here.stay or (here.elsewhere if forum_dealt(log.game) else None)  # a board's other
    return said, None if pick is None else (*pick.triple, None)  # room is for a later turn


def head_line(log: GameLog, there: Advice) -> Message:
    """Below the question to ask in the room chosen: ``there``, the best in another room, whose
    cards are likelier: where to head next (the forum variant has no board: another place)."""
    suspect, weapon, room = there.triple
    return (say("Another place is likelier: ask {suspect}, {weapon}, {room}", suspect=suspect,
                weapon=weapon, room=room) if forum_dealt(log.game) else
            say("Likelier cards in {room}: head there next, to ask {suspect}, {weapon}",
                room=room, suspect=suspect, weapon=weapon))


def best_question(log: GameLog) -> Advised | None:
    """"Suggest for me" on the forum variant's question to one player (`best_suggestion`'s
    twin): with nothing tapped, whom to ask and what (`solver.advice.Advisor.whom`: the
    likeliest cards, put to the player whose answer should tell most). With a place or a player
    tapped (under "Asked"), first the question for them: the best in that place, put to the
    player tapped (`Advisor.asking`) or to the one who tells most there; then, at most one line,
    the advice with nothing tapped where it is better (`better_question`). On a certain
    envelope, that no question can teach more. Computed once per log, place and player asked,
    from the log's `advisor`."""
    from solver.advice import reason_said

    room, asked = chips_asked(log)

    def lines(advisor: Advisor) -> tuple[list[Message], Pick | None]:
        if advisor.grid.accusation_safe:  # no answer can tell more: nothing to tap
            return [say("No suggestion would teach you anything more about the envelope")], None
        first = put_first(advisor, room, asked)
        to, best = first.player, first.best
        top = asked is None or advisor.asking(asked, room)[0].triple == best.triple
        better = (better_question(log, advisor, first)
                  if room is not None or asked is not None else None)
        suspect, weapon, room_named = best.triple
        said = [say("Ask {player}: {suspect}, {weapon}, {room}: {reason}", player=to,
                    suspect=suspect, weapon=weapon, room=room_named,
                    reason=reason_said(log, best, advisor.grid,  # not where likelier ones
                                       likeliest=top and (better is None or not better[1])))]
        if better is not None:
            said.append(better[0])
        return said, (*best.triple, to)

    return advised(log, ("Asked one", room, asked), lines)


def better_question(log: GameLog, advisor: Advisor, first: Whom) -> tuple[Message, bool] | None:
    """Beside the question for the place or player tapped (``first``), the one "Suggest for
    me" asks with nothing tapped (`Advisor.whom`), where its cards are likelier or its answer
    should tell more (and tells something: `solver.advice.idle_said`); with whether its cards
    are likelier. One line, so that it cannot contradict another: until 2026-12-04 a phone
    play-through read "Asking Cat should tell you more" (in the place tapped) beside "Another
    place is likelier: ask Bob: ..." (the player tapped, whose answer there told nothing).
    ``None`` where it is the same question, or no better."""
    from solver.advice import idle_said

    top = advisor.whom()
    best, there = first.best, top.best
    if (top.player, there.triple) == (first.player, best.triple):
        return None
    likelier = round(there.score, 9) > round(best.score, 9)
    telling = round(there.gain, 9) > round(best.gain, 9)
    if not (likelier or telling) or idle_said(log, there, advisor.grid) is not None:
        return None
    suspect, weapon, place = there.triple
    if likelier and place != best.triple[2]:
        return (say("Another place is likelier: ask {player}: {suspect}, {weapon}, {room}",
                    player=top.player, suspect=suspect, weapon=weapon, room=place)
                if forum_dealt(log.game) else
                say("Likelier in another room: ask {player}: {suspect}, {weapon}, {room}",
                    player=top.player, suspect=suspect, weapon=weapon, room=place)), True
    if there.triple == best.triple:
        return say("Asking {player} should tell you more", player=top.player), False
    return say("Asking {player} about {suspect}, {weapon}, {room} should tell you more",
               player=top.player, suspect=suspect, weapon=weapon, room=place), likelier


def chips_asked(log: GameLog) -> tuple[str | None, str | None]:
    """The place and the player tapped for a question to one player (``None``: none), as
    `best_question` advises on them: a player tapped for another's question to me is dropped
    once the chips draw."""
    room, asked = state.get(CARD_KEYS[Category.ROOM]), state.get("e_asked")
    return room, None if asked == log.game.me else asked


def my_question_asked(log: GameLog) -> tuple[str | None, str | None]:
    """`chips_asked` while the Turn form holds my own question to one player (the only entry
    "Suggest for me" advises on in the forum variant), else nothing tapped: what the race line
    plays out as my next question (`play.race_line`)."""
    if (state.get("kind") != "Asked one" or state.get("by") != log.game.me
            or state.get("editing") is not None):
        return None, None
    return chips_asked(log)


def put_first(advisor: Advisor, room: str | None, asked: str | None) -> Whom:
    """The question "Suggest for me" shows first for the place and the player tapped
    (`best_question`): whom to ask and what (`Advisor.whom`) with nobody tapped; with a player
    tapped, the best to put to them whose answer tells something (`Advisor.asking`,
    `Advisor.first_telling`), the best of all where none does: the likeliest put to them could
    be the question they had just passed on, offered to tap again (a review; `advise --to`
    already asked the first that tells)."""
    from solver.advice import Whom

    if asked is None:
        return advisor.whom(room)
    ranked = advisor.asking(asked, room)
    return Whom(asked, advisor.first_telling(ranked) or ranked[0])


def advised(log: GameLog, choice: tuple[object, ...],
            lines: Callable[[Advisor], tuple[list[Message], Pick | None]]) -> Advised | None:
    """"Suggest for me"'s lines for ``log`` and the ``choice`` of chips: ``lines`` of the log's
    `advisor`, worked out once per log and choice (kept as words: the language may change);
    above them that the envelope is certain, when it is; once the game is over, or I accused
    wrongly, only that (`solver.race.past_advice`). ``None`` while the log's advisor is still
    being made (`log_advisor`)."""
    from solver.errors import ClueError
    from solver.race import past_advice

    past = past_advice(log)
    if past is not None:
        return Advised([past.render()], None)
    cached = state.get("best_suggestion")
    if cached is None or cached[0] != (log, choice):
        said: list[Message]
        pick: Pick | None
        try:
            advisor = log_advisor(log)
            if advisor is None:
                return None
            said, pick = lines(advisor)
        except ClueError:
            said, pick = [say("No advice while the log has a contradiction.")], None
        cached = state.best_suggestion = ((log, choice), said, pick)
    grid, ignored = live().grid()
    certain = [verdict(grid)] if grid.accusation_safe and not ignored else []
    return Advised([*certain, *(line.render() for line in cached[1])], cached[2])


def log_advisor(log: GameLog) -> Advisor | None:
    """The advisor of ``log`` (`solver.advice.Advisor`, `ADVICE_SAMPLES` deals): made once per
    log, whatever room is tapped, on a thread beside the runs (`make_advisor`: about a second
    of CPU at a 12-player table); a new log (an event recorded or undone, another game) makes
    a new one, and the one being made for the old log is stopped. A run waits `ADVICE_WAIT`
    for it: ``None`` if it is not made by then (`advice_note` looks again). Raises `ClueError`
    as making it did (the same log raises again)."""
    job = advice_job(log)
    if not job.ready(ADVICE_WAIT):
        return None
    return job.result()  # None if stopped: the note's next look starts it again


def advice_job(log: GameLog) -> Beside[Advisor]:
    """The making of ``log``'s advisor beside the runs (`log_advisor`), started if it was not
    (the one being made for another log is stopped), ahead of the race line and the odds."""
    return beside_for("advice_job", log, lambda grid: make_advisor(log, grid), "advice",
                      ahead=True)


def advice_first() -> None:
    """At the start of a run whose Turn form will show "Suggest for me" (my turn to suggest or
    ask, the toggle on), the log's advisor is started before the header waits for the race
    line: the run's one wait for the work beside it (`notebook_app.odds_count.one_wait`) goes
    to the advice too, the race line giving way to it (``ahead``). Started only when the form
    asks, it had only what the race line left of that wait (at 6 players the race takes up to
    most of a second): none, and the advice came a fragment's look later."""
    from solver.odds import warm
    from solver.race import past_advice

    log = live().log
    on = state.get("advise_me", state.get("advise_on", False))
    if (on and log.game.me is not None and state.get("by") == log.game.me
            and state.get("kind") in ("Suggestion", "Asked one")
            and state.get("view") in (None, "Turn") and state.get("editing") is None
            and warm.ready() and past_advice(log) is None):
        advice_job(log)


def make_advisor(log: GameLog, grid: Grid | None) -> Advisor:
    """The advisor of ``log`` (``grid``: its SAT grid, when the run has it), on the thread
    beside the runs: no screen here. What every room and player asked share is ranked here too
    (`Advisor.anywhere`; in the forum variant `Advisor.whom` in any room, a third of a second
    at a 12-player table), so a tap on a chip ranks only its own suggestions."""
    from solver.advice import Advisor
    from solver.errors import ClueError

    advisor = Advisor(log, samples=ADVICE_SAMPLES, grid=grid)
    with suppress(ClueError):  # said where the lines are worked out, in the run
        advisor.anywhere()
        if forum_style(log):
            advisor.whom()
    return advisor


def advice_weighing() -> bool:
    """Whether the advisor of the game shown is still being made beside the runs."""
    return still_working("advice_job")


def advice_note() -> None:
    """"Suggest for me"'s place while the log's advisor is made, looked at every `ADVICE_POLL`
    seconds; once made (or the game has changed) the page is drawn again, with the advice."""
    working_note(_("Weighing suggestions…"), not advice_weighing())


def least_telling(log: GameLog, by: str, cards: tuple[str, ...]) -> str:
    """Which of my cards to show ``by`` (`solver.advice.what_to_show`), in one line; computed
    once per log and suggestion, over the race the header drew for this log when it has one
    (``table_race``: the same draws ``what_to_show`` would make with as many deals), and
    nothing once the game is over (nobody asks any more)."""
    from solver.advice import what_to_show
    from solver.errors import ClueError

    if game_won(log):
        return ""
    cached = state.get("least_telling")
    if cached is None or cached[0] != (log, by, cards):
        line: Message | None = None
        kept = state.get("table_race")
        drawn = kept[1] if kept is not None and kept[0] == log else None
        try:
            advice = what_to_show(log, by, cards, race_of=drawn)
            left = advice.open_after.get(advice.card)
            line = (say("Show {card}", card=advice.card) if left is None else
                    say_n("Show {card}: it leaves {player} the most envelopes open (about "
                          "{count})",
                          "Show {card}: it leaves {player} the most envelopes open (about "
                          "{count})", round(left), card=advice.card, player=by,
                          count=round(left)))
        except ClueError:
            line = None
        cached = state.least_telling = ((log, by, cards), line)
    said: Message | None = cached[1]
    return "" if said is None else said.render()


def shown_chips(refuter: str) -> None:
    """Which card was shown, when the user saw it: only cards that can be the answer."""
    log = live().log
    game = log.game
    by, cards = state.by, picked_cards()
    if game.me not in (by, refuter) or cards is None:
        return
    if refuter == game.me:
        choice = show_choice(log, by, cards)
        first = host_shows_mine(cards)
        if first is not None:  # nothing to choose: the host showed it by the rule
            st.caption(plain(_("The host answered for you: {card}, your first card of the "
                               "three.").format(card=first)))
            return
        if len(choice.matching) != 1:
            st.caption(plain(choice.advice))
        hint = (least_telling(log, by, cards) if len(choice.matching) > 1
                and not choice.already_seen and state.get("editing") is None
                and not preparing() else "")
        if hint:
            st.caption(plain(hint))
        if len(choice.matching) > 1:
            chips(_("Card you showed"), "e_shown", choice.matching,
                  format_func=lambda c: (_("{card} ✓ seen").format(card=c)
                                         if c in choice.already_seen else c))
        elif choice.matching:
            st.caption(plain(_("You showed {card}: your only card of the three.").format(
                card=choice.matching[0])))
        return
    if state.get("editing") is not None:  # fixing an entry: the grid may hold the mistake
        candidates = tuple(c for c in cards if c not in game.my_cards)
    else:
        candidates = shown_candidates(game, live().grid()[0], by, refuter, cards,
                                      first_in_order=host_rule())
    if len(candidates) == 1:
        st.caption(plain(_("{player} can only have shown {card}.").format(
            player=refuter, card=candidates[0])))
        return
    if not candidates:  # (`clash_warning` says so, and why)
        candidates = tuple(c for c in cards if c not in game.my_cards)
    chips(_("Card {player} showed you").format(player=plain(refuter)), "e_shown", candidates)


def side_peek_chips() -> None:
    """2 players: the side card looked at when nobody showed, and what it was if the user
    looked."""
    game = live().log.game
    if state.get("editing") is None and not live().log.unpeeked_slots(state.by):
        state.e_slot = state.e_peek = None  # (a slot tapped for another suggester)
        st.caption(plain(_("{player} has looked at every side card: a look now shows nothing "
                           "new.").format(player=state.by)))
        return
    chips(_("Side card looked at"), "e_slot", tuple(range(1, game.side_cards + 1)),
          format_func=lambda s: _("slot {number}").format(number=s))
    if game.me == state.by and state.get("e_slot"):
        log, editing = live().log, state.get("editing")
        others = log if editing is None else replace(
            log, events=log.events[:editing] + log.events[editing + 1:])
        options = side_candidates(live().grid()[0], others, state.e_slot)
        original = state.get("e_peek")
        if original is not None and original not in options and state.get("editing") is not None:
            options = (*options, original)
        chips(_("Side card you saw"), "e_peek", options)


def reveal_form() -> None:
    """Whose cards were revealed and which. A player whose whole hand is revealed already is
    said to be, and no card is offered (they all were again, as if not seen); a card revealed
    before is marked so, and still offered: a whole hand is every card of it. Its two parts
    start with a heading for screen readers (`notebook_app.reader.form_part`)."""
    log = live().log
    game = log.game
    whose = tuple(n for n in game.player_names if n != game.me)
    editing = state.get("editing")
    original = state.get("edit_original") if editing is not None else None
    if isinstance(original, Reveal) and original.player not in whose:
        whose = (*whose, original.player)  # a reveal of the user's own cards stays theirs
    if state.get("r_player") not in whose and unset("r_player"):
        state.r_player = revealed_next(log, whose)
    form_part(_("Whose cards"))
    st.pills(_("Whose cards"), whose, key="r_player", required=True, format_func=plain)
    before = log if editing is None else log.upto(editing)  # (the entries before the edited)
    said = fully_revealed(before, state.r_player)
    if said is not None:
        st.info(plain(said), icon=":material/visibility:")
        return
    grid = live().grid()[0]
    kept = tuple(original.cards) if isinstance(original, Reveal) else ()
    options = tuple(c for c in game.deck
                    if c in possible_for(grid, state.r_player) or c in kept
                    or c in (state.get("r_cards") or ()))
    if unset("r_cards"):
        state.r_cards = [c for c in state.get("r_cards") or () if c in options]
    seen = {c for _n, e in reveals_of(before, state.r_player) for c in e.cards}
    form_part(_("Cards you saw"))
    st.pills(_("Cards you saw"), options, selection_mode="multi", key="r_cards",
             format_func=lambda c: plain(_("{card} ✓ revealed").format(card=c) if c in seen else c))
    if "r_whole" not in state and unset("r_whole"):  # a fresh form's: the page keeps a tick
        state.r_whole = False  # the run only forgot (after Record, the next hand's form)
    st.checkbox(_("That is their whole hand"), value=bool(state.get("r_whole")),
                key="r_whole")  # an edited event's, also if drawn late (`home.derived_key`)


def pending_show_prompt() -> None:
    """Which card was shown in the event just saved (``pending_show``: its index and itself);
    not while that very entry is open for editing, whose form asks it too (a Japanese
    play-through: two places asked which card Hanako showed)."""
    log = live().log
    asked = shown_asked()
    if asked is None:
        return
    index, event = asked
    if state.get("editing") == index:
        return
    with st.container(border=True, key="show_prompt"):
        if event.by == log.game.me and event.refuted_by is not None:
            st.markdown("**" + _("Which card did {player} show you?").format(
                player=plain(event.refuted_by)) + "**")
            grid = live().grid()[0]
            cards = shown_candidates(log.game, grid, event.by, event.refuted_by, event.cards)
            cards = cards or tuple(c for c in event.cards if c not in log.game.my_cards)
            seen: tuple[str, ...] = ()
        else:
            choice = show_choice(log, event.by, event.cards)
            st.markdown("**" + _("{player} asked {cards}.").format(
                player=plain(event.by), cards=plain(list_said(event.cards))) + "** "
                + _("Which card did you show?"))
            st.markdown(plain(choice.advice))
            cards, seen = choice.matching, choice.already_seen
        with st.container(horizontal=True):
            for card in cards:
                label = _("{card} ✓ seen").format(card=card) if card in seen else card
                button(plain(label), key=f"showed_{card}", on_click=set_shown,
                       args=(index, event, card))
            button(_("Skip"), key="showed_skip", on_click=skip_show)
