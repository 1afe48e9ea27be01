"""How a symbol's name as written (`λ`, `\\lambda`, `\\gamma_1`, `x'`, `\\bar{x}`) becomes one sympy name.

Papers write symbols in LaTeX and agents copy them in Unicode or in plain letters, so one symbol has
several spellings. Each spelling maps, deterministically, to one plain name (its "sympy name"): a Greek
letter becomes its English name (`λ`, `\\lambda` -> `lambda`; the variant forms `\\varepsilon`,
`\\varphi`, `\\vartheta`, `\\varrho`, `\\varsigma` are their plain letter), a subscript is joined with `_`
(`\\gamma_{12}` -> `gamma_12`, `x_{\\mathrm{obs},i}` -> `x_obs_i`), an accent or a font is a suffix
(`\\bar{x}` -> `x_bar`, `\\hat{\\mu}` -> `mu_hat`, `\\mathbf{v}` -> `v_bf`) and each prime is `_prime`
(`x'` -> `x_prime`, `x''` -> `x_prime2`). Two spellings with one sympy name are one symbol, so an
expression may use any spelling of a declared symbol, and the check records the mapping.

This module reads identifiers (`x`, `b_2`, `λ_1`, `x'`); LaTeX spellings are read by the LaTeX grammar
(`latex.name_of`), which composes the same parts with `compose`.
"""

# ruff: noqa: RUF001, RUF002 - this module is about Greek letters that look like Latin ones

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

GREEK: Final[Mapping[str, str]] = {
    "α": "alpha",
    "β": "beta",
    "γ": "gamma",
    "δ": "delta",
    "ε": "epsilon",
    "ϵ": "epsilon",
    "ζ": "zeta",
    "η": "eta",
    "θ": "theta",
    "ϑ": "theta",
    "ι": "iota",
    "κ": "kappa",
    "λ": "lambda",
    "μ": "mu",
    "µ": "mu",  # the micro sign, which keyboards type for mu
    "ν": "nu",
    "ξ": "xi",
    "ο": "omicron",
    "π": "pi",
    "ϖ": "varpi",
    "ρ": "rho",
    "ϱ": "rho",
    "σ": "sigma",
    "ς": "sigma",
    "τ": "tau",
    "υ": "upsilon",
    "φ": "phi",
    "ϕ": "phi",
    "χ": "chi",
    "ψ": "psi",
    "ω": "omega",
    "Γ": "Gamma",
    "Δ": "Delta",
    "Θ": "Theta",
    "Λ": "Lambda",
    "Ξ": "Xi",
    "Π": "Pi",
    "Σ": "Sigma",
    "Υ": "Upsilon",
    "Φ": "Phi",
    "Ψ": "Psi",
    "Ω": "Omega",
    "ℓ": "ell",
    "ħ": "hbar",
}
"""Unicode letters and the plain name each is read as."""

LATEX_LETTERS: Final[Mapping[str, str]] = {
    **{name: name for name in set(GREEK.values()) if name not in ("ell", "hbar", "varpi")},
    "varepsilon": "epsilon",
    "varphi": "phi",
    "vartheta": "theta",
    "varrho": "rho",
    "varsigma": "sigma",
    "varpi": "varpi",
    "varkappa": "kappa",
    "ell": "ell",
    "hbar": "hbar",
    "imath": "i",
    "jmath": "j",
}
"""LaTeX letter commands (without the backslash) and the plain name each is read as."""

ACCENTS: Final[Mapping[str, str]] = {
    "bar": "bar",
    "overline": "bar",
    "hat": "hat",
    "widehat": "hat",
    "tilde": "tilde",
    "widetilde": "tilde",
    "dot": "dot",
    "ddot": "ddot",
    "vec": "vec",
    "check": "check",
    "breve": "breve",
    "underline": "underline",
    "mathbf": "bf",
    "boldsymbol": "bf",
    "bm": "bf",
    "mathcal": "cal",
    "mathbb": "bb",
    "mathsf": "sf",
    "mathfrak": "frak",
}
"""LaTeX accents and fonts that make a new symbol of a letter, with the suffix each adds."""

PLAIN_FONTS: Final = frozenset({"mathrm", "mathit", "text", "textrm", "textit", "operatorname", "mathnormal"})
"""Fonts that only set a name upright or in italics: \\mathrm{obs} is the name obs."""

_IDENTIFIER: Final = re.compile(r"(\\[A-Za-z]+)?([^\W\d]?[\w]*)('*)")


def identifier_name(text: str) -> str | None:
    """The sympy name of an identifier spelling (`x`, `b_2`, `λ_1`, `σ2`, `x'`, `\\gamma_1`), or None if
    it is not one (a LaTeX command that is not a letter, such as `\\frac`, is not).

    A Greek letter inside an identifier becomes its name, with `_` before a letter that follows it
    (`λx` -> `lambda_x`), so the result is itself an identifier and reads back as itself.
    """
    match = _IDENTIFIER.fullmatch(text)
    if match is None or not text or text[0].isdigit():
        return None
    command, body, prime_marks = match.groups()
    primes = len(prime_marks)
    if command is not None:
        letter = LATEX_LETTERS.get(command[1:])
        if letter is None or (body and not body.startswith("_")):
            return None
        body = letter + body
    elif not body:
        return None
    out: list[str] = []
    for index, character in enumerate(body):
        if character in GREEK:
            out.append(GREEK[character])
            following = body[index + 1 : index + 2]
            if following and following.isalpha():
                out.append("_")
        else:
            out.append(character)
    return compose("".join(out), (), (), primes)


def compose(base: str, accents: Sequence[str], subscripts: Sequence[str], primes: int) -> str:
    """One sympy name from its parts: `compose("x", ["bar"], ["1"], 1)` is `x_bar_1_prime`."""
    parts = [base, *accents, *(part for part in subscripts if part)]
    name = "_".join(part for part in parts if part)
    if primes:
        name += "_prime" + (str(primes) if primes > 1 else "")
    return name
