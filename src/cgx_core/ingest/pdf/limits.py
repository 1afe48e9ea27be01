"""What a PDF run could not read, for start_run's `document.limits` (and report.json): an agent told only
"the paper was ingested" would check a PDF run as if it held all a LaTeX run holds.

Every count is of this PDF as read, so the agent can tell the person it works for what is missing: the
figures (their content is an image), the table captions with no rows found under them, a reference list
that neither credencegraph's `[n]` reader nor the author-year one read (so no citation is tied to it), the
glyphs with no Unicode, and the lines removed as running heads and page numbers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk

    from cgx_core.ingest.pdf.reading import PdfReading
    from cgx_core.ingest.pdf.tables import PdfTables

_REFERENCES_HEADING = re.compile(r"^\s*(?:\d+\s*)?(?:references|bibliography|literature cited)\b", re.IGNORECASE)
_SHOWN = 10
"""Superscripts left as they were, shown with why (the rest are counted): a result stays short."""
MESSAGE = (
    "This run was read from a PDF, which keeps less than the paper's LaTeX: no \\ref labels, no figure content, "
    "tables only where their rows could be segmented, references only from a numbered [n] or author-year list "
    "whose entries start with a family name (a raised citation number only when the list is numbered and no "
    "footnote could be meant: each one left is listed), and mathematics "
    "only roughly (an equation chunk may miss sub- and superscripts). Prefer the LaTeX sources when they exist "
    "(arXiv serves them as a .tar.gz: pass it as `paper`), and tell the person you work for what is listed here."
)


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
        "equations": sum(1 for chunk in chunks if chunk.unit == "equation"),
    }
    if not references and has_heading:
        out["references"]["not_read"] = (
            "the paper has a reference list that was not read (neither numbered [n] nor author-year entries "
            "starting 'Family, I.'), so no citation is tied to a reference and no citation check can run on this PDF"
        )
    return out
