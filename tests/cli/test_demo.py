"""The README's first command: the demo rebuilds the example through the tools, and the example's committed
run replays byte-identically and verifies, offline."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

from cgx_core.audit.replay import replay
from cgx_core.audit.verify import verify_run
from support import ROOT

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
EXAMPLE_RUN = ROOT / "examples" / "end-to-end" / "run"


def test_demo_rebuilds_finishes_replays_and_verifies_the_example(tmp_path: Path) -> None:
    done = subprocess.run([CLI, "demo", str(tmp_path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "Replay: byte-identical. Verify: 0 differences." in out
    assert "c-001 recompute-numbers on s-12: 12 * 300 = 3600, reported 3000 +- 0.5: failed" in out
    assert "c-004 rederive-maths on s-09" in out
    assert "a-1: The noise is white and stationary over a run. (needed by s-01, s-15)" in out
    s12 = next(line for line in out.splitlines() if line.strip().startswith("s-12"))
    before, after = (float(value) for value in s12.split("fails")[1].split()[:3:2])
    assert after < before  # the failed check lowers the credence of the wrong number
    rebuilt = [json.loads(line) for line in (tmp_path / "run" / "calls.jsonl").read_bytes().splitlines()]
    recorded = [json.loads(line) for line in (EXAMPLE_RUN / "calls.jsonl").read_bytes().splitlines()]
    assert [line["args"] for line in rebuilt[1:]] == [line["args"] for line in recorded[1:]]
    # Same calls, same results, byte for byte: only finish_run's, which names the graph (and through it the new
    # run's id), differs.
    assert [line["result"] for line in rebuilt[1:-1]] == [line["result"] for line in recorded[1:-1]]


def test_the_demos_commands_name_the_run_by_its_path_and_work_from_any_folder(tmp_path: Path) -> None:
    """The replay, verify and report commands the demo prints, pasted in another folder, work (issue 37: the
    review command named the run by its folder's name, `run-not-found` from anywhere else)."""
    done = subprocess.run([CLI, "demo", "demo"], capture_output=True, text=True, check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    run = str(tmp_path / "demo" / "run")
    commands = {
        line.split(": ", 1)[0]: line.split(": ", 1)[1]
        for line in done.stdout.splitlines()
        if line.startswith(("To replay it: ", "To verify it: ", "Read it as a page: "))
    }
    assert commands["To replay it"] == f"credencegraph-extract replay {run}"
    assert commands["To verify it"] == f"credencegraph-extract verify {run}"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for command in commands.values():
        words = shlex.split(command)
        pasted = subprocess.run([CLI, *words[1:]], capture_output=True, text=True, check=False, cwd=elsewhere)
        assert pasted.returncode == 0, (command, pasted.stderr)
    assert (tmp_path / "demo" / "run.html").is_file()
    assert f"credencegraph-extract review {run} --node a-1" in done.stdout


def test_the_committed_example_run_replays_byte_identically_and_verifies() -> None:
    report = replay(EXAMPLE_RUN, source=None, sources=None)
    assert report.identical, report.body
    verdict = verify_run(EXAMPLE_RUN)
    assert verdict.error is None
    assert verdict.differences == ()
    assert (verdict.checks, verdict.rerun) == (10, 7)
