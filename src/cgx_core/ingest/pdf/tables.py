r"""A PDF's tables as `table-row` chunks of the same shape as a LaTeX table's (cgx_core.ingest.tables.rows).

A table is found from its caption (`Table 2: ...`, as credencegraph's reader finds captions): its body is the
run of lines next to the caption, above or below it, in the caption's text column (`_column`), that are not
prose, each no further than `_ROW_GAP` font sizes from the last. A line is prose when it is one cell, not
bold, and wider than `_PROSE_WIDTH` of the column (a paragraph's line), or is another caption. A line
`(a) ...` in a smaller font inside the run is a subtable's caption: it closes the subtable on its side (below
it when the table's caption is below, as LaTeX sets them), and that subtable's rows are numbered `1a`.

Within a (sub)table, lines on one baseline are one row, and each is cut into cells (`cells`). The first row
with a digit in a cell after its first and a label in the first column is the first body row; the rows
before it, up to three, are the header (a last one with only a first-column cell is a group heading). The
columns are the horizontal extents of the body rows' cells, merged where they overlap; a header cell is over
every column whose slot holds a quarter of its width (a header centred over two columns heads each of them,
as a `\multicolumn` does). A body row whose only cell is in the first column, in a table of three columns or
more, is a group heading for the rows below it, as in a LaTeX table. The rows' text is then made by the same
function as a LaTeX table's (`row_body`): `Table 1a (caption s-078); row CIFAR-10: Random Init; SGD: 60.3 (0.1); ...`.

What a PDF cannot give: the `\ref{label}` (a PDF has no labels), a table without a caption, and a caption
with no body rows (a table set as an image); start_run's `document.limits` counts the latter.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from cgx_core.base.limits import MAX_CHUNKS
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.ingest.pdf.boxes import Box, centre_in, first_box, locator_of, union
from cgx_core.ingest.pdf.cells import Cell, line_cells
from cgx_core.ingest.tables.grid import BodyRow, Placed, RawCell, RawRow, column_headers
from cgx_core.ingest.tables.rows import CaptionRef, TableRow, row_body

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk
    from credencegraph.ingest.pdf import Caption, Line, PdfDocument

_ROW_GAP = 3.0
"""Font sizes of vertical space beyond which the next line is not part of the table."""
_PROSE_WIDTH = 0.6
_SLACK = 2.0
"""Points a table's line may reach past its text column."""
_NEAR = 200.0
"""Points above or below a caption within which text in the other half of the page makes it a two-column page."""
_COLUMN_LINE = 0.35
"""Of the text block's width: a line at least this wide in one half is a column's prose."""
_SAME_ROW = 0.5
"""Font sizes between two baselines of one row."""
_SUBCAPTION = re.compile(r"^\(([a-z])\)\s+\S")
_CAPTION_START = re.compile(r"^(?:FIG\.|Fig\.|FIGURE|Figure|TABLE|Table)\s*(?:\d+|[IVXLC]+)\s*[.:]")
_MAX_HEADER_ROWS = 3
_SPAN_SHARE = 0.25


@attrs.frozen
class _Row:
    """Cells on one baseline, left to right."""

    cells: tuple[Cell, ...]
    size: float

    @property
    def top(self) -> float:
        return max(cell.top for cell in self.cells)

    @property
    def bottom(self) -> float:
        return min(cell.bottom for cell in self.cells)

    @property
    def box(self) -> Box:
        return (min(cell.left for cell in self.cells), self.bottom, max(cell.right for cell in self.cells), self.top)

    @property
    def numeric(self) -> bool:
        return len(self.cells) >= 2 and any(any(ch.isdigit() for ch in cell.text) for cell in self.cells[1:])

    def is_body(self, first_column: tuple[float, float]) -> bool:
        """A row of numbers with a label: a header row of numbers (`0.1 0.01`) has nothing in the first column."""
        first = self.cells[0]
        return self.numeric and first.left < first_column[1] and first.right > first_column[0]


@attrs.frozen
class PdfTables:
    """The rows of a PDF's tables, where their bodies are (page and box), and the captions with no rows."""

    rows: tuple[TableRow, ...]
    regions: tuple[tuple[int, Box], ...]
    unread: tuple[str, ...]
    """`Table 3` for each table caption under which no body rows were found."""

    def prose(self, chunks: Sequence[Chunk]) -> list[Chunk]:
        """The chunks without the sentences credencegraph read from inside a table's body."""
        return [chunk for chunk in chunks if chunk.unit == "reference" or not self._inside(chunk.locator)]

    def _inside(self, locator: str) -> bool:
        located = first_box(locator)
        return located is not None and any(
            located[0] == page and centre_in(located[1], region) for page, region in self.regions
        )


