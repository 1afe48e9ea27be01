"""A page's furniture besides its running heads and feet (cgx_core.ingest.pdf.running): what a journal prints
around the article, which credencegraph's reader read into its sentences.

* **Sidebars and margin notes**: an upright line wholly outside the text block, left or right of every line
  of running text, with nothing on its baseline inside the block (a ReScience C article's "Edited by",
  "Reviewed by", "Received" column; a margin stamp). The text block is the extent of the lines in the
  body's size at least `_LONG` characters long, on every page: a table or figure wider than the text
  still overlaps it and is kept.
* **The masthead**: first-page lines above the title (`Replication / ecology`, `Draft version November 2,
  2023 Typeset using LaTeX`).
* **The first page's imprint**: lines in a smaller size than the body, below the last line of running text
  of the first page (a licence, the correspondence address, the code's DOI): they broke the sentence that
  ran on to the next page (`... We Copyright © 2020 G. Dansereau ... chose to present ...`). A float at
  the foot of the page (a caption below the running text) keeps its small print.

What is dropped is listed in start_run's `document.limits` (`page_furniture_removed`), never silently.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from credencegraph.ingest.pdf import Line

_LONG = 40
_FEW_LINES = 5
"""With fewer long lines of running text there is no text block to judge by (a figure, a poster)."""
_MARGIN = 3.0
"""Points outside the text block a line must lie, wholly, to be a sidebar's."""
_SAME_SIZE = 0.5
_SMALL = 0.85
_TITLE = 1.15
_MASTHEAD_LINES = 4
_CAPTION = re.compile(r"^\s*(?:FIG\.|Fig\.|FIGURE|Figure|TABLE|Table)\s*[A-Z]?\d")


def body_size(lines: Sequence[Line]) -> float:
    """The size most of the text is set in (counted in characters, as credencegraph counts it)."""
    sizes: Counter[float] = Counter()
    for line in lines:
        sizes[line.size] += len(line.text.strip())
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _masthead(first: Sequence[tuple[int, Line]], body: float) -> set[int]:
    """The first page's lines above its title (the largest line of the page's upper half, larger than the
    body): a few short lines, or none (a page whose title is not at its top has no masthead to drop)."""
    middle = sorted(line.baseline for _, line in first)[len(first) // 2] if first else 0.0
    upper = [line for _, line in first if line.baseline >= middle]
    largest = max((line.size for line in upper), default=0.0)
    if largest < _TITLE * body:
        return set()
    title_top = max(line.baseline for line in upper if line.size == largest)
    above = {index for index, line in first if line.baseline > title_top + _MARGIN}
    return above if len(above) <= _MASTHEAD_LINES else set()


def furniture_lines(lines: Sequence[Line]) -> set[int]:
    """The indices of the sidebar, masthead and first-page imprint lines among a document's lines."""
    body = body_size(lines)
    running = [
        line
        for line in lines
        if line.angle == 0 and abs(line.size - body) <= _SAME_SIZE and len(line.text.strip()) >= _LONG
    ]
    if len(running) < _FEW_LINES:
        return set()
    left, right = min(line.box[0] for line in running), max(line.box[2] for line in running)
    inside = {(line.page, round(line.baseline)) for line in lines if line.box[2] >= left and line.box[0] <= right}
    out = {
        index
        for index, line in enumerate(lines)
        if line.angle == 0
        and (line.box[2] < left - _MARGIN or line.box[0] > right + _MARGIN)
        and (line.page, round(line.baseline)) not in inside  # an equation's number, a wide table's cell
    }
    first = [(index, line) for index, line in enumerate(lines) if line.page == lines[0].page and line.angle == 0]
    out.update(_masthead(first, body))
    first_running = [line for line in running if line.page == lines[0].page]
    last = min((line.baseline for line in first_running), default=None)
    floats = last is not None and any(line.baseline < last and _CAPTION.match(line.text) for _, line in first)
    if last is not None and not floats:  # a float at the page's foot keeps its small print
        out.update(index for index, line in first if line.baseline < last - _MARGIN and line.size <= _SMALL * body)
    return out
