"""The tolerance the rubric's author declares for each hedge phrase, read from a TOML file beside the rubric.

"approximately 2 days" is checked against a relative tolerance the rubric's author declares, never one the
agent gives. credencegraph refuses unknown keys in a rubric, and a finished graph must pass `credencegraph
check` with the run's byte copy of the rubric, so the tolerances cannot live in the rubric itself. They
live in its companion: for `paper.toml`, the file `paper.tolerances.toml` in the same folder, written by
the same author and naming the rubric it belongs to:

    [rubric]                 # the rubric these tolerances belong to: its name and version
    name = "paper"
    version = "0.1-example"

    [hedges]                 # hedge phrase -> relative tolerance: "10%" or a number such as 0.1
    "approximately" = "10%"
    "about" = "5%"

    [counts]                 # counting units: names a numeral may carry as a count (docs/rubrics.md)
    units = ["C", ["cell", "cells"]]

start_run reads the companion (or, when the rubric has none, the default file shipped with this package,
`default-tolerances.toml`), refuses it with `tolerances-invalid` naming every problem at once, copies its
bytes into the run as `tolerances.toml` and records its name and digest in the manifest. Every check
(live, in replay and in verify) reads that copy, after checking its digest, so a run is always decided by
exactly the tolerances it started with. A phrase must be one the numeral reader recognises as a hedge
(`relations.HEDGE_PHRASES`); keys are compared after normalisation (`relations.hedge_key`).

`[counts]` declares the counting units of the paper (`counts.py`): `units` lists them, each a spelling as
the paper writes it or an array of the spellings of one count (the first names it: "cell" and "cells" are
one count only when declared together). A spelling is letters only, matched exactly (case included), and
must not be a number word, a unit the reader already reads (`h`, `days`) or a word never read as a unit
(`per`): such a declaration would change what a numeral means, not name a count.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from decimal import Decimal
from fractions import Fraction
from importlib.resources import files
from pathlib import Path
from typing import Any, Final

import attrs

from cgx_core.base.digests import bytes_digest
from cgx_core.base.toml_text import read_toml
from cgx_core.codes import Code
from cgx_core.errors import CgxError, utf8_text
from cgx_core.numbers.counts import counting
from cgx_core.numbers.numeral import fraction_text
from cgx_core.numbers.relations import HEDGE_PHRASES, hedge_key
from cgx_core.numbers.units import QUALIFIER_STOP, unit_name
from cgx_core.numbers.words import WORD_NUMERAL

RUN_FILE: Final = "tolerances.toml"
COMPANION_SUFFIX: Final = ".tolerances.toml"
DEFAULT_NAME: Final = "(default)"
MAX_TOLERANCES_BYTES: Final = 64 * 1024
MAX_COUNT_UNITS: Final = 100
"""Spellings a `[counts]` table may declare: start_run's result lists them for the agent (`count_units`)."""
MAX_COUNT_NAME: Final = 30
"""Letters of a counting unit's spelling: the numeral reader reads a unit's name of at most 30 letters."""
_COUNT_NAME = re.compile(rf"[A-Za-z]{{1,{MAX_COUNT_NAME}}}")
_SCALE_WORDS = frozenset({"thousand", "million", "billion", "percent", "cent"})


@attrs.frozen
class Tolerances:
    """Relative tolerances by hedge key (`approximately` -> 1/10), and the counting units (spelling -> the
    name of its count: `cells` -> `cell`)."""

    hedges: Mapping[str, Fraction]
    counts: Mapping[str, str] = attrs.field(factory=dict)

    def to_json(self) -> dict[str, str]:
        return {phrase: fraction_text(value) for phrase, value in sorted(self.hedges.items())}


NONE: Final = Tolerances({})
"""A run made before tolerances were recorded: it declares no hedge."""


def companion_of(rubric: Path) -> Path:
    """Where a rubric's tolerance table lives: `paper.toml` -> `paper.tolerances.toml`."""
    return rubric.with_name(rubric.stem + COMPANION_SUFFIX)


def default_bytes() -> bytes:
    """The bytes of the default tolerance table shipped with this package."""
    return files("cgx_core.numbers").joinpath("default-tolerances.toml").read_bytes()


def table_for_rubric(rubric: Path, identity: Mapping[str, str]) -> tuple[str, bytes, Tolerances]:
    """The tolerance table a run with this rubric uses: (name, bytes, table), the companion if present."""
    companion = companion_of(rubric)
    if not companion.exists():
        data = default_bytes()
        return DEFAULT_NAME, data, load_tolerances(data, DEFAULT_NAME, None)
    if not companion.is_file():
        raise CgxError(Code.TOLERANCES_INVALID, f"'{companion.name}' is not a file")
    if companion.stat().st_size > MAX_TOLERANCES_BYTES:
        raise CgxError(Code.TOLERANCES_INVALID, f"'{companion.name}' is larger than {MAX_TOLERANCES_BYTES} bytes")
    data = companion.read_bytes()
    return companion.name, data, load_tolerances(data, companion.name, identity)


