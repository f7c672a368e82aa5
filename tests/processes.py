"""Processes as the tests see them through Linux's /proc."""

from __future__ import annotations

from pathlib import Path


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie nobody reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
