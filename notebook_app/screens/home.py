"""The home screen: this browser's saved games, a new game, an example or an uploaded log."""

from __future__ import annotations

import re
from datetime import UTC, datetime, tzinfo
from zoneinfo import ZoneInfo

import streamlit as st

from solver.cards import CATEGORIES, Category, Deck
from solver.editions import Deal, Dealing, editions, rule_for
from solver.ending import Close
from solver.errors import InvalidLogError
from solver.i18n import N_, _, current, join, list_said, ngettext
from solver.limits import (
    MAX_CARDS,
    MAX_NAME_CHARS,
    MAX_PLAYERS,
    MAX_TEXT_CHARS,
    shorten,
    text_problem,
)
from solver.report import category_label

from .. import history
from ..grid_view import cut, text_width
from ..hand import mine_label
from ..language import uploader_words
from ..newgame import (
    build_game,
    custom_deck,
    dealing,
    example_title,
    examples,
    forum_filled,
    forum_sizes,
    open_example,
    parse_names,
)
from ..plain import plain
from ..session import button, open_game, problems_text, start_from, store
from ..store import SavedGame, StoreError, parse_upload
from ..turns import describe
from ..typed import refuse_long, too_long
from .notation import check_opened, example_players, paste_game_form

CUSTOM = "custom"
"""The card set choice for typing one's own cards."""
PLAYERS_CHARS = MAX_PLAYERS * (MAX_NAME_CHARS + 2)
"""The players box takes at most this much: the most players with the longest names, one a
line; a longer text stays in the box and is refused (`notebook_app.typed`)."""
CARDS_CHARS = MAX_CARDS * (MAX_NAME_CHARS + 2)
"""The same for a custom box's cards of one kind."""
RULES = tuple(Dealing)
RULE_TITLES = {
    Dealing.CLASSIC: N_("Classic: all cards dealt"),
    Dealing.REFRESH: N_("Refresh 2012: equal hands, rest face up"),
    Dealing.TWO_PLAYER: N_("2 players: 4 side cards"),
    Dealing.FORUM: N_("Forum: 3 cards each"),
}

state = st.session_state


def first_edition() -> str:
    """The card set the Cards box starts at (its own default: never pushed, see `derived_key`;
    drawn late, a box left at its first option showed the Japanese classic box and chose it):
    the box in the language the session started in where that language has one (Russian: the
    Russian classic box), else the US classic box; kept for the session, so a language switched
    later leaves the box's default where its value is. In Russian the US box, its cards in
    English, took two taps to change before every game (a phone play-through)."""
    presets = editions()
    if state.get("cards_default") not in presets:
        own = [name for name, found in presets.items()
               if found.language == current() and found.dealing is not Dealing.FORUM]
        state.cards_default = (own[0] if len(own) == 1 else "clue-classic"
                               if "clue-classic" in presets else next(iter(presets)))
    return str(state.cards_default)


def card_boxes(forum: bool) -> dict[str, str]:
    """The custom cards' boxes: key and label (the third kind named as the dealing rule chosen
    names it: ``forum``)."""
    return {"new_suspects": _("Suspects (one per line or commas)"), "new_weapons": _("Weapons"),
            "new_rooms": category_label(Category.ROOM, title=True, places=forum)}


def long_boxes() -> list[str]:
    """Why the form's boxes cannot be read: each too long for its box (`notebook_app.typed`);
    the custom cards' only when chosen."""
    boxes = {"new_players": (_("Players in seating order (clockwise)"), PLAYERS_CHARS),
             "new_title": (_("Title (optional)"), MAX_TEXT_CHARS)}
    if state.get("new_edition") == CUSTOM:
        forum = chosen_rule(None, len(parse_names(state.get("new_players", "")))) is Dealing.FORUM
        boxes |= {key: (label, CARDS_CHARS) for key, label in card_boxes(forum).items()}
    found = (too_long(key, label, most) for key, (label, most) in boxes.items())
    return [problem for problem in found if problem]


def new_game_deck() -> tuple[Deck, str | None]:
    presets = editions()
    chosen = state.get("new_edition", first_edition())
    if chosen not in presets and chosen != CUSTOM:
        chosen = first_edition()
    if chosen != CUSTOM:
        return presets[chosen].deck, chosen
    deck = custom_deck(state.get("new_suspects", ""), state.get("new_weapons", ""),
                       state.get("new_rooms", ""))
    return deck, None


