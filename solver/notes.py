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
from .i18n import Listing, Message, say


def subject(owner: str, me: str | None = None) -> str:
    """Who the note is about: "you", "the envelope", "the side cards" or the player's name."""
    if owner == me:
        return say("you").render()
    if owner == ENVELOPE:
        return say("the envelope").render()
    if owner == SIDE:
        return say("the side cards").render()
    return owner


def statement(note: Note, me: str | None = None) -> str:
    """The fact the note records, as a clause (lower case unless it starts with a name)."""
    return statement_message(note, me).render()


def statement_message(note: Note, me: str | None = None, *, remarked: bool = False) -> Message:
    """`statement` kept unrendered, with the remark after it when ``remarked``."""
    said = _statement(note, me)
    if remarked and note.text:
        return say("{statement} — “{remark}”", statement=said, remark=note.text)
    return said


def _statement(note: Note, me: str | None) -> Message:
    owner, cards = note.owner, note.listed
    if not cards:
        return say("{owner}: no cards given", owner=subject(note.owner, me))
    kind = "you" if owner == me else owner if owner in (ENVELOPE, SIDE) else "player"
    if note.relation == "holds" or (len(cards) == 1 and note.relation == "holds_one_of"):
        listed = Listing(tuple(cards))
        return {
            "you": say("you hold {cards}", cards=listed),
            ENVELOPE: say("the envelope holds {cards}", cards=listed),
            SIDE: say("the side cards hold {cards}", cards=listed),
            "player": say("{player} holds {cards}", player=owner, cards=listed),
        }[kind]
    group = Listing(tuple(cards), ",", enclosed=True)
    if note.relation == "lacks":
        if len(cards) == 1:
            card = cards[0]
            return {
                "you": say("you do not hold {card}", card=card),
                ENVELOPE: say("the envelope does not hold {card}", card=card),
                SIDE: say("the side cards do not hold {card}", card=card),
                "player": say("{player} does not hold {card}", player=owner, card=card),
            }[kind]
        return {
            "you": say("you hold none of {cards}", cards=group),
            ENVELOPE: say("the envelope holds none of {cards}", cards=group),
            SIDE: say("the side cards hold none of {cards}", cards=group),
            "player": say("{player} holds none of {cards}", player=owner, cards=group),
        }[kind]
    return {
        "you": say("you hold at least one of {cards}", cards=group),
        ENVELOPE: say("the envelope holds at least one of {cards}", cards=group),
        SIDE: say("the side cards hold at least one of {cards}", cards=group),
        "player": say("{player} holds at least one of {cards}", player=owner, cards=group),
    }[kind]


def remark(note: Note) -> str:
    """The note's remark, quoted after a dash, or nothing."""
    return f" — “{note.text}”" if note.text else ""
