"""Benchmark: rederive-maths (symbolic, sympy) against its fallback rederive-maths-numeric, step by step.

Run with `uv run python benchmarks/bench_maths.py [--repeats N] [--budget S]`.

Each realistic step (the papers' own, and the kinds of identities an agent checks) is decided by the
symbolic check and compared at 32 points by the numeric one, both through the worker process as the
plugins run them (the worker is started once, outside the timing). Each timed run renames the step's
symbols afresh, so that sympy's cache, in the worker or here, cannot answer from an earlier run. The
script prints the median time of each, the numeric fallback's cost as a ratio against the symbolic path,
and the same for the work alone (in this process, no pipe), all measured in this one run so the machine's
speed cancels out. The numeric check evaluates 64 expressions at 50 digits: it is not meant to be cheaper
than a symbolic pass, only bounded where the symbolic path is not.
"""

from __future__ import annotations

import argparse
import itertools
import re
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from cgx_checks.maths.caller.decider import SymbolicDecider
from cgx_checks.maths.caller.numeric import numeric_points
from cgx_checks.maths.read.step import parse_step
from cgx_checks.maths.worker.comparison import compare_at
from cgx_checks.maths.worker.decide import decide_step

STEPS: dict[str, dict[str, Any]] = {
    "dynonet factorisation": {
        "symbols": {"r": ["positive"], "b": ["real"], "q": ["nonzero"]},
        "lhs": "(1 - r*exp(I*b)*q^-1)*(1 - r*exp(-I*b)*q^-1)",
        "rhs": "1 - 2*r*cos(b)*q^-1 + r^2*q^-2",
    },
    "dynonet numerator (typo)": {
        "symbols": {"b_0": [], "b_1": [], "b_2": [], "a_1": ["real"], "a_2": ["real"], "q": ["nonzero"]},
        "lhs": "(b_0 + b_1*q^-1 + b_2*q^-2)/(1 + a_1*q^-1 + a_2*q^-2)",
        "rhs": "(b_0 + b_1*q^-1 + b_2*q^-1)/(1 + a_1*q^-1 + a_2*q^-2)",
    },
    "farr first = (false)": {
        "symbols": {"N": ["positive", "integer"], "s": ["real"], "V": ["positive"]},
        "lhs": "N/(s^2 + V)",
        "rhs": "N/(s^2 + V) - (s^2 + V)/N * N/(s^2 + V)^2",
    },
    "farr second =": {
        "symbols": {"N": ["positive", "integer"], "s": ["real"], "V": ["positive"]},
        "lhs": "N/(s^2 + V) - (s^2 + V)/N * N/(s^2 + V)^2",
        "rhs": "(N - 1)/(s^2 + V)",
    },
    "binomial (x+y)^8": {
        "symbols": {"x": ["real"], "y": ["real"]},
        "lhs": "(x + y)^8",
        "rhs": "x^8 + 8*x^7*y + 28*x^6*y^2 + 56*x^5*y^3 + 70*x^4*y^4 + 56*x^3*y^5 + 28*x^2*y^6 + 8*x*y^7 + y^8",
    },
    "partial fractions": {
        "symbols": {"s": ["nonzero"]},
        "lhs": "1/(s*(s + 1)*(s + 2))",
        "rhs": "1/(2*s) - 1/(s + 1) + 1/(2*(s + 2))",
    },
    "double angle": {"symbols": {"x": ["real"]}, "lhs": "tan(2*x)", "rhs": "2*tan(x)/(1 - tan(x)^2)"},
    "gaussian log-density": {
        "symbols": {"x": ["real"], "mu": ["real"], "sigma": ["positive"]},
        "lhs": "log(exp(-(x - mu)^2/(2*sigma^2))/(sigma*sqrt(2*pi)))",
        "rhs": "-(x - mu)^2/(2*sigma^2) - log(sigma) - log(2*pi)/2",
    },
    "atan(x) + atan(1/x) (undecided)": {"symbols": {"x": ["positive"]}, "lhs": "atan(x) + atan(1/x)", "rhs": "pi/2"},
}


