"""What the three kinds of decision share (in the worker): building a step, exact numbers as recorded,
points as substitutions, and the outcomes' wording."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Final

import sympy

from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.outcome import MathsOutcome, error_outcome
from cgx_checks.maths.read.encoding import Encoding
from cgx_checks.maths.read.points import Value, ValueJson, point_json
from cgx_checks.maths.read.step import ParsedStep
from cgx_checks.maths.worker.build import BuiltStep, at_point, build_step, inexact, substitution, undefined
from cgx_checks.maths.worker.certify import certificate

WITNESS_DIGITS: Final = 30
"""Significant digits `evalf(strict=True)` must certify to call a value at a witness nonzero."""

SHOWN_DIGITS: Final = 15
"""Significant digits of a nonzero difference in the record."""

SHOWN_CHARS: Final = 200
TEXT_BITS: Final = 130
"""Exact integers and fractions up to about 40 digits are recorded as written; larger ones to 15 digits
(Python refuses to write an integer of more than 4,300 digits as text, and no reader wants one)."""


def built_or_error(step: ParsedStep) -> BuiltStep | MathsOutcome:
    """Both sides built and, for a step with calculus, computed (`doit`); or why they cannot be."""
    try:
        built = build_step(step)
    except MemoryError:
        raise
    except Exception:  # sympy failed while evaluating what it built
        return error_outcome(
            MathsCode.SYMBOLIC_UNDECIDED,
            "sympy could not evaluate the sides as written (it stopped while building them), so it decided nothing; "
            "the numeric check evaluates each side apart",
        )
    if step.calculus:
        lhs, rhs = (attempt(lambda side: side.doit(), side) for side in (built.lhs, built.rhs))
        built = BuiltStep(built.lhs if lhs is None else lhs, built.rhs if rhs is None else rhs, built.symbols)
    for side, expression in (("lhs", built.lhs), ("rhs", built.rhs)):
        if isinstance(expression, sympy.Basic) and undefined(expression):
            return error_outcome(
                MathsCode.SYMBOLIC_UNDECIDED,
                f"sympy's evaluation of {side} gave {short(expression)}, which is no value to compare: the side "
                "may be undefined (a pole, a divergent integral, sum or limit) or beyond what sympy computes in "
                "closed form; the numeric check evaluates each side apart",
            )
    return built


def certified_nonzero(value: Any) -> str | None:
    """The value as text when it is an exact number sympy certifies nonzero, else None (zero, unknown, or
    not exact: an unevaluated integral or an undefined function is no proof)."""
    if value.free_symbols or undefined(value) or inexact(value):
        return None
    if value.is_Rational:
        return None if value == 0 else number_text(value)
    try:
        number = value.evalf(WITNESS_DIGITS, strict=True)
    except MemoryError:
        raise
    except Exception:  # PrecisionExhausted: evalf cannot tell it from 0; or evalf cannot evaluate it
        return None
    real, imaginary = number.as_real_imag()
    if not (real.is_Number and imaginary.is_Number) or (real == 0 and imaginary == 0):
        return None
    return number_text(number)


def number_text(value: Any) -> str:
    """A number as recorded: exactly when it is a small rational, else to `SHOWN_DIGITS` digits.

    Sizes are read from the integers' bit lengths, never by writing them out: a 4,300-digit value would
    make `str` raise (Python's int-to-str limit), which must not turn a failed step into an error."""
    if value.is_Rational and max(abs(value.p).bit_length(), value.q.bit_length()) <= TEXT_BITS:
        return str(value)
    return str(sympy.N(value, SHOWN_DIGITS))


def witness_failed(
    point: Mapping[str, Value],
    encoding: Encoding,
    found: str,
    difference: str,
    *,
    nowhere: str = "",
    method: str = "witness",
    certificate: Mapping[str, Any] | None = None,
) -> MathsOutcome:
    """A step that fails at a point of the symbols' domains: the point, recorded, named in the detail with
    what was `found` there (`nowhere` names a point with no symbols)."""
    recorded = point_json(point, encoding)
    where = ", ".join(f"{name} = {value_text(recorded[name])}" for name in sorted(recorded))
    return MathsOutcome(
        "failed",
        f"at {where or nowhere} (in the symbols' domains) {found}",
        method=method,
        witness=recorded,
        difference=difference,
        certificate=certificate,
    )


def certified_failure(
    written: BuiltStep, point: Mapping[str, Value], encoding: Encoding, *, method: str = "witness"
) -> MathsOutcome | None:
    """The failure at a point, when each side as written, evaluated apart with its error bound (see
    `certify`), differs from the other there by more than the bounds allow; else None."""
    found = certificate(written.lhs, written.rhs, substitution(written, point))
    if found is None:
        return None
    recorded = found.to_json()
    lhs, rhs = recorded["lhs"], recorded["rhs"]
    return witness_failed(
        point,
        encoding,
        f"lhs = {lhs['value']} (+- {lhs['bound']}) and rhs = {rhs['value']} (+- {rhs['bound']}), each evaluated "
        f"apart to {recorded['digits']} digits: they differ by more than {recorded['margin']} times their bounds",
        found.difference(),
        nowhere="every point",
        method=method,
        certificate=recorded,
    )


def value_text(value: ValueJson) -> str:
    return value if isinstance(value, str) else f"{value['re']} + ({value['im']})*I"


def attempt[T](transform: Callable[[T], Any], value: T) -> Any:
    """A transform's result, or None when sympy raised (a sympy failure leaves the step undecided)."""
    try:
        return transform(value)
    except MemoryError:
        raise
    except Exception:
        return None


def short(value: Any) -> str:
    """An expression as text for a person, at most `SHOWN_CHARS` long; a huge integer in it is shown to
    `SHOWN_DIGITS` digits rather than written out (see `number_text`)."""
    if isinstance(value, sympy.Basic):
        large = {
            atom: sympy.Float(atom, SHOWN_DIGITS)
            for atom in value.atoms(sympy.Rational)
            if max(abs(atom.p).bit_length(), atom.q.bit_length()) > TEXT_BITS
        }
        if large:
            value = value.xreplace(large)
    try:
        text = str(sympy.sstr(value))
    except MemoryError:
        raise
    except Exception:  # sympy's printer can raise on its own results (Integral of floor, sympy 1.14)
        text = f"a {type(value).__name__} sympy cannot print"
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


def passed(method: str) -> MathsOutcome:
    return MathsOutcome("passed", f"sympy reduces lhs - rhs to 0 ({method})", method=method)


def exact_failure(written: BuiltStep, point: Mapping[str, Value], encoding: Encoding) -> MathsOutcome | None:
    """The failure at a point where the two sides as written, evaluated exactly there, differ by a number
    sympy certifies nonzero (for a step with no calculus: exact arithmetic and functions at an exact point,
    no antiderivative); the certificate records each side's exact value (bound 0)."""
    sides = substitution(written, point)
    lhs, rhs = (attempt(functools.partial(at_point, substitution=sides), side) for side in (written.lhs, written.rhs))
    if lhs is None or rhs is None:
        return None
    value = attempt(sympy.expand, lhs - rhs)
    if value is None or value.has(sympy.exp_polar) or (text := certified_nonzero(value)) is None:
        return None
    recorded = {
        "digits": "exact",
        "lhs": {"value": short(lhs), "bound": "0"},
        "margin": None,
        "rhs": {"value": short(rhs), "bound": "0"},
    }
    return witness_failed(
        point, encoding, f"lhs - rhs = {text}, which is not 0", text, nowhere="every point", certificate=recorded
    )
