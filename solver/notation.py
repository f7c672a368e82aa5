"""A line notation for a whole game, the way PGN is for chess (``docs/notation.md``).

A header of ``key: value`` lines, then one line per event::

    title: Friday game
    edition: clue-classic
    players: Ann 6, Bob 6, Cid 6
    me: Ann
    my cards: Plum Knife Hall Rope Study Lounge

    Ann: Scarlet Pipe Kitchen / Bob - Cid + Pipe
    Bob accuses Green Rope Hall: wrong

Cards are named by any unique prefix of the name or of one of its words (case and accents do
not matter), or in full; a name of several words may be typed as words or in double quotes.
`write_text` uses each card's shortest readable word that no other card shares.

>>> log = read_text('''edition: clue-classic
... players: Ann 6, Bob 6, Cid 6
... me: Ann
... my cards: plum knife hall rope study lounge
...
... Ann: scar pipe kitch / Bob - Cid + Pipe''')
>>> log.events[0]
Suggestion(by='Ann', cards=('Miss Scarlet', 'Lead Pipe', 'Kitchen'), passes=('Bob',), \
refuted_by='Cid', shown='Lead Pipe', shown_by_rule=None, side_peek=None)
>>> print(write_text(log), end="")
edition: clue-classic
players: Ann 6, Bob 6, Cid 6
me: Ann
my cards: Plum Knife Hall Rope Study Lounge
<BLANKLINE>
Ann: Scarlet Pipe Kitchen / Bob - Cid + Pipe
>>> read_text("edition: clue-classic\\nplayers: Ann 9, Bob 9\\n\\nAnn: Plumb Rope Hall")
Traceback (most recent call last):
...
solver.notation.NotationError: line 4, column 6: expected a card, got 'Plumb': did you mean \
Professor Plum?
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NoReturn, TypeVar

from .cards import CATEGORIES, Deck
from .editions import editions, forum_dealt, preset
from .errors import InvalidLogError
from .game import (
    ENVELOPE,
    FIRST_IN_ORDER,
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
)
from .i18n import _, join
from .limits import MAX_FILE_BYTES, shorten
from .logfile import MAX_PROBLEMS, check, json_said, json_value, not_utf8
from .logfile import is_json as is_json  # reading either format lives in logfile;
from .logfile import read_log_any as read_log_any  # these names stay here too
from .values import Value, field_names, replace

COMMENT = "comment"
"""The ``extra`` field that keeps ``#`` comments (a JSON log shows them as ``"comment"``)."""

_HEADER_KEYS = {
    "title": "title", "edition": "edition", "suspects": "suspects", "weapons": "weapons",
    "rooms": "rooms", "players": "players", "me": "me", "my cards": "my_cards",
    "face up": "face_up", "side cards": "side_cards", "extra": "extra",
}
_TOP_KEYS = {
    "format", "title", "edition", "cards", "players", "me", "my_cards", "face_up",
    "side_cards", "events",
}
_KEYWORDS = ("accuses", "reveals", "note")
_SPECIAL = set(':/[],{}"')
_WORD = re.compile(r'[^\s:/\[\],{}"]+')
"""A word: the characters up to a space (``str.isspace``, as ``\\s`` matches) or a mark."""
_RIGHT = {"right": True, "correct": True, "wrong": False, "incorrect": False}


# --- errors ----------------------------------------------------------------------------------


class Problem(Value):
    """One syntax error: where, what was expected, what was there, and a likely fix."""

    __slots__ = ("column", "expected", "got", "line", "suggestion")
    line: int
    """1-based line number."""
    column: int
    """1-based column (in characters)."""
    expected: str
    """What the reader expected there, e.g. ``"a card"``."""
    got: str | None
    """What it found, as typed (``None`` at the end of the line)."""
    suggestion: str | None
    """The name the writer probably meant, if one is close."""

    def __init__(self, line: int, column: int, expected: str, got: str | None = None,
                 suggestion: str | None = None) -> None:
        self._set(line, column, expected, got, suggestion)

    def __str__(self) -> str:
        found = _("the end of the line") if self.got is None else shorten(self.got, 80)
        if self.suggestion is None:
            return _("line {line}, column {column}: expected {expected}, got {found}").format(
                line=self.line, column=self.column, expected=self.expected, found=found)
        return _("line {line}, column {column}: expected {expected}, got {found}: did you mean "
                 "{suggestion}?").format(line=self.line, column=self.column,
                                         expected=self.expected, found=found,
                                         suggestion=self.suggestion)


class NotationError(InvalidLogError):
    """The text is not valid notation. ``errors`` holds every error found (one per line),
    ``problems`` says the first `MAX_PROBLEMS` of them in words, then how many more (a pasted
    200-line JSON log listed 199 problems); ``line``, ``column``, ``expected`` and
    ``suggestion`` describe the first.

    >>> err = NotationError([Problem(3, 5, "a card", "Plumb", "Professor Plum")])
    >>> err.line, err.column, err.expected, err.suggestion
    (3, 5, 'a card', 'Professor Plum')
    >>> many = NotationError([Problem(n, 1, "a player", "x") for n in range(1, 61)])
    >>> len(many.errors), len(many.problems), many.problems[-1]
    (60, 51, '… and 10 more problems')
    """

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.errors: tuple[Problem, ...] = tuple(problems)
        first = self.errors[0]
        self.line = first.line
        self.column = first.column
        self.expected = first.expected
        self.suggestion = first.suggestion
        said = [str(p) for p in self.errors[:MAX_PROBLEMS]]
        if len(self.errors) > MAX_PROBLEMS:
            said.append(_("… and {more} more problems").format(
                more=len(self.errors) - MAX_PROBLEMS))
        super().__init__(said)


