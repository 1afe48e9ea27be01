"""Points in the symbols' domains: the witnesses that prove a step false, and the numeric fallback's draws.

A point gives each declared symbol an exact value: a real number, or a complex one as its real and
imaginary parts. Values are recorded as exact text (`2/7`, `-3.141592653590`), so substituting a recorded
point rebuilds exactly the numbers that were used, on any machine.

The numeric fallback draws in each symbol's domain (`encoding.Domain`):

* integer: uniform on -20..20; positive 1..40, negative -40..-1, nonnegative 0..40, nonpositive -40..0,
  nonzero -20..20 without 0;
* real and rational: uniform on [-10, 10] on the grid of 10^-12 (every such decimal is rational);
  positive (or nonnegative) log-uniform on [1e-3, 1e3] rounded to 12 significant digits, negative (or
  nonpositive) its opposite, nonzero as real without 0;
* complex: real and imaginary parts each uniform on [-10, 10] as for real, nonzero without 0;
* a symbol whose assumptions leave only 0 (nonnegative and nonpositive) is 0.

The log-uniform draw computes 10^t with `decimal` (correctly rounded), not the platform's float `pow`,
so the same seed gives the same digits everywhere.
"""

from __future__ import annotations

import decimal
import itertools
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Final

from cgx_checks.maths.read.encoding import Domain, Encoding

type Value = tuple[Fraction, Fraction]
"""A value: its real and imaginary parts, exact."""

type ValueJson = str | dict[str, str]
"""A value as recorded: exact text for a real symbol, {"re": ..., "im": ...} for a complex one."""

_GRID: Final = 10**12
_DECIMALS: Final = decimal.Context(prec=40, rounding=decimal.ROUND_HALF_EVEN)
_SIGNIFICANT: Final = decimal.Context(prec=12, rounding=decimal.ROUND_HALF_EVEN)
_LN10: Final = _DECIMALS.ln(decimal.Decimal(10))


def exact_text(value: Fraction) -> str:
    """A fraction as exact text: a plain decimal when it has one (0.125), else `p/q`."""
    denominator = value.denominator
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    if denominator != 1:
        return f"{value.numerator}/{value.denominator}"
    places = max(twos, fives)
    if places == 0:
        return str(value.numerator)
    scaled = abs(value.numerator) * 10**places // value.denominator
    digits = str(scaled).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def value_json(value: Value, domain: Domain) -> ValueJson:
    """How a value is recorded: text for a real domain, {"re", "im"} for the complex one."""
    if domain.kind == "complex":
        return {"re": exact_text(value[0]), "im": exact_text(value[1])}
    return exact_text(value[0])


def value_from_json(raw: ValueJson) -> Value:
    """A recorded value back (ValueError if it is not one this module records)."""
    if isinstance(raw, str):
        return (Fraction(raw), Fraction(0))
    return (Fraction(raw["re"]), Fraction(raw["im"]))


def point_json(point: Mapping[str, Value], encoding: Encoding) -> dict[str, ValueJson]:
    """A point as recorded, symbols by name."""
    return {name: value_json(point[name], encoding.domain(name)) for name in sorted(point)}


def witness_points(encoding: Encoding, count: int = 3) -> list[dict[str, Value]]:
    """A few fixed small exact points in the symbols' domains, where a false step is shown false.

    They are the same for every step, chosen to be unremarkable (no 0, 1, or simple multiple of pi) and
    different for each symbol of a point, so that `x - y` is not 0 there by accident.
    """
    points = []
    for index in range(count):
        point = {}
        for position, (name, _) in enumerate(encoding.symbols):
            point[name] = _witness(encoding.domain(name), position + 7 * index, (position + index) % 2 == 0)
        points.append(point)
    return points


def _witness(domain: Domain, slot: int, positive: bool) -> Value:
    """The witness value of the `slot`-th (symbol, point) pair: signs alternate between points."""
    magnitude = Fraction(2 * slot + 3, 5 * slot + 7)
    if slot % 2:
        magnitude = 1 / magnitude
    if domain.kind == "integer":
        magnitude = Fraction(2 + slot)
    sign = _sign(domain.signs, positive)
    if domain.kind == "complex":
        imaginary = Fraction(3 * slot + 2, 4 * slot + 9)
        return (sign * magnitude, imaginary if positive else -imaginary)
    return (sign * magnitude, Fraction(0))


def _sign(signs: frozenset[int], positive_first: bool) -> int:
    if signs == frozenset({0}):
        return 0
    if 1 not in signs:
        return -1
    if -1 not in signs:
        return 1
    return 1 if positive_first else -1


