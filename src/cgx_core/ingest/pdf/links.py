"""The DOIs and arXiv ids a PDF's reference list gives only as links, read into its reference nodes.

Physical Review's style prints `Phys. Rev. Lett. 129, 111102 (2022)` and makes it a link to
`https://doi.org/10.1103/PhysRevLett.129.111102`: the entry's text has no DOI, and a run read from its
words alone had none of the four DOIs the paper's LaTeX gives, so no reference-resolves check could resolve
those entries. PDFium gives each link annotation of a page with its target and its rectangle (in PDF points,
origin at the bottom left, as credencegraph's boxes); a link to `doi.org` (or `dx.doi.org`) or to an arXiv
abstract whose rectangle lies within a reference entry names that entry's work. What the entry prints wins:
a DOI or arXiv id its text gives (cgx_core.ingest.bibliography, applied first) is kept, so a link only fills
what the words leave out.
"""

from __future__ import annotations

import ctypes
import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

import attrs

from cgx_core.ingest.bibliography import identifiers_in_text
from cgx_core.ingest.pdf.boxes import Box, boxes_of, centre_in

if TYPE_CHECKING:
    from credencegraph.core import Graph

_DOI_HOSTS = frozenset({"doi.org", "dx.doi.org", "www.doi.org"})
_ARXIV_HOSTS = frozenset({"arxiv.org", "www.arxiv.org", "export.arxiv.org"})
_SLACK = 1.0
"""Points by which a link's centre may lie outside the entry's box (a link drawn around the glyphs)."""


@attrs.frozen
class Link:
    """A link annotation to a web address: its page (from 1, as locators count) and rectangle."""

    page: int
    box: Box
    uri: str


def read_links(path: Path) -> tuple[Link, ...]:
    """Every link to a web address in the PDF at `path`, page by page (none when PDFium cannot open it)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    try:
        document = pdfium.PdfDocument(path)
    except pdfium.PdfiumError:
        return ()
    found: list[Link] = []
    with document:
        for number in range(len(document)):
            page = document[number]
            position, link = ctypes.c_int(0), pdfium_c.FPDF_LINK()
            while pdfium_c.FPDFLink_Enumerate(page.raw, ctypes.byref(position), ctypes.byref(link)):
                action = pdfium_c.FPDFLink_GetAction(link)
                if not action or pdfium_c.FPDFAction_GetType(action) != pdfium_c.PDFACTION_URI:
                    continue
                size = pdfium_c.FPDFAction_GetURIPath(document.raw, action, None, 0)
                buffer = ctypes.create_string_buffer(size)
                pdfium_c.FPDFAction_GetURIPath(document.raw, action, buffer, size)
                rect = pdfium_c.FS_RECTF()
                if pdfium_c.FPDFLink_GetAnnotRect(link, ctypes.byref(rect)):
                    box = (float(rect.left), float(rect.bottom), float(rect.right), float(rect.top))
                    found.append(Link(number + 1, box, buffer.value.decode("latin-1")))
            page.close()
    return tuple(found)


def identifiers_of(uri: str) -> dict[str, str]:
    """The DOI a `doi.org` link names (and the arXiv id an arXiv DOI names), or the arXiv id an arXiv abstract
    or PDF link names; nothing for any other address."""
    parts = urlsplit(uri.strip())
    host, path = parts.netloc.lower(), unquote(parts.path)
    if parts.scheme not in ("http", "https"):
        return {}
    if host in _DOI_HOSTS:
        text = path.lstrip("/")
    elif host in _ARXIV_HOSTS:
        text = "arxiv.org" + path.removesuffix(".pdf")
    else:
        return {}
    found = identifiers_in_text(text)
    return {name: found[name] for name in ("doi", "arxiv") if name in found}


def with_linked_identifiers(graph: Graph, links: tuple[Link, ...]) -> Graph:
    """The graph with each reference node given the DOI and the arXiv id of the first link inside its entry
    that names one (in the order the pages list them), where its text gave none."""
    from cgx_core.graph.edit import replace_nodes

    replaced = {}
    for node in graph:
        if node.attributes.get("unit") != "reference" or len(node.sources) != 1:
            continue
        boxes = boxes_of(node.sources[0].locator)
        inside = [
            link for link in links if any(page == link.page and centre_in(link.box, box, _SLACK) for page, box in boxes)
        ]
        found: dict[str, str] = {}
        for link in inside:
            for name, value in identifiers_of(link.uri).items():
                found.setdefault(name, value)
        extra = {name: value for name, value in found.items() if name not in node.attributes}
        if extra:
            replaced[node.id] = dataclasses.replace(node, attributes={**node.attributes, **extra})
    return replace_nodes(graph, replaced)
