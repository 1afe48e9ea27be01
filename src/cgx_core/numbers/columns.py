"""The numerals of a table row read with the unit its column's header names.

Tables put a column's unit in its header, not in each cell: `Recall (\\%): 78.4`, `Time (h): 3.5`,
`Size [GB]: 12`. A sentence then reports the same number with its unit ("the best site reached 78.4%",
"3.5 hours"), so a check comparing the two must read the cell as the header says: 78.4 under `(\\%)` is the
percentage 78.4% (0.784), 3.5 under `(h)` is 3.5 h. Without this, a check of "78.4%" against the cell's
plain 78.4 compares 0.784 with 78.4 and fails on a true claim.

`column_occurrences` reads a table row's text as `cgx_core.ingest.tables` writes it (the title, then
`row LABEL` or `unlabelled row`, then `Header: cell` parts joined by `; `) and gives, for each numeral of a
cell whose header names a unit in parentheses or brackets, the same numeral carrying that unit (a
percent header makes a percent numeral). They are added to the numerals the row's text writes, never in
place of them: the plain 78.4 stays readable too.

A header of several rows is written top to bottom, joined with ` / ` (`Probability (\\%) / original` for a
`\\multicolumn` over two columns above `original` and `reproduction`), so the unit is read from *every*
header row above the cell: a grouped header's unit applies to each column under it. Two rows that name
different units leave the column's unit unknown (`unit_unknown`), as does a header that names none: a
percentage computed from such cells cannot be decided on one reading of them (see the arithmetic check).

`cells_text` is the row's text without what start_run adds to it (its `Table N` title, `\\ref{...}` and
caption reference): the numerals a check may take from a row are the paper's cells, never the 2 of
"Table 2" or the 112 of "caption s-112". `row_occurrences` reads those cells alone: a column header's numeral
("Stage 1", "Top-5") and that of a label naming the row ("Model 2") are names, never numbers of the row,
while a label that is only a quantity (`2019`, `0.1`, `10 s`) is the row's first value.
"""

from __future__ import annotations

import re

import attrs

from cgx_core.errors import CgxError
from cgx_core.numbers.numeral import Numeral
from cgx_core.numbers.reader import Occurrence, read_quantity, read_text
from cgx_core.numbers.units import Unit, read_unit

TABLE_ROW = "table-row"
"""The unit of a table row's chunk."""

_ROW = re.compile(r"; (?:row |unlabelled row)")
_OPENINGS = ("row ", "unlabelled row")
# The unit a header ends with: `(\%)`, `[ms]`, `(in h)`, `(GB)`, also inside the header's formatting, whose closing
# braces may follow it (`\textbf{Computational Cost (GPU Hours)}`).
_HEADER_UNIT = re.compile(r"[(\[]\s*(?:in\s+)?(?P<unit>[^()\[\]]{1,20}?)\s*[)\]][\s}]*$")
_PERCENT = frozenset({"%", "percent", "pct"})


def column_occurrences(row_text: str) -> tuple[Occurrence, ...]:
    """Each numeral of the row's cells read with the unit its header names (nothing for other headers)."""
    return tuple(
        _as_headed(occurrence, unit)
        for header, cell in _cells(row_text)
        if (unit := header_unit(header)) is not None
        for occurrence in read_text(cell)
        if _is_plain(occurrence)
    )


def row_occurrences(row_text: str, *, header_units: bool = False) -> tuple[Occurrence, ...]:
    """The numerals of a row's cells (its text from its label on, or whole), in order: never a header's, nor
    a label's that names the row rather than giving a value. With `header_units`, a plain cell under a
    header naming a unit carries it (78.4 under `Recall (%)` is 78.4%), as the paper means it."""
    cells = _cells(row_text)
    if not cells:
        return read_text(row_text)
    found: list[Occurrence] = []
    for index, (header, cell) in enumerate(cells):
        if index == 0 and not _is_quantity(cell):
            continue
        unit = header_unit(header) if header_units else None
        for occurrence in read_text(cell):
            found.append(_as_headed(occurrence, unit) if unit is not None and _is_plain(occurrence) else occurrence)
    return tuple(found)


