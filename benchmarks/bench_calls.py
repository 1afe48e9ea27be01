"""Figure (a): what the run machinery adds to one edit. A logged classify call of one record on the
300-chunk paper, in process through `call_tool`, against credencegraph's bare `annotate_node` making the
same edit to the same graph; and the cost of one `os.fsync` on this disk, the physical floor of a commit.
Figure a4: how a one-record call's cost grows with the paper (3,000 chunks against 100).

Run alone with `uv run python benchmarks/bench_calls.py [--quick] [--profile]`.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from synthetic import MODEL, RUBRIC, Workspace, tool
from timing import Figure, Phases, at_most, ms, paired, profile_summary, timed


def fsync_floor(folder: Path, repeats: int) -> tuple[float, float]:
    """The median time of one fsync after appending a short line (the log's commit), and of replacing a
    200 kB file by temp file, fsync and rename (what a derived state.json costs when it is fsynced)."""
    path = folder / "fsync-probe.log"
    appended: list[float] = []
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        for _ in range(repeats):
            os.write(fd, b"x" * 300 + b"\n")
            start = time.perf_counter()
            os.fsync(fd)
            appended.append(time.perf_counter() - start)
    finally:
        os.close(fd)
    replaced: list[float] = []
    data = b"{}" * 100_000
    target, temp = folder / "fsync-probe.json", folder / ".fsync-probe.json.tmp"
    for _ in range(repeats):
        start = time.perf_counter()
        with temp.open("wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
        replaced.append(time.perf_counter() - start)
    return statistics.median(appended), statistics.median(replaced)


def phases_of_a_call() -> Phases:
    """The phases a changing call goes through, by where their code is today (see Phases)."""
    import cgx_core.graph.rubric
    import cgx_core.run.log
    import cgx_core.run.transaction
    import cgx_core.tooling.registry
    import cgx_core.tools.classify
    import cgx_core.tools.run_checks
    from cgx_core.run.lock import RunLock
    from cgx_core.run.transaction import Run

    phases = Phases()
    phases.add("argument check", cgx_core.tooling.registry, "check_arguments")
    phases.add("open the run (manifest, log head)", Run, "__init__")
    phases.add("lock (take, write holder, release)", RunLock, "__enter__")
    phases.add("lock (take, write holder, release)", RunLock, "__exit__")
    phases.add("state read + recovery", Run, "_recover")
    phases.add("rubric load", cgx_core.graph.rubric, "load_rubric_bytes")
    phases.add("compute (classify's apply)", cgx_core.tools.classify, "apply")
    phases.add("compute (run_checks' apply)", cgx_core.tools.run_checks, "apply")
    phases.add("result digest", cgx_core.run.transaction, "json_digest")
    phases.add("graph digest", Run, "graph_digest")
    phases.add("log append (write, seek)", cgx_core.run.log, "append")
    phases.add("derived files: the rest (write, manifest)", Run, "_derive")
    phases.add("derived files: state.json serialised", cgx_core.run.transaction, "state_bytes")
    phases.add("result to JSON text", cgx_core.tooling.registry, "result_text")
    phases.add("os.fsync (all of them)", os, "fsync")
    phases.add("os.replace (all of them)", os, "replace")
    phases.add("os.ftruncate (all of them)", os, "ftruncate")
    return phases


def print_breakdown(phases: Phases, calls: int, total: float, what: str = "a logged classify call") -> None:
    print(f"breakdown of {what} (mean over {calls} calls, {ms(total / calls)} each):")
    accounted = 0.0
    for label, seconds in phases.totals.items():
        accounted += seconds
        if not phases.counts[label]:
            continue
        count = phases.counts[label] / calls
        print(f"  {label:40} {seconds / calls * 1e3:7.3f} ms   ({count:.1f} per call)")
    print(f"  {'other (not in a phase above)':40} {(total - accounted) / calls * 1e3:7.3f} ms")
    for missing in phases.missing:
        print(f"  not found, counted in other: {missing}")


SMALL, LONG = 100, 3000
"""The paper sizes of figure a4: a one-record call on the long paper against the same on the short one."""


def size_figures(workspace: Workspace, *, profile: bool) -> list[Figure]:
    """Figure a4: a one-record classify call (a method typed again, in turn) on a run of 3,000 typed chunks
    against the same call on a run of 100, alternating, in processor time, in a process that holds each run's
    state as `batch` and the MCP server do (state.json is still written after every call)."""
    calls = 60 if workspace.quick else 300
    small, long = workspace.typed_run(SMALL), workspace.typed_run(LONG)

    def classify(typed: tuple[Any, Path, list[str]]) -> Callable[[int], None]:
        paper, run, ids = typed

        def call(index: int) -> None:
            record = paper.record(ids, paper.methods[index % len(paper.methods)])
            tool("classify", {"run": str(run), "records": [record], "model": MODEL})

        return call

    for index in range(5):  # each run's state read once, as a long-lived process has it
        classify(long)(index)
        classify(small)(index)
    times = paired(classify(long), classify(small), calls, measure=partial(timed, clock=time.process_time))
    if profile:
        print(profile_summary(lambda: [classify(long)(index) for index in range(20)], title="20 calls, 3,000 chunks"))
    print(
        f"one-record classify: {LONG} chunks {ms(times.subject_median)}, {SMALL} chunks "
        f"{ms(times.baseline_median)} (CPU, medians), ratio {times.ratio:.2f}x"
    )
    return [
        Figure(
            "a4",
            f"one-record classify, {LONG:,} chunks, in a long-lived process (CPU)",
            times.subject_median,
            times.baseline_median,
            f"the same, {SMALL} chunks",
            f"{times.ratio:.2f}x",
            "<= 1.3x",
            at_most(times.ratio, 1.3),
        ),
    ]


def figures(workspace: Workspace, *, profile: bool) -> list[Figure]:
    from credencegraph.core import load
    from credencegraph.rubric import annotate_node, load_rubric

    calls = 60 if workspace.quick else 300
    paper = workspace.paper
    floor, replace = fsync_floor(workspace.root, 30 if workspace.quick else 200)
    print(f"one os.fsync after appending a line: {ms(floor)} (median); 200 kB temp+fsync+rename: {ms(replace)}")

    run, ids = workspace.classified_run()
    rubric = load_rubric(RUBRIC)
    bare_graph: dict[str, Any] = {"graph": load(run / "ingested.json")}

    def bare(index: int) -> None:
        bare_graph["graph"] = annotate_node(bare_graph["graph"], rubric, ids[index], **paper.annotation(ids, index))

    def logged(index: int) -> None:
        tool("classify", {"run": str(run), "records": [paper.record(ids, index)], "model": MODEL})

    times = paired(logged, bare, calls)
    added = times.added
    print(
        f"{calls} calls, each typing one chunk: logged classify {ms(times.subject_median)}, "
        f"annotate_node {ms(times.baseline_median)} (medians); added {ms(added)}, ratio {times.ratio:.1f}x"
    )
    early, late = statistics.median(times.subject[: calls // 10]), statistics.median(times.subject[-(calls // 10) :])
    print(f"first tenth of the calls {ms(early)}, last tenth {ms(late)} (median)")

    run, ids = workspace.classified_run()
    with phases_of_a_call() as phases:
        start = time.perf_counter()
        for index in range(calls):
            logged(index)
        total = time.perf_counter() - start
    print_breakdown(phases, calls, total)
    if profile:
        methods = paper.methods[:20]
        print(profile_summary(lambda: list(map(logged, methods)), title="20 logged classify calls"))
    return [
        *size_figures(workspace, profile=profile),
        Figure(
            "a",
            "logged classify call, 300 chunks: added time",
            times.subject_median,
            times.baseline_median,
            "annotate_node",
            f"+{ms(added)} ({times.ratio:.0f}x)",
            "<= +1 ms",
            at_most(added, 0.001),
        ),
        Figure(
            "a2",
            "the same, beyond the one fsync a commit needs",
            times.subject_median - floor,
            times.baseline_median,
            "annotate_node",
            f"+{ms(added - floor)}",
            "<= +1 ms",
            at_most(added - floor, 0.001),
        ),
        Figure(
            "a3",
            "one os.fsync of a small file (commit floor)",
            floor,
            floor,
            "-",
            ms(floor),
            "report",
            None,
        ),
    ]


if __name__ == "__main__":
    import tempfile

    if "--sizes" in sys.argv:  # figure a4 alone
        with tempfile.TemporaryDirectory(prefix="cgx-bench-") as folder:
            for figure in size_figures(Workspace(Path(folder), quick="--quick" in sys.argv), profile=False):
                print(figure)
        sys.exit()

    with tempfile.TemporaryDirectory(prefix="cgx-bench-") as folder:
        for figure in figures(Workspace(Path(folder), quick="--quick" in sys.argv), profile="--profile" in sys.argv):
            print(figure)