class _Stop(Exception):
    """Ends the reading of one line at its first error (the reader moves on to the next)."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem


# --- names -----------------------------------------------------------------------------------


def fold(text: str) -> str:
    """A name as the reader compares it: no case, no accents, one space between words.

    >>> fold("  Päivä  PERHONEN "), fold("Верёвка")
    ('paiva perhonen', 'веревка')
    """
    if text.isascii():
        return " ".join(text.casefold().split())
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def _exact(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


def _words(name: str) -> list[str]:
    words = [w.strip(".,;'\u2019\"()«»") for w in fold(name).split()]
    return [w for w in words if w]


class Names:
    """Resolves what a person typed to one name of a set (cards, or players and owners).

    In order, the first rule that matches anything decides: the whole name (case-insensitive),
    the whole name without accents, a whole word of the name, then a prefix of the name or of
    its words (several typed words: prefixes of consecutive words, ``Col Must``).

    >>> cards = Names(["Mrs. White", "Mrs. Peacock", "Lead Pipe", "Dining Room"])
    >>> cards.match(["pipe"]), cards.match(["Mrs", "W"]), sorted(cards.match(["mrs"]))
    ({'Lead Pipe'}, {'Mrs. White'}, ['Mrs. Peacock', 'Mrs. White'])
    """

    def __init__(self, names: Iterable[str]) -> None:
        self.names = tuple(names)
        self._words = {name: _words(name) for name in self.names}
        self._exact = {name: _exact(name) for name in self.names}
        self._folded = {name: fold(name) for name in self.names}
        self._seen: dict[tuple[str, ...], frozenset[str]] = {}
        self._prefixes: dict[str, set[str]] | None = None
        self.longest = max((max(len(n.split()), len(self._exact[n].split()),
                                len(self._folded[n].split()), len(self._words[n]))
                            for n in self.names), default=1)
        """The most words a name has, however it is compared: more typed words (not counting
        any that fold to nothing) never name one."""
        # the whole-name and whole-word rules by lookup (most typed names are one of these)
        self._index: tuple[dict[str, set[str]], ...] = ({}, {}, {}, {})
        for name in self.names:
            keys = (name, self._exact[name], self._folded[name])
            for index, key in zip(self._index, keys, strict=False):
                index.setdefault(key, set()).add(name)
            for word in self._words[name]:
                self._index[3].setdefault(word, set()).add(name)

    def match(self, typed: Sequence[str]) -> set[str]:
        """Every name the typed words could mean, by the first rule that matches any."""
        key = tuple(typed)
        if key not in self._seen:
            self._seen[key] = frozenset(self._match(typed))
        return set(self._seen[key])

    def _match(self, typed: Sequence[str]) -> set[str]:
        phrase = " ".join(typed)
        words = [_words(t) for t in typed]
        flat = [w for group in words for w in group]
        keys = [phrase, _exact(phrase), fold(phrase)]
        if len(typed) == 1 and len(flat) == 1:
            keys.append(flat[0])
        for index, key in zip(self._index, keys, strict=False):
            if key in index:  # the whole name as typed, without case, without accents; a word
                return set(index[key])
        if not flat or not all(words):  # nothing typed (the command line's "" or "  ") names
            return set()  # no name: flat[0] was an IndexError
        longer = [name for name in self._starting(flat[0]) if len(self._words[name]) >= len(flat)]
        if len(flat) > 1:
            found = {name for name in longer if self._spans(name, flat, str.__eq__)}
            if found:
                return found
        single = len(typed) == 1
        return {name for name in longer if self._spans(name, flat, str.startswith)} | {
            name for name in self.names if single and self._folded[name].startswith(keys[2])}

    def _starting(self, typed: str) -> set[str]:
        """The names with a word that begins with ``typed``: the only ones a span can match."""
        if self._prefixes is None:
            self._prefixes = {}
            for name in self.names:
                for word in self._words[name]:
                    for end in range(1, len(word) + 1):
                        self._prefixes.setdefault(word[:end], set()).add(name)
        return self._prefixes.get(typed, set())

    def _spans(self, name: str, typed: list[str], same: Callable[[str, str], bool]) -> bool:
        own = self._words[name]
        return any(
            all(same(own[start + i], t) for i, t in enumerate(typed))
            for start in range(len(own) - len(typed) + 1)
        )

    def closest(self, typed: str) -> str | None:
        """The name closest to a misspelling (``difflib``), if any is close enough."""
        keys: dict[str, str] = {}
        for name in self.names:
            keys.setdefault(fold(name), name)
            for word in self._words[name]:
                if len(word) > 2:
                    keys.setdefault(word, name)
        from difflib import get_close_matches  # only on an error: not at every start-up

        found = get_close_matches(fold(typed), list(keys), n=1, cutoff=0.6)
        return keys[found[0]] if found else None

    def short(self, name: str) -> str | None:
        """The shortest readable word that names ``name`` alone: for several words, the last
        (a surname, ``Plum``) unless it is shorter than 3 letters or shared, then the others."""
        written = [w for w in name.split() if _safe_word(w)]
        if len(written) != len(name.split()) or name != " ".join(written):
            return None
        if len(written) == 1:
            return name if self.match([name]) == {name} else None
        order = [written[-1], written[0], *written[1:-1]]
        order.sort(key=lambda w: len(fold(w)) < 3)
        for word in order:
            if self.match([word]) == {name}:
                return word
        return None


def _safe_word(word: str) -> bool:
    """Whether a word reads back as itself outside quotes."""
    return (
        bool(word)
        and not any(c in _SPECIAL or c.isspace() for c in word)
        and not word.startswith("#")
        and word[-1] not in "+-"
    )


# --- tokens ----------------------------------------------------------------------------------


class Token(Value):
    """A word, a quoted name, a punctuation mark, a JSON object or a note's text."""

    __slots__ = ("column", "kind", "text", "value")
    kind: str
    """``word``, ``quoted``, ``mark`` (one of ``: / [ ] , + -``), ``json`` or ``text``."""
    text: str
    """As typed (for ``quoted``, the name inside the quotes)."""
    column: int
    """1-based."""
    value: Any
    """The decoded object of a ``json`` token."""

    def __init__(self, kind: str, text: str, column: int, value: Any = None) -> None:
        self._set(kind, text, column, value)


def _json_object(text: str, i: int, number: int) -> tuple[object, int]:
    """The JSON value at ``text[i]`` (a ``{``) on line ``number`` and where it ends, read as a
    JSON log's are (`solver.logfile.json_value`): too deep, a number too long or half of a
    surrogate pair is a problem of the line, as text that is not JSON is."""
    try:
        return json_value(text, i)
    except json.JSONDecodeError as err:
        raise _Stop(Problem(number, err.pos + 1, _("a JSON object ({error})").format(
            error=json_said(err)), text[i:])) from None
    except InvalidLogError as err:
        raise _Stop(Problem(number, i + 1, _("a JSON object ({error})").format(
            error=err.problems[0]), text[i:])) from None


