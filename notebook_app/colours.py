"""Every colour the app draws itself, in both colour schemes: light, and dark for a phone in
dark mode at a dim table. Streamlit's own colours come from its theme (``.streamlit/config.toml``,
``[theme.light]`` and ``[theme.dark]``), which follows the phone's setting; these follow it too.

The grid's cells are drawn on a canvas (Streamlit's table), whose colours a style sheet cannot
reach: each run picks the `Palette` of the theme the page shows (`PALETTES`, by `scheme`), and a
page whose theme changes asks for a run (`WATCH`). The colours of the app's own HTML are CSS
variables (`VARIABLES`) that follow the page's ``color-scheme``, which Streamlit sets from its
theme. The primary colours here are the theme's (``primaryColor``), #171614 its dark page.

Every text reads at WCAG's 4.5:1 on its ground, in both schemes (tests/test_grid_view.py,
tests/test_browser_contrast.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from solver.notebook import Knowledge

Scheme = Literal["light", "dark"]


@dataclass(frozen=True)
class Palette:
    """The grid's cells in one colour scheme, each as CSS (a Styler's)."""

    cells: dict[Knowledge, str]
    """A card's cell by what the notebook knows: ✓ holds it, ✗ does not, ? or % maybe."""
    face_up: str
    """Every cell of a face-up card (▲)."""
    heading: str
    """The cells of a category's heading row ("— rooms —")."""
    card: str
    """The card names' column: the page's text on Streamlit's cell ground (drawn faded, as a
    pinned column is: `notebook_app.grid_view.unfaded`)."""

    def styles(self) -> list[str]:
        """Every style of the owners' cells."""
        return [*self.cells.values(), self.face_up, self.heading]


LIGHT = Palette(
    cells={
        Knowledge.YES: "background-color: #b7ebc0; color: #0b4d1c; font-weight: bold",
        Knowledge.NO: "background-color: #ececec; color: #666666",
        Knowledge.MAYBE: "background-color: #ffe9a8; color: #6b4e00",
    },
    face_up="background-color: #dcecf7; color: #1d4f73",
    heading="background-color: #d6dcf5; color: #1f2a5c; font-weight: bold",
    card="background-color: #ffffff; color: #2f2d2b",
)
"""The grid on Streamlit's light page: ✓ on green, ✗ grey, maybe on amber."""
DARK = Palette(
    cells={
        Knowledge.YES: "background-color: #1b4a2a; color: #b9f5c6; font-weight: bold",
        Knowledge.NO: "background-color: #2a2927; color: #b3afa8",
        Knowledge.MAYBE: "background-color: #4a3a0a; color: #ffd97a",
    },
    face_up="background-color: #173247; color: #a9d4f2",
    heading="background-color: #262d52; color: #cdd5ff; font-weight: bold",
    card="background-color: #171614; color: #f5f4f2",
)
"""The grid on Streamlit's dark page (#171614): the same hues, deep grounds and light text, the ✗
cells close to the page so that the ✓ and maybe cells stand out as they do in light."""
PALETTES: dict[Scheme, Palette] = {"light": LIGHT, "dark": DARK}

CHART_AXIS: dict[Scheme, str] = {"light": "#64687a", "dark": "#e6eaf1"}
"""The words on a chart's axes (its labels and titles: the Review's envelope chart,
`notebook_app.screens.review.envelope_chart`), on the page's ground: 5.52:1 on white, 14.99:1
on #171614. Streamlit's chart theme drew them #808495 in light, 3.72:1 (a11y audit), and keeps
#e6eaf1 in dark; the light one is darker, of the same blue-grey, still lighter than the page's
text (#31333f)."""

VARIABLES: dict[str, tuple[str, str]] = {
    "--clue-rule": ("rgba(49, 51, 63, 0.1)", "rgba(250, 250, 250, 0.14)"),
    "--clue-border": ("rgba(49, 51, 63, 0.2)", "rgba(250, 250, 250, 0.24)"),
    "--clue-accent": ("#8c1c2b", "#e86a7a"),
    "--clue-faint": ("rgba(49, 51, 63, 0.75)", "rgba(250, 250, 250, 0.75)"),
    "--clue-on-accent": ("#ffffff", "#171614"),
}
"""The colours of the app's own HTML, (light, dark): a log entry's rule, the Copy button's
border and its accent (the theme's primary colour, ``.streamlit/config.toml``), the "Copied"
note, and the words on a primary button (`ON_ACCENT`)."""
ON_ACCENT = ('.stApp button[kind^="primary"]:not(:disabled) {color: var(--clue-on-accent);}\n'
             '.stApp button[kind^="primary"]:not(:disabled, :active):is(:hover, :focus-visible)'
             ' {color: #ffffff;}')
