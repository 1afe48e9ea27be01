"""Schemas that teach: each tool publishes the proposal schema of every installed check type (generated from
the plugins), a schema of its result, and the hints a client needs; real results follow their schemas."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from cgx_core.checks.api import Outcome, Prepared, ProposingTool, Refusal, RunView
from cgx_core.checks.installed import CheckTypeRegistry, check_types_scope, installed_check_types
from cgx_core.tooling.proposal_schemas import proposal_schema
from cgx_core.tooling.registry import TOOLS, call_tool
from support import EXAMPLE_PREMISES, EXAMPLE_RECORDS, start_example

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))


class FakeType:
    """A check type that declares a schema with its own `$defs` and a `$ref` to them."""

    def __init__(self, name: str, tool: ProposingTool, schema: Mapping[str, Any]) -> None:
        self.name = name
        self.tool: ProposingTool = tool
        self.description = f"the {name} check"
        self.proposal_schema = schema
        self.fallback_for: str | None = None
        self.uses_model = False
        self.retry_after_error = False

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        return Prepared(str(proposal["target"]), {})

    def slot_of(self, inputs: Mapping[str, Any]) -> str:
        return ""

    def observation_key(self, prepared: Prepared) -> str:
        return ""

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        return Outcome("error", "never run")

    def rerun(self, inputs: Mapping[str, Any], run: RunView) -> Outcome | None:
        return None


WITH_DEFS: dict[str, Any] = {
    "$defs": {"side": {"type": "string", "minLength": 1, "description": "one side"}},
    "properties": {"lhs": {"$ref": "#/$defs/side"}, "rhs": {"$ref": "#/$defs/side"}},
    "required": ["lhs", "rhs"],
    "additionalProperties": False,
}


def registry_of(*kinds: FakeType) -> CheckTypeRegistry:
    registry = CheckTypeRegistry()
    for kind in kinds:
        registry(kind)
    return registry


def test_run_checks_publishes_one_branch_per_installed_proposable_type_generated_from_its_plugin() -> None:
    schema = TOOLS["run_checks"].input_schema()
    branches = schema["properties"]["proposals"]["items"]["anyOf"]
    expected = [
        item.check_type
        for item in installed_check_types()
        if item.check_type.tool == "run_checks" and item.check_type.fallback_for is None
    ]
    assert [branch["title"] for branch in branches] == [kind.name for kind in expected]
    for branch, kind in zip(branches, expected, strict=True):
        assert branch == proposal_schema(kind)
        assert branch["properties"]["type"]["enum"] == [kind.name]
        assert branch["required"][:2] == ["type", "target"]
        for name, field in kind.proposal_schema["properties"].items():
            assert branch["properties"][name] == field
    # A fallback is never proposed, so it has no branch.
    assert "rederive-maths-numeric" not in json.dumps([branch["title"] for branch in branches])


def test_a_proposal_schema_validates_what_the_engine_accepts_and_refuses_what_it_refuses() -> None:
    schema = TOOLS["run_checks"].input_schema()
    arguments = {
        "run": "r",
        "model": "m",
        "proposals": [
            {
                "type": "recompute-numbers",
                "target": "s-12",
                "cites": ["s-12"],
                "expression": "12 * 300",
                "result": "3000",
            }
        ],
    }
    jsonschema.validate(arguments, schema)
    for bad in (
        {"type": "recompute-numbers", "target": "s-12", "expression": "1"},  # no result
        {"type": "recompute-numbers", "target": "s-12", "expression": "1", "result": "1", "colour": "red"},
        {"type": "no-such-type", "target": "s-12"},
        {"type": "rederive-maths", "symbols": {}, "lhs": "x", "rhs": "x"},  # no target
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**arguments, "proposals": [bad]}, schema)


def test_a_types_own_definitions_are_hoisted_so_its_references_resolve_inside_the_tool_schema() -> None:
    with check_types_scope(registry_of(FakeType("two-sides", "run_checks", WITH_DEFS))):
        schema = TOOLS["run_checks"].input_schema()
    assert schema["$defs"] == {"two-sides.side": WITH_DEFS["$defs"]["side"]}
    [branch] = schema["properties"]["proposals"]["items"]["anyOf"]
    assert branch["properties"]["lhs"] == {"$ref": "#/$defs/two-sides.side"}
    good = {"run": "r", "model": "m", "proposals": [{"type": "two-sides", "target": "s-1", "lhs": "a", "rhs": "b"}]}
    jsonschema.validate(good, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(
            {**good, "proposals": [{"type": "two-sides", "target": "s-1", "lhs": "", "rhs": "b"}]}, schema
        )
    assert WITH_DEFS["properties"]["lhs"] == {"$ref": "#/$defs/side"}  # the plugin's own mapping is unchanged


def test_judge_citation_takes_the_fields_of_the_type_it_proposes_as_its_arguments() -> None:
    schema = TOOLS["judge_citation"].input_schema()
    declared = installed_check_types().get("citation-support")
    assert declared is not None
    own = declared.check_type.proposal_schema
    for name in own["properties"]:
        assert name in schema["properties"]
    assert set(own["required"]) | {"run", "node", "model"} == set(schema["required"])
    assert "type" not in schema["properties"]  # one type proposed here: nothing to choose
    assert all(field.get("description") for field in schema["properties"].values())


def test_judge_citation_with_two_types_lets_the_agent_choose_and_requires_what_both_require() -> None:
    first = FakeType(
        "a-judgement", "judge_citation", {"properties": {"entry": {"type": "string"}}, "required": ["entry"]}
    )
    second = FakeType(
        "b-judgement",
        "judge_citation",
        {"properties": {"entry": {"type": "string"}, "page": {"type": "integer"}}, "required": ["entry", "page"]},
    )
    with check_types_scope(registry_of(first, second)):
        schema = TOOLS["judge_citation"].input_schema()
    assert schema["properties"]["type"]["enum"] == ["a-judgement", "b-judgement"]
    assert "page" in schema["properties"]
    assert schema["required"] == ["run", "node", "entry", "model"]


def test_the_tools_command_shows_each_check_types_proposal_schema_and_one_tool_its_result_schema() -> None:
    done = subprocess.run([CLI, "tools"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    listing = json.loads(done.stdout)
    shown = {(item["tool"], item["name"]): item["proposal"] for item in listing["check_types"]}
    for item in installed_check_types():
        kind = item.check_type
        if kind.fallback_for is None:
            assert shown[(kind.tool, kind.name)] == proposal_schema(kind)
    for tool in listing["tools"]:
        assert tool["arguments"] == TOOLS[tool["name"]].input_schema()
        assert "result" not in tool  # the full listing stays short: one tool at a time gives its result
        one = json.loads(subprocess.run([CLI, "tools", tool["name"]], capture_output=True, text=True).stdout)
        assert one["tools"][0]["result"] == TOOLS[tool["name"]].result
    unknown = subprocess.run([CLI, "tools", "make_coffee"], capture_output=True, text=True, check=False)
    assert unknown.returncode == 2 and unknown.stderr.startswith("error [unknown-tool]: ")


def test_every_tool_declares_a_result_schema_that_is_a_valid_schema_with_a_closed_top_level() -> None:
    for tool in TOOLS.values():
        jsonschema.Draft202012Validator.check_schema(tool.result)
        jsonschema.Draft202012Validator.check_schema(dict(tool.input_schema()))
        assert tool.result["type"] == "object"
        assert tool.result["additionalProperties"] is False


def check(tool: str, result: Mapping[str, Any]) -> None:
    assert "error" not in result, result
    jsonschema.validate(result, TOOLS[tool].result)


def test_the_results_of_a_whole_run_follow_their_tools_result_schemas(tmp_path: Path) -> None:
    run = tmp_path / "run"
    check("start_run", start_example(run))

    def call(tool: str, **arguments: Any) -> dict[str, Any]:
        payload, _ = call_tool(tool, {"run": str(run), "model": "m", **arguments})
        check(tool, payload)
        return payload

    refused = call("classify", records=[{"node": "s-01", "type": "no-such-type"}, {"node": "nope", "type": "claim"}])
    assert len(refused["refused"]) == 2
    call("classify", records=EXAMPLE_RECORDS)
    call("add_premises", records=EXAMPLE_PREMISES)
    call(
        "run_checks",
        proposals=[
            {
                "type": "recompute-numbers",
                "target": "s-12",
                "cites": ["s-12"],
                "expression": "12 * 300",
                "result": "3000",
            },
            {"type": "recompute-numbers", "target": "nope"},
        ],
    )
    call("judge_citation", node="s-02", entry="r-1", source="smith2019.txt", passage="not in it", supports=True)
    call("finish_run")
    for arguments in ({}, {"type": "reference"}, {"nodes": ["s-01", "r-1"]}, {"start": 5, "limit": 3}):
        payload, _ = call_tool("get_state", {"run": str(run), **arguments})
        check("get_state", payload)


def test_an_error_result_follows_every_tools_result_schema_as_clients_that_check_errors_expect(tmp_path: Path) -> None:
    for name, tool in TOOLS.items():
        payload, is_error = call_tool(name, {"run": str(tmp_path / "missing"), "model": "m"})
        assert is_error and set(payload) == {"error"}
        jsonschema.validate(payload, tool.result)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"error": {"code": "x"}}, tool.result)  # an error says what went wrong
