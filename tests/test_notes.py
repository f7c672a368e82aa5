"""Notes (facts learned outside the suggestion rules) through the whole engine: grid, conflicts,
explanations, odds, and every command of the command line. The brute-force tests of grids,
conflicts, explanations and odds cover notes through `tests.strategies`; these pin the words."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from solver.advice import accuse, advise, asker_view, what_to_show
from solver.cli import main
from solver.explain import Explainer, explain_cell
from solver.game import ENVELOPE, Note
from solver.logfile import dumps, parse
from solver.notebook import Knowledge, analyze
from solver.odds import odds
from solver.report import describe_event
from solver.simulate import answer, random_deal

from .test_explain_examples import REGINA, refresh_log, suggestion
from .test_odds import brute_odds


def note(owner: str, **lists: Any) -> dict[str, Any]:
    return {"type": "note", "owner": owner, **{k: list(v) if isinstance(v, tuple) else v
                                                for k, v in lists.items()}}


def test_holds_and_lacks_are_cells_and_cite_the_note() -> None:
    log = refresh_log([note("Niko", lacks=("köysi",)),
                       note("Veera", holds=("tikari", "pistooli"), text="saw them")])
    grid = analyze(log).grid
    assert grid is not None
    assert grid.cells["köysi"]["Niko"] is Knowledge.NO
    assert grid.cells["tikari"]["Veera"] is Knowledge.YES
    with Explainer.of(log) as explainer:
        lacks = explainer.cell("köysi", "Niko")
        assert lacks.events == (1,)
        assert lacks.steps[-1].text == "You noted in event 1 that Niko does not hold köysi."
        holds = explainer.cell("pistooli", "Veera")
        assert holds.steps[-1].text == ("You noted in event 2 that Veera holds tikari and "
                                        "pistooli — “saw them”: Veera holds pistooli.")


def test_holds_one_of_narrows_like_an_unseen_refutation() -> None:
    log = refresh_log([note("envelope", holds_one_of=("köysi", "autotalli", "tikari")),
                       note("envelope", lacks=("köysi",)),
                       suggestion("Aino", (REGINA, "tikari", "keittiö"), (), "Niko", "tikari")])
    explanation = explain_cell(log, "autotalli", ENVELOPE)
    assert explanation.value is Knowledge.YES and explanation.events == (1, 2, 3)
    last = explanation.steps[-1]
    assert last.rule == "narrowed"
    assert last.text == (
        "You noted in event 1 that the envelope holds at least one of (köysi, autotalli, "
        "tikari); köysi is not in the envelope and tikari is Niko's, so autotalli is in the "
        "envelope.")


def test_one_of_counts_towards_a_full_hand() -> None:
    """Niko holds 4: two known, and one of each of two separate notes; nothing else."""
    log = refresh_log([note("Niko", holds=("köysi", "tikari")),
                       note("Niko", holds_one_of=(REGINA, "autotalli")),
                       note("Niko", holds_one_of=("keittiö", "pistooli"))])
    explanation = explain_cell(log, "jakoavain", "Niko")
    assert explanation.value is Knowledge.NO
    assert explanation.steps[-1].rule == "full-with-answers"
    assert "one of (Regina Päiväperhonen, autotalli) (your note, event 2)" in (
        explanation.steps[-1].text)


def test_a_note_on_a_face_up_card_is_a_conflict_in_words(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    log = refresh_log([note("Oona", holds=("veranta",), text="I think")])
    with Explainer.of(log) as explainer:
        conflict = explainer.conflict()
        assert conflict is not None and conflict.events == (1,)
        assert "You noted in event 1 that Oona holds veranta — “I think”, but veranta lies " \
               "face up." in conflict.text()
    path = tmp_path / "clash.json"
    path.write_text(dumps(log), encoding="utf-8")
    assert main(["analyze", str(path)]) == 3
    err = capsys.readouterr().err
    assert "event 1: note: Oona holds veranta — “I think”" in err


def test_conflict_between_a_note_and_a_pass_is_minimal(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    log = refresh_log([note("Aino", lacks=("tikari",)),
                       suggestion("Oona", (REGINA, "köysi", "keittiö"), ("Aino",), "Niko"),
                       note("Niko", holds_one_of=("köysi", "veranta")),
                       note("Veera", holds=("köysi",))])
    path = tmp_path / "clash.json"
    path.write_text(dumps(log), encoding="utf-8")
    assert main(["analyze", str(path), "--json"]) == 3
    assert json.loads(capsys.readouterr().out)["conflict"] == [3, 4]
    assert main(["analyze", str(path)]) == 3
    err = capsys.readouterr().err
    assert "event 3: note: Niko holds at least one of (köysi, veranta)" in err
    assert "event 4: note: Veera holds köysi" in err


def test_combined_steps_cite_a_note_in_words() -> None:
    log = refresh_log([note("Niko", lacks=("tikari",), text="house rule")])
    with Explainer.of(log) as explainer:
        words = explainer.context.words
        said = words.event(1, log.events[0]).render()
        assert said == "your note: Niko does not hold tikari — “house rule”"
        mine = Note("Aino", holds_one_of=("köysi", "tikari"))
        said = words.event(2, mine).render()
        assert said == "your note: you hold at least one of (köysi, tikari)"


def test_describe_event_for_every_kind_of_note() -> None:
    assert describe_event(3, Note("Bob", lacks=("Rope", "Knife"))) == (
        "event 3: note: Bob holds none of (Rope, Knife)")
    assert describe_event(4, Note("side", holds=("Rope",))) == (
        "event 4: note: the side cards hold Rope")
    assert describe_event(5, Note("envelope", holds_one_of=("Rope",), text="x")) == (
        "event 5: note: the envelope holds Rope — “x”")


def test_odds_count_an_envelope_note_exactly() -> None:
    """A small game: the envelope holds one of two cards; exact odds equal brute force."""
    log = parse({
        "format": "clue-notebook/1",
        "cards": {"suspects": ["S1", "S2"], "weapons": ["W1", "W2"], "rooms": ["R1", "R2", "R3"]},
        "players": [{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2}],
        "events": [note("envelope", holds_one_of=("S1", "R2")),
                   note("Bob", holds_one_of=("W1", "R1", "R3"))],
    })
    result = odds(log)
    cells, envelope = brute_odds(log)
    assert result.exact
    assert result.probabilities == cells
    assert {t[:3]: t[3] for t in result.envelope_odds} == envelope
    assert all("S1" in t[:3] or "R2" in t[:3] for t in result.envelope_odds)


def test_advisor_and_accusation_check_read_notes() -> None:
    log = refresh_log([note("Niko", holds_one_of=(REGINA, "jakoavain")),
                       note("envelope", lacks=("tikari",)),
                       suggestion("Aino", (REGINA, "köysi", "keittiö"), ("Niko",), "Veera",
                                  "keittiö")], mine=("pistooli",))
    assert accuse(log, (REGINA, "tikari", "autotalli")).probability == 0
    ranked = advise(log, "keittiö", samples=300)
    assert len(ranked) == 36 and all(a.gain >= 0 for a in ranked)
    assert not any(isinstance(e, Note) for e in asker_view(log, "Niko").events)
    shown = what_to_show(log, "Niko", ("Marjaana Punakulta", "pistooli", "olohuone"))
    assert shown.card == "pistooli"


def test_simulator_answers_after_notes() -> None:
    log = refresh_log([note("Niko", lacks=("köysi",))], mine=())
    rng = random.Random(3)
    deal = random_deal(log.game, rng)
    got = answer(log.game, deal, "Aino", (REGINA, "köysi", "keittiö"), rng, history=log.events)
    assert got.by == "Aino"


@pytest.mark.parametrize("command", [
    ["analyze"], ["analyze", "--json"], ["explain", "@", "köysi", "Niko"],
    ["accuse", "@", "Regina Päiväperhonen", "tikari", "autotalli"], ["advise"],
    ["show", "@", "Niko", "Regina Päiväperhonen", "pistooli", "olohuone"],
])
def test_every_command_reads_a_log_with_notes(command: list[str], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    log = refresh_log([note("Niko", lacks=("köysi",), text="dropped"),
                       note("envelope", holds_one_of=(REGINA, "tikari")),
                       note("Veera", holds=("kynttilänjalka",))],
                      mine=("pistooli", "Marjaana Punakulta", "olohuone", "jakoavain"))
    path = tmp_path / "notes.json"
    path.write_text(dumps(log), encoding="utf-8")
    argv = [command[0], str(path), *command[2:]] if "@" in command else [*command[:1], str(path),
                                                                         *command[1:]]
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "Traceback" not in out + err
    if command[0] == "explain":
        assert "You noted in event 1 that Niko does not hold köysi — “dropped”." in out
