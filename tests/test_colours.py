"""The app's own colours outside the grid read in both colour schemes (`notebook_app.colours`;
the grid's: tests/test_grid_view.py; as Chromium draws them: tests/test_browser_contrast.py)."""

from __future__ import annotations

import pytest

from notebook_app.colours import BANNER, VARIABLES
from tests.test_grid_view import contrast

PAGE = ("#ffffff", "#171614")
"""Streamlit's light and dark page (its themes' backgroundColor)."""


def reads(text: str, ground: str) -> float:
    return contrast(f"background-color: {ground}; color: {text}")


@pytest.mark.parametrize("scheme", [0, 1], ids=["light", "dark"])
def test_the_apps_own_words_read_at_the_contrast_small_text_needs(scheme: int) -> None:
    """The connection's banner, the Copy button's accent on the page, a primary button's words
    on the accent (Record): 4.5:1 in both schemes. The dark banner was the light one, pale pink
    over the dark page."""
    accent, on_accent = VARIABLES["--clue-accent"][scheme], VARIABLES["--clue-on-accent"][scheme]
    assert reads(BANNER["color"][scheme], BANNER["background"][scheme]) >= 4.5
    assert reads(accent, PAGE[scheme]) >= 4.5
    assert reads(on_accent, accent) >= 4.5


def test_the_accent_is_the_themes_primary_colour() -> None:
    """The Copy button's accent is the red of Streamlit's buttons and chips, in each scheme:
    the theme's ``primaryColor`` (``.streamlit/config.toml``), written in both places."""
    import tomllib
    from pathlib import Path

    config = tomllib.loads((Path(__file__).resolve().parent.parent / ".streamlit"
                            / "config.toml").read_text(encoding="utf-8"))
    theme = config["theme"]
    assert VARIABLES["--clue-accent"] == (theme["light"]["primaryColor"],
                                          theme["dark"]["primaryColor"])
