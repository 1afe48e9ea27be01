"""Table rows as nodes of the ingested graph: their ids, their caption chunk, their place, their citations.

* **Unit and type.** A row is a document node like any chunk (`attributes.origin = "document"`,
  `attributes.unit = "table-row"`, one source anchor whose quote is its text and whose digest is the text's
  digest), so credencegraph's `check_graph` anchors it like a sentence. It starts with the type the rubric's
  `[initial]` table gives the unit `table-row` (credencegraph's rubric loader accepts any unit name there),
  else `unassigned`. `attributes.table` says which table: `kind`, and `number` and `label` when it has them, and
  `columns`, the number of columns it prints, when its specification and its widest row give one.
* **Ids.** `t-1`, `t-2`, ... in document order, zero-padded to the width of the number of rows (`t-01` when
  there are 10 to 99), as credencegraph pads its own counters: never hard-code a width. credencegraph's
  prefixes are `s-`, `e-` and `r-`, this package's `a-` and `c-`; a clause of a split row is `t-07a`.
* **Order.** A table's rows come right after the chunk that holds its caption (a caption chunk of a
  `table` float, or the sentence a `wraptable`'s caption was read into); a table without one comes after the
  last chunk that precedes it in reading order (by the lines of the `\\input` chain to its file).
* **Citations.** A `\\cite` in a cell gives the row a `cites` relation to the reference with that key, as
  credencegraph does for a sentence; a key no reference has is reported as unresolved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cgx_core.ingest.latex_text import file_lines
from cgx_core.ingest.tables.rows import TableRow
from cgx_core.numbers.columns import TABLE_ROW

UNIT = TABLE_ROW
PREFIX = "t"


def _caption_holders(graph: Any) -> tuple[dict[tuple[str, int] | str, str], list[tuple[str, int, int, str]]]:
    """Caption chunks by (file, first line), or by locator when it names no lines (a PDF's page and box), and
    every other chunk's file and lines, in graph order."""
    captions: dict[tuple[str, int] | str, str] = {}
    others: list[tuple[str, int, int, str]] = []
    for node in graph:
        unit = node.attributes.get("unit")
        if unit in (None, "reference") or len(node.sources) != 1:
            continue
        where = file_lines(node.sources[0].locator)
        if where is None:
            if unit == "caption":
                captions.setdefault(node.sources[0].locator, node.id)
            continue
        if unit == "caption":
            captions.setdefault((where[0], where[1]), node.id)
        others.append((*where, node.id))
    return captions, others


def _holder(
    row: TableRow, captions: Mapping[tuple[str, int] | str, str], others: Sequence[tuple[str, int, int, str]]
) -> str | None:
    """The chunk that holds the row's caption: its caption chunk, else the chunk whose lines cover it."""
    for caption in row.captions:
        where = file_lines(caption.locator)
        if where is None:
            if caption.locator in captions:
                return captions[caption.locator]
            continue
        found = captions.get((where[0], where[1]))
        if found is None:
            file, line = where[0], where[1]
            found = next((node for name, first, last, node in others if name == file and first <= line <= last), None)
        if found is not None:
            return found
    return None


def _opening(text: str, limit: int = 100) -> str:
    """The caption's first words, up to about `limit` characters (whole words, so no numeral is cut)."""
    words = text.split()
    kept: list[str] = []
    for word in words:
        if kept and len(" ".join([*kept, word])) > limit:
            return " ".join(kept) + " ..."
        kept.append(word)
    return " ".join(kept)


def _anchor_by_order(key: tuple[int, ...], keys: Sequence[tuple[tuple[int, ...], str]]) -> str | None:
    """The last chunk (in graph order) whose place in reading order is not after `key`."""
    found = None
    for node_key, node in keys:
        if node_key <= key:
            found = node
    return found


def add_rows(
    graph: Any,
    rows: Sequence[TableRow],
    chains: Mapping[str, tuple[int, ...]],
    document: str,
    initial: Mapping[str, str],
) -> tuple[Any, list[str]]:
    """The graph with a node per table row placed among the chunks, and the cited keys no reference has."""
    from credencegraph.core import Graph, Node, Relation, SourceAnchor
    from credencegraph.rubric.text import normalise_text, text_digest

    if not rows:
        return graph, []
    captions, others = _caption_holders(graph)
    keys = [((*chains[file], first), node) for file, first, _, node in others if file in chains]
    holders: dict[int, str | None] = {}
    placed: dict[int, str | None] = {}
    anchors: dict[str | None, list[TableRow]] = {}
    for row in rows:
        if row.table not in holders:  # once per table: all its rows go together
            holders[row.table] = _holder(row, captions, others)
            placed[row.table] = holders[row.table] or _anchor_by_order(row.key, keys)
        anchors.setdefault(placed[row.table], []).append(row)

    ordered: list[Any] = list(anchors.get(None, []))
    for node in graph:
        ordered.append(node)
        ordered.extend(anchors.get(node.id, []))

    width = len(str(len(rows)))
    kind = initial.get(UNIT, "unassigned")
    numbered: list[tuple[str, TableRow]] = []
    out = Graph()
    references: dict[str, str] = {}
    for node in graph:
        if node.attributes.get("unit") == "reference" and isinstance(node.attributes.get("key"), str):
            references.setdefault(node.attributes["key"], node.id)
    for item in ordered:
        if not isinstance(item, TableRow):
            out.add_node(item)
            continue
        node_id = f"{PREFIX}-{len(numbered) + 1:0{width}d}"
        numbered.append((node_id, item))
        holder = holders[item.table]
        if holder is not None:
            caption = f" (caption {holder})"
        elif item.captions and item.captions[0].text:
            caption = f" (caption: {_opening(item.captions[0].text)})"
        else:
            caption = ""
        text = normalise_text(f"{item.title}{caption}; {item.body}")
        anchor = SourceAnchor(document, item.locator, text, text_digest(text))
        attributes = {"origin": "document", "unit": UNIT, "table": dict(item.attributes)}
        out.add_node(Node(node_id, kind, text, (anchor,), attributes=attributes))
    for relation in graph.relations.values():
        out.add_relation(relation)
    unresolved: list[str] = []
    for node_id, item in numbered:
        for key in item.cites:
            target = references.get(key)
            if target is None:
                if key not in unresolved:
                    unresolved.append(key)
                continue
            relation_id = f"{node_id}-cites-{target}"
            if relation_id not in out.relations:
                out.add_relation(Relation(relation_id, "cites", node_id, target))
    return out, unresolved
