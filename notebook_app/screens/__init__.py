"""The app's screens, one module each: `home` (saved games, new game, open a log) and, for an
open game, `play` (the shared header and the tabs) with `turn`, `grid`, `log`, `review` and
`game`. Shared state is `notebook_app.session`; the entry form's logic `notebook_app.entry`."""
