"""Every credencegraph error the assembler can meet is filed under the right refusal code.

The errors are raised by credencegraph itself (never written by hand), so a change of wording in a
0.4.x release shows up here rather than as a refusal under the wrong code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from credencegraph.core import CredenceGraphError, CycleError, Graph, Node, Relation, ValidationError
from credencegraph.rubric import Rubric, annotate_node, split_node

from cgx_core.assembler.credencegraph_errors import Step, code_of, message_of
from cgx_core.codes import Code
from cgx_core.graph.edit import appended

Edit = Callable[[Graph, Rubric], Any]


def _typed(graph: Graph, rubric: Rubric) -> Graph:
    graph = annotate_node(graph, rubric, "s-2", node_type="method", settings={"kind": "simulation"})
    graph = annotate_node(graph, rubric, "s-3", node_type="result", rests_on=["s-2"])
    return annotate_node(graph, rubric, "s-4", node_type="claim", rests_on=["s-3"])


CASES: list[tuple[str, Step, Edit, Code]] = [
    ("unknown type", Step.TYPE, lambda g, r: annotate_node(g, r, "s-2", node_type="finding"), Code.UNKNOWN_TYPE),
    (
        "origin not allowed",
        Step.TYPE,
        lambda g, r: annotate_node(g, r, "s-2", node_type="recompute-numbers"),
        Code.ORIGIN_NOT_ALLOWED,
    ),
    (
        "wrong enum",
        Step.TYPE,
        lambda g, r: annotate_node(g, r, "s-2", node_type="method", settings={"kind": "vague"}),
        Code.FORM_INVALID,
    ),
    (
        "undeclared field",
        Step.TYPE,
        lambda g, r: annotate_node(g, r, "s-2", node_type="method", settings={"colour": "red"}),
        Code.FORM_INVALID,
    ),
    (
        "number as a string",
        Step.TYPE,
        lambda g, r: annotate_node(g, r, "s-2", node_type="result", settings={"value": "1000"}),
        Code.FORM_INVALID,
    ),
    (
        "number not in text",
        Step.TYPE,
        lambda g, r: annotate_node(g, r, "s-2", node_type="result", settings={"value": 13}),
        Code.FORM_NOT_IN_TEXT,
    ),
    (
        "verbatim not in text",
        Step.TYPE,
        lambda g, r: annotate_node(g, r, "s-2", node_type="result", settings={"quantity": "the snr"}),
        Code.FORM_NOT_IN_TEXT,
    ),
    (
        "unit not in text",
        Step.TYPE,
        lambda g, r: annotate_node(
            g, r, "s-2", node_type="result", settings={"measured": {"value": 4096, "unit": "kHz"}}
        ),
        Code.FORM_NOT_IN_TEXT,
    ),
    (
        "eqref not in text",
        Step.TYPE,
        lambda g, r: annotate_node(g, r, "s-4", node_type="derivation", settings={"equation": "eq:other"}),
        Code.FORM_NOT_IN_TEXT,
    ),
    (
        "annotate a compound",
        Step.TYPE,
        lambda g, r: annotate_node(split_node(g, "s-8", ["The noise", "white"])[0], r, "s-8", node_type="claim"),
        Code.COMPOUND_NODE,
    ),
    ("clause twice", Step.SPLIT, lambda g, r: split_node(g, "s-8", ["noise is", "white"]), Code.CLAUSE_NOT_ONCE),
    ("clause absent", Step.SPLIT, lambda g, r: split_node(g, "s-8", ["noise was", "white"]), Code.CLAUSE_NOT_ONCE),
    (
        "split a clause",
        Step.SPLIT,
        lambda g, r: split_node(split_node(g, "s-8", ["The noise", "white"])[0], "s-8a", ["The", "noise"]),
        Code.SPLIT_INVALID,
    ),
    (
        "split a typed node",
        Step.SPLIT,
        lambda g, r: split_node(_typed(g, r), "s-3", ["The", "estimator"]),
        Code.SPLIT_INVALID,
    ),
    (
        "split a linked node",
        Step.SPLIT,
        lambda g, r: split_node(
            annotate_node(_typed(g, r), r, "s-3", node_type="unassigned"), "s-3", ["The", "estimator"]
        ),
        Code.SPLIT_INVALID,
    ),
    ("split with nothing", Step.SPLIT, lambda g, r: split_node(g, "s-8", []), Code.SPLIT_INVALID),
    ("split an evidence node", Step.SPLIT, lambda g, r: split_node(g, "c-x", ["a", "b"]), Code.NOT_A_CHUNK),
    (
        "rests on a disallowed type",
        Step.LINK,
        lambda g, r: annotate_node(_typed(g, r), r, "s-5", node_type="claim", rests_on=["r-1"]),
        Code.RESTS_ON_TYPE,
    ),
    (
        "premise of a disallowed type",
        Step.PREMISE_LINK,
        lambda g, r: annotate_node(_typed(g, r), r, "s-4", rests_on=["r-1"]),
        Code.PREMISE_NOT_CHUNK,
    ),
    (
        "rests on with no rule",
        Step.LINK,
        lambda g, r: annotate_node(_typed(g, r), r, "s-2", rests_on=["e-1"]),
        Code.RESTS_ON_NO_RULE,
    ),
    (
        "unknown id in rests_on",
        Step.LINK,
        lambda g, r: annotate_node(_typed(g, r), r, "s-4", rests_on=["s-99"]),
        Code.RESTS_ON_UNKNOWN,
    ),
    ("unknown id", Step.TYPE, lambda g, r: annotate_node(g, r, "s-99", node_type="claim"), Code.UNKNOWN_NODE),
]


def _with_evidence(graph: Graph) -> Graph:
    return appended(graph, [Node("c-x", kind="recompute-numbers", attributes={"origin": "evidence", "check": {}})])


@pytest.mark.parametrize(("name", "step", "edit", "code"), CASES, ids=[case[0] for case in CASES])
def test_each_error_credencegraph_raises_gets_its_code(
    tiny: Graph, rubric: Rubric, name: str, step: Step, edit: Edit, code: Code
) -> None:
    graph = _with_evidence(tiny)
    with pytest.raises((CredenceGraphError, KeyError)) as caught:
        edit(graph, rubric)
    error = caught.value
    assert code_of(error, step) is code, message_of(error)
    assert message_of(error)


def test_a_cycle_is_a_cycle_whatever_the_step(tiny: Graph, rubric: Rubric) -> None:
    graph = _typed(tiny, rubric)
    with pytest.raises(CycleError) as caught:
        graph.add_relation(Relation("s-4-requires-s-3", "requires", "s-4", "s-3", strength=0.9))
    for step in Step:
        assert code_of(caught.value, step) is Code.CYCLE


def test_an_unknown_message_falls_back_to_its_step() -> None:
    error = ValidationError("something credencegraph 0.4.2 might say")
    assert code_of(error, Step.SPLIT) is Code.SPLIT_INVALID
    assert code_of(error, Step.LINK) is Code.RESTS_ON_TYPE
    assert message_of(KeyError("s-9")) == "no node 's-9' in the graph"
