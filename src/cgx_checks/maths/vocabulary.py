"""The fixed vocabulary of maths expressions: the assumptions a symbol may carry, constants, functions.

Kept apart from sympy so that checking an expression's names costs nothing; `build` maps each name to
its sympy object. Everything an encoding may write is listed here, so the documentation and the error
messages read one list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

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

CONSTANTS: Final = ("I", "pi", "E")
"""The imaginary unit, pi and Euler's number."""

FUNCTIONS: Final[Mapping[str, tuple[int, ...]]] = {
    "sin": (1,),
    "cos": (1,),
    "tan": (1,),
    "cot": (1,),
    "sec": (1,),
    "csc": (1,),
    "asin": (1,),
    "acos": (1,),
    "atan": (1,),
    "acot": (1,),
    "sinh": (1,),
    "cosh": (1,),
    "tanh": (1,),
    "coth": (1,),
    "asinh": (1,),
    "acosh": (1,),
    "atanh": (1,),
    "exp": (1,),
    "log": (1, 2),
    "sqrt": (1,),
    "Abs": (1,),
    "sign": (1,),
    "re": (1,),
    "im": (1,),
    "arg": (1,),
    "conjugate": (1,),
}
"""Each function an expression may call, with the numbers of arguments it takes.

`log(x)` is the natural logarithm and `log(x, b)` the logarithm to base b; `sqrt` is the principal square
root; `Abs`, `sign`, `re`, `im`, `arg` and `conjugate` are sympy's complex functions of the same names.
"""

RESERVED: Final = frozenset(CONSTANTS) | frozenset(FUNCTIONS)
"""Names a symbol may not take."""
