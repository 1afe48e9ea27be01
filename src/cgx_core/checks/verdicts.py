"""Finishing a run: verdicts derived from checks, the gate of credencegraph's own check, and the report.

A verdict is never the agent's: each assessed node's `attributes.assessment` follows from the checks that
observe it. `fails` when a check failed, `holds` when one passed and none failed, `undetermined` when all
erred, and `not_assessed` with the reason `no v1 check applies` (no installed, declared check type targets
its type) or `not selected` (one could, but the agent proposed none).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cgx_core.checks.engine import existing_checks
from cgx_core.checks.installed import installed_check_types
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.graph.analyst import ASSUMPTION, READING_OF
from cgx_core.graph.divorce import divorced
from cgx_core.graph.edit import replace_nodes
from cgx_core.graph.evidence import check_record
from cgx_core.graph.extraction import stamped_node, tool_of
from cgx_core.graph.review_queue import REVIEW_TOOL

if TYPE_CHECKING:
    from credencegraph.core import Graph, Node
    from credencegraph.rubric import Rubric

NO_CHECK_APPLIES = "no v1 check applies"
NOT_SELECTED = "not selected"
SHOWN_FINDINGS = 15


def _checks_by_target(graph: Graph) -> dict[str, list[tuple[str, str]]]:
    found: dict[str, list[tuple[str, str]]] = {}
    for check in existing_checks(graph, installed_check_types()):
        found.setdefault(check.target, []).append((check.id, check.result))
    return found


def verdict_of(results: Sequence[str]) -> str:
    if "failed" in results:
        return "fails"
    if "passed" in results:
        return "holds"
    return "undetermined"


def _annotated(node: Node, rubric: Rubric, **assessment: str) -> Node:
    """`node` as credencegraph's `annotate_node` assesses it, in a graph of that node alone.

    An assessment reads nothing but the node and the rubric, and `annotate_node` rebuilds the graph it is
    given, re-checking every relation for a cycle: on the run's whole graph, once per assessed node, that
    was most of finish_run (3.8 million relation checks at 3,000 chunks). The one-node graph gives the
    same node, credencegraph's validation included, and the run's graph is rebuilt once for all of them."""
    from credencegraph.core import Graph
    from credencegraph.rubric import annotate_node

    alone = Graph()
    alone.add_node(node)
    return annotate_node(alone, rubric, node.id, **assessment).nodes[node.id]


def assess(graph: Graph, rubric: Rubric, run_id: str, tool: str) -> Graph:
    """The graph with every assessed node's assessment derived from its checks."""
    registry = installed_check_types()
    checkable = {
        node_type
        for name, declared in rubric.checks.items()
        if (installed := registry.get(name)) is not None
        and installed.check_type.fallback_for is None
        and installed.check_type.tool != REVIEW_TOOL
        for node_type in declared.targets
    }
    by_target = _checks_by_target(graph)
    assessed: dict[str, Node] = {}
    for node in graph:
        spec = rubric.types.get(node.kind)
        if node.attributes.get("origin") not in ("document", "analyst") or spec is None or not spec.assess:
            continue
        results = [result for _, result in by_target.get(node.id, ())]
        if results:
            annotated = _annotated(node, rubric, verdict=verdict_of(results))
        else:
            annotated = _annotated(node, rubric, reason=NOT_SELECTED if node.kind in checkable else NO_CHECK_APPLIES)
        assessed[node.id] = stamped_node(annotated, run_id, tool)
    return replace_nodes(graph, assessed)


ASSESSED_CODES = frozenset({"unassessed", "no-evidence", "missing-reason", "compile-error"})


def gate_findings(graph: Graph, rubric: Rubric) -> list[Any]:
    """What `credencegraph check --level assessed --rubric-credences` finds, without building a table per fan-in.

    At `assessed` credencegraph compiles the graph, and compiling builds each variable's table over all its
    parents (2^33 entries for a claim on 32 results). Compiling the parent-divorced graph (graph/divorce.py)
    fails exactly when the graph's does (same bases, observations and cycles), so the levels below and the
    rubric's credences are checked on the graph itself and the assessed level on the divorced one, keeping
    its findings of that level about the run's own nodes."""
    from credencegraph.rubric import check_graph

    checked = divorced(graph)
    if checked is graph:
        return list(check_graph(graph, rubric, "assessed", rubric_credences=True))
    findings = list(check_graph(graph, rubric, "typed", rubric_credences=True))
    return findings + [
        finding for finding in check_graph(checked, rubric, "assessed") if finding.diagnostic in ASSESSED_CODES
    ]


def gate(graph: Graph, rubric: Rubric) -> None:
    """Refuse a graph that does not pass `credencegraph check --level assessed --rubric-credences`."""
    findings = gate_findings(graph, rubric)
    if not findings:
        return
    counts = Counter(finding.diagnostic for finding in findings)
    shown = "; ".join(f"{finding.id}: {finding.message}" for finding in findings[:SHOWN_FINDINGS])
    more = f" (and {len(findings) - SHOWN_FINDINGS} more)" if len(findings) > SHOWN_FINDINGS else ""
    hint = ""
    if "untyped" in counts:
        hint = " Classify every chunk first (get_state with type 'unassigned' lists them)."
    raise CgxError(
        Code.GRAPH_INCOMPLETE,
        f"the graph does not pass credencegraph's check at level assessed ({json.dumps(counts, sort_keys=True)}): "
        f"{shown}{more}.{hint}",
    )


