"""Replay: rebuild a run from its document and its log with the code installed now, and say whether the
graph comes out byte-identical, or where the rebuild first diverges and how.

Nothing is written into the run. The document is re-ingested (the run's stored copy, or `--source`, whose
files must have the digests the manifest recorded); every logged call is applied again in `replay` mode,
in which checks run again and what a citation check read is read again from its bytes (the run's
`sources/` or `--sources DIR`), never from the network.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from cgx_core.codes import Code
from cgx_core.digests import bytes_digest, file_digest, hex_of, json_digest
from cgx_core.documents import DocumentFile, read_document
from cgx_core.errors import CgxError
from cgx_core.numbers.tolerances import read_run_tolerances
from cgx_core.run import log
from cgx_core.run.session import CallContext, Run
from cgx_core.run.state import RunState, state_bytes


@attrs.frozen
class ReplayReport:
    """The outcome of a replay: identical, or the first divergence."""

    identical: bool
    body: dict[str, Any]


def check_run_files(run: Run) -> None:
    """The rubric and the cited copies must be the bytes the manifest names."""
    manifest = run.manifest
    if file_digest(run.paths.rubric) != manifest["rubric"]["digest"]:
        raise CgxError(Code.TAMPERED, "rubric.toml differs from the digest the manifest recorded")
    if "tolerances" in manifest:  # runs made before hedge tolerances existed have none
        read_run_tolerances(run.paths.root, manifest["tolerances"])
    for item in manifest.get("cited", []):
        path = run.paths.cited / item["name"]
        if not path.is_file() or file_digest(path) != item["digest"]:
            raise CgxError(Code.TAMPERED, f"cited/{item['name']} differs from the digest the manifest recorded")


def _document_path(run: Run, source: Path | None) -> Path:
    main: str = run.manifest["document"]["files"][0]["name"]
    if source is not None:
        return source
    if run.manifest.get("store_source"):
        return run.paths.source / main
    raise CgxError(
        Code.SOURCE_MISMATCH,
        f"the run did not store its document: pass --source with the paper ({main}, "
        f"{run.manifest['document']['files'][0]['digest']})",
    )


def reingest(run: Run, source: Path | None) -> bytes:
    """The ingested graph's bytes, rebuilt from the document (checked file by file against the manifest)."""
    from credencegraph.core import dumps

    from cgx_core.tools.start_run import ingest

    paper = _document_path(run, source)
    document = read_document(paper)
    recorded = run.manifest["document"]["files"]
    found = [item.to_json() for item in document.files]
    if found != recorded:
        differing = [item["name"] for item in recorded if item not in found] or [
            item["name"] for item in found if item not in recorded
        ]
        raise CgxError(
            Code.SOURCE_MISMATCH,
            f"the document's files are not those the run recorded: {differing} differ or are missing",
        )
    bibs = []
    for item in run.manifest["bibliography"]["files"]:
        path = paper.parent / item["name"]
        if not path.is_file() or file_digest(path) != item["digest"]:
            raise CgxError(
                Code.SOURCE_MISMATCH, f"the bibliography {item['name']} beside the paper is missing or differs"
            )
        bibs.append(DocumentFile(item["name"], path.read_bytes()))
    graph, _ = ingest(document, bibs, run.rubric)
    text: str = dumps(graph)
    return text.encode("utf-8") + b"\n"


def source_lookup(run: Run, sources: Path | None) -> Callable[[str], bytes | None]:
    """Stored bytes by digest: the run's sources/, then --sources DIR (files named by the digest's hex)."""

    def lookup(digest: str) -> bytes | None:
        for folder in (run.paths.sources, sources):
            if folder is None:
                continue
            path = folder / hex_of(digest)
            if path.is_file():
                data = path.read_bytes()
                if bytes_digest(data) == digest:
                    return data
        return None

    return lookup


def replay(root: Path, *, source: Path | None, sources: Path | None) -> ReplayReport:
    """Rebuild the run at `root` and compare it with what it recorded."""
    from credencegraph.core import dumps, loads

    from cgx_core.tools.registry import handler_for

    run = Run(root, handler_for)
    check_run_files(run)
    found = log.scan(run.paths.log, 0, 1, None)
    if not found.entries or found.entries[0].line.tool != "start_run":
        raise CgxError(Code.NOT_A_RUN, f"'{root.name}' has no committed start_run: there is no run to replay")
    ingested = reingest(run, source)
    if bytes_digest(ingested) != run.manifest["ingested"]:
        return ReplayReport(
            False,
            {"diverged": "ingest", "how": "the re-ingested graph differs from the one the run started from"},
        )
    lookup = source_lookup(run, sources)
    state = RunState(run.id, 0, 0, None, loads(ingested.decode("utf-8")), (), False)
    for entry in found.entries:
        line = entry.line
        context = CallContext(run, line.seq, "replay", line.model, line, sources=lookup)
        try:
            effect = handler_for(line.tool)(context, state, line.args)
        except CgxError as error:
            if error.code in (Code.SOURCE_MISMATCH, Code.TAMPERED):
                raise
            return ReplayReport(False, {"diverged": line.seq, "tool": line.tool, "how": f"refused: {error.message}"})
        for field, recorded, rebuilt in (
            ("result", line.result, json_digest(effect.result)),
            ("graph", line.graph, run.graph_digest(effect.graph)),
        ):
            if recorded != rebuilt:
                return ReplayReport(
                    False,
                    {
                        "diverged": line.seq,
                        "tool": line.tool,
                        "how": f"its {field} differs",
                        "recorded": recorded,
                        "rebuilt": rebuilt,
                    },
                )
        state = state.advance(effect, tool=line.tool, end=entry.end, digest=entry.digest)
    body: dict[str, Any] = {"run": run.id, "calls": state.seq, "graph": run.graph_digest(state.graph)}
    if found.tail is not None:
        body["uncommitted_tail"] = found.tail.to_json()
    # state.json is derived, and its layout may change between versions: compare it as JSON, when it reflects
    # the same call (it may lag after a crash, and the next call completes it).
    try:
        stored = json.loads(run.paths.state.read_bytes())
    except (OSError, ValueError):
        stored = None
    if (
        isinstance(stored, dict)
        and stored.get("seq") == state.seq
        and stored != json.loads(state_bytes(state, run.digester))
    ):
        return ReplayReport(False, {**body, "diverged": "state", "how": "state.json differs from the rebuilt state"})
    if state.finished:
        graph_bytes = dumps(state.graph).encode("utf-8") + b"\n"
        if not run.paths.graph.is_file() or run.paths.graph.read_bytes() != graph_bytes:
            return ReplayReport(
                False, {**body, "diverged": "graph.json", "how": "graph.json differs from the rebuilt graph"}
            )
        body["graph_json"] = bytes_digest(graph_bytes)
    return ReplayReport(True, {**body, "identical": True})
