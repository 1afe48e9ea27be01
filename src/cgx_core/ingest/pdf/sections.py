"""A PDF's numbered section headings (`1 Introduction`, `2.1 Data`, `3. RESULTS`), so that a chunk belongs to
the sections it is printed in, as a LaTeX run's does, and "Section 2" is decided on a PDF too.

credencegraph's reader finds a heading only when it is set in bold; ReScience C sets its headings in a larger
regular face, and the reader glued each to the sentence after it (`1 Introduction Lamichhane et al. described
...`). A line is a heading here when it is a number and a title alone on a line (`2 Methods`, `2.1 Data`,
`3. RESULTS`), set apart from the body (larger, bold, or a title in capitals), and its number follows the
one before it as section numbers do (1, 2, 2.1, 2.2, 3: a number out of that order is no heading, so a
table's row or a list's item that looks like one is left alone).

The heading's text is cut from the start of the chunk it was glued to (a chunk that held only the heading
is dropped). A chunk belongs to the sections open where it starts: the reader's blocks are in reading order
(columns too), and a chunk in a block at or after a heading's, and before the next heading's, is in that
heading's section (cgx_core.ingest.pdf.numbering records it, as LaTeX's numbering is recorded).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from cgx_core.ingest.pdf.boxes import Box
from cgx_core.ingest.pdf.furniture import body_size

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk
    from credencegraph.ingest.pdf import Block, Line

_HEADING = re.compile(r"^\s*(?P<number>\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+(?P<title>[A-Z][^.!?]{0,78})$")
_LARGER = 1.1
_CAPITALS = 4
"""Letters a title in capitals needs (`1. INTRODUCTION`), so that `2 A` is no heading."""


@attrs.frozen
class PrintedHeading:
    """A numbered heading as printed: its number, its text and where it is."""

    number: str
    text: str
    page: int
    box: Box


def _follows(number: tuple[int, ...], last: tuple[int, ...]) -> bool:
    """Whether section `number` can come next after `last` (1 after nothing; 2 or 1.1 after 1; 1.2 or 2 after
    1.1): one level's count goes up by one, and every level below it starts at 1."""
    for level in range(min(len(number), len(last) + 1)):
        if number[:level] != last[:level]:
            return False
        expected = last[level] + 1 if level < len(last) else 1
        if number[level] == expected:
            return all(part == 1 for part in number[level + 1 :])
    return False


def printed_headings(lines: Sequence[Line]) -> tuple[PrintedHeading, ...]:
    """The numbered section headings among a PDF's lines, in reading order."""
    body = body_size(lines)
    found: list[PrintedHeading] = []
    last: tuple[int, ...] = ()
    for line in lines:
        match = _HEADING.match(line.text)
        if match is None or line.angle != 0:
            continue
        title = match["title"].strip()
        capitals = title.isupper() and sum(char.isalpha() for char in title) >= _CAPITALS
        if not (line.size >= _LARGER * body or line.bold or capitals):
            continue
        number = tuple(int(part) for part in match["number"].split("."))
        if _follows(number, last):
            found.append(PrintedHeading(match["number"], line.text.strip(), line.page, line.box))
            last = number
    return tuple(found)


def without_heading_text(chunks: Sequence[Chunk], headings: Sequence[PrintedHeading]) -> list[Chunk]:
    """The chunks with each heading's text cut from the start of the chunk it was glued to (a chunk that held
    only a heading is dropped)."""
    texts = [heading.text for heading in headings]
    out = []
    for chunk in chunks:
        text = chunk.text
        glued = next((heading for heading in texts if text == heading or text.startswith(heading + " ")), None)
        if glued is not None and chunk.unit != "reference":
            text = text[len(glued) :].strip()
        if text:
            out.append(chunk if text == chunk.text else dataclasses.replace(chunk, text=text))
    return out


def block_of(page: int, box: Box, blocks: Sequence[Block]) -> int | None:
    """The index, in reading order, of the block a box is printed in: the block holding its top left corner,
    else its centre, else (a display set apart from every block) the last block printed above it on its page;
    None on a page with no block above it."""
    points = ((box[0] + 0.5, box[3] - 0.5), ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))
    for x, y in points:
        for index, block in enumerate(blocks):
            left, bottom, right, top = block.box
            if block.page == page and left - 1.0 <= x <= right + 1.0 and bottom - 1.0 <= y <= top + 1.0:
                return index
    above = [index for index, block in enumerate(blocks) if block.page == page and block.box[1] >= box[3]]
    return above[-1] if above else None


def sections_in_order(headings: Sequence[PrintedHeading], blocks: Sequence[Block]) -> list[tuple[int, str]]:
    """Each heading's block index and number, in reading order (a heading in no block is left out)."""
    placed = [(block_of(heading.page, heading.box, blocks), heading.number) for heading in headings]
    return [(index, number) for index, number in placed if index is not None]


def open_sections(block: int | None, sections: Sequence[tuple[int, str]]) -> list[str]:
    """The sections open where a chunk starting in `block` is printed: the last heading at or before it, and
    the sections its number is within (`2` and `2.1` in subsection 2.1)."""
    if block is None:
        return []
    number = next((number for index, number in reversed(sections) if index <= block), None)
    if number is None:
        return []
    parts = number.split(".")
    return [".".join(parts[: depth + 1]) for depth in range(len(parts))]
