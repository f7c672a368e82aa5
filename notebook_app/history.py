"""What each saved revision did ("recorded event 4"), for the Undo button and the status line.

The database keeps it language-neutral: the message id and its arguments as JSON, put into
words in the reader's language when shown. Rows saved before that hold English text; the ones
the app used to write are read back into their messages (so they are translated too), anything
else is shown as it was written.

>>> stored = recorded(4)
>>> stored
'{"say": "recorded event {n}", "args": {"n": 4}}'
>>> told(stored).render("fi"), told("recorded event 4").render("ru")
('tapahtuma 4 kirjattu', 'записано событие 4')
>>> told("opened a pasted game (3 events)").render("en"), told("a note of 2025").render("ja")
('opened a pasted game (3 events)', 'a note of 2025')
"""

from __future__ import annotations

import json
import re

from solver.errors import InvalidLogError
from solver.game import Event, GameLog
from solver.i18n import N_, Message, _, say, say_n
from solver.logfile import event_to_json, parse, to_json

from .newgame import EXAMPLE_TITLES

RECORDED = N_("recorded event {n}")
EDITED = N_("edited event {n}")
DELETED = N_("deleted event {n}")
STARTED = N_("started the game")
SHOWN = N_("noted {card} shown in event {n}")
EXAMPLE = N_("opened example {name}")
IMPORTED = N_("imported {file}")
ADDED_ONE = N_("added event {n} from pasted text")
ADDED = N_("added events {first}-{last} from pasted text")
PASTED = ("opened a pasted game ({count} event)", "opened a pasted game ({count} events)")
SEATED = N_("entered {player}'s cards, as {player}")
NOT_NOTED = N_("The card shown in event {n} ({card}) was not saved")
"""A refused save of `SHOWN`, as a sentence (`unsaved`)."""
UNKNOWN = "{text}"
"""A note this app did not write: shown as it is (the id is in no catalog)."""


def _write(message: Message) -> str:
    plural = {} if message.plural is None else {"plural": message.plural, "n": message.n}
    return json.dumps({"say": message.msgid, **plural, "args": dict(message.args)},
                      ensure_ascii=False)


def recorded(n: int) -> str:
    return _write(say(RECORDED, n=n))


def edited(n: int, was: Event | None = None) -> str:
    """``was``: the entry as it stood before the edit, kept (as clue-notebook/1 JSON) so that
    Undo can say what it brings back (`before_edit`)."""
    if was is None:
        return _write(say(EDITED, n=n))
    return _write(say(EDITED, n=n, was=json.dumps(event_to_json(was), ensure_ascii=False)))


def before_edit(stored: str, log: GameLog) -> Event | None:
    """The entry as it stood before the edit a stored note records, read in ``log``'s game;
    ``None`` for another note, or an edit noted before the entry was kept with it."""
    said = told(stored)
    was = dict(said.args).get("was")
    if said.msgid != EDITED or not isinstance(was, str):
        return None
    data = to_json(GameLog(log.game, ()))
    try:
        data["events"] = [json.loads(was)]
        return parse(data).events[0]
    except (ValueError, InvalidLogError, RecursionError):  # (too deep: a damaged database)
        return None


def changed_entry(stored: str) -> int | None:
    """The number of the one entry a stored note says its revision recorded or changed (an
    edit, or the card noted as shown), else ``None``: the entry the player just wrote, which a
    clash leaves out first (`notebook_app.live.LiveGame.grid`).

    >>> changed_entry(edited(3)), changed_entry(recorded(71)), changed_entry(deleted(2))
    (3, 71, None)
    """
    return entry_of(stored, (RECORDED, EDITED, SHOWN, ADDED_ONE))


def entry_of(stored: str, kinds: tuple[str, ...]) -> int | None:
    """The entry (``n``, from 1) a stored note of one of ``kinds`` (msgids) names, else ``None``.

    >>> entry_of(edited(3), (EDITED,)), entry_of(edited(3), (RECORDED,))
    (3, None)
    """
    said = told(stored)
    n = dict(said.args).get("n")
    return n if said.msgid in kinds and isinstance(n, int) and n > 0 else None


