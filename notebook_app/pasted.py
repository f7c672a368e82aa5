"""A game, or a thread's turns, pasted as text in the notation (`solver.notation`,
``docs/notation.md``): read it, and when it cannot be read, say where in the pasted text.

A whole game opens as a new game (JSON is read too, by its first character); turns pasted into
an open game are read as lines after its own (`read_turns`), so player names and card
abbreviations are the game's and every line number in a message is a line of the paste.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from typing import NamedTuple

from solver.errors import InvalidLogError
from solver.game import Event, GameLog, Suggestion
from solver.i18n import _, ngettext, number_said
from solver.limits import MAX_FILE_BYTES
from solver.logfile import MAX_PROBLEMS, is_json
from solver.notation import NotationError, Problem, read_log_any, read_text, write_text
from solver.values import replace

MAX_PASTE = MAX_FILE_BYTES
"""The most characters a paste may have: what a log file may have."""



def _line_named(problem: str) -> re.Match[str] | None:
    """Where a problem of the notation reader names its line ("line 3: …", "rivi 3: …",
    "3 行: …": the reader's language), the number as group 1."""
    before, _sep, after = _("line {line}: {problem}").partition("{line}")
    return re.match(re.escape(before) + r"(\d+)" + re.escape(after.split("{problem}")[0]),
                    problem)


class Trouble(NamedTuple):
    """Why a paste cannot be read, for the screen."""

    problems: tuple[str, ...]
    """Each problem in words, line numbers counted in the pasted text."""
    pointed: str
    """The pasted lines the problems name, each with a caret under the column (``""`` when
    no problem names a line)."""


def read_game(text: str) -> GameLog:
    """A whole game pasted as notation (or JSON); `InvalidLogError` says what is wrong.

    >>> read_game("edition: clue-classic\\nplayers: Ann 9, Bob 9\\n\\n"
    ...           "Ann: plum rope hall / Bob + rope").events[0].shown
    'Rope'
    """
    _check_length(text)
    if not text.strip():
        raise InvalidLogError([_("the text box is empty: paste a game in notation (a header "
                                 "such as 'edition: clue-classic' and 'players: Ann 6, Bob 6, "
                                 "Cid 6', then one line per turn)")])
    return read_log_any(text)


def read_turns(log: GameLog, text: str) -> GameLog:
    """``log`` with the turns of ``text`` (event lines in notation) after its own events.

    The lines are read as if typed under the game's own notation, so its players and card
    abbreviations apply and every rule is checked against the whole game; the line numbers of
    an `InvalidLogError` count from the first pasted line.

    >>> from solver.editions import Dealing, editions, new_game
    >>> game = new_game(editions()["clue-classic"].deck, ("Ann", "Bob"), Dealing.CLASSIC)
    >>> read_turns(GameLog(game), "Ann: plum rope hall / Bob + \\nBob: green pipe dining / Ann -"
    ...            ).events[1].passes
    ('Ann',)
    >>> read_turns(GameLog(game), "\\ufeffAnn: plum rope hall / Bob -").events[0].by
    'Ann'
    >>> read_turns(GameLog(game), "Bob: green pipe dining / Ann -\\nAnn: plumb rope hall")
    Traceback (most recent call last):
    ...
    solver.notation.NotationError: line 2, column 6: expected a card, got 'plumb': did you \
mean Professor Plum?
    """
    _check_length(text)
    if not text.strip():
        raise InvalidLogError([_("the text box is empty: paste turns, one per line, such as "
                                 "'Ann: Plum Rope Hall / Bob - Cid +'")])
    if is_json(text):  # every line of it was a problem of its own, 199 for a 20-turn game
        raise InvalidLogError([_("this box takes turns in the notation, one per line; a whole "
                                 "game in JSON opens on the home screen, under “{paste}”").format(
                                     paste=_("Paste a game in notation"))])
    own = write_text(log).rstrip("\n") + "\n"
    offset = len(own.splitlines())
    if text.startswith("\ufeff"):  # a file's byte order mark, copied along: a space, so that
        text = " " + text[1:]  # "\ufeffAnn" is no unknown player and the columns stay
    try:
        whole = read_text(own + text)
    except NotationError as err:
        raise NotationError([replace(p, line=max(1, p.line - offset)) for p in err.errors]
                            ) from None
    except InvalidLogError as err:
        raise InvalidLogError([_renumbered(p, offset) for p in err.problems]) from None
    return replace(log, events=log.events + whole.events[len(log.events):])


class Repeat(NamedTuple):
    """Turns at a paste's start that repeat consecutive entries of the log (`repeated`)."""

    turns: int
    """How many pasted turns, from the first (0: none)."""
    entry: int
    """The number of the first entry they repeat (#1 the log's first)."""


def repeated(log: GameLog, longer: GameLog) -> Repeat:
    """The longest run of the turns pasted into ``log`` (``longer``: it with them,
    `read_turns`), from the first pasted on, that repeats consecutive entries of the log, the
    same turns (`same_turn`) in the same order; of runs as long, the latest, so the log's
    last entries first: a thread copied again from a point already added. The same 16 lines
    pasted twice were added twice without a word, and so were they when a turn had been
    recorded with the Turn form between the two pastes.

    >>> from solver.editions import Dealing, editions, new_game
    >>> game = new_game(editions()["clue-classic"].deck, ("Ann", "Bob"), Dealing.CLASSIC)
    >>> log = read_turns(GameLog(game), "Ann: plum rope hall / Bob +\\nBob: green pipe hall /")
    >>> repeated(log, read_turns(log, "Bob: green pipe hall /\\nAnn: plum knife hall / Bob +"))
    Repeat(turns=1, entry=2)
    >>> on = read_turns(log, "Ann: plum knife hall /")  # a turn recorded since
    >>> again = "Ann: plum rope hall / Bob +\\nBob: green pipe hall /\\nBob: green rope hall /"
    >>> repeated(on, read_turns(on, again))
    Repeat(turns=2, entry=1)

    A run that stops before the log's end must be `AMID` turns long: Ann asking again what she
    asked in #1, Bob showing again, is one turn like #1, a new one.

    >>> repeated(log, read_turns(log, "Ann: plum rope hall / Bob +\\nAnn: plum knife hall /"))
    Repeat(turns=0, entry=0)
    """
    pasted, own = longer.events[len(log.events):], log.events
    found = Repeat(0, 0)
    for start in range(len(own)):
        count = 0
        while (count < len(pasted) and start + count < len(own)
               and same_turn(pasted[count], own[start + count])):
            count += 1
        if count >= (1 if start + count == len(own) else AMID) and count >= found.turns:
            found = Repeat(count, start + 1)
    return found


AMID = 2
"""The fewest pasted turns in a row that are taken for a repeat of entries amid the log (not
its last ones): a single turn like an earlier one may be asked again, and answered alike."""


def same_turn(pasted: Event, own: Event) -> bool:
    """Whether a pasted turn is the log's ``own``, or says less of it: the card shown left
    out, as a thread says my turn ("Cat +") where I noted the card Cat showed me."""
    if isinstance(pasted, Suggestion) and isinstance(own, Suggestion) and pasted.shown is None:
        return pasted == replace(own, shown=None)
    return pasted == own


def repeat_said(count: int, entries: tuple[int, int], added: tuple[int, int] | None) -> str:
    """What a paste whose first ``count`` turns repeat the log's ``entries`` (first, last) did:
    added only the rest, as ``added``, or (``None``) nothing.

    >>> repeat_said(16, (1, 16), (17, 20)).replace(WORD_JOINER, "")
    "The first 16 pasted turns repeat the log's entries #1-16: added only the turns after \
them, as #17-20."
    """
    if added is None:
        return ngettext("Nothing added: the pasted turn repeats the log's last entry, {entries}.",
                        "Nothing added: the {count} pasted turns repeat the log's last entries, "
                        "{entries}.", count).format(count=count, entries=_span(*entries))
    return ngettext("The first pasted turn repeats the log's entry {entries}: added only the "
                    "turns after it, as {added}.",
                    "The first {count} pasted turns repeat the log's entries {entries}: added "
                    "only the turns after them, as {added}.", count).format(
                        count=count, entries=_span(*entries), added=_span(*added))


def inner_repeat_said(count: int, entries: tuple[int, int], rest: int) -> str:
    """What a paste whose first ``count`` turns repeat the log's ``entries`` (first, last),
    entries the log goes on after, did: added nothing, its ``rest`` turns after them too,
    which would follow the log's entry ``entries[1]`` in the thread and may repeat the log's
    next entries said otherwise.

    >>> inner_repeat_said(16, (1, 16), 0).replace(WORD_JOINER, "")
    "Nothing added: the 16 pasted turns repeat the log's entries #1-16."
    >>> inner_repeat_said(16, (1, 16), 2).partition("own. ")[2]
    'Check the 2 pasted turns after them, and paste again only those not in the log.'
    """
    if not rest:
        return ngettext("Nothing added: the pasted turn repeats the log's entry {entries}.",
                        "Nothing added: the {count} pasted turns repeat the log's entries "
                        "{entries}.", count).format(count=count, entries=_span(*entries))
    said = ngettext("Nothing added: the first pasted turn repeats the log's entry {entries}, "
                    "and the log goes on after #{last} with turns of its own.",
                    "Nothing added: the first {count} pasted turns repeat the log's entries "
                    "{entries}, and the log goes on after #{last} with turns of its own.",
                    count).format(count=count, entries=_span(*entries), last=entries[1])
    check = ngettext("Check the pasted turn after them, and paste it again only if it is not "
                     "in the log.",
                     "Check the {count} pasted turns after them, and paste again only those "
                     "not in the log.", rest).format(count=rest)
    # TRANSLATORS: two sentences: what the paste repeats, and what to check
    return _("{repeats} {check}").format(repeats=said, check=check)


WORD_JOINER = "\u2060"
"""Keeps a range of entries on one line: a phone broke '#26-28' after its dash."""


def _span(first: int, last: int) -> str:
    """Entries ``first`` to ``last``, never broken after the dash."""
    return f"#{first}" if first == last else f"#{first}-{WORD_JOINER}{last}"


def out_of_turn(log: GameLog, first: int, without: Collection[int] = (), *,
                opened: bool = False) -> tuple[str, ...]:
    """What to check in the turns pasted into a game (``log`` with them, the first pasted
    numbered ``first``), or in a whole game pasted or uploaded (``opened``, from 1): each turn
    a player took after accusing wrongly, though out of the game they only show cards
    (`notebook_app.turns.turns_while_out`; ``without``: the entries the grid leaves out past a
    clash, so a player the header and the Turn form count as playing is not said to be out).
    The turns are added, the game opened (a log may hold them, and the Turn form records one
    with a warning too): one misread name in a thread's line, or in the accusation, would
    otherwise hold back every line after it."""
    from .turns import describe, turns_while_out

    said = (_("Opened, but {player} is out of the game: they accused wrongly in #{n}, so they "
              "take no more turns, only show cards. Check #{entry}: {line}") if opened else
            _("Added, but {player} is out of the game: they accused wrongly in #{n}, so they "
              "take no more turns, only show cards. Check #{entry}: {line}"))
    return tuple(said.format(player=player, n=n, entry=entry,
                             line=describe(log.events[entry - 1]))
                 for entry, player, n in turns_while_out(log, first, without))


def unnoted_host_answers(log: GameLog, first: int, *, opened: bool = False) -> tuple[str, ...]:
    """What to check in the turns pasted into a game, or in a whole game opened (as
    `out_of_turn`): each question of mine the host answered by the order with no card noted
    (`solver.logfile.unnoted_by_rule`). The log reads without it, but I saw that card, and the
    rule tells nothing without it; the Log's entry asks for it when tapped."""
    from solver.logfile import unnoted_by_rule

    said = (_("Opened, but the card {player} showed you in #{n} by the host's rule is not "
              "noted: tap #{n} in the Log and add it.") if opened else
            _("Added, but the card {player} showed you in #{n} by the host's rule is not "
              "noted: tap #{n} in the Log and add it."))
    return tuple(said.format(player=event.refuted_by, n=n) for n in unnoted_by_rule(log, first)
                 if isinstance(event := log.events[n - 1], Suggestion))


def _renumbered(problem: str, offset: int) -> str:
    found = _line_named(problem)
    if found is None or int(found[1]) <= offset:
        return problem
    return f"{problem[:found.start(1)]}{int(found[1]) - offset}{problem[found.end(1):]}"


def _check_length(text: str) -> None:
    if len(text) > MAX_PASTE:
        raise InvalidLogError([_("the text has {count} characters, more than the {most} a "
                                 "game may have").format(count=number_said(len(text)),
                                                         most=number_said(MAX_PASTE))])


def trouble(text: str, err: InvalidLogError) -> Trouble:
    """``err`` for the screen: its problems, and the pasted lines they name with a caret under
    the column where reading stopped.

    >>> found = trouble("players: Ann 9\\nAnn: plumb", NotationError([Problem(2, 6, "a card",
    ...                 "plumb", "Professor Plum")]))
    >>> found.problems
    ("line 2, column 6: expected a card, got 'plumb': did you mean Professor Plum?",)
    >>> print(found.pointed)
    line 2 | Ann: plumb
           |      ^ a card
    """
    lines = text.splitlines()
    pointed: list[str] = []
    if isinstance(err, NotationError):
        for problem in err.errors[:MAX_PROBLEMS]:  # those said
            pointed += _pointer(lines, problem)
    else:
        for words in err.problems:
            found = _line_named(words)
            if found is not None and 1 <= int(found[1]) <= len(lines):
                margin = _("line {n}").format(n=found[1])
                pointed.append(f"{margin} | {lines[int(found[1]) - 1]}")
    return Trouble(tuple(err.problems), "\n".join(pointed))


POINTED_WIDTH = 32
"""The most columns a pointed line takes, its margin counted: a code block in the Log's
expander holds 36 without wrapping on a 390 px phone (`tests.test_browser_notation`), and a
360 px phone some 4 fewer. A longer line wrapped, and the caret under it stood under other
words, or alone on an empty row."""


def _pointer(lines: list[str], problem: Problem) -> list[str]:
    """The pasted line and, under it, a caret at the problem's column, spaced by how wide the
    text before it is drawn (`drawn_width`): under Japanese text a caret counted in characters
    stood half as far along as it should, and the margin ("4 行") pushed it further off. A line
    too long for a phone shows around the problem (`_window`), cut where "…" stands.

    >>> from solver.i18n import speaking
    >>> with speaking("ja"):
    ...     print("\\n".join(_pointer(["アキ: ミス・ピンク 燭台"], Problem(1, 5, "カード", ""))))
    1 行 | アキ: ミス・ピンク 燭台
         |       ^ カード
    >>> line = "Cat: Peacock Candlestick Conservatory / Dan - Ann - Bob + Wrnch"
    >>> print("\\n".join(_pointer([line], Problem(1, 59, "the card shown", ""))))
    line 1 | … - Ann - Bob + Wrnch
           |  the card shown ^
    """
    if not 1 <= problem.line <= len(lines):
        return []
    margin = _("line {n}").format(n=problem.line)
    room = max(12, POINTED_WIDTH - drawn_width(margin) - 3)
    line, at = _window(lines[problem.line - 1], problem.column - 1, room)
    before = drawn_width(line[:at])
    label = problem.expected
    if before + 2 + drawn_width(label) <= room:
        caret = f"{' ' * before}^ {label}"
    elif drawn_width(label) + 1 <= before:  # the label on the caret's left, the caret in place
        caret = f"{' ' * (before - drawn_width(label) - 1)}{label} ^"
    else:
        caret = f"{' ' * before}^"
    return [f"{margin} | {line}", f"{' ' * drawn_width(margin)} | {caret}"]


def _window(line: str, at: int, room: int) -> tuple[str, int]:
    """``line`` cut to at most ``room`` columns around the word at index ``at``, "…" where cut,
    and where that index is in the cut line: from the line's start if the word fits so, else
    with as much before it as fits.

    >>> _window("Ann: Plum Rope Hall / Bob - Cat + Kniff", 34, 20)
    ('… Bob - Cat + Kniff', 14)
    >>> _window("Dan: Mustard Revolver Billiard Room / Ann - Bob - Cat + Kniff", 56, 23)
    ('… - Bob - Cat + Kniff', 16)
    >>> _window("Ann: Plumb Rope Hall / Bob - Cat + Knife", 5, 20)
    ('Ann: Plumb Rope …', 5)
    """
    if drawn_width(line) <= room:
        return line, at
    word = len(line[at:].split(" ", 1)[0]) if line[at:] else 0
    start, end = 0, at + word
    if drawn_width(line[:end]) > room - 1:
        start = at  # the word last, as much before it as fits: the player, the cards
        width = drawn_width(line[start:end]) + 2 + (end < len(line))
        while start > 0 and width + _width(line[start - 1]) <= room:
            start -= 1
            width += _width(line[start])
        if start and line[start - 1] != " ":  # cut between words, not in one
            start = line.find(" ", start, at) % (at + 1)
    shown = ("…" if start else "") + line[start:]
    if drawn_width(shown) > room:
        last = len(shown) - len(line) + end  # the word's end in ``shown``
        shown = _fitted(shown, room - 1)
        shown = (shown[:cut + 1] if (cut := shown.rfind(" ", last)) > last else shown) + "…"
    return shown, at - start + (1 if start else 0)


def _fitted(text: str, room: int) -> str:
    """The longest start of ``text`` drawn in at most ``room`` columns, found in one pass:
    cutting a character at a time and measuring again took minutes for a pasted line of
    100,000 characters, while the server's script run waited.

    >>> _fitted("Ann: 東京", 6), _fitted("José x", 4)
    ('Ann: ', 'José')
    """
    width = 0
    for index, char in enumerate(text):
        width += _width(char)
        if width > room:
            return text[:index]
    return text


def drawn_width(text: str) -> int:
    """How many columns of a fixed-width font ``text`` takes: East Asian wide and full-width
    characters two, combining marks none, the rest one.

    >>> drawn_width("行"), drawn_width("Ann"), drawn_width("Jose\u0301")
    (2, 3, 4)
    """
    return sum(map(_width, text))


def _width(char: str) -> int:
    """The columns of one character (`drawn_width`)."""
    return (0 if unicodedata.combining(char) else
            2 if unicodedata.east_asian_width(char) in "WF" else 1)
