"""Objects that hold a SAT solver and free it when a ``with`` block ends."""

from __future__ import annotations

from typing import Self


class Closing:
    """Use the object in ``with``; leaving the block calls `close`."""

    def close(self) -> None:
        """Free what the object holds."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
