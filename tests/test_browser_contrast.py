"""Text contrast on a 390 px touch phone, from the colours Chromium computes (and, on the grid's
canvas, draws): WCAG's 4.5:1 for small text, measured over the app's background, in the light
colour scheme and in the dark one a phone in dark mode gets (``.streamlit/config.toml``,
`notebook_app.colours`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.phone import (
    TOUCH_PHONE,
    after,
    at_home,
    new_page,
    odds_counted,
    poll,
    settle,
    table_drawn,
)

pytestmark = pytest.mark.browser

CONTRAST = """selector => {
  const rgba = text => { const [r, g, b, a = 1] = text.match(/[\\d.]+/g).map(Number);
                         return [r, g, b, a]; };
  const ground = rgba(getComputedStyle(document.querySelector('.stApp')).backgroundColor)
    .slice(0, 3);
  const opacity = node => node ? Number(getComputedStyle(node).opacity) * opacity(
    node.parentElement) : 1;  // Streamlit fades a caption with its container's opacity
  const luminance = rgb => rgb.map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92
    : ((v + 0.055) / 1.055) ** 2.4).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  return [...document.querySelectorAll(selector)].map(p => {
    const [r, g, b, a] = rgba(getComputedStyle(p).color);
    const alpha = a * opacity(p);
    const seen = [r, g, b].map((v, i) => alpha * v + (1 - alpha) * ground[i]);
    const [light, dark] = [luminance(seen), luminance(ground)].sort((x, y) => y - x);
    return [p.innerText.slice(0, 40), Math.round((light + 0.05) / (dark + 0.05) * 100) / 100];
  });
}"""
"""Each element's (``selector``) first words and its text's contrast ratio over the app's
background."""
CAPTIONS = '[data-testid="stCaptionContainer"] p'
"""The captions' text."""
CELLS = """() => {  // the grid as Chromium drew it on its canvas
  const grid = document.querySelector('.st-key-notebook_grid [data-testid="stDataFrame"]');
  const canvas = [...grid.querySelectorAll('canvas')].find(c => c.width > 0);
  const scale = canvas.width / canvas.getBoundingClientRect().width;
  const {width, height} = canvas;
  const data = canvas.getContext('2d', {willReadFrequently: true})
    .getImageData(0, 0, width, height).data;
  const at = (x, y) => { const i = 4 * (y * width + x); return [data[i], data[i+1], data[i+2]]; };
  const luminance = rgb => rgb.map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92
    : ((v + 0.055) / 1.055) ** 2.4).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (x, y) => { const [l, d] = [luminance(x), luminance(y)].sort((p, q) => q - p);
                            return (l + 0.05) / (d + 0.05); };
  const same = (p, q) => p.every((v, i) => v === q[i]);
  const header = Math.round(36 * scale), row = 28 * scale, cells = [];
  for (let r = 0; header + Math.round((r + 1) * row) <= height; r++) {
    const top = header + Math.round(r * row);
    const y0 = top + Math.round(3 * scale), y1 = top + Math.round(row - 3 * scale);
    for (let x = 0, end; x < width; x = Math.max(end, x + 1)) {
      const ground = at(x, y0);  // a cell: a run of one colour along its row's top, which no
      for (end = x; end < width && same(at(end, y0), ground); end++);  // text reaches
      if (end - x < 20 * scale) continue;  // (a grid line)
      let ink = 1;  // the text: the pixel that stands out most from the cell's ground
      for (let y = y0; y < y1; y++)
        for (let xx = x; xx < end; xx++) ink = Math.max(ink, ratio(at(xx, y), ground));
      cells.push([r, Math.round(x / scale), Math.round(luminance(ground) * 1000) / 1000,
                  Math.round(ink * 100) / 100]);
    }
  }
  return cells;
}"""
"""Every cell of the grid (the Card column's too) as (row, left edge in CSS pixels, its ground's
relative luminance, the contrast of its text on that ground; 1 where it has none)."""
GROUND = """() => getComputedStyle(document.querySelector('.stApp')).backgroundColor
  .match(/[\\d.]+/g).slice(0, 3).map(Number).map(v => v / 255).map(v => v <= 0.03928
  ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4).reduce((sum, v, i) => sum + v * [0.2126, 0.7152,
  0.0722][i], 0)"""
