"""An author-year reference list of a PDF as reference chunks, and its in-text citations as their `cites`.

credencegraph's reader reads only a numbered `[n]` list. When it found none, the lines after the last
`References` (or `Bibliography`, `Literature cited`) heading are read here, up to the next bold heading:
an entry starts at a line that begins at the list's left edge with a family name and a comma (`Smith, J.`,
`van der Berg, A.`: the hanging indent sets continuation lines right of it), and its key is that name and
the entry's first year (`Smith 2020`, `Smith 2020a`). A second entry with the same key is not read (a
citation could not tell them apart). The sentences credencegraph read from the list are dropped.

A sentence cites an entry when it names its family name and year in one of the usual forms: `(Smith, 2020)`,
`(Smith et al. 2020; Lee and Park, 2019)`, `(Smith 2020, 2021)`, `Smith (2020)`, `Smith et al. (2020a)`. A
name and year that no entry has is not a citation (a date in prose is not one).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cgx_core.ingest.pdf.boxes import Box, centre_in, first_box, locator_of, union

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk
    from credencegraph.ingest.pdf import Line, PdfDocument

_HEADING = re.compile(r"^\s*(?:\d+\.?\s*)?(?:references|bibliography|literature cited)\s*$", re.IGNORECASE)
_NAME = r"(?:(?:van|von|de|der|den|da|di|du|le|la)\s+)*[A-Z][\w'\u2019\-]+"
_ENTRY_START = re.compile(rf"^{_NAME},\s")
_YEAR = re.compile(r"\b((?:19|20)\d{2})([a-z]?)\b")
_PARENTHESIS = re.compile(r"\(([^()]{4,400})\)")
_NARRATIVE = re.compile(rf"({_NAME})(?:\s+et\s+al\.?|\s+(?:and|&)\s+{_NAME})?,?\s+\(((?:19|20)\d{{2}}[a-z]?)\)")
_CITED_NAME = re.compile(rf"({_NAME})")
_LINE_END_HYPHEN = re.compile(r"(\w)- (?=[a-z])")
_EDGE = 2.0
"""Points from the list's left edge within which a line starts an entry."""


def _list_lines(lines: Sequence[Line]) -> list[Line]:
    """The lines after the last reference-list heading, up to the next bold heading."""
    starts = [index for index, line in enumerate(lines) if _HEADING.match(line.text)]
    if not starts:
        return []
    out: list[Line] = []
    for line in lines[starts[-1] + 1 :]:
        if line.bold and len(line.text) < 80 and not _ENTRY_START.match(line.text):
            break
        if line.text.strip():
            out.append(line)
    return out


def _entries(lines: Sequence[Line]) -> list[list[Line]]:
    if not lines:
        return []
    edge = {page: min(line.box[0] for line in lines if line.page == page) for page in {line.page for line in lines}}
    entries: list[list[Line]] = []
    for line in lines:
        if abs(line.box[0] - edge[line.page]) <= _EDGE and _ENTRY_START.match(line.text):
            entries.append([line])
        elif entries:
            entries[-1].append(line)
    return entries


def _joined(lines: Sequence[Line]) -> str:
    """The entry's text, a word hyphenated at a line's end joined when the next line goes on in lower case."""
    text = " ".join(" ".join(line.text.split()) for line in lines)
    return _LINE_END_HYPHEN.sub(r"\1", text)


def _extents(lines: Sequence[Line]) -> dict[int, Box]:
    """The box around the lines on each page."""
    pages: dict[int, list[Box]] = {}
    for line in lines:
        pages.setdefault(line.page, []).append(line.box)
    return {page: union(boxes) for page, boxes in pages.items()}


def _locator(lines: Sequence[Line]) -> str:
    return ";".join(locator_of(page, box) for page, box in _extents(lines).items())


def _family(name: str) -> str:
    return name.split()[-1].casefold()


def _cited(text: str, keys: dict[tuple[str, str], str]) -> list[str]:
    found: list[str] = []

    def add(name: str, year: str) -> None:
        key = keys.get((_family(name), year))
        if key is not None and key not in found:
            found.append(key)

    for match in _PARENTHESIS.finditer(text):
        for part in match[1].split(";"):
            name = _CITED_NAME.search(part)
            if name is not None:
                for year in _YEAR.finditer(part):
                    add(name[1], year[1] + year[2])
    for match in _NARRATIVE.finditer(text):
        add(match[1], match[2])
    return found


def _inside(locator: str, extents: dict[int, Box]) -> bool:
    located = first_box(locator)
    return located is not None and located[0] in extents and centre_in(located[1], extents[located[0]], slack=1.0)


def with_author_year(analysis: PdfDocument, chunks: Sequence[Chunk]) -> list[Chunk]:
    """The chunks with an author-year list's entries as reference chunks and the sentences' citations of them;
    unchanged when the PDF has a numbered list or no list."""
    from credencegraph.ingest import Chunk

    if analysis.references:
        return list(chunks)
    lines = _list_lines(analysis.lines)
    references: list[Chunk] = []
    keys: dict[tuple[str, str], str] = {}
    for entry in _entries(lines):
        text = _joined(entry)
        family = text.split(",", 1)[0]
        year = _YEAR.search(text)
        if year is None:
            continue
        key = f"{family} {year[1]}{year[2]}"
        if (_family(family), year[1] + year[2]) in keys:
            continue
        keys[(_family(family), year[1] + year[2])] = key
        references.append(Chunk("reference", text, _locator(entry), key=key))
    if not references:
        return list(chunks)
    extents = _extents(lines)  # a sentence read across two of the list's lines lies between them
    out: list[Chunk] = []
    for chunk in chunks:
        if chunk.unit == "sentence" and _inside(chunk.locator, extents):
            continue  # the list as credencegraph read it, in sentences
        cited = _cited(chunk.text, keys) if chunk.unit != "reference" else []
        out.append(dataclasses.replace(chunk, cites=tuple(dict.fromkeys([*chunk.cites, *cited]))) if cited else chunk)
    return out + references
