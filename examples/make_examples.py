"""Write the example logs in this folder: `python examples/make_examples.py`.

The worked examples of the rules digest are written out by hand, event by event. The whole games
are played by `solver.simulate` from fixed seeds, so running this again gives the same files.
Each game is written twice: ``NAME.json`` (the ``clue-notebook/1`` format) and ``NAME.clue`` (the
same game in the text notation, ``docs/notation.md``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from solver.cards import CATEGORIES, Category
from solver.editions import Dealing, editions
from solver.game import ENVELOPE, Game, GameLog, Player, Reveal, SidePeek, Suggestion, Triple
from solver.logfile import check, save
from solver.notation import write_text
from solver.notebook import Knowledge, analyze
from solver.simulate import Absence, Strategy, play, random_setup, random_strategy

HERE = Path(__file__).parent
REFRESH = "cluedo-refresh-2012-fi"
FI = editions()[REFRESH].deck


def refresh_game(title: str, seats: tuple[str, ...], me: str, my_cards: tuple[str, ...],
                 face_up: tuple[str, ...] = (), side_cards: int = 0) -> Game:
    """A Finnish Refresh table: equal hands, leftovers face up (or 7 + 7 and 4 side cards)."""
    size = (len(FI) - 3 - len(face_up) - side_cards) // len(seats)
    return Game(FI, tuple(Player(name, size) for name in seats), me=me, my_cards=my_cards,
                face_up=face_up, side_cards=side_cards, title=title, edition=REFRESH)


def worked_examples() -> dict[str, GameLog]:
    """The four worked examples of the Refresh 2012 rules (`shared/rules.md`)."""
    question = ("Regina Päiväperhonen", "köysi", "autotalli")
    example_1 = GameLog(
        refresh_game(
            "Sääntöjen esimerkki 1: Niko ei voi vastata, Veera näyttää Ainolle köyden",
            ("Aino", "Niko", "Veera", "Oona"), "Aino",
            ("Jaska Keltanokka", "tikari", "työhuone", "kylpyhuone"), ("veranta", "putki"),
        ),
        (Suggestion("Aino", question, ("Niko",), "Veera", "köysi"),),
    )
    four_players = GameLog(
        refresh_game(
            "Sääntöjen esimerkki 2 (4 pelaajaa): kysyn omilla korteillani, kukaan ei näytä",
            ("Aino", "Niko", "Veera", "Oona"), "Aino",
            ("Marjaana Punakulta", "Regina Päiväperhonen", "köysi", "keittiö"),
            ("veranta", "putki"),
        ),
        (Suggestion("Aino", question, ("Niko", "Veera", "Oona")),),
    )
    two_players = GameLog(
        refresh_game(
            "Sääntöjen esimerkki 2 (kaksinpeli): Niko ei voi vastata, katson sivukortin 1",
            ("Aino", "Niko"), "Aino",
            ("Marjaana Punakulta", "Jaska Keltanokka", "Regina Päiväperhonen", "köysi",
             "tikari", "ruokasali", "keittiö"),
            side_cards=4,
        ),
        (Suggestion("Aino", question, ("Niko",), side_peek=SidePeek(1, "olohuone")),),
    )
    # Veera must be the first to answer Oona, so she sits on Oona's left here.
    example_3 = GameLog(
        refresh_game(
            "Sääntöjen esimerkki 3: Veera näyttää Oonalle, myöhemmin näen Nikon Reginan",
            ("Aino", "Niko", "Oona", "Veera"), "Aino",
            ("Jaska Keltanokka", "pistooli", "työhuone", "kylpyhuone"), ("veranta", "putki"),
        ),
        (
            Suggestion("Oona", ("Regina Päiväperhonen", "pistooli", "keittiö"), (), "Veera"),
            Reveal("Niko", ("Regina Päiväperhonen",)),
        ),
    )
    # I am Eero, a fifth player: I saw Niko's pistooli and Oona's autotalli, then watched
    # Veera (on Aino's left) show Aino a card.
    example_4 = GameLog(
        refresh_game(
            "Sääntöjen esimerkki 4: Nikon pistooli ja Oonan autotalli, sitten Veera näyttää "
            "Ainolle",
            ("Aino", "Veera", "Eero", "Niko", "Oona"), "Eero",
            ("Marjaana Punakulta", "tikari", "veranta"),
            ("jakoavain", "olohuone", "kylpyhuone"),
        ),
        (
            Suggestion("Eero", ("Marjaana Punakulta", "pistooli", "ruokasali"), (), "Niko",
                       "pistooli"),
            Suggestion("Eero", ("Pekka Purppuravalo", "kynttilänjalka", "autotalli"), ("Niko",),
                       "Oona", "autotalli"),
            Suggestion("Aino", ("Juhani Viherlevä", "pistooli", "autotalli"), (), "Veera"),
        ),
    )
    return {
        "rules-example-1.json": example_1,
        "rules-example-2-four-players.json": four_players,
        "rules-example-2-two-players.json": two_players,
        "rules-example-3.json": example_3,
        "rules-example-4.json": example_4,
    }


def detective(me: str, board: float = 0.0, care: float = 1.0) -> Strategy:
    """The user asks about cards that may still be in the envelope; everyone else at random.

    A solved category is asked with one of the user's own cards (the common trick), so the
    answer can only be about the other two. With probability ``board`` the room is wherever
    the dice left the user (any room), as at a real board; with probability ``1 - care`` the
    user asks on a hunch (at random).
    """

    def choose(log: GameLog, suggester: str, rng: random.Random) -> Triple:
        if suggester != me or rng.random() > care:
            return random_strategy(log, suggester, rng)
        grid = analyze(log).grid
        assert grid is not None, "a simulated log is consistent"
        game = log.game
        known = grid.envelope()
        picks: list[str] = []
        for category in CATEGORIES:
            cards = game.deck.of(category)
            solved = known[category]
            if category is Category.ROOM and rng.random() < board:
                picks.append(rng.choice(cards))
            elif solved is None:
                picks.append(rng.choice([c for c in cards if grid[c, ENVELOPE] is Knowledge.MAYBE]))
            else:
                mine = [c for c in cards if c in game.my_cards]
                picks.append(rng.choice(mine) if mine else solved)
        return picks[0], picks[1], picks[2]

    return choose


GameMaker = Callable[[int], GameLog]


def classic_game(seed: int) -> GameLog:
    """Six players, US Clue, one wrong accusation likely; I accuse once it is safe."""
    rng = random.Random(seed)
    deck = editions()["clue-classic"].deck
    names = ("Anna", "Ben", "Chloe", "Dev", "Emma", "Felix")
    game, truth = random_setup(deck, names, Dealing.CLASSIC, "Chloe", rng,
                               title="Friday night Clue, six players",
                               edition_name="clue-classic")
    chloe = detective("Chloe", board=0.8, care=0.3)
    return play(game, truth, 100, rng, strategy=chloe, wrong_accusations=0.03, finish=True)


def refresh_four(seed: int) -> GameLog:
    """Four players, Finnish Refresh box: two cards face up, a red bonus card now and then."""
    rng = random.Random(seed)
    title = "Sunnuntain Cluedo, neljä pelaajaa (Veeran muistiinpanot)"
    game, truth = random_setup(FI, ("Aino", "Niko", "Veera", "Oona"), Dealing.REFRESH, "Veera",
                               rng, title=title, edition_name=REFRESH)
    return play(game, truth, 80, rng, strategy=detective("Veera", board=0.7), reveals=0.04,
                wrong_accusations=0.03, finish=True)


def refresh_two(seed: int) -> GameLog:
    """Two players, Finnish Refresh box: 7 + 7 cards and four side cards to peek at."""
    rng = random.Random(seed)
    title = "Kaksinpeli: Aino ja Niko, neljä sivukorttia (Ainon muistiinpanot)"
    game, truth = random_setup(FI, ("Aino", "Niko"), Dealing.TWO_PLAYER, "Aino", rng,
                               title=title, edition_name=REFRESH)
    return play(game, truth, 60, rng, strategy=detective("Aino", board=0.7), finish=True)


def classic_notes(seed: int) -> GameLog:
    """Four players, US Clue, and what I learn besides the rules, kept as notes: a card seen
    when it was dropped, a glimpse of a card's corner, table talk ("I have no weapons")."""
    rng = random.Random(seed)
    deck = editions()["clue-classic"].deck
    game, truth = random_setup(deck, ("Ann", "Bob", "Cid", "Dee"), Dealing.CLASSIC, "Ann", rng,
                               title="Clue with notes, four players",
                               edition_name="clue-classic")
    return play(game, truth, 80, rng, strategy=detective("Ann", board=0.8, care=0.5),
                notes=0.15, finish=True)