def derived_key(name: str, *basis: object) -> str:
    """The key of an input the form fills in itself (the dealing rule from the card set and the
    table size; the hand sizes from the number of cards, of players and the rule): one key per
    basis, so a new basis draws a new input that starts at the new value, its own default.

    Never pushed through `st.session_state`: a pushed value is taken up once, by an input
    already on the page. On a busy phone the hand sizes were drawn later (their code still
    loading), showed their default 0 and sent it back: every hand 0, all 18 cards face up.

    >>> derived_key("new_size_0", 21, 4, Dealing.TWO_PLAYER)
    'new_size_0_21_4_two-player'
    """
    return "_".join((name, *(str(b.value if isinstance(b, Dealing) else b) for b in basis)))


def rule_input(edition_name: str | None, players: int) -> tuple[str, Dealing]:
    """The Dealing box's key and the rule it starts at: the card set's rule at this table size
    (a choice of one's own stays while that does not change)."""
    default = (rule_for(editions()[edition_name], players) if edition_name is not None
               else Dealing.CLASSIC)
    return derived_key("new_rule", edition_name or CUSTOM, default), default


def chosen_rule(edition_name: str | None, players: int) -> Dealing:
    key, default = rule_input(edition_name, players)
    rule = state.get(key, default)
    return rule if isinstance(rule, Dealing) else default


def size_inputs(deck: Deck, names: tuple[str, ...], rule: Dealing,
                the_deal: Deal | InvalidLogError) -> tuple[tuple[str, int], ...]:
    """Each player's hand-size input: its key and the size it starts at (the deal's, 0 when the
    rule cannot deal to these players)."""
    sizes = the_deal.hand_sizes if isinstance(the_deal, Deal) else (0,) * len(names)
    return tuple((derived_key(f"new_size_{i}", len(deck), len(names), rule), size)
                 for i, size in enumerate(sizes))


def typed_sizes(inputs: tuple[tuple[str, int], ...]) -> tuple[int, ...]:
    return tuple(int(state.get(key, size)) for key, size in inputs)


def listing(names: tuple[str, ...], sizes: tuple[int, ...]) -> str:
    return list_said(f"{n} {s}" for n, s in zip(names, sizes, strict=True))


def no_hands(deck: Deck, names: tuple[str, ...], sizes: tuple[int, ...],
             the_deal: Deal | InvalidLogError) -> str | None:
    """What is wrong when the hand sizes give nobody a card though cards are left to deal (no
    rule deals that way), else ``None``."""
    side = the_deal.side_cards if isinstance(the_deal, Deal) else 0
    if any(sizes) or len(deck) - len(CATEGORIES) - side <= 0:
        return None
    if isinstance(the_deal, InvalidLogError):
        return "; ".join(the_deal.problems)
    return _("Hand sizes: {sizes}. Nobody holds a card: type how many cards each player "
             "holds (the dealing above gives {dealt}).").format(
                 sizes=listing(names, sizes), dealt=listing(names, the_deal.hand_sizes))


def start_game() -> None:
    refused = long_boxes()
    if refused:  # (drawn only once they are not: a tap that reached a new session)
        state.start_problem = "\n".join(refused)
        return
    deck, edition_name = new_game_deck()
    names = parse_names(state.get("new_players", ""))
    if not names:
        state.start_problem = _("Type the players' names to go on.")
        return
    rule = chosen_rule(edition_name, len(names))
    the_deal = dealing(rule, deck, names)
    sizes = typed_sizes(size_inputs(deck, names, rule, the_deal))
    problem = no_hands(deck, names, sizes, the_deal)
    if problem:
        state.start_problem = problems_text(InvalidLogError([problem]))
        return
    try:
        log = build_game(
            deck, names, sizes, rule=rule, me=chosen_me(),
            my_cards=tuple(c for c in deck if c in set(state.get("new_mine") or ())),
            face_up=tuple(c for c in deck if c in set(state.get("new_face_up") or ())),
            title=state.get("new_title", "").strip() or None, edition=edition_name,
        )
    except InvalidLogError as err:  # beside Start, where the player looks
        me = chosen_me()
        side = the_deal.side_cards if isinstance(the_deal, Deal) else 0
        labels = {"me": _("You are"), "title": _("Title (optional)"),
                  "players": _("Players in seating order (clockwise)"),
                  "my_cards": mine_label(sizes[names.index(me)] if me in names else 0),
                  "face_up": face_up_label(len(deck) - len(CATEGORIES) - sum(sizes) - side)}
        if edition_name is None:  # the boxes the cards were typed in
            labels |= {"cards.suspects": _("Suspects (one per line or commas)"),
                       "cards.weapons": _("Weapons"),
                       "cards.rooms": category_label(Category.ROOM, title=True,
                                                     places=rule is Dealing.FORUM)}
        state.start_problem = problems_text(in_form_words(err, labels))
        return
    start_from(log, history.started())


