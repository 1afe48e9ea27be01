"""Benchmark: recompute-numbers' lark parse + exact evaluation against an `ast`-whitelist Fraction evaluator.

Run with `uv run python benchmarks/bench_arithmetic.py [--repeats N] [--count N] [--seed N]`.

Both sides turn the same few hundred realistic expressions (ratios, percentages, differences, counts,
powers of ten, as an agent writes them to recompute a paper's numbers) into exact Fractions; the script
checks that they agree, then prints the median time per expression of each and their ratio, all measured
in this one run so the machine's speed cancels out. The target is a ratio of at most 1.5.

The baseline is the evaluator the specification first described: `ast.parse` (C) and a whitelist walk with
`fractions.Fraction` from each numeral's digits. It shares our caps on exponents so it is as safe as a tiny
evaluator can be, but it does not report columns, bound result sizes or expression length.
"""

from __future__ import annotations

import argparse
import ast
import cProfile
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction

from cgx_checks.arithmetic import evaluate, parse_expression
from cgx_checks.arithmetic import measure as measure_tree

_BINARY = {
    ast.Add: Fraction.__add__,
    ast.Sub: Fraction.__sub__,
    ast.Mult: Fraction.__mul__,
    ast.Div: Fraction.__truediv__,
}


def baseline(expression: str) -> Fraction:
    """Parse with `ast` and evaluate numerals, + - * / **, signs and parentheses with exact Fractions.

    Each numeral's value comes from its digits as written (its slice of the source; the expressions here
    are ASCII, so ast's byte offsets are character offsets), never from the float ast made of it.
    """
    return _walk(ast.parse(expression, mode="eval").body, expression)


def _walk(node: ast.expr, source: str) -> Fraction:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return Fraction(source[node.col_offset : node.end_col_offset])
    if isinstance(node, ast.BinOp):
        left, right = _walk(node.left, source), _walk(node.right, source)
        if isinstance(node.op, ast.Pow):
            if right.denominator != 1 or abs(right) > 100:
                raise ValueError("exponent")
            return left**right.numerator
        operation = _BINARY.get(type(node.op))
        if operation is None:
            raise ValueError("operator")
        return operation(left, right)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        operand = _walk(node.operand, source)
        return -operand if isinstance(node.op, ast.USub) else operand
    raise ValueError("not allowed")


def ours(expression: str) -> Fraction:
    """recompute-numbers' own path: the lark grammar, then the exact evaluator."""
    return evaluate(parse_expression(expression))


def realistic_expressions(count: int, seed: int) -> list[str]:
    """Expressions shaped like the arithmetic in papers, from a seeded generator (same seed, same list)."""
    rng = random.Random(seed)

    def numeral() -> str:
        kind = rng.randrange(4)
        if kind == 0:
            return str(rng.randrange(1, 100_000))
        if kind == 1:
            return f"{rng.randrange(0, 1000)}.{rng.randrange(0, 100):02d}"
        if kind == 2:
            return f"{rng.randrange(1, 10)}.{rng.randrange(0, 10)}e-{rng.randrange(1, 9)}"
        return f"0.{rng.randrange(1, 1000):03d}"

    templates: list[Callable[[], str]] = [
        lambda: f"{numeral()} / {numeral()}",
        lambda: f"({numeral()} - {numeral()}) / {numeral()} * 100",
        lambda: f"{numeral()} * {numeral()}",
        lambda: f"({numeral()} + {numeral()}) / 2",
        lambda: f"({numeral()} - {numeral()}) / {numeral()} + 1",
        lambda: f"{numeral()} * 10**-{rng.randrange(1, 9)}",
        lambda: f"{numeral()} - {numeral()}",
        lambda: f"{numeral()} + {numeral()} + {numeral()} + {numeral()}",
        lambda: f"-{numeral()} * {numeral()} / ({numeral()} + {numeral()})",
        lambda: f"{rng.randrange(2, 20)} ** {rng.randrange(2, 12)}",
    ]
    return [rng.choice(templates)() for _ in range(count)]


def run_once(function: Callable[[str], object], expressions: list[str]) -> float:
    """The mean time per expression of one pass over the list, in seconds."""
    start = time.perf_counter()
    for expression in expressions:
        function(expression)
    return (time.perf_counter() - start) / len(expressions)


def measure(expressions: list[str], repeats: int) -> tuple[float, float, float]:
    """Median time per expression of the baseline and of ours, and the median of their per-pass ratios.

    The two sides alternate pass by pass, so a machine that gets busier or quieter during the run (other
    processes on shared cores) slows both alike and the ratio stays meaningful.
    """
    baseline_times: list[float] = []
    ours_times: list[float] = []
    for _ in range(repeats):
        baseline_times.append(run_once(baseline, expressions))
        ours_times.append(run_once(ours, expressions))
    ratios = [mine / theirs for mine, theirs in zip(ours_times, baseline_times, strict=True)]
    return statistics.median(baseline_times), statistics.median(ours_times), statistics.median(ratios)


