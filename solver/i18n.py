"""The notebook in the players' languages: English in the source, Finnish, Russian and Japanese
in gettext catalogs (``solver/locale/LANG/LC_MESSAGES/clue_notebook.po``, kept with Babel).

Every sentence is one message with named placeholders, never English-order fragments glued
together; counts go through `ngettext` (Russian has three forms). The catalogs are read from the
``.po`` files when a language is first used, so a fresh clone needs no compile step. English
needs no catalog at all: its text is the message ids themselves.

>>> said = say_n("You hold {count} card and {possible}", "You hold {count} cards and {possible}",
...               5, count=5, possible="…")
>>> said.render("en"), "5 карт" in said.render("ru")
('You hold 5 cards and …', True)
>>> say("{player} showed {card}", player="Veera", card="köysi").render("ja")
'Veeraがköysiを見せた'

`say` and `say_n` build a `Message`, a sentence kept unrendered (the explanations are derived
once and read in any language). Names of cards and players are never translated: they are
placeholders' values.
"""

import gettext as _gettext
import io
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import NamedTuple

DOMAIN = "clue_notebook"
"""The gettext domain: the catalogs' file name."""
LANGUAGES = ("en", "fi", "ru", "ja")
"""Every language the notebook speaks, English (the source) first."""
NAMES = {"en": "English", "fi": "Suomi", "ru": "Русский", "ja": "日本語"}
"""Each language's name in itself, for a language switch."""
LOCALE_DIR = Path(__file__).parent / "locale"

_current: ContextVar[str | None] = ContextVar("language", default=None)


def _english() -> str:
    return "en"


_fallback: Callable[[], str] = _english


def fall_back_on(language: Callable[[], str]) -> None:
    """Where the language comes from in a thread or task that has not chosen one: the app
    points it at the session (Streamlit runs a page's callbacks on a fresh thread)."""
    global _fallback
    _fallback = language


def supported(code: str | None) -> str | None:
    """The notebook's language for a locale code (``fi_FI.UTF-8``, ``ru-RU``, ``ja``), or ``None``.

    >>> supported("fi_FI.UTF-8"), supported("ja-JP"), supported("C"), supported("de")
    ('fi', 'ja', None, None)
    """
    if not code:
        return None
    base = code.replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    return base if base in LANGUAGES else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language gettext would pick: ``LANGUAGE`` (a list), ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``; the first one set decides, English when it names none of ours (``C``, ``de``).

    >>> from_environment({"LANG": "ru_RU.UTF-8"}), from_environment({"LC_ALL": "C", "LANG": "fi"})
    ('ru', 'en')
    """
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if not value:
            continue
        if name == "LANGUAGE":
            found = next((lang for part in value.split(":") if (lang := supported(part))), None)
            if found:
                return found
            continue
        return supported(value) or "en"
    return "en"


def use(language: str) -> None:
    """Speak ``language`` from now on (in this thread or task: each app session has its own)."""
    if language not in LANGUAGES:
        raise ValueError(f"language: {language!r} is not one of {', '.join(LANGUAGES)}")
    _current.set(language)


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Speak ``language`` inside the ``with`` block, then go back to the language before."""
    if language not in LANGUAGES:
        raise ValueError(f"language: {language!r} is not one of {', '.join(LANGUAGES)}")
    token = _current.set(language)
    try:
        yield
    finally:
        _current.reset(token)


def current() -> str:
    """The language in use."""
    return _current.get() or _fallback()


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The catalog of ``language``, read from its ``.po`` file (English: the ids themselves)."""
    if language == "en":
        return _gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as file:
        catalog = read_po(file, locale=language, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return translations(current()).gettext(message)


_ = gettext


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs where it is defined; translate it with ``_`` on use."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message that fits ``n`` in the current language."""
    return translations(current()).ngettext(singular, plural, n)


