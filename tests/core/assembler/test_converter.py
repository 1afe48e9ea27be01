"""Records are read by cattrs, strictly: the same record from the same JSON, or every problem with its JSON path,
word for word as the written-out reader that stood in for cattrs gave them (these messages were taken from it
before it was retired), and never anything but a record or our error."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgx_core.assembler.converter import structure
from cgx_core.assembler.records import AnyClassifyRecord, ChildRecord, ClassifyRecord, PremiseRecord, SplitRecord
from cgx_core.codes import Code
from cgx_core.errors import CgxError

AT = "$.records[4]"


def refusal(raw: object, cls: Any) -> str:
    with pytest.raises(CgxError) as refused:
        structure(raw, cls, path=AT)
    assert refused.value.code == Code.RECORD_INVALID
    return refused.value.message


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (
            {"node": "s-1", "split": ["a", " "], "children": [{"type": "x"}, {"type": 1, "credence": 1}], "base": 1},
            f"expected a string, got an integer @ {AT}.children[1].type; extra fields found (credence) @ "
            f"{AT}.children[1]; extra fields found (base) @ {AT}",
        ),
        ({"node": "s-1", "split": ["only"], "children": []}, f"needs at least 2 items, got 1 @ {AT}.split"),
        (
            {"node": "s-1", "type": "result", "form": {"value": [1, {"deep": float("nan")}]}},
            f"form.value[1].deep is nan, and a JSON number is finite @ {AT}.form",
        ),
        (
            {"node": "s-1", "type": "result", "form": {"a": {"b": {"c": {1: 2}}}}},
            f"form.a.b.c has the key 1, and a JSON object's keys are strings @ {AT}.form",
        ),
        (
            {"node": "s-1", "type": "claim", "hedge": None, "rests_on": ["s-2", 3, ""]},
            f"expected a string, got an integer @ {AT}.rests_on[1]; expected a string, got null (leave the field out "
            f"instead) @ {AT}.hedge",
        ),
        ({"type": "claim"}, f"required field missing @ {AT}.node"),
        (
            {"children": "not an array"},
            f"required field missing @ {AT}.node; required field missing @ {AT}.split; expected an array, got a "
            f"string @ {AT}.children",
        ),
        ("not an object", f"expected an object, got a string @ {AT}"),
        (
            {"node": 3, "type": True},
            f"expected a string, got an integer @ {AT}.node; expected a string, got a boolean @ {AT}.type",
        ),
    ],
)
def test_every_problem_of_a_classify_record_is_named_with_its_path(raw: object, message: str) -> None:
    assert refusal(raw, AnyClassifyRecord) == message


def test_every_problem_of_a_premise_record_is_named_with_its_path() -> None:
    raw = {
        "conclusion": "s-1",
        "premises": [{"stated_at": "s-2"}, {"statement": 3}, {"x": 1}, "y", {"stated_at": "a", "statement": "b"}],
    }
    assert refusal(raw, PremiseRecord) == (
        f"expected a string, got an integer @ {AT}.premises[1].statement; a premise is "
        f'{{"stated_at": "<chunk id>"}} or {{"statement": "<text>"}} @ {AT}.premises[2]; expected an object, '
        f'{{"stated_at": id}} or {{"statement": text}}, got a string @ {AT}.premises[3]; extra fields found '
        f"(statement) @ {AT}.premises[4]"
    )
    assert refusal({"premises": "no"}, PremiseRecord) == (
        f"required field missing @ {AT}.conclusion; expected an array, got a string @ {AT}.premises"
    )


@pytest.mark.parametrize(
    ("raw", "cls", "message"),
    [
        (1, str, "expected a string, got an integer"),
        ("1", int, "expected an integer, got a string"),
        (True, int, "expected an integer, got a boolean"),
        (1.0, int, "expected an integer, got a number"),
        (float("nan"), float, "expected a finite number, got nan"),
        (1, bool, "expected true or false, got an integer"),
        (None, str, "expected a string, got null"),
    ],
)
def test_a_json_scalar_is_never_coerced(raw: object, cls: type, message: str) -> None:
    assert refusal(raw, cls) == f"{message} @ {AT}"


def test_records_are_built_from_their_json() -> None:
    deep = {"x": [[[[[[[[[[[[1]]]]]]]]]]]]}
    assert structure({"node": "s-1", "type": "claim", "form": deep}, AnyClassifyRecord) == ClassifyRecord(
        node="s-1", type="claim", form=deep
    )
    raw = {"node": "s-1", "type": "claim", "form": {"value": 1}, "rests_on": ["s-2"], "hedge": "suggests"}
    assert structure(raw, AnyClassifyRecord) == ClassifyRecord(
        node="s-1", type="claim", form={"value": 1}, rests_on=("s-2",), hedge="suggests"
    )
    raw = {"node": "s-1", "split": ["a", "b"], "children": [{"type": "x", "rests_on": ["s-2"]}, {"type": "y"}]}
    assert structure(raw, AnyClassifyRecord) == SplitRecord(
        node="s-1", split=("a", "b"), children=(ChildRecord(type="x", rests_on=("s-2",)), ChildRecord(type="y"))
    )


def test_a_form_nested_past_the_stack_is_refused_not_raised() -> None:
    deep: Any = 1
    for _ in range(5000):
        deep = [deep]
    assert refusal({"node": "s-1", "type": "result", "form": {"value": deep}}, AnyClassifyRecord) == (
        f"nested too deeply @ {AT}.form"
    )


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["node", "type", "form", "split", "children", "premises", "x"]), inner)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(JSON, st.sampled_from([AnyClassifyRecord, PremiseRecord, str, int, float, bool]))
def test_whatever_the_json_the_result_is_a_record_or_a_record_invalid_refusal(raw: object, cls: Any) -> None:
    try:
        structure(raw, cls)
    except CgxError as error:
        assert error.code == Code.RECORD_INVALID and " @ $" in error.message
