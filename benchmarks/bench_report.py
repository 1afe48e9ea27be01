"""Benchmark: `credencegraph-extract report` of a full run of about 400 nodes against finish_run on the same run.

Run with `uv run python benchmarks/bench_report.py [--quick] [--repeats N]`.

The run is the shared paper's full run (`full_runs.py`) whose graph is nearest 400 nodes, built once through
the tools outside the timing. Timed in wall-clock time, alternating repeat by repeat (`timing.paired`):

- r1: the report's whole work in process (the report model, replay and verify reused from an earlier report
  of the same files and code, the text and the HTML page), with the code's digest computed anew each time
  as a new process does, against finish_run called again on a copy of the finished run (made before the
  timing): its gate, verdicts, credences and files. Target: at most 1.5x.
- r2: the same report with replay and verify run (`--replay --verify`), against the same finish_run:
  reported, to show what reuse saves.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from full_runs import MAIN_FILES, build_full_run
from timing import Figure, at_most, paired

TARGET_NODES = 400


def nearest_run(folder: Path, papers: list[str]) -> tuple[str, Path, int]:
    """Each paper's full run built at `folder`; the one whose graph is nearest TARGET_NODES nodes."""
    from credencegraph.core import load

    sizes = {}
    for paper in papers:
        build_full_run(paper, folder / paper)
        sizes[paper] = len(load(folder / paper / "graph.json"))
    paper = min(sizes, key=lambda name: abs(sizes[name] - TARGET_NODES))
    return paper, folder / paper, sizes[paper]


def report_once(run: Path, page: Path, choice: Any) -> None:
    """What `credencegraph-extract report RUN --html PAGE` does, in process (the code's digest included)."""
    from cgx_core.report import audit_cache
    from cgx_core.report.html import html_report
    from cgx_core.report.integrity import run_integrity
    from cgx_core.report.model import build_report
    from cgx_core.report.text import text_report

    audit_cache.code_digest.cache_clear()
    report = build_report(run, run_integrity(run, replay=choice, verify=choice))
    text_report(report)
    page.write_text(html_report(report), encoding="utf-8")


def finish_once(run: Path) -> None:
    from cgx_core.tooling.registry import call_tool

    payload, is_error = call_tool("finish_run", {"run": str(run), "model": "benchmark-model"})
    if is_error:
        raise RuntimeError(f"finish_run failed: {payload}")


def measure(folder: Path, *, quick: bool, repeats: int) -> list[Figure]:
    os.environ["CGX_AUDIT_CACHE"] = str(folder / "audits")  # the benchmark's own kept audits, not the user's
    papers = list(MAIN_FILES)[:2] if quick else list(MAIN_FILES)
    paper, run, nodes = nearest_run(folder / "runs", papers)
    copies = [folder / f"finish-{index}" for index in range(2 * repeats)]
    for copy in copies:
        shutil.copytree(run, copy)
    report_once(run, folder / "page.html", "run")  # keeps the audits the reused reports read
    page = folder / "page.html"
    reused = paired(lambda _: report_once(run, page, "reuse"), lambda index: finish_once(copies[index]), repeats)
    fresh = paired(lambda _: report_once(run, page, "run"), lambda index: finish_once(copies[repeats + index]), repeats)
    about = f"{paper}: {nodes} nodes"
    print(
        f"  {about}: report (reused) {reused.subject_median:.2f} s, with replay and verify "
        f"{fresh.subject_median:.2f} s; finish_run {reused.baseline_median:.2f} s"
    )
    return [
        Figure(
            "r1",
            "report of a full run, replay and verify reused",
            reused.subject_median,
            reused.baseline_median,
            "finish_run on the same run",
            f"{reused.ratio:.2f}x",
            "<= 1.5x",
            at_most(reused.ratio, 1.5),
            about,
        ),
        Figure(
            "r2",
            "report of a full run, replay and verify run (--replay --verify)",
            fresh.subject_median,
            fresh.baseline_median,
            "finish_run on the same run",
            f"{fresh.ratio:.2f}x",
            "report",
            None,
            about,
        ),
    ]


def figures(workspace: Any, *, profile: bool) -> list[Figure]:
    """Figures r1 and r2 for benchmarks/run.py."""
    folder = workspace.root / "report"
    folder.mkdir(exist_ok=True)
    return measure(folder, quick=workspace.quick, repeats=1 if workspace.quick else 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cgx-bench-report-") as folder:
        for figure in measure(Path(folder), quick=arguments.quick, repeats=1 if arguments.quick else arguments.repeats):
            print(f"  {figure.key}: {figure.name}: {figure.shown} ({figure.note})")


if __name__ == "__main__":
    main()
