"""Figure (c): a long run. A 1000-call run (start_run on the 300-chunk paper, one classify call typing every
chunk, then 998 calls: four classify calls of one record for each run_checks call of one recompute-numbers
proposal) is built through `call_tool`, timing every call, then replayed.

- c1: replay of the run (`cgx_core.audit.replay.replay`, in process) against applying the same calls in process
  (the same ingest, then each logged call's handler on the state before it, in replay mode, without
  reading the log, digesting or comparing). Target: at most 1.2x.
- c2: a call's cost as the log grows. The run is copied as it stood after call 102 (start_run, the
  classify call typing every chunk, then 100 calls of the steady mix); then classify calls of one record
  are made alternately on that copy and on the 1000-call run, so both ends are timed under the same load
  (the cores are shared; the times of calls 3-102 and 901-1000 as the run was built are printed for
  context only). Target: at most 1.2x ("about 1"). The graph grows along the way (each check adds a
  node with its record), so this figure holds growth with the graph as well as with the log.
- c3: growth with the log alone: the same classify calls, alternately on the 1000-call run and on a run
  with the same graph reached in a few calls (start_run, one classify of every chunk, run_checks of the
  same proposals 20 at a time). Target: at most 1.2x. A call's phases are printed for both comparisons.

Run alone with `uv run python benchmarks/bench_replay.py [--quick] [--profile]`.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from bench_calls import phases_of_a_call
from synthetic import MODEL, Workspace, schedule, tool
from timing import Figure, Paired, Phases, at_most, human, ms, paired, profile_summary, timed


@dataclass
class Built:
    """A long run as it was built: every call's tool and time, and a copy of the run early in its log."""

    run: Path
    early: Path
    ids: list[str]
    timings: list[tuple[str, float]]


def build(workspace: Workspace, calls: int) -> Built:
    """Build the run through `call_tool`, timing each call after start_run, and copy it after call
    calls/10 + 2 (outside the timing)."""
    run, ids = workspace.classified_run()
    built = Built(run, run.with_name(run.name + "-early"), ids, [])
    for number, (name, arguments) in enumerate(schedule(workspace.paper, ids, calls - 1), start=2):
        built.timings.append((name, timed(partial(tool, name, {"run": str(run), "model": MODEL, **arguments}))))
        if number == calls // 10 + 2:
            shutil.copytree(run, built.early)
    return built


def probe(
    workspace: Workspace, ids: list[str], early: Path, late: Path, count: int
) -> tuple[Paired, dict[str, Phases]]:
    """Classify calls of one record (a method typed again), alternately on `early` (the baseline) and on
    `late` (the subject), each split into phases."""
    paper = workspace.paper
    ends = {"first": early, "last": late}
    phases = {end: phases_of_a_call() for end in ends}

    def call(end: str, index: int) -> None:
        record = paper.record(ids, paper.methods[index % len(paper.methods)])
        with phases[end]:
            tool("classify", {"run": str(ends[end]), "model": MODEL, "records": [record]})

    call("first", 0)  # the first call on a directory reads its state.json from disk: not what is measured
    call("last", 0)
    for phase in phases.values():
        phase.reset()
    return paired(partial(call, "last"), partial(call, "first"), count), phases


def same_graph_short_log(workspace: Workspace, checks: int) -> tuple[Path, int]:
    """A run with the long run's graph (every chunk typed, the same checks) reached in a few calls (a call
    takes at most 20 proposals); returns it and its number of calls."""
    paper = workspace.paper
    run, ids = workspace.classified_run()
    base = {"run": str(run), "model": MODEL}
    tool("classify", {**base, "records": [paper.record(ids, index) for index in range(len(ids))]})
    targets = paper.results[:checks]
    for start in range(0, len(targets), 20):
        tool("run_checks", {**base, "proposals": [paper.proposal(ids, index) for index in targets[start : start + 20]]})
    return run, 2 + (len(targets) + 19) // 20


