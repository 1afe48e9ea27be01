"""start_run's ingestion step as one function of plain inputs: read the paper and its bibliography through the
paper's boundary, and build the ingested graph.

It takes and returns only plain, picklable values, so that `ingest_worker` can run it in a budgeted child
process; replay runs the same step to rebuild the graph a run started from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from cgx_core.ingest.documents import Document, DocumentFile, read_bibliography, read_document


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
    """File macros the reader does not follow (`\\import{dir/}{file}`, ...): their text is not in the run."""


def ingest_paper(request: IngestRequest) -> Ingested:
    """Read the paper and build the ingested graph (in this process: `ingest_worker` bounds it)."""
    from credencegraph.core import dumps

    from cgx_core.graph.rubric import load_rubric_bytes
    from cgx_core.tools.start_run import bibliography_hint_beside, ingest, reference_identifiers

    rubric = load_rubric_bytes(request.rubric, request.rubric_name)
    document = read_document(Path(request.paper), Path(request.root) if request.root is not None else None)
    bibs = _bibliographies(request, document)
    graph, report = ingest(document, bibs, rubric)
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
    )


def _bibliographies(request: IngestRequest, document: Document) -> list[DocumentFile]:
    boundary = document.root
    assert boundary is not None  # read_document always sets it
    if request.bibliography is not None:
        path = Path(request.bibliography)
        return [read_bibliography(boundary, path, what=f"the bibliography '{path.name}'")]
    names = request.bibliography_names if request.bibliography_names is not None else document.bibliographies
    return [read_bibliography(boundary, boundary.written / name, what=f"the bibliography '{name}'") for name in names]
