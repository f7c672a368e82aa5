"""Clue Notebook, the app: ``streamlit run notebook_app/app.py``.

This file describes the screens. Turn logic is in `notebook_app.turns`, the grid table in
`notebook_app.grid_view`, solvers in `notebook_app.live`, the open game of a session (opening,
saving, following other screens' changes) in `notebook_app.session`, the database in
`notebook_app.store`. Every change goes through a callback that saves the new log at once;
state per user lives in ``st.session_state`` only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pandas as pd
import streamlit as st

from notebook_app.grid_view import (
    as_markdown,
    column_labels,
    envelope_line,
    grid_styles,
    grid_table,
    percent,
    verdict,
)
from notebook_app.grid_view import cell_at as grid_cell_at
from notebook_app.newgame import (
    build_game,
    custom_deck,
    dealt_sizes,
    examples,
    open_example,
    parse_names,
    side_cards,
)
from notebook_app.session import (
    clear_entry,
    close_game,
    commit,
    flash,
    live,
    open_game,
    problems_text,
    start_from,
    stop_editing,
    store,
    sync,
    undo_revision,
)
from notebook_app.store import parse_upload
from notebook_app.turns import (
    answer_order,
    describe,
    directed,
    edited,
    last_room,
    locate,
    next_side_slot,
    next_suggester,
    passes,
    seen_from_me,
    show_choice,
    suggestion,
    unshown,
    winner,
)
from solver.cards import CATEGORIES, Category, Deck
from solver.editions import Dealing, editions, rule_for
from solver.errors import InvalidLogError
from solver.game import Accusation, Event, Reveal, Suggestion
from solver.logfile import check, dumps
from solver.notebook import Grid

VIEWS = ("Turn", "Grid", "Log", "Review", "Game")
# Entry kinds; "Asked one" is the forum variant's suggestion addressed to one player.
# (No bare strings at module level here: Streamlit would print them.)
KINDS = ("Suggestion", "Accusation", "Reveal", "Asked one")
CUSTOM = "custom"
NOBODY = ""  # "Who showed a card" when nobody did (player names are never empty)
NO_SLOT = 0  # no side card looked at
NO_CARD = ""  # side card not seen
RULE_TITLES = {
    Dealing.CLASSIC: "Classic: all cards dealt",
    Dealing.REFRESH: "Refresh 2012: equal hands, rest face up",
    Dealing.TWO_PLAYER: "2 players: 4 side cards",
    Dealing.FORUM: "Forum: 3 cards each",
}
CARD_KEYS = {Category.SUSPECT: "e_suspect", Category.WEAPON: "e_weapon", Category.ROOM: "e_room"}
SCROLL_TOP = """<script>
document.querySelector('[data-testid="stMain"]')?.scrollTo(0, 0);
</script>"""
PHONE_CSS = """<style>
.block-container {padding-top: 2.2rem; padding-left: 0.7rem; padding-right: 0.7rem;}
</style>"""

state = st.session_state


def open_saved(game_id: str) -> None:
    open_game(game_id)


def show_flash() -> None:
    for kind, text in state.pop("flash", []):
        if kind == "error":
            st.error(text, icon=":material/warning:")
        else:
            st.toast(text)


# --- entries -----------------------------------------------------------------------------------


def defaults_for(by: str) -> None:
    """Field defaults that follow the suggester: their last room, the next player, a new slot."""
    log = live().log
    state.e_room = last_room(log, by)
    state.e_refuter = answer_order(log.game, by)[0]
    state.e_asked = answer_order(log.game, by)[0]
    state.e_slot = next_side_slot(log, by) or NO_SLOT


def next_entry() -> None:
    """Blank fields for the next turn."""
    clear_entry()
    state.by = next_suggester(live().log)
    defaults_for(state.by)


def on_by_change() -> None:
    defaults_for(state.by)


def picked_cards() -> tuple[str, str, str] | None:
    cards = tuple(state.get(CARD_KEYS[c]) for c in CATEGORIES)
    if any(c is None for c in cards):
        return None
    return (str(cards[0]), str(cards[1]), str(cards[2]))


def form_event() -> Event | None:
    """The event the entry form describes, or ``None`` while cards are missing."""
    game = live().log.game
    kind = state.get("kind")
    if kind == "Reveal":
        seen = tuple(state.get("r_cards") or ())
        return Reveal(state.r_player, seen, whole_hand=bool(state.get("r_whole"))) if seen else None
    cards = picked_cards()
    if cards is None:
        return None
    if kind == "Accusation":
        return Accusation(state.by, cards, correct=state.get("e_result") == "right")
    shown_at = state.get("e_shown")
    shown = cards[shown_at] if shown_at is not None and game.me == state.by else None
    if kind == "Asked one":
        return directed(
            state.by,
            cards,
            asked=state.e_asked,
            refuted=state.get("e_answer", "showed a card") == "showed a card",
            shown=shown,
            first_in_order=bool(state.get("e_rule")),
        )
    return suggestion(
        game,
        state.by,
        cards,
        refuted_by=state.get("e_refuter") or None,
        shown=shown,
        peek_slot=state.get("e_slot") or None if game.side_cards else None,
        peek_card=state.get("e_peek") or None if game.me == state.by else None,
    )


def submit_entry() -> None:
    event = form_event()
    if event is None:
        flash("error", "Pick the cards you saw." if state.get("kind") == "Reveal"
              else "Pick a suspect, a weapon and a room.")
        return
    save_event(event)


def save_event(event: Event) -> None:
    """Append the event (or change the one being edited as the form changed), check it, save
    it; then ask which card was shown if the user saw one but did not say."""
    log = live().log
    index = state.get("editing")
    if index is not None:
        event = edited(state.edit_original, state.get("edit_loaded"), event)
    event, ask_shown = my_refutation(event)
    if index is None:
        new = log.append(event)
        index = len(new.events) - 1
        note = f"recorded event {index + 1}"
    else:
        events = list(log.events)
        events[index] = event
        new = replace(log, events=tuple(events))
        note = f"edited event {index + 1}"
    try:
        check(replace(log, events=(event,)))  # an event's validity does not depend on others
    except InvalidLogError as err:
        flash("error", problems_text(err))
        return
    if not commit(new, note):
        return  # the form keeps what was typed
    stop_editing()
    state.pending_show = (index, event) if ask_shown else None
    next_entry()


def my_refutation(event: Event) -> tuple[Event, bool]:
    """When the user saw the card but did not say which: fill it in if only one of their cards
    fits, else ask for it right after saving (the entry is saved either way)."""
    log = live().log
    me = log.game.me
    if not isinstance(event, Suggestion):
        return event, False
    if me is None or event.refuted_by is None or event.shown is not None:
        return event, False
    if event.by == me:
        return event, True
    if event.refuted_by != me:
        return event, False
    choice = show_choice(log, event.by, event.cards)
    if len(choice.matching) == 1:
        return replace(event, shown=choice.matching[0]), False
    return event, len(choice.matching) > 1


def set_shown(index: int, event: Suggestion, card: str) -> None:
    """Note the card shown in ``event`` (the log's event ``index``)."""
    log = live().log
    events = list(log.events)
    if locate(log.events, index, event) == index:
        events[index] = replace(event, shown=card)
        if not commit(replace(log, events=tuple(events)),
                      f"noted {card} shown in event {index + 1}"):
            return  # reloaded: the question stays if its event is still there
    state.pending_show = None


def kind_of(event: Event) -> str:
    if isinstance(event, Reveal):
        return "Reveal"
    if isinstance(event, Accusation):
        return "Accusation"
    game = live().log.game
    table = event.passes == passes(game, event.by, event.refuted_by)
    return "Suggestion" if table and event.shown_by_rule is None else "Asked one"


def start_edit(index: int) -> None:
    """Load an event into its entry form, and remember what the form made of it: saving
    changes only what the user changed from there."""
    load_into_form(index)
    state.edit_loaded = form_event()


def load_into_form(index: int) -> None:
    event = live().log.events[index]
    game = live().log.game
    clear_entry()
    state.editing, state.edit_original = index, event
    state.kind = kind_of(event)
    state.view = "Turn"
    state.scroll_top = True
    if isinstance(event, Reveal):
        state.r_player, state.r_cards = event.player, list(event.cards)
        state.r_whole = event.whole_hand
        return
    state.by = event.by
    defaults_for(event.by)
    for card in event.cards:
        state[CARD_KEYS[game.category_of(card)]] = card
    if isinstance(event, Accusation):
        state.e_result = "right" if event.correct else "wrong"
        return
    state.e_refuter = event.refuted_by or NOBODY
    state.e_shown = event.cards.index(event.shown) if event.shown in event.cards else None
    peek = event.side_peek
    state.e_slot = NO_SLOT if peek is None else peek.slot
    state.e_peek = NO_CARD if peek is None or peek.card is None else peek.card
    if state.kind == "Asked one":
        state.e_asked = event.refuted_by or (event.passes[0] if event.passes else state.e_asked)
        state.e_answer = "showed a card" if event.refuted_by else "no card"
        state.e_rule = event.shown_by_rule is not None


def cancel_edit() -> None:
    stop_editing()
    next_entry()


def delete_event(index: int) -> None:
    log = live().log
    events = log.events[:index] + log.events[index + 1 :]
    if not commit(replace(log, events=events), f"deleted event {index + 1}"):
        return
    if state.get("editing") is not None:
        stop_editing()
        next_entry()
    state.pending_show = None


def undo() -> None:
    undone = undo_revision()
    if undone is not None:
        next_entry()
        flash("done", f"Undid: {undone}")


# --- screens -----------------------------------------------------------------------------------


def header() -> None:
    log = live().log
    grid, ignored = live().grid()
    title = log.game.title or " · ".join(log.game.player_names)
    st.markdown(f"**{title}**")
    if grid.accusation_safe:
        st.success(verdict(grid), icon=":material/check_circle:")
    else:
        st.info(verdict(grid, None if ignored else live().triples_left))
    st.caption(f"Envelope · {envelope_line(grid)}")
    conflict_banner(ignored)
    seq, note = state.revision
    st.button(f"Undo: {note}", key="undo", on_click=undo, disabled=seq <= 1,
              icon=":material/undo:", width="stretch")


def conflict_banner(ignored: tuple[int, ...]) -> None:
    conflict = live().conflict
    if not conflict:
        return
    events = live().log.events
    with st.container(border=True, key="conflict"):
        st.error(
            "These entries cannot all be true. One of them is wrong:"
            + "".join(f"\n- **#{n}** {describe(events[n - 1])}" for n in conflict),
            icon=":material/error:",
        )
        if ignored:
            st.caption("The grid leaves out " + ", ".join(f"#{n}" for n in ignored)
                       + " until this is fixed.")
        with st.container(horizontal=True):
            for n in conflict:
                st.button(f"Edit #{n}", key=f"conflict_edit_{n}", on_click=start_edit,
                          args=(n - 1,))
        if st.toggle("Why do they clash?", key="why_conflict"):
            why = live().why_conflict()
            st.markdown(as_markdown(why or "The clash could not be explained step by step."))


def card_selects(deck: Deck) -> None:
    for category in CATEGORIES:
        key = CARD_KEYS[category]
        if state.get(key) not in deck.of(category):
            state[key] = None
        st.selectbox(category.value.capitalize(), deck.of(category), key=key, index=None,
                     placeholder=f"Pick a {category.value}")


def shown_radio(cards_hint: str) -> None:
    st.radio(f"Card shown to you {cards_hint}", (None, 0, 1, 2), key="e_shown", horizontal=True,
             format_func=lambda i: "not seen" if i is None else CATEGORIES[i].value)


def turn_view() -> None:
    log = live().log
    game = log.game
    pending_show_prompt()
    won = winner(log)
    if won is not None:
        st.success(f"{won} accused correctly: the game is over.")
    editing = state.get("editing")
    if editing is not None:
        st.warning(f"Editing #{editing + 1}: {describe(log.events[editing])}")
        hidden = unshown(state.edit_original, state.get("edit_loaded"))
        if hidden:
            st.caption("The form cannot show all of this entry; kept as recorded unless you change"
                       " who suggested or who showed: " + "; ".join(hidden))
        st.button("Cancel edit", key="cancel_edit", on_click=cancel_edit)
    if state.get("kind") not in KINDS:
        preset = editions().get(game.edition or "")
        forum = preset is not None and preset.dealing is Dealing.FORUM
        state.kind = "Asked one" if forum else KINDS[0]
    st.radio("Entry", KINDS, key="kind", horizontal=True, label_visibility="collapsed")
    kind = state.kind
    if kind == "Reveal":
        reveal_form()
        return
    names = game.player_names
    if state.get("by") not in names:
        state.by = next_suggester(log)
        defaults_for(state.by)
    label = "Who accused" if kind == "Accusation" else "Who suggested"
    st.selectbox(label, names, key="by", on_change=on_by_change)
    by = state.by
    if game.me is not None and by != game.me and kind != "Accusation":
        seen = seen_from_me(log, by)
        st.caption(f"{by} has seen from you: {', '.join(seen) if seen else 'nothing yet'}")
    submit = "Save changes" if editing is not None else "Record"
    if kind == "Accusation":
        with st.form("accusation_form", border=False):
            card_selects(game.deck)
            st.radio("Result", ("wrong", "right"), key="e_result", horizontal=True)
            st.form_submit_button(submit, type="primary", on_click=submit_entry, key="submit",
                                  width="stretch")
        return
    order = answer_order(game, by)
    if kind == "Asked one":
        if state.get("e_asked") not in order:
            state.e_asked = order[0]
        with st.form("directed_form", border=False):
            card_selects(game.deck)
            st.selectbox("Asked", order, key="e_asked")
            st.radio("Answer", ("showed a card", "no card"), key="e_answer", horizontal=True)
            if game.me == by:
                shown_radio("")
            st.checkbox("Host answered: first match in order suspect, weapon, room",
                        key="e_rule")
            st.form_submit_button(submit, type="primary", on_click=submit_entry, key="submit",
                                  width="stretch")
        return
    if state.get("e_refuter") not in (*order, NOBODY):
        state.e_refuter = order[0]
    with st.form("suggestion_form", border=False):
        card_selects(game.deck)
        st.selectbox("Who showed a card", (*order, NOBODY), key="e_refuter",
                     format_func=lambda p: p or "Nobody",
                     help="Everyone asked before them is recorded as passing.")
        if game.me == by:
            shown_radio("")
        if game.side_cards:
            slots = tuple(range(1, game.side_cards + 1))
            if state.get("e_slot") not in (*slots, NO_SLOT):
                state.e_slot = NO_SLOT
            st.selectbox("If nobody showed: side card looked at", (NO_SLOT, *slots), key="e_slot",
                         format_func=lambda s: f"slot {s}" if s else "none")
            if game.me == by:
                if state.get("e_peek") not in (NO_CARD, *game.deck.cards):
                    state.e_peek = NO_CARD
                st.selectbox("Side card you saw", (NO_CARD, *game.deck.cards), key="e_peek",
                             format_func=lambda c: c or "—")
        st.form_submit_button(submit, type="primary", on_click=submit_entry, key="submit",
                              width="stretch")


def reveal_form() -> None:
    game = live().log.game
    whose = tuple(n for n in game.player_names if n != game.me)
    original = state.get("edit_original") if state.get("editing") is not None else None
    if isinstance(original, Reveal) and original.player not in whose:
        whose = (*whose, original.player)  # a reveal of the user's own cards stays theirs
    if state.get("r_player") not in whose:
        state.r_player = whose[0]
    with st.form("reveal_form", border=False):
        st.selectbox("Whose cards", whose, key="r_player")
        st.multiselect("Cards you saw", game.deck.cards, key="r_cards")
        st.checkbox("That is their whole hand", key="r_whole")
        submit = "Save changes" if state.get("editing") is not None else "Record"
        st.form_submit_button(submit, type="primary", on_click=submit_entry, key="submit",
                              width="stretch")


def pending_show_prompt() -> None:
    """Which card was shown in the event just saved (``pending_show``: its index and itself)."""
    pending = state.get("pending_show")
    log = live().log
    if pending is None:
        return
    index, event = pending
    found = locate(log.events, index, event)
    if not isinstance(event, Suggestion) or found != index or event.shown is not None:
        return
    with st.container(border=True, key="show_prompt"):
        if event.by == log.game.me:
            st.markdown(f"**Which card did {event.refuted_by} show you?**")
            cards: tuple[str, ...] = event.cards
            seen: tuple[str, ...] = ()
        else:
            choice = show_choice(log, event.by, event.cards)
            st.markdown(f"**{event.by} asked {', '.join(event.cards)}.** "
                        "Which card did you show?")
            st.write(choice.advice)
            cards, seen = choice.matching, choice.already_seen
        with st.container(horizontal=True):
            for card in cards:
                mark = " ✓ seen" if card in seen else ""
                st.button(f"{card}{mark}", key=f"showed_{card}", on_click=set_shown,
                          args=(index, event, card))
            st.button("Skip", key="showed_skip", on_click=skip_show)


def skip_show() -> None:
    state.pending_show = None


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
    state.explain_cell = grid_cell_at(grid, int(row), column)


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
        st.caption(f"Likeliest envelope: {s}, {w}, {r}: {percent(p)}{note}")
    st.toggle("Show odds", key="show_odds", value=True)
    cell = state.get("explain_cell")
    if cell is not None:
        card, owner = cell
        text = live().explain(card, owner)
        with st.container(border=True, key="explanation"):
            st.markdown(as_markdown(text))


def log_view() -> None:
    events = live().log.events
    if not events:
        st.caption("No events yet. Record the first turn on the Turn tab.")
        return
    conflict = set(live().conflict)
    for index in reversed(range(len(events))):
        with st.container(border=True, key=f"event_{index}"):
            mark = " :red[(in conflict)]" if index + 1 in conflict else ""
            st.markdown(f"**#{index + 1}**{mark} {describe(events[index])}")
            with st.container(horizontal=True):
                st.button("Edit", key=f"edit_{index}", on_click=start_edit, args=(index,))
                st.button("Delete", key=f"delete_{index}", on_click=delete_event, args=(index,))


def step(delta: int) -> None:
    count = len(live().log.events)
    state.review_step = max(0, min(count, int(state.get("review_step", count)) + delta))


def review_view() -> None:
    events = live().log.events
    count = len(events)
    if state.get("review_step") is None or state.review_step > count:
        state.review_step = count
    if count:
        st.slider("After event", 0, count, key="review_step")
    with st.container(horizontal=True):
        st.button("Back", key="review_back", on_click=step, args=(-1,),
                  icon=":material/chevron_left:")
        st.button("Next", key="review_next", on_click=step, args=(1,),
                  icon=":material/chevron_right:")
    upto = int(state.review_step)
    st.markdown(f"**#{upto}** {describe(events[upto - 1])}" if upto else "Before the first event")
    grid = live().grid_at(upto)
    counts = live().counter.counts
    if grid is None:
        st.error("The events up to here contradict each other.")
    else:
        st.caption(verdict(grid, counts[upto]))
        show_grid(grid)
    st.markdown("**Possible envelopes after each event**")
    chart = pd.DataFrame({"event": range(len(counts)), "possible envelopes": counts})
    st.line_chart(chart, x="event", y="possible envelopes", height=180)
    safe = next((i for i, n in enumerate(counts) if n == 1), None)
    if safe is None:
        st.write("An accusation has not been safe yet.")
    elif safe == 0:
        st.write("An accusation was safe from the start.")
    else:
        st.write(f"An accusation was safe after event #{safe}: {describe(events[safe - 1])}")
    accusations = [(i, e) for i, e in enumerate(events, 1) if isinstance(e, Accusation)]
    for number, accusation in accusations:
        st.write(f"#{number}: {describe(accusation)}")


def game_view() -> None:
    log = live().log
    game = log.game
    st.markdown("**Players** (seating order): "
                + ", ".join(f"{p.name} ({p.hand_size})" for p in game.players))
    if game.me is not None:
        st.markdown(f"**Your cards** ({game.me}): {', '.join(game.my_cards) or '—'}")
    if game.face_up:
        st.markdown(f"**Face up:** {', '.join(game.face_up)}")
    if game.side_cards:
        st.markdown(f"**Side cards:** {game.side_cards}")
    st.caption(f"Saved after every entry. This game's link has id `{state.game_id}`: "
               "anyone with the link can open it.")
    name = (game.title or "clue-game").replace(" ", "-")
    st.download_button("Export log (clue-notebook/1)", dumps(log), file_name=f"{name}.json",
                       mime="application/json", key="export", width="stretch")
    st.button("Close game", key="close_game", on_click=close_game, width="stretch")


def scroll_to_top() -> None:
    state.scroll_top = True


def play_screen() -> None:
    header()
    if state.get("view") not in VIEWS:
        state.view = VIEWS[0]
    st.segmented_control("View", VIEWS, key="view", label_visibility="collapsed",
                         width="stretch", on_change=scroll_to_top)
    view = state.view or VIEWS[0]
    {"Turn": turn_view, "Grid": grid_view, "Log": log_view, "Review": review_view,
     "Game": game_view}[view]()


# --- home: new game, examples, upload, saved games --------------------------------------------


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
        st.caption("Type the players' names to go on.")
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
        flash("error", problems_text(err))
        return
    start_from(log, "started the game")


def open_chosen_example() -> None:
    try:
        log = open_example(state.get("example", ""))
    except InvalidLogError as err:
        flash("error", problems_text(err))
        return
    start_from(log, f"opened example {state.example}")


def open_upload() -> None:
    upload = state.get("upload")
    if upload is None:
        flash("error", "Choose a clue-notebook/1 file first.")
        return
    try:
        log = parse_upload(upload.getvalue())
    except InvalidLogError as err:
        flash("error", f"{upload.name} is not a valid log. " + problems_text(err))
        return
    start_from(log, f"imported {upload.name}")


def new_game_form() -> None:
    presets = editions()
    options = (*presets, CUSTOM)
    if state.get("new_edition") not in options:
        state.new_edition = "clue-classic" if "clue-classic" in presets else options[0]
    st.selectbox("Cards", options, key="new_edition",
                 format_func=lambda n: "Custom cards…" if n == CUSTOM else presets[n].title)
    if state.new_edition == CUSTOM:
        st.text_area("Suspects (one per line or commas)", key="new_suspects")
        st.text_area("Weapons", key="new_weapons")
        st.text_area("Rooms", key="new_rooms")
    deck, edition_name = new_game_deck()
    st.text_area("Players in seating order (clockwise)", key="new_players",
                 placeholder="Ann\nBob\nCat", height=110)
    names = parse_names(state.get("new_players", ""))
    if not names:
        st.caption("Type the players' names to go on.")
        return
    if state.get("new_me_for") != names or state.get("new_me") not in (None, *names):
        state.new_me_for = names
        if state.get("new_me") not in names:
            state.new_me = names[0] if names else None
    st.selectbox("You are", (*names, None), key="new_me",
                 format_func=lambda n: "Nobody (spectator)" if n is None else n)
    default_rule = (rule_for(presets[edition_name], len(names)) if edition_name is not None
                    else Dealing.CLASSIC)
    rule_key = (edition_name, len(names))
    if state.get("new_rule_for") != rule_key or not isinstance(state.get("new_rule"), Dealing):
        state.new_rule_for, state.new_rule = rule_key, default_rule
    st.selectbox("Dealing", tuple(Dealing), key="new_rule", format_func=RULE_TITLES.__getitem__)
    sizes = dealt_sizes(state.new_rule, deck, names)
    size_key = (len(deck), names, state.new_rule)
    if state.get("new_sizes_for") != size_key:
        state.new_sizes_for = size_key
        for i, size in enumerate(sizes):
            state[f"new_size_{i}"] = size
    typed = [int(state.get(f"new_size_{i}", 0)) for i in range(len(names))]
    if names:
        with st.expander("Hand sizes: " + ", ".join(f"{n} {s}" for n, s in zip(names, typed,
                                                                               strict=True))):
            for i, name in enumerate(names):
                st.number_input(name, min_value=0, max_value=len(deck), step=1,
                                key=f"new_size_{i}")
    side = side_cards(state.new_rule, deck, names)
    left = len(deck) - 3 - sum(typed) - side
    me = state.get("new_me")
    if me is not None and deck.cards:
        mine = typed[names.index(me)] if me in names else 0
        state.new_mine = [c for c in state.get("new_mine") or () if c in deck]
        st.pills(f"Your {mine} cards", deck.cards, selection_mode="multi", key="new_mine")
    if left > 0:
        state.new_face_up = [c for c in state.get("new_face_up") or () if c in deck]
        st.pills(f"The {left} face-up cards", deck.cards, selection_mode="multi",
                 key="new_face_up")
    if side:
        st.caption("4 side cards lie face down; peeks at them are entered with suggestions.")
    st.text_input("Title (optional)", key="new_title")
    st.button("Start game", type="primary", key="start_game", on_click=start_game,
              width="stretch")


def home_screen() -> None:
    st.title("Clue Notebook")
    saved = store().games(state.shelf)
    if saved:
        st.subheader("Your games")
        for game in saved:
            st.button(f"{game.title} · {game.events} events · {game.saved[:16].replace('T', ' ')}",
                      key=f"open_{game.id}", on_click=open_saved, args=(game.id,),
                      width="stretch")
    st.subheader("New game")
    new_game_form()
    st.subheader("Or open a log")
    found = examples()
    if found:
        st.selectbox("Example", tuple(found), key="example")
        st.button("Open example", key="open_example", on_click=open_chosen_example)
    st.file_uploader("Upload a clue-notebook/1 file", type=["json"], key="upload")
    st.button("Open file", key="open_upload", on_click=open_upload)


def main() -> None:
    st.set_page_config(page_title="Clue Notebook", page_icon=":mag:", layout="centered")
    st.html(PHONE_CSS)
    sync()
    show_flash()
    if "live" in state:
        play_screen()
    else:
        home_screen()
    if state.pop("scroll_top", False):
        st.html(SCROLL_TOP, unsafe_allow_javascript=True)


main()
