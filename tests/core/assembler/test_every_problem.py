"""A refused record names every one of its problems at once, each with its own code, fix and place: an
agent that applies the fixes of one refusal sends a record that is not refused again for a problem it was
never told about. One test per kind of record with several problems, and one that the fixes together make
the record apply."""

from __future__ import annotations

from typing import Any

from assembler_testkit import BASE_RECORDS, RUN
from credencegraph.core import Graph
from credencegraph.rubric import Rubric

from cgx_core.assembler import add_premises, classify


def problems(refusal: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Each problem of a refusal as (code, where), the first then `also`."""
    every = [refusal, *refusal.get("also", [])]
    for problem in every:
        assert problem["message"] and problem["fix"], problem
    return [
        (problem["code"], *[problem[key] for key in ("child", "clause", "premise") if key in problem])
        for problem in every
    ]


def test_a_classify_record_is_refused_with_every_problem_its_typing_and_rests_on_have(
    tiny: Graph, rubric: Rubric
) -> None:
    record = {
        "node": "s-1",
        "type": "claim",
        "form": {"shape": "nonsense"},  # not one of the enum's values
        "hedge": "we prove",  # not in the text
        "rests_on": ["s-77", "s-2"],  # no such node; a chunk (whose type is judged once the record types)
    }
    [refusal] = classify(tiny, rubric, [record], run_id=RUN).result["refused"]
    assert problems(refusal) == [("form-invalid",), ("hedge-not-in-text",), ("rests-on-unknown",)]


def test_a_record_for_a_missing_node_also_names_what_is_wrong_with_its_rests_on(tiny: Graph, rubric: Rubric) -> None:
    record = {"node": "s-99", "type": "claim", "form": {"shape": "bound"}, "rests_on": ["s-99", "s-88"]}
    [refusal] = classify(tiny, rubric, [record], run_id=RUN).result["refused"]
    assert problems(refusal) == [("unknown-node",), ("rests-on-self",), ("rests-on-unknown",)]


def test_a_split_record_names_the_problem_of_every_child(tiny: Graph, rubric: Rubric) -> None:
    record = {
        "node": "s-7",
        "split": ["The bias vanishes for long segments", "the estimator is likely consistent"],
        "children": [
            {"type": "result", "form": {"value": "many"}},  # a number field given a word
            {"type": "claim", "form": {"shape": "universal"}, "hedge": "surely", "rests_on": ["s-7z"]},
        ],
    }
    [refusal] = classify(tiny, rubric, [record], run_id=RUN).result["refused"]
    assert problems(refusal) == [("form-invalid", 0), ("hedge-not-in-text", 1), ("rests-on-unknown", 1)]


def test_every_rests_on_of_a_wrong_type_is_named_not_only_the_first(tiny: Graph, rubric: Rubric) -> None:
    records = [
        *BASE_RECORDS,
        # A reference, a claim and an unassigned chunk: none of them a type a claim rests on; s-2 is.
        {"node": "s-8", "type": "claim", "form": {"shape": "bound"}, "rests_on": ["r-1", "s-2", "s-1", "s-3"]},
    ]
    outcome = classify(tiny, rubric, records, run_id=RUN)
    [refusal] = outcome.result["refused"]
    assert refusal["node"] == "s-8"
    assert problems(refusal) == [("rests-on-type",)] * 3
    named = [refusal["message"], *[problem["message"] for problem in refusal["also"]]]
    assert [message.split("'")[1] for message in named] == ["r-1", "s-1", "s-3"]
    assert "classify s-3 first" in refusal["also"][1]["fix"]


def test_a_premise_record_names_every_bad_premise_on_a_good_conclusion(tiny: Graph, rubric: Rubric) -> None:
    typed = classify(tiny, rubric, BASE_RECORDS, run_id=RUN).graph
    record = {
        "conclusion": "s-1",
        "premises": [
            {"stated_at": "s-404"},
            {"statement": "The noise is stationary."},
            {"stated_at": "s-1"},
            {"stated_at": "r-1"},
        ],
    }
    outcome = add_premises(typed, rubric, [record], run_id=RUN)
    [refusal] = outcome.result["refused"]
    assert problems(refusal) == [("unknown-node", 0), ("rests-on-self", 2), ("premise-not-chunk", 3)]
    assert outcome.graph is typed or "a-1" not in outcome.graph  # the record is applied whole or not at all


def test_a_premise_record_for_a_bad_conclusion_also_names_its_bad_premises(tiny: Graph, rubric: Rubric) -> None:
    typed = classify(tiny, rubric, BASE_RECORDS, run_id=RUN).graph
    record = {"conclusion": "s-2", "premises": [{"stated_at": "s-2"}, {"stated_at": "nope"}]}  # s-2 is a method
    [refusal] = add_premises(typed, rubric, [record], run_id=RUN).result["refused"]
    assert problems(refusal) == [("not-a-conclusion",), ("rests-on-self", 0), ("unknown-node", 1)]


def test_a_record_with_one_problem_reads_as_before_without_also(tiny: Graph, rubric: Rubric) -> None:
    [refusal] = classify(tiny, rubric, [{"node": "s-99", "type": "claim"}], run_id=RUN).result["refused"]
    assert "also" not in refusal
    assert list(refusal) == ["record", "node", "code", "message", "fix"]


def test_applying_every_fix_of_one_refusal_makes_the_record_apply(tiny: Graph, rubric: Rubric) -> None:
    bad = {"node": "s-1", "type": "claim", "form": {"shape": "nonsense"}, "hedge": "we prove", "rests_on": ["s-77"]}
    [refusal] = classify(tiny, rubric, [bad], run_id=RUN).result["refused"]
    assert len(refusal["also"]) == 2
    fixed = {"node": "s-1", "type": "claim", "form": {"shape": "bound"}, "hedge": "We show"}
    assert classify(tiny, rubric, [fixed], run_id=RUN).result["refused"] == []