def percent_said(chance: float, *, undecided: bool | None = None,
                 language: str | None = None) -> str:
    """A chance in whole percent, never "0%" or "100%" for what is neither impossible nor
    certain (a 12-player envelope at the start is 0.05%: "right 0%" read as a slip).
    ``undecided``: whether it is, whatever the figure (a sampled grid cell may read 0); by
    default, whether the chance is strictly between 0 and 1. Written as ``language`` (default:
    the current one) writes it (`local_figures`).

    >>> [percent_said(p) for p in (0, 0.001, 0.37, 0.996, 1)]
    ['0%', '<1%', '37%', '>99%', '100%']
    >>> percent_said(0, undecided=True), percent_said(0.37, language="ru")
    ('<1%', '37\xa0%')
    """
    value = round(100 * chance)
    if undecided is None:
        undecided = 0 < chance < 1
    if undecided and value < 1:
        text = "<1%"
    elif undecided and value > 99:
        text = ">99%"
    else:
        text = f"{value}%"
    return local_figures(text, language)


def local_figures(figures: str, language: str | None = None) -> str:
    """Figures written with ``.`` and ``%`` (as English writes them) as ``language`` (default:
    the current one) writes them: its decimal sign, and the space before ``%`` where it puts
    one (a no-break space, as CLDR does): "38,5 %" in Finnish and Russian, "38.5%" in English
    and Japanese.

    >>> local_figures(" 38.5% ± 0.8", "fi"), local_figures("38.5%", "ja")
    (' 38,5\xa0% ± 0,8', '38.5%')
    """
    lang = language or current()
    if lang == "en":
        return figures
    decimal, spaced = _number_signs(lang)
    figures = figures.replace(".", decimal)
    return figures.replace("%", "\xa0%") if spaced else figures


@cache
def _number_signs(language: str) -> tuple[str, bool]:
    """``language``'s decimal sign, and whether it puts a space before ``%`` (CLDR's, by
    Babel)."""
    from babel import Locale
    from babel.numbers import get_decimal_symbol

    spaced = "\xa0%" in str(Locale.parse(language).percent_formats[None].pattern)
    return get_decimal_symbol(language), spaced


class Chance(NamedTuple):
    """A chance kept as a figure (`percent_said`), written as the language a sentence is
    rendered in writes it: a sentence worked out once is read in any language."""

    chance: float
    undecided: bool | None = None

    def render(self, language: str | None = None, *, start: bool = False) -> str:
        """The chance in ``language`` (default: the current one), as a `Message` renders;
        ``start`` changes nothing in a figure."""
        return percent_said(self.chance, undecided=self.undecided, language=language)


def number_said(value: int, language: str | None = None) -> str:
    """A whole number as ``language`` (default: the current one) writes it, its thousands
    apart: a comma in English and Japanese, a no-break space in Finnish and Russian (CLDR's).

    >>> number_said(2500, "en"), number_said(2500, "fi"), number_said(1_200_000, "ja")
    ('2,500', '2\xa0500', '1,200,000')
    """
    lang = language or current()
    if lang == "en":
        return f"{value:,}"
    from babel.numbers import format_decimal

    return format_decimal(value, locale=lang)


class Message(NamedTuple):
    """A sentence kept unrendered: its English id, its plural (if counted) and its arguments."""

    msgid: str
    args: tuple[tuple[str, "Arg"], ...] = ()
    plural: str | None = None
    n: int = 1

    def render(self, language: str | None = None, *, start: bool = False) -> str:
        """The sentence in ``language`` (default: the current one). With ``start`` its first
        letter is a capital, unless it begins with a name (names are never changed)."""
        lang = language or current()
        catalog = translations(lang)
        if self.plural is None:
            text = catalog.gettext(self.msgid)
        else:
            text = catalog.ngettext(self.msgid, self.plural, self.n)
        first = _leading_field(text)
        out = text.format(**{name: _render(value, lang, start and name == first)
                             for name, value in self.args})
        if start and first is None:
            out = out[:1].upper() + out[1:]
        return out

    def __str__(self) -> str:
        return self.render()

    def with_arg(self, name: str, value: "Arg") -> "Message":
        """The same sentence with one argument replaced."""
        args = tuple((k, value if k == name else v) for k, v in self.args)
        return Message(self.msgid, args, self.plural, self.n)

    def arg(self, name: str) -> "Arg | None":
        """One argument's value."""
        return dict(self.args).get(name)


