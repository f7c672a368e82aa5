"""The notebook app: a phone-first Streamlit companion for a real game of Clue.

``app.py`` describes the screens; the logic behind them lives in small modules that can be
tested without Streamlit: `turns` (whose turn, automatic passes, what to show), `grid_view`
(the grid as a table), `live` (a game in play, counting envelope triples with
`solver.envelopes`) and
`store` (SQLite persistence).
"""
