"""Isolation between agents: four processes calling at once on one run, through the CLI and through MCP,
leave a serial history that every result they saw agrees with; and the lock dies with its holder.

Each call reclassifies one of three derivations (s-08, s-09, s-10) as an assumption or back, so its result
says the node's `previous` type: a result that depends on the order of the calls. The checks: the log is a
gapless hash chain; each agent's calls appear in the order it made them; each result an agent received is
the one its log line records; replaying the log in order gives, call after call, the `previous` type each
agent saw; and replay is identical.

`CGX_MCP_CALLS` (default 100) and `CGX_CLI_CALLS` (default 5; each is a new process, the full run uses 100)
set the calls per process.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from cgx_core.audit.replay import replay
from cgx_core.base.digests import json_digest
from cgx_core.run import log
from support import EXAMPLE_RECORDS, call, start_example, start_lock_holder, tree

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
AGENTS = 4
MCP_CALLS = int(os.environ.get("CGX_MCP_CALLS", "100"))
CLI_CALLS = int(os.environ.get("CGX_CLI_CALLS", "5"))
NODES = ("s-08", "s-09", "s-10")
TYPES = ("assumption", "derivation")
MODEL = "concurrency-model"


def started(run: Path) -> Path:
    start_example(run, store_source=True)
    assert call(run, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    return run


def arguments(agent: int, number: int) -> dict[str, Any]:
    node = NODES[(agent + number) % len(NODES)]
    kind = TYPES[(agent + number // len(NODES)) % len(TYPES)]
    return {
        "records": [{"node": node, "type": kind}],
        "model": MODEL,
        "agent": f"agent-{agent}",
        "note": f"agent-{agent} call-{number}",
    }


def check_history(run: Path, received: dict[str, str], calls: int) -> None:
    """The log is one serial history and every result received is the one that history gives."""
    found = log.scan(run / "calls.jsonl", 0, 1, None)  # raises run-corrupt on a broken chain or sequence
    assert found.tail is None
    lines = [entry.line for entry in found.entries]
    assert len(lines) == 2 + AGENTS * calls
    assert json.loads((run / "state.json").read_bytes())["seq"] == len(lines)
    for agent in range(AGENTS):
        notes = [line.note for line in lines if line.agent == f"agent-{agent}"]
        assert notes == [f"agent-{agent} call-{number}" for number in range(calls)]  # program order kept
    types = dict.fromkeys(NODES, "derivation")
    for line in lines[2:]:
        assert line.note is not None
        result = json.loads(received[line.note])
        assert "error" not in result, result
        assert json_digest(result) == line.result  # what the agent saw is what the log records
        record = line.args["records"][0]
        applied = result["applied"][0]
        assert (applied["node"], applied["type"]) == (record["node"], record["type"])
        assert applied["previous"] == types[record["node"]], f"{line.note} saw a state the log's order never had"
        types[record["node"]] = record["type"]
    report = replay(run, source=None, sources=None)
    assert report.identical, report.body


def test_four_mcp_clients_calling_at_once_get_results_consistent_with_the_serial_log(tmp_path: Path) -> None:
    run = started(tmp_path / "run")
    received: dict[str, str] = {}

    async def agent(number: int) -> None:
        async with Client(StdioServerParameters(command=CLI, args=["mcp"])) as client:
            for index in range(MCP_CALLS):
                args = {"run": str(run), **arguments(number, index)}
                result = await client.call_tool("classify", args)
                assert not result.is_error, result.content
                received[args["note"]] = result.content[0].text  # type: ignore[union-attr]

    async def main() -> None:
        async with anyio.create_task_group() as group:
            for number in range(AGENTS):
                group.start_soon(agent, number)

    anyio.run(main)
    check_history(run, received, MCP_CALLS)


def test_four_command_line_agents_calling_at_once_get_results_consistent_with_the_serial_log(tmp_path: Path) -> None:
    run = started(tmp_path / "run")
    received: dict[str, str] = {}
    failures: list[str] = []

    def agent(number: int) -> None:
        for index in range(CLI_CALLS):
            args = arguments(number, index)
            done = subprocess.run(
                [CLI, "tool", "classify", "--run", str(run), "--args", json.dumps(args), "--wait", "120"],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0 or done.stderr:
                failures.append(f"{args['note']}: {done.returncode} {done.stderr}")
            received[args["note"]] = done.stdout.strip()

    threads = [threading.Thread(target=agent, args=(number,)) for number in range(AGENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    check_history(run, received, CLI_CALLS)


def unlock_report(run: Path) -> dict[str, Any]:
    done = subprocess.run([CLI, "unlock", str(run)], capture_output=True, text=True, check=True)
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def lock_is_free(lock: Path, tries: int) -> bool:
    """Whether this process can take the lock without waiting, trying `tries` times a millisecond apart."""
    fd = os.open(lock, os.O_RDWR)
    try:
        for _ in range(tries):
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                time.sleep(0.001)
                continue
            fcntl.flock(fd, fcntl.LOCK_UN)
            return True
        return False
    finally:
        os.close(fd)


def test_contention_names_the_holder_and_the_lock_is_free_once_the_holder_is_killed(tmp_path: Path) -> None:
    run = started(tmp_path / "run")
    holder = start_lock_holder(run)
    try:
        before = tree(run)
        args = json.dumps(arguments(0, 0))
        done = subprocess.run(
            [CLI, "tool", "classify", "--run", str(run), "--args", args, "--wait", "0.2"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 2
        assert json.loads(done.stdout)["error"]["code"] == "run-locked"
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("error [run-locked]: ")
        assert f"process {holder.pid} ({sys.executable} -c " in done.stderr  # names the holder: pid and command
        assert tree(run) == before
        report = unlock_report(run)
        assert report["locked"] is True and report["holder"]["pid"] == holder.pid
        assert not lock_is_free(run / ".lock", 1)
    finally:
        holder.kill()
        holder.wait()  # the holder is dead: waitpid returned
    assert lock_is_free(run / ".lock", 100)
    assert unlock_report(run)["locked"] is False
    result = call(run, "classify", model=MODEL, records=[{"node": "s-08", "type": "assumption"}])
    assert result["applied"][0]["previous"] == "derivation"
