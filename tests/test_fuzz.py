"""Hostile input: mutated example logs never crash a command or the app's upload.

Hypothesis mutates the logs in ``examples/`` (wrong types, missing and extra fields, unknown
and swapped names, sizes, unicode, nesting, broken bytes) and runs every command that reads a
log (``analyze``, ``explain``, ``accuse``, ``advise``, ``show``, ``race``, ``convert``) and the
function the app reads an upload with. Each must end in a result or a clear refusal: exit 0,
2 (bad input, a message naming the field) or 3 (a contradictory log), `InvalidLogError` from the
upload, never another exception. The default run is quick; ``--runslow`` runs the long one.

The named cases of issue 10 (deep nesting, a 5,000-digit number, an object as event type, a
surrogate or NUL in a name, non-UTF-8 bytes, a 50 MB file, a 2,000-card deck) are tested one by
one below, with the message they must give.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notebook_app.store import parse_upload
from solver import cli, limits
from solver.cards import CATEGORIES
from solver.cli import PROG
from solver.errors import InvalidLogError
from solver.game import ENVELOPE, GameLog
from solver.notation import read_log_any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = {path.name: json.loads(path.read_text(encoding="utf-8"))
            for path in sorted((ROOT / "examples").glob("*.json"))}
SMALL = sorted(name for name, log in EXAMPLES.items() if len(log.get("events", [])) <= 35)
"""The quick run mutates the shorter logs (every command on a 70-event log takes seconds)."""
NOTATION = {path.name: path.read_text(encoding="utf-8")
            for path in sorted((ROOT / "examples").glob("*.clue"))}
SMALL_NOTATION = sorted(name for name in NOTATION if name.replace(".clue", ".json") in SMALL)

JSON = Any


def _text() -> st.SearchStrategy[str]:
    """Names as an attacker writes them: markup, control characters, surrogates, long runs."""
    return st.one_of(
        st.text(max_size=12),
        st.sampled_from([
            "", " ", "\x00", "A\x00", "\ud800", "Ann\udfff", "\n", "\u202e", "🃏", "ääkköset",
            "![](http://127.0.0.1:9/x.png)", "<img src=x>", "**bold**", "envelope", "side",
            "x" * 5000, "Miss Scarlet", "Rope", "Kitchen", "Hall", "köysi", "veranta",
        ]),
    )


def _scalar() -> st.SearchStrategy[JSON]:
    return st.one_of(
        st.none(), st.booleans(), st.integers(-3, 30),
        st.sampled_from([10**100, -(10**100), 2**63, 1.5, float("inf"), float("nan")]),
        _text(),
    )


def _value() -> st.SearchStrategy[JSON]:
    return st.recursive(
        _scalar(),
        lambda inner: st.one_of(st.lists(inner, max_size=4),
                                st.dictionaries(_text(), inner, max_size=4)),
        max_leaves=8,
    )


def _paths(value: JSON, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a decoded JSON document, the document itself first."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


def _names(log: JSON) -> list[str]:
    """Every name the log uses (cards and players), to swap one for another."""
    return sorted({v for p in _paths(log) if isinstance(v := _get(log, p), str)})


def _get(doc: JSON, path: tuple[Any, ...]) -> JSON:
    for step in path:
        doc = doc[step]
    return doc


@st.composite
def mutated(draw: st.DrawFn, examples: tuple[str, ...]) -> bytes:
    """An example log, mutated up to three times, as the bytes of a file."""
    doc = json.loads(json.dumps(EXAMPLES[draw(st.sampled_from(examples))]))
    for _ in range(draw(st.integers(0, 3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        parent, key = (None, None) if not path else (_get(doc, path[:-1]), path[-1])
        action = draw(st.sampled_from(
            ["replace", "replace", "delete", "extra", "swap", "swap", "grow", "nest"]
        ))
        if action == "replace" and parent is not None:
            parent[key] = draw(_value())
        elif action == "delete" and parent is not None:
            del parent[key]
        elif action == "extra":
            target = _get(doc, path)
            if isinstance(target, dict):
                target[draw(_text())] = draw(_value())
            elif isinstance(target, list):
                target.insert(draw(st.integers(0, len(target))), draw(_value()))
        elif action == "swap" and parent is not None and isinstance(parent[key], str):
            parent[key] = draw(st.one_of(st.sampled_from(_names(doc)), _text()))
        elif action == "grow" and isinstance(target := _get(doc, path), list) and target:
            target.extend(target[: draw(st.integers(1, 40))])
        elif action == "nest" and parent is not None:
            depth = draw(st.sampled_from([3, 20, 5000]))
            parent[key] = json.loads("[" * depth + "1" + "]" * depth) if depth < 500 else None
            if depth >= 500:
                parent[key] = "__DEEP__"
    text = json.dumps(doc, ensure_ascii=draw(st.booleans()), allow_nan=True)
    text = text.replace('"__DEEP__"', "[" * 5000 + "]" * 5000)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate written raw: what a careless writer does
        data = text.encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 9)) == 0:  # broken bytes or a cut file
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"", b"\x00"]))
    return data


@st.composite
def mutated_notation(draw: st.DrawFn, examples: tuple[str, ...]) -> bytes:
    """An example log in the text notation, its lines and words mutated up to three times."""
    lines = NOTATION[draw(st.sampled_from(examples))].splitlines()
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["word", "word", "delete", "insert", "repeat", "swap"]))
        words = lines[at].split(" ")
        if action == "word":
            words[draw(st.integers(0, len(words) - 1))] = draw(st.one_of(
                _text(), st.sampled_from(["/", "-", "+", "?", ":", "#", "!", "=", "9" * 400])))
            lines[at] = " ".join(words)
        elif action == "delete":
            del lines[at]
        elif action == "insert":
            lines.insert(at, draw(st.one_of(_text(), st.sampled_from(lines))))
        elif action == "repeat":
            lines[at:at + 1] = [lines[at]] * draw(st.sampled_from([2, 40, 3000]))
        elif action == "swap":
            names = sorted({w for line in lines for w in line.split(" ") if w})
            words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(names))
            lines[at] = " ".join(words)
        if not lines:
            lines = [""]
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 9)) == 0:  # broken bytes or a cut file
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"", b"\x00"]))
    return data


def _run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(args)
    return status, out.getvalue(), err.getvalue()


def _commands(log: GameLog | None, path: str, pick: st.DataObject) -> list[list[str]]:
    """Every command that reads a log, with arguments drawn from the log when it reads."""
    if log is None:
        return [["analyze", path], ["convert", path, "--to", "text"]]
    game = log.game
    cards = list(game.deck.cards) or ["X"]
    owners = [*game.player_names, ENVELOPE, "side"]
    any_card = st.one_of(st.sampled_from(cards), _text())
    triple = [pick.draw(st.sampled_from(game.deck.of(c) or ("X",))) for c in CATEGORIES]
    if pick.draw(st.booleans()):
        triple[pick.draw(st.integers(0, 2))] = pick.draw(any_card)
    advise = ["advise", path, "--samples", "50", "--top", "3"]
    if pick.draw(st.booleans()):
        advise += ["--room", pick.draw(st.one_of(st.sampled_from(game.deck.rooms or ("X",)),
                                                  any_card))]
    if pick.draw(st.booleans()):
        advise += ["--to", pick.draw(st.one_of(st.sampled_from(owners), _text()))]
    upto = ["--upto", str(pick.draw(st.integers(0, len(log.events) + 1)))]
    return [
        ["analyze", path, *pick.draw(st.sampled_from([[], ["--json"], upto]))],
        ["explain", path, pick.draw(any_card), pick.draw(st.one_of(st.sampled_from(owners),
                                                                    _text()))],
        ["accuse", path, *triple],
        advise,
        ["show", path, pick.draw(st.one_of(st.sampled_from(owners), _text())), *triple],
        ["race", path, "--samples", "20"],
        ["convert", path, "--to", pick.draw(st.sampled_from(["text", "json"]))],
    ]


def _no_crash(data: bytes, pick: st.DataObject, tmp: Path, suffix: str = ".json") -> None:
    """Every command (and for JSON the app's upload) ends in a result or a clear refusal."""
    log: GameLog | None = None
    if suffix == ".json":
        try:
            log = parse_upload(data)
        except InvalidLogError as err:
            assert err.problems and all(":" in line for line in err.problems), err.problems
    else:
        with contextlib.suppress(InvalidLogError, UnicodeDecodeError):
            log = read_log_any(data.decode("utf-8"))
    path = tmp / f"log{suffix}"
    path.write_bytes(data)
    for args in _commands(log, str(path), pick):
        args = [a for a in args if "\x00" not in a]  # no argv can hold a NUL
        status, _, err = _run(args)
        assert status in (cli.OK, cli.INVALID, cli.CONTRADICTION), (args, status, err)
        assert "Traceback" not in err
        if status == cli.INVALID:
            assert err.strip(), args


QUICK = settings(max_examples=100, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
LONG = settings(max_examples=2000, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@QUICK
@given(data=mutated(tuple(SMALL)), pick=st.data())
def test_mutated_logs_never_crash(data: bytes, pick: st.DataObject, tmp_path_factory: Any) -> None:
    _no_crash(data, pick, tmp_path_factory.mktemp("fuzz"))


@pytest.mark.slow
@LONG
@given(data=mutated(tuple(EXAMPLES)), pick=st.data())
def test_mutated_logs_never_crash_long(data: bytes, pick: st.DataObject,
                                       tmp_path_factory: Any) -> None:
    _no_crash(data, pick, tmp_path_factory.mktemp("fuzz"))


@QUICK
@given(data=mutated_notation(tuple(SMALL_NOTATION)), pick=st.data())
def test_mutated_notation_never_crashes(data: bytes, pick: st.DataObject,
                                        tmp_path_factory: Any) -> None:
    _no_crash(data, pick, tmp_path_factory.mktemp("fuzz"), ".clue")


@pytest.mark.slow
@LONG
@given(data=mutated_notation(tuple(NOTATION)), pick=st.data())
def test_mutated_notation_never_crashes_long(data: bytes, pick: st.DataObject,
                                             tmp_path_factory: Any) -> None:
    _no_crash(data, pick, tmp_path_factory.mktemp("fuzz"), ".clue")


# --- the named cases -------------------------------------------------------------------------

BASE = EXAMPLES["rules-example-1.json"]


def _with(**changes: JSON) -> bytes:
    doc = json.loads(json.dumps(BASE))
    doc.update(changes)
    return json.dumps(doc).encode()


def _player(name: str) -> list[dict[str, Any]]:
    players: list[dict[str, Any]] = json.loads(json.dumps(BASE["players"]))
    players[1]["name"] = name
    return players


NAMED: dict[str, tuple[bytes, str]] = {
    "deep nesting": (b'{"format": "clue-notebook/1", "x": ' + b"[" * 100_000 + b"]" * 100_000
                     + b"}", "JSON: nested too deeply"),
    "nested extra field": (_with(extra=json.loads("[" * 40 + "]" * 40)),
                           "nested more than 16 levels"),
    "5,000-digit number": (_with().replace(b'"side_cards": 0', b'"side_cards": ' + b"9" * 5000),
                           "JSON: a number of 5,000 digits at line 1"),
    "huge hand size": (_with().replace(b"\"hand_size\": 4", b"\"hand_size\": 1" + b"0" * 300, 1),
                       "players[0].hand_size: expected a whole number from 0 to 60"),
    "object as event type": (_with(events=[{"type": {"a": 1}}]), "events[0].type"),
    "list as event type": (_with(events=[{"type": ["suggestion"]}]), "events[0].type"),
    "lone surrogate in a name": (_with(players=_player("Niko\ud800")),
                                 "players[1].name: 'Niko\\ud800' holds half of a UTF-16"),
    "NUL in a name": (_with(players=_player("Ni\x00ko")),
                      "players[1].name: 'Ni\\x00ko' holds the control character '\\x00'"),
    "newline in a name": (_with(players=_player("Ni\nko")), "players[1].name"),
    "right-to-left override in a name": (  # it showed every line naming the player backwards
        _with(players=_player("\u202eNiko")),
        "players[1].name: '\\u202eNiko' holds '\\u202e', a character that reverses"),
    "very long name": (_with(players=_player("N" * 5000)),
                       "players[1].name: 'NNNN"),
    "surrogate in an extra field": (_with(remark="\udc80"), "remark: '\\udc80'"),
    "edition name too long for a file name": (  # its preset's file was looked up: OSError
        b"edition: " + b"x" * 300 + b"\nplayers: Ann 6, Bob 6, Cid 6\n",
        "line 1, column 10: expected an edition"),
    "one name and a comma where one name goes": (  # no second name to point at: IndexError
        b"edition: clue-classic\nplayers: Ann 6, Bob 6, Cid 6\nme: Ann,\n",
        "line 3, column 1: expected a player"),
    # The notation's JSON extra fields ({...} ending an event line, the "extra:" header line)
    # were read without the checks of a JSON log: a RecursionError's or a ValueError's
    # traceback, and surrogates and 50 levels of nesting let through.
    "notation: extra fields nested 100,000 deep": (
        NOTATION["rules-example-1.clue"].rstrip().encode() + b' {"x": ' + b"[" * 100_000
        + b"]" * 100_000 + b"}\n", "line 8, column 60: expected a JSON object (JSON: nested too"),
    "notation: extra header nested 40 deep": (
        NOTATION["rules-example-1.clue"].replace("face up:", 'extra: {"x": ' + "[" * 40
                                                 + "]" * 40 + "}\nface up:").encode(),
        "line 6, column 8: expected a JSON object (x[0][0][0][0][0][0][0][0][0][0][0][0][0][0]"
        "[0]: nested more than 16 levels deep)"),
    "notation: a 5,000-digit number in extra fields": (
        NOTATION["rules-example-1.clue"].rstrip().encode() + b' {"x": ' + b"9" * 5000 + b"}\n",
        "expected a JSON object (JSON: a number of 5,000 digits at line 1 column 7"),
    "notation: a surrogate in extra fields": (
        NOTATION["rules-example-1.clue"].rstrip().encode() + b' {"x": "\\udc00"}\n',
        "(x: '\\udc00' holds half of a UTF-16 surrogate pair, which is not text)"),
    # Python's JSON reader keeps a field's last value silently: a second "events" emptied the
    # game, a second "refuted_by" changed who showed the card, without a word.
    "the events given twice": (_with()[:-1] + b', "events": []}',
                               "events: given more than once; a field holds one value, and only "
                               "the last one, [], would be read"),
    "a suggestion's refuter given twice": (
        _with().replace(b'"refuted_by": "Veera"', b'"refuted_by": "Veera", "refuted_by": null'),
        "events[0].refuted_by: given more than once; a field holds one value, and only the last "
        "one, None, would be read"),
    # the field given twice was named as it was, half of a surrogate pair: a message no page can
    # show (the pasted log broke the home screen: 'Something went wrong', no Open button)
    "a field named by half a surrogate pair, twice": (
        _with()[:-1] + b', "\\ud800": 1, "\\ud800": 2}',
        "(top level): '\\ud800' holds half of a UTF-16 surrogate pair, which is not text"),
    # a quoted name may escape half of a surrogate pair: taken as a player, it was then offered
    # as it was ("did you mean Ai\ud800no?"), a message no page can show
    "notation: a quoted name with half a surrogate pair": (
        NOTATION["rules-example-1.clue"].replace("Aino 4", '"Ai\\ud800no" 4').encode(),
        "line 3, column 10: expected quoted text without half of a UTF-16 surrogate pair, got "
        "'\"Ai\\\\ud800no\" 4"),
    "non-UTF-8 bytes": (_with().replace(b"Niko", b"Ni\xe9ko"), "is not UTF-8 text (byte 0xe9"),
    "50 MB file": (b" " * 50_000_000 + _with(), "is larger than the 1,000,000 bytes"),
    "2,000 custom cards": (_with(edition=None, cards={
        "suspects": [f"S{i}" for i in range(700)], "weapons": [f"W{i}" for i in range(700)],
        "rooms": [f"R{i}" for i in range(600)]}), "cards: 2,000 cards; a game may have at most 60"),
    "60 players": (_with(players=[{"name": f"P{i}", "hand_size": 0} for i in range(60)]),
                   "players: 60 players; a game may have at most 16"),
    "3,000 events": (_with(events=BASE["events"] * 3000),
                     "events: 3,000 events; a game may have at most 1,000"),
}


@pytest.mark.parametrize("case", sorted(NAMED))
def test_named_hostile_logs_are_refused_with_the_field(case: str, tmp_path: Path) -> None:
    data, message = NAMED[case]
    with pytest.raises(InvalidLogError) as refused:
        parse_upload(data)
    assert message in "\n".join(refused.value.problems)
    "\n".join(refused.value.problems).encode()  # every problem is text a page can show
    path = tmp_path / "log.json"
    path.write_bytes(data)
    for command in (["analyze"], ["explain", "köysi", "Niko"], ["advise"],
                    ["accuse", "a", "b", "c"], ["show", "Niko", "a", "b", "c"], ["race"],
                    ["convert", "--to", "text"]):
        status, out, err = _run([command[0], str(path), *command[1:]])
        assert (status, out) == (cli.INVALID, ""), (command, err)
        assert message in err and "Traceback" not in err
    assert len(err) < 5000  # one message per problem, each cut to a readable length


def test_the_limits_are_far_above_the_examples() -> None:
    for name, log in EXAMPLES.items():
        players = log["players"]
        assert len(players) * 2 <= limits.MAX_PLAYERS, name
        assert len(log["events"]) * 10 <= limits.MAX_EVENTS, name
        assert len(json.dumps(log).encode()) * 20 <= limits.MAX_FILE_BYTES, name


def test_a_nul_at_the_end_of_a_card_is_refused() -> None:
    """NumPy drops trailing NULs from strings: a room named "Hall\\x00" once read as valid and
    then made `advise` fail with a KeyError on the card."""
    doc = json.loads(json.dumps(EXAMPLES["classic-six-players.json"]))
    doc["cards"] = {"suspects": ["A", "B"], "weapons": ["C", "D"], "rooms": ["Hall\x00", "E"]}
    with pytest.raises(InvalidLogError, match=r"cards.rooms\[0\]: 'Hall\\x00' holds the control"):
        parse_upload(json.dumps(doc).encode())


def test_the_advisor_keeps_to_its_work_budget(tmp_path: Path) -> None:
    """A deck of 60 cards has 8,000 suggestions to score: the default draw shrinks to fit the
    budget, and an asked-for draw that does not fit is refused naming --samples."""
    doc = json.loads(json.dumps(BASE))
    doc.pop("edition", None)
    doc["cards"] = {c: [f"{c[0]}{i}" for i in range(20)] for c in ("suspects", "weapons", "rooms")}
    doc["players"] = [{"name": n, "hand_size": 19} for n in ("Ann", "Bob", "Cy")]
    doc.update(me="Ann", my_cards=[f"s{i}" for i in range(7)] + [f"w{i}" for i in range(6)]
               + [f"r{i}" for i in range(6)], face_up=[], events=[])
    path = tmp_path / "large.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    status, _, err = _run(["advise", str(path), "--samples", "20000"])
    assert status == cli.INVALID and "--samples: 20,000 deals x 8,000 suggestions" in err
    assert "at most 500 deals" in err
    status, _, err = _run(["advise", str(path), "--top", "2", "--room", "r19"])
    assert status == cli.OK, err


def test_the_race_keeps_to_its_work_budget(tmp_path: Path) -> None:
    """Sixteen players: the default draw shrinks to 133 deals (2,000 views of 15 opponents), and
    an asked-for draw past the budget (10,000 views) is refused naming --samples."""
    doc = json.loads(json.dumps(BASE))
    doc.pop("edition", None)
    doc["cards"] = {c: [f"{c[0]}{i}" for i in range(16)] for c in ("suspects", "weapons")}
    doc["cards"]["rooms"] = [f"r{i}" for i in range(19)]
    doc["players"] = [{"name": f"P{i}", "hand_size": 3} for i in range(16)]
    doc.update(me="P0", my_cards=["s0", "w0", "r0"], face_up=[], events=[])
    path = tmp_path / "table.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    status, _, err = _run(["race", str(path), "--samples", "1000"])
    assert status == cli.INVALID and "--samples: 1,000 deals x 15 players" in err
    assert "at most 666 deals" in err
    status, out, err = _run(["race", str(path), "--json"])
    assert status == cli.OK, err
    assert json.loads(out)["samples"] == 133


LONG = "x" * 100_000
EXAMPLE = str(ROOT / "examples" / "rules-example-1.json")


@pytest.mark.parametrize(("args", "field"), [
    (["analyze", EXAMPLE, "--upto", "9" * 5000], "--upto: expected a whole number"),
    (["analyze", EXAMPLE, "--upto", "9" * 4000], "--upto: 9999"),
    (["new", "--edition", LONG, "--players", "A,B"], "--edition: unknown edition 'xxx"),
    (["new", "--forum", "3", "--edition", LONG, "--players", "A,B"], "--edition 'xxx"),
    (["new", "--edition", "clue-classic", "--players", "A,B", "--hand-sizes", "9" * 5000],
     "--hand-sizes: expected whole numbers"),
    (["new", "--edition", "clue-classic", "--players", LONG + ",,B"], "--players: empty name"),
    (["accuse", EXAMPLE, "a", "b", "c", "--bluff", LONG], "--bluff: expected a factor"),
    (["accuse", EXAMPLE, LONG, "köysi", "veranta"], "suspect: unknown card 'xxx"),
    (["explain", EXAMPLE, LONG, LONG], "OWNER: unknown owner 'xxx"),
    (["advise", EXAMPLE, "--room", LONG], "room: unknown card 'xxx"),
    (["advise", EXAMPLE, "--to", LONG], "to: 'xxx"),
    (["show", EXAMPLE, LONG, "a", "b", "c"], "asker: 'xxx"),
    (["show", EXAMPLE, "Niko", LONG, "köysi", "veranta"], "cards: unknown card 'xxx"),
])
def test_a_long_option_value_is_quoted_cut(args: list[str], field: str) -> None:
    """A refused option or argument was quoted whole: a 100,000-character card name or a
    5,000-digit --upto printed a line as long. Each is cut as a log's values are
    (`solver.limits.shorten`), its length said, the field named."""
    status, out, err = _run(args)
    assert (status, out) == (cli.INVALID, ""), err[:300]
    assert field in err and "Traceback" not in err, err[:300]
    assert max(map(len, err.splitlines())) < 400, err[:300]


@pytest.mark.parametrize(("args", "said"), [
    (["analyze", ""], "LOG: cannot read '': No such file or directory"),
    (["convert", EXAMPLE, "-o", ""], "--output: cannot write '': No such file or directory"),
    (["new", "--edition", "clue-classic", "--players", "A,B", "-o", "", "--force"],
     "--output: cannot write '': No such file or directory"),
])
def test_an_empty_path_is_no_file(args: list[str], said: str) -> None:
    """An empty LOG or --output was taken for the current directory (pathlib reads "" as
    "."): "cannot read '': Is a directory", "'' already exists (add --force …)"."""
    status, out, err = _run(args)
    assert (status, out, err.strip()) == (cli.INVALID, "", f"{PROG} {args[0]}: {said}")
