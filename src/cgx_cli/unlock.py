"""`credencegraph-extract unlock RUN`: who holds the run's lock, read from /proc/locks.

The lock is the operating system's and dies with its process, so there is nothing to break: this command
reports the holder, so a person can decide whether to stop a hung agent.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cgx_cli.exit_codes import ExitCode
from cgx_core.errors import CgxError
from cgx_core.run.layout import RunPaths
from cgx_core.run.lock import lock_holder
from cgx_core.run.manifest import read_manifest
from cgx_core.tools.output import result_text


def unlock(run: str) -> int:
    paths = RunPaths(Path(run))
    try:
        read_manifest(paths)
    except CgxError as error:
        sys.stderr.write(f"error [{error.code}]: {error.message}\n")
        return ExitCode.ERROR
    holder = lock_holder(paths.lock) if paths.lock.exists() else None
    report = {
        "locked": holder is not None,
        "holder": None if holder is None else {"pid": holder.pid, "command": holder.command},
        "advice": "no tool call holds the lock"
        if holder is None
        else "a tool call is running; if its process is hung, stop it (the OS then frees the lock)",
    }
    sys.stdout.write(result_text(report) + "\n")
    return ExitCode.OK
