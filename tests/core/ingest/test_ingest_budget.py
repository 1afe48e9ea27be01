"""Reading a paper is bounded: CPU time and memory in a child process, decided the same on a busy machine,
and no child outlives the process that asked.

The hostile papers here ran for minutes before ingestion was bounded (docs/guarantees.md has the figures);
the tests lower the budget so that each ends within seconds, and check the code, the message and that
nothing was written.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cgx_core.base import limits
from cgx_core.base.budget_worker import QUIET_LIBRARIES
from cgx_core.testing import RUBRIC
from cgx_core.tooling.registry import call_tool
from support import ROOT, alive, children_of, nested_macros, tree

SENTENCE = "We measured twelve runs of three hundred seconds each, and the total is one hour of data. "


@pytest.fixture
def rubric(tmp_path: Path) -> Path:
    path = tmp_path / "rubric.toml"
    path.write_text(RUBRIC, encoding="utf-8")
    return path


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "INGEST_CPU_SECONDS", 2)


def huge_bib_field(folder: Path, size: int) -> Path:
    folder.mkdir(parents=True)
    (folder / "refs.bib").write_text("@article{k, title={" + "word " * (size // 5) + "}}\n")
    main = folder / "main.tex"
    main.write_text(
        f"\\documentclass{{article}}\n\\begin{{document}}\n{SENTENCE} See \\cite{{k}}.\n"
        "\\bibliography{refs}\n\\end{document}\n"
    )
    return main


def large_paper(folder: Path, size: int) -> Path:
    folder.mkdir(parents=True)
    main = folder / "main.tex"
    body = SENTENCE * (size // len(SENTENCE))
    main.write_text(f"\\documentclass{{article}}\n\\begin{{document}}\n{body}\n\\end{{document}}\n")
    return main


def start(tmp_path: Path, rubric: Path, paper: Path) -> tuple[dict[str, Any], bool]:
    before = tree(tmp_path)
    payload, is_error = call_tool(
        "start_run", {"run": str(tmp_path / "run"), "paper": str(paper), "rubric": str(rubric), "model": "m"}
    )
    if is_error:
        assert not (tmp_path / "run").exists()
        assert tree(tmp_path) == before
    return payload, is_error


@pytest.mark.parametrize(
    "build",
    [
        pytest.param(lambda folder: nested_macros(folder, 22), id="macros-doubling-22-levels"),
        pytest.param(lambda folder: huge_bib_field(folder, 2_000_000), id="bib-field-2MB"),
        pytest.param(lambda folder: large_paper(folder, 15 * 1024**2), id="latex-15MB"),
    ],
)
def test_a_paper_that_costs_without_bound_is_refused_within_its_cpu_budget(
    tmp_path: Path, rubric: Path, small_budget: None, build: Any
) -> None:
    payload, is_error = start(tmp_path, rubric, build(tmp_path / "paper"))
    assert is_error, "the paper was read to the end: nothing bounded it"
    assert payload["error"]["code"] == "ingest-over-budget"
    assert "used its whole budget of 2 s of CPU time" in payload["error"]["message"]
    assert "remove it and start again" in payload["error"]["message"]


def test_a_large_paper_under_the_size_caps_is_refused_within_its_memory_budget(
    tmp_path: Path, rubric: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "INGEST_MEMORY_BYTES", 32 * 1024**2)
    main = large_paper(tmp_path / "paper", 15 * 1024**2)
    assert main.stat().st_size < limits.MAX_LATEX_BYTES
    payload, is_error = start(tmp_path, rubric, main)
    assert is_error
    assert payload["error"]["code"] == "ingest-over-budget"
    assert "needed more than its budget of 32 MiB of memory" in payload["error"]["message"]


def test_the_budget_is_recorded_in_the_manifest_and_a_paper_within_it_starts(tmp_path: Path, rubric: Path) -> None:
    main = nested_macros(tmp_path / "paper", 6)
    payload, is_error = start(tmp_path, rubric, main)
    assert not is_error, payload
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_bytes())
    assert manifest["limits"] == {"ingest": {"cpu_seconds": 60, "memory_bytes": 2 * 1024**3}}


BUSY = "while True: pass"


@pytest.fixture
def saturated_cores() -> Iterator[None]:
    """Every core kept busy by another process for the length of the test."""
    spinners = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(os.cpu_count() or 2)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def test_the_budget_decides_the_same_on_saturated_cores(
    tmp_path: Path, rubric: Path, small_budget: None, saturated_cores: None
) -> None:
    # CPU time, not wall time: the child gets a fraction of a core, takes longer, and is refused all the same;
    # a paper within budget still starts.
    payload, is_error = start(tmp_path, rubric, nested_macros(tmp_path / "hostile", 22))
    assert is_error and payload["error"]["code"] == "ingest-over-budget"
    payload, is_error = start(tmp_path, rubric, nested_macros(tmp_path / "fine", 6))
    assert not is_error, payload


ASKER = """
import sys
from pathlib import Path
from cgx_core.ingest.worker import worker_pid
from cgx_core.tooling.registry import call_tool
folder = Path(sys.argv[1])
def start(run, paper):
    return call_tool("start_run", {"run": str(folder / run), "paper": paper, "rubric": sys.argv[2], "model": "m"})
start("run-warm", sys.argv[3])
print(worker_pid(), flush=True)
start("run-hostile", sys.argv[4])
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_no_reading_outlives_the_process_that_asked_for_it(tmp_path: Path, rubric: Path) -> None:
    fine = nested_macros(tmp_path / "fine", 2)
    hostile = nested_macros(tmp_path / "hostile", 26)  # minutes of CPU within the default budget of 60 s
    asker = subprocess.Popen(
        [sys.executable, "-c", ASKER, str(tmp_path), str(rubric), str(fine), str(hostile)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert asker.stdout is not None
    worker = int(asker.stdout.readline())
    deadline = time.monotonic() + 120
    while not children_of(worker):  # the hostile reading has started in a child of the paper reader
        assert time.monotonic() < deadline, "the reading never started"
        time.sleep(0.05)
    [reader] = children_of(worker)
    asker.send_signal(signal.SIGKILL)
    asker.wait()
    deadline = time.monotonic() + 60
    while alive(worker) or alive(reader):
        assert time.monotonic() < deadline, "the reading outlived the process that asked for it"
        time.sleep(0.05)


IN_PLACE = """
import json, sys
from cgx_core.base import limits
from cgx_core.base.budget_worker import fork_here
from cgx_core.ingest import worker
from cgx_core.tooling.registry import call_tool
fork_here()  # as a command line's start_run does: readings fork from this process, no worker
limits.INGEST_CPU_SECONDS = 2
payload, is_error = call_tool("start_run", json.loads(sys.argv[1]))
print(json.dumps({"payload": payload, "worker": worker.worker_pid()}))
"""


def test_a_reading_forked_in_place_is_held_to_the_same_budget(tmp_path: Path, rubric: Path) -> None:
    hostile = nested_macros(tmp_path / "hostile", 26)
    arguments = {"run": str(tmp_path / "run"), "paper": str(hostile), "rubric": str(rubric), "model": "m"}
    # numpy's BLAS told to start no thread (the command line defers numpy instead): a process with a thread
    # besides its own may not fork, and would read through a worker.
    done = subprocess.run(
        [sys.executable, "-c", IN_PLACE, json.dumps(arguments)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **QUIET_LIBRARIES},
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["worker"] is None
    assert report["payload"]["error"]["code"] == "ingest-over-budget"
    assert "used its whole budget of 2 s of CPU time" in report["payload"]["error"]["message"]
    assert not (tmp_path / "run").exists()
