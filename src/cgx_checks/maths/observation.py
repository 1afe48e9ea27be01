"""The same observation: two maths steps with the same two sides once expanded, however they are written.

A check on `(x+1)**2 = x**2 + 2*x + 1` and one on `x**2 + 2*x + 1 = (1+x)^2` would pass or fail together,
so they are one observation and share one key: the unordered pair of the expanded sides' `srepr`, with
the domain of each symbol they use (written canonically, so ["positive", "real"] and ["positive"] agree).

Expanding runs in this process, so it is bounded first: a side is expanded only when the structural
estimates (`structure.Shape`) promise a small result. A larger step is keyed on its sides as written,
canonically (sums and products in a fixed order, numerals as exact fractions), which is deterministic but
tells apart steps that only expansion would show equal. Both kinds of key are marked, so they never mix.
"""

from __future__ import annotations

import sympy

from cgx_checks.maths.build import build_step
from cgx_checks.maths.encoding import Encoding, canonical_assumptions
from cgx_checks.maths.points import exact_text
from cgx_checks.maths.structure import expandable, parse_step
from cgx_checks.maths.tree import Call, Name, Negation, Node, Numeral, Power, Product, Sum
from cgx_core.digests import json_digest


def observation_key(raw: object) -> str:
    """The key of a step's observation (a `sha256:` digest); CgxError for an encoding that cannot be run."""
    step = parse_step(raw)
    used = sorted(step.symbols)
    canonical = Encoding(
        tuple((name, canonical_assumptions(step.encoding.domain(name))) for name in used),
        step.encoding.lhs,
        step.encoding.rhs,
    )
    domains = {name: list(assumptions) for name, assumptions in canonical.symbols}
    if expandable(step):
        built = build_step(parse_step(canonical))
        sides = sorted(sympy.srepr(sympy.expand(side)) for side in (built.lhs, built.rhs))
        form = "expanded"
    else:
        sides = sorted(canonical_text(tree) for tree in (step.lhs, step.rhs))
        form = "written"
    return json_digest({"check": "rederive-maths", "form": form, "sides": sides, "symbols": domains})


def canonical_text(node: Node) -> str:
    """A side as written, canonically: the same text for `x*2 + 1` and `1 + 2*x`, for `0.5` and `1/2`."""
    match node:
        case Numeral():
            return exact_text(node.value)
        case Name():
            return node.name
        case Negation():
            return f"-({canonical_text(node.operand)})"
        case Sum():
            terms = sorted(("+" if sign > 0 else "-") + canonical_text(term) for sign, term in node.terms)
            return f"sum({','.join(terms)})"
        case Product():
            factors = sorted(
                ("*" if operator > 0 else "/") + canonical_text(factor) for operator, factor in node.factors
            )
            return f"product({','.join(factors)})"
        case Power():
            return f"power({canonical_text(node.base)},{canonical_text(node.exponent)})"
        case Call():
            return f"{node.name}({','.join(canonical_text(argument) for argument in node.arguments)})"
