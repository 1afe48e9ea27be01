"""What one call may send: nesting, string length and total size are bounded, each refused with
`invalid-arguments` naming where, and the run left as it was."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cgx_core.base.limits import MAX_ARGUMENT_BYTES, MAX_ARGUMENT_DEPTH, MAX_ARGUMENT_STRING
from cgx_core.tooling.registry import call_tool
from support import start_example, tree

DEEP = 9997


def nested(depth: int) -> Any:
    """Lists nested `depth` deep, built without recursion (the test's own stack is shorter than a CLI's)."""
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("limits") / "run"
    start_example(path)
    return path


CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "classify, a form value": ("classify", {"records": [{"node": "s-01", "type": "claim", "form": {"shape": "X"}}]}),
    "classify, the records": ("classify", {"records": "X"}),
    "add_premises, a statement": (
        "add_premises",
        {"records": [{"conclusion": "s-01", "premises": [{"statement": "X"}]}]},
    ),
    "run_checks, a proposal field": (
        "run_checks",
        {"proposals": [{"type": "recompute-numbers", "target": "s-12", "expression": "X", "result": "3000"}]},
    ),
}


def fill(arguments: Any, value: Any) -> Any:
    """The arguments with the placeholder "X" replaced by `value`."""
    if arguments == "X":
        return value
    if isinstance(arguments, dict):
        return {key: fill(item, value) for key, item in arguments.items()}
    if isinstance(arguments, list):
        return [fill(item, value) for item in arguments]
    return arguments


def refused(run: Path, tool: str, arguments: dict[str, Any]) -> str:
    before = tree(run)
    payload, is_error = call_tool(tool, {"run": str(run), "model": "m", **arguments})
    assert is_error, payload
    assert payload["error"]["code"] == "invalid-arguments", payload  # before: internal-error, or accepted
    assert tree(run) == before
    message: str = payload["error"]["message"]
    return message


@pytest.mark.parametrize("case", list(CALLS))
def test_arguments_nested_9997_deep_are_refused_not_an_internal_error(run: Path, case: str) -> None:
    tool, arguments = CALLS[case]
    message = refused(run, tool, fill(arguments, nested(DEEP)))
    assert f"is nested deeper than {MAX_ARGUMENT_DEPTH} levels" in message


def test_nesting_within_the_limit_is_judged_by_the_records_rules_as_before(run: Path) -> None:
    tool, arguments = CALLS["classify, a form value"]
    payload, is_error = call_tool(
        tool, {"run": str(run), "model": "m", **fill(arguments, nested(MAX_ARGUMENT_DEPTH - 5))}
    )
    assert not is_error, payload
    assert [item["code"] for item in payload["refused"]] == ["form-invalid"]


@pytest.mark.parametrize("case", [case for case in CALLS if case != "classify, the records"])
def test_a_string_longer_than_the_cap_is_refused(run: Path, case: str) -> None:
    tool, arguments = CALLS[case]
    message = refused(run, tool, fill(arguments, "x" * (MAX_ARGUMENT_STRING + 1)))
    assert f"has {MAX_ARGUMENT_STRING + 1} characters; a string takes at most {MAX_ARGUMENT_STRING}" in message


def test_a_call_cannot_add_megabytes_to_the_log(run: Path) -> None:
    # 500 records (the most a call takes) of strings just under the cap: 10 MB, where one call once added 50 MB.
    record = {"conclusion": "s-01", "premises": [{"statement": "y" * (MAX_ARGUMENT_STRING - 1)}]}
    message = refused(run, "add_premises", {"records": [record] * 500})
    assert f"a call takes at most {MAX_ARGUMENT_BYTES}" in message


def test_through_the_command_line_too(run: Path) -> None:
    cli = str(Path(sys.executable).with_name("credencegraph-extract"))
    arguments = '{"model": "m", "records": ' + "[" * DEEP + "]" * DEEP + "}"
    done = subprocess.run(
        [cli, "tool", "classify", "--run", str(run), "--args", "-"], input=arguments, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error [invalid-arguments]: classify: $.records")
