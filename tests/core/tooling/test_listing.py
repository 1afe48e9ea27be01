"""The lean schemas tools/list publishes: every field an agent may send is still there, every valid call is
still valid, and what was left out is one get_state `describe` away."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from cgx_core.checks.installed import installed_check_types
from cgx_core.tooling.descriptions import check_types_section
from cgx_core.tooling.listing import lean_arguments, lean_result
from cgx_core.tooling.proposal_schemas import proposal_schema
from cgx_core.tooling.registry import TOOLS, call_tool
from support import EXAMPLE_PREMISES, EXAMPLE_RECORDS


def field_paths(schema: Any, at: str = "") -> Iterator[str]:
    """Every property a schema names, as a path through properties, items and branches."""
    if isinstance(schema, list):
        for index, branch in enumerate(schema):
            yield from field_paths(branch, f"{at}|{index}")
    elif isinstance(schema, Mapping):
        for name, field in schema.get("properties", {}).items():
            yield f"{at}/{name}"
            yield from field_paths(field, f"{at}/{name}")
        for key in ("items", "anyOf", "additionalProperties"):
            if isinstance(schema.get(key), (dict, list)):
                yield from field_paths(schema[key], f"{at}.{key}")


@pytest.mark.parametrize("name", list(TOOLS))
def test_the_lean_arguments_name_every_field_of_the_full_schema_with_its_type_and_enum(name: str) -> None:
    full = TOOLS[name].input_schema()
    lean = lean_arguments(full)
    assert sorted(field_paths(lean)) == sorted(field_paths(full))
    jsonschema.Draft202012Validator.check_schema(lean)
    for argument, field in full["properties"].items():
        assert lean["properties"][argument].get("type") == field.get("type")
        assert lean["properties"][argument].get("enum") == field.get("enum")
        assert lean["properties"][argument].get("description") == field.get("description")
    assert lean["required"] == full["required"]


def test_every_valid_call_is_valid_against_the_lean_schema_and_closed_records_stay_closed() -> None:
    calls = {
        "classify": {"run": "r", "model": "m", "records": EXAMPLE_RECORDS},
        "add_premises": {"run": "r", "model": "m", "records": EXAMPLE_PREMISES},
        "run_checks": {
            "run": "r",
            "model": "m",
            "proposals": [
                {"type": "recompute-numbers", "target": "s-12", "expression": "12 * 300", "result": "3000"},
                {"type": "rederive-maths", "target": "e-1", "symbols": {"x": ["real"]}, "lhs": "x", "rhs": "x"},
            ],
        },
    }
    for name, arguments in calls.items():
        jsonschema.validate(arguments, TOOLS[name].input_schema())
        lean = lean_arguments(TOOLS[name].input_schema())
        jsonschema.validate(arguments, lean)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**arguments, "credence": 0.9}, lean)
    record = {**EXAMPLE_RECORDS[0], "credence": 0.9}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(
            {"run": "r", "model": "m", "records": [record]}, lean_arguments(TOOLS["classify"].input_schema())
        )


def test_the_lean_result_accepts_every_result_and_error_the_full_one_does_and_names_the_keys() -> None:
    for tool in TOOLS.values():
        lean = lean_result(tool.result)
        jsonschema.Draft202012Validator.check_schema(lean)
        assert lean["anyOf"] == tool.result["anyOf"]
        jsonschema.validate({"error": {"code": "x", "message": "y"}}, lean)


def test_get_state_describe_gives_each_check_types_full_proposal_schema_and_each_tools_full_schemas(
    tmp_path: Path,
) -> None:
    for item in installed_check_types():
        kind = item.check_type
        payload, is_error = call_tool("get_state", {"run": str(tmp_path / "any"), "describe": kind.name})
        assert not is_error, payload
        jsonschema.validate(payload, TOOLS["get_state"].result)
        described = payload["check_type"]
        assert described["description"] == kind.description
        if kind.fallback_for is None:
            assert described["proposal"] == proposal_schema(kind)
        else:
            assert described["fallback_for"] == kind.fallback_for and "proposal" not in described
    for name, tool in TOOLS.items():
        payload, is_error = call_tool("get_state", {"run": str(tmp_path / "any"), "describe": name})
        assert not is_error, payload
        assert payload["tool"]["arguments"] == tool.input_schema() and payload["tool"]["result"] == tool.result
    payload, is_error = call_tool("get_state", {"run": str(tmp_path / "any"), "describe": "make-coffee"})
    assert is_error and payload["error"]["code"] == "invalid-arguments"
    assert "recompute-numbers" in payload["error"]["message"] and "run_checks" in payload["error"]["message"]


def test_a_tools_description_names_its_check_types_without_their_prose_however_long_it_is() -> None:
    section = check_types_section("run_checks")
    for item in installed_check_types():
        if item.check_type.tool == "run_checks":
            assert item.check_type.name in section
            assert item.check_type.description not in section
    assert "rederive-maths-numeric runs by itself when rederive-maths errs" in section
