"""Writing a derived file so that a reader never sees it half-written: temp file, fsync, rename."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_atomic(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Replace `path` with `data` in one rename; a reader sees the old file or the new one, never a part.

    `durable` fsyncs the data before the rename, so a power loss cannot leave an empty or torn file. A
    file derived from the log (state.json, graph.json, ...) does without: the log is the record of truth,
    and a derived file the file system lost is rebuilt from it by the next call."""
    temp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with temp.open("wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
