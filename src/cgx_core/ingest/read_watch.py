r"""What credencegraph's LaTeX reader actually opens, and a stop to anything the paper's boundary did not admit.

credencegraph's `read_latex` follows `\input` and reads `<main>.bbl` itself, through its own parser, and does
not say which files it read. `documents` finds the paper's files by scanning the text first; a scan and a
parser can disagree (`\verb|%|\input{/etc/passwd}` hides an `\input` from a scan that strips comments, while
the parser follows it). So while credencegraph reads, a Python audit hook sees every file it opens: a file
that is not one the scan admitted is refused before a byte of it is read.

Opens made by the import system (a module imported lazily while reading) are not the paper's and pass. The
hook is installed once per process (audit hooks cannot be removed) and does nothing outside a `watch`.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

_IMPORT_FRAMES = ("<frozen importlib._bootstrap", "<frozen zipimport")


class UnadmittedRead(Exception):
    """credencegraph tried to open a file the boundary did not admit; raised from the audit hook."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"not admitted: {path.name}")
        self.path = path


@attrs.define
class Watch:
    """One reading: which files may be opened, and which were refused."""

    admits: Callable[[Path], bool]
    refused: list[Path] = attrs.field(factory=list)


_local = threading.local()
_installed = False
_install_lock = threading.Lock()


def _current() -> Watch | None:
    watch: Watch | None = getattr(_local, "watch", None)
    return watch


def _from_import_system() -> bool:
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename.startswith(_IMPORT_FRAMES):
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event != "open":
        return
    watch = _current()
    if watch is None or not args or isinstance(args[0], int) or args[0] is None:
        return
    path = Path(os.fsdecode(args[0]))
    if _from_import_system():
        return
    if not watch.admits(path):
        watch.refused.append(path)
        raise UnadmittedRead(path)


def install() -> None:
    """Install the audit hook in this process (once; it does nothing outside a `watch`)."""
    global _installed
    with _install_lock:
        if not _installed:
            sys.addaudithook(_audit)
            _installed = True


@contextlib.contextmanager
def watch(admits: Callable[[Path], bool]) -> Iterator[Watch]:
    """Watch every file this thread opens inside the block; refuse those `admits` rejects."""
    install()
    current = Watch(admits)
    previous = _current()
    _local.watch = current
    try:
        yield current
    finally:
        _local.watch = previous
