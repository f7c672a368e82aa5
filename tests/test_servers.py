"""Several app servers, one database, and servers killed while they save.

Real ``streamlit run`` servers on 127.0.0.1 and phones that speak the app's websocket
(`tests.wsclient`):

- two servers on different ports sharing one PostgreSQL database are one app: a game opened
  through one is current on the other, two phones entering turns in one game through different
  servers never lose or overwrite an entry, and a screen that has not seen the other server's
  entry can neither save over it nor undo it;
- ``kill -9`` of a server at a random moment while a phone records turns loses no entry the app
  said it recorded; the entry in flight is saved or, when the phone comes back, put back in
  its form with a message; the database passes its integrity check (SQLite and PostgreSQL);
- a server does no full garbage collection after each run (`.streamlit/config.toml`).

The PostgreSQL server is the test session's own (``tests/conftest.py``).
"""

from __future__ import annotations

import random
import threading
import time
import tomllib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from notebook_app.store import Store
from tests.appserver import Server
from tests.wsclient import (
    Phone,
    SessionLost,
    Turn,
    choose,
    new_table,
    press_record,
    record,
    turn_for,
    turns_saved,
)

ANN, BOB = "shelf-of-ann-phone", "shelf-of-bob-phone"
ROOT = Path(__file__).resolve().parent.parent


def test_a_run_ends_without_a_full_garbage_collection() -> None:
    """Streamlit's ``runner.postScriptGC`` (on unless set) ends every run with ``gc.collect(2)``,
    which walks the whole heap of a server that has loaded pandas, altair, numba and the odds
    kernels: about 100 ms of CPU per tap on a chip, several times what the run itself costs
    (docs/testing.md). Servers run from the repository root, which holds this setting. (The
    option is read from Streamlit's own list, so a renamed one fails here instead of being
    ignored; AppTest never collects, so no AppTest run can show the difference.)"""
    from streamlit import config

    option = config._config_options_template["runner.postScriptGC"]
    assert option.default_val is True  # what a server does unless told otherwise
    settings = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert settings["runner"]["postScriptGC"] is False


def started(database: str | Path) -> Server:
    server = Server(database)
    try:
        server.start()
    except RuntimeError as err:
        pytest.fail(str(err))
    return server


@pytest.fixture
def two_servers(postgres_url: str) -> Iterator[tuple[Server, Server, Store]]:
    store = Store(postgres_url)  # migrated once, before either server opens it
    first = started(postgres_url)
    try:
        second = started(postgres_url)
        try:
            yield first, second, store
        finally:
            second.stop()
    finally:
        first.stop()
        store.engine.dispose()


def saved(store: Store, game_id: str) -> list[Turn]:
    latest = store.latest(game_id)
    assert latest is not None
    return turns_saved(latest.log)


def test_two_servers_are_one_app(two_servers: tuple[Server, Server, Store]) -> None:
    one, two, store = two_servers
    game_id = store.create(new_table(), ANN)
    ann = Phone(one.url, ANN, f"game={game_id}")
    bob = Phone(two.url, BOB, f"game={store.links(game_id).edit}")
    try:
        assert "Club" in ann.open().text()
        assert "Club" in bob.open().text() and bob.query == f"game={game_id}"
        assert record(ann, turn_for(0)) == "recorded"  # through the first server...
        assert "Undo #1: " in bob.tap().text()  # ...is current on the second

        bob.tap(by="Cat")  # Bob starts an entry; Ann records another meanwhile
        assert record(ann, turn_for(1)) == "recorded"
        late = turn_for(2)
        screen = bob.tap(e_suspect=late[1], e_weapon=late[2], e_room=late[3],
                         e_refuter=late[4], submit=True)
        assert "The game changed on another screen; reloaded. Your entry was not saved" \
            in screen.text()  # the stale-revision rule holds across servers
        assert saved(store, game_id) == [turn_for(0), turn_for(1)]  # nothing overwritten
        screen = bob.tap(submit=True)  # his form was kept: Record again adds it after Ann's
        assert "Undo #3: " in screen.text()
        assert saved(store, game_id) == [turn_for(0), turn_for(1), ("Cat", *late[1:])]

        screen = ann.tap(undo=True)  # Ann has not seen Bob's entry: she cannot undo it
        assert "Nothing was undone" in screen.text()
        assert len(saved(store, game_id)) == 3
        assert "Undo #3: " in ann.tap().text()
    finally:
        ann.close()
        bob.close()


