"""The ``clue-notebook`` command line.

Exit status: 0 ok, 2 bad input (invalid log, unknown edition, bad option; the message on stderr
names the field and the value, one problem per line), 3 a contradictory log. Never a traceback
for bad input: every `ClueError` becomes a message and a status in `main`.

``analyze --json`` of a contradictory log keeps every key of the contract: ``"consistent":
false``, ``"cells": null``, ``"envelope": null``, ``"accusation_safe": false``, plus
``"conflict"``, the minimal clashing events (1-based). ``LOG`` may be ``-`` for standard input.
With ``--explain`` it also carries ``"explanations"`` (card -> owner -> the ``explain --json``
object, for every yes/no cell), or for a contradictory log ``"conflict_steps"`` (see
``docs/explanations.md``); they are computed only when asked. Every command that reads a log
reads JSON or the text notation (``docs/notation.md``), told apart by content.

Adding a subcommand is a local edit:

1. write ``_NAME_arguments(parser)`` declaring its arguments (`_log_arguments` gives the
   usual ``LOG`` and ``--upto``; `_read_log` reads them);
2. write ``run_NAME(args) -> int`` that prints its output and returns the exit status; raise
   `InvalidLogError` (naming the option and the value) for bad input;
3. append ``Command("NAME", "one-line help", _NAME_arguments, run_NAME)`` to `COMMANDS`.

Each ``run_NAME`` imports the modules it uses when it runs, so a command pays only for its own
start-up (``analyze`` never loads numpy or the odds code); keep module-level imports to the
standard library and `solver.errors`. Output formats live in `solver.report`; ``analyze
--json`` is built by `solver.report.analysis_json`, a plain dict a feature may extend with its
own keys.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import ClueError, ContradictionError, InvalidLogError
from .i18n import N_, Listing, _, list_said, ngettext
from .limits import MAX_FILE_BYTES, MAX_SAMPLES, shorten
from .values import Value

if TYPE_CHECKING:
    from fractions import Fraction

    from .advice import Here
    from .cards import Category, Deck
    from .editions import Dealing
    from .game import GameLog
    from .notebook import Analysis, Grid
    from .odds import Odds

OK = 0
INVALID = 2
CONTRADICTION = 3
PROG = "clue-notebook"


class Command(Value):
    """A subcommand: its name, its help line, its arguments and what it does."""

    __slots__ = ("arguments", "help", "name", "run")
    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]

    def __init__(self, name: str, help: str, arguments: Callable[[argparse.ArgumentParser], None],
                 run: Callable[[argparse.Namespace], int]) -> None:
        self._set(name, help, arguments, run)


# --- shared helpers --------------------------------------------------------------------------


def _log_arguments(parser: argparse.ArgumentParser) -> None:
    """``LOG`` and ``--upto N``, shared by every command that reads a game log."""
    parser.add_argument("log", metavar="LOG",
                        help=_("game log: clue-notebook/1 JSON or the text notation; - for stdin"))
    parser.add_argument(
        "--upto", type=_count("--upto"), metavar="N",
        help=_("use only the first N events (the notebook as it stood then)"),
    )


def _read_log(args: argparse.Namespace) -> tuple[GameLog, int]:
    """The log named by ``args.log``, cut to ``args.upto`` events; and its full event count.
    What the events read still lack is said on stderr (`solver.logfile.cautions`): not what
    lacks in events past ``--upto``, which the command does not read."""
    from .logfile import cautions

    whole = _read_any(args.log)
    total = len(whole.events)
    upto: int | None = getattr(args, "upto", None)
    if upto is not None and upto > total:
        raise InvalidLogError([ngettext("--upto: {upto} is more than the {count} event in the log",
                                        "--upto: {upto} is more than the {count} events in the log",
                                        total).format(upto=shorten(upto), count=total)])
    log = whole if upto is None else whole.upto(upto)
    for caution in cautions(log):
        print(_("warning: {warning}").format(warning=caution), file=sys.stderr)
    return log, total


def _read_any(path: str, option: str = "LOG") -> GameLog:
    """A log file (``-``: standard input) in JSON or in notation, told apart by content."""
    from .logfile import read_log_any

    return read_log_any(_read_text(path, option))


def _read_text(path: str, option: str) -> str:
    """The text of a log file, or of standard input for ``-``: UTF-8, `MAX_FILE_BYTES` at most."""
    from .logfile import decode

    if path == "-":
        return decode(sys.stdin.buffer.read(MAX_FILE_BYTES + 1),
                      _("{option}: standard input").format(option=option))
    try:
        with open(path, "rb") as file:  # not Path: Path("") is ".", "cannot read '': Is a
            data = file.read(MAX_FILE_BYTES + 1)  # directory"
    except OSError as err:
        raise InvalidLogError([_("{option}: cannot read {path}: {reason}").format(
            option=option, path=repr(path), reason=err.strerror)]) from None
    return decode(data, f"{option}: {path!r}")


def _bluff(text: str) -> Fraction:
    """An argparse type: a bluff factor above 0 and at most 1 (``0.25`` or ``1/4``)."""
    from fractions import Fraction  # here: every command would pay for importing it

    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        value = Fraction(-1)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(_("--bluff: expected a factor above 0 and at most 1 "
                                           "(such as 0.25 or 1/4), got {value}")
                                         .format(value=shorten(text)))
    return value


BLUFF_HELP = N_("how much a deal weighs for each card a player named while holding it or after "
                "it was shown to them: 1 weighs every deal alike, near 0 nobody ever bluffs "
                "(default 1/4)")


def _count(option: str, *, least: int = 0) -> Callable[[str], int]:
    """An argparse type: a whole number ≥ ``least`` (0 or 1), with an error naming
    ``option``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = -1
        if value < least:
            said = (_("{option}: expected a whole number ≥ 1, got {value}") if least
                    else _("{option}: expected a whole number ≥ 0, got {value}"))
            raise argparse.ArgumentTypeError(said.format(option=option, value=shorten(text)))
        return value

    return parse