def print_phases(phases: dict[str, Phases], times: Paired) -> None:
    """Mean time per call of each phase, early and late in the log."""
    count = len(times.subject)
    totals = {"first": sum(times.baseline), "last": sum(times.subject)}
    print(f"  {'phase (mean per call)':42} {'early':>9} {'late':>9}")
    for label in phases["first"].totals:
        if phases["first"].counts[label] or phases["last"].counts[label]:
            row = [phases[end].totals[label] / count * 1e3 for end in ("first", "last")]
            print(f"  {label:42} {row[0]:6.3f} ms {row[1]:6.3f} ms")
    rest = [(totals[end] - sum(phases[end].totals.values())) / count * 1e3 for end in ("first", "last")]
    print(f"  {'other':42} {rest[0]:6.3f} ms {rest[1]:6.3f} ms")


def apply_in_process(root: Path, paper: Path, entries: list[Any]) -> Any:
    """The baseline: ingest the paper as replay does, then apply every logged call to the state before it."""
    from cgx_core.ingest.documents import read_document
    from cgx_core.ingest.paper import ingest
    from cgx_core.run.state import RunState
    from cgx_core.run.transaction import CallContext, Run
    from cgx_core.tooling.registry import handler_for

    run = Run(root, handler_for)
    graph, _ = ingest(read_document(paper), [], run.rubric)
    state = RunState(run.id, 0, 0, None, graph, (), False)
    for entry in entries:
        line = entry.line
        effect = handler_for(line.tool)(CallContext(run, line.seq, "replay", line.model, line), state, line.args)
        state = state.advance(effect, tool=line.tool, end=entry.end, digest=entry.digest)
    return state


def replay_once(root: Path, paper: Path) -> None:
    from cgx_core.audit.replay import replay

    report = replay(root, source=paper, sources=None)
    if not report.identical:
        raise RuntimeError(f"the replay diverged: {report.body}")


def replay_phases() -> Phases:
    import cgx_core.audit.replay
    import cgx_core.run.log
    import cgx_core.tools.classify
    import cgx_core.tools.run_checks
    import cgx_core.tools.start_run
    from cgx_core.run.transaction import Run

    phases = Phases()
    # The paper is read again in a thread of its own while the calls are applied (reading_overlap times it).
    phases.add("log read + parse", cgx_core.run.log, "scan")
    phases.add("start_run's apply", cgx_core.tools.start_run, "apply")
    phases.add("classify's apply", cgx_core.tools.classify, "apply")
    phases.add("run_checks' apply", cgx_core.tools.run_checks, "apply")
    phases.add("result digests", cgx_core.audit.replay, "json_digest")
    phases.add("graph digests", Run, "graph_digest")
    phases.add("state.json compared", cgx_core.audit.replay, "state_bytes")
    return phases


@contextmanager
def reading_overlap() -> Iterator[list[float]]:
    """While entered, the wall time of replay's reading of the paper (in its own thread, overlapping the
    calls) and then how long replay waited for it once the calls were applied: [reading, waited]."""
    import cgx_core.audit.background
    import cgx_core.audit.replay

    times = [0.0, 0.0]
    reingest, result = cgx_core.audit.replay.reingest, cgx_core.audit.background.Background.result

    def timed_reingest(*args: Any) -> bytes:
        start = time.perf_counter()
        try:
            return reingest(*args)
        finally:
            times[0] += time.perf_counter() - start

    def timed_result(self: Any) -> Any:
        start = time.perf_counter()
        try:
            return result(self)
        finally:
            times[1] += time.perf_counter() - start

    cgx_core.audit.replay.reingest = timed_reingest  # type: ignore[assignment]
    cgx_core.audit.background.Background.result = timed_result  # type: ignore[method-assign]
    try:
        yield times
    finally:
        cgx_core.audit.replay.reingest = reingest  # type: ignore[assignment]
        cgx_core.audit.background.Background.result = result  # type: ignore[method-assign]


def while_built(timings: list[tuple[str, float]], window: int) -> None:
    """The calls' times as the run was built, first tenth against last, per tool (load drifts: context)."""
    first, last = timings[1 : window + 1], timings[-window:]
    for name in ("classify", "run_checks"):
        early = [seconds for tool_name, seconds in first if tool_name == name]
        late = [seconds for tool_name, seconds in last if tool_name == name]
        print(
            f"  as built: {name:10} calls 3-{window + 2} {ms(statistics.median(early))}, calls "
            f"{len(timings) + 1 - window + 1}-{len(timings) + 1} {ms(statistics.median(late))} "
            f"(x{statistics.median(late) / statistics.median(early):.2f})"
        )


