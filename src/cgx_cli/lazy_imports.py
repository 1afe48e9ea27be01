"""Deferring two imports a short command rarely needs: numpy, and the body of `credencegraph.diagnostics`.

A shell-driven harness pays a process start-up on every call, and numpy is a fifth of a second of it.
credencegraph 0.4 needs numpy only to infer (finish_run's check at level assessed, the diagnostics), yet
every call that edits a graph imports it: `credencegraph.rubric` imports `rubric.validate`, which imports
`credencegraph.diagnostics.records`, and importing any module of a package first runs the package's
`__init__`, which here imports every diagnostic and with them the inference engine and numpy; and
`credencegraph.semantics` imports numpy at the top of two modules that use it only inside functions.

So the command line's entry point installs, before anything imports credencegraph, a finder for exactly
these two names:

* `credencegraph.diagnostics` becomes a package whose submodules import as usual, and whose `__init__`
  runs the first time one of its own names is read (PEP 562 `__getattr__`);
* `numpy` becomes a stand-in module that imports the real numpy the first time any of its names is read,
  then takes on all of them (so later reads are plain attribute reads) and hands the real module to every
  later `import numpy`.

Nothing else changes: code that reaches for numpy or a diagnostic gets the real one, imported at that
moment (tests run finish_run, which infers, through the command line). The MCP server, long-lived, gains
nothing from it but loses nothing either. A later credencegraph that imports numpy lazily itself makes
this a no-op.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import threading
import types
from collections.abc import Sequence
from typing import Any

DIAGNOSTICS = "credencegraph.diagnostics"
NUMPY = "numpy"
_lock = threading.RLock()


class _Stand(types.ModuleType):
    """numpy until something reads one of its names; then a copy of the real module's namespace."""

    def __getattr__(self, name: str) -> Any:
        if not self.__dict__.get("_cgx_ready"):
            raise AttributeError(name)  # the import system is still setting the module up
        with _lock:
            real = sys.modules.get(NUMPY)
            if real is None or real is self:
                sys.modules.pop(NUMPY, None)
                _FINDER.deferring.discard(NUMPY)
                real = importlib.import_module(NUMPY)
                self.__dict__.update(real.__dict__)
        return getattr(real, name)


class _StandLoader:
    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return _Stand(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        module.__dict__["_cgx_ready"] = True


class _LatePackageLoader:
    """Sets a package up with its `__path__` (so its submodules import) and runs its `__init__` later."""

    def __init__(self, original: Any) -> None:
        self._original = original

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        original = self._original

        def __getattr__(name: str) -> Any:
            with _lock:
                if module.__dict__.get("__getattr__") is __getattr__:
                    del module.__dict__["__getattr__"]
                    exec(original.get_code(module.__name__), module.__dict__)
            try:
                return module.__dict__[name]
            except KeyError:
                raise AttributeError(f"module {module.__name__!r} has no attribute {name!r}") from None

        module.__dict__["__getattr__"] = __getattr__


class _Finder:
    """A meta-path finder for the deferred names only; every other import is left to the usual finders."""

    def __init__(self) -> None:
        self.deferring = {NUMPY, DIAGNOSTICS}

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name not in self.deferring:
            return None
        if name == NUMPY:
            return importlib.machinery.ModuleSpec(NUMPY, _StandLoader())  # type: ignore[arg-type]
        self.deferring.discard(name)  # found once: the package module then stays in sys.modules
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "get_code"):
            return spec
        spec.loader = _LatePackageLoader(spec.loader)  # type: ignore[assignment]
        return spec


_FINDER = _Finder()


def install() -> None:
    """Defer numpy and credencegraph.diagnostics, unless something has imported them already."""
    if _FINDER in sys.meta_path:
        return
    for name in (NUMPY, DIAGNOSTICS):
        if name in sys.modules:
            _FINDER.deferring.discard(name)
    sys.meta_path.insert(0, _FINDER)
