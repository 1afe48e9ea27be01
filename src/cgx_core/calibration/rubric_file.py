"""The calibrated rubric, written over the rubric it was fitted from: the same file, its comments and layout
kept (tomlkit), with the fitted values, a new version and a `[calibration]` table saying what it was fitted on.

A rubric's version names its values (verify warns when one name and version have two digests), so a
calibrated rubric always takes the version it is given. `premises.base` is written to the bases that must
equal it: the assumption type's and the reading type's (every analyst node's base is premises.base).
"""

from __future__ import annotations

import datetime
from typing import Any

import tomlkit

from cgx_core.calibration.counts import PREMISES
from cgx_core.calibration.fit import Fitted
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.graph import analyst
from cgx_core.graph.rubric import load_rubric_bytes

SCORING = "brier"
EQUAL_TO_PREMISES = (analyst.ASSUMPTION, analyst.READING)


def calibrated_rubric(text: str, fitted: Fitted, *, version: str, against: str, on: datetime.date) -> str:
    """`text` (a rubric) with the fitted values, `version`, and `[calibration]` (status calibrated, scoring
    brier, `against`, the date `on`); checked by credencegraph before it is returned."""
    document = tomlkit.parse(text)
    document["rubric"]["version"] = version
    calibration = tomlkit.table()
    calibration["status"] = "calibrated"
    calibration["scoring"] = SCORING
    calibration["against"] = against
    calibration["date"] = on
    if "calibration" in document:
        for name, value in calibration.items():
            document["calibration"][name] = value
    else:  # at the end: a new table never moves what the rubric's author wrote
        document["calibration"] = calibration
    checks: Any = document.get("checks", {})
    for name, value in fitted.sensitivity.items():
        checks[name]["sensitivity"] = value
    for name, value in fitted.false_pass.items():
        checks[name]["false_pass"] = value
    types: Any = document.get("types", {})
    for name, value in fitted.bases.items():
        if name == PREMISES:
            document["premises"]["base"] = value
            for equal in EQUAL_TO_PREMISES:
                if equal in types and "base" in types[equal]:
                    types[equal]["base"] = value
        else:
            types[name]["base"] = value
    for name, value in fitted.strengths.items():
        types[name]["rests_on"]["strength"] = float(value)
    written = tomlkit.dumps(document)
    load_rubric_bytes(written.encode("utf-8"), "the calibrated rubric")  # credencegraph's own checks
    return written


def parse_date(text: str) -> datetime.date:
    """The `--date` option: a calendar date, never the clock's (the same runs give the same bytes)."""
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise CgxError(Code.CALIBRATION_INVALID, f"--date must be a date such as 2026-12-06, got {text!r}") from None
