"""Text contrast on a 390 px touch phone, from the colours Chromium computes: WCAG's 4.5:1 for
small text, measured over the app's background (the app has one, light, colour scheme: its
theme in ``.streamlit/config.toml`` has no dark variant)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.phone import TOUCH_PHONE, after, at_home, new_page, settle

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
    audit, 390 px touch phone). Its label now reaches into the gaps around it, 37 px high, and
    the page is laid out as before. (Below it, Chromium's touch adjustment hands a tap 5 px
    under the words to the Record button beneath, label or not: not tried here.)"""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE))
        at_home(page, app_url)
        after(page, page.get_by_role("button", name="Open example").tap)
        whole = page.locator(".st-key-r_whole")  # the example is over: its Reveal form
        box = whole.bounding_box()
        assert box is not None and box["height"] < 30  # (the line itself keeps its height)
        tick = whole.get_by_role("checkbox")
        expect(tick).not_to_be_checked()
        page.touchscreen.tap(box["x"] + 40, box["y"] - 5)
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
