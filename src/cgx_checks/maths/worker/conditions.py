"""Conditions: two inequalities (or And, Or, Not of them) pass when they hold for the same values of the
symbols (in the worker; see `decide`)."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

import sympy

from cgx_checks.maths.codes import MathsCode
from cgx_checks.maths.outcome import MathsOutcome, error_outcome
from cgx_checks.maths.read.points import condition_points
from cgx_checks.maths.read.shape import free_names
from cgx_checks.maths.read.step import ParsedStep
from cgx_checks.maths.worker.build import BuiltStep, free_symbols, substitute, substitution
from cgx_checks.maths.worker.decision import (
    attempt,
    built_or_error,
    number_text,
    passed,
    short,
    witness_failed,
)


def decide_condition(step: ParsedStep) -> MathsOutcome:
    """Two conditions pass when they hold for the same values of the symbols."""
    built = built_or_error(step)
    if isinstance(built, MathsOutcome):
        return built
    lhs, rhs = built.lhs, built.rhs
    if lhs == rhs:
        return passed("identical")
    logic = attempt(lambda both: sympy.simplify_logic(sympy.Xor(*both)), (lhs, rhs))
    if logic is sympy.false:
        return passed("logic")
    free = sorted(free_symbols(lhs, rhs), key=lambda symbol: symbol.name)
    if len(free) == 1 and free[0].is_real:
        outcome = _compare_sets(step, built, free[0])
        if outcome is not None:
            return outcome
    for point in condition_points(step.encoding, sorted(free_names(step.lhs) | free_names(step.rhs))):
        values = substitution(built, point)
        left = attempt(functools.partial(_truth, substitution=values), lhs)
        right = attempt(functools.partial(_truth, substitution=values), rhs)
        if left is None or right is None or left == right:
            continue
        return witness_failed(point, step.encoding, f"lhs is {left} and rhs is {right}", f"lhs {left}, rhs {right}")
    return error_outcome(
        MathsCode.SYMBOLIC_UNDECIDED,
        "sympy could not show that the two conditions hold for the same values, nor find a point where they differ",
    )


def _truth(condition: Any, substitution: Mapping[sympy.Basic, Any]) -> bool | None:
    value = substitute(condition, substitution)
    value = value.doit() if isinstance(value, sympy.Basic) else value
    if value is sympy.true or value is True:
        return True
    if value is sympy.false or value is False:
        return False
    return None


def _compare_sets(step: ParsedStep, built: BuiltStep, symbol: sympy.Symbol) -> MathsOutcome | None:
    """For one real symbol: the sets where each condition holds, compared exactly."""
    sets = attempt(lambda both: tuple(side.as_set() for side in both), (built.lhs, built.rhs))
    if sets is None:
        return None
    domain = _domain_set(step, symbol)
    left, right = (sympy.Intersection(found, domain) for found in sets)
    apart = attempt(lambda both: sympy.SymmetricDifference(*both).simplify(), (left, right))
    if apart is None:
        return None
    if apart == sympy.S.EmptySet:
        return passed("sets")
    point = _point_in(apart)
    if point is None:
        return None
    values = {symbol: point}
    first, second = _truth(built.lhs, values), _truth(built.rhs, values)
    if first is None or second is None or first == second:
        return None
    witness = {symbol.name: number_text(point)}
    return MathsOutcome(
        "failed",
        f"lhs holds on {short(left)} and rhs on {short(right)}; at {symbol.name} = {witness[symbol.name]} "
        f"lhs is {first} and rhs is {second}",
        method="witness",
        witness=witness,
        difference=f"lhs {first}, rhs {second}",
    )


def _domain_set(step: ParsedStep, symbol: sympy.Symbol) -> Any:
    domain = step.encoding.domain(symbol.name)
    base = sympy.S.Integers if domain.kind == "integer" else sympy.S.Reals
    if domain.signs == {1}:
        return sympy.Intersection(base, sympy.Interval.open(0, sympy.oo))
    if domain.signs == {-1}:
        return sympy.Intersection(base, sympy.Interval.open(-sympy.oo, 0))
    if domain.signs == {0, 1}:
        return sympy.Intersection(base, sympy.Interval(0, sympy.oo))
    if domain.signs == {-1, 0}:
        return sympy.Intersection(base, sympy.Interval(-sympy.oo, 0))
    if domain.signs == {-1, 1}:
        return sympy.Complement(base, sympy.FiniteSet(0))
    return base


def _point_in(found: Any) -> Any:
    """An exact rational point of a set of reals (a finite set's first element, an interval's middle)."""
    pieces: Iterable[Any] = found.args if isinstance(found, sympy.Union) else (found,)
    for piece in pieces:
        if isinstance(piece, sympy.FiniteSet) and piece.args:
            return min(piece.args, key=lambda item: (abs(item), item))
        if isinstance(piece, sympy.Interval):
            low, high = piece.inf, piece.sup
            if low.is_infinite and high.is_infinite:
                return sympy.Integer(0)
            if low.is_infinite:
                return sympy.floor(high) - 1
            if high.is_infinite:
                return sympy.ceiling(low) + 1
            return sympy.nsimplify((low + high) / 2, rational=True)
    return None
