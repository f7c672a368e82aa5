"""Immutable records of the game, without `dataclasses`' start-up cost.

The log's values (`solver.game`, `solver.cards`, the grid) used to be frozen dataclasses; each
one then cost ``clue-notebook analyze`` about 3.6 M instructions to create (six methods compiled
from source), and importing `dataclasses` with `inspect` 42 M more: without them a run spends
62 M fewer instructions over bare interpreter start-up, of 235 M. A `Value` is the same record
written by hand: fields declared as annotations and kept in ``__slots__``, an ``__init__`` that
stores them in order, equality and hashing field by field, a ``repr`` you can paste back, no
assignment after ``__init__``.

>>> class Seat(Value):
...     __slots__ = ("hand_size", "name")
...     name: str
...     hand_size: int
...     def __init__(self, name: str, hand_size: int = 0) -> None:
...         self._set(name, hand_size)
>>> seat = Seat("Ann", 3)
>>> seat, replace(seat, hand_size=4), seat == Seat("Ann", 3), field_names(seat)
(Seat(name='Ann', hand_size=3), Seat(name='Ann', hand_size=4), True, ('name', 'hand_size'))
>>> seat.name = "Bob"
Traceback (most recent call last):
...
AttributeError: cannot assign to field 'name': Seat is immutable
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Self, TypeVar


class Value:
    """Base of an immutable record. A subclass declares its fields as annotations (in the
    order its ``__init__`` takes them) and lists them in ``__slots__``; its ``__init__`` hands
    their values, in that order, to `_set`. A field named with a leading underscore is derived:
    set by ``__init__`` with ``object.__setattr__``, never compared, shown or passed to
    `replace`. A field named in ``_quiet`` (by default ``extra``, the fields a newer version
    wrote) is compared but neither shown nor hashed, as ``field(repr=False, hash=False)`` did.
    """

    __slots__ = ()
    _quiet: ClassVar[tuple[str, ...]] = ("extra",)
    _fields: ClassVar[tuple[str, ...]] = ()
    """The fields, in ``__init__`` order."""
    _shown: ClassVar[tuple[str, ...]] = ()
    """The fields in ``repr`` and in the hash."""
    _setters: ClassVar[tuple[Callable[[Any, Any], None], ...]] = ()
    """Each field's slot setter, in order (storing through them skips ``__setattr__``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The class's own annotations, in order (`inspect.get_annotations` would import inspect).
        declared = cls.__dict__.get("__annotations__", {})  # noqa: RUF063
        cls._fields = tuple(name for name in declared if not name.startswith("_"))
        cls._shown = tuple(name for name in cls._fields if name not in cls._quiet)
        cls._setters = tuple(cls.__dict__[name].__set__ for name in cls._fields)

    def _set(self, *values: object) -> None:
        """Store ``values`` as the fields, in order (``__init__`` only)."""
        for store, value in zip(self._setters, values, strict=True):
            store(self, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: {type(self).__name__} is "
                             f"immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: {type(self).__name__} is "
                             f"immutable")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self._fields)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, name) for name in self._shown))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown)
        return f"{type(self).__qualname__}({shown})"

    def __reduce__(self) -> tuple[type[Value], tuple[object, ...]]:
        """Pickle and copy as a call of the class with the fields."""
        return type(self), tuple(getattr(self, name) for name in self._fields)

    def __replace__(self, **changes: object) -> Self:
        """A copy with some fields changed (the protocol of Python 3.13's ``copy.replace``)."""
        values = {name: getattr(self, name) for name in self._fields}
        unknown = changes.keys() - values.keys()
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        values.update(changes)
        return type(self)(**values)


_V = TypeVar("_V", bound=Value)  # not bound="Value": a string costs a first compile() (10 M)


def replace(value: _V, /, **changes: object) -> _V:
    """``value`` with the given fields changed, as `dataclasses.replace` did."""
    return value.__replace__(**changes)


def field_names(value: Value | type[Value]) -> tuple[str, ...]:
    """The fields of a record (or of its class), in ``__init__`` order."""
    return value._fields
