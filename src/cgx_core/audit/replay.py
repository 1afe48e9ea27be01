"""Replay: rebuild a run from its document and its log with the code installed now, and say whether the
graph comes out byte-identical, or where the rebuild first diverges and how.

Nothing is written into the run. The document is re-ingested (the run's stored copy, or `--source`, whose
files must have the digests the manifest recorded); every logged call is applied again in `replay` mode,
in which checks run again and what a citation check read is read again from its bytes (the run's
`sources/` or `--sources DIR`), never from the network.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

import attrs

from cgx_core.audit.background import Background
from cgx_core.audit.integrity import (
    digest_problems,
    log_problems,
    manifest_problems,
    start_problems,
    unanchored_note,
    unfinished_problems,
)
from cgx_core.audit.verify import stored_sources
from cgx_core.base.digests import bytes_digest, file_digest, json_digest
from cgx_core.base.limits import REPLAY_BUDGET_FACTOR
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.ingest.archive import is_archive
from cgx_core.ingest.paper import IngestRequest
from cgx_core.ingest.readers import READERS_VERSION, recorded_readers
from cgx_core.ingest.worker import Budget, default_budget, ingest_bounded
from cgx_core.run import log
from cgx_core.run.state import RunState, state_bytes
from cgx_core.run.transaction import CallContext, Run

if TYPE_CHECKING:
    from credencegraph.core import Graph


@attrs.frozen
class ReplayReport:
    """The outcome of a replay: identical, or the first divergence."""

    identical: bool
    body: dict[str, Any]


def _document_path(run: Run, source: Path | None) -> Path:
    main: str = run.manifest["document"]["files"][0]["name"]
    if source is not None:
        return source
    if run.manifest.get("store_source"):
        return run.paths.source / main
    raise CgxError(
        Code.SOURCE_NEEDED,
        f"pass --source with the paper {main} ({run.manifest['document']['files'][0]['digest']}): the run did not "
        "store its document (start_run's store_source was false), so nothing was replayed",
    )


def preflight(run: Run, entries: tuple[log.Entry, ...], source: Path | None, sources: Path | None) -> None:
    """Refuse, before any work, a replay that could not finish for want of what lies outside the run: the
    paper (its main file and every file it read, by the digests the manifest recorded), the bibliography
    beside it, the --sources folder, and the bytes of every source a logged call read that the run did not
    store. The message begins with what to pass; a replay of a large run used to meet the first of these
    minutes in, after rebuilding most of its calls."""
    if sources is not None and not sources.is_dir():
        raise CgxError(Code.SOURCE_NEEDED, f"pass --sources DIR, a folder: '{sources}' is not one")
    paper = _document_path(run, source)
    recorded = run.manifest["document"]["files"]
    archive = run.manifest["document"].get("archive")
    if not paper.is_file():
        raise CgxError(
            Code.SOURCE_NEEDED, f"pass --source with the paper {recorded[0]['name']}: '{paper}' is not a file"
        )
    if is_archive(paper):
        if archive is not None and file_digest(paper) != archive.get("digest"):
            raise CgxError(
                Code.SOURCE_MISMATCH,
                f"pass --source with the archive {archive.get('name')} ({archive.get('digest')}): '{paper.name}' "
                "has another digest",
            )
    else:
        root = paper_folder(paper, recorded[0]["name"])
        for item in (*recorded, *run.manifest["bibliography"]["files"]):
            path = root / item["name"]
            if not path.is_file() or file_digest(path) != item["digest"]:
                said = "is missing" if not path.is_file() else "has another digest"
                raise CgxError(
                    Code.SOURCE_MISMATCH,
                    f"pass --source with the paper the run read ({recorded[0]['name']}, {recorded[0]['digest']}): "
                    f"its file {item['name']} ({item['digest']}) {said} beside '{paper.name}'",
                )
    lookup = source_lookup(run, sources)
    cited = {item.get("digest") for item in run.manifest.get("cited", [])}
    missing = sorted({digest for digest in _read_digests(entries) if digest not in cited and lookup(digest) is None})
    if missing:
        where = "in the folder given" if sources is not None else "in the run's sources/"
        raise CgxError(
            Code.SOURCE_NEEDED,
            f"pass --sources DIR holding the bytes of {len(missing)} fetched sources the run did not store, each in "
            f"a file named by the hex of its digest ({', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}): "
            f"they are not {where}",
        )


def _read_digests(entries: tuple[log.Entry, ...]) -> set[str]:
    """The digest of every stored source a logged call read: each `bytes_digest` its `read` records (a
    citation check's reading or fetch, a reference check's requests), which replay reads again by digest."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "bytes_digest" and isinstance(item, str):
                    found.add(item)
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for entry in entries:
        walk(entry.line.read)
    return found


