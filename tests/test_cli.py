"""The ``clue-notebook`` command line: the contract's JSON, exit codes, messages, tables, ``new``.

Commands run in-process through `solver.cli.main` (fast); one test runs the installed console
script in a real subprocess with a non-UTF-8 locale.
"""
# Cyrillic names are the point of several tests, not look-alike typos:
# ruff: noqa: RUF001

from __future__ import annotations

import io
import json
import os
import re
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from solver.cli import main
from solver.editions import editions
from solver.envelopes import possible_triples
from solver.game import ENVELOPE, SIDE, GameLog
from solver.logfile import load, loads
from solver.notebook import analyze
from solver.report import display_width
from tests.brute import deals
from tests.strategies import small_logs

CARDS = {
    "suspects": ["Regina Päiväperhonen", "Juhani Viherlevä", "Алиса Селезнёва",
                 "Pekka Purppuravalo"],
    "weapons": ["köysi", "pistooli", "Миелофон", "kynttilänjalka"],
    "rooms": ["autotalli", "keittiö", "veranta", "Школа", "東京の台所"],
}


def suggestion(by: str, cards: list[str], passes: list[str], refuted_by: str | None,
               shown: str | None = None) -> dict[str, Any]:
    return {"type": "suggestion", "by": by, "cards": cards, "passes": passes,
            "refuted_by": refuted_by, "shown": shown}


EVENTS = [
    suggestion("Aino", ["Juhani Viherlevä", "pistooli", "keittiö"], [], "Niko", "pistooli"),
    suggestion("Вера", ["Regina Päiväperhonen", "Миелофон", "veranta"], [], "Aino",
               "Regina Päiväperhonen"),
    suggestion("Aino", ["Алиса Селезнёва", "köysi", "autotalli"], ["Niko", "Вера"], None),
]


def game(**changes: Any) -> dict[str, Any]:
    """A 3-player game with Finnish, Russian and Japanese names (13 cards, one face up)."""
    data: dict[str, Any] = {
        "format": "clue-notebook/1",
        "title": "Perjantai",
        "cards": CARDS,
        "players": [{"name": "Aino", "hand_size": 3}, {"name": "Niko", "hand_size": 3},
                    {"name": "Вера", "hand_size": 3}],
        "me": "Aino",
        "my_cards": ["Regina Päiväperhonen", "köysi", "autotalli"],
        "face_up": ["Школа"],
        "events": EVENTS,
    }
    data.update(changes)
    return data


def two_player(**changes: Any) -> dict[str, Any]:
    """A 2-player game with four side cards."""
    data: dict[str, Any] = {
        "format": "clue-notebook/1",
        "cards": {"suspects": ["S1", "S2", "S3"], "weapons": ["W1", "W2", "W3"],
                  "rooms": ["R1", "R2", "R3", "R4"]},
        "players": [{"name": "Aino", "hand_size": 2}, {"name": "Niko", "hand_size": 1}],
        "me": "Aino", "my_cards": ["S1", "W1"], "side_cards": 4,
        "events": [{"type": "suggestion", "by": "Aino", "cards": ["S2", "W2", "R1"],
                    "passes": ["Niko"], "refuted_by": None,
                    "side_peek": {"slot": 1, "card": "R1"}}],
    }
    data.update(changes)
    return data


@pytest.fixture
def write(tmp_path: Path) -> Any:
    """Write a log (a dict, or raw text) to a file; returns its path as text."""
    count = 0

    def write(data: dict[str, Any] | str) -> str:
        nonlocal count
        count += 1
        path = tmp_path / f"log{count}.json"
        text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    status, out, _ = run(capsys, *argv)
    return status, json.loads(out)


# --- analyze --json: the contract ------------------------------------------------------------


