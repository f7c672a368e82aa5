"""What a finger taps, sized for a phone at a real table: every control a player taps during a
turn takes taps on at least 44 px of height, and no control lies within another's.

Chips (``st.pills``), segments (``st.segmented_control``: the language, the screens, the kind
of entry) and buttons (Record, Undo) are drawn 40 px high and take taps 2 px above and below
(an empty ``::after``, 3 px past the inside of its 1 px border: a tap on it is a tap on the
control), so each takes 44 px. Rows of
chips are 4 px apart: their 44 px meet with nothing else between them. (Not sideways: past a
row's last chip that made the row, and the page, 2 px wider than the phone.) What a button
holds (its words, an icon) takes no tap of its own, the button does: Chromium's touch
adjustment weighed the words' box, and a finger 0-2 px inside a chip's top edge went to the
chip above, one on the last row's bottom edge to Record 9 px below.
Drawn 44 px high, a chip row would be 48 px apart, and the Turn form of a typical suggestion
(nine rows of chips) 36 px taller for nothing a finger can tell. Chips are at least 44 px wide
too (a two-letter name, a short Japanese card).

A tick box's (or switch's) line is 45 px high: 12 px above and below its words, in the layout,
so the 9 px between it and Record stay free. Its label reached 8 px into those gaps before,
and Chromium's touch adjustment handed a tap 5 px under its words to Record.

A "?" help icon is drawn 16 px and takes taps on 44 px of height around it (28 px wide: any
wider, at the end of a line it would reach past the phone's edge); under a widget's label with
one, the chips start below the 44x44 px square around it. A caption with one is drawn over
the line below it, faded too (a faded caption is drawn over what comes before it), so the line
below does not take the lowest of the icon's taps.

`notebook_app.app` puts this on every page; tests/test_browser_taps.py measures it at 390 px."""

TAP_TARGETS = """<style>
[data-testid="stButtonGroup"] button[data-variant="pills"] {min-height: 2.5rem;
  min-width: 2.75rem; padding: 0.15rem 0.7rem;}
[data-testid="stButtonGroup"] button[data-variant="segmented_control"] {min-height: 2.5rem;}
[data-testid="stMain"] [data-testid^="stBaseButton"], [data-testid="stButtonGroup"] button {
  position: relative; overflow: visible;}
[data-testid="stMain"] [data-testid^="stBaseButton"]::after,
[data-testid="stButtonGroup"] button::after {content: ""; position: absolute; inset: -3px 0;}
[data-testid="stMain"] [data-testid^="stBaseButton"] *, [data-testid="stButtonGroup"] button * {
  pointer-events: none;}
button.clue-copy {min-height: 2.5rem;}
.stCheckbox label {padding-block: 0.75rem;}
[data-testid="stTooltipIcon"] button {position: relative; overflow: visible;}
[data-testid="stTooltipIcon"] button::after {content: ""; position: absolute; inset: -14px -6px;}
[data-testid="stButtonGroup"] [data-testid="stWidgetLabel"]:has([data-testid="stTooltipIcon"]) {
  margin-block: 0.25rem 0.75rem;}
[data-testid="stCaptionContainer"]:has([data-testid="stTooltipIcon"]) {position: relative;
  z-index: 1;}
</style>"""
"""The sizes above, as CSS (`notebook_app.app` draws it with the phone's other CSS)."""
