"""The numerals of a table row read with the unit its column's header names.

Tables put a column's unit in its header, not in each cell: `Recall (\\%): 78.4`, `Time (h): 3.5`,
`Size [GB]: 12`. A sentence then reports the same number with its unit ("the best site reached 78.4%",
"3.5 hours"), so a check comparing the two must read the cell as the header says: 78.4 under `(\\%)` is the
percentage 78.4% (0.784), 3.5 under `(h)` is 3.5 h. Without this, a check of "78.4%" against the cell's
plain 78.4 compares 0.784 with 78.4 and fails on a true claim.

`column_occurrences` reads a table row's text as `cgx_core.ingest.tables` writes it (the title, then
`row LABEL` or `unlabelled row`, then `Header: cell` parts joined by `; `) and gives, for each numeral of a
cell whose header ends with a unit in parentheses or brackets, the same numeral carrying that unit (a
percent header makes a percent numeral). They are added to the numerals the row's text writes, never in
place of them: the plain 78.4 stays readable too.
"""

from __future__ import annotations

import re

import attrs

from cgx_core.numbers.numeral import Numeral
from cgx_core.numbers.reader import Occurrence, read_text
from cgx_core.numbers.units import Unit, read_unit

TABLE_ROW = "table-row"
"""The unit of a table row's chunk."""

_ROW = re.compile(r"; (?:row |unlabelled row)")
# The unit a header ends with: `(\%)`, `[ms]`, `(in h)`, `(GB)`.
_HEADER_UNIT = re.compile(r"[(\[]\s*(?:in\s+)?(?P<unit>[^()\[\]]{1,20}?)\s*[)\]]\s*$")
_PERCENT = frozenset({"%", "percent", "pct"})


def column_occurrences(row_text: str) -> tuple[Occurrence, ...]:
    """Each numeral of the row's cells read with the unit its header names (nothing for other headers)."""
    found = _ROW.search(row_text)
    if found is None:
        return ()
    parts = row_text[found.start() + 2 :].split("; ")[1:]  # the first part is the row's label
    occurrences: list[Occurrence] = []
    for part in parts:
        header, separator, cell = part.partition(": ")
        if not separator:
            continue
        unit = header_unit(header)
        if unit is None:
            continue
        for occurrence in read_text(cell):
            if occurrence.unit is not None or occurrence.numeral.written.endswith("%") or not occurrence.reported:
                continue
            if isinstance(unit, str):  # a percentage
                occurrences.append(attrs.evolve(occurrence, numeral=_percent(occurrence.numeral)))
            else:
                occurrences.append(attrs.evolve(occurrence, unit=unit))
    return tuple(occurrences)


def row_title(row_text: str) -> str:
    """What a row's text opens with: its table's title and caption, up to the row's own part."""
    found = _ROW.search(row_text)
    return row_text if found is None else row_text[: found.start()]


def header_unit(header: str) -> Unit | str | None:
    """The unit a column header ends with: `"%"` for a percentage, a `Unit`, or None."""
    found = _HEADER_UNIT.search(header)
    if found is None:
        return None
    text = re.sub(r"[$\\{}]", "", found["unit"]).strip()
    if text.lower() in _PERCENT:
        return "%"
    read = read_unit(text)
    if read is None or read[1] != len(text):
        return None
    return read[0]


def _percent(numeral: Numeral) -> Numeral:
    """The numeral as a percentage: 78.4 under a `(%)` header is 78.4% (0.784, to its digits)."""
    return Numeral(written=numeral.written + "%", value=numeral.value / 100, half_unit=numeral.half_unit / 100)
