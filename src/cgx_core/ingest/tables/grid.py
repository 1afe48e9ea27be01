r"""A tabular's body as rows of cells, read from its parsed nodes the way LaTeX's array package reads it.

A cell ends at an `&` at the body's top level (an `&` inside braces, maths or a nested environment is
content, and `\&` is a character); a row ends at `\\` (with its `*` and `[2pt]`, even when a space stands
before the bracket, as `\@ifnextchar` allows), `\tabularnewline` or `\cr`. Before a row's first content come
rules and row material, which are no cells: `\hline`, booktabs' `\toprule`, `\midrule`, `\bottomrule`,
`\cmidrule(lr){2-3}`, `\specialrule`, `\cline{2-3}`, `\hhline`, `\addlinespace`, `\rowcolor`,
`\arrayrulecolor`, `\noalign`; and longtable's `\endfirsthead`, `\endhead`, `\endfoot`, `\endlastfoot`,
which close the head and foot parts. A full rule (not `\cline`/`\cmidrule`) is remembered as the rule above
the next row: the first one between rows ends the header (see `Layout`).

`\multicolumn{n}{spec}{text}` is a cell over n columns; `\multirow{n}{width}{text}` (and makecell's
`\multirowcell`) one over n rows, upwards when n is negative, as LaTeX draws it. Both may nest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from cgx_core.base.limits import MAX_TABLE_COLUMNS
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.ingest.tables.source import Span, inner_span, node_arguments

_ROW_ENDS = frozenset({"\\", "tabularnewline", "cr", "crcr"})
_FULL_RULES = frozenset(
    {"hline", "toprule", "midrule", "bottomrule", "specialrule", "hhline", "Xhline", "thickhline", "hdashline"}
)
_PARTIAL_RULES = frozenset({"cline", "cmidrule", "cdashline", "Cline"})
_ROW_MATERIAL = frozenset(
    {
        "rowcolor",
        "arrayrulecolor",
        "noalign",
        "addlinespace",
        "morecmidrules",
        "pagebreak",
        "nopagebreak",
        "newpage",
        "hiderowcolors",
        "showrowcolors",
        "rowfont",
        "belowrulesepcolor",
        "aboverulesepcolor",
    }
)
_PARTS = {"endfirsthead": "firsthead", "endhead": "head", "endfoot": "foot", "endlastfoot": "lastfoot"}
_CAPTION_ROW = frozenset({"caption", "label"})
_GRAPHICS = frozenset({"includegraphics", "includesvg", "input@graphics"})
# Macros that print nothing a reader reads: a cell of only these (and graphics) has no text.
_FORMAT_ONLY = frozenset(
    {
        "cellcolor",
        "color",
        "centering",
        "raggedright",
        "raggedleft",
        "bfseries",
        "itshape",
        "normalfont",
        "tiny",
        "scriptsize",
        "footnotesize",
        "small",
        "normalsize",
        "large",
        "Large",
        "hfill",
        "null",
        "relax",
        "strut",
        "phantom",
        "hphantom",
        "vphantom",
        "vspace",
        "hspace",
        "quad",
        "qquad",
        "noindent",
        "par",
        "medskip",
        "smallskip",
        "bigskip",
    }
)


def _macro(span: Span) -> str | None:
    node = span.node
    if node is not None and type(node).__name__ == "LatexMacroNode":
        return str(node.macroname)
    return None


def _is(span: Span, kind: str) -> bool:
    return span.node is not None and type(span.node).__name__ == kind


def _integer(node: Any) -> int | None:
    """A whole number written as a macro argument (`{3}`, `{-2}`), or None."""
    if node is None:
        return None
    text = node.latex_verbatim().strip().strip("{}").strip()
    body = text[1:] if text[:1] in "+-" else text
    if not body.isdigit() or len(body) > 6:
        return None
    return int(text)


@attrs.define(eq=False)
class RawCell:
    """A cell as written: its content's spans and how many columns and rows it covers."""

    spans: list[Span]
    columns: int = 1
    rows: int = 1
    graphics: bool = False
    """Only images (and formatting): a cell of a figure's layout grid, with no text to read."""
    empty: bool = True


