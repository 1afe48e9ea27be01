"""The published JSON schema of a maths proposal, generated from the vocabulary so it cannot drift.

`tools`, MCP's tools/list and start_run publish each check type's `proposal_schema`; an agent learns
from it what a maths step may write. Every field has a description and an example; the assumptions and
the aliases' targets are enums built from `vocabulary`, and the operators, constants, functions and the
reading of `%` are listed in the descriptions from the same lists. A test checks that what this schema
publishes is exactly what the grammar and the builder accept.
"""

from __future__ import annotations

from typing import Any, Final

from cgx_checks.maths.read.encoding import READINGS
from cgx_checks.maths.read.vocabulary import (
    ASSUMPTIONS,
    CALCULUS_FORMS,
    CONSTANTS,
    NAME_RULES,
    OPERATORS,
    PERCENT,
    TRUTH_VALUES,
    function_list,
)

EXAMPLES: Final[dict[str, dict[str, Any]]] = {
    "algebra": {
        "type": "rederive-maths",
        "target": "e-40",
        "equations": ["e-40"],
        "symbols": {"r": ["positive"], "b": ["real"], "q": ["nonzero"]},
        "lhs": "(1 - r*exp(I*b)*q^-1)*(1 - r*exp(-I*b)*q^-1)",
        "rhs": "1 - 2*r*cos(b)*q^-1 + r^2*q^-2",
    },
    "integral": {
        "type": "rederive-maths",
        "target": "s-12",
        "symbols": {"x": ["real"], "u": ["real"]},
        "lhs": "Integral(2*x*exp(x^2), (x, 0, 1))",
        "rhs": "Integral(exp(u), (u, 0, 1))",
    },
    "derivative": {
        "type": "rederive-maths",
        "target": "s-14",
        "symbols": {"r": ["positive"]},
        "functions": ["Q"],
        "lhs": "Derivative(r*Q(r), r)",
        "rhs": "Q(r) + r*Derivative(Q(r), r)",
    },
    "latex": {
        "type": "rederive-maths",
        "target": "e-12",
        "equations": ["e-12"],
        "symbols": {"N": ["positive", "integer"], "s": ["real"], "V": ["positive"]},
        "latex": "\\frac{N}{s^2 + V} = \\frac{N}{s^2 + V} - \\frac{s^2 + V}{N}\\frac{N}{\\left( s^2 + V \\right)^2} "
        "= \\frac{N-1}{s^2 + V}",
        "split": 2,
    },
    "approximate": {
        "type": "rederive-maths",
        "target": "e-20",
        "equations": ["e-20"],
        "symbols": {},
        "latex": "\\sqrt{2 \\times 2.9\\times10^{-10}} \\approx 2.4\\times10^{-5}",
    },
    "condition": {
        "type": "rederive-maths",
        "target": "e-39",
        "equations": ["e-39"],
        "symbols": {"a_1": ["real"], "a_2": ["real"]},
        "latex": "|a_1| &< 2\\\\ |{a_1}| - 1 &< a_2 < a_1",
        "rhs": "And(Abs(-a_1/2 + sqrt(a_1^2/4 - a_2)) < 1, Abs(-a_1/2 - sqrt(a_1^2/4 - a_2)) < 1)",
    },
}
"""Whole proposals, one per kind of step; tests run each of them."""


def _side_description() -> str:
    operators = " ".join(f"{operator} {meaning}".strip() for operator, meaning in OPERATORS.items())
    return (
        f"Sympy spelling, never evaluated: {operators}; {' '.join(CONSTANTS)} "
        f"{' '.join(TRUTH_VALUES)}. {function_list()}. {CALCULUS_FORMS}. Matrix([[a, b], [c, d]]) ends in det, "
        f"trace or entry. {PERCENT}. A printed decimal: within its rounding. Two conditions: equivalence, "
        "decided symbolically only."
    )


def proposal_schema() -> dict[str, Any]:
    """The JSON schema of a rederive-maths proposal's own fields (besides type and target)."""
    return {
        "properties": {
            "equations": {
                "type": "array",
                "items": {"type": "string"},
                "maxItems": 20,
                "description": "Its equation chunks.",
                "examples": [["e-3"]],
            },
            "symbols": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"enum": list(ASSUMPTIONS)}},
                "description": f"Each symbol, bound ones too, and assumptions. {NAME_RULES}",
                "examples": [{"x": ["real"]}],
            },
            "functions": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Undefined functions (Q in Q(r)).",
                "examples": [["Q"]],
            },
            "aliases": {
                "type": "object",
                "description": "The paper's names for a constant or function.",
                "examples": [{"j": "I"}],
            },
            "lhs": {"type": "string", "description": _side_description(), "examples": ["Derivative(r*Q(r), r)"]},
            "rhs": {"type": "string", "description": "The right side, as lhs.", "examples": ["1"]},
            "latex": {
                "type": "string",
                "description": "The paper's LaTeX, whole, from the chunks: alone, its split-th relation is the step "
                "(\\approx: within rounding); beside lhs or rhs, the other side. pmatrix, vmatrix, \\det read; "
                "a/b c is refused as ambiguous.",
                "examples": ["\\frac{N}{V} = \\frac{N-1}{V}"],
            },
            "split": {"type": "integer", "minimum": 1, "description": "Which relation of latex (1).", "examples": [2]},
            "function_argument": {
                "type": "string",
                "enum": list(READINGS),
                "description": "\\cos b q: factor, cos(b)*q; product, cos(b*q).",
                "examples": ["factor"],
            },
        },
        "required": ["symbols"],
        "additionalProperties": False,
    }
