"""The app in each of its languages, in a real headless Chromium at phone size (390x844): the
browser's language picks the app's on the first visit; a game is set up and a few turns are
played with the labels of that language's catalog; nothing scrolls sideways and no text is cut
off (the grid, drawn on a canvas, is read from its pixels: no card name reaches the edge of its
column); the grid shows no English toolbar or column menu and a tap on a cell explains it; one
tap switches the language and a reload keeps it (cookie). Japanese needs a CJK font:
``scripts/_bootstrap.sh`` installs Debian's ``fonts-noto-cjk`` with Chromium. Screenshots go to
``test-artifacts/`` as ``i18n-<language>-<step>.png``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from notebook_app.colours import LIGHT
from notebook_app.language import LABELS
from solver.editions import edition as find_edition
from solver.i18n import NAMES, _, speaking
from tests.phone import PHONE, after, frames, new_page, poll, settle, shot

pytestmark = pytest.mark.browser

OVERFLOW = """() => {
  const found = [];
  const width = window.innerWidth;
  const main = document.querySelector('[data-testid="stMain"]');
  if (document.documentElement.scrollWidth > width + 1 || main.scrollWidth > main.clientWidth + 1)
    found.push('the page scrolls sideways');
  for (const el of main.querySelectorAll('*')) {
    const text = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!text || el.closest('.clue-reader-only')) continue;  // (for screen readers, unseen)
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const style = getComputedStyle(el);
    if (box.right > width + 1 || box.left < -1) {
      found.push('outside the screen: ' + el.textContent.trim().slice(0, 60));
    } else if (el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'visible'
               && style.webkitLineClamp === 'none') {  // (clamped: cut to "…" on purpose)
      found.push('cut off: ' + el.textContent.trim().slice(0, 60));
    }
  }
  for (const input of main.querySelectorAll('input[placeholder]')) {  // a hint whole
    const style = getComputedStyle(input);
    const pen = document.createElement('canvas').getContext('2d');
    pen.font = style.font;
    const room = input.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight);
    if (!input.value && pen.measureText(input.placeholder).width > room + 1)
      found.push('placeholder cut off: ' + input.placeholder.slice(0, 60));
  }
  for (const key of ['lang_pick', 'view', 'kind']) {  // the switches keep to one row
    const tops = [...document.querySelectorAll(`.st-key-${key} button`)]
      .map(b => Math.round(b.getBoundingClientRect().top));
    const rows = new Set(tops).size;
    if (rows > 1) found.push(`the ${key} switch wraps onto ${rows} rows`);
  }
  return found;
}"""

DRAWN = """(selector) => {  // what Streamlit wrote there, its size, and what is drawn after it
  const el = document.querySelector(selector);
  if (!el) return null;
  return [el.textContent, getComputedStyle(el).fontSize,
          getComputedStyle(el, '::after').content, el.getBoundingClientRect().right];
}"""

HINT = '.st-key-{key} [data-testid="InputInstructions"] > span:first-child'

CUT_NAMES = """(colours) => {  // the grid is drawn on a canvas: read its Card column's pixels
  // the edge of the Card column in each row is where an owner cell's colour starts; a name that
  // fits leaves the last pixels before that edge blank (the cell's padding), a cut one has ink
  // there
  const grid = document.querySelector('.st-key-notebook_grid [data-testid="stDataFrame"]');
  const canvas = [...grid.querySelectorAll('canvas')].find(c => c.width > 0);
  const scale = canvas.width / canvas.getBoundingClientRect().width;
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  const {width, height} = canvas;
  const data = ctx.getImageData(0, 0, width, height).data;
  const at = (x, y) => { const i = 4 * (y * width + x); return [data[i], data[i+1], data[i+2]]; };
  const owners = colours.map(
    h => [1, 3, 5].map(i => parseInt(h.slice(i, i + 2), 16)));
  const isOwner = p => owners.some(o => o.every((v, i) => Math.abs(v - p[i]) <= 2));
  const header = Math.round(36 * scale), row = 28 * scale;
  const rows = Math.floor((height - header) / row);
  const cut = [], edges = new Set();
  for (let r = 0; r < rows; r++) {
    const top = header + Math.round(r * row), y = top + Math.round(row / 2);
    let edge = 0;
    const run = x => [0, 1, 2, 3, 4, 5].every(d => x + d < width && isOwner(at(x + d, y)));
    while (edge < width && !run(edge)) edge++;
    if (edge === width) continue;
    edges.add(Math.round(edge / scale));
    const paper = at(Math.round(3 * scale), y);
    let ink = 0;
    for (let yy = top + 2; yy < top + row - 2; yy++)
      for (let x = edge - Math.round(5 * scale); x < edge - Math.round(1.5 * scale); x++) {
        const p = at(x, yy);
        if (p.reduce((sum, v, i) => sum + Math.abs(v - paper[i]), 0) > 60) ink++;
      }
    if (ink) cut.push(r);
  }
  return {rows, edges: [...edges], cut};
}"""
"""Where the grid's Card column ends (CSS pixels, one figure when every row agrees) and the rows
(0 = the first under the header) whose text reaches that edge: a cut name."""
COLOURS = [re.search("#[0-9a-f]{6}", style).group()  # type: ignore[union-attr]
           for style in LIGHT.styles()]
"""The backgrounds of the owner cells (`notebook_app.colours`, the light scheme the tests'
Chromium shows)."""

ENGLISH_LABELS = """(labels) => [...document.querySelectorAll('[aria-label]')]
  .filter(e => e.checkVisibility()).map(e => e.getAttribute('aria-label'))
  .filter(label => labels.includes(label) || label.startsWith('Help for '))"""
"""The screen-reader labels on the screen that are still Streamlit's English."""