class _Line(Value):
    __slots__ = ("comment", "number", "tokens")
    number: int
    tokens: list[Token]
    comment: str | None

    def __init__(self, number: int, tokens: list[Token], comment: str | None) -> None:
        self._set(number, tokens, comment)


def _tokens(text: str, number: int, *, note: bool = False) -> _Line:
    """Split one line; ``#`` after a space starts a comment; on a note line the first ``:``
    starts the free text, which runs to the end of the line."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        col = i + 1
        if c.isspace():
            i += 1
        elif c == "#" and (i == 0 or text[i - 1].isspace()):
            comment = text[i + 1 :]
            return _Line(number, tokens, comment[1:] if comment.startswith(" ") else comment)
        elif c == '"':
            try:
                value, i = _scanstring(text, i + 1)
            except json.JSONDecodeError:
                raise _Stop(Problem(number, col, _("a closing quote"), text[i:])) from None
            if not_utf8(value):  # half of a surrogate pair: no page or file holds it
                raise _Stop(Problem(number, col, _("quoted text without half of a UTF-16 "
                                                   "surrogate pair"), text[col - 1 :]))
            tokens.append(Token("quoted", value, col))
        elif c == "{":
            extra, i = _json_object(text, i, number)
            tokens.append(Token("json", text[col - 1 : i], col, extra))
        elif c == ":" and note:
            tokens.append(Token("mark", ":", col))
            tokens.append(Token("text", text[i + 1 :].strip(), col + 1))
            return _Line(number, tokens, None)
        elif c in _SPECIAL:
            tokens.append(Token("mark", c, col))
            i += 1
        else:
            found = _WORD.match(text, i)
            assert found is not None  # c is neither a space nor a mark
            word, j = found[0], found.end()
            if word in ("+", "-"):
                tokens.append(Token("mark", word, col))
            elif word[-1] in "+-":
                tokens.append(Token("word", word[:-1], col))
                tokens.append(Token("mark", word[-1], col + len(word) - 1))
            else:
                tokens.append(Token("word", word, col))
            i = j
    return _Line(number, tokens, None)


def _json(value: object) -> str:
    """JSON on one line that stays one line: characters that are not printable (line and
    paragraph separators too) are escaped, everything else is kept as written."""
    text = json.dumps(value, ensure_ascii=False)
    return "".join(c if c.isprintable() else json.dumps(c) [1:-1] for c in text)


_scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]


def _quote(name: str) -> str:
    return _json(name)


# --- reading ---------------------------------------------------------------------------------


def read_text(text: str) -> GameLog:
    """Read a game in notation; `NotationError` lists every syntax error (line, column, what
    was expected, a likely card), `InvalidLogError` a rule the game breaks (line first)."""
    if len(text) > MAX_FILE_BYTES:
        raise InvalidLogError([_("notation: longer than the {limit} characters a log "
                                 "may have").format(limit=f"{MAX_FILE_BYTES:,}")])
    return _Reader(text).read()


class _Header:
    """The header lines read so far: each key's line number and value, and # comments."""

    def __init__(self) -> None:
        self.values: dict[str, tuple[int, str]] = {}
        self.comments: list[str] = []


