"""The log is the record of truth: one fsynced line per changing call, hash-chained, recovered after a crash.

A changing call here is a `run_checks` call whose proposal is refused (its check type is not declared):
it changes nothing in the graph but is a committed call like any other, so it exercises the log alone.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cgx_core.base.digests import bytes_digest, json_digest
from cgx_core.testing import StartedRun
from cgx_core.tooling.registry import call_tool
from support import start_lock_holder, tree

PROPOSAL = {"type": "no-such-check", "target": "s-1"}


def change(run: Path, note: str = "") -> dict[str, Any]:
    payload, is_error = call_tool(
        "run_checks", {"run": str(run), "proposals": [PROPOSAL], "model": "m", "agent": "a", "note": note}
    )
    assert not is_error, payload
    return payload


def lines(run: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run / "calls.jsonl").read_bytes().splitlines()]


@pytest.fixture
def run(cgx_run: Callable[..., StartedRun]) -> Path:
    return cgx_run().path


def test_each_changing_call_appends_one_hash_chained_line(run: Path) -> None:
    results = [change(run, note=f"call {n}") for n in range(3)]
    raw = (run / "calls.jsonl").read_bytes().splitlines()
    logged = lines(run)
    assert [line["seq"] for line in logged] == [1, 2, 3, 4]
    assert logged[0]["prev"] is None
    for before, line in zip(raw, logged[1:], strict=False):
        assert line["prev"] == bytes_digest(before)
    for result, line in zip(results, logged[1:], strict=True):
        assert line["result"] == json_digest(result)
        assert line["tool"] == "run_checks"
        assert line["model"] == "m"
        assert line["agent"] == "a"
        assert line["args"] == {"proposals": [PROPOSAL]}
    assert logged[3]["note"] == "call 2"
    state = json.loads((run / "state.json").read_bytes())
    assert state["seq"] == 4
    assert state["log"] == {"end": len((run / "calls.jsonl").read_bytes()), "last": bytes_digest(raw[-1])}


def test_a_refused_proposal_is_kept_with_the_call_that_sent_it(run: Path) -> None:
    result = change(run)
    assert result["refused"][0]["code"] == "check-type-unknown"
    state = json.loads((run / "state.json").read_bytes())
    assert state["rejections"] == [{"seq": 2, "tool": "run_checks", **result["refused"][0]}]


def test_a_torn_last_line_is_cut_and_the_repair_reported(run: Path) -> None:
    change(run)
    good = (run / "calls.jsonl").read_bytes()
    with (run / "calls.jsonl").open("ab") as handle:
        handle.write(b'{"seq": 3, "tool": "run_ch')  # a crash mid-append: no newline
    result = change(run)
    assert result["recovery"]["cut"] == {
        "cut_at_byte": len(good),
        "bytes": 26,
        "reason": "the last line has no newline",
    }
    logged = lines(run)
    assert [line["seq"] for line in logged] == [1, 2, 3]
    assert "recovery" not in json.dumps(logged)
    assert json_digest({key: value for key, value in result.items() if key != "recovery"}) == logged[2]["result"]


def test_a_garbled_tail_with_a_newline_is_cut_too(run: Path) -> None:
    with (run / "calls.jsonl").open("ab") as handle:
        handle.write(b"\0" * 4096 + b"\n")
    result = change(run)
    assert result["recovery"]["cut"]["reason"] == "the line after call 1 is not valid"
    assert [line["seq"] for line in lines(run)] == [1, 2]


def test_a_rewritten_earlier_line_is_corruption_not_a_tail(run: Path) -> None:
    change(run)
    change(run)
    data = (run / "calls.jsonl").read_bytes().splitlines(keepends=True)
    data[1] = data[1].replace(b'"model":"m"', b'"model":"x"')
    (run / "calls.jsonl").write_bytes(b"".join(data))
    (run / "state.json").unlink()  # force a rebuild from the log
    before = tree(run)
    payload, is_error = call_tool("run_checks", {"run": str(run), "proposals": [PROPOSAL], "model": "m"})
    assert is_error
    assert payload["error"]["code"] == "run-corrupt"
    assert "rewritten or deleted" in payload["error"]["message"]
    assert tree(run) == before


KILL_AFTER_COMMIT = """
import os, signal, sys
from cgx_core.run import transaction
def die(self, state, effect):
    os.kill(os.getpid(), signal.SIGKILL)
