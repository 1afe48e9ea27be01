"""What a declared unit means as a dimension, read as recompute-numbers reads units, and the physical constants.

A symbol's dimension is declared as the paper defines the symbol: a unit (`m`, `km/h`, `\\mathrm{m\\,s^{-1}}`,
`J s`, `kg m^2 s^-2`), a dimension in pint's brackets (`[length]/[time]`), or `1` for a pure number. A unit is
read first by the numeral reader's unit vocabulary (`cgx_core.numbers.units`, the words recompute-numbers
reads after a numeral) and given its meaning by the same pint registry recompute-numbers uses
(`cgx_checks.arithmetic.units`); what that vocabulary does not know (`C`, `T`, `J s`, `F m^-1`) is read by pint
itself. A physical constant (`c`, `G`, `hbar`) has the unit CODATA gives it (`cgx_core.numbers.constants`).

A dimension is a tuple of (base dimension, exponent) pairs with exact fractional exponents (a square root of a
length is `[length]^(1/2)`), sorted, zeros left out: `()` is dimensionless.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from cgx_checks.arithmetic.units import dimension_text as units_dimension_text
from cgx_checks.arithmetic.units import registry, scale_of, whole_or_fraction
from cgx_checks.dimension.codes import DimensionCode
from cgx_core.errors import CgxError
from cgx_core.numbers.constants import Constant, constant
from cgx_core.numbers.units import INFORMATION, clean_unit_text, read_unit

type Dimension = tuple[tuple[str, Fraction], ...]

DIMENSIONLESS: Final[Dimension] = ()
_PURE: Final = frozenset({"", "1", "dimensionless", "none"})


def dimension_of_unit(text: str) -> Dimension:
    """The dimension a declared unit or dimension stands for, or CgxError `unit-unknown`."""
    written = " ".join(text.split())
    if written.lower() in _PURE:
        return DIMENSIONLESS
    if "[" in written:
        return _pint_dimension(written, dimensions=True)
    cleaned = " ".join(clean_unit_text(written).replace("\\,", " ").replace("~", " ").split())
    found = read_unit(cleaned, alone=True)
    if found is not None and found[1] == len(cleaned):
        _, dimension = scale_of(found[0])
        return tuple((base, Fraction(power)) for base, power in dimension)
    return _pint_dimension(cleaned or written, dimensions=False)


def _pint_dimension(text: str, *, dimensions: bool) -> Dimension:
    units = registry()
    try:
        found = units.get_dimensionality(text) if dimensions else units.parse_units(text).dimensionality
        pairs = {str(base): Fraction(power) for base, power in found.items() if power}
    except Exception:  # pint's UndefinedUnitError, DefinitionSyntaxError, or a parser's own error
        raise CgxError(
            DimensionCode.UNIT_UNKNOWN,
            f"{text[:60]!r} is not a unit or dimension the units library reads; write a unit (m, km/h, J s, "
            "kg m^2 s^-2), a dimension ([length]/[time]) or 1 for a pure number",
        ) from None
    if not dimensions and any(text.endswith(base) for base in INFORMATION):
        pairs["[information]"] = Fraction(1)
    return tuple(sorted(pairs.items()))


def named_constant(name: str) -> Constant:
    """The CODATA constant a name or alias names, or CgxError `constant-unknown`."""
    found = constant(name)
    if found is None:
        raise CgxError(
            DimensionCode.CONSTANT_UNKNOWN,
            f"{name[:60]!r} is not a constant of the CODATA table; name one by its symbol (c, G, h, hbar, k_B, e, "
            "m_e, epsilon_0, mu_0, N_A, R, sigma_SB) or snake-case name (speed_of_light), or declare the symbol's "
            "unit in dimensions instead",
        )
    return found


def multiply(first: Dimension, second: Dimension, power: Fraction = Fraction(1)) -> Dimension:
    """first * second^power."""
    merged = dict(first)
    for base, exponent in second:
        merged[base] = merged.get(base, Fraction(0)) + exponent * power
    return tuple(sorted((base, exponent) for base, exponent in merged.items() if exponent))


def scaled(dimension: Dimension, power: Fraction) -> Dimension:
    """dimension^power."""
    return multiply(DIMENSIONLESS, dimension, power)


def dimension_text(dimension: Dimension) -> str:
    """A dimension as a person reads it: `[length]/[time]^2`, `[length]^(1/2)`, or `dimensionless`."""
    return units_dimension_text(tuple((base, whole_or_fraction(power)) for base, power in dimension))
