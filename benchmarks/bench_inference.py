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
import random
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=3)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cgx-bench-inference-") as folder:
        run(Path(folder), quick=arguments.quick, repeats=1 if arguments.quick else arguments.repeats)


if __name__ == "__main__":
    main()


def figures(workspace: Any, *, profile: bool) -> list[Any]:
    """Figures i1, i2, ... for benchmarks/run.py: reported (no target), the gate as the baseline where it runs."""
    from timing import Figure

    folder = workspace.root / "inference"
    folder.mkdir(exist_ok=True)
    rows = run(folder, quick=workspace.quick, repeats=1 if workspace.quick else 3)
    return [
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
