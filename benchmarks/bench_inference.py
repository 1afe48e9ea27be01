"""Benchmark: finish_run's credences (checks/credences.py) on the shared papers' full runs and on generated
graphs of 500 nodes with fan-in 50.

Run with `uv run python benchmarks/bench_inference.py [--quick] [--repeats N]`.

Each full run is built once through the tools (`full_runs.py`: every chunk typed, premises shared, checks and
reviews), outside the timing. Timed, in process CPU time: the credences of the finished graph (two exact
passes, one per failed node for its own checks, one per observation for what moved each node most), against
finish_run's gate on the same graph (credencegraph's own check at level assessed, on the divorced graph)
measured alternately in the same run, so the ratio says what inference adds to the call. Also printed: the
network's size, its largest clique table and entries per pass (what the budget is compared with), and how
each credence was had. credencegraph's own inference is not a baseline: it cannot compile these graphs
(one table over 50 parents is 2^51 entries).
"""

from __future__ import annotations

import argparse
import math
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from full_runs import MAIN_FILES, build_full_run

GENERATED_NODES = 500
FAN_IN = 50
ASSESSED = {"origin": "document", "assessment": {"verdict": "holds"}}
"""Every proposition of a generated graph is credenced, as finish_run credences assessed nodes."""


def generated_graph(seed: int, *, scattered: bool = False) -> Any:
    """500 nodes: 9 claims each resting on 50 results, each result on a method and on one of three
    assumptions shared by a third of the results, every result observed by one check (one in ten fails).

    As agents build them, a claim's results rest on the methods of its own section (two per claim);
    `scattered` draws each result's method from all 20 instead, which ties every claim's chain to every
    method: beyond the exact budget, the case the seeded approximation is for."""
    from credencegraph.core import Graph, Node, Relation

    rng = random.Random(seed)
    graph = Graph()
    methods = [f"m-{index}" for index in range(20)]
    assumptions = [f"a-{index}" for index in range(3)]
    for node in [*methods, *assumptions]:
        graph.add_node(Node(node, base=0.9 if node.startswith("m") else 0.8, attributes=ASSESSED))
    claims = (GENERATED_NODES - len(methods) - len(assumptions)) // (FAN_IN + 1)
    for claim in range(claims):
        graph.add_node(Node(f"claim-{claim}", base=0.5, attributes=ASSESSED))
        for index in range(FAN_IN):
            result = f"r-{claim}-{index}"
            graph.add_node(Node(result, base=0.8, attributes=ASSESSED))
            method = rng.choice(methods) if scattered else methods[2 * claim + index % 2]
            graph.add_relation(Relation(f"{result}-m", "requires", method, result, strength=0.9))
            graph.add_relation(Relation(f"{result}-a", "requires", assumptions[index % 3], result, strength=0.9))
            graph.add_relation(Relation(f"{result}-c", "requires", result, f"claim-{claim}", strength=0.9))
            check = f"c-{claim}-{index}"
            passed = rng.random() >= 0.1
            graph.add_node(Node(check, kind="check", attributes={"origin": "evidence", "observed": passed}))
            graph.add_relation(Relation(f"{check}-o", "observes", result, check, sensitivity=0.85, false_pass=0.15))
    return graph


def _cpu(action: Callable[[], Any]) -> float:
    start = time.process_time()
    action()
    return time.process_time() - start


def describe(graph: Any) -> str:
    from credencegraph.semantics import compile_graph

    from cgx_core.checks.credences import credences
    from cgx_core.checks.inference import BucketTree, PlanTooLarge
    from cgx_core.graph.divorce import divorced

    network = compile_graph(divorced(graph))
    plan = BucketTree().plan(network, {})
    size = (
        f"beyond the budget (a table of at least {plan.table} entries, {plan.work} a pass)"
        if isinstance(plan, PlanTooLarge)
        else f"largest clique {plan.cost[0]} entries, {plan.cost[1]} a pass"
    )
    found = credences(graph)
    methods: dict[str, int] = {}
    for entry in found["nodes"].values():
        methods[entry["method"]] = methods.get(entry["method"], 0) + 1
    note = f"; moved_by {found['moved_by']}" if "moved_by" in found else ""
    return (
        f"{len(graph)} nodes, {len(network)} variables, {size}; "
        f"credences {methods}, missing {len(found['missing'])}{note}"
    )


