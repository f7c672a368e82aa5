"""The app's storage as a player meets it, through `AppTest`: this browser's games by its
cookie, one link for one game (read or edit), new links that stop sharing, and a database that
is locked, full, damaged or gone: a message, the form kept, never a traceback.

A browser is a shelf id: ``browser_cookie`` is replaced by one that returns it (AppTest has no
cookies); the real cookie round trip is in ``tests/test_browser_storage.py``.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from streamlit.testing.v1 import AppTest

import notebook_app.history as history
import notebook_app.language as language
import notebook_app.session as session
import notebook_app.store as store_module
from notebook_app.choices import CHOICES
from notebook_app.history import deleted, recorded
from notebook_app.store import DB_ENV, Store
from notebook_app.turns import describe
from solver.editions import Dealing, editions, new_game
from solver.game import Accusation, GameLog, Reveal, Suggestion
from solver.values import replace
from tests.test_app import shown

APP = str(Path(__file__).resolve().parent.parent / "notebook_app" / "app.py")
CLASSIC = editions()["clue-classic"].deck
NAMES = ("Ann", "Bob", "Cat", "Dan")
MINE = ("Miss Scarlet", "Rope", "Kitchen", "Hall", "Study")
ANN, BOB = "browser-of-ann", "browser-of-bob"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(path))
    return path


@pytest.fixture
def store(db: Path) -> Store:
    return Store(db)


def classic(*events: Suggestion | Reveal, title: str | None = None) -> GameLog:
    game = new_game(CLASSIC, NAMES, Dealing.CLASSIC, me="Ann", my_cards=MINE, title=title)
    return GameLog(game, events)


def browser(monkeypatch: pytest.MonkeyPatch, shelf: str | None, **query: str) -> AppTest:
    """A visit by the browser whose cookie holds ``shelf`` (``None``: no cookie yet)."""
    monkeypatch.setattr(session, "browser_cookie", lambda: shelf)
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def texts(at: AppTest) -> str:
    """The text on screen as a reader sees it (markdown escapes removed)."""
    parts = [m.value for m in at.markdown] + [e.value for e in at.error]
    parts += [i.value for i in at.info] + [c.value for c in at.caption]
    parts += [s.value for s in at.success]
    return "\n".join(shown(p) for p in parts)


def listed(at: AppTest) -> list[str]:
    return [str(b.key)[5:] for b in at.button
            if b.key and b.key.startswith("open_") and b.key not in ("open_example", "open_upload")]


def pick(at: AppTest, suspect: str, weapon: str, room: str) -> None:
    """Fill in a suggestion that Cat answered."""
    at.pills(key="e_suspect").set_value(suspect)
    at.pills(key="e_weapon").set_value(weapon)
    at.pills(key="e_room").set_value(room)
    at.pills(key="e_refuter").set_value("Cat")


# --- this browser's games ----------------------------------------------------------------------


def test_the_bare_address_lists_this_browsers_games(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = store.create(classic(title="Friday"), ANN)
    second = store.create(classic(title="Saturday"), ANN)
    store.create(classic(title="Bob's game"), BOB)
    at = browser(monkeypatch, ANN)
    assert sorted(listed(at)) == sorted([first, second])
    assert "shelf" not in at.query_params and "game" not in at.query_params


def test_a_new_browser_gets_an_id_in_its_cookie_never_in_the_address(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = browser(monkeypatch, None)
    shelf = at.session_state["shelf"]
    scripts = [h.proto.body for h in at.get("html")
               if "document.cookie" in h.proto.body and session.COOKIE in h.proto.body]
    assert len(scripts) == 1 and f"{session.COOKIE}={shelf};" in scripts[0]
    assert "Max-Age=34560000" in scripts[0] and "SameSite=Lax" in scripts[0]
    assert "shelf" not in at.query_params


def test_an_address_naming_a_list_is_not_taken(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A browser without the cookie took the list the address named (``?shelf=``, the first
    release's): whoever sent that address then saw every game the browser started."""
    theirs = store.create(classic(title="Theirs"), "Abc-_123xyz")
    monkeypatch.setattr(session, "browser_cookie", lambda: None)
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["shelf"] = "Abc-_123xyz"
    at.run()
    assert at.session_state["shelf"] != "Abc-_123xyz" and listed(at) == []
    assert "shelf" not in at.query_params
    at.button(key="open_example").click().run()
    assert [g.id for g in store.games("Abc-_123xyz")] == [theirs]  # the opened game is not theirs


