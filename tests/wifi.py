"""The Wi-Fi between a phone and the app server, which drops: a TCP proxy on a free port of
127.0.0.1 that forwards to the server (open the app at `Wifi.url`)::

    wifi = Wifi(server.port)
    wifi.stall()   # out of range: nothing moves either way, the browser does not know
    wifi.deafen()  # the phone's taps still arrive, nothing comes back
    wifi.cut()     # every connection reset, every new one refused: the browser knows at once
    wifi.mend()    # back: what waited moves on (a connection `cut` meanwhile is gone)

Playwright's ``context.set_offline`` stops the page's requests but not its open websocket,
which is where Streamlit sends every tap."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from tests.appserver import free_port


class Wifi:
    """One proxy, started at once on a thread of its own; `close` stops it."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.up = True
        self._let_through = 0
        self._writers: set[asyncio.StreamWriter] = set()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._ready.wait(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._moving = asyncio.Event()
        self._moving.set()
        self._down = asyncio.Event()
        self._down.set()
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._carry, "127.0.0.1", self.port))
        self._ready.set()
        self._loop.run_forever()

    async def _carry(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await self._moving.wait()
        if not self.up:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.transport.abort()
            return
        self._writers |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter, down: bool) -> None:
            try:
                while data := await src.read(65536):
                    await self._moving.wait()
                    if down and self._let_through > 0:
                        self._let_through -= 1
                    elif down:
                        await self._down.wait()
                    if dst.transport.is_closing():
                        break
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                dst.transport.abort()

        await asyncio.gather(pipe(reader, up_writer, False), pipe(up_reader, writer, True))
        self._writers -= {writer, up_writer}

    def _call(self, work: Callable[[], object]) -> None:
        done = threading.Event()
        def run() -> None:
            work()
            done.set()
        self._loop.call_soon_threadsafe(run)
        done.wait(10)

    def cut(self) -> None:
        """Reset every connection and refuse new ones until `mend`."""
        def drop() -> None:
            self.up = False
            for w in list(self._writers):
                w.transport.abort()
            self._writers.clear()
        self._call(drop)

    def stall(self) -> None:
        """Hold whatever is sent, either way, until `mend`."""
        self._call(self._moving.clear)

    def deafen(self, let_through: int = 0) -> None:
        """Nothing comes back from the server after the next ``let_through`` reads of it (a
        run's first message, say); what the phone sends still arrives."""
        def deaf() -> None:
            self._let_through = let_through
            self._down.clear()
        self._call(deaf)

    def mend(self) -> None:
        def restore() -> None:
            self.up = True
            self._moving.set()
            self._down.set()
        self._call(restore)

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
