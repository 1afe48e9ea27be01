"""Property tests: the grammar fuzzed with from_lark, and a hand-written recursive strategy.

Every generated expression parses, then gives sympy objects or our own CgxError, never another exception.
Building with sympy's evaluation on is bounded only through the worker's budget, so in this process a
step is built evaluated only when the structural estimates call it small, and always built as written.
A sample of the recursive steps goes through the worker: each ends with an outcome, a failed step's
witness is checked here independently, and a step sympy passes never fails the numeric check.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from cgx_checks.expression_codes import ExpressionCode
from cgx_checks.maths.caller.decider import SymbolicDecider
from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.read.parse import side_parser
from cgx_checks.maths.read.points import value_from_json
from cgx_checks.maths.read.step import ParsedStep, expandable, parse_step
from cgx_checks.maths.read.vocabulary import FUNCTIONS
from cgx_checks.maths.worker.build import build_step
from cgx_core.codes import Code
from cgx_core.errors import CgxError

FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SYMBOLS = {"x": ["real"], "y": ["positive"], "n": ["integer"], "q": ["nonzero"]}
NAMES = [*SYMBOLS, "I", "pi", "E", "oo", "sin", "exp", "log", "ln", "sqrt", "Abs", "re", "z", "gamma", "b_2", "λ", "x'"]
CALLS = [*NAMES, "Integral", "Derivative", "Limit", "Sum", "Product", "And", "Not", "Eq", "erf", "besselj"]
READ_ONLY = (
    "is a function",
    "argument(s)",
    "belong in Integral",
    "is not a value",
    "must be a declared symbol",
    "takes",
    "is the fourth argument of Limit",
    "joins conditions",
    "order",
    "is a condition",
    "is a declared symbol and",
)
"""What a sentence of the grammar may still be refused for: a name, an arity, a misplaced bound or condition."""


def outcome(lhs: str, rhs: str = "1") -> ParsedStep | CgxError:
    """The parsed step, built as written and (when small) evaluated, or our error."""
    try:
        step = parse_step({"symbols": SYMBOLS, "lhs": lhs, "rhs": rhs})
    except CgxError as error:
        return error
    written = build_step(step, evaluate=False)
    assert isinstance(written.lhs, sympy.Basic) and isinstance(written.rhs, sympy.Basic)
    if expandable(step):
        try:
            built = build_step(step)
        except CgxError as error:  # a function outside its domain, such as DiracDelta(I)
            assert error.code == Code.EXPRESSION_INVALID and "sympy refuses" in error.message, error.message
            return error
        assert isinstance(built.lhs, sympy.Basic) and isinstance(built.rhs, sympy.Basic)
    return step


@pytest.mark.slow
@settings(FUZZ, max_examples=200)
@given(from_lark(side_parser(), explicit={"NAME": st.sampled_from(CALLS)}))
def test_every_sentence_of_the_grammar_parses_then_builds_or_is_refused(expression: str) -> None:
    result = outcome(expression)
    # A sentence of the grammar always parses: only a name, an arity, a misplaced bound or a cap may stop it.
    if isinstance(result, CgxError) and result.code == Code.EXPRESSION_INVALID:
        assert any(phrase in result.message for phrase in READ_ONLY), result.message


@settings(FUZZ, max_examples=300)
@given(st.text(alphabet=st.sampled_from(list("xyn q()+-*/^.,0123456789eEIpisn\u2212")), max_size=60))
def test_arbitrary_text_never_raises_anything_but_our_error(text: str) -> None:
    outcome(text)


# -- a recursive strategy --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Written:
    """An expression's text and its precedence level: 1 sum, 2 product, 3 power operand, 4 atom."""

    text: str
    level: int

    def at(self, level: int) -> str:
        return self.text if self.level >= level else f"({self.text})"


LEAVES = st.one_of(
    st.sampled_from(["x", "y", "n", "q", "pi", "I", "E"]).map(lambda name: Written(name, 4)),
    st.integers(0, 99).map(lambda value: Written(str(value), 4)),
    st.sampled_from(["0.5", "2.25", "1e-3", "3/4"]).map(lambda text: Written(text, 4 if "/" not in text else 2)),
)


