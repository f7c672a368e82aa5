"""The app's server: Streamlit's own (Starlette under uvicorn) serving ``app.py``, with the
middleware that keeps this browser's list in a cookie the server sets
(`notebook_app.shelf_cookie.ShelfCookie`).

Run it as ``streamlit run notebook_app/server.py`` (scripts/app, the Procfile and the tests'
servers do). ``app.py`` alone still runs; its list then lives in the cookie its page writes,
which Safari keeps 7 days at most."""

import streamlit as st
from starlette.middleware import Middleware

from notebook_app.shelf_cookie import ShelfCookie

app = st.App("app.py", middleware=[Middleware(ShelfCookie)])
