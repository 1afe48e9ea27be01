"""Counting units: the names a rubric declares as counts ("120 C", "30 cells") are read as units of their own,
only within `counting`, and the `[counts]` table that declares them is checked as strictly as the hedges."""

from __future__ import annotations

import threading

import pytest

from cgx_core.errors import CgxError
from cgx_core.numbers import read_quantity, read_text, read_unit
from cgx_core.numbers.counts import counting
from cgx_core.numbers.tolerances import load_tolerances

COUNTS = {"C": "C", "cell": "cell", "cells": "cell", "patients": "patients"}


def units(text: str) -> list[tuple[str, str | None]]:
    """(written, canonical unit) of each reported numeral of a text."""
    return [(item.numeral.written, item.unit.text if item.unit else None) for item in read_text(text) if item.reported]


def test_a_declared_count_is_read_as_its_own_unit_only_within_counting() -> None:
    text = "We counted 120 C in 4 h; 30 cells of 12 patients."
    assert units(text) == [("120", None), ("4", "hour"), ("30", None), ("12", None)]
    with counting(COUNTS):
        assert units(text) == [("120", "count:C"), ("4", "hour"), ("30", "count:cell"), ("12", "count:patients")]
    assert units(text) == [("120", None), ("4", "hour"), ("30", None), ("12", None)]  # nothing leaks out


def test_spellings_declared_together_are_one_count_and_case_matters() -> None:
    with counting(COUNTS):
        assert units("1 cell and 30 cells") == [("1", "count:cell"), ("30", "count:cell")]
        assert units("30 Cells or 4 c") == [("30", None), ("4", None)]  # spellings are matched exactly


def test_a_count_in_a_compound_unit_and_after_per() -> None:
    with counting(COUNTS):
        assert units("30 C/h, 30 C per hour, 2 C h^{-1}") == [
            ("30", "count:C/hour"),
            ("30", "count:C/hour"),
            ("2", "count:C/hour"),
        ]
        assert units("30 C per run") == [("30", "count:C")]  # `per` divides only when a unit follows it
    assert units("30 km per hour") == [("30", "kilometer/hour")]
    assert units("3 per second") == [("3", None)]  # a rate without a unit before it is no unit


def test_a_count_standing_first_needs_a_space_before_it() -> None:
    with counting(COUNTS):
        assert units("120C and 120~C") == [("120", None), ("120", "count:C")]


def test_the_agents_quantity_and_a_unit_alone_are_read_with_the_counts() -> None:
    with counting(COUNTS):
        numeral, unit = read_quantity("30 C/h")
        assert (numeral.written, unit and unit.text) == ("30", "count:C/hour")
        found = read_unit("cells", alone=True)
        assert found is not None and found[0].text == "count:cell"
    with pytest.raises(CgxError, match=r"\[counts\] table") as raised:
        read_quantity("30 C")
    assert raised.value.code == "expression-invalid"


def test_the_declaration_does_not_leak_into_another_thread() -> None:
    seen: list[list[tuple[str, str | None]]] = []
    with counting(COUNTS):
        worker = threading.Thread(target=lambda: seen.append(units("120 C")))
        worker.start()
        worker.join()
        assert units("120 C") == [("120", "count:C")]
    assert seen == [[("120", None)]]
    assert units("120 C") == [("120", None)]


def test_nested_declarations_restore_the_outer_one() -> None:
    with counting({"C": "C"}):
        with counting({"cells": "cells"}):
            assert units("120 C, 3 cells") == [("120", None), ("3", "count:cells")]
        assert units("120 C, 3 cells") == [("120", "count:C"), ("3", None)]


def table(counts: str) -> bytes:
    return f'[rubric]\nname = "paper"\nversion = "1"\n\n[hedges]\n"about" = "5%"\n\n[counts]\n{counts}\n'.encode()


IDENTITY = {"name": "paper", "version": "1"}


def test_a_counts_table_is_read_as_spellings_of_counts() -> None:
    loaded = load_tolerances(table('units = ["C", ["cell", "cells"], "patients"]'), "paper.tolerances.toml", IDENTITY)
    assert dict(loaded.counts) == {"C": "C", "cell": "cell", "cells": "cell", "patients": "patients"}
    assert list(loaded.hedges) == ["about"]
    assert dict(load_tolerances(table(""), "t", IDENTITY).counts) == {}  # an empty table declares none


@pytest.mark.parametrize(
    ("counts", "problems"),
    [
        (
            'units = ["C", "C", "", "12", "twelve", "h", "days", "per", "CD4+", ["cells", 3], [], 7]',
            [
                "'C' is declared twice",
                "a name is empty",
                "'12' is a number",
                "'twelve' is a number",
                "'h' is already read as the unit hour",
                "'days' is already read as the unit day",
                "'per' is a word the numeral reader reads as part of the sentence",
                "'CD4+' is a number",
                "['cells', 3] is neither a name nor a non-empty array of names",
                "[] is neither a name nor a non-empty array",
                "7 is neither a name",
            ],
        ),
        ('units = "C"', ["[counts] units must be an array of names"]),
        ('units = ["C"]\nnames = ["x"]', ["[counts] has unknown keys ['names']"]),
        ('units = ["colony-forming"]', ["'colony-forming' must be 1 to 30 letters"]),
        (f'units = ["{"x" * 31}"]', ["must be 1 to 30 letters"]),
        (
            f"units = [{', '.join(repr('c' + chr(97 + i // 26) + chr(97 + i % 26)) for i in range(101))}]",
            ["101 spellings; at most 100"],
        ),
    ],
)
def test_a_bad_counts_table_is_refused_with_every_problem(counts: str, problems: list[str]) -> None:
    with pytest.raises(CgxError) as raised:
        load_tolerances(table(counts), "paper.tolerances.toml", IDENTITY)
    assert raised.value.code == "tolerances-invalid"
    for problem in problems:
        assert problem in raised.value.message, (problem, raised.value.message)


def test_counts_that_are_not_a_table_are_refused() -> None:
    data = b'counts = ["C"]\n[rubric]\nname = "paper"\nversion = "1"\n'
    with pytest.raises(CgxError, match=r"\[counts\] must be a table") as raised:
        load_tolerances(data, "paper.tolerances.toml", IDENTITY)
    assert raised.value.code == "tolerances-invalid"