def _extend(children: st.SearchStrategy[Written]) -> st.SearchStrategy[Written]:
    unary = sorted(
        name for name, function in FUNCTIONS.items() if 1 in function.arities and function.kind == "function"
    )
    return st.one_of(
        st.tuples(children, st.sampled_from(["+", "-"]), children).map(
            lambda t: Written(f"{t[0].at(1)} {t[1]} {t[2].at(2)}", 1)
        ),
        st.tuples(children, st.sampled_from(["*", "/"]), children).map(
            lambda t: Written(f"{t[0].at(2)}{t[1]}{t[2].at(3)}", 2)
        ),
        st.tuples(children, st.sampled_from(["^", "**"]), st.integers(-3, 4)).map(
            lambda t: Written(f"{t[0].at(4)}{t[1]}{t[2]}" if t[2] >= 0 else f"{t[0].at(4)}{t[1]}({t[2]})", 3)
        ),
        st.tuples(st.sampled_from(unary), children).map(lambda t: Written(f"{t[0]}({t[1].text})", 4)),
        children.map(lambda child: Written(f"-{child.at(3)}", 2)),
    )


EXPRESSIONS = st.recursive(LEAVES, _extend, max_leaves=12)


@settings(FUZZ, max_examples=2000)
@given(EXPRESSIONS, EXPRESSIONS)
def test_generated_expressions_parse_then_build(lhs: Written, rhs: Written) -> None:
    result = outcome(lhs.text, rhs.text)
    if isinstance(result, CgxError):  # only a value out of range (a literal 0 divisor, log to base 1...)
        allowed = (
            ExpressionCode.DIVISION_BY_ZERO,
            ExpressionCode.RESULT_TOO_LARGE,
            MathsCode.DEGREE_TOO_LARGE,
            MathsCode.STEP_TRIVIAL,
        )
        assert result.code in allowed or "sympy refuses" in result.message, result.message


SMALL = st.recursive(LEAVES, _extend, max_leaves=5)

IDENTITIES = [
    ("({a})^2", "({a} + {b})^2 - 2*({a})*({b}) - ({b})^2"),
    ("sin({a})^2", "1 - cos({a})^2"),
    ("({a})*({b}) + {a}", "({a})*(({b}) + 1)"),
    ("exp({a})*exp({b})", "exp({a} + {b})"),
    ("cosh({a})", "(exp({a}) + exp(-({a})))/2"),
]


@settings(FUZZ, max_examples=25)
@given(SMALL, SMALL, st.sampled_from([None, *IDENTITIES]))
def test_a_sample_decided_in_the_worker_ends_with_a_sound_outcome(
    decider: SymbolicDecider, first: Written, second: Written, identity: tuple[str, str] | None
) -> None:
    # Most steps are true by construction (an identity applied to generated expressions); the rest are
    # two unrelated expressions, nearly always false.
    true = identity is not None
    if identity is None:
        lhs, rhs = first.text, second.text
    else:
        lhs, rhs = (side.format(a=first.text, b=second.text) for side in identity)
    encoding = {"symbols": SYMBOLS, "lhs": lhs, "rhs": rhs}
    try:
        decided = decider.decide(encoding)
    except CgxError as error:
        assert error.code in (
            ExpressionCode.DIVISION_BY_ZERO,
            ExpressionCode.RESULT_TOO_LARGE,
            MathsCode.DEGREE_TOO_LARGE,
            MathsCode.STEP_TRIVIAL,
        )
        return
    assert decided.result in ("passed", "failed", "error")
    if decided.result == "error":
        assert decided.code in (MathsCode.SYMBOLIC_UNDECIDED, MathsCode.SYMBOLIC_TIMEOUT)
    if true:
        assert decided.result != "failed", (encoding, decided)
    if decided.witness is not None:
        built = build_step(parse_step(encoding))
        values = {
            built.symbols[name]: sympy.Rational(*value_from_json(raw)[0].as_integer_ratio())
            + sympy.I * sympy.Rational(*value_from_json(raw)[1].as_integer_ratio())
            for name, raw in decided.witness.items()
        }
        difference = (built.lhs - built.rhs).xreplace(values)
        assert abs(complex(sympy.N(difference, 30))) > 0, (encoding, decided)
    if decided.result == "passed":
        assert decider.numeric_check(encoding).result != "failed", encoding