def read_pdf_tables(analysis: PdfDocument, chunks: Sequence[Chunk]) -> PdfTables:
    """Every table the PDF's captions name, as rows (in caption order)."""
    rows: list[TableRow] = []
    regions: list[tuple[int, Box]] = []
    unread: list[str] = []
    captions = [caption for caption in analysis.captions if caption.kind == "table"]
    for index, caption in enumerate(captions):
        found, region = _table(analysis.lines, analysis.captions, caption, index, _caption_ref(caption, chunks))
        if not found:
            unread.append(f"Table {caption.number}")
            continue
        rows.extend(found)
        regions.append((caption.page, region))
    if len(rows) + len(chunks) > MAX_CHUNKS:
        raise CgxError(
            Code.PAPER_TOO_LARGE,
            f"the PDF's tables have {len(rows)} rows, which with its {len(chunks)} other chunks pass the limit of "
            f"{MAX_CHUNKS} chunks",
        )
    return PdfTables(tuple(rows), tuple(regions), tuple(unread))


def _caption_ref(caption: Caption, chunks: Sequence[Chunk]) -> tuple[CaptionRef, ...]:
    """The caption chunk credencegraph made of this caption (its exact locator places the rows after it)."""
    for chunk in chunks:
        if chunk.unit == "caption" and chunk.text == caption.text and chunk.locator.startswith(f"page={caption.page};"):
            return (CaptionRef(chunk.locator, chunk.text),)
    return (CaptionRef("", caption.text),)


def _inside(box: Box, outer: Box, slack: float) -> bool:
    return (
        box[0] >= outer[0] - slack
        and box[2] <= outer[2] + slack
        and box[1] >= outer[1] - slack
        and (box[3] <= outer[3] + slack)
    )


def _column(page: Sequence[Line], caption: Caption) -> tuple[float, float]:
    """The text column a caption is in: half the text block when it stands in one half with prose beside it
    in the other (a two-column page), else the whole block."""
    left = min(line.box[0] for line in page)
    right = max(line.box[2] for line in page)
    middle = (left + right) / 2
    near = [  # lines of prose: a table's cells in the other half are short
        line
        for line in page
        if abs(line.baseline - caption.box[1]) <= _NEAR and line.box[2] - line.box[0] >= _COLUMN_LINE * (right - left)
    ]
    if caption.box[0] >= middle and any(line.box[2] < middle for line in near):
        return middle, right
    if caption.box[2] <= middle and any(line.box[0] > middle for line in near):
        return left, middle
    return left, right


def _page_rows(lines: Sequence[Line], captions: Sequence[Caption], caption: Caption) -> tuple[list[_Row], float]:
    """The page's rows of lines in the caption's text column, outside every caption, top to bottom; and the
    column's width."""
    page = [line for line in lines if line.page == caption.page and line.angle == 0 and line.text.strip()]
    boxes = [other.box for other in captions if other.page == caption.page]
    left, right = _column(page, caption)
    kept = [
        line
        for line in page
        if line.box[0] >= left - _SLACK
        and line.box[2] <= right + _SLACK
        and not any(_inside(line.box, box, 1.0) for box in boxes)
    ]
    kept.sort(key=lambda line: -line.baseline)
    rows: list[list[Line]] = []
    for line in kept:
        if rows and abs(rows[-1][0].baseline - line.baseline) <= _SAME_ROW * line.size:
            rows[-1].append(line)
        else:
            rows.append([line])
    out = []
    for group in rows:
        cells = sorted((cell for line in group for cell in line_cells(line)), key=lambda cell: cell.left)
        if cells:
            out.append(_Row(tuple(cells), max(line.size for line in group)))
    return out, right - left


def _prose(row: _Row, width: float) -> bool:
    if _CAPTION_START.match(row.cells[0].text):
        return True
    cell = row.cells[0]
    if _SUBCAPTION.match(cell.text):
        return False
    return len(row.cells) == 1 and not cell.bold and cell.right - cell.left > _PROSE_WIDTH * width


def _walk(rows: Sequence[_Row], edge: float, width: float, *, upwards: bool) -> list[_Row]:
    """The rows next to a caption's edge, nearest first, until prose or a wide gap."""
    taken: list[_Row] = []
    for row in rows:
        gap = row.bottom - edge if upwards else edge - row.top
        if gap < 0:
            continue
        if gap > _ROW_GAP * row.size or _prose(row, width):
            break
        taken.append(row)
        edge = row.top if upwards else row.bottom
    while taken and len(taken[-1].cells) == 1 and not taken[-1].cells[0].bold and not taken[-1].numeric:
        if _SUBCAPTION.match(taken[-1].cells[0].text):
            break
        taken.pop()  # a short last line of the paragraph beside the table
    return taken


