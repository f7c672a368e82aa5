"""The text notation: round trips against the JSON format on generated games, awkward names,
unknown fields and comments, and the errors a person typing it meets."""

# ruff: noqa: RUF001
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.cards import Deck
from solver.editions import Dealing, editions
from solver.errors import InvalidLogError
from solver.game import (
    ENVELOPE,
    SIDE,
    Accusation,
    Event,
    Game,
    GameLog,
    Note,
    Player,
    Reveal,
    SidePeek,
    Suggestion,
)
from solver.limits import text_problem
from solver.logfile import dumps, loads
from solver.notation import NotationError, read_log_any, read_text, write_text
from solver.values import field_names, replace
from tests.strategies import small_logs

TRICKY_CARDS = (
    "Lead Pipe", "Mrs. White", "Mrs. Peacock", "Rope", "Rope Ladder", "hand", "note",
    "accuses", "Jean-Luc", "a: b", 'Say "hi"', "Plum+", "köysi", "Верёвка", "Веревка",
    "Suspect 1", "Weapon 1", "[side]", "x # y", "Bob", "one of", "- dash", "{brace}",
)
TRICKY_PLAYERS = (
    "Ann", "Sideshow Bob", "Bob", "me", "title", "note", "Rope", "Anna", "Вера", "reveals",
    "B+", "Dr. No", "my cards", "Ann Lee",
)


def rename(log: GameLog, cards: dict[str, str], players: dict[str, str]) -> GameLog:
    """The same game with other card and player names."""
    def c(names: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(cards[n] for n in names)

    def p(name: str) -> str:
        return players[name]

    game = log.game
    deck = Deck(c(game.deck.suspects), c(game.deck.weapons), c(game.deck.rooms))
    new_game = replace(
        game, deck=deck, players=tuple(Player(p(x.name), x.hand_size) for x in game.players),
        me=None if game.me is None else p(game.me), my_cards=c(game.my_cards),
        face_up=c(game.face_up),
    )
    events: list[Event] = []
    for e in log.events:
        if isinstance(e, Suggestion):
            peek = e.side_peek
            if peek is not None and peek.card is not None:
                peek = SidePeek(peek.slot, cards[peek.card])
            triple = c(e.cards)
            events.append(replace(
                e, by=p(e.by), cards=(triple[0], triple[1], triple[2]),
                passes=tuple(map(p, e.passes)),
                refuted_by=None if e.refuted_by is None else p(e.refuted_by),
                shown=None if e.shown is None else cards[e.shown], side_peek=peek))
        elif isinstance(e, Accusation):
            triple = c(e.cards)
            events.append(replace(e, by=p(e.by), cards=(triple[0], triple[1], triple[2])))
        elif isinstance(e, Note):
            owner = e.owner if e.owner in (ENVELOPE, SIDE) else p(e.owner)
            events.append(replace(e, owner=owner, holds=c(e.holds), lacks=c(e.lacks),
                                  holds_one_of=c(e.holds_one_of)))
        else:
            events.append(replace(e, player=p(e.player), cards=c(e.cards)))
    return GameLog(new_game, tuple(events))


@st.composite
def tricky_logs(draw: st.DrawFn) -> GameLog:
    """Generated games with awkward names, unknown fields and comments."""
    log = draw(small_logs())
    deck = log.game.deck.cards
    names = draw(st.lists(st.sampled_from(TRICKY_CARDS) | st.text(min_size=1, max_size=8),
                          min_size=len(deck), max_size=len(deck), unique=True))
    names = [n if n.strip() and text_problem(n) is None else f"card {i}"
             for i, n in enumerate(names)]
    if len(set(names)) < len(names):
        names = [f"{n} {i}" for i, n in enumerate(names)]
    seats = log.game.player_names
    people = draw(st.lists(st.sampled_from(TRICKY_PLAYERS), min_size=len(seats),
                           max_size=len(seats), unique=True))
    log = rename(log, dict(zip(deck, names, strict=True)), dict(zip(seats, people, strict=True)))
    extras = st.dictionaries(st.sampled_from(["dice", "comment", "at", "why", "text"]),
                             st.none() | st.integers() | st.text(max_size=6), max_size=2)
    game = replace(log.game, extra=draw(extras), title=draw(st.none() | st.text(max_size=10).filter(
        lambda t: text_problem(t, name=False) is None)))
    events = tuple(
        replace(e, extra={k: v for k, v in draw(extras).items()
                          if k not in field_names(e)})
        for e in log.events
    )
    return GameLog(game, events)


def assert_round_trips(log: GameLog) -> None:
    text = write_text(log)
    back = read_text(text)
    assert back == log, text
    assert write_text(back) == text
    assert loads(dumps(back)) == back
    assert read_text(write_text(loads(dumps(log)))) == loads(dumps(log))


@pytest.mark.parametrize("rule", list(Dealing), ids=lambda rule: rule.value)
def test_generated_games_of_every_dealing_rule_round_trip_like_json(rule: Dealing) -> None:
    @settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(small_logs(max_events=8, rule=rule))
    def round_trips(log: GameLog) -> None:
        assert_round_trips(log)

    round_trips()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tricky_logs())
