"""The one starter (cgx_core.base.budget_worker): a worker never runs its caller's `__main__`, and nothing forks
while a second thread runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from cgx_core.base.budget_worker import QUIET_LIBRARIES
from support import EXAMPLE, EXAMPLE_RECORDS, EXAMPLE_RUBRIC

# A script that drives the tools in its own process at top level, without `if __name__ == "__main__":`, and
# needs the maths worker (a rederive-maths step). multiprocessing's spawn imported the parent's main module
# again in the worker, so the script's calls ran twice and its run ended `run-corrupt`.
UNGUARDED = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from cgx_core.tooling.registry import call_tool

    run, paper, rubric, records = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
    with open(Path(run).parent / "ran.txt", "a") as ran:
        ran.write("ran\\n")
    results = [
        call_tool("start_run", {"run": run, "paper": paper, "rubric": rubric, "model": "m"}),
        call_tool("classify", {"run": run, "records": records, "model": "m"}),
        call_tool("run_checks", {"run": run, "model": "m", "proposals": [{
            "type": "rederive-maths", "target": "s-08", "symbols": {"x": ["real"]},
            "lhs": "(1 + x)^2", "rhs": "1 + 2*x + x^2"}]}),
    ]
    print(json.dumps([is_error for _, is_error in results]))
    """
)


def test_a_script_without_a_main_guard_runs_its_calls_once(tmp_path: Path) -> None:
    script = tmp_path / "unguarded.py"
    script.write_text(UNGUARDED, encoding="utf-8")
    run = tmp_path / "run"
    arguments = [str(run), str(EXAMPLE / "paper.tex"), str(EXAMPLE_RUBRIC), json.dumps(EXAMPLE_RECORDS)]
    done = subprocess.run(
        [sys.executable, str(script), *arguments], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == [False, False, False]
    assert (tmp_path / "ran.txt").read_text() == "ran\n"  # the maths worker did not run the script again
    assert len((run / "calls.jsonl").read_bytes().splitlines()) == 3
    assert (run / "checks" / "c-001").is_dir()


# A process that asked to fork its readings (a command line's start_run does) but runs a second thread: it
# reads through the paper reader's worker instead, with the same result.
THREADED = textwrap.dedent(
    """
    import json, sys, threading
    from cgx_core.base.budget_worker import fork_here
    from cgx_core.ingest.worker import worker_pid
    from cgx_core.tooling.registry import call_tool

    fork_here()
    if sys.argv[2] == "threaded":
        stop = threading.Event()
        threading.Thread(target=stop.wait, daemon=True).start()
    payload, is_error = call_tool("start_run", json.loads(sys.argv[1]))
    print(json.dumps({"error": is_error, "worker": worker_pid() is not None}))
    """
)


def test_a_process_running_a_second_thread_never_forks_a_reading(tmp_path: Path) -> None:
    found = {}
    for how in ("threaded", "alone"):
        arguments = {
            "run": str(tmp_path / how),
            "paper": str(EXAMPLE / "paper.tex"),
            "rubric": str(EXAMPLE_RUBRIC),
            "model": "m",
        }
        done = subprocess.run(
            [sys.executable, "-c", THREADED, json.dumps(arguments), how],
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, **QUIET_LIBRARIES},  # numpy's BLAS starts no thread of its own
        )
        assert done.returncode == 0, done.stderr[-2000:]
        found[how] = json.loads(done.stdout)
    assert found == {"threaded": {"error": False, "worker": True}, "alone": {"error": False, "worker": False}}
    assert (tmp_path / "threaded" / "ingested.json").read_bytes() == (tmp_path / "alone" / "ingested.json").read_bytes()