def _names(text: str | None, option: str) -> tuple[str, ...]:
    """A comma-separated list of names (surrounding spaces dropped); empty for ``None``."""
    if text is None:
        return ()
    names = tuple(part.strip() for part in text.split(","))
    if not all(names):
        raise InvalidLogError([_("{option}: empty name in {value} (names are separated by "
                                 "commas)").format(option=option, value=shorten(text))])
    return names


def _terminal_columns(default: int = 100) -> int:
    """The terminal's width as `shutil.get_terminal_size` finds it ($COLUMNS, then the
    terminal), without importing shutil (a start-up cost every command would pay)."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or default


def _print_json(data: object) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


# --- analyze ---------------------------------------------------------------------------------


def _analyze_arguments(parser: argparse.ArgumentParser) -> None:
    _log_arguments(parser)
    parser.add_argument("--json", action="store_true", help=_("print the contract's JSON object"))
    parser.add_argument("--explain", action="store_true",
                        help=_("with --json: add why each certain cell is so (\"explanations\"), "
                               "or why no deal fits (\"conflict_steps\")"))
    parser.add_argument(
        "--width", type=_count("--width"), metavar="COLUMNS",
        help=_("fit the table in this many columns (default: the terminal's width)"),
    )
    _odds_arguments(parser)


def run_analyze(args: argparse.Namespace) -> int:
    """Print the notebook (table or JSON); exit 3 with the clashing events if contradictory."""
    from . import report
    from .notebook import analyze

    log, total = _read_log(args)
    analysis = analyze(log)
    if args.json:
        data = report.analysis_json(analysis)
        if args.explain:
            from .explain import Explainer

            with Explainer.of(log) as explainer:
                if analysis.consistent:
                    data["explanations"] = explainer.all_json()
                elif (conflict := explainer.conflict()) is not None:
                    data["conflict_steps"] = conflict.to_json()["steps"]
        if args.odds:
            from . import odds_report

            data.update(odds_report.odds_json(_odds(log, args, analysis.grid)
                                              if analysis.consistent else None))
        _print_json(data)
    elif analysis.grid is None:
        print(report.heading(analysis, total))
        print(report.conflict_message(analysis), file=sys.stderr)
    else:
        found = _odds(log, args, analysis.grid) if args.odds else None
        print(_notebook_text(analysis, analysis.grid, total, args.width, found))
        if found is not None:
            from . import odds_report

            print("\n".join(["", *odds_report.odds_lines(found)]))
    return OK if analysis.consistent else CONTRADICTION


def _notebook_text(analysis: Analysis, grid: Grid, total: int, width: int | None,
                   found: Odds | None = None) -> str:
    """The heading, the grid and the envelope. ``found``: the log's odds, which list every
    possible envelope (exact or sampled, `solver.odds`), so they are not enumerated again (as
    long as the odds on a 45-card log)."""
    from . import report

    columns = width or _terminal_columns()
    triples = None
    if not grid.accusation_safe and found is not None:
        triples = [(s, w, r) for s, w, r, _ in found.envelope_odds]
    elif not grid.accusation_safe:
        from .envelopes import possible_triples

        triples = possible_triples(analysis.log, report.TRIPLE_LIMIT)
    lines = [
        report.heading(analysis, total),
        "",
        report.notebook_table(grid, columns),
        "",
        *report.envelope_lines(grid, triples),
    ]
    return "\n".join(lines)


def _named(log: GameLog, typed: str, field: str, category: Category | None = None) -> str:
    """The card ``typed`` names as the notation reads a card (`notation.Names`: any case, no
    accents, a word of the name or the start of one: ``плам``, ``веревка``, ``Col Must``)
    where that is one card (of ``category`` where given and one fits); `InvalidLogError`
    naming ``field`` and the cards where it fits several ("'mrs.' fits several cards: Mrs.
    Peacock, Mrs. White": it was "unknown card 'mrs.'"); else ``typed``, for the command's own
    check to refuse in words. Before, a Russian log's "Верёвка" had to be typed whole, with its
    "ё": "Веревка" and "Плам" were unknown cards."""
    from .advice import not_a
    from .notation import Names

    deck = log.game.deck
    if typed in deck:
        return typed
    found = Names(deck.cards).match(typed.split())
    fitting = {card for card in found if category is None or deck.category_of(card) is category}
    if len(fitting) > 1:
        raise InvalidLogError([_("{field}: {card} fits several cards: {cards}").format(
            field=field, card=shorten(typed), cards=list_said(sorted(fitting)))])
    if len(fitting) == 1:
        return fitting.pop()
    if len(found) == 1:  # one card of another category: "not a suspect"
        return found.pop()
    if found and category is not None:  # several, none of them of ``category``
        raise not_a(log, typed, category, field)
    return typed


def _owner_named(log: GameLog, typed: str) -> str:
    """The owner ``typed`` names: a player as the notation reads one (``аня``), or the envelope
    or the side cards by the word the output heads their column with in its language
    ("конверт"), besides ``envelope`` and ``side`` as the log writes them; else ``typed``, for
    the command's own check to refuse in words. In Russian, explain's own table said "конверт"
    and refused it as an owner."""
    from .game import ENVELOPE, SIDE
    from .notation import Names, fold

    owners = log.game.owners
    if typed in owners:
        return typed
    words = {fold(_("envelope")): ENVELOPE, fold(_("side")): SIDE}
    if words.get(fold(typed)) in owners:
        return words[fold(typed)]
    found = Names(log.game.player_names).match(typed.split())
    return found.pop() if len(found) == 1 else typed


# --- explain ---------------------------------------------------------------------------------


def _explain_arguments(parser: argparse.ArgumentParser) -> None:
    _log_arguments(parser)
    parser.add_argument("card", metavar="CARD", help=_("a card of the game, as the log names it"))
    parser.add_argument("owner", metavar="OWNER",
                        help=_("a player, 'envelope', or 'side' (the 2-player side cards)"))
    parser.add_argument("--json", action="store_true",
                        help=_('print {"card", "owner", "value", "events", "steps"}'))


def run_explain(args: argparse.Namespace) -> int:
    """Print why OWNER holds CARD or not; for a contradictory log, why no deal fits (exit 3)."""
    from .explain import Explainer

    log = _read_log(args)[0]
    with Explainer.of(log) as explainer:
        try:
            explanation = explainer.cell(_named(log, args.card, "CARD"),
                                         _owner_named(log, args.owner))
        except ContradictionError:
            conflict = explainer.conflict()
            assert conflict is not None
            if args.json:
                _print_json({"consistent": False, "conflict": list(conflict.events),
                             "steps": conflict.to_json()["steps"]})
            else:
                print(conflict.text())
            return CONTRADICTION
    if args.json:
        _print_json(explanation.to_json())
    else:
        print(explanation.text())
    return OK


# --- editions --------------------------------------------------------------------------------


def _editions_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help=_("print the presets as JSON"))


def run_editions(args: argparse.Namespace) -> int:
    """List the edition presets."""
    from . import report

    if args.json:
        _print_json(report.editions_json())
    else:
        print(report.edition_table())
    return OK


# --- new -------------------------------------------------------------------------------------


def _new_arguments(parser: argparse.ArgumentParser) -> None:
    cards = parser.add_argument_group(_("cards (choose one: --edition, --forum, or your own "
                                        "lists)"))
    cards.add_argument("--edition", metavar="NAME",
                       help=_("a preset (see `clue-notebook editions`), or 'forum' for the forum "
                            "variant's numbered deck for this many players"))
    cards.add_argument("--forum", type=_count("--forum"), metavar="N",
                       help=_("forum variant deck: N suspects, N weapons, N + 3 places "
                            "(numbered, or named by --suspects/--weapons/--rooms)"))
    cards.add_argument("--suspects", metavar="A,B,...", help=_("custom suspect cards"))
    cards.add_argument("--weapons", metavar="A,B,...", help=_("custom weapon cards"))
    cards.add_argument("--rooms", metavar="A,B,...", help=_("custom room (place) cards"))
    parser.add_argument("--players", required=True, metavar="A,B,...",
                        help=_("players in seating order, clockwise"))
    parser.add_argument("--me", metavar="NAME", help=_("whose notebook (omit for a spectator)"))
    parser.add_argument("--my-cards", metavar="A,B,...", help=_("your cards"))
    parser.add_argument("--face-up", metavar="A,B,...", help=_("cards lying face up"))
    from .editions import Dealing

    parser.add_argument("--dealing", choices=[d.value for d in Dealing],
                        help=_("dealing rule (default: the edition's; classic for custom cards)"))
    parser.add_argument("--hand-sizes", metavar="N,N,...",
                        help=_("cards per player in seating order, instead of the dealing rule's"))
    parser.add_argument("--title", help=_("a name for the game"))
    parser.add_argument("-o", "--output", metavar="FILE", help=_("write here instead of stdout"))
    parser.add_argument("--to", choices=["json", "text"],
                        help=_("the format (default: from FILE's suffix, .json or .clue, else "
                               "json)"))
    parser.add_argument("--force", action="store_true", help=_("overwrite FILE if it exists"))


def _output_format(to: str | None, output: str | None) -> str | None:
    """``--to``, or the format an output file's suffix names (.json, .clue, .txt), or None."""
    if to is None and output is not None:
        return _SUFFIXES.get(Path(output).suffix.lower())
    return to


def run_new(args: argparse.Namespace) -> int:
    """Write a starting log for a new game, validated like any log."""
    from .editions import Dealing, deal, new_game
    from .game import GameLog
    from .logfile import check, dumps

    players = _names(args.players, "--players")
    deck, rule, edition_name = _new_deck(args, players)
    if args.dealing is not None:
        rule = Dealing(args.dealing)
    face_up = _names(args.face_up, "--face-up")
    sizes = None if args.hand_sizes is None else _hand_sizes(args.hand_sizes, len(players))
    game = new_game(
        deck, players, rule, me=args.me, my_cards=_names(args.my_cards, "--my-cards"),
        face_up=face_up, title=args.title, edition_name=edition_name, hand_sizes=sizes,
    )
    if sizes is None:
        leftover = deal(rule, len(deck), len(players)).face_up
        if len(face_up) != leftover:
            raise InvalidLogError([ngettext(
                "--face-up: the {rule} rule leaves {count} card face up for {players} players, "
                "got {got} ({cards})",
                "--face-up: the {rule} rule leaves {count} cards face up for {players} players, "
                "got {got} ({cards})", leftover,
            ).format(rule=rule.value, count=leftover, players=len(players), got=len(face_up),
                     cards=args.face_up or _("none"))])
    log = GameLog(game)
    check(log)
    if _output_format(args.to, args.output) == "text":
        from .notation import write_text

        text = write_text(log)
    else:
        text = dumps(log)
    if _write_output(text, args.output, args.force):
        hands = list_said(f"{p.name} {p.hand_size}" for p in game.players)
        print(_("wrote {file}: {count} cards; hands {hands}").format(
            file=args.output, count=len(deck), hands=hands), file=sys.stderr)
    return OK


def _write_output(text: str, output: str | None, force: bool) -> bool:
    """Write ``text`` to the file ``output`` (True), or to stdout when it is ``None`` (False);
    an existing file only with ``force``."""
    if output is None:
        sys.stdout.write(text)
        return False
    if os.path.exists(output) and not force:  # not Path: Path("") is ".", which exists
        raise InvalidLogError([_("--output: {file} already exists (add --force to overwrite "
                                 "it)").format(file=repr(output))])
    try:
        with open(output, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as err:
        raise InvalidLogError([_("--output: cannot write {file}: {reason}").format(
            file=repr(output), reason=err.strerror)]) from None
    return True


# --- convert ---------------------------------------------------------------------------------

_SUFFIXES = {".json": "json", ".clue": "text", ".txt": "text"}


def _convert_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="IN", help=_("game log, JSON or notation; - for stdin"))
    parser.add_argument("-o", "--output", metavar="OUT", help=_("write here instead of stdout"))
    parser.add_argument("--to", choices=["json", "text"],
                        help=_("the format to write (default: from OUT's suffix, .json or "
                             ".clue, else the other format than IN's)"))
    parser.add_argument("--force", action="store_true", help=_("overwrite OUT if it exists"))


def run_convert(args: argparse.Namespace) -> int:
    """Write a log in the other format: JSON to the text notation or back, checked like any
    log on the way (an invalid one is refused, never half-converted)."""
    from .logfile import dumps, is_json, read_log_any
    from .notation import write_text

    source = _read_text(args.log, "IN")
    log = read_log_any(source)
    target = _output_format(args.to, args.output)
    if target is None:
        target = "text" if is_json(source) else "json"
    text = dumps(log) if target == "json" else write_text(log)
    if _write_output(text, args.output, args.force):
        print(ngettext("wrote {file}: {count} event as {format}",
                       "wrote {file}: {count} events as {format}", len(log.events)).format(
            file=args.output, count=len(log.events), format=target), file=sys.stderr)
    return OK


def _new_deck(args: argparse.Namespace, players: Sequence[str]) -> tuple[Deck, Dealing, str | None]:
    """The deck, the default dealing rule and the preset name chosen by the card options."""
    from .cards import CATEGORIES, Deck
    from .editions import Dealing, edition, forum_deck, rule_for

    lists = [_names(getattr(args, c.plural), f"--{c.plural}") or None for c in CATEGORIES]
    custom = [f"--{c.plural}" for c, given in zip(CATEGORIES, lists, strict=True) if given]
    if args.forum is not None or args.edition == "forum":
        if args.edition not in (None, "forum"):
            raise InvalidLogError([_("--forum: cannot be combined with --edition {edition}")
                                   .format(edition=shorten(args.edition))])
        count = len(players) if args.forum is None else args.forum
        return forum_deck(count, *lists), Dealing.FORUM, None
    if args.edition is not None:
        if custom:
            raise InvalidLogError([_("{option}: give either --edition or your own cards, not "
                                     "both (--edition {edition})").format(
                option=custom[0], edition=shorten(args.edition))])
        preset = edition(args.edition, field="--edition")
        return preset.deck, rule_for(preset, len(players)), preset.name
    if not custom:
        raise InvalidLogError([_("--edition: missing; choose a preset (clue-notebook editions), "
                                 "--forum N, or --suspects, --weapons and --rooms")])
    missing = [f"--{c.plural}" for c, given in zip(CATEGORIES, lists, strict=True) if not given]
    if missing:
        raise InvalidLogError([_("{option}: missing (a custom deck needs --suspects, --weapons "
                                 "and --rooms)").format(option=m) for m in missing])
    return Deck(*(tuple(given or ()) for given in lists)), Dealing.CLASSIC, None


def _hand_sizes(text: str, players: int) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        sizes = (-1,)
    if any(s < 0 for s in sizes):
        raise InvalidLogError([_("--hand-sizes: expected whole numbers ≥ 0 separated by "
                                 "commas, got {value}").format(value=shorten(text))])
    if len(sizes) != players:
        raise InvalidLogError([ngettext("--hand-sizes: {count} size for {players} players "
                                        "({value})",
                                        "--hand-sizes: {count} sizes for {players} players "
                                        "({value})", len(sizes)).format(
            count=len(sizes), players=players, value=shorten(text))])
    return sizes


# --- odds: accuse, advise, show (analyze --odds) ---------------------------------------------


def _odds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--odds", action="store_true",
                        help=_("add exact probabilities (every deal consistent with the log "
                             "equally likely)"))
    parser.add_argument("--refuter-model", action="store_true",
                        help=_("assume a refuter with several matches shows one at random"))


