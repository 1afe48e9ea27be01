"""Where a command's result goes: the process's real stdout, kept for results alone.

A plugin's code runs in this process (its import, its registration, a built-in type's checks) and in the
workers the process starts, and whatever it prints (`print()`, a C library writing to fd 1) would land on
stdout before the JSON a shell harness or an MCP client parses. So the console script `claim()`s stdout
once, before any plugin is imported: the real stdout moves to a private descriptor that only the
command's results (and the MCP server's frames) are written to, and fd 1 and `sys.stdout` point at stderr
for the rest of the process. Redirecting for the whole process rather than around each plugin call keeps
it right from every thread (MCP calls run in worker threads while the protocol writes) and every child.
"""

from __future__ import annotations

import os
import sys
from typing import TextIO

_results: TextIO | None = None


def claim() -> None:
    """From now on only `results()` reaches the real stdout; anything else written to fd 1 goes to stderr."""
    global _results
    if _results is not None:
        return
    sys.stdout.flush()
    private = os.dup(sys.stdout.fileno())  # not inherited: a child's fd 1 is stderr
    encoding, errors = sys.stdout.encoding, sys.stdout.errors
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    _results = os.fdopen(private, "w", buffering=1, encoding=encoding, errors=errors)  # line-buffered, whole writes
    sys.stdout = sys.stderr


def results() -> TextIO:
    """The stream a command writes its result to: the claimed stdout, or `sys.stdout` when nothing claimed
    it (a command run in process, as tests do)."""
    return _results if _results is not None else sys.stdout


def flush() -> None:
    """Flush the results before the process exits (unless the MCP server, done with them, closed them)."""
    if _results is not None and not _results.closed:
        _results.flush()
