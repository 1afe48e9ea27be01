"""The caps that keep every recompute-numbers check bounded, in one place.

A proposal comes from an agent and the numerals from a paper: both are hostile until checked. Each cap
below is checked before the work it bounds is done, so no input, however built, makes a check run long,
use much memory, or fail with anything but our own error.
"""

from __future__ import annotations

from typing import Final

MAX_EXPRESSION_CHARS: Final = 2_000
"""An expression longer than this is refused (`expression-too-large`) before the parser sees it."""

MAX_NESTING: Final = 100
"""Parentheses nested deeper than this are refused (`expression-too-large`) before the parser sees them."""

MAX_NUMERAL_DIGITS: Final = 60
"""A numeral with more digits than this is refused in an expression and never read from a text."""

MAX_EXPONENT: Final = 100
"""The largest exponent, of `**` or of a power of ten written in a numeral (1e100, 10^{100})."""

MAX_RESULT_BITS: Final = 12_000
"""The largest bit length of the numerator or denominator of any intermediate result.

`((2**100)**100)**100` keeps every exponent under MAX_EXPONENT but would need a million bits: the size of
a power is estimated before it is computed, and every other result is measured as soon as it exists. The
cap is below the 4,300 digits Python converts between int and str, so every value can be printed.
"""

MAX_RESULT_CHARS: Final = 200
"""A reported result longer than this is refused (`expression-too-large`) before it is read."""