def _odds(log: GameLog, args: argparse.Namespace, grid: Grid | None = None) -> Odds:
    """The odds of ``log``; ``grid``: its SAT grid, when the command has it already (not
    worked out twice: 30-50 ms on a 12-player log, as much as the odds on a classic one)."""
    from .odds import odds

    return odds(log, refuter_model=args.refuter_model, grid=grid)


def _accuse_arguments(parser: argparse.ArgumentParser) -> None:
    _log_arguments(parser)
    for name, said in (("suspect", N_("the suspect (any case; a word of the name will do)")),
                       ("weapon", N_("the weapon (any case; a word of the name will do)")),
                       ("room", N_("the room (any case; a word of the name will do)"))):
        parser.add_argument(name, metavar=name.upper(), help=_(said))
    parser.add_argument("--json", action="store_true", help=_("print the check as JSON"))
    parser.add_argument("--refuter-model", action="store_true",
                        help=_("assume a refuter with several matches shows one at random"))
    parser.add_argument("--bluff", type=_bluff, metavar="F", help=_(BLUFF_HELP))
    parser.add_argument("--whom", action="store_true",
                        help=_("in the forum variant, play out the question advise gives (whom "
                               "to ask and what) and name that player; slower at a large "
                               "table"))


def run_accuse(args: argparse.Namespace) -> int:
    """Say "safe" only when the envelope is certain; else the chance and the alternatives, and
    whether to accuse now or wait (with ``--whom``, in a forum game, my next question played out
    as `advise` gives it, its player named)."""
    from . import odds_report
    from .advice import Advisor, accuse
    from .cards import CATEGORIES
    from .editions import forum_dealt
    from .ending import ending
    from .odds import grid_of
    from .race import ended_at_said, out_since, past_advice

    log = _read_log(args)[0]
    grid = grid_of(log)
    found = None if grid.accusation_safe else _odds(log, args, grid)  # one count for both
    typed = (args.suspect, args.weapon, args.room)
    check = accuse(log, tuple(_named(log, card, category.value, category)
                              for card, category in zip(typed, CATEGORIES, strict=True)),
                   refuter_model=args.refuter_model, found=found, grid=grid)
    verdict = None
    end, out, past = ending(log), out_since(log, log.game.me), past_advice(log)
    if args.whom and not forum_dealt(log.game):
        raise InvalidLogError([_("--whom: only in the forum variant, where a question goes to "
                                 "one player")])
    if not check.safe and log.game.me is not None and past is None:
        whom = None
        if args.whom:  # `advise`'s own, with its defaults: the line names its player
            whom = Advisor(log, refuter_model=args.refuter_model, grid=grid).whom()
        verdict = _verdict(log, check.triple, args.bluff, grid, whom)  # as players play
    if args.json:
        data = odds_report.accusation_json(check) | _ended_json(end)
        if out is not None:
            data["out"] = True
        if verdict is not None:
            data["advice"] = {"accuse": verdict.accuse, "right": verdict.right,
                              "right_error": verdict.right_error,
                              "threat": verdict.threat, "reason": verdict.reason()}
            if verdict.outlook is not None:  # what waiting is worth, and why
                ahead = verdict.outlook
                data["advice"]["waiting"] = {
                    "worth": ahead.worth, "nobody_first": ahead.clear,
                    "known_after_next_question": ahead.known,
                    "after_the_others": ahead.later, "question": list(ahead.question),
                    "before_my_turn": ahead.before_my_turn, "deals": ahead.deals}
                if ahead.advised and ahead.to is not None:  # named: "Suggest for me"'s player
                    data["advice"]["waiting"]["question_to"] = ahead.to
        _print_json(data)
    elif verdict is not None and verdict.chances and not args.refuter_model:
        # the verdict's weighing on every line: one envelope, one chance (docs/odds.md)
        from .race import bluff_said

        print(odds_report.weighed_accusation_text(verdict.triple, verdict.chances,
                                                  verdict.ruled_out, check.warning,
                                                  basis=bluff_said(verdict.bluff).render()))
        print(verdict.reason())
    else:
        print(odds_report.accusation_text(check))
        if end is not None:  # the game is over: how, naming the entry (not the cards asked)
            print(ended_at_said(end, log.game.me).render())
        elif past is not None:  # I am out of it
            print(past.render())
        elif verdict is not None:
            print(verdict.reason())
    return OK