"""The relative luminance of the app's background: 0 black, 1 white."""
ON_BUTTON = """selector => [...document.querySelectorAll(selector)].map(b => {
  const rgb = text => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const luminance = c => c.map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92
    : ((v + 0.055) / 1.055) ** 2.4).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const [light, dark] = [luminance(rgb(getComputedStyle(b).color)),
                         luminance(rgb(getComputedStyle(b).backgroundColor))].sort((x, y) => y - x);
  return [b.innerText, Math.round((light + 0.05) / (dark + 0.05) * 100) / 100];
})"""
"""Each button's (``selector``) words and their contrast on the button's own colour."""
CHART_WORDS = """selector => {  // an SVG text's colour is its fill, not its color
  const rgba = text => { const [r, g, b, a = 1] = text.match(/[\\d.]+/g).map(Number);
                         return [r, g, b, a]; };
  const ground = rgba(getComputedStyle(document.querySelector('.stApp')).backgroundColor)
    .slice(0, 3);
  const opacity = node => node ? Number(getComputedStyle(node).opacity) * opacity(
    node.parentElement) : 1;
  const luminance = rgb => rgb.map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92
    : ((v + 0.055) / 1.055) ** 2.4).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  return [...document.querySelectorAll(selector)].map(t => {
    const style = getComputedStyle(t);
    const [r, g, b, a] = rgba(style.fill);
    const alpha = a * Number(style.fillOpacity) * opacity(t);
    const seen = [r, g, b].map((v, i) => alpha * v + (1 - alpha) * ground[i]);
    const [light, dark] = [luminance(seen), luminance(ground)].sort((x, y) => y - x);
    return [t.textContent, Math.round((light + 0.05) / (dark + 0.05) * 100) / 100];
  });
}"""
"""Each SVG text's (``selector``) words and their contrast over the app's background."""
CHART_MARKS = CHART_WORDS.replace("style.fill", "style.stroke").replace(
    "style.fillOpacity", "style.strokeOpacity").replace(
    "t.textContent", "t.closest('[class*=mark-]').getAttribute('class')")
"""Each SVG mark's (``selector``) class and its stroke's contrast over the app's background."""


def test_captions_read_at_the_contrast_small_text_needs(
    app_url: str, chromium_executable: str, chromium_args: list[str]
) -> None:
    """The captions under the verdict (the envelope's line, "Latest: #43 …", a form's help
    such as "Bob has seen from you: nothing yet") were Streamlit's faded text, 3.89:1 on white:
    under 4.5:1, hard to read on a phone outdoors (a11y audit). They stay lighter than the
    body text."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE))
        at_home(page, app_url)
        after(page, page.get_by_role("button", name="Open example").tap)
        captions = page.evaluate(CONTRAST, CAPTIONS)
        browser.close()
    assert len(captions) >= 2, captions
    assert [c for c in captions if c[1] < 4.5] == [], captions


def test_a_tick_box_takes_a_finger_just_above_its_words(
    app_url: str, chromium_executable: str, chromium_args: list[str]
) -> None:
    """A tick box's line ("That is their whole hand", "Show odds") took taps on 21 px of
    height, half a fingertip: a thumb landing a few pixels above the words missed it (a11y
    audit, 390 px touch phone). Its line is now 45 px high, the words in its middle
    (`notebook_app.tap_targets`; below it, tests/test_browser_taps.py keeps a tap under the
    words off Record)."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE))
        at_home(page, app_url)
        after(page, page.get_by_role("button", name="Open example").tap)
        whole = page.locator(".st-key-r_whole")  # the example is over: its Reveal form
        words = whole.locator('[data-testid="stWidgetLabel"] p').bounding_box()
        assert words is not None and words["height"] < 30  # (one line)
        tick = whole.get_by_role("checkbox")
        expect(tick).not_to_be_checked()
        page.touchscreen.tap(words["x"] + 40, words["y"] - 5)
        expect(tick).to_be_checked()
        browser.close()


