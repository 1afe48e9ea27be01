"""start_run: ingest a paper into a new run.

Everything is read and checked before anything is written: a bad paper, rubric, bibliography or cited
copy leaves no run directory behind. Then the run's files are written, and the call is committed as the
log's first line; a failure before that commit removes the directory this call created.
"""

from __future__ import annotations

import secrets
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cgx_core.base.digests import bytes_digest, hex_of
from cgx_core.base.limits import MAX_RUBRIC_BYTES
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.ingest.archive import is_archive
from cgx_core.ingest.cited import CitedCopy, read_cited
from cgx_core.ingest.offline_sources import OfflineSource, read_offline_sources
from cgx_core.ingest.paper import Ingested, IngestRequest
from cgx_core.ingest.paper_root import PaperRoot
from cgx_core.ingest.readers import READERS_VERSION
from cgx_core.ingest.worker import default_budget, ingest_bounded
from cgx_core.numbers.tolerances import read_run_tolerances, table_for_rubric
from cgx_core.run.atomic import write_atomic
from cgx_core.run.call_control import progress
from cgx_core.run.layout import RUN_FORMAT, RUN_VERSION, RunPaths
from cgx_core.run.manifest import write_manifest
from cgx_core.run.state import Effect, RunState
from cgx_core.run.transaction import Call, CallContext, Run
from cgx_core.tooling.fence import fence_token
from cgx_core.tooling.start_summary import shown_result, summary

if TYPE_CHECKING:
    from credencegraph.core import Graph
    from credencegraph.rubric import Rubric

TOOL = "start_run"


def _read_limited(path: Path, limit: int, code: Code, what: str) -> bytes:
    if not path.is_file():
        missing = Code.RUBRIC_NOT_FOUND if code is Code.RUBRIC_INVALID else code
        shipped = (
            "; pass the path of a rubric file (`credencegraph-extract rubrics` lists the ones this package ships, "
            "and `credencegraph-extract rubrics paper --copy paper.toml` copies the one for real papers)"
            if missing is Code.RUBRIC_NOT_FOUND
            else ""
        )
        raise CgxError(missing, f"the {what} '{path.name}' does not exist or is not a file{shipped}")
    if path.stat().st_size > limit:
        raise CgxError(code, f"the {what} '{path.name}' is larger than {limit} bytes")
    return path.read_bytes()


def _admitted_folder(args: Mapping[str, Any], name: str, what: str) -> Path:
    """The folder argument `name` (cited, sources), once the paper's boundary admits it: under the paper's root,
    links followed, through no hidden folder (the readers refuse links inside it)."""
    folder = Path(args[name])
    root = Path(args["root"]) if "root" in args else None
    PaperRoot.for_paper(Path(args["paper"]), root).name_of(folder, what=f"the {what} folder '{folder.name}'")
    return folder


def _cited_copies(args: Mapping[str, Any], ingested: Ingested) -> list[CitedCopy]:
    if "cited" not in args:
        return []
    return read_cited(_admitted_folder(args, "cited", "cited works"), set(ingested.reference_keys))


def _check_archive_arguments(args: Mapping[str, Any], paper: Path) -> None:
    """`main` names a file inside an archive of sources; `root` and `bibliography` name folders and files
    beside a paper, which an archive's paper has none of (its root is the archive)."""
    archive = is_archive(paper)
    if "main" in args and not archive:
        raise CgxError(
            Code.INVALID_ARGUMENTS,
            f"start_run: main names the main file inside an archive of sources, and '{paper.name}' is not one "
            "(.tar.gz, .tgz, .tar, .zip or .gz): leave main out",
        )
    for name in ("root", "bibliography"):
        if archive and name in args:
            raise CgxError(
                Code.INVALID_ARGUMENTS,
                f"start_run: {name} does not apply to an archive of sources, whose root is the archive itself: "
                f"leave {name} out (a .bib the paper names inside the archive is read)",
            )


def _document_record(ingested: Ingested) -> dict[str, Any]:
    """The document as the manifest, the log and the result name it: its format, its files by name and
    digest, and what it names that the reader does not follow (only when there is such a thing)."""
    record: dict[str, Any] = {"format": ingested.format, "files": [item.to_json() for item in ingested.files]}
    if ingested.archive is not None:
        record["archive"] = ingested.archive
    if ingested.limits is not None:
        record["limits"] = ingested.limits
    if ingested.not_followed:
        record["not_followed"] = {
            "macros": list(ingested.not_followed),
            "message": (
                "these files are not read: a \\subfile, an import naming no file of the paper under the root, "
                "and a file a class or package inputs that is missing or outside the root. Their prose is not "
                "in the run's chunks, so it cannot be classified or checked. Tell the person you work for; a "
                "copy of the paper with each \\subfile replaced by \\input{dir/file} (and a missing file put "
                "beside the main file, or a wider root given) is read whole"
            ),
        }
    return record


def _offline_manifest(offline: tuple[list[OfflineSource], int] | None) -> dict[str, Any]:
    """The manifest's record of the offline sources, only when start_run was given a folder."""
    if offline is None:
        return {}
    return {"offline_sources": {"sources": [source.to_json() for source in offline[0]], "ignored": offline[1]}}


