"""What the command line prints: the ``analyze`` contract JSON and the notebook as a table.

`analysis_json` builds the contract object of ``shared/log-format.md`` as a plain dict, so a
feature that adds fields (explanations, odds) extends the dict it returns rather than copying it.
The table is aligned by display width (a wide Japanese character takes two columns, a combining
accent none), and it shrinks the owner headers to fit a given width.

>>> from solver.logfile import loads
>>> log = loads('''{"format": "clue-notebook/1",
...   "cards": {"suspects": ["Plum", "Green"], "weapons": ["Rope"], "rooms": ["Hall"]},
...   "players": [{"name": "Ann", "hand_size": 1}, {"name": "Bob", "hand_size": 0}],
...   "me": "Ann", "my_cards": ["Green"], "events": []}''')
>>> from solver.notebook import analyze
>>> data = analysis_json(analyze(log))
>>> data["envelope"], data["accusation_safe"]
({'suspect': 'Plum', 'weapon': 'Rope', 'room': 'Hall'}, True)
>>> data["cells"]["Green"]
{'Ann': 'yes', 'Bob': 'no', 'envelope': 'no'}
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from math import prod
from typing import TYPE_CHECKING, Any

from .cards import CATEGORIES, Category
from .editions import forum_dealt
from .game import ENVELOPE, SIDE, Accusation, Event, Note, Reveal, Triple
from .i18n import _, list_said, ngettext
from .notebook import Analysis, Grid, Knowledge

if TYPE_CHECKING:
    from .editions import Edition

SYMBOLS: dict[Knowledge, str] = {Knowledge.YES: "✓", Knowledge.NO: "·", Knowledge.MAYBE: "?"}
"""How each cell is drawn in the table."""


def legend() -> str:
    """The line under the table that says what the symbols mean."""
    return _("✓ holds it   · does not   ? not known yet")


def owner_label(owner: str) -> str:
    """A grid column's name: a player's name as is, the envelope and side cards translated."""
    if owner == ENVELOPE:
        return _("envelope")
    if owner == SIDE:
        return _("side")
    return owner


def category_label(category: Category, *, title: bool = False, places: bool = False) -> str:
    """A category's plural name in the current language: "suspects", or "Suspects"; with
    ``places``, the third is "places" (the forum variant's: `solver.editions.forum_dealt`)."""
    if category is Category.ROOM and places:
        return _("Places") if title else _("places")
    if title:
        return {Category.SUSPECT: _("Suspects"), Category.WEAPON: _("Weapons"),
                Category.ROOM: _("Rooms")}[category]
    return {Category.SUSPECT: _("suspects"), Category.WEAPON: _("weapons"),
            Category.ROOM: _("rooms")}[category]

TRIPLE_LIMIT = 500
"""`possible_triples` stops counting beyond this many (a large custom game early on)."""


# --- the contract JSON -----------------------------------------------------------------------


def grid_json(grid: Grid) -> dict[str, dict[str, str]]:
    """``cells``: every card -> every owner -> ``"yes"``, ``"no"`` or ``"maybe"``."""
    return {card: {owner: k.value for owner, k in row.items()} for card, row in grid.cells.items()}


def envelope_json(grid: Grid) -> dict[str, str | None]:
    """``envelope``: the card of each category known to be in the envelope, or ``None``."""
    return {cat.value: card for cat, card in grid.envelope().items()}


def analysis_json(analysis: Analysis) -> dict[str, Any]:
    """The ``analyze --json`` object of the contract.

    A contradictory log keeps every key: ``cells`` and ``envelope`` are ``None``,
    ``accusation_safe`` is false, and ``conflict`` lists the minimal clashing events (1-based).
    """
    grid = analysis.grid
    data: dict[str, Any] = {
        "consistent": grid is not None,
        "owners": list(analysis.log.game.owners),
        "cells": grid_json(grid) if grid else None,
        "envelope": envelope_json(grid) if grid else None,
        "accusation_safe": bool(grid and grid.accusation_safe),
    }
    if grid is None:
        data["conflict"] = list(analysis.conflict)
    return data


def editions_json() -> list[dict[str, Any]]:
    """Every preset: name, title, language, dealing rule, card counts and the cards."""
    from .editions import editions

    return [
        {
            "name": e.name,
            "title": e.title,
            "language": e.language,
            "dealing": e.dealing.value,
            "counts": {c.plural: len(e.deck.of(c)) for c in CATEGORIES},
            "cards": {c.plural: list(e.deck.of(c)) for c in CATEGORIES},
        }
        for e in editions().values()
    ]


# --- the envelope ----------------------------------------------------------------------------


def envelope_lines(
    grid: Grid, triples: Sequence[Triple] | None, limit: int = TRIPLE_LIMIT
) -> list[str]:
    """The envelope so far, the candidates left, and whether an accusation is safe.

    ``triples`` are the possible envelope triples (`solver.envelopes.possible_triples`, asked
    for at most ``limit`` + 1); ``None`` skips the count.
    """
    known = grid.envelope()
    unknown = "?"
    places = forum_dealt(grid.game)  # the forum variant's word for the third kind of card
    lines = [(_("Envelope: suspect {suspect}, weapon {weapon}, place {room}") if places else
              _("Envelope: suspect {suspect}, weapon {weapon}, room {room}")).format(
        suspect=known[Category.SUSPECT] or unknown, weapon=known[Category.WEAPON] or unknown,
        room=known[Category.ROOM] or unknown)]
    if grid.accusation_safe:
        lines.append(_("Accusation is safe: {suspect}, {weapon}, {room}").format(
            suspect=known[Category.SUSPECT], weapon=known[Category.WEAPON],
            room=known[Category.ROOM]))
        return lines
    candidates = {cat: grid.envelope_candidates(cat) for cat in CATEGORIES}
    lines.append(_("Still possible in the envelope:"))
    lines.extend(f"  {category_label(cat, places=places)}: {list_said(candidates[cat])}"
                 for cat in CATEGORIES)
    bound = prod(len(c) for c in candidates.values())
    if triples is None:
        lines.append(ngettext("Not yet: at most {bound} triple possible",
                              "Not yet: at most {bound} triples possible",
                              bound).format(bound=bound))
    elif len(triples) > limit:
        lines.append(ngettext("Not yet: more than {limit} triples possible (at most {bound})",
                              "Not yet: more than {limit} triples possible (at most {bound})",
                              limit).format(limit=limit, bound=bound))
    else:
        lines.append(ngettext("Not yet: {count} triple possible",
                              "Not yet: {count} triples possible",
                              len(triples)).format(count=len(triples)))
    return lines


# --- events in words -------------------------------------------------------------------------


def describe_event(number: int, event: Event) -> str:
    """One line a player recognises: ``event 2: Aino suggested (Regina, köysi, autotalli); …``,
    ``event 5: note: Niko does not hold köysi``."""
    if isinstance(event, Note):
        from .notes import remark, statement

        return _("event {number}: note: {note}").format(
            number=number, note=statement(event) + remark(event))
    cards = list_said(event.cards)
    if isinstance(event, Reveal):
        if event.whole_hand:
            text = _("event {number}: {player} revealed {cards} (the whole hand)")
        else:
            text = _("event {number}: {player} revealed {cards}")
        return text.format(number=number, player=event.player, cards=cards)
    if isinstance(event, Accusation):
        if event.correct:
            text = _("event {number}: {player} correctly accused ({cards})")
        else:
            text = _("event {number}: {player} wrongly accused ({cards})")
        return text.format(number=number, player=event.by, cards=cards)
    parts = [_("event {number}: {player} suggested ({cards})").format(
        number=number, player=event.by, cards=cards)]
    if event.passes:
        parts.append(ngettext("{players} passed", "{players} passed", len(event.passes))
                     .format(players=list_said(event.passes)))
    if event.refuted_by is None:
        parts.append(_("nobody refuted"))
    elif event.shown is not None:
        parts.append(_("{player} showed {card}").format(player=event.refuted_by, card=event.shown))
    else:
        parts.append(_("{player} showed a card").format(player=event.refuted_by))
    peek = event.side_peek
    if peek is not None:
        if peek.card is not None:
            parts.append(_("side card {slot} looked at: {card}").format(
                slot=peek.slot, card=peek.card))
        else:
            parts.append(_("side card {slot} looked at").format(slot=peek.slot))
    return "; ".join(parts)


def conflict_message(analysis: Analysis) -> str:
    """Why a contradictory log has no deal, naming the clashing events."""
    events = analysis.log.events
    if not analysis.conflict:
        return _("No deal fits the setup itself (before any event): "
                 "check cards, hands and sizes.")
    numbers = list_said(str(n) for n in analysis.conflict)
    lines = [
        _("Contradiction: no deal fits events {numbers} together "
          "(dropping any one of them leaves a consistent log):").format(numbers=numbers)
        if len(analysis.conflict) > 1
        else _("Contradiction: no deal fits event {number} with the setup:").format(
            number=numbers),
        *(f"  {describe_event(n, events[n - 1])}" for n in analysis.conflict),
        _("One of these entries is wrong; fix or remove it.") if len(analysis.conflict) > 1
        else _("This entry is wrong, or the setup is; fix or remove it, or fix the setup."),
    ]
    return "\n".join(lines)


# --- the table -------------------------------------------------------------------------------


def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: wide East Asian characters 2, combining marks 0.

    >>> display_width("Päiväperhonen"), display_width("Pa\\u0308iva\\u0308"), display_width("東京")
    (13, 5, 4)
    """
    if text.isascii():  # every ASCII character takes one column (most names: no loop)
        return len(text)
    width = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` display columns, ending in ``…`` when cut.

    >>> fit("Veselchak U", 6), fit("Oona", 6)
    ('Vesel…', 'Oona')
    """
    if display_width(text) <= width:
        return text
    out = ""
    for char in text:
        if display_width(out + char) > width - 1:
            break
        out += char
    return out + "…"


def pad(text: str, width: int, align: str = "<") -> str:
    """``text`` padded with spaces to ``width`` display columns (``<`` left, ``^`` centre)."""
    gap = max(0, width - display_width(text))
    if align == "^":
        return " " * (gap // 2) + text + " " * (gap - gap // 2)
    return text + " " * gap


def notebook_table(grid: Grid, width: int = 100) -> str:
    """The grid as text: cards by category down the side, owners across.

    Owner headers are shortened (with the full names listed below) when the table would be
    wider than ``width`` columns.
    """
    game = grid.game
    owners = [owner_label(o) for o in grid.owners]
    places = forum_dealt(game)  # the forum variant's "Places"
    labels = {cat: category_label(cat, title=True, places=places) for cat in CATEGORIES}
    label_width = max(
        [display_width(v) for v in labels.values()] + [2 + display_width(c) for c in game.deck]
    )
    gap = 2
    face_up = set(game.face_up)
    marker = "   " + _("face up")
    fixed = label_width + (display_width(marker) if face_up else 0)
    natural = [max(1, display_width(o)) for o in owners]
    cap = max(natural)
    while cap > 3 and fixed + sum(gap + min(w, cap) for w in natural) > width:
        cap -= 1
    headers = [fit(o, cap) for o in owners]
    shortened = headers != owners
    widths = [max(1, display_width(h)) for h in headers]

    def row(label: str, cells: Sequence[str], align: str = "^") -> str:
        columns = "".join(" " * gap + pad(c, w, align) for c, w in zip(cells, widths, strict=True))
        return (pad(label, label_width) + columns).rstrip()

    lines = [row("", headers)]
    for cat in CATEGORIES:
        lines.append(labels[cat])
        for card in game.deck.of(cat):
            line = row("  " + card, [SYMBOLS[grid[card, o]] for o in grid.owners])
            lines.append(line + (marker if card in face_up else ""))
    if shortened:
        lines.append(_("Columns: {owners}").format(owners=list_said(owners)))
    lines.append(legend())
    return "\n".join(lines)


def heading(analysis: Analysis, total_events: int) -> str:
    """Whose notebook, which game, and how many events it reflects."""
    game = analysis.log.game
    if game.me:
        whose = _("{player}'s notebook").format(player=game.me)
    else:
        whose = _("spectator's notebook (public information)")
    count = len(analysis.log.events)
    after = (
        ngettext("after all {count} event", "after all {count} events", count).format(count=count)
        if count == total_events
        else _("after event {count} of {total}").format(count=count, total=total_events)
    )
    return " · ".join(part for part in (game.title, whose, after) if part)


def edition_table(presets: Sequence[Edition] | None = None) -> str:
    """The presets as aligned text: name, title, dealing rule and card counts."""
    from .editions import editions

    chosen = list(editions().values()) if presets is None else list(presets)
    rows = [(_("name"), _("title"), _("dealing"), _("cards"))]
    for e in chosen:
        counts = [len(e.deck.of(c)) for c in CATEGORIES]
        sizes = " + ".join(str(n) for n in counts) + f" = {sum(counts)}"
        rows.append((e.name, e.shown_title, e.dealing.value, sizes))
    rows.append(("forum", _("generated with --forum N: the forum variant"), "forum",
                 "N + N + (N + 3)"))
    widths = [max(display_width(r[i]) for r in rows) for i in range(4)]
    return "\n".join(
        "  ".join(pad(cell, w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows
    )
