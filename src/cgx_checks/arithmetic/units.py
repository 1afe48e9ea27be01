"""What a unit means: its exact factor to the base units and its dimension, from pint, never from the agent.

The numeral reader (`cgx_core.numbers.units`) says which words are units and names them as pint does;
this module asks pint (with `non_int_type=Fraction`, so every definition is read as an exact rational:
1 inch = 127/5000 m, 1 eV = 801088317/5e27 J) for each term's factor to the SI base units and its
dimension. A quantity is then its value in base units times a dimension; `90 min + 20 h` is
(5400 + 72000) s, and the result is converted to the reported unit exactly. pint counts bits and bytes
as dimensionless; here they get the dimension `[information]`, so 8 GB never adds to a plain number.

A counting unit the rubric declares (`count:C`, `cgx_core.numbers.counts`) never reaches pint: it is a count,
factor 1, of its own dimension `[count:C]`, so "120 C / 4 h" is a count per time, "120 C + 4 h" is refused,
and two different counts (or a count and a unit) never cancel. The dimension is the term's name itself, so
it needs no registry per run and cannot leak from one run's declaration into another's.

pint is imported only when an expression or a reported result has a unit (its import and registry cost
about 0.7 s of CPU once per process), and its version is recorded with every check that used it.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from cgx_checks.arithmetic.interval import Arithmetic, Interval, exact
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_core.errors import CgxError
from cgx_core.numbers.counts import is_count_term
from cgx_core.numbers.units import INFORMATION, Power, Unit, product_text

type Dimension = tuple[tuple[str, Power], ...]
"""A dimension as sorted (base dimension, exponent) pairs; () is dimensionless. An exponent is whole, or a
fraction where a root was taken (`sqrt(100 d)` is [time]^(1/2))."""

LIBRARY = "pint"


@functools.cache
def registry() -> Any:
    """pint's default registry with exact rational magnitudes, built once per process, cached nowhere on disk."""
    import pint

    return pint.UnitRegistry(non_int_type=Fraction, cache_folder=None)


def library_version() -> str:
    from importlib.metadata import version

    return version(LIBRARY)


@functools.cache
def _term(name: str) -> tuple[Fraction, Dimension]:
    if is_count_term(name):
        return Fraction(1), ((f"[{name}]", 1),)
    units = registry()
    try:
        quantity = units.Quantity(Fraction(1), name).to_base_units()
    except Exception as error:  # pint's UndefinedUnitError, DimensionalityError, OffsetUnitCalculusError
        raise CgxError(
            ArithmeticCode.UNIT_INVALID, f"the units library cannot scale the unit {name!r}: {error}"
        ) from None
    dimension = {str(key): int(value) for key, value in quantity.dimensionality.items() if value}
    if any(name.endswith(base) for base in INFORMATION):
        dimension["[information]"] = 1
    return Fraction(quantity.magnitude), tuple(sorted(dimension.items()))


def scale_of(unit: Unit) -> tuple[Fraction, Dimension]:
    """The exact factor from `unit` to the base units, and its dimension, for a unit of whole powers (a
    fractional power's factor is irrational: `unit_scale`)."""
    factor = Fraction(1)
    for name, power in unit.terms:
        assert not isinstance(power, Fraction), unit
        factor *= _term(name)[0] ** power
    return factor, unit_dimension(unit)


def unit_scale(unit: Unit, arithmetic: Arithmetic) -> tuple[Interval, Dimension]:
    """The factor from `unit` to the base units as an enclosure at the arithmetic's precision (exact unless a
    term has a fractional power: `d^(-1/2)` is 1/sqrt(86400) s^(-1/2)), and its dimension."""
    if not any(isinstance(power, Fraction) for _, power in unit.terms):
        return exact(scale_of(unit)[0]), unit_dimension(unit)
    factor = exact(Fraction(1))
    for name, power in unit.terms:
        term = Fraction(_term(name)[0]) ** power.numerator
        part = arithmetic.root(exact(term), power.denominator) if isinstance(power, Fraction) else exact(term)
        factor = arithmetic.mul(factor, part)
    return factor, unit_dimension(unit)


def unit_dimension(unit: Unit) -> Dimension:
    """The dimension of a unit."""
    dimension: dict[str, Power] = {}
    for name, power in unit.terms:
        for base, exponent in _term(name)[1]:
            dimension[base] = whole_or_fraction(dimension.get(base, 0) + exponent * power)
    return tuple(sorted((base, exponent) for base, exponent in dimension.items() if exponent))


def whole_or_fraction(value: Fraction | int) -> Power:
    """An exponent as an int when whole, else a Fraction (so whole dimensions read and print as they did)."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else value


def scale_of_text(text: str) -> tuple[Fraction, Dimension]:
    """The exact factor to the base units and the dimension of a unit written as pint reads it (`m s^-1`,
    `m^3 kg^-1 s^-2`, `dimensionless`): a physical constant's unit, from CODATA's table."""
    return _term("" if text == "dimensionless" else text)


def dimension_text(dimension: Dimension) -> str:
    """A dimension as a person reads it: `[length]/[time]`, or `dimensionless`."""
    return product_text(dimension) if dimension else "dimensionless"
