"""The game as text in the notation (``docs/notation.md``): pasting a whole game on the home
screen, and on the Log screen copying the open game as text or pasting a thread's turns into it.

What was pasted stays in its box when it cannot be read; the problems show right above the
button, each pasted line they name with a caret under the place where reading stopped.
"""

from __future__ import annotations

import functools

import streamlit as st

from solver.editions import Dealing, forum_dealt, preset
from solver.errors import InvalidLogError
from solver.game import GameLog, Suggestion
from solver.i18n import _, current
from solver.notation import read_text, write_text
from solver.values import replace

from .. import history
from ..entry import next_entry
from ..pasted import (
    Trouble,
    inner_repeat_said,
    out_of_turn,
    read_game,
    read_turns,
    repeat_said,
    repeated,
    trouble,
    unnoted_host_answers,
)
from ..plain import plain
from ..session import ENTRY_KEYS, button, can_edit, commit, left_out, live, start_from
from .game import export_name

GAME_EXAMPLE = """edition: clue-classic
players: Ann 6, Bob 6, Cid 6
me: Ann
my cards: Plum Knife Hall Rope Study Lounge

Ann: Scarlet Pipe Kitchen / Bob - Cid + Pipe
Bob: Green Rope Hall / Cid +"""
"""The placeholder of the paste box: what a game in notation looks like (US box)."""

EXAMPLE_PLAYERS = {"en": ("Ann", "Bob", "Cid"), "fi": ("Aino", "Niko", "Oona"),
                   "ru": ("Аня", "Боря", "Вика"), "ja": ("ユキ", "ケン", "アイ")}
"""The example's players, by the language of the box's cards."""


def example_players(edition_name: str | None) -> tuple[str, ...]:
    """The players the new-game form and the paste box give as an example: `EXAMPLE_PLAYERS` in
    the language of the box's cards (custom cards: the reader's).

    >>> example_players("clue-classic-ja"), example_players("cluedo-refresh-2012-fi")
    (('ユキ', 'ケン', 'アイ'), ('Aino', 'Niko', 'Oona'))
    """
    edition = preset(edition_name) if edition_name is not None else None
    language = edition.language if edition is not None else current()
    return EXAMPLE_PLAYERS.get(language, EXAMPLE_PLAYERS["en"])


@functools.cache
def game_example(edition_name: str) -> str:
    """`GAME_EXAMPLE` in the cards of the box chosen for a new game (a Russian box, Russian
    cards and names), each card where the US box has its own; a name no box has, or a forum
    box (dealt otherwise), gets the US example.

    >>> print(game_example("cluedo-classic-ru"))
    edition: cluedo-classic-ru
    players: Аня 6, Боря 6, Вика 6
    me: Аня
    my cards: Плам Кинжал Холл Верёвка Кабинет Гостиная
    <BLANKLINE>
    Аня: Скарлет труба Кухня / Боря - Вика + труба
    Боря: Грин Верёвка Холл / Вика +
    """
    edition = preset(edition_name)
    us = read_text(GAME_EXAMPLE)
    if edition is None or edition.dealing is Dealing.FORUM or edition.name == us.game.edition:
        return GAME_EXAMPLE
    names = dict(zip(us.game.player_names, example_players(edition_name), strict=True))
    deck = us.game.deck

    def card(name: str) -> str:
        category = deck.category_of(name)
        return edition.deck.of(category)[deck.of(category).index(name)]

    def name(player: str | None) -> str | None:
        return None if player is None else names[player]

    game = replace(us.game, deck=edition.deck, edition=edition.name, me=name(us.game.me),
                   players=tuple(replace(p, name=names[p.name]) for p in us.game.players),
                   my_cards=tuple(card(c) for c in us.game.my_cards))
    events = tuple(replace(e, by=names[e.by], cards=tuple(card(c) for c in e.cards),
                           passes=tuple(names[p] for p in e.passes),
                           refuted_by=name(e.refuted_by),
                           shown=None if e.shown is None else card(e.shown))
                   for e in us.events if isinstance(e, Suggestion))
    return write_text(GameLog(game, events)).rstrip("\n")