def play(phone: Phone, turns: list[Turn], confirmed: list[Turn], refused: list[int]) -> None:
    """Record ``turns`` in order; an entry the app did not save is entered again after a
    moment's look at the game (0-0.5 s, drawn), as a player told to check it and try again.
    Tried again at once, two phones that tap in the same rhythm stay in step: each time the
    other phone's Record lands while this one's form is open, so this one is refused to the
    end (20 times in a row: 4 runs of 4 before this pause, 2 of 3 after the save fix)."""
    phone.open()
    pause = random.Random(phone.shelf)
    for turn in turns:
        for _ in range(20):
            if record(phone, turn) == "recorded":
                confirmed.append(turn)
                break
            refused.append(1)
            time.sleep(pause.uniform(0.0, 0.5))
        else:
            raise AssertionError(f"never saved: {turn}")


@pytest.mark.parametrize("turns", [pytest.param(4, id="4 turns each"),
                                   pytest.param(30, id="30 turns each", marks=pytest.mark.slow)])
def test_two_phones_on_two_servers_never_lose_an_entry(
    two_servers: tuple[Server, Server, Store], turns: int
) -> None:
    one, two, store = two_servers
    game_id = store.create(new_table(), ANN)
    store.shelve(BOB, game_id, "edit")
    phones = [Phone(one.url, ANN, f"game={game_id}"), Phone(two.url, BOB, f"game={game_id}")]
    confirmed: list[list[Turn]] = [[], []]
    refused: list[int] = []
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            play(phones[i], [turn_for(n, seed=i) for n in range(turns)], confirmed[i], refused)
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=900)
    for phone in phones:
        phone.close()
    assert not errors, errors
    assert [len(c) for c in confirmed] == [turns, turns]
    assert Counter(saved(store, game_id)) == Counter(confirmed[0] + confirmed[1])
    for mine in confirmed:  # each phone's entries in the order it made them
        assert [t for t in saved(store, game_id) if t in mine] == mine


# --- kill -9 while saving ---------------------------------------------------------------------


def integrity(database: str) -> None:
    """The database passes its own integrity check."""
    engine = sa.create_engine(database.replace("postgresql://", "postgresql+psycopg://")
                              if "://" in database else f"sqlite:///{database}")
    try:
        with engine.begin() as db:
            if db.dialect.name == "sqlite":
                assert db.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
                return
            db.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS amcheck")
            tables = db.exec_driver_sql(
                "SELECT c.oid, c.relname FROM pg_class c JOIN pg_namespace n ON "
                "n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'").all()
            for oid, name in tables:
                damage = db.exec_driver_sql(f"SELECT * FROM verify_heapam({oid})").all()
                assert damage == [], (name, damage)
            indexes = db.exec_driver_sql(
                "SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "JOIN pg_am a ON a.oid = c.relam WHERE n.nspname = 'public' AND "
                "c.relkind = 'i' AND a.amname = 'btree'").scalars().all()
            for oid in indexes:
                db.exec_driver_sql(f"SELECT bt_index_check({oid}, true)")
            assert len(tables) >= 5 and indexes
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    return str(request.getfixturevalue("postgres_url"))


@pytest.mark.parametrize("rounds", [pytest.param(1, id="1 kill"),
                                    pytest.param(10, id="10 kills", marks=pytest.mark.slow)])