def draw_points(encoding: Encoding, seed: int, count: int) -> list[dict[str, ValueJson]]:
    """`count` points drawn from `random.Random(seed)`, symbols in name order, as recorded."""
    generator = random.Random(seed)
    points = []
    for _ in range(count):
        point: dict[str, ValueJson] = {}
        for name, _ in encoding.symbols:
            point[name] = _draw(encoding.domain(name), generator)
        points.append(point)
    return points


def _draw(domain: Domain, generator: random.Random) -> ValueJson:
    if domain.signs == frozenset({0}):
        return {"re": "0", "im": "0"} if domain.kind == "complex" else "0"
    if domain.kind == "integer":
        return str(_draw_integer(domain.signs, generator))
    if domain.kind == "complex":
        while True:
            real, imaginary = _uniform(generator), _uniform(generator)
            if 0 in domain.signs or real or imaginary:
                return {"re": exact_text(real), "im": exact_text(imaginary)}
    if domain.signs <= {0, 1}:
        return _log_uniform(generator, 1)
    if domain.signs <= {-1, 0}:
        return _log_uniform(generator, -1)
    while True:
        value = _uniform(generator)
        if value or 0 in domain.signs:
            return exact_text(value)


_INTEGER_RANGES: Final[Mapping[frozenset[int], tuple[int, int]]] = {
    frozenset({1}): (1, 40),
    frozenset({-1}): (-40, -1),
    frozenset({0, 1}): (0, 40),
    frozenset({-1, 0}): (-40, 0),
}


def _draw_integer(signs: frozenset[int], generator: random.Random) -> int:
    if signs in _INTEGER_RANGES:
        return generator.randint(*_INTEGER_RANGES[signs])
    while True:
        value = generator.randint(-20, 20)
        if value or 0 in signs:
            return value


def _uniform(generator: random.Random) -> Fraction:
    """Uniform on [-10, 10] on the grid of 10^-12."""
    return Fraction(generator.randint(-10 * _GRID, 10 * _GRID), _GRID)


def _log_uniform(generator: random.Random, sign: int) -> str:
    """10^t for t uniform on [-3, 3], rounded to 12 significant digits, with `sign`."""
    exponent = decimal.Decimal(-3) + decimal.Decimal(6 * generator.randint(0, _GRID)) / _GRID
    value = _SIGNIFICANT.plus(_DECIMALS.exp(_DECIMALS.multiply(exponent, _LN10)))
    text = format(value, "f")
    return text if sign > 0 else "-" + text


_CONDITION_GRID: Final = tuple(
    Fraction(text)
    for text in (
        "1/2",
        "-1/2",
        "0",
        "1",
        "-1",
        "3/2",
        "-3/2",
        "2",
        "-2",
        "3/4",
        "1/4",
        "-3/4",
        "-1/4",
        "5/2",
        "-5/2",
        "3",
        "-3",
        "1/3",
        "-1/3",
        "5",
        "-5",
        "10",
        "-10",
        "4/3",
        "-4/3",
    )
)
_INTEGER_GRID: Final = tuple(Fraction(value) for value in (1, -1, 0, 2, -2, 3, -3, 4, -4, 5, -5, 10, -10, 7, -7))
_COMPLEX_EXTRA: Final = ((Fraction(1, 2), Fraction(1, 3)), (Fraction(-1, 3), Fraction(1, 2)))
CONDITION_POINTS: Final = 400
"""At most this many grid points look for a witness that two conditions differ."""


def condition_points(encoding: Encoding, names: list[str]) -> list[dict[str, Value]]:
    """Exact points on a grid of small numbers in each symbol's domain (halves, quarters, thirds, small
    integers: where the boundaries of the conditions papers write usually lie), at most
    `CONDITION_POINTS` of them, the first values of each symbol's list first."""
    if not names:
        return [{}]
    per_symbol = max(2, int(CONDITION_POINTS ** (1 / len(names)) + 1e-9))
    values = [_grid(encoding.domain(name))[:per_symbol] for name in names]
    combinations = itertools.islice(itertools.product(*values), CONDITION_POINTS)
    return [dict(zip(names, combination, strict=True)) for combination in combinations]


def _grid(domain: Domain) -> list[Value]:
    source = _INTEGER_GRID if domain.kind == "integer" else _CONDITION_GRID
    found: list[Value] = [
        (value, Fraction(0)) for value in source if (1 if value > 0 else -1 if value < 0 else 0) in domain.signs
    ]
    if domain.kind == "complex":
        found.extend(_COMPLEX_EXTRA)
    return found