def in_form_words(err: InvalidLogError, labels: dict[str, str]) -> InvalidLogError:
    """The setup's problems with each field the form shows named by its label: they name the
    log's fields ("my_cards: card 'kylpyhuone' is also face up"), which are not on the screen.

    A player's or a card's own field goes by its box ("players[0].name: 'x…' is 200 characters
    long" was said in the log's words, in every language).

    >>> in_form_words(InvalidLogError(["my_cards[2]: unknown card 'X'", "players: too few",
    ...                                "cards.rooms[1]: 'x' holds", "cards: 'x' twice"]),
    ...               {"my_cards": "Your 4 cards", "cards.rooms": "Rooms"}).problems
    ("Your 4 cards: unknown card 'X'", 'players: too few', "Rooms: 'x' holds", "cards: 'x' twice")
    """
    def named(problem: str) -> str:
        field, said, rest = problem.partition(": ")
        label = (labels.get(field.split("[", 1)[0])
                 or labels.get(re.split(r"[.\[]", field, maxsplit=1)[0]))
        return f"{label}: {rest}" if said and label else problem

    return InvalidLogError([named(problem) for problem in err.problems])


def face_up_label(count: int) -> str:
    return ngettext("The {count} face-up card", "The {count} face-up cards", count).format(
        count=count)


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
        state.open_error = (_("{file} is not a valid log.").format(file=file_named(upload.name))
                            + " " + problems_text(err))
        return
    start_from(log, history.imported(file_named(upload.name)))
    check_opened()


def file_named(name: str) -> str:
    """An uploaded file's name as the screen says it and the game's history keeps it: as it is,
    unless it could not be a player's name (`solver.limits.text_problem`), then quoted with
    its escapes and cut (`solver.limits.shorten`). A file named "\\u202enosj.json" turned the
    rest of the error about it backwards, and a name of 5,000 characters filled the screen.

    >>> file_named("friday.json"), file_named("\\u202enosj.json"), file_named("a\\nb.clue")
    ('friday.json', "'\\\\u202enosj.json'", "'a\\\\nb.clue'")
    """
    return name if text_problem(name) is None else shorten(name)


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


def forum_deck_needed(deck: Deck, players: int, fill: str | None = None) -> str:
    """Why the forum's dealing cannot deal these cards to these players, in the app's words (the
    solver's name a command-line option): the deck it needs, and where to type one; with
    ``fill`` (the label of the button below that fills it in, when offered), that button."""
    counts = {"players": players, "places": players + 3, "suspects": len(deck.suspects),
              "weapons": len(deck.weapons), "rooms": len(deck.rooms),
              "custom": _("Custom cards…")}
    if fill is not None:
        return _("Forum dealing gives everyone 3 cards, from a deck of as many suspects and "
                 "weapons as players and 3 more places: for {players} players, {players} "
                 "suspects, {players} weapons and {places} places (these cards: {suspects}, "
                 "{weapons} and {rooms}). Tap “{fill}” to fill it in (the missing cards "
                 "numbered, to rename), choose “{custom}” to type them, or another dealing "
                 "rule.").format(fill=fill, **counts)
    return _("Forum dealing gives everyone 3 cards, from a deck of as many suspects and weapons "
             "as players and 3 more places: for {players} players, {players} suspects, "
             "{players} weapons and {places} places (these cards: {suspects}, {weapons} and "
             "{rooms}). Choose “{custom}” to type them, or another dealing rule.").format(**counts)


def forum_fill_offered(deck: Deck, edition_name: str | None, players: int) -> bool:
    """Whether the form offers to fill in the forum deck for this table: a forum game whose
    cards do not deal, where filling keeps every card typed (a preset's lists may be cut)."""
    if players < 2 or 3 * players + 3 > MAX_CARDS:
        return False
    return edition_name is not None or all(
        len(deck.of(category)) <= size
        for category, size in zip(CATEGORIES, forum_sizes(players), strict=True))