def _has_maths_or_numbers(text: str, unit: Any) -> bool:
    from cgx_core.graph.numerals import numerals

    return unit == "equation" or "$" in text or "\\(" in text or bool(numerals(text))


def references_report(graph: Graph) -> dict[str, list[dict[str, Any]]]:
    """The references a check found wrong, could not resolve, or found a notice against (a retraction):
    every check whose target is a reference node, whatever its type."""
    found: dict[str, list[dict[str, Any]]] = {"failed": [], "unresolved": [], "notices": []}
    for node in graph:
        record = check_record(node.attributes)
        if record is None:
            continue
        target = graph.nodes.get(str(record.get("target")))
        if target is None or target.attributes.get("unit") != "reference":
            continue
        about = {"check": node.id, "check_type": node.kind, "target": target.id, "key": target.attributes.get("key")}
        if record.get("result") == "failed":
            found["failed"].append({**about, "detail": record.get("detail")})
        elif record.get("result") == "error":
            found["unresolved"].append({**about, "detail": record.get("detail")})
        for notice in record.get("notices") or ():
            if isinstance(notice, Mapping):
                found["notices"].append({**about, **{k: v for k, v in notice.items() if k not in about}})
    return found


def failed_checks(graph: Graph) -> list[dict[str, Any]]:
    """Every check that failed, in the order the checks ran, with its type, target and one-line detail: what a
    reviewer reads first, and what the report's formats list as the failed checks. A person's review (a check
    the `review` tool made) is a verdict on a check, not a check that failed: the report lists it apart."""
    found = []
    for node in graph:
        record = check_record(node.attributes)
        if record is not None and record.get("result") == "failed" and tool_of(node.attributes) != REVIEW_TOOL:
            found.append(
                {"check": node.id, "type": node.kind, "target": record.get("target"), "detail": record.get("detail")}
            )
    return found


def report(
    graph: Graph,
    rubric: Rubric,
    rejections: Sequence[Mapping[str, Any]],
    seq: int,
    another_source_codes: Mapping[str, frozenset[str]],
) -> dict[str, Any]:
    """report.json: coverage, the failed checks, untied citation checks, references found wrong, unresolved or
    retracted, uncalibrated checks, and what a reviewer needs next.

    A check is untied when it erred with a code its check type declares as "try another source"
    (`another_source_codes`, by check type): the engine knows no check type's codes."""
    from credencegraph.rubric import coverage

    by_target = _checks_by_target(graph)
    untied: list[dict[str, Any]] = []
    uncalibrated: list[dict[str, Any]] = []
    verdicts: dict[str, int] = {}
    for node in graph:
        record = check_record(node.attributes)
        if record is not None:
            output = record.get("inputs", {})
            untied_codes = another_source_codes.get(node.kind, frozenset())
            if record.get("result") == "error" and record.get("code") in untied_codes:
                untied.append(
                    {
                        "check": node.id,
                        "target": record.get("target"),
                        "source": output.get("source"),
                        "detail": record.get("detail"),
                    }
                )
            declared = rubric.checks.get(node.kind)
            model = record.get("model")
            if model is not None and declared is not None and model not in declared.models:
                uncalibrated.append(
                    {"check": node.id, "type": node.kind, "model": model, "fitted_with": list(declared.models)}
                )
        assessment = node.attributes.get("assessment")
        if isinstance(assessment, Mapping):
            verdicts[assessment["verdict"]] = verdicts.get(assessment["verdict"], 0) + 1
    not_assessed = [
        node
        for node in graph
        if isinstance(node.attributes.get("assessment"), Mapping)
        and node.attributes["assessment"].get("verdict") == "not_assessed"
    ]
    # A reference's year is not a number to check: references a check could have resolved are listed apart.
    unchecked = [
        node.id
        for node in not_assessed
        if node.attributes.get("unit") != "reference"
        and node.statement
        and _has_maths_or_numbers(node.statement, node.attributes.get("unit"))
    ]
    unchecked_references = [
        node.id
        for node in not_assessed
        if node.attributes.get("unit") == "reference" and (node.attributes.get("doi") or node.attributes.get("arxiv"))
    ]
    disagree = [
        {"node": target, "checks": dict(checks)}
        for target, checks in by_target.items()
        if {"passed", "failed"} <= {result for _, result in checks}
    ]
    conclusions_of: dict[str, list[str]] = {}
    for relation in graph.relations.values():
        if relation.type == "requires" and graph.nodes[relation.source].attributes.get("origin") == "analyst":
            # a premised check's reading stands for its target: the premise is the target's
            target = str(graph.nodes[relation.target].attributes.get(READING_OF, relation.target))
            if target not in conclusions_of.setdefault(relation.source, []):
                conclusions_of[relation.source].append(target)
    assumptions = [  # a premised check's reading is the agent's too, but rests on its target: no assumption
        {"node": node.id, "statement": node.statement, "conclusions": conclusions_of.get(node.id, [])}
        for node in graph
        if node.attributes.get("origin") == "analyst" and node.kind == ASSUMPTION
    ]
    return {
        "seq": seq,
        "rubric": rubric.identity(),
        "coverage": coverage(graph, rubric),
        "verdicts": dict(sorted(verdicts.items())),
        "refused_records": len(rejections),
        "failed_checks": failed_checks(graph),
        "untied_citation_checks": untied,
        "references": references_report(graph),
        "uncalibrated": uncalibrated,
        "review": {
            "unchecked_numbers_or_equations": unchecked,
            "unchecked_references": unchecked_references,
            "checks_disagree": disagree,
            "analyst_assumptions": assumptions,
        },
    }