@attrs.define(eq=False)
class RawRow:
    cells: list[RawCell]
    rule_above: bool
    """A full rule (\\hline, \\midrule, ...) stands between this row and the one before."""
    part: str = "body"
    caption: bool = False
    """The row holds only \\caption and \\label (a longtable's caption row)."""

    @property
    def spans(self) -> list[Span]:
        return [span for cell in self.cells for span in cell.spans if not span.blank]


def _strip(spans: list[Span]) -> list[Span]:
    start = 0
    end = len(spans)
    while start < end and spans[start].blank:
        start += 1
    while end > start and spans[end - 1].blank:
        end -= 1
    return spans[start:end]


def _unwrap(spans: list[Span], macro: str, count_index: int, content_index: int) -> tuple[list[Span], int]:
    """When the content starts with `macro`, its span count and the content of its text argument."""
    spans = _strip(spans)
    if not spans or _macro(spans[0]) != macro:
        return spans, 1
    arguments = node_arguments(spans[0].node)
    if len(arguments) <= max(count_index, content_index):
        return spans, 1
    count = _integer(arguments[count_index])
    inner = inner_span(spans[0].source, arguments[content_index])
    return _strip([*inner, *spans[1:]]), 1 if count is None or count == 0 else count


def make_cell(spans: list[Span]) -> RawCell:
    spans, columns = _unwrap(spans, "multicolumn", 0, 2)
    spans, rows = _unwrap(spans, "multirow", 1, 5)
    if rows == 1:
        spans, rows = _unwrap(spans, "multirowcell", 0, 2)
    visible = [span for span in spans if not span.blank and not _is(span, "LatexCommentNode")]
    macros = [_macro(span) for span in visible]
    graphics = bool(visible) and any(name in _GRAPHICS for name in macros)
    graphics = graphics and all(name in _GRAPHICS or name in _FORMAT_ONLY for name in macros)
    empty = all(name in _FORMAT_ONLY for name in macros)
    return RawCell(spans, max(1, min(columns, MAX_TABLE_COLUMNS)), rows, graphics, empty)


@attrs.define
class _RowReader:
    rows: list[RawRow] = attrs.field(factory=list)
    cells: list[RawCell] = attrs.field(factory=list)
    current: list[Span] = attrs.field(factory=list)
    rule: bool = False
    expect_optional: bool = False
    expect_trim: bool = False
    expect_range: bool = False
    unassigned: int = 0

    @property
    def at_start(self) -> bool:
        return not self.cells and all(span.blank for span in self.current)

    def end_cell(self) -> None:
        self.cells.append(make_cell(self.current))
        self.current = []
        if len(self.cells) > MAX_TABLE_COLUMNS:
            span = self.cells[0].spans[0] if self.cells[0].spans else None
            where = f" ({span.source.locator(span.start, span.end)})" if span is not None else ""
            raise CgxError(
                Code.PAPER_TOO_LARGE,
                f"a table row has more than {MAX_TABLE_COLUMNS} cells{where}; the table reader reads at most that",
            )

    def end_row(self) -> None:
        self.end_cell()
        cells, self.cells = self.cells, []
        row = RawRow(cells, self.rule)
        visible = row.spans
        row.caption = bool(visible) and all(_macro(span) in _CAPTION_ROW for span in visible)
        if visible or len(cells) > 1:
            self.rows.append(row)
        self.rule = False

    def mark_part(self, part: str) -> None:
        for row in self.rows[self.unassigned :]:
            row.part = part
        self.unassigned = len(self.rows)

    def leading_chars(self, span: Span) -> Span | None:
        """A run of text at a row's start, less an optional `[..]` of the `\\\\` before it or the `(..)`
        trim of a `\\cmidrule`; None when nothing is left."""
        text = span.text
        index = len(text) - len(text.lstrip())
        for flag, opening, closing in (("expect_optional", "[", "]"), ("expect_trim", "(", ")")):
            if getattr(self, flag) and text[index : index + 1] == opening:
                close = text.find(closing, index)
                if close >= 0:
                    index = close + 1
                    index += len(text[index:]) - len(text[index:].lstrip())
                    if flag == "expect_trim":
                        self.expect_range = True
            setattr(self, flag, False)
        rest = Span(span.source, span.start + index, span.end)
        if rest.blank:
            return None
        self.expect_range = False
        return rest

    def feed(self, span: Span) -> None:
        if _is(span, "LatexCommentNode"):
            return
        if self.at_start and _is(span, "LatexCharsNode"):
            rest = self.leading_chars(span)
            if rest is not None:
                self.current.append(rest)
            return
        if self.at_start and self.expect_range and _is(span, "LatexGroupNode"):
            self.expect_range = False
            return
        self.expect_optional = self.expect_trim = self.expect_range = False
        if _is(span, "LatexSpecialsNode") and span.node.specials_chars == "&":
            self.end_cell()
            return
        name = _macro(span)
        if name in _ROW_ENDS:
            self.end_row()
            self.expect_optional = name == "\\" and not any(node_arguments(span.node))
            return
        if name is not None and self.at_start:
            if name in _FULL_RULES:
                self.rule = True
                return
            if name in _PARTIAL_RULES:
                self.expect_trim = name == "cmidrule"
                self.expect_range = name == "cmidrule"
                return
            if name in _ROW_MATERIAL:
                return
            if name in _PARTS:
                self.mark_part(_PARTS[name])
                return
        self.current.append(span)

    def finish(self) -> list[RawRow]:
        if self.cells or not all(span.blank for span in self.current):
            self.end_row()
        return self.rows


