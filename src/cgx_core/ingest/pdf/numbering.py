"""A PDF's numbering as printed, recorded on its chunks as a LaTeX run's is (cgx_core.ingest.numbering.chunks):
`attributes.numbered`, the objects a chunk belongs to, and `attributes.refs`, the references its text
writes, so that the cross-reference check decides "Table 2", "Fig. 4b" and "Eq. (3)" on a PDF too.

A PDF has no labels, only printed numbers, and this records what it prints:

* a **table row** (`t-N`) belongs to its table (`1a`, and `1` when lettered), as its title says;
* a **caption** belongs to its table or figure (the number credencegraph read from `Table 2:` or
  `Figure 4.`), and to each panel its text names (`(a) ... (b) ...`: panels `4a`, `4b`);
* an **equation** belongs to every number printed beside it (`(3)`, `(4a)`);
* every chunk but a float's (a caption, a table row: a float is printed where it fits, which may be in the
  next section) belongs to the **sections** open where it is printed (`2` and `2.1` in subsection 2.1), as
  its numbered headings print them (cgx_core.ingest.pdf.sections); a PDF whose headings are not numbered,
  or not set apart from its text, records none, and a reference to a section is then refused with what is
  numbered (never a wrong verdict).
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any

from cgx_core.ingest.numbering.written import written_references
from cgx_core.ingest.pdf.boxes import first_box
from cgx_core.ingest.pdf.sections import block_of, open_sections, sections_in_order

if TYPE_CHECKING:
    from credencegraph.core import Graph
    from credencegraph.ingest.pdf import PdfDocument

    from cgx_core.ingest.pdf.reading import PdfReading

_FLOATS = frozenset({"caption", "table-row"})
"""A float is printed where it fits, not in the section that writes it: a PDF says nothing of its section."""
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


def annotate_pdf_numbering(graph: Graph, reading: PdfReading) -> Graph:
    """The graph with each document chunk's printed objects and written references recorded on it."""
    from cgx_core.graph.edit import replace_nodes

    analysis = reading.analysis
    sections = sections_in_order(reading.headings, analysis.blocks)
    replaced = {}
    for node in graph:
        unit = node.attributes.get("unit")
        if node.attributes.get("origin") != "document" or unit == "reference" or len(node.sources) != 1:
            continue
        extra: dict[str, Any] = {}
        located = first_box(node.sources[0].locator)
        block = block_of(*located, analysis.blocks) if located is not None else None
        owners = _owners(node, analysis)
        if unit not in _FLOATS:
            owners += [_numbered("section", number) for number in open_sections(block, sections)]
        if owners:
            extra["numbered"] = owners
        refs = written_references(node.statement or "") if unit != "table-row" else []
        if refs:
            extra["refs"] = refs
        if extra:
            replaced[node.id] = dataclasses.replace(node, attributes={**node.attributes, **extra})
    return replace_nodes(graph, replaced)