SCROLL_INTO_VIEW = """<script>
setTimeout(() => document.querySelector('.st-key-KEY')
  ?.scrollIntoView({block: 'center', behavior: 'instant'}), 100);
</script>"""
"""Brings the container keyed ``KEY`` (a fixed name, never user text) to mid-screen."""

state = st.session_state


def show_trouble(key: str) -> None:
    """The problems a paste just met (kept under ``key``), where the player looks."""
    found: Trouble | None = state.pop(key, None)
    if found is None:
        return
    with st.container(key=f"{key}_shown"):
        st.error(plain(_("Please fix:") + "\n" + "\n".join(f"- {p}" for p in found.problems)),
                 icon=":material/warning:")
        if found.pointed:
            st.code(found.pointed, language=None, wrap_lines=True)
    # the message grows above the button just tapped, which pushes it below the screen's edge
    st.html(SCROLL_INTO_VIEW.replace("KEY", f"{key}_shown"), unsafe_allow_javascript=True)


def show_checks(key: str, *, opened: bool = False) -> None:
    """What to check in the turns just added, or in a game just opened (``opened``:
    `out_of_turn`, `unnoted_host_answers`; under ``key`` the game, the revision that added them
    and the first one's number: `check_from`), where the player looks, until the game changes
    again: the page is drawn again after a save without a tap (the odds, the race line), which
    took a message said once. Put into words as drawn, in the language chosen then. A game just
    opened shows it under the tabs, at the top of the page it opens on: no scroll."""
    kept = state.get(key) or (None, None, 0)
    log = live().log
    checks = ((*out_of_turn(log, kept[2], left_out(), opened=opened),
               *unnoted_host_answers(log, kept[2], opened=opened))
              if kept[:2] == (state.game_id, state.revision[0]) else ())
    if not checks:
        return
    with st.container(key=f"{key}_shown"):
        for check in checks:
            st.warning(plain(check), icon=":material/warning:")
    if not opened:
        st.html(SCROLL_INTO_VIEW.replace("KEY", f"{key}_shown"), unsafe_allow_javascript=True)


def check_from(key: str, first: int) -> None:
    """Keep under ``key`` that the open game's entries from ``first`` on are to be checked
    (`show_checks`), in its revision shown now."""
    state[key] = (state.game_id, state.revision[0], first)


def check_opened() -> None:
    """A whole game just opened (pasted or uploaded): its turns taken while out are said on
    its first screen (`show_checks`). Nothing when it did not open."""
    if "live" in state:
        check_from("opened_check", 1)


def open_pasted_game() -> None:
    text = state.get("paste_game") or ""
    try:
        log = read_game(text)
    except InvalidLogError as err:
        state.paste_game_error = trouble(text, err)
        return
    start_from(log, history.pasted_game(len(log.events)))
    check_opened()


def paste_game_form(edition: str) -> None:
    """The home screen's box for a whole game in notation (or JSON), its example in the cards of
    the box ``edition`` (the one chosen for a new game; for a custom deck, whose cards are not
    known yet, the box of the app's language, `home.first_edition`). Neither paste box has a
    ``max_chars``: the browser drops a paste longer than that whole, leaving the box as it was,
    so a pasted 5 MB file vanished and Open said the box was empty; a paste over `MAX_PASTE`
    stays in the box and reading it says how long it is (`notebook_app.pasted`)."""
    st.text_area(_("Paste a game in notation"), key="paste_game", height=160,
                 placeholder=game_example(edition),
                 help=_("A header (edition, players with hand sizes, me, my cards), then one "
                        "line per turn. Any unique start of a card's name will do. JSON works "
                        "too."))
    show_trouble("paste_game_error")
    button(_("Open pasted game"), key="paste_game_open", on_click=open_pasted_game)


