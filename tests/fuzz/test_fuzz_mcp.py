"""Fuzzing the MCP boundary: every tool, through the SDK's in-memory client, with hypothesis.

Whatever the arguments, the answer is a tool result, never a protocol error: an `McpError` or any other
exception out of the client fails the test. The result's text is its structured content as JSON; an error
is {"error": {"code", "message"}} with a code from codes.py, never internal-error; and a refused call
leaves the run, and the folder start_run creates runs in, exactly as they were.

`CGX_FUZZ_CASES` sets the cases per front end, spread over the tools (default 320; the full run uses
10,000). Cases are derandomised: the same count gives the same cases.
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import anyio.from_thread
import pytest
from fuzz_cases import MCP, Guard, Targets, arguments_for, check_payload, nasty_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from cgx_core.tooling.output import result_text
from cgx_core.tooling.registry import TOOLS
from cgx_mcp.server import build_server

NAMES = [*TOOLS, "unknown tool"]
CASES = int(os.environ.get("CGX_FUZZ_CASES", "320"))
PER_TOOL = max(1, math.ceil(CASES / len(NAMES)))

Caller = Callable[[str, Any], Any]


@pytest.fixture(scope="module")
def mcp_call(fuzz_targets: Targets) -> Iterator[Caller]:
    """Call a tool through one in-memory MCP client, from synchronous test code."""
    with (
        anyio.from_thread.start_blocking_portal() as portal,
        portal.wrap_async_context_manager(Client(build_server())) as client,
    ):

        def call(name: str, arguments: Any) -> Any:
            return portal.call(client.call_tool, name, arguments)

        yield call


@pytest.mark.parametrize("tool", NAMES)
def test_any_arguments_through_mcp_give_a_tool_result_and_a_refusal_changes_nothing(
    tool: str, fuzz_targets: Targets, mcp_call: Caller, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(fuzz_targets.scratch)  # a relative run path lands in the scratch folder
    guard = Guard(fuzz_targets)
    outcomes: Counter[str] = Counter()

    @settings(
        max_examples=PER_TOOL,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )
    @given(
        name=st.just(tool)
        if tool in TOOLS
        else st.one_of(nasty_text(MCP), st.sampled_from(["Get_State", "start_run "])),
        arguments=arguments_for(tool, fuzz_targets, MCP),
    )
    def case(name: str, arguments: Any) -> None:
        where = f"{name} {arguments!r:.300}"
        guard.snapshot()
        try:
            result = mcp_call(name, arguments)
        except Exception as error:  # a protocol error, or anything else out of the client
            pytest.fail(f"{where}: the client raised {type(error).__name__}: {error}")
        payload = result.structured_content
        check_payload(payload, result.is_error, where)
        assert len(result.content) == 1 and result.content[0].text == result_text(payload), where
        assert json.loads(result.content[0].text) == payload, where
        outcomes["refused" if result.is_error else "accepted"] += 1
        guard.after(result.is_error or not TOOLS.get(name, TOOLS["get_state"]).changes_run, where)

    case()
    print(f"\nMCP {tool}: {dict(outcomes)}")
