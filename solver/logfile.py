"""Reading and writing game logs in the ``clue-notebook/1`` JSON format.

The reader collects every problem it finds before giving up, and each problem names the field
and quotes the value, so one round of fixes is enough. `check` runs the same rules on a log built
in code (the app builds logs entry by entry).

>>> log = loads('''{"format": "clue-notebook/1", "edition": "clue-classic",
...   "players": [{"name": "Ann", "hand_size": 9}, {"name": "Bob", "hand_size": 9}],
...   "events": [{"type": "accusation", "by": "Bob",
...               "cards": ["Mrs. White", "Rope", "Hall"], "correct": false}]}''')
>>> log.events[0]
Accusation(by='Bob', cards=('Mrs. White', 'Rope', 'Hall'), correct=False)
>>> loads(dumps(log)) == log
True
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeGuard

from .cards import CATEGORIES, Category, Deck
from .editions import forum_dealt
from .errors import InvalidLogError
from .game import (
    ENVELOPE,
    FIRST_IN_ORDER,
    NOTE_RELATIONS,
    RESERVED_OWNERS,
    SIDE,
    Accusation,
    Event,
    Game,
    GameLog,
    Note,
    Player,
    Reveal,
    SidePeek,
    Suggestion,
    Triple,
)
from .i18n import N_, _, join
from .limits import (
    MAX_CARDS,
    MAX_DEPTH,
    MAX_EVENTS,
    MAX_FILE_BYTES,
    MAX_PLAYERS,
    MAX_TEXT_CHARS,
    shorten,
    text_problem,
)
from .values import replace

FORMAT = "clue-notebook/1"
SCHEMA = "schema/clue-notebook-1.schema.json"
"""The JSON Schema of the format, inside the ``solver`` package (see `json_schema`)."""

_TOP_KEYS = {
    "format", "title", "edition", "cards", "players", "me", "my_cards", "face_up",
    "side_cards", "events",
}
_EVENT_KEYS = {
    "suggestion": {"type", "by", "cards", "passes", "refuted_by", "shown", "shown_by_rule",
                   "side_peek"},
    "accusation": {"type", "by", "cards", "correct"},
    "reveal": {"type", "player", "cards", "whole_hand"},
    "note": {"type", "owner", *NOTE_RELATIONS, "text"},
}


MAX_PROBLEMS = 50
"""Problems listed at most (a broken file of thousands of events is one fix, not a novel)."""
_LINE_CHARS = 300


class _Problems:
    """Collects problems; each is one line naming a field and the bad value."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, where: str, message: str) -> None:
        line = f"{where}: {message}"
        if len(line) > _LINE_CHARS:
            line = line[:_LINE_CHARS - 1] + "…"
        self.lines.append(line)

    def raise_if_any(self) -> None:
        if len(self.lines) > MAX_PROBLEMS:
            more = len(self.lines) - MAX_PROBLEMS
            raise InvalidLogError([*self.lines[:MAX_PROBLEMS],
                                   _("… and {more} more problems").format(
                more=more)])
        if self.lines:
            raise InvalidLogError(self.lines)


def _event_where(index: int, key: str | None = None) -> str:
    """An event's place in messages; `solver.notation` reads it back in any language (a
    translation keeps it one word, the number and the path: "tapahtuma 3 (events[2])")."""
    path = f"events[{index}]" + (f".{key}" if key else "")
    return _("event {n} ({path})").format(n=index + 1, path=path)


def _event_names(value: object, index: int, key: str, problems: _Problems) -> tuple[str, ...]:
    """A list of names in event ``index``'s field ``key``."""
    return _read_names(value, _event_where(index, key), problems,
                       lambda j: _event_where(index, f"{key}[{j}]"))


def json_schema() -> dict[str, Any]:
    """The format's JSON Schema (draft 2020-12), for outside tools: the shape of a log and of
    every event kind. The rules that need the game itself (known names, sizes) are `check`'s."""
    from importlib import resources  # here, not at the top: every command reads logs

    schema: dict[str, Any] = json.loads(
        resources.files("solver").joinpath(SCHEMA).read_text(encoding="utf-8")
    )
    return schema


# --- reading ---------------------------------------------------------------------------------


def load(path: str | Path) -> GameLog:
    """Read a log file; `InvalidLogError` for a missing file, bad JSON or a bad log."""
    try:
        with open(path, "rb") as file:  # not Path: Path("") is the directory "."
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        raise InvalidLogError([_("LOG: cannot read {path}: {reason}").format(
            path=repr(str(path)), reason=err.strerror)]) from None
    return read_bytes(data, f"LOG: {str(path)!r}")


def read_bytes(data: bytes, source: str = "file") -> GameLog:
    """Parse a log from the bytes of a file (an upload, standard input); ``source`` names the
    file in messages about it as a whole. Refuses more than `MAX_FILE_BYTES` before decoding."""
    return loads(decode(data, source))


