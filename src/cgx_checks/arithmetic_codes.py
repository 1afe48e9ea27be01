"""recompute-numbers' own codes: a proposal it refuses, or a recomputation that ended in error.

They live beside the plugin rather than in `cgx_checks.arithmetic`, whose package imports lark and every
evaluator: loading the plugins reads the codes of every check type, and must not pay for those (each command
that lists check types, the MCP server's start included, would).

Each is declared with its meaning through `define_codes` by the check types that use it (see
docs/plugins.md: a plugin owns its codes); `python -m cgx_core.codes` lists them under their check type."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class ArithmeticCode(StrEnum):
    """A stable, kebab-case code of arithmetic."""

    OPERAND_NOT_IN_TEXT = "operand-not-in-text"
    EXPONENT_NOT_WHOLE = "exponent-not-whole"
    UNIT_INVALID = "unit-invalid"
    UNIT_INCOMPATIBLE = "unit-incompatible"
    UNIT_MISSING = "unit-missing"
    RELATION_NOT_IN_TEXT = "relation-not-in-text"
    HEDGE_UNDECLARED = "hedge-undeclared"
    EXPRESSION_IS_RESULT = "expression-is-result"
    FUNCTION_DOMAIN = "function-domain"
    VALUE_UNDECIDED = "value-undecided"
    ROUNDING_TOO_COARSE = "rounding-too-coarse"
    ENUMERATION_NOT_FOUND = "enumeration-not-found"
    COLUMNS_NOT_COUNTED = "columns-not-counted"
    PREMISE_MISSING = "premise-missing"


MEANINGS: Final[dict[str, str]] = {
    ArithmeticCode.OPERAND_NOT_IN_TEXT: "A numeral of the expression or the result is not in the cited chunks' text.",
    ArithmeticCode.EXPONENT_NOT_WHOLE: "An exponent is not a whole number, so the power is not an exact rational.",
    ArithmeticCode.UNIT_INVALID: (
        "A unit is not one the numeral reader knows, or one that cannot be scaled (an offset scale)."
    ),
    ArithmeticCode.UNIT_INCOMPATIBLE: "Quantities of different dimensions are added, compared or given to a function.",
    ArithmeticCode.UNIT_MISSING: "The text writes its numbers in different units, and the expression leaves them out.",
    ArithmeticCode.RELATION_NOT_IN_TEXT: (
        "The relation given is not the one the text writes before the reported numeral."
    ),
    ArithmeticCode.HEDGE_UNDECLARED: (
        "The text hedges the result with a phrase the run's tolerance table does not declare."
    ),
    ArithmeticCode.EXPRESSION_IS_RESULT: (
        "The expression is only the reported numeral itself, which recomputes nothing."
    ),
    ArithmeticCode.FUNCTION_DOMAIN: "A function is given an argument outside its domain (sqrt of a negative, ln of 0).",
    ArithmeticCode.VALUE_UNDECIDED: (
        "An irrational value lies too close to the reported bound to decide at any precision."
    ),
    ArithmeticCode.ROUNDING_TOO_COARSE: (
        "round() or sig() rounds more coarsely than the numeral it is compared with, or is compared with none."
    ),
    ArithmeticCode.ENUMERATION_NOT_FOUND: "items(s-N) names a chunk in which no enumeration of items is found.",
    ArithmeticCode.COLUMNS_NOT_COUNTED: "cols(t-N) names a row of a table whose number of columns was not recorded.",
    ArithmeticCode.PREMISE_MISSING: (
        "The expression tests what the text does not write (grim, grimmer: that the data are integers) and the "
        "proposal states no premise."
    ),
}
