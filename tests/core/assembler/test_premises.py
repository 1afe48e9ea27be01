"""add_premises: stated premises become requires, unsaid ones analyst nodes, within the rubric's limits."""

from __future__ import annotations

import json

import pytest
from assembler_testkit import BASE_RECORDS, RUN
from credencegraph.core import Graph, Node, dumps
from credencegraph.rubric import Rubric, check_graph

from cgx_core.assembler import add_premises, classify
from cgx_core.graph.edit import appended


@pytest.fixture(scope="module")
def typed(tiny: Graph, rubric: Rubric) -> Graph:
    outcome = classify(tiny, rubric, BASE_RECORDS, run_id=RUN)
    assert outcome.result["refused"] == []
    return outcome.graph


def test_a_stated_premise_is_a_requires_with_the_edge_rule_strength(typed: Graph, rubric: Rubric) -> None:
    outcome = add_premises(typed, rubric, [{"conclusion": "s-1", "premises": [{"stated_at": "s-2"}]}], run_id=RUN)
    assert outcome.result["applied"] == [
        {
            "record": 0,
            "conclusion": "s-1",
            "premises": [{"stated_at": "s-2", "relation": "s-2-requires-s-1", "added": True}],
        }
    ]
    relation = outcome.graph.relations["s-2-requires-s-1"]
    assert relation.strength == rubric.types["claim"].rests_on.strength
    assert relation.attributes["extraction"] == {"run": RUN, "tool": "add_premises"}


def test_an_unsaid_premise_is_an_analyst_assumption_with_the_premises_credences(typed: Graph, rubric: Rubric) -> None:
    record = {"conclusion": "s-5a", "premises": [{"statement": "  The noise is\nstationary.  "}]}
    outcome = add_premises(typed, rubric, [record], run_id=RUN)
    node = outcome.graph.nodes["a-1"]
    assert node.kind == "assumption"
    assert node.statement == "The noise is stationary."
    assert node.sources == ()
    assert node.base == rubric.premises.base
    assert dict(node.attributes) == {"origin": "analyst", "extraction": {"run": RUN, "tool": "add_premises"}}
    assert outcome.graph.relations["a-1-requires-s-5a"].strength == rubric.premises.strength
    assert check_graph(outcome.graph, rubric, "anchored", rubric_credences=True) == []


def test_a_statement_shared_by_two_conclusions_is_one_node(typed: Graph, rubric: Rubric) -> None:
    records = [
        {"conclusion": "s-5b", "premises": [{"statement": "The noise is Gaussian."}]},
        {
            "conclusion": "s-1",
            "premises": [{"statement": "The noise  is Gaussian."}, {"statement": "The model is right."}],
        },
    ]
    outcome = add_premises(typed, rubric, records, run_id=RUN)
    analysts = [node.id for node in outcome.graph if node.attributes.get("origin") == "analyst"]
    # ids in the order created: conclusions in document order (s-1 before s-5b), premises in the order given
    assert analysts == ["a-1", "a-2"]
    assert outcome.graph.nodes["a-1"].statement == "The noise is Gaussian."
    assert {"a-1-requires-s-1", "a-1-requires-s-5b", "a-2-requires-s-1"} <= set(outcome.graph.relations)
    shared = outcome.result["applied"][0]["premises"][0]
    assert shared == {
        "statement": "The noise is Gaussian.",
        "node": "a-1",
        "created": False,
        "relation": "a-1-requires-s-5b",
        "added": True,
    }


def test_analyst_ids_skip_the_ids_the_graph_has(typed: Graph, rubric: Rubric) -> None:
    taken = appended(typed, [Node("a-1", kind="assumption", statement="x", attributes={"origin": "document"})])
    outcome = add_premises(taken, rubric, [{"conclusion": "s-1", "premises": [{"statement": "y"}]}], run_id=RUN)
    assert outcome.result["applied"][0]["premises"][0]["node"] == "a-2"


def test_statements_beyond_the_limit_come_back_as_overflow(typed: Graph, rubric: Rubric) -> None:
    first = add_premises(typed, rubric, [{"conclusion": "s-1", "premises": [{"statement": "A."}]}], run_id=RUN)
    statements = [{"statement": text} for text in ("A.", "B.", "C.", "D.", "E.")]
    outcome = add_premises(first.graph, rubric, [{"conclusion": "s-1", "premises": statements}], run_id=RUN)
    assert outcome.result["overflow"] == [{"record": 0, "conclusion": "s-1", "statements": ["D.", "E."]}]
    added = [entry["node"] for entry in outcome.result["applied"][0]["premises"] if entry["added"]]
    assert added == ["a-2", "a-3"]  # A. was linked already and counts toward the three
    assert "a-4" not in outcome.graph


def test_a_record_is_applied_whole_or_not_at_all(typed: Graph, rubric: Rubric) -> None:
    record = {"conclusion": "s-5a", "premises": [{"statement": "The noise is white."}, {"stated_at": "r-1"}]}
    outcome = add_premises(typed, rubric, [record], run_id=RUN)
    assert outcome.result["refused"][0]["premise"] == 1
    assert outcome.graph == typed
    assert "a-1" not in outcome.graph


def test_naming_a_premise_it_already_rests_on_adds_nothing_and_keeps_it(typed: Graph, rubric: Rubric) -> None:
    record = {"conclusion": "s-5a", "premises": [{"stated_at": "s-2"}, {"stated_at": "s-2"}]}
    outcome = add_premises(typed, rubric, [record], run_id=RUN)
    assert [entry["added"] for entry in outcome.result["applied"][0]["premises"]] == [False, False]
    relation = outcome.graph.relations["s-2-requires-s-5a"]
    assert relation.attributes["extraction"]["tool"] == "add_premises"
    again = classify(outcome.graph, rubric, [{"node": "s-5a", "type": "result", "rests_on": ["e-1"]}], run_id=RUN)
    assert "s-2-requires-s-5a" in again.graph.relations  # the premise record vouches for it now


def test_the_same_call_gives_the_same_bytes(typed: Graph, rubric: Rubric) -> None:
    records = [
        {"conclusion": "s-1", "premises": [{"statement": "A."}, {"stated_at": "s-2"}]},
        {"conclusion": "s-5b", "premises": [{"statement": "A."}]},
        {"conclusion": "s-9", "premises": [{"statement": "B."}]},
    ]
    first = add_premises(typed, rubric, records, run_id=RUN)
    second = add_premises(typed, rubric, records, run_id=RUN)
    assert dumps(first.graph) == dumps(second.graph)
    assert json.dumps(first.result, sort_keys=True) == json.dumps(second.result, sort_keys=True)
    assert [entry["record"] for entry in first.result["refused"]] == [2]
