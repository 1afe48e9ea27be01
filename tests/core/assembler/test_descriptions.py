"""The tool descriptions and record schemas: their example records are correct, and the schemas say
exactly what the converter accepts, so an agent reading only them writes records that apply."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from credencegraph.core import Graph, Point
from credencegraph.rubric import Rubric
from hypothesis import given, settings
from hypothesis import strategies as st

from cgx_core.assembler import add_premises, classify
from cgx_core.assembler.converter import structure
from cgx_core.assembler.records import AnyClassifyRecord, PremiseRecord
from cgx_core.base.json_schema import problems
from cgx_core.errors import CgxError
from cgx_core.tooling.record_descriptions import (
    CLASSIFY_DESCRIPTION,
    CLASSIFY_EXAMPLE,
    CLASSIFY_RECORDS_SCHEMA,
    PREMISE_RECORDS_SCHEMA,
    PREMISES_DESCRIPTION,
    PREMISES_EXAMPLE,
)

jsonschema = pytest.importorskip("jsonschema")

EXAMPLE_PAPER = r"""\documentclass{article}
\begin{document}
We simulate 1000 noise realisations at a sample rate of 4096 Hz.
The bias vanishes for long segments, so the estimator is likely consistent.
\end{document}
"""


def _accepted(raw: object, cls: Any) -> bool:
    try:
        structure(raw, cls)
    except CgxError:
        return False
    return True


def _valid(raw: object, schema: dict[str, Any]) -> bool:
    return bool(jsonschema.Draft202012Validator(schema["items"]).is_valid(raw))


@pytest.mark.parametrize(
    ("description", "example", "schema", "cls"),
    [
        (CLASSIFY_DESCRIPTION, CLASSIFY_EXAMPLE, CLASSIFY_RECORDS_SCHEMA, AnyClassifyRecord),
        (PREMISES_DESCRIPTION, PREMISES_EXAMPLE, PREMISE_RECORDS_SCHEMA, PremiseRecord),
    ],
)
def test_each_description_carries_its_example_which_is_a_correct_record(
    description: str, example: dict[str, Any], schema: dict[str, Any], cls: Any
) -> None:
    assert json.dumps(example) in description
    assert "credence" in description
    assert _accepted(example, cls)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert jsonschema.Draft202012Validator(schema).is_valid([example])


def test_the_examples_apply_cleanly(ingest_tex: Callable[[str], Graph], rubric: Rubric) -> None:
    graph = ingest_tex(EXAMPLE_PAPER)
    method = {"node": "s-1", "type": "method", "form": {"kind": "simulation"}}
    typed = classify(graph, rubric, [CLASSIFY_EXAMPLE, method], run_id="run-1")
    assert typed.result["refused"] == []
    assert typed.graph.nodes["s-2b"].stated == Point(0.7)
    premised = add_premises(typed.graph, rubric, [PREMISES_EXAMPLE], run_id="run-1")
    assert premised.result["refused"] == []
    assert "a-1-requires-s-2b" in premised.graph.relations


def test_the_tool_argument_checker_lets_every_record_through_to_the_assembler() -> None:
    # A bad record must come back as a refusal with a fix, not cost the agent the whole call.
    for schema in (CLASSIFY_RECORDS_SCHEMA, PREMISE_RECORDS_SCHEMA):
        assert problems([{"credence": 1}, "junk", None], schema) == []
        assert problems("not an array", schema) != []


_STRINGS = st.sampled_from(["s-1", "claim", "a b", " ", "", "x"])
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2) | _STRINGS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_STRINGS, inner, max_size=2),
    max_leaves=6,
)


def _shaped(required: dict[str, Any], optional: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Records of a format's shape, then, one time in two, with one field replaced or one field added."""
    keys = [*required, *optional, "credence", "note"]
    shaped = st.fixed_dictionaries(required, optional=optional)
    changed = st.tuples(shaped, st.sampled_from(keys), _JSON).map(lambda parts: {**parts[0], parts[1]: parts[2]})
    return st.one_of(shaped, shaped, shaped, changed)


_TYPING = {
    "form": st.dictionaries(_STRINGS, _JSON, max_size=2),
    "rests_on": st.lists(_STRINGS, max_size=2),
    "hedge": _STRINGS,
}
_CHILD = _shaped({"type": _STRINGS}, _TYPING)
_CLASSIFY = _shaped({"node": _STRINGS, "type": _STRINGS}, _TYPING) | _shaped(
    {"node": _STRINGS, "split": st.lists(_STRINGS, max_size=3), "children": st.lists(_CHILD, max_size=3)}, {}
)
_PREMISE = _shaped({"stated_at": _STRINGS}, {}) | _shaped({"statement": _STRINGS}, {})
_PREMISE_RECORD = _shaped({"conclusion": _STRINGS, "premises": st.lists(_PREMISE, max_size=3)}, {})


@given(raw=st.one_of(_CLASSIFY, _CLASSIFY, _CLASSIFY, _JSON))
@settings(max_examples=300, deadline=None)
def test_the_classify_schema_accepts_exactly_what_the_converter_accepts(raw: object) -> None:
    assert _valid(raw, CLASSIFY_RECORDS_SCHEMA) == _accepted(raw, AnyClassifyRecord)


@given(raw=st.one_of(_PREMISE_RECORD, _PREMISE_RECORD, _PREMISE_RECORD, _JSON))
@settings(max_examples=300, deadline=None)
def test_the_premise_schema_accepts_exactly_what_the_converter_accepts(raw: object) -> None:
    assert _valid(raw, PREMISE_RECORDS_SCHEMA) == _accepted(raw, PremiseRecord)