def phases(expressions: list[str], repeats: int) -> dict[str, float]:
    """Median time per expression of each phase alone: where the difference comes from."""
    our_trees = [parse_expression(expression) for expression in expressions]
    ast_trees = [ast.parse(expression, mode="eval").body for expression in expressions]
    pairs = list(zip(ast_trees, expressions, strict=True))
    passes: dict[str, Callable[[], object]] = {
        "our parse (lark)": lambda: [parse_expression(expression) for expression in expressions],
        "ast.parse": lambda: [ast.parse(expression, mode="eval") for expression in expressions],
        "our evaluation": lambda: [evaluate(tree) for tree in our_trees],
        "ast walk with Fraction": lambda: [_walk(tree, source) for tree, source in pairs],
    }
    timings: dict[str, list[float]] = {name: [] for name in passes}
    for _ in range(repeats):
        for name, run in passes.items():
            start = time.perf_counter()
            run()
            timings[name].append((time.perf_counter() - start) / len(expressions))
    return {name: statistics.median(values) for name, values in timings.items()}


def run_benchmark(count: int, repeats: int, seed: int, *, profile: bool) -> tuple[float, float, float]:
    """Check that both sides agree, then print and return the medians of the baseline and of ours (seconds
    per expression) and the median of their per-pass ratios.

    Raises:
        ValueError: the two sides disagree on an expression (the benchmark would compare different work).
    """
    expressions = realistic_expressions(count, seed)
    for expression in expressions:
        if ours(expression) != baseline(expression):
            raise ValueError(f"disagreement on {expression!r}: {ours(expression)} != {baseline(expression)}")
    ours(expressions[0])  # build the parser outside the timing, as a long-lived process does once
    baseline_time, ours_time, ratio = measure(expressions, repeats)
    print(f"expressions: {len(expressions)} (seed {seed}), repeats: {repeats}")
    print(f"ast + Fraction baseline: {baseline_time * 1e6:8.1f} us per expression")
    print(f"recompute-numbers:       {ours_time * 1e6:8.1f} us per expression")
    print(f"ratio (median of per-pass ratios): {ratio:.2f}x (target <= 1.5x)")
    print("phases, us per expression:")
    for name, seconds in phases(expressions, repeats).items():
        print(f"  {name:24} {seconds * 1e6:8.1f}")
    if profile:
        profiler = cProfile.Profile()
        profiler.runcall(lambda: [ours(expression) for expression in expressions])
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(15)
    return baseline_time, ours_time, ratio


# -- units: a unit expression against the same expression without its units ------------------------------

_UNITS = [("min", "h"), ("h", "day"), ("s", "ms"), ("m/s", "km/h"), ("Hz", "kHz"), ("mm", "m"), ("GB", "MB")]


def unit_expressions(count: int, seed: int) -> list[tuple[str, str]]:
    """(with units, without units) pairs of the same arithmetic: sums of durations, speeds times times."""
    rng = random.Random(seed)
    pairs = []
    for _ in range(count):
        unit, other = rng.choice(_UNITS)
        a, b, c = rng.randrange(1, 1000), rng.randrange(1, 1000), f"{rng.randrange(1, 100)}.{rng.randrange(10)}"
        template = rng.randrange(3)
        if template == 0:
            pairs.append((f"{a} {unit} + {b} {other} + {c} {unit}", f"{a} + {b} + {c}"))
        elif template == 1:
            pairs.append((f"({a} {unit} - {b} {other}) / {c} {unit}", f"({a} - {b}) / {c}"))
        else:
            pairs.append((f"{a} {unit} * {c} / {b}", f"{a} * {c} / {b}"))
    return pairs


def with_units(expression: str) -> object:
    """recompute-numbers' path for an expression with units: parse, then measure (pint's exact factors)."""
    return measure_tree(parse_expression(expression), 64)


def run_units_benchmark(count: int, repeats: int, seed: int) -> tuple[float, float, float]:
    """Median time per expression of the plain path and the unit path, and the median of their ratios."""
    pairs = unit_expressions(count, seed)
    plain = [without for _, without in pairs]
    united = [expression for expression, _ in pairs]
    with_units(united[0])  # load pint and build its registry outside the timing, as a long process does once
    plain_times: list[float] = []
    unit_times: list[float] = []
    for _ in range(repeats):
        plain_times.append(run_once(ours, plain))
        unit_times.append(run_once(with_units, united))
    ratios = [mine / theirs for mine, theirs in zip(unit_times, plain_times, strict=True)]
    plain_time, unit_time, ratio = (
        statistics.median(plain_times),
        statistics.median(unit_times),
        statistics.median(ratios),
    )
    print(f"unit expressions: {len(pairs)} (seed {seed}), repeats: {repeats}")
    print(f"plain expression (parse + exact evaluation):      {plain_time * 1e6:8.1f} us per expression")
    print(f"the same with units (parse + pint exact factors): {unit_time * 1e6:8.1f} us per expression")
    print(f"ratio (median of per-pass ratios): {ratio:.2f}x")
    return plain_time, unit_time, ratio


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=400, help="expressions (default 400)")
    parser.add_argument("--repeats", type=int, default=15, help="timed runs of each side (default 15)")
    parser.add_argument("--seed", type=int, default=20260101, help="seed of the expression generator")
    parser.add_argument("--profile", action="store_true", help="also print a profile of our side")
    arguments = parser.parse_args(argv)
    try:
        run_benchmark(arguments.count, arguments.repeats, arguments.seed, profile=arguments.profile)
        run_units_benchmark(arguments.count, arguments.repeats, arguments.seed)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