RUNNING = """(stopping) => {  // Streamlit 1.67's running figure and Stop button, as it draws them
  const widget = document.createElement('div');
  widget.dataset.testid = 'stStatusWidget';
  widget.innerHTML = '<div><div data-testid="stStatusWidgetRunningIcon" role="img"></div>'
    + '<span><button kind="header">' + (stopping ? 'Stopping...' : 'Stop')
    + '</button></span></div>';
  widget.querySelector('button').disabled = stopping;
  document.body.append(widget);
  const button = widget.querySelector('button');
  const found = [getComputedStyle(button).fontSize, getComputedStyle(button, '::after').content];
  widget.remove();
  return found;
}"""

GAMES = {
    "en": ("en-US", "clue-classic", ("Miss Scarlet", "Rope", "Kitchen"),
           ("Mrs. White", "Knife", "Lounge"), ("Mr. Green", "Candlestick", "Library")),
    "fi": ("fi-FI", "cluedo-refresh-2012-fi",
           ("Marjaana Punakulta", "köysi", "veranta", "pelihuone"),
           ("Aino Valkopesu", "tikari", "autotalli"),
           ("Juhani Viherlevä", "kynttilänjalka", "työhuone")),
    "ru": ("ru-RU", "cluedo-classic-ru", ("Мисс Скарлет", "Верёвка", "Кухня"),
           ("Миссис Уайт", "Кинжал", "Гостиная"), ("Преподобный Грин", "Подсвечник", "Библиотека")),
    "ja": ("ja-JP", "clue-classic-ja", ("ミス・スカーレット", "ロープ", "キッチン"),
           ("ホワイト夫人", "短剣", "ラウンジ"), ("ミスター・グリーン", "燭台", "図書室")),
}


SLOW = ("en", "ru", "fi")
"""Played in the browser only with --runslow, to keep the suite under ten minutes: English games
are played whole elsewhere (the twenty turns, the reload), and every language's screens are
checked without a browser (`test_i18n_screens.py`); Japanese (no spaces, wide glyphs, the
layout most likely to break on a phone) is played here by default."""


@pytest.mark.parametrize("language", [
    pytest.param(language, marks=pytest.mark.slow) if language in SLOW else language
    for language in GAMES])
