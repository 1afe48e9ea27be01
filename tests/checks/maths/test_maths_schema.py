"""The published proposal schema of the maths checks: complete, teaching, and exactly what the grammar and
the builder accept (generated from the vocabulary, so the two cannot drift)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cgx_checks.expression_codes import ExpressionCode
from cgx_checks.maths.read.schema import EXAMPLES, proposal_schema
from cgx_checks.maths.read.step import parse_step
from cgx_checks.maths.read.vocabulary import ALIASES, ASSUMPTIONS, CONSTANTS, FUNCTIONS, OPERATORS, PERCENT
from cgx_checks.maths.worker import build
from cgx_checks.rederive_maths import RederiveMaths, RederiveMathsNumeric
from cgx_core.base.json_schema import problems
from cgx_core.codes import Code
from cgx_core.errors import CgxError

SCHEMA = proposal_schema()
PUBLISHED_GROUP = re.compile(r"([0-9](?:-[0-9])?): ([A-Za-z0-9 ]+?)(?:;|\.)")


def published_functions() -> dict[str, tuple[int, ...]]:
    """The functions and argument counts the lhs description publishes, read back from its text."""
    text = SCHEMA["properties"]["lhs"]["description"]
    found: dict[str, tuple[int, ...]] = {}
    for counts, names in PUBLISHED_GROUP.findall(text):
        for name in names.split():
            low, _, high = counts.partition("-")
            found[name] = tuple(range(int(low), int(high or low) + 1))
    return found


def test_both_maths_check_types_publish_the_same_complete_schema() -> None:
    assert RederiveMaths().proposal_schema == RederiveMathsNumeric().proposal_schema == SCHEMA
    for name, field in SCHEMA["properties"].items():
        assert len(field["description"]) >= 15, name
        assert field["examples"], name
    assert SCHEMA["additionalProperties"] is False and SCHEMA["required"] == ["symbols"]


def test_the_enums_and_lists_are_the_vocabulary() -> None:
    assumptions = SCHEMA["properties"]["symbols"]["additionalProperties"]["items"]["enum"]
    assert assumptions == list(ASSUMPTIONS)
    for constant in CONSTANTS:
        assert constant in SCHEMA["properties"]["lhs"]["description"]
    assert SCHEMA["properties"]["function_argument"]["enum"] == ["factor", "product"]


def test_the_published_functions_are_exactly_those_the_grammar_accepts_and_sympy_builds() -> None:
    published = published_functions()
    assert published == {name: function.arities for name, function in FUNCTIONS.items()}
    for name, function in FUNCTIONS.items():
        if function.kind in ("function", "condition"):
            assert callable(build.sympy_function(name)), name
    for name, counts in published.items():
        if FUNCTIONS[name].kind != "function":
            continue
        for count in counts:
            arguments = ", ".join(["x + 2"] + ["2"] * (count - 1))
            parse_step({"symbols": {"x": ["positive"]}, "lhs": f"{name}({arguments})", "rhs": "1/7"})
        too_many = ", ".join(["x"] * (max(counts) + 1))
        with pytest.raises(CgxError) as caught:
            parse_step({"symbols": {"x": ["positive"]}, "lhs": f"{name}({too_many})", "rhs": "1/7"})
        assert caught.value.code == Code.EXPRESSION_INVALID


@pytest.mark.parametrize("name", ["Log", "foo", "arcsec", "Erf", "lambda"])
def test_a_function_not_published_is_refused(name: str) -> None:
    with pytest.raises(CgxError) as caught:
        parse_step({"symbols": {"x": ["real"]}, "lhs": f"{name}(x)", "rhs": "1"})
    assert caught.value.code == ExpressionCode.UNKNOWN_FUNCTION


def test_the_published_aliases_constants_operators_and_percent_are_read_as_described() -> None:
    description = SCHEMA["properties"]["lhs"]["description"]
    for alias, name in ALIASES.items():
        assert f"{alias}={name}" in description
        arguments = ", ".join(["x + 2"] + ["2"] * (FUNCTIONS[name].arities[0] - 1))
        step = parse_step({"symbols": {"x": ["positive"]}, "lhs": f"{alias}({arguments})", "rhs": "1/7"})
        assert step.lhs_shape.degree == 1
    for constant in CONSTANTS:
        assert constant in description
        parse_step({"symbols": {}, "lhs": constant, "rhs": "1/7"})
    for operator in OPERATORS:
        assert operator in description
    assert PERCENT in description
    with pytest.raises(CgxError) as caught:
        parse_step({"symbols": {"x": ["real"]}, "lhs": "50%", "rhs": "1/2"})
    assert PERCENT in caught.value.message


@pytest.mark.parametrize("kind", sorted(EXAMPLES))
def test_every_published_example_is_a_valid_proposal(kind: str) -> None:
    example: dict[str, Any] = EXAMPLES[kind]
    fields = {name: value for name, value in example.items() if name not in ("type", "target")}
    assert problems(fields, {"type": "object", **SCHEMA}) == []
    parse_step({name: value for name, value in fields.items() if name != "equations"})
