"""The recompute-numbers check, pure: an expression over the cited chunks' numerals against a reported one.

The agent proposes; this code decides. Every numeral of the expression must be a numeral of the cited
chunks (compared by exact value, sign ignored since a sign is an operator), and the reported result must
be a numeral those chunks write (compared by its canonical written form, because its digits set the
rounding). The expression is evaluated exactly and passes when it lies within the rounding the reported
numeral's own digits imply: |value - expected| <= half_unit, so 350 is 350 +- 0.5 and 0.35 is
0.35 +- 0.005.

The same inputs give the same `Recomputation` and the same JSON, byte for byte, on every machine, which is
what lets `verify` run the check again from its recorded inputs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any, Literal

import attrs

from cgx_checks.arithmetic.decimals import decimal_text
from cgx_checks.arithmetic.evaluate import evaluate
from cgx_checks.arithmetic.numerals import Numeral, find_numerals, fraction_text, read_numeral
from cgx_checks.arithmetic.parse import parse_expression
from cgx_checks.arithmetic.tree import literals, render
from cgx_core.codes import Code
from cgx_core.errors import CgxError

type Outcome = Literal["passed", "failed"]

DECIMAL_DIGITS = 40
"""Significant digits of the decimals in a record."""

DETAIL_DIGITS = 20
"""Significant digits of the value in the one-line detail."""

_DETAIL_EXPRESSION = 200  # characters of the expression quoted in the detail
_LISTED = 60  # numerals listed in a refusal before "and N more"


@attrs.frozen
class Recomputation:
    """What a recompute-numbers check computed and decided."""

    expression: str
    """The expression as parsed, written back canonically (single spaces, needed parentheses only)."""
    operands: tuple[str, ...]
    """The numerals of the expression, left to right, in canonical written form."""
    result: str
    """The reported numeral, in canonical written form (a numeral of the cited chunks)."""
    value: Fraction
    """The exact value of the expression."""
    expected: Fraction
    """The exact value of the reported numeral."""
    half_unit: Fraction
    """Half of one unit of the reported numeral's last digit: the rounding it implies."""
    outcome: Outcome
    detail: str
    """One line for a person, e.g. `(6.2 - 2.2) / 0.01 + 1 = 401, reported 400 +- 0.5: failed`."""

    def to_json(self) -> dict[str, Any]:
        """The record as JSON (keys sorted, fractions as `p/q`, decimals as strings)."""
        return {
            "detail": self.detail,
            "expected": fraction_text(self.expected),
            "expected_decimal": decimal_text(self.expected, DECIMAL_DIGITS),
            "expression": self.expression,
            "half_unit": fraction_text(self.half_unit),
            "half_unit_decimal": decimal_text(self.half_unit, DECIMAL_DIGITS),
            "operands": list(self.operands),
            "outcome": self.outcome,
            "result": self.result,
            "value": fraction_text(self.value),
            "value_decimal": decimal_text(self.value, DECIMAL_DIGITS),
        }


def recompute(expression: str, result: str, texts: Sequence[str]) -> Recomputation:
    """Run the check on an expression, the reported result and the texts of the chunks the proposal cites.

    Raises CgxError when the check cannot be run: the expression or result does not parse
    (`expression-invalid`), is over a cap (`expression-too-large`, `exponent-too-large`,
    `exponent-not-whole`, `result-too-large`), divides by zero (`division-by-zero`), or uses a numeral the
    texts do not contain (`operand-not-in-text`, listing the numerals they do contain).
    """
    if not isinstance(expression, str) or not isinstance(result, str):
        raise CgxError(Code.EXPRESSION_INVALID, "the expression and the result must be strings")
    tree = parse_expression(expression)
    reported = read_numeral(result)
    operands = tuple(read_numeral(literal.text) for literal in literals(tree))
    _check_in_texts(operands, reported, _numerals_of(texts))
    value = evaluate(tree)
    expected = reported.value
    half_unit = reported.half_unit
    outcome: Outcome = "passed" if abs(value - expected) <= half_unit else "failed"
    rendered = render(tree)
    return Recomputation(
        expression=rendered,
        operands=tuple(operand.written for operand in operands),
        result=reported.written,
        value=value,
        expected=expected,
        half_unit=half_unit,
        outcome=outcome,
        detail=_detail(rendered, value, reported, outcome),
    )


def observation_key(recomputation: Recomputation) -> str:
    """A canonical key of what the check observed: two checks with one key pass or fail together."""
    return observation_key_of(recomputation.value, recomputation.expected, recomputation.half_unit)


def observation_key_of(value: Fraction, expected: Fraction, half_unit: Fraction) -> str:
    """The key of an observation from what decides its outcome.

    Only the exact value, the expected value and the rounding decide the outcome, so two proposals that
    write the same arithmetic differently (`750 / 2` and `0.5 * 750` against 375) are one observation.
    """
    return f"value={fraction_text(value)};expected={fraction_text(expected)};half_unit={fraction_text(half_unit)}"


def _numerals_of(texts: Iterable[str]) -> tuple[Numeral, ...]:
    if isinstance(texts, str):  # a str is a Sequence[str] of its characters: always a caller's mistake
        raise CgxError(Code.INTERNAL_ERROR, "recompute takes a sequence of chunk texts, not one string")
    seen: dict[str, Numeral] = {}
    for text in texts:
        if not isinstance(text, str):
            raise CgxError(Code.EXPRESSION_INVALID, "the cited chunks' texts must be strings")
        for numeral in find_numerals(text):
            seen.setdefault(numeral.written, numeral)
    return tuple(seen.values())


def _check_in_texts(operands: tuple[Numeral, ...], reported: Numeral, numerals: tuple[Numeral, ...]) -> None:
    values = {abs(numeral.value) for numeral in numerals}
    written = {numeral.written for numeral in numerals}
    missing = list(dict.fromkeys(operand.written for operand in operands if abs(operand.value) not in values))
    problems: list[str] = []
    if missing:
        problems.append(
            f"the numeral{'s' if len(missing) > 1 else ''} {', '.join(missing)} of the expression "
            f"{'are' if len(missing) > 1 else 'is'} not in the cited chunks' text (compared by exact value)"
        )
    if reported.written not in written:
        problems.append(
            f"the result {reported.written} is not written in the cited chunks' text (compared as written, "
            "since its digits set the rounding)"
        )
    if problems:
        raise CgxError(Code.OPERAND_NOT_IN_TEXT, "; ".join(problems) + "; " + _listing(numerals))


def _listing(numerals: tuple[Numeral, ...]) -> str:
    if not numerals:
        return "the cited chunks contain no numerals: cite the chunks that write the numbers"
    shown = ", ".join(numeral.written for numeral in numerals[:_LISTED])
    more = f" and {len(numerals) - _LISTED} more" if len(numerals) > _LISTED else ""
    return f"the cited chunks contain {shown}{more}"


def _detail(rendered: str, value: Fraction, reported: Numeral, outcome: Outcome) -> str:
    shown = rendered if len(rendered) <= _DETAIL_EXPRESSION else rendered[:_DETAIL_EXPRESSION] + "..."
    expected = decimal_text(reported.value, DECIMAL_DIGITS)
    rounding = decimal_text(reported.half_unit, DECIMAL_DIGITS)
    stated = reported.written if reported.written == expected else f"{reported.written} = {expected}"
    return f"{shown} = {decimal_text(value, DETAIL_DIGITS)}, reported {stated} +- {rounding}: {outcome}"
