"""start_run's result: a summary of the new run that fits an agent's context, whatever the paper.

Listing every chunk of a real paper took 60 to 185 thousand characters, past what some harnesses keep of
a tool result. So start_run returns what an agent plans by (counts by unit, the document's files, the
bibliography, the rubric's types, hedges and premise rules, the declared check types with the schema of
their proposals) and the first page of nodes, exactly as get_state lists them, filling what the summary
leaves of `MAX_RESULT_CHARS`; `next` says where get_state continues. Lists that grow with the paper
(files, unresolved keys, cited copies, ...) are cut to their first few, with their total: the run's
manifest.json holds them whole.

When a rubric is so large that its own listing would leave too little room for a page, its parts are
shortened in a fixed order (the proposal schemas, which `tools` also lists, then the type descriptions,
then the hedges, types and checks beyond what fits), and `shortened` says what was left out, so the bound
holds for any rubric too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from cgx_core.fence import fence_note
from cgx_core.graphs import node_json, relation_json
from cgx_core.tools.get_state import DEFAULT_LIMIT, nodes_page
from cgx_core.tools.output import result_text
from cgx_core.tools.paging import MAX_RESULT_CHARS, size
from cgx_core.tools.rubric_view import checks_view, premises_view, types_view

if TYPE_CHECKING:
    from credencegraph.core import Graph
    from credencegraph.rubric import Rubric

Json = dict[str, Any]

FIRST: Final = 10
"""How many items of a list that grows with the paper the summary shows."""
PAGE_ROOM: Final = 6_000
"""The characters a rubric's listing leaves for the first page at least, before it is shortened."""
NEXT: Final = (
    "classify every chunk (classify), then add the premises of each conclusion (add_premises); the nodes not "
    'listed here come from get_state {"run": <run>, "start": <next>} (or {"type": "unassigned"} for what is '
    "left to classify)"
)


def first(items: Sequence[Any], count: int = FIRST) -> Json:
    """A list cut to its first `count` items, with its total."""
    return {"total": len(items), "first": list(items[:count])}


def _bibliography(report: Mapping[str, Any]) -> Json:
    return {
        "files": first(report.get("files", [])),
        "cited_keys": report.get("cited_keys", 0),
        "from_bbl": len(report.get("from_bbl", [])),
        "from_bib": len(report.get("from_bib", [])),
        "unresolved": first(report.get("unresolved", []), 20),
        "disagreements": first(report.get("disagreements", []), 3),
        "warnings": first(report.get("warnings", []), 3),
    }


def _counts(nodes: list[Json]) -> Json:
    """The nodes by unit, and how many chunks are left to classify."""
    by_unit: dict[str, int] = {}
    for node in nodes:
        unit = node["attributes"].get("unit")
        if isinstance(unit, str):
            by_unit[unit] = by_unit.get(unit, 0) + 1
    return {
        "nodes": len(nodes),
        "by_unit": dict(sorted(by_unit.items())),
        "untyped": sum(1 for node in nodes if node["kind"] == "unassigned"),
    }


def _shortened(result: Json, room: int) -> None:
    """Shorten the rubric's listing in place, step by step, until the result leaves `room` characters, and
    say in `shortened` what was left out."""
    notes: list[str] = []

    def fits() -> bool:
        return len(result_text({**result, "shortened": notes})) + room <= MAX_RESULT_CHARS

    if not fits():
        result["checks"] = [{k: v for k, v in item.items() if k != "proposal"} for item in result["checks"]]
        notes.append("checks: the proposal schemas (the `tools` command and run_checks' schema give them)")
    if not fits():
        result["types"] = [{k: v for k, v in item.items() if k != "description"} for item in result["types"]]
        notes.append("types: the descriptions")
    for key in ("hedges", "types", "checks"):
        if fits():
            break
        items = result[key]
        result[key] = []
        spare = MAX_RESULT_CHARS - room - len(result_text({**result, "shortened": [*notes, f"{key}: 0 of 0000000"]}))
        for item in items:
            spare -= size(item) + 1
            if spare < 0:
                break
            result[key].append(item)
        notes.append(f"{key}: {len(result[key])} of {len(items)}")
    if notes:
        result["shortened"] = notes


def summary(graph: Graph, rubric: Rubric, run_id: str, token: str, manifest: Mapping[str, Any]) -> Json:
    """The start_run result for the run's first state."""
    nodes = [node_json(node) for node in graph]
    relations = [relation_json(relation) for relation in graph.relations.values()]
    checks = checks_view(rubric)
    schemas = _proposal_schemas()
    for item in checks:
        if item["name"] in schemas:
            item["proposal"] = schemas[item["name"]]
    result: Json = {
        "run": run_id,
        "fence": fence_note(token),
        "document": {
            "format": manifest["document"]["format"],
            "files": first(manifest["document"]["files"]),
        },
        "rubric": manifest["rubric"],
        "counts": _counts(nodes),
        "bibliography": _bibliography(manifest["bibliography"]),
        "cited": first(manifest["cited"]),
        "types": types_view(rubric),
        "hedges": sorted(rubric.hedges),
        "premises": premises_view(rubric),
        "checks": checks,
        "total": len(nodes),
        "start": 0,
        "nodes": [],
        "next": None,
        "then": NEXT,
    }
    _shortened(result, PAGE_ROOM)
    # Unlike get_state's, this page may be empty: a first node longer than the budget is left to get_state.
    result["nodes"], result["next"] = nodes_page(nodes, relations, token, 0, DEFAULT_LIMIT, result, at_least_one=False)
    return result


def _proposal_schemas() -> dict[str, Json]:
    """Each installed, proposable check type's complete proposal schema, by name."""
    from cgx_core.plugins import installed_check_types
    from cgx_core.tools.proposal_schemas import proposal_schema

    return {
        item.check_type.name: proposal_schema(item.check_type)
        for item in installed_check_types()
        if item.check_type.fallback_for is None
    }