def test_a_player_out_reads_at_the_contrast_small_text_needs(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str]
) -> None:
    """A player out after a wrong accusation is greyed under "Who asked" and still tappable,
    its chip reading "Bob (out)": greyed to 0.55 its text was about 3.4:1 (a11y audit), under
    the 4.5:1 a control's words need. It stays fainter than the others."""
    from playwright.sync_api import expect, sync_playwright

    from notebook_app.history import started
    from notebook_app.store import Store
    from solver.editions import Dealing, new_game
    from solver.game import Accusation, GameLog
    from tests.test_app import CLASSIC, MINE, NAMES

    store = Store(app_db)
    wrong = Accusation("Bob", ("Mr. Green", "Wrench", "Lounge"), correct=False)
    game = new_game(CLASSIC, NAMES, Dealing.CLASSIC, me="Ann", my_cards=MINE)
    made = store.create(GameLog(game, (wrong,)), "browser-of-ann", started())
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE))
        page.goto(f"{app_url}/?game={store.links(made).edit}")
        expect(page.get_by_role("button", name="Record", exact=True)).to_be_visible(
            timeout=30000)
        settle(page)
        chips = page.evaluate(CONTRAST, ".st-key-by [role='radio'] p")
        browser.close()
    out = [c for c in chips if "(out)" in c[0]]
    assert len(out) == 1 and len(chips) == len(NAMES), chips
    assert out[0][1] >= 4.5, chips
    assert out[0][1] < min(c[1] for c in chips if c not in out), chips  # still fainter


def test_a_phone_in_dark_mode_gets_a_dark_page_that_reads_at_the_contrast_small_text_needs(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str]
) -> None:
    """A phone in dark mode at a dim table got the app's one light theme: a glaring white page
    and grid. The page now follows the phone's colour scheme, and in the dark one every text
    still reads at 4.5:1: the captions (the race and advice lines among them), a player out's
    chip, the Record button's words, and every cell of the grid (✓, ✗, %, the card names),
    measured on the canvas Chromium draws it on. When the phone turns back to light (at dawn,
    or by hand) the grid follows, without a tap: Streamlit changes its own colours at once but
    asks for no run, and the grid's were the other scheme's until the next tap."""
    from playwright.sync_api import expect, sync_playwright

    from notebook_app.history import started
    from notebook_app.store import Store
    from solver.editions import Dealing, new_game
    from solver.game import Accusation, GameLog
    from tests.test_app import CLASSIC, MINE, NAMES

    store = Store(app_db)
    wrong = Accusation("Bob", ("Mr. Green", "Wrench", "Lounge"), correct=False)
    game = new_game(CLASSIC, NAMES, Dealing.CLASSIC, me="Ann", my_cards=MINE)
    made = store.create(GameLog(game, (wrong,)), "browser-of-ann", started())
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE, color_scheme="dark"))
        page.goto(f"{app_url}/?game={store.links(made).edit}")
        expect(page.get_by_role("button", name="Record", exact=True)).to_be_visible(
            timeout=30000)
        settle(page)
        ground = page.evaluate(GROUND)
        captions = page.evaluate(CONTRAST, CAPTIONS)
        chips = page.evaluate(CONTRAST, ".st-key-by [role='radio'] p")
        record = page.evaluate(ON_BUTTON, 'button[kind^="primary"]')
        tab = page.locator('[data-testid="stButtonGroup"] button', has_text="Grid").first
        after(page, tab.tap)
        odds_counted(page)
        table_drawn(page)
        captions += page.evaluate(CONTRAST, CAPTIONS)
        cells = poll(page, lambda: page.evaluate(CELLS), bool)
        page.emulate_media(color_scheme="light")  # the phone turns light: the grid follows
        lit = poll(page, lambda: page.evaluate(CELLS),
                   lambda found: bool(found) and min(c[2] for c in found) > 0.5)
        browser.close()
    assert ground < 0.02, ground  # Streamlit's dark page, #171614: 0.008
    assert len(captions) >= 6 and [c for c in captions if c[1] < 4.5] == [], captions
    out = [c for c in chips if "(out)" in c[0]]
    assert len(out) == 1 and out[0][1] >= 4.5, chips
    assert record and [b for b in record if b[1] < 4.5] == [], record
    kinds = {c[2] for c in cells}  # ✓, ✗, %, the headings' and the card names'
    assert len(kinds) >= 5 and max(kinds) < 0.1, cells  # no cell glares
    assert [c for c in cells if 1 < c[3] < 4.5] == [], cells
    owners = [c for c in lit if c[1] > 0]  # (Streamlit's card names: 3.9:1 in light)
    assert min(c[2] for c in owners) > 0.5, lit
    assert [c for c in owners if 1 < c[3] < 4.5] == [], lit


