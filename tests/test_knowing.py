"""Whether another player surely knows the envelope (`solver.knowing`), against brute force:
every deal my log allows and every card a refuter could have shown them."""

from __future__ import annotations

import pytest
from hypothesis import given

from solver.game import GameLog
from solver.knowing import knows_surely
from solver.notation import read_text
from solver.race import accuse_or_wait, race
from tests.brute import deals
from tests.strategies import small_logs
from tests.test_race import SETTINGS, SMALL, _knows, _mine, _played, _views, _watched


def brute_knows(log: GameLog, player: str) -> bool:
    """Whether ``player`` can name the envelope in every deal ``log`` allows, with every card
    each refuter could have shown them."""
    return all(_knows(view) for deal in deals(log) for view in _views(log, player, deal))


GAMES = {"mine 8": _mine(8), "mine 18": _mine(18), "mine 22": _mine(22),
         "played 8": _played(8, ("Ann", "Bob", "Cy"), SMALL),
         "played 39": _played(39, ("Ann", "Bob", "Cy"), SMALL),
         "watched 8": _watched(8), "watched 10": _watched(10)}
"""Small 3-player games (as Ann sees them, or a spectator's) where at some point the race says
">99%" for a player: surely in some, not in `played 39` and `watched 10`."""


@pytest.mark.parametrize("name", GAMES)
def test_knows_surely_matches_brute_force_at_every_point(name: str) -> None:
    log = GAMES[name]
    for n in range(len(log.events) + 1):
        now = log.upto(n)
        for player in log.game.player_names:
            if player != log.game.me:
                assert knows_surely(now, player) == brute_knows(now, player), (n, player)


def test_the_games_checked_have_players_who_surely_know_and_who_do_not() -> None:
    """The comparison above could not fail if the answer were always the same."""
    told = {knows_surely(log.upto(n), p) for log in GAMES.values()
            for n in range(len(log.events) + 1) for p in ("Bob", "Cy")}
    assert told == {True, False}


@SETTINGS
@given(small_logs(max_events=5))
def test_knows_surely_matches_brute_force(log: GameLog) -> None:
    """Every dealing rule and event kind (cards shown by the first-in-order rule, reveals,
    notes, accusations); with side cards it never says so (not modelled), a doubt like any."""
    for player in log.game.player_names:
        if player == log.game.me:
            continue
        sure = knows_surely(log, player)
        if log.game.side_cards:
            assert not sure
        else:
            assert sure == brute_knows(log, player), player


def test_a_player_who_surely_knows_is_said_to_know() -> None:
    """Bob can name the envelope in every deal that fits my log, whichever card he was shown:
    the line said "Bob may already know: >99%", as for a chance read off drawn deals."""
    log = _mine(8).upto(3)
    assert brute_knows(log, "Bob")
    verdict = accuse_or_wait(log, samples=100)
    assert verdict.race is not None and verdict.race.surely == {"Bob"}
    assert not verdict.race.fallback and verdict.race.said("Bob") == "100%"
    assert verdict.race.to_json()["surely"] == ["Bob"]
    assert verdict.reason().endswith("; Bob already knows the envelope")
    watched = _watched(8).upto(3)  # a spectator's line: who among the players knows
    assert brute_knows(watched, "Bob")
    seen = race(watched, samples=100)
    line = seen.leader_said()
    assert line is not None and line.render() == "Bob already knows the envelope"


def test_a_player_known_in_every_deal_drawn_but_not_in_every_deal_is_hedged() -> None:
    """Bob names the envelope in every deal the race keeps (players accuse when certain, an
    assumption about play), but a deal that fits my log has him unsure: still ">99%"."""
    log = GAMES["played 39"].upto(3)
    verdict = accuse_or_wait(log, samples=100)
    assert verdict.race is not None and verdict.race.players["Bob"] >= 0.995
    assert not brute_knows(log, "Bob") and not verdict.race.surely
    assert verdict.reason().endswith("; Bob may already know: >99%")


HOST_ANSWERED = """\
suspects: S1, S2
weapons: W1, W2, W3
rooms: R1, R2
players: Aino 2, Niko 2

Aino: S2 W2 R2 / Niko + [first]
Aino: S2 W2 R1 / Niko -
Aino: S2 W1 R2 / Niko + [first]
"""
"""A spectator's forum log: the host answers Aino's questions for Niko by the order suspect,
weapon, place, and the spectator sees no card. Niko lacks S2, W2 and R1 (the second), so he
holds R2 (the first). On the third the host showed W1 if Niko holds it, else R2, which says he
lacks W1: either way Aino knows where W1 is, and so the envelope."""


def test_the_hosts_rule_says_what_the_asker_was_shown_without_the_card() -> None:
    """The log kept the host's rule only with the card shown, so a spectator could not record
    it, and the race read Aino as shown any of Niko's matches: "may already know" where she
    surely knows."""
    log = read_text(HOST_ANSWERED)
    assert knows_surely(log, "Aino") and brute_knows(log, "Aino")
    seen = race(log, samples=200)
    assert seen.surely == {"Aino"} and seen.players["Aino"] >= 0.995
    plain = read_text(HOST_ANSWERED.replace(" [first]", ""))
    assert not knows_surely(plain, "Aino") and not brute_knows(plain, "Aino")
    assert race(plain, samples=200).players["Aino"] < 0.995