def _ended_json(end: Any) -> dict[str, Any]:
    """A finished game's fields in ``--json``: ``winner`` where someone won, ``ended`` (the
    event that ended it and how: ``accused``, ``standing`` or ``unsolved``); none while it goes
    on."""
    if end is None:
        return {}
    ended = {"ended": {"event": end.at, "how": end.close.value}}
    return ended if end.winner is None else {"winner": end.winner} | ended


def _verdict(log: GameLog, triple: Sequence[str], bluff: Fraction | None,
             grid: Grid | None = None, whom: Any = None) -> Any:
    """Accuse now or wait (`solver.race.accusation_verdict`, its own weighting of the deals as
    players play, with ``bluff`` or the default; ``grid``: the log's SAT grid, when the command
    has it; ``whom``: the forum question `advise` gives, to play out), imported only when
    asked."""
    from .race import BLUFF, accusation_verdict

    return accusation_verdict(log, triple, bluff=BLUFF if bluff is None else bluff, grid=grid,
                              advice=whom)


def _race_arguments(parser: argparse.ArgumentParser) -> None:
    _log_arguments(parser)
    parser.add_argument("--samples", type=_count("--samples"), metavar="N",
                        help=_("deals drawn from the notebook (default 400, fewer at a large "
                             "table: docs/limits.md)"))
    parser.add_argument("--seed", type=_count("--seed"), default=0, metavar="N")
    parser.add_argument("--bluff", type=_bluff, metavar="F", help=_(BLUFF_HELP))
    parser.add_argument("--json", action="store_true",
                        help=_('print {"players": {name: chance}, "samples": N, "out": [...]}'))


