"""The dimensions check's own codes (declared with their meanings by the check type, `define_codes`)."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class DimensionCode(StrEnum):
    """A stable, kebab-case code of the dimensions check."""

    UNIT_UNKNOWN = "unit-unknown"
    CONSTANT_UNKNOWN = "constant-unknown"
    DIMENSION_UNDECIDED = "dimension-undecided"


MEANINGS: Final[dict[str, str]] = {
    DimensionCode.UNIT_UNKNOWN: (
        "A symbol's declared unit or dimension is not one the units library reads (m, km/h, J s, [length]/[time], 1)."
    ),
    DimensionCode.CONSTANT_UNKNOWN: "A name given as a physical constant is not in the CODATA table (c, G, hbar, k_B).",
    DimensionCode.DIMENSION_UNDECIDED: (
        "The dimension of a part of the step depends on a value the check cannot read as a number (a symbol as "
        "the exponent of a quantity with a dimension), so no verdict is given."
    ),
}
