"""Every benchmark of credencegraph-extract in one command, ending with a table of figures against targets.

    uv run python benchmarks/run.py            # the full run (10-15 minutes on 2 cores, half of it figure s)
    uv run python benchmarks/run.py --quick    # a smoke run of every figure (under a minute)
    uv run python benchmarks/run.py --only ac --profile

Each figure is a ratio against a baseline measured in the same run (the two alternating, repeat by
repeat), from medians; see benchmarks/README.md for what each one means. Everything is written to a
temporary directory (--tmp chooses where: put it on the disk the runs will live on, since a commit's
fsync is part of the figures) and removed at the end; the results go to stdout only.
"""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

import bench_calls
import bench_cold
import bench_ingest
import bench_numbering
import bench_replay
import bench_report
import bench_start_cli
import bench_startup
import bench_tables
import bench_verify
import bench_verify_cluster
from synthetic import SEED, Workspace
from timing import Figure, at_most, load, section

Benchmark = Callable[..., list[Figure]]

QUICK_MATHS_STEPS = ("dynonet numerator (typo)", "farr second =", "binomial (x+y)^8")


def arithmetic(workspace: Workspace, *, profile: bool) -> list[Figure]:
    """Figure (e), from bench_arithmetic.py's own measurement."""
    import bench_arithmetic

    count, repeats = (200, 5) if workspace.quick else (400, 15)
    baseline, ours, ratio = bench_arithmetic.run_benchmark(count, repeats, SEED, profile=profile)
    plain, united, unit_ratio = bench_arithmetic.run_units_benchmark(count, repeats, SEED)
    return [
        Figure(
            "e",
            "recompute-numbers: parse + evaluate",
            ours,
            baseline,
            "ast + Fraction evaluator",
            f"{ratio:.2f}x",
            "<= 1.5x",
            at_most(ratio, 1.5),
        ),
        Figure(
            "e2",
            "recompute-numbers: parse + evaluate with units",
            united,
            plain,
            "the same expressions without units",
            f"{unit_ratio:.2f}x",
            "report",
            None,
        ),
    ]