def read_rows(stream: Sequence[Span]) -> list[RawRow]:
    """The rows of a tabular body, in order, with the longtable part each belongs to."""
    reader = _RowReader()
    for span in stream:
        reader.feed(span)
    return reader.finish()


# -- layout: header, groups, spans ------------------------------------------------------------------


@attrs.frozen
class Placed:
    """A cell placed in the grid: its first column, and its text."""

    cell: RawCell
    column: int
    text: str


@attrs.frozen
class BodyRow:
    """A row of the table's body: its cells by column (a spanning cell under each column it covers),
    the group heading above it, the cells it writes itself (for its locator) and the header its cells
    print under (the table's, or a header row inside the body above it)."""

    columns: tuple[Placed | None, ...]
    group: str
    own: RawRow
    headers: tuple[str, ...] = ()


@attrs.frozen
class Layout:
    headers: tuple[str, ...]
    """Each column's header: the header rows' cells over it, top to bottom, joined with " / "."""
    rows: tuple[BodyRow, ...]
    width: int = 0
    """The columns of the widest row, header rows included, a `\\multicolumn` counted by the columns it spans."""


def _place(row: RawRow, texts: Callable[[RawCell, int], str]) -> list[Placed | None]:
    placed: list[Placed | None] = []
    for cell in row.cells:
        entry = Placed(cell, len(placed), texts(cell, len(placed)))
        placed.extend([entry] * cell.columns)
    return placed[:MAX_TABLE_COLUMNS]


def _attribute_spans(grid: list[list[Placed | None]], rows: Sequence[RawRow]) -> None:
    """Give a cell spanning rows to each row it covers whose cell there is empty (down, or up when negative).
    Only a row's own cells spread, so a cell is never carried past the rows it spans."""
    for index, (placed_row, raw) in enumerate(zip(grid, rows, strict=True)):
        own = {id(cell) for cell in raw.cells}
        for placed in dict.fromkeys(placed_row):
            if placed is None or placed.cell.rows == 1 or placed.text == "" or id(placed.cell) not in own:
                continue
            step = 1 if placed.cell.rows > 0 else -1
            for offset in range(1, min(abs(placed.cell.rows), len(grid))):
                target = index + step * offset
                if not 0 <= target < len(grid):
                    break
                other = grid[target]
                for column in range(placed.column, placed.column + placed.cell.columns):
                    while len(other) <= column:
                        other.append(None)
                    current = other[column]
                    if current is None or current.text == "":
                        other[column] = placed


def _header_count(rows: Sequence[RawRow]) -> int:
    """The rows before the first full rule between two rows: the header. A table whose first such rule
    comes after more than three rows (a rule above a totals row, say) has no header."""
    for index, row in enumerate(rows):
        if index > 0 and row.rule_above:
            return index if index <= 3 else 0
    return 0


def _join(parts: Sequence[str]) -> str:
    kept: list[str] = []
    for part in parts:
        if part and (not kept or kept[-1] != part):
            kept.append(part)
    return " / ".join(kept)


def _has_numeral(text: str) -> bool:
    from cgx_core.numbers import read_text

    return any(occurrence.reported for occurrence in read_text(text))


