"""The grid table's owner labels, and its widths on a 390 px phone."""

from __future__ import annotations

from pathlib import Path

import pytest

from notebook_app.colours import DARK, LIGHT, Palette
from notebook_app.grid_view import (
    CELL_PADDING,
    CELL_WIDTH,
    LABEL_ROOM,
    NAMES_SLACK,
    OWNERS_IN_SIGHT,
    PHONE_TABLE,
    PINNED_ALPHA,
    card_column_width,
    card_labels,
    cell_at,
    column_labels,
    grid_styles,
    grid_table,
    owner_order,
    owner_widths,
    text_width,
    unfaded,
)
from solver.cards import Deck
from solver.editions import Dealing, editions, forum_deck, new_game
from solver.game import ENVELOPE, Game, Player
from solver.i18n import speaking
from solver.logfile import load
from solver.notebook import Grid, Knowledge, Notebook

ROOT = Path(__file__).resolve().parent.parent

FILM = {  # the 12-player forum game of tests/test_browser_table.py (FORUM_12), its longest names
    "suspects": ("Алиса Селезнёва", "Коля Герасимов", "Профессор Селезнёв", "Полина"),
    "weapons": ("Дверь машины времени", "Бутылка из-под кефира", "Космический шлем",
                "Космическая рация", "Таблетки невидимости"),
    "places": ("Квартира Коли Герасимова", "Кафе-мороженое", "Машина времени", "Школа"),
}


def film_grid(players: int) -> Grid:
    """A forum game of ``players`` on the film's names (the others numbered), at its start."""
    sizes = {"suspects": players, "weapons": players, "places": players + 3}
    lists = {kind: (*FILM[kind], *(f"{kind} {i}" for i in range(1, size + 1)))[:size]
             for kind, size in sizes.items()}
    deck = forum_deck(players, lists["suspects"], lists["weapons"], lists["places"])
    names = tuple(f"Игрок {i}" for i in range(1, players + 1))
    with Notebook(new_game(deck, names, Dealing.FORUM)) as notebook:
        return notebook.grid()


