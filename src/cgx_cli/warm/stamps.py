"""What a warm process's code was when it loaded it, to know when it would run stale code.

A process that imports once and then serves for minutes (the warm server, its zygote of budgeted workers) must
never serve code that changed since: each imported module's file and each module-path folder (a distribution
installed or removed changes its folder) is stamped by inode, modification time and size, and compared again
before each call or fork (about a thousand `stat`s, a millisecond).
"""

from __future__ import annotations

import os
import sys


class Stamps:
    """The stamps of every module imported so far and of the module path's folders."""

    def __init__(self) -> None:
        self._taken: dict[str, tuple[int, int, int] | None] = {}
        self.extend()

    def extend(self) -> None:
        """Stamp what was imported since (kept stamps are not taken again, so no change between is missed)."""
        paths = {getattr(module, "__file__", None) for module in list(sys.modules.values())} | set(sys.path)
        for path in sorted(p for p in paths if isinstance(p, str) and p and p not in self._taken):
            self._taken[path] = _stamp(path)

    def changed(self) -> bool:
        """Whether any of them differs now."""
        return any(_stamp(path) != stamp for path, stamp in self._taken.items())


def _stamp(path: str) -> tuple[int, int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_ino, found.st_mtime_ns, found.st_size)