transaction.Run._derive = die
from cgx_core.tooling.registry import call_tool
call_tool("run_checks", {"run": sys.argv[1], "proposals": [{"type": "no-such-check", "target": "s-1"}], "model": "m"})
"""


def test_a_call_killed_after_its_line_is_completed_by_the_next_call_with_the_same_bytes(
    run: Path, tmp_path: Path
) -> None:
    twin = tmp_path / "twin"
    shutil.copytree(run, twin)
    killed = subprocess.run([sys.executable, "-c", KILL_AFTER_COMMIT, str(run)], check=False)
    assert killed.returncode == -signal.SIGKILL
    assert len(lines(run)) == 2  # committed
    assert json.loads((run / "state.json").read_bytes())["seq"] == 1  # not derived
    seen = call_tool("get_state", {"run": str(run)})[0]
    assert seen["progress"]["calls"] == 2  # a reader sees the committed call, without writing
    assert seen["progress"]["refusals"] == 1
    result = change(run)
    assert result["recovery"] == {"completed": [2]}
    call_tool("run_checks", {"run": str(twin), "proposals": [PROPOSAL], "model": "m"})  # the same call, not killed
    change(twin)
    ours, theirs = tree(run), tree(twin)
    del ours[".lock"], theirs[".lock"]  # who last held the lock, for information only
    assert ours == theirs


def test_a_state_ahead_of_a_log_that_lost_its_tail_is_rebuilt_from_the_log(run: Path) -> None:
    change(run)
    change(run)
    raw = (run / "calls.jsonl").read_bytes()
    (run / "calls.jsonl").write_bytes(raw[: raw.rindex(b"\n", 0, len(raw) - 1) + 1])  # the file system lost call 3
    result = change(run)
    assert [line["seq"] for line in lines(run)] == [1, 2, 3]
    assert json.loads((run / "state.json").read_bytes())["seq"] == 3
    assert "recovery" in result


WORKER = """
import sys
from cgx_core.tooling.registry import call_tool
for n in range(int(sys.argv[2])):
    payload, is_error = call_tool(
        "run_checks",
        {"run": sys.argv[1], "proposals": [{"type": "no-such-check", "target": "s-1"}], "model": "m",
         "agent": sys.argv[3]},
        wait=60,
    )
    assert not is_error, payload
"""


def test_four_processes_calling_at_once_serialise_into_a_gapless_log(run: Path) -> None:
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, str(run), "15", f"agent-{n}"]) for n in range(4)]
    assert [worker.wait() for worker in workers] == [0, 0, 0, 0]
    logged = lines(run)
    assert [line["seq"] for line in logged] == list(range(1, 62))
    raw = (run / "calls.jsonl").read_bytes().splitlines()
    assert all(line["prev"] == bytes_digest(before) for before, line in zip(raw, logged[1:], strict=False))
    by_agent = {f"agent-{n}": 0 for n in range(4)}
    for line in logged[1:]:
        by_agent[line["agent"]] += 1
    assert by_agent == {f"agent-{n}": 15 for n in range(4)}
    assert json.loads((run / "state.json").read_bytes())["seq"] == 61


def test_a_call_on_a_locked_run_waits_then_names_the_holder(run: Path) -> None:
    holder = start_lock_holder(run)
    try:
        before = tree(run)
        payload, is_error = call_tool("run_checks", {"run": str(run), "proposals": [PROPOSAL], "model": "m"}, wait=0.2)
        assert is_error
        assert payload["error"]["code"] == "run-locked"
        assert f"process {holder.pid}" in payload["error"]["message"]
        assert tree(run) == before
    finally:
        holder.kill()
        holder.wait()
    change(run)  # the OS freed the lock when its holder died


def test_a_run_whose_start_never_committed_is_not_a_run(run: Path) -> None:
    (run / "calls.jsonl").unlink()
    payload, is_error = call_tool("get_state", {"run": str(run)})
    assert is_error
    assert payload["error"]["code"] == "not-a-run"


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [("format", "other", "run-format"), ("version", 3, "run-format"), ("version", 1, "run-format")],
)
def test_a_manifest_of_another_format_or_version_is_refused(run: Path, field: str, value: object, code: str) -> None:
    manifest = json.loads((run / "manifest.json").read_bytes())
    manifest[field] = value
    (run / "manifest.json").write_text(json.dumps(manifest))
    before = tree(run)
    payload, is_error = call_tool("run_checks", {"run": str(run), "proposals": [PROPOSAL], "model": "m"})
    assert is_error
    assert payload["error"]["code"] == code
    assert tree(run) == before
