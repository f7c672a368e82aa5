"""`race`, `accuse`, `advise` and `show` on logs a player may well hand them: a game someone has
won, a game I am out of, a table where everyone else is out, an empty log, a spectator's log, a
2-player game with side cards. Each gives a clear answer or a clear error naming the field,
never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver import cli
from solver.cards import CATEGORIES
from solver.editions import Dealing, forum_deck, new_game
from solver.errors import InvalidLogError
from solver.game import Accusation, GameLog, Note
from solver.logfile import load, save
from solver.odds import grid_of
from solver.race import askable, open_after_showing, race
from solver.values import replace

EXAMPLES = Path(__file__).parent.parent / "examples"
SIX = load(EXAMPLES / "classic-six-players.json")
"""Chloe's notebook; she accuses correctly in event 70, the last."""
TWO = load(EXAMPLES / "refresh-two-players.json")
TRUTH = tuple(str(grid_of(SIX).envelope()[cat]) for cat in CATEGORIES)
WRONG = ("Miss Scarlet", TRUTH[1], TRUTH[2])


def _run(capsys: pytest.CaptureFixture[str], log: GameLog, tmp_path: Path, *args: str
         ) -> tuple[int, str, str]:
    path = tmp_path / "log.json"
    save(log, path)
    status = cli.main([args[0], str(path), *args[1:]])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def _accused(log: GameLog, *by: str, correct: bool = False) -> GameLog:
    for name in by:
        log = log.append(Accusation(name, TRUTH if correct else WRONG, correct))
    return log


