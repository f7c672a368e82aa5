"""The home screen: this browser's saved games, a new game, an example or an uploaded log."""

from __future__ import annotations

import streamlit as st

from solver.cards import Deck
from solver.editions import Dealing, editions, rule_for
from solver.errors import InvalidLogError
from solver.i18n import N_, _, join, ngettext
from solver.limits import MAX_CARDS, MAX_NAME_CHARS, MAX_PLAYERS, MAX_TEXT_CHARS

from .. import history
from ..language import uploader_words
from ..newgame import (
    build_game,
    custom_deck,
    dealt_sizes,
    examples,
    open_example,
    parse_names,
    side_cards,
)
from ..plain import plain
from ..session import open_game, problems_text, start_from, store
from ..store import StoreError, parse_upload
from .notation import paste_game_form

CUSTOM = "custom"
PLAYERS_CHARS = MAX_PLAYERS * (MAX_NAME_CHARS + 2)
"""The players box holds at most this much: the most players with the longest names, one a
line (a limit every text box has, so Streamlit's count stands beside its key hint)."""
CARDS_CHARS = MAX_CARDS * (MAX_NAME_CHARS + 2)
"""The same for a custom box's cards of one kind."""
"""The card set choice for typing one's own cards."""
RULE_TITLES = {
    Dealing.CLASSIC: N_("Classic: all cards dealt"),
    Dealing.REFRESH: N_("Refresh 2012: equal hands, rest face up"),
    Dealing.TWO_PLAYER: N_("2 players: 4 side cards"),
    Dealing.FORUM: N_("Forum: 3 cards each"),
}

state = st.session_state


def new_game_deck() -> tuple[Deck, str | None]:
    presets = editions()
    chosen = state.get("new_edition", "clue-classic")
    if chosen != CUSTOM:
        return presets[chosen].deck, chosen
    deck = custom_deck(state.get("new_suspects", ""), state.get("new_weapons", ""),
                       state.get("new_rooms", ""))
    return deck, None


def start_game() -> None:
    deck, edition_name = new_game_deck()
    names = parse_names(state.get("new_players", ""))
    if not names:
        state.start_problem = _("Type the players' names to go on.")
        return
    sizes = tuple(int(state.get(f"new_size_{i}", 0)) for i in range(len(names)))
    rule = state.get("new_rule", Dealing.CLASSIC)
    try:
        log = build_game(
            deck, names, sizes, rule=rule, me=state.get("new_me"),
            my_cards=tuple(c for c in deck if c in set(state.get("new_mine") or ())),
            face_up=tuple(c for c in deck if c in set(state.get("new_face_up") or ())),
            title=state.get("new_title", "").strip() or None, edition=edition_name,
        )
    except InvalidLogError as err:
        state.start_problem = problems_text(err)  # beside Start, where the player looks
        return
    start_from(log, history.started())


def open_chosen_example() -> None:
    try:
        log = open_example(state.get("example", ""))
    except InvalidLogError as err:
        state.example_error = problems_text(err)
        return
    start_from(log, history.example(state.example))


def open_upload() -> None:
    upload = state.get("upload")
    if upload is None:
        state.open_error = _("Choose a clue-notebook/1 file first.")
        return
    try:
        log = parse_upload(upload.getvalue())
    except InvalidLogError as err:
        state.open_error = (_("{file} is not a valid log.").format(file=upload.name) + " "
                            + problems_text(err))
        return
    start_from(log, history.imported(upload.name))


def form_error(key: str) -> None:
    """The problem a button of this form just met, shown right above the button tapped (the
    top of the page is out of view on a phone)."""
    text = state.pop(key, None)
    if text:
        st.error(plain(text), icon=":material/warning:")


def too_large(players: int, cards: int) -> str:
    """Why a game cannot start: more players or cards than the server takes (`solver.limits`)."""
    over = [ngettext("{count} player (at most {limit})", "{count} players (at most {limit})",
                     players).format(count=players, limit=MAX_PLAYERS)
            if players > MAX_PLAYERS else None,
            ngettext("{count} card (at most {limit})", "{count} cards (at most {limit})",
                     cards).format(count=cards, limit=MAX_CARDS)
            if cards > MAX_CARDS else None]
    return _("{sizes}: a game this large would take the server too long. Shorten the lists to "
             "go on.").format(sizes=join([o for o in over if o]))


