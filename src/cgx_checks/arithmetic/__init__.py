"""The computational core of the recompute-numbers check: the expression grammar, exact evaluation (with
units, constants and functions), and the check itself.

Pure functions only; the check-type plugin wraps them. `recompute` is the whole check, `observation_key`
its same-observation rule; the pieces are public for tests, benchmarks and other check types. Numerals are
read by the one numeral reader of the core, `cgx_core.numbers` (re-exported here for convenience).

The names below are imported the first time one is read (PEP 562), not when the package is: loading the
plugins imports `arithmetic.codes` for the check type's codes, and that must not import lark and every
evaluator with it (each command that lists check types, the MCP server's start included, would pay for them).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from cgx_checks.arithmetic.decimals import decimal_text
    from cgx_checks.arithmetic.evaluate import evaluate, measure
    from cgx_checks.arithmetic.parse import expression_parser, parse_expression
    from cgx_checks.arithmetic.recompute import Chunk, ProposalProblems, Recomputation, observation_key, recompute
    from cgx_checks.arithmetic.tree import Binary, Call, Constant, Literal, Node, Unary, literals, render
    from cgx_core.numbers import Numeral, find_numerals, fraction_text, read_numeral, read_quantity, read_text

_HOMES: Final = {
    "cgx_checks.arithmetic.decimals": ("decimal_text",),
    "cgx_checks.arithmetic.evaluate": ("evaluate", "measure"),
    "cgx_checks.arithmetic.parse": ("expression_parser", "parse_expression"),
    "cgx_checks.arithmetic.recompute": ("Chunk", "ProposalProblems", "Recomputation", "observation_key", "recompute"),
    "cgx_checks.arithmetic.tree": ("Binary", "Call", "Constant", "Literal", "Node", "Unary", "literals", "render"),
    "cgx_core.numbers": ("Numeral", "find_numerals", "fraction_text", "read_numeral", "read_quantity", "read_text"),
}
_HOME_OF: Final = {name: module for module, names in _HOMES.items() for name in names}

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


def __getattr__(name: str) -> Any:
    """One of the package's names, from its module (imported now, once)."""
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