def test_json_is_the_contract_object_and_equals_the_engine_grid(write: Any, capsys: Any) -> None:
    path = write(game())
    status, data = run_json(capsys, "analyze", path, "--json")
    assert status == 0
    # the contract's keys in order; later issues may only add their documented extensions
    contract = ["consistent", "owners", "cells", "envelope", "accusation_safe"]
    assert list(data)[: len(contract)] == contract
    assert set(data) - set(contract) <= {"explanations"}
    grid = analyze(load(path)).grid
    assert grid is not None
    assert data["consistent"] is True
    assert data["owners"] == ["Aino", "Niko", "Вера", ENVELOPE]
    assert data["cells"] == {
        card: {owner: grid[card, owner].value for owner in data["owners"]}
        for card in load(path).game.deck
    }
    assert list(data["cells"]) == [c for names in CARDS.values() for c in names]
    # facts a player derives by hand: Niko showed pistooli; nobody answered Алиса with my cards
    assert data["cells"]["pistooli"]["Niko"] == "yes"
    assert data["envelope"]["suspect"] == "Алиса Селезнёва"
    assert set(data["envelope"]) == {"suspect", "weapon", "room"}
    assert data["accusation_safe"] is all(data["envelope"].values())
    assert "maybe" in {v for row in data["cells"].values() for v in row.values()}


def test_face_up_cards_are_no_everywhere(write: Any, capsys: Any) -> None:
    _, data = run_json(capsys, "analyze", write(game()), "--json")
    assert data["cells"]["Школа"] == dict.fromkeys(data["owners"], "no")


def test_side_column_only_with_side_cards(write: Any, capsys: Any) -> None:
    _, with_side = run_json(capsys, "analyze", write(two_player()), "--json")
    assert with_side["owners"] == ["Aino", "Niko", ENVELOPE, SIDE]
    assert all(set(row) == set(with_side["owners"]) for row in with_side["cells"].values())
    assert with_side["cells"]["R1"][SIDE] == "yes"
    _, without = run_json(capsys, "analyze", write(game()), "--json")
    assert SIDE not in without["owners"]
    assert all(SIDE not in row for row in without["cells"].values())
    _, table, _ = run(capsys, "analyze", write(two_player()), "--width", "120")
    header = table.splitlines()[2]
    assert header.split() == ["Aino", "Niko", ENVELOPE, SIDE]


def test_spectator_log_without_me(write: Any, capsys: Any) -> None:
    spectator = game(events=[EVENTS[0]])
    del spectator["me"], spectator["my_cards"]
    status, data = run_json(capsys, "analyze", write(spectator), "--json")
    assert status == 0
    assert data["cells"]["pistooli"]["Niko"] == "yes"
    assert data["cells"]["köysi"]["Aino"] == "maybe"
    _, table, _ = run(capsys, "analyze", write(spectator))
    assert "spectator" in table.splitlines()[0]


# --- contradictions --------------------------------------------------------------------------

CLASH = [
    *EVENTS,
    # Niko passes on pistooli, which he showed in event 1; event 5 has nothing to do with it
    suggestion("Вера", ["Juhani Viherlevä", "pistooli", "veranta"], ["Aino", "Niko"], None),
    {"type": "reveal", "player": "Вера", "cards": ["veranta"]},
]


def test_contradiction_exits_3_with_the_minimal_conflict(write: Any, capsys: Any) -> None:
    path = write(game(events=CLASH))
    status, data = run_json(capsys, "analyze", path, "--json")
    assert status == 3
    assert data["consistent"] is False
    assert data["conflict"] == [1, 4]
    assert data["cells"] is None and data["envelope"] is None and data["accusation_safe"] is False
    assert data["owners"] == ["Aino", "Niko", "Вера", ENVELOPE]
    log = load(path)
    for dropped in data["conflict"]:  # minimal: without any one of them some deal fits
        rest = tuple(e for i, e in enumerate(log.events, 1) if i != dropped)
        assert analyze(GameLog(log.game, rest)).consistent


def test_contradiction_table_names_the_events_on_stderr(write: Any, capsys: Any) -> None:
    status, out, err = run(capsys, "analyze", write(game(events=CLASH)))
    assert status == 3
    assert "events 1, 4" in err
    first = "event 1: Aino suggested (Juhani Viherlevä, pistooli, keittiö); Niko showed pistooli"
    assert first in err
    assert "event 4: Вера suggested" in err and "Aino, Niko passed" in err
    assert "Traceback" not in out + err