@pytest.mark.parametrize(
    ("names", "side"),
    [(("Enver", "Bob"), 0), (("Env", "Envy", "Bob"), 0), (("Sideshow Bob", "Side"), 2)],
)
def test_bug_player_named_like_envelope_or_side_column(names: tuple[str, ...], side: int) -> None:
    """A player called "Enver" got the label "Env", the envelope's: the styled table had two
    columns of one name and pandas refused to draw it (and a tap picked the wrong column)."""
    deck = Deck(("S1", "S2", "S3"), ("W1", "W2"), ("R1", "R2", "R3"))
    dealt = len(deck) - 3 - side
    sizes = [dealt // len(names) + (i < dealt % len(names)) for i in range(len(names))]
    game = Game(deck, tuple(Player(n, s) for n, s in zip(names, sizes, strict=True)),
                side_cards=side)
    with Notebook(game) as notebook:
        grid = notebook.grid()
    labels = column_labels(grid)
    assert len(set(labels.values())) == len(labels) == len(game.owners)
    table = grid_table(grid)
    styles = grid_styles(grid)
    styles.index, styles.columns = table.index, table.columns  # as the app draws it
    table.style.apply(lambda _: styles, axis=None).to_html()


def test_a_big_decks_envelopes_under_1_percent_are_not_called_equally_likely() -> None:
    """A 45-card log at 30 events has 1,960 envelopes, each under 1% but far from alike (0.012%
    to 0.11%): rounded to whole percents they read the same and the Grid said "All 1960
    possible envelopes are equally likely"."""
    from notebook_app.grid_view import likeliest

    envelopes = [("S2", "W1", "R2", 0.0011), ("S3", "W1", "R2", 0.0011),
                 ("S4", "W1", "R2", 0.00104), *[("S5", "W2", f"R{i}", 0.00012) for i in range(50)]]
    said = likeliest(envelopes)
    assert "equally" not in said
    assert said == "Likeliest, tied at 0.11% each: S2, W1, R2 · S3, W1, R2"
    weighed = likeliest(envelopes, weighed=True)  # as the race line weighs them (d0825d6)
    assert weighed == ("Likeliest, tied at <1% each: S2, W1, R2 · S3, W1, R2 (if players "
                       "seldom bluff)"), weighed


def test_a_12_player_grid_leaves_six_players_and_the_envelope_in_sight() -> None:
    """At a 12-player forum table the card column took 197 of the phone's 366 px for its
    longest name ("Квартира Коли Герасимова"), leaving four owner columns of 13 in sight. Now
    it leaves seven (the envelope and six players; the rest a swipe away), its longer names
    shortened to fit, each label its own, and a tapped row still names its card in full."""
    grid = film_grid(12)
    names = card_column_width(grid)
    assert names + OWNERS_IN_SIGHT * CELL_WIDTH <= PHONE_TABLE
    labels = card_labels(grid)
    shown = [labels[card] for card in grid.game.deck]
    assert len(set(shown)) == len(shown)
    assert all(text_width(label) <= names - CELL_PADDING - NAMES_SLACK for label in shown)
    assert labels["Школа"] == "Школа" and labels["Космический шлем"] == "Космич. шлем"
    assert labels["Квартира Коли Герасимова"].endswith("…")
    table = grid_table(grid)
    assert list(table.index).count(labels["Квартира Коли Герасимова"]) == 1
    row = list(table.index).index(labels["Квартира Коли Герасимова"])
    assert cell_at(grid, row, 0) == ("Квартира Коли Герасимова", grid.owners[0])


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_up_to_six_players_every_card_name_whole(players: int) -> None:
    """Six players or fewer: the owners fit beside the names or scroll under them, and no name
    is shortened, in any edition or on the film's long names."""
    seats = tuple(f"P{i}" for i in range(1, players + 1))
    grids = [film_grid(players)] + [
        Grid(new_game(edition.deck, seats, Dealing.CLASSIC), {})
        for edition in editions().values() if len(edition.deck) - 3 >= players]
    for grid in grids:
        assert all(label == card for card, label in card_labels(grid).items())


def test_six_players_and_the_classic_names_fit_a_phone() -> None:
    """The classic box at six players took 372 px (120 for "Colonel Mustard" and seven owners
    of 36), so the sixth player's column was cut by 5 px and the table scrolled for it."""
    log = load(ROOT / "examples" / "classic-six-players.json")
    with Notebook(log.game, log.events) as notebook:
        grid = notebook.grid()
    table = grid_table(grid)
    assert card_column_width(grid) + sum(owner_widths(table).values()) <= PHONE_TABLE


def test_an_owner_column_is_as_wide_as_its_widest_percentage() -> None:
    """">99%" is 32.4 px in the grid's font: after the cell's 8 px of padding a 35 px column
    cut it to ">99"; "13%" (25.5 px) fits."""
    grid = film_grid(4)
    odds = {card: dict.fromkeys(grid.owners, 0.13) for card in grid.game.deck}
    odds[grid.game.deck.suspects[0]][grid.owners[1]] = 0.9996
    widths = owner_widths(grid_table(grid, odds))
    labels = column_labels(grid)
    assert widths[labels[grid.owners[1]]] >= 8 + 33
    assert {widths[labels[o]] for o in grid.owners if o != grid.owners[1]} == {CELL_WIDTH}


def test_the_forum_grid_heads_its_places_as_places() -> None:
    """The forum variant has no board: the heading of its third category said "— rooms —";
    a boxed edition's keeps it."""
    assert list(grid_table(film_grid(6)).index).count("— places —") == 1
    with Notebook(new_game(editions()["clue-classic"].deck, ("A", "B", "C"),
                           Dealing.CLASSIC)) as notebook:
        assert "— rooms —" in list(grid_table(notebook.grid()).index)


RUSSIAN_SIX = ("Шушера", "Юля", "Жанна", "Кефирчик", "Щука", "Мария")


def test_every_player_label_whole_in_its_column() -> None:
    """A column header is cut at its column's edge, 27 px after its padding: "Шуш" (29.3 px
    in Chromium) lost 2 px of its last letter, "Emm" 3.6 px. A player's label is made to fit
    ("Шу", "Em"), so every player's column stays `CELL_WIDTH` wide; the envelope's label, a
    translation, widens its column instead ("Конв", "Kuori")."""
    deck = editions()["cluedo-classic-ru"].deck
    for names in (RUSSIAN_SIX, ("Anna", "Ben", "Chloe", "Dev", "Emma", "Felix")):
        for language in ("en", "fi", "ru", "ja"):
            with speaking(language), Notebook(new_game(deck, names, Dealing.CLASSIC)) as notebook:
                grid = notebook.grid()
                labels = column_labels(grid)
                widths = owner_widths(grid_table(grid))
            players = [labels[name] for name in names]
            assert all(text_width(label) <= LABEL_ROOM for label in players), players
            assert all(widths[label] == CELL_WIDTH for label in players), widths
            envelope = labels[ENVELOPE]
            assert text_width(envelope) <= LABEL_ROOM + widths[envelope] - CELL_WIDTH, (
                language, widths)
    assert [labels[name] for name in names] == ["Ann", "Ben", "Chl", "Dev", "Em", "Fel"]


def test_four_finnish_players_are_named_whole() -> None:
    """The Finnish box's card names take 157 px with their slack (`NAMES_SLACK`); beside them
    four players and the envelope, each counted as wide as ">99%" (42), came to 367 of the
    phone's 366 px, so four players were never named in full in that box, whatever their
    names ("Ain", "Eev", "Nik", "Oon"; a phone play-through). The card names give up their
    slack there, as they do where a table would scroll by a pixel or two (`card_column_width`):
    the names are whole, and a table with ">99%" in every column still fits."""
    from notebook_app.grid_view import card_width_beside

    deck = editions()["cluedo-refresh-2012-fi"].deck
    names = ("Aino", "Eeva", "Niko", "Oona")
    with speaking("fi"), Notebook(new_game(deck, names, Dealing.CLASSIC)) as notebook:
        grid = notebook.grid()
        labels = column_labels(grid)
        odds = {card: dict.fromkeys(grid.owners, 0.9996) for card in deck}
        widths = owner_widths(grid_table(grid, odds))
        beside = card_width_beside(grid, widths)
        widest = max(text_width(card) for card in deck)
    assert [labels[name] for name in names] == list(names)
    assert set(widths.values()) == {42}
    assert beside + sum(widths.values()) == PHONE_TABLE
    assert beside >= widest + CELL_PADDING


def test_my_column_last_where_the_owners_scroll() -> None:
    """At eight players my own column took one of the seven in sight, though I know my hand:
    where the owners scroll sideways, the envelope comes first and mine last."""
    with speaking("ru"):
        grid = film_grid(8)
        game = grid.game
        mine = new_game(game.deck, game.player_names, Dealing.FORUM, me=game.player_names[1])
        with Notebook(mine) as notebook:
            order = owner_order(notebook.grid())
        labels = column_labels(grid)
        spectator = owner_order(grid)
    assert order == [labels[ENVELOPE], *(labels[p] for p in game.player_names if p != "Игрок 2"),
                     labels["Игрок 2"]]
    assert spectator == [labels[ENVELOPE], *(labels[p] for p in game.player_names)]


def test_a_wide_envelope_label_leaves_six_players_in_sight() -> None:
    """At eight players in Russian the envelope's column is wider ("Конв"): the card names give
    way, so that six players beside it still end at a column's edge (the seventh column in
    sight was cut by 6 px)."""
    with speaking("ru"):
        grid = film_grid(8)
        widths = owner_widths(grid_table(grid))
        names = card_column_width(grid)
        envelope = widths[column_labels(grid)[ENVELOPE]]
    assert envelope > CELL_WIDTH
    assert names + envelope + (OWNERS_IN_SIGHT - 1) * CELL_WIDTH == PHONE_TABLE


def test_envelopes_that_only_read_alike_are_not_called_tied() -> None:
    """Two envelopes at 30.4% and 29.6% both read "30%", and the Grid's Likeliest line said
    "Likeliest, tied at 30% each" (a play-through): a tie the chances do not have. Only equal
    chances are tied; others are listed, each with its chance as shown."""
    from notebook_app.grid_view import likeliest

    close = [("S1", "W1", "R1", 0.304), ("S2", "W1", "R1", 0.296), ("S3", "W1", "R1", 0.2),
             ("S3", "W2", "R1", 0.2)]
    assert likeliest(close) == ("Likeliest: S1, W1, R1 30% · S2, W1, R1 30% · S3, W1, R1 20% "
                                "· and 1 more at 20%")
    weighed = likeliest(close, weighed=True)
    assert "tied" not in weighed and weighed.startswith("Likeliest: S1, W1, R1 30%"), weighed
    assert likeliest([("S1", "W1", "R1", 0.25)] * 4 + [("S2", "W1", "R1", 0.004)]) == (
        "Likeliest, tied at 25% each: S1, W1, R1 · S1, W1, R1 · S1, W1, R1 and 1 more")
    assert "equally" not in likeliest([("S1", "W1", "R1", 0.502), ("S2", "W1", "R1", 0.498)])


def contrast(style: str) -> float:
    """The WCAG contrast ratio of a cell's text colour on its background (CSS as in a
    `notebook_app.colours.Palette`)."""
    found = dict(part.split(": ") for part in style.split("; "))

    def luminance(colour: str) -> float:
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
                  for c in (byte / 255 for byte in bytes.fromhex(colour[1:]))]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(found["color"]), luminance(found["background-color"])),
                         reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("style", [*LIGHT.styles(), *DARK.styles()])