def run_race(args: argparse.Namespace) -> int:
    """For each other player, the chance they could already name the whole envelope."""
    from .ending import ending
    from .race import BLUFF, draw_size, past_advice, race, won_by

    log = _read_log(args)[0]
    if args.samples is not None and not 1 <= args.samples <= MAX_SAMPLES:
        raise InvalidLogError([_("--samples: expected 1 to {most} deals, got {value}").format(
            most=f"{MAX_SAMPLES:,}", value=args.samples)])
    opponents = sum(name != log.game.me for name in log.game.player_names)
    result = race(log, samples=draw_size(args.samples, opponents), seed=args.seed,
                  bluff=BLUFF if args.bluff is None else args.bluff)
    if args.json:  # who won, as `accuse --json` and `show --json` say it ("out" lists me)
        _print_json(result.to_json() | _ended_json(ending(log)))
        return OK
    past = past_advice(log)  # the game is over, or I am out of it: said first
    if past is not None:
        print(past.render())
    if won_by(log) is None:  # once it is said aloud everyone knows: nothing is drawn
        print(ngettext("Who could already name the whole envelope ({count} deal drawn from "
                       "your notebook):",
                       "Who could already name the whole envelope ({count} deals drawn from "
                       "your notebook):", result.samples).format(count=result.samples))
    for name in result.players:
        note = "  " + _("(out: accused wrongly)") if name in result.out else ""
        print(f"  {name}: {result.said(name)}{note}")  # 100% only where logic proves it
    if result.fallback:
        print(_("(every deal drawn has a player who could have named the envelope on their "
                "last turn without accusing: is an accusation missing from the log?)"))
    return OK


