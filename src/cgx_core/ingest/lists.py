r"""The lists a paper writes (`itemize`, `enumerate`, `description`), read in the paper's one walk and recorded on
their chunks, so that `items(s-N)` can count the list a chunk announces: "We evaluate on three datasets:"
before an `itemize` of four items is a count the text states wrongly, though credencegraph's reader makes each
item a chunk of its own and no chunk writes the `\item`s (`cgx_core.numbers.enumeration.list_after` counts
them).

Each chunk of a list gets `attributes.list`: `{"number": k, "item": i, "items": n}`, the k-th list of the
paper in reading order, the i-th of its n items (a nested list is a list of its own; its chunks are not the
outer one's). A chunk is placed by the lines of its locator, so a list is recorded only when its lines tell
its chunks apart: its `\begin` and each `\item` start their lines, no two items share one, and all of it is
in one file. Any other list records nothing, and `items()` counts none of it rather than guess.
"""

from __future__ import annotations

import bisect
import dataclasses
from typing import TYPE_CHECKING, Final

import attrs

from cgx_core.ingest.latex_text import file_lines
from cgx_core.ingest.latex_walk import Visitor

if TYPE_CHECKING:
    from credencegraph.core import Graph

    from cgx_core.ingest.latex_walk import At, Text

LISTS: Final = frozenset(
    {"itemize", "enumerate", "description", "compactitem", "compactenum", "asparaitem", "asparaenum"}
)
_HOLDERS: Final = LISTS | {"tablenotes", "inparaitem", "inparaenum"}
"""Environments whose `\\item`s are not a list's lines (a table's notes, a list run into a sentence): their
items must not be counted in a list around them, and they record nothing."""


@attrs.define
class FoundList:
    """One list: its file (as a locator names it), its number in reading order, the lines of its `\\item`s and
    its `\\end`, and whether those lines tell its chunks apart."""

    file: str
    number: int
    items: list[int] = attrs.field(factory=list)
    end: int = 0
    placed: bool = True


class ListVisitor(Visitor):
    """The lists' visitor of the paper's walk (cgx_core.ingest.latex_walk); `found` is what it read."""

    def __init__(self) -> None:
        self.open: list[tuple[str, FoundList]] = []
        self.found: list[FoundList] = []
        self.count = 0

    def begin(self, at: At) -> int:
        if at.in_body and at.name in _HOLDERS:
            self.count += at.name in LISTS
            found = FoundList(at.source.located, self.count, placed=_starts_line(at.source, at.start))
            self.open.append((at.name, found))
        return at.position

    def end(self, at: At) -> None:
        if not self.open or self.open[-1][0] != at.name:
            return
        _, found = self.open.pop()
        found.end = at.source.line(at.start)
        found.placed = found.placed and at.source.located == found.file and bool(found.items)
        if at.name in LISTS:
            self.found.append(found)

    def macro(self, at: At) -> int:
        if at.name == "item" and self.open:
            found = self.open[-1][1]
            line = at.source.line(at.start)
            apart = at.source.located == found.file and _starts_line(at.source, at.start)
            found.placed = found.placed and apart and line not in found.items
            found.items.append(line)
        return at.position

    def placed(self) -> list[FoundList]:
        """The lists whose chunks the lines tell apart, in reading order."""
        return sorted((found for found in self.found if found.placed), key=lambda found: found.number)


def _starts_line(source: Text, position: int) -> bool:
    line_start = source.starts[source.line(position) - 1]
    return not source.text[line_start:position].strip()


def annotate_lists(graph: Graph, lists: list[FoundList]) -> Graph:
    """The graph with each chunk of a placed list recording the list, its item and the list's number of items."""
    from cgx_core.graph.edit import replace_nodes

    if not lists:
        return graph
    replaced = {}
    for node in graph:
        if node.attributes.get("origin") != "document" or len(node.sources) != 1:
            continue
        where = file_lines(node.sources[0].locator)
        if where is None:
            continue
        file, line, _ = where
        holding = [found for found in lists if found.file == file and found.items[0] <= line <= found.end]
        if not holding:
            continue
        innermost = max(holding, key=lambda found: found.items[0])  # a nested list begins inside the outer one
        item = bisect.bisect_right(innermost.items, line)
        written = {"number": innermost.number, "item": item, "items": len(innermost.items)}
        replaced[node.id] = dataclasses.replace(node, attributes={**node.attributes, "list": written})
    return replace_nodes(graph, replaced)