def measure(graph: Any, rubric: Any, repeats: int) -> tuple[float, float | None]:
    """Median CPU seconds of the credences and (with a rubric) of finish_run's gate, alternating."""
    from cgx_core.checks.credences import credences
    from cgx_core.checks.verdicts import gate_findings

    subject, baseline = [], []
    for _ in range(repeats):
        subject.append(_cpu(lambda: credences(graph)))
        if rubric is not None:
            baseline.append(_cpu(lambda: gate_findings(graph, rubric)))
    return statistics.median(subject), statistics.median(baseline) if baseline else None


def run(folder: Path, *, quick: bool, repeats: int) -> list[tuple[str, float, float | None, str]]:
    from credencegraph.core import load
    from full_runs import RUBRIC

    from cgx_core.graph.rubric import load_rubric_bytes

    rubric = load_rubric_bytes(RUBRIC.read_bytes(), "rubric.toml")
    rows = []
    papers = list(MAIN_FILES)[:2] if quick else list(MAIN_FILES)
    for paper in papers:
        build_full_run(paper, folder / paper)
        graph = load(folder / paper / "graph.json")
        subject, baseline = measure(graph, rubric, repeats)
        rows.append((paper, subject, baseline, describe(graph)))
    for scattered in (False, True):
        graph = generated_graph(0, scattered=scattered)
        subject, _ = measure(graph, None, repeats)
        shape = "methods scattered" if scattered else "methods by section"
        rows.append((f"generated {GENERATED_NODES} nodes, fan-in {FAN_IN}, {shape}", subject, None, describe(graph)))
    for name, subject, baseline, about in rows:
        ratio = f", {subject / baseline:.2f}x the gate ({baseline:.2f} s)" if baseline else ""
        print(f"  {name}: credences {subject:.2f} s CPU{ratio}\n    {about}")
    return rows


# Finish_run at scale (issue 43): synthetic runs built through the tools, every result checked.
METHODS_EVERY = 21
"""A method every 21 sentences, the 20 results between resting on it: nodes are about twice the checks."""
SCALE_SENTENCES = (525, 1575, 5250)
"""1,025, 3,075 and 10,250 nodes with 500, 1,500 and 5,000 checks (the first is the anchor)."""
QUICK_SENTENCES = (105, 315, 1050)


def checked_run(folder: Path, sentences: int) -> tuple[Path, int, int]:
    """An unfinished run of a synthetic paper of `sentences` sentences, every chunk typed and every result
    checked (20 proposals a call, as run_checks takes them): its folder, nodes and checks."""
    from synthetic import MODEL, Paper, tool, write_paper

    paper = Paper(*write_paper(folder / "paper", sentences, methods_every=METHODS_EVERY))
    run = folder / "run"
    ids = paper.start(run)
    base = {"run": str(run), "model": MODEL}
    for start in range(0, len(ids), 500):  # classify takes at most 500 records a call
        records = [paper.record(ids, index) for index in range(start, min(start + 500, len(ids)))]
        tool("classify", {**base, "records": records})
    results = paper.results
    for start in range(0, len(results), 20):
        proposals = [paper.proposal(ids, index) for index in results[start : start + 20]]
        checked = tool("run_checks", {**base, "proposals": proposals})
        if checked["refused"]:
            raise RuntimeError(f"a synthetic check was refused: {checked['refused'][:1]}")
    return run, len(ids) + len(results), len(results)


def finish_cpu(run: Path, scratch: Path) -> tuple[float, dict[str, Any]]:
    """CPU seconds of finish_run (in process) on a fresh copy of the unfinished run, and its result."""
    from synthetic import MODEL, tool

    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(run, scratch)
    start = time.process_time()
    result = tool("finish_run", {"run": str(scratch), "model": MODEL})
    return time.process_time() - start, result


