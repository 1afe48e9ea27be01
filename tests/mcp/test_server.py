"""The MCP server, driven by the mcp SDK's own client: in memory for speed, over stdio for truth.

Every mistake of the model's must come back as a JSON result with is_error set, never as a protocol
error, and byte-identical to what `credencegraph-extract tool` prints for the same call.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from report_runs import checked_example

from cgx_core.tooling.listing import lean_arguments, lean_result
from cgx_core.tooling.registry import TOOLS
from cgx_core.tooling.workflow import INSTRUCTIONS
from cgx_mcp.server import build_server
from support import EXAMPLE, EXAMPLE_RUBRIC, tree

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))


def stdio_client() -> Client:
    return Client(StdioServerParameters(command=CLI, args=["mcp"]))


def with_client(client: Client, body: Callable[[Client], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        async with client:
            return await body(client)

    return anyio.run(main)


def cli(name: str, arguments: dict[str, Any]) -> tuple[int, str, str]:
    done = subprocess.run(
        [CLI, "tool", name, "--args", json.dumps(arguments)], capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout.strip(), done.stderr.strip()


def start_arguments(run: Path) -> dict[str, Any]:
    return {"run": str(run), "paper": str(EXAMPLE / "paper.tex"), "rubric": str(EXAMPLE_RUBRIC), "model": "m"}


MISTAKES: list[tuple[str, str, dict[str, Any], str]] = [
    ("wrong type", "get_state", {"run": "RUN", "limit": "ten"}, "invalid-arguments"),
    ("boolean as integer", "get_state", {"run": "RUN", "limit": True}, "invalid-arguments"),
    ("unknown argument", "get_state", {"run": "RUN", "colour": "blue"}, "invalid-arguments"),
    ("missing required", "start_run", {"run": "RUN-new", "paper": "p.tex", "model": "m"}, "invalid-arguments"),
    ("unknown tool", "make_coffee", {"run": "RUN"}, "unknown-tool"),
    ("missing run", "get_state", {"run": "RUN-missing"}, "run-not-found"),
    ("not a run", "get_state", {"run": "PAPER"}, "not-a-run"),
]


def fill(arguments: dict[str, Any], run: Path) -> dict[str, Any]:
    replaced = {}
    for name, value in arguments.items():
        if isinstance(value, str):
            value = value.replace("RUN", str(run)).replace("PAPER", str(EXAMPLE))
        replaced[name] = value
    return replaced


def test_the_server_lists_every_tool_with_a_strict_schema_and_gives_the_workflow() -> None:
    async def body(client: Client) -> None:
        listing = await client.list_tools()
        assert [tool.name for tool in listing.tools] == list(TOOLS)
        for tool in listing.tools:
            assert tool.input_schema["additionalProperties"] is False
            assert "run" in tool.input_schema["required"]
            assert tool.description
        assert client.instructions == INSTRUCTIONS

    with_client(Client(build_server()), body)


def test_tools_list_gives_each_tool_its_result_schema_the_proposal_schemas_and_the_world_it_reads() -> None:
    async def body(client: Client) -> Any:
        return {tool.name: tool for tool in (await client.list_tools()).tools}

    listed = with_client(Client(build_server()), body)
    for name, tool in listed.items():
        assert tool.output_schema == lean_result(TOOLS[name].result)
        assert tool.input_schema == lean_arguments(TOOLS[name].input_schema())
        assert tool.annotations is not None
        # judge_citation fetches cited works, run_checks' reference-resolves queries registries
        assert tool.annotations.open_world_hint is (name in ("judge_citation", "run_checks"))
    branches = listed["run_checks"].input_schema["properties"]["proposals"]["items"]["anyOf"]
    assert {"recompute-numbers", "rederive-maths"} <= {branch["title"] for branch in branches}


@pytest.mark.parametrize(("case", "tool", "arguments", "code"), MISTAKES, ids=[case[0] for case in MISTAKES])
def test_every_mistake_comes_back_as_a_json_error_result(
    tmp_path: Path, case: str, tool: str, arguments: dict[str, Any], code: str
) -> None:
    run = tmp_path / "run"
    with_client(Client(build_server()), lambda client: client.call_tool("start_run", start_arguments(run)))
    filled = fill(arguments, run)

    async def body(client: Client) -> Any:
        return await client.call_tool(tool, filled)

    result = with_client(Client(build_server()), body)
    assert result.is_error
    assert result.structured_content["error"]["code"] == code
    assert json.loads(result.content[0].text) == result.structured_content


def test_over_stdio_results_and_errors_are_byte_identical_to_the_command_line(tmp_path: Path) -> None:
    run = tmp_path / "run"
    calls = [(tool, fill(arguments, run)) for _, tool, arguments, _ in MISTAKES]
    calls.append(("get_state", {"run": str(run), "limit": 3}))
    calls.append(("get_state", {"run": str(run), "nodes": ["e-1", "s-02"]}))

    async def body(client: Client) -> list[tuple[bool, str]]:
        started = await client.call_tool("start_run", start_arguments(run))
        assert not started.is_error, started.content
        out = []
        for tool, arguments in calls:
            result = await client.call_tool(tool, arguments)
            out.append((result.is_error, result.content[0].text))
        return out

    through_mcp = with_client(stdio_client(), body)
    for (tool, arguments), (is_error, text) in zip(calls, through_mcp, strict=True):
        status, stdout, stderr = cli(tool, arguments)
        assert stdout == text, tool
        assert (status == 2) == is_error
        if is_error:
            error = json.loads(text)["error"]
            assert stderr == f"error [{error['code']}]: {error['message']}"


def test_a_review_through_mcp_or_tool_is_the_agents_whatever_it_claims(tmp_path: Path) -> None:
    """The attack: an agent's call claimed `entered_by: "person"` for Ada Lovelace and overrode a failed check;
    now no caller of a tool can say who entered a review: it is recorded as the agent's, with its model."""
    run = checked_example(tmp_path / "run", EXAMPLE_RUBRIC)
    forged = {
        "run": str(run),
        "check": "c-003",
        "verdict": "holds",
        "reviewer": "Ada Lovelace",
        "reason": "I checked it",
        "entered_by": "person",
        "model": "model-x",
    }
    honest = {name: value for name, value in forged.items() if name != "entered_by"}

    async def body(client: Client) -> tuple[Any, Any]:
        return await client.call_tool("review", forged), await client.call_tool("review", honest)

    refused, accepted = with_client(stdio_client(), body)
    assert refused.is_error and refused.structured_content["error"]["code"] == "invalid-arguments"
    assert "unknown argument(s) ['entered_by']" in refused.structured_content["error"]["message"]
    assert not accepted.is_error, accepted.content
    [check] = accepted.structured_content["checks"]
    assert check["detail"].startswith("Ada Lovelace (entered by an agent acting for the person) judged that")
    line = json.loads((run / "calls.jsonl").read_bytes().splitlines()[-1])
    assert (line["model"], line["args"]["entered_by"]) == ("model-x", "agent")
    before = tree(run)
    status, stdout, _ = cli("review", forged)
    assert status == 2 and json.loads(stdout)["error"]["code"] == "invalid-arguments"
    assert tree(run) == before