def test_a_clash_of_one_entry_reads_as_one(write: Any, capsys: Any) -> None:
    """One entry against the setup (I pass on my own köysi): analyze's last line said "One of
    these entries is wrong" under its one entry, explain's clash step "these entries cannot all
    be right", and race, advise, accuse and show "conflicting events 4" (found after the app's
    banner was made to read as one). Clashes of several entries read as before."""
    against_my_hand = suggestion("Вера", ["Juhani Viherlevä", "köysi", "veranta"],
                                 ["Aino", "Niko"], None)
    path = write(game(events=[*EVENTS, against_my_hand]))
    status, out, err = run(capsys, "analyze", path)
    assert status == 3 and err.splitlines() == [
        "Contradiction: no deal fits event 4 with the setup:",
        "  event 4: Вера suggested (Juhani Viherlevä, köysi, veranta); Aino, Niko passed; "
        "nobody refuted",
        "This entry is wrong, or the setup is; fix or remove it, or fix the setup."], err
    status, out, err = run(capsys, "explain", path, "köysi", "Niko")
    assert status == 3 and out.startswith(
        "No deal fits the log: event 4 cannot be true with the game's setup. Why:"), out
    assert "this entry cannot be right with the game's setup." in out, out
    assert "these entries" not in out and "any one of them" not in out, out
    for argv in (["race"], ["advise"], ["accuse", "Juhani Viherlevä", "köysi", "veranta"],
                 ["show", "Niko", "Juhani Viherlevä", "köysi", "veranta"]):
        status, out, err = run(capsys, argv[0], path, *argv[1:])
        assert status == 3 and err == (f"clue-notebook {argv[0]}: no deal fits the log: event 4 "
                                       "cannot be true with the game's setup\n"), err
    several = write(game(events=CLASH))
    status, out, err = run(capsys, "analyze", several)
    assert err.endswith("One of these entries is wrong; fix or remove it.\n"), err
    status, out, err = run(capsys, "explain", several, "köysi", "Niko")
    assert "these entries cannot all be right." in out, out
    status, out, err = run(capsys, "race", several)
    assert err == "clue-notebook race: no deal fits the log: conflicting events 1, 4\n", err


def test_upto_before_the_clash_is_consistent(write: Any, capsys: Any) -> None:
    status, data = run_json(capsys, "analyze", write(game(events=CLASH)), "--json", "--upto", "3")
    assert status == 0 and data["consistent"] is True


# --- bad input: exit 2, field and value named, never a traceback -----------------------------

BAD_LOGS: list[tuple[str, Any, list[str]]] = [
    ("unknown card", game(events=[suggestion("Aino", ["Nobody", "köysi", "keittiö"], [], None)]),
     ["events[0].cards[0]", "'Nobody'"]),
    ("unknown player", game(events=[suggestion("Aino", EVENTS[0]["cards"], ["Olli"], None)]),
     ["events[0].passes[0]", "'Olli'"]),
    ("shown not suggested",
     game(events=[suggestion("Aino", EVENTS[0]["cards"], [], "Niko", "köysi")]),
     ["events[0].shown", "'köysi'"]),
    ("wrong sizes", game(players=[{"name": "Aino", "hand_size": 3},
                                  {"name": "Niko", "hand_size": 3},
                                  {"name": "Вера", "hand_size": 4}]),
     ["players", "3 + 3 + 4"]),
    ("negative hand", game(players=[{"name": "Aino", "hand_size": -1}]),
     ["players[0].hand_size", "-1"]),
    ("unknown edition", {"format": "clue-notebook/1", "edition": "cluedo-mars",
                         "players": [{"name": "A", "hand_size": 9}, {"name": "B", "hand_size": 9}]},
     ["edition", "'cluedo-mars'"]),
    ("wrong format", game(format="clue-notebook/9"), ["format", "'clue-notebook/9'"]),
    ("my card unknown", game(my_cards=["Regina"]), ["my_cards[0]", "'Regina'"]),
    ("bad JSON", '{"format": "clue-notebook/1",', ["JSON", "line 1"]),
    ("not an object", "[1, 2]", ["top level", "a list"]),
]