def _as_headed(occurrence: Occurrence, unit: Unit | str) -> Occurrence:
    """A plain cell's numeral as its header makes it: a percentage under `(%)`, else carrying the unit."""
    if isinstance(unit, str):
        return attrs.evolve(occurrence, numeral=_percent(occurrence.numeral))
    return attrs.evolve(occurrence, unit=unit)


def _is_plain(occurrence: Occurrence) -> bool:
    """Whether a cell reports the numeral without a unit or percent sign of its own."""
    return occurrence.unit is None and not occurrence.numeral.written.endswith("%") and occurrence.reported


def _is_quantity(label: str) -> bool:
    """Whether a row's label is one numeral (with its unit), a value rather than a name (`Stage 1`)."""
    try:
        read_quantity(_LATEX.sub("", label), "label")
    except CgxError:
        return False
    return True


_LATEX = re.compile(r"\\[A-Za-z]+\*?|[{}]")


def unit_unknown(row_text: str) -> tuple[Occurrence, ...]:
    """The plain numerals of the row's cells whose header names no unit, or names two that differ: cells
    that may be percentages, counts or anything else the paper does not say."""
    return tuple(
        occurrence
        for header, cell in _cells(row_text)
        if header_unit(header) is None
        for occurrence in read_text(cell)
        if _is_plain(occurrence)
    )


def cells_text(row_text: str) -> str:
    """The row's own text, from its label on: the paper's cells without the title start_run adds."""
    found = _ROW.search(row_text)
    return row_text if found is None else row_text[found.start() + 2 :]


def _cells(row_text: str) -> list[tuple[str, str]]:
    """(header, cell) of each cell of a row's text, its label's included; the header is "" for a cell
    written without one (a table without a header); [] for a text that is no row."""
    body = row_text if row_text.startswith(_OPENINGS) else cells_text(row_text)  # its own text (`cells_text`)
    if not body.startswith(_OPENINGS):
        return []
    label, *parts = body.split("; ")
    parts.insert(0, label.removeprefix("row ") if label.startswith("row ") else "")
    cells = []
    for part in parts:
        header, separator, cell = part.partition(": ")
        cells.append((header, cell) if separator else ("", part))
    return cells


def row_title(row_text: str) -> str:
    """What a row's text opens with: its table's title and caption, up to the row's own part."""
    found = _ROW.search(row_text)
    return row_text if found is None else row_text[: found.start()]


def header_unit(header: str) -> Unit | str | None:
    """The unit a column's header rows name (each row's part, top to bottom): `"%"` for a percentage, a
    `Unit`, or None when none names one or two name different ones."""
    named = {unit for part in _header_rows(header) if (unit := _row_unit(part)) is not None}
    return next(iter(named)) if len(named) == 1 else None


def _header_rows(header: str) -> list[str]:
    """A header's rows: its parts between the ` / ` that join them, outside parentheses and brackets (the
    unit `(m / s)` is one part)."""
    parts: list[str] = []
    depth = start = 0
    for index, char in enumerate(header):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0 and header.startswith(" / ", index):
            parts.append(header[start:index])
            start = index + 3
    parts.append(header[start:])
    return parts


def _row_unit(header: str) -> Unit | str | None:
    """The unit one header row ends with, in parentheses or brackets."""
    found = _HEADER_UNIT.search(header)
    if found is None:
        return None
    text = re.sub(r"[$\\{}]", "", found["unit"]).strip()
    if text.lower() in _PERCENT:
        return "%"
    read = read_unit(text, alone=True)
    if read is None or read[1] != len(text):
        return None
    return read[0]


def _percent(numeral: Numeral) -> Numeral:
    """The numeral as a percentage: 78.4 under a `(%)` header is 78.4% (0.784, to its digits)."""
    return Numeral(written=numeral.written + "%", value=numeral.value / 100, half_unit=numeral.half_unit / 100)
