"""Turn logic for the entry screens: whose turn it is, who passed, what the user must show.

Pure functions of a `GameLog`, so the app stays a description of the screen.

>>> from solver.editions import Dealing, editions, new_game
>>> from solver.game import GameLog
>>> game = new_game(editions()["clue-classic"].deck, ("Ann", "Bob", "Cat"), Dealing.CLASSIC,
...                 me="Ann", my_cards=("Rope", "Hall"))
>>> log = GameLog(game)
>>> next_suggester(log)
'Ann'
>>> suggestion(game, "Bob", ("Mr. Green", "Rope", "Hall"), refuted_by="Ann").passes
('Cat',)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection
from dataclasses import dataclass

from solver.editions import forum_dealt
from solver.game import (
    ENVELOPE,
    FIRST_IN_ORDER,
    SIDE,
    Accusation,
    Event,
    Game,
    GameLog,
    Note,
    Reveal,
    SidePeek,
    Suggestion,
)
from solver.i18n import Listing, _, list_said, ngettext
from solver.notebook import Grid, Knowledge
from solver.values import field_names, replace


def players_out(log: GameLog, without: Collection[int] = ()) -> set[str]:
    """Players who accused wrongly: they take no more turns but keep refuting. ``without``:
    event numbers left out (the entries the app's grid leaves out past a clash, as its header
    does: `solver.race.out_since`)."""
    return {e.by for i, e in enumerate(log.events, 1)
            if isinstance(e, Accusation) and not e.correct and i not in without}


def apart(word: str, names: Collection[str]) -> str:
    """The app's ``word`` on a chip among players' names ("Nobody" beside those who showed a
    card, "Envelope" beside whose a note is): set off by dashes when a player goes by the same
    name, compared as people read them (any case, composed accents), as the grid's section rows
    are. Two chips "Nobody" (a player, and no one) were a coin toss.

    >>> apart("Nobody", ["Ann", "Bob"]), apart("Nobody", ["Ann", "nobody"])
    ('Nobody', '— Nobody —')
    """
    def read(text: str) -> str:
        return unicodedata.normalize("NFKC", text).casefold().strip()

    return f"— {word} —" if read(word) in {read(name) for name in names} else word


def answer_order(game: Game, by: str) -> tuple[str, ...]:
    """Everyone but ``by``, clockwise from ``by``'s left: the order in which they answer
    (`Game.answer_order`, the rule the simulator and the advisor follow too)."""
    return game.answer_order(by)


def turns_while_out(log: GameLog, first: int = 1, without: Collection[int] = ()
                    ) -> tuple[tuple[int, str, int], ...]:
    """The entries from number ``first`` on where a player takes a turn (suggests or accuses)
    after accusing wrongly, which no edition allows (they only show cards): each as its number,
    the player, and the number of their wrong accusation. ``without``: entries left out, as
    the grid leaves them out past a clash (`players_out`): a wrong accusation left out puts
    nobody out, a turn left out is not checked.

    >>> from solver.editions import Dealing, editions, new_game
    >>> game = new_game(editions()["clue-classic"].deck, ("Ann", "Bob"), Dealing.CLASSIC)
    >>> wrong = Accusation("Bob", ("Mr. Green", "Rope", "Hall"))
    >>> turns_while_out(GameLog(game, (wrong, Suggestion("Bob", wrong.cards, ("Ann",)))))
    ((2, 'Bob', 1),)
    """
    out: dict[str, int] = {}
    found = []
    for number, event in enumerate(log.events, 1):
        if number in without:
            continue
        if isinstance(event, Suggestion | Accusation) and event.by in out and number >= first:
            found.append((number, event.by, out[event.by]))
        if isinstance(event, Accusation) and not event.correct:
            out.setdefault(event.by, number)
    return tuple(found)


def next_suggester(log: GameLog, without: Collection[int] = ()) -> str:
    """Whose turn it is: clockwise after the last player who suggested or accused, skipping
    players who are out (``without``: accusations left out, `players_out`; a turn left out
    was still taken). The first seat starts; when everyone is out, the first seat again."""
    names = log.game.player_names
    out = players_out(log, without)
    last = next(
        (e.by for e in reversed(log.events) if isinstance(e, Suggestion | Accusation)), None
    )
    order = names if last is None else (*answer_order(log.game, last), last)
    return next((n for n in order if n not in out), names[0])


FORUM_QUESTIONS = 3
"""Questions a forum player asks in a game day (the forum's rules, 5.3)."""


def whose_turn(log: GameLog, without: Collection[int] = ()) -> str:
    """Whom the turn form starts at: in the forum variant the latest asker, still in the game,
    until they have asked `FORUM_QUESTIONS` in a row (notes and reveals between do not count);
    else the next player (`next_suggester`). The same after Record and after a reload.
    ``without``: event numbers left out (`players_out`)."""
    if forum_style(log):
        asker, asked = None, 0
        for event in reversed(log.events):
            if isinstance(event, Accusation) or (
                    isinstance(event, Suggestion) and asker not in (None, event.by)):
                break
            if isinstance(event, Suggestion):
                asker, asked = event.by, asked + 1
        if (asker is not None and asked < FORUM_QUESTIONS
                and asker not in players_out(log, without)):
            return asker
    return next_suggester(log, without)


def who_accuses(log: GameLog, without: Collection[int] = ()) -> str:
    """Whom an accusation starts at: the player who made the latest suggestion, still in the
    game (one accuses on one's own turn, after suggesting), else `whose_turn`. ``without``:
    event numbers left out (`players_out`)."""
    last = next((e.by for e in reversed(log.events) if isinstance(e, Suggestion)), None)
    if last is not None and last not in players_out(log, without):
        return last
    return whose_turn(log, without)


def revealed_next(log: GameLog, whose: tuple[str, ...]) -> str:
    """Whose cards a Reveal starts at: the latest wrong accuser among ``whose`` whose whole hand
    has not been revealed since (the forum shows a player's hand once they are out), else the
    first of ``whose``."""
    shown: set[str] = set()
    for event in reversed(log.events):
        if isinstance(event, Reveal) and event.whole_hand:
            shown.add(event.player)
        elif (isinstance(event, Accusation) and not event.correct and event.by in whose
              and event.by not in shown):
            return event.by
    return whose[0]


def reveals_of(log: GameLog, player: str) -> tuple[tuple[int, Reveal], ...]:
    """The reveals of ``player``'s cards in ``log``, each with its number.

    >>> from solver.editions import Dealing, editions, new_game
    >>> game = new_game(editions()["clue-classic"].deck, ("Ann", "Bob"), Dealing.CLASSIC)
    >>> log = GameLog(game, (Reveal("Bob", ("Rope",)), Reveal("Ann", ("Hall",))))
    >>> reveals_of(log, "Bob")
    ((1, Reveal(player='Bob', cards=('Rope',), whole_hand=False)),)
    """
    return tuple((n, e) for n, e in enumerate(log.events, 1)
                 if isinstance(e, Reveal) and e.player == player)


def fully_revealed(log: GameLog, player: str) -> str | None:
    """That ``log`` has ``player``'s whole hand revealed already, and where (the latest such
    reveal), for the Reveal form; ``None`` while it has not.

    >>> from solver.editions import Dealing, editions, new_game
    >>> game = new_game(editions()["clue-classic"].deck, ("Ann", "Bob"), Dealing.CLASSIC)
    >>> fully_revealed(GameLog(game, (Reveal("Bob", ("Rope", "Hall"), whole_hand=True),)), "Bob")
    "Bob's whole hand was revealed in #1: Rope, Hall. Nothing more to reveal; to change it, \
edit #1."
    """
    found = next(((n, e) for n, e in reversed(reveals_of(log, player)) if e.whole_hand), None)
    if found is None:
        return None
    n, reveal = found
    return _("{player}'s whole hand was revealed in #{n}: {cards}. Nothing more to reveal; to "
             "change it, edit #{n}.").format(player=player, n=n, cards=list_said(reveal.cards))


def starting_room(log: GameLog, player: str) -> str | None:
    """The room the Turn form starts ``player``'s suggestion at: where their pawn stands when
    the rules let them suggest there, moved there by another's suggestion since their own latest
    (`solver.advice.moved_to`, where they may stay and ask); never the room of their latest
    suggestion, which the rules bar them from on this turn (`solver.advice.barred_room`: both
    board editions allow one suggestion per visit), where nothing is chosen. Mine and every
    other player's alike: until 2026-12-04 another player's chip started at their last room, so
    the user had to tap the room they named every time, and one who forgot recorded a
    suggestion the rules forbid (for mine a line under the chips says why; "Suggest for me"
    advises another room). ``None`` in the forum variant (no board: any place is asked about).
    So a room is chosen only where a pawn was moved: a room stood in by choice is always the
    last suggestion's, which the rules bar (a turn spent leaving and coming back is not logged).

    >>> from solver.editions import Dealing, editions, new_game
    >>> game = new_game(editions()["clue-classic"].deck, ("Ann", "Bob", "Mr. Green"),
    ...                 Dealing.CLASSIC, me="Ann")
    >>> log = GameLog(game, (Suggestion("Ann", ("Mr. Green", "Rope", "Hall"), refuted_by="Bob"),
    ...                      Suggestion("Bob", ("Miss Scarlet", "Rope", "Study"),
    ...                                 refuted_by="Mr. Green")))
    >>> starting_room(log, "Ann"), starting_room(log, "Bob"), starting_room(log, "Mr. Green")
    (None, None, 'Hall')
    """
    from solver.advice import moved_to

    return None if forum_style(log) else moved_to(log, player)


def passes(game: Game, by: str, refuted_by: str | None) -> tuple[str, ...]:
    """The players asked before the refuter (everyone asked when nobody refuted)."""
    order = answer_order(game, by)
    return order if refuted_by is None else order[: order.index(refuted_by)]


def passed_holding(game: Game, passed: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...]:
    """My cards among ``cards`` when I am one of the players who ``passed``: a pass I could
    not have made (whoever holds one of the three must show it), so the entry is wrong.

    >>> from solver.editions import Dealing, editions, new_game
    >>> game = new_game(editions()["clue-classic"].deck, ("Ann", "Bob", "Cat"), Dealing.CLASSIC,
    ...                 me="Ann", my_cards=("Rope",))
    >>> cards = ("Miss Scarlet", "Rope", "Hall")
    >>> passed_holding(game, passes(game, "Bob", None), cards)
    ('Rope',)
    >>> passed_holding(game, passes(game, "Bob", "Cat"), cards)  # Cat showed first: not asked
    ()
    """
    if game.me is None or game.me not in passed:
        return ()
    return tuple(c for c in cards if c in game.my_cards)


def sees_card(game: Game, by: str, refuted_by: str | None) -> bool:
    """Whether the user sees the card shown: they suggested, or they refuted."""
    return game.me is not None and refuted_by is not None and game.me in (by, refuted_by)


def suggestion(
    game: Game,
    by: str,
    cards: tuple[str, str, str],
    *,
    refuted_by: str | None,
    shown: str | None = None,
    peek_slot: int | None = None,
    peek_card: str | None = None,
) -> Suggestion:
    """A table suggestion: everyone between the suggester and the refuter passed."""
    peek = SidePeek(peek_slot, peek_card) if peek_slot is not None and refuted_by is None else None
    return Suggestion(
        by,
        cards,
        passes=passes(game, by, refuted_by),
        refuted_by=refuted_by,
        shown=shown if refuted_by is not None else None,
        side_peek=peek,
    )


def directed(
    by: str,
    cards: tuple[str, str, str],
    *,
    asked: str,
    refuted: bool,
    shown: str | None = None,
    first_in_order: bool = False,
) -> Suggestion:
    """A forum suggestion addressed to one player, who refutes or declares no refutation."""
    if not refuted:
        return Suggestion(by, cards, passes=(asked,))
    rule = FIRST_IN_ORDER if first_in_order else None
    return Suggestion(by, cards, refuted_by=asked, shown=shown, shown_by_rule=rule)


def is_directed(game: Game, event: Suggestion) -> bool:
    """Whether a suggestion was addressed to one player (forum style) rather than answered round
    the table: its passes are not the seats before the refuter, or the host answered by rule."""
    table = passes(game, event.by, event.refuted_by)
    return event.passes != table or event.shown_by_rule is not None


def put_to_one(game: Game, event: Suggestion) -> bool:
    """Whether ``event`` is a question to one player: addressed so (`is_directed`), or, in the
    forum variant (`solver.editions.forum_dealt`: a suggestion is put to one player, never
    round the table), answered by one player alone, who showed a card or had none (there the
    player to the suggester's left showing a card reads as the table's round too).

    >>> from solver.editions import Dealing, forum_deck, new_game
    >>> asked_bob = Suggestion("A", ("Suspect 1", "Weapon 1", "Place 1"), refuted_by="B")
    >>> game = new_game(forum_deck(3), ("A", "B", "C"), Dealing.FORUM)
    >>> is_directed(game, asked_bob), put_to_one(game, asked_bob)
    (False, True)
    >>> put_to_one(game, replace(asked_bob, passes=("B",), refuted_by="C"))  # round the table
    False
    """
    if is_directed(game, event):
        return True
    answers = len(event.passes) + (event.refuted_by is not None)
    return event.side_peek is None and answers == 1 and forum_dealt(game)


def forum_style(log: GameLog) -> bool:
    """Whether the game asks one player at a time (the forum variant): it was set up so
    (`solver.editions.forum_dealt`), or an addressed suggestion is already recorded.

    >>> from solver.editions import Dealing, editions, forum_deck, new_game
    >>> forum_style(GameLog(new_game(forum_deck(4), ("A", "B", "C", "D"), Dealing.FORUM)))
    True
    >>> classic = editions()["clue-classic"].deck  # six players hold 3 cards each here too
    >>> forum_style(GameLog(new_game(classic, tuple("ABCDEF"), Dealing.CLASSIC)))
    False
    """
    game = log.game
    return forum_dealt(game) or any(isinstance(e, Suggestion) and is_directed(game, e)
                                    for e in log.events)


def shown_candidates(
    game: Game, grid: Grid, by: str, refuted_by: str, cards: tuple[str, ...],
    first_in_order: bool = False,
) -> tuple[str, ...]:
    """The cards of a suggestion that ``refuted_by`` can have shown, as the user sees it: when
    the user refuted, their own cards among ``cards``; else those of ``cards`` the user does not
    hold and the notebook does not know ``refuted_by`` to lack, and ``first_in_order`` (the
    forum's host showed the first they hold, in the order of ``cards``) none after a card the
    notebook knows they hold. Empty when none can be (the entries clash); the grid is the one
    before this suggestion is recorded.
    """
    mine = set(game.my_cards)
    if refuted_by == game.me:
        return tuple(c for c in cards if c in mine)
    held = next((i for i, c in enumerate(cards) if grid[c, refuted_by] is Knowledge.YES),
                len(cards)) if first_in_order else len(cards)
    return tuple(
        c for c in cards[:held + 1]
        if c not in mine and c not in game.face_up and grid[c, refuted_by] is not Knowledge.NO
    )


def possible_for(grid: Grid, owner: str) -> tuple[str, ...]:
    """The cards ``owner`` (a player or the side pile) may hold, in deck order."""
    return tuple(c for c in grid.game.deck if grid[c, owner] is not Knowledge.NO)


def side_candidates(grid: Grid, log: GameLog, slot: int) -> tuple[str, ...]:
    """The cards side card ``slot`` can be when I look at it: one the side pile may hold and I
    have not seen in another slot; the card I saw there before, if I did (``log``: the entries
    other than the one being entered).

    >>> from solver.editions import Dealing, editions, new_game
    >>> from solver.notebook import Notebook
    >>> deck = editions()["cluedo-refresh-2012-fi"].deck
    >>> game = new_game(deck, ("Aino", "Niko"), Dealing.TWO_PLAYER, me="Aino")
    >>> log = GameLog(game, (Suggestion("Aino", ("Aino Valkopesu", "köysi", "autotalli"),
    ...                                 ("Niko",), side_peek=SidePeek(3, "Aino Valkopesu")),))
    >>> with Notebook(game, log.events) as notebook:
    ...     grid = notebook.grid()
    >>> "Aino Valkopesu" in side_candidates(grid, log, 4), side_candidates(grid, log, 3)
    (False, ('Aino Valkopesu',))
    """
    if not grid.game.side_cards:
        return ()
    seen = {peek.slot: peek.card for peek in log.side_peeks(log.game.me or "") if peek.card}
    if slot in seen:
        return (seen[slot],)
    return tuple(c for c in possible_for(grid, SIDE) if c not in seen.values())


def locate(events: tuple[Event, ...], index: int, event: Event) -> int | None:
    """Where ``event`` (once at ``index``) is now that the log changed elsewhere: the same place
    if it is still there, else its first copy; ``None`` when it was edited or deleted.

    >>> one, two = Reveal("Bob", ("Rope",)), Reveal("Cat", ("Hall",))
    >>> locate((one, two), 1, two), locate((two,), 1, two), locate((one,), 1, two)
    (1, 0, None)
    """
    if index < len(events) and events[index] == event:
        return index
    return events.index(event) if event in events else None


ANSWER_FIELDS = ("passes", "refuted_by", "shown", "shown_by_rule", "side_peek")
"""A suggestion's answer: it follows who asked and who answered, so it changes as one."""


def edited(original: Event, loaded: Event | None, submitted: Event) -> Event:
    """The event after an edit: ``original`` with only what the user changed in its form.

    ``loaded`` is what the form made of ``original`` before any change; a field where
    ``submitted`` equals it was left alone and keeps its recorded value (passes that differ from
    the seating, a card the form could not show). Changing who suggested or who answered takes
    the whole answer from the form. Unknown fields (``extra``) are always kept.

    >>> recorded = Suggestion("Ann", ("Plum", "Rope", "Hall"), passes=("Bob",), refuted_by="Dan")
    >>> loaded = replace(recorded, passes=("Bob", "Cat"))  # the passes the seating gives
    >>> edited(recorded, loaded, replace(loaded, cards=("Plum", "Rope", "Study"))).passes
    ('Bob',)
    """
    names = {*field_names(submitted), "type"}
    extra = {k: v for k, v in original.extra.items() if k not in names}
    if loaded is None or not type(original) is type(loaded) is type(submitted):
        return replace(submitted, extra=extra)
    changed = {
        name: getattr(submitted, name)
        for name in field_names(submitted)
        if name != "extra" and getattr(submitted, name) != getattr(loaded, name)
    }
    if isinstance(submitted, Suggestion) and {"by", "refuted_by"} & changed.keys():
        changed |= {name: getattr(submitted, name) for name in ANSWER_FIELDS}
    return replace(original, **changed)


def unshown(original: Event, loaded: Event | None) -> tuple[str, ...]:
    """What the entry form cannot show of ``original`` (kept unless the user changes it), as
    ``field: value`` lines; unknown fields included.

    >>> recorded = Suggestion("Ann", ("Plum", "Rope", "Hall"), passes=("Bob",), refuted_by="Dan")
    >>> unshown(recorded, replace(recorded, passes=("Bob", "Cat")))
    ('passes: Bob',)
    """
    extra = tuple(f"{key}: {value}" for key, value in original.extra.items())
    if loaded is None or type(loaded) is not type(original):
        return (_("the whole entry"), *extra)
    lines = []
    for name in field_names(original):
        value = getattr(original, name)
        if name == "extra" or value == getattr(loaded, name):
            continue
        if isinstance(original, Reveal) and name == "cards" and set(value) == set(
                getattr(loaded, name)):  # the form lists a hand in the deck's order
            continue
        text = list_said(value) if isinstance(value, tuple) else str(value or "")
        lines.append(f"{name.replace('_', ' ')}: {text or _('none')}")
    return (*lines, *extra)


def seen_from_me(log: GameLog, player: str) -> tuple[str, ...]:
    """The user's cards that ``player`` has already been shown by the user, the latest shown
    last (`GameLog.shown_to`, which the ``show`` command's advice reads too)."""
    return log.shown_to(player)


def seen_line(log: GameLog, player: str) -> str:
    """What ``player`` has seen from the user, in one line: the cards noted, then each card
    shown without noting which (`GameLog.unnoted_to`: one of the user's cards of that entry).
    "Nothing yet" only where the user never showed them a card.

    >>> from solver.editions import editions
    >>> from solver.game import Player
    >>> game = Game(editions()["clue-classic"].deck, (Player("Ann", 9), Player("Bob", 9)),
    ...             me="Ann", my_cards=("Miss Scarlet", "Knife", "Hall"))
    >>> asked = Suggestion("Bob", ("Miss Scarlet", "Knife", "Lounge"), refuted_by="Ann")
    >>> seen_line(GameLog(game, (asked,)), "Bob")
    'Bob has seen from you: one of Miss Scarlet, Knife (#1, not noted)'
    >>> seen_line(GameLog(game, (asked, replace(asked, shown="Knife"))), "Bob")
    'Bob has seen from you: Knife; one of Miss Scarlet, Knife (#1, not noted)'
    >>> seen_line(GameLog(game), "Bob")
    'Bob has seen from you: nothing yet'
    """
    seen = seen_from_me(log, player)
    parts = [list_said(seen)] if seen else []
    parts += [_("one of {cards} (#{n}, not noted)").format(cards=list_said(cards), n=n)
              for n, cards in log.unnoted_to(player)]
    return _("{player} has seen from you: {cards}").format(  # each part a list of its own
        player=player, cards=Listing(tuple(parts), ".").render() if parts else _("nothing yet"))


@dataclass(frozen=True)
class ShowChoice:
    """What the user may show for a suggestion, and which of it the suggester already saw."""

    suggester: str
    """Who asked."""
    matching: tuple[str, ...]
    """The user's cards among the suggested ones."""
    already_seen: tuple[str, ...]
    """Those the suggester has already been shown, the latest shown last: showing one again
    leaks nothing new."""
    unnoted: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """Entries where the user showed the suggester one of several of these cards without
    noting which (`GameLog.unnoted_to`): the entry's number and the user's cards there."""

    @property
    def advice(self) -> str:
        """One line to read before showing a card."""
        if not self.matching:
            return _("You hold none of these cards.")
        if len(self.matching) == 1:
            return _("You must show {card}.").format(card=self.matching[0])
        if len(self.already_seen) == 1:
            return _("{player} has already seen {card} from you: show it again.").format(
                player=self.suggester, card=self.already_seen[0])
        if self.already_seen:
            return _("{player} has already seen {cards} from you: show {card} again.").format(
                player=self.suggester, cards=list_said(self.already_seen),
                card=self.already_seen[-1])
        if self.unnoted:  # "none of these" may be untrue: the card shown there was not noted
            n, cards = self.unnoted[-1]
            return _("In #{n} you showed {player} one of {cards}, not noted which.").format(
                n=n, player=self.suggester, cards=list_said(cards))
        return _("{player} has seen none of these from you yet.").format(player=self.suggester)


def show_choice(log: GameLog, suggester: str, cards: tuple[str, ...]) -> ShowChoice:
    """The user's matching cards for a suggestion by ``suggester``, and which they saw before
    (with several, the advice names the latest shown, as ``clue-notebook show`` does)."""
    mine = set(log.game.my_cards)
    matching = tuple(c for c in cards if c in mine)
    seen = seen_from_me(log, suggester)
    return ShowChoice(suggester, matching, tuple(c for c in seen if c in matching),
                      log.unnoted_to(suggester, among=matching))


def next_side_slot(log: GameLog, by: str) -> int | None:
    """The first side card ``by`` has not looked at yet (a different one each time), if any."""
    return next(iter(log.unpeeked_slots(by)), None)


def describe_note(note: Note) -> str:
    """A note as a sentence (one whole sentence per owner and relation, so every language can
    word each its own way).

    >>> describe_note(Note("envelope", lacks=("Rope",), text="dropped"))
    'Note: the envelope does not hold Rope (“dropped”)'
    >>> describe_note(Note("Bob", holds_one_of=("Plum", "Green")))
    'Note: Bob holds one of Plum, Green'
    """
    sentences = {
        ENVELOPE: {"holds": _("Note: the envelope holds {cards}"),
                   "lacks": _("Note: the envelope does not hold {cards}"),
                   "holds_one_of": _("Note: the envelope holds one of {cards}")},
        SIDE: {"holds": _("Note: the side pile holds {cards}"),
               "lacks": _("Note: the side pile does not hold {cards}"),
               "holds_one_of": _("Note: the side pile holds one of {cards}")},
    }.get(note.owner) or {"holds": _("Note: {player} holds {cards}"),
                          "lacks": _("Note: {player} does not hold {cards}"),
                          "holds_one_of": _("Note: {player} holds one of {cards}")}
    text = sentences[note.relation].format(player=note.owner, cards=list_said(note.listed))
    if note.text:
        text = _("{note} (“{remark}”)").format(note=text, remark=note.text)
    return text


def described(log: GameLog, index: int, without: Collection[int] = ()) -> str:
    """`describe` of ``log``'s entry ``index`` (from 0) as the Log lists it: the note that
    records the envelope opened once the game was over (`solver.ending.opened`) says so.

    >>> from solver.editions import Dealing, editions, new_game
    >>> from solver.game import Accusation
    >>> game = new_game(editions()["cluedo-refresh-2012-fi"].deck, ("Ann", "Bob", "Cat"),
    ...                 Dealing.REFRESH)
    >>> wrong = ("Regina Päiväperhonen", "köysi", "veranta")
    >>> log = GameLog(game, (*(Accusation(p, wrong) for p in ("Ann", "Bob", "Cat")),
    ...                      Note("envelope", holds=("Aino Valkopesu", "putki", "keittiö"))))
    >>> described(log, 3)
    'Envelope opened: Aino Valkopesu, putki, keittiö'
    >>> described(log.upto(2).append(log.events[3]), 2)
    'Note: the envelope holds Aino Valkopesu, putki, keittiö'
    """
    from solver.ending import opened

    event = log.events[index]
    if isinstance(event, Note) and opened(log, without) == index + 1:
        return _("Envelope opened: {cards}").format(cards=list_said(event.holds))
    return describe(event)


def describe(event: Event) -> str:
    """One short line for the log list and the conflict banner; everyone who passed is named
    (one player asked who had none: "Eve had none of them"), and a card the forum's host
    showed by the fixed order says so."""
    if isinstance(event, Note):
        return describe_note(event)
    if isinstance(event, Reveal):
        text = (_("{player} revealed {cards} (whole hand)") if event.whole_hand
                else _("{player} revealed {cards}"))
        return text.format(player=event.player, cards=list_said(event.cards))
    triple = list_said(event.cards)
    if isinstance(event, Accusation):
        text = (_("{player} accused {cards}: right") if event.correct
                else _("{player} accused {cards}: wrong"))
        return text.format(player=event.by, cards=triple)
    if event.refuted_by is None:
        peek = event.side_peek
        if peek is None and len(event.passes) == 1:  # a question to one player (the forum's)
            return f"{event.by}: {triple} → " + _("{player} had none of them").format(
                player=event.passes[0])
        if peek is None:
            answer = _("nobody showed")
        elif peek.card:
            answer = _("nobody showed; looked at side card {slot} ({card})").format(
                slot=peek.slot, card=peek.card)
        else:
            answer = _("nobody showed; looked at side card {slot}").format(slot=peek.slot)
    elif event.shown:
        answer = (_("{player} showed {card} (host, first in order)") if event.shown_by_rule
                  else _("{player} showed {card}")).format(player=event.refuted_by,
                                                           card=event.shown)
    elif event.shown_by_rule:
        answer = _("{player} showed a card (host, first in order)").format(
            player=event.refuted_by)
    else:
        answer = _("{player} showed a card").format(player=event.refuted_by)
    if event.passes:
        answer = ngettext("{answer}; {players} passed", "{answer}; {players} passed",
                          len(event.passes)).format(answer=answer, players=list_said(event.passes))
    return f"{event.by}: {triple} → {answer}"
