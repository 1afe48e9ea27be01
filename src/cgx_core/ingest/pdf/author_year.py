"""A PDF's printed reference list as reference chunks (cgx_core.ingest.pdf.reference_list), and the citations
the sentences print as `cites` of its entries.

A numbered list's `[n]` citations are credencegraph's own (its chunks carry the numbers already; they resolve
once the entries exist), and its raised ones are cgx_core.ingest.pdf.superscripts'. Its entries named by their
authors alone, as natbib's `\\citeauthor` prints them with no number (`Hastings and Powell`, `Hastings et
al.`), are read here when the form names one entry of the list only. An author-year list's citations are
read here too: a sentence cites an entry when it names the entry's family name and year in one of the usual
forms: `(Smith, 2020)`, `(Smith et al. 2020; Lee and Park, 2019)`, `(Smith 2020, 2021)`, `Smith (2020)`,
`Smith et al. (2020a)`, `(The LIGO Scientific Collaboration et al. 2021)`. A name and year that no entry has
is not a citation (a date in prose is not one).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cgx_core.ingest.pdf.reference_list import PrintedList, read_reference_list

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk
    from credencegraph.ingest.pdf import PdfDocument

_NAME = r"(?:(?:van|von|de|der|den|da|di|du|le|la|del|dos)\s+)*[A-Z][\w'\u2019\-]+"
_INITIAL_NAME = re.compile(rf"\s*(?:[A-Z][a-z]?\.[\s-]?)+\s*({_NAME})\s*(?:,\s*(?:and\s+)?|\s+and\s+|\.)")
_YEARS = re.compile(r"\b((?:19|20)\d{2}[a-z]?)\b")
_PARENTHESIS = re.compile(r"\(([^()]{4,400})\)")
_ALSO_NAMED = r"(?:\s+et\s+al\.?|\s+(?:and|&)\s+(?:[a-z]+\s+)*[A-Z][\w'\u2019\-]+)?"


def _cited(text: str, keys: dict[tuple[str, str], str]) -> list[str]:
    """The keys of the entries the text cites, in the order written."""
    found: list[tuple[int, str]] = []
    parts = [(match.start(1) + part.start(), part[0]) for match in _PARENTHESIS.finditer(text)
             for part in re.finditer(r"[^;]+", match[1])]  # fmt: skip
    for (family, year), key in keys.items():
        name = re.compile(rf"(?<![\w-]){re.escape(family)}(?![\w-])", re.IGNORECASE)
        at = next((start for start, part in parts if name.search(part) and year in _YEARS.findall(part)), None)
        if at is None:
            narrative = re.compile(rf"{name.pattern}{_ALSO_NAMED},?\s+\((?:[^()]*\b)?{year}\b", re.IGNORECASE)
            match = narrative.search(text)
            at = match.start() if match is not None else None
        if at is not None:
            found.append((at, key))
    return [key for _, key in sorted(found)]


def _authors(text: str) -> list[str]:
    """The family names of an entry printed initials first (`P. W. Price, C. E. Bouton, and A. E. Weis.`)."""
    names: list[str] = []
    position = 0
    while (match := _INITIAL_NAME.match(text, position)) is not None:
        names.append(match[1])
        position = match.end()
        if match[0].rstrip().endswith("."):  # the point after the last author
            break
    return names


def _name_keys(references: Sequence[Chunk]) -> dict[str, str]:
    """How the text names each entry of a numbered list by its authors alone, as natbib's `\\citeauthor`
    prints it (`Hastings and Powell`, `Hastings et al.`): only the forms that name one entry of the list."""
    forms: dict[str, list[str]] = {}
    for chunk in references:
        names = _authors(chunk.text)
        if len(names) == 2:
            forms.setdefault(f"{names[0]} and {names[1]}", []).append(str(chunk.key))
        elif len(names) > 2:
            forms.setdefault(f"{names[0]} et al.", []).append(str(chunk.key))
    return {form: keys[0] for form, keys in forms.items() if len(keys) == 1}


def _named(text: str, forms: dict[str, str]) -> list[str]:
    found = [(match.start(), key) for form, key in forms.items() for match in re.finditer(re.escape(form), text)]
    return [key for _, key in sorted(found)]


def with_printed_references(analysis: PdfDocument, chunks: Sequence[Chunk]) -> tuple[list[Chunk], PrintedList]:
    """The chunks with the printed list's entries as reference chunks (after every other chunk) and an
    author-year list's citations as `cites`, and the list as read; unchanged when credencegraph read a
    `[n]` list or the PDF has no list this reads."""
    if analysis.references:
        return list(chunks), PrintedList()
    printed = read_reference_list(analysis.lines)
    if not printed.references:
        return list(chunks), printed
    keys: dict[tuple[str, str], str] = {}
    forms = _name_keys(printed.references) if printed.style == "numbered" else {}
    if printed.style == "author-year":
        for chunk in printed.references:
            family, _, year = str(chunk.key).rpartition(" ")
            keys[(family.casefold(), year)] = str(chunk.key)
    out: list[Chunk] = []
    for chunk in chunks:
        if chunk.unit == "sentence" and printed.holds(chunk):
            continue  # the list as credencegraph read it, in sentences
        cited = [] if chunk.unit == "reference" else [*_cited(chunk.text, keys), *_named(chunk.text, forms)]
        out.append(dataclasses.replace(chunk, cites=tuple(dict.fromkeys([*chunk.cites, *cited]))) if cited else chunk)
    return out + list(printed.references), printed