def test_a_game_in_each_language(
    language: str, app_url: str, chromium_executable: str,
    chromium_args: list[str], artifacts_dir: Path,
) -> None:
    from playwright.sync_api import Locator, Page, expect, sync_playwright

    locale, edition, mine, first, second = GAMES[language]  # Refresh: 4 cards each, 2 face up

    def t(message: str) -> str:
        with speaking(language):
            return _(message)

    def check_fits(page: Page, step: str) -> None:
        shot(page, artifacts_dir / f"i18n-{language}-{step}.png")  # back at the phone's size
        problems = page.evaluate(OVERFLOW)
        assert not problems, f"{language} {step}: {problems}"
        english_labels(page, step)

    def english_labels(page: Page, step: str) -> None:
        if language != "en":
            found = page.evaluate(ENGLISH_LABELS, list(LABELS))
            assert not found, f"{language} {step}: English screen-reader labels {found}"

    def tap(page: Page, label: str, option: str) -> None:
        chip = page.get_by_role("radiogroup", name=label).get_by_role("radio", name=option,
                                                                      exact=True)
        if chip.get_attribute("aria-checked") != "true":
            after(page, chip.click)

    def record(page: Page, by: str, cards: tuple[str, str, str], shown_by: str) -> None:
        tap(page, t("Who suggested"), by)
        for label, card in zip(("Suspect", "Weapon", "Room"), cards, strict=True):
            tap(page, t(label), card)
        tap(page, t("Who showed a card"), shown_by)
        after(page, page.get_by_role("button", name=t("Record"), exact=True).click)

    def drawn_instead(page: Page, selector: str, english: str, ours: str) -> None:
        """Streamlit's English words at ``selector`` are hidden and the catalog's drawn."""
        found = poll(page, lambda: page.evaluate(DRAWN, selector), bool)  # drawn as typed
        assert found is not None, f"{language}: nothing at {selector}"
        written, size, drawn, right = found
        assert written == english  # the hint, not the character count
        if language == "en":
            assert drawn == "none"
        else:
            assert (size, drawn) == ("0px", f'"{ours}"'), f"{language} {selector}: {found}"
            assert right <= 390

    def grid_is_a_notebook_page(page: Page) -> None:
        """Every card name whole, the owners beside the names without scrolling, no English
        toolbar or column menu, and a cell tap still explains the cell."""
        grid = page.locator('.st-key-notebook_grid [data-testid="stDataFrame"]')
        expect(grid.locator("canvas").first).to_be_visible()
        found = poll(page, lambda: page.evaluate(CUT_NAMES, COLOURS),  # drawn a moment later
                     lambda found: found["rows"] == 24 and len(found["edges"]) == 1)
        assert found["rows"] == 24 and len(found["edges"]) == 1, f"{language}: {found}"
        assert not found["cut"], f"{language}: card names cut in rows {found['cut']}"
        scroller = grid.locator(".dvn-scroller")
        assert scroller.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), language
        expect(grid.locator('[data-testid="stElementToolbar"]')).to_be_hidden()
        box = grid.bounding_box()
        assert box is not None
        for x in (20, found["edges"][0] + 20, box["width"] - 20):  # Card, a player, Env
            page.mouse.move(box["x"] + x, box["y"] + 18)
            page.mouse.click(box["x"] + x, box["y"] + 18)
            frames(page)  # a menu would be drawn by now
            expect(page.locator('[data-testid="stDataFrameColumnMenu"]')).to_have_count(0)
        after(page, lambda: page.mouse.click(box["x"] + found["edges"][0] + 15,
                                             box["y"] + 36 + 28 + 14))
        dialog = page.get_by_role("dialog")
        expect(dialog).to_contain_text(t("Why this cell?"))
        expect(dialog).to_contain_text(mine[0])  # the first suspect's row, the player's card
        page.screenshot(path=artifacts_dir / f"i18n-{language}-5-explained.png")
        english_labels(page, "5-explained")  # the dialog's close button
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0)

    def button(page: Page, text: str) -> Locator:
        """The chip or tab that says ``text``."""
        return page.locator('[data-testid="stButtonGroup"] button', has_text=text)

    def tab(page: Page, name: str) -> None:
        after(page, button(page, t(name)).click)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        context = browser.new_context(viewport=PHONE, locale=locale)
        page = new_page(context)
        page.goto(app_url)
        expect(page.get_by_text(t("New game"), exact=True)).to_be_visible(timeout=30000)
        check_fits(page, "1-home")
        pasting = new_page(context)  # a box without a count: its hint alone, translated too
        pasting.goto(app_url)
        settle(pasting)
        pasting.get_by_role("textbox", name=t("Paste a game in notation")).fill("players: Ann 9")
        with speaking(language):
            hint = _("Press {keys}+Enter to apply").format(keys="Ctrl")
        drawn_instead(pasting, HINT.format(key="paste_game"), "Press Ctrl+Enter to apply", hint)
        typed = pasting.get_by_label(t("Players in seating order (clockwise)"))
        typed.fill("Ann\nBob\nCat")
        after(pasting, lambda: typed.press("Control+Enter"))
        pasting.locator('[data-testid="stExpander"] summary').first.click()
        pasting.get_by_role("spinbutton", name="Ann").fill("5")  # a hand size: a number box's
        drawn_instead(pasting, '.stNumberInput [data-testid="InputInstructions"] > span',  # hint
                      "Press Enter to apply", t("Press Enter to apply"))
        pasting.close()
        with speaking(language):  # the English boxes' titles are translated, the rest kept
            us_title = find_edition("clue-classic").shown_title
            own_title = find_edition(edition).shown_title
        assert (us_title == "Clue (US, classic box)") == (language == "en")
        cards = page.get_by_role("combobox", name=t("Cards"))
        expect(cards).to_have_value(own_title)  # the language's own box, from the start
        cards.click()
        expect(page.get_by_role("option", name=us_title, exact=True)).to_be_visible()
        page.keyboard.press("Escape")
        for stopping, word in ((False, "Stop"), (True, "Stopping…")):
            size, drawn = page.evaluate(RUNNING, stopping)
            if language != "en":
                assert (size, drawn) == ("0px", f'"{t(word)}"'), (language, word)

        players = page.get_by_label(t("Players in seating order (clockwise)"))
        players.fill("Ann\nBob\nCat\nDan")
        with speaking(language):
            hint = _("Press {keys}+Enter to apply").format(keys="Ctrl")
        drawn_instead(page, HINT.format(key="new_players"), "Press Ctrl+Enter to apply", hint)
        page.screenshot(path=artifacts_dir / f"i18n-{language}-1-typing.png")
        after(page, lambda: players.press("Control+Enter"))
        for card in mine:
            after(page, button(page, card).first.click)
        if language == "fi":  # the Refresh box: 4 players leave 2 cards face up
            for card in ("putki", "kylpyhuone"):
                after(page, button(page, card).nth(1).click)
        title = page.get_by_label(t("Title (optional)"))
        title.fill("Ilta")
        drawn_instead(page, HINT.format(key="new_title"), "Press Enter to apply",
                      t("Press Enter to apply"))
        after(page, lambda: title.press("Enter"))
        check_fits(page, "2-setup")
        after(page, page.get_by_role("button", name=t("Start game")).click)
        expect(page.get_by_role("radiogroup", name=t("Who suggested"))).to_be_visible()
        check_fits(page, "3-turn")

        record(page, "Ann", first, "Bob")
        with speaking(language):
            prompt = _("Which card did {player} show you?").format(player="Bob")
        expect(page.get_by_text(prompt)).to_be_visible()
        after(page, page.get_by_role("button", name=first[1], exact=True).click)
        record(page, "Bob", second, t("Nobody"))
        check_fits(page, "4-after-two")
        kind = page.locator(".st-key-kind button", has_text=t("Note"))
        after(page, kind.click)  # a note's comment box: its hint whole (Russian's was cut)
        expect(page.get_by_placeholder(t("saw it by accident · house rule · a dropped card"))
               ).to_be_visible()
        check_fits(page, "4-note")
        after(page, page.locator(".st-key-kind button", has_text=t("Suggest")).click)

        tab(page, "Grid")
        check_fits(page, "5-grid")
        grid_is_a_notebook_page(page)
        tab(page, "Log")
        check_fits(page, "6-log")
        tab(page, "Review")
        check_fits(page, "7-review")
        assert not page.evaluate(CUT_NAMES, COLOURS)["cut"], f"{language}: a name cut in Review"
        tab(page, "Game")
        check_fits(page, "8-game")

        # one tap to another language, kept by the browser across a reload
        other = "en" if language != "en" else "fi"
        after(page, button(page, NAMES[other]).click)
        with speaking(other):
            grid_label = _("Grid")
        expect(button(page, grid_label)).to_be_visible()
        page.reload()
        expect(button(page, grid_label)).to_be_visible(timeout=30000)
        settle(page)
        after(page, button(page, NAMES[language]).click)
        expect(button(page, t("Grid"))).to_be_visible()
        context.close()
        browser.close()