def _advise_arguments(parser: argparse.ArgumentParser) -> None:
    _log_arguments(parser)
    parser.add_argument("--room", metavar="ROOM",
                        help=_("the room you stand in, or in the forum variant the place you "
                               "name (default: any)"))
    parser.add_argument("--to", metavar="PLAYER",
                        help=_("the one player asked (default: the table in turn; in the forum "
                               "variant, whom to ask and what, as --whom)"))
    parser.add_argument("--whom", action="store_true",
                        help=_("whom to ask and what (the forum variant's default): each other "
                               "player put the likeliest cards alone, the one whose answer tells "
                               "most first"))
    parser.add_argument("--top", type=_count("--top", least=1), default=10, metavar="N",
                        help=_("how many suggestions to list (default 10)"))
    parser.add_argument("--rule", choices=("likeliest", "information"), default="likeliest",
                        help=_("likeliest: the cards likeliest in the envelope if players ask "
                               "about cards they do not hold (default); information: the most "
                               "expected information about the envelope"))
    parser.add_argument("--samples", type=_count("--samples"), metavar="N",
                        help=_("deals drawn to score the suggestions (default 2000, fewer when "
                             "many suggestions are scored: docs/limits.md)"))
    parser.add_argument("--seed", type=_count("--seed"), default=0, metavar="N")
    parser.add_argument("--json", action="store_true", help=_("print the ranking as JSON"))
    parser.add_argument("--refuter-model", action="store_true",
                        help=_("assume a refuter with several matches shows one at random"))


def run_advise(args: argparse.Namespace) -> int:
    """Rank suggestions: the likeliest envelope cards as players play, or the expected
    information their answer gives about the envelope (``--rule``)."""
    from . import odds_report
    from .advice import (
        Rule,
        advise,
        advise_here,
        barred_room,
        draw_size,
        reason,
        refuted_certain,
    )
    from .cards import Category
    from .editions import forum_dealt
    from .ending import ending
    from .odds import grid_of
    from .race import ended_said, out_since, won_by

    log = _read_log(args)[0]
    if args.room is not None:
        args.room = _named(log, args.room, "--room", Category.ROOM)
    if args.samples is not None and not 1 <= args.samples <= MAX_SAMPLES:
        raise InvalidLogError([_("--samples: expected 1 to {most} deals, got {value}").format(
            most=f"{MAX_SAMPLES:,}", value=args.samples)])
    won, end, out = won_by(log), ending(log), out_since(log, log.game.me)
    if won is not None and won[1] == log.game.me:
        raise InvalidLogError([_("events: you accused correctly in event {n}: the game is over, "
                                 "there is nothing to suggest (--upto {before} reads the log "
                                 "before it)").format(n=won[0], before=won[0] - 1)])
    if won is not None:
        raise InvalidLogError([_("events: {player} accused correctly in event {n}: the game is "
                                 "over, there is nothing to suggest (--upto {before} reads the "
                                 "log before it)").format(player=won[1], n=won[0],
                                                          before=won[0] - 1)])
    if end is not None:  # every player, or every other one, accused wrongly
        raise InvalidLogError([_("events: the game ended in event {n}: {how} There is nothing "
                                 "to suggest (--upto {before} reads the log before it)").format(
                                     n=end.at, how=ended_said(end, log.game.me).render(),
                                     before=end.at - 1)])
    if out is not None:
        raise InvalidLogError([_("me: you ({player}) accused wrongly in event {n} and take no "
                                 "more turns: there is nothing to suggest").format(
                                     player=log.game.me, n=out)])
    deck = log.game.deck
    places = forum_dealt(log.game)  # the forum variant's word for the third kind of card
    rooms = 1 if args.room is not None else len(deck.rooms)
    samples = draw_size(args.samples, rooms * len(deck.suspects) * len(deck.weapons),
                        places=places)
    grid = grid_of(log)
    if places and args.to is None and not args.whom and args.rule != "likeliest":
        raise InvalidLogError([_("--rule: in the forum variant a question goes to one player, "
                                 "never round the table: give --to PLAYER with --rule {rule}"
                                 ).format(rule=args.rule)])
    if grid.accusation_safe and not args.json:  # no answer can tell more (as the app's
        _say_safe(grid)  # "Suggest for me", its question to one player too): a ranking would
        print(_("No suggestion would teach you anything more about the envelope"))  # ask
        return OK  # about other hands, "the likeliest in the envelope", which holds none
    if args.whom or (places and args.to is None):  # the forum's question: whom to ask, and what
        return _advise_whom(args, log, samples, grid)
    elsewhere = here = None
    barred = barred_room(log, log.game.me) if log.game.me is not None else None
    if args.room is not None and Rule(args.rule) is Rule.LIKELIEST and not args.json:
        here = advise_here(log, args.room, samples=samples, seed=args.seed,
                           refuter_model=args.refuter_model, to=args.to, grid=grid,
                           barred=barred)
        ranked, elsewhere = list(here.ranked), here.elsewhere  # the same ranking, one count
    else:  # in any room but the one I suggested in last: one suggestion per visit
        ranked = advise(log, args.room, rule=Rule(args.rule), samples=samples, seed=args.seed,
                        refuter_model=args.refuter_model, to=args.to, grid=grid,
                        barred=barred)
    # where another room's (place's) cards are likelier, said below, no line here calls its
    # cards the likeliest in the envelope (as the app's "Suggest for me", `reason_said`)
    reasons = [reason(log, a, grid, likeliest=elsewhere is None) for a in ranked[: args.top]]
    if args.json:
        _print_json(odds_report.advice_json(ranked, args.top, reasons))
    else:  # (a certain envelope was said above, and nothing ranked)
        if barred is not None and args.room == barred:  # the rule first: the advice below is
            print(_("In {room} again? You suggested there last: the rules let you suggest there "
                    "again only once you have left it").format(room=barred))  # for a return
        if here is not None and here.idle:  # the room's best teaches nothing
            _say_idle(log, here, grid, places, args.to)
            if here.stay is None:  # where to head led, or nothing tells anything
                elsewhere = None
        sure = [refuted_certain(log, a, grid) for a in ranked[: args.top]]
        print("\n".join(odds_report.advice_lines(ranked, args.top, reasons, sure)))
        if barred is not None and args.room is None:  # left out of the ranking
            print(_("Not {room}: you suggested there last, and the rules let you suggest there "
                    "again only once you have left it").format(room=barred))
        if elsewhere is not None:  # a likelier suggestion in another room (place)
            s, w, r = elsewhere.triple
            print((_("another place is likelier: ask {suspect}, {weapon}, {room} ({score})")
                   if places else
                   _("where to head: {room}, to ask {suspect}, {weapon} ({score})")).format(
                room=r, suspect=s, weapon=w, score=f"{elsewhere.score:.2f}"))
    return OK