def figures(workspace: Workspace, *, profile: bool) -> list[Figure]:
    from cgx_core.run import log

    calls = 200 if workspace.quick else 1000
    window = calls // 10
    start = time.perf_counter()
    built = build(workspace, calls)
    run = built.run
    print(f"built a {calls}-call run in {time.perf_counter() - start:.1f} s")
    while_built(built.timings, window)
    paper = workspace.paper.main
    entries = list(log.scan(run / "calls.jsonl", 0, 1, None).entries)
    replay_once(run, paper)  # warm: imports, plugin discovery, the parser of the arithmetic grammar
    repeats = 2 if workspace.quick else 3
    times = paired(lambda _: replay_once(run, paper), lambda _: apply_in_process(run, paper, entries), repeats)
    print(
        f"replay {human(times.subject_median)}, applying the calls in process {human(times.baseline_median)} "
        f"(medians of {repeats}): {times.ratio:.2f}x"
    )
    with replay_phases() as phases, reading_overlap() as reading:
        total = timed(lambda: replay_once(run, paper))
    print(
        f"one replay ({human(total)}): the paper read again in {human(reading[0])}, beside the calls "
        f"(waited for after them: {human(reading[1])}); in this thread, by phase:"
    )
    accounted = sum(phases.totals.values())
    for label, seconds in phases.totals.items():
        print(f"  {label:36} {human(seconds)}  ({phases.counts[label]} calls)")
    print(f"  {'other':36} {human(total - accounted)}")
    if profile:
        print(profile_summary(lambda: replay_once(run, paper), title=f"one replay of {calls} calls"))
    growth, call_phases = probe(workspace, built.ids, built.early, run, window)
    sizes = [(root / "state.json").stat().st_size // 1000 for root in (built.early, run)]
    print(
        f"c2: classify of one record on the run at call {window + 2} and at call {calls}, alternately: "
        f"{ms(growth.baseline_median)} and {ms(growth.subject_median)}: {growth.ratio:.2f}x "
        f"(state.json {sizes[0]} kB and {sizes[1]} kB: the checks grow the graph)"
    )
    print_phases(call_phases, growth)
    checks = sum(1 for name, _ in built.timings if name == "run_checks")
    short, short_calls = same_graph_short_log(workspace, checks)
    log_only, log_phases = probe(workspace, built.ids, short, run, window)
    print(
        f"c3: the same on a run with the same graph reached in {short_calls} calls, and on the {calls}-call run: "
        f"{ms(log_only.baseline_median)} and {ms(log_only.subject_median)}: {log_only.ratio:.2f}x "
        f"(state.json {(short / 'state.json').stat().st_size // 1000} kB and {sizes[1]} kB)"
    )
    print_phases(log_phases, log_only)
    return [
        Figure(
            "c1",
            f"replay of a {calls}-call run",
            times.subject_median,
            times.baseline_median,
            "the calls applied in process",
            f"{times.ratio:.2f}x",
            "<= 1.2x",
            at_most(times.ratio, 1.2),
        ),
        Figure(
            "c2",
            f"per-call cost at call {calls} vs call {window + 2}",
            growth.subject_median,
            growth.baseline_median,
            f"the run at call {window + 2}",
            f"{growth.ratio:.2f}x",
            "<= 1.2x",
            at_most(growth.ratio, 1.2),
        ),
        Figure(
            "c3",
            f"per-call cost, same graph: log of {calls} calls vs {short_calls}",
            log_only.subject_median,
            log_only.baseline_median,
            f"same graph, {short_calls} calls",
            f"{log_only.ratio:.2f}x",
            "<= 1.2x",
            at_most(log_only.ratio, 1.2),
        ),
    ]


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory(prefix="cgx-bench-") as folder:
        for figure in figures(Workspace(Path(folder), quick="--quick" in sys.argv), profile="--profile" in sys.argv):
            print(figure)