_FRESH = itertools.count()


def renamed(step: dict[str, Any]) -> dict[str, Any]:
    """The step with its symbols renamed afresh, so sympy's cache cannot answer from an earlier repeat."""
    suffix = f"_v{next(_FRESH)}"
    names = sorted(step["symbols"], key=len, reverse=True)
    pattern = re.compile(r"\b(" + "|".join(re.escape(name) for name in names) + r")\b") if names else None

    def rename(text: str) -> str:
        return pattern.sub(lambda match: match.group(1) + suffix, text) if pattern else text

    return {
        "symbols": {name + suffix: assumptions for name, assumptions in step["symbols"].items()},
        "lhs": rename(step["lhs"]),
        "rhs": rename(step["rhs"]),
    }


def median_time(function: Callable[[dict[str, Any]], object], step: dict[str, Any], repeats: int) -> float:
    """The median wall-clock time of `repeats` calls on freshly renamed copies of a step, in seconds."""
    times = []
    for _ in range(repeats):
        fresh = renamed(step)
        start = time.perf_counter()
        function(fresh)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


Row = tuple[str, str, str, float, float, float, float]
"""A step: its name, the symbolic and numeric results, then the median times (seconds) of the symbolic and
numeric checks through the worker, and of their work alone in this process."""


def measure_steps(repeats: int, budget: float, steps: dict[str, dict[str, Any]] | None = None) -> list[Row]:
    """Time every step (all of STEPS by default) through the worker and in process."""
    rows: list[Row] = []
    with SymbolicDecider(budget=budget) as decider:
        decider.worker.start()  # start the worker (import sympy) outside the timing
        for name, step in (STEPS if steps is None else steps).items():
            outcome = decider.decide(step)
            numeric = decider.numeric_check(step)
            symbolic_time = median_time(decider.decide, step, repeats)
            numeric_time = median_time(decider.numeric_check, step, repeats)
            symbolic_work = median_time(lambda fresh: decide_step(parse_step(fresh)), step, repeats)
            numeric_work = median_time(lambda fresh: compare_at(fresh, numeric_points(fresh)[1]), step, repeats)
            result = outcome.result + (f" ({outcome.method})" if outcome.method else f" ({outcome.code})")
            rows.append((name, result, numeric.result, symbolic_time, numeric_time, symbolic_work, numeric_work))
    return rows


def print_rows(rows: list[Row], repeats: int) -> tuple[float, float]:
    """Print the table; returns the median ratio of the numeric fallback to the symbolic path, through the
    worker and for the work alone."""
    print(f"repeats: {repeats}; times are medians, in milliseconds; ratio = numeric / symbolic")
    header = f"{'step':34} {'symbolic':28} {'numeric':8} {'sym ms':>8} {'num ms':>8} {'ratio':>6} {'work ratio':>10}"
    print(header)
    print("-" * len(header))
    for name, result, numeric_result, symbolic, numeric, symbolic_work, numeric_work in rows:
        print(
            f"{name:34} {result:28} {numeric_result:8} {symbolic * 1e3:8.1f} {numeric * 1e3:8.1f} "
            f"{numeric / symbolic:6.2f} {numeric_work / symbolic_work:10.2f}"
        )
    ratio = statistics.median(row[4] / row[3] for row in rows)
    work_ratio = statistics.median(row[6] / row[5] for row in rows)
    print(
        f"median ratio of the numeric fallback to the symbolic path: {ratio:.2f}x (the work alone: {work_ratio:.2f}x)"
    )
    return ratio, work_ratio


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="timed runs of each check on each step (default 7)")
    parser.add_argument("--budget", type=float, default=10.0, help="the worker's budget per step, seconds")
    arguments = parser.parse_args(argv)
    print_rows(measure_steps(arguments.repeats, arguments.budget), arguments.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