def test_a_cookie_that_is_not_an_id_is_never_written_into_a_script(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    for value in ("x'</script><script>alert(1)//", "short", "a" * 65):
        monkeypatch.setattr(type(session.st.context), "cookies",
                            property(lambda _, v=value: {session.COOKIE: v}))
        assert session.browser_cookie() is None
    monkeypatch.setattr(type(session.st.context), "cookies",
                        property(lambda _: {session.COOKIE: "Abc-_123xyz"}))
    assert session.browser_cookie() == "Abc-_123xyz"


def language_written(at: AppTest) -> list[str]:
    return [body.split(f"{language.COOKIE}=")[1].split(";")[0] for body in
            (h.proto.body for h in at.get("html")) if f"'{language.COOKIE}=" in body]


def test_reopening_the_game_after_a_restart_needs_only_the_cookie(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new session (reload, server restart) with ``?game=<id>`` in the address reopens the
    game for the browser that has it, and for no other."""
    game_id = store.create(classic(Reveal("Dan", ("Wrench",))), ANN)
    at = browser(monkeypatch, ANN, game=game_id)
    assert at.session_state["game_id"] == game_id and at.session_state["access"] == "owner"
    stranger = browser(monkeypatch, BOB, game=game_id)
    assert "live" not in stranger.session_state
    assert "This link does not open a game here" in texts(stranger)
    assert listed(stranger) == []


def after_restart(tapped: object) -> AppTest:
    """The tap ``tapped`` (an input of an AppTest set or clicked, not yet run) made on a page
    whose server restarted: it goes to a new session (no state, no callback known) with the
    inputs the page shows. AppTest has no server to restart: its private session state is
    replaced (the browser's round trip is in ``tests/test_browser_storage.py``)."""
    from streamlit.runtime.state import SafeSessionState, SessionState
    from streamlit.runtime.state.common import TESTING_KEY
    from streamlit.testing.v1.app_test import _AppTestSessionState

    at: Any = tapped.root._runner  # type: ignore[attr-defined]
    shown_inputs = at._tree.get_widget_states()  # (read with the old session's formats)
    fresh = SessionState()
    fresh[TESTING_KEY] = {}  # as AppTest starts one
    at._session_state = SafeSessionState(fresh, lambda: None)
    at.session_state = _AppTestSessionState(at._session_state)
    at._run(shown_inputs)
    assert not at.exception, at.exception
    return at  # type: ignore[no-any-return]


def test_the_first_tap_after_a_restart_is_the_players(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page that reconnects to a restarted server sends its first tap to a new session, with
    the inputs it shows: a Record tap records the turn on the form (a tab tap shows that tab,
    the form kept: ``tests/test_browser_storage.py``). An edit's Save changes saves the edit
    this browser's draft kept (its changes were dropped, though the draft held the edit);
    without that draft, its form is not taken up as a new entry: the player is told its
    changes were not saved. Show odds, Suggest for me and the language stay as the player set
    them (this browser's cookies)."""
    game_id = store.create(classic(), ANN)
    at = browser(monkeypatch, ANN, game=game_id)
    at.toggle(key="advise_me").set_value(True).run()  # kept in this browser's cookie
    kept = choices_written(at)
    assert kept == {"clue_notebook_advise": "on"}
    monkeypatch.setattr(type(session.st.context), "cookies",  # as the browser keeps them
                        property(lambda _: dict(kept)))
    for key, value in (("e_suspect", "Mrs. White"), ("e_weapon", "Knife"),
                       ("e_room", "Lounge"), ("e_refuter", "")):  # nobody showed
        at.pills(key=key).set_value(value).run()
    after_restart(at.button(key="submit").click())  # the form read as sent, the tap taken
    assert not at.error
    assert store.load(game_id) == classic(Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"),
                                                     passes=("Bob", "Cat", "Dan")))
    assert at.pills(key="e_suspect").value is None  # a fresh form for the next turn
    recorded = store.load(game_id)
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_0").click().run()
    assert at.query_params["edit"] == "1"  # what the new session could not know otherwise
    at.pills(key="e_room").set_value("Hall").run()
    after_restart(at.button(key="submit").click())  # Save changes: the edit, saved
    assert not at.error and "edit" not in at.query_params
    edited = replace(recorded.events[0], cards=("Mrs. White", "Knife", "Hall"))  # type: ignore[union-attr]
    assert store.load(game_id) == classic(edited)
    recorded = store.load(game_id)
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_0").click().run()
    at.pills(key="e_room").set_value("Study").run()
    assert store.take_draft(ANN, game_id) is not None  # a draft the database lost
    after_restart(at.button(key="submit").click())  # Save changes: never a new entry
    assert store.load(game_id) == recorded and "edit" not in at.query_params
    assert "The app restarted while you were editing #1" in texts(at)
    assert at.pills(key="e_room").value != "Study"  # the form starts afresh
    at.segmented_control(key="view").set_value("Grid").run()
    at.toggle(key="show_odds").set_value(False).run()
    assert choices_written(at) == {"clue_notebook_odds": "off"}
    kept["clue_notebook_odds"] = "off"
    after_restart(at.segmented_control(key="view").set_value("Log"))
    assert choices_written(at) == {}  # (the cookies say so already)
    at.segmented_control(key="view").set_value("Grid").run()
    assert at.toggle(key="show_odds").value is False
    assert not any(str(v).endswith("%") for v in at.dataframe[0].value.to_numpy().flat)
    at.toggle(key="show_odds").set_value(True).run()
    assert choices_written(at) == {"clue_notebook_odds": "on"}
    at.toggle(key="show_odds").set_value(False).run()  # back as the session began: the
    assert choices_written(at) == {"clue_notebook_odds": "off"}  # cookie, written "on"
    at.segmented_control(key="view").set_value("Turn").run()  # meanwhile, is written again
    at.pills(key="by").set_value("Ann").run()
    assert at.toggle(key="advise_me").value is True
    kept[language.COOKIE] = "en"  # the language: switched and back, written back too
    at.segmented_control(key="lang_pick").set_value("fi").run()
    assert language_written(at) == ["fi"]
    at.segmented_control(key="lang_pick").set_value("en").run()
    assert language_written(at) == ["en"]  # (the cookie said "fi" meanwhile)


def choices_written(at: AppTest) -> dict[str, str]:
    """What the scripts on the page write into the cookies of the player's choices."""
    written = {}
    for body in (h.proto.body for h in at.get("html")):
        for cookie, _default in CHOICES.values():
            if f"document.cookie = '{cookie}=" in body:
                written[cookie] = body.split(f"{cookie}=")[1].split(";")[0]
    return written


# --- one link, one game ------------------------------------------------------------------------


def test_a_read_link_shows_that_game_only_and_changes_nothing(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob")
    shared = store.create(classic(one, title="Shared"), ANN)
    store.create(classic(title="Private"), ANN)
    at = browser(monkeypatch, BOB, game=store.links(shared).read)
    assert at.session_state["game_id"] == shared and at.session_state["access"] == "read"
    assert at.query_params["game"] == shared
    assert at.segmented_control(key="view").options == ["Grid", "Log", "Review", "Game"]
    assert "Read only" in texts(at)
    assert "shows here within a few seconds" in texts(at)  # by itself (`reader_behind`): a
    # reader at the table watched for an entry that came only with a tap
    assert not any(b.key == "undo" for b in at.button)
    at.segmented_control(key="view").set_value("Log").run()
    assert not any(str(b.key).startswith(("edit_", "delete_")) for b in at.button)
    at.segmented_control(key="view").set_value("Game").run()
    assert [c.value.rsplit("=", 1)[1] for c in at.code] == [store.links(shared).read]
    assert not any(b.key == "new_links" for b in at.button)
    at.button(key="close_game").click().run()
    assert listed(at) == [shared]  # Bob's list: the shared game, never Ann's private one
    assert store.load(shared) == classic(one, title="Shared")


class Seen(dict[str, Any]):
    """A session's state as `session` reads it (keys, or attributes), outside a run."""

    __getattr__ = dict.__getitem__
    __setattr__ = dict.__setitem__


def test_a_read_link_looks_at_its_game_without_a_tap(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a read link's timer decides (`session.reader_behind`; AppTest runs no timer, the
    browser test does): a new revision asks for the page again, none asks for nothing, nor
    does one while a cell's explanation is read; new links close the game and say why."""
    one = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob")
    shared = store.create(classic(title="Shared"), ANN)
    assert store.open_link(BOB, store.links(shared).read) == (shared, "read")
    seen = Seen(shelf=BOB, game_id=shared, access="read", live=object(), revision=(1, ""))
    monkeypatch.setattr(session, "state", seen)
    assert not session.reader_behind()  # nothing moved: the page is left alone
    store.save(shared, classic(one, title="Shared"), recorded(1), after=1)
    assert session.reader_behind()  # Ann recorded: drawn again (`follow` adopts it)
    seen.revision = (2, recorded(1))
    assert not session.reader_behind()
    store.save(shared, classic(title="Shared"), deleted(1), after=2)
    seen.explaining = True  # the explanation stays open; drawn once it is closed
    assert not session.reader_behind()
    seen.explaining = False
    assert session.reader_behind()
    store.new_links(shared)  # the owner stopped sharing: closed, and the reader told why
    assert session.reader_behind()
    assert "game_id" not in seen and "live" not in seen
    assert any("no longer on this browser's list" in text for _kind, text in seen["flash"])


def test_an_edit_link_records_in_that_game_only(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = store.create(classic(title="Shared"), ANN)
    private = store.create(classic(title="Private"), ANN)
    at = browser(monkeypatch, BOB, game=store.links(shared).edit)
    assert at.session_state["access"] == "edit"
    pick(at, "Mr. Green", "Rope", "Library")
    at.button(key="submit").click().run()
    assert not at.exception
    assert len(store.load(shared).events) == 1  # type: ignore[union-attr]
    at.segmented_control(key="view").set_value("Game").run()
    assert not any(b.key == "new_links" for b in at.button)  # only the owner makes new links
    at.button(key="close_game").click().run()
    assert listed(at) == [shared]
    assert store.load(private) == classic(title="Private")
    # the game's internal id opens nothing for a browser that does not have it
    assert "live" not in browser(monkeypatch, "browser-of-cat", game=private).session_state


def test_the_links_say_they_show_my_cards(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A link opens the notebook with Ann's hand and the cards shown to her: the Game screen
    says so where it offers the links, to the owner and to a reader passing the link on (it
    said only "sees the grid, log and review", and a player sent it across the table)."""
    game_id = store.create(classic(), ANN)
    for at in (browser(monkeypatch, ANN, game=game_id),
               browser(monkeypatch, BOB, game=store.links(game_id).read)):
        at.segmented_control(key="view").set_value("Game").run()
        assert "Whoever opens a link sees Ann's cards" in texts(at)
    spectator = store.create(GameLog(new_game(CLASSIC, NAMES, Dealing.CLASSIC), ()), ANN)
    at = browser(monkeypatch, ANN, game=spectator)
    at.segmented_control(key="view").set_value("Game").run()
    assert "Whoever opens a link" not in texts(at)  # no hand to give away


def test_new_links_stop_sharing(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = store.create(classic(), ANN)
    old = store.links(game_id)
    bob = browser(monkeypatch, BOB, game=old.edit)
    owner = browser(monkeypatch, ANN, game=game_id)
    owner.segmented_control(key="view").set_value("Game").run()
    owner.button(key="new_links").click().run()
    owner.button(key="confirm_new_links").click().run()  # asked twice
    assert not owner.exception
    assert store.links(game_id) != old
    monkeypatch.setattr(session, "browser_cookie", lambda: BOB)
    pick(bob, "Mr. Green", "Rope", "Library")
    bob.button(key="submit").click().run()
    assert "Not saved: recorded event 1. This game is no longer on this browser's list" in texts(
        bob)
    assert "live" not in bob.session_state
    assert store.load(game_id) == classic()
    told = texts(browser(monkeypatch, BOB, game=old.edit))
    assert "This link does not open a game here" in told
    assert "may have made new links since" in told  # an old link: what to ask for


def test_new_links_are_asked_twice(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Stop sharing: new links" cuts off every other phone at once and cannot be undone: one
    tap only asks (it took effect on one tap); Cancel keeps the links, and the question is
    not left open on another game, nor for a later look at the Game screen."""
    game_id = store.create(classic(), ANN)
    other = store.create(classic(title="Other"), ANN)
    old = store.links(game_id)
    owner = browser(monkeypatch, ANN, game=game_id)
    owner.segmented_control(key="view").set_value("Game").run()
    owner.button(key="new_links").click().run()
    assert store.links(game_id) == old
    assert any("This stops every link you have shared" in w.value for w in owner.warning)
    assert not any(b.key == "new_links" for b in owner.button)  # its place holds the question
    owner.button(key="cancel_new_links").click().run()
    assert store.links(game_id) == old
    assert not any(b.key == "confirm_new_links" for b in owner.button)
    owner.button(key="new_links").click().run()
    owner.button(key="close_game").click().run()
    owner.button(key=f"open_{other}").click().run()
    owner.segmented_control(key="view").set_value("Game").run()
    assert not any(b.key == "confirm_new_links" for b in owner.button)
    assert store.links(game_id) == old
    owner.button(key="new_links").click().run()  # asked, then another screen looked at:
    owner.segmented_control(key="view").set_value("Grid").run()
    owner.segmented_control(key="view").set_value("Game").run()
    assert not any(b.key == "confirm_new_links" for b in owner.button)  # not still asking
    assert any(b.key == "new_links" for b in owner.button)


def test_new_links_close_the_game_on_screens_left_open(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A holder of an old link whose screen stays open loses the game at its next tap: it
    neither follows the entries recorded since nor shows the new links on the Game screen."""
    game_id = store.create(classic(), ANN)
    old = store.links(game_id)
    bob = browser(monkeypatch, BOB, game=old.read)
    cat = browser(monkeypatch, "browser-of-cat", game=old.edit)
    fresh = store.new_links(game_id)
    seq = store.seq(game_id)
    assert seq is not None
    one = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob")
    store.save(game_id, classic(one), "after the new links", after=seq)
    for shelf, at in ((BOB, bob), ("browser-of-cat", cat)):
        monkeypatch.setattr(session, "browser_cookie", lambda shelf=shelf: shelf)
        at.segmented_control(key="view").set_value("Game").run()
        assert not at.exception
        assert "live" not in at.session_state and "game" not in at.query_params
        assert not any(fresh.read in c.value or fresh.edit in c.value for c in at.code)
        assert "Mrs. White" not in texts(at)
        assert "no longer on this browser's list" in texts(at)
        assert listed(at) == []


def rows_of(db: Path, game_id: str) -> dict[str, int]:
    """How many rows each table holds for a game."""
    with sqlite3.connect(db) as conn:
        return {table: conn.execute(f"SELECT count(*) FROM {table} WHERE {key} = ?",
                                    (game_id,)).fetchone()[0]
                for table, key in (("games", "id"), ("revisions", "game_id"),
                                   ("events", "game_id"), ("shelves", "game_id"),
                                   ("drafts", "game_id"))}


def test_the_owner_deletes_a_game_for_everyone(
    db: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Removing a game from the owner's list kept it, and its links, on the server for good,
    with nobody left who could stop them. The owner can delete it: asked first (Cancel keeps
    it), then every row of it is gone, its links open nothing, and a screen left open on it
    says it was deleted at its next tap, its entry not saved over nothing."""
    one = Suggestion("Bob", ("Mr. Green", "Rope", "Library"), refuted_by="Cat")
    game_id = store.create(classic(one), ANN)
    links = store.links(game_id)
    cat = browser(monkeypatch, "browser-of-cat", game=links.edit)
    cat.segmented_control(key="view").set_value("Game").run()
    assert not any(b.key == "delete_game" for b in cat.button)  # the owner's alone
    bob = browser(monkeypatch, BOB, game=links.edit)
    store.keep_draft(BOB, game_id, {"kind": "Suggestion", "by": "Ann"})
    owner = browser(monkeypatch, ANN, game=game_id)
    owner.segmented_control(key="view").set_value("Game").run()
    owner.button(key="delete_game").click().run()
    assert any("This deletes the game" in w.value for w in owner.warning)
    owner.button(key="cancel_delete_game").click().run()
    assert store.load(game_id) == classic(one)
    owner.button(key="delete_game").click().run()
    owner.button(key="confirm_delete_game").click().run()
    assert not owner.exception
    assert "live" not in owner.session_state and listed(owner) == []
    assert "Game deleted" in texts(owner)
    assert set(rows_of(db, game_id).values()) == {0}
    monkeypatch.setattr(session, "browser_cookie", lambda: BOB)
    bob.segmented_control(key="view").set_value("Grid").run()  # a tap
    assert not bob.exception
    assert "This game was deleted by its owner" in texts(bob)
    assert "live" not in bob.session_state and listed(bob) == []
    assert set(rows_of(db, game_id).values()) == {0}  # no form kept for a game that is gone
    for token in (links.edit, links.read):  # an old link may name a deleted game (it did not
        told = texts(browser(monkeypatch, "browser-of-dan", game=token))  # say so: ask for
        assert "This link does not open a game here" in told  # new links, the reader was told)
        assert "or deleted the game" in told


def test_a_deleted_game_tapped_on_a_list_drawn_before_says_so(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A list drawn before the owner deleted a game (another tab, a phone left on the home
    screen) still shows it: its tap said only "That game is not in this browser's list"."""
    kept, gone = store.create(classic(title="Kept"), ANN), store.create(classic(), ANN)
    at = browser(monkeypatch, ANN)
    store.delete(gone)
    store.forget(ANN, kept)  # taken off the list in another tab: still a game
    at.button(key=f"open_{gone}").click().run()
    assert "This game was deleted by its owner" in texts(at) and "live" not in at.session_state
    at = browser(monkeypatch, ANN)
    store.shelve(ANN, kept, "owner")
    at.run()
    store.forget(ANN, kept)
    at.button(key=f"open_{kept}").click().run()
    assert "That game is not in this browser's list" in texts(at)


def test_a_save_racing_the_delete_is_refused_in_words(
    db: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner deletes the game between another screen's look at its access and its save:
    the save finds no game, and the player is told, with no traceback; the form Record keeps
    until its save commits is not left behind for a game that is gone."""
    game_id = store.create(classic(), ANN)
    bob = browser(monkeypatch, BOB, game=store.links(game_id).edit)
    store.delete(game_id)
    monkeypatch.setattr(Store, "access", lambda self, shelf, game: "edit")
    pick(bob, "Mr. Green", "Rope", "Library")
    bob.button(key="submit").click().run()
    assert not bob.exception
    assert "Not saved: recorded event 1. This game was deleted by its owner" in texts(bob)
    assert "live" not in bob.session_state
    assert store.load(game_id) is None
    assert set(rows_of(db, game_id).values()) == {0}


def test_an_undo_racing_the_delete_says_the_game_was_deleted(
    db: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner deletes the game between another screen's look at its access and its Undo:
    the undo finds no game and the player is told so, the game closed. It said 'The game
    changed on another screen; reloaded. Nothing was undone: check the game and try again',
    and went on showing the game that was gone."""
    one = Suggestion("Bob", ("Mr. Green", "Rope", "Library"), refuted_by="Cat")
    game_id = store.create(classic(), ANN)
    store.save(game_id, classic(one), "recorded event 1")
    bob = browser(monkeypatch, BOB, game=store.links(game_id).edit)
    store.delete(game_id)
    monkeypatch.setattr(Store, "access", lambda self, shelf, game: "edit")
    bob.button(key="undo").click().run()
    assert not bob.exception
    said = texts(bob)
    assert "Nothing was undone. This game was deleted by its owner" in said, said
    assert "reloaded" not in said
    assert "live" not in bob.session_state


def status(at: AppTest) -> str:
    """The status line under the tabs (and any other caption)."""
    return "\n".join(shown(c.value) for c in at.caption)


def test_what_another_phone_changed_is_said_in_the_status_line(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found in a two-phone play-through: an entry recorded on the other phone appeared in the
    log at the next tap with no word (only the Undo button named it). Each change saved on
    another screen is said once, calmly, in the status line: entries recorded (one or
    several), an edit, an undo there, anything else by its revision's note; never this
    screen's own save, nor opening the game."""
    first = Suggestion("Bob", ("Mr. Green", "Rope", "Library"), refuted_by="Cat")
    game_id = store.create(classic(first), ANN)
    ann = browser(monkeypatch, ANN, game=game_id)
    bob = browser(monkeypatch, BOB, game=store.links(game_id).edit)
    for at in (ann, bob):
        assert "on another screen" not in texts(at)
    bob.pills(key="by").set_value("Dan").run()
    pick(bob, "Mrs. Peacock", "Knife", "Lounge")
    bob.button(key="submit").click().run()
    assert len(store.load(game_id).events) == 2  # type: ignore[union-attr]
    assert "on another screen" not in texts(bob)  # its own save
    second = store.load(game_id).events[1]  # type: ignore[union-attr]

    def tap(at: AppTest, shelf: str) -> str:
        monkeypatch.setattr(session, "browser_cookie", lambda: shelf)
        at.run()
        assert not at.exception, at.exception
        return texts(at)

    told = tap(ann, ANN)
    assert f"Recorded on another screen: #2 {describe(second)}" in status(ann)
    assert not any("another screen" in e.value for e in ann.error)  # calm, not a banner
    assert "on another screen" not in tap(ann, ANN)  # said once
    assert told.count("on another screen") == 1

    third, fourth = Reveal("Dan", ("Wrench",)), Reveal("Cat", ("Lead Pipe",))
    log = classic(first, second)
    store.save(game_id, log.append(third), history.recorded(3))
    store.save(game_id, log.append(third).append(fourth), history.recorded(4))
    tap(ann, ANN)
    assert ("2 entries recorded on another screen, latest: #4 Cat revealed Lead Pipe"
            in status(ann))
    edited = replace(first, cards=("Mr. Green", "Knife", "Library"))
    store.save(game_id, classic(edited, second, third, fourth), history.edited(1, first))
    tap(ann, ANN)
    assert f"Edited on another screen: #1 {describe(edited)}" in status(ann)

    tap(bob, BOB)  # Bob's screen follows the store, then undoes the edit and #4
    assert "Changed on another screen, latest: edited event 1" in status(bob)  # three saves
    bob.button(key="undo").click().run()
    tap(ann, ANN)
    assert (f"Undone on another screen: the edit of #1, back to: {describe(first)}"
            in status(ann))
    bob.button(key="undo").click().run()
    tap(ann, ANN)
    assert "Undone on another screen: #4 Cat revealed Lead Pipe" in status(ann)

    ann.pills(key="by").set_value("Bob").run()
    pick(ann, "Colonel Mustard", "Rope", "Study")
    ann.button(key="submit").click().run()
    assert len(store.load(game_id).events) == 4  # type: ignore[union-attr]
    assert "on another screen" not in texts(ann)
    assert "on another screen" not in tap(ann, ANN)
    store.save(game_id, classic(second, third, *store.load(game_id).events[3:]),  # type: ignore[union-attr]
               history.deleted(1))
    tap(ann, ANN)
    assert "Changed on another screen: deleted event 1" in status(ann)


def test_forgetting_a_game_takes_it_off_this_list_only(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = store.create(classic(), ANN)
    owner = browser(monkeypatch, ANN, game=game_id)
    owner.segmented_control(key="view").set_value("Game").run()
    # the owner who removes it gives up the only way to stop sharing it: the screen says so
    assert any("once it is removed, nobody can" in c.value for c in owner.caption)
    at = browser(monkeypatch, BOB, game=store.links(game_id).edit)
    at.segmented_control(key="view").set_value("Game").run()
    assert any("its links still open it" in c.value for c in at.caption)
    assert not any("nobody can" in c.value for c in at.caption)
    at.button(key="forget_game").click().run()
    assert listed(at) == [] and "live" not in at.session_state
    assert listed(browser(monkeypatch, ANN)) == [game_id]


# --- entries are never lost without a word -----------------------------------------------------


def test_an_entry_whose_save_never_finished_comes_back(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server stopped after Record was pressed, before the save committed: the kept form
    is put back on the next visit, with a message."""
    game_id = store.create(classic(), ANN)
    store.keep_draft(ANN, game_id, {"kind": "Suggestion", "by": "Bob", "e_suspect": "Mr. Green",
                                    "e_weapon": "Rope", "e_room": "Library",
                                    "e_refuter": "Cat"})
    at = browser(monkeypatch, ANN, game=game_id)
    assert "Your last entry was not saved" in texts(at)
    assert at.pills(key="by").value == "Bob"
    assert at.pills(key="e_weapon").value == "Rope"
    assert at.pills(key="e_refuter").value == "Cat"
    at.button(key="submit").click().run()
    assert store.load(game_id).events == (  # type: ignore[union-attr]
        Suggestion("Bob", ("Mr. Green", "Rope", "Library"), refuted_by="Cat"),)
    assert store.take_draft(ANN, game_id) is None
    assert "Your last entry was not saved" not in texts(browser(monkeypatch, ANN, game=game_id))


KEPT = "The entry you were filling in is back in the form, not recorded yet"


def test_a_reload_finds_the_chips_tapped_back(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chips tapped, then the page reloads (a pull to refresh, a tab the phone's browser
    dropped): a new session on the same browser finds the form as it was, with a calm note (not
    'was not saved'). The form was lost before."""
    game_id = store.create(classic(), ANN)
    at = browser(monkeypatch, ANN, game=game_id)
    at.segmented_control(key="kind").set_value("Accusation").run()
    at.pills(key="by").set_value("Bob").run()
    at.pills(key="e_suspect").set_value("Mr. Green").run()
    at.pills(key="e_weapon").set_value("Knife").run()
    again = browser(monkeypatch, ANN, game=game_id)
    assert again.segmented_control(key="kind").value == "Accusation"
    assert again.pills(key="by").value == "Bob"
    assert again.pills(key="e_suspect").value == "Mr. Green"
    assert again.pills(key="e_weapon").value == "Knife"
    assert KEPT in texts(again) and "was not saved" not in texts(again)
    assert not again.error
    again.pills(key="e_room").set_value("Hall").run()
    again.pills(key="e_result").set_value("wrong").run()
    again.button(key="submit").click().run()
    assert store.load(game_id).events == (  # type: ignore[union-attr]
        Accusation("Bob", ("Mr. Green", "Knife", "Hall"), correct=False),)
    assert store.take_draft(ANN, game_id) is None  # Record leaves nothing to restore
    later = browser(monkeypatch, ANN, game=game_id)
    assert KEPT not in texts(later) and later.pills(key="e_suspect").value is None
    assert browser(monkeypatch, BOB, game=store.links(game_id).read).error == []  # reads only


def test_a_phone_back_mid_turn_is_told_what_the_table_recorded(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A phone half through a turn sleeps (its tab dropped, or its network gone for minutes)
    while another phone records two entries: back on the game, its form is there and the
    status line says what was recorded meanwhile, as a screen following a change at a tap
    does. It said only that the form was back (seen at 390 px in Chromium: the table's two
    entries came in without a word)."""
    game_id = store.create(classic(), ANN)
    at = browser(monkeypatch, ANN, game=game_id)
    at.pills(key="e_suspect").set_value("Mr. Green").run()
    two = (Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), refuted_by="Bob"),
           Suggestion("Bob", ("Mr. Green", "Rope", "Hall"), refuted_by="Cat"))
    log = store.load(game_id)
    assert log is not None
    store.save(game_id, GameLog(log.game, two[:1]), recorded(1), after=1)
    store.save(game_id, GameLog(log.game, two), recorded(2), after=2)
    again = browser(monkeypatch, ANN, game=game_id)
    assert again.pills(key="e_suspect").value == "Mr. Green" and KEPT in texts(again)
    assert ("2 entries recorded on another screen, latest: #2 " + describe(two[1])
            in texts(again))
    one_more = (*two, Suggestion("Cat", ("Mr. Green", "Rope", "Hall"), refuted_by="Dan"))
    store.save(game_id, GameLog(log.game, one_more), recorded(3), after=3)
    later = browser(monkeypatch, ANN, game=game_id)
    assert "Recorded on another screen: #3 " + describe(one_more[2]) in texts(later)
    assert "entries recorded" not in texts(later)


def test_an_entry_undo_put_back_survives_a_reload(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Undo of the latest entry puts it back into the form, to fix: a reload keeps it there
    (before, it was gone for good: undone, and no redo)."""
    game_id = store.create(classic(), ANN)
    at = browser(monkeypatch, ANN, game=game_id)
    pick(at, "Mr. Green", "Rope", "Library")
    at.button(key="submit").click().run()
    assert len(store.load(game_id).events) == 1  # type: ignore[union-attr]
    at.button(key="undo").click().run()
    assert store.load(game_id).events == ()  # type: ignore[union-attr]
    assert at.pills(key="e_weapon").value == "Rope"
    again = browser(monkeypatch, ANN, game=game_id)
    assert again.pills(key="e_suspect").value == "Mr. Green"
    assert again.pills(key="e_weapon").value == "Rope"
    assert again.pills(key="e_room").value == "Library"
    assert again.pills(key="e_refuter").value == "Cat"
    assert KEPT in texts(again)


def test_which_card_i_showed_is_still_asked_after_a_reload(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's suggestion recorded, Ann showed one of two of her cards: the question which one
    was lost to a reload, and the entry stayed without it (what Bob has seen from her, which
    the show advice weighs). It comes back until answered or skipped, and not after."""
    game_id = store.create(classic(), ANN)
    at = browser(monkeypatch, ANN, game=game_id)
    at.pills(key="by").set_value("Bob").run()
    pick(at, "Miss Scarlet", "Rope", "Library")
    at.pills(key="e_refuter").set_value("Ann")
    at.button(key="submit").click().run()
    assert any(b.key == "showed_Rope" for b in at.button)
    again = browser(monkeypatch, ANN, game=game_id)
    assert any(b.key == "showed_Rope" for b in again.button)
    assert KEPT not in texts(again) and again.pills(key="e_suspect").value is None
    again.button(key="showed_Rope").click().run()
    assert store.load(game_id).events[0].shown == "Rope"  # type: ignore[union-attr]
    later = browser(monkeypatch, ANN, game=game_id)
    assert not any(str(b.key).startswith("showed_") for b in later.button)
    later.pills(key="by").set_value("Bob").run()
    pick(later, "Miss Scarlet", "Rope", "Lounge")
    later.pills(key="e_refuter").set_value("Ann")
    later.button(key="submit").click().run()
    later.pills(key="e_suspect").set_value("Mr. Green").run()  # the next turn begun, the
    again = browser(monkeypatch, ANN, game=game_id)  # question still open
    assert any(b.key == "showed_Rope" for b in again.button)
    assert again.pills(key="e_suspect").value == "Mr. Green" and KEPT in texts(again)
    again.button(key="showed_skip").click().run()
    assert not any(str(b.key).startswith("showed_") for b in browser(
        monkeypatch, ANN, game=game_id).button)


def test_which_card_i_showed_is_taken_from_the_first_tap_after_a_restart(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The question 'Which card did you show?' open while the server restarts (kill -9 at 390
    px): the page's first tap on a card went to a new session, which knew no callback for it,
    and only drew the question again (the card not saved). Skip likewise."""
    game_id = store.create(classic(), ANN)
    at = browser(monkeypatch, ANN, game=game_id)
    for refuted in ("Library", "Lounge"):
        at.pills(key="by").set_value("Bob").run()
        pick(at, "Miss Scarlet", "Rope", refuted)
        at.pills(key="e_refuter").set_value("Ann")
        at.button(key="submit").click().run()
        assert any(b.key == "showed_Rope" for b in at.button)
        if refuted == "Library":
            at = after_restart(at.button(key="showed_Rope").click())
            assert store.load(game_id).events[0].shown == "Rope"  # type: ignore[union-attr]
        else:
            at = after_restart(at.button(key="showed_skip").click())
        assert not any(str(b.key).startswith("showed_") for b in at.button)
    assert not any(str(b.key).startswith("showed_") for b in browser(
        monkeypatch, ANN, game=game_id).button)


def test_a_button_takes_the_first_tap_after_a_restart(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page's first tap after a server restart goes to a new session, which knows no callback
    for a button it has not drawn: a Log entry, Close game, Open example tapped then did nothing
    (kill -9 at 390 px). Now each does what it says (not Undo: `session.button`)."""
    one = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob", "Cat", "Dan"))
    game_id = store.create(classic(one), ANN)
    at = browser(monkeypatch, ANN, game=game_id)
    at.segmented_control(key="view").set_value("Log").run()
    at = after_restart(at.button(key="edit_0").click())
    assert at.session_state["editing"] == 0 and at.segmented_control(key="view").value == "Turn"
    at.button(key="cancel_edit").click().run()
    at.segmented_control(key="view").set_value("Game").run()
    at = after_restart(at.button(key="close_game").click())
    assert "live" not in at.session_state and listed(at) == [game_id]
    at.selectbox(key="example").set_value("rules-example-1").run()
    at = after_restart(at.button(key="open_example").click())
    assert "live" in at.session_state and at.session_state["game_id"] != game_id


def test_a_tap_whose_meaning_the_old_screen_gave_is_said_after_a_restart(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Undo, Delete #n and Delete game's confirmation mean what the screen tapped showed (the
    latest entry then, the entry edited, the question asked). Their first tap after a server
    restart reaches a new session that cannot know it, so it does nothing, as before, but
    the player is now told so, not left to think it done (kill -9 at 390 px: no word)."""
    one = Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"), passes=("Bob", "Cat", "Dan"))
    game_id = store.create(classic(one), ANN)
    at = browser(monkeypatch, ANN, game=game_id)
    at.pills(key="by").set_value("Bob").run()
    pick(at, "Mr. Green", "Wrench", "Library")
    at.button(key="submit").click().run()
    two = store.load(game_id)
    assert len(two.events) == 2
    at = after_restart(at.button(key="undo").click())
    assert store.load(game_id) == two
    assert "The app restarted as you tapped Undo: nothing was done" in texts(at)
    at.button(key="undo").click().run()  # the next tap, on what this screen shows, does it
    assert store.load(game_id) == classic(one)
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_0").click().run()
    at = after_restart(at.button(key="delete_entry").click())
    assert store.load(game_id) == classic(one)
    assert "The app restarted as you tapped Delete #1: nothing was done" in texts(at)
    at.segmented_control(key="view").set_value("Game").run()
    at.button(key="delete_game").click().run()
    at = after_restart(at.button(key="confirm_delete_game").click())
    assert store.load(game_id) == classic(one)
    assert "The app restarted as you tapped Delete game: nothing was done" in texts(at)

def test_the_same_turn_from_two_phones_across_a_restart_is_recorded_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two phones enter the same turn; the server restarts (kill -9); each then taps Record,
    its first tap, into a new session. The second was recorded too (#2 and #3 the same at
    390 px): its new session read the first's entry as part of the game it opened, not as
    another screen's. Its browser's kept form says how many entries there were when it was
    filled in, so it is not recorded twice."""
    game_id = store.create(classic(), ANN)
    ann = browser(monkeypatch, ANN, game=game_id)
    bob = browser(monkeypatch, BOB, game=store.links(game_id).edit)
    for at in (ann, bob):
        for key, value in (("e_suspect", "Mrs. White"), ("e_weapon", "Knife"),
                           ("e_room", "Lounge"), ("e_refuter", "")):
            at.pills(key=key).set_value(value).run()
    for shelf, at in ((ANN, ann), (BOB, bob)):
        monkeypatch.setattr(session, "browser_cookie", lambda shelf=shelf: shelf)
        done = after_restart(at.button(key="submit").click())
    assert store.load(game_id) == classic(Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"),
                                                     passes=("Bob", "Cat", "Dan")))
    assert "Already recorded on another screen: #1" in texts(done)
    assert done.pills(key="e_suspect").value is None  # a fresh form for the next turn


def test_a_form_put_back_by_a_reload_is_not_recorded_twice_when_its_record_lands_late(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page reloaded after the network dropped mid-Record (`notebook_app.connection`) puts the
    kept form back ("not recorded yet"); on a loaded server the Record's save lands after that
    (the clean-clone CI, once): the screen then showed the entry recorded and the form full, and
    a Record of that form would add it again. Such a form's Record sees the entry recorded since
    the form was kept, as a page's after a server restart does, and records it once."""
    game_id = store.create(classic(), ANN)
    at = browser(monkeypatch, ANN, game=game_id)
    for key, value in (("e_suspect", "Mrs. White"), ("e_weapon", "Knife"),
                       ("e_room", "Lounge"), ("e_refuter", "")):
        at.pills(key=key).set_value(value).run()  # the form kept as it is typed
    again = browser(monkeypatch, ANN, game=game_id)  # the reload: the form put back
    assert again.pills(key="e_suspect").value == "Mrs. White"
    at.button(key="submit").click().run()  # the Record's save, landing after the reload
    one = classic(Suggestion("Ann", ("Mrs. White", "Knife", "Lounge"),
                             passes=("Bob", "Cat", "Dan")))
    assert store.load(game_id) == one
    again.segmented_control(key="view").set_value("Log").run()  # a tap: the entry shows here
    again.segmented_control(key="view").set_value("Turn").run()
    assert again.pills(key="e_suspect").value == "Mrs. White"  # the form as it was
    again.button(key="submit").click().run()
    assert store.load(game_id) == one
    assert "Already recorded on another screen: #1" in texts(again)


def test_an_edit_in_progress_survives_a_reload_on_its_entry(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edit open when the page reloads comes back open on the same entry, found again where
    another tab's change moved it (#2 is #1 once #1 is deleted); an entry another tab recorded
    meanwhile is not put back as a new one."""
    first = Suggestion("Bob", ("Mr. Green", "Rope", "Library"), refuted_by="Cat")
    second = Suggestion("Cat", ("Mrs. Peacock", "Knife", "Hall"), refuted_by="Dan")
    game_id = store.create(classic(first, second), ANN)
    at = browser(monkeypatch, ANN, game=game_id)
    at.segmented_control(key="view").set_value("Log").run()
    at.button(key="edit_1").click().run()
    at.pills(key="e_weapon").set_value("Wrench").run()
    store.save(game_id, classic(second), "deleted event 1")  # another tab deleted #1
    again = browser(monkeypatch, ANN, game=game_id, edit="2")
    assert again.session_state["editing"] == 0
    assert again.pills(key="e_weapon").value == "Wrench"
    assert "Your changes to #1 are back in the form, not saved yet" in texts(again)
    again.button(key="submit").click().run()
    assert store.load(game_id).events == (  # type: ignore[union-attr]
        replace(second, cards=("Mrs. Peacock", "Wrench", "Hall")),)
    assert again.session_state["view"] == "Log"  # back where the edit was opened from
    again.segmented_control(key="view").set_value("Turn").run()
    again.pills(key="by").set_value("Dan").run()  # a new entry, then recorded by another tab
    pick(again, "Colonel Mustard", "Rope", "Study")
    again.run()
    done = Suggestion("Dan", ("Colonel Mustard", "Rope", "Study"), passes=("Ann", "Bob"),
                      refuted_by="Cat")
    store.save(game_id, store.load(game_id).append(done), "recorded event 2")  # type: ignore[union-attr]
    latest = browser(monkeypatch, ANN, game=game_id)
    assert KEPT not in texts(latest) and latest.pills(key="e_suspect").value is None


def test_a_locked_database_says_not_saved_within_seconds(
    db: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = store.create(classic(), ANN)
    at = browser(monkeypatch, ANN, game=game_id)
    pick(at, "Mr. Green", "Rope", "Library")
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        started = time.monotonic()
        at.button(key="submit").click().run()
        took = time.monotonic() - started
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not at.exception
    assert "Not saved: recorded event 1: the database is busy" in texts(at)
    assert took < 10, took  # the save gives up after 5 s (reads never wait: WAL)
    assert at.pills(key="e_weapon").value == "Rope"
    at.button(key="submit").click().run()
    assert len(store.load(game_id).events) == 1  # type: ignore[union-attr]


def full_after(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Make every new connection see a database that cannot grow (SQLite's real "database or
    disk is full"), from when the returned function is called."""
    full = {"on": False}
    make = store_module._sqlite_engine

    def engine(path: Path) -> sa.Engine:
        made = make(path)

        @sa.event.listens_for(made, "connect")
        def cap(connection: sqlite3.Connection, _: object) -> None:
            if full["on"]:
                pages = connection.execute("PRAGMA page_count").fetchone()[0]
                connection.execute(f"PRAGMA max_page_count = {pages}")

        return made

    monkeypatch.setattr(store_module, "_sqlite_engine", engine)
    return lambda: full.update(on=True)


def test_a_full_disk_says_not_saved_and_keeps_the_form(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fill = full_after(monkeypatch)
    store = Store(db)
    game_id = store.create(classic(), ANN)
    at = browser(monkeypatch, ANN, game=game_id)
    fill()
    for _ in range(40):  # until the last free page is used
        pick(at, "Mr. Green", "Rope", "Library")
        if at.pills(key="by").value == "Cat":
            at.pills(key="e_refuter").set_value("Dan")
        at.button(key="submit").click().run()
        assert not at.exception
        if "full" in texts(at):
            break
    else:
        pytest.fail("never full after 40 entries")
    assert "Not saved: recorded event" in texts(at) and "disk holding the database is full" in \
        texts(at)
    assert at.pills(key="e_weapon").value == "Rope"


def test_a_damaged_database_is_a_message_on_every_screen(
    db: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = store.create(classic(), ANN)
    at = browser(monkeypatch, ANN, game=game_id)
    pick(at, "Mr. Green", "Rope", "Library")
    db.write_bytes(b"not a database at all" * 300)
    at.button(key="submit").click().run()
    assert not at.exception
    assert "Not saved: recorded event 1: the database file is damaged" in texts(at)
    assert at.pills(key="e_weapon").value == "Rope"
    at.segmented_control(key="view").set_value("Game").run()
    assert not at.exception and "links cannot be shown now" in texts(at)
    home = browser(monkeypatch, ANN)
    assert "Your saved games cannot be listed now: the database file is damaged" in texts(home)
    reload = browser(monkeypatch, ANN, game=game_id)
    assert "The game could not be opened: the database file is damaged" in texts(reload)
    assert reload.query_params["game"] == game_id  # kept: reloading later opens it


def test_a_deleted_database_is_a_message_not_an_empty_notebook(
    db: Path, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = store.create(classic(), ANN)
    at = browser(monkeypatch, ANN, game=game_id)
    pick(at, "Mrs. White", "Knife", "Lounge")
    at.button(key="submit").click().run()
    db.unlink()
    pick(at, "Mr. Green", "Rope", "Library")
    at.button(key="submit").click().run()
    assert not at.exception
    assert "Not saved: recorded event 2: the database cannot be reached" in texts(at)
    assert at.pills(key="e_weapon").value == "Rope"
    at.button(key="undo").click().run()
    assert not at.exception
    assert "Nothing was undone: the database cannot be reached" in texts(at)
    assert len(at.session_state["live"].log.events) == 1  # the screen still shows the game
    assert not db.exists()  # never silently recreated empty


def test_a_read_link_speaks_of_the_owner_by_name(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read link's reader is not the notebook's own player: the header, the Game screen, the
    Log's text view and why entries clash spoke to them as if they were ("You accused
    correctly", "Your cards (Ann)", "paste turns", which only an editor can, "You hold Rope
    (your own hand)"). The edit link still says "you"."""
    won = Accusation("Ann", ("Mrs. White", "Knife", "Lounge"), correct=True)
    shared = store.create(classic(won, title="Shared"), ANN)
    reader = browser(monkeypatch, BOB, game=store.links(shared).read)
    assert "Ann accused correctly: the game is over." in texts(reader)
    assert "You accused" not in texts(reader)
    reader.segmented_control(key="view").set_value("Game").run()
    assert "**Ann's cards:** Miss Scarlet, Rope, Kitchen, Hall, Study" in texts(reader)
    assert "Your cards" not in texts(reader)
    reader.segmented_control(key="view").set_value("Log").run()
    assert [e.label for e in reader.expander] == ["As text: copy or share"]
    clash = Suggestion("Ann", ("Mrs. White", "Rope", "Lounge"), refuted_by="Bob", shown="Rope")
    clashing = store.create(classic(clash, title="Clash"), ANN)
    reader = browser(monkeypatch, BOB, game=store.links(clashing).read)
    reader.toggle(key="why_conflict").set_value(True).run()
    assert "Ann holds Rope (Ann's own hand)." in texts(reader)
    assert "Bob showed Rope to Ann (event 1)." in texts(reader)
    owner = browser(monkeypatch, ANN, game=store.links(shared).edit)
    assert "You accused correctly: the game is over." in texts(owner)
    owner.segmented_control(key="view").set_value("Game").run()
    assert "**Your cards** (Ann): Miss Scarlet, Rope, Kitchen, Hall, Study" in texts(owner)