class Listing(NamedTuple):
    """Items joined the way the language joins a list: "a, b and c", "a, b ja c", "a、b、c"."""

    items: tuple["Arg", ...]
    conjunction: str = "and"
    """``"and"``, ``"or"``, ``","`` (clauses one after another), ``";"``, or ``"."``: statements
    one after another, each of which could stand as a line of its own ("a; b", "a。b")."""
    enclosed: bool = False
    """In brackets, as a group of cards: "(Plum, Rope, Hall)"."""

    def render(self, language: str | None = None, *, start: bool = False) -> str:
        lang = language or current()
        items = [_render(item, lang, start and i == 0) for i, item in enumerate(self.items)]
        if self.enclosed:
            return "(" + Listing(tuple(items), self.conjunction).render(lang) + ")"
        if self.conjunction == ",":
            return list_said(items, lang)
        if self.conjunction == ";":
            return ("\uff1b" if lang == "ja" else "; ").join(items)
        if self.conjunction == ".":
            return ("。" if lang == "ja" else "; ").join(items)
        return join(items, lang, self.conjunction)

    def lines(self, language: str | None = None) -> list[str]:
        """Each item on a line of its own, begun as a sentence is (a ``"."`` list on screen)."""
        lang = language or current()
        return [_render(item, lang, True) for item in self.items]


Arg = str | int | Message | Listing | Chance
"""A placeholder's value: a name or number as is, or a clause (or a chance) rendered in the same
language."""


def join(items: Sequence[str], language: str | None = None, conjunction: str = "and") -> str:
    """A list in ``language``: English keeps the notebook's own "a, b and c" (no serial comma).

    >>> join(["a", "b", "c"], "en"), join(["a", "b", "c"], "fi"), join(["a", "b"], "ja", "or")
    ('a, b and c', 'a, b ja c', 'aまたはb')
    """
    lang = language or current()
    if len(items) <= 1:
        return "".join(items)
    if lang == "en":
        return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]
    from babel.lists import format_list

    return format_list(list(items), style="standard" if conjunction == "and" else "or",
                       locale=lang)


def list_said(items: Iterable[str], language: str | None = None) -> str:
    """Names (cards, players, entry numbers) one after another, as ``language`` (default: the
    current one) separates a list's items, with no "and": "A, B, C"; Japanese "A、B、C". Every
    list of names built for display goes through here; text read back (the notation, JSON, a
    stored title) keeps its own ", ".

    >>> list_said(["Plum", "Rope", "Hall"], "fi"), list_said(["Plum", "Rope", "Hall"], "ja")
    ('Plum, Rope, Hall', 'Plum、Rope、Hall')
    """
    return _list_separator(language or current()).join(items)


@cache
def _list_separator(language: str) -> str:
    """What comes between two items of a list in ``language``: CLDR's, by Babel (the middle of
    its standard list; Babel's styles without "and" are missing or broken for some of ours)."""
    if language == "en":
        return ", "
    from babel import Locale

    return str(Locale.parse(language).list_patterns["standard"]["middle"]).format("", "")


def _render(value: Arg, language: str, start: bool = False) -> str:
    if isinstance(value, Message | Listing | Chance):
        return value.render(language, start=start)
    return str(value)


def _leading_field(text: str) -> str | None:
    """The placeholder a text begins with, if it begins with one."""
    import string  # only to render a sentence, not at every start-up

    for literal, name, _spec, _conversion in string.Formatter().parse(text):
        return name if not literal else None
    return None


def say(msgid: str, /, **args: Arg) -> Message:
    """A sentence to render later, in whatever language is then asked for."""
    return Message(msgid, tuple(args.items()))


def say_n(singular: str, plural: str, n: int, /, **args: Arg) -> Message:
    """A counted sentence to render later; ``n`` picks the plural form."""
    return Message(singular, tuple(args.items()), plural, n)
