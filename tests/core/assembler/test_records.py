"""The records and their converter: strict JSON types, no extra keys, the path of every bad field."""

from __future__ import annotations

from typing import Any

import pytest

from cgx_core.assembler.converter import structure
from cgx_core.assembler.records import (
    AnyClassifyRecord,
    ChildRecord,
    ClassifyRecord,
    FieldInvalid,
    PremiseRecord,
    SplitRecord,
    StatedAt,
    Statement,
)
from cgx_core.codes import Code
from cgx_core.errors import CgxError

PATH = "$.records[2]"


def refusal(raw: object, cls: Any = AnyClassifyRecord) -> str:
    with pytest.raises(CgxError) as caught:
        structure(raw, cls, path=PATH)
    assert caught.value.code is Code.RECORD_INVALID
    return caught.value.message


def test_a_plain_record_is_built_with_its_optional_fields() -> None:
    raw = {"node": "s-3", "type": "claim", "form": {"shape": "existential", "bound": 0.5}, "rests_on": ["s-1"]}
    record = structure({**raw, "hedge": "suggests"}, AnyClassifyRecord)
    assert record == ClassifyRecord("s-3", "claim", {"shape": "existential", "bound": 0.5}, ("s-1",), "suggests")
    assert structure({"node": "s-3", "type": "claim"}, AnyClassifyRecord) == ClassifyRecord("s-3", "claim")


def test_a_split_record_is_told_apart_by_its_keys() -> None:
    raw = {"node": "s-2", "split": ["a b", "c d"], "children": [{"type": "result"}, {"type": "claim", "hedge": "may"}]}
    record = structure(raw, AnyClassifyRecord)
    assert record == SplitRecord("s-2", ("a b", "c d"), (ChildRecord("result"), ChildRecord("claim", hedge="may")))


def test_a_premise_record_is_built_with_both_kinds_of_premise() -> None:
    raw = {"conclusion": "s-3", "premises": [{"stated_at": "s-1"}, {"statement": "Noise is white."}]}
    assert structure(raw, PremiseRecord) == PremiseRecord("s-3", (StatedAt("s-1"), Statement("Noise is white.")))


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"node": "s-1", "type": "claim", "credence": 0.9}, "extra fields found (credence) @ $.records[2]"),
        ({"node": "s-1", "type": 1}, "expected a string, got an integer @ $.records[2].type"),
        ({"node": "s-1", "type": True}, "expected a string, got a boolean @ $.records[2].type"),
        (
            {"node": "s-1", "type": "claim", "rests_on": "s-2"},
            "expected an array, got a string @ $.records[2].rests_on",
        ),
        (
            {"node": "s-1", "type": "claim", "rests_on": [2]},
            "expected a string, got an integer @ $.records[2].rests_on[0]",
        ),
        (
            {"node": "s-1", "type": "claim", "hedge": None},
            "expected a string, got null (leave the field out instead) @ $.records[2].hedge",
        ),
        ({"node": "s-1", "type": "claim", "hedge": " \n "}, "must not be blank @ $.records[2].hedge"),
        ({"node": "", "type": "claim"}, "must not be blank @ $.records[2].node"),
        ({"node": "s-1", "type": "claim", "form": ["shape"]}, "expected an object of form fields, got an array"),
        ({"node": "s-1"}, "required field missing @ $.records[2].type"),
        (
            {"node": "s-1", "split": ["a b"], "children": [{"type": "x"}]},
            "needs at least 2 items, got 1 @ $.records[2].split",
        ),
        (
            {"node": "s-1", "split": ["a", " "], "children": [{"type": "x"}]},
            "item 1 must not be blank @ $.records[2].split",
        ),
        (
            {"node": "s-1", "split": ["a", "b"], "children": [{"type": "x", "strength": 0.9}]},
            "extra fields found (strength) @ $.records[2].children[0]",
        ),
        ({"node": "s-1", "type": "claim", "split": ["a", "b"], "children": []}, "extra fields found (type)"),
        ([{"node": "s-1"}], "expected an object, got an array @ $.records[2]"),
        ("s-1", "expected an object, got a string @ $.records[2]"),
        (None, "expected an object, got null @ $.records[2]"),
    ],
)
def test_a_bad_classify_record_is_refused_with_the_path_of_the_bad_field(raw: object, message: str) -> None:
    assert message in refusal(raw)


def test_every_bad_field_is_reported_not_only_the_first() -> None:
    message = refusal({"node": 3, "split": ["a", 4], "children": [{"type": "x", "credence": 1}]})
    assert message == (
        "expected a string, got an integer @ $.records[2].node; "
        "expected a string, got an integer @ $.records[2].split[1]; "
        "extra fields found (credence) @ $.records[2].children[0]"
    )


@pytest.mark.parametrize(
    ("form", "problem"),
    [
        ({"value": float("nan")}, "form.value is nan, and a JSON number is finite"),
        ({"value": [1, float("inf")]}, "form.value[1] is inf, and a JSON number is finite"),
        ({"scope": {"rate": {1: 2}}}, "form.scope.rate has the key 1, and a JSON object's keys are strings"),
        ({"value": {1, 2}}, "form.value is a set, which is not JSON"),
    ],
)
def test_a_form_value_must_be_finite_json(form: dict[str, Any], problem: str) -> None:
    assert refusal({"node": "s-1", "type": "result", "form": form}) == f"{problem} @ $.records[2].form"


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"conclusion": "s-1", "premises": []}, "needs at least 1 item, got 0 @ $.records[2].premises"),
        (
            {"conclusion": "s-1", "premises": [{"stated_at": "s-2", "statement": "x"}]},
            "extra fields found (statement) @ $.records[2].premises[0]",
        ),
        (
            {"conclusion": "s-1", "premises": [{"because": "x"}]},
            'a premise is {"stated_at": "<chunk id>"} or {"statement": "<text>"} @ $.records[2].premises[0]',
        ),
        ({"conclusion": "s-1", "premises": [{"statement": 5}]}, "expected a string, got an integer"),
        ({"conclusion": "s-1", "premises": [{"stated_at": "s-2"}], "base": 0.8}, "extra fields found (base)"),
    ],
)
def test_a_bad_premise_record_is_refused_with_the_path(raw: object, message: str) -> None:
    assert message in refusal(raw, PremiseRecord)


def test_nothing_is_coerced() -> None:
    for bad in (1.9, 1, False, ["claim"], {"t": 1}):
        refusal({"node": "s-1", "type": bad})
    refusal({"node": "s-1", "split": "ab", "children": [{"type": "x"}]})  # a string is not an array of clauses
    for value, cls in (("1", int), (1.9, int), (True, int), ("false", bool), (0, bool), ("1.5", float)):
        refusal(value, cls)
    refusal(float("nan"), float)
    assert structure(1, float) == 1.0
    assert structure(False, bool) is False
    assert structure(7, int) == 7


def test_the_validators_hold_whatever_builds_the_record() -> None:
    with pytest.raises(FieldInvalid, match="needs at least 2 items"):
        SplitRecord("s-1", ("only one",), (ChildRecord("claim"),))
    with pytest.raises(FieldInvalid, match="must not be blank"):
        Statement("   ")
