"""The Game screen: who plays, the user's and the face-up cards, the game's links (and how to
open it on another device), export, closing, and for its owner deleting it."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import streamlit as st

from solver.game import Game
from solver.i18n import _, list_said
from solver.logfile import dumps

from ..copying import link_box
from ..plain import plain
from ..reader import heading
from ..session import (
    button,
    can_edit,
    close_game,
    delete_game,
    forget_game,
    is_owner,
    live,
    lost_tap,
    new_links,
    store,
)
from ..store import StoreError
from .seat import seat_form

state = st.session_state


def export_name(game: Game, day: date | None = None) -> str:
    """The exported file's name: the game's title (or its players) and the day, safe on every
    system.

    >>> from solver.editions import Dealing, editions, new_game
    >>> deck = editions()["clue-classic"].deck
    >>> game = new_game(deck, ("Ann", "Bob", "Cat"), Dealing.CLASSIC, title="Friday: at Ann's/2")
    >>> export_name(game, date(2026, 12, 1))
    'Friday-at-Ann-s-2-2026-12-01.json'
    >>> export_name(new_game(deck, ("Ann", "Bob", "Cat"), Dealing.CLASSIC), date(2026, 12, 1))
    'Ann-Bob-Cat-2026-12-01.json'
    """
    words = re.findall(r"\w+", game.title or " ".join(game.player_names))
    name = "-".join(words)[:60].strip("-") or "clue-game"
    return f"{name}-{(day or date.today()).isoformat()}.json"


def link_to(token: str) -> str:
    """The address that opens a game by one of its links."""
    base = st.context.url
    base = base if isinstance(base, str) and base.startswith("http") else ""
    return f"{base.rstrip('/')}/?game={token}" if base else f"?game={token}"


def sharing() -> None:
    """The game's links, what each grants, and how to open the game on another device."""
    try:
        links = store().links(state.game_id)
    except StoreError as err:
        st.error(_("The game's links cannot be shown now: {reason}. Reload the page in a "
                   "moment.").format(reason=_(err.reason)), icon=":material/warning:")
        return
    st.html(heading(_("Open it on another device, or share it"), 3))
    me = live().log.game.me
    if me is not None:  # a link opens the notebook, hand and all, whoever taps it
        st.caption(_("Whoever opens a link sees {player}'s cards and the cards shown to "
                     "{player}: do not send it to the other players.").format(player=plain(me)))
    if not can_edit():
        st.caption(_("You follow this game with its read link. Send this link to let someone "
                     "else follow it too (it opens this game only):"))
        link_box(link_to(links.read), "read")
        return
    st.caption(_("This browser keeps its games by itself: open the bare address here again "
                 "and they are listed. **On another device** (your phone, a friend's), open "
                 "the **edit link** there: send it to yourself by message or mail. Each link "
                 "opens this game only, never your other games."))
    st.markdown(_("Edit link: records, edits and undoes entries of this game"))
    link_box(link_to(links.edit), "edit")
    st.markdown(_("Read link: sees the grid, log and review of this game, changes nothing"))
    link_box(link_to(links.read), "read")
    if is_owner():
        stop_sharing()


ASKED = ("stop_sharing_asked", "delete_asked")
"""The questions a tap on the Game screen asks (`Asked`): not kept once another screen is
looked at."""


@dataclass(frozen=True)
class Asked:
    """A button whose act cannot be undone, asked first: its tap puts the question in the
    button's place (so a double tap lands on its words, not on the confirmation under it), with
    Cancel and the confirmation under it. ``flag``: the state key holding the game asked for."""

    flag: str
    key: str
    label: str
    help: str
    question: str
    confirm: str
    act: Callable[[], object]
    icon: str
    wide: bool = False

    def draw(self) -> None:
        lost_tap(f"confirm_{self.key}", self.confirm)
        if state.get(self.flag) != state.game_id:
            button(self.label, key=self.key, on_click=self.ask, help=self.help,
                      width="stretch" if self.wide else "content",
                      icon=self.icon if self.wide else None)
            return
        st.warning(self.question, icon=self.icon)
        with st.container(horizontal=True):
            st.button(_("Cancel"), key=f"cancel_{self.key}", on_click=self.cancel)
            st.button(self.confirm, key=f"confirm_{self.key}", on_click=self.confirmed,
                      type="primary", icon=self.icon)

    def ask(self) -> None:
        state[self.flag] = state.game_id

    def cancel(self) -> None:
        state.pop(self.flag, None)

    def confirmed(self) -> None:
        self.cancel()
        self.act()


def stop_sharing() -> None:
    """The owner's "Stop sharing: new links": it cuts off every other device at once."""
    Asked("stop_sharing_asked", "new_links", _("Stop sharing: new links"), _(
        "Both links above stop working and everyone you sent them to loses this game, until "
        "you send the new ones."), _(
        "This stops every link you have shared: both links above stop working, and every other "
        "phone or browser that opened this game loses it at once. This cannot be undone; you "
        "can send the new links to whoever should keep it."), _("Stop sharing"), new_links,
        ":material/link_off:").draw()


def game_view() -> None:
    log = live().log
    game = log.game
    st.markdown(_("**Players** (seating order): {players}").format(
        players=plain(list_said(f"{p.name} ({p.hand_size})" for p in game.players))))
    if game.me is not None:  # a read link's reader: the owner's cards, by name
        st.markdown((_("**Your cards** ({player}): {cards}") if can_edit() else
                     _("**{player}'s cards:** {cards}")).format(
            player=plain(game.me), cards=plain(list_said(game.my_cards)) or "—"))
    if game.face_up:
        st.markdown(_("**Face up:** {cards}").format(cards=plain(list_said(game.face_up))))
    if game.side_cards:
        st.markdown(_("**Side cards:** {count}").format(count=game.side_cards))
    if game.me is None and can_edit():
        seat_form()
    st.caption(_("Saved after every entry."))
    sharing()
    st.download_button(_("Export log (clue-notebook/1)"), dumps(log),
                       file_name=export_name(game), mime="application/json", key="export",
                       width="stretch")
    button(_("Close game"), key="close_game", on_click=close_game, width="stretch")
    kept = _("The game stays saved; its links still open it.")
    button(_("Remove from this browser's list"), key="forget_game", on_click=forget_game,
           width="stretch")
    # under the button, not in its tooltip: a phone has no hover, and the tap acts at once
    st.caption(kept if not is_owner() else kept + " " + _(
        "Only this browser can stop sharing it or delete it: once it is removed, nobody can."))
    if is_owner():
        deleting()


def deleting() -> None:
    """The owner's "Delete game": it takes the game from every screen (the question offers the
    export above first)."""
    Asked("delete_asked", "delete_game", _("Delete game"), _(
        "Deletes the game from this server for everyone: its links stop opening it."), _(
        "This deletes the game and its log from this server for everyone: its links stop "
        "opening it, and every other phone or browser that opened it loses it at once. This "
        "cannot be undone. To keep a copy, export the log first (above)."), _("Delete game"),
        delete_game, ":material/delete:", wide=True).draw()
