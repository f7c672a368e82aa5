"""The app's server: Streamlit's own (Starlette under uvicorn) serving ``app.py``, with the
middleware that keeps this browser's list and choices in cookies the server sets
(`notebook_app.browser_cookies.BrowserCookies`).

Run it as ``streamlit run notebook_app/server.py`` (scripts/app, the Procfile and the tests'
servers do). ``app.py`` alone still runs; its list then lives in the cookie its page writes,
which Safari keeps 7 days at most."""

import streamlit as st
from starlette.middleware import Middleware

from notebook_app.browser_cookies import BrowserCookies

app = st.App("app.py", middleware=[Middleware(BrowserCookies)])
