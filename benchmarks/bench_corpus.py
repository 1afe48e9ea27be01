"""Benchmark: the maths checks' soundness corpora, the decided fraction of each set and the rate of wrong verdicts.

Run with `uv run python benchmarks/bench_corpus.py [--quick]`.

Each identity of tests/checks/maths/corpus (true ones from public tables, false ones made from them by a
one-symbol change and certified false) is decided as run_checks decides it (`corpus.verdict`):
rederive-maths in the maths worker within its CPU-time budget, then rederive-maths-numeric when it errs.
A true identity that fails, or a false one that passes, is a wrong verdict (the target is 0); an `error`
moves no credence and is reported as the undecided rate (lower is better, but an honest error beats a
wrong verdict). The worker's CPU time is read from /proc (Linux) and printed with each set, since the
corpus test must stay within a few minutes of one core's CPU. The dimensions check's corpus
(tests/checks/dimensions/corpus: consistent formulas of physics, and mutants pint shows inconsistent) is
decided last, in this process (it needs no worker).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "checks" / "maths" / "corpus"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "checks" / "dimensions" / "corpus"))

import corpus
import dimension_corpus

from cgx_checks.maths.caller.decider import SymbolicDecider

QUICK = 40
"""Identities of each set decided by --quick (the first of each category in turn)."""


def worker_cpu(decider: SymbolicDecider) -> float:
    """The maths worker's CPU seconds so far (user + system), from /proc; 0.0 where there is none."""
    pid = decider.worker.pid
    path = Path(f"/proc/{pid}/stat")
    if pid is None or not path.exists():
        return 0.0
    fields = path.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def sample(identities: list[corpus.Identity], count: int) -> list[corpus.Identity]:
    """`count` identities, taking each category in turn, so a quick run covers all of them."""
    by_category: dict[str, list[corpus.Identity]] = {}
    for identity in identities:
        by_category.setdefault(identity.category, []).append(identity)
    chosen: list[corpus.Identity] = []
    while len(chosen) < count and any(by_category.values()):
        for items in by_category.values():
            if items and len(chosen) < count:
                chosen.append(items.pop(0))
    return chosen


def decide_set(name: str, identities: list[corpus.Identity], wrong: str) -> dict[str, float]:
    """Decide one set; print its counts by category, the wrong verdicts, and the CPU time it took."""
    with SymbolicDecider() as decider:
        decider.worker.run("loaded", None, 10.0)  # start the worker (and import sympy) outside the figure
        cpu, before_wall = 0.0, time.perf_counter()
        results: Counter[tuple[str, str]] = Counter()
        mistakes = []
        for identity in identities:
            pid, before = decider.worker.pid, worker_cpu(decider)
            result, detail = corpus.verdict(identity, decider)
            # A worker stopped for its memory is started again: then all the new one spent is this step's.
            cpu += worker_cpu(decider) - (before if decider.worker.pid == pid else 0.0)
            results[(identity.category, result)] += 1
            if result == wrong:
                mistakes.append(f"  line {identity.line} {identity.lhs} = {identity.rhs}: {detail[:200]}")
        wall = time.perf_counter() - before_wall
    total = len(identities)
    counts = Counter(result for (_, result), number in results.items() for _ in range(number))
    decided = counts["passed"] + counts["failed"]
    print(f"\n{name}: {total} identities, worker CPU {cpu:.1f} s (wall {wall:.1f} s)")
    for category in dict.fromkeys(identity.category for identity in identities):
        row = {result: results[(category, result)] for result in ("passed", "failed", "error", "refused")}
        print(f"  {category:<21} " + "  ".join(f"{result} {number:>3}" for result, number in row.items()))
    print(
        f"  decided {decided}/{total} = {decided / total:.1%}; error {counts['error']} "
        f"({counts['error'] / total:.1%}); refused {counts['refused']}; wrong ({wrong}) {counts[wrong]}"
    )
    for line in mistakes:
        print(line)
    return {
        "decided": decided / total,
        "error": counts["error"] / total,
        "wrong": float(counts[wrong]),
        "cpu": cpu,
        "total": float(total),
    }


def measure(quick: bool) -> tuple[dict[str, float], dict[str, float]]:
    true, false = corpus.load_true(), corpus.load_false()
    if quick:
        true, false = sample(true, QUICK), sample(false, QUICK)
    return decide_set("true identities", true, "failed"), decide_set("false identities", false, "passed")


def decide_dimensions() -> float:
    """The dimensions check on its corpus (consistent formulas, and inconsistent mutants of them): its decided
    fraction and wrong verdicts per set, printed; returns the wrong verdicts."""
    wrong = 0
    for name, path, bad in (
        ("consistent formulas", dimension_corpus.TRUE, "failed"),
        ("inconsistent formulas", dimension_corpus.FALSE, "passed"),
    ):
        formulas = dimension_corpus.load(path)
        counts = Counter(dimension_corpus.verdict(formula) for formula in formulas)
        decided = counts["passed"] + counts["failed"]
        wrong += counts[bad]
        share = decided / len(formulas)
        print(
            f"\ndimensions, {name}: {len(formulas)}; decided {decided}/{len(formulas)} = {share:.1%}; "
            f"error {counts['error']}; refused {counts['refused']}; wrong ({bad}) {counts[bad]}"
        )
    return float(wrong)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK} identities of each set")
    arguments = parser.parse_args()
    true, false = measure(arguments.quick)
    dimensions = decide_dimensions()
    return 0 if true["wrong"] == 0 and false["wrong"] == 0 and dimensions == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
