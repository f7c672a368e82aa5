"""Standard modules a command imports but never uses, loaded when first touched instead.

python-sat imports at load time what only some of its features need: ``gzip``, ``bz2`` and
``lzma`` (compressed formula files), ``tempfile`` (proof logging), ``copy`` (copying formulas)
and ``signal``. `defer` puts each one in ``sys.modules`` as an empty module that runs its code
on the first attribute asked of it, so ``import gzip`` costs nothing until ``gzip.open`` is
called: ``clue-notebook analyze`` then spends 16 M fewer instructions (of 250 M) starting up.

`importlib.util.LazyLoader` cannot do this under Python 3.11: an ``import`` statement reads the
module's ``__spec__``, and a lazy module loads on any attribute read. Here ``__spec__`` and the
other attributes an import sets are already in the empty module; only a missing one loads it.
Only the command line defers (one thread); the app and the tests import as usual.

>>> import sys
>>> defer("colorsys")  # imported by nobody so far
>>> type(sys.modules["colorsys"]).__name__
'_Deferred'
>>> import colorsys  # costs nothing yet
>>> colorsys.rgb_to_hsv(1, 0, 0), type(colorsys).__name__  # the first use loads it
((0.0, 1.0, 1), 'module')
"""

from __future__ import annotations

import sys
from importlib.util import find_spec, module_from_spec
from types import ModuleType

UNUSED = ("gzip", "bz2", "lzma", "tempfile", "copy", "signal")
"""What python-sat imports at load and the commands that only deduce never use."""


class _Deferred(ModuleType):
    """A module whose code has not run yet: the first missing attribute runs it."""

    def __getattr__(self, name: str) -> object:
        module: ModuleType = self
        module.__class__ = ModuleType  # a module like any other from now on
        spec = module.__spec__
        if spec is None or spec.loader is None:  # pragma: no cover - `defer` checked both
            raise AttributeError(name)
        spec.loader.exec_module(module)
        return getattr(module, name)


def defer(*names: str) -> None:
    """Let each module named (top-level, not imported yet) load on first use, not on import."""
    for name in names:
        if name in sys.modules:
            continue
        spec = find_spec(name)
        if spec is None or spec.loader is None:
            continue  # missing: the import will say so as usual
        module = module_from_spec(spec)
        module.__class__ = _Deferred
        sys.modules[name] = module
