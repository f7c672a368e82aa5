"""The app against a hostile game: names that are markdown, errors that must not leak details.

Every name, title and file name the user supplies is shown as text on every screen (the browser
test in ``test_browser_hostile.py`` checks that no request leaves for an injected image); an
error while drawing a page is a message, the traceback goes to the server's log only.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from notebook_app.plain import plain
from notebook_app.store import DB_ENV, Store
from solver.cards import Deck
from solver.editions import Dealing, new_game
from solver.game import Accusation, GameLog, Reveal, Suggestion
from tests.test_app_screens import dialog_markdown

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "notebook_app" / "app.py")
IMAGE = "![](http://127.0.0.1:9/x.png)"
HOSTILE = (f"{IMAGE}Ann", "**Bob**", ":red[Cat]", "<img src=x>Dan")
DECK = Deck((f"{IMAGE}Plum", "$x$ Green", "Mustard"),
            ("[Rope](http://127.0.0.1:9/)", "Knife", "Wrench"),
            ("Hall", ":material/home: Study", "Kitchen", "Lounge"))
PLAIN_ELEMENTS = {"selectbox", "multiselect", "dataframe", "arrow_vega_lite_chart",
                  "download_button", "html", "text", "code", "bidi_component"}
"""Elements that never read markdown: user text goes into them as it is (into the HTML of
``html`` and of the grid's table for screen readers, ``bidi_component``, escaped: checked by
`test_the_grid_read_aloud_holds_hostile_names_as_text`)."""


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Store:
    path = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(path))
    return Store(path)


def hostile_log() -> GameLog:
    ann, bob, cat, dan = HOSTILE
    plum, green, _ = DECK.suspects
    rope, knife, _ = DECK.weapons
    hall, study, kitchen, _ = DECK.rooms
    game = new_game(DECK, HOSTILE, Dealing.CLASSIC, me=ann, my_cards=(plum, rope),
                    title=f"{IMAGE} Friday **game**")
    return GameLog(game, (
        Suggestion(bob, (plum, knife, study), refuted_by=cat),
        Reveal(dan, (kitchen,)),
        Suggestion(ann, (green, knife, hall), passes=(bob,), refuted_by=cat, shown=knife),
        Accusation(cat, (green, rope, hall), correct=False),
        Suggestion(dan, (green, rope, study), refuted_by=ann, shown=rope),
    ))


def rendered(at: AppTest) -> list[tuple[str, str]]:
    """(element type, its protobuf as text) for every element that renders markdown."""
    found: list[tuple[str, str]] = []

    def walk(node: Any) -> None:
        kind = str(getattr(node, "type", ""))
        if kind in PLAIN_ELEMENTS:
            return
        proto = getattr(node, "proto", None)
        if proto is not None and kind != "block":  # widget ids (never shown) left out, and
            # a text box's placeholder, an HTML attribute that never reads markdown
            found.append((kind, re.sub(r'(?m)^\s*(id|placeholder): ".*"$', "", str(proto))))
        elif proto is not None:
            found.append((kind, str(getattr(proto, "expandable", ""))))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return found


def assert_no_markup(at: AppTest, where: str) -> None:
    assert not at.exception, at.exception
    for kind, text in rendered(at):
        for markup in ("](http", "**Bob**", ":red[Cat", "<img", ":material/home:", "$x$"):
            unescaped = re.search("(?<!\\\\)" + re.escape(markup), text)
            assert unescaped is None, (where, kind, markup, text[:400])


def test_every_screen_shows_hostile_names_as_text(store: Store) -> None:
    log = hostile_log()
    game_id = store.create(log, "shelf")
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["shelf"] = "shelf"
    at.run()
    assert_no_markup(at, "home with the saved game")
    # the saved game's button: the title's start (a long title is cut before whose it is)
    assert any(label.startswith("**" + plain(IMAGE)[:14]) for label in (b.label for b in at.button))
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["shelf"] = "shelf"
    at.session_state["game_id"] = game_id
    at.run()
    assert_no_markup(at, "the open game")
    assert at.session_state["live"].log == log
    for view in ("Turn", "Grid", "Log", "Review", "Game"):
        at.segmented_control(key="view").set_value(view).run()
        assert_no_markup(at, view)
    at.segmented_control(key="view").set_value("Grid").run()
    at.session_state["explain_cell"] = (DECK.weapons[1], HOSTILE[2], None)  # a tapped cell
    at.run()
    assert_no_markup(at, "an explanation")
    assert any("Cat" in text for text in dialog_markdown(at))
    at.segmented_control(key="view").set_value("Turn").run()
    at.segmented_control(key="kind").set_value("Note").run()
    assert_no_markup(at, "the note form")
    at.segmented_control(key="kind").set_value("Suggestion").run()
    at.session_state["pending_show"] = (0, log.events[0])
    at.run()
    assert_no_markup(at, "the question which card was shown")


def test_whom_to_ask_next_is_shown_as_text(store: Store) -> None:
    """With "Suggest for me" on, a forum game's race line names the player it asks
    (`solver.advice.Advisor.whom`, `solver.race.Outlook.to`): a name that is markdown shows as
    text there too."""
    from notebook_app.screens.turn import ADVICE_SAMPLES
    from solver.advice import Advisor
    from solver.editions import forum_deck
    from solver.odds import warm

    warm.start()  # the advice waits for the compiled odds
    warm.wait()

    deck = forum_deck(4)
    game = new_game(deck, HOSTILE, Dealing.FORUM, me=HOSTILE[0],
                    my_cards=(deck.suspects[0], deck.weapons[0], deck.rooms[0]))
    log = GameLog(game, (Suggestion(HOSTILE[1], (deck.suspects[1], deck.weapons[1],
                                                 deck.rooms[1]), refuted_by=HOSTILE[2]),))
    whom = Advisor(log, samples=ADVICE_SAMPLES).whom()
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["shelf"] = "shelf"
    at.session_state["game_id"] = store.create(log, "shelf")
    at.session_state["advise_on"] = True
    at.run()
    at.pills(key="by").set_value(HOSTILE[0]).run()
    assert at.session_state["race_job"][1].done(30)
    at.run()
    assert_no_markup(at, "the forum game's race line")
    said = f"before you ask {plain(whom.player)} next"
    assert any(said in c.value for c in at.caption), [c.value for c in at.caption]


def test_hostile_names_in_a_new_game_form(store: Store) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="new_edition").set_value("custom").run()
    at.text_area(key="new_suspects").set_value("\n".join(DECK.suspects))
    at.text_area(key="new_weapons").set_value("\n".join(DECK.weapons))
    at.text_area(key="new_rooms").set_value("\n".join(DECK.rooms))
    at.text_area(key="new_players").set_value("\n".join(HOSTILE)).run()
    assert_no_markup(at, "new game form")


def start_refused(typed: str, box: str = "new_players",
                  custom: bool = False) -> str:
    """Type ``typed`` into the new-game form's ``box`` (a custom deck's, with ``custom``) and
    tap Start: no game starts, what was typed is kept, and the one error said is returned."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    if custom:
        at.selectbox(key="new_edition").set_value("custom").run()
        at.text_area(key="new_suspects").set_value("Plum\nGreen")
        at.text_area(key="new_weapons").set_value("Rope\nKnife")
        at.text_area(key="new_rooms").set_value("Hall\nStudy")
        at.text_area(key="new_players").set_value("Ann\nBob\nCat")
    at.text_area(key=box).set_value(typed).run()
    at.button(key="start_game").click().run()
    assert not at.exception
    assert "live" not in at.session_state
    assert at.text_area(key=box).value == typed
    [refused] = [e.value for e in at.error]
    return str(refused)


