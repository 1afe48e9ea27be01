"""The computational core of the recompute-numbers check: numerals, the expression grammar, exact evaluation.

Pure functions only; the check-type plugin wraps them. `recompute` is the whole check, `observation_key`
its same-observation rule; the pieces are public for tests, benchmarks and other check types.
"""

from cgx_checks.arithmetic.decimals import decimal_text
from cgx_checks.arithmetic.evaluate import evaluate
from cgx_checks.arithmetic.numerals import Numeral, find_numerals, fraction_text, read_numeral
from cgx_checks.arithmetic.parse import expression_parser, parse_expression
from cgx_checks.arithmetic.recompute import Recomputation, observation_key, recompute
from cgx_checks.arithmetic.tree import Binary, Literal, Node, Unary, literals, render

__all__ = [
    "Binary",
    "Literal",
    "Node",
    "Numeral",
    "Recomputation",
    "Unary",
    "decimal_text",
    "evaluate",
    "expression_parser",
    "find_numerals",
    "fraction_text",
    "literals",
    "observation_key",
    "parse_expression",
    "read_numeral",
    "recompute",
    "render",
]
