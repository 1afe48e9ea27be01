"""The command line's manners, tried on real processes: --version, every command's --help, Ctrl-C as one
line, `unlock` naming a child that inherited the lock, and the shipped rubrics and skill."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import pytest

from cgx_cli.main import _parser
from cgx_core.run.lock import lock_holder
from support import EXAMPLE_RECORDS, ROOT, call, start_example, tree

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))


def run(*argv: str, stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *argv], input=stdin, capture_output=True, text=True, check=False, cwd=cwd)


def test_version_prints_the_installed_version() -> None:
    done = run("--version")
    assert (done.returncode, done.stdout) == (0, f"credencegraph-extract {metadata.version('credencegraph-extract')}\n")


def subcommands() -> dict[str, tuple[str, str]]:
    """Each command's one-line summary (in the list of commands) and description (in its --help)."""
    parser = _parser()
    [group] = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    summaries = {action.dest: action.help or "" for action in group._choices_actions}
    return {name: (summaries[name], sub.description or "") for name, sub in group.choices.items()}


@pytest.mark.parametrize("name", sorted(subcommands()))
def test_every_command_help_describes_it(name: str) -> None:
    summary, description = subcommands()[name]
    assert summary and description.startswith(summary) and len(description) > len(summary) + 40
    done = run(name, "--help")
    assert done.returncode == 0
    assert "".join(description.split()) in "".join(done.stdout.split())  # whatever the wrapping


def test_the_top_help_lists_every_command_and_how_to_read_one() -> None:
    out = run("--help").stdout
    for name in subcommands():
        assert name in out
    assert "COMMAND --help" in out


HARD = "40*(x+5)^3*cos(10*(x+5)^4)"


@pytest.fixture
def classified(tmp_path: Path) -> Path:
    root = tmp_path / "run"
    start_example(root)
    assert call(root, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    return root


def committed(run_dir: Path) -> dict[str, bytes]:
    return {name: data for name, data in tree(run_dir).items() if name != ".lock"}


def test_ctrl_c_during_a_tool_call_is_one_line_and_commits_nothing(classified: Path) -> None:
    before = committed(classified)
    proposals = [
        {
            "type": "rederive-maths",
            "target": target,
            "symbols": {"x": ["positive"]},
            "lhs": f"{HARD}*(atan(x) + atan(1/x))",
            "rhs": f"{20 + n}*pi*(x+5)^3*cos(10*(x+5)^4)",
        }
        for n, target in enumerate(["s-07", "s-08", "s-09", "s-10"])
    ]
    arguments = json.dumps({"proposals": proposals, "model": "m"})
    # A session of its own, so the signal goes to its process group as a terminal's Ctrl-C does (the maths
    # worker the call starts included).
    process = subprocess.Popen(
        [CLI, "tool", "run_checks", "--run", str(classified), "--args", arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while (holder := lock_holder(classified / ".lock")) is None or holder.pid != process.pid:
        assert process.poll() is None and time.monotonic() < deadline, "the call never took the lock"
        time.sleep(0.05)
    time.sleep(0.5)  # well inside the first maths step, which runs for its whole budget
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130
    assert err.startswith("error [interrupted]: ") and err.count("\n") == 1, err
    assert out == ""
    assert committed(classified) == before
    assert lock_holder(classified / ".lock") is None


def test_ctrl_c_on_the_mcp_server_is_one_line() -> None:
    process = subprocess.Popen(
        [CLI, "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        initialize = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "1"},
            },
        }
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(initialize) + "\n")
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["id"] == 1  # serving
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert err.startswith("error [interrupted]: ") and err.count("\n") == 1, err


HOLD_THEN_FORK = """
import os, sys, time
from pathlib import Path
from cgx_core.run.lock import RunLock
with RunLock(Path(sys.argv[1]) / ".lock", wait_seconds=1):
    child = os.fork()
    if child == 0:
        time.sleep(120)  # the child keeps the lock's open file, and so the lock
        os._exit(0)
    print(child, flush=True)
    os._exit(0)  # the process that took the lock ends without releasing it
"""


def test_unlock_names_the_live_child_that_inherited_the_lock(classified: Path) -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", HOLD_THEN_FORK, str(classified)], stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    parent.wait()
    try:
        report = json.loads(run("unlock", str(classified)).stdout)
        assert report["locked"] is True
        assert report["holder"]["pid"] == child
        assert report["inherited_from"] == parent.pid
        assert f"process {child}" in report["advice"]
    finally:
        os.kill(child, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while json.loads(run("unlock", str(classified)).stdout)["locked"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_rubrics_lists_prints_and_copies_the_shipped_rubrics(tmp_path: Path) -> None:
    listing = json.loads(run("rubrics").stdout)["rubrics"]
    assert {item["file"] for item in listing} == {path.name for path in (ROOT / "examples" / "rubrics").glob("*.toml")}
    paper = next(item for item in listing if item["file"] == "paper.toml")
    assert (paper["name"], paper["version"]) == ("paper", "0.3-calibrated")
    assert run("rubrics", "paper").stdout == (ROOT / "examples" / "rubrics" / "paper.toml").read_text(encoding="utf-8")
    assert run("rubrics", "paper", "--copy", str(tmp_path)).returncode == 0
    assert (tmp_path / "paper.toml").read_bytes() == (ROOT / "examples" / "rubrics" / "paper.toml").read_bytes()
    again = run("rubrics", "paper.toml", "--copy", str(tmp_path / "paper.toml"))
    assert again.returncode == 2 and again.stderr.startswith("error [io-error]: ") and "already exists" in again.stderr
    missing = run("rubrics", "nope")
    assert missing.returncode == 2 and missing.stderr.startswith("error [rubric-not-found]: ")
    assert run("rubrics", "--copy", str(tmp_path / "x.toml")).stderr.startswith("error [usage]: ")


def test_skill_prints_or_copies_the_shipped_skill(tmp_path: Path) -> None:
    skill = (ROOT / "skills" / "credencegraph-extract" / "SKILL.md").read_text(encoding="utf-8")
    assert run("skill").stdout == skill
    assert run("skill", "--copy", str(tmp_path)).returncode == 0
    assert (tmp_path / "credencegraph-extract" / "SKILL.md").read_text(encoding="utf-8") == skill
