"""The caps that keep reading numerals bounded, in one place.

A paper's text and an agent's proposal are both hostile until checked. Each cap is checked before the work
it bounds, so no text, however built, makes the reader slow or builds a huge number.
"""

from __future__ import annotations

from typing import Final

MAX_NUMERAL_DIGITS: Final = 60
"""A numeral with more digits than this is refused in an expression and never read from a text."""

MAX_EXPONENT: Final = 100
"""The largest power of ten written in a numeral (1e100, 10^{100}), and the largest exponent of `**`."""

MAX_RESULT_CHARS: Final = 200
"""A reported result longer than this is refused (`expression-too-large`) before it is read."""

MAX_UNIT_TERMS: Final = 6
"""A unit of more terms than this (m kg s^-2 A ...) is not read: no paper writes one."""

MAX_UNIT_EXPONENT: Final = 9
"""The largest exponent of a unit term (m^3, s^-2)."""
