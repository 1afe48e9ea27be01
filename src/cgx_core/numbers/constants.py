"""Named physical constants (`c`, `G`, `hbar`, `k_B`), as CODATA publishes them, for every check that meets one.

The values come from scipy.constants, which ships the CODATA recommended values (2022 in scipy 1.15+) with
their standard uncertainties and units. pint, the project's unit library, knows the constants too, but
without uncertainties and with several derived from others (its fine-structure constant is computed from
the Rydberg constant), so scipy is the source: one maintained table, its edition named in every record.

A value is the decimal exactly as CODATA prints it, read from the table scipy ships and turned into a
`Fraction` from its digits, never through a float (scipy's floats are the same numbers for all but a few,
and those few show why a float is not the published value). An exact constant (`c`, `h`, `e`, `k_B`,
`N_A`) has uncertainty 0. An exact constant that CODATA prints truncated (`hbar`: `1.054 571 817... e-34`,
irrational because of the 2 pi) keeps `exact=True` and the printed digits, with one unit of the last
digit as its uncertainty: the true value lies within it, and a check must not hold a paper to digits the
table never printed.

Names: `name` is the CODATA name in snake case (`newtonian_constant_of_gravitation`, `electron_mass`),
except that `speed of light in vacuum` is `speed_of_light`; `aliases` are the symbols papers write
(`G`, `m_e`), few and unambiguous; `title` is the CODATA name as printed. The table is built once, on
first use, so importing this module stays cheap.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import re
from fractions import Fraction
from typing import Final

import attrs

_RENAMED: Final = {"speed of light in vacuum": "speed_of_light"}

ALIASES: Final[dict[str, tuple[str, ...]]] = {
    "speed_of_light": ("c", "c_0", "speed_of_light_in_vacuum"),
    "planck_constant": ("h",),
    "reduced_planck_constant": ("hbar", "\N{PLANCK CONSTANT OVER TWO PI}"),
    "boltzmann_constant": ("k_B",),
    "newtonian_constant_of_gravitation": ("G", "gravitational_constant"),
    "elementary_charge": ("e",),
    "avogadro_constant": ("N_A",),
    "molar_gas_constant": ("R",),
    "faraday_constant": ("F",),
    "electron_mass": ("m_e",),
    "proton_mass": ("m_p",),
    "neutron_mass": ("m_n",),
    "atomic_mass_constant": ("m_u",),
    "fine_structure_constant": ("alpha",),
    "vacuum_electric_permittivity": ("epsilon_0", "eps_0"),
    "vacuum_mag_permeability": ("mu_0",),
    "characteristic_impedance_of_vacuum": ("Z_0",),
    "stefan_boltzmann_constant": ("sigma_SB",),
    "bohr_radius": ("a_0",),
    "rydberg_constant": ("R_inf",),
    "bohr_magneton": ("mu_B",),
    "nuclear_magneton": ("mu_N",),
    "classical_electron_radius": ("r_e",),
    "thomson_cross_section": ("sigma_T", "sigma_e"),
    "hartree_energy": ("E_h",),
    "electron_volt": ("eV",),
    "mag_flux_quantum": ("Phi_0",),
    "conductance_quantum": ("G_0",),
    "josephson_constant": ("K_J",),
    "von_klitzing_constant": ("R_K",),
    "first_radiation_constant": ("c_1",),
    "second_radiation_constant": ("c_2",),
    "standard_acceleration_of_gravity": ("g_0", "g_n"),
    "standard_atmosphere": ("atm",),
    "hyperfine_transition_frequency_of_cs_133": ("Delta_nu_Cs",),
    "luminous_efficacy": ("K_cd",),
}
"""Symbols papers write for the commonest constants, by canonical name. Case matters (`G` is Newton's
constant, `g_0` standard gravity); a symbol that names two things in physics (`k`, `sigma`, `b`) is left
out so a lookup never guesses."""

_SLUG = re.compile(r"[^a-z0-9]+")


@attrs.frozen
class Constant:
    """One physical constant as CODATA publishes it; `value` and `uncertainty` are exact decimals."""

    name: str
    aliases: tuple[str, ...]
    title: str
    value: Fraction
    uncertainty: Fraction
    unit: str
    exact: bool
    source: str


def constant(name_or_alias: str) -> Constant | None:
    """The constant with this canonical name, alias or CODATA title, or None: an exact match, no guess."""
    return _index().get(name_or_alias)


def constants() -> tuple[Constant, ...]:
    """Every constant of the current CODATA table, sorted by canonical name."""
    return _table()


def canonical_name(title: str) -> str:
    """The snake-case name of a CODATA title: `Newtonian constant of gravitation` ->
    `newtonian_constant_of_gravitation`, `mag. flux quantum` -> `mag_flux_quantum`."""
    return _RENAMED.get(title) or _SLUG.sub("_", title.lower()).strip("_")


def _decimal(written: str) -> tuple[Fraction, Fraction]:
    """A value as the table prints it (`6.674 30 e-11`, `1.054 571 817... e-34`), exactly, and one unit of
    its last printed digit when it is truncated (`...`), else 0."""
    compact = written.replace(" ", "")
    truncated = "..." in compact
    digits = compact.replace("...", "")
    value = Fraction(digits)
    if not truncated:
        return value, Fraction(0)
    mantissa, _, exponent = digits.lower().partition("e")
    places = len(mantissa.partition(".")[2])
    return value, Fraction(1, 10**places) * Fraction(10) ** int(exponent or 0)


@functools.cache
def _table() -> tuple[Constant, ...]:
    codata = importlib.import_module("scipy.constants._codata")  # the CODATA table as printed, which scipy ships
    edition: str = codata._current_codata
    text: str = getattr(codata, "txt" + edition.removeprefix("CODATA ").strip())
    source = f"scipy {importlib.metadata.version('scipy')}, {edition}"
    records = []
    for line in text.splitlines():
        title = line[:60].rstrip()
        value, truncation = _decimal(line[60:85].strip())
        written_uncertainty = line[85:110].strip()
        exact = written_uncertainty == "(exact)"
        uncertainty = truncation if exact else Fraction(written_uncertainty.replace(" ", ""))
        name = canonical_name(title)
        records.append(
            Constant(
                name=name,
                aliases=ALIASES.get(name, ()),
                title=title,
                value=value,
                uncertainty=uncertainty,
                unit=line[110:].strip() or "dimensionless",
                exact=exact,
                source=source,
            )
        )
    return tuple(sorted(records, key=lambda record: record.name))


@functools.cache
def _index() -> dict[str, Constant]:
    index: dict[str, Constant] = {}
    for record in _table():
        for key in (record.name, record.title, *record.aliases):
            index.setdefault(key, record)
    return index
