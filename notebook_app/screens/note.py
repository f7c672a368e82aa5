"""The Note form on the Turn screen: a fact learned outside the suggestion rules ("I saw Bob's
card by accident: Rope", "the Rope is not in the envelope", "Bob holds one of Plum, Green"),
saved as a `solver.game.Note` entry that is edited, undone and explained like any other.

Few taps: whose by one tap, what by one tap, each card one tap (chips by category), a remark
if wanted. The fields are ``n_owner``, ``n_relation``, ``n_<category>`` and ``n_text``
(`NOTE_KEYS`, part of `notebook_app.session.ENTRY_KEYS`).
"""

from __future__ import annotations

import streamlit as st

from solver.cards import CATEGORIES, Category
from solver.editions import forum_dealt
from solver.game import ENVELOPE, SIDE, Game, Note, NoteRelation
from solver.i18n import N_, _, list_said
from solver.limits import MAX_TEXT_CHARS, text_problem
from solver.report import category_label

from ..plain import plain
from ..reader import form_part
from ..session import left_out, live, unset
from ..turns import apart
from ..typed import refuse_long, too_long

RELATIONS: dict[NoteRelation, str] = {
    "holds": N_("holds"),
    "lacks": N_("does not hold"),
    "holds_one_of": N_("holds one of"),
}
"""What the note says of its cards, as the form's one-tap choice reads."""
CARD_FIELDS = {category: f"n_{category.value}" for category in CATEGORIES}
"""The chips of each category."""
NOTE_KEYS = ("n_owner", "n_relation", "n_text", *CARD_FIELDS.values())
"""Every field of the note form."""

state = st.session_state


def owners(game: Game) -> tuple[str, ...]:
    """Whom a note can be about: the players in seating order, the envelope, the side pile."""
    return game.owners


def owner_label(owner: str, players: tuple[str, ...] = ()) -> str:
    """A chip's label: the envelope and the side pile in words (`apart` from a player of that
    name among ``players``), a player's name as text. Reads nothing of the session: Streamlit
    (and its test runner) may call a chip row's labels outside a run."""
    if owner not in (ENVELOPE, SIDE):
        return plain(owner)
    word = _("Envelope") if owner == ENVELOPE else _("Side pile")
    return plain(apart(word, players))


def note_event() -> Note | None:
    """The note the form describes, or ``None`` while whose or which cards is missing."""
    game = live().log.game
    owner = state.get("n_owner")
    relation = form_relation()
    picked = {c for field in CARD_FIELDS.values() for c in state.get(field) or ()}
    cards = tuple(c for c in game.deck if c in picked)
    if owner not in game.owners or not cards:
        return None
    text = (state.get("n_text") or "").strip() or None
    return Note(owner, holds=cards if relation == "holds" else (),
                lacks=cards if relation == "lacks" else (),
                holds_one_of=cards if relation == "holds_one_of" else (), text=text)


def form_relation() -> NoteRelation:
    """What the form says of the cards: "holds" while none is tapped (a key never set, or
    cleared to ``None``), as the note would be recorded."""
    relation: NoteRelation = state.get("n_relation") or "holds"
    return relation


def load_note(note: Note) -> None:
    """Put a recorded note into the form, to edit it."""
    game = live().log.game
    state.n_owner, state.n_relation = note.owner, note.relation
    for category, field in CARD_FIELDS.items():
        state[field] = [c for c in note.listed if c in game.deck.of(category)]
    state.n_text = note.text or ""


def missing_text() -> str | None:
    """What the form still needs before it can be saved (``None``: nothing)."""
    if state.get("n_owner") is None:
        return _("Tap whose cards the note is about.")
    if not any(state.get(field) for field in CARD_FIELDS.values()):
        return _("Tap at least one card.")
    if state.get("n_owner") == ENVELOPE and form_relation() == "holds":
        deck = live().log.game.deck
        for field in CARD_FIELDS.values():  # (the envelope opened at the end, a slip of a tap)
            picked = [c for c in deck if c in (state.get(field) or ())]
            if len(picked) > 1:
                return _("The envelope holds one card of each kind: keep one of {cards} "
                         "tapped.").format(cards=list_said(picked))
    label = _("Remark (optional)")
    long = too_long("n_text", label, MAX_TEXT_CHARS)
    if long is not None:
        return long
    problem = text_problem(state.get("n_text") or "", limit=MAX_TEXT_CHARS, name=False)
    # by the box's name: "event 4 (events[3].text): '\u202e…' holds …" named none on screen
    return None if problem is None else f"{label}: {problem}"


def note_form() -> None:
    """The note's fields (the Turn screen's Record button saves them). A fresh form where every
    player has accused wrongly is about the envelope, opened now (`solver.ending.to_open`): it
    holds the three cards tapped. Whose and the cards each start with a heading for screen
    readers (`notebook_app.reader.form_part`)."""
    from solver.ending import to_open

    log = live().log
    game = log.game
    if state.get("n_owner") not in (None, *owners(game)) and unset("n_owner"):
        state.n_owner = None
    if "n_owner" not in state and unset("n_owner") and to_open(log, left_out()):
        state.n_owner = ENVELOPE  # every player accused wrongly: the envelope is opened
    if state.get("n_relation") not in RELATIONS and unset("n_relation"):
        state.n_relation = "holds"
    form_part(_("Whose"))
    st.pills(_("Whose"), owners(game), key="n_owner",
             format_func=lambda owner: owner_label(owner, game.player_names))
    st.segmented_control(_("What"), tuple(RELATIONS), key="n_relation", required=True,
                         format_func=lambda relation: _(RELATIONS[relation]), width="stretch")
    form_part(_("The cards"))
    for category, field in CARD_FIELDS.items():
        if unset(field):
            state[field] = [c for c in state.get(field) or () if c in game.deck.of(category)]
        chips(game, category, field)
    st.text_input(_("Remark (optional)"), value=state.get("n_text") or "", key="n_text",
                  placeholder=_("saw it by accident · house rule · a dropped card"))
    # (the value: an edited note's, also if drawn late); a longer text is said right here, and
    # Record says it again above itself (`entry_problem`) only once tapped
    refuse_long("n_text", _("Remark (optional)"), MAX_TEXT_CHARS,
                said=state.get("entry_problem"))


def chips(game: Game, category: Category, field: str) -> None:
    """One category's chips, headed by its name (the forum variant's places as places)."""
    st.pills(category_label(category, title=True, places=forum_dealt(game)),
             game.deck.of(category), key=field, selection_mode="multi", format_func=plain)
