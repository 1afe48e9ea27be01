"""The same observation: two maths steps from the same equation chunks with the same two sides once
expanded, however they are written.

A check on `(x+1)**2 = x**2 + 2*x + 1` and one on `x**2 + 2*x + 1 = (1+x)^2`, both from chunk e-3, would
pass or fail together, so they are one observation and share one key: the unordered pair of the expanded
sides' `srepr`, with the domain of each symbol they use (written canonically, so ["positive", "real"] and
["positive"] agree), and the equation chunks the step comes from. The chunks count because two lines of
one derivation (a = b, then b = c) may expand to the same polynomial and still be two steps of the
paper, each worth checking.

Expanding uses sympy, so the key is computed in the maths worker (task "key"), never in the
caller's process, and only for a step whose structural estimates (`read.shape.Shape`) promise a small
result. A larger step, or a condition, is keyed on its sides as written, canonically (sums and products
in a fixed order, numerals as exact fractions), which is deterministic but tells apart steps that only
expansion would show equal. Both kinds of key are marked, so they never mix.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy

from cgx_checks.maths.read.canonical import canonical_text
from cgx_checks.maths.read.encoding import canonical_assumptions
from cgx_checks.maths.read.step import expandable, parse_step
from cgx_checks.maths.worker.build import build_step, canonical_symbols
from cgx_core.base.digests import json_digest


def observation_key(raw: object, equations: Sequence[str] = ()) -> str:
    """The key of a step's observation (a `sha256:` digest), computed in this process (it imports sympy:
    the worker runs it); CgxError for an encoding that cannot be run."""
    step = parse_step(raw)
    used = sorted(step.symbols)
    domains = {name: list(canonical_assumptions(step.encoding.domain(name))) for name in used}
    if expandable(step) and not step.condition:
        built = build_step(step, symbols=canonical_symbols(step))
        sides = sorted(sympy.srepr(sympy.expand(side)) for side in (built.lhs, built.rhs))
        form = "expanded"
    else:
        sides = sorted(canonical_text(tree, step.encoding.names) for tree in (step.lhs, step.rhs))
        form = "written"
    key: dict[str, object] = {"check": "rederive-maths", "form": form, "sides": sides, "symbols": domains}
    if equations:
        key["equations"] = sorted(set(equations))
    if step.relation != "=":
        key["relation"] = step.relation
    return json_digest(key)


def key_task(payload: object) -> str:
    """The worker's `key` task: (parsed step, equations) in, the key out."""
    assert isinstance(payload, tuple)
    step, equations = payload
    return observation_key(step, equations)
