"""Named physical constants: CODATA's values as printed, exact fractions, units pint reads, names a paper writes."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pint
import pytest
import scipy.constants

from cgx_core.numbers.constants import ALIASES, Constant, canonical_name, constant, constants


def known(name: str) -> Constant:
    found = constant(name)
    assert found is not None, name
    return found


def test_defining_constants_are_exact_with_the_published_digits() -> None:
    c = known("c")
    assert (c.name, c.value, c.uncertainty, c.exact) == ("speed_of_light", Fraction(299792458), Fraction(0), True)
    assert known("h") == known("planck_constant")
    assert known("planck_constant").value == Fraction("6.62607015e-34")
    assert known("k_B").value == Fraction("1.380649e-23")
    assert known("e").value == Fraction("1.602176634e-19")


def test_a_measured_constant_carries_its_standard_uncertainty() -> None:
    g = known("G")
    assert g.name == "newtonian_constant_of_gravitation"
    assert g.title == "Newtonian constant of gravitation"
    assert (g.value, g.uncertainty, g.exact) == (Fraction("6.67430e-11"), Fraction("0.00015e-11"), False)


def test_a_truncated_exact_constant_brackets_its_true_value() -> None:
    """hbar = h / 2 pi is exact but irrational: CODATA prints `1.054 571 817... e-34`, and the true value lies
    within one unit of the last printed digit above it."""
    hbar, h = known("hbar"), known("h")
    assert hbar.exact and hbar.value == Fraction("1.054571817e-34")
    assert hbar.uncertainty == Fraction("1e-43")
    true_value = float(h.value) / (2 * math.pi)
    assert float(hbar.value) <= true_value <= float(hbar.value + hbar.uncertainty)


def test_values_are_fractions_and_agree_with_scipys_public_table() -> None:
    table = constants()
    assert len(table) == len(scipy.constants.find())
    for record in table:
        assert isinstance(record.value, Fraction) and isinstance(record.uncertainty, Fraction)
        published, unit, uncertainty = scipy.constants.physical_constants[record.title]
        if record.title.startswith("natural unit of momentum"):
            continue  # scipy's float here is an older edition's (an alias of its own); the printed table is ours
        assert math.isclose(float(record.value), published, rel_tol=1e-9), record.title
        assert unit == ("" if record.unit == "dimensionless" else record.unit)
        if not record.exact:
            assert math.isclose(float(record.uncertainty), uncertainty, rel_tol=1e-9), record.title


def test_every_unit_is_one_pint_reads_with_the_expected_dimension() -> None:
    registry = pint.UnitRegistry()
    for record in constants():
        registry.parse_units(record.unit)
    dimension = {
        "c": {"[length]": 1, "[time]": -1},
        "G": {"[length]": 3, "[mass]": -1, "[time]": -2},
        "hbar": {"[length]": 2, "[mass]": 1, "[time]": -1},
        "alpha": {},
        "m_e": {"[mass]": 1},
    }
    for alias, expected in dimension.items():
        assert dict(registry.parse_units(known(alias).unit).dimensionality) == expected, alias


def test_names_are_unique_snake_case_and_every_alias_resolves_to_one_constant() -> None:
    table = constants()
    names = [record.name for record in table]
    assert names == sorted(names) and len(set(names)) == len(names)
    assert all(re.fullmatch(r"[a-z0-9]+(?:_[a-z0-9]+)*", name) for name in names)
    keys = [key for record in table for key in (record.name, record.title, *record.aliases)]
    assert len(keys) == len(set(keys)), "a key names two constants"
    for name, aliases in ALIASES.items():
        for alias in aliases:
            assert known(alias).name == name


@pytest.mark.parametrize("unknown", ["k", "sigma", "speed of light", "C", "", "g"])
def test_an_ambiguous_or_unknown_name_finds_nothing(unknown: str) -> None:
    assert constant(unknown) is None


def test_canonical_names_follow_the_codata_title() -> None:
    assert canonical_name("mag. flux quantum") == "mag_flux_quantum"
    assert canonical_name("Loschmidt constant (273.15 K, 100 kPa)") == "loschmidt_constant_273_15_k_100_kpa"
    assert canonical_name("speed of light in vacuum") == "speed_of_light"


def test_the_source_names_library_version_and_edition_and_the_table_is_stable() -> None:
    first = constants()
    assert first == constants()
    assert re.fullmatch(r"scipy \d+\.\d+\.\d+, CODATA 20\d\d", first[0].source)
    assert all(item.source == first[0].source for item in first)
