"""The app's language: the browser's on the first visit, switched in one tap on every screen,
kept per browser by a cookie, and independent of the edition (a Finn may play the US box).

Every run starts with `choose`, which makes `solver.i18n` speak the session's language; the
screens then ask for their words with ``_``/``ngettext`` as the engine does.
"""

from __future__ import annotations

import json

import streamlit as st

from solver import i18n

from .cookies import write_cookie
from .reader import OWN_CHIPS, READER_CSS

COOKIE = "clue_notebook_lang"
"""The cookie that holds this browser's language."""

state = st.session_state


def _session_language() -> str:
    """The session's language where a callback runs before `choose` (a fresh thread)."""
    try:
        lang = state.get("lang")
    except Exception:  # no session: a script or test outside the app
        return "en"
    return lang if lang in i18n.LANGUAGES else "en"


i18n.fall_back_on(_session_language)


def from_browser() -> str | None:
    """The first of the browser's languages that the notebook speaks: ``navigator.language``
    (Streamlit's ``st.context.locale``), then the ``Accept-Language`` list."""
    found = i18n.supported(st.context.locale)
    if found:
        return found
    header = st.context.headers.get("Accept-Language") or ""
    for part in header.split(","):
        found = i18n.supported(part.split(";")[0].strip())
        if found:
            return found
    return None


def choose() -> str:
    """This session's language (the cookie's, else the browser's, else English), in use."""
    if state.get("lang") not in i18n.LANGUAGES:
        state.lang = i18n.supported(st.context.cookies.get(COOKIE)) or from_browser() or "en"
    i18n.use(state.lang)
    return str(state.lang)


def _switched() -> None:
    picked = state.get("lang_pick")
    if picked in i18n.LANGUAGES:
        state.lang = picked
        i18n.use(picked)
        relabel()
    else:
        state.lang_pick = state.lang  # a second tap on the language in use keeps it


RELABELLED = ("new_edition", "new_me")
"""The keys of the select boxes whose options are drawn in the app's language: the card sets'
titles, "Nobody (spectator)" (`notebook_app.screens.home`); the dealing rules' box has a key
of its own per card set and table size, starting `RULE_BOX`."""
RULE_BOX = "new_rule_"


def relabel() -> None:
    """A select box keeps the words its choice was drawn in when only the language changes
    (Streamlit's box redraws its text when its value is sent, and the value is the same): in
    English the Cards box still read "Clue (USA, klassinen painos)" after a switch from Finnish
    (a phone play-through). Each box's own value, given to it again, is sent in the new words;
    a box drawn late takes the same value as its own."""
    for key in [k for k in state if k in RELABELLED or str(k).startswith(RULE_BOX)]:
        if state[key] is not None:  # (given None, a box shows no choice)
            state[key] = state[key]


def switcher() -> None:
    """The language switch: one tap on a language's own name, on every screen."""
    state.lang_pick = state.lang
    st.segmented_control(  # the label (hidden) is what a screen reader says; with a key, a
        i18n.gettext("Language"), i18n.LANGUAGES, key="lang_pick",  # new label keeps the widget
        format_func=i18n.NAMES.__getitem__, on_change=_switched, label_visibility="collapsed",
    )
    remember()


def remember() -> None:
    """Write the language into this browser's cookie once it is not the one the session started
    with, and from then on (``lang_written``): switched back, the cookie written meanwhile
    says otherwise. Drawn on every run, in the same place, so a run cut short by the next tap
    still writes it (the browser runs it once, when it first shows it)."""
    lang = state.lang
    if st.context.cookies.get(COOKIE) == lang and not state.get("lang_written"):
        return
    state.lang_written = True
    write_cookie(COOKIE, lang)


UPLOADER = '[data-testid="stFileUploaderDropzone"]'


def css_text(text: str) -> str:
    """``text`` as a CSS string.

    >>> print(css_text('a "b" <c>'))
    "a \\"b\\" \\3c c>"
    """
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ")
    return f'"{escaped.replace(chr(10), " ")}"'


def uploader_words() -> None:
    """Streamlit writes its file uploader's button and size limit in English only: in the
    other languages ours are drawn in their place (the original text at size 0, ours after)."""
    if i18n.current() == "en":
        return
    button = i18n.gettext("Choose a file")
    limit = i18n.gettext("at most {size} MB per file · JSON, CLUE, TXT").format(
        size=st.get_option("server.maxUploadSize"))
    st.html(
        "<style>"
        f"{UPLOADER} button p, {UPLOADER} [data-testid='stFileUploaderDropzoneInstructions'] span"
        " {font-size: 0;}"
        f"{UPLOADER} button p::after {{content: {css_text(button)}; font-size: 14px;}}"
        f"{UPLOADER} [data-testid='stFileUploaderDropzoneInstructions'] span::after"
        f" {{content: {css_text(limit)}; font-size: 14px;}}"
        "</style>"
    )


