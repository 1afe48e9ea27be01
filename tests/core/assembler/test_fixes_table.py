"""The table of refusals: every refusal code, provoked by a real record on a real graph, with its exact fix.

The fix is what the agent acts on, so each is pinned here word for word; a change to a fix is a change to
this table. A final test keeps the table complete: every refusal code of the classify and premise
records has a row.
"""

from __future__ import annotations

from typing import Any

import pytest
from assembler_testkit import (
    BASE_RECORDS,
    RUN,
    cyclic_rubric,
    rubric_without_analyst_assumption,
    rubric_without_premises,
    with_check,
)
from credencegraph.core import Graph
from credencegraph.rubric import Rubric

from cgx_core.assembler import add_premises, classify
from cgx_core.codes import Code

CLASSIFY_FORMAT = (
    'write it as {"node", "type", "form"?, "rests_on"?, "hedge"?}, or for a chunk that makes several statements '
    '{"node", "split": [clauses], "children": [{"type", "form"?, "rests_on"?, "hedge"?}, ...]} with one child per '
    "clause; node, type, hedge and clauses are strings, rests_on and split arrays of strings, form an object"
)
PREMISE_FORMAT = (
    'write it as {"conclusion": "<node id>", "premises": [{"stated_at": "<chunk id>"} or {"statement": "<text>"}, '
    "...]} with one premise at least"
)
NO_CREDENCE = "a record carries no credence (the rubric gives every base and strength, and a hedge phrase gives stated)"
DOCUMENT_TYPES = (
    "['reference', 'equation', 'method', 'result', 'derivation', 'literature_claim', 'claim', 'assumption']"
)
CLAIM_SOURCES = "['result', 'method', 'derivation', 'equation', 'literature_claim', 'assumption']"
RESULT_SOURCES = "['method', 'derivation', 'equation', 'assumption']"

