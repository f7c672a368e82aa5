"""Presets and dealing rules."""

from __future__ import annotations

import pytest

from solver.editions import Dealing, deal, edition, editions, forum_deck, new_game
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


def test_new_game_with_the_tables_own_hand_sizes() -> None:
    """One way to set up a game for the command line and the app: the rule's sizes or given
    ones; the 2-player rule lays out its side cards either way."""
    deck = edition("cluedo-refresh-2012-fi").deck
    game = new_game(deck, ("Aino", "Niko"), Dealing.TWO_PLAYER, hand_sizes=(8, 6))
    assert [p.hand_size for p in game.players] == [8, 6]
    assert game.side_cards == 4
    assert new_game(deck, ("Aino", "Niko"), Dealing.TWO_PLAYER).side_cards == 4
    with pytest.raises(InvalidLogError, match="hand sizes: 2 players need 2 sizes, got 3"):
        new_game(deck, ("Aino", "Niko"), Dealing.CLASSIC, hand_sizes=(6, 6, 6))


def test_japanese_edition_is_the_us_box_in_japanese() -> None:
    """The Japanese rule sheet's box: the US classic cards, one for one, with Japanese names
    (ラウンジ and 短剣 as the sheet says); the other editions keep their names."""
    us, ja = edition("clue-classic"), edition("clue-classic-ja")
    assert ja.language == "ja" and ja.dealing is us.dealing
    pairs = dict(zip(us.deck, ja.deck, strict=True))
    assert pairs["Lounge"] == "ラウンジ" and pairs["Knife"] == "短剣"
    assert pairs["Colonel Mustard"] == "マスタード大佐"
    assert len(set(ja.deck)) == 21
    assert {"clue-classic", "cluedo-uk", "cluedo-classic-ru", "cluedo-refresh-2012-fi"} <= set(
        editions())
    assert "Miss Scarlet" in us.deck and "Мисс Скарлет" in edition("cluedo-classic-ru").deck