class _Reader:
    def __init__(self, text: str) -> None:
        self.lines = text.removeprefix("\ufeff").splitlines()
        self.problems: list[Problem] = []
        self.deck = Deck((), (), ())
        self.cards = Names(())
        self.players = Names(())
        self.owners = Names(())
        self.places = False
        """Whether the game's third kind of card is places (`solver.editions.forum_dealt`)."""

    # the whole text

    def read(self) -> GameLog:
        header = _Header()
        events: list[tuple[int, Event]] = []
        comments: list[str] = []
        in_events = False
        game: Game | None = None
        for number, raw in enumerate(self.lines, 1):
            stripped = raw.strip()
            if not stripped:
                continue
            if stripped.startswith("#"):
                comment = stripped[1:]
                comment = comment[1:] if comment.startswith(" ") else comment
                comments.append(comment.rstrip())
                continue
            key = self._header_key(raw)
            if not in_events and key is None:
                key = self._misspelt_header(raw, number, header)
            elif not in_events and key in header.values and _seated(raw, header):
                key = None  # a player called "Me": the header has ended
            if not in_events and key is not None:
                header.comments.extend(comments)
                comments.clear()
                self._header_line(header, number, key, raw)
                continue
            if not in_events:
                in_events = True
                game = self._game(header)
                self.places = game is not None and forum_dealt(game)
            if key is not None and not (game and self.players.match([raw.split(":")[0]])):
                self.problems.append(Problem(
                    number, 1, _("an event (header lines go before the first event)"),
                    raw.strip()))
                continue
            if game is None:
                break  # the header is wrong: event lines would only repeat its errors
            try:
                event = self._event(raw, number)
            except _Stop as stop:
                self.problems.append(stop.problem)
                comments.clear()
                continue
            if comments:
                event = _event_with_comment(event, "\n".join(comments))
                comments.clear()
            events.append((number, event))
        if not in_events:
            game = self._game(header)
        if comments and game is not None:
            game = _with_comment(game, "\n".join(comments))
        if self.problems or game is None:
            raise NotationError(self.problems or [Problem(1, 1, _("a game"), None)])
        log = GameLog(game, tuple(e for _, e in events))
        try:
            check(log)
        except InvalidLogError as err:
            raise InvalidLogError([self._where(p, header, events) for p in err.problems]) from None
        return log

    def _where(self, problem: str, header: _Header, events: list[tuple[int, Event]]) -> str:
        """A rule problem with the line it comes from in front."""
        found = re.match(r"\S+ (\d+) \(events\[\d+\]\.?(.*?)\): (.*)", problem)  # any language
        if found:
            number = events[int(found[1]) - 1][0]
            if found[2]:
                return _("line {line}: event {n} ({field}): {problem}").format(
                    line=number, n=found[1], field=found[2], problem=found[3])
            return _("line {line}: event {n}: {problem}").format(line=number, n=found[1],
                                                                problem=found[3])
        key = problem.split(":")[0].split("[")[0].split(".")[0]
        if key == "cards":
            key = next((k for k in ("suspects", "weapons", "rooms", "edition")
                        if k in header.values), key)
        if key in header.values:
            return _("line {line}: {problem}").format(line=header.values[key][0], problem=problem)
        return problem

    # the header

    @staticmethod
    def _header_key(raw: str) -> str | None:
        found = re.match(r"\s*([^\W\d][\w ]*?)\s*:", raw)
        if not found:
            return None
        return _HEADER_KEYS.get(" ".join(found[1].casefold().replace("_", " ").split()))

    def _misspelt_header(self, raw: str, number: int, header: _Header) -> str | None:
        """The header key a line probably meant (``player:`` for a missing ``players:``),
        recorded as a problem; ``None`` for a line that does not look like one."""
        found = re.match(r"\s*([^\W\d][\w ]*?)\s*:", raw)
        if found is None or _seated(raw, header):  # a seated player's turn: the events begin
            return None
        from difflib import get_close_matches

        typed = " ".join(found[1].casefold().replace("_", " ").split())
        close = get_close_matches(typed, list(_HEADER_KEYS), n=1, cutoff=0.75)
        if not close or _HEADER_KEYS[close[0]] in header.values:
            return None
        self.problems.append(Problem(number, 1, _("a header line or an event"), found[1],
                                     f"{close[0]}:"))
        return _HEADER_KEYS[close[0]]

    def _header_line(self, header: _Header, number: int, key: str, raw: str) -> None:
        if key in header.values:
            label = raw.split(":", 1)[0].strip()
            self.problems.append(Problem(
                number, 1, _("one '{label}:' line (the first is line {first})").format(
                    label=label, first=header.values[key][0]), raw.strip()))
            return
        value = raw.split(":", 1)[1].strip()
        if key not in ("title", "extra"):
            value, comment = _split_comment(value)
            if comment is not None:
                header.comments.append(comment)
        header.values[key] = (number, value)

    def _value_column(self, number: int) -> int:
        raw = self.lines[number - 1]
        after = raw[raw.index(":") + 1 :]
        return raw.index(":") + 2 + len(after) - len(after.lstrip())

    def _game(self, header: _Header) -> Game | None:
        """The setup from the header; ``None`` (problems recorded) when it is not readable."""
        start = len(self.problems)
        values = header.values
        text = {k: v for k, (_, v) in values.items()}
        edition_name = text.get("edition")
        lists = [text.get(c.plural) for c in CATEGORIES]
        if any(x is not None for x in lists):
            deck = Deck(*(self._plain_list(c.plural, values) for c in CATEGORIES))
        elif edition_name is not None:
            found = preset(edition_name)
            if found is None:
                known = ", ".join(sorted(editions()))
                from difflib import get_close_matches

                close = get_close_matches(edition_name, list(editions()), n=1)
                self.problems.append(Problem(values["edition"][0], self._value_column(
                    values["edition"][0]), _("an edition ({known})").format(
                        known=known), edition_name,
                    close[0] if close else None))
                return None
            deck = found.deck
        else:  # said of the first line written: "got the end of the line" said of "hello"
            number, first = next(((n, raw.strip()) for n, raw in enumerate(self.lines, 1)
                                  if raw.strip() and not raw.lstrip().startswith("#")), (1, None))
            self.problems.append(Problem(
                number, 1, _("an 'edition:' line or 'suspects:', 'weapons:' and 'rooms:' lines"),
                first))
            return None
        self.deck = deck
        self.cards = Names(deck.cards)
        players = self._players(values)
        self.players = Names(p.name for p in players)
        self.owners = Names([*self.players.names, ENVELOPE, SIDE])
        me = None
        if "me" in values:
            number, typed = values["me"]
            try:
                me = self._one(self._items(typed, number, self._value_column(number)),
                               self.players, _("a player"), number)
            except _Stop as stop:
                self.problems.append(stop.problem)
        side = 0
        if "side_cards" in values:
            number, typed = values["side_cards"]
            if not _whole(typed):
                self.problems.append(Problem(number, self._value_column(number),
                                             _("a whole number of side cards"), typed))
            else:
                side = int(typed)
        extra: dict[str, object] = {}
        if "extra" in values:
            extra = self._extra(values["extra"], _TOP_KEYS)
        if header.comments:
            if COMMENT in extra:
                self.problems.append(Problem(values["extra"][0], 1,
                                             _("a comment either in 'extra' or as # lines"),
                                             COMMENT))
            extra[COMMENT] = "\n".join(header.comments)
        title = None
        if "title" in values:
            title = _maybe_json_string(values["title"][1])
        if len(self.problems) > start:
            return None
        return Game(
            deck=deck,
            players=players,
            me=me,
            my_cards=self._card_list(values.get("my_cards")),
            face_up=self._card_list(values.get("face_up")),
            side_cards=side,
            title=title,
            edition=edition_name,
            extra=extra,
        )

    def _extra(self, where: tuple[int, str], known: set[str]) -> dict[str, object]:
        number, typed = where
        try:
            value, _end = json_value(typed, whole=True)
        except json.JSONDecodeError as err:
            self.problems.append(Problem(number, self._value_column(number) + err.pos,
                                         _("a JSON object ({error})").format(
                                             error=json_said(err)), typed))
            return {}
        except InvalidLogError as err:
            self.problems.append(Problem(number, self._value_column(number),
                                         _("a JSON object ({error})").format(
                                             error=err.problems[0]), typed))
            return {}
        if not isinstance(value, dict):
            self.problems.append(Problem(number, self._value_column(number), _("a JSON object"),
                                         typed))
            return {}
        clash = sorted(set(value) & known)
        if clash:
            self.problems.append(Problem(number, self._value_column(number),
                                         _("only fields the notation has no line for"),
                                         clash[0]))
        return value

    def _items(self, typed: str, number: int, column: int) -> list[list[Token]]:
        """Comma-separated items of a header value, each a list of words and quoted names."""
        try:
            tokens = _tokens(typed, number).tokens
        except _Stop as stop:
            self.problems.append(replace(stop.problem, column=stop.problem.column + column - 1))
            return []
        items: list[list[Token]] = [[]]
        for token in tokens:
            token = replace(token, column=token.column + column - 1)
            if _is_mark(token, ","):
                items.append([])
            elif token.kind in ("word", "quoted"):
                items[-1].append(token)
            else:
                self.problems.append(Problem(number, token.column, _("a name"), token.text))
                return []
        return items if any(items) else []

    def _plain_list(self, key: str, values: Mapping[str, tuple[int, str]]) -> tuple[str, ...]:
        """A deck line: full names separated by commas, as written (quotes allowed)."""
        if key not in values:
            self.problems.append(Problem(max(n for n, _ in values.values()), 1,
                                         _("a '{key}:' line beside the other card lists").format(
                                             key=key), None))
            return ()
        number, typed = values[key]
        names = []
        for item in self._items(typed, number, self._value_column(number)):
            if len(item) == 1 and item[0].kind == "quoted":
                names.append(item[0].text)
            elif item:
                first = item[0].column - self._value_column(number)
                last = item[-1].column - self._value_column(number) + len(item[-1].text)
                names.append(typed[first:last])
        return tuple(names)

    def _players(self, values: Mapping[str, tuple[int, str]]) -> tuple[Player, ...]:
        if "players" not in values:
            self.problems.append(Problem(1, 1, _("a 'players:' line (Ann 6, Bob 6, ...)"), None))
            return ()
        number, typed = values["players"]
        players = []
        for item in self._items(typed, number, self._value_column(number)):
            size = item[-1] if item else None
            if size is None or size.kind != "word" or not _whole(size.text) or len(item) < 2:
                column = size.column if size else self._value_column(number)
                self.problems.append(Problem(number, column,
                                             _("a player's name and hand size (Ann 6)"),
                                             size.text if size else None))
                continue
            names = item[:-1]
            if len(names) == 1 and names[0].kind == "quoted":
                name = names[0].text
            else:
                start = names[0].column - self._value_column(number)
                end = names[-1].column - self._value_column(number) + len(names[-1].text)
                name = typed[start:end]
            players.append(Player(name, int(size.text)))
        return tuple(players)

    def _card_list(self, where: tuple[int, str] | None) -> tuple[str, ...]:
        if where is None:
            return ()
        number, typed = where
        try:
            items = self._items(typed, number, self._value_column(number))
            return tuple(c for item in items for c in self._cards(item, number))
        except _Stop as stop:
            self.problems.append(stop.problem)
            return ()

    # events

    def _event(self, raw: str, number: int) -> Event:
        first = raw.split(maxsplit=1)
        is_note = (fold(first[0]) == "note" and len(first) > 1
                   and not first[1].lstrip().startswith(":"))
        line = _tokens(raw, number, note=is_note)
        if not line.tokens:
            raise _Stop(Problem(number, 1, _("an event"), raw.strip()))
        tokens = line.tokens
        extra: dict[str, object] = {}
        json_at = [i for i, t in enumerate(tokens) if t.kind == "json"]
        text_token = tokens.pop() if tokens[-1].kind == "text" else None
        if text_token is not None:
            tokens.pop()  # its colon
        if json_at:
            i = json_at[0]
            if i != len(tokens) - 1 or not isinstance(tokens[i].value, dict):
                raise _Stop(Problem(number, tokens[i].column,
                                    _("one JSON object of extra fields at the end of the line"),
                                    tokens[i].text))
            extra = tokens.pop().value
        if is_note:
            event: Event = self._note(tokens[1:], number, text_token, raw)
        else:
            event = self._turn(tokens, number)
        known = {"type", *(_fields(event))}
        clash = sorted(set(extra) & known)
        if clash:
            raise _Stop(Problem(number, raw.index("{") + 1,
                                _("only fields the notation has no words for"), clash[0]))
        if line.comment is not None:
            if COMMENT in extra:
                raise _Stop(Problem(number, len(raw), _("a comment either in {...} or after #"),
                                    COMMENT))
            extra[COMMENT] = line.comment.rstrip()
        return replace(event, extra=extra) if extra else event

    def _turn(self, tokens: list[Token], number: int) -> Event:
        """``BY: cards / answers [tags]``, ``BY accuses cards: right`` or ``BY reveals ...``."""
        for i, token in enumerate(tokens):
            if _is_mark(token, ":"):
                by = self._one([tokens[:i]], self.players, _("a player"), number)
                return self._suggestion(by, tokens[i + 1 :], number, token.column)
            if token.kind == "word" and fold(token.text) in ("accuses", "reveals") and i:
                by = self._one([tokens[:i]], self.players, _("a player"), number)
                rest = tokens[i + 1 :]
                if fold(token.text) == "accuses":
                    return self._accusation(by, rest, number, token)
                return self._reveal(by, rest, number, token)
            if token.kind not in ("word", "quoted"):
                break
        bad = next((t for t in tokens if t.kind not in ("word", "quoted")), tokens[-1])
        raise _Stop(Problem(number, bad.column if bad.kind != "word" else tokens[0].column,
                            _("'PLAYER: cards / answers', 'PLAYER accuses ...', 'PLAYER "
                              "reveals ...' or 'note ...'"), _typed(tokens)))

    def _suggestion(self, by: str, tokens: list[Token], number: int, column: int) -> Suggestion:
        tags_at = next((i for i, t in enumerate(tokens) if _is_mark(t, "[")),
                       len(tokens))
        body, tags = tokens[:tags_at], tokens[tags_at:]
        slash = next((i for i, t in enumerate(body) if _is_mark(t, "/")),
                     len(body))
        triple = self._triple(body[:slash], number, column)
        passes, refuter, shown = self._answers(body[slash + 1 :], number)
        rule, peek = self._tags(tags, number)
        if rule is not None and refuter is None:
            raise _Stop(Problem(number, tags[0].column,
                                _("a player who showed a card ('Name +') before [first]"),
                                "[first]"))
        return Suggestion(by, triple, passes, refuter, shown, rule, peek)

    def _triple(self, tokens: list[Token], number: int, column: int) -> tuple[str, str, str]:
        cards = self._cards(tokens, number)
        if len(cards) != len(CATEGORIES):
            where = tokens[0].column if tokens else column + 1
            expected = (_("three cards (suspect, weapon, place)") if self.places else
                        _("three cards (suspect, weapon, room)"))
            raise _Stop(Problem(number, where, expected, _typed(tokens) or None))
        order = sorted(cards, key=lambda c: CATEGORIES.index(self.deck.category_of(c)))
        return (order[0], order[1], order[2])

    def _answers(self, tokens: list[Token], number: int
                 ) -> tuple[tuple[str, ...], str | None, str | None]:
        """``Bob - Cid + Rope``: who passed, who showed, and the card if seen."""
        passes: list[str] = []
        refuter: str | None = None
        shown: str | None = None
        pending: list[Token] = []
        after_show = False
        for token in tokens:
            if token.kind in ("word", "quoted"):
                pending.append(token)
                continue
            if token.kind != "mark" or token.text not in "+-":
                raise _Stop(Problem(number, token.column, _("a player and + or -"), token.text))
            if after_show:
                card, pending = self._split_card(pending, number)
                shown = shown or card
            player = self._one([pending], self.players, _("a player before + or -"), number,
                               at=token.column)
            if token.text == "-":
                passes.append(player)
                after_show = False
            elif refuter is not None:
                raise _Stop(Problem(number, token.column, _("one player who showed a card"),
                                    player))
            else:
                refuter = player
                after_show = True
            pending = []
        if pending:
            if not after_show:
                raise _Stop(Problem(number, pending[-1].column + len(pending[-1].text),
                                    _("+ or - after the player"), None))
            shown = self._one([pending], self.cards, _("the card shown"), number)
        return tuple(passes), refuter, shown

    def _split_card(self, words: list[Token], number: int) -> tuple[str | None, list[Token]]:
        """Words after ``+`` and before the next answer: the card shown, then a player."""
        for k in range(len(words) - 1, -1, -1):
            player = self.players.match([_piece(t) for t in words[k:]])
            if len(player) == 1 and (k == 0 or len(self._cards_or_none(words[:k])) == 1):
                cards = self._cards_or_none(words[:k])
                return (cards[0] if cards else None), words[k:]
        if not words:
            raise _Stop(Problem(number, 1, _("a player before + or -"), None))
        return None, words

    def _cards_or_none(self, tokens: list[Token]) -> list[str]:
        try:
            return self._cards(tokens, 0)
        except _Stop:
            return []

    def _tags(self, tokens: list[Token], number: int) -> tuple[str | None, SidePeek | None]:
        """``[first]`` and ``[side N]`` / ``[side N: card]``."""
        rule: str | None = None
        peek: SidePeek | None = None
        i = 0
        while i < len(tokens):
            if not _is_mark(tokens[i], "["):
                raise _Stop(Problem(number, tokens[i].column, "[first] or [side N]",
                                    tokens[i].text))
            end = next((j for j in range(i, len(tokens)) if _is_mark(tokens[j], "]")), None)
            if end is None:
                raise _Stop(Problem(number, tokens[-1].column + len(tokens[-1].text), "]",
                                    None))
            inside = tokens[i + 1 : end]
            word = fold(inside[0].text) if inside else ""
            if word in ("first", "first-in-order") and len(inside) == 1 and rule is None:
                rule = FIRST_IN_ORDER
            elif word == "side" and peek is None and len(inside) >= 2 and \
                    _whole(inside[1].text):
                card = None
                if len(inside) > 2:
                    if not _is_mark(inside[2], ":"):
                        raise _Stop(Problem(number, inside[2].column, _(": and the card seen"),
                                            inside[2].text))
                    card = self._one([inside[3:]], self.cards, _("the side card seen"), number,
                                     at=inside[2].column + 1)
                peek = SidePeek(int(inside[1].text), card)
            else:
                raise _Stop(Problem(number, tokens[i].column,
                                    "[first], [side N] or [side N: card]",
                                    " ".join(t.text for t in tokens[i : end + 1])))
            i = end + 1
        return rule, peek

    def _accusation(self, by: str, tokens: list[Token], number: int, verb: Token
                    ) -> Accusation:
        colon = next((i for i, t in enumerate(tokens) if _is_mark(t, ":")), None)
        verdict = tokens[colon + 1 :] if colon is not None else []
        if colon is None or len(verdict) != 1 or fold(verdict[0].text) not in _RIGHT:
            where = verdict[0].column if verdict else (
                tokens[-1].column + len(tokens[-1].text) if tokens else verb.column)
            raise _Stop(Problem(number, where, _("': right' or ': wrong' after the three cards"),
                                _typed(verdict) or None))
        triple = self._triple(tokens[:colon], number, verb.column + len(verb.text))
        return Accusation(by, triple, _RIGHT[fold(verdict[0].text)])

    def _reveal(self, by: str, tokens: list[Token], number: int, verb: Token) -> Reveal:
        whole = (len(tokens) >= 2 and tokens[0].kind == "word" and fold(tokens[0].text) == "hand"
                 and _is_mark(tokens[1], ":"))
        cards = tokens[2:] if whole else tokens
        found = self._cards(cards, number)
        if not found:
            raise _Stop(Problem(number, verb.column + len(verb.text) + 1,
                                _("the cards revealed"), None))
        return Reveal(by, tuple(found), whole)

    def _note(self, tokens: list[Token], number: int, text: Token | None, raw: str) -> Note:
        """``note OWNER has|lacks|has one of cards: remark``."""
        verb = next((i for i, t in enumerate(tokens)
                     if i and t.kind == "word" and fold(t.text) in ("has", "lacks")), None)
        if verb is None:
            where = tokens[0].column if tokens else len(raw) + 1
            raise _Stop(Problem(number, where, _("'note OWNER has|lacks|has one of CARDS'"),
                                _typed(tokens) or None))
        owner = self._one([tokens[:verb]], self.owners, _("a player, envelope or side"), number)
        rest = tokens[verb + 1 :]
        relation = "lacks" if fold(tokens[verb].text) == "lacks" else "holds"
        if (relation == "holds" and len(rest) > 2 and rest[0].kind == rest[1].kind == "word"
                and (fold(rest[0].text), fold(rest[1].text)) == ("one", "of")):
            relation, rest = "holds_one_of", rest[2:]
        if not rest:
            raise _Stop(Problem(number, tokens[verb].column + len(tokens[verb].text) + 1,
                                _("the cards of the note"), None))
        cards = tuple(self._cards(rest, number))
        remark = None if text is None else _maybe_json_string(text.text)
        return Note(owner, holds=cards if relation == "holds" else (),
                    lacks=cards if relation == "lacks" else (),
                    holds_one_of=cards if relation == "holds_one_of" else (), text=remark)

    # names

    def _cards(self, tokens: list[Token], number: int) -> list[str]:
        """Cards typed one after another: the longest run of words naming one card each time;
        or separated by commas, each part one card."""
        if any(_is_mark(t, ",") for t in tokens):
            parts: list[list[Token]] = [[]]
            for token in tokens:
                if _is_mark(token, ","):
                    parts.append([])
                else:
                    parts[-1].append(token)
            return [self._one([part], self.cards, _("a card"), number,
                              at=tokens[0].column) for part in parts]
        for token in tokens:
            if token.kind not in ("word", "quoted"):
                raise _Stop(Problem(number, token.column, _("a card"), token.text))
        blank = [not fold(_piece(t)) for t in tokens]  # folds to no word at all
        found: list[str] = []
        i = 0
        while i < len(tokens):
            for k in range(min(len(tokens) - i, 6), 0, -1):
                run = tokens[i : i + k]
                if k > 1 and (any(t.kind == "quoted" for t in run)
                              or k - sum(blank[i : i + k]) > self.cards.longest):
                    continue  # a quoted name stands alone; no card has this many words
                match = self.cards.match([_piece(t) for t in run])
                if len(match) == 1:
                    found.append(match.pop())
                    i += k
                    break
                if k == 1:
                    self._unknown(tokens[i], match, self.cards, _("a card"), number)
        return found

    def _one(self, items: list[list[Token]], names: Names, what: str, number: int,
             at: int = 1) -> str:
        """Exactly one name from the words of one item."""
        if len(items) != 1 or not items[0]:  # at the second name (maybe none: "me: Ann,")
            raise _Stop(Problem(number, next((item[0].column for item in items[1:] if item), at),
                                what, None))
        words = items[0]
        match = names.match([_piece(t) for t in words])
        if len(match) == 1:
            return match.pop()
        typed = Token("word", " ".join(t.text for t in words), words[0].column)
        self._unknown(typed, match, names, what, number)

    @staticmethod
    def _unknown(token: Token, match: set[str], names: Names, what: str, number: int
                 ) -> NoReturn:
        if match:
            listing = join(sorted(match), conjunction="or")
            raise _Stop(Problem(number, token.column,
                                _("{what} ({listing}: type more letters)").format(
                what=what, listing=listing),
                                token.text))
        raise _Stop(Problem(number, token.column, what, token.text, names.closest(token.text)))


