"""The message catalogs: every message of the source translated in every language, none fuzzy,
the same named placeholders in every form, and plural forms as each language counts."""

# ruff: noqa: RUF001  (Russian text in the expected output)
from __future__ import annotations

import os
import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from hypothesis import HealthCheck, given, settings

from solver import i18n
from solver.explain import Explainer, Step
from solver.game import GameLog
from solver.notebook import Knowledge

from .strategies import small_logs

ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "say": None,
            "say_n": (1, 2)}
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != "en"]


def _source_messages() -> dict[str, str | None]:
    """Every message id the code asks for (msgid -> plural id), found as `scripts/messages` does."""
    found: dict[str, str | None] = {}
    method_map = [("solver/**.py", "python"), ("notebook_app/**.py", "python")]
    for _file, _line, message, _comments, _context in extract_from_dir(
        ROOT, method_map, keywords=KEYWORDS
    ):
        if isinstance(message, tuple):
            found[message[0]] = message[1]
        else:
            found[message] = None
    return found


def _catalog(language: str) -> Catalog:
    path = i18n.LOCALE_DIR / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    with path.open("rb") as file:
        return read_po(file, locale=language)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


SOURCE = _source_messages()


def test_the_source_has_messages() -> None:
    assert len(SOURCE) > 20


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(language: str) -> None:
    catalog = _catalog(language)
    problems = []
    for msgid, plural in SOURCE.items():
        message = catalog.get(msgid)
        if message is None:
            problems.append(f"missing: {msgid!r}")
            continue
        if message.fuzzy:
            problems.append(f"fuzzy: {msgid!r}")
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if plural is not None and len(forms) != catalog.num_plurals:
            problems.append(f"{len(forms)} plural forms, {catalog.num_plurals} wanted: {msgid!r}")
        if not all(forms):
            problems.append(f"empty: {msgid!r}")
    assert not problems, f"{language}: run scripts/messages and translate:\n" + "\n".join(problems)


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_stale_messages(language: str) -> None:
    stale = [m.id for m in _catalog(language) if m.id and
             (m.id[0] if isinstance(m.id, tuple) else m.id) not in SOURCE]
    assert not stale, f"{language}: no longer in the source (run scripts/messages): {stale}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_are_the_same_in_every_language(language: str) -> None:
    problems = []
    for message in _catalog(language):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        wanted = set().union(*(_fields(i) for i in ids))
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            if not form:
                continue
            got = _fields(form)
            # a singular form may leave the count out ("one card" rather than "1 card")
            allowed_missing = {"n", "count"} if len(ids) > 1 else set()
            if got - wanted or (wanted - got) - allowed_missing:
                problems.append(f"{ids[0]!r}: {sorted(wanted)} vs {form!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", TRANSLATED)
