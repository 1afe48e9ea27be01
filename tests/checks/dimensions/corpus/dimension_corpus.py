"""The dimensions check's soundness corpus: consistent formulas of physics (`true.txt`) and inconsistent ones
made from them (`false.txt`), each mutant shown inconsistent by pint's quantity arithmetic, independently of
the check's own analysis.

    uv run python tests/checks/dimensions/corpus/dimension_corpus.py --write

writes `false.txt`: for each formula, its first one-symbol mutant (one symbol put for another, right side
first) that pint cannot evaluate (a sum of quantities of different dimensions, a function of a quantity
with one) or whose sides pint gives different dimensions. The test (`test_dimensions_corpus.py`) requires
that the check passes every true formula and fails every false one; the benchmark
(`benchmarks/bench_corpus.py`) prints the decided fraction of each set.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

import attrs

HERE: Final = Path(__file__).resolve().parent
TRUE: Final = HERE / "true.txt"
FALSE: Final = HERE / "false.txt"


@attrs.frozen
class Formula:
    line: int
    source: str
    units: dict[str, str]
    constants: dict[str, str]
    lhs: str
    rhs: str

    def inputs(self) -> dict[str, Any]:
        step: dict[str, Any] = {"target": "s-1", "equations": [], "dimensions": self.units, "lhs": self.lhs}
        step["rhs"] = self.rhs
        if self.constants:
            step["constants"] = self.constants
        return step


def _pairs(text: str) -> dict[str, str]:
    return dict(item.strip().split("=", 1) for item in text.split(";") if item.strip())


def _pairs_text(pairs: dict[str, str]) -> str:
    return "; ".join(f"{name}={value}" for name, value in pairs.items())


def load(path: Path) -> list[Formula]:
    found = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip() or raw.startswith("#"):
            continue
        parts = [part.strip() for part in raw.split("|")]
        line = int(parts.pop(0)) if path == FALSE else number
        source, units, constants, lhs, rhs = parts
        found.append(Formula(line, source, _pairs(units), _pairs(constants), lhs, rhs))
    return found


def consistent_by_pint(formula: Formula) -> bool:
    """Whether pint, evaluating each side with every symbol a quantity of its unit, finds the formula
    consistent: False when a sum, a function or the two sides mix dimensions."""
    import pint

    from cgx_checks.arithmetic.units import registry
    from cgx_checks.maths.read.parse import parse_side
    from cgx_core.numbers.constants import constant

    units = registry()
    values = {name: units.Quantity(1, unit) for name, unit in formula.units.items()}
    for name, named in formula.constants.items():
        found = constant(named)
        assert found is not None, named
        values[name] = units.Quantity(1, found.unit)
    try:
        left, right = (_value(parse_side(side), values, units) for side in (formula.lhs, formula.rhs))
        return bool(units.Quantity(left).dimensionality == units.Quantity(right).dimensionality)
    except (pint.DimensionalityError, pint.errors.DimensionalityError):
        return False


def _value(node: Any, values: dict[str, Any], units: Any) -> Any:
    from cgx_checks.maths.read.tree import Call, Name, Negation, Numeral, Power, Product, Sum

    match node:
        case Numeral():
            return Fraction(node.value) or Fraction(1)
        case Name(name="pi"):
            return math.pi
        case Name():
            return values[node.name]
        case Negation():
            return -_value(node.operand, values, units)
        case Sum():
            total = _value(node.terms[0][1], values, units)
            for _, term in node.terms[1:]:
                total = total + _value(term, values, units)  # pint raises for two dimensions
            return total
        case Product():
            product: Any = 1
            for operator, factor in node.factors:
                value = _value(factor, values, units)
                product = product * value if operator > 0 else product / value
            return product
        case Power():
            exponent = _value(node.exponent, values, units)
            return _value(node.base, values, units) ** float(exponent)
        case Call(name="sqrt"):
            return _value(node.arguments[0], values, units) ** 0.5
        case Call():
            argument = units.Quantity(_value(node.arguments[0], values, units))
            return units.Quantity(math.exp(argument.to("dimensionless").magnitude * 0))  # raises unless pure
    raise ValueError(node)


def mutants(formula: Formula) -> Iterator[Formula]:
    """One symbol put for another, on the right side first, then the left."""
    import re

    names = list(formula.units)
    for side in ("rhs", "lhs"):
        text = getattr(formula, side)
        for match in re.finditer(r"[A-Za-z_][A-Za-z_0-9]*", text):
            if match.group() not in names:
                continue
            for other in names:
                if other != match.group():
                    yield attrs.evolve(formula, **{side: text[: match.start()] + other + text[match.end() :]})


def generate(formulas: list[Formula]) -> list[Formula]:
    found = []
    for formula in formulas:
        assert consistent_by_pint(formula), formula
        for mutant in mutants(formula):
            if not consistent_by_pint(mutant):
                found.append(mutant)
                break
    return found


def write_false(found: list[Formula]) -> None:
    lines = [
        "# Generated by `uv run python tests/checks/dimensions/corpus/dimension_corpus.py --write` from true.txt:",
        "# each line is the first one-symbol mutant of a formula that pint shows inconsistent (see",
        "# dimension_corpus.py).",
        "# line of true.txt | source | units | constants | lhs | rhs",
    ]
    lines += [
        f"{item.line} | {item.source} | {_pairs_text(item.units)} | {_pairs_text(item.constants)} | {item.lhs} | "
        f"{item.rhs}"
        for item in found
    ]
    FALSE.write_text("\n".join(lines) + "\n", encoding="utf-8")


def verdict(formula: Formula) -> str:
    """The check's verdict, as run_checks reaches it (passed, failed, error or refused)."""
    from cgx_checks.dimension.decide import decide, read_step
    from cgx_core.errors import CgxError

    try:
        step = read_step(formula.inputs())
    except CgxError:
        return "refused"
    try:
        return decide(step).result
    except CgxError:
        return "error"


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: corpus.py --write")
    made = generate(load(TRUE))
    write_false(made)
    print(f"{len(made)} inconsistent formulas written to {FALSE}")
