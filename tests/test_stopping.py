"""Work stops when its session ends: every long computation passes `solver.limits.checkpoint`
between units of work, and the app stops at the next one once its tab has closed."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from notebook_app.live import LiveGame
from notebook_app.store import DB_ENV, Store
from solver import limits
from solver.envelopes import EnvelopeCounter
from solver.explain import Explainer
from solver.game import Event
from solver.logfile import load
from solver.notebook import Knowledge, Notebook
from solver.odds import odds

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "notebook_app" / "app.py")
SIX = load(ROOT / "examples" / "classic-six-players.json").upto(12)


class After:
    """Asked at each checkpoint: stop from the ``n``-th question on; counts the questions."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.asked = 0

    def __call__(self) -> bool:
        if threading.current_thread().name.endswith("-kernels"):
            return False  # the compiled odds loading: no session asked, the app never stops it
        self.asked += 1
        return self.asked >= self.n


@pytest.fixture
def stop() -> Iterator[Callable[[int], After]]:
    """Install a stop condition for the test; restore the app's (or none) afterwards."""
    before = limits._stop_asked

    def install(n: int) -> After:
        asked = After(n)
        limits.stop_when(asked)
        return asked

    yield install
    limits.stop_when(before)


@pytest.mark.parametrize("work", ["odds", "envelopes", "explain"])
def test_each_long_computation_stops_at_its_next_checkpoint(
    work: str, stop: Callable[[int], After]
) -> None:
    def run() -> object:
        if work == "odds":
            return odds(SIX)
        if work == "envelopes":
            return EnvelopeCounter(SIX.game, SIX.events).count
        with Notebook(SIX.game, SIX.events) as notebook, Explainer(notebook) as explainer:
            grid = notebook.grid()
            owner = next(o for o in SIX.game.player_names if o != SIX.game.me)
            return [explainer.cell(c, owner).text() for c in SIX.game.deck.cards
                    if grid[c, owner] is not Knowledge.MAYBE]

    counting = stop(10**9)
    expected = run()
    assert counting.asked > 3, "the work passes checkpoints"
    asked = stop(3)
    with pytest.raises(limits.Stopped):
        run()
    assert asked.asked == 3  # nothing ran past the checkpoint that said stop
    limits.stop_when(None)
    assert run() == expected  # a stop leaves nothing behind for the next computation


def test_the_turns_played_out_stop_at_the_next_deal(stop: Callable[[int], After]) -> None:
    """The race line's turns played out until my next question (`solver.race.outlook`, most of
    a line weighed again for a player tapped in a forum game: 0.37 s of CPU at 12 players)
    passed no checkpoint: a line no longer wanted (another player tapped since) worked on to
    its end beside the next one, and never gave way to the runs. Now one a deal."""
    from solver.race import BLUFF, Play, outlook, race

    log = load(ROOT / "examples" / "forum-gostya-iz-budushchego.json").upto(40)
    play = Play(log, BLUFF)
    drawn = race(log, samples=20, play=play)
    mine = {t: p for t, (p, _e) in drawn.conditioned(play.odds()).items()}
    likely: dict[str, float] = {}
    for triple, chance in mine.items():
        for card in triple:
            likely[card] = likely.get(card, 0.0) + chance
    question = max(mine, key=lambda t: mine[t])

    def run() -> object:
        return outlook(log, drawn, question, mine, likely, samples=20)

    counting = stop(10**9)
    expected = run()
    assert counting.asked >= 20, "a checkpoint a deal"
    asked = stop(3)
    with pytest.raises(limits.Stopped):
        run()
    assert asked.asked == 3
    limits.stop_when(None)
    assert run() == expected


