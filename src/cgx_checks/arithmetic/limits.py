"""The caps that keep every recompute-numbers check bounded, in one place.

A proposal comes from an agent and the numerals from a paper: both are hostile until checked. Each cap
below is checked before the work it bounds is done, so no input, however built, makes a check run long,
use much memory, or fail with anything but our own error. The caps on reading numerals themselves live
with the numeral reader (`cgx_core.numbers.limits`) and are re-exported here.
"""

from __future__ import annotations

from typing import Final

from cgx_core.numbers.limits import MAX_EXPONENT, MAX_NUMERAL_DIGITS, MAX_RESULT_CHARS

MAX_EXPRESSION_CHARS: Final = 2_000
"""An expression longer than this is refused (`expression-too-large`) before the parser sees it."""

MAX_NESTING: Final = 100
"""Parentheses nested deeper than this are refused (`expression-too-large`) before the parser sees them."""

MAX_RESULT_BITS: Final = 12_000
"""The largest bit length of the numerator or denominator of any intermediate result.

`((2**100)**100)**100` keeps every exponent under MAX_EXPONENT but would need a million bits: the size of
a power is estimated before it is computed, and every other result is measured as soon as it exists. The
cap is below the 4,300 digits Python converts between int and str, so every value can be printed.
"""

__all__ = [
    "MAX_EXPONENT",
    "MAX_EXPRESSION_CHARS",
    "MAX_NESTING",
    "MAX_NUMERAL_DIGITS",
    "MAX_RESULT_BITS",
    "MAX_RESULT_CHARS",
]

MAX_ARGUMENTS: Final = 200
"""The most values one mean, median, min or max takes (a long table column; the expression's length caps it
too)."""