def add_pasted_turns() -> None:
    """The pasted turns after the game's own; those at the paste's start that repeat the game's
    last entries (`repeated`: a thread copied again from a point already added) are left out,
    which is said (`show_repeat`), and the text stays in its box to be checked. Turns that
    repeat entries the log goes on after (a turn recorded with the Turn form since the thread
    was pasted) add nothing: the pasted turns after them follow those entries in the thread,
    and may be the log's next entries said otherwise; that is said too."""
    text = state.get("paste_turns") or ""
    log = live().log
    state.paste_turns_repeat = None
    try:
        longer = read_turns(log, text)
    except InvalidLogError as err:
        state.paste_turns_error = trouble(text, err)
        return
    added = len(longer.events) - len(log.events)
    if added == 0:
        state.paste_turns_error = Trouble((_("no turn found: paste lines such as "
                                             "'Ann: Plum Rope Hall / Bob - Cid +'"),), "")
        return
    first = len(log.events) + 1
    twice, repeats = repeated(log, longer)
    if twice and repeats + twice < first:  # entries the log goes on after: nothing is added,
        state.paste_turns_repeat = (state.game_id, state.revision[0], twice, repeats,  # the
                                    None, added - twice)  # rest maybe the log's next, reworded
        return
    if twice:
        longer = replace(longer, events=log.events + longer.events[first - 1 + twice:])
        added -= twice
        if not added:
            state.paste_turns_repeat = (state.game_id, state.revision[0], twice, first - twice,
                                        None, None)
            return
    if commit(longer, history.pasted_turns(first, first + added - 1)):
        if twice:  # the text stays, to be checked
            state.paste_turns_repeat = (state.game_id, state.revision[0], twice, first - twice,
                                        first, None)
        else:
            state.paste_turns = ""
        check_from("paste_turns_check", first)
        if form_untouched():
            next_entry()  # the next suggester follows the pasted turns


def show_repeat() -> None:
    """What the last paste left out as repeated (`add_pasted_turns`), until the game changes
    again: kept as numbers, put into words as drawn (in the language chosen then)."""
    kept = state.get("paste_turns_repeat")
    if not kept or kept[:2] != (state.game_id, state.revision[0]):
        return
    _game, _revision, twice, repeats, first, rest = kept
    entries = (repeats, repeats + twice - 1)
    count = len(live().log.events)
    said = (inner_repeat_said(twice, entries, rest) if rest is not None else
            repeat_said(twice, entries, None if first is None else (first, count)))
    with st.container(key="paste_turns_repeat_shown"):
        st.warning(plain(said), icon=":material/content_copy:")
    st.html(SCROLL_INTO_VIEW.replace("KEY", "paste_turns_repeat_shown"),
            unsafe_allow_javascript=True)


def form_untouched() -> bool:
    """Whether the Turn form holds only its defaults (so nothing typed is lost by a reset)."""
    defaults = ("by", "e_room", "e_slot", "entry_problem")
    return state.get("editing") is None and not any(
        state.get(key) for key in ENTRY_KEYS if key not in defaults)


def turn_example(log: GameLog) -> str:
    """A turn of this game as a line of notation: the paste box's placeholder; in the forum
    variant (`solver.editions.forum_dealt`) a question to one player, never a round of the
    table."""
    game = log.game
    names = game.player_names
    deck = game.deck
    passes = names[1:2] if len(names) > 2 and not forum_dealt(game) else ()
    asked = Suggestion(names[0], (deck.suspects[0], deck.weapons[0], deck.rooms[0]),
                       passes=passes, refuted_by=names[-1])
    return write_text(GameLog(game, (asked,))).rstrip("\n").splitlines()[-1]


def notation_panel() -> None:
    """The Log screen's text view: the game in notation with a copy button and a download, and
    (with edit access) a box for turns pasted from a forum thread or a chat."""
    log = live().log
    title = (_("As text: copy, share or paste turns") if can_edit()
             else _("As text: copy or share"))  # a reader pastes nothing
    with st.expander(title, icon=":material/notes:"):
        st.caption(_("The whole game in notation. Tap it, then the copy button in its corner, "
                     "to send it in a chat message or paste it into another notebook."))
        st.code(write_text(log), language=None, wrap_lines=True)
        st.download_button(_("Download as text (.clue)"), write_text(log), key="export_text",
                           file_name=export_name(log.game).removesuffix(".json") + ".clue",
                           mime="text/plain",
                           width="stretch")
        if not can_edit():
            return
        st.text_area(_("Paste turns to add"), key="paste_turns", height=120,
                     placeholder=turn_example(log),
                     help=_("One line per turn, in the notation above: names and card "
                            "abbreviations as this game writes them."))
        show_trouble("paste_turns_error")
        show_repeat()
        show_checks("paste_turns_check")
        button(_("Add pasted turns"), key="add_paste", on_click=add_pasted_turns,
                  width="stretch")
