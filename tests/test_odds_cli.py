"""The command line's odds features: analyze --odds, accuse, advise, show."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from solver.cli import main
from solver.editions import Dealing, editions, forum_deck, new_game
from solver.envelopes import possible_triples
from solver.game import GameLog, Note, Suggestion
from solver.i18n import percent_said
from solver.logfile import dumps, loads
from solver.odds import odds

LOG = {
    "format": "clue-notebook/1",
    "edition": "clue-classic",
    "players": [{"name": "Ann", "hand_size": 6}, {"name": "Bob", "hand_size": 6},
                {"name": "Cy", "hand_size": 6}],
    "me": "Ann",
    "my_cards": ["Miss Scarlet", "Rope", "Hall", "Kitchen", "Study", "Knife"],
    "events": [
        {"type": "suggestion", "by": "Bob", "cards": ["Professor Plum", "Candlestick", "Lounge"],
         "passes": [], "refuted_by": "Cy"},
        {"type": "suggestion", "by": "Ann", "cards": ["Mrs. White", "Wrench", "Library"],
         "passes": ["Bob"], "refuted_by": "Cy", "shown": "Wrench"},
    ],
}


@pytest.fixture
def log_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(LOG), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_analyze_json_odds_contract(log_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", str(log_file), "--json", "--odds")
    assert status == 0
    data = json.loads(out)
    assert data["odds_exact"] is True
    exact = odds(loads(json.dumps(LOG)))
    assert set(data["probabilities"]) == set(exact.probabilities)
    for card, row in data["probabilities"].items():
        assert list(row) == data["owners"]
        assert row == {o: float(p) for o, p in exact.probabilities[card].items()}
        assert sum(row.values()) == pytest.approx(1)
    chances = [p for *_, p in data["envelope_odds"]]
    assert chances == sorted(chances, reverse=True)
    assert sum(chances) == pytest.approx(1)
    assert data["envelope_odds"][0][:3] == list(exact.envelope_odds[0][:3])
    assert data["probabilities"]["Wrench"]["Cy"] == 1.0
    assert "odds_error" not in data


def test_analyze_json_without_odds_has_no_odds(
    log_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = run(capsys, "analyze", str(log_file), "--json")
    assert "probabilities" not in json.loads(out)


def test_analyze_odds_of_a_contradiction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reveal = {"type": "reveal", "player": "Bob", "cards": ["Wrench"]}
    bad = {**LOG, "events": [*LOG["events"], reveal]}  # type: ignore[list-item]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    status, out, _ = run(capsys, "analyze", str(path), "--json", "--odds")
    data = json.loads(out)
    assert status == 3
    assert data["probabilities"] is None and data["envelope_odds"] is None
    assert data["odds_exact"] is None


def test_analyze_table_lists_envelope_odds(
    log_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "analyze", str(log_file), "--odds", "--width", "100")
    assert status == 0
    assert "Envelope odds (exact):" in out
    assert "Mrs. White, Lead Pipe, Library" in out


def test_analyze_table_with_odds_counts_the_same_triples(
    log_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --odds the triples possible are read off the odds, not enumerated again: the
    notebook part reads the same, and the odds list every possible one (sampled odds too:
    `test_sampled_odds_list_every_possible_envelope`)."""
    _, plain, _ = run(capsys, "analyze", str(log_file), "--width", "100")
    _, with_odds, _ = run(capsys, "analyze", str(log_file), "--odds", "--width", "100")
    assert with_odds.startswith(plain) and "triples possible" in plain
    log = loads(json.dumps(LOG))
    assert {t[:3] for t in odds(log).envelope_odds} == set(possible_triples(log))


