"""The rules of rederive-maths-numeric, which both ends of the pipe apply. The check compares the two sides
of a maths step at 32 points drawn in the symbols' domains.

It runs only when rederive-maths ends in error, and decides the steps sympy cannot reduce, or cannot
reduce within its budget. The points come from `random.Random(seed)`, the seed being the first 52 bits of
the digest of the encoding's canonical JSON, and are recorded with the check as exact decimals (see
`read.points` for the distribution in each domain), so a re-run draws the same points and substitutes the same
exact numbers.

The sides are built as written (sympy's evaluation off, so nothing is expanded before numbers are in
it); at each point the point's exact values are substituted, which evaluates them exactly where sympy
can, then each side is evaluated with `evalf` to 50 significant digits. Integrals, sums and products are
evaluated numerically there (mpmath's quadrature and series summation, through sympy's `evalf`), limits
with mpmath's `limit` (both sides of a two-sided limit, which must agree), derivatives exactly. A function
the encoding declares (undefined, so no number can be put in it) is replaced by a test function drawn
from the same seed and recorded, `Q(t) = c0 + c1*t + c2*t^2 + c3/(1 + t^2)`: an identity that holds for
every function holds for it, and one that does not usually fails there.

With l and r the two values and T the largest absolute value of a top-level term of either side there,
the sides agree when

    |l - r| <= 1e-12 * max(|l|, |r|)    or    |l - r| <= 1e-30 * T.

The first is the relative tolerance; the second lets two values that are 0 up to evaluation noise agree
(sin(x)^2 + cos(x)^2 - 1 evaluates to about 1e-165, not 0): 50-digit evaluation leaves noise near
1e-50 * T, far below 1e-30 * T, while a real difference that small against the terms is beyond what 32
random points can tell anyway. A step against a number the paper reports (see `worker.rounding`) agrees within
half a unit of the number's last digit instead. Two conditions are never compared at sampled points (an
equality is false on both sides almost everywhere): the check errs at once. A point where a side is
undefined (zoo, nan, a pole, a divergent integral) or not a number is skipped; more than 8 such points make
the check an error, `numeric-undefined`. The check passes when every other point agrees (unless both sides
took one value everywhere while holding a function constant on pieces: `numeric-degenerate`) and fails at the
first that does not, recording its index and both values.

The caller draws the points and records them with the outcome (`caller.numeric`); the worker evaluates
the sides there and compares them (`worker.comparison`, `worker.numeric_values`). Both read the seed,
the counts and the tolerances here, so the two sides of the pipe cannot disagree on them.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Final, Literal

from cgx_checks.maths.read.encoding import Encoding
from cgx_core.base.digests import hex_of, json_digest

type Result = Literal["passed", "failed", "error"]

POINTS: Final = 32
"""Points drawn per step."""

RELATIVE_TOLERANCE: Final = "1e-12"
ZERO_FLOOR: Final = "1e-30"
"""The tolerances (see the module's docstring), as the decimal strings recorded with the check."""

EVALUATION_DIGITS: Final = 50
"""Significant digits each side is evaluated to."""

SHOWN_DIGITS: Final = 20
"""Significant digits of a value in the record."""

MAX_UNDEFINED: Final = 8
"""Points (of every `POINTS` distinct ones) where a side may be undefined before the check is an error; a
check that compared no point at all is an error too."""


def numeric_seed(encoding: Encoding) -> int:
    """The seed of a step's points: the first 52 bits of its encoding's canonical JSON digest.

    52 bits keep the seed exact in any JSON reader (doubles hold integers up to 2^53).
    """
    return int(hex_of(json_digest(encoding.to_json()))[:13], 16)


def function_coefficients(seed: int, name: str, arity: int) -> tuple[Fraction, ...]:
    """The coefficients of the test function of a declared function: c0, c1, c2, c3, each k/8 with k a
    nonzero integer in -16..16, drawn from the step's seed and the function's name and arity."""
    generator = random.Random(f"{seed}:{name}:{arity}")
    return tuple(Fraction(generator.choice([k for k in range(-16, 17) if k]), 8) for _ in range(4))