def test_awkward_names_unknown_fields_and_comments_round_trip(log: GameLog) -> None:
    assert_round_trips(log)


@pytest.mark.parametrize("name", sorted(editions()))
def test_every_preset_card_has_a_short_name_that_reads_back(name: str) -> None:
    deck = editions()[name].deck
    game = Game(deck, (Player("A", len(deck) - 3), Player("B", 0)), edition=name)
    s, w, r = deck.suspects, deck.weapons, deck.rooms
    events = tuple(Reveal("A", (card,)) for card in deck.cards) + tuple(
        Suggestion("A", (s[i % len(s)], w[i % len(w)], r[i % len(r)]), (), "B")
        for i in range(len(r))
    )
    log = GameLog(game, events)
    text = write_text(log)
    assert '"' not in text, text
    assert read_text(text) == log


CLASSIC = """\
title: Friday game
edition: clue-classic
players: Ann 6, Bob 6, Cid 6
me: Ann
my cards: Plum Knife Hall Rope Study Lounge
"""


def classic(*events: str) -> GameLog:
    return read_text(CLASSIC + "\n" + "\n".join(events) + "\n")


def test_every_event_kind() -> None:
    log = classic(
        "Ann: Scarlet Pipe Kitchen / Bob - Cid + Pipe",
        "Bob: Green Wrench Ballroom / Cid +",
        "Cid: White Candle Library / Ann + Library  # I showed my Library",
        "Bob: Green Wrench Study / Cid - Ann -",
        "Bob accuses Green Wrench Ballroom: wrong",
        "Cid reveals Scarlet",
        "Bob reveals hand: Green Wrench Ballroom Kitchen Pipe Mustard",
        'Cid accuses Scarlet Pipe Kitchen: right {"at": "23:10"}',
    )
    e = log.events
    assert e[0] == Suggestion("Ann", ("Miss Scarlet", "Lead Pipe", "Kitchen"), ("Bob",), "Cid",
                              "Lead Pipe")
    assert e[1] == Suggestion("Bob", ("Mr. Green", "Wrench", "Ballroom"), (), "Cid")
    assert e[2].extra == {"comment": "I showed my Library"}
    assert e[3] == Suggestion("Bob", ("Mr. Green", "Wrench", "Study"), ("Cid", "Ann"))
    assert e[4] == Accusation("Bob", ("Mr. Green", "Wrench", "Ballroom"), False)
    assert e[5] == Reveal("Cid", ("Miss Scarlet",))
    assert isinstance(e[6], Reveal) and e[6].whole_hand and len(e[6].cards) == 6
    assert e[7] == Accusation("Cid", ("Miss Scarlet", "Lead Pipe", "Kitchen"), True,
                              extra={"at": "23:10"})


def test_forum_directed_suggestion_and_first_in_order() -> None:
    text = """\
edition: forum-gostya-iz-budushchego
players: Duos 3, Полина 3, Громозека 3, Шушера 3, Кефирчик 3, Профессор 3
me: Полина
my cards: Космопорт Больница КосмоЗоо

Duos: Алис кеф Космоп / Громозека + Алиса [first]
Полина: вес бласт шк / Проф + Весельчак
Полина: Фима Королёв, Флип, Школа / Шушера -
"""
    log = read_text(text)
    first, seen, passed = log.events
    assert isinstance(first, Suggestion) and first.shown == "Алиса Селезнёва"
    assert first.shown_by_rule == "first-in-order"
    assert isinstance(seen, Suggestion) and seen.shown == "Весельчак У"
    assert isinstance(passed, Suggestion) and passed.cards[0] == "Фима Королёв"
    assert passed.passes == ("Шушера",) and passed.refuted_by is None