@pytest.mark.parametrize(("data", "words"), [(d, w) for _, d, w in BAD_LOGS],
                         ids=[name for name, _, _ in BAD_LOGS])
def test_invalid_log_exits_2_naming_field_and_value(
    write: Any, capsys: Any, data: Any, words: list[str]
) -> None:
    for extra in ([], ["--json"]):
        status, out, err = run(capsys, "analyze", write(data), *extra)
        assert status == 2
        assert out == ""
        assert all(word in err for word in words), err
        assert "Traceback" not in err


def test_missing_file_and_undecodable_file(tmp_path: Path, capsys: Any) -> None:
    missing = str(tmp_path / "nowhere.json")
    status, _, err = run(capsys, "analyze", missing)
    assert status == 2 and "LOG" in err and repr(missing) in err
    latin = tmp_path / "latin1.json"
    latin.write_bytes('{"title": "Päivä"}'.encode("latin-1"))
    status, _, err = run(capsys, "analyze", str(latin))
    assert status == 2 and "not UTF-8" in err and "latin1.json" in err
    status, _, err = run(capsys, "analyze", str(tmp_path))
    assert status == 2 and str(tmp_path) in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["analyze", "LOG", "--upto", "x"], ["--upto", "'x'"]),
        (["analyze", "LOG", "--upto", "-2"], ["--upto", "'-2'"]),
        (["analyze", "LOG", "--upto", "4"], ["--upto", "4", "3 events"]),
        (["analyze", "LOG", "--bogus"], ["--bogus"]),
        (["analyze"], ["LOG"]),
        (["shuffle"], ["'shuffle'"]),
        ([], ["COMMAND"]),
        (["explain", "LOG", "", "Aino"], ["''"]),  # an empty name was an IndexError traceback
        (["explain", "LOG", "köysi", "  "], ["'  '"]),
        (["accuse", "LOG", "", "köysi", "autotalli"], ["''"]),
        (["advise", "LOG", "--room", ""], ["''"]),
        (["advise", "LOG", "--top", "0"], ["--top", "≥ 1", "'0'"]),  # was a heading, no list
    ],
)
def test_bad_command_line_exits_2(
    write: Any, capsys: Any, argv: list[str], words: list[str]
) -> None:
    path = write(game())
    status, _, err = run(capsys, *(path if a == "LOG" else a for a in argv))
    assert status == 2
    assert all(word in err for word in words), err
    assert "Traceback" not in err


def test_help_exits_0(capsys: Any) -> None:
    status, out, _ = run(capsys, "--help")
    assert status == 0 and "analyze" in out and "editions" in out and "new" in out


def test_accuse_help_says_how_to_name_the_three_cards(capsys: Any) -> None:
    """`accuse`'s help said nothing under SUSPECT, WEAPON and ROOM (`explain` says what CARD
    and OWNER are): whether "Jaska Keltanokka" had to be typed whole, with its case, was found
    only by trying (a command-line check of a Finnish game's saved log); a word in any case
    does."""
    for language, words in (("en", "a word of the name will do"), ("fi", "nimen yksi sana")):
        status, out, _ = run(capsys, "--lang", language, "accuse", "--help")
        assert status == 0
        helps: dict[str, str] = {}
        name = None
        for line in out.splitlines():  # "  ROOM   help", then its wrapped lines, indented
            entry = re.match(r"  ([A-Z]+) +(.*)", line)
            if entry:
                name, helps[entry[1]] = entry[1], entry[2]
            elif name is not None and line.startswith("    "):
                helps[name] += " " + line.strip()
            else:
                name = None
        for name in ("SUSPECT", "WEAPON", "ROOM"):
            assert words in helps.get(name, ""), out


# --- the table -------------------------------------------------------------------------------


