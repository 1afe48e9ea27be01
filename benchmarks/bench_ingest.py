"""Figure (f): start_run against credencegraph's ingest alone, on each of the four real papers in
tests/papers: `call_tool("start_run")` (in process, a new run directory each time) against
`read_latex` + `chunks_to_graph` with the rubric's initial types. Target: at most 1.2x on each paper.

start_run does more than ingest: it finds the paper's files and bibliography, reads the .bib (all of it in a
child process with a CPU-time and memory budget, forked from a zygote that the first call starts and that is
not timed here), writes the run and commits call 1. Where that time goes is printed for each paper.
Run alone with `uv run python benchmarks/bench_ingest.py [--quick] [--profile]`.
"""

from __future__ import annotations

import itertools
import os
import sys
from functools import partial
from pathlib import Path

from synthetic import MODEL, PAPERS, RUBRIC, Workspace, tool
from timing import Figure, Phases, at_most, ms, paired, profile_summary, timed

MAIN_FILES = {
    "farr-normal-normal": "src/tex/ms.tex",
    "hastings-powell-replication": "article/article.tex",
    "mlrc-warmstart-repro": "2020/mohtashami2021reproducibility/openreview/main.tex",
    "dynonet-paper": "doc/paper/ms.tex",
}


def start_run_phases() -> Phases:
    import credencegraph.core

    import cgx_core.checks.installed
    import cgx_core.graph.rubric
    import cgx_core.run.transaction
    import cgx_core.tools.start_run
    from cgx_core.run.transaction import Run

    phases = Phases()
    # Reading (credencegraph's read_latex and chunks_to_graph, the file scan, table rows, the .bib) runs in a
    # child forked from the zygote, within its budget: timed here as one phase, from the request to the reply.
    phases.add("reading in the budgeted child (fork, read, reply)", cgx_core.tools.start_run, "ingest_bounded")
    phases.add("rubric load", cgx_core.graph.rubric, "load_rubric_bytes")
    phases.add("installed check types", cgx_core.checks.installed, "installed_check_types")
    phases.add("graph to JSON (dumps)", credencegraph.core, "dumps")
    phases.add("initial graph (bases, extraction marks)", cgx_core.tools.start_run, "initial_graph")
    phases.add("graph digest", Run, "graph_digest")
    phases.add("state.json serialised", cgx_core.run.transaction, "state_bytes")
    phases.add("os.fsync (all of them)", os, "fsync")
    phases.add("os.replace (all of them)", os, "replace")
    return phases


def figures(workspace: Workspace, *, profile: bool) -> list[Figure]:
    from credencegraph.ingest import chunks_to_graph
    from credencegraph.ingest.latex import read_latex
    from credencegraph.rubric import load_rubric

    if not PAPERS.is_dir():
        print(f"skipped: the real papers are not at {PAPERS}")
        return [Figure("f", "start_run on the real papers", 0, 0, "-", "-", "<= 1.2x", None, "papers absent")]
    repeats = 1 if workspace.quick else 6
    rubric = load_rubric(RUBRIC)
    made = itertools.count()
    found = []
    for number, (name, relative) in enumerate(MAIN_FILES.items(), start=1):
        main = PAPERS / name / relative

        def baseline(_: int, main: Path = main) -> None:
            chunks_to_graph(read_latex(main), main.name, rubric.initial)

        def subject(_: int, main: Path = main) -> None:
            run = workspace.root / f"start-{next(made):04d}"
            tool("start_run", {"run": str(run), "paper": str(main), "rubric": str(RUBRIC), "model": MODEL})

        subject(0)
        baseline(0)
        times = paired(subject, baseline, repeats)
        with start_run_phases() as phases:
            total = timed(partial(subject, 0))
        chunks = len(read_latex(main))
        print(
            f"{name} ({chunks} chunks): start_run {ms(times.subject_median)}, ingest {ms(times.baseline_median)} "
            f"(medians of {repeats}): {times.ratio:.2f}x; one start_run by phase:"
        )
        for label, seconds in phases.totals.items():
            if phases.counts[label]:
                print(f"  {label:44} {ms(seconds)}")
        print(f"  {'other':44} {ms(total - sum(phases.totals.values()))}")
        for missing in phases.missing:
            print(f"  not found, counted in other: {missing}")
        if profile and name == "hastings-powell-replication":
            print(profile_summary(partial(subject, 0), title=f"start_run on {name}"))
        found.append(
            Figure(
                f"f{number}",
                f"start_run, {name}",
                times.subject_median,
                times.baseline_median,
                "read_latex + chunks_to_graph",
                f"{times.ratio:.2f}x",
                "<= 1.2x",
                at_most(times.ratio, 1.2),
            )
        )
    return found


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory(prefix="cgx-bench-") as folder:
        for figure in figures(Workspace(Path(folder), quick="--quick" in sys.argv), profile="--profile" in sys.argv):
            print(figure)
