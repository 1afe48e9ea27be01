"""Exact fractions written as decimals a person can read, with integer arithmetic only.

A check record shows its value as `p/q` (exact, for machines) and as a decimal (for people). The decimal
is computed from the integers, never through a float, so it is the same on every machine. A value whose
decimal does not end within the digits shown is truncated toward zero, not rounded, and marked with
`...`: 400.4999999... then never reads as 400.5 beside a rounding of 400 +- 0.5.
"""

from __future__ import annotations

from fractions import Fraction

PLAIN_LOW = -7
"""The smallest power of ten written without an exponent (0.0000001); smaller values use `e`."""


def decimal_text(value: Fraction, significant: int = 40) -> str:
    """`value` as a decimal with at most `significant` significant digits.

    Plain notation for values from 1e-7 up to 10**significant, `d.ddde<int>` beyond; `...` ends a
    truncated value.
    """
    numerator, denominator = value.numerator, value.denominator
    if numerator == 0:
        return "0"
    sign = "-" if numerator < 0 else ""
    numerator = abs(numerator)
    exponent = floor_log10(numerator, denominator)
    shift = significant - 1 - exponent
    if shift >= 0:
        digits, remainder = divmod(numerator * 10**shift, denominator)
    else:
        digits, remainder = divmod(numerator, denominator * 10**-shift)
    text = str(digits)
    exact = remainder == 0
    if exact:
        text = text.rstrip("0")
    suffix = "" if exact else "..."
    if PLAIN_LOW <= exponent < significant:
        if exponent >= 0:
            whole = text[: exponent + 1].ljust(exponent + 1, "0")
            fraction = text[exponent + 1 :]
        else:
            whole = "0"
            fraction = "0" * (-exponent - 1) + text
        return sign + whole + ("." + fraction if fraction else "") + suffix
    mantissa = text[0] + ("." + text[1:] if len(text) > 1 else "")
    return f"{sign}{mantissa}e{exponent}{suffix}"


def floor_log10(numerator: int, denominator: int) -> int:
    """floor(log10(numerator / denominator)) for positive integers, exactly."""
    # log10(2) is about 0.30103: a first guess within one or two of the answer, then exact comparisons.
    exponent = ((numerator.bit_length() - denominator.bit_length()) * 30103) // 100000
    while not _at_least_power(numerator, denominator, exponent):
        exponent -= 1
    while _at_least_power(numerator, denominator, exponent + 1):
        exponent += 1
    return exponent


def _at_least_power(numerator: int, denominator: int, exponent: int) -> bool:
    """Whether numerator / denominator >= 10**exponent."""
    if exponent >= 0:
        return bool(numerator >= denominator * 10**exponent)
    return bool(numerator * 10**-exponent >= denominator)