def test_table_rows_align_by_display_width(write: Any, capsys: Any) -> None:
    status, out, _ = run(capsys, "analyze", write(game()), "--width", "120")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "Perjantai · Aino's notebook · after all 3 events"
    assert lines[2].split() == ["Aino", "Niko", "Вера", ENVELOPE]
    cards = [c for names in CARDS.values() for c in names]
    rows = [line.removesuffix("   face up") for line in lines
            if any(line.startswith(f"  {card} ") for card in cards)]
    assert len(rows) == 13
    # every row ends in the same column: 東京の台所 takes 10 columns, not 5
    assert len({display_width(row) for row in rows}) == 1
    assert next(line for line in lines if "Школа" in line).endswith("face up")
    assert "✓ holds it" in out and "? not known yet" in out
    assert "Envelope: suspect Алиса Селезнёва" in out


def test_table_counts_the_possible_triples(write: Any, capsys: Any) -> None:
    path = write(game())
    _, out, _ = run(capsys, "analyze", path)
    count = len({tuple(c for c, o in deal.items() if o == ENVELOPE) for deal in deals(load(path))})
    assert count > 1
    assert f"Not yet: {count} triples possible" in out
    assert "Still possible in the envelope:" in out


def test_table_says_when_an_accusation_is_safe(write: Any, capsys: Any) -> None:
    # then only Миелофон and keittiö can be in the envelope
    solved = game(events=[*EVENTS,
                          suggestion("Aino", ["Pekka Purppuravalo", "kynttilänjalka", "veranta"],
                                     ["Niko"], "Вера", "veranta"),
                          {"type": "reveal", "player": "Вера", "cards": ["kynttilänjalka"]},
                          {"type": "reveal", "player": "Niko", "cards": ["東京の台所"]}])
    path = write(solved)
    status, data = run_json(capsys, "analyze", path, "--json")
    assert status == 0 and data["accusation_safe"] is True
    _, out, _ = run(capsys, "analyze", path)
    triple = ", ".join(data["envelope"][c] for c in ("suspect", "weapon", "room"))
    assert triple == "Алиса Селезнёва, Миелофон, keittiö"
    assert f"Accusation is safe: {triple}" in out
    assert "Not yet" not in out


def test_narrow_terminal_shortens_owner_headers(write: Any, capsys: Any) -> None:
    long_names = game(players=[{"name": "Aino Päiväperhonen-Virtanen", "hand_size": 3},
                               {"name": "Niko", "hand_size": 3},
                               {"name": "Вера Александровна Селезнёва", "hand_size": 3}],
                      me="Aino Päiväperhonen-Virtanen", events=[])
    _, out, _ = run(capsys, "analyze", write(long_names), "--width", "60")
    lines = out.splitlines()
    table = lines[2:lines.index(next(line for line in lines if line.startswith("Columns:")))]
    assert len(table) == 1 + 3 + 13
    assert max(display_width(line) for line in table) <= 60
    assert "Niko" in lines[2] and "…" in lines[2]
    assert "Columns: Aino Päiväperhonen-Virtanen, Niko, Вера Александровна Селезнёва" in out


def test_upto_shows_the_notebook_as_it_stood(write: Any, capsys: Any) -> None:
    path = write(game())
    _, data = run_json(capsys, "analyze", path, "--json", "--upto", "1")
    grid = analyze(load(path).upto(1)).grid
    assert grid is not None
    assert data["cells"] == {
        card: {owner: k.value for owner, k in row.items()} for card, row in grid.cells.items()
    }
    assert data["envelope"]["suspect"] is None  # Алиса is pinned only by event 3
    _, out, _ = run(capsys, "analyze", path, "--upto", "0")
    assert "after event 0 of 3" in out.splitlines()[0]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_logs(noise=True))
def test_possible_triples_match_every_deal(log: Any) -> None:
    expected = {
        tuple(sorted((c for c, o in deal.items() if o == ENVELOPE), key=list(log.game.deck).index))
        for deal in deals(log)
    }
    assert set(possible_triples(log)) == expected


# --- output encoding -------------------------------------------------------------------------


def test_non_utf8_stdout_does_not_crash(write: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    buffer = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(buffer, encoding="ascii"))
    assert main(["analyze", write(game()), "--json"]) == 0
    sys.stdout.flush()
    assert json.loads(buffer.getvalue().decode("utf-8"))["envelope"]["suspect"] == "Алиса Селезнёва"


