"""The written-out converter reads records exactly as the cattrs converter did: the same record from the
same JSON, or the same refusal, message for message and in the same order (cattrs_reference.py is that
converter, kept as the oracle)."""

from __future__ import annotations

from typing import Any

import cattrs_reference
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgx_core.assembler import converter
from cgx_core.assembler.records import AnyClassifyRecord, PremiseRecord
from cgx_core.errors import CgxError

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from([1.0, 1.5, float("nan"), float("inf")])
    | st.sampled_from(["", " ", " \n ", "s-1", "claim", "suggests", "x"])
)


def _values(extra: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Field values: scalars, arrays and objects of them, and whatever `extra` adds."""
    return st.recursive(
        SCALARS | extra,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["a", "b", "type"]), inner),
        max_leaves=6,
    )


def _record(fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects with some of `fields` (each value mostly of the field's own kind, else any value) and maybe
    a key no record has."""

    def drawn(draw: Any) -> dict[str, Any]:
        often = st.integers(0, 4).map(bool)  # four times in five
        anything = _values(st.nothing())
        made = {name: draw(kind if draw(often) else anything) for name, kind in fields.items() if draw(often)}
        if not draw(often):
            made[draw(st.sampled_from(["credence", "base"]))] = draw(anything)
        return made

    return st.composite(lambda draw: drawn(draw))()


TEXT = st.sampled_from(["s-1", "s-2", "claim", "suggests", "a", "b", " "])
FORM = st.dictionaries(st.sampled_from(["value", "kind"]), SCALARS | st.lists(SCALARS, max_size=2), max_size=2)
COMMON = {"type": TEXT, "form": FORM, "rests_on": st.lists(TEXT, max_size=2), "hedge": TEXT}
CHILD = _record(COMMON)
CLASSIFY = _record({"node": TEXT, **COMMON}) | _record(
    {"node": TEXT, "split": st.lists(TEXT, min_size=1, max_size=3), "children": st.lists(CHILD, max_size=3)}
)
PREMISE = _record({"stated_at": TEXT}) | _record({"statement": TEXT}) | _record({"stated_at": TEXT, "statement": TEXT})
PREMISES = _record({"conclusion": TEXT, "premises": st.lists(PREMISE, max_size=3)})


def outcome(structure: Any, raw: object, cls: Any) -> tuple[str, object]:
    try:
        return "built", structure(raw, cls, path="$.records[4]")
    except CgxError as error:
        return "refused", (error.code, error.message)


def same(raw: object, cls: Any) -> None:
    assert outcome(converter.structure, raw, cls) == outcome(cattrs_reference.structure, raw, cls)


@settings(max_examples=600, deadline=None)
@given(CLASSIFY | _values(CHILD))
def test_a_classify_record_is_read_as_cattrs_read_it(raw: object) -> None:
    same(raw, AnyClassifyRecord)


@settings(max_examples=400, deadline=None)
@given(PREMISES | _values(PREMISE))
def test_a_premise_record_is_read_as_cattrs_read_it(raw: object) -> None:
    same(raw, PremiseRecord)


@settings(max_examples=200, deadline=None)
@given(SCALARS, st.sampled_from([str, int, float, bool]))
def test_a_scalar_is_read_as_cattrs_read_it(raw: object, cls: type) -> None:
    same(raw, cls)


@pytest.mark.parametrize(
    "raw",
    [
        {"node": "s-1", "split": ["a", " "], "children": [{"type": "x"}, {"type": 1, "credence": 1}], "base": 1},
        {"node": "s-1", "split": ["only"], "children": []},
        {"node": "s-1", "type": "result", "form": {"value": [1, {"deep": float("nan")}]}},
        {"node": "s-1", "type": "result", "form": {"a": {"b": {"c": {1: 2}}}}},
        {"node": "s-1", "type": "claim", "hedge": None, "rests_on": ["s-2", 3, ""]},
        {"type": "claim"},
        {"children": "not an array"},
        {"node": "s-1", "type": "claim", "form": {"x": [[[[[[[[[[[[1]]]]]]]]]]]]}},
        {"node": "s-1", "type": "claim", "form": {"value": 1}, "rests_on": ["s-2"], "hedge": "suggests"},
        {"node": "s-1", "split": ["a", "b"], "children": [{"type": "x", "rests_on": ["s-2"]}, {"type": "y"}]},
    ],
)
def test_records_with_many_faults_or_none_are_read_as_cattrs_read_them(raw: object) -> None:
    same(raw, AnyClassifyRecord)


def test_a_form_nested_past_the_stack_is_refused_as_cattrs_refused_it() -> None:
    deep: Any = 1
    for _ in range(5000):
        deep = [deep]
    raw = {"node": "s-1", "type": "result", "form": {"value": deep}}
    assert outcome(converter.structure, raw, AnyClassifyRecord) == outcome(
        cattrs_reference.structure, raw, AnyClassifyRecord
    )
    assert "nested too deeply @ $.records[4].form" in str(outcome(converter.structure, raw, AnyClassifyRecord))