def test_first_in_order_needs_who_showed() -> None:
    """The rule stands without the card (the host answered between others: the asker was shown
    the refuter's first), not without the refuter."""
    with pytest.raises(NotationError, match="a player who showed a card"):
        classic("Bob: Green Wrench Ballroom / Cid - [first]")
    for text, shown in (("Cid + Green [first]", "Mr. Green"), ("Cid + [first]", None)):
        event = classic(f"Bob: Green Wrench Ballroom / {text}").events[0]
        assert isinstance(event, Suggestion)
        assert (event.shown, event.shown_by_rule) == (shown, "first-in-order")


def test_two_player_side_peeks() -> None:
    text = """\
edition: cluedo-refresh-2012-fi
players: Aino 7, Niko 7
me: Aino
my cards: Viherlevä köysi pistooli putki veranta työhuone autotalli
side cards: 4

Aino: valkopesu jakoavain autotalli / Niko - [side 3: Valkopesu]
Niko: purppura jako peli / Aino - [side 3]
"""
    mine, theirs = read_text(text).events
    assert isinstance(mine, Suggestion) and mine.side_peek == SidePeek(3, "Aino Valkopesu")
    assert isinstance(theirs, Suggestion) and theirs.side_peek == SidePeek(3)


def test_numbers_are_ascii_digits() -> None:
    """A hand size, the side cards and a side peek's slot are whole numbers in ASCII digits: a
    superscript digit (``str.isdigit`` says it is a digit, ``int`` refuses it) or more digits
    than ``int`` reads is a problem that quotes it, never a traceback."""
    text = """edition: cluedo-refresh-2012-fi\nplayers: Aino 7, Niko 7\nside cards: 4\n\n"""
    event = "Aino: valkopesu jakoavain autotalli / Niko - [side 3: Valkopesu]\n"
    for old, new in (("Aino 7", "Aino \u2077"), ("cards: 4", "cards: \u2074"),
                     ("side 3", "side \u00b3"), ("Aino 7", "Aino " + "7" * 5000)):
        with pytest.raises(NotationError) as caught:
            read_text((text + event).replace(old, new, 1))
        assert new.split()[-1][:20] in str(caught.value)

def test_prefixes_ignore_case_and_accents_and_take_several_words() -> None:
    log = classic("Ann: col must lead pip billiard / Bob +", "Cid: MRS W rev dining / Ann -",
                  'Bob: "Professor Plum" "Lead Pipe" "Dining Room" / Cid +')
    assert log.events[0].cards == ("Colonel Mustard", "Lead Pipe", "Billiard Room")
    assert log.events[1].cards == ("Mrs. White", "Revolver", "Dining Room")
    assert log.events[2].cards == ("Professor Plum", "Lead Pipe", "Dining Room")
    fi = read_text("edition: cluedo-refresh-2012-fi\nplayers: A 9, B 9\n"
                   "\nA: regina koysi keittio / B +\n")
    assert fi.events[0].cards == ("Regina Päiväperhonen", "köysi", "keittiö")
    ru = read_text("edition: cluedo-classic-ru\nplayers: А 9, Б 9\n\nА: плам верев кух / Б +\n"
                   "Б: Профессор Плам, Гаечный ключ, Холл / А -\n")
    assert ru.events[0].cards == ("Профессор Плам", "Верёвка", "Кухня")


def test_cards_in_any_order_are_stored_suspect_weapon_room() -> None:
    log = classic("Ann: Kitchen Pipe Scarlet / Bob +")
    assert log.events[0].cards == ("Miss Scarlet", "Lead Pipe", "Kitchen")


def test_a_misspelt_card_names_line_column_and_the_likely_card() -> None:
    with pytest.raises(NotationError) as caught:
        classic("Ann: Plumb Rope Hall / Bob -")
    err = caught.value
    assert (err.line, err.column, err.expected, err.suggestion) == (7, 6, "a card",
                                                                    "Professor Plum")
    assert str(err) == ("line 7, column 6: expected a card, got 'Plumb': "
                        "did you mean Professor Plum?")


