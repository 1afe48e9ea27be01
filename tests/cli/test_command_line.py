"""The command line: `tool`, `unlock` and the usage errors, run as a user runs them (a subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from support import EXAMPLE, EXAMPLE_RUBRIC, start_lock_holder, tree

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
SHORT = str(Path(sys.executable).with_name("cgx"))


def run(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *argv], input=stdin, capture_output=True, text=True, check=False)


@pytest.fixture
def started(tmp_path: Path) -> Path:
    arguments = {"paper": str(EXAMPLE / "paper.tex"), "rubric": str(EXAMPLE_RUBRIC), "model": "m"}
    done = run("tool", "start_run", "--run", str(tmp_path / "run"), "--args", json.dumps(arguments))
    assert done.returncode == 0, done.stderr
    return tmp_path / "run"


def error_of(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert done.returncode == 2
    payload: dict[str, Any] = json.loads(done.stdout)["error"]
    assert done.stderr == f"error [{payload['code']}]: {payload['message']}\n"
    return payload


def test_tool_prints_the_json_result_and_the_short_alias_is_the_same_command(started: Path) -> None:
    done = run("tool", "get_state", "--run", str(started), "--args", '{"limit": 2}')
    assert done.returncode == 0
    result = json.loads(done.stdout)
    assert [node["id"] for node in result["nodes"]] == ["s-01", "s-02"]
    assert result["next"] == 2
    alias = subprocess.run(
        [SHORT, "tool", "get_state", "--run", str(started), "--args", '{"limit": 2}'],
        capture_output=True,
        text=True,
        check=False,
    )
    assert alias.stdout == done.stdout


def test_args_from_stdin(started: Path) -> None:
    done = run("tool", "get_state", "--run", str(started), "--args", "-", stdin='{"nodes": ["e-2"]}')
    assert done.returncode == 0
    assert [node["id"] for node in json.loads(done.stdout)["nodes"]] == ["e-2"]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ("{not json", "invalid-json"),
        ("NaN", "invalid-json"),
        ("[1, 2]", "invalid-arguments"),
        ('"a string"', "invalid-arguments"),
        ('{"limit": 1.0}', "invalid-arguments"),
        ('{"nodes": ["nope"]}', "invalid-arguments"),
        ('{"run": "elsewhere"}', "invalid-arguments"),
    ],
)
def test_bad_args_are_one_error_line_and_status_2_and_change_nothing(started: Path, args: str, code: str) -> None:
    before = tree(started)
    assert error_of(run("tool", "get_state", "--run", str(started), "--args", args))["code"] == code
    assert tree(started) == before


def test_an_unknown_tool_is_an_error_result(started: Path) -> None:
    assert error_of(run("tool", "frobnicate", "--run", str(started)))["code"] == "unknown-tool"


def test_usage_errors_are_one_line_with_status_2() -> None:
    done = run("tool")
    assert done.returncode == 2
    assert done.stderr.startswith("error [usage]: ")
    assert done.stderr.count("\n") == 1
    assert run("no-such-command").stderr.startswith("error [usage]: ")


def test_help_lists_the_commands() -> None:
    done = run("--help")
    assert done.returncode == 0
    for command in ("tool", "tools", "mcp", "unlock"):
        assert command in done.stdout


def test_tools_lists_the_registry(started: Path) -> None:
    listing = json.loads(run("tools").stdout)["tools"]
    assert {"start_run", "get_state"} <= {tool["name"] for tool in listing}


def test_a_locked_run_names_its_holder_and_unlock_reports_it(started: Path) -> None:
    holder = start_lock_holder(started)
    try:
        proposals = '{"proposals": [{"type": "x", "target": "s-01"}], "model": "m"}'
        done = run("tool", "run_checks", "--run", str(started), "--wait", "0.2", "--args", proposals)
        error = error_of(done)
        assert error["code"] == "run-locked"
        assert f"process {holder.pid}" in error["message"]
        locked = run("unlock", str(started))
        assert locked.returncode == 0
        report = json.loads(locked.stdout)
        assert report["locked"] is True
        assert report["holder"]["pid"] == holder.pid
        assert "time.sleep" in report["holder"]["command"] or "python" in report["holder"]["command"]
    finally:
        holder.kill()
        holder.wait()
    deadline = time.monotonic() + 5
    while json.loads(run("unlock", str(started)).stdout)["locked"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert json.loads(run("unlock", str(started)).stdout)["locked"] is False


def test_unlock_of_a_directory_that_is_not_a_run(tmp_path: Path) -> None:
    done = run("unlock", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.startswith("error [not-a-run]: ")


def test_a_usage_error_with_a_newline_in_an_argument_is_still_one_line() -> None:
    done = run("tool", "get_state", "--args", "{}", "x\ny")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "x\\ny" in done.stderr


def test_args_from_stdin_that_are_not_utf8_are_invalid_json(started: Path) -> None:
    done = subprocess.run(
        [CLI, "tool", "get_state", "--run", str(started), "--args", "-"],
        input=b'{"limit": 1, "x": "\xff"}',
        capture_output=True,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8:strict"},
    )
    assert done.returncode == 2
    assert done.stderr.decode() == "error [invalid-json]: --args - read bytes that are not UTF-8 (byte 19)\n"


def test_replay_of_a_run_whose_first_line_is_garbled_is_not_a_run(started: Path) -> None:
    log = started / "calls.jsonl"
    log.write_bytes(b"\0" * 40 + b"\n")
    done = run("replay", str(started))
    assert done.returncode == 2
    assert done.stderr.startswith("error [not-a-run]: ")


def test_the_next_call_removes_temp_files_a_killed_writer_left(started: Path) -> None:
    stale = started / ".state.json.tmp-99999"
    stale.write_bytes(b"half a state")
    done = run(
        "tool",
        "run_checks",
        "--run",
        str(started),
        "--args",
        '{"proposals": [{"type": "x", "target": "s-01"}], "model": "m"}',
    )
    assert done.returncode == 0, done.stderr
    assert not stale.exists()