def _say_idle(log: GameLog, here: Here, grid: Grid, places: bool, to: str | None) -> None:
    """`run_advise` with ``--room`` where the room's likeliest suggestion teaches nothing (its
    answer is known in advance: `solver.advice.idle_said`), above the ranking, in the order and
    words of the app's "Suggest for me" (`notebook_app.screens.turn.idle_lines`): the best
    question here that teaches something first, then one thing more: where to head, which
    follows the ranking as wherever another room's cards are likelier, else why not the
    likeliest here (the ranking's reason for it says so too). With nothing here that teaches
    anything, where to head leads, saying why not here; with nothing anywhere, that no
    suggestion would teach anything. Until 2026-12-04 where to head led in every case and the
    question here followed it ("if you stay: ..."). A question put to one player (``to``)
    names them, as the app's question to one player does."""
    from .advice import idle_said, reason

    s, w, r = here.best.triple
    why = idle_said(log, here.best, grid)
    if here.stay is not None:
        ss, sw, sr = here.stay.triple
        why_stay = reason(log, here.stay, grid, likeliest=False)  # the idle one is likelier
        print(_("Ask {suspect}, {weapon}, {room}: {reason}").format(
            suspect=ss, weapon=sw, room=sr, reason=why_stay) if to is None else
              _("Ask {player}: {suspect}, {weapon}, {room}: {reason}").format(
            player=to, suspect=ss, weapon=sw, room=sr, reason=why_stay))
        if here.elsewhere is None:  # else where to head is the one thing more, below
            print(_("{suspect}, {weapon}, {room} would teach you nothing ({why})").format(
                suspect=s, weapon=w, room=r, why=why.render() if why else ""))
    elif here.elsewhere is not None:  # the forum has no board: another place, not a walk
        es, ew, er = here.elsewhere.triple
        print((_("another place: ask {suspect}, {weapon}, {room} ({score}): with this place "
                 "{asked} would teach you nothing ({why})") if places else
               _("where to head: {room}, to ask {suspect}, {weapon} ({score}): here {asked} "
                 "would teach you nothing ({why})")).format(
                    room=er, suspect=es, weapon=ew, score=f"{here.elsewhere.score:.2f}",
                    asked=Listing((s, w), ",").render(), why=why.render() if why else ""))
    else:  # nothing scored anywhere tells anything
        print(_("No suggestion would teach you anything more about the envelope"))


def _say_safe(grid: Grid) -> None:
    """In place of the advice: the envelope, when it is certain (no suggestion can tell me
    more)."""
    if grid.accusation_safe:
        from .cards import CATEGORIES

        s, w, r = (grid.envelope()[cat] for cat in CATEGORIES)
        print(_("safe: the envelope is certainly {suspect}, {weapon}, {room}").format(
            suspect=s, weapon=w, room=r))


def _advise_whom(args: argparse.Namespace, log: GameLog, samples: int, grid: Grid) -> int:
    """`run_advise` with ``--whom``, and in the forum variant without ``--to``: `Advisor.whom`
    from the same count and draw as ``advise`` (so the question put to each player is
    ``advise --to`` theirs)."""
    from . import odds_report
    from .advice import Advisor, reason, refuted_certain

    if args.to is not None:
        raise InvalidLogError([_("--whom: asks every other player; leave out --to {to}").format(
            to=args.to)])
    if args.rule != "likeliest":
        raise InvalidLogError([_("--rule: --whom puts each player the likeliest cards; "
                                 "{rule} is not offered with it").format(rule=args.rule)])
    whom = Advisor(log, samples=samples, seed=args.seed, refuter_model=args.refuter_model,
                   grid=grid).whom(args.room)
    reasons = [reason(log, whom.best, grid)]
    if args.json:
        _print_json(odds_report.whom_json(whom, reasons))
    else:  # (a certain envelope was said by `run_advise`, and nothing ranked)
        sure = [refuted_certain(log, a, grid) for _player, a in whom.players]
        print("\n".join(odds_report.whom_lines(whom, reasons, sure)))
    return OK


def _show_arguments(parser: argparse.ArgumentParser) -> None:
    _log_arguments(parser)
    parser.add_argument("asker", metavar="ASKER", help=_("the player whose suggestion you refute"))
    parser.add_argument("cards", metavar="CARD", nargs=3, help=_("the three cards they named"))
    parser.add_argument("--json", action="store_true", help=_("print the advice as JSON"))