NARROW = (320, 340, 360)
"""Phones narrower than the 390 px the games above are played at (360 px is common on Android)."""

ROWS = """() => Object.fromEntries(['lang_pick', 'view', 'kind'].map(key => [key,
  new Set([...document.querySelectorAll(`.st-key-${key} button`)]
    .map(b => Math.round(b.getBoundingClientRect().top))).size]))"""
"""How many rows each switch's segments take."""


def test_the_switches_keep_to_one_row_on_narrow_phones(
    app_url: str, chromium_executable: str, chromium_args: list[str], artifacts_dir: Path,
) -> None:
    """The language, screen and entry switches keep to one row in every language on phones
    down to 320 px wide (at 360 px the Finnish and Russian screen switch, and the Russian entry
    switch, took two rows)."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(viewport={"width": NARROW[0], "height": 780},
                                            locale="en-US"))
        page.goto(app_url)
        open_example = page.get_by_role("button", name="Open example", exact=True)
        expect(open_example).to_be_visible(timeout=30000)
        after(page, open_example.click)
        wrapped = []
        for language, name in NAMES.items():
            after(page, page.get_by_text(name, exact=True).click)
            expect(page.locator(".st-key-kind button").first).to_be_visible()
            for width in NARROW:
                page.set_viewport_size({"width": width, "height": 780})
                frames(page)
                rows = page.evaluate(ROWS)
                assert set(rows) == {"lang_pick", "view", "kind"}, rows
                wrapped += [f"{language} at {width} px: {key} in {n} rows"
                            for key, n in rows.items() if n != 1]
            page.screenshot(path=artifacts_dir / f"i18n-{language}-narrow.png")
        assert not wrapped, wrapped


def test_words_drawn_in_place_of_streamlits_are_what_a_screen_reader_says(
    app_url: str, chromium_executable: str, chromium_args: list[str],
) -> None:
    """The skip link and the file uploader's button, whose English Streamlit writes and the
    app draws over (`language.streamlit_words`, `language.uploader_words`), are named to a
    screen reader in the app's language alone: in Russian each was named by the hidden English
    run into ours ("Skip to main content" then "Перейти к содержимому", "Upload" then "Выбрать
    файл"; a phone play-through's page snapshot), and the uploader's input "file upload"."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(viewport=PHONE, locale="ru-RU"))
        page.goto(app_url)
        with speaking("ru"):
            skip, choose = _("Skip to main content"), _("Choose a file")
        button = page.locator('[data-testid="stFileUploaderDropzone"] button')
        expect(button).to_be_visible(timeout=30000)
        settle(page)
        expect(button).to_have_accessible_name(choose)
        expect(page.locator('[data-testid="stSkipToContent"]')).to_have_accessible_name(skip)
        upload = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
        expect(upload).to_have_accessible_name(choose)
        browser.close()


