"""The console script leaves the collector's last pass out of its exit (cgx_cli.process_exit), and nothing
else: exit handlers still run, and the result and status are those of the command."""

from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = """
import atexit, gc, sys
atexit.register(lambda: print("handler ran; frozen:", gc.get_freeze_count() > 0, file=sys.stderr))
print("frozen before:", gc.get_freeze_count() > 0, file=sys.stderr)
sys.argv = ["credencegraph-extract", *sys.argv[1:]]
from cgx_cli.main import entry
entry()
"""


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", SCRIPT, *argv], capture_output=True, text=True, check=False)


def test_the_exit_freezes_the_survivors_and_still_runs_exit_handlers() -> None:
    done = run("rubrics")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)
    assert done.stderr.splitlines() == ["frozen before: False", "handler ran; frozen: True"]


def test_a_refused_command_keeps_its_status_and_error_line() -> None:
    done = run("tool", "no_such_tool")
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["code"] == "unknown-tool"
    assert done.stderr.splitlines()[-1] == "handler ran; frozen: True"
    assert any(line.startswith("error [unknown-tool]: ") for line in done.stderr.splitlines())
