"""The credences a person reads, as finish_run recorded them in report.json (checks/credences.py says how).

The report never re-infers a finished run: report.json is checked against the manifest's digest, and its
`credences` are what the run proves. A run finished before they were recorded has them computed here, the
same way, from its graph.json.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from credencegraph.core import Graph


SHOWN_CHANGE = 0.0005
"""A difference a person sees at three decimals."""


@attrs.frozen
class Mover:
    """One observation, and how much leaving it out would change the node's credence (after minus without)."""

    check: str
    by: float


@attrs.frozen
class Credence:
    """A node's credence before and after the observations, how it was had, and what moved it."""

    before: float
    after: float
    method: str = "exact"
    bound: float | None = None
    """The 95% half-width of an approximate credence; None when exact."""
    own_checks: float | None = None
    """For a node whose own check failed: its credence given its own checks alone."""
    moved_by: tuple[Mover, ...] = ()
    shared: tuple[str, ...] = ()
    """Shared assumptions it rests on whose credence the observations moved."""
    checked_by: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Each check type that decided the node, with how each of its checks ended."""
    against_verdict: bool = False
    """The observations moved the credence against the verdict (a failing node raised, a holding one lowered)."""

    @property
    def approximate(self) -> bool:
        return self.bound is not None


@attrs.frozen
class Missing:
    """Why a node has no credence, and what would give it one."""

    reason: str
    fix: str


@attrs.frozen
class Credences:
    method: str
    by_node: Mapping[str, Credence]
    missing: Mapping[str, Missing]
    moved_by_note: str | None


def _credence(entry: Mapping[str, Any]) -> Credence:
    return Credence(
        before=float(entry["before"]),
        after=float(entry["after"]),
        method=str(entry.get("method", "exact")),
        bound=float(entry["bound"]) if "bound" in entry else None,
        own_checks=float(entry["own_checks"]) if "own_checks" in entry else None,
        moved_by=tuple(Mover(str(item["check"]), float(item["by"])) for item in entry.get("moved_by", ())),
        shared=tuple(str(item) for item in entry.get("shared", ())),
        checked_by=tuple(
            (str(kind), tuple(str(result) for result in results))
            for kind, results in dict(entry.get("checked_by", {})).items()
        ),
        against_verdict=bool(entry.get("against_verdict", False)),
    )


def read_credences(summary: Mapping[str, Any], graph: Graph) -> Credences:
    """report.json's credences (computed from `graph` when an older run has none)."""
    recorded = summary.get("credences")
    if not isinstance(recorded, Mapping):
        from cgx_core.checks.credences import credences

        recorded = credences(graph)
    return Credences(
        method=str(recorded["method"]),
        by_node={node_id: _credence(entry) for node_id, entry in recorded["nodes"].items()},
        missing={
            node_id: Missing(str(item["reason"]), str(item["fix"])) for node_id, item in recorded["missing"].items()
        },
        moved_by_note=recorded.get("moved_by"),
    )


def explanation(credence: Credence, verdict: str | None) -> list[str]:
    """The sentences that say how to read a credence: how it was had, and what moved it."""
    said: list[str] = []
    if credence.against_verdict:
        moved = "raised" if credence.after > credence.before else "lowered"
        said.append(
            f"Against its verdict: it {verdict}, yet the observations {moved} its credence from "
            f"{credence.before:.4g} to {credence.after:.4g} (what moved it is below): a reviewer should look."
        )
    if credence.checked_by:
        said.append(_checked_by(credence.checked_by, verdict))
    if credence.approximate:
        said.append(f"Approximate ({credence.method}): within ±{credence.bound:.3f} at 95%.")
    if credence.own_checks is not None:
        alone = f"Given its own checks alone: {credence.own_checks:.4g}"
        if credence.after - credence.own_checks >= SHOWN_CHANGE:
            alone += (
                f"; given every observation: {credence.after:.4g}, raised by the others (steps that rest on it, "
                "or share its premises, passed)"
            )
        elif credence.own_checks - credence.after >= SHOWN_CHANGE:
            alone += f"; given every observation: {credence.after:.4g}, lowered by the others"
        said.append(alone + ".")
    if credence.moved_by:
        shown = ", ".join(f"{mover.check} ({mover.by:+.3f})" for mover in credence.moved_by)
        said.append(f"Moved most by {shown}.")
    if credence.shared:
        said.append(
            f"Moved through shared assumption{'s' if len(credence.shared) > 1 else ''} {', '.join(credence.shared)}."
        )
    return said


def _checked_by(checked: tuple[tuple[str, tuple[str, ...]], ...], verdict: str | None) -> str:
    """What the verdict rests on: each check type and how its checks ended. A verdict of one type alone says only
    what that type checks (a cross-reference: where the node points, not what it says there)."""
    shown = ", ".join(
        f"{kind} ({', '.join(f'{results.count(result)} {result}' for result in sorted(set(results)))})"
        for kind, results in checked
    )
    if len(checked) == 1 and verdict in ("holds", "fails"):
        return f"Its verdict rests on {shown} alone: it says only what that check type checks."
    return f"Its verdict rests on {shown}."


def reading(credence: Credence | None, missing: Missing | None, verdict: str | None) -> list[str]:
    """What every format says under a node: how to read its credence, or why it has none and the fix."""
    if credence is not None:
        return explanation(credence, verdict)
    return [f"No credence: {missing.reason}. To fix: {missing.fix}."] if missing is not None else []
