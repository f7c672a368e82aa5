"""Tap targets on a 390 px touch phone (`notebook_app.tap_targets`), measured in Chromium: the
controls a player taps during a turn (chips, segments, Record, Undo, "?" help icons, a tick
box) each take taps on at least 44 px of height, no other control is drawn within that 44 px,
and a finger's tap near a chip or a tick box lands on it, not on the chip above or Record.

A control's reach is read with ``elementFromPoint`` down a line through its middle: the run of
points whose hit is the control (its drawn box and anything past it that takes its taps), to
1/8 px. The
measures and the Turn form's height go to ``test-artifacts/tap-targets.json``, screenshots to
``taps-*.png``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from solver.logfile import loads
from solver.values import replace
from tests.phone import (
    PHONE,
    TOUCH_PHONE,
    Page,
    after,
    chips,
    chosen,
    frames,
    new_page,
    runs,
    settle,
    shot,
)

pytestmark = pytest.mark.browser

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "classic-six-players.json"
FINGER = 44
"""The least height, in CSS px, a control takes taps on."""
DRAWN = 40
"""The least height a control is drawn: past it, a fringe takes its taps up to `FINGER`."""
CONTROLS = {
    "chip": '[data-testid="stButtonGroup"] button[data-variant="pills"]',
    "segment": '[data-testid="stButtonGroup"] button[data-variant="segmented_control"]',
    "button": '[data-testid="stMain"] [data-testid^="stBaseButton"]',
    "tick": '[data-testid="stMain"] .stCheckbox label',
    "help": '[data-testid="stMain"] [data-testid="stTooltipIcon"] button',
}
"""What a finger taps on the Turn screen, by kind (the selector of the element it taps)."""
MEASURE = """(controls) => {  // each control on the page: its drawn box and its reach
  const main = document.querySelector('[data-testid="stMain"]');
  const found = [], elements = [];
  for (const [kind, selector] of Object.entries(controls))
    for (const e of document.querySelectorAll(selector)) {
      const r = e.getBoundingClientRect();
      if (!r.width || !r.height || getComputedStyle(e).pointerEvents === 'none') continue;
      const x = r.left + r.width / 2, middle = r.top + r.height / 2;
      const own = y => { const hit = document.elementFromPoint(x, y);
                         return hit !== null && (hit === e || e.contains(hit)); };
      const edge = step => {  // the last point that is the control's, to 1/8 px
        let y = middle;
        for (const by of [step, step / 8])
          while (Math.abs(y - middle) < 40 && own(y + by)) y += by;
        return y;
      };
      const [top, bottom] = own(middle) ? [edge(-1), edge(1)] : [middle, middle - 0.125];
      found.push({kind, name: (e.innerText || e.getAttribute('aria-label') || '').trim(),
                  x: r.left, y: r.top + main.scrollTop, width: r.width, height: r.height,
                  reach: bottom - top + 0.125, index: found.length});
      e.dataset.clueControl = found.length - 1;
      elements.push(e);
    }
  for (const [i, e] of elements.entries())  // a help icon in a switch's line, say
    found[i].nested = elements.flatMap((o, j) => o !== e && (o.contains(e) || e.contains(o))
                                       ? [j] : []);
  return found;
}"""
CATCH = """() => {  // a tap reaches no control: which one it would have reached is noted
  window.clueTapped = [];
  for (const type of ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'touchstart',
                      'touchend'])
    window.addEventListener(type, event => event.stopImmediatePropagation(), true);
  window.addEventListener('click', event => {
    const control = event.target.closest('[data-clue-control]');
    window.clueTapped.push(control ? Number(control.dataset.clueControl) : null);
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);
}"""
FORM = """() => {  // the Turn form, from the kind of entry to Record: its height on the page
  const [kind, record] = ['.st-key-kind', '.st-key-submit'].map(
    key => document.querySelector(key).getBoundingClientRect());
  return record.bottom - kind.top;
}"""


def measure(page: Page) -> list[dict[str, Any]]:
    """Every control on the page (`CONTROLS`), the page as tall as its content so each is in
    sight (``elementFromPoint`` sees only what is)."""
    settle(page)
    height = page.evaluate("document.querySelector('[data-testid=stMain]').scrollHeight")
    page.set_viewport_size({"width": PHONE["width"], "height": max(PHONE["height"], height)})
    frames(page)
    found: list[dict[str, Any]] = page.evaluate(MEASURE, CONTROLS)
    page.set_viewport_size(PHONE)
    frames(page)
    return found


def short(control: dict[str, Any]) -> str:
    return (f"{control['kind']} {control['name'][:20]!r} {control['height']:.1f} px drawn, "
            f"{control['reach']:.1f} px of taps")


def too_small(found: list[dict[str, Any]]) -> list[str]:
    """The controls that take taps on less than `FINGER` px of height, or are drawn under
    `DRAWN` px (a help icon is drawn small: only its reach counts)."""
    return [short(c) for c in found
            if c["reach"] < FINGER or (c["kind"] != "help" and c["height"] < DRAWN - 0.5)]


def crowded(found: list[dict[str, Any]]) -> list[str]:
    """The controls with another one drawn within the `FINGER` px around their middle (a help
    icon's: a square), other than one that holds the other (a help icon in a switch's line)."""
    said = []
    for c in found:
        middle_x, middle_y = c["x"] + c["width"] / 2, c["y"] + c["height"] / 2
        half_x = FINGER / 2 if c["kind"] == "help" else c["width"] / 2
        left, right = middle_x - half_x, middle_x + half_x
        top, bottom = middle_y - FINGER / 2, middle_y + FINGER / 2
        for o in found:
            if o is c or min(right, o["x"] + o["width"]) - max(left, o["x"]) <= 1.5:
                continue  # (segments side by side share a 1 px border)
            if min(bottom, o["y"] + o["height"]) - max(top, o["y"]) <= 0.5:
                continue
            if o["index"] not in c["nested"]:
                said.append(f"{short(c)}: {short(o)} within its {FINGER} px")
    return said


def tapped_near(page: Page, control: dict[str, Any], offsets: range) -> list[int | None]:
    """A finger's tap (Chromium's touch adjustment and all) at ``offsets`` px from the middle of
    ``control``, down a line 30 px into it: which control each reached (`CATCH` holds them)."""
    locator = page.locator(f'[data-clue-control="{control["index"]}"]')
    locator.scroll_into_view_if_needed()
    frames(page)
    box = locator.bounding_box()
    assert box is not None
    reached = []
    for offset in offsets:
        page.evaluate("() => { window.clueTapped = []; }")
        page.touchscreen.tap(box["x"] + min(30, box["width"] / 2),
                             box["y"] + box["height"] / 2 + offset)
        page.wait_for_timeout(60)
        taps = page.evaluate("() => window.clueTapped")
        reached.append(taps[0] if taps else None)
    return reached


def open_game(page: Page, app_url: str, link: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{app_url}/?game={link}")
    expect(page.get_by_role("button", name="Record", exact=True)).to_be_visible(timeout=30000)
    settle(page)


def test_what_a_finger_taps_takes_44_px_and_a_tick_box_keeps_its_taps(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str],
    artifacts_dir: Path,
) -> None:
    """On a 390 px phone the Turn form's chips were 33.6 px high, its segments 32 px, the "?"
    help icons 16x16 px, and a tap 5 px under the words "That is their whole hand" went to
    Record (an a11y audit); with chips 40 px high, a finger 0-2 px inside a chip's top edge went
    to the chip above (Chromium's touch adjustment weighed the chip's words). Measured on a
    typical turn (Dev asks, Anna shows a card: four taps and Record) and on the Reveal form of
    a game that is over (its tick box above Record)."""
    from playwright.sync_api import sync_playwright

    from notebook_app.store import Store

    example = loads(EXAMPLE.read_text(encoding="utf-8"))
    store = Store(app_db)
    turn = store.links(store.create(replace(example, events=example.events[:3]), "taps")).edit
    over = store.links(store.create(example, "taps-over")).edit
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE))
        open_game(page, app_url, turn)
        for label, option in (("Suspect", "Mrs. White"), ("Weapon", "Rope"), ("Room", "Hall"),
                              ("Who showed a card", "Anna")):
            after(page, chips(page, label).get_by_role("radio", name=option, exact=True).tap)
        form = page.evaluate(FORM)
        shot(page, artifacts_dir / "taps-turn.png")
        on_turn = measure(page)
        page.evaluate(CATCH)  # (until the next page: no tap changes the form)
        rows = [next(c for c in on_turn if c["name"] == name) for name in ("Billiard Room",
                                                                          "Nobody")]
        near_chips = [tapped_near(page, chip, range(-20, 21, 5)) for chip in rows]

        open_game(page, app_url, over)
        shot(page, artifacts_dir / "taps-reveal.png")
        on_reveal = measure(page)
        page.evaluate(CATCH)
        tick = next(c for c in on_reveal if c["kind"] == "tick")
        record = next(c for c in on_reveal if c["name"] == "Record")
        near_tick = tapped_near(page, tick, range(-18, 19, 6))  # 5 px under its words: +16
        near_record = tapped_near(page, record, range(-18, 19, 6))
        browser.close()

    (artifacts_dir / "tap-targets.json").write_text(json.dumps(
        {"turn form px": form, "turn": on_turn, "reveal": on_reveal}, indent=1,
        ensure_ascii=False), encoding="utf-8")
    kinds = {c["kind"] for c in on_turn}
    assert kinds == {"chip", "segment", "button", "help"}, kinds
    assert too_small(on_turn + on_reveal) == []
    assert crowded(on_turn) == [] and crowded(on_reveal) == []
    for chip, reached in zip(rows, near_chips, strict=True):  # a second row; the last one
        assert [on_turn[i]["name"] if i is not None else None for i in reached] == [
            chip["name"]] * len(reached)
    assert [on_reveal[i]["name"] if i is not None else None for i in near_tick] == [
        tick["name"]] * len(near_tick)
    assert [on_reveal[i]["name"] if i is not None else None for i in near_record] == [
        record["name"]] * len(near_record)
    assert form <= PHONE["height"], f"the Turn form is {form:.0f} px: more than a screen"


def test_a_finger_on_a_chip_whose_row_last_focused_one_is_off_the_screen_chooses_it(
    app_url: str, app_db: Path, chromium_executable: str, chromium_args: list[str],
    artifacts_dir: Path,
) -> None:
    """A chip row hands the focus to the chip focused in it last when focus comes from outside
    (`notebook_app.app.STEADY_CHIPS`). A finger's tap focuses on the mouse events the browser
    makes after the finger lifts; the row then scrolled to that chip, off the screen, before
    the click, which landed beside the chip tapped: no run, the chip not chosen (a 12-player
    forum game on a touch phone: 5 of 228 chip taps lost). Here: Wrench, on the Weapon row's
    second line, tapped, then a suspect, then the page scrolled back so Wrench is just below
    the screen, then a finger on Candlestick, on the row's first line, at the screen's foot."""
    from playwright.sync_api import sync_playwright

    from notebook_app.store import Store

    example = loads(EXAMPLE.read_text(encoding="utf-8"))
    store = Store(app_db)
    link = store.links(store.create(replace(example, events=example.events[:3]), "lost")).edit
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable, args=chromium_args)
        page = new_page(browser.new_context(**TOUCH_PHONE))
        open_game(page, app_url, link)
        weapons = chips(page, "Weapon").get_by_role("radio")
        first, focused = weapons.first, weapons.last
        after(page, focused.tap)
        after(page, chips(page, "Suspect").get_by_role("radio").first.tap)
        box = focused.bounding_box()
        assert box is not None
        page.evaluate("(by) => { document.querySelector('[data-testid=stMain]').scrollTop += by; }",
                      box["y"] - PHONE["height"] - 2)
        frames(page)
        box, target = focused.bounding_box(), first.bounding_box()
        assert box is not None and target is not None
        assert box["y"] > PHONE["height"], f"{box}: Wrench is on the screen"
        assert 0 < target["y"] + target["height"] / 2 < PHONE["height"], f"{target}: off the screen"
        name = first.inner_text().strip()
        runs(page).ask(first.tap, timeout=10)
        settle(page)
        shot(page, artifacts_dir / "taps-row-refocused.png")
        chosen_weapon = chosen(page, "Weapon")
        browser.close()
    assert chosen_weapon == name
