"""A long-lived process (`batch`, the MCP server) holds the state it last wrote or read and does not re-read,
re-parse or re-digest state.json on the next call. What a user relies on: its session gives exactly the
results and files that calls each in a fresh process give, state.json is the state after the last call
at every moment, and another process's change is seen and never served stale."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cgx_core.audit.replay import replay
from cgx_core.run import transaction
from cgx_core.tooling.registry import call_tool
from support import EXAMPLE_PREMISES, EXAMPLE_RECORDS, call, start_example, tree

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
RETYPE = {"node": "s-09", "type": "assumption"}

# A session of every kind of call: classify in pieces, a refused record (rejections), premises, a reader.
SESSION: list[tuple[str, dict[str, Any]]] = [
    ("classify", {"records": EXAMPLE_RECORDS[4:10]}),
    ("classify", {"records": [{"node": "s-99", "type": "claim"}]}),
    ("get_state", {"limit": 3}),
    ("classify", {"records": EXAMPLE_RECORDS[10:]}),
    ("classify", {"records": EXAMPLE_RECORDS[:4]}),
    ("add_premises", {"records": EXAMPLE_PREMISES}),
    ("classify", {"records": [RETYPE]}),
]


def fresh_process() -> None:
    """Forget what this process holds of every run, as a new process finds it."""
    transaction._STATES.clear()
    transaction._DIGESTERS.clear()
    transaction._CHAINS.clear()


@pytest.fixture(autouse=True)
def forgetting() -> Iterator[None]:
    fresh_process()
    yield
    fresh_process()


@pytest.fixture
def twins(tmp_path: Path) -> tuple[Path, Path]:
    """Two copies of one started run (same run id): one for the holding session, one for the reference."""
    holding = tmp_path / "holding"
    start_example(holding, store_source=True)
    reference = tmp_path / "reference"
    shutil.copytree(holding, reference)
    return holding, reference


def stored_seq(run: Path) -> int:
    seq: int = json.loads((run / "state.json").read_bytes())["seq"]
    return seq


def read(run: Path, **arguments: Any) -> dict[str, Any]:
    payload, is_error = call_tool("get_state", {"run": str(run), **arguments})
    assert not is_error, payload
    return payload


def one(run: Path, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return read(run, **arguments) if tool == "get_state" else call(run, tool, **arguments)


def test_a_session_holding_its_state_gives_what_fresh_processes_give_and_state_json_is_always_current(
    twins: tuple[Path, Path],
) -> None:
    holding, reference = twins
    for tool, arguments in SESSION:
        held = one(holding, tool, arguments)
        fresh_process()
        fresh = one(reference, tool, arguments)
        assert held == fresh
        assert (holding / "state.json").read_bytes() == (reference / "state.json").read_bytes()
    assert stored_seq(holding) == 7
    assert tree(holding) == tree(reference)
    assert replay(holding, source=None, sources=None).identical


def test_a_state_json_changed_under_the_process_is_read_again(twins: tuple[Path, Path]) -> None:
    holding, reference = twins
    for tool, arguments in SESSION:
        one(holding, tool, arguments)
    (holding / "state.json").write_bytes((holding / "state.json").read_bytes().replace(b'"seq":7', b'"seq":5'))
    result = call(holding, "classify", records=[RETYPE])
    assert "edited" in result["recovery"]["state"], result  # set aside and rebuilt from the log, as ever
    for tool, arguments in SESSION:
        one(reference, tool, arguments)
    result.pop("recovery")
    assert result == call(reference, "classify", records=[RETYPE])
    assert tree(holding) == tree(reference)


def test_another_process_s_call_is_seen_not_served_stale(twins: tuple[Path, Path]) -> None:
    """A `tool` call in another process, between two calls of a holding process, is in the state the holding
    process serves next."""
    holding, reference = twins
    other = {"records": [{"node": "s-08", "type": "assumption"}], "model": "test-model"}
    for tool, arguments in SESSION:
        one(holding, tool, arguments)
    done = subprocess.run(
        [CLI, "tool", "classify", "--run", str(holding), "--args", json.dumps(other)], capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "recovery" not in json.loads(done.stdout)  # state.json was current: nothing to complete
    nodes = read(holding, limit=500)["nodes"]
    assert next(node for node in nodes if node["id"] == "s-08")["type"] == "assumption"
    after = call(holding, "classify", records=[RETYPE])
    for tool, arguments in SESSION:
        one(reference, tool, arguments)
    call(reference, "classify", **other)
    assert after == call(reference, "classify", records=[RETYPE])
    assert tree(holding) == tree(reference)
