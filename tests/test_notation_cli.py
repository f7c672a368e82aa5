"""The command line reads either format by content, converts between them, reports notation
errors with exit 2, and loads only what a command uses."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from solver.cli import main
from solver.logfile import load, loads
from solver.notation import read_text, write_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CLASSIC = EXAMPLES / "classic-six-players.json"


@pytest.fixture
def classic_text(tmp_path: Path) -> Path:
    path = tmp_path / "game.clue"
    path.write_text(write_text(load(CLASSIC)), encoding="utf-8")
    return path


def test_analyze_reads_notation_like_json(classic_text: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", str(CLASSIC), "--json"]) == 0
    from_json = capsys.readouterr().out
    assert main(["analyze", str(classic_text), "--json"]) == 0
    assert capsys.readouterr().out == from_json
    assert main(["explain", str(classic_text), "Lounge", "Chloe"]) == 0
    assert "You hold Lounge: yes." in capsys.readouterr().out


def test_convert_both_ways(classic_text: Path, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", str(CLASSIC)]) == 0
    text = capsys.readouterr().out
    assert text == classic_text.read_text(encoding="utf-8")
    assert main(["convert", str(classic_text)]) == 0
    assert loads(capsys.readouterr().out) == load(CLASSIC)
    out = tmp_path / "copy.json"
    assert main(["convert", str(classic_text), "-o", str(out)]) == 0
    assert "wrote" in capsys.readouterr().err and load(out) == load(CLASSIC)
    assert main(["convert", str(classic_text), "-o", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["convert", str(CLASSIC), "--to", "json"]) == 0
    assert loads(capsys.readouterr().out) == load(CLASSIC)
    clue = tmp_path / "again.clue"
    assert main(["convert", str(out), "-o", str(clue)]) == 0
    assert read_text(clue.read_text(encoding="utf-8")) == load(CLASSIC)


def test_a_syntax_error_exits_2_with_line_column_and_suggestion(tmp_path: Path) -> None:
    path = tmp_path / "bad.clue"
    path.write_text("edition: clue-classic\nplayers: Ann 9, Bob 9\n\n"
                    "Ann: Plumb Rope Hall / Bob -\nBob: Green Rope\n", encoding="utf-8")
    for command in (["analyze", str(path)], ["convert", str(path)]):
        done = subprocess.run([sys.executable, "-m", "solver", *command], capture_output=True,
                              text=True, encoding="utf-8", env={**os.environ}, check=False)
        assert done.returncode == 2
        assert done.stdout == ""
        assert done.stderr.splitlines() == [
            f"clue-notebook {command[0]}: line 4, column 6: expected a card, got 'Plumb': "
            "did you mean Professor Plum?",
            f"clue-notebook {command[0]}: line 5, column 6: expected three cards (suspect, "
            "weapon, room), got 'Green Rope'",
        ]


def test_standard_input_in_either_format(classic_text: Path,
                                         monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    class Stdin:
        def __init__(self, data: bytes) -> None:
            self.buffer = io.BytesIO(data)

    monkeypatch.setattr(sys, "stdin", Stdin(classic_text.read_bytes()))
    assert main(["convert", "-"]) == 0
    assert loads(capsys.readouterr().out) == load(CLASSIC)
    monkeypatch.setattr(sys, "stdin", Stdin(CLASSIC.read_bytes()))
    assert main(["analyze", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["consistent"] is True


HEAVY = ("numpy", "numba", "solver.odds", "solver.explain", "solver.advice")
STARTUP = ("dataclasses", "inspect", "shutil", "fractions")
"""Standard modules analyze does without (benchmarks/README.md, bench_cli.py: 42 M instructions
for dataclasses with inspect, shutil imported by argparse's formatter, fractions 4 M)."""


@pytest.mark.parametrize(("command", "unused"), [
    (["analyze"], (*HEAVY, *STARTUP, "solver.notation")),
    (["analyze", "--json"], (*HEAVY, *STARTUP, "solver.notation")),
    (["convert"], HEAVY),
])
def test_commands_load_only_what_they_use(command: list[str], unused: tuple[str, ...]) -> None:
    """Start-up is most of a command's time: analyze needs neither numpy nor the odds and
    explanation code, nor the notation's reader for a JSON log."""
    code = (
        "import sys, contextlib, io\n"
        "from solver.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    status = main([{command[0]!r}, {str(CLASSIC)!r}, *{command[1:]!r}])\n"
        f"heavy = sorted(m for m in {unused!r} if m in sys.modules)\n"
        "print(status, heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "0 []"


def test_the_parser_declares_only_the_command_named(capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    """Declaring one subcommand's arguments instead of all nine is a fifth of analyze's
    start-up; help and usage errors still list every command."""
    from solver.cli import COMMANDS, build_parser

    def commands(argv: list[str]) -> list[str]:
        subparsers = build_parser(argv)._subparsers
        assert subparsers is not None
        return [name for action in subparsers._group_actions
                for name in getattr(action, "choices", {})]

    every = [c.name for c in COMMANDS]
    assert commands(["analyze", "x.clue"]) == ["analyze"]
    assert commands([]) == commands(["--help"]) == commands(["analyz"]) == every
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in every), out
    assert main(["analyz", str(CLASSIC)]) == 2
    assert "invalid choice: 'analyz' (choose from 'analyze'," in capsys.readouterr().err
    assert main(["analyze", "--width", "x", str(CLASSIC)]) == 2
    assert "--width: expected a whole number" in capsys.readouterr().err


def test_new_writes_notation_by_suffix_or_option(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    start = ["new", "--edition", "clue-classic", "--players", "Ann,Bob,Cid", "--me", "Ann",
             "--my-cards", "Professor Plum,Knife,Hall,Rope,Study,Lounge"]
    clue = tmp_path / "game.clue"
    assert main([*start, "-o", str(clue)]) == 0
    text = clue.read_text(encoding="utf-8")
    assert text == ("edition: clue-classic\nplayers: Ann 6, Bob 6, Cid 6\nme: Ann\n"
                    "my cards: Plum Knife Hall Rope Study Lounge\n")
    assert main([*start, "--to", "text"]) == 0
    assert capsys.readouterr().out == text
    assert main(start) == 0
    assert loads(capsys.readouterr().out) == read_text(text)