def deleted(n: int) -> str:
    return _write(say(DELETED, n=n))


def started() -> str:
    return _write(say(STARTED))


def shown(card: str, n: int) -> str:
    return _write(say(SHOWN, card=card, n=n))


def seated(player: str) -> str:
    """A spectator's game made ``player``'s notebook (`notebook_app.hand`)."""
    return _write(say(SEATED, player=player))


def example(name: str) -> str:
    """Kept by file name, which no language or new wording of its title changes: `told` shows
    the title in the reader's language."""
    return _write(say(EXAMPLE, name=name))


def imported(file: str) -> str:
    return _write(say(IMPORTED, file=file))


def pasted_game(count: int) -> str:
    return _write(say_n("opened a pasted game ({count} event)",
                        "opened a pasted game ({count} events)", count, count=count))


def pasted_turns(first: int, last: int) -> str:
    return _write(say(ADDED_ONE, n=first) if first == last else say(ADDED, first=first, last=last))


def unsaved(stored: str) -> str:
    """What a refused save did not do, in the reader's language, without a full stop (a reason
    follows): "Not saved: recorded event 4"; the card noted as shown in a sentence of its own,
    since "Not saved: noted Rope shown in event 2" read as a history note inside a refusal.

    >>> unsaved(recorded(4)), unsaved(shown("Rope", 2))
    ('Not saved: recorded event 4', 'The card shown in event 2 (Rope) was not saved')
    """
    said = told(stored)
    if said.msgid == SHOWN:
        return say(NOT_NOTED, **dict(said.args)).render()
    return _("Not saved: {entry}").format(entry=said.render())


OLD_ENGLISH = [
    (re.compile(r"recorded event (?P<n>\d+)"), RECORDED),
    (re.compile(r"edited event (?P<n>\d+)"), EDITED),
    (re.compile(r"deleted event (?P<n>\d+)"), DELETED),
    (re.compile(r"started the game"), STARTED),
    (re.compile(r"noted (?P<card>.+) shown in event (?P<n>\d+)"), SHOWN),
    (re.compile(r"opened example (?P<name>.+)"), EXAMPLE),
    (re.compile(r"imported (?P<file>.+)"), IMPORTED),
    (re.compile(r"added event (?P<n>\d+) from pasted text"), ADDED_ONE),
    (re.compile(r"added events (?P<first>\d+)-(?P<last>\d+) from pasted text"), ADDED),
]
"""The English notes the app stored before they were kept as data."""
NUMBERS = {"n", "first", "last"}
OLD_PASTED = re.compile(r"opened a pasted game \((?P<count>\d+) events\)")


def told(stored: str) -> Message:
    """A stored note as a message to render in the reader's language; an opened example by
    its title (`example_title`), as the home screen lists it, not its file name."""
    said = _told(stored)
    name = said.arg("name")
    if said.msgid == EXAMPLE and isinstance(name, str) and name in EXAMPLE_TITLES:
        return said.with_arg("name", Message(EXAMPLE_TITLES[name]))
    return said


def _told(stored: str) -> Message:
    if stored.startswith("{"):
        try:
            data = json.loads(stored)
            args = {k: v for k, v in data.get("args", {}).items() if isinstance(v, str | int)}
            if isinstance(data.get("plural"), str):
                return Message(str(data["say"]), tuple(args.items()), data["plural"],
                               int(data.get("n", 1)))
            return Message(str(data["say"]), tuple(args.items()))
        except (ValueError, AttributeError, KeyError, TypeError, RecursionError):
            pass  # (too deep to read: a damaged or tampered database file)
    for pattern, msgid in OLD_ENGLISH:
        found = pattern.fullmatch(stored)
        if found:
            return Message(msgid, tuple((k, int(v) if k in NUMBERS else v)
                                        for k, v in found.groupdict().items()))
    found = OLD_PASTED.fullmatch(stored)
    if found:
        count = int(found["count"])
        return Message(PASTED[0], (("count", count),), PASTED[1], count)
    return Message(UNKNOWN, (("text", stored),))
