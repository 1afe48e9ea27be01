"""The one printer of the command line's `error [<code>]: <message>` line on standard error.

Every command reports a failure with this one line (and exit status 2), so a script reads one format
whatever the command: the code is a stable code of `cgx_core.codes` (or `usage`, `interrupted`), the
message says what is wrong and, where there is one, what to do. The line's form is `cgx_core.errors`'s.
"""

from __future__ import annotations

import sys

from cgx_core.errors import CgxError, error_line, failure_line


def print_error(code: str, message: str, *, prefix: str = "") -> None:
    """Write one `error [code]: message` line on stderr, after `prefix` (a batch's `line N: `)."""
    sys.stderr.write(f"{prefix}{error_line(code, message)}\n")


def print_failure(error: CgxError | OSError) -> None:
    """The line for an error a command caught: a refused call, or an operating system error (`io-error`)."""
    sys.stderr.write(failure_line(error) + "\n")