def decode(data: bytes, source: str = "file") -> str:
    """The text of a log file's bytes (JSON or notation): `InvalidLogError` naming ``source``
    for more than `MAX_FILE_BYTES`, for bytes that are not UTF-8, or for nothing but spaces (an
    empty upload was told "line 1, column 1: expected an 'edition:' line …, got the end of the
    line").

    >>> decode(b" \\n", "file: 'friday.json'")
    Traceback (most recent call last):
    solver.errors.InvalidLogError: file: 'friday.json' is empty: a log is a game in JSON or in \
the notation
    """
    if len(data) > MAX_FILE_BYTES:
        raise InvalidLogError([_("{source} is larger than the {limit} bytes a log may "
                                 "have; is it a clue-notebook/1 game log?").format(
                                     source=source, limit=f"{MAX_FILE_BYTES:,}")])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InvalidLogError([_("{source} is not UTF-8 text (byte {byte} at position "
                                 "{start}); save the log as UTF-8").format(
                                     source=source, byte=f"{data[err.start]:#04x}",
                                     start=err.start)]) from None
    if not text.removeprefix("\ufeff").strip():
        raise InvalidLogError([_("{source} is empty: a log is a game in JSON or in the "
                                 "notation").format(source=source)])
    return text


def loads(text: str) -> GameLog:
    """Parse a log from JSON text."""
    if len(text) > MAX_FILE_BYTES:
        raise InvalidLogError([_("JSON: longer than the {limit} characters a log may "
                                 "have").format(limit=f"{MAX_FILE_BYTES:,}")])
    try:
        data, _end = json_value(text, whole=True)
    except json.JSONDecodeError as err:
        raise InvalidLogError([json_problem(err)]) from None
    return parse(data)


def json_value(text: str, start: int = 0, *, whole: bool = False) -> tuple[object, int]:
    """The JSON value at ``text[start:]`` (the whole ``text`` with ``whole``) and where it
    ends, refused as a log's JSON is: `InvalidLogError` for nesting deeper than `MAX_DEPTH`, a
    number too long to read, half of a surrogate pair or a field given twice;
    `json.JSONDecodeError` for text that is not JSON. The notation reads its ``{...}`` extra
    fields with it: a line of 100,000 ``[`` there ended in a RecursionError's traceback.

    >>> json_value('Ann: Plum {"seen": [1]} # x', 10)
    ({'seen': [1]}, 23)
    >>> json_value('{"x": "\\ud800"}')
    Traceback (most recent call last):
    solver.errors.InvalidLogError: x: '\\ud800' holds half of a UTF-16 surrogate pair, which is \
not text
    """
    try:
        if whole:
            data, end = json.loads(text, object_pairs_hook=_JSONObject.of), len(text)
        else:
            data, end = json.JSONDecoder(object_pairs_hook=_JSONObject.of).raw_decode(text, start)
    except json.JSONDecodeError:  # not JSON: the caller's to say (a ValueError, not the one
        raise  # below)
    except RecursionError:
        raise InvalidLogError([_("JSON: nested too deeply (a log nests {limit} levels at "
                                 "most)").format(limit=MAX_DEPTH)]) from None
    except ValueError:  # a number too long to convert (over 4,300 digits)
        raise InvalidLogError([_long_number(text[start:])]) from None
    _check_document(data, text[start:end])
    return data, end


JSON_SAID = {
    "Expecting value": N_("expected a value"),
    "Expecting property name enclosed in double quotes": N_("expected a name in double quotes"),
    "Expecting ':' delimiter": N_("expected ':'"),
    "Expecting ',' delimiter": N_("expected ','"),
    "Invalid control character at": N_("a tab or a line break inside a quoted text"),
    "Invalid \\escape": N_("a backslash that starts no escape"),
    "Invalid \\uXXXX escape": N_("a \\u escape without four hex digits"),
    "Extra data": N_("more text after the end of the log"),
    "Illegal trailing comma before end of object": N_("a comma before the closing brace"),
    "Illegal trailing comma before end of array": N_("a comma before the closing bracket"),
}
"""Python's JSON reader's words (English only) in the catalog's: the Japanese paste box said
"JSON: 157 行 7 列: Expecting value"."""


def json_said(err: json.JSONDecodeError) -> str:
    """What the JSON reader found wrong, in the user's language (its own words if new)."""
    said = JSON_SAID.get(err.msg)
    return _(said) if said is not None else err.msg


def json_problem(err: json.JSONDecodeError) -> str:
    """A JSON reader's error as a log's problem: where, and what. Text that stops before its
    JSON does (nothing but spaces after where reading stopped, or a quote never closed) is said
    to be cut off: a paste or a download that stopped halfway.

    >>> def problem(text: str) -> str:
    ...     try:
    ...         json.loads(text)
    ...     except json.JSONDecodeError as err:
    ...         return json_problem(err)
    ...     return ""
    >>> problem('{"format": "clue-notebook/1",\\n "players": [')
    'JSON: the text ends at line 2 column 14 before the log does; was it cut off?'
    >>> problem('{"title": "Fri')
    'JSON: the text ends at line 1 column 15 before the log does; was it cut off?'
    >>> problem('{"format": 1,}')
    'JSON: expected a name in double quotes at line 1 column 14'
    """
    if err.msg.startswith("Unterminated string") or not err.doc[err.pos:].strip():
        end = err.doc.rstrip()
        line = end.count("\n") + 1
        return _("JSON: the text ends at line {line} column {column} before the log does; was "
                 "it cut off?").format(line=line, column=len(end) - end.rfind("\n"))
    return _("JSON: {error} at line {line} column {column}").format(
        error=json_said(err), line=err.lineno, column=err.colno)


