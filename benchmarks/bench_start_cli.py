"""Figure (k): start_run through the command line against `credencegraph ingest`, on each real paper.

k1-k4 `credencegraph-extract tool start_run` (a command line call runs in its own interpreter), against
      `credencegraph ingest SOURCE GRAPH --rubric R --force` on the same paper (target: at most 1.2x in
      processor time, the reading child's counted, as issue 27 measured it; the wall-time ratio is reported:
      `credencegraph ingest` keeps a second core busy part of the time, so its wall time is below its processor
      time, while start_run's reading and its parent take turns). The command reads the paper in a fork of
      itself (one interpreter, one import of the readers); beyond credencegraph's reading it reads the tables,
      the numbering and the .bib, and writes the run.

Bytecode compiled (as `uv sync --compile-bytecode` leaves it). Commands take turns, repeat by repeat, after a
warm-up run of each. Run alone with `uv run python benchmarks/bench_start_cli.py [--quick]`.
"""

from __future__ import annotations

import itertools
import json
import statistics
import sys
import tempfile
from pathlib import Path

from bench_ingest import MAIN_FILES
from bench_startup import CLI, cpu_seconds
from synthetic import MODEL, PAPERS, RUBRIC, Workspace
from timing import Figure, at_most, ms, paired

INGEST = str(Path(sys.executable).with_name("credencegraph"))


def start_command(run: Path, paper: Path) -> list[str]:
    arguments = json.dumps({"run": str(run), "paper": str(paper), "rubric": str(RUBRIC), "model": MODEL})
    return [CLI, "tool", "start_run", "--args", arguments]


def ingest_command(paper: Path, graph: Path) -> list[str]:
    return [INGEST, "ingest", str(paper), str(graph), "--rubric", str(RUBRIC), "--force"]


def figures(workspace: Workspace, *, profile: bool) -> list[Figure]:
    from bench_cold import run_quietly

    if not PAPERS.is_dir():
        print(f"skipped: the real papers are not at {PAPERS}")
        return [Figure("k", "start_run on the real papers", 0, 0, "-", "-", "<= 1.2x", None, "papers absent")]
    repeats = 3 if workspace.quick else 9
    made = itertools.count()
    found: list[Figure] = []

    def run_for(paper: Path) -> list[str]:
        return start_command(workspace.root / f"k-{next(made):04d}", paper)

    for number, (name, relative) in enumerate(MAIN_FILES.items(), start=1):
        paper = PAPERS / name / relative
        graph = workspace.root / f"k-{name}.json"

        def ingest(_: int, paper: Path = paper, graph: Path = graph) -> None:
            run_quietly(ingest_command(paper, graph))

        def start(_: int, paper: Path = paper) -> None:
            run_quietly(run_for(paper))

        start(0)
        ingest(0)
        times = paired(start, ingest, repeats)
        pairs = [(cpu_seconds(run_for(paper)), cpu_seconds(ingest_command(paper, graph))) for _ in range(repeats)]
        processor = statistics.median(ours / theirs for ours, theirs in pairs)
        print(
            f"{name}: start_run {ms(times.subject_median)} against credencegraph ingest "
            f"{ms(times.baseline_median)}: {times.ratio:.2f}x (processor time {processor:.2f}x)"
        )
        found.append(
            Figure(
                f"k{number}",
                f"`tool start_run`, {name}, processor time",
                statistics.median(ours for ours, _ in pairs),
                statistics.median(theirs for _, theirs in pairs),
                "credencegraph ingest (processor time)",
                f"{processor:.2f}x",
                "<= 1.2x",
                at_most(processor, 1.2),
                f"wall time {times.ratio:.2f}x",
            )
        )
    return found


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="cgx-bench-") as folder:
        for figure in figures(Workspace(Path(folder), quick="--quick" in sys.argv), profile="--profile" in sys.argv):
            print(figure)