def reingest(run: Run, source: Path | None) -> bytes:
    """The ingested graph's bytes, rebuilt from the document (checked file by file against the manifest
    before, by `preflight`, and after), read through the paper's boundary and within the run's ingestion
    budget as start_run read it."""
    paper = _document_path(run, source)
    recorded = run.manifest["document"]["files"]
    bibliography = run.manifest["bibliography"]["files"]
    archive = run.manifest["document"].get("archive") if is_archive(paper) else None
    root = None if archive is not None else _root_of(paper, recorded[0]["name"])
    request = IngestRequest(
        paper=str(paper),
        root=str(root) if root is not None else None,
        rubric=run.paths.rubric.read_bytes(),
        rubric_name=run.manifest["rubric"]["name"],
        bibliography_names=tuple(item["name"] for item in bibliography),
        main=archive["main"] if archive is not None else None,
        accept_incomplete=True,  # start_run read it whole, or was told to proceed: the graph's bytes tell
    )
    ingested = ingest_bounded(request, _recorded_budget(run).scaled(REPLAY_BUDGET_FACTOR))
    found = [item.to_json() for item in ingested.files]
    if found != recorded:
        differing = [item["name"] for item in recorded if item not in found] or [
            item["name"] for item in found if item not in recorded
        ]
        raise CgxError(
            Code.SOURCE_MISMATCH,
            f"the document's files are not those the run recorded: {differing} differ or are missing",
        )
    if [item.to_json() for item in ingested.bibliographies] != bibliography:
        raise CgxError(Code.SOURCE_MISMATCH, "the bibliography read again differs from the one the run recorded")
    return ingested.graph


def _root_of(paper: Path, main_name: str) -> Path | None:
    """The root a run's paper was read under, found from the main file's recorded name (relative to the
    root): `journal/article.tex` read from `.../x/journal/article.tex` had the root `.../x`."""
    depth = len(PurePosixPath(main_name).parts) - 1
    if depth <= 0:
        return None
    folder = Path(os.path.abspath(paper)).parent
    return folder.parents[depth - 1] if depth <= len(folder.parents) else None


def paper_folder(paper: Path, main_name: str) -> Path:
    """The folder a replay given `paper` reads the paper's files from: its recorded root, else the paper's own
    folder (the report keys a kept replay by the digest of everything in it)."""
    return _root_of(paper, main_name) or paper.parent


def _recorded_budget(run: Run) -> Budget:
    recorded = run.manifest.get("limits", {}).get("ingest", {})
    default = default_budget()
    cpu, memory = recorded.get("cpu_seconds"), recorded.get("memory_bytes")
    return Budget(
        cpu if isinstance(cpu, int) and 0 < cpu <= default.cpu_seconds else default.cpu_seconds,
        memory if isinstance(memory, int) and 0 < memory <= default.memory_bytes else default.memory_bytes,
    )


def source_lookup(run: Run, sources: Path | None) -> Callable[[str], bytes | None]:
    """Stored bytes by digest: the run's sources/, then --sources DIR (files named by the digest's hex)."""
    return stored_sources(run.paths.sources, *([sources] if sources is not None else []))


