"""What a PDF run could not read, for start_run's `document.limits` (and report.json): an agent told only
"the paper was ingested" would check a PDF run as if it held all a LaTeX run holds.

Every count is of this PDF as read, so the agent can tell the person it works for what is missing: the
figures (their content is an image), the table captions with no rows found under them and the tables whose
captions the reader did not take as captions (`Table S1`), a reference list that was not read (so no
citation is tied to it) and the arXiv ids it prints malformed, the glyphs with no Unicode, the lines removed
as running heads, page numbers, other page furniture and listings of files, and a PDF that reads as no
article at all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cgx_core.ingest.bibliography import identifiers_in_text

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk

    from cgx_core.ingest.pdf.reading import PdfReading
    from cgx_core.ingest.pdf.tables import PdfTables

_REFERENCES_HEADING = re.compile(r"^\s*(?:\d+\s*)?(?:references|bibliography|literature cited)\b", re.IGNORECASE)
_SHOWN = 10
"""Superscripts left as they were, shown with why (the rest are counted): a result stays short."""
MESSAGE = (
    "This run was read from a PDF, which keeps less than the paper's LaTeX: no \\ref labels (objects are "
    "named by their printed numbers), no figure content, tables only where their rows could be segmented, "
    "references only from a list printed [n], '1.', with raised numbers or author-year (a raised citation "
    "number only when no footnote could be meant: each one left is listed), and mathematics only roughly (an "
    "equation chunk may miss sub- and superscripts). Prefer the LaTeX sources when they exist (arXiv serves "
    "them as a .tar.gz: pass it as `paper`), and tell the person you work for what is listed here."
)
NOT_AN_ARTICLE = (
    "this PDF reads as no article: it has fewer than {few} sentences of running text (a figure, a poster, a "
    "page of labels or numbers); check that it is the paper you meant"
)
_FEW_SENTENCES = 5
_SENTENCE_WORDS = 8
_TABLE_CAPTION = re.compile(r"^\s*(?:TABLE|Table)\s+([A-Z]{0,2}\d+[a-z]?|[IVXLC]+)\s*[.:|]")


def pdf_limits(reading: PdfReading, tables: PdfTables, chunks: Sequence[Chunk]) -> dict[str, Any]:
    """What the PDF run lacks, counted."""
    analysis = reading.analysis
    references = [chunk for chunk in chunks if chunk.unit == "reference"]
    has_heading = any(_REFERENCES_HEADING.match(line.text) for line in analysis.lines)
    cited = sum(1 for chunk in chunks if chunk.cites)
    out: dict[str, Any] = {
        "message": MESSAGE,
        "figures_not_read": sum(1 for caption in analysis.captions if caption.kind == "figure"),
        "tables": {
            "read": len({row.table for row in tables.rows}),
            "rows": len(tables.rows),
            "captions_without_rows": list(tables.unread),
        },
        "references": {"read": len(references), "chunks_citing": cited},
        "superscript_citations": {
            "read": reading.superscript_citations,
            "left": len(reading.superscripts_left),
            "left_first": list(reading.superscripts_left[:_SHOWN]),
        },
        "glyphs": {"unreadable": reading.unreadable, "read_by_tex_font_encoding": reading.tex_encoded},
        "running_lines_removed": len(reading.running),
        "page_furniture_removed": len(reading.furniture),
        "listing_lines_removed": len(reading.listings),
        "equations": sum(1 for chunk in chunks if chunk.unit == "equation"),
    }
    if reading.printed.style is not None:
        out["references"]["printed"] = reading.printed.style
    malformed = [
        f"{chunk.key}: arXiv:{found['arxiv_malformed']}"
        for chunk in references
        if "arxiv_malformed" in (found := identifiers_in_text(chunk.text))
    ]
    if malformed:
        out["references"]["identifiers_malformed"] = malformed[:_SHOWN]
    if not references and has_heading:
        out["references"]["not_read"] = (
            "the paper has a reference list that was not read (no entries numbered [n], '1.' or raised, nor "
            "author-year entries starting with a name), so no citation is tied to a reference and no citation "
            "check can run on this PDF"
        )
    announced = {caption.number for caption in analysis.captions if caption.kind == "table"}
    missed = [
        f"Table {match[1]}"
        for line in analysis.lines
        if (match := _TABLE_CAPTION.match(line.text)) is not None and match[1] not in announced
    ]
    if missed:
        out["tables"]["captions_not_read"] = list(dict.fromkeys(missed))
    running = [chunk for chunk in chunks if chunk.unit == "sentence" and len(chunk.text.split()) >= _SENTENCE_WORDS]
    if len(running) < _FEW_SENTENCES:
        out["not_an_article"] = NOT_AN_ARTICLE.format(few=_FEW_SENTENCES)
    return out
