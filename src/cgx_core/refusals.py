"""The one refusal of one item of a call: a record (classify, add_premises) or a proposal (run_checks,
judge_citation, review), with its code, what is wrong, and its fix.

A refusal is not an error of the call: the call goes on with its other items and reports the refused one
under `refused`, so the agent resends only what was refused. (A whole call is refused with
`cgx_core.errors.CgxError`, and then nothing changes.) An item may have several problems; the agent must
see them all at once, or it fixes one, sends the item again and meets the next. So a refusal holds its
first problem and, in `also`, the others (`ItemRefused.every`), each with its own code, message, fix and place
in the item. The assembler raises it per record (the fixes are computed in `cgx_core.assembler.fixes`);
the check engine builds one per proposal; both report it with `to_json`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from cgx_core.codes import Code

Item = Literal["record", "proposal"]


class ItemRefused(Exception):
    """One record or proposal is not applied. Raised inside the assembler, caught per record, never
    escapes it; the check engine collects them per proposal."""

    def __init__(
        self, code: Code | str, message: str, fix: str, *, also: Sequence[ItemRefused] = (), **where: int
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fix = fix
        self.where = where
        self.also = tuple(also)

    @staticmethod
    def every(problems: Sequence[ItemRefused]) -> ItemRefused:
        """One refusal holding every problem found, in the order found (at least one)."""
        first, *others = [single for problem in problems for single in problem.problems()]
        return first._placed(first.where, others)

    def _placed(self, where: Mapping[str, int], also: Sequence[ItemRefused] = ()) -> ItemRefused:
        made = ItemRefused(self.code, self.message, self.fix, also=also)
        made.where = dict(where)
        return made

    def problems(self) -> list[ItemRefused]:
        """Each problem on its own: this one, then the others."""
        return [self._placed(self.where), *self.also]

    def at(self, **where: int) -> ItemRefused:
        """The same refusal, located in a part of the record (`child=1`, `premise=0`); a problem that
        already says where it is keeps its place."""
        return ItemRefused.every([problem._placed({**where, **problem.where}) for problem in self.problems()])

    def _body(self) -> dict[str, Any]:
        return {**self.where, "code": str(self.code), "message": self.message, "fix": self.fix}

    def to_json(self, number: int, node: str | None, item: Item = "record") -> dict[str, Any]:
        """The entry of `refused` for item (record or proposal) number `number` about `node`: the first
        problem, and `also` the others when there are more."""
        entry: dict[str, Any] = {item: number, "node": node, **self._body()}
        if self.also:
            entry["also"] = [problem._body() for problem in self.also]
        return entry
