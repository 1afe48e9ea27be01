"""A PDF's reference list in the forms journals print it, as reference chunks: `1. G. Name, ...`, `[1] ...`,
`¹Name ...` (a raised number), and author-year lists with a hanging indent, initials first or last.

credencegraph's reader reads only a list whose entries start `[1]`; a ReScience C article prints
`1. G. Lamichhane, M. Zignol, ...`, an AAS journal `Isi, M., Chatziioannou, K., & Farr, W. M. 2019, ...`,
and both were read as sentences tied to nothing. When credencegraph found no `[n]` list, the lines after the
last `References` (or `Bibliography`, `Literature cited`, `Works cited`) heading are read here, up to a
heading, a caption or a line in another font size:

* **numbered**: a line that starts with the next number (`1.`, `[1]`, `1 ` before a capital, or a raised `1`
  glued to a name), at the left edge of the entries before it (or in a new column or page), starts an entry;
  so a continuation line that happens to start with a number (`2017.`, `12 (2019)`) does not. The entry's
  key is its number, which is what the paper's `[n]` and raised citations name.
* **author-year**: a line at its column's left edge starts an entry when other lines of the list are set
  right of it (a hanging indent); without one, a line at the edge that starts with a name (`Smith, J.`,
  `Smith J.`, `J. Smith`) does. The key is the first author's family name and the entry's first year
  (`Smith 2020`, `Smith 2020a`); a second entry with the same key is not read (a citation could not tell
  them apart). cgx_core.ingest.pdf.author_year ties the sentences' citations to these keys.

The sentences credencegraph had read from the list are dropped: the list is reference chunks, not prose.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import attrs

from cgx_core.ingest.pdf.boxes import Box, centre_in, first_box, locator_of, union
from cgx_core.ingest.pdf.hyphens import joined_lines, line_end_splits

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk
    from credencegraph.ingest.pdf import Line

Style = Literal["numbered", "author-year"]
_HEADING = re.compile(
    r"^\s*(?:\d+\.?\s*)?(?:references|bibliography|literature cited|works cited|reference list)\s*$", re.IGNORECASE
)
_NUMBER = re.compile(r"^\s*(?:\[(\d{1,3})\]\s*|(\d{1,3})\.\s+|(\d{1,3})\s+(?=[A-Z])|(\d{1,3})(?=[A-Z][a-z'\u2019-]))")
_PARTICLE = r"(?:(?:van|von|de|der|den|da|di|du|le|la|del|dos)\s+)*"
_NAME = _PARTICLE + r"[A-Z][\w'\u2019\-]+"
_INITIALS = r"(?:[A-Z][a-z]?\.[\s-]?)+"
_MORE_NAME = r"(?:\s+[A-Z][a-z][\w'\u2019\-]*)*"
_FAMILY_FIRST = re.compile(rf"^({_NAME}{_MORE_NAME}),?\s+(?:{_INITIALS}|[A-Z]{{1,3}}(?=[,.\s])|[A-Z][a-z]+\b)")
"""`Smith, J.`, `Smith J.` (MNRAS), `Smith JA,` (Vancouver, PLOS), `Smith, John`."""
_INITIALS_FIRST = re.compile(rf"^{_INITIALS}\s*({_NAME})")
_YEAR = re.compile(r"\b((?:19|20)\d{2})([a-z]?)\b")
_EDGE = 2.0
"""Points within which two lines start at the same left edge."""
_INDENT = (3.0, 40.0)
"""Points right of the edge at which a hanging indent sets an entry's continuation lines."""
_NEW_COLUMN = 100.0
"""Points between two entry starts beyond which the second is in another column."""
_SIZE = 1.0
"""Points by which a line's size may differ from the list's and the line still be part of it."""
_HEADING_SIZE = 1.15
_SHORT = 80
_BODY_NAME = 3
"""Words before an entry's first comma, with no initial among them, that name an organisation as its author."""


@attrs.frozen
class PrintedList:
    """A PDF's reference list as read: its entries as reference chunks, how it is printed, and where it is."""

    references: tuple[Chunk, ...] = ()
    style: Style | None = None
    extents: tuple[tuple[int, Box], ...] = ()

    @property
    def numbers(self) -> frozenset[str]:
        """The entry numbers of a numbered list (what `[n]` and raised citations name)."""
        if self.style != "numbered":
            return frozenset()
        return frozenset(chunk.key for chunk in self.references if chunk.key)

    def holds(self, chunk: Chunk) -> bool:
        """Whether a sentence credencegraph read lies in the list (between two of its lines, at least)."""
        located = first_box(chunk.locator)
        return located is not None and any(
            page == located[0] and centre_in(located[1], box, slack=1.0) for page, box in self.extents
        )


