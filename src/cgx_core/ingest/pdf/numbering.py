"""A PDF's numbering as printed, recorded on its chunks as a LaTeX run's is (cgx_core.ingest.numbering.chunks):
`attributes.numbered`, the objects a chunk belongs to, and `attributes.refs`, the references its text
writes, so that the cross-reference check decides "Table 2", "Fig. 4b" and "Eq. (3)" on a PDF too.

A PDF has no labels, only printed numbers, and this records what it prints:

* a **table row** (`t-N`) belongs to its table (`1a`, and `1` when lettered), as its title says;
* a **caption** belongs to its table or figure (the number credencegraph read from `Table 2:` or
  `Figure 4.`), and to each panel its text names (`(a) ... (b) ...`: panels `4a`, `4b`);
* an **equation** belongs to every number printed beside it (`(3)`, `(4a)`).

Sections are not recorded: a PDF's headings are found only when set in bold, so a chunk's section could be
guessed wrong, and a reference to one is refused with what is numbered (never a wrong verdict).
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any

from cgx_core.ingest.numbering.written import written_references

if TYPE_CHECKING:
    from credencegraph.core import Graph
    from credencegraph.ingest.pdf import PdfDocument

_PANEL = re.compile(r"(?:^|[\s(,;])\(([a-h])\)")


def _numbered(kind: str, number: str) -> dict[str, Any]:
    return {"kind": kind, "number": number}


def _caption_owners(analysis: PdfDocument, text: str, page: int) -> list[dict[str, Any]]:
    for caption in analysis.captions:
        if caption.page == page and caption.text == text:
            panels = dict.fromkeys(_PANEL.findall(text)) if caption.kind == "figure" else {}
            return [_numbered(caption.kind, f"{caption.number}{panel}") for panel in panels] + [
                _numbered(caption.kind, caption.number)
            ]
    return []


def _owners(node: Any, analysis: PdfDocument) -> list[dict[str, Any]]:
    unit = node.attributes.get("unit")
    if unit == "table-row":
        number = str((node.attributes.get("table") or {}).get("number", ""))
        whole = re.sub(r"[a-z]$", "", number)
        return [_numbered("table", item) for item in dict.fromkeys((number, whole)) if item]
    if unit == "equation":
        labels = node.attributes.get("label")
        printed = [labels] if isinstance(labels, str) else list(labels or ())
        return [_numbered("equation", str(label)) for label in printed]
    if unit == "caption":
        page = re.match(r"page=(\d+);", node.sources[0].locator)
        return _caption_owners(analysis, node.statement or "", int(page[1])) if page else []
    return []


def annotate_pdf_numbering(graph: Graph, analysis: PdfDocument) -> Graph:
    """The graph with each document chunk's printed objects and written references recorded on it."""
    from cgx_core.graph.edit import replace_nodes

    replaced = {}
    for node in graph:
        unit = node.attributes.get("unit")
        if node.attributes.get("origin") != "document" or unit == "reference" or len(node.sources) != 1:
            continue
        extra: dict[str, Any] = {}
        owners = _owners(node, analysis)
        if owners:
            extra["numbered"] = owners
        refs = written_references(node.statement or "") if unit != "table-row" else []
        if refs:
            extra["refs"] = refs
        if extra:
            replaced[node.id] = dataclasses.replace(node, attributes={**node.attributes, **extra})
    return replace_nodes(graph, replaced)
