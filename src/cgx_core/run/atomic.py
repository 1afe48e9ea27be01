"""Writing a derived file so that a reader never sees it half-written: temp file, fsync, rename."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_atomic(path: Path, data: bytes) -> None:
    """Replace `path` with `data` in one rename; a crash leaves either the old or the new file."""
    temp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with temp.open("wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise


def fsync_directory(path: Path) -> None:
    """Make a directory's entries (a created or renamed file) durable."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
