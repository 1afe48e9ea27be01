r"""A table's body rows as the text of chunks: which table, which row, and each cell under its header.

A row's text reads

    Table 2 \ref{tab:mnist} (caption s-112); row \textbf{Setting}: CGN; C-MNIST / Train: 99.4; C-MNIST / Test: 92.3

* the table: `Table` or `Figure` (the float it is in) with the number LaTeX prints (`2`, `3.1`, `1a` for a
  subtable; `Table (unnumbered)` without number or label), then `\ref{<label>}` when it has one (the prose
  cites a table as `Table~\ref{<label>}`, so the same string finds it), then the chunk holding its caption
  (added when the graph is built), or the caption's opening words when no chunk holds it;
* the row's label: its first cell, under its group heading (`SVHN / Random Init`) or, without one, after
  the first column's header (`\textbf{Setting}: CGN`); `unlabelled row` when the first cell is empty;
* each other cell with text, as `header: cell`; a cell over several columns gives their headers joined
  with ` & `, and a column without header gives the cell alone. Empty cells are left out.

Cells keep their LaTeX as written (`\num{1.2e3}`, `$4.1\times10^{-3}$`, `93.2\%` stay as they are), with
the paper's macros expanded as in prose. In a siunitx `S` column, a cell that is a plain number is written
`\num{...}` (siunitx reads it so: `12 345` is one number), and a header's protecting braces are removed.
The table's number and the `\ref` are the only text a row adds that is not the paper's cell text; a
label's argument is a name, not a numeral.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from cgx_core.ingest.tables.colspec import column_kinds
from cgx_core.ingest.tables.grid import BodyRow, Placed, RawCell, RawRow, layout
from cgx_core.ingest.tables.paper import Caption, FoundTable
from cgx_core.ingest.tables.render import CellRenderer

# A cell siunitx reads as a number: digits with spaces, `.` or `,`, an optional sign, uncertainty and
# exponent. Anything else in an S column (text in braces, a macro) is left as written.
_SIUNITX_NUMBER = re.compile(
    r"[-+\u2212]?\s*[0-9][0-9 .,]*(?:\([0-9]+\))?(?:\s*(?:\\pm|\+-)\s*[0-9][0-9 .,]*)?(?:\s*[eEdD]\s*[-+]?[0-9]+)?"
)


@attrs.frozen
class CaptionRef:
    """Where a table's caption is, for finding the chunk that holds it."""

    locator: str
    text: str


@attrs.frozen
class TableRow:
    """One body row, before it has an id: its text without the caption reference, and where it is."""

    title: str
    body: str
    locator: str
    cites: tuple[str, ...]
    key: tuple[int, ...]
    table: int
    """The index of its table among the paper's tables, in reading order."""
    captions: tuple[CaptionRef, ...]
    """Its table's captions, the most specific (a subcaption) first."""
    attributes: Mapping[str, Any]


class TableText:
    """Renders the cells of one table and writes its rows."""

    def __init__(self, table: FoundTable, renderer: CellRenderer) -> None:
        self.table = table
        self.renderer = renderer
        # A key=value specification (tabularray's colspec={...}) is not a column list: read no kinds from it.
        self.kinds = () if _key_value(table.spec) else column_kinds(table.spec)
        self.rendered: dict[int, tuple[str, list[str]]] = {}

    def cell_text(self, cell: RawCell, column: int) -> str:
        if id(cell) not in self.rendered:
            text, cites = self.renderer.render_cell(cell.spans)
            if cell.graphics or cell.empty:
                text = ""
            elif column < len(self.kinds) and self.kinds[column] in "Ss":
                text = _siunitx(text, numbers=self.kinds[column] == "S")
            self.rendered[id(cell)] = (text, cites)
        return self.rendered[id(cell)][0]

    def cites(self, cells: list[Placed | None]) -> list[str]:
        keys: list[str] = []
        for placed in cells:
            if placed is not None:
                for key in self.rendered.get(id(placed.cell), ("", []))[1]:
                    if key not in keys:
                        keys.append(key)
        return keys


def _key_value(spec: str) -> bool:
    """Whether a specification is key=value options (an `=` outside `[...]`: `S[table-format=2.1]` is not)."""
    depth = 0
    for char in spec:
        if char == "[":
            depth += 1
        elif char == "]":
            depth = max(0, depth - 1)
        elif char == "=" and depth == 0:
            return True
    return False


def _siunitx(text: str, *, numbers: bool) -> str:
    """A cell of an siunitx column: a plain number in an `S` column as `\\num{...}`, protecting braces off."""
    if numbers and _SIUNITX_NUMBER.fullmatch(text):
        return f"\\num{{{text}}}"
    if len(text) > 1 and text[0] == "{" and text[-1] == "}" and _balanced(text[1:-1]):
        return text[1:-1].strip()
    return text