def test_accuse(log_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "accuse", str(log_file), "Mrs. White", "Revolver", "Library")
    assert status == 0 and out.startswith("not safe")
    status, out, _ = run(capsys, "accuse", str(log_file), "Mrs. White", "Revolver", "Library",
                         "--json")
    data = json.loads(out)
    exact = odds(loads(json.dumps(LOG)))
    assert data["probability"] == float(
        exact.envelope(("Mrs. White", "Revolver", "Library"))
    )
    assert data["safe"] is False and data["exact"] is True
    assert len(data["alternatives"]) == 5
    right = percent_said(data["advice"]["right"], undecided=True)  # the text's: as players play
    assert f"is right {right} if players seldom bluff" in run(
        capsys, "accuse", str(log_file), "Mrs. White", "Revolver", "Library")[1]
    for language in ("ru", "fi"):  # "38.5%" read as English in a Russian sentence
        said = run(capsys, "accuse", "--lang", language, str(log_file), "Mrs. White",
                   "Revolver", "Library")[1]
        assert right.replace("%", "\xa0%") in said, said
        said = run(capsys, "accuse", "--lang", language, str(log_file), "Mrs. White",
                   "Revolver", "Library", "--refuter-model", "--json")[1]
        counted = f"{100 * json.loads(said)['probability']:.1f}%"  # the count, named in words
        said = run(capsys, "accuse", "--lang", language, str(log_file), "Mrs. White",
                   "Revolver", "Library", "--refuter-model")[1]
        assert counted.replace(".", ",").replace("%", "\xa0%") in said, said


def test_accuse_safe_when_certain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    small = {
        "format": "clue-notebook/1",
        "cards": {"suspects": ["Plum", "Green"], "weapons": ["Rope"], "rooms": ["Hall", "Den"]},
        "players": [{"name": "Ann", "hand_size": 1}, {"name": "Bob", "hand_size": 1}],
        "me": "Ann", "my_cards": ["Green"],
        "events": [{"type": "reveal", "player": "Bob", "cards": ["Den"]}],
    }
    path = tmp_path / "small.json"
    path.write_text(json.dumps(small), encoding="utf-8")
    status, out, _ = run(capsys, "accuse", str(path), "Plum", "Rope", "Hall")
    assert (status, out.strip()) == (0, "safe: the envelope is certainly Plum, Rope, Hall")
    status, out, _ = run(capsys, "accuse", str(path), "Green", "Rope", "Hall", "--json")
    assert json.loads(out)["probability"] == 0 and not json.loads(out)["safe"]