def _split_comment(text: str) -> tuple[str, str | None]:
    """A header value and its trailing ``# comment`` (outside quotes), if any.

    >>> _split_comment('Ann 6, "B #1" 6  # the usual table')
    ('Ann 6, "B #1" 6', 'the usual table')
    """
    quoted = escaped = False
    for i, c in enumerate(text):
        if quoted:
            escaped, quoted = (not escaped and c == "\\"), quoted and (escaped or c != '"')
        elif c == '"':
            quoted = True
        elif c == "#" and (i == 0 or text[i - 1].isspace()):
            comment = text[i + 1 :]
            return text[:i].rstrip(), (comment[1:] if comment.startswith(" ") else comment).rstrip()
    return text, None


def _seated(raw: str, header: _Header) -> bool:
    """Whether the words before a line's colon are a name on the header's ``players:`` line."""
    typed = fold(raw.split(":", 1)[0])
    listed = header.values.get("players", (0, ""))[1]
    return any(fold(item.rsplit(None, 1)[0]) == typed for item in listed.split(",") if item.strip())


_WHOLE = re.compile("[0-9]{1,6}")


def _whole(text: str) -> bool:
    """Whether ``text`` is a whole number as the notation writes one: ASCII digits, a few
    (``str.isdigit`` also says so of "²", which ``int`` refuses; ``int`` refuses 5,000 digits).

    >>> _whole("12"), _whole("\u00b2"), _whole("7" * 5000)
    (True, False, False)
    """
    return _WHOLE.fullmatch(text) is not None


