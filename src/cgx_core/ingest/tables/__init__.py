r"""Tables become chunks: one `table-row` chunk per body row of every tabular-like environment of a LaTeX paper.

credencegraph 0.4.1 keeps only a float's caption, so the numbers a paper's text compares with its tables
were in no chunk, and no check could cite them. start_run's ingestion calls `read_tables` on the document
it has read (the same files, by name: nothing else is opened), then

* `TableReading.prose` drops the chunks credencegraph made by reading a table body as prose (it does so for
  a `longtable` or a `tabularx` outside a `table` float: `A & B \\ \hline` as a "sentence"), before the
  chunks are numbered;
* `TableReading.cites` adds the keys cells cite to those whose `.bib` entries become references;
* `TableReading.add_to` adds a node per row to the graph (ids, order and text: see `graph` and `rows`).

Reading is deterministic (same files, same bytes) and bounded: see `paper` (the visitor), `grid` (rows and
cells), `render` (macro expansion budgets) and `cgx_core.base.limits`. Errors are `CgxError`s: a row wider than
`MAX_TABLE_COLUMNS` cells or more rows than the chunk limit allows is `paper-too-large`, a paper nested too
deeply to walk is `paper-invalid`. docs/tables.md is the user's account.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from cgx_core.base.limits import MAX_CHUNKS
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.ingest.latex_text import file_lines

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk

    from cgx_core.ingest.tables.paper import TableVisitor
    from cgx_core.ingest.tables.rows import TableRow

# Environments credencegraph does not read as prose (with everything inside them, across \input).
_UNREAD_BY_CREDENCEGRAPH = frozenset(
    {"figure", "figure*", "table", "table*", "tabular", "tabular*", "tikzpicture", "verbatim", "lstlisting", "comment"}
)


@attrs.frozen
class _Region:
    """Lines of a table body credencegraph read as prose; `open_*` when other text shares the first/last line."""

    file: str
    first: int
    last: int
    open_first: bool
    open_last: bool

    def holds(self, locator: str) -> bool:
        found = file_lines(locator)
        if found is None or found[0] != self.file:
            return False
        _, first, last = found
        if not (self.first <= first and last <= self.last):
            return False
        return not ((first == self.first and self.open_first) or (last == self.last and self.open_last))


@attrs.frozen
class TableReading:
    """The rows of a paper's tables, and what placing them in the graph needs."""

    rows: tuple[TableRow, ...] = ()
    chains: Mapping[str, tuple[int, ...]] = attrs.field(factory=dict)
    regions: tuple[_Region, ...] = ()

    @property
    def cites(self) -> list[str]:
        """The keys the rows cite, in order of first citation."""
        return list(dict.fromkeys(key for row in self.rows for key in row.cites))

    def prose(self, chunks: Sequence[Chunk]) -> list[Chunk]:
        """credencegraph's chunks without those it read from inside a table body."""
        if not self.regions:
            return list(chunks)
        return [
            chunk
            for chunk in chunks
            if chunk.unit == "reference" or not any(region.holds(chunk.locator) for region in self.regions)
        ]

    def add_to(
        self, graph: Any, document: str, initial: Mapping[str, str], unresolved: Sequence[str]
    ) -> tuple[Any, list[str]]:
        """The graph with the rows' nodes, and the unresolved cited keys with the rows' own added."""
        from cgx_core.ingest.tables.graph import add_rows

        graph, missing = add_rows(graph, self.rows, self.chains, document, initial)
        return graph, list(dict.fromkeys([*unresolved, *missing]))


def read_tables(
    chunk_count: int, visitor: TableVisitor, captions: Mapping[tuple[str, int], str | None]
) -> TableReading:
    """Every body row of the tables the paper's walk met (cgx_core.ingest.latex_walk; none for a PDF), within
    what `chunk_count` chunks leave of the chunk limit.

    `captions` are the printed numbers by the file and line of each caption, from the paper's numbering
    (cgx_core.ingest.numbering, the one authority on them)."""
    if not visitor.pending:
        return TableReading()
    try:
        return _read(visitor, chunk_count, captions)
    except RecursionError:
        raise CgxError(Code.PAPER_INVALID, "the paper nests its tables too deeply to read") from None


def _read(visitor: TableVisitor, chunk_count: int, captions: Mapping[tuple[str, int], str | None]) -> TableReading:
    from cgx_core.ingest.tables.grid import read_rows
    from cgx_core.ingest.tables.paper import macro_names
    from cgx_core.ingest.tables.render import CellRenderer
    from cgx_core.ingest.tables.rows import table_rows

    found = [(table, read_rows(table.body)) for table in visitor.found()]
    names = macro_names(span for _, raw in found for row in raw for cell in row.cells for span in cell.spans)
    renderer = CellRenderer(visitor.definitions_for(names))
    budget = MAX_CHUNKS - chunk_count
    rows: list[TableRow] = []
    regions: list[_Region] = []
    read = 0
    for index, (table, raw) in enumerate(found):
        read += len(raw) + len(table.notes)
        if read > budget:
            raise CgxError(
                Code.PAPER_TOO_LARGE,
                f"the paper's tables have more than {budget} rows, which with its {chunk_count} other chunks "
                f"passes the limit of {MAX_CHUNKS} chunks",
            )
        rows.extend(table_rows(table, index, raw, renderer, printed=captions))
        if table.environment not in _UNREAD_BY_CREDENCEGRAPH and not any(
            scope.name in _UNREAD_BY_CREDENCEGRAPH for scope in table.scope.ancestors()
        ):
            regions.append(_region(table))
    return TableReading(tuple(rows), dict(visitor.chains), tuple(regions))


def _region(table: Any) -> _Region:
    source = table.source
    start, end = int(table.node.pos), int(table.node.pos) + int(table.node.len)
    first, last = source.lines(start, end)
    line_start = source.raw.rfind("\n", 0, start) + 1
    line_end = source.raw.find("\n", end)
    after = source.raw[end : len(source.raw) if line_end < 0 else line_end]
    return _Region(source.located, first, last, bool(source.raw[line_start:start].strip()), bool(after.strip()))