HINT = '[data-testid="InputInstructions"] > span:first-child:not(:last-child)'
"""The "Press Enter to apply" hint of a text box being edited: the first of two parts, the
other being the character count of a box with ``max_chars`` (a box's count alone, before an
edit, is figures only)."""
HINT_ALONE = '[data-testid="InputInstructions"] > span:only-child'
"""The hint of a box without a count (`UNCOUNTED`, and every number box)."""
UNCOUNTED = {"paste_game": True, "paste_turns": True, "new_suspects": True, "new_weapons": True,
             "new_rooms": True, "new_players": True, "new_title": False, "n_text": False}
"""The keys of the text boxes without ``max_chars``, whose hint is their only part, and whether
each is a text area (applied with Ctrl+Enter). None has it: a paste longer than it was dropped
whole (`notebook_app.typed`)."""
STATUS = '[data-testid="stStatusWidget"]:has([data-testid="stStatusWidgetRunningIcon"]) button'
"""The Stop button beside the running figure while a page is being worked out."""
def words_instead(selector: str, text: str, size: str) -> str:
    """CSS that hides the text of what ``selector`` finds and draws ``text`` in its place."""
    return (f"{selector} {{font-size: 0;}}"
            f"{selector}::after {{content: {css_text(text)}; font-size: {size};}}")


def tapped_hint() -> str:
    """CSS that, on a touch screen (a coarse pointer), has a text area's hint say what applies
    it there, in every language: Streamlit's "Press Ctrl+Enter to apply" means nothing on a
    phone, whose players box took its names only once the player tapped outside it (seen in
    two phone play-throughs). A one-line box's Enter is on the phone's keyboard."""
    tap = i18n.gettext("Tap outside the box to apply")
    return ("@media (pointer: coarse) {"
            + words_instead(f".stTextArea {HINT}", tap, "12px")
            + "".join(words_instead(f".st-key-{key} {HINT_ALONE}", tap, "12px")
                      for key, in_area in UNCOUNTED.items() if in_area)
            + "}")


def streamlit_words() -> None:
    """Words Streamlit draws in English only, in the other languages drawn from the catalog:
    a text or number box's key hint while it is edited and the Stop button of the running figure
    (the grid's own menus are not shown: `notebook_app.screens.grid`); on a touch screen, a text
    area's hint in every language (`tapped_hint`)."""
    if i18n.current() == "en":
        st.html(f"<style>{tapped_hint()}</style>")
        return
    agent = st.context.headers.get("User-Agent") or ""
    keys = "⌘" if "Macintosh" in agent else "Ctrl"  # as Streamlit tells a Mac (iPads too)
    area = i18n.gettext("Press {keys}+Enter to apply").format(keys=keys)
    line = i18n.gettext("Press Enter to apply")
    st.html(
        "<style>"
        + words_instead(f".stTextArea {HINT}", area, "12px")
        + "".join(words_instead(f".st-key-{key} {HINT_ALONE}", area if in_area else line,
                                "12px") for key, in_area in UNCOUNTED.items())
        + words_instead(f".stTextInput {HINT}", line, "12px")
        + words_instead(f".stNumberInput {HINT_ALONE}", line, "12px")  # a number box has no
        # count: the hand sizes said it in English
        + words_instead(f"{STATUS}:enabled", i18n.gettext("Stop"), "14px")
        + words_instead(f"{STATUS}:disabled", i18n.gettext("Stopping…"), "14px")
        + words_instead(SKIP, i18n.gettext("Skip to main content"), "14px")
        + tapped_hint()  # (after the hints above: it takes their place on a touch screen)
        + "</style>"
    )


SKIP = '[data-testid="stSkipToContent"]'
"""The link a keyboard or screen reader user meets first (shown only when focused)."""
NAMED = ((SKIP, i18n.N_("Skip to main content")), (f"{UPLOADER} button", i18n.N_("Choose a file")),
         ('[data-testid="stFileUploaderDropzoneInput"]', i18n.N_("Choose a file")))
