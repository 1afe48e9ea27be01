"""Benchmark: a calculus step decided by rederive-maths against the same decision made with sympy alone.

Run with `uv run python benchmarks/bench_calculus.py [--repeats N]`.

For each step (an integral by substitution, a derivative of an undefined function by the product rule, a
re-indexed sum, a limit, an improper integral, an erf identity, an approximate value), the subject is
the whole rederive-maths path a proposal takes: reading the encoding with the lark grammar (sympy
spelling, or the paper's LaTeX), the structural checks, the pipe to the worker and its decision there
(build, doit, the reductions it needs); the baseline is sympy alone in this process, on sympy objects
built directly in Python, deciding the step the cheapest way that works for it (`doit` then `simplify`,
or `evalf` for the approximate one). Both run on freshly named symbols each repeat, so that sympy's cache,
in the worker or here, cannot answer from an earlier one; the worker is started (sympy imported) outside
the timing. The figure is the median ratio, measured in this one run, so the machine's speed cancels out.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import sympy

from cgx_checks.maths.caller.decider import SymbolicDecider

_FRESH = itertools.count()

Step = tuple[Callable[[str], dict[str, Any]], Callable[[str], bool]]
"""A step: its encoding with symbols named with a suffix, and sympy alone deciding it with that suffix."""


def _substitution(suffix: str) -> bool:
    x, u = sympy.symbols(f"x{suffix} u{suffix}", real=True)
    lhs = sympy.Integral(2 * x * sympy.exp(x**2), (x, 0, 1))
    rhs = sympy.Integral(sympy.exp(u), (u, 0, 1))
    return bool(sympy.simplify(lhs.doit() - rhs.doit()) == 0)


def _product_rule(suffix: str) -> bool:
    r = sympy.Symbol(f"r{suffix}", positive=True)
    q = sympy.Function(f"Q{suffix}")
    lhs = sympy.Derivative(r * q(r), r)
    rhs = q(r) + r * sympy.Derivative(q(r), r)
    return bool(sympy.simplify(lhs.doit() - rhs.doit()) == 0)


def _sum(suffix: str) -> bool:
    k = sympy.Symbol(f"k{suffix}", integer=True)
    n = sympy.Symbol(f"n{suffix}", integer=True, positive=True)
    lhs = sympy.Sum(k**2, (k, 1, n))
    rhs = sympy.Sum((k + 1) ** 2, (k, 0, n - 1))
    return bool(sympy.simplify(lhs.doit() - rhs.doit()) == 0)


def _limit(suffix: str) -> bool:
    x = sympy.Symbol(f"x{suffix}", real=True)
    return bool(sympy.simplify(sympy.Limit((1 - sympy.cos(x)) / x**2, x, 0).doit() - sympy.Rational(1, 2)) == 0)


def _improper(suffix: str) -> bool:
    x = sympy.Symbol(f"x{suffix}", real=True)
    return bool(sympy.simplify(sympy.Integral(x * sympy.exp(-x), (x, 0, sympy.oo)).doit() - 1) == 0)


def _erf(suffix: str) -> bool:
    x, t = sympy.symbols(f"x{suffix} t{suffix}", real=True)
    lhs = sympy.Integral(sympy.exp(-(t**2)), (t, 0, x))
    return bool(sympy.simplify(lhs.doit() - sympy.sqrt(sympy.pi) / 2 * sympy.erf(x)) == 0)


def _approximate(suffix: str) -> bool:
    value = sympy.sqrt(sympy.Rational(58, 10**11)).evalf(30)
    return bool(abs(value - sympy.Rational(24, 10**6)) <= sympy.Rational(5, 10**7))


STEPS: dict[str, Step] = {
    "integral by substitution": (
        lambda s: {
            "symbols": {f"x{s}": ["real"], f"u{s}": ["real"]},
            "lhs": f"Integral(2*x{s}*exp(x{s}^2), (x{s}, 0, 1))",
            "rhs": f"Integral(exp(u{s}), (u{s}, 0, 1))",
        },
        _substitution,
    ),
    "product rule, Q undefined": (
        lambda s: {
            "symbols": {f"r{s}": ["positive"]},
            "functions": [f"Q{s}"],
            "lhs": f"Derivative(r{s}*Q{s}(r{s}), r{s})",
            "rhs": f"Q{s}(r{s}) + r{s}*Derivative(Q{s}(r{s}), r{s})",
        },
        _product_rule,
    ),
    "sum re-indexed (LaTeX)": (
        lambda s: {
            "symbols": {f"k{s}": ["integer"], f"n{s}": ["positive", "integer"]},
            "latex": f"\\sum_{{k{s}=1}}^{{n{s}}} k{s}^2 = \\sum_{{k{s}=0}}^{{n{s}-1}} (k{s}+1)^2",
        },
        _sum,
    ),
    "limit": (
        lambda s: {"symbols": {f"x{s}": ["real"]}, "lhs": f"Limit((1 - cos(x{s}))/x{s}^2, x{s}, 0)", "rhs": "1/2"},
        _limit,
    ),
    "improper integral": (
        lambda s: {"symbols": {f"x{s}": ["real"]}, "lhs": f"Integral(x{s}*exp(-x{s}), (x{s}, 0, oo))", "rhs": "1"},
        _improper,
    ),
    "erf identity": (
        lambda s: {
            "symbols": {f"x{s}": ["real"], f"t{s}": ["real"]},
            "lhs": f"Integral(exp(-t{s}^2), (t{s}, 0, x{s}))",
            "rhs": f"sqrt(pi)/2*erf(x{s})",
        },
        _erf,
    ),
    "approximate value (LaTeX)": (
        lambda s: {"symbols": {}, "latex": "\\sqrt{5.8\\times10^{-10}} \\approx 2.4\\times10^{-5}"},
        _approximate,
    ),
}

Row = tuple[str, str, float, float]
"""A step: its name, the decision, and the median times (seconds) through rederive-maths and with sympy alone."""


def measure(repeats: int, steps: dict[str, Step] | None = None) -> list[Row]:
    """Time each step through rederive-maths (in the worker) and with sympy alone, alternately."""
    rows: list[Row] = []
    with SymbolicDecider() as decider:
        decider.worker.start()
        for name, (encoding, alone) in (STEPS if steps is None else steps).items():
            outcome = decider.decide(encoding("_w"))
            assert alone("_w"), name
            ours, baseline = [], []
            for _ in range(repeats):
                suffix = f"_{next(_FRESH)}"
                start = time.perf_counter()
                decider.decide(encoding(suffix))
                ours.append(time.perf_counter() - start)
                start = time.perf_counter()
                alone(suffix)
                baseline.append(time.perf_counter() - start)
            decided = outcome.result + (f" ({outcome.method})" if outcome.method else f" ({outcome.code})")
            rows.append((name, decided, statistics.median(ours), statistics.median(baseline)))
    return rows


def print_rows(rows: list[Row], repeats: int) -> float:
    """Print the table; returns the median ratio of rederive-maths to sympy alone."""
    print(f"repeats: {repeats}; medians in milliseconds; ratio = rederive-maths / sympy alone")
    header = f"{'step':28} {'decided':22} {'ours ms':>9} {'sympy ms':>9} {'ratio':>6}"
    print(header)
    print("-" * len(header))
    for name, decided, ours, baseline in rows:
        print(f"{name:28} {decided:22} {ours * 1e3:9.1f} {baseline * 1e3:9.1f} {ours / baseline:6.2f}")
    ratio = statistics.median(row[2] / row[3] for row in rows)
    print(f"median ratio of rederive-maths to sympy alone on a calculus step: {ratio:.2f}x")
    return ratio


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed runs of each step (default 5)")
    arguments = parser.parse_args(argv)
    print_rows(measure(arguments.repeats), arguments.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
