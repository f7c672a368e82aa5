"""Notes in a player's words: "Bob does not hold Rope", "the envelope holds at least one of
(Rope, Knife)", for the command line's event lines and for explanations.

>>> from solver.game import Note
>>> statement(Note("Bob", lacks=("Rope", "Knife")))
'Bob holds none of (Rope, Knife)'
>>> statement(Note("Bob", holds=("Rope",)), me="Bob")
'you hold Rope'
>>> statement(Note("envelope", holds_one_of=("Rope", "Hall"))) + remark(Note("side", ("Rope",),
...                                                                        text="house rule"))
'the envelope holds at least one of (Rope, Hall) — “house rule”'
"""

from __future__ import annotations

from .game import ENVELOPE, SIDE, Note


def subject(owner: str, me: str | None = None) -> str:
    """Who the note is about: "you", "the envelope", "the side cards" or the player's name."""
    if owner == me:
        return "you"
    return {ENVELOPE: "the envelope", SIDE: "the side cards"}.get(owner, owner)


def statement(note: Note, me: str | None = None) -> str:
    """The fact the note records, as a clause (lower case unless it starts with a name)."""
    who = subject(note.owner, me)
    plural = note.owner == me or note.owner == SIDE
    hold = "hold" if plural else "holds"
    cards = note.listed
    if not cards:
        return f"{who}: no cards given"
    if note.relation == "holds" or (len(cards) == 1 and note.relation == "holds_one_of"):
        listing = cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " and " + cards[-1]
        return f"{who} {hold} {listing}"
    group = "(" + ", ".join(cards) + ")"
    if note.relation == "lacks":
        if len(cards) == 1:
            return f"{who} {'do' if plural else 'does'} not hold {cards[0]}"
        return f"{who} {hold} none of {group}"
    return f"{who} {hold} at least one of {group}"


def remark(note: Note) -> str:
    """The note's remark, quoted after a dash, or nothing."""
    return f" — “{note.text}”" if note.text else ""
