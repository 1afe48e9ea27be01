"""What labelled runs observed, as counts: the data a rubric is fitted on.

- **checks**: for each check type, how often a check passed and failed on a node that holds and on one that
  does not (the node a check observes: its target, or for a premised check its reading). A person's review
  is the label, never a check to fit: reviews are left out.
- **bases**: for each type, how many nodes hold and how many do not among those whose every `requires`
  parent holds (a base is P(node | everything it requires holds)). Assumptions of both origins are one
  count, `premises`: the rubric keeps `premises.base`, the assumption type's base and the reading type's
  base equal (every analyst node's base is `premises.base`).
- **propagation**: for each type with a `requires` rule, how many of its nodes hold and how many do not among
  those with exactly one false `requires` parent of the document's (and every other parent holding): how
  often a false statement takes what rests on it down, which sets the rule's `strength`. A claim resting on
  a table of which one row is wrong mostly still holds; a derivation from a wrong equation mostly does not.
- **extra**: counts from outside the runs (the maths soundness corpus), added to a type's checks.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

import attrs

from cgx_core.calibration.labels import LabelledRun, requires_parents
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.graph import analyst
from cgx_core.graph.evidence import check_record
from cgx_core.graph.extraction import tool_of
from cgx_core.graph.review_queue import REVIEW_TOOL

PREMISES: Final = "premises"
"""The count of assumptions (document and analyst), which sets premises.base and the bases that equal it."""
RESULTS: Final = ("passed", "failed")


@attrs.define
class Tally:
    """Passes and fails, or holds and fails, out of a count."""

    yes: int = 0
    no: int = 0

    def add(self, value: bool) -> None:
        if value:
            self.yes += 1
        else:
            self.no += 1

    @property
    def total(self) -> int:
        return self.yes + self.no


@attrs.define
class CheckCounts:
    """A check type's results on nodes that hold (`holding`) and on nodes that do not (`failing`)."""

    holding: Tally = attrs.field(factory=Tally)
    failing: Tally = attrs.field(factory=Tally)
    sources: list[str] = attrs.field(factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "on_true": {"passed": self.holding.yes, "failed": self.holding.no},
            "on_false": {"passed": self.failing.yes, "failed": self.failing.no},
            **({"also": self.sources} if self.sources else {}),
        }


@attrs.define
class Counts:
    """Everything a fit needs, by check type and by node type (or `premises`)."""

    checks: dict[str, CheckCounts] = attrs.field(factory=dict)
    bases: dict[str, Tally] = attrs.field(factory=dict)
    propagation: dict[str, Tally] = attrs.field(factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "checks": {name: counts.to_json() for name, counts in sorted(self.checks.items())},
            "bases": {name: {"true": tally.yes, "false": tally.no} for name, tally in sorted(self.bases.items())},
            "propagation": {
                name: {"true": tally.yes, "false": tally.no} for name, tally in sorted(self.propagation.items())
            },
        }


def counted(runs: Iterable[LabelledRun], extra: Mapping[str, ExtraCounts] | None = None) -> Counts:
    """The counts of `runs`, with `extra` added to the check types it names."""
    counts = Counts()
    for run in runs:
        _count_checks(run, counts)
        parents = requires_parents(run.graph)
        _count_bases(run, parents, counts)
        _count_propagation(run, parents, counts)
    for name, more in sorted((extra or {}).items()):
        found = counts.checks.setdefault(name, CheckCounts())
        found.holding.yes += more.on_true[0]
        found.holding.no += more.on_true[1]
        found.failing.yes += more.on_false[0]
        found.failing.no += more.on_false[1]
        found.sources.append(more.source)
    return counts


def _count_checks(run: LabelledRun, counts: Counts) -> None:
    observed_by = {
        relation.target: relation.source for relation in run.graph.relations.values() if relation.type == "observes"
    }
    for node in run.graph:
        record = check_record(node.attributes)
        if record is None or tool_of(node.attributes) == REVIEW_TOOL or "observed" not in node.attributes:
            continue
        if node.kind not in run.rubric.checks:
            continue
        truth = run.truth.get(observed_by.get(node.id, ""))
        if truth is None:
            continue
        found = counts.checks.setdefault(node.kind, CheckCounts())
        (found.holding if truth else found.failing).add(bool(node.attributes["observed"]))


def _count_bases(run: LabelledRun, parents: Mapping[str, list[str]], counts: Counts) -> None:
    for node_id, truth in run.truth.items():
        node = run.graph.nodes[node_id]
        if node.kind == analyst.READING:
            continue
        if not all(run.truth.get(parent) is True for parent in parents.get(node_id, ())):
            continue
        name = PREMISES if node.kind == analyst.ASSUMPTION else node.kind
        counts.bases.setdefault(name, Tally()).add(truth)


def _count_propagation(run: LabelledRun, parents: Mapping[str, list[str]], counts: Counts) -> None:
    for node_id, truth in run.truth.items():
        node = run.graph.nodes[node_id]
        found = [run.truth.get(parent) for parent in parents.get(node_id, ())]
        if node.kind in (analyst.READING, analyst.ASSUMPTION) or None in found or found.count(False) != 1:
            continue
        [false_parent] = [parent for parent in parents[node_id] if run.truth[parent] is False]
        if run.graph.nodes[false_parent].attributes.get("origin") != "document":
            continue  # an analyst parent's strength is premises.strength, not the type's rule
        counts.propagation.setdefault(node.kind, Tally()).add(truth)


@attrs.frozen
class ExtraCounts:
    """Counts from outside the runs for one check type: (passed, failed) on true and on false steps."""

    on_true: tuple[int, int]
    on_false: tuple[int, int]
    source: str


def read_extra(path: Path) -> dict[str, ExtraCounts]:
    """Extra counts (JSON): `{"<check type>": {"source": "...", "on_true": {"passed": n, "failed": m},
    "on_false": {...}}}`; either side may be left out."""
    try:
        data = json.loads(path.read_bytes())
    except OSError as error:
        raise CgxError(Code.IO_ERROR, f"cannot read {path.name}: {error.strerror}") from None
    except ValueError as error:
        raise CgxError(Code.CALIBRATION_INVALID, f"{path.name}: not JSON: {error}") from None
    if not isinstance(data, dict):
        raise CgxError(Code.CALIBRATION_INVALID, f"{path.name}: a JSON object of check types")
    return {str(name): _extra(path.name, str(name), entry) for name, entry in data.items()}


def _extra(file: str, name: str, entry: Any) -> ExtraCounts:
    def side(value: Any) -> tuple[int, int]:
        value = value if value is not None else {}
        numbers = [value.get(result, 0) if isinstance(value, dict) else None for result in RESULTS]
        if not isinstance(value, dict) or set(value) - set(RESULTS) or not all(_count(item) for item in numbers):
            raise CgxError(Code.CALIBRATION_INVALID, f"{file}: {name}: a side is {{'passed': n, 'failed': m}}")
        return int(numbers[0]), int(numbers[1])  # type: ignore[arg-type]

    if not isinstance(entry, dict) or set(entry) - {"source", "on_true", "on_false"} or not entry.get("source"):
        raise CgxError(Code.CALIBRATION_INVALID, f"{file}: {name}: give source, on_true and on_false")
    return ExtraCounts(side(entry.get("on_true")), side(entry.get("on_false")), str(entry["source"]))


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10**9
