"""A link shown with a Copy button under it: one tap copies it on a phone.

Streamlit's code box has a copy button of its own, but it shows only while a mouse hovers over
the box: a finger found it only after a first tap on the link, and on an ``http://`` address
other than localhost (the app served on a home network) it did nothing and said nothing, the
clipboard API being there only for a secure context. The button here is always shown, in the
player's words; where the clipboard API is missing or refuses, it copies through the older
``document.execCommand``, and where that fails too it selects the link on the screen and says to
press and hold it to copy.
"""

from __future__ import annotations

from html import escape

import streamlit as st

from solver.i18n import _

SCRIPT = """<script>
(() => {
  if (window.clueCopying) return;
  window.clueCopying = true;
  const older = (text) => {  // no clipboard API outside a secure context
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.cssText = 'position:fixed;top:0;left:0;opacity:0;';
    document.body.appendChild(area);
    area.select();
    let done = false;
    try { done = document.execCommand('copy'); } catch (error) { done = false; }
    area.remove();
    return done;
  };
  document.addEventListener('click', async (event) => {
    const button = event.target.closest?.('button.clue-copy');
    if (!button) return;
    const box = button.closest('[data-testid="stVerticalBlock"]');
    const said = box.querySelector('.clue-copied');
    let done = false;
    if (navigator.clipboard) {
      try { await navigator.clipboard.writeText(button.dataset.link); done = true; }
      catch (error) { done = false; }
    }
    if (!done) done = older(button.dataset.link);
    if (!done) {  // selected on the screen: a long press offers Copy
      const code = box.querySelector('[data-testid="stCode"] code');
      const range = document.createRange();
      range.selectNodeContents(code);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
    }
    said.textContent = done ? button.dataset.copied : button.dataset.failed;
    clearTimeout(said.clueTimer);
    if (done) said.clueTimer = setTimeout(() => { said.textContent = ''; }, 4000);
  });
})();
</script>"""

STYLE = """<style>
button.clue-copy {font: inherit; font-size: 0.95rem; color: inherit; background: transparent;
  border: 1px solid var(--clue-border); border-radius: 0.5rem; min-height: 2.4rem;
  padding: 0.25rem 0.9rem; cursor: pointer; touch-action: manipulation;}
button.clue-copy:focus-visible {border-color: var(--clue-accent); color: var(--clue-accent);}
@media (hover: hover) {button.clue-copy:hover {border-color: var(--clue-accent);
  color: var(--clue-accent);}}
.clue-copy-row {display: flex; flex-wrap: wrap; align-items: center; gap: 0.3rem 0.7rem;}
.clue-copied {flex: 1 1 10rem; font-size: 0.9rem; color: var(--clue-faint);}
[class*="st-key-link_"] [data-testid="stCode"] [data-testid="stElementToolbarButton"] {
  display: none;}
</style>"""
"""The button as Streamlit draws a secondary one, a finger's height (its hover colour only
where there is a hover: a finger's tap left it coloured); Streamlit's own copy button (shown on
hover) hidden in these boxes, so a mouse finds one button, not two."""


def link_box(link: str, key: str) -> None:
    """``link`` in a code box (where a long press selects it), and a Copy button under it."""
    with st.container(key=f"link_{key}", gap="small"):
        st.code(link, language=None, wrap_lines=True)
        words = {"link": link, "copied": _("Copied"),
                 "failed": _("This address does not let the page copy: the link is selected, "
                             "press and hold it to copy it.")}
        data = " ".join(f'data-{name}="{escape(value)}"' for name, value in words.items())
        label = escape(_("Copy link"))
        st.html(f'{STYLE}<div class="clue-copy-row">'
                f'<button type="button" class="clue-copy" {data}>{label}</button>'
                f'<span class="clue-copied" role="status"></span></div>{SCRIPT}',
                unsafe_allow_javascript=True)
