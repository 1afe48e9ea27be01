"""The codes of the expression grammar the arithmetic and maths checks share (cgx_checks/grammar.py): both
check types declare them as their own.

Each is declared with its meaning through `define_codes` by the check types that use it (see
docs/plugins.md: a plugin owns its codes); `python -m cgx_core.codes` lists them under their check type."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class ExpressionCode(StrEnum):
    """A stable, kebab-case code of expression."""

    RESULT_TOO_LARGE = "result-too-large"
    UNKNOWN_SYMBOL = "unknown-symbol"
    UNKNOWN_FUNCTION = "unknown-function"
    DIVISION_BY_ZERO = "division-by-zero"


MEANINGS: Final[dict[str, str]] = {
    ExpressionCode.RESULT_TOO_LARGE: "An intermediate result is too large to compute exactly.",
    ExpressionCode.UNKNOWN_SYMBOL: "An expression uses a symbol that is not declared.",
    ExpressionCode.UNKNOWN_FUNCTION: "An expression calls a function outside the fixed set.",
    ExpressionCode.DIVISION_BY_ZERO: "The expression divides by zero.",
}
