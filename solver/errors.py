"""One error family for everything the notebook refuses or cannot reconcile."""

from __future__ import annotations

from collections.abc import Sequence

from .i18n import _, list_said


class ClueError(ValueError):
    """Base of every error the notebook raises on purpose."""


class InvalidLogError(ClueError):
    """The log or setup is malformed; every problem names its field and the bad value.

    >>> str(InvalidLogError(["players[1].name: duplicate player 'Niko'"]))
    "players[1].name: duplicate player 'Niko'"
    """

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems: tuple[str, ...] = tuple(problems)
        super().__init__("\n".join(self.problems))


class ContradictionError(ClueError):
    """No deal satisfies the log; ``events`` is a minimal conflicting set (1-based numbers)."""

    def __init__(self, events: Sequence[int], message: str = "") -> None:
        self.events: tuple[int, ...] = tuple(events)
        if not message and len(self.events) == 1:  # the entry against the setup
            message = _("no deal fits the log: event {number} cannot be true with the game's "
                        "setup").format(number=self.events[0])
        numbers = list_said(str(e) for e in self.events) or _("the setup alone")
        super().__init__(message or _("no deal fits the log: conflicting events {numbers}").format(
            numbers=numbers))
