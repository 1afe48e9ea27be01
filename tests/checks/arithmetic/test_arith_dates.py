"""Dates and times of day as values in recompute-numbers: date(y[, m[, d]]) and time(h, m[, s]) must be written
in the cited text at that precision; differences are durations, dates compare, and a date written to a month
or a year stands for every day in it (so it decides only what every day would)."""

from __future__ import annotations

import pytest

from cgx_checks.arithmetic import parse_expression, recompute
from cgx_checks.arithmetic_codes import ArithmeticCode
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.numbers import read_text
from cgx_core.numbers.dates import read_dates, read_times

RELEASE = "The analyses, run in May 2018, used version 2.1 (2019-03-04), released before the analyses."


def refused(expression: str, result: str, texts: list[str]) -> CgxError:
    with pytest.raises(CgxError) as raised:
        recompute(expression, result, texts)
    return raised.value


def test_an_iso_date_is_one_date_not_three_numerals() -> None:
    assert [item.numeral.written for item in read_text(RELEASE)] == ["2018", "2.1"]
    assert [item.text for item in read_dates(RELEASE)] == ["2018-05", "2019-03-04"]
    # A range of years is not read as a month, and stays two numerals.
    assert [item.numeral.written for item in read_text("data of 2010-12")] == ["2010", "12"]


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("on 17 June 2003", ["2003-06-17"]),
        ("on June 17, 2003", ["2003-06-17"]),
        ("on the 3rd of", []),
        ("in June 2003 and Sept. 2004", ["2003-06", "2004-09"]),
        ("since 2002", ["2002"]),
        ("on 31 June 2003", ["2003-06"]),  # no 31 June: only the month is a date
        ("version 2.1.2003", []),
    ],
)
def test_dates_are_read_at_the_precision_the_text_writes(text: str, dates: list[str]) -> None:
    assert [item.text for item in read_dates(text)] == dates


def test_times_of_day_are_read_on_a_24_hour_clock() -> None:
    assert [item.text for item in read_times("from 9:05 am to 5:30 pm, or 17:30:15; not 25:00 or 13:00 pm")] == [
        "09:05",
        "17:30",
        "17:30:15",
    ]


def test_a_release_dated_after_the_analyses_that_used_it_fails() -> None:
    checked = recompute("date(2019, 3, 4) < date(2018, 5)", "before", [RELEASE])
    assert checked.outcome == "failed"
    assert checked.detail == "date(2019, 3, 4) < date(2018, 5) is false; the text writes 'before' (<): failed"


def test_a_difference_of_dates_is_a_duration_and_a_month_is_every_day_in_it() -> None:
    text = "Version 1 (2018-05-02) and version 2 (2019-03-04) are 306 days apart; the work ran from June 2003."
    assert recompute("date(2019, 3, 4) - date(2018, 5, 2)", "306 days", [text]).outcome == "passed"
    # "June 2003" is any day of June: a day count from it is not decided either way.
    later = text + " It ended on 1 July 2003, 15 days later."
    error = refused("date(2003, 7, 1) - date(2003, 6)", "15 days", [later])
    assert error.code == ArithmeticCode.VALUE_UNDECIDED and "written to a month or a year" in error.message
    # Yet it decides what every day of it gives: June 2003 is before 1 July 2003.
    assert recompute("date(2003, 6) < date(2003, 7, 1)", "before", [later + " June came before."]).outcome == "passed"


def test_a_difference_of_times_of_day_is_a_duration() -> None:
    text = "The run began at 17:30 and ended at 19:05, 95 minutes later."
    assert recompute("time(19, 5) - time(17, 30)", "95 minutes", [text]).outcome == "passed"
    assert recompute("time(19, 15) - time(17, 30)", "95 minutes", [text.replace("19:05", "19:15")]).outcome == "failed"


def test_a_date_the_text_does_not_write_at_that_precision_is_refused() -> None:
    error = refused("date(2019, 3, 4) < date(2018, 5, 1)", "before", [RELEASE])
    assert error.code == ArithmeticCode.OPERAND_NOT_IN_TEXT
    assert "date(2018, 5, 1) (2018-05-01)" in error.message and "2018-05, 2019-03-04" in error.message


@pytest.mark.parametrize(
    "expression",
    ["date(2019, 3, 4) + date(2018, 5)", "2 * date(2019, 3, 4)", "date(2019, 3, 4) - 3", "time(17, 30) - date(2003)"],
)
def test_dates_only_subtract_and_compare(expression: str) -> None:
    texts = [RELEASE + " 17:30, 2003, 2, 3 and 10"]
    assert refused(expression, "10", texts).code == ArithmeticCode.UNIT_INCOMPATIBLE


@pytest.mark.parametrize(
    "expression", ["date(2019, 2, 29)", "date(2019, 13)", "date(2019.5)", "time(24, 0)", "time(17)"]
)
def test_a_date_or_time_that_does_not_exist_is_refused(expression: str) -> None:
    with pytest.raises(CgxError) as raised:
        parse_expression(expression)
    assert raised.value.code == Code.EXPRESSION_INVALID