def test_the_review_charts_axes_read_at_the_contrast_small_text_needs(
    app_url: str, chromium_executable: str, chromium_args: list[str], artifacts_dir: Path
) -> None:
    """The Review's chart of possible envelopes: Streamlit's chart theme drew its axes' words
    (the events and counts, "event", "envelopes") #808495 in light, 3.72:1 on white (a11y
    audit). They are now `notebook_app.colours.CHART_AXIS`'s, at 4.5:1 or more in both
    schemes (light 5.52:1, dark 14.99:1), the chart drawn in the scheme the phone asks for.
    The line and the dashed rule marking the event shown stand 3:1 or more off the ground, as
    a graphic read for its meaning needs: the rule was 1.12:1 in dark, unseen (now 14.99:1)."""
    from playwright.sync_api import expect, sync_playwright

    measured, marks = {}, {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        for colours in ("light", "dark"):
            page = new_page(browser.new_context(**TOUCH_PHONE, color_scheme=colours))
            at_home(page, app_url)
            after(page, page.get_by_role("button", name="Open example").tap)
            tab = page.locator('[data-testid="stButtonGroup"] button', has_text="Review").first
            after(page, tab.tap)
            words = page.locator(".st-key-envelope_chart svg text")
            expect(words.first).to_be_visible(timeout=30000)
            words.first.scroll_into_view_if_needed()
            measured[colours] = poll(page, lambda: page.evaluate(  # noqa: B023
                CHART_WORDS, ".st-key-envelope_chart svg text"), bool)
            marks[colours] = page.evaluate(
                CHART_MARKS, ".st-key-envelope_chart svg :is(.mark-rule line, .mark-line path)")
            page.locator(".st-key-envelope_chart").screenshot(
                path=artifacts_dir / f"contrast-chart-{colours}.png")
            page.close()
        browser.close()
    for colours, words in measured.items():
        said = [w for w, _ in words]
        assert {"event", "envelopes", "0", "5"} <= set(said), (colours, words)
        assert [w for w in words if w[1] < 4.5] == [], (colours, words)
        drawn = [m for m in marks[colours] if "role-mark" in m[0]]  # the gridlines are faint
        assert len(drawn) == 2 and min(m[1] for m in drawn) >= 3, (colours, marks[colours])


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_record_looks_the_same_after_a_tap_as_before(
    scheme: str, app_url: str, chromium_executable: str, chromium_args: list[str]
) -> None:
    """A touch screen keeps the button tapped last hovered and focused until the next tap
    elsewhere, and Streamlit darkens a hovered button: after each Record it stayed dark maroon
    (light) or red with white words (dark), as if still pressed (a phone play-through). It now
    looks as before the tap; a chip tapped off already did."""
    from playwright.sync_api import sync_playwright

    looks = """e => { const s = getComputedStyle(e);
                      return [s.backgroundColor, s.borderColor, s.color]; }"""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE, color_scheme=scheme))
        at_home(page, app_url)
        after(page, page.get_by_role("button", name="Open example").tap)
        record = page.get_by_role("button", name="Record", exact=True)
        before = record.evaluate(looks)
        after(page, record.tap)  # the form is empty: the app says what is missing
        page.wait_for_function("e => !e.matches(':active')", arg=record.element_handle())
        tapped = record.evaluate("e => e.matches(':hover') && e.matches(':focus')")
        now = record.evaluate(looks)
        browser.close()
    assert tapped  # as a finger leaves it
    assert now == before, (before, now)
