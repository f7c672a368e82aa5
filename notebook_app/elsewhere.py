"""What another screen changed since this one last looked, in words for the status line
(`notebook_app.session.follow`): at a table with two phones, an entry recorded on the other one
is said, not found later in the log with no word.

Told from the two logs and the notes of the revision shown before and the one shown now
(`notebook_app.history`): entries added at the end are counted; an undo there (the newest
revision dropped: numbers are never given twice, so the newest is older than the one shown)
names what the revision shown did; an edit names its entry; anything else says what the
newest revision did (the latest of several, where the numbers say more than one was saved).
"""

from __future__ import annotations

from solver.game import GameLog
from solver.i18n import _, ngettext

from .history import EDITED, RECORDED, SHOWN, entry_of, told
from .turns import describe


def changed_elsewhere(before: GameLog, shown: tuple[int, str], after: GameLog,
                      newest: tuple[int, str]) -> str | None:
    """What the revision ``newest`` (number, note) of ``after`` changed from the revision
    ``shown`` of ``before``, saved on another screen; ``None`` where it is the same revision
    (this screen's own save)."""
    (seq, note), (new_seq, new_note) = shown, newest
    if new_seq == seq:
        return None
    old, new = before.events, after.events
    if new_seq < seq:  # the revision shown was undone there
        n = entry_of(note, (RECORDED,))
        if n == len(old) and new == old[:-1]:
            return _("Undone on another screen: #{n} {entry}").format(
                n=n, entry=describe(old[-1]))
        n = entry_of(note, (EDITED,))
        if n is not None and changed_only(old, new, n):
            return _("Undone on another screen: the edit of #{n}, back to: {entry}").format(
                n=n, entry=describe(new[n - 1]))
        return _("Undone on another screen: {what}").format(what=told(note).render())
    if before.game == after.game and len(new) > len(old) and new[:len(old)] == old:
        return added_elsewhere(after, len(new) - len(old))
    n = entry_of(new_note, (EDITED, SHOWN))
    if n is not None and changed_only(old, new, n):
        return _("Edited on another screen: #{n} {entry}").format(n=n, entry=describe(new[n - 1]))
    if new_seq == seq + 1:  # one save since (an undo leaves a gap in the numbers)
        return _("Changed on another screen: {what}").format(what=told(new_note).render())
    return _("Changed on another screen, latest: {what}").format(what=told(new_note).render())


def added_elsewhere(log: GameLog, added: int) -> str:
    """The last ``added`` entries of ``log``, recorded on another screen, in words."""
    n = len(log.events)
    if added == 1:
        return _("Recorded on another screen: #{n} {entry}").format(
            n=n, entry=describe(log.events[-1]))
    return ngettext("{count} entry recorded on another screen, latest: #{n} {entry}",
                    "{count} entries recorded on another screen, latest: #{n} {entry}",
                    added).format(count=added, n=n, entry=describe(log.events[-1]))


def changed_only(old: tuple[object, ...], new: tuple[object, ...], n: int) -> bool:
    """Whether entry ``n`` is the only one that differs between two logs of one length."""
    return (len(old) == len(new) >= n and old[n - 1] != new[n - 1]
            and old[:n - 1] == new[:n - 1] and old[n:] == new[n:])