def test_tools_list_over_stdio_imports_no_heavy_library_of_a_check_type(tmp_path: Path) -> None:
    """A session's fixed cost is what its first call needs: over a real stdio client, the server answers
    tools/list having imported neither sympy nor mpmath (the maths worker's), lark (a maths step's parser),
    pint (units) nor numpy (inference): each comes when a call needs it."""
    stderr = tmp_path / "imports.txt"  # the server's stderr: Python's log of every module it imported
    command = f"exec {shlex.quote(CLI)} mcp 2>{shlex.quote(str(stderr))}"
    parameters = StdioServerParameters(command="sh", args=["-c", command], env={"PYTHONPROFILEIMPORTTIME": "1"})
    listed = with_client(Client(parameters), lambda client: client.list_tools())
    assert {tool.name for tool in listed.tools} == set(TOOLS)
    lines = stderr.read_text(encoding="utf-8").splitlines()
    log = [line for line in lines if line.startswith("import time:") and "|" in line]
    imported = {line.rsplit("|", 1)[1].strip().partition(".")[0] for line in log}
    assert {"cgx_mcp", "cgx_checks", "mcp"} <= imported  # the server's log, its plugins found
    assert imported.isdisjoint({"sympy", "mpmath", "lark", "pint", "numpy"}), imported
