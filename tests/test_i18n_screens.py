"""Nothing left in English: a whole example game of the Finnish Refresh box read through every
screen of the app and every command of ``clue-notebook`` in Finnish, Russian and Japanese,
and the text searched for English words. Its card and player names are Finnish, so any English
word in the output is a message that does not come from the catalogs (a regression guard for
issue 11: new text must be marked for translation and translated)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from notebook_app.store import Store
from notebook_app.turns import describe
from solver.cli import main
from solver.i18n import _, speaking
from solver.logfile import load
from tests import test_app
from tests.test_app import APP, shown

store = test_app.store
"""A fresh database for each test, where the app finds it (the one `test_app` uses)."""

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "refresh-four-players.json"
FORUM = EXAMPLE.with_name("forum-gostya-iz-budushchego.json")
"""A forum game: the line of waiting names whom my next question goes to."""
LANGUAGES = ("fi", "ru", "ja")
ENGLISH = re.compile(
    r"\b(the|an|you|your|and|or|of|is|are|was|not|with|from|this|that|yet|no|none|card|cards|"
    r"player|players|event|events|envelope|envelopes|suggestion|suggest|accusation|accuse|"
    r"shown|showed|holds|undo|game|link|links|possible|safe|right|wait|likely|already|know|"
    r"object|list|text|line|column|expected|got)\b"
)
"""English words no Finnish, Russian or Japanese message has (case matters: ``LOG``, ``CARD``
are the command line's placeholders, the same in every language)."""
LITERAL = re.compile(
    r"'[^'\n]*'|\"[^\"\n]*\"|\{[^{}\n]*\}|(?<!\w)--?[\w-]+|\S+\.(md|json|clue)\b"
    r"|clue-notebook(/1| \w+)|https?://\S+|\?game=\S+|^ {4}\w+ {2,}"
    r"|(?<![\w-])(suspect|weapon|room|cards|players|me|asker|to|title|format|edition|events)"
    r"(\[\d+\])?(\.\w+)*:|\w+\[\d+\](\.\w+)*|\b[a-z0-9]+(-[a-z0-9]+){2,}\b", re.MULTILINE)
"""What is quoted as typed (a JSON key, a field, an option, a command, a file or example
name), never translated."""


def leftovers(text: str) -> list[str]:
    """The lines of ``text`` that hold English words outside what they quote as typed.

    >>> leftovers("Kirjaa tapahtuma 3: 'side' {json,text} --samples\\nthe end of the line")
    ['the end of the line']
    """
    return [line for line in text.splitlines() if ENGLISH.search(LITERAL.sub(" ", line))]


# --- the app ---------------------------------------------------------------------------------


def everything(at: AppTest) -> str:
    """Every text the page shows: messages, labels, chips, buttons and their help."""
    parts: list[object] = []
    for kind in ("markdown", "caption", "error", "info", "success", "warning", "code"):
        parts += [e.value for e in getattr(at, kind)]
    for widget in (*at.button, *at.toggle, *at.checkbox, *at.slider, *at.text_area):
        parts += [widget.label, getattr(widget, "help", None) or ""]
    for group in (*at.button_group, *at.selectbox, *at.segmented_control, *at.pills):
        parts += [group.label, *group.options]
    return "\n".join(shown(p) for p in parts if p)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_home_screen_and_its_errors_speak_the_language(store: Store, language: str) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["lang"] = language
    with speaking(language):  # AppTest formats the choices of a selectbox in this thread
        seen = home_screens(at)
    text = "\n".join(seen)
    assert not leftovers(text), f"{language}: English on screen:\n" + "\n".join(leftovers(text))


@pytest.mark.parametrize("language", ("en", *LANGUAGES))
def test_the_examples_are_listed_by_their_titles_in_the_language(store: Store, language: str
                                                                 ) -> None:
    """The home screen listed the examples by file name ("classic-four-players-notes") in
    every language (a Finnish and a Japanese play-through at 390 px): each is listed by its
    title, in the reader's language, and opens as before."""
    from notebook_app.newgame import examples

    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["lang"] = language
    with speaking(language):  # AppTest formats the choices of a selectbox in this thread
        at.run()
        listed = at.selectbox(key="example").options
        with speaking("en"):
            english = AppTest.from_file(APP, default_timeout=60).run().selectbox(
                key="example").options
    names = list(examples())
    assert len(listed) == len(names) and not set(listed) & set(names), listed
    assert "Rules example 1: Niko cannot answer, Veera shows Aino the rope" in english
    if language != "en":
        assert not set(listed) & set(english), listed
    with speaking(language):
        at.selectbox(key="example").set_value("rules-example-1").run()
        at.button(key="open_example").click().run()
    assert not at.exception and at.session_state["live"].log.game.players[0].name == "Aino"


def home_screens(at: AppTest) -> list[str]:
    """The home screen: as it opens, with too many players, with pasted games it refuses."""
    at.run()
    seen = [everything(at)]
    at.text_area(key="new_players").set_value("\n".join(f"P{i}" for i in range(17))).run()
    seen.append(everything(at))  # a game too large for the server
    at.text_area(key="new_players").set_value("Aino\nNiko\nVeera").run()
    seen.append(everything(at))
    edition = "edition: cluedo-refresh-2012-fi\nplayers: Aino 6, Niko 6, Veera 6\n"
    for pasted in (edition + "Aino: Punakulta köysi garage / Niko -",  # a misspelt card
                   edition + "Aino: Punakulta köysi veranta / Aino +"):  # a rule broken
        at.text_area(key="paste_game").set_value(pasted).run()
        at.button(key="paste_game_open").click().run()
        assert not at.exception, at.exception
        found = everything(at)
        assert re.search(r"\| +\^ ", found) or "| Aino:" in found  # the line, shown
        seen.append(found)
    return seen


def tab(at: AppTest, view: str) -> None:
    """Tap a tab (its chip reads in the page's language)."""
    tabs = at.segmented_control(key="view")
    tabs.set_value(tabs.options[("Turn", "Grid", "Log", "Review", "Game").index(view)]).run()
    assert not at.exception, at.exception


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_of_an_example_game_speaks_the_language(store: Store, language: str
                                                             ) -> None:
    log = load(EXAMPLE)
    whole = log.upto(12)  # mid-game: the race line and odds are on screen
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["lang"] = language
    at.session_state["shelf"] = "test-shelf"
    game_id = at.session_state["game_id"] = store.create(whole, "test-shelf")
    store.save(game_id, log.upto(13), "recorded event 13")  # stored as before: in English
    at.run()
    assert not at.exception, at.exception
    with speaking(language):
        assert shown(at.button(key="undo").label) == _("Undo #{n}: {entry}").format(
            n=13, entry=describe(log.events[12]))
    seen = [everything(at)]
    tab(at, "Log")
    at.button(key="edit_12").click().run()  # open an entry for editing
    seen.append(everything(at))
    at.button(key="cancel_edit").click().run()
    at.button(key="undo").click().run()  # a revision note, said in the language
    seen.append(everything(at))
    for view in ("Grid", "Log", "Review", "Game"):
        tab(at, view)
        assert not at.exception, at.exception
        seen.append(everything(at))
    tab(at, "Review")
    at.slider(key="review_step").set_value(5).run()
    seen.append(everything(at))
    tab(at, "Turn")
    kinds = at.segmented_control(key="kind")  # the accusation undone is back in the form:
    kinds.set_value(kinds.options[0]).run()  # a suggestion (its chip reads in the language)
    at.pills(key="by").set_value(log.game.me).run()
    at.toggle(key="advise_me").set_value(True).run()  # "Suggest for me" and why
    seen.append(everything(at))
    for asker in ("Oona", "Aino"):  # has seen none of Veera's cards / has seen two of them
        at.pills(key="by").set_value(asker).run()
        for key, card in (("e_suspect", "Jaska Keltanokka"), ("e_weapon", "tikari"),
                          ("e_room", "pelihuone"), ("e_refuter", "Veera")):
            at.pills(key=key).set_value(card).run()
        assert not at.exception, at.exception
        seen.append(everything(at))  # which card to show, and why
    at.button(key="submit").click().run()  # saved: the status line, the question which card
    assert not at.exception, at.exception
    seen.append(everything(at))
    text = "\n".join(seen)
    assert not leftovers(text), f"{language}: English on screen:\n" + "\n".join(leftovers(text))


@pytest.mark.parametrize("language", LANGUAGES)
def test_chances_are_written_as_the_language_writes_them(store: Store, language: str) -> None:
    """The app wrote "38.5%" in every language, where the command line writes "38,5 %" in
    Finnish and Russian (`solver.i18n.local_figures`): the race line, "Suggest for me" and the
    Grid's likeliest envelopes now do too; Japanese keeps "38%". The race line worked out in
    English is read in the language switched to, its chances with it. A grid cell keeps "37%"
    (`notebook_app.grid_view.percent`)."""
    log = load(EXAMPLE)
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["lang"] = "en"
    at.session_state["shelf"] = "test-shelf"
    at.session_state["game_id"] = store.create(log.upto(12), "test-shelf")
    at.run()
    assert re.search(r"\d%", everything(at)), everything(at)  # the race line, in English
    at.segmented_control(key="lang_pick").set_value(language).run()
    at.pills(key="by").set_value(log.game.me).run()
    at.toggle(key="advise_me").set_value(True).run()  # "Suggest for me": how likely answers are
    seen = [everything(at)]
    tab(at, "Grid")
    seen.append(everything(at))
    text = "\n".join(seen)
    spaced = language in ("fi", "ru")
    figures = re.findall(r"\d[.,]?\d*\xa0?%", text)
    assert len(figures) >= 3, text
    assert all(("\xa0" in figure) == spaced and ("." not in figure or not spaced)
               for figure in figures), (language, figures)
    assert all("\xa0" not in cell for column in at.dataframe[0].value.columns
               for cell in at.dataframe[0].value[column] if "%" in cell)


# --- the command line -------------------------------------------------------------------------

COMMANDS = [
    ["--help"],
    ["analyze", "--help"],
    ["new", "--help"],
    ["advise", "--help"],
    ["analyze", str(EXAMPLE)],
    ["analyze", str(EXAMPLE), "--upto", "6", "--odds"],
    ["explain", str(EXAMPLE), "köysi", "envelope"],
    ["accuse", str(EXAMPLE), "Aino Valkopesu", "köysi", "veranta", "--upto", "12"],
    ["advise", str(EXAMPLE), "--upto", "12", "--top", "3", "--samples", "200"],
    ["race", str(EXAMPLE), "--upto", "12", "--samples", "50"],
    ["analyze", str(EXAMPLE), "--upto", "99"],
    ["accuse", str(EXAMPLE), "Aino", "köysi", "veranta"],
    ["accuse", str(FORUM), "Крыс", "Миелофон", "Московское море", "--upto", "40"],
    ["new", "--players", "A,B,C", "--edition", "nope"],
    ["new", "--players", "A,B,C"],
    ["analyze"],
    ["analyze", str(EXAMPLE), "--width", "x"],
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_command_speaks_the_language(capsys: pytest.CaptureFixture[str],
                                           language: str) -> None:
    problems = []
    for command in COMMANDS:
        main([*command, "--lang", language])
        out = capsys.readouterr()
        lines = leftovers(out.out + out.err)
        if lines:
            problems.append(f"{' '.join(command)}:\n  " + "\n  ".join(lines))
    assert not problems, f"{language}: English in the output:\n" + "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_log_with_mistakes_is_explained_in_the_language(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str],
                                                          language: str) -> None:
    notation = tmp_path / "game.clue"
    notation.write_text("edition: cluedo-refresh-2012-fi\nplayers: Aino 5, Niko 5, Veera 6\n"
                        "Aino: Punakulta köysi garage / Niko -\nNiko accuses x y z\n",
                        encoding="utf-8")
    broken = tmp_path / "game.json"
    broken.write_text('{"format": "clue-notebook/1", "edition": "cluedo-refresh-2012-fi", '
                      '"players": [{"name": "Aino", "hand_size": "5"}], "events": '
                      '[{"type": "suggestion", "by": "Niko", "cards": ["a"]}, {"type": "x"}]}',
                      encoding="utf-8")
    shapeless = tmp_path / "shapeless.json"
    shapeless.write_text('{"format": "clue-notebook/1", "edition": "cluedo-refresh-2012-fi", '
                         '"players": {}, "events": "none", "title": []}', encoding="utf-8")
    for path in (notation, broken, shapeless):
        assert main(["analyze", str(path), "--lang", language]) == 2
        err = capsys.readouterr().err
        assert err and not leftovers(err), f"{language}:\n{err}"


def shape(value: object) -> object:
    """A JSON value with its text left out: the keys, the numbers, the nesting."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(item) for item in value]
    return "text" if isinstance(value, str) else value


JSON_COMMANDS = [
    ["analyze", str(EXAMPLE), "--upto", "8", "--json", "--explain", "--odds"],
    ["accuse", str(EXAMPLE), "Aino Valkopesu", "köysi", "veranta", "--upto", "12", "--json"],
    ["accuse", str(FORUM), "Крыс", "Миелофон", "Московское море", "--upto", "40", "--json"],
    ["advise", str(EXAMPLE), "--upto", "12", "--top", "3", "--samples", "200", "--json"],
    ["race", str(EXAMPLE), "--upto", "12", "--samples", "50", "--json"],
    ["show", str(EXAMPLE), "Oona", "Jaska Keltanokka", "tikari", "pelihuone", "--upto", "12",
     "--json"],
]


@pytest.mark.parametrize("command", JSON_COMMANDS, ids=lambda c: c[0])
def test_json_output_keeps_its_keys_and_figures_in_every_language(
        capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    """The contract (``docs/log-format.md``): keys are never translated; only text values are."""
    shapes = {}
    for language in ("en", *LANGUAGES):
        assert main([*command, "--lang", language]) == 0
        shapes[language] = shape(json.loads(capsys.readouterr().out))
    assert all(found == shapes["en"] for found in shapes.values())