@pytest.mark.parametrize(("text", "said"), [
    ('"hello"', "line 1, column 1: expected an 'edition:' line or 'suspects:', 'weapons:' and "
                "'rooms:' lines, got '\"hello\"'"),
    ("# a chat\n\nplayers: Ann 9, Bob 9", "line 3, column 1: expected an 'edition:' line"),
])
def test_text_without_a_deck_names_the_line_it_read(text: str, said: str) -> None:
    """A paste with no edition nor card lists was told "expected an 'edition:' line …, got the
    end of the line" of a line that held "hello" (a JSON string pasted in the app)."""
    with pytest.raises(NotationError) as caught:
        read_text(text)
    assert str(caught.value).startswith(said), str(caught.value)
    assert "the end of the line" not in str(caught.value)


def test_an_ambiguous_prefix_lists_what_it_could_be() -> None:
    with pytest.raises(NotationError, match=r"Mrs. Peacock or Mrs. White: type more letters"):
        classic("Ann: Mrs Rope Hall / Bob -")


def test_several_errors_are_reported_at_once() -> None:
    with pytest.raises(NotationError) as caught:
        classic("Ann: Plum Rope / Bob -", "Bob: Green Rope Hall / Dan -",
                "Cid accuses Green Rope Hall", "Cid: Green Rope Hall / Bob -")
    lines = [(p.line, p.expected) for p in caught.value.errors]
    assert lines == [
        (7, "three cards (suspect, weapon, room)"),
        (8, "a player before + or -"),
        (9, "': right' or ': wrong' after the three cards"),
    ]
    assert caught.value.errors[1].got == "Dan"


def test_header_errors() -> None:
    with pytest.raises(NotationError) as caught:
        read_text("edition: clue-clasic\nplayers: Ann 9, Bob 9\n")
    assert caught.value.suggestion == "clue-classic" and caught.value.line == 1
    with pytest.raises(NotationError, match="a player's name and hand size"):
        read_text("edition: clue-classic\nplayers: Ann, Bob 9\n")
    with pytest.raises(NotationError, match="'players:' line"):
        read_text("edition: clue-classic\n")


def test_misplaced_misspelt_and_repeated_header_lines() -> None:
    with pytest.raises(NotationError) as caught:
        read_text("edition: clue-classic\nplayer: Ann 9, Bob 9\n")
    assert (caught.value.line, caught.value.suggestion) == (2, "players:")
    with pytest.raises(NotationError, match=r"line 8, column 1: expected an event \(header "):
        classic("Ann: Plum Rope Hall / Bob +", "me: Bob")
    with pytest.raises(NotationError, match=r"expected one 'me:' line \(the first is line 4\)"):
        read_text(CLASSIC + "me: Bob\n")
    log = read_text(CLASSIC.replace("Bob", "Me") + "\nMe: Plum Rope Hall / Cid +\n")
    assert isinstance(log.events[0], Suggestion) and log.events[0].by == "Me"


def test_rule_problems_name_the_line() -> None:
    with pytest.raises(InvalidLogError) as caught:
        read_text(CLASSIC.replace("Cid 6", "Cid 5") + "\nAnn: Plum Rope Hall / Ann +\n")
    problems = caught.value.problems
    assert any(p.startswith("line 3: players: hand sizes (6 + 6 + 5)") for p in problems)
    with pytest.raises(InvalidLogError, match=r"line 7: event 1 \(refuted_by\): 'Ann' cannot "):
        classic("Ann: Plum Rope Hall / Ann +")


def test_unknown_fields_that_clash_with_the_notation_are_refused() -> None:
    with pytest.raises(NotationError, match="only fields the notation has no words for"):
        classic('Ann: Plum Rope Hall / Bob + {"by": "Cid"}')
    with pytest.raises(NotationError, match="only fields the notation has no line for"):
        read_text(CLASSIC + 'extra: {"players": []}\n')


def test_comments_are_kept_with_the_game_and_the_next_event() -> None:
    text = "# Friday\n" + CLASSIC + "\n# Bob looked unsure\nBob: Green Rope Hall / Cid +\n"
    log = read_text(text)
    assert log.game.extra == {"comment": "Friday"}
    assert log.events[0].extra == {"comment": "Bob looked unsure"}
    assert write_text(log) == text
    moved = read_text(CLASSIC.replace("Cid 6", "Cid 6  # Cid deals") + "\nBob: Green Rope Hall\n")
    assert moved.game.extra == {"comment": "Cid deals"} and moved.game.player_names[2] == "Cid"


def test_read_log_any_detects_the_format_by_content() -> None:
    log = classic("Ann: Plum Rope Hall / Bob +")
    assert read_log_any(dumps(log)) == log
    assert read_log_any(write_text(log)) == log
    assert read_log_any("\ufeff  " + dumps(log)) == log


