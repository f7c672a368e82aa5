"""Presets and dealing rules."""

from __future__ import annotations

import pytest

from solver.editions import Dealing, deal, edition, editions, forum_deck
from solver.errors import InvalidLogError


def test_every_preset_has_a_classic_size_deck() -> None:
    for preset in editions().values():
        assert (len(preset.deck.suspects), len(preset.deck.weapons), len(preset.deck.rooms)) == (
            6, 6, 9)


def test_bug_forum_rule_dealt_like_classic() -> None:
    """The forum preset (a deck for 6 players) with 4 players was dealt 5, 5, 4, 4 although
    the forum rule gives everyone the same hand; it must say the deck does not fit instead."""
    assert deal(Dealing.FORUM, 21, 6).hand_sizes == (3,) * 6
    with pytest.raises(InvalidLogError, match=r"players: .* 18 cards do not split among 4"):
        deal(Dealing.FORUM, 21, 4)
    assert deal(Dealing.FORUM, len(forum_deck(4)), 4).hand_sizes == (3, 3, 3, 3)


def test_refresh_leftovers_lie_face_up() -> None:
    assert deal(Dealing.REFRESH, 21, 5).face_up == 3
    assert deal(Dealing.REFRESH, 21, 5).hand_sizes == (3,) * 5


def test_unknown_edition_names_the_known_ones() -> None:
    with pytest.raises(InvalidLogError, match=r"edition: unknown edition 'monopoly' \(known: "):
        edition("monopoly")
