"""The one exception a tool raises to refuse a whole call.

Anything else that escapes a handler is a bug; the front ends turn it into `internal-error` and never
show a traceback to the agent.
"""

from __future__ import annotations

from typing import Any

from cgx_core.codes import Code


class CgxError(Exception):
    """A refused call: a stable code and a message an agent can act on."""

    def __init__(self, code: Code, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, Any]:
        """The JSON result both front ends return for this error."""
        return {"error": {"code": str(self.code), "message": self.message}}
