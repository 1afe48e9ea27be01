"""Figure (x): start_run with the paper's numbering against start_run without it, on the five real papers.

"Without" is the same `call_tool("start_run")` in process with `cgx_core.ingest.paper.annotate_numbering`
replaced by one returning the graph as it is, so the two sides differ by placing every chunk in its objects
and sections and finding the references each chunk writes. The numbering's visitor itself runs on both sides:
it shares the paper's one walk with the tables' (cgx_core.ingest.latex_walk).
Target: at most 1.2x on each real paper. Run alone with `uv run python benchmarks/bench_numbering.py [--quick]`.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

from synthetic import MODEL, PAPERS, RUBRIC, Workspace, tool
from timing import Figure, at_most, ms, paired

NUMBERED_PAPERS = {
    "farr-normal-normal": "src/tex/ms.tex",
    "hastings-powell-replication": "article/article.tex",
    "mlrc-warmstart-repro": "2020/mohtashami2021reproducibility/openreview/main.tex",
    "dynonet-paper": "doc/paper/ms.tex",
}


def figures(workspace: Workspace, *, profile: bool = False) -> list[Figure]:
    import cgx_core.ingest.paper as ingestion

    with_numbering = ingestion.annotate_numbering

    def without_numbering(graph: object, numbering: object) -> object:
        return graph

    repeats = 2 if workspace.quick else 8
    made = itertools.count()
    found = []
    papers = {name: PAPERS / name / relative for name, relative in NUMBERED_PAPERS.items() if PAPERS.is_dir()}
    for number, (name, main) in enumerate(papers.items(), start=1):

        def start(_: int, main: Path = main) -> None:
            run = workspace.root / f"numbering-{next(made):04d}"
            tool("start_run", {"run": str(run), "paper": str(main), "rubric": str(RUBRIC), "model": MODEL})

        def subject(index: int) -> None:
            ingestion.annotate_numbering = with_numbering
            start(index)

        def baseline(index: int) -> None:
            ingestion.annotate_numbering = without_numbering  # type: ignore[assignment]
            try:
                start(index)
            finally:
                ingestion.annotate_numbering = with_numbering

        subject(0)
        baseline(0)
        times = paired(subject, baseline, repeats)
        print(
            f"{name}: start_run with numbering {ms(times.subject_median)}, without {ms(times.baseline_median)} "
            f"(medians of {repeats}): {times.ratio:.2f}x"
        )
        found.append(
            Figure(
                f"x{number}",
                f"start_run with numbering, {name}",
                times.subject_median,
                times.baseline_median,
                "start_run without the numbering",
                f"{times.ratio:.2f}x",
                "<= 1.2x",
                at_most(times.ratio, 1.2),
            )
        )
    return found


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory(prefix="cgx-bench-") as folder:
        for figure in figures(Workspace(Path(folder), quick="--quick" in sys.argv)):
            print(figure)
