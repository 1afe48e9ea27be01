"""Benchmark: the audits of a finished run (`report`, `replay`) against the work they audit.

Run with `uv run python benchmarks/bench_report.py [--quick] [--repeats N]`.

The run is the shared paper's full run (`full_runs.py`) whose graph is nearest 400 nodes, built once through
the tools outside the timing; the example's run (`examples/end-to-end`, its 10 logged calls, four maths steps
among them) is the second, small subject. Every figure is in CPU time of the whole process tree (this process,
the ingestion child, the maths worker: `timing.tree_cpu_of`), the subject and its anchor alternating repeat by
repeat (`timing.paired`), everything in process after a first round, so imports (bytecode compiled or not) are
outside the figures.

- r1: the report's whole work (the report model, replay and verify reused from an earlier report of the same
  files and code, the text and the HTML page), **given --source**, the way a run that did not store its paper
  (the default) is reported, so the paper's folder is digested every time; with the code's digest computed
  anew each time as a new process does. Against finish_run called again on a copy of the finished run (made
  before the timing): its gate, verdicts, credences and files. Target: at most 1.5x.
- r2: the same report with replay and verify run (`--replay --verify`), against the same finish_run: reported.
- r3: replay of the full run against the session that made it (every call, in process, from start_run to
  finish_run, on a new run each repeat). Target: at most 1.2x.
- r4: the same on the example's run: its logged calls made again as its session made them. Target: at most 1.2x.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from full_runs import MAIN_FILES, PAPERS, build_full_run
from synthetic import ROOT
from timing import Figure, Paired, at_most, paired, tree_cpu_of

TARGET_NODES = 400
EXAMPLE = ROOT / "examples" / "end-to-end"


def nearest_run(folder: Path, papers: list[str]) -> tuple[str, Path, int]:
    """Each paper's full run built at `folder`; the one whose graph is nearest TARGET_NODES nodes."""
    from credencegraph.core import load

    sizes = {}
    for paper in papers:
        build_full_run(paper, folder / paper)
        sizes[paper] = len(load(folder / paper / "graph.json"))
    paper = min(sizes, key=lambda name: abs(sizes[name] - TARGET_NODES))
    return paper, folder / paper, sizes[paper]


def report_once(run: Path, page: Path, choice: Any, source: Path | None = None) -> None:
    """What `credencegraph-extract report RUN [--source PAPER] --html PAGE` does, in process (the code's
    digest included)."""
    from cgx_core.report import audit_cache
    from cgx_core.report.html import html_report
    from cgx_core.report.integrity import run_integrity
    from cgx_core.report.model import build_report
    from cgx_core.report.text import text_report

    audit_cache.code_digest.cache_clear()
    integrity = run_integrity(run, replay=choice, verify=choice, source=source)
    if integrity.replay.status != "passed" or integrity.verify.status != "passed":
        raise RuntimeError(f"the audits did not pass: {integrity}")
    report = build_report(run, integrity, source=source)
    text_report(report)
    page.write_text(html_report(report), encoding="utf-8")


def finish_once(run: Path) -> None:
    from cgx_core.tooling.registry import call_tool

    payload, is_error = call_tool("finish_run", {"run": str(run), "model": "benchmark-model"})
    if is_error:
        raise RuntimeError(f"finish_run failed: {payload}")


def replay_once(run: Path) -> None:
    from cgx_core.audit.replay import replay

    report = replay(run, source=None, sources=None)
    if not report.identical:
        raise RuntimeError(f"the replay diverged: {report.body}")


def example_session(run: Path) -> None:
    """The example's session again at `run`: its start_run (the paper, rubric and cited copies it read,
    stored) and every later logged call with the arguments it was given."""
    from cgx_core.tooling.registry import call_tool

    lines = (EXAMPLE / "run" / "calls.jsonl").read_text(encoding="utf-8").splitlines()
    for line in map(json.loads, lines):
        arguments = {**line["args"], "model": line["model"], "run": str(run)}
        if line["tool"] == "start_run":  # the log records what it read, by digest; the call named files
            paper = EXAMPLE / "paper"
            files = {"paper": paper / "paper.tex", "rubric": EXAMPLE / "rubric.toml", "cited": paper / "cited"}
            arguments = {"run": str(run), "model": line["model"], "store_source": True}
            arguments |= {key: str(path) for key, path in files.items()}
        payload, is_error = call_tool(line["tool"], arguments)
        if is_error:
            raise RuntimeError(f"{line['tool']} failed: {payload}")


