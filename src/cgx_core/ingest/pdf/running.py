"""Running heads, running feet and page numbers: the lines a PDF repeats at the edge of its pages.

credencegraph's reader reads them as text, so a page number ended an equation (`... T - 1 5`) and a running
head started a sentence. A line is at a page's edge when it is the highest or the lowest of its page (with any
line on the same baseline). Such a line is dropped when

* it is a page number: digits, a roman numeral, or `Page 3` / `3 of 12`, alone on its baseline; or
* its text, digits written `#`, stands at the edge of at least `_REPEATED` of the pages (and of three at least):
  a running head (`Forgione and Piga  #`) or foot (`Preprint. Under review.`).

Nothing else is dropped: a first or last line that does not repeat is the paper's text.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from credencegraph.ingest.pdf import Line

_REPEATED = 0.3
_SAME_BASELINE = 2.0
"""Points between two baselines of one line of the page."""
_PAGE_NUMBER = re.compile(r"^(?:page\s+)?(?:\d{1,4}|[ivxlcdm]{1,8})(?:\s*(?:of|/)\s*\d{1,4})?$", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")


def _key(line: Line) -> str:
    return _DIGITS.sub("#", " ".join(line.text.split())).casefold()


def _edges(lines: Sequence[Line]) -> dict[int, list[int]]:
    """For each page, the indices of its highest and its lowest upright lines (one baseline each): a rotated
    line's baseline runs across the page (a figure's axis label), so it is never at a page's top or foot."""
    pages: dict[int, list[int]] = defaultdict(list)
    for index, line in enumerate(lines):
        if line.text.strip() and line.angle == 0:
            pages[line.page].append(index)
    out: dict[int, list[int]] = {}
    for page, indices in pages.items():
        top = max(lines[index].baseline for index in indices)
        bottom = min(lines[index].baseline for index in indices)
        out[page] = [
            index
            for index in indices
            if abs(lines[index].baseline - top) <= _SAME_BASELINE
            or abs(lines[index].baseline - bottom) <= _SAME_BASELINE
        ]
    return out


def running_lines(lines: Sequence[Line]) -> set[int]:
    """The indices of the running heads, feet and page numbers among a document's lines."""
    edges = _edges(lines)
    if len(edges) < 2:
        return set()
    pages_with: Counter[str] = Counter()
    for indices in edges.values():
        pages_with.update({_key(lines[index]) for index in indices})
    needed = max(3, _REPEATED * len(edges))
    return {
        index
        for indices in edges.values()
        for index in indices
        if (_PAGE_NUMBER.match(lines[index].text.strip()) and _alone(lines, indices, index))
        or pages_with[_key(lines[index])] >= needed
    }


def _alone(lines: Sequence[Line], edge: Sequence[int], index: int) -> bool:
    """Whether no other edge line shares its baseline (a table's top row of numbers is not a page number)."""
    return not any(
        other != index and abs(lines[other].baseline - lines[index].baseline) <= _SAME_BASELINE for other in edge
    )