def replay(root: Path, *, source: Path | None, sources: Path | None) -> ReplayReport:
    """Rebuild the run at `root` and compare it with what it recorded."""
    from credencegraph.core import loads

    from cgx_core.tooling.registry import handler_for

    run = Run(root, handler_for)
    found = log.scan(run.paths.log, 0, 1, None)
    # Before anything is rebuilt: the files against their digests, the manifest against start_run's line.
    tampered = digest_problems(run.paths, run.manifest) + start_problems(run.paths, run.manifest, found.entries)
    tampered += manifest_problems(run.paths, run.manifest)
    if tampered:
        raise CgxError(Code.TAMPERED, "; ".join(tampered))
    if not found.entries or found.entries[0].line.tool != "start_run":
        raise CgxError(Code.NOT_A_RUN, f"'{root.name}' has no committed start_run: there is no run to replay")
    preflight(run, found.entries, source, sources)
    # The paper is read again in the budgeted child while this thread applies the logged calls to the graph
    # the run stored (ingested.json, whose bytes have the manifest's digest). The outcome is the one the calls
    # give only when the reading gives the same bytes: then the stored graph is the re-ingested one. Otherwise
    # the reading's refusal, or the ingest's divergence, is the answer, as when the calls waited for it.
    reading = Background(lambda: reingest(run, source), "cgx-replay-reading")
    stored = _stored_ingested(run)
    if stored is None:  # ingested.json changed since its digest was checked: apply to the graph read again
        stored = reading.result()
    try:
        rebuilt: _Rebuilt | ReplayReport | Exception = _apply_calls(run, loads(stored.decode("utf-8")), found, sources)
    except Exception as error:  # raised only once the reading has answered: its refusal comes first
        rebuilt = error
    if bytes_digest(reading.result()) != run.manifest["ingested"]:
        if recorded_readers(run.manifest) != READERS_VERSION:
            raise CgxError(
                Code.READER_CHANGED,
                f"the run was read by version {recorded_readers(run.manifest)} of credencegraph-extract's paper "
                f"readers, and this package's version {READERS_VERSION} reads its paper differently: replay it "
                "with the version that made it, or start a new run of the paper",
            )
        return ReplayReport(
            False,
            {"diverged": "ingest", "how": "the re-ingested graph differs from the one the run started from"},
        )
    if isinstance(rebuilt, Exception):
        raise rebuilt
    if isinstance(rebuilt, ReplayReport):
        return rebuilt
    state, last = rebuilt
    # Every call rebuilt as recorded: now the log against the anchor its finish left in the manifest (a last
    # line edited or deleted, a chain recomputed after an edit, can leave each call rebuilding as recorded).
    _, tampered = log_problems(run.paths, run.manifest, found)
    if not state.finished:
        tampered += unfinished_problems(run.paths, run.manifest, _checks_of(state.graph))
    if tampered:
        raise CgxError(Code.TAMPERED, "; ".join(tampered))
    body: dict[str, Any] = {"run": run.id, "calls": state.seq, "graph": run.graph_digest(state.graph)}
    note = unanchored_note(run.paths)
    if note is not None:
        body["notes"] = [note]
    if found.tail is not None:
        body["uncommitted_tail"] = found.tail.to_json()
    # state.json is derived, and its layout may change between versions: compare it as JSON, when it reflects
    # the same call (it may lag after a crash, and the next call completes it).
    try:
        stored = json.loads(run.paths.state.read_bytes())
    except (OSError, ValueError):
        stored = None
    stored_seq = stored.get("seq") if isinstance(stored, dict) else None
    if isinstance(stored_seq, int) and stored_seq > state.seq:
        how = (
            f"state.json reflects call {stored_seq}, but the log ends at call {state.seq}: lines were deleted from "
            "the log (or the file system lost them)"
        )
        return ReplayReport(False, {**body, "diverged": "state", "how": how})
    if stored_seq == state.seq and stored != json.loads(state_bytes(state, run.digester)):
        return ReplayReport(False, {**body, "diverged": "state", "how": "state.json differs from the rebuilt state"})
    if state.finished and last is not None:
        for name, data in sorted(last.items()):
            path = run.paths.root / name
            if not path.is_file() or path.read_bytes() != data:
                return ReplayReport(False, {**body, "diverged": name, "how": f"{name} differs from the rebuilt one"})
        body["graph_json"] = bytes_digest(last["graph.json"])
    return ReplayReport(True, {**body, "identical": True})


_Rebuilt = tuple[RunState, dict[str, bytes] | None]
"""The state after the last call, and the finished files as the calls left them (None when unfinished)."""


def _checks_of(graph: Graph) -> set[str]:
    """The ids of the graph's check nodes."""
    from cgx_core.graph.evidence import check_record

    return {node.id for node in graph if check_record(node.attributes) is not None}


def _stored_ingested(run: Run) -> bytes | None:
    """ingested.json's bytes when they have the digest the manifest records, else None."""
    try:
        data = run.paths.ingested.read_bytes()
    except OSError:
        return None
    return data if bytes_digest(data) == run.manifest["ingested"] else None


def _apply_calls(run: Run, graph: Graph, found: log.Scan, sources: Path | None) -> _Rebuilt | ReplayReport:
    """Every logged call applied again, in `replay` mode, from the ingested graph: the state after the last
    call and its effect, or the report of the first call whose result or graph differs from its log line."""
    from cgx_core.tooling.registry import handler_for

    lookup = source_lookup(run, sources)
    state = RunState(run.id, 0, 0, None, graph, (), False)
    derived: dict[str, bytes] | None = None
    for entry in found.entries:
        line = entry.line
        context = CallContext(run, line.seq, "replay", line.model, line, sources=lookup)
        try:
            effect = handler_for(line.tool)(context, state, line.args)
        except CgxError as error:
            if error.code in (Code.SOURCE_MISMATCH, Code.SOURCE_NEEDED, Code.TAMPERED):
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
        # A call that left a finished run finished rewrites only the files it derives (rejections.json).
        kept = derived if derived is not None and state.finished else {}
        derived = {**kept, **effect.derived} if effect.finished else None
        state = state.advance(effect, tool=line.tool, end=entry.end, digest=entry.digest)
    return state, derived
