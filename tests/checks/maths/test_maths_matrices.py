"""Matrices in both spellings: Matrix([[a, b], [c, d]]), det, trace, transpose, inverse (M^-1), entry(M, i, j) and
products, and the paper's pmatrix, bmatrix, vmatrix, \\det, \\mathrm{tr} and ^T. A side is a number, so a matrix
ends in det, trace or an entry; a determinant step passes, and its one-symbol mutant fails with a certificate."""

from __future__ import annotations

import pytest

from cgx_checks.maths.caller.decider import SymbolicDecider
from cgx_checks.maths.read.spelling import spelled
from cgx_checks.maths.read.step import parse_step
from cgx_core.codes import Code
from cgx_core.errors import CgxError

REAL = ["real"]
ABCD = {name: REAL for name in ("a", "b", "c", "d", "x", "y", "z")}
VANDERMONDE = "det(Matrix([[1, x, x^2], [1, y, y^2], [1, z, z^2]]))"


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        ("det(Matrix([[a, b], [c, d]]))", "a*d - b*c"),
        (VANDERMONDE, "(y - x)*(z - x)*(z - y)"),
        ("trace(Matrix([[a, b], [c, d]])*Matrix([[x, 0], [0, y]]))", "a*x + d*y"),
        ("det(transpose(Matrix([[a, b], [c, d]])))", "det(Matrix([[a, b], [c, d]]))"),
        ("entry(inverse(Matrix([[a, b], [c, d]])), 1, 2)", "-b/(a*d - b*c)"),
        ("entry(Matrix([[a, b], [c, d]])^-1, 2, 2)", "a/(a*d - b*c)"),
        ("det(2*Matrix([[a, b], [c, d]]))", "4*(a*d - b*c)"),
        ("entry(Matrix([[a, b], [c, d]])^2, 1, 1)", "a^2 + b*c"),
        ("entry(Matrix([[a], [b]])*Matrix([[c, d]]), 2, 1)", "b*c"),
        ("det(Matrix([[a, b], [c, d]]) + Matrix([[x, 0], [0, x]]))", "(a + x)*(d + x) - b*c"),
    ],
)
def test_true_matrix_steps_pass(decider: SymbolicDecider, lhs: str, rhs: str) -> None:
    outcome = decider.decide({"symbols": ABCD, "lhs": lhs, "rhs": rhs})
    assert outcome.result == "passed", outcome


def test_a_determinants_one_symbol_mutant_fails_with_a_certificate(decider: SymbolicDecider) -> None:
    mutant = decider.decide({"symbols": ABCD, "lhs": VANDERMONDE, "rhs": "(y - x)*(z - x)*(z + y)"})
    assert (mutant.result, mutant.method) == ("failed", "witness"), mutant
    assert mutant.witness is not None and mutant.certificate is not None
    assert mutant.certificate["digits"] == "exact"
    # The numeric fallback, on the same step, fails too with its own certificate.
    numeric = decider.numeric_check({"symbols": ABCD, "lhs": VANDERMONDE, "rhs": "(y - x)*(z - x)*(z + y)"})
    assert numeric.result == "failed" and numeric.certificate is not None


@pytest.mark.parametrize(
    ("latex", "lhs"),
    [
        (r"\det\begin{pmatrix} a & b \\ c & d \end{pmatrix} = ad - bc", "det(Matrix([[a, b], [c, d]]))"),
        (r"\begin{vmatrix} a & b \\ c & d \end{vmatrix} = ad - bc", "det(Matrix([[a, b], [c, d]]))"),
        (
            r"\mathrm{tr}\begin{bmatrix} a & b \\ c & d \end{bmatrix}^T = a + d",
            "trace(transpose(Matrix([[a, b], [c, d]])))",
        ),
        (
            r"\det\left(\begin{pmatrix} a & b \\ c & d \end{pmatrix} - x \begin{pmatrix} 1 & 0 \\ 0 & 1"
            r" \end{pmatrix}\right) = x^2 - (a + d)x + ad - bc",
            "det(Matrix([[a, b], [c, d]]) - x*Matrix([[1, 0], [0, 1]]))",
        ),
        (
            r"\det\begin{pmatrix} a & b \\ c & d \\ \end{pmatrix}^{\top} = ad - bc",
            "det(transpose(Matrix([[a, b], [c, d]])))",
        ),
    ],
)
def test_the_papers_matrices_read_as_written_and_pass(decider: SymbolicDecider, latex: str, lhs: str) -> None:
    step = parse_step({"symbols": ABCD, "latex": latex})
    assert spelled(step.lhs) == lhs
    assert decider.decide({"symbols": ABCD, "latex": latex}).result == "passed"


def test_a_latex_determinants_mutant_fails(decider: SymbolicDecider) -> None:
    outcome = decider.decide({"symbols": ABCD, "latex": r"\begin{vmatrix} a & b \\ c & d \end{vmatrix} = ad + bc"})
    assert (outcome.result, outcome.method) == ("failed", "witness")


def test_alignment_outside_a_matrix_is_still_layout() -> None:
    step = parse_step({"symbols": ABCD, "latex": r"a &= \det\begin{pmatrix} a & 0 \\ 0 & 1 \end{pmatrix}", "split": 1})
    assert spelled(step.rhs) == "det(Matrix([[a, 0], [0, 1]]))"


@pytest.mark.parametrize(
    ("lhs", "words"),
    [
        ("Matrix([[a, b], [c, d]])", "is a 2 x 2 matrix"),
        ("det(Matrix([[a, b, c]]))", "square"),
        ("entry(Matrix([[a, b]])*Matrix([[c, d]]), 1, 1)", "multiplies a 1 x 2 matrix by a 1 x 2 one"),
        ("det(Matrix([[a, b], [c]]))", "rows of different lengths"),
        ("det(Matrix([[a]]) + 1)", "different sizes"),
        ("sin(Matrix([[a]]))", "take its det"),
        ("entry(Matrix([[a, b]]), 2, 1)", "a row from 1 to 1"),
        ("det(Matrix([[a, b], [c, d]])^x)", "whole number"),
        ("a/Matrix([[a]])", "take its det"),
        ("det(" + "Matrix([" + ", ".join(["[" + ", ".join(["a"] * 7) + "]"] * 7) + "]))", "not 7"),
    ],
)
def test_what_a_matrix_cannot_be_is_refused(lhs: str, words: str) -> None:
    with pytest.raises(CgxError) as raised:
        parse_step({"symbols": ABCD, "lhs": lhs, "rhs": "1"})
    assert raised.value.code == Code.EXPRESSION_INVALID
    assert words in raised.value.message
