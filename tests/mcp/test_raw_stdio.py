"""The server as a client meets it, frame by frame over stdio: tools/list, loaded into every MCP session,
stays small whatever is installed (measured on the raw frame, every installed check type in it), and every
frame gets an answer, a malformed one too (JSON-RPC 2.0: -32700 parse error, -32600 invalid request)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cgx_core.checks.installed import installed_check_types
from cgx_core.tooling.listing import LISTING_BUDGET

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}


def exchange(*messages: dict[str, Any] | bytes, until: int | set[int]) -> list[str]:
    """The lines the server writes for `messages` (a frame, or a raw line's bytes), sent over stdio after
    the MCP handshake, up to its answer to request `until` (or to each of a set of requests, which the server
    may answer in any order: it runs calls concurrently). stdin stays open until then: a request still running
    when stdin ends is cancelled."""
    waiting = {until} if isinstance(until, int) else set(until)
    frames = [INITIALIZE, {"jsonrpc": "2.0", "method": "notifications/initialized"}, *messages]
    server = subprocess.Popen([CLI, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(
        b"".join(frame if isinstance(frame, bytes) else json.dumps(frame).encode() + b"\n" for frame in frames)
    )
    server.stdin.flush()
    lines = []
    for raw in server.stdout:
        lines.append(raw.decode("utf-8"))
        waiting.discard(json.loads(raw).get("id"))
        if not waiting:
            break
    _, stderr = server.communicate(timeout=120)
    assert server.returncode == 0, stderr
    return lines


def test_tools_list_over_stdio_with_every_check_type_installed_is_at_most_the_budget() -> None:
    lines = exchange({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, until=2)
    [frame] = [line for line in lines if json.loads(line).get("id") == 2]
    tools = json.loads(frame)["result"]["tools"]
    branches = next(tool for tool in tools if tool["name"] == "run_checks")["inputSchema"]["properties"]["proposals"]
    proposable = {
        item.check_type.name
        for item in installed_check_types()
        if item.check_type.tool == "run_checks" and item.check_type.fallback_for is None
    }
    assert {branch["title"] for branch in branches["items"]["anyOf"]} == proposable  # all of them are measured
    assert "percent-of" in proposable  # a third party's type too (the example plugin)
    assert len(frame) <= LISTING_BUDGET, f"tools/list is {len(frame)} characters"


MALFORMED: list[tuple[str, bytes, int]] = [
    ("invalid JSON", b'{"jsonrpc": "2.0", "id": 2, "method": "tools/list"\n', -32700),
    ("a lone surrogate", b'{"jsonrpc": "2.0", "id": 3, "method": "ping", "params": {"x": "\\ud800"}}\n', -32700),
    ("nesting past the parser", b"[" * 100_000 + b"]" * 100_000 + b"\n", -32700),
    (
        "nesting past the parser in params",
        b'{"jsonrpc": "2.0", "id": 4, "method": "ping", "params": {"a": ' + b"[" * 300 + b"]" * 300 + b"}}\n",
        -32700,
    ),
    ("JSON that is no message", b"[1, 2]\n", -32600),
    ("bytes that are not UTF-8", b'{"x": "\xff\xfe"}\n', -32600),
]


@pytest.mark.parametrize(("case", "line", "code"), MALFORMED, ids=[case for case, _, _ in MALFORMED])
def test_every_malformed_frame_gets_a_json_rpc_error_and_the_server_goes_on(case: str, line: bytes, code: int) -> None:
    lines = exchange(line, {"jsonrpc": "2.0", "id": 9, "method": "ping"}, until=9)
    answers = [json.loads(answer) for answer in lines]
    assert [answer.get("id") for answer in answers] == [1, None, 9]  # the handshake, the error, the next ping
    error = answers[1]["error"]
    assert error["code"] == code and error["message"]
    assert answers[2]["result"] == {}


def test_an_invalid_request_with_an_id_is_answered_with_that_id() -> None:
    lines = exchange({"jsonrpc": "2.0", "id": 7, "method": 7}, until=7)
    assert json.loads(lines[-1]) == {
        "jsonrpc": "2.0",
        "id": 7,
        "error": {"code": -32600, "message": "Invalid Request: not a JSON-RPC 2.0 message"},
    }


@pytest.mark.parametrize("arguments", [[1, 2], "run", 3, True])
def test_arguments_that_are_not_an_object_get_the_tools_json_error_result(arguments: Any) -> None:
    """The spec promises a JSON `error` result for the model's mistakes; the SDK answered a bare -32602 with
    empty data (issue 37). The answer is the one a well-formed call with a bad argument gets."""
    call = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "get_state", "arguments": arguments}}
    good = {"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "get_state", "arguments": {}}}
    lines = exchange(call, good, until={5, 6})
    answers = {json.loads(line).get("id"): json.loads(line) for line in lines}
    result = answers[5]["result"]
    assert result["isError"] is True
    error = result["structuredContent"]["error"]
    assert error["code"] == "invalid-arguments" and "must be a JSON object" in error["message"]
    assert json.loads(result["content"][0]["text"]) == result["structuredContent"]
    assert set(result) == set(answers[6]["result"])  # the frame of any other error result, field for field


def test_a_call_written_with_escapes_is_read_as_written() -> None:
    line = (
        b'{"jsonrpc": "2.0", "id": 5, "method": "tools\\/call", "params": {"name": "get_state", '
        b'"\\u0061rguments": [1]}}\n'
    )
    lines = exchange(line, until=5)
    result = json.loads(lines[-1])["result"]
    assert result["structuredContent"]["error"]["code"] == "invalid-arguments"