def test_accuse_says_an_accusation_no_deal_fits_is_not_right(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An accusation no deal fits is "not right", and the envelope when it is certain: it read
    "not safe: Jaska Keltanokka, köysi, keittiö is right with chance 0.0%" on a Finnish game
    whose envelope was certainly ... työhuone (a phone play-through's saved log), a figure that
    could be a rounded 0.04%; the app's accusation form says "Not right" there."""
    small = {
        "format": "clue-notebook/1",
        "cards": {"suspects": ["Plum", "Green"], "weapons": ["Rope", "Pipe"],
                  "rooms": ["Hall", "Den"]},
        "players": [{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 1}],
        "me": "Ann", "my_cards": ["Green", "Pipe"],
        "events": [],
    }
    path = tmp_path / "small.json"
    path.write_text(json.dumps(small), encoding="utf-8")
    status, out, _ = run(capsys, "accuse", str(path), "Plum", "Pipe", "Hall")
    assert status == 0
    assert out.splitlines()[0] == ("not right: no deal that fits the log has Plum, Pipe, Hall "
                                   "in the envelope"), out
    assert "Plum, Rope, Hall" in out and "Plum, Rope, Den" in out  # the alternatives
    small["events"] = [{"type": "reveal", "player": "Bob", "cards": ["Den"]}]
    path.write_text(json.dumps(small), encoding="utf-8")
    status, out, _ = run(capsys, "accuse", str(path), "Plum", "Rope", "Den")
    assert status == 0
    assert out.splitlines()[0] == "not right: the envelope is certainly Plum, Rope, Hall", out


def test_accuse_bad_card_names_the_field(
    log_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "accuse", str(log_file), "Rope", "Revolver", "Library")
    assert status == 2
    assert "suspect: 'Rope' is not a suspect" in err
    assert "Traceback" not in err


def russian_log(tmp_path: Path) -> Path:
    """A five-player game of the Russian box at its start, saved as JSON."""
    russian = new_game(editions()["cluedo-classic-ru"].deck,
                       ("Аня", "Борис", "Вика", "Глеб", "Дима"), Dealing.CLASSIC, me="Вика",
                       my_cards=("Миссис Уайт", "Подсвечник", "Оранжерея", "Столовая"))
    path = tmp_path / "russian.json"
    path.write_text(dumps(GameLog(russian)), encoding="utf-8")
    return path


def test_cards_are_typed_as_in_the_notation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """accuse, show, explain and advise --room read a typed card as the notation does: any
    case, without "ё", one word of the name or its start. An exported Russian game asked for
    "Профессор Плам" "Верёвка" "Бильярдная" exactly: "плам веревка бильярдная" was refused as
    an unknown card (a phone play-through). A word naming several cards is refused naming them
    (it was "unknown card 'Миссис'"), a card of another category in words."""
    path = russian_log(tmp_path)
    status, out, _ = run(capsys, "accuse", str(path), "плам", "веревка", "бильярд", "--json")
    assert status == 0
    assert json.loads(out)["cards"] == ["Профессор Плам", "Верёвка", "Бильярдная"]
    status, out, _ = run(capsys, "show", str(path), "Борис", "уайт", "свинц", "кухня", "--json")
    assert status == 0 and json.loads(out)["card"] == "Миссис Уайт"
    status, out, _ = run(capsys, "explain", str(path), "подсвечник", "Вика", "--json")
    assert status == 0 and json.loads(out)["card"] == "Подсвечник"
    status, out, _ = run(capsys, "advise", str(path), "--room", "бильярдная", "--top", "1",
                         "--json", "--samples", "200")
    assert status == 0 and json.loads(out)[0]["cards"][2] == "Бильярдная"
    status, _, err = run(capsys, "accuse", str(path), "Миссис", "веревка", "холл")
    assert status == 2 and "suspect: 'Миссис' fits several cards: Миссис Пикок, Миссис Уайт" in err
    status, _, err = run(capsys, "accuse", str(path), "веревка", "веревка", "холл")
    assert status == 2 and "suspect: 'Верёвка' is not a suspect" in err


def test_a_word_that_fits_several_cards_names_them(
    log_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`accuse --help` says one word of the name will do; "mrs." fits two suspects, and the
    command said "unknown card 'mrs.'", as if no card had it. It names the cards the word fits,
    bad input (status 2) for every command that reads a typed card, never a traceback."""
    fits = "'mrs.' fits several cards: Mrs. Peacock, Mrs. White"
    for argv, field in ((("accuse", str(log_file), "mrs.", "rope", "hall"), "suspect"),
                        (("explain", str(log_file), "mrs.", "Bob"), "CARD"),
                        (("show", str(log_file), "Bob", "mrs.", "rope", "hall"), "cards")):
        status, out, err = run(capsys, *argv)
        assert status == 2 and f"{field}: {fits}" in err, err
        assert "Traceback" not in out + err
    status, _, err = run(capsys, "advise", str(log_file), "--room", "room")
    assert status == 2 and "--room: 'room' fits several cards: Billiard Room, Dining Room" in err
    status, _, err = run(capsys, "accuse", str(log_file), "plum", "mrs.", "hall")
    assert status == 2 and "weapon: 'mrs.' is not a weapon" in err, err  # the suspects it fits


def test_explain_reads_an_owner_as_its_output_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """explain takes the envelope by the word its output uses in the language asked for
    ("конверт", as analyze heads the column) besides "envelope", and a player as the notation
    reads one: in Russian, "конверт" was an unknown owner (a phone play-through's export)."""
    path = russian_log(tmp_path)
    status, out, _ = run(capsys, "explain", "--lang", "ru", str(path), "подсвечник", "конверт",
                         "--json")
    assert status == 0 and (json.loads(out)["owner"], json.loads(out)["value"]) == (
        "envelope", "no")
    status, out, _ = run(capsys, "explain", str(path), "Подсвечник", "вика", "--json")
    assert status == 0 and json.loads(out)["owner"] == "Вика"
    status, _, err = run(capsys, "explain", "--lang", "en", str(path), "Подсвечник", "конверт")
    assert status == 2 and "unknown owner 'конверт'" in err  # English says "envelope"


def test_advise(log_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "advise", str(log_file), "--room", "Lounge", "--top", "4",
                         "--json", "--samples", "500")
    ranked = json.loads(out)
    assert status == 0 and len(ranked) == 4
    assert all(r["cards"][2] == "Lounge" and r["rule"] == "likeliest" for r in ranked)
    scores = [r["score"] for r in ranked]
    assert scores == sorted(scores, reverse=True)
    assert "if players ask about cards they do not hold" in ranked[0]["reason"]
    status, out, _ = run(capsys, "advise", str(log_file), "--room", "Lounge", "--top", "4",
                         "--json", "--samples", "500", "--rule", "information")
    ranked = json.loads(out)
    assert status == 0 and all(r["rule"] == "information" for r in ranked)
    gains = [r["gain"] for r in ranked]
    assert gains == sorted(gains, reverse=True)
    status, out, _ = run(capsys, "advise", str(log_file), "--top", "2", "--samples", "300")
    assert status == 0 and out.startswith("Suggestions by the chance their cards are in the")
    from solver.advice import advise_here
    from solver.logfile import load

    heads = []
    for room in ("Lounge", "Kitchen"):  # the room my pawn stands in, and where to head: not
        status, out, _ = run(capsys, "advise", str(log_file), "--room", room, "--top", "1",
                             "--samples", "300")  # the Library, where I suggested last
        here = advise_here(load(log_file), room, samples=300, barred="Library")
        assert status == 0 and "{}, {}, {}".format(*here.best.triple) in out.splitlines()[1]
        said = [line for line in out.splitlines() if line.startswith("where to head: ")]
        assert said == ([] if here.elsewhere is None else [
            "where to head: {2}, to ask {0}, {1} ({score:.2f})".format(
                *here.elsewhere.triple, score=here.elsewhere.score)])
        heads += said
    assert heads
    status, _, err = run(capsys, "advise", str(log_file), "--rule", "loudest")
    assert status == 2 and "--rule" in err
    status, _, err = run(capsys, "advise", str(log_file), "--room", "Rope")
    assert status == 2 and "room" in err
    status, out, _ = run(capsys, "advise", str(log_file), "--to", "Cy", "--top", "2", "--json",
                         "--samples", "300")
    assert status == 0 and len(json.loads(out)) == 2
    status, _, err = run(capsys, "advise", str(log_file), "--to", "Zed")
    assert status == 2 and "to: 'Zed'" in err


def test_advise_leaves_out_the_room_i_suggested_in_last(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One suggestion per visit (refresh-2012-rules-fi.txt, classic-rules-ru.txt): the app's
    "Suggest for me" no longer advises the room of my last suggestion, but ``advise`` still
    ranked it first (autotalli, where Aino had just asked). Without --room it ranks the other
    rooms and says why the one is left out; --room naming it still advises there (I may have
    left and come back), with the rule said first (a review: below the ranking, it came after
    a first line asking there); where to head is never there."""
    from tests.test_advice import asked_in_the_garage

    log = asked_in_the_garage()
    path = tmp_path / "refresh.json"
    path.write_text(dumps(log), encoding="utf-8")
    rule = ("you suggested there last, and the rules let you suggest there again only once you "
            "have left it")
    status, out, _ = run(capsys, "advise", "--lang", "en", str(path), "--top", "40",
                         "--samples", "300")
    assert status == 0 and "autotalli" not in out.replace(f"Not autotalli: {rule}", "")
    assert out.splitlines()[-1] == f"Not autotalli: {rule}"
    status, out, _ = run(capsys, "advise", "--lang", "en", str(path), "--top", "40", "--json",
                         "--samples", "300")
    assert status == 0 and all(r["cards"][2] != "autotalli" for r in json.loads(out))
    status, out, _ = run(capsys, "advise", "--lang", "en", str(path), "--room", "autotalli",
                         "--top", "1", "--samples", "300")
    assert status == 0 and ", autotalli" in out.splitlines()[2]
    assert out.splitlines()[0] == ("In autotalli again? You suggested there last: the rules "
                                   "let you suggest there again only once you have left it")
    status, out, _ = run(capsys, "advise", "--lang", "en", str(path), "--room", "keittiö",
                         "--top", "1", "--samples", "300")
    assert status == 0 and "where to head: autotalli" not in out and "again" not in out


def test_advise_in_a_room_whose_likeliest_question_teaches_nothing_asks_here_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``advise --room`` where the room's likeliest question has its answer known in advance
    says things in the order and words of the app's "Suggest for me"
    (`notebook_app.screens.turn.idle_lines`): the best question here that teaches something
    first, the ranking (the idle one's reason says it teaches nothing; none calls its cards the
    likeliest, as likelier ones follow), and where to head after it, as wherever another room's
    cards are likelier: the one thing more, so not also why not the likeliest above (d8ca37b).
    Until 2026-12-04 it printed where to head first and "if you stay: ..." after, while the
    app had put the question here first since d80607f. With nothing here that teaches
    anything, where to head still leads. Ann has since asked in the Lounge and walked back to
    the Study (as in the app's test): the rules bar only the Lounge."""
    from solver.advice import advise_here
    from solver.logfile import dumps
    from tests.test_advice import stuck_in_study

    log = stuck_in_study(Suggestion("Ann", ("Mr. Green", "Rope", "Lounge"),
                                    passes=("Bob", "Cat", "Dan", "Eve", "Fay")))
    path = tmp_path / "stuck.json"
    path.write_text(dumps(log), encoding="utf-8")
    status, out, _ = run(capsys, "advise", str(path), "--room", "Study", "--top", "1",
                         "--samples", "300")
    here = advise_here(log, "Study", samples=300, barred="Lounge")
    assert status == 0 and here.elsewhere is not None and here.stay is not None
    lines = out.splitlines()
    assert lines[0].startswith("Ask {}, {}, {}: asks about ".format(*here.stay.triple))
    assert "the likeliest in the envelope" not in out
    assert lines[1].startswith("Suggestions by the chance")
    assert "Miss Scarlet, Rope, Study" in lines[2]
    assert lines[3].strip() == ("teaches you nothing: Cat can show Study, which you know they "
                                "hold")
    assert not [line for line in lines if "would teach you nothing" in line]
    assert lines[-1] == "where to head: {2}, to ask {0}, {1} ({score:.2f})".format(
        *here.elsewhere.triple, score=here.elsewhere.score)
    assert not [line for line in lines if line.startswith("if you stay")]
    assert len([line for line in lines if line.startswith("where to head: ")]) == 1
    status, out, _ = run(capsys, "advise", str(path), "--room", "Study", "--top", "1",
                         "--samples", "300", "--lang", "fi")
    assert status == 0 and out.splitlines()[0].startswith("Kysy ")
    from solver.advice import Here
    from solver.cli import _say_idle
    from solver.odds import grid_of

    alone = Here(here.best, None, here.ranked, idle=True, stay=here.stay)  # no likelier room
    _say_idle(log, alone, grid_of(log), False, None)
    said = capsys.readouterr().out.splitlines()
    assert said[0].startswith("Ask {}, {}, {}: ".format(*here.stay.triple)), said
    assert "the likeliest in the envelope" not in said[0]  # the idle one is likelier
    assert said[1] == ("Miss Scarlet, Rope, Study would teach you nothing (Cat can show Study, "
                       "which you know they hold)")


def test_advise_says_a_refutation_chance_of_the_draw_is_never_certain(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The chance a suggestion is refuted is taken over the deals drawn as players play: where
    they all agree but the log does not (Cat asked about its own Study and nobody refuted) it
    reads "<0.1%", never "0.0%"; where every deal agrees (Cat holds Study), "100.0%"."""
    from solver.logfile import dumps
    from tests.test_advice import cat_asked_its_own_study, stuck_in_study

    for name, log, room, said in (("bluff", cat_asked_its_own_study(), "Study", "<0.1%"),
                                  ("stuck", stuck_in_study(), "Study", "100.0%")):
        path = tmp_path / f"{name}.json"
        path.write_text(dumps(log), encoding="utf-8")
        status, out, _ = run(capsys, "advise", str(path), "--room", room, "--top", "1",
                             "--samples", "300")
        line = next(line for line in out.splitlines() if "(refuted " in line)
        assert status == 0 and "Miss Scarlet" in line and line.endswith(f"(refuted {said})")


def test_advise_whom(log_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``advise --whom`` (the forum's question to one player): whom to ask and what, then each
    other player with the question ``advise --to`` them puts first (the same count and draw),
    by what their answer tells about the envelope."""
    args = ("advise", str(log_file), "--whom", "--room", "Lounge", "--samples", "300")
    status, out, _ = run(capsys, *args, "--json")
    data = json.loads(out)
    players = [p["player"] for p in data["players"]]
    assert status == 0 and sorted(players) == ["Bob", "Cy"] and data["player"] == players[0]
    gains = [round(p["gain"], 9) for p in data["players"]]
    assert gains == sorted(gains, reverse=True)
    assert "if players ask about cards they do not hold" in data["players"][0]["reason"]
    for asked in data["players"]:
        assert asked["cards"][2] == "Lounge"
        status, out, _ = run(capsys, "advise", str(log_file), "--to", asked["player"], "--room",
                             "Lounge", "--top", "1", "--json", "--samples", "300")
        alone = json.loads(out)[0]
        assert (alone["cards"], alone["gain"]) == (asked["cards"], asked["gain"])
    status, out, _ = run(capsys, *args)
    lines = out.splitlines()
    assert status == 0 and lines[0] == "ask {}: {}, {}, {}".format(
        data["player"], *data["players"][0]["cards"])
    assert lines[2].startswith("Each player, asked alone")
    assert [line.split(":")[0].split()[-1] for line in lines[3:]] == players
    status, _, err = run(capsys, *args, "--to", "Cy")
    assert status == 2 and "--whom" in err and "Traceback" not in err
    status, _, err = run(capsys, *args, "--rule", "information")
    assert status == 2 and "--rule" in err and "Traceback" not in err
    status, _, err = run(capsys, "advise", str(log_file), "--whom", "--room", "Rope")
    assert status == 2 and "room" in err


def test_show(log_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "show", str(log_file), "Bob", "Mr. Green", "Rope", "Lounge")
    assert status == 0 and out.startswith("show Rope: it is your only match")
    status, out, _ = run(capsys, "show", str(log_file), "Bob", "Miss Scarlet", "Rope", "Lounge",
                         "--json")
    data = json.loads(out)
    assert data["card"] in ("Miss Scarlet", "Rope") and data["reason"] == "least telling"
    status, _, err = run(capsys, "show", str(log_file), "Bob", "Mr. Green", "Revolver", "Lounge")
    assert status == 2 and "cards" in err


def test_show_names_a_card_shown_before_without_noting_which(
    log_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Where I showed the asker one of two cards without noting which, "none seen before" may
    be untrue: `show` says so, as the app's reminder does (text and ``--json``)."""
    unnoted = {"type": "suggestion", "by": "Bob", "cards": ["Miss Scarlet", "Rope", "Lounge"],
               "passes": ["Cy"], "refuted_by": "Ann"}
    path = tmp_path / "unnoted.json"
    path.write_text(json.dumps({**LOG, "events": [unnoted]}), encoding="utf-8")
    mine = [c for c in unnoted["cards"] if c in LOG["my_cards"]]  # type: ignore[operator]
    assert len(mine) == 2
    status, out, _ = run(capsys, "show", str(path), "Bob", "Miss Scarlet", "Rope", "Hall")
    assert status == 0
    assert out.splitlines()[-1] == (
        f"In #1 you showed Bob one of {', '.join(mine)}, not noted which.")
    status, out, _ = run(capsys, "show", str(path), "Bob", "Miss Scarlet", "Rope", "Hall",
                         "--json")
    assert json.loads(out)["unnoted"] == [{"event": 1, "cards": mine}]
    status, out, _ = run(capsys, "show", str(log_file), "Bob", "Miss Scarlet", "Rope", "Lounge",
                         "--json")
    assert "unnoted" not in json.loads(out)


def test_show_on_a_contradictory_log_names_the_clash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reveal = {"type": "reveal", "player": "Bob", "cards": ["Wrench"]}  # Cy showed Wrench
    bad = {**LOG, "events": [*LOG["events"], reveal]}  # type: ignore[list-item]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    # Rope is my only match: the answer needs no deal, but the log has none, and says so
    status, out, err = run(capsys, "show", str(path), "Bob", "Mr. Green", "Rope", "Lounge")
    assert status == 3 and out == ""
    assert "conflicting events 2, 3" in err and "Traceback" not in err


def test_refuter_model_flag(log_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "analyze", str(log_file), "--json", "--odds", "--refuter-model")
    data = json.loads(out)
    exact = odds(loads(json.dumps(LOG)), refuter_model=True)
    assert data["envelope_odds"][0][3] == float(exact.envelope_odds[0][3])
    assert isinstance(exact.envelope_odds[0][3], Fraction)


def forum_stuck() -> GameLog:
    """A six-player forum game (numbered cards: `solver.editions.forum_deck`) where I (Ann,
    holding Weapon 2) asked Bob (Suspect 1, Weapon 2, Place 3), who had none, then Cat, who
    showed me Place 3 (the weapon settled: Weapon 1): asking Bob again with Place 3 teaches
    nothing."""
    game = new_game(forum_deck(6), ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"), Dealing.FORUM,
                    me="Ann", my_cards=("Suspect 2", "Weapon 2", "Place 2"))
    asked = ("Suspect 1", "Weapon 2", "Place 3")
    return GameLog(game, (Note("envelope", holds=("Weapon 1",), text="seen"),
                          Suggestion("Ann", asked, passes=("Bob",)),
                          Suggestion("Ann", asked, refuted_by="Cat", shown="Place 3")))


def test_the_forum_variant_is_advised_in_places(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The forum variant has no board (`solver.editions.forum_dealt`): ``advise --room`` said
    "where to head: Place 4, to ask ..." and "if you stay: ...", and a card of another kind
    named as the place was "not a room" (as in ``accuse``), the budget's refusal "name the
    room". It now says places, as the app does ("Another place is likelier", "If you keep this
    place"); a classic game keeps rooms (the tests above). Since 2026-12-04 the question for
    the place comes first, as in the app (`test_advise_in_a_room_whose_likeliest_question_...`),
    put to the player asked ("Ask Bob: ...", the app's words), and the likelier place follows
    the ranking."""
    from solver.advice import advise_here

    log = forum_stuck()
    path = tmp_path / "forum.json"
    path.write_text(dumps(log), encoding="utf-8")
    status, out, _ = run(capsys, "advise", str(path), "--room", "Place 3", "--to", "Bob",
                         "--top", "1", "--samples", "300")
    here = advise_here(log, "Place 3", samples=300, to="Bob")
    assert status == 0 and here.idle and here.elsewhere is not None and here.stay is not None
    lines = out.splitlines()
    assert lines[0].startswith("Ask Bob: {}, {}, {}: asks about ".format(*here.stay.triple))
    assert lines[1].startswith("Suggestions by the chance")
    assert lines[-1] == "another place is likelier: ask {}, {}, {} ({score:.2f})".format(
        *here.elsewhere.triple, score=here.elsewhere.score)
    assert not [line for line in lines if line.startswith(("if you keep", "another place:"))]
    likelier = []
    for place in log.game.deck.rooms:  # put to Dan: without --to the forum asks whom
        status, out, _ = run(capsys, "advise", str(path), "--room", place, "--to", "Dan",
                             "--top", "1", "--samples", "300")
        here = advise_here(log, place, samples=300, to="Dan")
        assert status == 0 and "room" not in out.lower() and "head" not in out, out
        if not here.idle and here.elsewhere is not None:
            likelier.append(out.splitlines()[-1])
            assert likelier[-1] == "another place is likelier: ask {}, {}, {} ({:.2f})".format(
                *here.elsewhere.triple, here.elsewhere.score)
    assert likelier
    for argv in (("advise", str(path), "--room", "Weapon 1"),
                 ("accuse", str(path), "Suspect 1", "Weapon 1", "Suspect 3")):
        status, _, err = run(capsys, *argv)
        assert status == 2 and "is not a place" in err and "Traceback" not in err, err
    status, _, err = run(capsys, "advise", str(path), "--samples", "20000")
    assert status == 2 and err.rstrip().endswith("or name the place"), err


def test_advise_in_the_forum_variant_asks_whom_by_default(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A forum game's question goes to one chosen player, never round the table
    (../shared/rules.md): ``advise`` without ``--to`` ranked suggestions as if the table
    answered in turn ("Cat is likely to refute"). It now answers the forum's question, whom to
    ask and what, as ``--whom`` does; ``--to`` still ranks questions put to that player;
    ``--rule information`` (a ranking round the table or to one player) asks for ``--to``. A
    classic game keeps the table (`test_advise_ranks_for_the_table_in_a_classic_game`)."""
    log = forum_stuck()
    path = tmp_path / "forum.json"
    path.write_text(dumps(log), encoding="utf-8")
    common = ("--top", "3", "--samples", "300")
    for more in ((), ("--json",), ("--room", "Place 1")):
        _, whom, _ = run(capsys, "advise", str(path), "--whom", *common, *more)
        status, out, err = run(capsys, "advise", str(path), *common, *more)
        assert status == 0 and out == whom and err == "", (out, err)
    lines = out.splitlines()
    assert lines[0].startswith("ask ") and lines[0].endswith(", Place 1")
    assert lines[2].startswith("Each player, asked alone")
    assert sorted(line.split(":")[0].split()[-1] for line in lines[3:]) == [
        "Bob", "Cat", "Dan", "Eve", "Fay"]
    status, out, _ = run(capsys, "advise", str(path), "--to", "Cat", *common, "--json")
    ranked = json.loads(out)
    assert status == 0 and isinstance(ranked, list) and len(ranked) == 3
    for argv in ((), ("--room", "Place 1"), ("--json",)):
        status, out, err = run(capsys, "advise", str(path), "--rule", "information", *common,
                               *argv)
        assert status == 2 and out == "" and "Traceback" not in err, err
        assert "--rule" in err and "--to PLAYER" in err, err
    status, out, _ = run(capsys, "advise", str(path), "--rule", "information", "--to", "Cat",
                         *common, "--json")
    assert status == 0 and len(json.loads(out)) == 3


def test_advise_ranks_for_the_table_in_a_classic_game(
        log_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A classic game's suggestion goes round the table: ``advise`` without ``--to`` still
    ranks suggestions (a JSON list), never whom to ask."""
    status, out, _ = run(capsys, "advise", str(log_file), "--top", "2", "--samples", "300",
                         "--json")
    assert status == 0 and isinstance(json.loads(out), list) and len(json.loads(out)) == 2
    status, out, _ = run(capsys, "advise", str(log_file), "--top", "2", "--samples", "300")
    assert status == 0 and not out.startswith("ask ") and "Each player" not in out
    status, out, _ = run(capsys, "advise", str(log_file), "--rule", "information", "--top", "2",
                         "--samples", "300", "--json")
    assert status == 0 and len(json.loads(out)) == 2
