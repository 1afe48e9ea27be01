"""A command line's start_run reads the paper in a fork of its own process (cgx_core.ingest.worker.read_in_place):
one interpreter and one import of the readers, where a zygote is a second interpreter. The reading is the same
(byte for byte what the zygote's gives), held to the same budget, and dies with the command."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cgx_core.tooling.registry import call_tool
from support import EXAMPLE_RUBRIC, PAPERS, alive, children_of, nested_macros

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
PAPER = PAPERS / "hastings-powell-replication" / "article" / "article.tex"

COMMAND_LINE = """
import sys
from cgx_cli.main import console_status
from cgx_core.ingest import worker
status = console_status(["tool", "start_run", "--args", sys.argv[1]])
print(f"status={status} zygote={worker.zygote_pid()}", file=sys.stderr)
"""


def arguments(run: Path, paper: Path) -> dict[str, str]:
    return {"run": str(run), "paper": str(paper), "rubric": str(EXAMPLE_RUBRIC), "model": "m"}


def test_a_command_line_start_run_reads_in_its_own_fork_what_the_zygote_reads(tmp_path: Path) -> None:
    # A real paper with tables, numbering and a .bib: the reading forked from the command's own process gives
    # the bytes the zygote's child gives (this test's process reads through a zygote).
    done = subprocess.run(
        [sys.executable, "-c", COMMAND_LINE, json.dumps(arguments(tmp_path / "in-place", PAPER))],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "status=0 zygote=None" in done.stderr, done.stderr
    payload, is_error = call_tool("start_run", arguments(tmp_path / "zygote", PAPER))
    assert not is_error, payload
    for name in ("ingested.json", "rubric.toml", "tolerances.toml"):
        assert (tmp_path / "in-place" / name).read_bytes() == (tmp_path / "zygote" / name).read_bytes(), name
    ids = {"in-place": json.loads(done.stdout)["run"], "zygote": payload["run"]}  # drawn anew for each run

    def graph(run: str) -> str:
        return json.dumps(json.loads((tmp_path / run / "state.json").read_text())["graph"]).replace(ids[run], "ID")

    assert graph("in-place") == graph("zygote")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_a_reading_forked_by_the_command_dies_with_it_and_leaves_no_run(tmp_path: Path) -> None:
    hostile = nested_macros(tmp_path / "hostile", 26)
    run = tmp_path / "run"
    command = subprocess.Popen(
        [CLI, "tool", "start_run", "--args", json.dumps(arguments(run, hostile))],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while not children_of(command.pid):  # the reading has started, in a child of the command itself
        assert time.monotonic() < deadline and command.poll() is None, "the reading never started"
        time.sleep(0.05)
    [reader] = children_of(command.pid)
    assert "cgx_core.ingest.worker" not in Path(f"/proc/{reader}/cmdline").read_text(errors="replace")
    command.send_signal(signal.SIGKILL)
    command.wait()
    deadline = time.monotonic() + 60
    while alive(reader):
        assert time.monotonic() < deadline, "the reading outlived the command that asked for it"
        time.sleep(0.05)
    assert not run.exists()