def test_notes_of_every_kind_with_remarks() -> None:
    log = classic(
        "note Bob has Rope: saw it when he dropped it",
        "note envelope lacks Knife Wrench",
        "note Cid has one of Plum Mustard Green",
        'note Cid lacks Hall: "  spaced  "',
        "note env has Scarlet {\"by\": 1}",
        "note Bob lacks Kitchen:",
    )
    assert log.events[0] == Note("Bob", holds=("Rope",), text="saw it when he dropped it")
    assert log.events[1] == Note("envelope", lacks=("Knife", "Wrench"))
    assert log.events[2] == Note("Cid", holds_one_of=("Professor Plum", "Colonel Mustard",
                                                      "Mr. Green"))
    assert log.events[3] == Note("Cid", lacks=("Hall",), text="  spaced  ")
    assert log.events[4] == Note("envelope", holds=("Miss Scarlet",), extra={"by": 1})
    assert log.events[5] == Note("Bob", lacks=("Kitchen",), text="")
    text = write_text(log)
    assert text.splitlines()[-6:] == [
        "note Bob has Rope: saw it when he dropped it",
        "note envelope lacks Knife Wrench",
        "note Cid has one of Plum Mustard Green",
        'note Cid lacks Hall: "  spaced  "',
        'note envelope has Scarlet {"by": 1}',
        'note Bob lacks Kitchen: ""',
    ]
    assert read_text(text) == log


def test_a_note_needs_a_verb_and_cards() -> None:
    with pytest.raises(NotationError, match=r"'note OWNER has\|lacks\|has one of CARDS'"):
        classic("note Bob Rope")
    with pytest.raises(NotationError, match="expected the cards of the note"):
        classic("note Bob has")
    with pytest.raises(NotationError, match="did you mean Bob"):
        classic("note Bobb has Rope")


def test_the_games_in_the_notation_page_read() -> None:
    page = (Path(__file__).parent.parent / "docs" / "notation.md").read_text(encoding="utf-8")
    blocks = [b for _, b in re.findall(r"```(\w*)\n(.*?)```", page, flags=re.DOTALL)]
    games = [b for b in blocks if b.startswith("title:")]
    assert len(games) == 3
    for block in games:
        assert read_text(block).events
    notes = next(b for b in blocks if b.startswith("note "))
    log = read_text(CLASSIC.replace("Cid 6", "Cid 4") + "side cards: 2\n\n" + notes)
    assert all(isinstance(e, Note) for e in log.events) and len(log.events) == 4


def test_quoted_names_that_look_like_punctuation_stay_names() -> None:
    deck = Deck(("]", "S2"), (":", "W2"), ("[", "R2", "R3"))
    game = Game(deck, (Player("A", 2), Player("B", 1)), me="A", my_cards=("S2", "W2"),
                side_cards=1)
    log = GameLog(game, (
        Suggestion("A", ("S2", ":", "["), ("B",), side_peek=SidePeek(1, "]")),
        Suggestion("A", ("]", ":", "R2"), ("B",), side_peek=SidePeek(1, ":")),
        Note("B", holds_one_of=("]", ":", "[")),
    ))
    assert_round_trips(log)
    assert '[side 1: "]"]' in write_text(log)


def test_a_long_bad_word_is_quoted_short_and_a_huge_text_is_refused() -> None:
    with pytest.raises(NotationError) as caught:
        classic("Ann: " + "x" * 5_000 + " Rope Hall / Bob -")
    assert len(str(caught.value)) < 200 and str(caught.value).endswith("characters)")
    with pytest.raises(InvalidLogError, match="longer than the 1,000,000 characters"):
        read_text(CLASSIC + "\n" + "# padding\n" * 100_001)


def test_the_forum_variant_expects_a_place() -> None:
    """The forum variant's third kind of card is places (`solver.editions.forum_dealt`): an
    event short of a card expected "three cards (suspect, weapon, room)" there too."""
    header = (Path(__file__).parent.parent / "examples" / "forum-gostya-iz-budushchego.clue"
              ).read_text(encoding="utf-8").split("\n\n")[0]
    with pytest.raises(NotationError) as caught:
        read_text(header + "\n\nDuos: Крыс Школа / Громозека -\n")
    assert [(p.line, p.expected) for p in caught.value.errors] == [
        (7, "three cards (suspect, weapon, place)")]