def test_format_flags_hold_in_every_language(language: str) -> None:
    """No entry fails Babel's checks, python-format among them: a msgid such as "% chance" reads
    as a directive ("% c"), gets the flag, and a packager's `msgfmt --check` refuses the catalog
    whose translation has no such directive."""
    problems = [f"{message.id!r}: {errors}" for message, errors in _catalog(language).check()]
    assert not problems, "\n".join(problems)


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt not installed")
@pytest.mark.parametrize("language", TRANSLATED)
def test_msgfmt_check_accepts_every_catalog(language: str) -> None:
    path = i18n.LOCALE_DIR / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    done = subprocess.run(["msgfmt", "--check", "-o", os.devnull, str(path)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


GENDER_SLASHES = re.compile(r"[а-яё]\((?:а|ла|ло|ся|ась|ая|ой|ый)\)|\((?:неё|её|ее|она|ей)\)|"
                            r"\b(?:у него|у неё|его рука|её рука)\b|"
                            r"\{(?:player|refuter|by|suggester|asked|leader)\}(?: [а-яё]+){0,2}? "
                            r"[а-яё]+(?:ил|ел|ал|ял|ыл|ла|бся|лся)\b", re.IGNORECASE)
"""Russian wordings that guess a player's gender or hedge it: "видел(а)", "у него(неё)", "Это
вся его рука", "{player} уже видел", "{player} ошибся с обвинением" (a name, then a verb in the
past: it has a gender; the Turn screen said "Аня ошибся", a phone play-through)."""


def test_russian_names_no_player_by_a_gendered_pronoun() -> None:
    """Russian has no neutral pronoun: a phone play-through read "he(she) has it" and "That is
    his whole hand" (`GENDER_SLASHES`). Every such wording now names the player (a name, "the
    player") or speaks to "you" instead."""
    found = []
    for message in _catalog("ru"):
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        found += [form for form in forms if form and GENDER_SLASHES.search(form)]
    assert not found, "\n".join(found)


ENTRY_NUMBER = re.compile(r"#\{(\w+)\}")
"""An entry's number as the Log writes it in every language: "#4"."""


@pytest.mark.parametrize("language", ["fi", "ru", "ja"])
def test_entry_numbers_are_written_as_the_log_writes_them(language: str) -> None:
    """The Log, the clash list and Undo's entry write an entry's number "#4" in every language
    (in the code); the Russian catalogue wrote "№4" in some messages and "#4" in others, for
    the same entries (a 12-player play-through). Every translation numbers them with "#"."""
    found = []
    for message in _catalog(language):
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        wanted = sorted(ENTRY_NUMBER.findall(msgid))
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        found += [f"{msgid} -> {form}" for form in forms
                  if form and (sorted(ENTRY_NUMBER.findall(form)) != wanted or "№" in form)]
    assert not found, "\n".join(found)


DAREMO_HANGING = re.compile(r"誰も(?![^。」]*?(?:ない|なかった|ず|ません))")
"""Japanese "誰も" with no negative after it: it means "nobody" only with one ("誰も見せなかった");
alone it reads as "everyone"."""


def test_japanese_nobody_is_said_with_its_negative() -> None:
    """The chip for "Nobody" beside the players who may have shown a card read "誰も" (a phone
    play-through, a Japanese game): half a sentence, "everyone" as much as "nobody", and the
    hint "Tap who showed a card, or Nobody" quoted it. The chip is "なし" (none); every other
    "誰も" in the catalogue comes with its negative."""
    found = []
    for message in _catalog("ja"):
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        found += [form for form in forms if form and DAREMO_HANGING.search(form)]
    assert not found, "\n".join(found)


SHOWN_BARE = re.compile(r"\bпоказ\w*(?: (?!карт)\w+){0,2} \{(?:card|shown)\}")
"""A card shown (or that can be) named bare after the verb, in its nominative: broken Russian."""


def test_russian_quotes_a_card_shown() -> None:
    """Russian names a card shown, or that can be shown, in quotes, as the log does («Кухня»),
    or after "карта": a card's name stays in the nominative, so "Вы показали Столовая", "Игрок
    Глеб мог показать только Свинцовая труба", "Аня может показать Кухня" and, in the
    explanations, "Дима показывает вам Миссис Пикок" read as broken Russian (a phone
    play-through). Nor are the envelopes still possible "open" ("открытых конвертов" read as
    envelopes opened): they are the envelope's "варианты", as the header's "тройки"."""
    found = []
    for message in _catalog("ru"):
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        found += [form for form in forms
                  if form and (SHOWN_BARE.search(form) or "открытых конверт" in form)]
    assert not found, "\n".join(found)


def test_the_russian_verdict_is_not_certain_rather_than_too_early() -> None:
    """Until the envelope is certain the Russian verdict says it is not certain yet ("Пока не
    наверняка"), as "Можно обвинять наверняка" says it is, not that it is too early to accuse:
    "Пока рано: в конверте возможны ещё 4 тройки карт" stood over the race line's "Обвиняйте
    сейчас: верно 81%" (a phone play-through), two words against each other."""
    verdicts = [message for message in _catalog("ru")
                if str(message.id if isinstance(message.id, str) else message.id[0])
                .startswith("Not yet")]
    assert len(verdicts) >= 5
    for message in verdicts:
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(form.startswith("Пока не наверняка: ") for form in forms), forms


@pytest.mark.parametrize(
    ("language", "counts"),
    [
        ("ru", {1: "1 карта", 2: "2 карты", 5: "5 карт", 21: "21 карта", 12: "12 карт",
                24: "24 карты"}),
        ("fi", {1: "1 kortti", 2: "2 korttia"}),
        ("ja", {1: "1枚", 5: "5枚"}),
        ("en", {1: "1 card ", 5: "5 cards "}),
    ],
)
def test_plural_forms(language: str, counts: dict[int, str]) -> None:
    for n, text in counts.items():
        said = i18n.say_n("You hold {count} card and {possible}",
                          "You hold {count} cards and {possible}", n, count=n, possible="…")
        assert text in said.render(language)


def test_language_from_the_environment() -> None:
    assert i18n.from_environment({"LC_ALL": "fi_FI.UTF-8", "LANG": "en_US.UTF-8"}) == "fi"
    assert i18n.from_environment({"LANG": "ja_JP.UTF-8"}) == "ja"
    assert i18n.from_environment({"LANGUAGE": "de:ru", "LANG": "en_US"}) == "ru"
    assert i18n.from_environment({"LANG": "C.UTF-8"}) == "en"
    assert i18n.from_environment({}) == "en"


def test_english_is_the_source_and_needs_no_catalog() -> None:
    assert i18n.current() == "en"
    assert not (i18n.LOCALE_DIR / "en").exists()



def test_english_edition_titles_are_translated_and_the_others_kept() -> None:
    from solver.editions import TRANSLATED_TITLES, editions

    english = {e.title for e in editions().values() if e.language == "en"}
    assert english == TRANSLATED_TITLES
    for language in ("fi", "ru", "ja"):
        with i18n.speaking(language):
            for e in editions().values():
                if e.language == "en":
                    assert e.shown_title != e.title, (language, e.title)
                else:
                    assert e.shown_title == e.title


# --- the command line speaks the language asked for ------------------------------------------

EXAMPLE = str(ROOT / "examples" / "rules-example-1.json")


def _analyze(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    from solver.cli import main

    assert main(["analyze", EXAMPLE, *args]) == 0
    return capsys.readouterr().out


def test_cli_lang_option_and_environment(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    english = _analyze(capsys)
    assert "Envelope: suspect" in english and "Henkilöt" not in english
    assert "Kirjekuori: henkilö" in _analyze(capsys, "--lang", "fi")
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    russian = _analyze(capsys)
    assert "Конверт: подозреваемый" in russian and "Подозреваемые" in russian
    monkeypatch.setenv("LC_ALL", "ja_JP.UTF-8")
    assert "封筒: 容疑者" in _analyze(capsys)
    assert _analyze(capsys, "--lang", "en") == english  # --lang wins over the environment
    assert i18n.current() == "en"  # and the language does not outlive the command


# --- explanations read the same in every language --------------------------------------------

ENGLISH_WORDS = re.compile(r"\b(event|events|holds|hold|envelope|side card|so|but|not|you|"
                           r"Combining|accounted|answered|showed|revealed|none)\b")


def _structure(text: str) -> list[str]:
    """Step numbers, "from" numbers and every number a line cites, line by line."""
    return [" ".join(re.findall(r"\d+", line)) for line in text.splitlines()]


def _check_same_chain(english: str, texts: dict[str, str], steps: tuple[Step, ...]) -> None:
    for language, text in texts.items():
        lines = text.splitlines()
        assert len(lines) == len(english.splitlines()), (language, text)
        numbered = [line.split(".")[0].strip() for line in lines if line.startswith("  ")]
        assert numbered == [line.split(".")[0].strip() for line in english.splitlines()
                            if line.startswith("  ")], (language, text)
        if language != "en":
            leftover = ENGLISH_WORDS.findall(text)
            assert not leftover, f"{language}: English words {leftover} left in:\n{text}"
        with i18n.speaking(language):
            for step in steps:
                rendered = step.text
                for n in step.events:
                    assert str(n) in re.findall(r"\d+", rendered), (language, n, rendered)
    # the title and the events the whole chain rests on are the same in every language
    for language, text in texts.items():
        for mine, theirs in ((_structure(text)[i], _structure(english)[i]) for i in (0, -1)):
            assert sorted(mine.split()) == sorted(theirs.split()), (language, mine, theirs)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_logs(noise=True))
def test_explanations_render_in_every_language_citing_the_same_events(log: GameLog) -> None:
    with Explainer.of(log) as explainer:
        if not explainer.consistent:
            conflict = explainer.conflict()
            assert conflict is not None
            english = conflict.text()
            texts = {lang: conflict.text(lang) for lang in i18n.LANGUAGES}
            assert texts["en"] == english
            _check_same_chain(english, texts, conflict.steps)
            return
        for row in explainer.all().values():
            for explanation in row.values():
                english = explanation.text()
                texts = {lang: explanation.text(lang) for lang in i18n.LANGUAGES}
                assert texts["en"] == english
                _check_same_chain(english, texts, explanation.steps)
        card, owner = next(((c, o) for c, row in explainer.grid.cells.items()  # type: ignore[union-attr]
                            for o, v in row.items() if v is Knowledge.MAYBE), (None, None))
        if card is not None and owner is not None:
            maybe = explainer.cell(card, owner)
            for language in i18n.LANGUAGES:
                assert maybe.text(language).count("\n") == maybe.text().count("\n")


def _axe_in_the_envelope() -> GameLog:
    """A 2-player game where Bob shows me the Rope, so the Axe is in the envelope (step 2
    builds on step 1)."""
    from solver.logfile import loads

    return loads('''{"format": "clue-notebook/1",
      "cards": {"suspects": ["Plum", "Green"], "weapons": ["Rope", "Axe"], "rooms": ["Hall"]},
      "players": [{"name": "Ann", "hand_size": 1}, {"name": "Bob", "hand_size": 1}],
      "me": "Ann", "my_cards": ["Green"],
      "events": [{"type": "suggestion", "by": "Ann", "cards": ["Plum", "Rope", "Hall"],
                  "refuted_by": "Bob", "shown": "Rope"}]}''')


def test_a_russian_explanation_reads_as_russian() -> None:
    log = _axe_in_the_envelope()
    with Explainer.of(log) as explainer:
        cell = explainer.cell("Axe", "envelope")
        assert cell.text("ru").splitlines() == [
            "Карта Axe в конверте: да.",
            "  1. Bob показывает вам «Rope» (событие 1).",
            "  2. Все остальные орудия найдены, значит, Axe в конверте.  (из шага 1)",
            "Опирается на событие 1.",
        ]
        assert cell.text("ja").splitlines()[0] == "Axeは封筒の中にある: はい。"
        assert cell.text("fi").splitlines()[-1] == "Perustuu tapahtumaan 1."


def test_the_steps_a_step_builds_on_are_counted() -> None:
    """The steps an explanation's step builds on are said as one step or several: a Finnish
    phone play-through's Review read "(vaiheista 1)" ("from steps 1"), as Russian read
    "(из шагов 1)"; English "(from 1)" could be read as event 1."""
    log = _axe_in_the_envelope()
    with Explainer.of(log) as explainer:
        one = {language: explainer.cell("Axe", "envelope").text(language).splitlines()[2]
               for language in ("en", "fi", "ru")}
    assert one["en"].endswith("(from step 1)"), one
    assert one["fi"].endswith("(vaiheesta 1)"), one
    assert one["ru"].endswith("(из шага 1)"), one
    for language, several in (("en", "(from steps 1, 2)"), ("fi", "(vaiheista 1, 2)"),
                              ("ru", "(из шагов 1, 2)")):
        with i18n.speaking(language):
            said = i18n.say_n("(from step {steps})", "(from steps {steps})", 2,
                              steps="1, 2").render()
        assert said == several, (language, said)


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_open_cards_of_a_reason_are_not_said_as_places(language: str) -> None:
    """The advice's reason counted "cards you have not placed yet" ("joiden paikkaa et vielä
    tiedä", "место которых вы ещё не знаете"), beside the forum variant's "Another place is
    likelier" (Paikka, Место): it read as if about places. It names the cards' holders now,
    in words that share no stem with the language's "Place"."""
    from solver.advice import ASKS_ABOUT

    with i18n.speaking(language):
        stem = i18n._("Place").lower()[:4]
        said = [i18n._(message).lower() for message in ASKS_ABOUT]
    assert not [line for line in said if stem in line], (stem, said)


def test_cards_ruled_out_of_the_envelope_agree_with_their_number() -> None:
    """My accusation's form names the cards tapped that cannot be in the envelope: two of them
    read "Green, Rope ei voi olla" in Finnish and "Green, Rope не может быть" in Russian, a
    verb for one card (`notebook_app.grid_view.accusation_said`)."""
    from notebook_app.grid_view import accusation_said
    from solver.logfile import loads
    from solver.odds.setup import grid_of

    grid = grid_of(loads('''{"format": "clue-notebook/1", "cards": {"suspects": ["Plum",
        "Green", "Peacock"], "weapons": ["Rope", "Pipe"], "rooms": ["Hall", "Den"]},
        "players": [{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2}],
        "me": "Ann", "my_cards": ["Green", "Rope"], "events": []}'''))
    said = {}
    for language in ("fi", "ru"):
        with i18n.speaking(language):
            said[language, 1] = accusation_said(grid, ("Green", "Pipe", "Hall"))[1]
            said[language, 2] = accusation_said(grid, ("Green", "Rope", "Hall"))[1]
    assert " ei voi olla " in said["fi", 1] and " eivät voi olla " in said["fi", 2]
    assert " не может быть " in said["ru", 1] and " не могут быть " in said["ru", 2]


def test_a_step_built_on_twenty_one_steps_is_said_as_several_in_russian() -> None:
    """Russian picks its singular for 21, 31, … ("21 шаг"), which suits a count of steps but
    not a list of them: a step built on 21 others read "(из шага 1, 2, …, 21)". One step or
    several is what the words say, so the plural form is chosen by that."""
    from solver.explain import _render

    steps = [Step(i18n.say("Plum is in the envelope."), (), tuple(range(1, n)), None, "pass")
             for n in (1, 2, 22)]
    with i18n.speaking("ru"):
        notes = [line.rpartition("  ")[2] for line in _render(steps)]
    assert notes[1:] == ["(из шага 1)", "(из шагов " + ", ".join(map(str, range(1, 22))) + ")"]


def test_lists_of_names_built_in_code_follow_the_language(capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    """Japanese separates a list's items with 「、」: the translated sentences did, but the card
    and player lists the code joined read "A, B, C" inside them (a Log line "Bob: A, B, C → …",
    the Undo label, accuse's alternatives, an explanation's cards). Finnish and Russian keep
    ", "; none of them gets an "and" (`i18n.list_said`)."""
    from notebook_app.turns import describe
    from solver.cli import main
    from solver.game import Note, Suggestion
    from solver.notes import statement

    asked = Suggestion("Bob", ("Plum", "Rope", "Hall"), passes=("Cid", "Dee"), refuted_by="Ann")
    note = Note("Bob", lacks=("Plum", "Rope"))
    said = {}
    for language in ("fi", "ru", "ja"):
        with i18n.speaking(language):
            said[language] = describe(asked) + " | " + statement(note)
    for language in ("fi", "ru"):
        assert "Plum, Rope, Hall" in said[language] and "Cid, Dee" in said[language]
        assert "(Plum, Rope)" in said[language]
    assert "Plum、Rope、Hall" in said["ja"] and "Cid、Dee" in said["ja"], said["ja"]
    assert "(Plum、Rope)" in said["ja"] and ", " not in said["ja"], said["ja"]
    log = str(ROOT / "examples" / "classic-four-players-notes.json")
    assert main(["accuse", log, "Plum", "Candlestick", "Study", "--upto", "10",
                 "--lang", "ja"]) == 0
    alternatives = capsys.readouterr().out.splitlines()[2:]
    assert alternatives and all("、" in line and ", " not in line for line in alternatives)
    assert main(["analyze", log, "--upto", "10", "--lang", "ja"]) == 0
    still = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")
             and "、" in line]
    assert still and not any(", " in line for line in still)


def test_japanese_log_record_and_entry_are_told_apart() -> None:
    """The Log tab, the Record button and an entry in the log all read 記録 in Japanese (a
    play-through): "tap the entry in 記録" and "press 記録する to add a 記録" could not be told
    apart. The tab is ログ, the button 記録する and an entry 記入; ログ is said only of the log."""
    ja = i18n.translations("ja").gettext
    tab, button, entry = ja("Log"), ja("Record"), ja("event")
    words = {"tab": tab, "button": button, "entry": entry}
    overlapping = [(a, b) for a in words for b in words
                   if a != b and words[a] in words[b]]
    assert not overlapping, overlapping
    about_the_log = [message.id for message in _catalog("ja") if message.id
                     and tab in str(message.string)
                     and not re.search(r"\blogs?\b", str(message.id), re.I)]
    assert not about_the_log, about_the_log