"""What the app draws in place of Streamlit's English (`streamlit_words`, `uploader_words`),
by CSS over the English text, with the words a screen reader should say for it."""
LABELS = (i18n.N_("Help"), i18n.N_("Close"), i18n.N_("Open"), i18n.N_("Copy to clipboard"),
          i18n.N_("Main menu"), i18n.N_("Increment"), i18n.N_("Decrement"),
          i18n.N_("Link to heading"), i18n.N_("Copied"))
"""The labels (``aria-label``) Streamlit gives, in English only, to the parts of our widgets a
screen reader names: a help mark, the dialog's close button, a select box's arrow, a code box's
copy button (and what it says once it has copied), the app menu, a number box's steppers, a
heading's link."""
HELP_FOR = "Help for "
"""The start of the label of a widget's help mark, the widget's label following."""
READER_WORDS = """<script>
(() => {
  const words = %s, helpFor = %s, named = %s, attributes = ['aria-label', 'title'];
  const written = window.clueWritten ??= new WeakMap();  // element -> {attribute: [English, ours]}
  const say = (el, attribute) => {
    const now = el.getAttribute(attribute);
    if (now === null) return;
    const record = written.get(el) ?? {}, [english, ours] = record[attribute] ?? [];
    const label = now === ours ? english : now;  // else Streamlit wrote a new English label
    let translated = words[label];
    if (translated === undefined && label.startsWith('Help for '))
      translated = helpFor.replace('{label}', label.slice('Help for '.length));
    if (translated === undefined) return;
    record[attribute] = [label, translated];
    written.set(el, record);
    if (now !== translated) el.setAttribute(attribute, translated);
  };
  const label = (el, ours) => { if (el.getAttribute('aria-label') !== ours)
    el.setAttribute('aria-label', ours); };
  const name = node => named.forEach(([selector, ours]) => {  // what we draw over English
    if (node.matches(selector)) label(node, ours);
    node.querySelectorAll(selector).forEach(el => label(el, ours));
  });
  const all = node => { attributes.forEach(attribute => {
    if (node.hasAttribute(attribute)) say(node, attribute);
    node.querySelectorAll(`[${attribute}]`).forEach(el => say(el, attribute));
  }); name(node); };
  window.clueReaderWords?.disconnect();
  window.clueReaderWords = new MutationObserver(changes => changes.forEach(change => {
    if (change.type === 'attributes') { say(change.target, change.attributeName);
                                        name(change.target); }
    else change.addedNodes.forEach(node => { if (node.nodeType === 1) all(node); });
  }));
  window.clueReaderWords.observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: attributes});
  all(document.body);
})();
</script>"""
"""Puts the catalog's words in place of Streamlit's English ``aria-label`` s and ``title`` s
(the tooltip of a code box's copy button), now and whenever Streamlit draws them again; a
switch of language translates them anew, back to English too."""


PAGE_LANGUAGE = """<script>document.documentElement.lang = %s;</script>
<style>html:lang(ja) body, html:lang(ja) body * {word-break: auto-phrase;}</style>"""
"""The page's language is the app's (Streamlit's page says ``lang="en"`` whatever its words): a
screen reader reads the words with that language's voice, and Chromium breaks Japanese lines
between phrases (``auto-phrase``, had only by a page in Japanese; set on every element, as
Streamlit's text has ``word-break: break-word`` of its own), never inside a word: lines
broke inside the katakana of card and player names ("ミス・スカーレッ|ト", a phone
play-through)."""


def screen_reader_words() -> None:
    """The labels screen readers say for Streamlit's own parts of our widgets (`LABELS`, a help
    mark's "Help for ..."), in the session's language; CSS cannot change an attribute, so a
    small script does. What the app draws over Streamlit's English (`NAMED`) is named by our
    words too: a screen reader read the English, hidden at size 0, run into ours.
    The same script tells them which chip takes no tap (`OWN_CHIPS`), and the style that
    keeps what only they read out of sight comes with it (`READER_CSS`), and the page's
    language (`PAGE_LANGUAGE`)."""
    words = {label: i18n.gettext(label) for label in LABELS}
    named = [] if i18n.current() == "en" else [[selector, i18n.gettext(text)]
                                               for selector, text in NAMED]
    st.html(READER_WORDS % (json.dumps(words, ensure_ascii=False),
                            json.dumps(i18n.gettext("Help for {label}"), ensure_ascii=False),
                            json.dumps(named, ensure_ascii=False)) + OWN_CHIPS + READER_CSS
            + PAGE_LANGUAGE % json.dumps(i18n.current()),
            unsafe_allow_javascript=True)
