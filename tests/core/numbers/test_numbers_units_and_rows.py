r"""The numeral reader's units with fractional powers (`m d^{-1/2}`), watt-hours, the factor of mathematics
a text writes before a unit, and a table row's numerals read as its cells (never a header's)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from cgx_core.numbers import read_quantity, read_text
from cgx_core.numbers.columns import row_occurrences
from cgx_core.numbers.units import clean_unit_text, read_unit


@pytest.mark.parametrize(
    ("written", "terms", "text"),
    [
        ("m d^-1/2", (("day", F(-1, 2)), ("meter", 1)), "meter/day^(1/2)"),
        ("s^{-0.5}", (("second", F(-1, 2)),), "1/second^(1/2)"),
        ("m^{3/2}", (("meter", F(3, 2)),), "meter^(3/2)"),
        ("m^2 s^-2", (("meter", 2), ("second", -2)), "meter^2/second^2"),  # whole powers as before
        ("kWh", (("kilowatt_hour", 1),), "kilowatt_hour"),
        ("g/kWh", (("gram", 1), ("kilowatt_hour", -1)), "gram/kilowatt_hour"),
    ],
)
def test_a_unit_may_have_a_fractional_power(written: str, terms: tuple[tuple[str, object], ...], text: str) -> None:
    found = read_unit(clean_unit_text(written))
    assert found is not None
    unit, end = found
    assert (unit.terms, unit.text, end) == (terms, text, len(clean_unit_text(written)))
    assert all(type(power) is int for _, power in unit.terms if F(power).denominator == 1)


def test_a_slash_after_a_whole_power_still_ends_the_unit_when_no_unit_follows() -> None:
    found = read_unit("s^-1 / 2")
    assert found is not None and found[0].terms == (("second", -1),) and found[1] == 4


def test_a_factor_before_a_unit_is_kept_apart_from_it() -> None:
    (coefficient, *_) = read_text(r"It grows as $1.3\times10^{-7}\sqrt{\tau}~m$.")
    assert coefficient.numeral.written == "1.3e-7"
    assert coefficient.unit is not None and coefficient.unit.terms == (("meter", 1),)
    assert coefficient.unit.factor == r"\sqrt\tau" and coefficient.unit.written == r"\sqrt\tau m"
    plain = read_quantity("1.3e-7 m")[1]
    assert plain is not None and plain.factor is None and plain == coefficient.unit  # a factor is no part of it


@pytest.mark.parametrize(
    ("row", "read"),
    [
        (r"Table 4 (caption s-3); row Model: A; Stage 1 (h): 2.5; Stage 2 (h): 6.0", ["2.5", "6.0"]),
        (r"row Model: A; Stage 1 (h): 2.5; Stage 2 (h): 6.0", ["2.5", "6.0"]),  # the row's own part
        (r"Table 1 (caption s-2); row Stage 3; Duration: 4.5", ["4.5"]),  # a label naming the row
        (r"Table 1 (caption s-2); row Year: \textbf{2019}; Count: 12", ["2019", "12"]),  # a label that is a value
        (r"Table 1 (caption s-2); unlabelled row; Top-5: 93.1; 0.4", ["93.1", "0.4"]),
    ],
)
def test_a_rows_numerals_are_its_cells(row: str, read: list[str]) -> None:
    assert [item.numeral.written for item in row_occurrences(row)] == read


def test_a_rows_cells_carry_their_headers_unit_as_the_paper_means_them() -> None:
    row = r"Table 4 (caption s-3); row Site: Oslo; Recall (\%): 78.4; Time (h): 2.5; $n$: 12"
    meant = row_occurrences(row, header_units=True)
    assert [(item.numeral.written, item.unit.text if item.unit else None) for item in meant] == [
        ("78.4%", None),
        ("2.5", "hour"),
        ("12", None),
    ]


@pytest.mark.parametrize(
    ("text", "start", "written", "end"),
    [
        ("(1 km h^-1)", 2, "km h^-1", 10),  # the closing parenthesis is the expression's (found by fuzzing)
        ("(2 s^-1) + 3", 2, "s^-1", 7),
        ("5 d^(1/2)", 1, "d^(1/2)", 9),
        ("5 d^(1/2", 1, "d^(1/2", 8),
    ],
)
def test_a_units_exponent_takes_a_parenthesis_only_with_its_pair(text: str, start: int, written: str, end: int) -> None:
    found = read_unit(text, start)
    assert found is not None
    assert (found[0].written, found[1]) == (written, end)