def test_a_game_someone_won_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ben accused correctly in event 11: the race says the game is over (not "0 deals
    drawn"), accuse says who won instead of advising to wait, advise refuses with the event and
    the way back (--upto), show says so too (nobody asks any more) but still names a slip."""
    won = _accused(SIX.upto(10), "Ben", correct=True)
    status, out, _ = _run(capsys, won, tmp_path, "race")
    assert status == cli.OK and out.startswith("Ben accused correctly: the game is over.")
    assert "deals drawn" not in out
    status, out, _ = _run(capsys, won, tmp_path, "race", "--json")
    data = json.loads(out)
    assert status == cli.OK and data["winner"] == "Ben" and data["out"] == []
    status, out, _ = _run(capsys, won, tmp_path, "accuse", *WRONG)  # not "Ben accused correctly"
    assert status == cli.OK  # below "not right": the entry that ended it (test_ending.py)
    assert out.splitlines()[-1] == "The game ended in event 11: Ben accused correctly and won."
    status, out, _ = _run(capsys, won, tmp_path, "accuse", *WRONG, "--json")
    data = json.loads(out)
    assert data["winner"] == "Ben" and "advice" not in data
    status, out, err = _run(capsys, won, tmp_path, "advise")
    assert (status, out) == (cli.INVALID, "")
    assert "events: Ben accused correctly in event 11" in err and "--upto 10" in err
    status, out, _ = _run(capsys, won, tmp_path, "show", "Dev", "Mrs. White", "Rope", "Hall")
    assert (status, out) == (cli.OK, "Ben accused correctly: the game is over.\n")
    status, out, _ = _run(capsys, won, tmp_path, "show", "Dev", "Mrs. White", "Rope", "Hall",
                          "--json")
    assert (status, json.loads(out)) == (cli.OK, {"card": None, "winner": "Ben", "ended": {
        "event": 11, "how": "accused"}})
    status, out, err = _run(capsys, won, tmp_path, "show", "Dev", "Hall", "Rope", "Hall")
    assert (status, out) == (cli.INVALID, "") and "cards: 'Hall' is not a suspect" in err


FOUR = load(EXAMPLES / "classic-four-players-notes.json")
"""Ann's notebook; she accuses correctly in event 43, the last; she holds Miss Scarlet,
Revolver and Conservatory, among others."""


def test_my_own_correct_accusation_is_said_to_me(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ann won: every command says "You accused correctly", none names her in the third person,
    and show gives no card to show (before, it weighed her three cards: 'leaves them the most
    envelopes open', about 1.0 each)."""
    over = "You accused correctly: the game is over."
    status, out, _ = _run(capsys, FOUR, tmp_path, "race")
    assert status == cli.OK and out.startswith(over + "\n") and "Ann accused" not in out
    status, out, _ = _run(capsys, FOUR, tmp_path, "accuse", "Miss Scarlet", "Rope", "Hall")
    assert status == cli.OK  # of the entry that ended it, not of the cards asked about
    assert out.splitlines()[-1] == "The game ended in event 43: you accused correctly and won."
    status, out, err = _run(capsys, FOUR, tmp_path, "advise")
    assert (status, out) == (cli.INVALID, "")
    assert "events: you accused correctly in event 43" in err and "--upto 42" in err
    shown = ("show", "Bob", "Miss Scarlet", "Revolver", "Conservatory")
    status, out, _ = _run(capsys, FOUR, tmp_path, *shown)
    assert (status, out) == (cli.OK, over + "\n")
    status, out, _ = _run(capsys, FOUR, tmp_path, *shown, "--json")
    assert (status, json.loads(out)) == (cli.OK, {"card": None, "winner": "Ann", "ended": {
        "event": 43, "how": "accused"}})
    status, out, _ = _run(capsys, FOUR.upto(42), tmp_path, *shown)  # before it, show weighs them
    assert status == cli.OK and "leaves them the most envelopes open" in out


def test_when_I_accused_wrongly_there_is_nothing_to_advise(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_of_it = _accused(SIX.upto(10), "Chloe")
    status, out, _ = _run(capsys, out_of_it, tmp_path, "accuse", *TRUTH)
    assert status == cli.OK
    assert out.splitlines()[-1] == ("You accused wrongly in event 11: you can no longer accuse, "
                                    "only show cards when asked.")
    status, out, _ = _run(capsys, out_of_it, tmp_path, "accuse", *TRUTH, "--json")
    data = json.loads(out)
    assert data["out"] is True and "advice" not in data
    status, out, err = _run(capsys, out_of_it, tmp_path, "advise")
    assert (status, out) == (cli.INVALID, "")
    assert "me: you (Chloe) accused wrongly in event 11 and take no more turns" in err
    status, out, _ = _run(capsys, out_of_it, tmp_path, "race", "--samples", "100")
    lines = out.splitlines()
    assert status == cli.OK and lines[0].startswith("You accused wrongly in event 11")
    assert lines[1].startswith("Who could already name the whole envelope") and "Ben:" in out
    status, out, _ = _run(capsys, out_of_it, tmp_path, "race", "--samples", "100", "--json")
    data = json.loads(out)
    assert status == cli.OK and "winner" not in data
    assert "Ben" in data["players"] and data["out"] == ["Chloe"]


def test_when_everyone_else_is_out_the_verdict_says_nobody_else_can_win(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Refresh 2012: the last player in must still accuse correctly (the classic sheet's last
    player standing has won: test_ending.py)."""
    refresh = load(EXAMPLES / "refresh-four-players.json").upto(10)  # Veera's notebook
    alone = refresh
    for name in ("Aino", "Niko", "Oona"):
        alone = alone.append(Accusation(name, ("Marjaana Punakulta", "köysi", "keittiö")))
    status, out, _ = _run(capsys, alone, tmp_path, "accuse", "Regina Päiväperhonen", "köysi",
                          "keittiö")
    assert status == cli.OK
    assert out.splitlines()[-1].endswith("; nobody else can win: every other player accused "
                                         "wrongly")
    assert out.splitlines()[-1].startswith("suggest first, then decide")  # never accuse unsure
    status, out, _ = _run(capsys, alone, tmp_path, "race")
    assert status == cli.OK and out.count("(out: accused wrongly)") == 3
    status, out, _ = _run(capsys, alone, tmp_path, "advise", "--top", "1", "--samples", "200")
    assert status == cli.OK and "refute" in out  # my turns go on
    classic = _accused(SIX.upto(10), "Anna", "Ben", "Dev", "Emma", "Felix")
    status, out, _ = _run(capsys, classic, tmp_path, "accuse", *TRUTH)
    assert out.splitlines()[-1] == ("The game ended in event 15: every other player had "
                                    "accused wrongly, so you won.")


FORUM = load(EXAMPLES / "forum-gostya-iz-budushchego.json")
"""Полина's notebook of a six-player forum game: each question is put to one player."""


def test_a_forum_games_waiting_names_whom_advise_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """In a forum game my next question goes to one player, on whose answer "then you know it"
    is figured. `accuse` named the player likeliest to hold a card of the envelope it would
    name (Кефирчик, about Юля Грибкова, Дверь машины времени, Большой театр) while `advise`
    said to ask Профессор_Селезнёв about Крыс, Дверь машины времени, Большой театр. With
    ``--whom`` `accuse` plays out `advise`'s question and names its player, as does
    `advice.waiting.question_to` (with `question`, its cards); without it (making the
    advisor takes the verdict from a median 0.68 s of CPU to 1.18 s at 12 players) the line
    names nobody and the JSON has no `question_to`. A classic game has no such field, and
    ``--whom`` is refused there."""
    log = FORUM.upto(40)
    cards = ("Крыс", "Миелофон", "Московское море")
    status, out, _ = _run(capsys, log, tmp_path, "advise", "--json")
    advised = json.loads(out)
    assert status == cli.OK and advised["player"] in askable(log, "Полина")
    status, out, _ = _run(capsys, log, tmp_path, "accuse", *cards, "--whom", "--json")
    advice = json.loads(out)["advice"]
    assert status == cli.OK and advice["waiting"]["question_to"] == advised["player"]
    assert advice["waiting"]["question"] == advised["players"][0]["cards"]
    said = f"; nobody else solves before you ask {advised['player']} next: "
    assert advice["reason"].startswith(f"wait: {', '.join(cards)}: right ")
    assert said in advice["reason"]
    status, out, _ = _run(capsys, log, tmp_path, "accuse", *cards, "--whom")
    assert status == cli.OK and said in out.splitlines()[-1]
    status, out, _ = _run(capsys, log, tmp_path, "accuse", *cards, "--json")
    advice = json.loads(out)["advice"]
    assert "question_to" not in advice["waiting"]
    assert "before your next question: " in advice["reason"] and " ask " not in advice["reason"]
    status, out, _ = _run(capsys, SIX.upto(9), tmp_path, "accuse", *WRONG, "--json")
    advice = json.loads(out)["advice"]
    assert "question_to" not in advice["waiting"] and advice["waiting"]["after_the_others"]
    assert advice["reason"].startswith(f"wait: {', '.join(WRONG)}: right ")  # the triple named
    assert " ask " not in advice["reason"]
    status, out, _ = _run(capsys, SIX.upto(9), tmp_path, "accuse", *WRONG)
    assert "before your next question: " in out.splitlines()[-1] and " ask " not in out
    status, _, err = _run(capsys, SIX.upto(9), tmp_path, "accuse", *WRONG, "--whom")
    assert status == cli.INVALID and "--whom: only in the forum variant" in err


def test_advise_on_a_certain_envelope_says_accuse(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Once the envelope is certain, no suggestion can tell more: `advise` says so and ranks
    nothing (it ranked questions about other hands, calling their cards the likeliest in the
    envelope), as the app's Suggest for me since 1603a20, whom to ask too (``--whom``, and the
    forum's question to one player, a review found it still ranked). ``--json`` keeps its
    ranking."""
    certain = SIX.upto(69)  # Chloe's notebook is certain; she accuses in event 70
    status, out, _ = _run(capsys, certain, tmp_path, "advise", "--top", "1", "--samples", "200")
    assert status == cli.OK
    assert out.splitlines() == ["safe: the envelope is certainly " + ", ".join(TRUTH),
                                "No suggestion would teach you anything more about the envelope"]
    for more in (("--room", "Hall"), ("--rule", "information"), ("--whom",)):  # a room,
        status, again, _ = _run(capsys, certain, tmp_path, "advise", *more)  # another rule,
        assert (status, again) == (cli.OK, out)  # whom to ask
    game = new_game(forum_deck(6), ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"), Dealing.FORUM,
                    me="Ann", my_cards=("Suspect 2", "Weapon 2", "Place 2"))
    forum = GameLog(game, (Note("envelope", holds=("Suspect 1", "Weapon 1", "Place 1"),
                                text="seen"),))  # the forum asks one player: whom by default
    for more in ((), ("--room", "Place 3"), ("--to", "Bob")):
        status, again, _ = _run(capsys, forum, tmp_path, "advise", *more)
        assert (status, again.splitlines()) == (cli.OK, [
            "safe: the envelope is certainly Suspect 1, Weapon 1, Place 1",
            "No suggestion would teach you anything more about the envelope"])
    status, out, _ = _run(capsys, certain, tmp_path, "advise", "--top", "1", "--samples", "200",
                          "--json")
    assert status == cli.OK and len(json.loads(out)) == 1  # the ranking, for a program


def test_accusing_another_envelope_than_the_certain_one_is_advised_against(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before, "not safe: ... 0.0%" was followed by "the envelope is certain: accuse now"."""
    status, out, _ = _run(capsys, SIX.upto(69), tmp_path, "accuse", *WRONG)
    assert status == cli.OK
    assert out.splitlines()[-1] == "do not accuse this: the envelope is certainly another"
    status, out, _ = _run(capsys, SIX.upto(69), tmp_path, "accuse", *WRONG, "--json")
    advice = json.loads(out)["advice"]
    assert not advice["accuse"] and advice["right"] == 0.0 and "do not accuse" in advice["reason"]
    status, out, _ = _run(capsys, SIX.upto(69), tmp_path, "accuse", *TRUTH)
    assert status == cli.OK and out.startswith("safe: ")


@pytest.mark.parametrize("cards", [("Hall", "Hall", "Hall"), ("Library", "Lounge", "Hall"),
                                   ("Rope", "Mrs. White", "Hall")])
def test_show_refuses_cards_that_are_no_suggestion(
        cards: tuple[str, str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A suggestion names a suspect, a weapon and a room: three rooms are a typing slip."""
    status, out, err = _run(capsys, SIX.upto(10), tmp_path, "show", "Ben", *cards)
    assert (status, out) == (cli.INVALID, "")
    assert f"cards: {cards[0]!r} is not a suspect" in err


def test_a_race_of_no_deals_is_refused_with_the_field_named() -> None:
    for bad in (0, -3):
        with pytest.raises(InvalidLogError, match="--samples: expected 1 to 20,000 deals"):
            race(SIX.upto(10), samples=bad)
        with pytest.raises(InvalidLogError, match="--samples"):
            open_after_showing(SIX.upto(10), "Ben", ("Hall",), samples=bad)


SPECTATOR = replace(SIX, game=replace(SIX.game, me=None, my_cards=()))


@pytest.mark.parametrize(("name", "log"), [
    ("empty", GameLog(SIX.game)),
    ("empty two-player", GameLog(TWO.game)),
    ("two-player", TWO.upto(10)),
    ("spectator", SPECTATOR.upto(20)),
    ("two-player spectator", replace(TWO, game=replace(TWO.game, me=None, my_cards=())).upto(10)),
])
def test_every_command_answers_or_names_the_field(
        name: str, log: GameLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = log.game
    other = next(n for n in game.player_names if n != game.me)
    by = {game.category_of(c): c for c in game.my_cards}
    cards = [by.get(cat, game.deck.of(cat)[0]) for cat in CATEGORIES]
    for command in (["race", "--samples", "50"], ["race", "--json", "--samples", "50"],
                    ["accuse", *cards], ["advise", "--top", "2", "--samples", "200"],
                    ["show", other, *cards]):
        status, out, err = _run(capsys, log, tmp_path, *command)
        if game.me is None and command[0] in ("advise", "show"):
            assert (status, out) == (cli.INVALID, ""), (name, command)
            assert err.count("me: ") == 1 and "spectator" in err
        else:
            assert status == cli.OK and out and not err, (name, command, err)


def test_accuse_gives_one_chance_to_one_envelope(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`accuse` said "not safe: Colonel Mustard, Lead Pipe, Conservatory is right with chance
    34.8%" (the count, every deal alike) and under it "accuse now: Colonel Mustard, Lead Pipe,
    Conservatory: right 57% if players seldom bluff": two chances for one envelope in one
    answer, and Lounge listed at 34.8% beside the line's <1% (Bob named his own Lounge and
    nobody showed: he would have accused). Every line now gives the verdict's chance, named as
    the app names it; `--json` keeps both (``probability``, ``advice.right``)."""
    from solver.notation import read_text
    from tests.test_race import LOUNGE_NAMED

    log = read_text(LOUNGE_NAMED)
    envelope = ("Colonel Mustard", "Lead Pipe", "Conservatory")
    status, out, _ = _run(capsys, log, tmp_path, "accuse", *envelope)
    first, *listed, verdict = out.splitlines()
    assert status == cli.OK and "34.8%" not in out
    right = first.removeprefix("not safe: Colonel Mustard, Lead Pipe, Conservatory is right ")
    right = right.removesuffix(" if players seldom bluff")
    assert verdict.startswith(f"accuse now: Colonel Mustard, Lead Pipe, Conservatory: right "
                              f"{right} if players seldom bluff; "), out
    assert listed[0] == "most likely alternatives:"
    assert listed[-1] == "   <1%  Colonel Mustard, Lead Pipe, Lounge"
    status, out, _ = _run(capsys, log, tmp_path, "accuse", "Mustard", "Pipe", "Lounge")
    assert out.splitlines()[0] == ("not safe: Colonel Mustard, Lead Pipe, Lounge is right <1% if "
                                   "players seldom bluff")
    assert f"{right}  Colonel Mustard, Lead Pipe, Conservatory" in out
    assert out.splitlines()[-1].startswith("wait: Colonel Mustard, Lead Pipe, Lounge: right <1% ")
    status, out, _ = _run(capsys, log, tmp_path, "accuse", *envelope, "--json")
    data = json.loads(out)  # the contract's figures, as before
    assert round(data["probability"], 3) == 0.348 and data["advice"]["right"] > 0.5


def test_accuse_says_the_bluff_factor_it_was_given(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`accuse --bluff 1` weighs every deal alike, yet its lines said "right 35% if players
    seldom bluff", the default's assumption (a play-through). A factor other than the default
    is named as given; 1/4, the default, still reads "if players seldom bluff"."""
    from solver.notation import read_text
    from tests.test_race import LOUNGE_NAMED

    log = read_text(LOUNGE_NAMED)
    envelope = ("Colonel Mustard", "Lead Pipe", "Conservatory")
    for factor in ("1", "1/20"):
        status, out, _ = _run(capsys, log, tmp_path, "accuse", *envelope, "--bluff", factor)
        first, *_listed, verdict = out.splitlines()
        assert status == cli.OK and "seldom" not in out, out
        assert first.endswith(f" with --bluff {factor}"), out
        assert f" with --bluff {factor}; " in verdict, out
    status, out, _ = _run(capsys, log, tmp_path, "accuse", *envelope, "--bluff", "0.25")
    assert "with --bluff" not in out and out.count("if players seldom bluff") == 2, out


@pytest.mark.parametrize("factor", ["0.0004", "1e-999", "1/2500"])
def test_a_bluff_factor_near_zero_is_taken(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          factor: str) -> None:
    """`--bluff` takes any factor above 0, but one below 1/2000 was rounded to 0 and then
    refused, as "bluff: expected a factor above 0 and at most 1, got 1/2500" (for 1e-999 a
    fraction of 1,000 digits): a factor that near 0 weighs as 1/1000, nobody bluffing."""
    from solver.notation import read_text
    from tests.test_race import LOUNGE_NAMED

    log = read_text(LOUNGE_NAMED)
    envelope = ("Colonel Mustard", "Lead Pipe", "Conservatory")
    status, out, err = _run(capsys, log, tmp_path, "accuse", *envelope, "--bluff", factor)
    assert status == cli.OK and not err, err
    _, least, _ = _run(capsys, log, tmp_path, "accuse", *envelope, "--bluff", "0.001")
    assert out.replace(f"--bluff {factor}", "--bluff 0.001") == least


def test_accuse_names_the_count_where_no_verdict_weighs_it(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A spectator has no verdict to weigh: `accuse` gives the count, and says what it counts
    ("with chance 34.8%" did not say)."""
    from solver.notation import read_text
    from tests.test_race import LOUNGE_NAMED

    log = read_text(LOUNGE_NAMED)
    watched = replace(log, game=replace(log.game, me=None, my_cards=()))
    status, out, _ = _run(capsys, watched, tmp_path, "accuse", "Mustard", "Pipe", "Lounge")
    assert status == cli.OK
    assert out.splitlines()[0].startswith("not safe: Colonel Mustard, Lead Pipe, Lounge is right "
                                          "in "), out
    assert out.splitlines()[0].endswith(" of the deals that fit the log"), out


def test_accuse_keeps_the_samplers_warning_with_the_weighed_chances(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The weighed lines (d0825d6) are read off the count: where the count's sampler warns that
    its figures are unreliable, `accuse` said so under the count's line and no longer did under
    the weighed one, which rests on the same figures."""
    import dataclasses

    from solver import advice
    from solver.notation import read_text
    from tests.test_race import LOUNGE_NAMED

    checked = advice.accuse
    warning = "the sampler's 4 chains never mix: these figures are unreliable"
    monkeypatch.setattr(advice, "accuse", lambda *a, **k: dataclasses.replace(
        checked(*a, **k), warning=warning))
    status, out, _ = _run(capsys, read_text(LOUNGE_NAMED), tmp_path, "accuse",
                          "Mustard", "Pipe", "Conservatory")
    assert status == cli.OK and out.splitlines()[0].endswith(" if players seldom bluff"), out
    assert f"warning: {warning}" in out.splitlines(), out


def test_accuse_lists_the_alternatives_to_a_triple_no_deal_has_as_players_play(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Past an accusation no deal fits ("not right", 300152a) `accuse` listed the count's
    alternatives, Lounge at 34.8% beside Conservatory, under a verdict that weighs Lounge <1%:
    the two chances of one envelope d0825d6 took out of every other answer."""
    from solver.notation import read_text
    from tests.test_race import LOUNGE_NAMED

    log = read_text(LOUNGE_NAMED)
    status, out, _ = _run(capsys, log, tmp_path, "accuse", "Mustard", "Pipe", "Kitchen")  # mine
    lines = out.splitlines()
    assert status == cli.OK and lines[0] == ("not right: no deal that fits the log has Colonel "
                                             "Mustard, Lead Pipe, Kitchen in the envelope"), out
    assert "34.8%" not in out and "   <1%  Colonel Mustard, Lead Pipe, Lounge" in lines, out
