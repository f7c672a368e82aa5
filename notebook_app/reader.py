"""What a screen reader is given where the screen is drawn for the eye: the grid as a real table
(Streamlit's grid is a canvas), the page's headings, which chip takes no tap. What only a
reader reads is out of sight and takes no room (`READER_CSS`): the page looks as it did."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

import streamlit as st

from solver.cards import CATEGORIES
from solver.editions import forum_dealt
from solver.game import ENVELOPE, SIDE
from solver.i18n import _, percent_said
from solver.notebook import Grid, Knowledge
from solver.report import category_label

from .turns import apart

READER_CSS = """<style>
.clue-reader-only, [data-testid="stElementContainer"]:has(> .stHtml > .clue-reader-only),
[data-testid="stElementContainer"]:has(> .stBidiComponent .clue-reader-only) {
  position: absolute !important; width: 1px !important; min-width: 0 !important;
  height: 1px !important; padding: 0; margin: -1px;
  overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0;}
.stHtml .clue-heading {font-size: 1rem; font-weight: 600; line-height: 1.6; margin: 0;
  padding: 0; overflow-wrap: anywhere;}
</style>"""
"""What only screen readers read (``clue-reader-only``) is out of sight: the element and its
Streamlit container taken out of the page's flow, so it adds no gap between the elements
around it. A heading in sight (``clue-heading``) looks like the bold line it was, a long word
in it broken where it would not fit (as the bold line's was)."""

def cell_state(grid: Grid, card: str, owner: str,
               odds: Mapping[str, Mapping[str, float]] | None = None) -> str:
    """What a grid cell says in words, where the screen shows a symbol or a percentage:
    "certain", "excluded", "possible, 35%", "face up".

    >>> from solver.editions import Dealing, editions, new_game
    >>> game = new_game(editions()["clue-classic"].deck, ("Ann", "Bob", "Cat"),
    ...                 Dealing.CLASSIC, me="Ann", my_cards=("Knife",))
    >>> from solver.notebook import Notebook
    >>> with Notebook(game) as notebook:
    ...     grid = notebook.grid()
    >>> cell_state(grid, "Knife", "Ann"), cell_state(grid, "Knife", "Bob")
    ('certain', 'excluded')
    >>> cell_state(grid, "Rope", "Bob"), cell_state(grid, "Rope", "Bob", {"Rope": {"Bob": 0.35}})
    ('possible', 'possible, 35%')
    """
    if card in grid.game.face_up:
        return _("face up")
    knowledge = grid[card, owner]
    if knowledge is Knowledge.MAYBE and odds is not None:
        # TRANSLATORS: a grid cell, as a screen reader says it: the owner may hold the card
        return _("possible, {chance}").format(
            chance=percent_said(odds[card][owner], undecided=True))
    if knowledge is Knowledge.YES:  # TRANSLATORS: a grid cell: the owner surely holds the card
        return _("certain")
    # TRANSLATORS: grid cells: the owner surely does not hold the card; may hold it
    return _("excluded") if knowledge is Knowledge.NO else _("possible")


def owner_name(grid: Grid, owner: str) -> str:
    """An owner column's header in full: the player's name, "Envelope", "Side pile"."""
    if owner not in (ENVELOPE, SIDE):
        return owner
    return apart(_("Envelope") if owner == ENVELOPE else _("Side pile"), grid.game.player_names)


def grid_table_html(grid: Grid, odds: Mapping[str, Mapping[str, float]] | None = None) -> str:
    """The grid as an HTML table for screen readers: the owners' names as column headers, each
    card's name as its row's header, a row heading each category, and every cell in words with
    its card and owner ("Knife, Ann: certain"), as a reader moving cell by cell hears it. Each
    cell is a button, which explains it as a tap on the drawn grid does (`READER_GRID`); out of
    the keys' way (the drawn grid takes them), not out of a reader's.

    >>> from solver.editions import Dealing, editions, new_game
    >>> game = new_game(editions()["clue-classic"].deck, ("Ann", "Bob", "Cat"),
    ...                 Dealing.CLASSIC, me="Ann", my_cards=("Knife",))
    >>> from solver.notebook import Notebook
    >>> with Notebook(game) as notebook:
    ...     html = grid_table_html(notebook.grid())
    >>> '<th scope="col">Envelope</th>' in html, '<th scope="row">Knife</th>' in html
    (True, True)
    >>> ('<button type="button" tabindex="-1" data-card="Knife" data-owner="Ann">Knife, Ann: '
    ...  'certain</button>') in html
    True
    """
    places = forum_dealt(grid.game)
    columns = len(grid.owners) + 1
    head = "".join(f'<th scope="col">{escape(owner_name(grid, o))}</th>' for o in grid.owners)
    rows = [f'<tr><th scope="col">{escape(_("Card"))}</th>{head}</tr>']
    for category in CATEGORIES:
        rows.append(f'<tr><th scope="colgroup" colspan="{columns}">'
                    f'{escape(category_label(category, places=places))}</th></tr>')
        for card in grid.game.deck.of(category):
            cells = "".join(
                f'<td><button type="button" tabindex="-1" data-card="{escape(card)}" '
                f'data-owner="{escape(owner)}">'
                # TRANSLATORS: a grid cell, as a screen reader says it ("Knife, Ann: certain")
                + escape(_("{card}, {owner}: {state}").format(
                    card=card, owner=owner_name(grid, owner),
                    state=cell_state(grid, card, owner, odds))) + "</button></td>"
                for owner in grid.owners)
            rows.append(f'<tr><th scope="row">{escape(card)}</th>{cells}</tr>')
    return (f'<table class="clue-reader-only clue-reader-grid"><caption>{escape(_("Grid"))}'
            f'</caption>{"".join(rows)}</table>')


READER_GRID = st.components.v2.component("clue_reader_grid", isolate_styles=False, js="""
export default function ({data, parentElement, setTriggerValue}) {
  parentElement.innerHTML = data;
  for (const button of parentElement.querySelectorAll('button[data-card]'))
    button.onclick = () => setTriggerValue('cell', [button.dataset.card, button.dataset.owner]);
}""")
"""The grid's table for screen readers (`grid_table_html`, its ``data``), whose buttons say
which cell was pressed (``cell``: its card and owner) as a trigger of one run."""


def heading(text: str, level: int, *, shown: bool = True) -> str:
    """A heading of ``level`` (1: the game's title, 2: a tab's, 3: a part of it), drawn as a
    bold line, or, not ``shown``, for screen readers only (a tab's, whose name the tab row
    shows).

    >>> heading("Ann & Bob", 1)
    '<h1 class="clue-heading">Ann &amp; Bob</h1>'
    """
    kind = "clue-heading" if shown else "clue-reader-only"
    return f'<h{level} class="{kind}">{escape(text)}</h{level}>'


def form_part(text: str) -> None:
    """Where a part of the Turn tab's form starts (who suggested, the cards, who showed a card;
    the result of an accusation, the answer to a question to one player; whose cards were
    revealed and which; a note's owner and cards): a heading under the tab's (level 3) for
    screen readers only, so that a reader can move from part to part by headings, as the eye
    does by the chips' labels; the page looks as it did. Until 2026-12-04 the tab's only
    heading was its name, and a reader went through every chip of every row to reach who
    answered."""
    st.html(heading(text, 3, shown=False))


OWN_CHIPS = """<script>
(() => {
  if (window.clueOwnChips) return;
  window.clueOwnChips = true;
  const mark = () => {
    for (const row of document.querySelectorAll('[role="radiogroup"]')) {
      const seat = getComputedStyle(row).getPropertyValue('--clue-own-seat').trim();
      row.querySelectorAll('[role="radio"]').forEach((chip, i) => {
        const own = String(i + 1) === seat;
        if (own && chip.getAttribute('aria-disabled') !== 'true')
          chip.setAttribute('aria-disabled', 'true');
        else if (!own && chip.hasAttribute('aria-disabled')) chip.removeAttribute('aria-disabled');
      });
    }
  };
  let pending = false;
  new MutationObserver(() => {
    if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; mark(); }); }
  }).observe(document.documentElement, {childList: true, subtree: true});
  mark();
})();
</script>"""
"""The chip of a row that its style greys and lets no tap reach (``--clue-own-seat``: its
seat, from 1; the asker's own, `notebook_app.screens.turn.OWN_CHIP`) is said to be unavailable
(``aria-disabled``); it stays where it is, and reached by keys it still chooses nobody."""
