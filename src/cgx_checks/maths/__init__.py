"""The computational core of the rederive-maths and rederive-maths-numeric checks.

Pure functions and one worker process; the check-type plugins wrap them.

* `parse_step(encoding)` validates an encoding (the JSON an agent sends) and checks both sides against
  every structural cap, building nothing of sympy: the proposal-time check, raising CgxError.
* `SymbolicDecider.decide(encoding)` is rederive-maths (sympy, in a worker, within a budget);
  `shared_decider()` is the process-wide instance.
* `numeric_check(encoding)` is rederive-maths-numeric; `numeric_points` gives its seed and points.
* `observation_key(encoding)` is the same-observation rule.
"""

from cgx_checks.maths.decide import (
    DEFAULT_BUDGET,
    MathsOutcome,
    SymbolicDecider,
    certified_nonzero,
    decide_step,
    shared_decider,
)
from cgx_checks.maths.encoding import Domain, Encoding, canonical_assumptions, domain_of, load_encoding
from cgx_checks.maths.numeric import POINTS, NumericOutcome, compare_at, numeric_check, numeric_points, numeric_seed
from cgx_checks.maths.observation import canonical_text, observation_key
from cgx_checks.maths.parse import parse_side, side_parser
from cgx_checks.maths.structure import ParsedStep, Shape, parse_step
from cgx_checks.maths.vocabulary import ASSUMPTIONS, CONSTANTS, FUNCTIONS
from cgx_checks.maths.worker import MathsWorker, shared_worker

__all__ = [
    "ASSUMPTIONS",
    "CONSTANTS",
    "DEFAULT_BUDGET",
    "FUNCTIONS",
    "POINTS",
    "Domain",
    "Encoding",
    "MathsOutcome",
    "MathsWorker",
    "NumericOutcome",
    "ParsedStep",
    "Shape",
    "SymbolicDecider",
    "canonical_assumptions",
    "canonical_text",
    "certified_nonzero",
    "compare_at",
    "decide_step",
    "domain_of",
    "load_encoding",
    "numeric_check",
    "numeric_points",
    "numeric_seed",
    "observation_key",
    "parse_side",
    "parse_step",
    "shared_decider",
    "shared_worker",
    "side_parser",
]