def test_the_app_drops_a_stopped_game_and_reopens_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: Callable[[int], After],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A stop while the page is drawn drops the game's solvers, maybe half-updated, and the
    next run builds them again. So does a stop inside the dialog explaining a cell: Streamlit
    turns any exception in a dialog (a fragment) into one of its own, which must still be a
    stop, not "drawing the page failed" with the half-updated solvers kept."""
    path = tmp_path / "games.sqlite3"
    monkeypatch.setenv(DB_ENV, str(path))
    game_id = Store(path).create(SIX, "shelf")
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["shelf"] = "shelf"
    at.session_state["game_id"] = game_id
    stop(1)  # the session ends while the game opens (the grid's odds and the race line are
    at.run()  # worked out beside the runs, on threads that stop on their own)
    assert not at.exception and not at.error
    assert "live" not in at.session_state  # half-computed solvers are never kept
    assert at.session_state["game_id"] == game_id
    limits.stop_when(None)
    at.run()
    assert not at.exception and not at.error
    assert at.session_state["live"].log == SIX
    behind = at.session_state["live"].replace(SIX.upto(10))
    behind.mended = True  # as solvers torn by a stopped change are left: built again, behind
    at.run()
    assert at.session_state["live"].log == SIX and not at.session_state["live"].mended
    torn = at.session_state["live"].replace(SIX.upto(10))
    torn.torn = True  # as a Record's callback stopped mid-change leaves them: saved, not shown
    at.run()
    assert at.session_state["live"].log == SIX and not at.session_state["live"].torn
    at.segmented_control(key="view").set_value("Grid").run()
    live = at.session_state["live"]
    live.odds()  # what is worked out beside the runs is done before the next stop
    assert at.session_state["race_job"][1].done(60)
    owner = next(o for o in SIX.game.player_names if o != SIX.game.me)
    card = next(c for c in SIX.game.deck.cards
                if live.grid()[0][c, owner] is not Knowledge.MAYBE)
    at.session_state["explain_cell"] = (card, owner, None)  # as a tap on the cell sets it
    asked = stop(1)
    at.run()
    assert asked.asked >= 1, "the explanation passed a checkpoint"
    assert not at.exception and not at.error
    assert "drawing the page failed" not in caplog.text
    assert "live" not in at.session_state
    assert at.session_state["game_id"] == game_id


class Watched:
    """A lock that says when a thread has to wait for it (`LiveGame`'s, in a test)."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.waited = threading.Event()

    def __enter__(self) -> Watched:
        if not self.lock.acquire(blocking=False):
            self.waited.set()
            self.lock.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.lock.release()


def test_a_run_stopped_mid_change_never_shares_a_torn_game() -> None:
    """A tap during a run stops it and starts the next run at once, on another thread, with the
    same session state: the stopped run goes on to its next checkpoint. Here it is stopped
    halfway through recording an event (in the notebook, not yet in the log) while the next run
    reads the grid: the next run waits for it, then reads a game whose solvers match its log,
    and the game takes the event again whole. Recording has no checkpoint of its own since the
    envelope count follows the log beside the runs, so the test puts one between the notebook
    and the log."""
    before, event = SIX.upto(7), SIX.events[7]
    live = LiveGame(before)
    live._turn = Watched()  # type: ignore[assignment]
    recorded = live.notebook.record

    def record_then_checkpoint(event: Event) -> int:
        number = recorded(event)
        limits.checkpoint()
        return number

    live.notebook.record = record_then_checkpoint  # type: ignore[method-assign]
    parked, go = threading.Event(), threading.Event()
    stopped_run = threading.Thread(target=lambda: None)  # replaced below

    def stop_the_stopped_run() -> bool:  # it parks at its first checkpoint, then stops
        if threading.current_thread() is not stopped_run:
            return False
        parked.set()
        assert go.wait(60)
        return True

    def record() -> None:
        with pytest.raises(limits.Stopped):
            live.append(event)

    read: list[object] = []
    read_done = threading.Event()

    def next_run() -> None:
        read.append(live.grid()[0])
        read.append(live.triples_left)
        read_done.set()

    stopped_run = threading.Thread(target=record)
    reader = threading.Thread(target=next_run)
    app_checkpoint = limits._stop_asked
    limits.stop_when(stop_the_stopped_run)
    try:
        stopped_run.start()
        assert parked.wait(60), "recording the event passes a checkpoint"
        reader.start()
        done_or_waiting = threading.Event()
        for signal in (read_done, live._turn.waited):  # type: ignore[attr-defined]
            threading.Thread(target=lambda s=signal: s.wait(60) and done_or_waiting.set(),
                             daemon=True).start()
        assert done_or_waiting.wait(60)
        go.set()
        stopped_run.join(60)
        reader.join(60)
    finally:
        limits.stop_when(app_checkpoint)  # the app's, for the tests after this one
    with Notebook(before.game, before.events) as notebook:
        assert read[0] == notebook.grid()  # what the next run read matches the log it shows
    assert read[1] == EnvelopeCounter(before.game, before.events).count
    assert live.log == before and live.mended  # (the session reloads the saved game)
    live.replace(before.append(event))
    with Notebook(SIX.game, SIX.events[:8]) as notebook:
        assert live.grid()[0] == notebook.grid()
    assert live.triples_left == EnvelopeCounter(SIX.game, SIX.events[:8]).count
    live.close()
    live.close()  # (closed once)
    with pytest.raises(limits.Stopped):  # a stopped run still holding a closed game stops
        live.grid()


def test_envelope_counts_stopped_midway_are_counted_whole_next_time(
    stop: Callable[[int], After],
) -> None:
    """The Review screen's envelope counts replay the log once; a tap during the replay stopped
    it halfway and left the count torn (a shorter list: the Review failed on every later run)."""
    live = LiveGame(SIX.upto(4))
    stop(3)
    with pytest.raises(limits.Stopped):
        live.counts  # noqa: B018
    limits.stop_when(None)
    assert not live.torn  # the count was left as it was: nothing to build again
    whole = EnvelopeCounter(SIX.game, SIX.events[:4])
    assert live.counts == whole.counts and live.triples_left == whole.count
    live.close()


def test_an_envelope_count_stopped_midway_is_left_as_it_was(
    stop: Callable[[int], After],
) -> None:
    """A change to the envelope count stopped at a checkpoint (a tap stopping the run) leaves
    it as before the change: each is worked out aside and swapped in whole."""
    counter = EnvelopeCounter(SIX.game, SIX.events[:3])
    before = counter.triples
    for change in (lambda: counter.push(SIX.events[3]), lambda: counter.counts,
                   lambda: counter.truncate(1)):  # (a count not kept: found again)
        stop(3)
        with pytest.raises(limits.Stopped):
            change()
        limits.stop_when(None)
        assert counter.triples == before
    counter.push(SIX.events[3])
    with EnvelopeCounter(SIX.game, SIX.events[:4]) as whole:
        assert counter.triples == whole.triples and counter.counts == whole.counts
    counter.close()


class HeldLock:
    """A game's lock that tells whether it is held (by the one thread of the test)."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.depth = 0

    def __enter__(self) -> None:
        self.lock.acquire()
        self.depth += 1

    def __exit__(self, *exc_info: object) -> None:
        self.depth -= 1
        self.lock.release()


class OddsWrites(LiveGame):
    """A `LiveGame` that records, for each write of its count of odds, whether its lock was
    held."""

    def __setattr__(self, name: str, value: object) -> None:
        turn = self.__dict__.get("_turn")
        if name == "_odds" and isinstance(turn, HeldLock):
            self.__dict__.setdefault("held", []).append(turn.depth > 0)
        super().__setattr__(name, value)


class FailedCount:
    """A count of odds that failed; while it is read, another run starts ``then`` in its
    place (or none)."""

    stopped = False

    def __init__(self, game: LiveGame, then: object) -> None:
        self.game, self.then = game, then

    def done(self, wait: float = 0) -> bool:
        return True

    def result(self) -> None:
        if self.then is not None:
            with self.game._turn:  # as `LiveGame.count_odds` starts one
                self.game._odds = self.then  # type: ignore[assignment]
        raise RuntimeError("the count failed")

    def cancel(self) -> None:
        pass

    def expected(self) -> float:
        """Seconds it took (`odds_count.Beside.expected`): none to wait for next time."""
        return 0.0


def test_a_failed_count_of_odds_is_forgotten_under_the_games_lock() -> None:
    """`LiveGame.odds` forgets a count that failed (the next call counts again) while it holds
    the game's lock, as every other change of the game, and keeps a newer count another run
    started meanwhile."""
    live = OddsWrites(SIX.upto(1))
    live._turn = HeldLock()  # type: ignore[assignment]
    for newer in (None, FailedCount(live, None)):
        live._odds = FailedCount(live, newer)  # type: ignore[assignment]
        live.__dict__["held"] = []
        with pytest.raises(RuntimeError):
            live.odds()
        assert live._odds is newer and live.__dict__["held"] and all(live.__dict__["held"])
    live.close()
