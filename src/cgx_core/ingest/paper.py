"""start_run's ingestion step as one function of plain inputs: read the paper and its bibliography through the
paper's boundary, and build the ingested graph (credencegraph's chunks, the table rows, the references a
`.bib` adds).

It takes and returns only plain, picklable values, so that `cgx_core.ingest.worker` can run it in a budgeted child
process; replay runs the same step to rebuild the graph a run started from.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

import attrs

from cgx_core.base.limits import MAX_BIBLIOGRAPHY_BYTES
from cgx_core.errors import CgxError
from cgx_core.ingest.accounting import Accounting
from cgx_core.ingest.archive import is_archive, unpack
from cgx_core.ingest.bibliography import (
    BibEntry,
    annotate_references,
    bibliography_hint,
    cited_keys,
    read_bib,
    reference_chunks,
)
from cgx_core.ingest.documents import Document, DocumentFile, read_bibliography, read_document
from cgx_core.ingest.lists import FoundList, annotate_lists
from cgx_core.ingest.numbering.chunks import annotate_numbering
from cgx_core.ingest.numbering.objects import Numbering
from cgx_core.ingest.pdf.limits import pdf_limits
from cgx_core.ingest.pdf.links import with_linked_identifiers
from cgx_core.ingest.pdf.numbering import annotate_pdf_numbering
from cgx_core.ingest.pdf.tables import read_pdf_tables
from cgx_core.ingest.tables import TableReading, read_tables
from cgx_core.numbers.columns import TABLE_ROW

if TYPE_CHECKING:
    from credencegraph.core import Graph
    from credencegraph.rubric import Rubric


@attrs.frozen
class IngestRequest:
    """What to read: the paper, its root, and where its bibliography comes from."""

    paper: str
    root: str | None
    rubric: bytes = attrs.field(repr=False)
    rubric_name: str
    bibliography: str | None = None
    """start_run's `bibliography` argument: a .bib the paper does not name."""
    bibliography_names: tuple[str, ...] | None = None
    """For replay: the .bib files the run recorded, by name relative to the root (instead of finding them)."""
    main: str | None = None
    """start_run's `main` argument: the main file inside an archive of sources (else it is found)."""
    accept_incomplete: bool = False
    """start_run's `accept_incomplete`: proceed when most of the body is in no chunk (cgx_core.ingest.accounting),
    the loss recorded in `limits`; otherwise such a reading is refused (`ingest-incomplete`)."""


@attrs.frozen
class Ingested:
    """What ingestion read and built."""

    format: str
    files: tuple[DocumentFile, ...]
    bibliographies: tuple[DocumentFile, ...]
    graph: bytes = attrs.field(repr=False)
    """ingested.json's bytes."""
    bibliography: dict[str, Any]
    """What the bibliography gave (start_run's result and the manifest carry it)."""
    reference_keys: tuple[str, ...]
    reference_identifiers: tuple[str, ...]
    """The DOIs and arXiv ids (without version) of the references, to keep the offline sources that name them."""
    not_followed: tuple[str, ...] = ()
    """File macros no reader follows (`\\subfile{..}`, an `\\import` naming no file): their text is not in the run."""
    limits: dict[str, Any] | None = None
    """What the run could not read: a PDF's (cgx_core.ingest.pdf.limits), or the body of a LaTeX paper left in
    no chunk when start_run was told to proceed (cgx_core.ingest.accounting); None when nothing is lost."""
    archive: dict[str, str] | None = None
    """The archive of sources the paper was unpacked from: its name, digest and main file (cgx_core.ingest.archive)."""


def ingest_paper(request: IngestRequest) -> Ingested:
    """Read the paper and build the ingested graph (in this process: `cgx_core.ingest.worker` bounds it). An
    archive of sources is unpacked into a fresh folder, read with that folder as the root, and removed."""
    paper = Path(request.paper)
    if not is_archive(paper):
        return _ingest_read(request, read_document(paper, Path(request.root) if request.root is not None else None))
    with tempfile.TemporaryDirectory(prefix="cgx-archive-") as folder:
        unpacked = unpack(paper, Path(folder), request.main)
        ingested = _ingest_read(request, read_document(unpacked.main, Path(folder)))
        return attrs.evolve(ingested, archive=unpacked.to_json())


def _ingest_read(request: IngestRequest, document: Document) -> Ingested:
    from credencegraph.core import dumps

    from cgx_core.graph.rubric import load_rubric_bytes

    rubric = load_rubric_bytes(request.rubric, request.rubric_name)
    bibs = _bibliographies(request, document)
    graph, report = ingest(document, bibs, rubric)
    accounting = document.accounting(_table_rows(graph))
    if accounting is not None and not accounting.complete and not request.accept_incomplete:
        raise accounting.refusal()
    if request.bibliography is None and request.bibliography_names is None:
        hint = bibliography_hint_beside(document, bibs, report["unresolved"])
        if hint is not None:
            report["hint"] = hint
    keys = tuple(str(node.attributes["key"]) for node in graph if node.attributes.get("unit") == "reference")
    text: str = dumps(graph)
    return Ingested(
        document.format,
        document.files,
        tuple(bibs),
        text.encode("utf-8") + b"\n",
        report,
        keys,
        tuple(reference_identifiers(graph)),
        document.not_followed,
        _limits(document, accounting),
    )


def _table_rows(graph: Any) -> list[str]:
    """The locators of the table rows read from the paper's tabulars (they are in no chunk of credencegraph's)."""
    return [node.sources[0].locator for node in graph if node.attributes.get("unit") == TABLE_ROW and node.sources]