def load_tolerances(data: bytes, name: str, rubric: Mapping[str, str] | None) -> Tolerances:
    """Read and check a tolerance table; `rubric` is the identity it must name (None for the default).

    Raises `tolerances-invalid` naming every problem of the file at once.
    """
    text = utf8_text(data, Code.TOLERANCES_INVALID, name)
    document = read_toml(text, Code.TOLERANCES_INVALID, name, parse_float=Decimal)
    problems: list[str] = []
    unknown = sorted(set(document) - {"rubric", "hedges", "counts"})
    if unknown:
        problems.append(f"unknown tables or keys {unknown}; the file has [rubric], [hedges] and [counts]")
    if rubric is not None:
        problems.extend(_rubric_problems(document.get("rubric"), rubric))
    hedges: dict[str, Fraction] = {}
    table = document.get("hedges", {})
    if not isinstance(table, dict):
        problems.append("[hedges] must be a table of phrase = tolerance")
        table = {}
    for phrase, value in table.items():
        key = hedge_key(str(phrase))
        if key not in HEDGE_PHRASES:
            problems.append(f"{phrase!r} is not a hedge phrase the numeral reader recognises ({list(HEDGE_PHRASES)})")
            continue
        if key in hedges:
            problems.append(f"{phrase!r} is declared twice once normalised")
            continue
        tolerance = _tolerance(value)
        if tolerance is None:
            problems.append(
                f"the tolerance of {phrase!r} must be a percentage such as '10%' or a number above 0 "
                f"and at most 1, got {value!r}"
            )
            continue
        hedges[key] = tolerance
    counts = _counts(document.get("counts", {}), problems)
    if problems:
        raise CgxError(Code.TOLERANCES_INVALID, f"{name}: " + "; ".join(problems))
    return Tolerances(hedges, counts)


def _counts(table: Any, problems: list[str]) -> dict[str, str]:
    """The counting units of a `[counts]` table (spelling -> count name); each problem is added to `problems`."""
    if not isinstance(table, dict):
        problems.append('[counts] must be a table, such as units = ["C", ["cell", "cells"]]')
        return {}
    if set(table) - {"units"}:
        problems.append(f"[counts] has unknown keys {sorted(set(table) - {'units'})}; it has only units")
    entries = table.get("units", [])
    if not isinstance(entries, list):
        problems.append('[counts] units must be an array of names, such as ["C", ["cell", "cells"]]')
        return {}
    declared = sum(len(entry) if isinstance(entry, list) else 1 for entry in entries)
    if declared > MAX_COUNT_UNITS:
        problems.append(f"[counts] units declares {declared} spellings; at most {MAX_COUNT_UNITS}")
        return {}
    counts: dict[str, str] = {}
    for entry in entries:
        spellings = entry if isinstance(entry, list) else [entry]
        if not spellings or not all(isinstance(spelling, str) for spelling in spellings):
            problems.append(
                f"[counts] units: {entry!r} is neither a name nor a non-empty array of names "
                "(the spellings of one count)"
            )
            continue
        for spelling in spellings:
            problem = _spelling_problem(spelling)
            if problem is None and spelling in counts:
                problem = f"{spelling!r} is declared twice"
            if problem is not None:
                problems.append(f"[counts] units: {problem}")
                continue
            counts[spelling] = spellings[0]
    return counts


def _spelling_problem(spelling: str) -> str | None:
    """Why a counting unit's spelling cannot be declared, or None."""
    if not spelling.strip():
        return "a name is empty"
    if any(character.isdigit() for character in spelling) or WORD_NUMERAL.fullmatch(spelling):
        return f"{spelling!r} is a number, not the name of a count"
    if not _COUNT_NAME.fullmatch(spelling):
        return f"{spelling!r} must be 1 to {MAX_COUNT_NAME} letters A-Z or a-z, as the paper writes it after a numeral"
    with counting({}):
        known = unit_name(spelling)
    if known is not None:
        return f"{spelling!r} is already read as the unit {known}; a count needs a name no unit has"
    if spelling.lower() in QUALIFIER_STOP or spelling.lower() in _SCALE_WORDS:
        return f"{spelling!r} is a word the numeral reader reads as part of the sentence, not as a unit"
    return None


def _rubric_problems(table: Any, identity: Mapping[str, str]) -> list[str]:
    if not isinstance(table, dict):
        return ["[rubric] must name the rubric these tolerances belong to (name and version)"]
    problems = (
        [f"[rubric] has unknown keys {sorted(set(table) - {'name', 'version'})}"]
        if set(table) - {"name", "version"}
        else []
    )
    for key in ("name", "version"):
        if table.get(key) != identity.get(key):
            problems.append(f"[rubric] {key} is {table.get(key)!r}, but the rubric's is {identity.get(key)!r}")
    return problems


def _tolerance(value: Any) -> Fraction | None:
    if isinstance(value, bool) or (isinstance(value, Decimal) and not value.is_finite()):
        return None  # nan and inf are TOML floats, and no tolerance
    if isinstance(value, int | Decimal):
        amount = Fraction(value)
    elif isinstance(value, str) and value.strip().endswith("%"):
        from cgx_core.numbers.reader import read_numeral

        try:
            amount = read_numeral(value, "tolerance").value
        except CgxError:
            return None
    else:
        return None
    return amount if 0 < amount <= 1 else None


def run_tolerances(root: Path, manifest: Mapping[str, Any]) -> Callable[[], Tolerances]:
    """A loader of a run's tolerance table for a RunView (its hedges and counting units): read (once) only
    when a check asks for it."""

    @functools.cache
    def load() -> Tolerances:
        return read_run_tolerances(root, manifest.get("tolerances"))

    return load


def read_run_tolerances(root: Path, recorded: Mapping[str, Any] | None) -> Tolerances:
    """The tolerance table of a run: its `tolerances.toml`, checked against the digest its manifest
    recorded (`recorded` is the manifest's `tolerances` entry; None for a run made before they existed)."""
    if recorded is None:
        return NONE
    try:
        data = (root / RUN_FILE).read_bytes()
    except OSError:
        raise CgxError(Code.TAMPERED, f"the run's {RUN_FILE} is missing") from None
    if bytes_digest(data) != recorded.get("digest"):
        raise CgxError(Code.TAMPERED, f"the run's {RUN_FILE} differs from the digest its manifest recorded")
    return load_tolerances(data, RUN_FILE, None)
