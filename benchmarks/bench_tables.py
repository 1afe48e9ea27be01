"""Figure (t): start_run with table reading against start_run without it, on the real papers that have
tables (hastings-powell-replication's parameter table, mlrc-warmstart-repro's Table 1 and 2) and on a
synthetic paper of one table of 300 rows x 6 columns among 300 sentences.

"Without" is the same `call_tool("start_run")` in process with `cgx_core.ingest.paper.read_tables`
replaced by one returning no rows, so the two sides differ by the table reading alone (the walk with
pylatexenc, cell rendering, placing the rows), and by the rows' nodes in the graph. Target: at most 1.5x
on each real paper; the synthetic paper is reported (its cost is the one pylatexenc parse, linear in the
text). Run alone with `uv run python benchmarks/bench_tables.py [--quick] [--profile]`.
"""

from __future__ import annotations

import itertools
import random
import sys
from functools import partial
from pathlib import Path

from synthetic import MODEL, PAPERS, RUBRIC, SEED, Workspace, tool
from timing import Figure, at_most, ms, paired, profile_summary

TABLE_PAPERS = {
    "hastings-powell-replication": "article/article.tex",
    "mlrc-warmstart-repro": "2020/mohtashami2021reproducibility/openreview/main.tex",
}


def synthetic_table_paper(folder: Path, rows: int = 300, sentences: int = 300) -> Path:
    """A seeded paper: prose, then a booktabs table with a two-row header and numeric cells."""
    generator = random.Random(SEED)
    prose = "\n".join(f"Sentence {index} reports {generator.randint(1, 999)} runs." for index in range(sentences))
    body = "\n".join(
        f"Method {index} & " + " & ".join(f"{generator.uniform(0, 100):.1f}" for _ in range(5)) + r" \\"
        for index in range(rows)
    )
    text = (
        "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n"
        f"{prose}\n\n\\begin{{table}}\\caption{{Results.}}\\label{{tab:r}}\n\\begin{{tabular}}{{@{{}}lccccc@{{}}}}\n"
        "\\toprule\n & \\multicolumn{5}{c}{Accuracy} \\\\ \\cmidrule(lr){2-6}\nMethod & A & B & C & D & E \\\\\n"
        f"\\midrule\n{body}\n\\bottomrule\n\\end{{tabular}}\n\\end{{table}}\n\\end{{document}}\n"
    )
    folder.mkdir(parents=True, exist_ok=True)
    main = folder / "main.tex"
    main.write_text(text, encoding="utf-8")
    return main


def figures(workspace: Workspace, *, profile: bool) -> list[Figure]:
    import cgx_core.ingest.paper as ingestion
    from cgx_core.ingest.tables import TableReading

    with_tables = ingestion.read_tables

    def without_tables(chunk_count: int, visitor: object, captions: object) -> TableReading:
        return TableReading()

    papers = {name: PAPERS / name / relative for name, relative in TABLE_PAPERS.items() if PAPERS.is_dir()}
    papers["synthetic (300-row table)"] = synthetic_table_paper(workspace.root / "table-paper")
    repeats = 2 if workspace.quick else 8
    made = itertools.count()
    found = []
    for number, (name, main) in enumerate(papers.items(), start=1):

        def start(_: int, main: Path = main) -> None:
            run = workspace.root / f"tables-{next(made):04d}"
            tool("start_run", {"run": str(run), "paper": str(main), "rubric": str(RUBRIC), "model": MODEL})

        def subject(index: int) -> None:
            ingestion.read_tables = with_tables
            start(index)

        def baseline(index: int) -> None:
            ingestion.read_tables = without_tables
            try:
                start(index)
            finally:
                ingestion.read_tables = with_tables

        subject(0)
        baseline(0)
        times = paired(subject, baseline, repeats)
        print(
            f"{name}: start_run with tables {ms(times.subject_median)}, without {ms(times.baseline_median)} "
            f"(medians of {repeats}): {times.ratio:.2f}x"
        )
        if profile:
            print(profile_summary(partial(subject, 0), title=f"start_run with tables on {name}"))
        real = name in TABLE_PAPERS
        found.append(
            Figure(
                f"t{number}",
                f"start_run with tables, {name}",
                times.subject_median,
                times.baseline_median,
                "start_run without table reading",
                f"{times.ratio:.2f}x",
                "<= 1.5x" if real else "report",
                at_most(times.ratio, 1.5) if real else None,
            )
        )
    return found


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory(prefix="cgx-bench-") as folder:
        for figure in figures(Workspace(Path(folder), quick="--quick" in sys.argv), profile="--profile" in sys.argv):
            print(figure)
