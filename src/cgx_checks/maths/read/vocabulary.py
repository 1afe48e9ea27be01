"""The fixed vocabulary of maths expressions: assumptions, constants, functions, operators and relations.

Kept apart from sympy (and from lark) so that checking an expression's names costs nothing and the
published proposal schema reads it without importing either: `worker.build` maps each name to its sympy
object, and a test checks that every name here builds and every name the builder knows is here. Everything
an encoding may write is listed in this module, so the schema, the documentation and the error messages read
one list and cannot drift from what the grammar accepts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import attrs

ASSUMPTIONS: Final[Mapping[str, tuple[str, bool]]] = {
    "complex": ("complex", True),
    "real": ("real", True),
    "rational": ("rational", True),
    "integer": ("integer", True),
    "positive": ("positive", True),
    "negative": ("negative", True),
    "nonnegative": ("nonnegative", True),
    "nonpositive": ("nonpositive", True),
    "nonzero": ("zero", False),
}
"""Each assumption an encoding may give a symbol, and the sympy keyword it sets.

Every symbol is a finite complex number (sympy's `complex=True`); the assumptions narrow it. `nonzero`
means "not zero" in the symbol's own domain: it sets sympy's `zero=False`, not sympy's `nonzero=True`,
which would also make the symbol real (the shift operator q of a transfer function is a nonzero complex
number). Every assumption here is one the numeric fallback can draw points for.
"""

CONSTANTS: Final[Mapping[str, str]] = {
    "I": "imaginary unit",
    "pi": "pi",
    "E": "Euler's number",
    "oo": "infinity",
    "EulerGamma": "Euler-Mascheroni constant",
}
"""Each constant an expression may name, with what it is."""

TRUTH_VALUES: Final = ("True", "False")
"""The two constant conditions: `x^2 + 1 > 0` against `True` says the inequality holds for every x."""


@attrs.frozen
class Function:
    """A function an expression may call: how many arguments it takes and what it is."""

    arities: tuple[int, ...]
    meaning: str
    kind: str = "function"
    """function, calculus, matrix or condition (condition functions take and give conditions)."""


FUNCTIONS: Final[Mapping[str, Function]] = {
    # elementary
    "sqrt": Function((1,), "principal square root"),
    "cbrt": Function((1,), "real cube root"),
    "root": Function((2,), "root(x, n): the principal n-th root"),
    "exp": Function((1,), "exponential"),
    "log": Function((1, 2), "log(x): natural logarithm; log(x, b): to base b"),
    "sin": Function((1,), "sine"),
    "cos": Function((1,), "cosine"),
    "tan": Function((1,), "tangent"),
    "cot": Function((1,), "cotangent"),
    "sec": Function((1,), "secant"),
    "csc": Function((1,), "cosecant"),
    "asin": Function((1,), "inverse sine"),
    "acos": Function((1,), "inverse cosine"),
    "atan": Function((1,), "inverse tangent"),
    "acot": Function((1,), "inverse cotangent"),
    "atan2": Function((2,), "atan2(y, x): the angle of the point (x, y)"),
    "sinh": Function((1,), "hyperbolic sine"),
    "cosh": Function((1,), "hyperbolic cosine"),
    "tanh": Function((1,), "hyperbolic tangent"),
    "coth": Function((1,), "hyperbolic cotangent"),
    "sech": Function((1,), "hyperbolic secant"),
    "csch": Function((1,), "hyperbolic cosecant"),
    "asinh": Function((1,), "inverse hyperbolic sine"),
    "acosh": Function((1,), "inverse hyperbolic cosine"),
    "atanh": Function((1,), "inverse hyperbolic tangent"),
    # complex parts
    "Abs": Function((1,), "absolute value (modulus)"),
    "sign": Function((1,), "sign (z/|z| for complex z)"),
    "re": Function((1,), "real part"),
    "im": Function((1,), "imaginary part"),
    "arg": Function((1,), "argument (phase)"),
    "conjugate": Function((1,), "complex conjugate"),
    # integers and pieces
    "floor": Function((1,), "floor"),
    "ceiling": Function((1,), "ceiling"),
    "Mod": Function((2,), "Mod(a, b): the remainder of a divided by b"),
    "Min": Function((2, 3, 4), "the least of its arguments"),
    "Max": Function((2, 3, 4), "the greatest of its arguments"),
    "factorial": Function((1,), "n!"),
    "binomial": Function((2,), "binomial(n, k): n choose k"),
    "KroneckerDelta": Function((2,), "1 when its two arguments are equal, else 0"),
    # distributions
    "DiracDelta": Function((1, 2), "DiracDelta(x): Dirac's delta; DiracDelta(x, n): its n-th derivative"),
    "Heaviside": Function((1,), "Heaviside's step (1/2 at 0)"),
    # special functions
    "erf": Function((1,), "error function"),
    "erfc": Function((1,), "complementary error function"),
    "erfi": Function((1,), "imaginary error function"),
    "gamma": Function((1,), "Gamma function"),
    "loggamma": Function((1,), "log of the Gamma function"),
    "lowergamma": Function((2,), "lowergamma(s, x): lower incomplete Gamma function"),
    "uppergamma": Function((2,), "uppergamma(s, x): upper incomplete Gamma function"),
    "beta": Function((2,), "Euler's Beta function"),
    "digamma": Function((1,), "digamma function"),
    "polygamma": Function((2,), "polygamma(n, x)"),
    "zeta": Function((1, 2), "Riemann zeta(s); Hurwitz zeta(s, a)"),
    "expint": Function((2,), "expint(n, x): the generalised exponential integral E_n(x)"),
    "E1": Function((1,), "E1(x): the exponential integral E_1(x), that is expint(1, x)"),
    "Ei": Function((1,), "the exponential integral Ei(x)"),
    "Si": Function((1,), "sine integral"),
    "Ci": Function((1,), "cosine integral"),
    "li": Function((1,), "logarithmic integral"),
    "besselj": Function((2,), "besselj(nu, x): Bessel function of the first kind J_nu(x)"),
    "bessely": Function((2,), "bessely(nu, x): Bessel function of the second kind Y_nu(x)"),
    "besseli": Function((2,), "besseli(nu, x): modified Bessel function I_nu(x)"),
    "besselk": Function((2,), "besselk(nu, x): modified Bessel function K_nu(x)"),
    # calculus
    "Integral": Function(
        (2, 3, 4),
        "Integral(f, x) indefinite; Integral(f, (x, a, b)) definite (a, b may be oo, -oo); "
        "several (x, a, b) for a multiple integral",
        "calculus",
    ),
    "Derivative": Function(
        (2, 3, 4),
        "Derivative(f, x); Derivative(f, x, 2) second; Derivative(f, x, y) mixed partial; "
        "f may call a declared function, as in Derivative(Q(r), r)",
        "calculus",
    ),
    "Limit": Function(
        (3, 4),
        "Limit(f, x, a): the two-sided limit of f as x tends to a (a may be oo, -oo); Limit(f, x, a, '+') from "
        "above, '-' from below",
        "calculus",
    ),
    "Subs": Function((3,), "Subs(f, x, a): f with x put to a (a change of variables)", "calculus"),
    "Sum": Function((2,), "Sum(f, (k, a, b)): the sum of f for k from a to b (b may be oo)", "calculus"),
    "Product": Function((2,), "Product(f, (k, a, b)): the product of f for k from a to b", "calculus"),
    # matrices: a side is a number, so a matrix ends in det, trace or entry
    "Matrix": Function((1, 2, 3, 4, 5, 6), "Matrix([[a, b], [c, d]]): its rows", "matrix"),
    "det": Function((1,), "determinant of a square matrix", "matrix"),
    "trace": Function((1,), "trace of a square matrix", "matrix"),
    "transpose": Function((1,), "transpose", "matrix"),
    "inverse": Function((1,), "inverse of a square matrix (M^-1 too)", "matrix"),
    "entry": Function((3,), "entry(M, i, j): the entry in row i, column j (from 1)", "matrix"),
    # conditions
    "And": Function((2, 3, 4, 5, 6), "all of its conditions hold", "condition"),
    "Or": Function((2, 3, 4, 5, 6), "at least one of its conditions holds", "condition"),
    "Not": Function((1,), "its condition does not hold", "condition"),
    "Eq": Function((2,), "Eq(a, b): the condition a = b", "condition"),
    "Ne": Function((2,), "Ne(a, b): the condition a != b", "condition"),
}
"""Each function an expression may call, with the numbers of arguments it takes and what it is.

The names and meanings are sympy's; `E1(x)` is written for `expint(1, x)` as papers write it.
"""

ALIASES: Final[Mapping[str, str]] = {
    "ln": "log",
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "Gamma": "gamma",
}
"""Names papers use for functions of the vocabulary, read as those functions (`ln(x)` is `log(x)`)."""

OPERATORS: Final[Mapping[str, str]] = {"+ - * / ^ ** ( )": "", "< <= > >=": "(conditions); write 2*x, not 2x"}
"""The operators of the sympy spelling, with how each is read."""

CALCULUS_FORMS: Final = "Integral(f, (x, a, b)), Derivative(f, x, 2), Limit(f, x, a), Sum(f, (k, a, b)), Subs(f, x, a)"
"""How the calculus functions are called, said once for the schema."""

PERCENT: Final = "% is not read: write x/100 or Mod(x, y)"
"""How `%` is read, said once for the schema and the refusal alike."""

NAME_RULES: Final = "Names: x, \\lambda (read lambda), \\bar{x}, x'"

RESERVED: Final = frozenset(CONSTANTS) | frozenset(TRUTH_VALUES)
"""Names a symbol may not take (a symbol may share a function's name: `gamma` alone is the symbol,
`gamma(x)` a call, and a step that writes both is refused as ambiguous)."""

ALIAS_TARGETS: Final = (*CONSTANTS, *(name for name, function in FUNCTIONS.items() if function.kind == "function"))
"""What a name of the paper's may stand for (`aliases`): a constant, or a function of kind "function"."""

CALCULUS: Final = frozenset(name for name, function in FUNCTIONS.items() if function.kind == "calculus")
MATRICES: Final = frozenset(name for name, function in FUNCTIONS.items() if function.kind == "matrix")


def resolve_function(name: str) -> str | None:
    """The vocabulary's name for a function name as written (an alias read as its function), or None."""
    if name in FUNCTIONS:
        return name
    return ALIASES.get(name)


def nearest(name: str, candidates: list[str] | None = None) -> str | None:
    """The vocabulary name closest to an unknown one (`Log` -> `log`, `erff` -> `erf`), or None."""
    pool = candidates if candidates is not None else [*FUNCTIONS, *ALIASES]
    lowered = {candidate.lower(): candidate for candidate in pool}
    if name.lower() in lowered:
        found = lowered[name.lower()]
        return ALIASES.get(found, found)
    import difflib  # an unknown name's suggestion only: kept off the plugins' import path

    close = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    if not close:
        close = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.6)
        close = [lowered[close[0]]] if close else []
    return ALIASES.get(close[0], close[0]) if close else None


def function_list() -> str:
    """The functions as one line for a person, grouped by how many arguments they take (`1: sin cos ...;
    2: atan2 ...; 1-2: log ...`, the counts always consecutive), then the aliases: compact, and read back
    by a test."""
    groups: dict[tuple[int, ...], list[str]] = {}
    for name, function in FUNCTIONS.items():
        groups.setdefault(function.arities, []).append(name)
    parts = []
    for arities, names in groups.items():
        counts = str(arities[0]) if len(arities) == 1 else f"{arities[0]}-{arities[-1]}"
        parts.append(f"{counts}: {' '.join(names)}")
    aliases = " ".join(f"{alias}={name}" for alias, name in ALIASES.items())
    return f"Arity {'; '.join(parts)}. Aliases {aliases}"
