"""The verdict rule and get_state's progress counts, pinned down exactly.

Mutation testing found that swapping the verdict rule (so that one pass and one fail gives "holds") and
breaking get_state's progress counters survived the suite: these tests fail for each such mutant.
"""

from __future__ import annotations

from typing import Any

import pytest

from cgx_core.checks.verdicts import verdict_of
from cgx_core.tools.get_state import progress


@pytest.mark.parametrize(
    ("results", "verdict"),
    [
        (["passed", "failed"], "fails"),  # one failed check is enough, whatever passed beside it
        (["failed", "passed"], "fails"),
        (["passed", "error", "failed"], "fails"),
        (["passed"], "holds"),
        (["passed", "error"], "holds"),
        (["error"], "undetermined"),
        ([], "undetermined"),
    ],
)
def test_a_failed_check_decides_fails_before_any_pass(results: list[str], verdict: str) -> None:
    assert verdict_of(results) == verdict


def node(node_id: str, kind: str, origin: str = "document", **attributes: Any) -> dict[str, Any]:
    return {"id": node_id, "kind": kind, "attributes": {"origin": origin, **attributes}}


def relation(kind: str, source: str, target: str, tool: str | None = None) -> dict[str, Any]:
    attributes = {"extraction": {"tool": tool}} if tool else {}
    return {"type": kind, "source": source, "target": target, "attributes": attributes}


def test_every_progress_count_is_exact() -> None:
    nodes = [
        node("s-1", "result"),
        node("s-2", "method"),
        node("s-3", "compound"),  # split into two clauses
        node("s-3a", "result"),
        node("s-3b", "claim"),
        node("s-4", "unassigned"),
        node("s-5", "unassigned"),
        node("r-1", "reference", unit="reference"),  # a reference is not a chunk
        node("a-1", "assumption", origin="analyst"),
        node("c-001", "recompute-numbers", origin="evidence", check={"result": "passed"}),
        node("c-002", "recompute-numbers", origin="evidence", check={"result": "failed"}),
        node("c-003", "recompute-numbers", origin="evidence", check={"result": "failed"}),
        node("c-004", "citation-support", origin="evidence", check={"result": "error"}),
    ]
    relations = [
        relation("part-of", "s-3a", "s-3"),
        relation("part-of", "s-3b", "s-3"),
        relation("requires", "s-2", "s-1", tool="add_premises"),  # s-1's premise, added by the agent
        relation("requires", "a-1", "s-3b"),  # an analyst's assumption under s-3b
        relation("requires", "s-2", "s-3a", tool="classify"),  # a rests_on of classify: not add_premises
    ]
    state = {"seq": 7, "rejections": [{}, {}, {}], "finished": False}
    counts = progress(nodes, relations, {"result", "claim"}, state)
    assert counts == {
        "calls": 7,
        "chunks": 5,  # s-1, s-2, s-3 (split into s-3a and s-3b, counted once), s-4, s-5
        "clauses": 2,
        "split": 1,
        "typed": 4,  # s-1, s-2, s-3a, s-3b
        "untyped": 2,
        "first_untyped": ["s-4", "s-5"],
        "conclusions": 3,  # s-1, s-3a, s-3b
        "conclusions_with_premises": 2,  # s-1 (add_premises) and s-3b (an analyst's premise)
        "analyst_premises": 1,
        "checks": {"citation-support": {"error": 1}, "recompute-numbers": {"failed": 2, "passed": 1}},
        "refusals": 3,
        "finished": False,
    }


def test_first_untyped_lists_the_first_ten_untyped_chunks_in_order_and_untyped_counts_all() -> None:
    """The listing is capped (a 400-chunk paper would flood the result) but the count is not."""
    nodes = [node(f"s-{number:02d}", "unassigned") for number in range(1, 26)] + [node("s-26", "method")]
    counted = progress(nodes, [], set(), {"seq": 1, "rejections": [], "finished": False})
    assert counted["untyped"] == 25
    assert counted["first_untyped"] == [f"s-{number:02d}" for number in range(1, 11)]
    exactly = progress(nodes[:10], [], set(), {"seq": 1, "rejections": [], "finished": False})
    assert exactly["first_untyped"] == [f"s-{number:02d}" for number in range(1, 11)]


def test_assess_writes_the_bytes_annotate_node_writes_on_the_whole_graph() -> None:
    """assess annotates each node in a graph of that node alone and rebuilds the run's graph once: the
    result must be, byte for byte, what annotate_node on the whole graph, node after node, gave."""
    import dataclasses

    from credencegraph.core import dumps, load
    from credencegraph.rubric import annotate_node

    from cgx_core.checks.verdicts import assess
    from cgx_core.graph.edit import replace_nodes
    from cgx_core.graph.extraction import stamped_node
    from cgx_core.graph.rubric import load_rubric_bytes
    from support import ROOT

    example = ROOT / "examples" / "end-to-end" / "run"
    rubric = load_rubric_bytes((example / "rubric.toml").read_bytes(), "rubric.toml")
    finished = load(example / "graph.json")
    verdicts = {node.id: dict(node.attributes["assessment"]) for node in finished if "assessment" in node.attributes}
    assert {"holds", "fails", "not_assessed"} <= {verdict["verdict"] for verdict in verdicts.values()}
    bare = replace_nodes(
        finished,
        {
            node_id: dataclasses.replace(
                finished.nodes[node_id],
                attributes={k: v for k, v in finished.nodes[node_id].attributes.items() if k != "assessment"},
            )
            for node_id in verdicts
        },
    )
    expected = bare
    for node_id, verdict in verdicts.items():
        given = {"reason": verdict["reason"]} if "reason" in verdict else {"verdict": verdict["verdict"]}
        expected = annotate_node(expected, rubric, node_id, **given)
    expected = replace_nodes(
        expected, {node_id: stamped_node(expected.nodes[node_id], "r", "t") for node_id in verdicts}
    )
    assert dumps(assess(bare, rubric, "r", "t")) == dumps(expected)
