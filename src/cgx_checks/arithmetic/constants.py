"""Named physical constants as operands of an expression: `c`, `G`, `h`, `hbar`, `k_B`, or any CODATA name
(`speed_of_light`, `newtonian_constant_of_gravitation`), with the value, uncertainty and unit CODATA publishes
(`cgx_core.numbers.constants`: scipy's table, exact decimals as printed).

A constant extends the numeral rule as `pi` and `e` do: its value is a maintained library's, never the agent's
nor the paper's, so "f = c / 2 pi L" is checked with the speed of light although no chunk writes 299792458.
It is evaluated as the interval its standard uncertainty gives, [value - u, value + u] (an exact constant is
its value; one CODATA prints truncated, `hbar`, is bracketed by one unit of its last digit), so a check
decides only when every value in that interval decides it; its unit comes from pint like any other.

Names: every canonical snake-case name, and the few short symbols no paper uses for anything else in an
expression (`SAFE_ALIASES`). `e` stays Euler's number (`elementary_charge` is the charge); symbols that are
units (`eV`, `atm`) or name many things (`R`, `F`, `alpha`, `sigma`) are not constants here: write the
canonical name.
"""

from __future__ import annotations

import functools
from typing import Any, Final

from cgx_checks.arithmetic.interval import Interval
from cgx_checks.arithmetic.units import Dimension, scale_of_text
from cgx_core.numbers import fraction_text
from cgx_core.numbers.constants import Constant, constant

SAFE_ALIASES: Final = frozenset(
    {"c", "c_0", "G", "h", "hbar", "k_B", "N_A", "m_e", "m_p", "m_n", "m_u", "epsilon_0", "eps_0", "mu_0"}
    | {"sigma_SB", "a_0", "g_0", "g_n", "mu_B", "R_inf"}
)
"""The symbols an expression may write for a constant besides its canonical name."""

MATHEMATICAL: Final = frozenset({"pi", "e"})
"""The mathematical constants, which no physical constant's name may shadow."""


def physical_constant(name: str) -> Constant | None:
    """The CODATA constant an expression's name stands for (canonical name or safe alias), or None."""
    if name in MATHEMATICAL:
        return None
    found = constant(name)
    if found is None or (name != found.name and name not in SAFE_ALIASES):
        return None
    return found


@functools.cache
def constant_value(name: str) -> tuple[Interval, Dimension]:
    """A constant (by canonical name) in SI base units: the interval its uncertainty gives, and its dimension."""
    found = constant(name)
    assert found is not None and found.name == name, name
    factor, dimension = scale_of_text(found.unit)
    return Interval((found.value - found.uncertainty) * factor, (found.value + found.uncertainty) * factor), dimension


def constants_json(names: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """The record of the constants a check used: value, uncertainty (exact fractions), unit and source."""
    record: dict[str, dict[str, Any]] = {}
    for name in sorted(set(names)):
        found = constant(name)
        assert found is not None
        record[name] = {
            "source": found.source,
            "uncertainty": fraction_text(found.uncertainty),
            "unit": found.unit,
            "value": fraction_text(found.value),
        }
    return record
