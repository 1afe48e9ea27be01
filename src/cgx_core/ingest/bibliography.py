r"""Reference nodes from a `.bib` file, so that every `\cite` the bibliography has resolves.

credencegraph reads references only from `thebibliography` or a `<main>.bbl` beside the main file, never
from a `.bib`. This module reads the `.bib` files a paper names (or the one `start_run` is given) with
bibtexparser, and adds one reference chunk per cited key that credencegraph did not resolve, so that
`chunks_to_graph` itself creates the reference node and its `cites` relations. Each reference node then
carries its key, DOI, arXiv id and title in its attributes: that is what ties a citation check's source
to the entry. Where a `.bbl` and the `.bib` disagree, the `.bbl` (what the paper prints) keeps the node's
text, and the start_run result says so.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from cgx_core.codes import Code
from cgx_core.errors import CgxError, utf8_text

if TYPE_CHECKING:
    from credencegraph.core import Graph
    from credencegraph.ingest import Chunk

_ARXIV_NEW = r"\d{4}\.\d{4,5}(?:v\d+)?"
_ARXIV_OLD = r"[a-z\-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?"
_ARXIV_IN_TEXT = re.compile(rf"(?:arXiv:|arxiv\.org/(?:abs|pdf)/)\s*({_ARXIV_NEW}|{_ARXIV_OLD})", re.IGNORECASE)
_ARXIV_ID = re.compile(rf"^(?:{_ARXIV_NEW}|{_ARXIV_OLD})$")
_OLD_ARCHIVES = (
    "astro-ph|cond-mat|gr-qc|hep-ex|hep-lat|hep-ph|hep-th|math-ph|nlin|nucl-ex|nucl-th|physics|quant-ph|math|cs|q-bio"
    "|q-fin|stat|acc-phys|adap-org|alg-geom|ao-sci|atom-ph|bayes-an|chao-dyn|chem-ph|cmp-lg|comp-gas|dg-ga|funct-an"
    "|mtrl-th|patt-sol|plasm-ph|q-alg|solv-int|supr-con"
)
# An old-style id printed without "arXiv:" (JHEP's and many physics styles' `[hep-th/0306150]`): only with
# an archive arXiv had, so that a path such as `data/1234567` is not one.
_ARXIV_OLD_BARE = re.compile(rf"(?<![\w/.-])((?:{_OLD_ARCHIVES})(?:\.[A-Z]{{2}})?/\d{{7}}(?:v\d+)?)(?![\w/])")
_ARXIV_WRITTEN = re.compile(r"arXiv:\s*([^\s,;\]\)]+)", re.IGNORECASE)
"""Whatever a reference prints after `arXiv:`: when it is no arXiv id, the entry says so (`arxiv_malformed`)."""
_DOI_IN_TEXT = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>{}]+[^\s\"<>{}.,;])")
# arXiv's own DOIs, registered with DataCite: 10.48550/arXiv.<id> names the arXiv paper <id>.
_ARXIV_DOI = re.compile(rf"^10\.48550/arxiv\.({_ARXIV_NEW}|{_ARXIV_OLD})$", re.IGNORECASE)
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")


@attrs.frozen
class BibEntry:
    """One entry of a `.bib` file, reduced to what a reference node needs."""

    key: str
    file: str
    first_line: int
    last_line: int
    title: str | None
    venue: str | None
    year: str | None
    doi: str | None
    arxiv: str | None
    text: str
    first_author: str | None = None
    """The first author's family name, as text (`Isi`, `The LIGO Scientific Collaboration`)."""

    def attributes(self) -> dict[str, str]:
        out = {"bib": self.file}
        for name in ("title", "doi", "arxiv", "first_author", "year"):
            value = getattr(self, name)
            if value:
                out[name] = value
        return out


@functools.cache
def text_renderer() -> tuple[Any, Any]:
    """pylatexenc's text renderer and its parser's default macros, built once per process.

    `LatexNodes2Text(...).latex_to_text(value)` builds both of pylatexenc's default context databases (the
    renderer's and the parser's) on every call: about two thirds of reading a `.bib`. Neither is changed by a
    reading, so one pair serves every field with the same text out; the parser's finds the specials by their
    first character (cgx_core.ingest.specials), a third of what is left."""
    from pylatexenc.latex2text import LatexNodes2Text
    from pylatexenc.latexwalker import get_default_latex_context_db

    from cgx_core.ingest.specials import merged

    return LatexNodes2Text(strict_latex_spaces=True), merged(get_default_latex_context_db())