def test_console_script_in_a_real_process(write: Any) -> None:
    script = Path(sys.executable).parent / "clue-notebook"
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "ascii"}
    done = subprocess.run([str(script), "analyze", write(game())], capture_output=True,
                          env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode("utf-8")
    assert "Алиса Селезнёва" in text and "東京の台所" in text and "Вера" in text
    bad = subprocess.run([str(script), "analyze", write(game(events=CLASH)), "--json"],
                         capture_output=True, env=env, timeout=60, check=False)
    assert bad.returncode == 3 and json.loads(bad.stdout)["conflict"] == [1, 4]
    assert b"Traceback" not in bad.stderr


def test_python_dash_m_solver(write: Any, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    monkeypatch.setattr(sys, "argv", ["python -m solver", "editions"])
    with pytest.raises(SystemExit) as exit_:
        runpy.run_module("solver", run_name="__main__")
    assert exit_.value.code == 0
    assert "clue-classic" in capsys.readouterr().out


# --- editions --------------------------------------------------------------------------------


def test_editions_lists_every_preset(capsys: Any) -> None:
    status, out, _ = run(capsys, "editions")
    assert status == 0
    for preset in editions().values():
        line = next(line for line in out.splitlines() if line.startswith(preset.name + " "))
        assert preset.title in line and preset.dealing.value in line
    assert "clue-classic" in out and "6 + 6 + 9 = 21" in out
    assert "forum" in out.splitlines()[-1]
    status, data = run_json(capsys, "editions", "--json")
    assert status == 0
    assert [e["name"] for e in data] == list(editions())
    classic = next(e for e in data if e["name"] == "clue-classic")
    assert classic["counts"] == {"suspects": 6, "weapons": 6, "rooms": 9}
    assert classic["dealing"] == "classic" and "Rope" in classic["cards"]["weapons"]


# --- new -------------------------------------------------------------------------------------


def new(capsys: Any, *argv: str) -> tuple[int, str, str]:
    return run(capsys, "new", *argv)


def test_new_refresh_game_round_trips_and_analyses(tmp_path: Path, capsys: Any) -> None:
    target = tmp_path / "peli.json"
    status, _, err = new(
        capsys, "--edition", "cluedo-refresh-2012-fi", "--players", "Aino, Niko, Veera, Oona",
        "--me", "Aino", "--my-cards", "Regina Päiväperhonen,köysi,tikari,veranta",
        "--face-up", "putki,keittiö", "--title", "Perjantai", "-o", str(target),
    )
    assert status == 0, err
    log = load(target)
    assert log.game.edition == "cluedo-refresh-2012-fi" and log.game.title == "Perjantai"
    assert [p.hand_size for p in log.game.players] == [4, 4, 4, 4]
    assert log.game.face_up == ("putki", "keittiö") and log.events == ()
    status, data = run_json(capsys, "analyze", str(target), "--json")
    assert status == 0 and data["cells"]["köysi"]["Aino"] == "yes"
    assert data["cells"]["putki"] == dict.fromkeys(data["owners"], "no")
    status, _, err = new(capsys, "--edition", "clue-classic", "--players", "A,B", "-o", str(target))
    assert status == 2 and "--output" in err and "--force" in err and str(target) in err
    assert load(target) == log  # untouched
    status, _, _ = new(capsys, "--edition", "clue-classic", "--players", "A,B", "-o", str(target),
                       "--force")
    assert status == 0 and load(target).game.edition == "clue-classic"


def test_new_writes_stdout_by_default_with_classic_hands(
    capsys: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = new(capsys, "--edition", "clue-classic", "--players", "A,B,C,D")
    assert status == 0
    log = loads(out)
    assert [p.hand_size for p in log.game.players] == [5, 5, 4, 4]
    assert log.game.me is None
    # `new ... | clue-notebook analyze -`
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(out.encode("utf-8"))))
    status, data = run_json(capsys, "analyze", "-", "--json")
    assert status == 0 and data["owners"] == ["A", "B", "C", "D", ENVELOPE]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xff{")))
    status, _, err = run(capsys, "analyze", "-")
    assert status == 2 and "standard input is not UTF-8" in err


def test_new_two_player_refresh_has_side_cards(capsys: Any) -> None:
    _, out, _ = new(capsys, "--edition", "cluedo-refresh-2012-fi", "--players", "Aino,Niko")
    log = loads(out)
    assert log.game.side_cards == 4 and [p.hand_size for p in log.game.players] == [7, 7]


def test_new_forum_decks(capsys: Any) -> None:
    _, out, _ = new(capsys, "--edition", "forum", "--players", "Ася,Боря,Вика,Гоша")
    log = loads(out)
    assert (len(log.game.deck.suspects), len(log.game.deck.weapons), len(log.game.deck.rooms)) \
        == (4, 4, 7)
    assert [p.hand_size for p in log.game.players] == [3, 3, 3, 3]
    _, out, _ = new(capsys, "--forum", "2", "--players", "A,B",
                    "--suspects", "Алиса,Коля", "--weapons", "Флип,Миелофон")
    deck = loads(out).game.deck
    assert deck.suspects == ("Алиса", "Коля") and deck.rooms[0] == "Place 1"


def test_new_custom_deck_and_hand_sizes(capsys: Any) -> None:
    status, out, err = new(capsys, "--suspects", "Plum,Green", "--weapons", "Rope,Knife",
                           "--rooms", "Hall,Study,Lounge", "--players", "Ann,Bob",
                           "--hand-sizes", "3,1", "--me", "Ann", "--my-cards", "Plum,Rope")
    assert status == 0, err
    log = loads(out)
    assert [p.hand_size for p in log.game.players] == [3, 1]
    assert log.game.deck.rooms == ("Hall", "Study", "Lounge") and log.game.edition is None


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--edition", "cluedo-mars", "--players", "A,B"], ["--edition", "'cluedo-mars'"]),
        (["--players", "A,B"], ["--edition", "missing"]),
        (["--suspects", "a", "--weapons", "b", "--players", "A,B"], ["--rooms", "missing"]),
        (["--edition", "clue-classic", "--rooms", "x", "--players", "A,B"],
         ["--rooms", "--edition"]),
        (["--edition", "cluedo-refresh-2012-fi", "--players", "A,B,C,D"],
         ["--face-up", "2 cards", "got 0"]),
        (["--edition", "clue-classic", "--players", "A,B", "--me", "Z"], ["me", "'Z'"]),
        (["--edition", "clue-classic", "--players", "A,B", "--me", "A", "--my-cards", "Rope,Sword"],
         ["my_cards[1]", "'Sword'"]),
        (["--edition", "clue-classic", "--players", "A,,B"], ["--players", "'A,,B'"]),
        (["--edition", "clue-classic", "--players", "A,B", "--hand-sizes", "9"],
         ["--hand-sizes", "'9'"]),
        (["--edition", "clue-classic", "--players", "A,B", "--hand-sizes", "9,x"],
         ["--hand-sizes", "'9,x'"]),
        (["--edition", "clue-classic", "--players", "A,B", "--hand-sizes", "9,8"],
         ["players", "9 + 8"]),
        (["--edition", "clue-classic", "--players", "A"], ["players", "got 1"]),
        (["--edition", "clue-classic", "--players", "A,B", "--dealing", "poker"],
         ["--dealing", "'poker'"]),
        (["--forum", "3", "--edition", "clue-classic", "--players", "A,B"],
         ["--forum", "clue-classic"]),
        (["--edition", "clue-classic"], ["--players"]),
        # the deck of 99,999,999,999 players' cards was named card by card: no answer in minutes
        (["--forum", "99999999999", "--players", "A,B"],
         ["players: 99,999,999,999 players; a game may have at most 16"]),
    ],
)
def test_new_bad_input_exits_2(capsys: Any, argv: list[str], words: list[str]) -> None:
    status, out, err = new(capsys, *argv)
    assert status == 2
    assert out == ""
    assert all(word in err for word in words), err
    assert "Traceback" not in err