def _is_mark(token: Token, mark: str) -> bool:
    """Whether a token is this punctuation mark (not a quoted name that looks like it)."""
    return token.kind == "mark" and token.text == mark


def _piece(token: Token) -> str:
    return token.text


def _typed(tokens: Sequence[Token]) -> str:
    return " ".join(t.text if t.kind != "quoted" else _quote(t.text) for t in tokens)


def _maybe_json_string(text: str) -> str:
    if text.startswith('"'):
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            return text
        if isinstance(value, str):
            return value
    return text


def _fields(event: Event) -> tuple[str, ...]:
    return tuple(f for f in field_names(event) if f != "extra")


_Commented = TypeVar("_Commented", Game, Suggestion, Accusation, Reveal, Note)


def _with_comment(value: _Commented, comment: str) -> _Commented:
    extra = dict(value.extra)
    extra[COMMENT] = comment if COMMENT not in extra else f"{comment}\n{extra[COMMENT]}"
    return replace(value, extra=extra)


def _event_with_comment(event: Event, comment: str) -> Event:
    if isinstance(event, Suggestion):
        return _with_comment(event, comment)
    if isinstance(event, Accusation):
        return _with_comment(event, comment)
    if isinstance(event, Note):
        return _with_comment(event, comment)
    return _with_comment(event, comment)