def execute(args: Mapping[str, Any], *, wait: float) -> dict[str, Any]:
    """Create the run, or refuse with nothing written."""

    from cgx_core.checks.installed import distribution_version, installed_check_types
    from cgx_core.graph.rubric import load_rubric_bytes
    from cgx_core.tooling.registry import handler_for

    root = Path(args["run"])
    if root.exists() or root.is_symlink():
        raise CgxError(
            Code.RUN_EXISTS, f"'{root.name}' already exists: give start_run a new directory, or continue that run"
        )
    rubric_path = Path(args["rubric"])
    rubric_data = _read_limited(rubric_path, MAX_RUBRIC_BYTES, Code.RUBRIC_INVALID, "rubric")
    rubric = load_rubric_bytes(rubric_data, rubric_path.name)  # refused here, before the paper is read
    tolerances_name, tolerances_data, _ = table_for_rubric(rubric_path, rubric.identity())
    paper = Path(args["paper"])
    _check_archive_arguments(args, paper)
    if not is_archive(paper):
        # The root refused here, before the paper is read: no folder a paper could reach private files from.
        PaperRoot.for_paper(paper, Path(args["root"]) if "root" in args else None)
    progress(0, 3, "reading the paper")
    budget = default_budget()
    request = IngestRequest(
        paper=str(paper),
        root=args.get("root"),
        rubric=rubric_data,
        rubric_name=rubric_path.name,
        bibliography=args.get("bibliography"),
        main=args.get("main"),
        accept_incomplete=bool(args.get("accept_incomplete", False)),
    )
    ingested = ingest_bounded(request, budget)  # the .bib hint too: it reads and parses files beside the paper
    progress(1, 3, "ingesting the paper")
    cited = _cited_copies(args, ingested)
    offline: tuple[list[OfflineSource], int] | None = None
    if "sources" in args:
        folder = _admitted_folder(args, "sources", "offline sources")
        offline = read_offline_sources(folder, list(ingested.reference_identifiers))
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
            for item in (*ingested.files, *ingested.bibliographies):
                target = paths.source / item.name
                target.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(target, item.data)
        write_atomic(paths.ingested, ingested.graph)
        registry = installed_check_types()
        manifest: dict[str, Any] = {
            "format": RUN_FORMAT,
            "version": RUN_VERSION,
            "run": secrets.token_hex(8),
            "document": _document_record(ingested),
            "rubric": {"name": rubric_path.name, "digest": bytes_digest(rubric_data), **rubric.identity()},
            "tolerances": {"name": tolerances_name, "digest": bytes_digest(tolerances_data)},
            "bibliography": ingested.bibliography,
            "cited": [copy.to_json() for copy in cited],
            **_offline_manifest(offline),
            "ingested": bytes_digest(ingested.graph),
            "limits": {"ingest": budget.to_json()},
            "store_source": store,
            "versions": {
                "credencegraph-extract": distribution_version("credencegraph-extract"),
                "credencegraph": distribution_version("credencegraph"),
                "python": ".".join(str(part) for part in sys.version_info[:3]),
                "readers": READERS_VERSION,
                "check_types": {item.check_type.name: item.to_json() for item in registry},
            },
        }
        write_manifest(paths, manifest)
        run = Run(root, handler_for, creating=True)
        logged = {
            "paper": manifest["document"],
            "rubric": {"name": rubric_path.name, "digest": manifest["rubric"]["digest"]},
            "bibliography": ingested.bibliography["files"],
            "cited": manifest["cited"],
            **_offline_manifest(offline),
            "store_source": store,
            # What the manifest holds besides digests, anchored in the log so an edit of it is seen (integrity).
            "tolerances": manifest["tolerances"],
            "limits": manifest["limits"],
            "versions": manifest["versions"],
        }
        call = Call(TOOL, logged, args["model"], args.get("agent"), args.get("note"))
        response = run.change(call, lambda context, state: apply(context, state, logged), wait=wait)
        return shown_result(response.to_json(), manifest)  # shown, not digested: see start_summary
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise


def initial_graph(graph: Graph, rubric: Rubric, run_id: str) -> Graph:
    """The ingested graph as the run starts: initial types given their base (credencegraph's `initial`
    sets the type but not the base), and every node marked as made by this run's start_run."""
    from credencegraph.rubric import annotate_node

    from cgx_core.graph.edit import replace_nodes
    from cgx_core.graph.extraction import stamped_node

    initial_types = set(rubric.initial.values())
    for node in list(graph):
        if node.kind in initial_types and rubric.types[node.kind].base is not None:
            graph = annotate_node(graph, rubric, node.id, node_type=node.kind)
    return replace_nodes(graph, {node.id: stamped_node(node, run_id, TOOL) for node in graph})


def apply(context: CallContext, state: RunState, args: Mapping[str, Any]) -> Effect:
    """Call 1 of every run: from the ingested graph to the run's first state, and the start_run result (a
    summary that fits an agent's context: see `cgx_core.tooling.start_summary`)."""
    run = context.run
    graph = initial_graph(state.graph, run.rubric, run.id)
    result = summary(graph, run.rubric, run.id, fence_token(run.id, context.seq), run.manifest)
    counts = read_run_tolerances(run.paths.root, run.manifest.get("tolerances")).counts
    if counts:  # only a run that declares counting units says so: every other start_run result is unchanged
        result = {**result, "count_units": count_units_view(counts)}
    return Effect(graph=graph, result=result)


def count_units_view(counts: Mapping[str, str]) -> list[list[str]]:
    """The rubric's counting units as the agent writes them: each count's spellings, its name first, so that
    the agent knows "120 C" is a count in this run (and would be only the number 120 in another)."""
    spellings: dict[str, list[str]] = {}
    for spelling, name in counts.items():
        spellings.setdefault(name, []).append(spelling)
    return [sorted(names, key=lambda spelling: spelling != name) for name, names in sorted(spellings.items())]