def test_kill_9_while_saving_loses_no_recorded_entry(database: str, rounds: int) -> None:
    store = Store(database)
    game_id = store.create(new_table(), ANN)
    server = started(database)
    chance = random.Random()
    confirmed: list[Turn] = []
    drafts_announced: list[int] = []
    n = 0
    try:
        for _ in range(rounds):
            phone = Phone(server.url, ANN, f"game={game_id}")
            in_flight: list[Turn] = []
            failed: list[BaseException] = []
            going = threading.Event()

            def enter(phone: Phone = phone, in_flight: list[Turn] = in_flight,
                      failed: list[BaseException] = failed,
                      going: threading.Event = going) -> None:
                nonlocal n
                try:
                    phone.open()
                    while True:
                        turn = turn_for(n)
                        choose(phone, turn)
                        in_flight[:] = [turn]  # Record pressed: from here on it is the app's
                        if press_record(phone, turn) == "recorded":
                            confirmed.append(turn)
                            n += 1
                            going.set()
                        in_flight.clear()
                except (SessionLost, TimeoutError, ConnectionError, OSError):
                    return  # the server is gone
                except BaseException as err:
                    failed.append(err)

            thread = threading.Thread(target=enter)
            thread.start()
            going.wait(timeout=180)  # a first entry this round, then a random moment
            thread.join(timeout=chance.uniform(0.0, 4.0))
            server.kill()
            thread.join(timeout=60)
            phone.close()
            assert not failed, failed
            integrity(database)
            on_disk = saved(store, game_id)
            assert on_disk[:len(confirmed)] == confirmed  # every recorded entry is kept
            with store.engine.connect() as db:
                kept = db.execute(sa.text("SELECT form FROM drafts WHERE shelf = :s"),
                                  {"s": ANN}).all()
            server.start()
            back = Phone(server.url, ANN, f"game={game_id}")
            screen = back.open()
            back.close()
            if kept and '"draft":"typing"' in kept[0][0]:  # chips tapped, no Record yet:
                assert on_disk == confirmed  # back in the form, calmly (`notebook_app.kept`)
                assert "back in the form, not recorded yet" in screen.text(), \
                    screen.text()[:500]
            elif kept:  # Record's form was kept, its save never committed: it is announced
                assert in_flight and on_disk == confirmed  # (turns repeat from the 37th on)
                assert "Your last entry was not saved" in screen.text(), screen.text()[:500]
                assert in_flight[0][2] in kept[0][0]
                drafts_announced.append(1)
            elif len(on_disk) > len(confirmed):  # saved, but the phone never heard it
                assert on_disk[len(confirmed):] == in_flight
                confirmed.append(in_flight[0])
                n += 1
            assert saved(store, game_id) == confirmed
        assert len(confirmed) >= rounds  # the phone really entered turns between kills
        print(f"{rounds} kills: {len(confirmed)} entries recorded, {len(drafts_announced)} "
              "unsaved entries put back in the form")
    finally:
        server.stop()
        store.engine.dispose()


def test_a_message_of_megabytes_is_refused_in_words_and_past_the_cap_not_read(
    tmp_path: Path,
) -> None:
    """A tap sends every input's value: Streamlit took messages of up to 200 MB, so any page
    could make the server hold and parse that much per tap (a remark pasted that long was even
    kept in the database). `server.maxMessageSize` caps it at 16 MB: a paste of 9 MB is still
    refused in words; a message of 20 MB closes that page's connection unread, and the server
    goes on serving."""
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    server = started(tmp_path / "games.sqlite3")
    try:
        phone = Phone(server.url, ANN)
        phone.open()
        pasted = WidgetState(id=phone.screen.ids["paste_game"], string_value="x" * 9_000_000)
        assert "9,000,000 characters" in phone.tap_with(pasted, paste_game_open=True).text()
        with pytest.raises(SessionLost):
            phone.tap_with(WidgetState(id=pasted.id, string_value="x" * 20_000_000))
        again = Phone(server.url, ANN)
        assert "Or open a log" in again.open().text()
        again.close()
    finally:
        server.stop()