def fill_forum_deck() -> None:
    """Cards: the forum deck for the players typed, as custom cards the player can rename (the
    card set's names kept, the missing ones numbered), dealt by the forum's rule."""
    deck, _name = new_game_deck()
    players = len(parse_names(state.get("new_players", "")))
    filled = forum_filled(deck, players)
    state.new_edition = CUSTOM
    state.new_suspects = "\n".join(filled.suspects)
    state.new_weapons = "\n".join(filled.weapons)
    state.new_rooms = "\n".join(filled.rooms)
    key, _default = rule_input(None, players)
    state[key] = Dealing.FORUM


SPECTATOR = ""
""""You are: Nobody (spectator)" (a player's name is never empty): not ``None``, which a select
box given it again (a language switched, `notebook_app.language.relabel`; `later_again`) shows
as no choice, and whose words it cannot send back in another language: after a switch to
Finnish and back the box read the first player, whose cards the form then asked for."""


def chosen_me() -> str | None:
    """Whose notebook the new game is, as "You are" says: ``None`` for a spectator."""
    me = state.get("new_me")
    return None if me in (None, SPECTATOR) else str(me)


LATER = ("new_me", "new_mine", "new_face_up", "new_title")
"""The form's inputs below the players' box, which are not drawn while no players can be read
from it: Streamlit forgets an input's value on a run that does not draw it."""


def keep_later() -> None:
    """Keep what was entered below the players' box (`LATER`) through a run that does not draw
    it (`later_again` puts it back on the page): a title typed, then a list of players pasted
    that was too long, was gone once the list was shortened."""
    for key in LATER:
        if key in state:
            state[key] = state[key]
    state.later_kept = True


def later_again() -> None:
    """The inputs `keep_later` kept, drawn again: their values set once more, so the page shows
    them (a box drawn anew shows only a value the run sets)."""
    if state.pop("later_kept", False):
        for key in LATER:
            if key in state:
                state[key] = state[key]


