"""start_run: ingest a paper into a new run.

Everything is read and checked before anything is written: a bad paper, rubric, bibliography or cited
copy leaves no run directory behind. Then the run's files are written, and the call is committed as the
log's first line; a failure before that commit removes the directory this call created.
"""

from __future__ import annotations

import dataclasses
import re
import secrets
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cgx_core.bibliography import (
    BibEntry,
    annotate_references,
    bibliography_hint,
    cited_keys,
    read_bib,
    reference_chunks,
)
from cgx_core.call_control import progress
from cgx_core.cited import CitedCopy, read_cited
from cgx_core.codes import Code
from cgx_core.digests import bytes_digest, hex_of
from cgx_core.documents import Document, DocumentFile, read_document
from cgx_core.errors import CgxError
from cgx_core.fence import fence_token
from cgx_core.limits import MAX_BIBLIOGRAPHY_BYTES, MAX_RUBRIC_BYTES
from cgx_core.numbers.tolerances import table_for_rubric
from cgx_core.offline_sources import OfflineSource, read_offline_sources
from cgx_core.run.atomic import write_atomic
from cgx_core.run.layout import RUN_FORMAT, RUN_VERSION, RunPaths
from cgx_core.run.manifest import write_manifest
from cgx_core.run.session import Call, CallContext, Run
from cgx_core.run.state import Effect, RunState
from cgx_core.tables import read_tables
from cgx_core.tools.start_summary import summary, with_proposal_schemas

if TYPE_CHECKING:
    from credencegraph.core import Graph, Node
    from credencegraph.rubric import Rubric

TOOL = "start_run"


def _read_limited(path: Path, limit: int, code: Code, what: str) -> bytes:
    if not path.is_file():
        missing = Code.RUBRIC_NOT_FOUND if code is Code.RUBRIC_INVALID else code
        raise CgxError(missing, f"the {what} '{path.name}' does not exist or is not a file")
    if path.stat().st_size > limit:
        raise CgxError(code, f"the {what} '{path.name}' is larger than {limit} bytes")
    return path.read_bytes()


def _bibliographies(args: Mapping[str, Any], paper: Path, document: Document) -> list[DocumentFile]:
    if "bibliography" in args:
        path = Path(args["bibliography"])
        data = _read_limited(path, MAX_BIBLIOGRAPHY_BYTES, Code.BIBLIOGRAPHY_INVALID, "bibliography")
        return [DocumentFile(path.name, data)]
    root = paper.parent
    return [
        DocumentFile(
            name, _read_limited(root / name, MAX_BIBLIOGRAPHY_BYTES, Code.BIBLIOGRAPHY_INVALID, "bibliography")
        )
        for name in document.bibliographies
    ]


def _reference_identifiers(graph: Graph) -> list[str]:
    """The DOIs and arXiv ids (without version) of the references, to keep the offline sources that name them."""
    found: list[str] = []
    for node in graph:
        if node.attributes.get("unit") == "reference":
            found.extend(str(node.attributes[name]) for name in ("doi", "arxiv") if node.attributes.get(name))
    return [re.sub(r"v\d+$", "", identifier) for identifier in found]


def _offline_manifest(offline: tuple[list[OfflineSource], int] | None) -> dict[str, Any]:
    """The manifest's record of the offline sources, only when start_run was given a folder."""
    if offline is None:
        return {}
    return {"offline_sources": {"sources": [source.to_json() for source in offline[0]], "ignored": offline[1]}}


def _bibliography_hint(paper: Path, read: list[DocumentFile], unresolved: list[str]) -> dict[str, Any] | None:
    """Which unread `.bib` beside the paper would resolve its unresolved citations (see bibliography_hint)."""
    if not unresolved:
        return None
    names = {bib.name for bib in read}
    beside = {
        path.name: path.read_bytes()
        for path in sorted(paper.parent.glob("*.bib"))
        if path.name not in names
        and path.is_file()
        and not path.is_symlink()
        and path.stat().st_size <= MAX_BIBLIOGRAPHY_BYTES
    }
    return bibliography_hint(beside, unresolved)


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
    tables = read_tables(document)  # table body rows become chunks of their own (cgx_core.tables)
    chunks = tables.prose(document.chunks)
    resolved = {chunk.key for chunk in chunks if chunk.unit == "reference" and chunk.key}
    cited = list(dict.fromkeys([*cited_keys(chunks), *tables.cites]))
    added = reference_chunks(entries, cited, resolved)
    graph, unresolved = chunks_to_graph([*chunks, *added], document.main.name, rubric.initial)
    graph, unresolved = tables.add_to(graph, document.main.name, rubric.initial, unresolved)
    graph, disagreements = annotate_references(graph, entries)
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