FORUM_PLAYERS = ("Duos", "Полина", "Громозека", "Шушера", "Кефирчик", "Профессор_Селезнёв")


def forum_game(seed: int) -> GameLog:
    """A play-by-post game: three directed suggestions a day each; Шушера goes missing on day 2,
    the host answers for her (first card in the order suspect, weapon, place), and after two
    missed days reveals her hand."""
    rng = random.Random(seed)
    preset = editions()["forum-gostya-iz-budushchego"]
    game, truth = random_setup(preset.deck, FORUM_PLAYERS, Dealing.FORUM, "Полина", rng,
                               title="Форумная игра «Гостья из будущего» (записи Полины)",
                               edition_name=preset.name)
    days = len(FORUM_PLAYERS)
    return play(game, truth, 6 * days, rng, strategy=detective("Полина"), directed=True,
                per_turn=3, absence=Absence("Шушера", from_turn=days, revealed_at=3 * days),
                finish=True)


GAMES: dict[str, tuple[GameMaker, int]] = {
    "classic-six-players.json": (classic_game, 27),
    "refresh-four-players.json": (refresh_four, 10),
    "refresh-two-players.json": (refresh_two, 4),
    "forum-gostya-iz-budushchego.json": (forum_game, 7),
    "classic-four-players-notes.json": (classic_notes, 19),
}
"""File name -> (game maker, seed). Seeds were picked so each game shows what it is for."""


def main() -> None:
    logs = worked_examples()
    logs.update({name: make(seed) for name, (make, seed) in GAMES.items()})
    for name, log in logs.items():
        check(log)
        save(log, HERE / name)
        (HERE / name).with_suffix(".clue").write_text(write_text(log), encoding="utf-8")
        print(f"{name} and .clue: {len(log.events)} events")


if __name__ == "__main__":
    main()