def _table(
    lines: Sequence[Line],
    captions: Sequence[Caption],
    caption: Caption,
    index: int,
    refs: tuple[CaptionRef, ...],
) -> tuple[list[TableRow], Box]:
    rows, width = _page_rows(lines, captions, caption)
    above = _walk([row for row in reversed(rows)], caption.box[3], width, upwards=True)
    below = _walk(rows, caption.box[1], width, upwards=False)
    caption_below = sum(row.numeric for row in above) >= sum(row.numeric for row in below)
    taken = list(reversed(above)) if caption_below else below  # top to bottom
    if not any(row.numeric for row in taken):
        return [], (0.0, 0.0, 0.0, 0.0)
    out: list[TableRow] = []
    for letter, segment in _segments(taken, caption_below=caption_below):
        number = f"{caption.number}{letter}"
        out.extend(_segment_rows(segment, number, index, caption.page, refs))
    return out, union(row.box for row in taken)


def _segments(rows: Sequence[_Row], *, caption_below: bool) -> list[tuple[str, list[_Row]]]:
    """The (sub)tables: rows split at each `(a) ...` subcaption, with the subcaption's letter ('' for none)."""
    marks = [
        (position, match[1])
        for position, row in enumerate(rows)
        if len(row.cells) == 1 and (match := _SUBCAPTION.match(row.cells[0].text))
    ]
    if not marks:
        return [("", list(rows))]
    out: list[tuple[str, list[_Row]]] = []
    start = 0
    for position, letter in marks:
        if caption_below:
            out.append((letter, list(rows[start:position])))
        else:
            if out:
                out[-1] = (out[-1][0], list(rows[start:position]))
            out.append((letter, []))
        start = position + 1
    if not caption_below and out:
        out[-1] = (out[-1][0], list(rows[start:]))
    return [(letter, segment) for letter, segment in out if segment]


def _columns(body: Sequence[_Row]) -> list[tuple[float, float]]:
    """The columns: the body cells' extents, merged where they overlap, left to right."""
    spans = sorted((cell.left, cell.right) for row in body for cell in row.cells)
    merged: list[tuple[float, float]] = []
    for left, right in spans:
        if merged and left <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], right))
        else:
            merged.append((left, right))
    return merged


def _over(cell: Cell, columns: Sequence[tuple[float, float]]) -> list[int]:
    """The columns a cell covers: each column's slot reaches halfway to its neighbours, and a cell covers the
    slots holding at least `_SPAN_SHARE` of its width (a header centred over two columns covers both)."""
    bounds = [(columns[n - 1][1] + columns[n][0]) / 2 for n in range(1, len(columns))]
    slots = list(zip([-float("inf"), *bounds], [*bounds, float("inf")], strict=True))
    width = max(cell.right - cell.left, 1e-6)
    shares = [(min(cell.right, right) - max(cell.left, left)) / width for left, right in slots]
    covered = [number for number, share in enumerate(shares) if share >= _SPAN_SHARE]
    return covered or [max(range(len(slots)), key=lambda number: shares[number])]


def _placed(row: _Row, columns: Sequence[tuple[float, float]]) -> list[Placed | None]:
    grid: list[Placed | None] = [None] * len(columns)
    for cell in row.cells:
        covered = _over(cell, columns)
        free = [number for number in covered if grid[number] is None]
        if not free:
            first = covered[0]
            current = grid[first]
            if current is not None:  # two cells in one column: one cell, as printed
                grid[first] = Placed(current.cell, current.column, f"{current.text} {cell.text}")
            continue
        placed = Placed(RawCell([], columns=len(free), empty=False), free[0], cell.text)
        for number in free:
            grid[number] = placed
    return grid


def _segment_rows(
    segment: Sequence[_Row], number: str, index: int, page: int, refs: tuple[CaptionRef, ...]
) -> list[TableRow]:
    numeric = [row for row in segment if row.numeric]
    if not numeric:
        return []
    label_column = _columns(numeric)[0]
    first_body = next((position for position, row in enumerate(segment) if row.is_body(label_column)), None)
    if first_body is None:
        return []
    header_rows = list(segment[:first_body])
    body = list(segment[first_body:])
    columns = _columns([row for row in body if row.numeric])
    while header_rows and _over(header_rows[-1].cells[0], columns) == [0] and len(header_rows[-1].cells) == 1:
        body.insert(0, header_rows.pop())  # a group heading above the first body row, not a header
    if len(header_rows) > _MAX_HEADER_ROWS:
        header_rows = []
    headers = column_headers([_placed(row, columns) for row in header_rows], len(columns))
    out: list[TableRow] = []
    group = ""
    for row in body:
        grid = _placed(row, columns)
        texts = [entry for entry in dict.fromkeys(grid) if entry is not None]
        if len(texts) == 1 and (
            (texts[0].column == 0 and len(columns) >= 3) or texts[0].cell.columns >= len(columns) > 1
        ):
            group = texts[0].text
            continue
        shaped = BodyRow(tuple(grid), group, RawRow([], rule_above=False), headers)
        out.append(
            TableRow(
                title=f"Table {number}",
                body=row_body(shaped),
                locator=locator_of(page, row.box),
                cites=(),
                key=(page,),
                table=index,
                captions=refs,
                attributes={"kind": "table", "number": number},
            )
        )
    return out