"""A primary button's words (Record, Start game) in the dark scheme are the page's dark colour,
not Streamlit's white: its primary colour is light enough to read as text on the dark page
(the chip picked, the screen shown), and white on it read 3.1:1. No red serves both: white
needs 4.5:1 on the button, the chip's words 4.5:1 on the page. Hovered or focused (not
pressed), Streamlit darkens the button, and white reads again (4.7:1; the dark words, 3.8:1).
A disabled button keeps Streamlit's faded words. In light, white throughout, as before."""


TAPPED = ('@media (hover: none) {.stApp button[kind^="primary"]:not(:disabled, :active)'
          ':is(:hover, :focus):not(:focus-visible) {background-color: var(--clue-accent); '
          'border-color: var(--clue-accent); color: var(--clue-on-accent);}}')
"""A primary button (Record) looks the same after a finger's tap as before it. A touch screen
keeps the button tapped last hovered and focused until the next tap elsewhere, and Streamlit
darkens a hovered or focused button: after each Record it stayed #4d0f17 (light) or #dd273f with
white words (dark), as if still pressed or busy (a phone play-through). Pressed (``:active``)
and focused by keys (``:focus-visible``), it still changes; with a mouse, hovered too. Only where
the browser has ``light-dark()``: elsewhere the accent is the light one in either scheme."""


def variables_css() -> str:
    """A style sheet that defines `VARIABLES` on the app's page, each in the colour scheme
    Streamlit's theme gives the page: light where the browser has no ``light-dark()``; and
    `TAPPED`, `ON_ACCENT`."""
    light = "; ".join(f"{name}: {pair[0]}" for name, pair in VARIABLES.items())
    either = "; ".join(f"{name}: light-dark({pair[0]}, {pair[1]})"
                       for name, pair in VARIABLES.items())
    return (f".stApp {{{light};}}\n@supports (color: light-dark(#000, #fff)) "
            f"{{.stApp {{{either};}}\n{ON_ACCENT}\n{TAPPED}}}")


WATCH = """<script>
(() => {
  window.clueDrawnScheme = 'SCHEME';
  if (window.clueSchemeLook) return window.clueSchemeLook();
  let asked = null;  // the scheme a run was last asked for
  let later = null;
  let tries = 0;  // looks again since the last change seen (a minute's worth at most)
  const step = () => {
    const app = document.querySelector('.stApp');
    const shown = app && getComputedStyle(app).colorScheme;
    if (!shown || shown === window.clueDrawnScheme) { asked = null; return; }
    if (shown === asked) return;
    const button = document.querySelector('.st-key-RERUN button');
    if (!button || button.disabled) {  // not drawn yet, or not connected: look again soon
      if (tries++ < 300) later ??= setTimeout(() => { later = null; step(); }, 200);
      return;
    }
    asked = shown;
    button.click();
  };
  const look = window.clueSchemeLook = () => { tries = 0; step(); };
  new MutationObserver(look).observe(document.querySelector('.stApp'),
                                     {attributes: true, attributeFilter: ['class']});
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', look);
  look();
})();
</script>"""
"""Asks for a run where the page's theme is not the one its last run drew in (``SCHEME``): the
phone went dark at sunset, or a theme was picked in Streamlit's menu. Streamlit changes the
page's colours at once but asks for no run, so the grid kept the other scheme's cells. The
run is asked by a tap of the hidden button ``RERUN`` (`notebook_app.connection.RECONNECTED`),
once per change: a run that still drew the other scheme is not asked again. Where the button
is missing (a page showing an error) or disabled (no connection) it looks again every 0.2 s for
a minute, not for as long as the page is open; the next run or change looks afresh."""


BANNER = {"background": ("#fdecea", "#6b1a28"), "color": ("#7a1020", "#ffe0e5")}
"""The connection's banner (`notebook_app.connection`), (light, dark): 9.5:1 in both. It lies
outside Streamlit's page, so its script gives it the page's ``color-scheme``."""


def banner_css() -> str:
    """The banner's colours as an inline style: light where the browser has no
    ``light-dark()`` (it drops that declaration and keeps the one before).

    >>> banner_css()[:53]
    'background:#fdecea;background:light-dark(#fdecea, #6b'
    """
    return "".join(f"{name}:{light};{name}:light-dark({light}, {dark});"
                   for name, (light, dark) in BANNER.items())


def page_colours(drawn: Scheme, rerun: str) -> str:
    """The HTML that puts the app's colours on the page, for a run that drew its grid in the
    ``drawn`` scheme: the `VARIABLES` and the `WATCH` for a change of theme, which taps the
    hidden button keyed ``rerun`` (`notebook_app.connection.RECONNECTED`)."""
    return (f"<style>\n{variables_css()}\n</style>"
            + WATCH.replace("SCHEME", drawn).replace("RERUN", rerun))


def scheme(theme_type: str | None) -> Scheme:
    """The colour scheme of a page whose Streamlit theme is ``theme_type``
    (``st.context.theme.type``, unknown in tests without a browser: light).

    >>> scheme("dark"), scheme(None)
    ('dark', 'light')
    """
    return "dark" if theme_type == "dark" else "light"