def new_game_form() -> None:
    presets = editions()
    options = (*presets, CUSTOM)
    if state.get("new_edition") not in options:
        state.new_edition = "clue-classic" if "clue-classic" in presets else options[0]
    st.selectbox(_("Cards"), options, key="new_edition", format_func=lambda n: (
        _("Custom cards…") if n == CUSTOM else presets[n].shown_title))
    if state.new_edition == CUSTOM:
        st.text_area(_("Suspects (one per line or commas)"), key="new_suspects",
                     max_chars=CARDS_CHARS)
        st.text_area(_("Weapons"), key="new_weapons", max_chars=CARDS_CHARS)
        st.text_area(_("Rooms"), key="new_rooms", max_chars=CARDS_CHARS)
    deck, edition_name = new_game_deck()
    st.text_area(_("Players in seating order (clockwise)"), key="new_players",
                 max_chars=PLAYERS_CHARS, placeholder="Ann\nBob\nCat", height=110)
    names = parse_names(state.get("new_players", ""))
    if not names:
        st.caption(_("Type the players' names to go on."))
        return
    if len(names) > MAX_PLAYERS or len(deck) > MAX_CARDS:
        st.error(too_large(len(names), len(deck)), icon=":material/warning:")
        return
    if state.get("new_me_for") != names or state.get("new_me") not in (None, *names):
        state.new_me_for = names
        if state.get("new_me") not in names:
            state.new_me = names[0] if names else None
    st.selectbox(_("You are"), (*names, None), key="new_me",
                 format_func=lambda n: _("Nobody (spectator)") if n is None else n)
    default_rule = (rule_for(presets[edition_name], len(names)) if edition_name is not None
                    else Dealing.CLASSIC)
    rule_key = (edition_name, len(names))
    if state.get("new_rule_for") != rule_key or not isinstance(state.get("new_rule"), Dealing):
        state.new_rule_for, state.new_rule = rule_key, default_rule
    st.selectbox(_("Dealing"), tuple(Dealing), key="new_rule",
                 format_func=lambda rule: _(RULE_TITLES[rule]))
    sizes = dealt_sizes(state.new_rule, deck, names)
    size_key = (len(deck), names, state.new_rule)
    stale = any(f"new_size_{i}" not in state for i in range(len(names)))  # a game was open
    if state.get("new_sizes_for") != size_key or stale:
        state.new_sizes_for = size_key
        for i, size in enumerate(sizes):
            state[f"new_size_{i}"] = size
    typed = [int(state.get(f"new_size_{i}", 0)) for i in range(len(names))]
    if names:
        with st.expander(plain(_("Hand sizes: {sizes}").format(sizes=", ".join(
                f"{n} {s}" for n, s in zip(names, typed, strict=True))))):
            for i, name in enumerate(names):
                st.number_input(plain(name), min_value=0, max_value=len(deck), step=1,
                                key=f"new_size_{i}")
    side = side_cards(state.new_rule, deck, names)
    left = len(deck) - 3 - sum(typed) - side
    me = state.get("new_me")
    if me is not None and deck.cards:
        mine = typed[names.index(me)] if me in names else 0
        state.new_mine = [c for c in state.get("new_mine") or () if c in deck]
        st.pills(ngettext("Your {count} card", "Your {count} cards", mine).format(count=mine),
                 deck.cards, selection_mode="multi", key="new_mine",
                 format_func=plain)
    if left > 0:
        state.new_face_up = [c for c in state.get("new_face_up") or () if c in deck]
        st.pills(ngettext("The {count} face-up card", "The {count} face-up cards", left)
                 .format(count=left), deck.cards, selection_mode="multi",
                 key="new_face_up", format_func=plain)
    if side:
        st.caption(_("4 side cards lie face down; peeks at them are entered with suggestions."))
    st.text_input(_("Title (optional)"), key="new_title", max_chars=MAX_TEXT_CHARS)
    with st.container(key="start"):
        problem = state.pop("start_problem", None)
        if problem:
            st.error(plain(problem), icon=":material/warning:")
        st.button(_("Start game"), type="primary", key="start_game", on_click=start_game,
                  width="stretch")


def open_saved(game_id: str) -> None:
    open_game(game_id)


def saved_games() -> None:
    """This browser's games (kept by its cookie), newest first, one tap to open."""
    try:
        saved = store().games(state.shelf)
    except StoreError as err:
        st.error(_("Your saved games cannot be listed now: {reason}. Reload the page in a "
                   "moment.").format(reason=_(err.reason)), icon=":material/warning:")
        return
    if saved:
        st.subheader(_("Your games"))
        for game in saved:
            when = game.saved[:16].replace("T", " ")
            line = (ngettext("{title} · {count} event · {saved} · read only",
                             "{title} · {count} events · {saved} · read only", game.events)
                    if game.access == "read" else
                    ngettext("{title} · {count} event · {saved}",
                             "{title} · {count} events · {saved}", game.events))
            st.button(plain(line.format(title=game.title, count=game.events, saved=when)),
                      key=f"open_{game.id}", on_click=open_saved, args=(game.id,),
                      width="stretch")


def home_screen() -> None:
    st.title("Clue Notebook")
    saved_games()
    st.subheader(_("New game"))
    new_game_form()
    st.subheader(_("Or open a log"))
    found = examples()
    if found:
        st.selectbox(_("Example"), tuple(found), key="example")
        form_error("example_error")
        st.button(_("Open example"), key="open_example", on_click=open_chosen_example)
    uploader_words()
    st.file_uploader(_("Upload a clue-notebook/1 file"), type=["json", "clue", "txt"],
                     key="upload")
    form_error("open_error")
    st.button(_("Open file"), key="open_upload", on_click=open_upload)
    paste_game_form()
