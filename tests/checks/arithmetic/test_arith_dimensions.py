r"""Dimensions and constants in recompute-numbers: with every unit as the text writes it, an expression whose
dimension is not the reported result's fails with both dimensions as its certificate (the paper's error), while
a unit the agent gave, dropped or that the prose leaves implicit is refused (the agent's); fractional powers of
units (a square root of a time); and CODATA's physical constants as operands, each evaluated as the interval
its uncertainty gives and recorded with its value, uncertainty and source."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from cgx_checks.arithmetic import observation_key, parse_expression, recompute
from cgx_checks.arithmetic.predicate_check import PredicateCheck
from cgx_checks.arithmetic.recompute import Recomputation, decide_recorded
from cgx_checks.arithmetic.tree import render
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_checks.expression_codes import ExpressionCode
from cgx_core.errors import CgxError

PLUME = (
    r"The plume advances at $U = 1.2\times10^{3}$~cm~d$^{-1}$ over $\tau = 9$~d, so "
    r"$U\tau/2 \sim 5.4\times10^{3}$~cm~d$^{-1}$."
)
HEDGE = {"~": F(1, 10)}


def number(expression: str, result: str, texts: list[str], **options: object) -> Recomputation:
    checked = recompute(expression, result, texts, **options)  # type: ignore[arg-type]
    assert isinstance(checked, Recomputation)
    return checked


def refused(expression: str, result: str, texts: list[str], **options: object) -> CgxError:
    with pytest.raises(CgxError) as raised:
        recompute(expression, result, texts, **options)  # type: ignore[arg-type]
    return raised.value


# -- a dimension mismatch: the paper's failure, or the agent's refusal ------------------------------------


def test_a_length_written_with_a_velocitys_unit_fails_with_both_dimensions() -> None:
    checked = number("1.2e3 cm d^-1 * 9 d / 2", "5.4e3 cm d^-1", [PLUME], tolerances=HEDGE)
    assert checked.outcome == "failed"
    assert checked.dimensions == ("[length]", "[length]/[time]")
    assert "is [length] (54 in SI base units)" in checked.detail
    assert "reported 5.4e3 cm d^-1 is [length]/[time]: failed (the dimensions differ" in checked.detail
    assert checked.to_json()["dimensions"] == {"expression": "[length]", "result": "[length]/[time]"}
    # decided again from the record alone (verify's observation key), to the same failure
    again = decide_recorded(checked.expression, "5.4e3 cm d^-1", "~", F(1, 10))
    assert observation_key(again) == observation_key(checked)


@pytest.mark.parametrize(
    ("expression", "result", "text", "doubt"),
    [
        # the agent drops a unit the text writes
        ("1.2e3 * 9 d / 2", "5.4e3 cm d^-1", PLUME, "1.2e3: the text writes it with the unit cm~d^-1"),
        # the prose leaves the result's unit implicit ("30 each"): no certificate of the paper's error
        ("120 m / 4 h", "30", "We walked 120 m over 4 h: 30 each.", None),
        # a factor of mathematics stands between the numeral and its unit: the unit is the product's
        (
            "1.3e-7 m * sqrt(100 d)",
            "1.3e-6 m",
            r"It grows as $1.3\times10^{-7}\sqrt{\tau}~m$, for $\tau = 100$~d $1.3\times10^{-6}$~m.",
            "the text writes a factor before its unit",
        ),
    ],
)
def test_a_mismatch_the_agent_could_have_made_is_refused(
    expression: str, result: str, text: str, doubt: str | None
) -> None:
    error = refused(expression, result, [text], tolerances=HEDGE)
    assert error.code == ArithmeticCode.UNIT_INCOMPATIBLE
    if doubt is not None:
        assert doubt in error.message


def test_a_square_root_of_a_time_has_a_fractional_dimension() -> None:
    text = r"It grows as $1.3\times10^{-7}\sqrt{\tau}~m$, for $\tau = 100$~d $1.3\times10^{-6}$~m."
    # The text's formula takes tau as a number of days: the factor's quantity as the number alone.
    assert number("1.3e-7 m * sqrt(100)", "1.3e-6 m", [text]).outcome == "passed"
    # A coefficient the text writes with its unit to a fractional power makes sqrt(100 d) a length.
    with_unit = (
        r"It grows as $1.3\times10^{-7}$~m~d$^{-1/2}$ times $\sqrt{\tau}$; for $\tau = 100$~d, $1.3\times10^{-6}$~m."
    )
    checked = number("1.3e-7 m d^-1/2 * sqrt(100 d)", "1.3e-6 m", [with_unit])
    assert (checked.outcome, checked.unit) == ("passed", "meter")
    wrong = number("1.3e-7 m d^-1/2 * sqrt(100 d)", "1.3e-5 m", [with_unit + " Not $1.3\\times10^{-5}$~m."])
    assert wrong.outcome == "failed"
    assert render(parse_expression("sqrt(100 d) * sqrt(4 d)")) == "sqrt(100 d) * sqrt(4 d)"
    product = number("sqrt(100 d) * sqrt(4 d)", "20 days", ["The roots of 100 d and of 4 d multiply to 20 days."])
    assert (product.outcome, product.unit) == ("passed", "day")
    assert abs(product.value - 20) < F(1, 10**15)  # each root is enclosed (86400 s is no square); the product is 20 d


# -- named physical constants -------------------------------------------------------------------------------

FREQUENCY = r"With $L = 2.5\times10^{9}$~m the frequency is $f_* = c/2\pi L = 19.09$~Hz, that is 19.09 mHz."


def test_a_frequency_in_hz_that_is_mhz_fails_using_the_speed_of_light() -> None:
    failed = number("c / (2 * pi * 2.5e9 m)", "19.09 Hz", [FREQUENCY])
    passed = number("speed_of_light / (2 * pi * 2.5e9 m)", "19.09 mHz", [FREQUENCY])
    assert (failed.outcome, passed.outcome) == ("failed", "passed")
    assert failed.expression == "speed_of_light / (2 * pi * 2.5e9 m)"  # the canonical name, shown
    record = failed.to_json()["constants"]["speed_of_light"]
    assert (record["value"], record["uncertainty"], record["unit"]) == ("299792458/1", "0/1", "m s^-1")
    assert record["source"].startswith("scipy ") and "CODATA" in record["source"]
    assert failed.operands == ("2", "2.5e9")  # a constant is no numeral of the text


def test_a_measured_constant_is_its_uncertainty_interval_and_decides_only_when_all_of_it_does() -> None:
    text = "Newton's constant is 6.674e-11 in SI units, or 6.6743e-11, or 6.67430e-11 m^3 kg^-1 s^-2."
    # G = 6.67430(15)e-11: within 6.674e-11 +- 5e-15 for every value of its interval
    assert number("G", "6.674e-11 m^3 kg^-1 s^-2", [text + " 6.674e-11 m^3 kg^-1 s^-2"]).outcome == "passed"
    # 6.67430e-11 +- 5e-17 is narrower than G's uncertainty (1.5e-15): no value decides it
    error = refused("newtonian_constant_of_gravitation", "6.67430e-11 m^3 kg^-1 s^-2", [text])
    assert error.code == ArithmeticCode.VALUE_UNDECIDED


@pytest.mark.parametrize("name", ["e", "alpha", "R", "eV", "sigma"])
def test_only_safe_symbols_and_canonical_names_are_constants(name: str) -> None:
    if name == "e":  # Euler's number, as before
        assert number("e ** 2", "7.389", ["e to the power 2 is 7.389"]).outcome == "passed"
        return
    with pytest.raises(CgxError) as raised:
        parse_expression(f"2 * {name}")
    assert raised.value.code == ExpressionCode.UNKNOWN_SYMBOL


def test_a_constant_in_a_predicate_is_recorded() -> None:
    text = "The relay's signal travels below the speed of light, at 2.9e8 m/s."
    checked = recompute("2.9e8 m/s < c", "below", [text])
    assert isinstance(checked, PredicateCheck) and checked.outcome == "passed"
    assert set(checked.to_json()["constants"]) == {"speed_of_light"}
