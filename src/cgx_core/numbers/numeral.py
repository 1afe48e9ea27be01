"""A numeral as a document writes it: its canonical written form, its exact value and its rounding.

* `written`: `-?DIGITS(.DIGITS)?(e-?INT)?%?`: no separators, no `+`, no leading zeros before the units
  digit, any power of ten folded into `e<int>`. Two texts that write the same decimal the same way give
  the same `written`, which is what a reported result is compared with;
* `value`: the exact `Fraction` the digits write (a `%` numeral is the number / 100), never a float;
* `half_unit`: half of one unit of the last written digit, scaled like the value (350 -> 1/2,
  0.35 -> 1/200, 1.2e3 -> 50, 0.8% -> 1/2000): the rounding the writer's own digits imply.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from cgx_core.errors import CgxError

_HALF = Fraction(1, 2)


class NumeralError(CgxError):
    """A numeral the reader cannot read, or one over its caps: its own class, so a check type that catches
    it catches only what the reader raises (it is still a `CgxError`, with one of the reader's codes:
    `expression-invalid`, `expression-too-large`, `exponent-too-large`)."""


@attrs.frozen
class Numeral:
    """One numeral: its canonical written form, its exact value and the rounding its digits imply."""

    written: str
    value: Fraction
    half_unit: Fraction

    def to_json(self) -> dict[str, Any]:
        """The numeral as JSON: fractions as `p/q` strings, keys in a stable order."""
        return {
            "half_unit": fraction_text(self.half_unit),
            "value": fraction_text(self.value),
            "written": self.written,
        }


def fraction_text(value: Fraction) -> str:
    """A fraction as `p/q`, always with the slash, so a reader parses one format."""
    return f"{value.numerator}/{value.denominator}"


def numeral_from_parts(negative: bool, integer: str, fraction: str, exponent: int | None, percent: bool) -> Numeral:
    """Build a numeral from its written parts (ASCII digit strings, no separators).

    The caller has checked the caps (digit count, exponent size), so the integers built here stay small.
    """
    integer = integer.lstrip("0") or "0"
    written = ("-" if negative else "") + integer
    if fraction:
        written += "." + fraction
    scale = -len(fraction)
    if exponent is not None:
        written += f"e{exponent}"
        scale += exponent
    if percent:
        written += "%"
        scale -= 2
    unit = Fraction(10) ** scale
    digits = int(integer + fraction)
    value = digits * unit
    return Numeral(written=written, value=-value if negative else value, half_unit=unit * _HALF)