def execute(args: Mapping[str, Any], *, wait: float) -> dict[str, Any]:
    """Create the run, or refuse with nothing written."""
    from credencegraph.core import dumps

    from cgx_core.plugins import distribution_version, installed_check_types
    from cgx_core.rubrics import load_rubric_bytes
    from cgx_core.tools.registry import handler_for

    root = Path(args["run"])
    if root.exists() or root.is_symlink():
        raise CgxError(
            Code.RUN_EXISTS, f"'{root.name}' already exists: give start_run a new directory, or continue that run"
        )
    rubric_path = Path(args["rubric"])
    rubric_data = _read_limited(rubric_path, MAX_RUBRIC_BYTES, Code.RUBRIC_INVALID, "rubric")
    rubric = load_rubric_bytes(rubric_data, rubric_path.name)
    tolerances_name, tolerances_data, _ = table_for_rubric(rubric_path, rubric.identity())
    paper = Path(args["paper"])
    progress(0, 3, "reading the paper")
    document = read_document(paper)
    bibs = _bibliographies(args, paper, document)
    progress(1, 3, "ingesting the paper")
    graph, bibliography = ingest(document, bibs, rubric)
    hint = _bibliography_hint(paper, bibs, bibliography["unresolved"]) if "bibliography" not in args else None
    if hint is not None:
        bibliography["hint"] = hint
    keys = {node.attributes["key"] for node in graph if node.attributes.get("unit") == "reference"}
    cited: list[CitedCopy] = read_cited(Path(args["cited"]), keys) if "cited" in args else []
    offline: tuple[list[OfflineSource], int] | None = None
    if "sources" in args:
        offline = read_offline_sources(Path(args["sources"]), _reference_identifiers(graph))
    store = bool(args.get("store_source", False))
    progress(2, 3, "writing the run")

    paths = RunPaths(root)
    try:
        root.mkdir(parents=True)
    except OSError as error:
        raise CgxError(Code.IO_ERROR, f"cannot create the run directory '{root.name}': {error.strerror}") from None
    try:
        write_atomic(paths.rubric, rubric_data)
        write_atomic(paths.tolerances, tolerances_data)
        paths.cited.mkdir()
        for copy in cited:
            write_atomic(paths.cited / copy.name, copy.data)
        if offline is not None:
            paths.sources.mkdir(exist_ok=True)
            for source in offline[0]:
                write_atomic(paths.sources / hex_of(source.digest), source.data)
        if store:
            for item in (*document.files, *bibs):
                target = paths.source / item.name
                target.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(target, item.data)
        ingested = dumps(graph).encode("utf-8") + b"\n"
        write_atomic(paths.ingested, ingested)
        registry = installed_check_types()
        manifest: dict[str, Any] = {
            "format": RUN_FORMAT,
            "version": RUN_VERSION,
            "run": secrets.token_hex(8),
            "document": {"format": document.format, "files": [item.to_json() for item in document.files]},
            "rubric": {"name": rubric_path.name, "digest": bytes_digest(rubric_data), **rubric.identity()},
            "tolerances": {"name": tolerances_name, "digest": bytes_digest(tolerances_data)},
            "bibliography": bibliography,
            "cited": [copy.to_json() for copy in cited],
            **_offline_manifest(offline),
            "ingested": bytes_digest(ingested),
            "store_source": store,
            "versions": {
                "credencegraph-extract": distribution_version("credencegraph-extract"),
                "credencegraph": distribution_version("credencegraph"),
                "python": ".".join(str(part) for part in sys.version_info[:3]),
                "check_types": {item.check_type.name: item.to_json() for item in registry},
            },
        }
        write_manifest(paths, manifest)
        run = Run(root, handler_for, creating=True)
        logged = {
            "paper": manifest["document"],
            "rubric": {"name": rubric_path.name, "digest": manifest["rubric"]["digest"]},
            "bibliography": bibliography["files"],
            "cited": manifest["cited"],
            **_offline_manifest(offline),
            "store_source": store,
        }
        call = Call(TOOL, logged, args["model"], args.get("agent"), args.get("note"))
        response = run.change(call, lambda context, state: apply(context, state, logged), wait=wait)
        return with_proposal_schemas(response.to_json())  # shown, not digested: see start_summary
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise


def initial_graph(graph: Graph, rubric: Rubric, run_id: str) -> Graph:
    """The ingested graph as the run starts: initial types given their base (credencegraph's `initial`
    sets the type but not the base), and every node marked as made by this run's start_run."""
    from credencegraph.rubric import annotate_node

    from cgx_core.graph_edit import replace_nodes

    initial_types = set(rubric.initial.values())
    for node in list(graph):
        if node.kind in initial_types and rubric.types[node.kind].base is not None:
            graph = annotate_node(graph, rubric, node.id, node_type=node.kind)
    extraction = {"run": run_id, "tool": TOOL}
    return replace_nodes(graph, {node.id: with_extraction(node, extraction) for node in graph})


def with_extraction(node: Node, extraction: Mapping[str, str]) -> Node:
    """The node marked as created or changed by a call of this run."""
    return dataclasses.replace(node, attributes={**node.attributes, "extraction": dict(extraction)})


def apply(context: CallContext, state: RunState, args: Mapping[str, Any]) -> Effect:
    """Call 1 of every run: from the ingested graph to the run's first state, and the start_run result (a
    summary that fits an agent's context: see `cgx_core.tools.start_summary`)."""
    run = context.run
    graph = initial_graph(state.graph, run.rubric, run.id)
    result = summary(graph, run.rubric, run.id, fence_token(run.id, context.seq), run.manifest)
    return Effect(graph=graph, result=result)
