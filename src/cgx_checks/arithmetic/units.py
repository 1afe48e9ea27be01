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

from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_core.errors import CgxError
from cgx_core.numbers.counts import is_count_term
from cgx_core.numbers.units import INFORMATION, Unit

type Dimension = tuple[tuple[str, int], ...]
"""A dimension as sorted (base dimension, exponent) pairs; () is dimensionless."""

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
    """The exact factor from `unit` to the base units, and its dimension."""
    factor = Fraction(1)
    dimension: dict[str, int] = {}
    for name, power in unit.terms:
        term_factor, term_dimension = _term(name)
        factor *= term_factor**power
        for base, exponent in term_dimension:
            dimension[base] = dimension.get(base, 0) + exponent * power
    return factor, tuple(sorted((base, exponent) for base, exponent in dimension.items() if exponent))


def dimension_text(dimension: Dimension) -> str:
    """A dimension as a person reads it: `[length]/[time]`, or `dimensionless`."""
    if not dimension:
        return "dimensionless"
    upper = [base if power == 1 else f"{base}^{power}" for base, power in dimension if power > 0]
    lower = [base if power == -1 else f"{base}^{-power}" for base, power in dimension if power < 0]
    return "*".join(upper or ["1"]) + ("/" + "*".join(lower) if lower else "")
