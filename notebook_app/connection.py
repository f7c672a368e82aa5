"""What the page does when the network between the phone and the server drops mid-tap.

Streamlit sends each tap on the page's websocket and draws the answer. Where the Wi-Fi goes out
of range the browser does not know the socket is dead: a tap goes nowhere, nothing on the screen
changes, and Streamlit shows nothing (its "Connecting" state comes only once the socket is
closed, here when the server's ping goes unanswered, some 30-60 s later). When the page then
reconnects to the same session it asks for nothing, so the screen goes on showing what the
player tapped as if it were saved: a Record that never reached the server, or one whose answer
never came back (recorded, yet the form still full and the log without it, inviting a second
Record).

`watch` puts a script into the page that follows the websocket: a tap (a message sent just
after the player touched the page, not a timer's) without an answer for `WAIT_SECONDS` is said
in a banner at the top ("not saved yet"), and a socket that closes while a tap waited for its
answer, or within `RUN_SECONDS` of one, has the page reloaded once it reconnects. The reload
shows what the server has: what was recorded, and the form as it was kept (`notebook_app.kept`,
said in the status line), never the taps that may not have arrived.

While the server cannot be reached the banner says so in the player's language
(``offline``), in place of Streamlit's own "Connection error" dialog, which is in English
whatever the language, names Streamlit, and covers the screen: the script dismisses it as it
appears (Streamlit then keeps it away until it has reconnected) and says the same in the app's
words. Streamlit has no option to change or hide it (1.67). Once the page reconnects without a
tap lost, the script asks the app for a run (a tap of the hidden button `RECONNECTED`): Streamlit
asks for none on reconnecting to the same session, so what other phones recorded meanwhile
showed only at the player's next tap. That run sends the form as the page shows it and taps
nothing else: nothing is recorded by it, and a half-filled form stays as it was.
"""

from __future__ import annotations

import json

import streamlit as st

from solver.i18n import _

from .colours import banner_css

state = st.session_state

WAIT_SECONDS = 5
"""Seconds a tap may wait for the server's first answer before the banner says so: the run it
asks for starts, and says so, within a fraction of a second on a working network (a run
already under way sends what it draws meanwhile)."""

RUN_SECONDS = 30
"""Seconds after a tap within which a socket that closes has the page reloaded even where the
answer had begun: a run cut off halfway leaves a page that asks for a run again as it
reconnects, sending the inputs it still shows (a Record's form, recorded meanwhile, came back
full, and its entry said to be another screen's)."""

SCRIPT = """<script>
(() => {
  window.clueConnectionWords = %(words)s;
  if (window.clueConnectionWatched) return;
  window.clueConnectionWatched = true;
  const WAIT = %(wait)d * 1000;
  const watched = new WeakSet();
  let waiting = null;     // when the oldest tap without an answer was sent
  let touched = 0;        // when the player last tapped or typed (a timer's run is no tap)
  let tapped = 0;         // when the last tap was sent
  const AFTER = %(after)d * 1000;
  for (const type of ['pointerdown', 'keydown', 'click'])  // (not the script's own click)
    document.addEventListener(type, (event) => { if (event.isTrusted) touched = Date.now(); },
                              true);
  let lost = false;       // a socket closed while a tap waited: reload once reconnected
  let banner = null;
  const say = (words) => {
    if (!banner) {
      banner = document.createElement('div');
      banner.className = 'clue-connection';
      banner.setAttribute('role', 'alert');  // (it takes no tap: what it covers still does)
      banner.style.cssText = 'position:fixed;top:0;left:0;right:0;z-index:1000000;'
        + 'padding:0.5rem 0.8rem;%(colours)sfont-size:0.95rem;'
        + 'text-align:center;box-shadow:0 1px 4px rgba(0,0,0,0.2);pointer-events:none;';
      document.body.appendChild(banner);
    }
    banner.style.colorScheme = getComputedStyle(document.querySelector('.stApp')
                                                ?? document.body).colorScheme;  // as the page
    banner.textContent = words;
    banner.style.display = 'block';
  };
  const quiet = () => { if (banner && !lost) banner.style.display = 'none'; };
  const dismiss = () => {  // Streamlit's "Connection error" (its title is English in every
    for (const dialog of document.querySelectorAll('[data-testid="stDialog"]')) {  // language)
      if (dialog.querySelector('h2')?.textContent !== 'Connection error') continue;
      dialog.style.display = 'none';  // (before it is painted: no flash)
      dialog.querySelector('button')?.click();  // closed: Streamlit keeps it away until it
      if (!lost) say(window.clueConnectionWords.offline);  // has reconnected
    }
  };
  new MutationObserver(dismiss).observe(document.body, {childList: true, subtree: true});
  const rerun = (tries) => {  // once Streamlit has enabled the page's inputs again
    const button = document.querySelector('.st-key-%(rerun)s button');
    if (button && !button.disabled) button.click();
    else if (tries > 0) setTimeout(() => rerun(tries - 1), 100);
  };
  setInterval(() => {
    if (!lost && waiting !== null && Date.now() - waiting > WAIT)
      say(window.clueConnectionWords.waiting);
  }, 500);
  const watch = (socket) => {
    if (watched.has(socket) || !String(socket.url).endsWith('/_stcore/stream')) return;
    watched.add(socket);
    socket.addEventListener('open', () => {  // (a socket opened after this script: Streamlit
      if (lost) location.reload();           // reconnecting, the first one being older)
      else { quiet(); rerun(100); }
    });
    socket.addEventListener('message', () => { waiting = null; quiet(); });
    socket.addEventListener('close', () => {
      if (waiting === null && Date.now() - tapped > AFTER) return;
      lost = true;
      say(window.clueConnectionWords.lost);
    });
  };
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    watch(this);
    if (this.readyState === WebSocket.OPEN && Date.now() - touched < 2000) {
      tapped = Date.now();
      if (waiting === null) waiting = tapped;
    }
    return send.call(this, data);
  };
  window.WebSocket = new Proxy(WebSocket, {
    construct(target, args) { const socket = new target(...args); watch(socket); return socket; }
  });
})();
</script>"""


RECONNECTED = "clue_reconnected"
"""The key of the hidden button the script taps once the page has reconnected: a run that shows
what the server has now."""


def _reconnected() -> None:
    state.redrawn = True  # not the player's tap: the status line keeps what was just done


def watch() -> None:
    """Put the connection's watch into the page (once; its words follow the language), and the
    hidden button it taps on reconnecting."""
    st.button("↻", key=RECONNECTED, on_click=_reconnected)
    words = {
        "waiting": _("No answer from the server: what you tapped last is not saved yet. Keep "
                     "the page open; it shows what was saved once the network is back."),
        "lost": _("The connection dropped before the server answered your last tap. The page "
                  "reloads once the network is back, to show what was saved."),
        "offline": _("No connection to the server: check this device's network. The page "
                     "reconnects by itself once the server can be reached, and shows what was "
                     "saved."),
    }
    st.html(f"<style>.st-key-{RECONNECTED} {{display: none;}}</style>"
            + SCRIPT % {"words": json.dumps(words, ensure_ascii=False), "wait": WAIT_SECONDS,
                        "after": RUN_SECONDS, "rerun": RECONNECTED, "colours": banner_css()},
            unsafe_allow_javascript=True)