# (row id, code, tool, graph, rubric, records, fix, where the refusal points inside the record)
TABLE: list[tuple[str, Code, str, str, str, list[Any], str, dict[str, int]]] = [
    (
        "credence field and a misspelt field",
        Code.RECORD_INVALID,
        "classify",
        "tiny",
        "example",
        [{"node": "s-1", "type": "claim", "credence": 0.9, "rest_on": ["s-2"]}],
        f"leave out 'credence': {NO_CREDENCE}; 'rest_on' is not a field: did you mean 'rests_on'?; {CLASSIFY_FORMAT}",
        {},
    ),
    (
        "a base in a premise",
        Code.RECORD_INVALID,
        "premises",
        "base",
        "example",
        [{"conclusion": "s-5a", "premises": [{"stated_at": "s-2", "base": 0.3}]}],
        f"leave out 'base': {NO_CREDENCE}; {PREMISE_FORMAT}",
        {},
    ),
    (
        "unpadded id",
        Code.UNKNOWN_NODE,
        "classify",
        "tiny",
        "example",
        [{"node": "s-01", "type": "claim"}],
        "the run has no node s-01: did you mean s-1? (chunk ids are zero-padded to the width of their count)",
        {},
    ),
    (
        "no such chunk",
        Code.UNKNOWN_NODE,
        "classify",
        "tiny",
        "example",
        [{"node": "s-9", "type": "claim"}],
        "the run has no node s-9; its chunks are s-1 to s-8, e-1, r-1 (get_state lists them)",
        {},
    ),
    (
        "a check node",
        Code.NOT_A_CHUNK,
        "classify",
        "checked",
        "example",
        [{"node": "c-001", "type": "claim"}],
        "c-001 is not a chunk of the document (a check made it): classify types chunks and their clauses only",
        {},
    ),
    (
        "resting on an analyst premise",
        Code.NOT_A_CHUNK,
        "classify",
        "premised",
        "example",
        [{"node": "s-6", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["a-1"]}],
        "a-1 is a premise add_premises made: leave it out of rests_on, and send it to add_premises as a premise of "
        "s-6, by its statement",
        {},
    ),
    (
        "resting on a split chunk",
        Code.RESTS_ON_TYPE,
        "classify",
        "base",
        "example",
        [{"node": "s-6", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-5"]}],
        "s-5 is split: name one of its clauses s-5a and s-5b",
        {},
    ),
    (
        "a clause id of an unsplit chunk",
        Code.CHILD_NOT_SPLIT,
        "classify",
        "tiny",
        "example",
        [{"node": "s-7a", "type": "claim"}],
        "s-7 is not split yet: send a split record for s-7",
        {},
    ),
    (
        "a type in the wrong case",
        Code.UNKNOWN_TYPE,
        "classify",
        "tiny",
        "example",
        [{"node": "s-2", "type": "Method"}],
        f"did you mean 'method'? a document node takes one of {DOCUMENT_TYPES}",
        {},
    ),
    (
        "a check type for a chunk",
        Code.ORIGIN_NOT_ALLOWED,
        "classify",
        "tiny",
        "example",
        [{"node": "s-2", "type": "recompute-numbers"}],
        f"type 'recompute-numbers' is for evidence nodes; a document node takes one of {DOCUMENT_TYPES}",
        {},
    ),
    (
        "a bad enum and an undeclared field",
        Code.FORM_INVALID,
        "classify",
        "tiny",
        "example",
        [{"node": "s-2", "type": "method", "form": {"kind": "experiment", "colour": "red"}}],
        "'kind' takes one of ['test', 'simulation', 'dataset', 'procedure']; "
        "'colour' is not a field of type 'method'; its fields are ['kind', 'scope']",
        {},
    ),
    (
        "a number written as a string",
        Code.FORM_INVALID,
        "classify",
        "tiny",
        "example",
        [{"node": "s-2", "type": "result", "form": {"value": "1000"}}],
        "'value' takes a JSON number that is a numeral of the text (its numerals are [1000, 4096])",
        {},
    ),
    (
        "a number and a phrase the text lacks",
        Code.FORM_NOT_IN_TEXT,
        "classify",
        "tiny",
        "example",
        [{"node": "s-2", "type": "result", "form": {"value": 4000, "quantity": "the sample rates"}}],
        "'value': the numerals of the text are [1000, 4096]; "
        "'quantity': the closest phrase of the text is 'a sample rate'",
        {},
    ),
    (
        "an equation the text does not reference",
        Code.FORM_NOT_IN_TEXT,
        "classify",
        "tiny",
        "example",
        [{"node": "s-4", "type": "derivation", "form": {"equation": "eq:other"}}],
        "'equation': the text references the equations ['eq:est']",
        {},
    ),
    (
        "a clause that occurs twice",
        Code.CLAUSE_NOT_ONCE,
        "classify",
        "tiny",
        "example",
        [{"node": "s-8", "split": ["noise is", "is white"], "children": [{"type": "claim"}, {"type": "claim"}]}],
        "'noise is' occurs 2 times in the text; 'noise is noise' occurs once",
        {"clause": 0},
    ),
    (
        "a clause that does not occur",
        Code.CLAUSE_NOT_ONCE,
        "classify",
        "tiny",
        "example",
        [
            {
                "node": "s-7",
                "split": ["The bias vanishes for long segments", "the estimator is surely consistent"],
                "children": [{"type": "claim"}, {"type": "claim"}],
            }
        ],
        "'the estimator is surely consistent' is not in the text; its closest phrase is 'the estimator is likely "
        "consistent.'",
        {"clause": 1},
    ),
    (
        "fewer children than clauses",
        Code.SPLIT_MISMATCH,
        "classify",
        "tiny",
        "example",
        [{"node": "s-7", "split": ["The bias vanishes", "likely consistent"], "children": [{"type": "claim"}]}],
        "give one child per clause, in the same order: this record has 2 clauses and 1 children",
        {},
    ),
    (
        "a chunk split again",
        Code.ALREADY_SPLIT,
        "classify",
        "base",
        "example",
        [{"node": "s-5", "split": ["The mean error", "real data"], "children": [{"type": "claim"}, {"type": "claim"}]}],
        "s-5 is already split into s-5a and s-5b, and a split chunk is not split again: "
        "classify s-5a and s-5b with plain records",
        {},
    ),
    (
        "a clause split",
        Code.SPLIT_INVALID,
        "classify",
        "base",
        "example",
        [
            {
                "node": "s-5a",
                "split": ["The mean error", "realisations"],
                "children": [{"type": "claim"}, {"type": "claim"}],
            }
        ],
        "s-5a is a clause of s-5, and a clause is not split again: classify it with a plain record",
        {},
    ),
    (
        "a chunk others rest on",
        Code.SPLIT_INVALID,
        "classify",
        "base",
        "example",
        [
            {
                "node": "s-2",
                "split": ["We simulate 1000 noise realisations", "at a sample rate of 4096 Hz"],
                "children": [
                    {"type": "method", "form": {"kind": "simulation"}},
                    {"type": "method", "form": {"kind": "simulation"}},
                ],
            }
        ],
        "a split chunk takes no relations: reclassify s-5a without s-2 first; or classify s-2 whole",
        {},
    ),
    (
        "overlapping clauses",
        Code.SPLIT_INVALID,
        "classify",
        "tiny",
        "example",
        [
            {
                "node": "s-7",
                "split": ["The bias vanishes for long", "long segments"],
                "children": [{"type": "claim"}] * 2,
            }
        ],
        "the clauses 'The bias vanishes for long' and 'long segments' share text: give clauses that do not overlap",
        {},
    ),
    (
        "a clause cut inside a word",
        Code.SPLIT_INVALID,
        "classify",
        "tiny",
        "example",
        [
            {
                "node": "s-7",
                "split": ["The bias vanish", "the estimator is likely consistent"],
                "children": [{"type": "claim"}] * 2,
            }
        ],
        "'The bias vanish' cuts a word of the text: give whole words, such as 'The bias vanishes'",
        {},
    ),
    (
        "a split chunk classified whole",
        Code.COMPOUND_NODE,
        "classify",
        "base",
        "example",
        [{"node": "s-5", "type": "claim"}],
        "s-5 is split into s-5a and s-5b: name those clauses instead",
        {},
    ),
    (
        "a split chunk as a conclusion",
        Code.COMPOUND_NODE,
        "premises",
        "base",
        "example",
        [{"conclusion": "s-5", "premises": [{"statement": "The noise is white."}]}],
        "s-5 is split into s-5a and s-5b: name those clauses instead",
        {},
    ),
    (
        "resting on a clause of an unsplit chunk",
        Code.RESTS_ON_UNKNOWN,
        "classify",
        "tiny",
        "example",
        [{"node": "s-6", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-2a"]}],
        "s-2 is not split yet: send a split record for s-2, or name s-2 itself",
        {},
    ),
    (
        "resting on a reference",
        Code.RESTS_ON_TYPE,
        "classify",
        "base",
        "example",
        [{"node": "s-6", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["r-1"]}],
        f"name nodes whose type is one of {CLAIM_SOURCES}; nodes of those types near s-6: "
        "s-2 (method), e-1 (equation), s-4 (derivation), s-5a (result)",
        {},
    ),
    (
        "resting on an untyped chunk",
        Code.RESTS_ON_TYPE,
        "classify",
        "base",
        "example",
        [{"node": "s-6", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-3"]}],
        f"classify s-3 first, or name nodes whose type is one of {CLAIM_SOURCES}; nodes of those types near s-6: "
        "s-2 (method), e-1 (equation), s-4 (derivation), s-5a (result)",
        {},
    ),
    (
        "a derivation resting on something",
        Code.RESTS_ON_NO_RULE,
        "classify",
        "base",
        "example",
        [{"node": "s-3", "type": "derivation", "rests_on": ["e-1"]}],
        "type 'derivation' rests on nothing: leave out rests_on",
        {},
    ),
    (
        "a stated premise of a derivation",
        Code.RESTS_ON_NO_RULE,
        "premises",
        "base",
        "cyclic",
        [{"conclusion": "s-4", "premises": [{"stated_at": "s-2"}]}],
        "type 'derivation' rests on nothing, so no chunk can be its premise: give the premise as a statement",
        {"premise": 0},
    ),
    (
        "resting on itself",
        Code.RESTS_ON_SELF,
        "classify",
        "tiny",
        "example",
        [{"node": "s-6", "type": "claim", "rests_on": ["s-6"]}],
        "leave s-6 out of its own rests_on",
        {},
    ),
    (
        "a clause resting on itself",
        Code.RESTS_ON_SELF,
        "classify",
        "tiny",
        "example",
        [
            {
                "node": "s-7",
                "split": ["The bias vanishes for long segments", "the estimator is likely consistent"],
                "children": [{"type": "result"}, {"type": "claim", "rests_on": ["s-7b"]}],
            }
        ],
        "leave s-7b out of its own rests_on",
        {"child": 1},
    ),
    (
        "two claims resting on each other",
        Code.CYCLE,
        "classify",
        "tiny",
        "cyclic",
        [
            {"node": "s-1", "type": "claim", "form": {"shape": "bound"}, "rests_on": ["s-7"]},
            {"node": "s-7", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-1"]},
        ],
        "s-1 already rests on s-7: leave s-1 out of rests_on",
        {},
    ),
    (
        "a premise that rests on its conclusion",
        Code.CYCLE,
        "premises",
        "cyclic_base",
        "cyclic",
        [{"conclusion": "s-5b", "premises": [{"stated_at": "s-1"}]}],
        "s-1 already rests on s-5b: leave s-1 out of the premises",
        {"premise": 0},
    ),
    (
        "a hedge the text does not contain",
        Code.HEDGE_NOT_IN_TEXT,
        "classify",
        "tiny",
        "example",
        [{"node": "s-7", "type": "claim", "hedge": "suggest"}],
        "the rubric's hedge phrases in the text are ['likely']; or leave out hedge",
        {},
    ),
    (
        "a hedge in a text with no listed phrase",
        Code.HEDGE_NOT_IN_TEXT,
        "classify",
        "tiny",
        "example",
        [{"node": "s-2", "type": "method", "form": {"kind": "simulation"}, "hedge": "simulated"}],
        "the closest phrase of the text is 'simulate'; or leave out hedge",
        {},
    ),
    (
        "a checked node classified again",
        Code.TARGETED_BY_CHECK,
        "classify",
        "checked",
        "example",
        [{"node": "s-5a", "type": "claim"}],
        "check c-001 (recompute-numbers) targets s-5a, so it keeps its type 'result' (checks are append-only)",
        {},
    ),
    (
        "two records for one node",
        Code.DUPLICATE_RECORD,
        "classify",
        "tiny",
        "example",
        [{"node": "s-7", "type": "claim"}, {"node": "s-7", "type": "result"}],
        "records 0 and 1 all name s-7: send one record per node",
        {},
    ),
    (
        "a clause typed twice in one call",
        Code.DUPLICATE_RECORD,
        "classify",
        "tiny",
        "example",
        [
            {"node": "s-8a", "type": "result"},
            {"node": "s-8", "split": ["The noise is noise", "the noise is white"], "children": [{"type": "claim"}] * 2},
        ],
        "record 1 splits s-8 and types its clause s-8a: leave this record out (classify s-8a again in a later call "
        "to change it)",
        {},
    ),
    (
        "two premise records for one conclusion",
        Code.DUPLICATE_RECORD,
        "premises",
        "base",
        "example",
        [
            {"conclusion": "s-1", "premises": [{"statement": "A."}]},
            {"conclusion": "s-1", "premises": [{"statement": "B."}]},
        ],
        "records 0 and 1 all name s-1: send one record per node",
        {},
    ),
    (
        "premises without a [premises] table",
        Code.NO_PREMISES_TABLE,
        "premises",
        "base",
        "no_premises",
        [{"conclusion": "s-1", "premises": [{"statement": "The noise is white."}]}],
        "rubric 'example-paper' has no [premises] table, so this run takes no premise records",
        {},
    ),
    (
        "premises of a method",
        Code.NOT_A_CONCLUSION,
        "premises",
        "base",
        "example",
        [{"conclusion": "s-2", "premises": [{"statement": "x"}]}],
        "premises go to nodes of the types ['claim', 'result']; s-2 is 'method'; nodes of those types near s-2: "
        "s-1 (claim), s-5a (result), s-5b (claim)",
        {},
    ),
    (
        "premises of an untyped chunk",
        Code.NOT_A_CONCLUSION,
        "premises",
        "base",
        "example",
        [{"conclusion": "s-7", "premises": [{"statement": "x"}]}],
        "classify s-7 first; premises go to nodes of the types ['claim', 'result']; s-7 is 'unassigned'; nodes of "
        "those types near s-7: s-1 (claim), s-5a (result), s-5b (claim)",
        {},
    ),
    (
        "a reference as a stated premise",
        Code.PREMISE_NOT_CHUNK,
        "premises",
        "base",
        "example",
        [{"conclusion": "s-5a", "premises": [{"stated_at": "r-1"}]}],
        f"r-1 is 'reference': name a chunk of one of the types {RESULT_SOURCES}, or give the premise as a statement; "
        "nodes of those types near s-5a: s-2 (method), e-1 (equation), s-4 (derivation)",
        {"premise": 0},
    ),
    (
        "a split chunk as a stated premise",
        Code.PREMISE_NOT_CHUNK,
        "premises",
        "base",
        "example",
        [{"conclusion": "s-1", "premises": [{"stated_at": "s-5"}]}],
        "s-5 is split: name one of its clauses s-5a and s-5b, or give the premise as a statement; nodes of those "
        "types near s-1: s-2 (method), e-1 (equation), s-4 (derivation), s-5a (result)",
        {"premise": 0},
    ),
    (
        "an untyped chunk as a stated premise",
        Code.PREMISE_NOT_CHUNK,
        "premises",
        "base",
        "example",
        [{"conclusion": "s-5a", "premises": [{"stated_at": "s-3"}]}],
        "classify s-3 first, or give the premise as a statement; nodes of those types near s-5a: "
        "s-2 (method), e-1 (equation), s-4 (derivation)",
        {"premise": 0},
    ),
    (
        "a statement premise without an analyst assumption type",
        Code.ASSUMPTION_UNDECLARED,
        "premises",
        "base",
        "no_analyst",
        [{"conclusion": "s-5a", "premises": [{"statement": "The noise is white."}]}],
        "rubric 'example-paper' does not declare type 'assumption' with origin analyst, so it takes no statement "
        "premises: give the premises with stated_at only",
        {},
    ),
    (
        "a method others rest on classified as a claim",
        Code.RECLASSIFY_CONFLICT,
        "classify",
        "base",
        "example",
        [{"node": "s-2", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["e-1"]}],
        "s-5a rests on s-2: classify s-2 as one of ['equation', 'method', 'derivation', 'assumption'], the types "
        "that keep them, or first reclassify s-5a without s-2",
        {},
    ),
    (
        "a conclusion with premises classified as a method",
        Code.RECLASSIFY_CONFLICT,
        "classify",
        "premised",
        "example",
        [{"node": "s-5b", "type": "method", "form": {"kind": "test"}}],
        "s-5b keeps the premises a-1: classify s-5b as one of ['result', 'claim'], the types that keep them",
        {},
    ),
]


@pytest.fixture(scope="module")
def graphs(tiny: Graph, rubric: Rubric) -> dict[str, Graph]:
    base = classify(tiny, rubric, BASE_RECORDS, run_id=RUN)
    assert base.result["refused"] == []
    cyclic_records = [*BASE_RECORDS[:-1], {**BASE_RECORDS[-1], "rests_on": ["s-5a", "s-5b"]}]
    cyclic_base = classify(tiny, cyclic_rubric(), cyclic_records, run_id=RUN)
    assert cyclic_base.result["refused"] == []
    premised = add_premises(
        base.graph, rubric, [{"conclusion": "s-5b", "premises": [{"statement": "Noise is white."}]}], run_id=RUN
    )
    assert premised.result["refused"] == []
    return {
        "tiny": tiny,
        "base": base.graph,
        "checked": with_check(base.graph, rubric, "s-5a"),
        "cyclic_base": cyclic_base.graph,
        "premised": premised.graph,
    }


@pytest.fixture(scope="module")
def rubrics(rubric: Rubric) -> dict[str, Rubric]:
    return {
        "example": rubric,
        "cyclic": cyclic_rubric(),
        "no_premises": rubric_without_premises(),
        "no_analyst": rubric_without_analyst_assumption(),
    }


@pytest.mark.parametrize(
    ("code", "tool", "graph", "rubric_name", "records", "fix", "where"),
    [row[1:] for row in TABLE],
    ids=[row[0] for row in TABLE],
)
def test_a_refused_record_comes_back_with_its_code_and_fix(
    graphs: dict[str, Graph],
    rubrics: dict[str, Rubric],
    code: Code,
    tool: str,
    graph: str,
    rubric_name: str,
    records: list[Any],
    fix: str,
    where: dict[str, int],
) -> None:
    call = classify if tool == "classify" else add_premises
    before = graphs[graph]
    outcome = call(before, rubrics[rubric_name], records, run_id=RUN)
    refusals = [entry for entry in outcome.result["refused"] if entry["code"] == code]
    assert refusals, outcome.result
    refusal = refusals[0]
    assert refusal["fix"] == fix
    assert {key: refusal[key] for key in ("child", "clause", "premise") if key in refusal} == where
    assert refusal["message"]
    if not outcome.result["applied"]:
        assert outcome.graph == before  # a refused record leaves no trace


def test_the_table_covers_every_refusal_code_of_both_tools() -> None:
    members = list(Code)
    family = members[members.index(Code.RECORD_INVALID) : members.index(Code.RECLASSIFY_CONFLICT) + 1]
    assert {row[1] for row in TABLE} == set(family)
