"""The notebook grid as a narrow table: cards down the side, owners across, symbol and colour.

Six players plus the envelope must fit a 390 px wide phone, so owners get short unique labels
(whole names where the table has room for them: two to four players) and every cell is one
symbol (or a percentage when probabilities are known) on a coloured background: never colour
alone. At a larger table the owners scroll sideways under the card names, whose long ones are
shortened so that six players and the envelope stay in sight.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from functools import partial
from math import ceil, floor, isclose, log10, prod
from unicodedata import east_asian_width

import pandas as pd

from solver.cards import CATEGORIES, Category
from solver.editions import forum_dealt
from solver.game import ENVELOPE, SIDE
from solver.i18n import N_, _, list_said, local_figures, ngettext, percent_said
from solver.notebook import Grid, Knowledge
from solver.report import category_label

from .colours import LIGHT, Palette
from .plain import plain

SYMBOL = {Knowledge.YES: "✓", Knowledge.NO: "✗", Knowledge.MAYBE: "?"}
"""One symbol per kind of cell, so the grid reads without colour (its colours:
`notebook_app.colours`)."""
FACE_UP = "▲"
"""Every cell of a face-up card: it lies on the table, nobody holds it."""
LABEL = {ENVELOPE: N_("Env"), SIDE: N_("Side")}
"""Column labels of the envelope and the side pile."""
PHONE_TABLE = 366
"""Pixels of table a 390 px wide phone shows without scrolling sideways."""
CELL_WIDTH = 35
"""Pixels of an owner column: a symbol or "38%" (25.5 px after the cell's 8 px of padding), so
that six players, the envelope and the classic box's names fit (120 px)."""
FONT_PX = 14
"""Pixels of the grid's font (Streamlit's "sm", Source Sans); a character of Japanese or Chinese
(East Asian wide) is one of these wide."""
GLYPH_WIDTH = {"narrow": 4.3, "lower": 7.3, "upper": 8.6, "broad": 11.0}
"""Pixels of a Latin or Cyrillic character of the grid's font by its shape, the means of what
Chromium measures for the editions' card names (within 2 px of every name's width)."""
NARROW = frozenset(" .,'\u2019-ijlftrI!:;|()")
BROAD = frozenset("mwMWшщюжыфмШЩЮЖЫФ\u041c\u2014%")  # \u041c: Cyrillic capital Em
CELL_PADDING = 16
"""Pixels the grid leaves on the two sides of a cell's text (8 each)."""
LABEL_ROOM = CELL_WIDTH - CELL_PADDING // 2 + 1
"""Pixels of header label an owner column of `CELL_WIDTH` shows whole: the text starts after
the cell's 8 px of padding and is cut at the column's edge ("Шуш", 29.3 px in Chromium, lost
2 px of its last letter, "Emm" 3.6 px); two Japanese characters (28 px) lose only the space
beside the second."""
LABEL_SLACK = 2
"""Pixels a column widened for its header label keeps beyond the label's `text_width`, for
that estimate's error."""
OWNERS_IN_SIGHT = 7
"""Owner columns a phone shows beside the card names: six players and the envelope."""
NAMES_CAP = PHONE_TABLE - OWNERS_IN_SIGHT * CELL_WIDTH
"""Pixels of the card column at a table of seven players or more, whose owners cannot all be in
sight at once: six players and the envelope are, the others a swipe away, and the longer card
names are shortened to fit (`card_labels`). At 12 players the full names took 197 of 366 px
and left four owner columns and part of a fifth in sight. Less where the envelope's label
widens its column (`card_column_width`)."""
NAMES_SLACK = 4
"""Pixels the card column keeps beyond its widest text, for the error of `text_width`."""
ELLIPSIS = "…"


def short_names(
    names: Sequence[str], width: int = 3, taken: Collection[str] = (), room: float | None = None
) -> dict[str, str]:
    """Unique labels of at most ``width`` characters (and, given ``room``, at most that many
    pixels, `text_width`, where it can be: "Шу", not "Шуш"): the name's start when no other
    name shares it, else initials, else its first letters and a later one, else a number.
    Labels in ``taken`` (the envelope's and side pile's columns) are never given to a player.

    >>> short_names(["Aino", "Niko", "Nina", "Oona"])
    {'Aino': 'Ain', 'Niko': 'Nik', 'Nina': 'Nin', 'Oona': 'Oon'}
    >>> short_names(["Ann", "Anna", "Annabel", "Marjaana Punakulta", "Marja"])
    {'Ann': 'Ann', 'Anna': 'Ana', 'Annabel': 'Anb', 'Marjaana Punakulta': 'MP', 'Marja': 'Mar'}
    >>> short_names(["Enver", "Bob"], taken={"Env"})
    {'Enver': 'Ene', 'Bob': 'Bob'}
    >>> short_names(["Шушера", "Шура", "Emma", "Emmi"], room=LABEL_ROOM)
    {'Шушера': 'Шу', 'Шура': 'Шур', 'Emma': 'Ema', 'Emmi': 'Emi'}
    """
    def fits(label: str) -> bool:
        return room is None or text_width(label) <= room

    def start_of(name: str) -> str:
        start = name[:width]
        while len(start) > 1 and not fits(start):
            start = start[:-1]
        return start

    starts = Counter(start_of(n) for n in names)
    unique = {start for start, count in starts.items() if count == 1 and start not in taken}
    reserved = unique | set(taken)
    labels: dict[str, str] = {}
    for name in names:
        start = start_of(name)
        if start in unique:
            labels[name] = start
            continue
        words = name.split()
        candidates = ["".join(w[0] for w in words)[:width]] if len(words) > 1 else []
        candidates += [name[: width - 1] + ch for ch in name[width - 1 :] if not ch.isspace()]
        candidates += [start[:-1] + ch for ch in name[len(start) - 1:] if not ch.isspace()]
        candidates = [c for c in candidates if fits(c)]
        candidates += [f"{name[: width - 1]}{i}" for i in range(1, len(names) + 2)]
        taken = set(labels.values()) | reserved
        labels[name] = next(c for c in candidates if c.strip() and c not in taken)
    return labels


def column_labels(grid: Grid) -> dict[str, str]:
    """The label of every owner column, in grid order: the players' whole names where they all
    fit the phone beside the card names and read apart (two to four players with short names),
    else short ones (`short_names`).

    >>> from solver.editions import Dealing, editions, new_game
    >>> deck = editions()["clue-classic"].deck
    >>> two = Grid(new_game(deck, ("Marjaana", "Niko"), Dealing.CLASSIC), {})
    >>> list(column_labels(two).values())
    ['Marjaana', 'Niko', 'Env']
    >>> five = ("Marjaana", "Niko", "Oona", "Eeva", "Aino")
    >>> list(column_labels(Grid(new_game(deck, five, Dealing.CLASSIC), {})).values())
    ['Mar', 'Nik', 'Oon', 'Eev', 'Ain', 'Env']
    >>> list(column_labels(Grid(new_game(deck, ("Ann", "Ann "), Dealing.CLASSIC), {})).values())
    ['Ann', 'An1', 'Env']
    >>> list(column_labels(Grid(new_game(deck, ("Ann", "Card"), Dealing.CLASSIC), {})).values())
    ['Ann', 'Car', 'Env']
    >>> list(column_labels(Grid(new_game(deck, ("Åsa", "A\u030asa"), Dealing.CLASSIC), {})
    ...      ).values()) == ['Åsa', 'A\u030as', 'Env']
    True
    """
    own = {owner: _(label) for owner, label in LABEL.items()}
    names = grid.game.player_names
    players = short_names(names, taken=set(own.values()), room=LABEL_ROOM)
    if whole_names_fit(grid, own):
        players = {name: name for name in names}
    return {owner: players.get(owner, own.get(owner, owner)) for owner in grid.owners}


def whole_names_fit(grid: Grid, own: Mapping[str, str]) -> bool:
    """Whether every player's whole name can label their column with the card names and every
    owner column in sight at once, each column as wide as a figure (">99%") or its name; the
    card names without their `NAMES_SLACK`, which they give up rather than scroll
    (`card_width_beside`): the Finnish box at four players came to 367 px with it."""
    names = grid.game.player_names
    labels = [*names, *(own[o] for o in grid.owners if o in own)]
    seen = {read_as(label) for label in labels}
    if len(seen) < len(labels) or {"", read_as(_("Card"))} & seen:
        return False  # two columns that would read alike ("Ann", "Ann "; a player named as
        # the card column's header, "Card"), or one blank
    widest = names_width(grid)
    figure = ceil(text_width(">99%")) + CELL_PADDING // 2 + 1
    return widest + sum(max(label_width(label), figure) for label in labels) <= PHONE_TABLE


def read_as(label: str) -> str:
    """What a label reads as: its letters without invisible ones (U+200B) or spaces at either
    end, composed alike ("Åsa" typed as A and a ring), in one case.

    >>> read_as(" A\u030asa\u200b") == read_as("åsa")
    True
    """
    seen = "".join(ch for ch in unicodedata.normalize("NFKC", label)
                   if unicodedata.category(ch) != "Cf")
    return seen.strip().casefold()


def text_width(text: str) -> float:
    """About how many pixels ``text`` takes in the grid's font.

    >>> text_width("Rope"), text_width("ロープ")
    (30.5, 42.0)
    """
    width = 0.0
    for ch in text:
        if east_asian_width(ch) in "WF":
            width += FONT_PX
        elif ch in NARROW:
            width += GLYPH_WIDTH["narrow"]
        elif ch in BROAD:
            width += GLYPH_WIDTH["broad"]
        else:
            width += GLYPH_WIDTH["upper" if ch.isupper() else "lower"]
    return width


def card_column_width(grid: Grid) -> int:
    """Pixels for the card names: the widest name's, or category heading's, in the reader's
    script, so that none is cut. Where the owner columns do not fit beside it (five or six
    players with long names), they scroll sideways under the names, which stay in place, the
    envelope's column first (`notebook_app.screens.grid`). At seven players or more, at most
    `NAMES_CAP`, and what is left beside the owner columns in sight: the longer names are
    shortened (`card_labels`); less where the envelope's label widens its column (`label_width`:
    "Конв" takes 41 px, and the seventh column in sight was cut by 6).

    >>> from solver.editions import Dealing, editions, forum_deck, new_game
    >>> finnish = editions()["cluedo-refresh-2012-fi"].deck
    >>> three = Grid(new_game(finnish, ("Aino", "Niko", "Eeva"), Dealing.REFRESH), {})
    >>> card_column_width(three)  # "Regina Päiväperhonen"
    157
    >>> japanese = editions()["clue-classic-ja"].deck  # "ミス・スカーレット", 9 wide characters
    >>> card_column_width(Grid(new_game(japanese, ("Ai", "Ni", "Ee"), Dealing.CLASSIC), {}))
    146
    >>> twelve = tuple(f"P{i}" for i in range(1, 13))
    >>> card_column_width(Grid(new_game(finnish, twelve[:7], Dealing.REFRESH), {}))
    121
    >>> card_column_width(Grid(new_game(forum_deck(12), twelve, Dealing.FORUM), {}))
    121
    >>> from solver.i18n import speaking
    >>> with speaking("ru"):
    ...     card_column_width(Grid(new_game(forum_deck(12), twelve, Dealing.FORUM), {}))
    115
    """
    widest = names_width(grid) + NAMES_SLACK
    labels = column_labels(grid)
    if len(grid.owners) > OWNERS_IN_SIGHT:  # the owners in sight end at a column's edge at
        # either end of the scroll, not in a sliver of the next column's text beside the pinned
        # envelope ("15%%")
        envelope = label_width(labels[ENVELOPE])
        beside = PHONE_TABLE - envelope  # the names and the players beside the envelope
        cap = beside - (OWNERS_IN_SIGHT - 1) * CELL_WIDTH
        return beside - (beside - min(widest, cap)) // CELL_WIDTH * CELL_WIDTH
    owners = sum(label_width(label) for label in labels.values())
    if widest + owners > PHONE_TABLE >= widest - NAMES_SLACK + owners:
        return PHONE_TABLE - owners  # a table 1 px too wide would scroll by 1 px
    return widest


def card_width_beside(grid: Grid, widths: Mapping[str, int]) -> int:
    """Pixels of the card column beside owner columns of ``widths`` (`owner_widths`, with the
    odds shown): `card_column_width`, less what of its `NAMES_SLACK` would have the table
    scroll sideways by a few pixels where a figure (">99%") widens a column (whole names
    counted on it: `whole_names_fit`). At seven players or more it is as it is."""
    names = card_column_width(grid)
    owners = sum(widths.values())
    widest = names_width(grid)
    if len(grid.owners) <= OWNERS_IN_SIGHT and names + owners > PHONE_TABLE >= widest + owners:
        return PHONE_TABLE - owners
    return names


def names_width(grid: Grid) -> int:
    """Pixels of the card column's widest text (`row_texts`) with the cell's padding, without
    `NAMES_SLACK`."""
    return ceil(max(text_width(text) for text in row_texts(grid))) + CELL_PADDING


def row_texts(grid: Grid) -> list[str]:
    """Every text of the card column, in full: the cards, the category headings, its header."""
    places = forum_dealt(grid.game)
    return [*grid.game.deck, *(category_row(c, places) for c in CATEGORIES), _("Card")]


def card_labels(grid: Grid) -> dict[str, str]:
    """What the card column says for each card and category heading (`category_row`): the
    text itself, or at seven players or more, where it does not fit `card_column_width`,
    shortened to fit (`shortened`). The dialog of a tapped cell names the card in full."""
    texts = row_texts(grid)[:-1]
    if len(grid.owners) <= OWNERS_IN_SIGHT:
        return {text: text for text in texts}
    return shortened(texts, card_column_width(grid) - CELL_PADDING - NAMES_SLACK)


def shortened(texts: Sequence[str], width: float) -> dict[str, str]:
    """Each text as it is where it fits in ``width`` pixels (`text_width`), else shortened to
    fit: the words before its last cut to a few letters and a dot (`abbreviated`), else its
    start and "…"; where that would read as another's label, its start, "…" and its end.
    Labels are unique.

    >>> shortened(["Rope", "Professor Plum", "Professor Peach"], 70)
    {'Rope': 'Rope', 'Professor Plum': 'Prof. Plum', 'Professor Peach': 'P. Peach'}
    >>> shortened(["Квартира Коли Герасимова", "Космический шлем", "Космическая рация"], 101)
    ... # doctest: +NORMALIZE_WHITESPACE
    {'Квартира Коли Герасимова': 'Квартира Кол…', 'Космический шлем': 'Космич. шлем',
     'Космическая рация': 'Космич. рация'}
    >>> shortened(["Greenhouse 1", "Greenhouse 2", "Greenhouse"], 40)
    {'Greenhouse 1': 'G. 1', 'Greenhouse 2': 'G. 2', 'Greenhouse': 'Gre…e'}
    """
    labels = {text: text for text in texts if text_width(text) <= width}
    long = [text for text in texts if text not in labels]
    firsts = Counter(shorter for text in long for shorter in
                     {abbreviated(text, width), cut(text, width)} if shorter)
    taken = set(labels)
    for text in long:
        candidates = [c for c in (abbreviated(text, width), cut(text, width))
                      if c and firsts[c] == 1]
        for end in range(1, len(text)):
            tail = text[-end:]
            if text_width(tail) > width / 2:
                break
            candidates.append(cut(text, width - text_width(tail), tail))
        label = next((c for c in candidates if c not in taken), text)
        labels[text] = label
        taken.add(label)
    return {text: labels[text] for text in texts}


def abbreviated(text: str, width: float) -> str | None:
    """``text`` in ``width`` pixels with one word before its last cut to its first letters
    and a dot: four or more letters ("Космич. шлем"), else its initial ("П. Селезнёв");
    ``None`` where that does not fit (or ``text`` is one word), since a cut at the end reads
    better than several words cut ("Д. м. времени").

    >>> abbreviated("Космический шлем", 101), abbreviated("Профессор Селезнёв", 101)
    ('Космич. шлем', 'П. Селезнёв')
    >>> abbreviated("Дверь машины времени", 101) is None
    True
    """
    *words, last = text.split(" ")
    for i, word in enumerate(words):
        for keep in [*range(len(word) - 2, 3, -1), 1]:
            short = [*words[:i], word[:keep] + ".", *words[i + 1:], last]
            if text_width(" ".join(short)) <= width:
                return " ".join(short)
    return None


def cut(text: str, width: float, tail: str = "") -> str:
    """The longest start of ``text`` that fits in ``width`` pixels followed by "…" and
    ``tail`` (spaces before the "…" dropped).

    >>> cut("Дверь машины времени", 94)
    'Дверь машин…'
    """
    room = width - text_width(ELLIPSIS)
    end = 0
    while end < len(text) and text_width(text[: end + 1]) <= room:
        end += 1
    return text[:end].rstrip() + ELLIPSIS + tail


def category_row(category: Category, places: bool = False) -> str:
    """The label of the row that heads a category (``places``: the forum variant's word for
    the third, `solver.editions.forum_dealt`).

    >>> category_row(Category.ROOM), category_row(Category.ROOM, places=True)
    ('— rooms —', '— places —')
    """
    return f"— {category_label(category, places=places)} —"


def grid_rows(grid: Grid) -> list[str | None]:
    """The card of each table row, ``None`` for a category heading."""
    rows: list[str | None] = []
    for category in CATEGORIES:
        rows.append(None)
        rows.extend(grid.game.deck.of(category))
    return rows


def grid_table(
    grid: Grid, odds: Mapping[str, Mapping[str, float]] | None = None
) -> pd.DataFrame:
    """The grid as text: a row per card under its category heading (as `card_labels` says
    them), a column per owner.

    ``odds`` (card -> owner -> probability), when given, replaces "?" by a percentage.
    """
    labels = column_labels(grid)
    names = card_labels(grid)
    places = forum_dealt(grid.game)
    index: list[str] = []
    rows: list[list[str]] = []
    for category in CATEGORIES:
        index.append(names[category_row(category, places)])
        rows.append([""] * len(labels))
        for card in grid.game.deck.of(category):
            index.append(names[card])
            cells = []
            for owner in grid.owners:
                knowledge = grid[card, owner]
                if card in grid.game.face_up:
                    cells.append(FACE_UP)
                elif knowledge is Knowledge.MAYBE and odds is not None:
                    cells.append(percent(odds[card][owner]))
                else:
                    cells.append(SYMBOL[knowledge])
            rows.append(cells)
    return pd.DataFrame(rows, index=pd.Index(index, name=_("Card")),
                        columns=list(labels.values()))


def owner_widths(table: pd.DataFrame) -> dict[str, int]:
    """Pixels of each owner column of `grid_table`: `CELL_WIDTH`, wider where a cell's text
    would be cut (">99%" needs 42: Chromium's 32.4 after the 8 px of padding) or its header
    label (`label_width`: a broad Cyrillic "Шуш", a translated envelope's "Конв").

    >>> owner_widths(pd.DataFrame({"Env": ["✓", "37%"], "Ann": ["<1%", ">99%"]}))
    {'Env': 35, 'Ann': 42}
    >>> owner_widths(pd.DataFrame({"Конв": ["✓"], "Юля": ["✓"], "Аня": ["✗"]}))
    {'Конв': 41, 'Юля': 35, 'Аня': 35}
    """
    return {label: max(label_width(label),
                       ceil(max(text_width(text) for text in table[label])) + CELL_PADDING // 2
                       + 1)
            for label in table.columns}


def label_width(label: str) -> int:
    """Pixels an owner column needs for its header ``label`` whole: `CELL_WIDTH` where the
    label fits its `LABEL_ROOM` (a player's is made to, `column_labels`), else more, with
    `LABEL_SLACK` (the envelope's "Конв" and "Kuori"; "封筒" fits).

    >>> label_width("Ann"), label_width("封筒"), label_width("Конв"), label_width("Kuori")
    (35, 35, 41, 42)
    """
    width = text_width(label)
    if width <= LABEL_ROOM:
        return CELL_WIDTH
    return ceil(width) + CELL_PADDING // 2 + LABEL_SLACK


def percent(probability: float) -> str:
    """A cell's probability in at most four characters; never "0%" or "100%" for an open cell.
    Written so in every language, as a symbol is: Finnish and Russian write "37 %" in a
    sentence (`solver.i18n.local_figures`, the odds' lines), but in Chromium "37 %" takes
    28.3 px where a `CELL_WIDTH` column's text has 27, and a column made wide enough (42 px)
    put the sixth player's out of sight.

    >>> percent(0.372), percent(0.001), percent(0.9996)
    ('37%', '<1%', '>99%')
    """
    return percent_said(probability, undecided=True, language="en")


def odds_basis(probability: float, deals: int | None, error: float | None) -> str:
    """What a cell's percentage is based on, in one line under its explanation: an exact count
    over every deal that fits the log (``deals`` of them), or a sampled estimate with two
    standard errors (``error`` is one).

    >>> odds_basis(0.372, 1113, None)
    '37%: counted over all 1\u202f113 deals that fit the log.'
    >>> odds_basis(0.372, None, 0.013)
    '37% ± 3%: estimated from a sample of the deals that fit the log.'
    >>> from solver.i18n import speaking
    >>> with speaking("fi"):
    ...     odds_basis(0.372, None, 0.013).startswith("37\xa0% ± 3\xa0%")
    True
    """
    chance = percent_said(probability, undecided=True)
    if error is None and deals is not None:
        return ngettext("{chance}: counted over the {count} deal that fits the log.",
                        "{chance}: counted over all {count} deals that fit the log.",
                        deals).format(chance=chance, count=deals_said(deals))
    spread = local_figures(f"{max(1, round(200 * (error or 0)))}%")
    return _("{chance} ± {error}: estimated from a sample of the deals that fit the log.").format(
        chance=chance, error=spread)


SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def deals_said(count: int) -> str:
    """A count of deals to read at a glance: whole below a billion, its thousands apart (a
    narrow space, read alike in every language), else two digits and a power of ten (a
    12-player game at its start has 10²³ deals).

    >>> deals_said(1_398_600) == "1\u202f398\u202f600"
    True
    >>> deals_said(1113), deals_said(252_701_950_369_125_880)
    ('1\u202f113', '2.5\xa0\xd7\xa010¹⁷')
    """
    if count < 1_000_000_000:
        return f"{count:,}".replace(",", "\u202f")
    mantissa, exponent = f"{count:.1e}".split("e")
    return f"{mantissa}\u00a0\u00d7\u00a010{str(int(exponent)).translate(SUPERSCRIPT)}"


def envelope_chance(probability: float) -> str:
    """An envelope's chance: in whole percent from 1%, below it with two significant digits,
    since a big deck leaves thousands of envelopes under 1% that are far from alike; written
    as the language writes it (`solver.i18n.local_figures`).

    >>> envelope_chance(0.372), envelope_chance(0.0011), envelope_chance(0.00012)
    ('37%', '0.11%', '0.012%')
    >>> envelope_chance(0.0000001)
    '<0.0001%'
    >>> from solver.i18n import speaking
    >>> with speaking("ru"):
    ...     envelope_chance(0.0011)
    '0,11\xa0%'
    """
    value = 100 * probability
    if value >= 0.995:
        return percent_said(probability, undecided=True)
    if value < 0.00005:
        return local_figures("<0.0001%")
    digits = min(4, 1 - floor(log10(value)))
    return local_figures(f"{value:.{digits}f}%")


def grid_styles(grid: Grid, palette: Palette = LIGHT) -> pd.DataFrame:
    """CSS for every cell of `grid_table`, so the colours follow the knowledge (in the colour
    scheme of ``palette``)."""
    styles: list[list[str]] = []
    for card in grid_rows(grid):
        if card is None:
            styles.append([palette.heading] * len(grid.owners))
        elif card in grid.game.face_up:
            styles.append([palette.face_up] * len(grid.owners))
        else:
            styles.append([palette.cells[grid[card, owner]] for owner in grid.owners])
    return pd.DataFrame(styles)


PINNED_ALPHA = 0.6
"""The opacity Streamlit's table (Glide, "faded" cells) draws the text of a pinned column at."""


def unfaded(style: str) -> str:
    """A cell's CSS for a pinned column: its text colour further from its background (darker
    on a light one, lighter on a dark one) so that, drawn at `PINNED_ALPHA` over it, it reads
    about as the other columns' does.

    >>> unfaded("background-color: #ececec; color: #666666")
    'background-color: #ececec; color: #0d0d0d'
    >>> unfaded("background-color: #2a2927; color: #b3afa8")
    'background-color: #2a2927; color: #fffffe'
    """
    found = dict(part.split(": ") for part in style.split("; "))
    if "color" not in found or "background-color" not in found:
        return style
    text, ground = (bytes.fromhex(found[key][1:]) for key in ("color", "background-color"))
    further = bytes(min(255, max(0, round((t - (1 - PINNED_ALPHA) * g) / PINNED_ALPHA)))
                    for t, g in zip(text, ground, strict=True))
    return style.replace(found["color"], "#" + further.hex())


def envelope_line(grid: Grid) -> str:
    """The envelope's known cards, and how many candidates each open category has.

    For example ``"Suspect: Mrs. White · Weapon: 3 left · Room: 5 left"`` (``Place: 5 left`` in
    the forum variant, `solver.editions.forum_dealt`).
    """
    known = grid.envelope()
    shown = {}
    for category in CATEGORIES:
        card = known[category]
        left = len(grid.envelope_candidates(category))
        shown[category.value] = (card if card is not None else
                                 ngettext("{count} left", "{count} left", left).format(count=left))
    if forum_dealt(grid.game):
        return _("Suspect: {suspect} · Weapon: {weapon} · Place: {room}").format(**shown)
    return _("Suspect: {suspect} · Weapon: {weapon} · Room: {room}").format(**shown)


def verdict(grid: Grid, triples_left: int | None = None) -> str:
    """What the player may do now, in words: "Accusation is safe: X, Y, Z", or how many
    envelopes (a suspect, a weapon and a room together) are still possible.

    ``triples_left`` is the exact count of possible envelopes; without it, the product of the
    candidates per category (an upper bound) is shown.
    """
    if grid.accusation_safe:
        cards = grid.envelope()
        return _("Accusation is safe: {suspect}, {weapon}, {room}").format(
            suspect=cards[Category.SUSPECT], weapon=cards[Category.WEAPON],
            room=cards[Category.ROOM])
    if triples_left is not None:
        return ngettext("Not yet: {count} envelope is still possible",
                        "Not yet: {count} envelopes are still possible",
                        triples_left).format(count=triples_left)
    bound = prod(len(grid.envelope_candidates(c)) for c in CATEGORIES)
    return ngettext("Not yet: at most {count} envelope is still possible",
                    "Not yet: at most {count} envelopes are still possible",
                    bound).format(count=bound)


def ended_envelope(grid: Grid) -> str:
    """The envelope of a game that ended with no correct accusation said aloud (every player,
    or every other one, accused wrongly): its cards where the notebook is certain of them, else
    that nobody solved it."""
    if grid.accusation_safe:
        cards = grid.envelope()
        return _("The envelope: {suspect}, {weapon}, {room}.").format(
            suspect=cards[Category.SUSPECT], weapon=cards[Category.WEAPON],
            room=cards[Category.ROOM])
    return _("The envelope was not solved, nor is it certain in this notebook.")


def accusation_said(grid: Grid, cards: tuple[str, str, str],
                    envelopes: Sequence[tuple[str, str, str, float]] | None = None,
                    exact: bool = True, triples_left: int | None = None,
                    weighed: float | None = None) -> tuple[bool, str]:
    """Whether accusing ``cards`` now is safe, and in words: the three are the certain
    envelope; or they cannot be right (another envelope is certain, a card is known elsewhere,
    no deal fits with the three together); else how likely right: as the race line weighs it
    (``weighed``: players seldom bluff, and accuse once they know), else from the odds when
    counted (``envelopes``, as `likeliest` takes them: every envelope still possible, sampled
    odds too, where one the chains never drew has 0; ``exact`` False when sampled), else how
    many envelopes are still possible (`verdict`).

    >>> from solver.logfile import loads
    >>> from solver.odds.setup import grid_of
    >>> grid = grid_of(loads('''{"format": "clue-notebook/1", "cards": {"suspects": ["Plum",
    ...   "Green"], "weapons": ["Rope", "Pipe"], "rooms": ["Hall"]}, "players": [{"name": "Ann",
    ...   "hand_size": 1}, {"name": "Bob", "hand_size": 1}], "me": "Ann", "my_cards": ["Green"],
    ...   "events": []}'''))
    >>> accusation_said(grid, ("Green", "Rope", "Hall"))
    (False, 'Not right: the notebook says Green cannot be in the envelope.')
    >>> accusation_said(grid, ("Plum", "Rope", "Hall"), [("Plum", "Rope", "Hall", 0.5),
    ...                                                  ("Plum", "Pipe", "Hall", 0.5)])
    (False, 'Not safe: right in 50% of the deals that fit the log.')
    >>> accusation_said(grid, ("Plum", "Rope", "Hall"), weighed=0.004)
    (False, 'Not safe: right <1% if players seldom bluff.')
    >>> from solver.i18n import speaking
    >>> with speaking("fi"):  # possible, not drawn in a sample: below one in a hundred
    ...     "<1\xa0%" in accusation_said(grid, ("Plum", "Rope", "Hall"),
    ...                                   [("Plum", "Rope", "Hall", 0.0)], exact=False)[1]
    True
    """
    names = dict(zip(("suspect", "weapon", "room"), cards, strict=True))
    if grid.accusation_safe:
        envelope = grid.envelope()
        known = tuple(str(envelope[category]) for category in CATEGORIES)
        if known == cards:
            return True, _("Safe: every deal that fits the log has {suspect}, {weapon}, {room} "
                           "in the envelope.").format(**names)
        return False, _("Not right: the envelope is certainly {suspect}, {weapon}, "
                        "{room}.").format(**dict(zip(names, known, strict=True)))
    elsewhere = [card for card in cards if grid[card, ENVELOPE] is Knowledge.NO]
    if elsewhere:
        return False, ngettext("Not right: the notebook says {cards} cannot be in the envelope.",
                               "Not right: the notebook says {cards} cannot be in the envelope.",
                               len(elsewhere)).format(cards=list_said(elsewhere))
    listed = [p for *triple, p in envelopes or () if tuple(triple) == cards]
    chance = listed[0] if listed else 0.0
    if envelopes is not None and not (listed and (chance or not exact)):
        return False, _("Not right: no deal that fits the log has {suspect}, {weapon}, {room} "
                        "in the envelope.").format(**names)
    if weighed is not None:  # as the race line says it, the same triple the same figure
        return False, _("Not safe: right {chance} if players seldom bluff.").format(
            chance=percent_said(weighed, undecided=True))
    if envelopes is None:
        return False, verdict(grid, triples_left)
    said = _("Not safe: right in {chance} of the deals that fit the log.").format(
        chance=envelope_chance(chance) if chance else percent_said(chance, undecided=True))
    return False, said if exact else said + " " + _("(Estimated by sampling.)")


WEIGHED = N_("if players seldom bluff")
"""What the race line's chances assume (`likeliest`'s ``weighed``), as its words say it."""
COUNTED = N_("if every deal that fits the log is equally likely")
"""What the Grid's count assumes, said where its chances stand beside the race line's."""


def likeliest(envelopes: Sequence[tuple[str, str, str, float]], shown: int = 3,
              weighed: bool | None = None) -> str:
    """The likeliest envelopes with their chances, in words a new player reads; envelopes whose
    chances are equal are said to be tied (those that only read the same are listed, each with
    its chance). ``envelopes``: (suspect, weapon, room, probability), most likely first. Empty
    when fewer than two are possible. ``weighed`` says what the chances assume: True, deals
    weighed as the race line weighs them (`WEIGHED`; the chances said as the line says them,
    "<1%", not "0.40%" read off a hundred deals drawn); False, every deal alike (`COUNTED`);
    ``None``, nothing.

    >>> likeliest([("Plum", "Rope", "Hall", 0.5), ("Plum", "Rope", "Study", 0.3),
    ...            ("Green", "Rope", "Hall", 0.2)])
    'Likeliest: Plum, Rope, Hall 50% · Plum, Rope, Study 30% · Green, Rope, Hall 20%'
    >>> likeliest([("Plum", "Rope", "Hall", 0.4), ("Plum", "Rope", "Study", 0.4),
    ...            ("Green", "Rope", "Hall", 0.2)])
    'Likeliest, tied at 40% each: Plum, Rope, Hall · Plum, Rope, Study'
    >>> likeliest([("Plum", "Rope", "Hall", 0.354), ("Plum", "Rope", "Study", 0.346),
    ...            ("Green", "Rope", "Hall", 0.3)])
    'Likeliest: Plum, Rope, Hall 35% · Plum, Rope, Study 35% · Green, Rope, Hall 30%'
    >>> likeliest([("Plum", "Rope", "Hall", 0.25)] * 4)
    'All 4 possible envelopes are equally likely.'
    >>> likeliest([("A", "R", "H", 0.4), ("B", "R", "H", 0.2), ("C", "R", "H", 0.2),
    ...            ("D", "R", "H", 0.2)], shown=2)
    'Likeliest: A, R, H 40% · B, R, H 20% · and 2 more at 20%'
    >>> likeliest([("A", "R", "H", 0.0011), ("B", "R", "H", 0.0011), ("C", "R", "H", 0.0002)])
    'Likeliest, tied at 0.11% each: A, R, H · B, R, H'
    >>> likeliest([("A", "R", "H", 0.57), ("B", "R", "H", 0.43), ("C", "R", "H", 0.004)],
    ...           weighed=True)
    'Likeliest: A, R, H 57% · B, R, H 43% · C, R, H <1% (if players seldom bluff)'
    >>> likeliest([("A", "R", "H", 0.5), ("B", "R", "H", 0.3), ("C", "R", "H", 0.2)],
    ...           weighed=False)[-51:]
    '(if every deal that fits the log is equally likely)'
    """
    if len(envelopes) < 2:
        return ""
    said = partial(percent_said, undecided=True) if weighed else envelope_chance
    chances = [said(p) for *_cards, p in envelopes]
    basis = None if weighed is None else _(WEIGHED if weighed else COUNTED)
    # tied: chances equal (but for float error), not merely read alike: 30.4% and 29.6% both
    # read "30%", and "tied at 30% each" would say they are equal; listed, each reads 30%
    tied = next((i for i, e in enumerate(envelopes)
                 if not isclose(e[3], envelopes[0][3], rel_tol=1e-9)), len(envelopes))
    if tied == len(envelopes) and basis is not None:
        return ngettext("All {count} possible envelope is equally likely ({basis}).",
                        "All {count} possible envelopes are equally likely ({basis}).",
                        tied).format(count=tied, basis=basis)
    if tied == len(envelopes):
        return ngettext("All {count} possible envelope is equally likely.",
                        "All {count} possible envelopes are equally likely.",
                        tied).format(count=tied)
    line = listed(envelopes, chances, tied, shown)
    return line if basis is None else _("{likeliest} ({basis})").format(likeliest=line,
                                                                         basis=basis)


def listed(envelopes: Sequence[tuple[str, str, str, float]], chances: Sequence[str],
           tied: int, shown: int) -> str:
    """`likeliest`'s line where some envelopes are likelier than others: the ``tied`` first
    are equally likely; ``chances``: each as said."""
    names = [_("{suspect}, {weapon}, {room}").format(suspect=s, weapon=w, room=r)
             for s, w, r, _p in envelopes]
    if tied > 1:
        first = " · ".join(names[:min(tied, shown)])
        if tied <= shown:
            return _("Likeliest, tied at {chance} each: {envelopes}").format(
                chance=chances[0], envelopes=first)
        return ngettext("Likeliest, tied at {chance} each: {envelopes} and {count} more",
                        "Likeliest, tied at {chance} each: {envelopes} and {count} more",
                        tied - shown).format(chance=chances[0], envelopes=first,
                                             count=tied - shown)
    first = " · ".join(f"{name} {chance}" for name, chance in
                       zip(names[:shown], chances[:shown], strict=True))
    same = sum(1 for c in chances[shown:] if c == chances[shown - 1])
    if not same:
        return _("Likeliest: {envelopes}").format(envelopes=first)
    return ngettext("Likeliest: {envelopes} · and {count} more at {chance}",
                    "Likeliest: {envelopes} · and {count} more at {chance}",
                    same).format(envelopes=first, count=same, chance=chances[shown - 1])


def owner_order(grid: Grid) -> list[str]:
    """The owner columns' labels in the order a table too wide for the phone shows them: the
    envelope first, beside the names (the column a player reads most), then the others in
    seating order, and mine last: I know my own hand, and at eight players it took one of the
    seven columns in sight (it is still there, a swipe away, and taps explain it).

    >>> from solver.editions import Dealing, editions, new_game
    >>> deck = editions()["clue-classic"].deck
    >>> owner_order(Grid(new_game(deck, ("Ann", "Bob", "Cat"), Dealing.CLASSIC, me="Bob"), {}))
    ['Env', 'Ann', 'Cat', 'Bob']
    """
    labels = column_labels(grid)
    first, last = [ENVELOPE], [grid.game.me] if grid.game.me in labels else []
    return [labels[owner] for owner in
            [*first, *(o for o in grid.owners if o not in (*first, *last)), *last]]


def cell_at(grid: Grid, row: int, column: int) -> tuple[str, str] | None:
    """The (card, owner) under a table position, or ``None`` on a category heading."""
    rows = grid_rows(grid)
    if not 0 <= row < len(rows) or not 0 <= column < len(grid.owners):
        return None
    card = rows[row]
    return None if card is None else (card, grid.owners[column])


def as_markdown(text: str) -> str:
    """An explanation's lines for a narrow screen: the first in bold, each on its own line, the
    names in it shown as text (`notebook_app.plain`).

    >>> as_markdown("Rope is Bob's: yes.\\n  1. Bob showed you Rope (event 1).")
    "**Rope is Bob\\\\'s\\\\: yes\\\\.**  \\n1\\\\. Bob showed you Rope \\\\(event 1\\\\)\\\\."
    """
    lines = [plain(line.strip()) for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    return "  \n".join([f"**{lines[0]}**", *lines[1:]])
