"""tools/list is loaded into every MCP session, so it must stay small whatever is installed: measured here on
the raw JSON-RPC frame the server writes over stdio, with every installed check type in it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from cgx_core.checks.installed import installed_check_types
from cgx_core.tooling.listing import LISTING_BUDGET

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}


def exchange(*messages: dict[str, Any]) -> list[str]:
    """The lines the server writes for `messages`, sent over stdio after the MCP handshake."""
    frames = [INITIALIZE, {"jsonrpc": "2.0", "method": "notifications/initialized"}, *messages]
    sent = "".join(json.dumps(frame) + "\n" for frame in frames)
    done = subprocess.run([CLI, "mcp"], input=sent, capture_output=True, text=True, timeout=120, check=False)
    return done.stdout.splitlines()


def test_tools_list_over_stdio_with_every_check_type_installed_is_at_most_the_budget() -> None:
    lines = exchange({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
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