def read_log_any(text: str) -> GameLog:
    """A log in JSON (text that starts with ``{``) or in the text notation (anything else,
    see `is_json`); the notation's reader is imported only for notation.

    >>> read_log_any('{"format": "clue-notebook/1", "edition": "clue-classic", '
    ...              '"players": [{"name": "A", "hand_size": 9}, {"name": "B", '
    ...              '"hand_size": 9}]}').game.player_names
    ('A', 'B')
    """
    if is_json(text):
        return loads(text.removeprefix("\ufeff"))
    from .notation import read_text

    return read_text(text)


def is_json(text: str) -> bool:
    """Whether a log's text is JSON (it starts with ``{``, or ``[`` for a wrong one) rather
    than notation (which starts with a header line or a comment)."""
    return text.removeprefix("\ufeff").lstrip().startswith(("{", "["))


def _long_number(text: str) -> str:
    found = re.search(r"\d{1000,}", text)
    if found is None:
        return _("JSON: a number is too long to read")
    line = text.count("\n", 0, found.start()) + 1
    column = found.start() - text.rfind("\n", 0, found.start())
    return (_("JSON: a number of {digits} digits at line {line} column "
              "{column}; the numbers in a log are counts of cards").format(
                  digits=f"{len(found.group()):,}", line=line, column=column))