FORUM = Path(__file__).parent.parent / "examples" / "forum-gostya-iz-budushchego.json"


def test_the_forum_variant_says_place(write: Any, capsys: Any) -> None:
    """The forum variant has no board: its third kind of card is places
    (`solver.editions.forum_dealt`), and ``analyze`` said "Rooms", "rooms: ..." and "Envelope:
    ... room ..."; a log event's cards were expected as "[suspect, weapon, room]", and two
    places in one were "(room)" where "one room" was needed. A classic game keeps rooms."""
    status, out, _ = run(capsys, "analyze", str(FORUM), "--upto", "10")
    assert status == 0 and "room" not in out.lower(), out
    assert "\nPlaces\n" in out and "\n  places: " in out
    assert "Envelope: suspect ?, weapon ?, place ?" in out
    status, out, _ = run(capsys, "analyze", str(FORUM))
    assert status == 0 and "room" not in out.lower() and ", place Большой театр\n" in out
    _, out, _ = run(capsys, "analyze", write(game()))
    assert "\nRooms\n" in out and "\n  rooms: " in out and ", room ?\n" in out
    forum = json.loads(FORUM.read_text(encoding="utf-8"))
    asked = forum["events"][0]
    for cards, said in ((["Крыс", "Школа"], "expected [suspect, weapon, place], got "),
                        (["Крыс", "Школа", "Космопорт"], "needs one suspect, one weapon and one "
                         "place, got 'Крыс' (suspect), 'Школа' (place), 'Космопорт' (place)")):
        status, _, err = run(capsys, "analyze", write({**forum, "events": [{**asked,
                                                                           "cards": cards}]}))
        assert status == 2 and f"(events[0].cards): {said}" in err and "room" not in err, err
    for cards, said in ((["veranta", "Школа"], "expected [suspect, weapon, room], got "),
                        (["Алиса Селезнёва", "veranta", "Школа"], "needs one suspect, one weapon "
                         "and one room, got 'Алиса Селезнёва' (suspect), 'veranta' (room), "
                         "'Школа' (room)")):
        status, _, err = run(capsys, "analyze", write(game(events=[{**EVENTS[0],
                                                                    "cards": cards}])))
        assert status == 2 and f"(events[0].cards): {said}" in err, err


