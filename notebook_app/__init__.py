"""The notebook app: a phone-first Streamlit companion for a real game of Clue.

``app.py`` is the entry point; each screen is a module of `notebook_app.screens` (``home``,
``play`` with its tabs ``turn``, ``grid``, ``log``, ``review``, ``game``). The session's state
is kept by `session`, the player's standing choices (Show odds, Suggest for me) by `choices`,
the entry form's logic by `entry`. The logic behind the screens lives in
small modules that can be tested without Streamlit: `turns` (whose turn, automatic passes, what
to show), `grid_view` (the grid as a table), `live` (a game in play, counting envelope triples
with `solver.envelopes`) and `store` (SQLite persistence).
"""
