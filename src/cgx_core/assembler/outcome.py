"""What a call of the assembler returns, and how one record's refusal travels until it is reported.

A refusal is not an error of the call: the call goes on with the other records and reports the refused
one under `refused`, with a stable code, the message (credencegraph's own when credencegraph refused) and
a fix computed from the record, the rubric and the run.
"""

from __future__ import annotations

from typing import Any

import attrs
from credencegraph.core import Graph
from credencegraph.core.credence import Credence
from credencegraph.core.serialization import credence_to_json

from cgx_core.codes import Code


@attrs.frozen
class Outcome:
    """The graph after a call, and the tool's JSON result body."""

    graph: Graph
    result: dict[str, Any]


class Refused(Exception):
    """One record is not applied. Raised inside the assembler, caught per record, never escapes it."""

    def __init__(self, code: Code, message: str, fix: str, **where: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fix = fix
        self.where = where

    def at(self, **where: int) -> Refused:
        """The same refusal, located in a part of the record (`child=1`, `premise=0`)."""
        return Refused(self.code, self.message, self.fix, **{**where, **self.where})

    def to_json(self, record: int, node: str | None) -> dict[str, Any]:
        """The entry of `refused` for record number `record` about `node`."""
        entry: dict[str, Any] = {"record": record, "node": node}
        entry.update(self.where)
        entry.update({"code": str(self.code), "message": self.message, "fix": self.fix})
        return entry


def credence_json(credence: Credence) -> float | dict[str, float]:
    """A credence as credencegraph writes it: a Point as a number, a Beta as {"alpha", "beta"}."""
    written: float | dict[str, float] = credence_to_json(credence)
    return written
