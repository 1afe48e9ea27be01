"""The one exception a tool raises to refuse a whole call, and the one line a person reads for an error.

Anything else that escapes a handler is a bug; the front ends turn it into `internal-error` and never
show a traceback to the agent.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from cgx_core.codes import Code


class CgxError(Exception):
    """A refused call: a stable code and a message an agent can act on.

    The code is one of the core's (`Code`) or one a check type owns (declared with `define_codes`): a
    check type raises this error inside its own code and turns it into its refusal or error outcome."""

    def __init__(self, code: Code | str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, Any]:
        """The JSON result both front ends return for this error."""
        return {"error": {"code": str(self.code), "message": self.message}}


def utf8_text(data: bytes, code: Code, what: str, advice: str = "") -> str:
    """Bytes from outside (a paper's file, a rubric, a .bib, a batch line) as text, or the call refused with
    `code`: `<what> is not UTF-8 (byte N)`, then `; <advice>` when there is advice."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        more = f"; {advice}" if advice else ""
        raise CgxError(code, f"{what} is not UTF-8 (byte {error.start}){more}") from None


def error_line(code: str, message: str) -> str:
    """An error as one line a person reads, `error [code]: message`: what the command line prints on stderr
    (`cgx_cli.errors`) and what the report says of a replay or verify that could not run."""
    return f"error [{code}]: {message}"


def failure_line(error: CgxError | OSError) -> str:
    """The line for an error caught around a whole command: a refused call's code and message, or an operating
    system error as `io-error`, with the name of the file it names (never the path: a report may be shared)."""
    if isinstance(error, CgxError):
        return error_line(str(error.code), error.message)
    where = f" ({PurePath(str(error.filename)).name})" if error.filename else ""
    return error_line("io-error", f"{error.strerror or error}{where}")
