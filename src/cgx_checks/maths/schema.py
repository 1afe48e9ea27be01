"""The published JSON schema of a maths proposal, generated from the vocabulary so it cannot drift.

`tools`, MCP's tools/list and start_run publish each check type's `proposal_schema`; an agent learns
from it what a maths step may write. Every field has a description and an example; the assumptions and
the aliases' targets are enums built from `vocabulary`, and the operators, constants, functions and the
reading of `%` are listed in the descriptions from the same lists. A test checks that what this schema
publishes is exactly what the grammar and the builder accept.
"""

from __future__ import annotations

from typing import Any, Final

from cgx_checks.maths.encoding import READINGS
from cgx_checks.maths.limits import MAX_FUNCTIONS, MAX_LATEX_CHARS, MAX_NAME_CHARS, MAX_SIDE_CHARS, MAX_SYMBOLS
from cgx_checks.maths.vocabulary import (
    ALIAS_TARGETS,
    ASSUMPTIONS,
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


def _side_description(side: str) -> str:
    operators = "; ".join(f"{operator} {meaning}" for operator, meaning in OPERATORS.items())
    constants = ", ".join(f"{name} ({meaning})" for name, meaning in CONSTANTS.items())
    return (
        f"The {side} of the step in sympy's spelling, parsed by a grammar (never evaluated). Operators: "
        f"{operators}. Constants: {constants}; {' and '.join(TRUTH_VALUES)} as conditions. {function_list()}. "
        f"{PERCENT}. Numerals are exact decimals (0.1 is 1/10); a decimal such as 2.4e-5 on one side, against a "
        "side that is a constant, is read with the rounding of its digits (an approximate pass). A side may be "
        "a condition (a comparison, or And/Or/Not of them): then both are, and the step says they hold for the "
        "same values. Omit it when latex gives it."
    )


def proposal_schema() -> dict[str, Any]:
    """The JSON schema of a rederive-maths proposal's own fields (besides type and target)."""
    assumption_enum = list(ASSUMPTIONS)
    return {
        "properties": {
            "equations": {
                "type": "array",
                "items": {"type": "string", "maxLength": 100},
                "maxItems": 20,
                "description": "The equation chunks (e-N) the step comes from. Required with latex, which must occur "
                "in them; part of the observation, so successive lines of a derivation are separate checks.",
                "examples": [["e-3"], ["e-3", "e-4"]],
            },
            "symbols": {
                "type": "object",
                "maxProperties": MAX_SYMBOLS,
                "additionalProperties": {
                    "type": "array",
                    "items": {"type": "string", "enum": assumption_enum},
                    "uniqueItems": True,
                },
                "description": "Every symbol the step uses (bound variables of integrals and sums too), each with "
                f"its assumptions ([] for a complex number; {', '.join(assumption_enum)}). {NAME_RULES} "
                f"Names are at most {MAX_NAME_CHARS} characters.",
                "examples": [{"x": ["real"], "n": ["integer", "positive"], "\\lambda": ["positive"], "x'": []}],
            },
            "functions": {
                "type": "array",
                "items": {"type": "string", "minLength": 1, "maxLength": MAX_NAME_CHARS},
                "maxItems": MAX_FUNCTIONS,
                "description": "Optional: undefined functions the step uses, such as Q in Q(r) (any number of "
                "arguments; a LaTeX a_{k+1} indexes the declared function a). Their derivatives stay symbolic.",
                "examples": [["Q"], ["f", "\\sigma"]],
            },
            "aliases": {
                "type": "object",
                "maxProperties": MAX_FUNCTIONS,
                "additionalProperties": {"type": "string", "enum": list(ALIAS_TARGETS)},
                "description": "Optional: names the paper uses for a constant or function of the vocabulary, such "
                "as the engineer's j for the imaginary unit or H for Heaviside. In LaTeX, e and \\mathrm{e} are "
                "already Euler's number (unless e is declared), \\pi is pi, \\infty is oo, \\mathrm{i} is I.",
                "examples": [{"j": "I"}, {"H": "Heaviside"}],
            },
            "lhs": {
                "type": "string",
                "minLength": 1,
                "maxLength": MAX_SIDE_CHARS,
                "description": _side_description("left side"),
                "examples": ["(1 + x)^2", "Integral(exp(-t^2), (t, 0, x))", "Derivative(r*Q(r), r)"],
            },
            "rhs": {
                "type": "string",
                "minLength": 1,
                "maxLength": MAX_SIDE_CHARS,
                "description": "The right side, written as lhs is (see lhs for the operators, constants and "
                "functions). Omit it when latex gives it.",
                "examples": ["1 + 2*x + x^2", "sqrt(pi)/2*erf(x)", "Limit(sin(x)/x, x, 0)"],
            },
            "latex": {
                "type": "string",
                "minLength": 1,
                "maxLength": MAX_LATEX_CHARS,
                "description": "The paper's own LaTeX, copied from the cited equation chunks (compared after removing "
                "spacing and layout; it must be a whole relation or side there). Without lhs and rhs it is a "
                "relation chain A = B = C and split picks the step; with one of lhs or rhs it is the other side "
                "(a value, or a condition such as 0 < r < 1, whose lines joined by \\\\ all hold). A relation "
                "\\approx makes the step approximate: it passes when the other side rounds to the reported number. "
                "Read: 2r is 2*r, \\frac, \\sqrt, |x|, \\int_a^b f\\,dx, \\sum_{k=a}^{b}, \\prod, \\lim_{x\\to a}, "
                "\\frac{d}{dx}, \\frac{\\partial f}{\\partial x}, Q'(r), \\ln, \\operatorname{erf}, \\Gamma(x), "
                "E_1(x), 2.4\\times10^{-5}, 5\\%. The check records the sympy spelling it read each side as.",
                "examples": ["\\frac{N}{s^2 + V} = \\frac{N-1}{s^2 + V}", "|a_1| < 2"],
            },
            "split": {
                "type": "integer",
                "minimum": 1,
                "maximum": 100,
                "description": "Which relation of latex (1 = the first, counted from the left across lines) separates "
                "the step's two sides: in A = B = C, split 2 checks B = C. Default 1. Only with latex alone.",
                "examples": [1, 2],
            },
            "function_argument": {
                "type": "string",
                "enum": list(READINGS),
                "description": "Only when a LaTeX function without brackets is followed by more factors "
                "(\\cos\\beta q^{-1}): 'factor' reads cos(beta)*q^-1, 'product' reads cos(beta*q^-1). The check "
                "refuses the ambiguous reading until this says which the paper means.",
                "examples": ["factor"],
            },
        },
        "required": ["symbols"],
        "additionalProperties": False,
    }
