"""rederive-maths' own codes (and its numeric fallback's): a step it refuses, or a derivation that ended in error.

Each is declared with its meaning through `define_codes` by the check types that use it (see
docs/plugins.md: a plugin owns its codes); `python -m cgx_core.codes` lists them under their check type."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class MathsCode(StrEnum):
    """A stable, kebab-case code of maths."""

    DEGREE_TOO_LARGE = "degree-too-large"
    LATEX_INVALID = "latex-invalid"
    LATEX_NOT_IN_TEXT = "latex-not-in-text"
    LATEX_AMBIGUOUS = "latex-ambiguous"
    STEP_TRIVIAL = "step-trivial"
    APPROXIMATION_NOT_NUMERIC = "approximation-not-numeric"
    SYMBOLIC_UNDECIDED = "symbolic-undecided"
    SYMBOLIC_TIMEOUT = "symbolic-timeout"
    NUMERIC_UNDEFINED = "numeric-undefined"
    NUMERIC_DISTRIBUTION = "numeric-distribution"
    NUMERIC_CONDITION = "numeric-condition"
    NUMERIC_DEGENERATE = "numeric-degenerate"
    NUMERIC_PRECISION = "numeric-precision"


MEANINGS: Final[dict[str, str]] = {
    MathsCode.DEGREE_TOO_LARGE: "A maths step has degree above 1000.",
    MathsCode.LATEX_INVALID: (
        "A maths step's LaTeX does not parse, or writes something the check cannot read as maths (\\dots, "
        "O(...), an evaluation bar); the message gives the column."
    ),
    MathsCode.LATEX_NOT_IN_TEXT: (
        "A maths step's LaTeX is not in its cited equation chunks as a whole relation or side (compared after"
        " removing spacing and layout)."
    ),
    MathsCode.LATEX_AMBIGUOUS: (
        "The LaTeX reads two ways, both named: a function without brackets followed by more factors "
        "(\\cos\\beta q^{-1}: function_argument says which), or a / followed by factors (a/b c)."
    ),
    MathsCode.STEP_TRIVIAL: "A maths step's two sides are the same expression as written, so its check could not fail.",
    MathsCode.APPROXIMATION_NOT_NUMERIC: (
        "An approximate step (\\approx) does not compare a number the paper reports with an expression that "
        "evaluates to a number, so there are no reported digits to round to."
    ),
    MathsCode.SYMBOLIC_UNDECIDED: "sympy could neither reduce lhs - rhs to 0 nor show it is never 0.",
    MathsCode.SYMBOLIC_TIMEOUT: "Symbolic work ran out of its time or memory budget.",
    MathsCode.NUMERIC_UNDEFINED: (
        "At too many sample points a side had no value with the digits a comparison needs (not computable there, "
        "or a quadrature, sum or limit that did not converge), or the sides seemed to differ with no error bound."
    ),
    MathsCode.NUMERIC_CONDITION: (
        "The step compares two conditions, which only a symbolic decision settles: sampled points never pass or "
        "fail them (an equality is false on both sides almost everywhere)."
    ),
    MathsCode.NUMERIC_PRECISION: (
        "The sides differ at a sample point with the step's printed constants as written, but each stands for an "
        "interval (1.3 is 1.3 +- 0.05) that sampling cannot search."
    ),
    MathsCode.NUMERIC_DEGENERATE: (
        "Both sides took one value at every sample point (zero, or another constant): sides constant almost "
        "everywhere agree at sampled points whether or not the step holds, so that is no evidence."
    ),
    MathsCode.NUMERIC_DISTRIBUTION: (
        "A side holds a distribution (DiracDelta, or KroneckerDelta of a non-integer symbol), which is 0 at almost "
        "every sampled point, so the numeric fallback does not decide it."
    ),
}