def _limits(document: Document, accounting: Accounting | None) -> dict[str, Any] | None:
    """What the run could not read: a LaTeX body mostly in no chunk, or a PDF's limits (its tables read again:
    cheap, and the same, reading being a function)."""
    if accounting is not None and not accounting.complete:
        return accounting.limits()
    if document.pdf is None:
        return None
    return pdf_limits(document.pdf, read_pdf_tables(document.pdf.analysis, document.chunks), document.chunks)


def _bibliographies(request: IngestRequest, document: Document) -> list[DocumentFile]:
    boundary = document.root
    assert boundary is not None  # read_document always sets it
    if request.bibliography is not None:
        path = Path(request.bibliography)
        return [read_bibliography(boundary, path, what=f"the bibliography '{path.name}'")]
    names = request.bibliography_names if request.bibliography_names is not None else document.bibliographies
    return [read_bibliography(boundary, boundary.written / name, what=f"the bibliography '{name}'") for name in names]


def ingest(document: Document, bibs: list[DocumentFile], rubric: Rubric) -> tuple[Graph, dict[str, Any]]:
    """The ingested graph (credencegraph's, plus references from the .bib) and what the bibliography gave."""
    from credencegraph.ingest import chunks_to_graph

    entries: dict[str, BibEntry] = {}
    warnings: list[str] = []
    for bib in bibs:
        found, problems = read_bib(bib.name, bib.data)
        warnings.extend(problems)
        for key, entry in found.items():
            entries.setdefault(key, entry)
    # One walk reads the numbering, the tables and the lists (cgx_core.ingest.latex_walk); table body rows become
    # chunks of their own (cgx_core.ingest.tables), titled with the printed numbers.
    numbering, tables, lists = walk_latex(document)
    chunks = tables.prose(document.chunks)
    if document.pdf is not None:
        pdf_tables = read_pdf_tables(document.pdf.analysis, chunks)
        chunks = pdf_tables.prose(chunks)
        tables = TableReading(pdf_tables.rows)
    resolved = {chunk.key for chunk in chunks if chunk.unit == "reference" and chunk.key}
    cited = list(dict.fromkeys([*cited_keys(chunks), *tables.cites]))
    added = reference_chunks(entries, cited, resolved)
    # The graph names its document by the main file's own name, whatever root the run was given.
    main_name = PurePosixPath(document.main.name).name
    graph, unresolved = chunks_to_graph([*chunks, *added], main_name, rubric.initial)
    graph, unresolved = tables.add_to(graph, main_name, rubric.initial, unresolved)
    if numbering is not None:
        graph = annotate_lists(annotate_numbering(graph, numbering), lists)
    elif document.pdf is not None:  # numbered as printed: cross-reference reads it as a LaTeX run's
        graph = annotate_pdf_numbering(graph, document.pdf)
    graph, disagreements = annotate_references(graph, entries)
    if document.pdf is not None:  # a DOI a PDF gives only as a link, where the entry's words give none
        graph = with_linked_identifiers(graph, document.pdf.links)
    report = {
        "files": [bib.to_json() for bib in bibs],
        "cited_keys": len(cited),
        "from_bbl": sorted(key for key in cited if key in resolved),
        "from_bib": [chunk.key for chunk in added],
        "unresolved": sorted(set(unresolved)),
        "disagreements": disagreements,
        "warnings": warnings,
    }
    return graph, report


def walk_latex(document: Document) -> tuple[Numbering | None, TableReading, list[FoundList]]:
    """The paper's numbering as LaTeX prints it (cgx_core.ingest.numbering), its tables' rows and its lists
    (cgx_core.ingest.lists), read in the paper's one walk; a PDF has none (its tables are read from its lines:
    cgx_core.ingest.pdf)."""
    if document.format != "latex":
        return None, TableReading(), []
    from cgx_core.ingest.latex_text import PaperFiles
    from cgx_core.ingest.latex_walk import LatexWalk
    from cgx_core.ingest.lists import ListVisitor
    from cgx_core.ingest.numbering.visitor import NumberingVisitor
    from cgx_core.ingest.tables.paper import TableVisitor

    files = PaperFiles(document.texts, document.main.name)
    numbering, tables, lists = NumberingVisitor(files), TableVisitor(files), ListVisitor()
    LatexWalk(files, [numbering, tables, lists]).run()
    read = numbering.numbering()
    return read, read_tables(len(document.chunks), tables, captions=read.captions()), lists.placed()


def bibliography_hint_beside(
    document: Document, read: list[DocumentFile], unresolved: list[str]
) -> dict[str, Any] | None:
    """Which unread `.bib` beside the paper would resolve its unresolved citations (see bibliography_hint).

    The files are listed and read through the paper's boundary: one outside the root (a link leading out of
    it) is passed over, not read."""
    if not unresolved or document.root is None:
        return None
    names = {bib.name for bib in read}
    folder = document.root.written / PurePosixPath(document.main.name).parent
    beside: dict[str, bytes] = {}
    for path in sorted(folder.glob("*.bib")):
        try:
            name = document.root.name_of(path)
        except CgxError:
            continue
        if name not in names and path.is_file() and path.stat().st_size <= MAX_BIBLIOGRAPHY_BYTES:
            beside[name] = path.read_bytes()
    return bibliography_hint(beside, unresolved)


def reference_identifiers(graph: Graph) -> list[str]:
    """The DOIs and arXiv ids (without version) of the references, to keep the offline sources that name them."""
    found: list[str] = []
    for node in graph:
        if node.attributes.get("unit") == "reference":
            found.extend(str(node.attributes[name]) for name in ("doi", "arxiv") if node.attributes.get(name))
    return [re.sub(r"v\d+$", "", identifier) for identifier in found]