def test_a_name_that_turns_text_around_is_refused_and_kept(store: Store) -> None:
    """A right-to-left override (U+202E) in a player's name showed the title, the Log's lines and
    the saved game's button backwards ("筒封 · ésoJ · live"): the form says which name holds
    it, starts no game and keeps what was typed."""
    refused = start_refused("Ann\n\u202eevil\nCat")
    assert plain("Players in seating order (clockwise): '\\u202eevil' holds") in refused
    assert "reverses the direction" in refused, refused


@pytest.mark.parametrize(("box", "typed", "said"), [
    ("new_players", "Ann\n" + "A" * 200 + "\nCat", "Players in seating order (clockwise): 'AAA"),
    ("new_rooms", "Hall\n" + "R" * 90, "Rooms: 'RRR"),
])
def test_a_name_too_long_is_named_by_its_box(store: Store, box: str, typed: str,
                                             said: str) -> None:
    """The form names the box a refused name was typed in, not the log's field: "players[1].name:
    'AAA…' (200 characters) is 200 characters long" (in Japanese too) named nothing on the
    screen."""
    refused = start_refused(typed, box, custom=True)
    assert plain(said) in refused and "characters long" in refused, refused
    assert "players[" not in refused and "cards." not in refused, refused


@pytest.mark.parametrize(("box", "label", "most"), [
    ("new_players", "Players in seating order (clockwise)", 1312),
    ("new_weapons", "Weapons", 4920),
    ("new_title", "Title (optional)", 2000),
])
def test_a_text_longer_than_its_box_takes_is_refused_and_kept(store: Store, box: str,
                                                               label: str, most: int) -> None:
    """No box has Streamlit's ``max_chars`` (the browser dropped a longer paste whole, saying
    nothing): a text longer than its box takes is kept and refused by the box's name, with its
    length and the limit, under the box (the title's above Start, which says it once tapped);
    nothing is read from a too long list of players or cards."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="new_edition").set_value("custom").run()
    for key, cards in (("new_suspects", "Plum\nGreen"), ("new_weapons", "Rope\nKnife"),
                       ("new_rooms", "Hall\nStudy"), ("new_players", "Ann\nBob\nCat")):
        at.text_area(key=key).set_value(cards)
    at.run()
    typed = "Ann\nBob\n" + "x" * (most - 7)
    (at.text_input(key=box) if box == "new_title" else at.text_area(key=box)).set_value(
        typed).run()
    said = (f"“{label}” has {most + 1:,} characters, more than the {most:,} it takes: shorten "
            "it to go on.")
    assert not at.exception
    assert [e.value for e in at.error] == [plain(said)]
    assert bool(at.number_input) == (box == "new_title")  # the hand sizes, read from the lists
    if box == "new_title":
        at.button(key="start_game").click().run()
        assert [e.value for e in at.error] == [plain(said)]
        assert "live" not in at.session_state
    assert (at.text_input(key=box) if box == "new_title" else at.text_area(key=box)
            ).value == typed


@pytest.mark.parametrize("twin", ["Jose\u0301", "Jos\u00e9\u200b", "Jos\u00e9\u202f",
                                  "\u2009Jos\u00e9"])
def test_two_players_who_look_alike_are_refused(store: Store, twin: str) -> None:
    """"José" typed with a combining accent, or with a zero-width space copied along, drew two
    players no chip, column or Log line told apart: the form takes them for one name listed
    twice, and keeps what was typed."""
    refused = start_refused(f"Jos\u00e9\n{twin}\nCat")
    assert plain("player 'Jos\u00e9' is listed more than once") in refused, refused


def test_a_player_named_as_a_chip_of_the_app_is_told_apart(store: Store) -> None:
    """Players named "Nobody" and "Envelope": the chip for no one showing a card and the one for
    the envelope in a note's "Whose" are set off by dashes, so no two chips of a row read the
    same (there were two "Nobody" chips, one a player)."""
    from solver.editions import editions

    names = ("Ann", "nobody", "Envelope", "Dan")
    game = new_game(editions()["clue-classic"].deck, names, Dealing.CLASSIC)
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["shelf"] = "shelf"
    at.session_state["game_id"] = store.create(GameLog(game), "shelf")
    at.run()

    def labels(key: str) -> list[str]:
        [row] = [g for g in at.button_group if g.key == key]
        return [o.content for o in row.proto.options]

    shown = labels("e_refuter")
    assert "— Nobody —" in shown and len(set(shown)) == len(shown), shown
    at.segmented_control(key="kind").set_value("Note").run()
    shown = labels("n_owner")
    assert "— Envelope —" in shown and len(set(shown)) == len(shown), shown


def test_a_failing_page_shows_a_message_and_logs_the_details(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import notebook_app.screens.home as home

    def broken() -> None:
        raise RuntimeError("/srv/secret/path.py exploded")

    monkeypatch.setattr(home, "home_screen", broken)
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception
    assert [e.value for e in at.error] and "Reload the page" in at.error[0].value
    assert all("/srv/secret" not in text for _, text in rendered(at))
    assert "/srv/secret/path.py exploded" in caplog.text


def test_the_server_shows_no_error_details() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["client"]["showErrorDetails"] == "none"
    assert config["server"]["maxUploadSize"] == 1  # MB: larger uploads never reach the app


def test_a_new_game_too_large_stops_before_any_widget_or_solver(store: Store) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="new_edition").set_value("custom").run()
    for key, letter in (("new_suspects", "S"), ("new_weapons", "W"), ("new_rooms", "R")):
        at.text_area(key=key).set_value("\n".join(f"{letter}{i}" for i in range(700)))
    at.text_area(key="new_players").set_value("\n".join(f"P{i}" for i in range(40))).run()
    assert not at.exception
    assert "40 players (at most 16) and 2100 cards (at most 60)" in at.error[0].value
    assert not at.number_input
    assert [g.key for g in at.button_group] == ["lang_pick"]  # only the language switch
    assert "live" not in at.session_state


def test_the_grid_read_aloud_holds_hostile_names_as_text() -> None:
    """The Grid's table for screen readers is HTML made from the names (`bidi_component`, left
    out of the checks above): every name is text in it and in its buttons' attributes, never
    markup (an ``<img>`` in a player's name is no image, a quote ends no attribute), and each
    button names its cell."""
    from html.parser import HTMLParser

    from notebook_app.reader import grid_table_html
    from solver.notebook import Notebook

    players = ('Bo"b', "<img src=x onerror=alert(1)>Dan", "Ann & Cid")
    deck = Deck(("<b>Plum</b>", "Green", "Mustard"), ('Rope" onclick="x', "Knife", "Wrench"),
                ("Hall", "<script>alert(1)</script>", "Kitchen"))
    game = new_game(deck, players, Dealing.CLASSIC, me=players[0],
                    my_cards=("<b>Plum</b>", 'Rope" onclick="x'))
    with Notebook(game) as notebook:
        notebook.record(Suggestion(players[1], ("Green", "Knife", "Hall"), refuted_by=players[2]))
        grid = notebook.grid()
    tags: set[str] = set()
    cells: list[tuple[str | None, ...]] = []
    words: list[str] = []

    class Table(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            tags.add(tag)
            if tag == "button":
                cells.append(tuple(value for name, value in attrs if name.startswith("data-")))

        def handle_data(self, data: str) -> None:
            words.append(data)

    table = Table()
    table.feed(grid_table_html(grid))
    table.close()
    assert tags == {"table", "caption", "tr", "th", "td", "button"}, tags
    assert cells == [(card, owner) for card in deck.cards for owner in grid.owners]
    for name in (*players, *deck.cards):
        assert name in words, name  # a header, as given


@pytest.mark.parametrize(("name", "said"), [
    ("\u202enosj.json", "'\\u202enosj.json'"),
    ("evil\n.json", "'evil\\n.json'"),
    ("n" * 5_000 + ".json",
     "'" + "n" * 27 + "…" + "n" * 23 + ".json' (5005 characters)"),
])
def test_an_uploaded_files_name_is_said_as_text(store: Store, name: str, said: str) -> None:
    """A file's name is the browser's to send: one holding a right-to-left override turned the
    rest of "… is not a valid log. Please fix: …" backwards, and one of 5,000 characters was
    said whole, on screen and in the game's history. Such a name is said quoted, its
    escapes shown and cut, as the command line says a path."""
    from notebook_app.history import told

    at = AppTest.from_file(APP, default_timeout=60).run()
    at.file_uploader(key="upload").upload(name, b"{", "application/json").run()
    at.button(key="open_upload").click().run()
    assert not at.exception
    [refused] = [e.value for e in at.error if "is not a valid log" in e.value]
    assert refused.startswith(plain(f"{said} is not a valid log.")), refused[:200]
    assert "\u202e" not in refused and len(refused) < 400
    good = (ROOT / "examples" / "rules-example-1.json").read_bytes()
    at.file_uploader(key="upload").upload(name, good, "application/json").run()
    at.button(key="open_upload").click().run()
    assert not at.exception and "live" in at.session_state
    assert told(at.session_state["revision"][1]).render("en") == f"imported {said}"


@pytest.mark.parametrize(("remark", "said"), [
    ("\u202eevil", "'\\u202eevil' holds '\\u202e', a character that reverses the direction of "
                   "the text after it"),
    ("a\x00b", "'a\\x00b' holds the control character '\\x00'"),
])
def test_a_remark_the_log_refuses_is_named_by_its_box(store: Store, remark: str,
                                                      said: str) -> None:
    """A note's remark with a control character was refused as "event 1 (events[0].text): …",
    a field the Note form does not show; it is named by its box, and kept in it."""
    from tests.test_app_screens import classic, note_entry, open_app

    at = note_entry(open_app(store, classic()), "Bob", "holds", "Knife", text=remark)
    assert not at.session_state["live"].log.events
    assert at.text_input(key="n_text").value == remark
    assert [e.value for e in at.error] == [plain(f"Remark (optional): {said}")]