def new_game_form() -> None:
    presets = editions()
    options = (*presets, CUSTOM)
    chosen = st.selectbox(_("Cards"), options, index=options.index(first_edition()),
                          key="new_edition", format_func=lambda n: (
                              _("Custom cards…") if n == CUSTOM else presets[n].shown_title))
    long = False  # a box too long for its cards or names: said under it, nothing read from it
    if chosen == CUSTOM:
        forum = chosen_rule(None, len(parse_names(state.get("new_players", "")))) is Dealing.FORUM
        for key, label in card_boxes(forum).items():
            st.text_area(label, key=key)
            long |= refuse_long(key, label, CARDS_CHARS)
    label = _("Players in seating order (clockwise)")
    example = example_players(chosen if chosen != CUSTOM else None)  # as the paste box's
    st.text_area(label, key="new_players", placeholder="\n".join(example), height=110)
    long |= refuse_long("new_players", label, PLAYERS_CHARS)
    names = parse_names(state.get("new_players", ""))
    if not names:
        st.caption(_("Type the players' names to go on."))
        keep_later()
        return
    if long:
        keep_later()
        return
    deck, edition_name = new_game_deck()
    if len(names) > MAX_PLAYERS or len(deck) > MAX_CARDS:
        st.error(too_large(len(names), len(deck)), icon=":material/warning:")
        keep_later()
        return
    later_again()
    if state.get("new_me_for") != names or state.get("new_me") not in (SPECTATOR, *names):
        state.new_me_for = names
        if state.get("new_me") not in names:
            state.new_me = names[0] if names else SPECTATOR
    st.selectbox(_("You are"), (*names, SPECTATOR), key="new_me",
                 format_func=lambda n: _("Nobody (spectator)") if n == SPECTATOR else n)
    rule_key, default_rule = rule_input(edition_name, len(names))
    st.selectbox(_("Dealing"), RULES, index=RULES.index(default_rule), key=rule_key,
                 format_func=lambda rule: _(RULE_TITLES[rule]))
    rule = chosen_rule(edition_name, len(names))
    the_deal = dealing(rule, deck, names)
    if isinstance(the_deal, InvalidLogError):  # the hand sizes start at 0: say why right here
        uneven = rule is Dealing.FORUM and len(names) >= 2 and all(deck.of(c) for c in CATEGORIES)
        fill = (_("Fill in a deck for {players} players").format(players=len(names))
                if rule is Dealing.FORUM and forum_fill_offered(deck, edition_name, len(names))
                else None)
        st.warning(plain(forum_deck_needed(deck, len(names), fill) if uneven
                         else "; ".join(the_deal.problems)), icon=":material/warning:")
        if fill is not None:
            button(fill, key="fill_forum_deck", on_click=fill_forum_deck,
                      icon=":material/playlist_add:")
    inputs = size_inputs(deck, names, rule, the_deal)
    typed = typed_sizes(inputs)
    problem = no_hands(deck, names, typed, the_deal)
    edited = typed != tuple(size for _key, size in inputs)
    undealt = isinstance(the_deal, InvalidLogError) and not any(typed)  # said above: nothing
    # to pick cards from until another rule or deck deals, or hand sizes are typed
    # The title shows the sizes and a new title folds the section: it stays open while they are
    # not the deal's (being typed) or give nobody a card.
    with st.expander(plain(_("Hand sizes: {sizes}").format(sizes=listing(names, typed))),
                     expanded=(problem is not None or edited) and not undealt):
        for name, (key, size) in zip(names, inputs, strict=True):
            st.number_input(plain(name), min_value=0, max_value=len(deck), value=size, step=1,
                            key=key)
    if problem and isinstance(the_deal, Deal):  # (a rule that cannot deal said so above)
        st.warning(plain(problem), icon=":material/warning:")
    side = the_deal.side_cards if isinstance(the_deal, Deal) else 0
    left = len(deck) - len(CATEGORIES) - sum(typed) - side
    me = chosen_me()
    # A card is mine or face up, never both: each list leaves out what the other has picked.
    face_up = set(state.get("new_face_up") or ()) if left > 0 and not undealt else set()
    if me is not None and deck.cards and not undealt:
        mine = typed[names.index(me)] if me in names else 0
        offered = [c for c in deck.cards if c not in face_up]
        state.new_mine = [c for c in state.get("new_mine") or () if c in offered]
        st.pills(mine_label(mine), offered, selection_mode="multi", key="new_mine",
                 format_func=plain)
        tapped = len(state.get("new_mine") or ())
        if tapped < mine:  # Start takes a hand partly tapped (a log may hold one), but says so
            st.caption(ngettext(
                "{tapped} of your {count} card tapped: the notebook knows only the cards "
                "tapped.", "{tapped} of your {count} cards tapped: the notebook knows only the "
                "cards tapped.", mine).format(tapped=tapped, count=mine))
    if left > 0 and not undealt:
        taken = set(state.get("new_mine") or ()) if me is not None else set()
        offered = [c for c in deck.cards if c not in taken]
        state.new_face_up = [c for c in state.get("new_face_up") or () if c in offered]
        st.pills(face_up_label(left), offered, selection_mode="multi",
                 key="new_face_up", format_func=plain)
    if side:
        st.caption(_("4 side cards lie face down; peeks at them are entered with suggestions."))
    st.text_input(_("Title (optional)"), key="new_title")
    with st.container(key="start"):  # right under the title: its own problem is said here
        refused = state.pop("start_problem", None) or too_long(
            "new_title", _("Title (optional)"), MAX_TEXT_CHARS)
        if refused:
            st.error(plain(refused), icon=":material/warning:")
        button(_("Start game"), type="primary", key="start_game", on_click=start_game,
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
        now, zone = datetime.now(UTC), reader_zone()
        with st.container(key="saved_games"):
            for game in saved:
                button(saved_label(game, now, zone), key=f"open_{game.id}",
                          on_click=open_saved, args=(game.id,), width="stretch",
                          icon=":material/visibility:" if game.access == "read" else None)


def reader_zone() -> tzinfo:
    """The time zone of the reader's browser (UTC where it says none or one unknown here)."""
    try:
        return ZoneInfo(st.context.timezone or "UTC")
    except (KeyError, ValueError, OSError):  # (ZoneInfoNotFoundError is a KeyError)
        return UTC


def said_when(saved: str, now: datetime, zone: tzinfo) -> str:
    """When a game was last changed, as a phone's lists say it, in the reader's time zone and
    language: the time today, else the day and time, another year's day.

    >>> from datetime import timedelta, timezone
    >>> from solver.i18n import speaking
    >>> now = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)
    >>> with speaking("en"):
    ...     said_when("2026-12-03T08:10:00+00:00", now, UTC), said_when(
    ...         "2026-12-01T20:15:00+00:00", now, timezone(timedelta(hours=2)))
    ('8:10\u202fAM', 'Dec 1, 10:15\u202fPM')
    >>> with speaking("ja"):
    ...     said_when("2025-12-01T20:15:00+00:00", now, UTC)
    '2025年12月1日'
    """
    from babel import Locale
    from babel.dates import format_skeleton, format_time

    try:
        moment = datetime.fromisoformat(saved).astimezone(zone)
    except ValueError:
        return saved
    language = current()
    if moment.year != now.astimezone(zone).year:
        return format_skeleton("yMMMd", moment, locale=language)
    time = format_time(moment, "short", locale=language)
    if moment.date() == now.astimezone(zone).date():
        return time
    day = format_skeleton("MMMd", moment, locale=language)
    both = str(Locale.parse(language).datetime_formats["short"])
    return both.replace("{1}", day).replace("{0}", time)


SHOWN_PLAYERS = 3
"""An untitled game's players named in its line before "+N" (a 12-player table filled it)."""


SAVED_ROOM = 338
"""Pixels (`text_width`, which the bold title is drawn as) of a saved game's line at 390 px
(342 px drawn)."""


def saved_label(game: SavedGame, now: datetime, zone: tzinfo) -> str:
    """A saved game's button, two lines a phone shows whole (each cut off where it is too long)
    that tell games with the same players apart: its title (else its players, the first few and
    how many more) and whose notebook it is; then when it last changed and who won (or "no
    winner" for a game over unsolved), or its last entry as the Log numbers it. The list said
    only "players · 34 events · date". A long title is cut to "…" before whose notebook it is,
    which the line's end cut off."""
    names = game.players or tuple(game.title.split(", "))
    more = len(names) - SHOWN_PLAYERS if len(names) > SHOWN_PLAYERS + 1 else 0
    title = game.title if game.titled else (
        list_said(names[:SHOWN_PLAYERS]) + f" +{more}" if more else list_said(names))
    whose = "" if game.me is None else " · " + _("as {player}").format(player=game.me)
    room = max(SAVED_ROOM - text_width(whose), SAVED_ROOM / 3)
    if text_width(title) > room:
        title = cut(title, room)
    top = f"**{plain(title)}**" + plain(whose)
    low = [said_when(game.saved, now, zone)]
    if game.access == "read":
        low.append(_("read only"))
    if game.close is not None:
        low += [ended_said(game), ngettext("{count} entry", "{count} entries", game.events).format(
                    count=game.events)]
    elif game.last is not None:
        low.append(f"#{game.events} {describe(game.last)}")
    elif game.events:  # its last entry no longer reads: it has some all the same
        low.append(ngettext("{count} entry", "{count} entries", game.events).format(
            count=game.events))
    else:
        low.append(_("no entries yet"))
    return top + "  \n" + plain(" · ".join(low))


def ended_said(game: SavedGame) -> str:
    """How a finished game ended, for its line in the list: who won by a correct accusation,
    who won as the last player standing (every other player accused wrongly: the classic
    sheet), or that nobody won."""
    if game.winner is None:
        return _("no winner")
    if game.close is Close.STANDING:
        return _("{player} won, last player standing").format(player=game.winner)
    return _("won by {player}").format(player=game.winner)


def home_screen() -> None:
    st.title("Clue Notebook")
    for note in state.pop("done_notes", []):  # what the tap that closed the game did
        st.success(plain(note), icon=":material/check:")
    saved_games()
    st.subheader(_("New game"))
    new_game_form()
    st.subheader(_("Or open a log"))
    found = examples()
    if found:
        titles = {name: example_title(name) for name in found}  # in this run's language: a
        # format_func called after the run (AppTest's) would say them in English
        st.selectbox(_("Example"), tuple(found), format_func=titles.__getitem__, key="example")
        form_error("example_error")
        button(_("Open example"), key="open_example", on_click=open_chosen_example)
    uploader_words()
    st.file_uploader(_("Upload a clue-notebook/1 file"), type=["json", "clue", "txt"],
                     key="upload")
    form_error("open_error")
    button(_("Open file"), key="open_upload", on_click=open_upload)
    paste_game_form(new_game_deck()[1] or first_edition())