def _balanced(text: str) -> bool:
    depth = 0
    escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def row_body(row: BodyRow) -> str:
    """A row's text after its table's title (a PDF's table rows too: cgx_core.ingest.pdf.tables)."""
    cells = row.columns
    headers = row.headers
    label_cell = cells[0] if cells else None
    label = label_cell.text if label_cell is not None else ""
    if row.group:
        head = f"{row.group} / {label}" if label else row.group
    elif label and headers and headers[0]:
        head = f"{headers[0]}: {label}"
    else:
        head = label
    parts = [f"row {head}" if head else "unlabelled row"]
    for placed in dict.fromkeys(cells):
        if placed is None or placed is label_cell or not placed.text:
            continue
        spanned = [headers[c] for c in range(placed.column, placed.column + placed.cell.columns) if c < len(headers)]
        names = " & ".join(dict.fromkeys(name for name in spanned if name))
        parts.append(f"{names}: {placed.text}" if names else placed.text)
    return "; ".join(parts)


def _printed(caption: Caption | None, printed: Mapping[tuple[str, int], str | None]) -> str | None:
    """A caption's printed number: the paper's numbering's, by the caption's file and line."""
    return None if caption is None else printed.get(caption.line)


def _title(
    table: FoundTable,
    main: Caption | None,
    sub: Caption | None,
    printed: Mapping[tuple[str, int], str | None],
) -> tuple[str, dict[str, Any]]:
    kind = (main or sub).kind if (main or sub) is not None else (table.float_kind() or "table")  # type: ignore[union-attr]
    number = _printed(sub, printed) or _printed(main, printed)
    named = sub if sub is not None else main
    label = named.scope.label_of(named) if named is not None else None
    if label is None and main is not None and named is not main:
        label = main.scope.label_of(main)
    title = kind.capitalize() + (f" {number}" if number else "") + (f" \\ref{{{label}}}" if label else "")
    if not number and not label:
        title += " (unnumbered)"
    attributes: dict[str, Any] = {"kind": kind}
    if number:
        attributes["number"] = number
    if label:
        attributes["label"] = label
    return title, attributes


def column_count(declared: tuple[str, ...], widest: int) -> int | None:
    """The number of columns a table prints, recorded in each row's `attributes.table.columns` for `cols(t-N)`
    (a row's text leaves its empty cells out, so it cannot be counted from the text).

    The column specification declares them; the widest row (a `\\multicolumn` counted by its span) fills them.
    A row wider than the specification means the specification was misread (a `\\newcolumntype` of several
    columns): the rows win. A specification wider than every row (a column no row fills, or a specification
    read as more columns than it is) gives no count, rather than one a reader could not see."""
    return widest if widest > 0 and widest >= len(declared) else None


def _locator(row: RawRow, table: FoundTable) -> str:
    spans = row.spans
    if not spans:
        return table.source.locator(int(table.node.pos), int(table.node.pos) + int(table.node.len))
    source = spans[0].source
    mine = [span for span in spans if span.source is source]
    return source.locator(min(span.start for span in mine), max(span.end for span in mine))


def table_rows(
    table: FoundTable,
    index: int,
    raw_rows: list[RawRow],
    renderer: CellRenderer,
    printed: Mapping[tuple[str, int], str | None],
) -> list[TableRow]:
    """The chunks of one table's body rows, in order (titled with the `printed` numbers: see _title)."""
    text = TableText(table, renderer)
    shaped = layout(raw_rows, text.cell_text)
    if not shaped.rows:
        return []
    main, sub = table.captions()
    title, attributes = _title(table, main, sub, printed)
    columns = column_count(text.kinds, shaped.width)
    if columns is not None:
        attributes["columns"] = columns
    captions = tuple(
        CaptionRef(caption.locator, renderer.render_text(caption.text)[0])
        for caption in (sub, main)
        if caption is not None
    )
    rows = [
        TableRow(
            title=title,
            body=row_body(row),
            locator=_locator(row.own, table),
            cites=tuple(text.cites(list(row.columns))),
            key=table.key,
            table=index,
            captions=captions,
            attributes=attributes,
        )
        for row in shaped.rows
    ]
    for note in table.notes:  # a note under the table qualifies its rows: a chunk of the table too
        rendered, cites = renderer.render_text(note.text)
        body = f"note {note.mark}: {rendered}" if note.mark else f"note: {rendered}"
        rows.append(attrs.evolve(rows[-1], body=body, locator=note.locator, cites=tuple(cites)))
    return rows