def test_my_question_the_host_answered_without_the_card_is_a_warning(write: Any,
                                                                      capsys: Any) -> None:
    """A log where I asked and the host answered for Niko by the order (`shown_by_rule`) but no
    card is noted was read without a word (a play-through): I was shown that card, and without
    it the rule tells nothing. The format lets ``shown`` be left out, so the log still reads and
    the command still answers; stderr names the event and the field and asks for the card."""
    asked = suggestion("Aino", ["Juhani Viherlevä", "pistooli", "keittiö"], [], "Niko")
    path = write(game(events=[asked | {"shown_by_rule": "first-in-order"}]))
    status, data = run_json(capsys, "analyze", path, "--json")
    assert status == 0 and data["consistent"]
    status, _out, err = run(capsys, "analyze", path, "--json")
    assert err == ("warning: event 1 (events[0].shown): Niko showed you a card by the host's "
                   "rule (shown_by_rule), but which is not noted: add it; without it the rule "
                   "tells nothing\n"), err
    shown = write(game(events=[asked | {"shown_by_rule": "first-in-order", "shown": "pistooli"}]))
    assert run(capsys, "analyze", shown, "--json")[2] == ""
    theirs = write(game(events=[suggestion("Niko", ["Juhani Viherlevä", "pistooli", "keittiö"],
                                           [], "Вера") | {"shown_by_rule": "first-in-order"}]))
    assert run(capsys, "analyze", theirs, "--json")[2] == ""  # I saw nothing: nothing to ask
    # Read up to before it, the log lacks nothing yet: no warning about an event not read.
    assert run(capsys, "analyze", path, "--upto", "0", "--json")[2] == ""
    assert run(capsys, "analyze", path, "--upto", "1", "--json")[2] == err
