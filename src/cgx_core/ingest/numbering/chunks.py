"""Which chunks belong to which numbered object, recorded on the chunks of the ingested graph.

Each document chunk gets `attributes.numbered`, the objects it belongs to (`{"kind", "number", "label"?}`), and
`attributes.refs`, the references its text writes (`cgx_core.ingest.numbering.written`), when it has any:

* an equation chunk belongs to every equation its environment numbers (an `align` of two numbered rows
  belongs to both);
* a caption chunk belongs to its float (a panel's caption to the panel and its float), and to the panels of
  that float that have no chunk of their own (a `\\subfloat` without text: the float's caption describes it);
* a table row (`t-N`) belongs to the float, and the panel, whose lines hold it;
* every chunk of a theorem-like environment (`\\newtheorem`: a theorem, a lemma, ...) belongs to it;
* every chunk belongs to the sections open where it starts, in reading order (3 and 3.2 in subsection 3.2).

A chunk is placed by its locator (`file=...;lines=a-b`): a PDF's chunks have no such lines, and get nothing.
"""

from __future__ import annotations

import bisect
import dataclasses
from typing import TYPE_CHECKING, Any, Final

from cgx_core.ingest.latex_text import file_lines
from cgx_core.ingest.numbering.objects import Key, Numbered, Numbering
from cgx_core.ingest.numbering.written import written_references

if TYPE_CHECKING:
    from credencegraph.core import Graph

_FLOAT_KINDS: Final = frozenset({"table", "figure"})


def _owners(numbering: Numbering, unit: str | None, file: str, line: int, last: int) -> list[Numbered]:
    found: list[Numbered] = []
    for item in numbering.objects:
        if item.kind == "equation":
            anchored = unit == "equation" and item.anchor is not None and item.anchor.file == file
            held = anchored and item.anchor is not None and item.anchor.first == line
        elif unit == "table-row" or item.kind == "theorem":  # a theorem holds every chunk of its environment
            held = any(extent.holds(file, line) for extent in item.extents)
        else:  # a caption chunk holds its \caption (a wraptable's caption is read into a sentence)
            anchor = item.anchor
            held = unit in ("caption", "sentence") and anchor is not None and anchor.file == file
            held = held and anchor is not None and line <= anchor.first <= last
        if held:
            found.extend([item, item.parent] if item.parent is not None else [item])
    return list(dict.fromkeys(found))


def _sections(numbering: Numbering, keys: list[Key], file: str, line: int) -> tuple[Numbered, ...]:
    """The sections open where a chunk starts: those of the last heading before it in reading order."""
    chain = numbering.chains.get(file)
    if chain is None:
        return ()
    index = bisect.bisect_right(keys, (*chain, line)) - 1
    return numbering.headings[index][1] if index >= 0 else ()


def annotate_numbering(graph: Graph, numbering: Numbering) -> Graph:
    """The graph with each document chunk's numbered objects and written references recorded on it."""
    from cgx_core.graph.edit import replace_nodes

    keys = [key for key, _ in numbering.headings]
    owned: dict[str, list[Numbered]] = {}
    for node in graph:
        unit = node.attributes.get("unit")
        if node.attributes.get("origin") != "document" or unit == "reference" or len(node.sources) != 1:
            continue
        where = file_lines(node.sources[0].locator)
        if where is not None:
            file, line, last = where
            owned[node.id] = [*_owners(numbering, unit, file, line, last), *_sections(numbering, keys, file, line)]
        else:
            owned[node.id] = []
    _describe_chunkless_panels(graph, numbering, owned)
    replaced = {}
    for node in graph:
        if node.id not in owned:
            continue
        extra: dict[str, Any] = {}
        if owned[node.id]:
            extra["numbered"] = [owner.to_json() for owner in owned[node.id]]
        refs = written_references(node.statement or "") if node.attributes.get("unit") != "table-row" else []
        if refs:  # a row's title is ours, not a reference the paper writes
            extra["refs"] = refs
        if extra:
            replaced[node.id] = dataclasses.replace(node, attributes={**node.attributes, **extra})
    return replace_nodes(graph, replaced)


def _describe_chunkless_panels(graph: Graph, numbering: Numbering, owned: dict[str, list[Numbered]]) -> None:
    """A panel no chunk belongs to is held by its float's caption chunks, after the float."""
    held = {id(owner) for owners in owned.values() for owner in owners}
    for panel in numbering.objects:
        if panel.parent is None or panel.kind not in _FLOAT_KINDS or id(panel) in held:
            continue
        for node in graph:
            owners = owned.get(node.id, [])
            if node.attributes.get("unit") == "caption" and any(owner is panel.parent for owner in owners):
                at = max(
                    index for index, owner in enumerate(owners) if owner is panel.parent or owner.parent is panel.parent
                )
                owners.insert(at + 1, panel)