def three_players_named(browser: Any, app_url: str) -> Any:
    """A page (390 px, English) on the new-game form with Ann, Bob and Cat typed in as players
    and taken (a tap outside the box)."""
    from playwright.sync_api import expect

    page = new_page(browser.new_context(viewport=PHONE, locale="en-US"))
    page.goto(app_url)
    players = page.locator(".st-key-new_players textarea")
    expect(players).to_be_visible(timeout=30000)
    settle(page)
    players.fill("Ann\nBob\nCat")
    after(page, lambda: page.locator("h1").first.click())
    return page


def test_a_language_switched_during_the_set_up_redraws_the_boxes_words(
    app_url: str, chromium_executable: str, chromium_args: list[str],
) -> None:
    """The Cards and Dealing boxes show their choice in the language switched to: Streamlit's
    select box kept the words it was drawn in while its value stayed, and in English the Cards
    box read "Clue (USA, klassinen painos)" after a switch from Finnish (a phone play-through;
    going from English to another language it followed only now and then)."""
    from playwright.sync_api import sync_playwright

    from notebook_app.screens.home import RULE_TITLES
    from solver.editions import Dealing

    def words(language: str) -> list[str]:
        with speaking(language):
            return [find_edition("clue-classic").shown_title, _(RULE_TITLES[Dealing.CLASSIC])]

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = three_players_named(browser, app_url)
        boxes = page.locator('[data-testid="stSelectbox"] input')

        def shown() -> list[str | None]:  # the Cards box, then Dealing (You are between)
            return [boxes.nth(0).get_attribute("value"), boxes.nth(2).get_attribute("value")]

        assert shown() == words("en")
        for language in ("fi", "en", "ru", "en", "ja"):
            after(page, page.get_by_text(NAMES[language], exact=True).click)
            assert shown() == words(language), language
        browser.close()


