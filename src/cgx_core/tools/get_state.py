"""get_state: the run as it stands, read without a lock and without writing.

A 400-chunk paper must not flood the agent, so nodes come a page at a time (`start`, `limit`), or by
id (`nodes`), filtered by `type` or `unit`; the progress counts always come whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.fence import fence_note, fence_token, fenced
from cgx_core.graphs import plain
from cgx_core.run.session import Run

if TYPE_CHECKING:
    from credencegraph.core import Graph, Node
    from credencegraph.rubric import Rubric

DEFAULT_LIMIT = 50


def _origin(node: Node) -> str:
    return str(node.attributes.get("origin", ""))


def progress(graph: Graph, rubric: Rubric, rejections: int, finished: bool, seq: int) -> dict[str, Any]:
    """How far the run has got: the counts an agent plans its next calls by."""
    chunks = [node for node in graph if _origin(node) == "document" and node.attributes.get("unit") != "reference"]
    children = sum(1 for relation in graph.relations.values() if relation.type == "part-of")
    compound = sum(1 for node in chunks if node.kind == "compound")
    untyped = [node.id for node in chunks if node.kind == "unassigned"]
    conclusions = rubric.premises.for_types if rubric.premises else ()
    with_premises = {
        relation.target
        for relation in graph.relations.values()
        if relation.type == "requires"
        and (_origin(graph.nodes[relation.source]) == "analyst" or _made_by(relation.attributes, "add_premises"))
    }
    checks: dict[str, dict[str, int]] = {}
    for node in graph:
        if _origin(node) == "evidence" and isinstance(node.attributes.get("check"), Mapping):
            result = str(node.attributes["check"].get("result"))
            by_result = checks.setdefault(node.kind, {})
            by_result[result] = by_result.get(result, 0) + 1
    return {
        "calls": seq,
        "chunks": len(chunks) - children,
        "clauses": children,
        "split": compound,
        "typed": sum(1 for node in chunks if node.kind not in ("unassigned", "compound")),
        "untyped": len(untyped),
        "first_untyped": untyped[:10],
        "conclusions": sum(1 for node in graph if node.kind in conclusions),
        "conclusions_with_premises": sum(1 for node in graph if node.kind in conclusions and node.id in with_premises),
        "analyst_premises": sum(1 for node in graph if _origin(node) == "analyst"),
        "checks": {kind: dict(sorted(results.items())) for kind, results in sorted(checks.items())},
        "refusals": rejections,
        "finished": finished,
    }


def _made_by(attributes: Mapping[str, Any], tool: str) -> bool:
    extraction = attributes.get("extraction")
    return isinstance(extraction, Mapping) and extraction.get("tool") == tool


def node_view(
    node: Node, incoming: Mapping[str, list[Any]], outgoing: Mapping[str, list[Any]], token: str
) -> dict[str, Any]:
    """One node as an agent reads it: type, text, form and how it is linked; no credences."""
    view: dict[str, Any] = {
        "id": node.id,
        "origin": _origin(node),
        "unit": node.attributes.get("unit"),
        "type": node.kind,
        "text": fenced(node.statement, token) if _origin(node) == "document" else node.statement,
    }
    if "form" in node.attributes:
        view["form"] = plain(node.attributes["form"])
    if node.stated is not None:
        view["stated"] = True
    if "assessment" in node.attributes:
        view["assessment"] = plain(node.attributes["assessment"])
    if "check" in node.attributes:
        check = node.attributes["check"]
        view["check"] = {name: plain(check.get(name)) for name in ("type", "target", "result", "detail")}
    links: dict[str, list[str]] = {}
    for relation in incoming.get(node.id, ()):
        if relation.type == "requires":
            links.setdefault("rests_on", []).append(relation.source)
        elif relation.type == "part-of":
            links.setdefault("clauses", []).append(relation.source)
    for relation in outgoing.get(node.id, ()):
        if relation.type == "cites":
            links.setdefault("cites", []).append(relation.target)
        elif relation.type == "part-of":
            links["part_of"] = [relation.target]
        elif relation.type == "observes":
            links.setdefault("checks", []).append(relation.target)
        elif relation.type == "requires":
            links.setdefault("premise_of", []).append(relation.target)
    view.update(links)
    return view


def execute(args: Mapping[str, Any], *, wait: float) -> dict[str, Any]:
    from cgx_core.tools.registry import handler_for

    run = Run(Path(args["run"]), handler_for)
    state = run.current()
    graph = state.graph
    nodes = list(graph)
    if "type" in args:
        nodes = [node for node in nodes if node.kind == args["type"]]
    if "unit" in args:
        nodes = [node for node in nodes if node.attributes.get("unit") == args["unit"]]
    if "nodes" in args:
        missing = [node_id for node_id in args["nodes"] if node_id not in graph.nodes]
        if missing:
            raise CgxError(Code.INVALID_ARGUMENTS, f"get_state: no node {missing} in this run")
        wanted = set(args["nodes"])
        nodes = [node for node in nodes if node.id in wanted]
    start = args.get("start", 0)
    limit = args.get("limit", DEFAULT_LIMIT)
    page = nodes[start : start + limit]
    incoming: dict[str, list[Any]] = {}
    outgoing: dict[str, list[Any]] = {}
    for relation in graph.relations.values():
        incoming.setdefault(relation.target, []).append(relation)
        outgoing.setdefault(relation.source, []).append(relation)
    token = fence_token(run.id, state.seq)
    return {
        "run": run.id,
        "fence": fence_note(token),
        "progress": progress(graph, run.rubric, len(state.rejections), state.finished, state.seq),
        "total": len(nodes),
        "start": start,
        "nodes": [node_view(node, incoming, outgoing, token) for node in page],
        "next": start + limit if start + limit < len(nodes) else None,
    }