@functools.lru_cache(maxsize=1024)
def _plain(value: str) -> str:
    """A field's LaTeX rendered as text (`{Isi}, M.` -> `Isi, M.`), whitespace collapsed. Remembered: an
    entry's title and venue are rendered for its attributes and again for its text."""
    from pylatexenc.latexwalker import LatexWalker

    renderer, context = text_renderer()
    try:
        text = renderer.nodelist_to_text(LatexWalker(value, latex_context=context).get_latex_nodes()[0])
    except Exception:  # pylatexenc raises many kinds on hostile input; the raw value is still usable
        text = value.replace("{", "").replace("}", "")
    return " ".join(text.split())


def arxiv_from_doi(doi: str | None) -> str | None:
    """The arXiv id a DataCite arXiv DOI names (`10.48550/arXiv.2112.06861` -> `2112.06861`), or None."""
    match = _ARXIV_DOI.match(doi.strip()) if doi else None
    return match.group(1) if match else None


def _top_level_split(text: str, separator: re.Pattern[str]) -> list[str]:
    """`text` split at each match of `separator` outside braces."""
    parts, depth, start = [], 0, 0
    index = 0
    while index < len(text):
        char = text[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(depth - 1, 0)
        elif depth == 0:
            match = separator.match(text, index)
            if match:
                parts.append(text[start:index])
                start = index = match.end()
                continue
        index += 1
    parts.append(text[start:])
    return [part.strip() for part in parts]


def first_author_family(authors: str) -> str | None:
    """The first author's family name in a BibTeX `author` field: the part before the comma in
    `Family, Given`, else the last word of `Given Family`; a braced group (`{The LIGO Collaboration}`)
    is one word."""
    first = _top_level_split(authors, re.compile(r"\s+and\s+", re.IGNORECASE))[0]
    if not first:
        return None
    by_comma = _top_level_split(first, re.compile(r","))
    family = by_comma[0] if len(by_comma) > 1 else _top_level_split(first, re.compile(r"\s+"))[-1]
    return _plain(family) or None


def _year_of(fields: Mapping[str, str]) -> str | None:
    for name in ("year", "date"):
        match = _YEAR.search(fields.get(name, ""))
        if match:
            return match.group(1)
    return None


def _arxiv_of(fields: Mapping[str, str]) -> str | None:
    eprint = fields.get("eprint", "").strip()
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().lower()
    if eprint and (prefix == "arxiv" or _ARXIV_ID.match(eprint)):
        return eprint.removeprefix("arXiv:")
    for name in ("url", "eid", "journal", "note", "howpublished"):
        match = _ARXIV_IN_TEXT.search(fields.get(name, ""))
        if match:
            return match.group(1)
    return arxiv_from_doi(_doi_of(fields))


def _doi_of(fields: Mapping[str, str]) -> str | None:
    doi = fields.get("doi", "").strip()
    for prefix in ("https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi:"):
        if doi.lower().startswith(prefix):
            doi = doi[len(prefix) :]
    return doi or None


def read_bib(name: str, data: bytes) -> tuple[dict[str, BibEntry], list[str]]:
    """The entries of one `.bib` file by key, and warnings for blocks bibtexparser could not parse."""
    from bibtexparser.entrypoint import parse_string

    text = utf8_text(data, Code.BIBLIOGRAPHY_INVALID, f"'{name}'")
    try:
        library = parse_string(text)
    except Exception as error:  # bibtexparser's failures are not one exception class
        raise CgxError(Code.BIBLIOGRAPHY_INVALID, f"'{name}' cannot be parsed: {error}") from None
    entries: dict[str, BibEntry] = {}
    for entry in library.entries:
        fields = {field.key.lower(): str(field.value) for field in entry.fields}
        title = _plain(fields["title"]) if fields.get("title") else None
        rendered = (_plain(fields[f]) for f in ("author", "title", "journal", "booktitle", "year") if fields.get(f))
        parts = [part.rstrip(".") for part in rendered if part.rstrip(".")]
        first = (entry.start_line or 0) + 1
        entries[entry.key] = BibEntry(
            key=entry.key,
            file=name,
            first_line=first,
            last_line=first + (entry.raw or "").rstrip().count("\n"),
            title=title,
            venue=_plain(fields.get("journal") or fields.get("booktitle") or "") or None,
            year=_year_of(fields),
            doi=_doi_of(fields),
            arxiv=_arxiv_of(fields),
            text=". ".join(parts) or entry.key,
            first_author=first_author_family(fields["author"]) if fields.get("author") else None,
        )
    warnings = [
        f"{name}: a block at line {(block.start_line or 0) + 1} could not be parsed" for block in library.failed_blocks
    ]
    return entries, warnings


def reference_chunks(entries: Mapping[str, BibEntry], cited: Iterable[str], resolved: set[str]) -> list[Chunk]:
    """A reference chunk for each cited key the `.bib` has and credencegraph did not resolve, in citing order."""
    from credencegraph.ingest import Chunk

    chunks: list[Chunk] = []
    for key in dict.fromkeys(cited):
        if key in resolved or key not in entries:
            continue
        entry = entries[key]
        locator = f"file={entry.file};lines={entry.first_line}-{entry.last_line}"
        chunks.append(Chunk("reference", entry.text, locator, (), (), key))
    return chunks


def _comparable(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", text.casefold())


def annotate_references(graph: Graph, entries: Mapping[str, BibEntry]) -> tuple[Graph, list[dict[str, Any]]]:
    """Reference nodes with key, DOI, arXiv id and title attributes; and where a `.bbl` disagrees with the `.bib`."""
    from cgx_core.graph.edit import replace_nodes

    replaced = {}
    disagreements: list[dict[str, Any]] = []
    for node in graph:
        if node.attributes.get("unit") != "reference" or not isinstance(node.attributes.get("key"), str):
            continue
        key = node.attributes["key"]
        entry = entries.get(key)
        from_bib = entry is not None and node.sources and node.sources[0].locator.startswith(f"file={entry.file};")
        extra: dict[str, str] = {}
        if entry is not None:
            extra = entry.attributes()
            if not from_bib:
                disagreements.extend(_disagreements(node.id, node.statement or "", entry))
        else:
            extra = identifiers_in_text(node.statement or "")
        if extra:
            replaced[node.id] = dataclasses.replace(node, attributes={**node.attributes, **extra})
    return replace_nodes(graph, replaced), disagreements


def _disagreements(node_id: str, printed: str, entry: BibEntry) -> list[dict[str, Any]]:
    """The fields of a `.bib` entry that the printed reference (`.bbl`) does not contain: a stale `.bbl`."""
    out = []
    for name in ("title", "venue", "year"):
        value = getattr(entry, name)
        if value and _comparable(value) not in _comparable(printed):
            out.append({"key": entry.key, "node": node_id, "field": name, "bbl": printed, "bib": value, "won": "bbl"})
    return out


def identifiers_in_text(text: str) -> dict[str, str]:
    """DOI and arXiv id printed in a reference's own text (a `.bbl` or `thebibliography` entry, a PDF's
    printed list): an old-style id without its prefix too, and what follows `arXiv:` when it is no id."""
    out: dict[str, str] = {}
    arxiv = _ARXIV_IN_TEXT.search(text) or _ARXIV_OLD_BARE.search(text)
    if arxiv:
        out["arxiv"] = arxiv.group(1)
    malformed = [
        written.rstrip(".")
        for written in _ARXIV_WRITTEN.findall(text)
        if not _ARXIV_ID.match(written.rstrip(".")) and not _ARXIV_ID.match(re.sub(r"\[.*$", "", written))
    ]
    if malformed:
        out["arxiv_malformed"] = malformed[0]
    doi = _DOI_IN_TEXT.search(text)
    if doi:
        out["doi"] = doi.group(1)
        derived = arxiv_from_doi(doi.group(1))
        if derived and "arxiv" not in out:
            out["arxiv"] = derived
    return out


_BIB_KEY = re.compile(rb"@[ \t]*([A-Za-z]+)[ \t\r\n]*[{(][ \t\r\n]*([^,\s{}()]+)[ \t\r\n]*,")
_NOT_ENTRIES = frozenset({"comment", "string", "preamble"})


def bib_keys(data: bytes) -> set[str]:
    """The entry keys of a `.bib`, found by a scan in linear time (no parse): enough to say which file
    would resolve a paper's citations, without paying bibtexparser's cost for files the paper never named."""
    return {
        key.decode("utf-8", "replace")
        for kind, key in _BIB_KEY.findall(data)
        if kind.decode("ascii").lower() not in _NOT_ENTRIES
    }


def bibliography_hint(beside: Mapping[str, bytes], unresolved: Sequence[str]) -> dict[str, Any] | None:
    """When cited keys are unresolved, the `.bib` files beside the paper (by name, with their bytes) that
    start_run did not read but that have some of those keys, best first, and how to pass one; else None."""
    wanted = set(unresolved)
    counts = [(len(wanted & bib_keys(data)), name) for name, data in sorted(beside.items())]
    found = [
        {"file": name, "resolves": matched} for matched, name in sorted(counts, key=lambda item: -item[0]) if matched
    ]
    if not found:
        return None
    best = found[0]
    return {
        "files": found,
        "message": (
            f"{best['file']} beside the paper has {best['resolves']} of the {len(wanted)} unresolved keys, and the "
            f'paper does not name it: start_run again with a new run directory and "bibliography" set to that '
            "file's path"
        ),
    }


def cited_keys(chunks: Sequence[Chunk]) -> list[str]:
    """Every key the paper cites, in the order first cited."""
    return list(dict.fromkeys(key for chunk in chunks for key in chunk.cites))