def test_every_cell_reads_at_the_contrast_small_text_needs(style: str) -> None:
    """WCAG's 4.5:1 for small text, in every kind of cell, in both colour schemes: the ✗ of a
    card a player does not hold was #8a8a8a on #ececec, 2.92:1, hard to tell from an empty cell
    in sunlight (a11y audit on a 390 px phone). It stays lighter than a ✓ (bold, 7.5:1)."""
    assert contrast(style) >= 4.5, style


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_a_pinned_column_reads_at_the_contrast_small_text_needs(palette: Palette) -> None:
    """The envelope's column, pinned beside the names at seven players or more, has its text
    drawn at `PINNED_ALPHA` over its ground (`unfaded` makes up for it): 4.5:1 as drawn, on the
    dark page's cells too, where the text is made lighter, not darker. So does the card names'
    column, pinned always."""
    for style in [*palette.styles(), palette.card]:
        found = dict(part.split(": ") for part in unfaded(style).split("; "))
        text, ground = (bytes.fromhex(found[key][1:]) for key in ("color", "background-color"))
        drawn = bytes(round(PINNED_ALPHA * t + (1 - PINNED_ALPHA) * g)
                      for t, g in zip(text, ground, strict=True))
        assert contrast(f"background-color: #{ground.hex()}; color: #{drawn.hex()}") >= 4.5, style


def test_the_dark_cells_are_dark_and_keep_their_kinds_apart() -> None:
    """On the dark page no cell glares (each ground within 2.5:1 of the page), and the
    kinds of cell stay apart as in light: every ground differs, a ✗ is nearest the page."""
    grounds = [dict(part.split(": ") for part in style.split("; "))["background-color"]
               for style in DARK.styles()]
    assert len(set(grounds)) == len(grounds)
    page = "background-color: #171614; color: {}"
    assert all(contrast(page.format(ground)) < 2.5 for ground in grounds), grounds
    no = grounds[list(DARK.cells).index(Knowledge.NO)]
    assert contrast(page.format(no)) == min(contrast(page.format(g)) for g in grounds)