def test_a_spectator_stays_one_through_a_language_switch(
    app_url: str, chromium_executable: str, chromium_args: list[str],
) -> None:
    """"You are: Nobody (spectator)" survives a switch to Finnish and back: the box read Ann
    again, and the form asked for her cards (its value was None, whose words a select box
    cannot send back in another language)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = three_players_named(browser, app_url)
        me = page.locator('.st-key-new_me [data-testid="stSelectbox"]')
        me.click()
        after(page, page.get_by_role("option", name="Nobody (spectator)").click)
        for language in ("fi", "en"):
            after(page, page.get_by_text(NAMES[language], exact=True).click)
            with speaking(language):
                assert me.locator("input").get_attribute("value") == _("Nobody (spectator)")
            assert not page.locator(".st-key-new_mine").count(), language  # no cards of mine
        browser.close()


def test_a_text_areas_hint_on_a_touch_screen_says_to_tap_outside(
    app_url: str, chromium_executable: str, chromium_args: list[str],
) -> None:
    """On a phone a text area's hint read "Press Ctrl+Enter to apply", in every language, while
    the players box took its names only once the player tapped outside it (two phone
    play-throughs): a phone has no Ctrl. With a finger the hint says to tap outside the box."""
    from playwright.sync_api import expect, sync_playwright

    from tests.phone import TOUCH_PHONE

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        for locale, language in (("en-US", "en"), ("ru-RU", "ru")):
            page = new_page(browser.new_context(**{**TOUCH_PHONE, "locale": locale}))
            page.goto(app_url)
            players = page.locator(".st-key-new_players textarea")
            expect(players).to_be_visible(timeout=30000)
            settle(page)
            players.tap()
            page.keyboard.type("Ann")
            with speaking(language):
                tap = _("Tap outside the box to apply")
            found = poll(page, lambda page=page: page.evaluate(
                DRAWN, HINT.format(key="new_players")), lambda found: bool(found)
                and found[2] != "none")
            assert found is not None and found[1:3] == ["0px", f'"{tap}"'], (language, found)
            page.close()
        browser.close()


KATAKANA_BREAKS = """() => {  // where a line of the screen breaks inside a katakana word
  const kana = /[\\u30A1-\\u30FA\\u30FC]/, found = [], range = document.createRange();
  const main = document.querySelector('[data-testid="stMain"]');
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (el.closest('.clue-reader-only') || !el.checkVisibility()) continue;
    let top = null;
    for (let i = 0; i < node.length; i++) {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getBoundingClientRect();
      if (!box.width) continue;
      if (top !== null && box.top > top + 4 && kana.test(node.data[i - 1])
          && kana.test(node.data[i]))
        found.push(node.data.slice(Math.max(0, i - 6), i) + '|' + node.data.slice(i, i + 4));
      top = box.top;
    }
  }
  return found;
}"""
"""Each place a visible line ends inside a katakana word ("スカーレッ|ト")."""


def test_the_page_says_its_language_and_japanese_lines_break_between_phrases(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str],
    artifacts_dir: Path,
) -> None:
    """The page said it was English (Streamlit's ``<html lang="en">``) whatever the app's
    language: a screen reader reads the Japanese, Russian or Finnish words with the voice of
    the language the page names, and Chromium broke Japanese lines anywhere, inside the
    katakana of a card's name: "確実に告発できます: ミス・スカーレッ|ト、リボルバー" (a phone
    play-through of a five-player Japanese game, the verdict and 70 of the Log's lines). The page
    now names the app's language, and Japanese lines break between phrases (Chromium's
    ``word-break: auto-phrase``, which only a page in Japanese can have), none inside a word;
    nothing reaches past the screen's edge."""
    import random

    from playwright.sync_api import expect, sync_playwright

    from notebook_app.store import Store
    from solver.editions import Dealing, editions
    from solver.simulate import play, random_setup
    from tests.phone import TOUCH_PHONE

    rng = random.Random(31)
    names = ("ハナコ", "ケンタ", "ユキ", "タロウ", "ミサキ")
    game, truth = random_setup(editions()["clue-classic-ja"].deck, names, Dealing.REFRESH,
                               "ユキ", rng, edition_name="clue-classic-ja")
    log = play(game, truth, 12, rng)
    store = Store(app_db)
    link = store.links(store.create(log, "phone")).edit
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE, locale="ja-JP"))
        page.goto(f"{app_url}/?game={link}")
        with speaking("ja"):
            log_tab, english = _("Log"), NAMES["en"]
        expect(page.get_by_role("radio", name=log_tab)).to_be_visible(timeout=30000)
        settle(page)
        after(page, page.get_by_role("radio", name=log_tab).tap)
        shot(page, artifacts_dir / "i18n-ja-log-lines.png")
        said = page.evaluate("document.documentElement.lang")
        broken = page.evaluate(KATAKANA_BREAKS)
        past = page.evaluate(OVERFLOW)
        after(page, page.get_by_text(english, exact=True).tap)
        switched = page.evaluate("document.documentElement.lang")
        browser.close()
    assert said == "ja"
    assert not broken, broken
    assert not past, past
    assert switched == "en"
