"""What awaits a person's review: the failed checks, the checks made with a model their type was not fitted
with (uncalibrated), and the assumptions the agent added, which rest on nothing (unanchored).

get_state and the report both list it, from the graph as JSON (get_state reads state.json without
credencegraph). An item leaves the list once a decisive review (holds or fails) covers it: for a check, a
review of its target made after the check (so a review made before a check failed does not hide it); for
an assumption, a review of the assumption itself. A review is the check node the `review` tool made
(`attributes.extraction.tool`), whatever its type is called.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cgx_core.graph.evidence import check_record
from cgx_core.graph.extraction import tool_of

REVIEW_TOOL = "review"
INFERENTIAL = ("requires", "supports", "refutes")
Json = dict[str, Any]


def is_review(node: Mapping[str, Any]) -> bool:
    """Whether a node is a review: a check the `review` tool made."""
    return tool_of(node["attributes"]) == REVIEW_TOOL and _record(node) is not None


def _record(node: Mapping[str, Any]) -> Mapping[str, Any] | None:
    return check_record(node["attributes"])


def awaiting_review(
    nodes: Sequence[Mapping[str, Any]], relations: Sequence[Mapping[str, Any]], models_of: Mapping[str, Sequence[str]]
) -> list[Json]:
    """The items awaiting review, in order: checks (in the order they ran), then the analyst assumptions.

    `models_of` gives, for each check type the rubric declares, the models its values were fitted with."""
    reviewed_at: dict[str, int] = {}  # node -> position of its latest decisive review
    for position, node in enumerate(nodes):
        record = _record(node)
        if record is not None and is_review(node) and record.get("result") in ("passed", "failed"):
            reviewed_at[str(record.get("target"))] = position
    items: list[Json] = []
    for position, node in enumerate(nodes):
        record = _record(node)
        if record is None or is_review(node):
            continue
        target = str(record.get("target"))
        if reviewed_at.get(target, -1) > position:
            continue
        why = []
        if record.get("result") == "failed":
            why.append("failed")
        model = record.get("model")
        if model is not None and node["kind"] in models_of and model not in models_of[node["kind"]]:
            why.append("uncalibrated")
        if why:
            items.append({"node": target, "check": node["id"], "type": node["kind"], "why": why})
    has_parent = {relation["target"] for relation in relations if relation["type"] in INFERENTIAL}
    conclusions: dict[str, list[str]] = {}
    for relation in relations:
        if relation["type"] == "requires":
            conclusions.setdefault(relation["source"], []).append(relation["target"])
    for node in nodes:
        if node["attributes"].get("origin") != "analyst" or node["id"] in has_parent or node["id"] in reviewed_at:
            continue
        items.append(
            {
                "node": node["id"],
                "type": node["kind"],
                "why": ["unanchored"],
                "conclusions": conclusions.get(node["id"], []),
            }
        )
    return items


def models_from_rubric_toml(rubric: Mapping[str, Any]) -> dict[str, list[str]]:
    """The models each declared check type was fitted with, from the rubric as parsed TOML."""
    checks = rubric.get("checks", {})
    if not isinstance(checks, Mapping):
        return {}
    return {
        str(name): [str(model) for model in declared.get("models", [])]
        for name, declared in checks.items()
        if isinstance(declared, Mapping)
    }