def scale(folder: Path, *, quick: bool, repeats: int) -> list[tuple[int, int, float, dict[str, int]]]:
    """finish_run's CPU at each size (the sizes alternating, repeat by repeat): nodes, checks, median, and
    how the credences of the largest were had."""
    sizes = QUICK_SENTENCES if quick else SCALE_SENTENCES
    runs = []
    for sentences in sizes:
        started = time.process_time()
        runs.append(checked_run(folder / f"scale-{sentences}", sentences))
        print(
            f"  built {runs[-1][1]} nodes, {runs[-1][2]} checks in {time.process_time() - started:.1f} s CPU",
            flush=True,
        )
    times: list[list[float]] = [[] for _ in runs]
    credenced: list[dict[str, int]] = [{} for _ in runs]
    for repeat in range(repeats):
        for position in range(len(runs)) if repeat % 2 == 0 else reversed(range(len(runs))):
            run = runs[position][0]
            cpu, result = finish_cpu(run, run.parent / "finished")
            times[position].append(cpu)
            credenced[position] = {k: v for k, v in result["credences"].items() if isinstance(v, int)}
    rows = [
        (nodes, checks, statistics.median(spent), found)
        for (_, nodes, checks), spent, found in zip(runs, times, credenced, strict=True)
    ]
    for nodes, checks, spent, found in rows:
        print(f"  finish_run on {nodes} nodes, {checks} checks: {spent:.2f} s CPU; credences {found}")
    return rows


def scale_figures(rows: list[tuple[int, int, float, dict[str, int]]]) -> list[Any]:
    """Figures i-all, i-10x and i-nlogn: every credence had at the largest size, its finish_run against the
    anchor's (about a tenth of the nodes), and each size's cost against n log n from the anchor."""
    from timing import Figure, at_most

    (anchor_nodes, _, anchor, _), (nodes, checks, largest, found) = rows[0], rows[-1]
    every = found.get("missing", 1) == 0 and sum(v for k, v in found.items() if k != "missing") > 0
    growth = []
    for size, _, spent, _ in rows[1:]:
        allowed = size * math.log(size) / (anchor_nodes * math.log(anchor_nodes))
        growth.append((spent / anchor) / allowed)
    worst = max(growth)
    ratio = largest / anchor
    return [
        Figure(
            "i-all",
            f"credences of a {nodes}-node run with {checks} checks",
            largest,
            0.0,
            "every assessed node",
            ", ".join(f"{k} {v}" for k, v in found.items()),
            "missing 0",
            every,
        ),
        Figure(
            "i-10x",
            f"finish_run at {nodes} nodes against {anchor_nodes}",
            largest,
            anchor,
            f"finish_run at {anchor_nodes} nodes",
            f"{ratio:.2f}x",
            "<= 10x",
            at_most(ratio, 10.0),
        ),
        Figure(
            "i-nlogn",
            "finish_run's growth against n log n",
            largest,
            anchor,
            f"n log n from {anchor_nodes} nodes",
            " ".join(f"{g:.2f}" for g in growth),
            "<= 1",
            at_most(worst, 1.0),
            "each size's cost over the anchor's, divided by (n log n) over the anchor's",
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--scale-only", action="store_true", help="only finish_run at scale (figures i-all..)")
    arguments = parser.parse_args()
    repeats = 1 if arguments.quick else arguments.repeats
    with tempfile.TemporaryDirectory(prefix="cgx-bench-inference-") as folder:
        if not arguments.scale_only:
            run(Path(folder), quick=arguments.quick, repeats=repeats)
        for figure in scale_figures(scale(Path(folder), quick=arguments.quick, repeats=repeats)):
            print(f"  {figure.key}: {figure.name}: {figure.shown} (target {figure.target}: {figure.passed})")


if __name__ == "__main__":
    main()


def figures(workspace: Any, *, profile: bool) -> list[Any]:
    """Figures i1, i2, ... for benchmarks/run.py (reported, the gate as the baseline where it runs), then
    finish_run at scale: i-all, i-10x and i-nlogn, with their targets."""
    from timing import Figure

    folder = workspace.root / "inference"
    folder.mkdir(exist_ok=True)
    repeats = 1 if workspace.quick else 3
    rows = run(folder, quick=workspace.quick, repeats=repeats)
    reported = [
        Figure(
            f"i{number}",
            f"credences: {name}",
            subject,
            baseline or 0.0,
            "finish_run's gate" if baseline else "-",
            f"{subject / baseline:.1f}x" if baseline else f"{subject:.2f} s",
            "report",
            None,
            about,
        )
        for number, (name, subject, baseline, about) in enumerate(rows, start=1)
    ]
    return reported + scale_figures(scale(folder, quick=workspace.quick, repeats=repeats))