class _JSONObject(dict[str, Any]):
    """A JSON object that names a field twice (``"me": "Aino", "me": "Niko"``): Python's
    reader keeps the last silently, so a second ``"events": []`` emptied a game without a word.
    `_check_document` refuses it, naming the field."""

    twice: str

    @classmethod
    def of(cls, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        data = dict(pairs)
        if len(data) == len(pairs):
            return data
        twice = cls(pairs)
        twice.twice = next(key for key, n in Counter(k for k, _v in pairs).items() if n > 1)
        return twice


def _check_document(data: object, text: str | None = None) -> None:
    """Refuse JSON nested deeper than `MAX_DEPTH`, holding text that is not text (half of a
    UTF-16 surrogate pair: no file or database can store it) or an object that gives a field
    twice (`_JSONObject`), before anything reads it.

    Given the JSON ``text`` the data was decoded from, its strings are checked one by one only
    when the text holds a surrogate or may escape one (``\\ud...``): most logs need no check."""
    strings = text is None or not_utf8(text) or "\\ud" in text or "\\uD" in text
    if isinstance(data, str) and strings and not_utf8(data):
        _not_text(data, "(top level)")
    stack = [(data, "(top level)", 1)] if isinstance(data, dict | list) else []
    while stack:  # paths are built for containers and for text that fails, not for all text
        value, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise InvalidLogError([_("{where}: nested more than {limit} levels deep").format(
                where=where, limit=MAX_DEPTH)])
        if isinstance(value, _JSONObject):
            if not_utf8(value.twice):  # its name is not text: a message could not show it
                _not_text(value.twice, where)
            raise InvalidLogError([_("{where}: given more than once; a field holds one value, "
                                     "and only the last one, {value}, would be read").format(
                where=_step(where, value.twice), value=shorten(value[value.twice]))])
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            if strings and isinstance(key, str) and not_utf8(key):
                _not_text(key, where)
            if isinstance(item, dict | list):
                stack.append((item, _step(where, key), depth + 1))
            elif strings and isinstance(item, str) and not_utf8(item):
                _not_text(item, _step(where, key))


def not_utf8(text: str) -> bool:
    """Whether ``text`` holds half of a surrogate pair: the only characters UTF-8 cannot encode
    (a check at the speed of encoding, without a regular expression to compile first).

    >>> not_utf8("Päivä 東京 \\U0001F600"), not_utf8("Ann\\ud800")
    (False, True)
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _step(where: str, key: str | int) -> str:
    """The path of a member of ``where`` (a key or an index), cut to 120 characters."""
    step = f".{key}" if isinstance(key, str) else f"[{key}]"
    return (step[1:] if where == "(top level)" else where + step)[:120]


def _not_text(text: str, where: str) -> NoReturn:
    raise InvalidLogError([_("{where}: {text} holds half of a UTF-16 surrogate pair, which "
                             "is not text").format(where=where, text=shorten(text))])


def parse(data: object) -> GameLog:
    """Build a `GameLog` from decoded JSON, then `check` it."""
    problems = _Problems()
    if not isinstance(data, dict):
        raise InvalidLogError([_("(top level): expected a JSON object, got {got}").format(
            got=_kind(data))])
    if data.get("format") != FORMAT:
        problems.add("format", _("expected {format}, got {value}").format(
            format=repr(FORMAT), value=repr(data.get('format'))))
    deck = _read_deck(data, problems)
    players = _read_players(data.get("players"), problems)
    me = data.get("me")
    if me is not None and not isinstance(me, str):
        problems.add("me", _("expected a player name, got {me}").format(me=repr(me)))
        me = None
    side_cards = data.get("side_cards", 0)
    if not _is_count(side_cards):
        problems.add("side_cards", _("expected a whole number from 0 to {most}, got "
                                     "{side_cards}").format(
                                         most=MAX_CARDS, side_cards=shorten(side_cards)))
        side_cards = 0
    title = data.get("title")
    if title is not None and not isinstance(title, str):
        problems.add("title", _("expected text, got {title}").format(title=repr(title)))
        title = None
    edition_name = data.get("edition")
    game = Game(
        deck=deck,
        players=players,
        me=me,
        my_cards=_read_names(data.get("my_cards", []), "my_cards", problems),
        face_up=_read_names(data.get("face_up", []), "face_up", problems),
        side_cards=side_cards,
        title=title,
        edition=edition_name if isinstance(edition_name, str) else None,
        extra={k: v for k, v in data.items() if k not in _TOP_KEYS},
    )
    raw_events = data.get("events", [])
    events: list[Event] = []
    if not isinstance(raw_events, list):
        problems.add("events", _("expected a list, got {got}").format(got=_kind(raw_events)))
    else:
        for i, raw in enumerate(raw_events):
            event = _read_event(i, raw, problems, game)
            if event is not None:
                events.append(event)
    log = GameLog(game, tuple(events))
    # Report rule problems too, so one round of fixes is enough; the size sum only when every
    # number in it was readable.
    sizes_readable = not any(
        line.split(":")[0].split("[")[0] in ("cards", "edition", "players", "face_up",
                                              "side_cards")
        for line in problems.lines
    )
    _check(log, problems, sizes=sizes_readable)
    problems.raise_if_any()
    return replace(log, events=tuple(_in_category_order(log.game, e) for e in log.events))


def _in_category_order(game: Game, event: Event) -> Event:
    """The event with its three cards as suspect, weapon, room (a log may list them otherwise)."""
    if isinstance(event, Reveal | Note):
        return event
    cards = sorted(event.cards, key=lambda c: CATEGORIES.index(game.category_of(c)))
    if tuple(cards) == event.cards:  # as logs usually list them: no copy needed
        return event
    return replace(event, cards=(cards[0], cards[1], cards[2]))


_KINDS = {dict: N_("an object"), list: N_("a list"), str: N_("text"), type(None): "null"}


def _kind(value: object) -> str:
    """What a JSON value is, for "expected …, got …" (a number or true/false: as written)."""
    kind = _KINDS.get(type(value))
    return repr(value) if kind is None else _(kind)


def _is_count(value: object) -> TypeGuard[int]:
    """A whole number from 0 to `MAX_CARDS` (no count in a game can be larger)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_CARDS


def _read_deck(data: Mapping[str, Any], problems: _Problems) -> Deck:
    cards = data.get("cards")
    if cards is None and "edition" in data:
        if not isinstance(data["edition"], str):
            problems.add("edition", _("expected a preset name, got {value}").format(
                value=repr(data['edition'])))
            return Deck((), (), ())
        from .editions import edition

        try:
            return edition(data["edition"]).deck
        except InvalidLogError as err:
            problems.lines.extend(err.problems)
            return Deck((), (), ())
    if not isinstance(cards, dict):
        problems.add("cards",
                     _("expected an object with suspects, weapons and rooms, got {got}").format(
            got=_kind(cards)))
        return Deck((), (), ())
    lists = [_read_names(cards.get(c.plural), f"cards.{c.plural}", problems) for c in CATEGORIES]
    return Deck(*lists)


def _read_names(
    value: object, where: str, problems: _Problems, item_where: Callable[[int], str] | None = None
) -> tuple[str, ...]:
    """A list of non-empty names; ``item_where(i)`` names item ``i`` (``where[i]`` by default)."""
    if not isinstance(value, list):
        problems.add(where, _("expected a list of names, got {got}").format(got=_kind(value)))
        return ()
    names: list[str] = []
    for i, item in enumerate(value):
        if isinstance(item, str) and item.strip():
            names.append(item)
        else:
            at = item_where(i) if item_where else f"{where}[{i}]"
            problems.add(at, _("expected a non-empty name, got {item}").format(item=repr(item)))
    return tuple(names)


def _read_players(value: object, problems: _Problems) -> tuple[Player, ...]:
    if not isinstance(value, list):
        problems.add("players", _("expected a list of players, got {got}").format(got=_kind(value)))
        return ()
    players: list[Player] = []
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            problems.add(f"players[{i}]",
                         _("expected {{'name': ..., 'hand_size': ...}}, got {item}").format(
                item=repr(item)))
            continue
        name, size = item.get("name"), item.get("hand_size")
        named = isinstance(name, str) and bool(name.strip())
        if not named:
            problems.add(f"players[{i}].name", _("expected a non-empty name, got {name}").format(
                name=repr(name)))
        if not _is_count(size):
            problems.add(f"players[{i}].hand_size",
                         _("expected a whole number from 0 to {most}, got {size}").format(
                most=MAX_CARDS, size=shorten(size)))
            size = MAX_CARDS  # still a player (the log is refused anyway): "unknown player"
            # for every event naming them, or "me" not a player, said nothing more
        if named:
            players.append(Player(str(name), size))
    return tuple(players)


def _read_triple(raw: Mapping[str, Any], where: str, problems: _Problems,
                 game: Game) -> Triple | None:
    cards = raw.get("cards")
    if (
        not isinstance(cards, list)
        or len(cards) != len(CATEGORIES)
        or not all(isinstance(c, str) for c in cards)
    ):
        expected = (_("expected [suspect, weapon, place], got {cards}") if forum_dealt(game) else
                    _("expected [suspect, weapon, room], got {cards}"))
        problems.add(where, expected.format(cards=repr(cards)))
        return None
    return (cards[0], cards[1], cards[2])


def _read_event(i: int, raw: object, problems: _Problems, game: Game) -> Event | None:
    """Event ``i`` of the log as written, or ``None`` (its problems added); ``game``: the
    log's setup, whose variant names the third kind of card (`solver.editions.forum_dealt`)."""
    if not isinstance(raw, dict):
        problems.add(_event_where(i), _("expected an object, got {got}").format(got=_kind(raw)))
        return None
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in _EVENT_KEYS:
        problems.add(_event_where(i, "type"),
                     _("unknown event type {kind} (expected suggestion, accusation, "
                       "reveal or note)").format(kind=repr(kind)))
        return None
    extra = {k: v for k, v in raw.items() if k not in _EVENT_KEYS[kind]}
    start = len(problems.lines)
    if kind == "note":
        return _read_note(i, raw, extra, problems)
    if kind == "reveal":
        player = raw.get("player")
        if not isinstance(player, str):
            problems.add(_event_where(i, "player"),
                         _("expected a player name, got {player}").format(
                player=repr(player)))
        cards = _event_names(raw.get("cards"), i, "cards", problems)
        whole = raw.get("whole_hand", False)
        if not isinstance(whole, bool):
            problems.add(_event_where(i, "whole_hand"),
                         _("expected true or false, got {whole}").format(
                whole=repr(whole)))
        if len(problems.lines) > start:
            return None
        return Reveal(str(player), cards, bool(whole), extra=extra)
    by = raw.get("by")
    if not isinstance(by, str):
        problems.add(_event_where(i, "by"), _("expected a player name, got {by}").format(
            by=repr(by)))
    triple = _read_triple(raw, _event_where(i, "cards"), problems, game)
    if kind == "accusation":
        correct = raw.get("correct")
        if not isinstance(correct, bool):
            problems.add(_event_where(i, "correct"),
                         _("expected true or false, got {correct}").format(
                correct=repr(correct)))
        if len(problems.lines) > start or triple is None:
            return None
        return Accusation(str(by), triple, bool(correct), extra=extra)
    passes = _event_names(raw.get("passes", []), i, "passes", problems)
    refuted_by = raw.get("refuted_by")
    if refuted_by is not None and not isinstance(refuted_by, str):
        problems.add(_event_where(i, "refuted_by"),
                     _("expected a player name or null, got {refuted_by}").format(
            refuted_by=repr(refuted_by)))
    shown = raw.get("shown")
    if shown is not None and not isinstance(shown, str):
        problems.add(_event_where(i, "shown"),
                     _("expected a card name or null, got {shown}").format(
            shown=repr(shown)))
    rule = raw.get("shown_by_rule")
    if rule is not None and rule != FIRST_IN_ORDER:
        problems.add(_event_where(i, "shown_by_rule"),
                     _("expected {first_in_order} or null, got {rule}").format(
                         first_in_order=repr(FIRST_IN_ORDER), rule=repr(rule)))
    peek = _read_peek(i, raw.get("side_peek"), problems)
    if len(problems.lines) > start or triple is None:
        return None
    return Suggestion(str(by), triple, passes, refuted_by, shown, rule, peek, extra=extra)


def _read_note(
    i: int, raw: Mapping[str, Any], extra: dict[str, Any], problems: _Problems
) -> Note | None:
    """A note: an owner and exactly one of its lists (a missing or null list is not given)."""
    start = len(problems.lines)
    owner = raw.get("owner")
    if not isinstance(owner, str):
        problems.add(_event_where(i, "owner"),
                     _("expected a player, 'envelope' or 'side', got {owner}").format(
                         owner=repr(owner)))
    given = [key for key in NOTE_RELATIONS if raw.get(key) is not None]
    lists = {key: _event_names(raw[key], i, key, problems) for key in given}
    if len(given) != 1:
        got = join([repr(k) for k in given]) if given else _("none")
        problems.add(_event_where(i), _("a note needs exactly one of 'holds', 'lacks' or "
                                        "'holds_one_of', got {got}").format(got=got))
    elif raw[given[0]] == []:
        problems.add(_event_where(i, given[0]), _("a note needs at least one card"))
    text = raw.get("text")
    if text is not None and not isinstance(text, str):
        problems.add(_event_where(i, "text"), _("expected text or null, got {text}").format(
            text=repr(text)))
    if len(problems.lines) > start:
        return None
    return Note(str(owner), holds=lists.get("holds", ()), lacks=lists.get("lacks", ()),
                holds_one_of=lists.get("holds_one_of", ()), text=text, extra=extra)


def _read_peek(i: int, raw: object, problems: _Problems) -> SidePeek | None:
    if raw is None:
        return None
    where = _event_where(i, "side_peek")
    if not isinstance(raw, dict):
        problems.add(where, _("expected {{'slot': N, 'card': ...}}, got {raw}").format(
            raw=repr(raw)))
        return None
    slot, card = raw.get("slot"), raw.get("card")
    if not _is_count(slot):
        problems.add(where + ".slot", _("expected a side card number, got {slot}").format(
            slot=shorten(slot)))
        return None
    if card is not None and not isinstance(card, str):
        problems.add(where + ".card", _("expected a card name or null, got {card}").format(
            card=repr(card)))
        return None
    return SidePeek(slot, card)


# --- checking --------------------------------------------------------------------------------


def check(log: GameLog) -> None:
    """Raise `InvalidLogError` listing every rule the log breaks (names, sizes, event fields).

    A log that passes may still be contradictory: that is the engine's job to find.
    """
    problems = _Problems()
    _check(log, problems)
    problems.raise_if_any()


def unnoted_by_rule(log: GameLog, first: int = 1) -> tuple[int, ...]:
    """The numbers (from ``first``) of my questions the host answered by the order
    (``shown_by_rule``) with no card noted. The format lets ``shown`` be left out, so the log
    reads; but I was shown that card, and without it the rule tells nothing: the command line
    and the app ask for it (`cautions`).

    >>> from .editions import Dealing, editions, new_game
    >>> game = new_game(editions()["clue-classic"].deck, ("Ann", "Bob"), Dealing.CLASSIC,
    ...                 me="Ann", my_cards=("Rope",))
    >>> host = Suggestion("Ann", ("Mr. Green", "Knife", "Hall"), refuted_by="Bob",
    ...                   shown_by_rule=FIRST_IN_ORDER)
    >>> unnoted_by_rule(GameLog(game, (host, replace(host, shown="Knife"))))
    (1,)
    """
    me = log.game.me
    return tuple(n for n, event in enumerate(log.events, 1)
                 if n >= first and me is not None and isinstance(event, Suggestion)
                 and event.by == me and event.refuted_by is not None
                 and event.shown_by_rule is not None and event.shown is None)


def cautions(log: GameLog) -> tuple[str, ...]:
    """What a log that reads still lacks, each naming its field as a problem does: the command
    line prints them as warnings (`unnoted_by_rule`)."""
    said = _("{player} showed you a card by the host's rule (shown_by_rule), but which is not "
             "noted: add it; without it the rule tells nothing")
    return tuple(_event_where(n - 1, "shown") + ": " + said.format(player=event.refuted_by)
                 for n in unnoted_by_rule(log)
                 if isinstance(event := log.events[n - 1], Suggestion))


def _check(log: GameLog, problems: _Problems, *, sizes: bool = True) -> None:
    before = len(problems.lines)
    _check_limits(log, problems)
    if len(problems.lines) > before:
        return  # too large to look at further: refuse it before any work
    _check_setup(log.game, problems, sizes=sizes)
    if len(problems.lines) == before:
        for i, event in enumerate(log.events):
            _check_event(log.game, i, event, problems)


_TOO_MANY = {
    "cards": lambda: _("{count} cards; a game may have at most {limit}"),
    "players": lambda: _("{count} players; a game may have at most {limit}"),
    "events": lambda: _("{count} events; a game may have at most {limit}"),
}
_NONE_LEFT = {
    "suspect": lambda: _("every suspect is face up or in my hand, so none is left for the "
                         "envelope"),
    "weapon": lambda: _("every weapon is face up or in my hand, so none is left for the "
                        "envelope"),
    "room": lambda: _("every room is face up or in my hand, so none is left for the envelope"),
    "place": lambda: _("every place is face up or in my hand, so none is left for the envelope"),
}
"""A category all out of the envelope's reach; "place" is the forum variant's room
(`solver.editions.forum_dealt`)."""


def _check_limits(log: GameLog, problems: _Problems) -> None:
    """The sizes of `solver.limits`, and names that are text a screen and a file can hold."""
    game = log.game
    for where, count, limit in (
        ("cards", len(game.deck), MAX_CARDS),
        ("players", len(game.players), MAX_PLAYERS),
        ("events", len(log.events), MAX_EVENTS),
    ):
        if count > limit:
            problems.add(where, _TOO_MANY[where]().format(count=f"{count:,}", limit=f"{limit:,}"))
    named = [(f"cards.{c.plural}[{i}]", name)
             for c in CATEGORIES for i, name in enumerate(game.deck.of(c))]
    named += [(f"players[{i}].name", p.name) for i, p in enumerate(game.players)]
    for where, name in named:
        if (problem := text_problem(name)) is not None:
            problems.add(where, problem)
    if game.title is not None:
        problem = text_problem(game.title, limit=MAX_TEXT_CHARS, name=False)
        if problem is not None:
            problems.add("title", problem)


def _duplicates(names: Sequence[str]) -> list[str]:
    if len(set(names)) == len(names):  # the usual case, without counting
        return []
    return [name for name, n in Counter(names).items() if n > 1]


def _check_setup(game: Game, problems: _Problems, *, sizes: bool = True) -> None:
    deck = game.deck
    for cat in CATEGORIES:
        if not deck.of(cat):
            problems.add(f"cards.{cat.plural}", _("needs at least one card"))
    for card in _duplicates(deck.cards):
        problems.add("cards", _("card {card} is listed more than once").format(card=repr(card)))
    names = game.player_names
    if len(names) < 2:
        problems.add("players", _("at least 2 players are needed, got {count}").format(
            count=len(names)))
    for name in _duplicates(names):
        problems.add("players", _("player {name} is listed more than once").format(name=repr(name)))
    for i, name in enumerate(names):
        if name in RESERVED_OWNERS:
            problems.add(f"players[{i}].name",
                         _("{name} is reserved for the notebook's own column; please pick "
                                                 "another name").format(name=repr(name)))
    if game.me is not None and game.me not in names:
        problems.add("me", _("{me} is not one of the players").format(me=repr(game.me)))
    if game.me is None and game.my_cards:
        problems.add("my_cards", _("given without 'me': whose cards are they?"))
    for where, cards in (("my_cards", game.my_cards), ("face_up", game.face_up)):
        for j, card in enumerate(cards):
            if card not in deck:
                problems.add(f"{where}[{j}]", _("unknown card {card}").format(card=repr(card)))
        for card in _duplicates(cards):
            problems.add(where, _("card {card} is listed more than once").format(card=repr(card)))
    for card in set(game.my_cards) & set(game.face_up):
        problems.add("my_cards", _("card {card} is also face up").format(card=repr(card)))
    if game.me in names and len(game.my_cards) > game.capacity(game.me):
        problems.add("my_cards", _("{count} cards, but {me} was dealt {dealt}").format(
            count=len(game.my_cards), me=repr(game.me), dealt=game.capacity(game.me)))
    known = set(game.face_up) | set(game.my_cards)
    for cat in CATEGORIES:
        if deck.of(cat) and all(c in known for c in deck.of(cat)):
            kind = "place" if cat is Category.ROOM and forum_dealt(game) else cat.value
            problems.add(f"cards.{cat.plural}", _NONE_LEFT[kind]())
    total = sum(p.hand_size for p in game.players) + len(game.face_up) + game.side_cards + 3
    if sizes and deck.cards and total != len(deck):
        listing = " + ".join(str(p.hand_size) for p in game.players)
        problems.add("players", _("hand sizes ({listing}) + face-up cards ({face_up}) + "
                                  "side cards ({side_cards}) + 3 in the envelope = {total}, but "
                                  "the game has {cards} cards").format(
                                      listing=listing, face_up=len(game.face_up),
                                      side_cards=game.side_cards, total=total,
                                      cards=len(deck)))


def _check_event(game: Game, i: int, event: Event, problems: _Problems) -> None:
    players = set(game.player_names)

    def player(key: str, name: str) -> None:
        if name not in players:
            problems.add(_event_where(i, key), _("unknown player {name}").format(name=repr(name)))

    def card(key: str, name: str) -> bool:
        if name not in game.deck:
            problems.add(_event_where(i, key), _("unknown card {name}").format(name=repr(name)))
            return False
        return True

    if isinstance(event, Reveal):
        player("player", event.player)
        if not event.cards:
            problems.add(_event_where(i, "cards"), _("a reveal needs at least one card"))
        for j, name in enumerate(event.cards):
            card(f"cards[{j}]", name)
        for name in _duplicates(event.cards):
            problems.add(_event_where(i, "cards"), _("card {name} is listed more than once").format(
                name=repr(name)))
        return
    if isinstance(event, Note):
        _check_note(game, i, event, problems)
        return
    player("by", event.by)
    known = [card(f"cards[{j}]", name) for j, name in enumerate(event.cards)]
    if all(known):
        got = [game.category_of(c).value for c in event.cards]
        if sorted(got) != sorted(c.value for c in CATEGORIES):
            places = forum_dealt(game)  # the forum variant's rooms are places
            kinds = ["place" if places and k == Category.ROOM.value else k for k in got]
            listing = ", ".join(f"{c!r} ({k})" for c, k in zip(event.cards, kinds, strict=True))
            problems.add(_event_where(i, "cards"),
                         (_("needs one suspect, one weapon and one place, got {listing}")
                          if places else
                          _("needs one suspect, one weapon and one room, got {listing}")).format(
                             listing=listing))
    if isinstance(event, Accusation):
        return
    for j, name in enumerate(event.passes):
        player(f"passes[{j}]", name)
        if name == event.by:
            problems.add(_event_where(i, f"passes[{j}]"),
                         _("{name} made the suggestion and cannot also pass").format(
                             name=repr(name)))
        if name == event.refuted_by:
            problems.add(_event_where(i, f"passes[{j}]"),
                         _("{name} cannot both pass and refute").format(name=repr(name)))
    for name in _duplicates(event.passes):
        problems.add(_event_where(i, "passes"), _("player {name} is listed more than once").format(
            name=repr(name)))
    if event.refuted_by is not None:
        player("refuted_by", event.refuted_by)
        if event.refuted_by == event.by:
            problems.add(_event_where(i, "refuted_by"),
                         _("{by} cannot refute their own suggestion").format(by=repr(event.by)))
    if event.shown is not None:
        if event.refuted_by is None:
            problems.add(_event_where(i, "shown"),
                         _("{shown} was shown, but refuted_by is null").format(
                             shown=repr(event.shown)))
        elif event.shown not in event.cards:
            problems.add(_event_where(i, "shown"),
                         _("{shown} is not one of the suggested cards {cards}").format(
                             shown=repr(event.shown), cards=list(event.cards)))
    if event.shown_by_rule is not None and event.refuted_by is None:
        problems.add(_event_where(i, "shown_by_rule"),
                     _("needs the player who showed a card ('refuted_by')"))
    peek = event.side_peek
    if peek is not None:
        if game.side_cards == 0:
            problems.add(_event_where(i, "side_peek"), _("this game has no side cards"))
        elif not 1 <= peek.slot <= game.side_cards:
            problems.add(_event_where(i, "side_peek.slot"),
                         _("slot {slot} is not between 1 and {side_cards}").format(
                             slot=peek.slot, side_cards=game.side_cards))
        if event.refuted_by is not None:
            problems.add(_event_where(i, "side_peek"),
                         _("side cards are looked at only when nobody refuted"))
        if peek.card is not None:
            card("side_peek.card", peek.card)


def _check_note(game: Game, i: int, note: Note, problems: _Problems) -> None:
    owner = note.owner
    if owner == SIDE and not game.side_cards:
        problems.add(_event_where(i, "owner"), _("'side': this game has no side cards"))
    elif owner not in game.owners:
        problems.add(_event_where(i, "owner"), (
            _("unknown owner {owner} (expected a player, 'envelope' or 'side')")
            if game.side_cards else _("unknown owner {owner} (expected a player or 'envelope')")
        ).format(owner=repr(owner)))
    given = [key for key in NOTE_RELATIONS if getattr(note, key)]
    if len(given) != 1:
        got = join([repr(k) for k in given]) if given else _("none")
        problems.add(_event_where(i), _("a note needs exactly one of 'holds', 'lacks' or "
                                        "'holds_one_of', got {got}").format(got=got))
    for key in given:
        cards: tuple[str, ...] = getattr(note, key)
        for j, name in enumerate(cards):
            if name not in game.deck:
                problems.add(_event_where(i, f"{key}[{j}]"), _("unknown card {name}").format(
                    name=repr(name)))
        for name in _duplicates(cards):
            problems.add(_event_where(i, key), _("card {name} is listed more than once").format(
                name=repr(name)))
    if note.holds and owner in game.owners and len(note.holds) > game.capacity(owner):
        too_many = (
            _("{count} cards, but the envelope holds {capacity}") if owner == ENVELOPE else
            _("{count} cards, but there are {capacity} side cards") if owner == SIDE else
            _("{count} cards, but {player} holds {capacity}"))
        problems.add(_event_where(i, "holds"), too_many.format(
            count=len(note.holds), capacity=game.capacity(owner), player=repr(owner)))
    if note.text is not None and not isinstance(note.text, str):
        problems.add(_event_where(i, "text"), _("expected text or null, got {text}").format(
            text=repr(note.text)))
    elif note.text is not None:
        problem = text_problem(note.text, limit=MAX_TEXT_CHARS, name=False)
        if problem is not None:
            problems.add(_event_where(i, "text"), problem)


# --- writing ---------------------------------------------------------------------------------


def to_json(log: GameLog) -> dict[str, Any]:
    """The log as a JSON-ready object, in the field order of the format page."""
    game = log.game
    out: dict[str, Any] = {"format": FORMAT}
    if game.title is not None:
        out["title"] = game.title
    if game.edition is not None:
        out["edition"] = game.edition
    out["cards"] = {c.plural: list(game.deck.of(c)) for c in CATEGORIES}
    out["players"] = [{"name": p.name, "hand_size": p.hand_size} for p in game.players]
    if game.me is not None:
        out["me"] = game.me
        out["my_cards"] = list(game.my_cards)
    out["face_up"] = list(game.face_up)
    out["side_cards"] = game.side_cards
    out.update(game.extra)
    out["events"] = [event_to_json(e) for e in log.events]
    return out


def event_to_json(event: Event) -> dict[str, Any]:
    """One event as a JSON-ready object."""
    out: dict[str, Any]
    if isinstance(event, Reveal):
        out = {"type": "reveal", "player": event.player, "cards": list(event.cards),
               "whole_hand": event.whole_hand}
    elif isinstance(event, Accusation):
        out = {"type": "accusation", "by": event.by, "cards": list(event.cards),
               "correct": event.correct}
    elif isinstance(event, Note):
        out = {"type": "note", "owner": event.owner}
        for key in NOTE_RELATIONS:
            if getattr(event, key):
                out[key] = list(getattr(event, key))
        if event.text is not None:
            out["text"] = event.text
    else:
        out = {"type": "suggestion", "by": event.by, "cards": list(event.cards),
               "passes": list(event.passes), "refuted_by": event.refuted_by}
        if event.shown is not None:
            out["shown"] = event.shown
        if event.shown_by_rule is not None:
            out["shown_by_rule"] = event.shown_by_rule
        if event.side_peek is not None:
            peek: dict[str, Any] = {"slot": event.side_peek.slot}
            if event.side_peek.card is not None:
                peek["card"] = event.side_peek.card
            out["side_peek"] = peek
    out.update(event.extra)
    return out


def dumps(log: GameLog) -> str:
    """The log as pretty-printed UTF-8 JSON text (names are kept as written, not escaped)."""
    return json.dumps(to_json(log), ensure_ascii=False, indent=2) + "\n"


def save(log: GameLog, path: str | Path) -> None:
    """Write a log file."""
    Path(path).write_text(dumps(log), encoding="utf-8")