# --- writing ---------------------------------------------------------------------------------


def write_text(log: GameLog) -> str:
    """The log in notation: the header, a blank line, one line per event.

    Every name is written so that it reads back as itself; `read_text` of the result gives
    the same log (``#`` comments become the ``"comment"`` field, other unknown fields a
    trailing ``{...}`` JSON object)."""
    writer = _Writer(log.game)
    lines = writer.header()
    if log.events:
        lines.append("")
    for event in log.events:
        lines.extend(writer.event(event))
    return "\n".join(lines) + "\n"


class _Writer:
    def __init__(self, game: Game) -> None:
        self.game = game
        self.card_names = Names(game.deck.cards)
        self.players = Names(game.player_names)
        self.reader = _Reader("")
        self.reader.deck = game.deck
        self.reader.cards = self.card_names
        self.reader.players = self.players
        self.reader.owners = Names([*game.player_names, ENVELOPE, SIDE])
        self.short = {card: self.card_names.short(card) for card in game.deck.cards}

    def card(self, card: str, quoted: bool = False) -> str:
        short = self.short.get(card)
        if short is not None and not quoted:
            return short
        if not quoted and all(_safe_word(w) for w in card.split()) and \
                self.card_names.match(card.split()) == {card}:
            return " ".join(card.split()) if card == " ".join(card.split()) else _quote(card)
        return _quote(card)

    def cards(self, cards: Iterable[str], quoted: bool = False) -> str:
        return " ".join(self.card(c, quoted) for c in cards)

    def card_list(self, cards: tuple[str, ...]) -> str:
        """A header's cards, in quotes if the short names would not read back as these."""
        text = self.cards(cards)
        try:
            back = self.reader._cards(_tokens(text, 1).tokens, 1)
        except _Stop:
            back = []
        return text if tuple(back) == cards else self.cards(cards, quoted=True)

    def player(self, name: str, quoted: bool = False) -> str:
        words = name.split()
        plain = (
            not quoted
            and name == " ".join(words)
            and all(_safe_word(w) for w in words)
            and fold(words[0]) not in _KEYWORDS
            and fold(name) not in _HEADER_KEYS
            and not any(fold(w) in ("accuses", "reveals") for w in words)
            and self.players.match(words) == {name}
        )
        return name if plain else _quote(name)

    def header(self) -> list[str]:
        game = self.game
        lines = [f"# {line}" if line else "#" for line in _comment_lines(game.extra)]
        if game.title is not None:
            lines.append(f"title: {_free_text(game.title)}")
        boxed = preset(game.edition) if game.edition is not None else None
        if game.edition is not None:
            lines.append(f"edition: {game.edition}")
        if boxed is None or boxed.deck != game.deck:
            for cat in CATEGORIES:
                lines.append(f"{cat.plural}: " + ", ".join(_list_name(c)
                                                           for c in game.deck.of(cat)))
        players = ", ".join(f"{_list_name(p.name)} {p.hand_size}" for p in game.players)
        lines.append(f"players: {players}")
        if game.me is not None:
            lines.append(f"me: {_list_name(game.me)}")
        if game.my_cards:
            lines.append(f"my cards: {self.card_list(game.my_cards)}")
        if game.face_up:
            lines.append(f"face up: {self.card_list(game.face_up)}")
        if game.side_cards:
            lines.append(f"side cards: {game.side_cards}")
        extra = _plain_extra(game.extra)
        if extra:
            lines.append(f"extra: {_json(extra)}")
        return lines

    def event(self, event: Event) -> list[str]:
        comments = [f"# {line}" if line else "#" for line in _comment_lines(event.extra)]
        bare = replace(event, extra={k: v for k, v in event.extra.items()
                                     if k != COMMENT or not comments})
        line = self._line(bare, quoted=False)
        if not self._reads_back(line, bare):
            line = self._line(bare, quoted=True)
        return [*comments, line]

    def _reads_back(self, line: str, event: Event) -> bool:
        try:
            back = self.reader._event(line, 1)
        except _Stop:
            return False
        return back == event and dict(back.extra) == dict(event.extra)

    def _line(self, event: Event, quoted: bool) -> str:
        if isinstance(event, Note):
            owner = event.owner if event.owner in (ENVELOPE, SIDE) else \
                self.player(event.owner, quoted)
            verb = {"holds": "has", "lacks": "lacks", "holds_one_of": "has one of"}
            text = f"note {owner} {verb[event.relation]} {self.cards(event.listed, quoted)}"
            if event.extra:
                text += " " + _json(dict(event.extra))
            if event.text is not None:
                text += ": " + _free_text(event.text)
            return text
        if isinstance(event, Reveal):
            hand = "hand: " if event.whole_hand else ""
            text = (f"{self.player(event.player, quoted)} reveals "
                    f"{hand}{self.cards(event.cards, quoted)}")
        elif isinstance(event, Accusation):
            verdict = "right" if event.correct else "wrong"
            text = (f"{self.player(event.by, quoted)} accuses "
                    f"{self.cards(event.cards, quoted)}: {verdict}")
        else:
            text = f"{self.player(event.by, quoted)}: {self.cards(event.cards, quoted)}"
            answers = [f"{self.player(p, quoted)} -" for p in event.passes]
            if event.refuted_by is not None:
                shown = f" {self.card(event.shown, quoted)}" if event.shown else ""
                answers.append(f"{self.player(event.refuted_by, quoted)} +{shown}")
            if answers:
                text += " / " + " ".join(answers)
            if event.shown_by_rule == FIRST_IN_ORDER:
                text += " [first]"
            if event.side_peek is not None:
                seen = event.side_peek.card
                card = f": {self.card(seen, quoted)}" if seen is not None else ""
                text += f" [side {event.side_peek.slot}{card}]"
        if event.extra:
            text += " " + _json(dict(event.extra))
        return text


def _comment_lines(extra: Mapping[str, object]) -> list[str]:
    """A ``comment`` kept as ``#`` lines, when it reads back exactly that way."""
    comment = extra.get(COMMENT)
    if not isinstance(comment, str):
        return []
    lines = comment.split("\n")
    if any(line != line.rstrip() or not line.isprintable() for line in lines):
        return []
    return lines


def _plain_extra(extra: Mapping[str, object]) -> dict[str, object]:
    written = bool(_comment_lines(extra))
    return {k: v for k, v in extra.items() if k != COMMENT or not written}


def _free_text(text: str) -> str:
    if text != text.strip() or not text.isprintable() or text.startswith('"') or not text:
        return _quote(text)
    return text


def _list_name(name: str) -> str:
    """A name in a header list: as written if it reads back so, else in quotes."""
    words = name.split()
    if words and name == " ".join(words) and all(_safe_word(w) for w in words):
        return name
    return _quote(name)
