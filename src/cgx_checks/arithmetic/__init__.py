"""The computational core of the recompute-numbers check: the expression grammar, exact evaluation (with
units, constants and functions), and the check itself.

Pure functions only; the check-type plugin wraps them. `recompute` is the whole check, `observation_key`
its same-observation rule; the pieces are public for tests, benchmarks and other check types. Numerals are
read by the one numeral reader of the core, `cgx_core.numbers` (re-exported here for convenience).
"""

from cgx_checks.arithmetic.decimals import decimal_text
from cgx_checks.arithmetic.evaluate import evaluate, measure
from cgx_checks.arithmetic.parse import expression_parser, parse_expression
from cgx_checks.arithmetic.recompute import Chunk, ProposalProblems, Recomputation, observation_key, recompute
from cgx_checks.arithmetic.tree import Binary, Call, Constant, Literal, Node, Unary, literals, render
from cgx_core.numbers import Numeral, find_numerals, fraction_text, read_numeral, read_quantity, read_text

__all__ = [
    "Binary",
    "Call",
    "Chunk",
    "Constant",
    "Literal",
    "Node",
    "Numeral",
    "ProposalProblems",
    "Recomputation",
    "Unary",
    "decimal_text",
    "evaluate",
    "expression_parser",
    "find_numerals",
    "fraction_text",
    "literals",
    "measure",
    "observation_key",
    "parse_expression",
    "read_numeral",
    "read_quantity",
    "read_text",
    "recompute",
    "render",
]
