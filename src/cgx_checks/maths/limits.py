"""The caps that keep every rederive-maths check bounded, in one place.

An encoding comes from an agent, so it is hostile until checked. The caps on text (length, nesting,
numerals) are checked before lark sees it; the caps on structure (tree depth, degree, the size of the
numbers sympy would compute) are checked on the parse tree before sympy builds anything, because building
an object such as `10**10**10` is already the expensive part. What no structural cap can bound, such as
`simplify` on sympy issue 21787's expression, runs in a worker process with a CPU-time and memory budget.
"""

from __future__ import annotations

from typing import Final

MAX_SIDE_CHARS: Final = 2_000
"""A side longer than this is refused (`expression-too-large`) before the parser sees it."""

MAX_LATEX_CHARS: Final = 2_000
"""A LaTeX relation or side longer than this is refused (`expression-too-large`) before the parser sees it."""

MAX_NESTING: Final = 50
"""Parentheses nested deeper than this are refused (`expression-too-large`) before the parser sees them."""

MAX_DEPTH: Final = 60
"""The deepest parse tree accepted (`expression-too-large`): powers of powers, calls inside calls.

Sums and products are flat and repeated signs fold, so only structure that sympy keeps nested counts. The
bound keeps every later recursive walk (ours and sympy's) far from Python's recursion limit.
"""

MAX_NUMERAL_DIGITS: Final = 60
"""A numeral with more digits than this is refused (`expression-too-large`)."""

MAX_NUMERAL_EXPONENT: Final = 300
"""The largest power of ten a numeral may write (1e300, 2.5e-300); above it, `expression-too-large`."""

MAX_DEGREE: Final = 1_000
"""A step whose structural degree is above this is refused (`degree-too-large`)."""

MAX_NUMBER_BITS: Final = 12_000
"""The largest bit size of any exact number sympy would build (`result-too-large` above it).

Estimated on the tree before building: a power of a numeral, a product of coefficients. It stays below
the 4,300 digits Python converts between int and str. A value at a witness point can be larger (a
symbol's value raised to a high power, times such a number), so a recorded number is never written out
in full: `worker.decision.number_text` shows one of more than about 40 digits to 15 significant digits.
"""

MAX_RADICAND_BITS: Final = 1_024
"""The largest numeral (in bits) under a root such as `sqrt(n)` (`result-too-large` above it).

sympy factors a radicand to simplify the root, and its time grows steeply with the radicand's size
(about 0.1 s at 1,000 digits, 1.6 s at 3,000 here), so the radicands of a product, which sympy merges,
are bounded together.
"""

MAX_SYMBOLS: Final = 50
"""The most symbols an encoding may declare."""

MAX_NAME_CHARS: Final = 40
"""The longest symbol name."""

MAX_FUNCTIONS: Final = 20
"""The most undefined functions (and, apart, aliases) an encoding may declare."""

MAX_ARGUMENTS: Final = 8
"""The most arguments a call of a declared function may take."""

MAX_MATRIX_SIZE: Final = 6
"""The most rows or columns of a matrix (`expression-too-large` above it): a 6 x 6 determinant has 720 terms."""

MAX_MATRIX_POWER: Final = 8
"""The largest integer power of a matrix (its inverse is the power -1)."""

MAX_DERIVATIVE_ORDER: Final = 10
"""The highest total order of a derivative (`expression-too-large` above it)."""

EXPAND_TERMS: Final = 1_000
"""`observation_key` expands a side only when its expansion is estimated to have at most this many terms."""

EXPAND_BITS: Final = 4_000
"""... and numbers of at most this many bits, and radicands of at most `EXPAND_RADICAND_BITS` in all."""

EXPAND_RADICAND_BITS: Final = 256
"""The total size of the radicands of a side that `observation_key` still expands."""

EXPAND_COMPLEX_DEGREE: Final = 4
"""... and arguments of re, im, arg, Abs, sign and conjugate of at most this degree."""

SATURATE: Final = 10**12
"""Estimates (terms, degree) saturate here: past every cap, the exact size no longer matters."""

DECIDE_BUDGET: Final = 10.0
"""Seconds of CPU time rederive-maths may spend on one step in the worker (not counting the worker's
start); past it the task is stopped and the check is an error, `symbolic-timeout`. CPU time, never wall
time: the result must not depend on how busy the machine is. Recorded in each check's inputs."""

NUMERIC_BUDGET: Final = 10.0
"""Seconds of CPU time rederive-maths-numeric may spend evaluating its 32 points in the worker."""

NUMERIC_CALCULUS_BUDGET: Final = 30.0
"""... and for a step with an integral, sum, product or limit, each computed numerically at every point
(quadrature at 50 digits costs about 0.1 s an integral)."""