def maths(workspace: Workspace, *, profile: bool) -> list[Figure]:
    """The numeric fallback against the symbolic path, from bench_maths.py's own measurement (no target:
    the fallback is there to be bounded where sympy is not, not to be cheaper)."""
    import bench_maths

    repeats = 1 if workspace.quick else 5
    steps = {name: bench_maths.STEPS[name] for name in QUICK_MATHS_STEPS} if workspace.quick else None
    rows = bench_maths.measure_steps(repeats, 10.0, steps)
    ratio, work = bench_maths.print_rows(rows, repeats)
    symbolic = sorted(row[3] for row in rows)[len(rows) // 2]
    numeric = sorted(row[4] for row in rows)[len(rows) // 2]
    return [
        Figure(
            "m",
            "rederive-maths-numeric against rederive-maths",
            numeric,
            symbolic,
            "symbolic path (worker)",
            f"{ratio:.2f}x (work {work:.2f}x)",
            "report",
            None,
        )
    ]


def calculus(workspace: Workspace, *, profile: bool) -> list[Figure]:
    """A calculus step decided by rederive-maths (grammar, worker, sympy) against sympy alone, from
    bench_calculus.py's own measurement (reported: the overhead of reading and of the worker's pipe)."""
    import bench_calculus

    repeats = 1 if workspace.quick else 5
    rows = bench_calculus.measure(repeats)
    ratio = bench_calculus.print_rows(rows, repeats)
    ours = sorted(row[2] for row in rows)[len(rows) // 2]
    baseline = sorted(row[3] for row in rows)[len(rows) // 2]
    return [
        Figure(
            "n",
            "a calculus step through rederive-maths",
            ours,
            baseline,
            "sympy alone, in process",
            f"{ratio:.2f}x",
            "report",
            None,
        )
    ]


def soundness(workspace: Workspace, *, profile: bool) -> list[Figure]:
    """The soundness corpus, from bench_corpus.py's own measurement: the wrong verdicts on each set (the
    target is none) with the decided fraction; the figure's times are the worker's CPU seconds."""
    import bench_corpus

    true, false = bench_corpus.measure(workspace.quick)
    dimensions = bench_corpus.decide_dimensions()
    return [
        Figure(
            "v",
            "soundness corpus: wrong verdicts (true failed, false passed)",
            true["cpu"] + false["cpu"],
            0.0,
            "none wrong",
            f"{int(true['wrong'])} + {int(false['wrong'])} wrong; decided {true['decided']:.0%} of "
            f"{int(true['total'])} true, {false['decided']:.0%} of {int(false['total'])} false; dimensions "
            f"{int(dimensions)} wrong",
            "0 wrong",
            true["wrong"] == 0 and false["wrong"] == 0 and dimensions == 0,
        )
    ]


def inference(workspace: Workspace, *, profile: bool) -> list[Figure]:
    """Figures (i), from bench_inference.py's own measurement: i1.. reported (CPU seconds, and against the gate);
    i-all, i-10x and i-nlogn (finish_run at scale) against their targets."""
    import bench_inference

    return bench_inference.figures(workspace, profile=profile)


BENCHMARKS: dict[str, tuple[str, Benchmark]] = {
    "a": ("(a) a logged classify call against annotate_node; the fsync floor", bench_calls.figures),
    "b": ("(b) cold commands", bench_cold.figures),
    "c": ("(c) a long run (1000 calls): replay, and per-call cost as the log grows", bench_replay.figures),
    "d": ("(d) verify of 1000 runs with 1 and 2 jobs", bench_verify.figures),
    "e": ("(e) recompute-numbers against an ast + Fraction evaluator", arithmetic),
    "f": ("(f) start_run against credencegraph's ingest, on the real papers", bench_ingest.figures),
    "k": ("(k) `tool start_run` through the command line against `credencegraph ingest`", bench_start_cli.figures),
    "t": ("(t) start_run with table reading against without", bench_tables.figures),
    "x": ("(x) start_run with the paper's numbering (cross-references) against without", bench_numbering.figures),
    "g": ("(g) start-up of shell calls, batch, and a warm MCP call", bench_startup.figures),
    "m": ("(m) the numeric maths fallback against the symbolic path", maths),
    "s": ("(s) verify of 10,000 runs: the process pool and a Dask LocalCluster", bench_verify_cluster.figures),
    "n": ("(n) a calculus step through rederive-maths against sympy alone", calculus),
    "v": ("(v) rederive-maths on the soundness corpus: wrong verdicts and the decided fraction", soundness),
    "i": (
        "(i) finish_run's credences on full runs of the papers and on 500-node graphs of fan-in 50; finish_run at "
        "1k, 3k and 10k nodes",
        inference,
    ),
    "r": (
        "(r) report of a full run of about 400 nodes against finish_run, with and without reuse",
        bench_report.figures,
    ),
}


def table(figures: list[Figure]) -> str:
    """The final table: each figure, the medians it comes from, its target and whether it is met."""
    header = ("", "figure", "subject", "baseline", "against", "measured", "target", "")
    rows = [header]
    for figure in figures:
        result = "-" if figure.passed is None else ("pass" if figure.passed else "MISS")
        rows.append(
            (
                figure.key,
                figure.name,
                _seconds(figure.subject),
                _seconds(figure.baseline),
                figure.against,
                figure.shown,
                figure.target,
                result + (f"  ({figure.note})" if figure.note else ""),
            )
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows]
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)


def _seconds(value: float) -> str:
    if value <= 0:
        return "-"
    if value < 0.001:
        return f"{value * 1e6:.1f} us"
    return f"{value * 1e3:.2f} ms" if value < 0.1 else (f"{value * 1e3:.0f} ms" if value < 10 else f"{value:.1f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer calls, runs and repeats: a smoke run")
    parser.add_argument("--only", default="".join(BENCHMARKS), help=f"which figures, of {''.join(BENCHMARKS)}")
    parser.add_argument("--profile", action="store_true", help="also print profiles of the slow parts")
    parser.add_argument("--tmp", type=Path, help="where to make the temporary directory (default: the system's)")
    parser.add_argument("--strict", action="store_true", help="exit with status 1 when a target is missed")
    arguments = parser.parse_args(argv)
    unknown = sorted(set(arguments.only) - set(BENCHMARKS))
    if unknown:
        parser.error(f"no figures {unknown}; the figures are {''.join(BENCHMARKS)}")

    print(
        f"credencegraph-extract {version('credencegraph-extract')}, credencegraph {version('credencegraph')}, "
        f"Python {platform.python_version()}, {platform.machine()}; {'quick' if arguments.quick else 'full'} run"
    )
    print(load())
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="cgx-bench-", dir=arguments.tmp) as folder:
        workspace = Workspace(Path(folder), quick=arguments.quick)
        for key, (title, benchmark) in BENCHMARKS.items():
            if key in arguments.only:
                with section(title):
                    figures.extend(benchmark(workspace, profile=arguments.profile))
    print(f"\n{load()}\n")
    print(table(figures))
    missed = [figure.key for figure in figures if figure.passed is False]
    met = sum(1 for figure in figures if figure.passed)
    print(f"\n{met} of {met + len(missed)} targets met" + (f"; missed: {', '.join(missed)}" if missed else ""))
    return 1 if arguments.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