def figure(key: str, name: str, times: Paired, against: str, target: float | None, about: str) -> Figure:
    return Figure(
        key,
        name,
        times.subject_median,
        times.baseline_median,
        against,
        f"{times.ratio:.2f}x",
        f"<= {target}x" if target is not None else "report",
        at_most(times.ratio, target) if target is not None else None,
        about,
    )


def measure(folder: Path, *, quick: bool, repeats: int) -> list[Figure]:
    os.environ["CGX_AUDIT_CACHE"] = str(folder / "audits")  # the benchmark's own kept audits, not the user's
    papers = list(MAIN_FILES)[:2] if quick else list(MAIN_FILES)
    paper, run, nodes = nearest_run(folder / "runs", papers)
    source = PAPERS / paper / MAIN_FILES[paper]
    copies = [folder / f"finish-{index}" for index in range(2 * repeats + 1)]
    for copy in copies:
        shutil.copytree(run, copy)
    page = folder / "page.html"
    finish_once(copies[-1])  # a first finish_run and a first report: imports and parsers outside the figures
    report_once(run, page, "run", source)  # keeps the audits the reused reports read
    reused = paired(
        lambda _: report_once(run, page, "reuse", source),
        lambda index: finish_once(copies[index]),
        repeats,
        tree_cpu_of,
    )
    fresh = paired(
        lambda _: report_once(run, page, "run", source),
        lambda index: finish_once(copies[repeats + index]),
        repeats,
        tree_cpu_of,
    )
    sessions = (folder / f"session-{index}" for index in itertools.count())
    replayed = paired(lambda _: replay_once(run), lambda _: build_full_run(paper, next(sessions)), repeats, tree_cpu_of)
    examples = (folder / f"example-{index}" for index in itertools.count())
    example_session(next(examples))  # the maths worker started, sympy imported: in both alike from now on
    replay_once(EXAMPLE / "run")
    small = paired(
        lambda _: replay_once(EXAMPLE / "run"), lambda _: example_session(next(examples)), repeats, tree_cpu_of
    )
    about = f"{paper}: {nodes} nodes"
    print(
        f"  {about} (CPU, process tree): report (reused, --source) {reused.subject_median:.2f} s, with replay and "
        f"verify {fresh.subject_median:.2f} s; finish_run {reused.baseline_median:.2f} s; replay "
        f"{replayed.subject_median:.2f} s, its session {replayed.baseline_median:.2f} s; the example's replay "
        f"{small.subject_median:.2f} s, its session {small.baseline_median:.2f} s"
    )
    return [
        figure("r1", "report of a full run given --source, replay and verify reused", reused, "finish_run", 1.5, about),
        figure("r2", "report of a full run, replay and verify run", fresh, "finish_run", None, about),
        figure("r3", "replay of a full run", replayed, "the session that made it, in process", 1.2, about),
        figure("r4", "replay of the example's run (4 maths steps)", small, "its session, in process", 1.2, "10 calls"),
    ]


def figures(workspace: Any, *, profile: bool) -> list[Figure]:
    """Figures r1 to r4 for benchmarks/run.py."""
    folder = workspace.root / "report"
    folder.mkdir(exist_ok=True)
    return measure(folder, quick=workspace.quick, repeats=1 if workspace.quick else 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cgx-bench-report-") as folder:
        for found in measure(Path(folder), quick=arguments.quick, repeats=1 if arguments.quick else arguments.repeats):
            print(f"  {found.key}: {found.name}: {found.shown} against {found.against} ({found.note})")


if __name__ == "__main__":
    main()
