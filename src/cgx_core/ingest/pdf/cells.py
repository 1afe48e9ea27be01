"""A PDF line cut into table cells, and a cell's text written the way the numeral reader reads numbers.

A table's columns are set apart by at least twice the column separation (`\\tabcolsep`, 6 pt in LaTeX's
classes), where words within a cell are one interword space apart (a third of an em): so a gap of
`CELL_GAP` font sizes or more between two glyphs of one line ends a cell. credencegraph's reader already cuts a
line where it jumps by two font sizes, so a table row is often several of its lines on one baseline; a
row's cells are those of every line on it.

A PDF prints what LaTeX typeset, so a cell's text needs what the typesetting changed undone before the
numeral reader (cgx_core.numbers.reader) sees it as it sees a LaTeX cell:

* a minus sign printed as U+2212, or a hyphen, figure dash or en dash (U+2010 to U+2013) where a sign stands
  (before a digit, not after a letter or digit) is `-`;
* a raised run of glyphs holding a digit (an exponent: `10` and a raised, smaller `-3`) is written
  `^{-3}`, so `1.2 x 10^{-3}` (U+00D7) is one numeral as `1.2\\times10^{-3}` is; a raised mark
  without a digit (`*`, `†`) is kept as printed;
* thin and narrow no-break spaces between digit groups are kept: the reader joins `12 345` through them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from credencegraph.ingest.pdf import Line

CELL_GAP = 0.75
"""Font sizes of horizontal gap between two glyphs that end a cell (an interword space is about 0.33)."""
_RAISED = 0.25
"""Font sizes above the baseline at which a glyph's bottom is raised (a superscript sits about 0.35 up)."""
_SIGN_DASH = re.compile(r"(?<![\w.)\]])[\u2010\u2011\u2012\u2013\u2212](?=\s?[0-9.])")


@attrs.frozen
class Cell:
    """Text of one line between two wide gaps: where it is along the line, and its bottom and top."""

    left: float
    right: float
    bottom: float
    top: float
    text: str
    bold: bool

    @property
    def middle(self) -> float:
        return (self.left + self.right) / 2


def numeric_text(text: str) -> str:
    """A cell's text with printed minus signs as `-` (see the module's docstring)."""
    return _SIGN_DASH.sub("-", text)


def line_cells(line: Line) -> list[Cell]:
    """The cells of a horizontal line, left to right (a line at another angle is one cell)."""
    if line.angle != 0:
        return [Cell(line.box[0], line.box[2], line.box[1], line.box[3], line.text, line.bold)]
    cells: list[Cell] = []
    runs: list[list[tuple[str, tuple[float, float, float, float] | None]]] = [[]]
    last_right: float | None = None
    for glyph in line.glyphs:
        box = glyph.box
        if box is not None and last_right is not None and box[0] - last_right >= CELL_GAP * line.size:
            runs.append([])
        runs[-1].append((glyph.text, box))
        if box is not None:
            last_right = box[2]
    for run in runs:
        boxes = [box for _, box in run if box is not None]
        if not boxes:
            continue
        text = " ".join(_with_exponents(run, line).split())
        if text:
            cells.append(
                Cell(
                    min(box[0] for box in boxes),
                    max(box[2] for box in boxes),
                    min(box[1] for box in boxes),
                    max(box[3] for box in boxes),
                    numeric_text(text),
                    line.bold,
                )
            )
    return cells


def _with_exponents(run: Sequence[tuple[str, tuple[float, float, float, float] | None]], line: Line) -> str:
    """The run's text, each raised stretch that holds a digit written `^{...}`."""
    floor = line.baseline + _RAISED * line.size
    pieces: list[tuple[bool, str]] = []
    for text, box in run:
        raised = box is not None and box[1] > floor
        if pieces and pieces[-1][0] == raised:
            pieces[-1] = (raised, pieces[-1][1] + text)
        else:
            pieces.append((raised, text))
    out: list[str] = []
    for raised, text in pieces:
        if raised and any(char.isdigit() for char in text) and out and out[-1][-1:].strip():
            out.append("^{" + numeric_text(text.strip()) + "}")
        else:
            out.append(text)
    return "".join(out)
