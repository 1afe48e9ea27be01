"""What a call of the assembler returns, and how one record's refusal travels until it is reported.

A refusal is not an error of the call: the call goes on with the other records and reports the refused
one under `refused`, with a stable code, the message (credencegraph's own when credencegraph refused) and
a fix computed from the record, the rubric and the run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    """One record is not applied. Raised inside the assembler, caught per record, never escapes it.

    A record may have several problems; the agent must see them all at once, or it fixes one, sends the
    record again and meets the next. So a refusal holds its first problem and, in `also`, the others
    (`Refused.every`), each with its own code, message, fix and place in the record."""

    def __init__(self, code: Code, message: str, fix: str, *, also: Sequence[Refused] = (), **where: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fix = fix
        self.where = where
        self.also = tuple(also)

    @staticmethod
    def every(problems: Sequence[Refused]) -> Refused:
        """One refusal holding every problem found, in the order found (at least one)."""
        first, *others = [single for problem in problems for single in problem.problems()]
        return first._placed(first.where, others)

    def _placed(self, where: Mapping[str, int], also: Sequence[Refused] = ()) -> Refused:
        made = Refused(self.code, self.message, self.fix, also=also)
        made.where = dict(where)
        return made

    def problems(self) -> list[Refused]:
        """Each problem on its own: this one, then the others."""
        return [self._placed(self.where), *self.also]

    def at(self, **where: int) -> Refused:
        """The same refusal, located in a part of the record (`child=1`, `premise=0`); a problem that
        already says where it is keeps its place."""
        return Refused.every([problem._placed({**where, **problem.where}) for problem in self.problems()])

    def _body(self) -> dict[str, Any]:
        return {**self.where, "code": str(self.code), "message": self.message, "fix": self.fix}

    def to_json(self, record: int, node: str | None) -> dict[str, Any]:
        """The entry of `refused` for record number `record` about `node`: the first problem, and `also`
        the others when there are more."""
        entry: dict[str, Any] = {"record": record, "node": node, **self._body()}
        if self.also:
            entry["also"] = [problem._body() for problem in self.also]
        return entry


def credence_json(credence: Credence) -> float | dict[str, float]:
    """A credence as credencegraph writes it: a Point as a number, a Beta as {"alpha", "beta"}."""
    written: float | dict[str, float] = credence_to_json(credence)
    return written