def run_show(args: argparse.Namespace) -> int:
    """Which of my matching cards to show: one already shown to the asker, else the least
    telling, and each earlier showing to the asker of one of these cards whose card was not
    noted (``--json``: ``unnoted``); once someone has accused correctly, that the game is over
    (``--json``: ``card`` null and ``winner``); for a contradictory log, the clashing events
    (exit 3)."""
    from . import odds_report
    from .advice import show_candidates, what_to_show
    from .cards import CATEGORIES
    from .ending import ending
    from .odds import grid_of
    from .race import past_advice

    log = _read_log(args)[0]
    args.cards = [_named(log, card, "cards", category)
                  for card, category in zip(args.cards, CATEGORIES, strict=True)]
    grid_of(log)  # a contradictory log says so (exit 3, the clashing events), as the others do
    end, over = ending(log), past_advice(log)
    if end is not None and over is not None:  # nobody asks any more: nothing to show
        show_candidates(log, args.asker, tuple(args.cards))  # a slip is still named
        if args.json:
            _print_json({"card": None} | _ended_json(end))
        else:
            print(over.render())
        return OK
    advice = what_to_show(log, args.asker, tuple(args.cards))
    unnoted = log.unnoted_to(args.asker, among=args.cards)  # "seen before" may hold
    if args.json:
        _print_json(odds_report.show_json(advice) | (
            {"unnoted": [{"event": n, "cards": list(shown)} for n, shown in unnoted]}
            if unnoted else {}))
    else:
        print(odds_report.show_text(advice))
        for n, shown in unnoted:
            print(_("In #{n} you showed {player} one of {cards}, not noted which.").format(
                n=n, player=args.asker, cards=list_said(shown)))
    return OK


# --- the table of subcommands, and main ------------------------------------------------------

COMMANDS: list[Command] = [
    Command("analyze", N_("print the notebook: who holds what, and the envelope so far"),
            _analyze_arguments, run_analyze),
    Command("explain", N_("why a player holds a card or not, step by step, citing the log"),
            _explain_arguments, run_explain),
    Command("editions", N_("list the edition presets"), _editions_arguments, run_editions),
    Command("new", N_("write the starting log of a new game"), _new_arguments, run_new),
    Command("convert", N_("turn a log into the text notation or back into JSON"),
            _convert_arguments, run_convert),
    Command("accuse", N_("is an accusation safe? if not, its chance and the likelier envelopes"),
            _accuse_arguments, run_accuse),
    Command("advise", N_("which suggestion to make, each with its reason"),
            _advise_arguments, run_advise),
    Command("show", N_("which of your cards to show when you must refute"),
            _show_arguments, run_show),
    Command("race", N_("how likely each other player could already name the envelope"),
            _race_arguments, run_race),
]
"""Every subcommand, in the order ``--help`` lists them."""


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser for ``argv``: only the subcommand it names, when its first word is
    one (declaring the others' arguments would cost every run a fifth of its start-up);
    otherwise every subcommand of `COMMANDS`, for ``--help`` and for usage errors."""
    parser = argparse.ArgumentParser(
        prog=PROG, description=_("A deduction notebook for Clue / Cluedo and its variants."),
        formatter_class=_HelpFormatter,
    )
    _lang_argument(parser, argparse.SUPPRESS)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    named = [c for c in COMMANDS if argv and c.name == argv[0]]
    for command in named or COMMANDS:
        sub = commands.add_parser(command.name, help=_(command.help),
                                  description=_(command.help), formatter_class=_HelpFormatter)
        command.arguments(sub)
        _lang_argument(sub, argparse.SUPPRESS)
        sub.set_defaults(run=command.run)
    return parser


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help layout at the width it would choose, found without importing shutil
    (argparse makes a formatter for every argument declared, so every run would import it)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         _terminal_columns(80) - 2 if width is None else width)


def _lang_argument(parser: argparse.ArgumentParser, default: Any) -> None:
    """``--lang``, before or after the command: the language of the output and messages."""
    from .i18n import LANGUAGES

    parser.add_argument(
        "--lang", choices=LANGUAGES, default=default,
        help=_("language of the output and messages (default: from LANGUAGE, LC_ALL or LANG)"),
    )


def _utf8_streams() -> None:
    """Make stdout and stderr UTF-8 whatever the locale, so names never crash the output."""
    for stream in (sys.stdout, sys.stderr):
        if not isinstance(stream, io.TextIOWrapper):
            continue
        if stream.encoding.lower().replace("-", "") != "utf8":
            stream.reconfigure(encoding="utf-8", errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit status (0 ok, 2 bad input, 3 contradiction)."""
    from .deferred import UNUSED, defer

    defer(*UNUSED)
    _utf8_streams()
    argv = sys.argv[1:] if argv is None else argv
    from .i18n import from_environment, speaking

    with speaking(_lang_asked(argv) or from_environment()), _argparse_speaking():
        parser = build_parser(argv)
        try:
            args = parser.parse_args(argv)
        except SystemExit as exit_:  # --help, or a usage error argparse has already printed
            return exit_.code if isinstance(exit_.code, int) else INVALID
        return _run(args)


def _lang_asked(argv: Sequence[str]) -> str | None:
    """The language ``--lang`` asks for, read before parsing (the help is in it), if any.

    >>> _lang_asked(["analyze", "game.json", "--lang", "fi"]), _lang_asked(["--lang=ja", "-h"])
    ('fi', 'ja')
    """
    from .i18n import LANGUAGES

    for i, word in enumerate(argv):
        if word == "--":
            break
        value = argv[i + 1] if word == "--lang" and i + 1 < len(argv) else (
            word.removeprefix("--lang=") if word.startswith("--lang=") else None)
        if value in LANGUAGES:
            return value
    return None


@contextmanager
def _argparse_speaking() -> Iterator[None]:
    """argparse's own words ("usage:", "options", its error messages) from our catalogs:
    argparse looks up ``_`` and ``ngettext`` in its module when it speaks
    (`solver.argparse_words` lists the messages)."""
    from .i18n import gettext

    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = gettext, ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


def _run(args: argparse.Namespace) -> int:
    """Run the parsed command, turning bad input into a message and an exit status."""
    run: Callable[[argparse.Namespace], int] = args.run
    name = f"{PROG} {args.command}"
    try:
        return run(args)
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as cat does
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return OK
    except InvalidLogError as err:
        _complain(name, err.problems)
        return INVALID
    except ContradictionError as err:
        _complain(name, [str(err)])
        return CONTRADICTION
    except ClueError as err:
        _complain(name, [str(err)])
        return INVALID


def _complain(name: str, problems: Sequence[Any]) -> None:
    for problem in problems:
        print(f"{name}: {problem}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