def _is_header_row(placed: Sequence[Placed | None], rule_above: bool, header_texts: Sequence[tuple[str, ...]]) -> bool:
    """Whether a body row is a header inside the table: it writes the cells of a header row again (a
    second panel's repeated header), or, after a full rule, two or more cells none of which is a number
    (`Method & Train & Test` above a second block of scores)."""
    cells = [entry for entry in dict.fromkeys(placed) if entry is not None and entry.text]
    texts = tuple(entry.text for entry in cells)
    if texts and texts in header_texts:
        return True
    return rule_above and len(cells) >= 2 and not any(_has_numeral(entry.text) for entry in cells)


def _inner_headers(
    body: Sequence[RawRow], grid: list[list[Placed | None]], header_grid: list[list[Placed | None]]
) -> list[int]:
    """The indexes of the body rows that are headers inside the table (see `_is_header_row`): at most
    three in a row, and only above a row that writes a number, so a table of words keeps its rows."""
    header_texts = [
        tuple(entry.text for entry in dict.fromkeys(row) if entry is not None and entry.text) for row in header_grid
    ]
    found: list[int] = []
    index = 0
    while index < len(body):
        run = index
        while (
            run < len(body)
            and run - index < 3
            and _is_header_row(grid[run], body[run].rule_above or run > index, header_texts)
        ):
            run += 1
        numeric_below = run < len(body) and any(
            entry is not None and _has_numeral(entry.text) for entry in grid[run][1:]
        )
        if run > index and numeric_below:
            found.extend(range(index, run))
            index = run
        else:
            index += 1
    return found


def column_headers(header_grid: Sequence[Sequence[Placed | None]], width: int) -> tuple[str, ...]:
    """Each column's header: the header rows' cells over it, top to bottom, joined with " / " (a PDF's too)."""
    return tuple(
        _join([row[column].text if column < len(row) and row[column] is not None else "" for row in header_grid])  # type: ignore[union-attr]
        for column in range(width)
    )


def layout(rows: Sequence[RawRow], texts: Callable[[RawCell, int], str]) -> Layout:
    """The header of each column and the body rows, with spanning cells attributed, group headings (a
    row whose only text is its first cell, in a table of three columns or more, or one cell across every
    column) carried into the rows below them instead of standing as rows, and header rows inside the body
    (`_inner_headers`) heading the rows below them instead of the table's header."""
    rows = [row for row in rows if not row.caption]
    parts = {row.part for row in rows}
    if parts & {"firsthead", "head"}:
        head_part = "firsthead" if "firsthead" in parts else "head"
        header_rows = [row for row in rows if row.part == head_part]
        body_rows = [row for row in rows if row.part == "body"]
    else:
        count = _header_count(rows)
        header_rows, body_rows = list(rows[:count]), list(rows[count:])
    header_grid = [_place(row, texts) for row in header_rows]
    body_grid = [_place(row, texts) for row in body_rows]
    _attribute_spans(header_grid, header_rows)
    _attribute_spans(body_grid, body_rows)
    width = max((len(row) for row in (*header_grid, *body_grid)), default=0)
    headers = current = column_headers(header_grid, width)
    inner = set(_inner_headers(body_rows, body_grid, header_grid))
    out: list[BodyRow] = []
    group = ""
    pending: list[list[Placed | None]] = []
    for index, (raw, placed) in enumerate(zip(body_rows, body_grid, strict=True)):
        if index in inner:
            pending.append(placed)
            continue
        if pending:  # right under the table's header it continues it (a rule between two header rows)
            current = column_headers([*header_grid, *pending] if index == len(pending) else pending, width)
            pending, group = [], ""
        texts_here = [entry for entry in dict.fromkeys(placed) if entry is not None and entry.text]
        own_text = any(not cell.empty and not cell.graphics for cell in raw.cells)
        if not own_text:
            continue
        if len(texts_here) == 1 and (
            (texts_here[0].column == 0 and width >= 3 and any(cell is texts_here[0].cell for cell in raw.cells))
            or texts_here[0].cell.columns >= width > 1
        ):
            group = texts_here[0].text
            continue
        padded = tuple(placed) + (None,) * (width - len(placed))
        out.append(BodyRow(padded, group, raw, current))
    return Layout(headers, tuple(out), width)