def list_lines(lines: Sequence[Line]) -> list[Line]:
    """The lines of the list: after the last reference-list heading, in the list's font size, up to a
    heading, a caption or the end."""
    starts = [index for index, line in enumerate(lines) if _HEADING.match(line.text)]
    if not starts:
        return []
    out: list[Line] = []
    for line in lines[starts[-1] + 1 :]:
        text = line.text.strip()
        if not text or line.angle != 0:
            continue
        if out and abs(line.size - out[0].size) > _SIZE:
            if line.size > out[0].size * _HEADING_SIZE or (line.bold and len(text) < _SHORT):
                break
            continue  # a page's furniture in another size, or a raised mark on a line of its own
        if line.bold and len(text) < _SHORT and not _starts_entry_text(text):
            break
        if re.match(r"^(?:FIG\.|Fig\.|FIGURE|Figure|TABLE|Table)\s*\d", text):
            break
        out.append(line)
    return out


def _starts_entry_text(text: str) -> bool:
    return bool(_NUMBER.match(text) or _FAMILY_FIRST.match(text) or _INITIALS_FIRST.match(text))


def _numbered(lines: Sequence[Line]) -> list[tuple[str, list[Line]]]:
    """The entries of a numbered list, each with its number: a line starting with the next number, at the
    left edge the entries so far start at (or in a new column or page), starts the next entry."""
    entries: list[tuple[str, list[Line]]] = []
    for line in lines:
        match = _NUMBER.match(line.text)
        number = next((group for group in match.groups() if group), None) if match else None
        if number is not None and int(number) == len(entries) + 1 and _aligned(line, entries):
            entries.append((number, [line]))
        elif entries:
            entries[-1][1].append(line)
    return entries


def _aligned(line: Line, entries: Sequence[tuple[str, list[Line]]]) -> bool:
    if not entries:
        return True
    previous = entries[-1][1][0]
    shift = abs(float(line.box[0]) - float(previous.box[0]))
    return bool(line.page != previous.page or shift <= 3 * _EDGE + 2 or shift > _NEW_COLUMN)


def _author_year(lines: Sequence[Line]) -> list[list[Line]]:
    """The entries of an author-year list: a line at its column's left edge starts one when the list has
    a hanging indent, else when it also starts with a name."""
    edges = [_edge(line, lines) for line in lines]
    hanging = any(_INDENT[0] <= line.box[0] - edge <= _INDENT[1] for line, edge in zip(lines, edges, strict=True))
    entries: list[list[Line]] = []
    for line, edge in zip(lines, edges, strict=True):
        at_edge = line.box[0] - edge <= _EDGE
        named = bool(_FAMILY_FIRST.match(line.text) or _INITIALS_FIRST.match(line.text))
        if at_edge and (hanging or named):
            entries.append([line])
        elif entries:
            entries[-1].append(line)
    return entries


def _edge(line: Line, lines: Sequence[Line]) -> float:
    """The left edge of the line's column: the leftmost start of the lines of its page it overlaps."""
    return min(
        float(other.box[0])
        for other in lines
        if other.page == line.page and other.box[0] < line.box[2] and other.box[2] > line.box[0]
    )


def _family(text: str) -> str | None:
    """The first author's family name, initials first (`G. Lamichhane, ...`) or last (`Smith, J.`, `Smith
    J.`), or the entry's first words up to a comma (`The LIGO Scientific Collaboration, ...`)."""
    head = text.split(",", 1)[0].strip()
    if len(head.split()) >= _BODY_NAME and "." not in head and len(head) <= _SHORT:
        return head  # an organisation: `The LIGO Scientific Collaboration, the Virgo Collaboration, ...`
    initials_first = _INITIALS_FIRST.match(text)
    if initials_first:
        return initials_first[1]
    family_first = _FAMILY_FIRST.match(text)
    if family_first:
        return family_first[1]
    return head if head and len(head) <= _SHORT and head[0].isupper() else None


def _extents(entries: Sequence[Sequence[Line]]) -> tuple[tuple[int, Box], ...]:
    pages: dict[int, list[Box]] = {}
    for entry in entries:
        for line in entry:
            pages.setdefault(line.page, []).append(line.box)
    return tuple((page, union(boxes)) for page, boxes in pages.items())


def _locator(lines: Sequence[Line]) -> str:
    return ";".join(locator_of(page, box) for page, box in _extents([lines]))


def read_reference_list(lines: Sequence[Line]) -> PrintedList:
    """The reference list of a PDF's lines, numbered or author-year (empty when it has none it can read)."""
    from credencegraph.ingest import Chunk

    found = list_lines(lines)
    splits = line_end_splits(lines)
    numbered = _numbered(found)
    if len(numbered) >= 2:  # one "1." alone is too little to call a list numbered
        references = []
        for number, entry in numbered:
            text = _NUMBER.sub("", joined_lines(entry, splits), count=1).strip()
            if text:
                references.append(Chunk("reference", text, _locator(entry), key=number))
        return PrintedList(tuple(references), "numbered", _extents([entry for _, entry in numbered]))
    keyed: dict[tuple[str, str], Chunk] = {}
    entries = _author_year(found)
    for entry in entries:
        text = joined_lines(entry, splits)
        family, year = _family(text), _YEAR.search(text)
        if family is None or year is None:
            continue
        identity = (family.casefold(), year[1] + year[2])
        if identity not in keyed:
            keyed[identity] = Chunk("reference", text, _locator(entry), key=f"{family} {year[1]}{year[2]}")
    if not keyed:
        return PrintedList()
    return PrintedList(tuple(keyed.values()), "author-year", _extents(entries))
