"""The report's model: everything a person reads about a finished run, gathered once for every rendering.

It is read from the run's own files (manifest, log, graph.json, report.json, the check folders and the
rubric), each checked against the digest the manifest recorded, so the report shows what the run proves
and nothing a later edit slipped in. Nothing here writes into the run.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from cgx_core.base.digests import bytes_digest
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.graph.analyst import READING_OF
from cgx_core.graph.evidence import check_record
from cgx_core.graph.review_queue import REVIEW_TOOL, awaiting_review, is_review
from cgx_core.report.coverage import Coverage, coverage, strings_in
from cgx_core.report.credences import Credence, Missing, read_credences
from cgx_core.report.integrity import Integrity
from cgx_core.report.limits import limit_lines, unread_share
from cgx_core.report.review_commands import audit_commands, run_path
from cgx_core.run.layout import RunPaths
from cgx_core.run.manifest import read_manifest

if TYPE_CHECKING:
    from credencegraph.core import Node
    from credencegraph.rubric import Rubric

VERDICTS = ("holds", "fails", "undetermined", "not_assessed")


@attrs.frozen
class Review:
    """A person's verdict, as the review check recorded it."""

    reviewer: str
    entered_by: str
    verdict: str
    reason: str
    check: str | None
    agrees: bool | None
    model: str | None


@attrs.frozen
class CheckEntry:
    """One check: its record, and what its files say (output.json's `output`)."""

    id: str
    type: str
    target: str
    result: str
    detail: str
    inputs: Mapping[str, Any]
    output: Mapping[str, Any]
    model: str | None
    review: Review | None
    names: tuple[str, ...] = ()
    """The other nodes its inputs name (the chunks a number was read from, the equations of a step)."""

    @property
    def passages(self) -> list[tuple[str, str]]:
        """The passages of the paper it compared, by node (`output.passages`, as internal-consistency records
        them), which the report shows side by side."""
        raw = self.output.get("passages")
        if not isinstance(raw, list):
            return []
        return [(str(item["node"]), str(item["text"])) for item in raw if isinstance(item, Mapping) and "node" in item]


@attrs.frozen
class NodeEntry:
    """One node as the report shows it. `verdict` is None for a node whose type is not assessed."""

    id: str
    kind: str
    origin: str
    unit: str | None
    locator: str | None
    text: str
    parent: str | None
    verdict: str | None
    reason: str | None
    credence: Credence | None
    checks: tuple[str, ...]
    rests_on: tuple[str, ...]
    premise_of: tuple[str, ...]
    cites: tuple[str, ...]

    @property
    def assumption(self) -> bool:
        return self.kind == "assumption"


@attrs.frozen
class Assumption:
    """An assumption the agent added, the conclusions it is a premise of (a premised check's target, not the
    reading the check observes), and every assessed node that rests on it through them."""

    node: NodeEntry
    conclusions: tuple[str, ...]
    downstream: tuple[str, ...]


@attrs.frozen
class Identity:
    """What the run is: its id, the paper's and the rubric's digests, the versions and the models."""

    run: str
    directory: str
    document_format: str
    paper: tuple[tuple[str, str], ...]
    bibliography: tuple[tuple[str, str], ...]
    cited: tuple[tuple[str, str], ...]
    rubric_name: str
    rubric_version: str
    rubric_digest: str
    calibration: str
    versions: tuple[tuple[str, str], ...]
    check_types: tuple[tuple[str, str, str], ...]
    models: tuple[tuple[str, int], ...]
    agents: tuple[str, ...]
    calls: int
    graph: str
    stored_source: bool
    commands: tuple[str, str] = ("", "")
    """The shell-quoted `replay` and `verify` commands of the run, by its absolute path."""


@attrs.frozen
class RunReport:
    identity: Identity
    integrity: Integrity
    verdicts: Mapping[str, int]
    nodes: tuple[NodeEntry, ...]
    checks: Mapping[str, CheckEntry]
    assumptions: tuple[Assumption, ...]
    untied: tuple[Mapping[str, Any], ...]
    uncalibrated: tuple[Mapping[str, Any], ...]
    disagree: tuple[Mapping[str, Any], ...]
    coverage: Coverage
    awaiting: tuple[Mapping[str, Any], ...]
    review_type: str | None
    review_targets: tuple[str, ...]
    credence_failures: Mapping[str, Missing]
    credence_method: str
    moved_by_note: str | None
    refused_records: int
    untyped: int
    limits_message: str | None
    document_limits: tuple[tuple[str, str], ...]
    unread: str | None = None
    """The share of a LaTeX paper's body in no chunk, when start_run was told to proceed (else None)."""

    @property
    def limits_title(self) -> str:
        """The heading of the document limits: a PDF's, or a LaTeX body read short."""
        return "What this PDF run could not read" if self.unread is None else "What this run could not read"

    @property
    def none_failed(self) -> str:
        """What "no check failed" means here: of the paper, or only of the part of it that was read."""
        if self.unread is None:
            return "No check failed."
        return (
            f"No check failed of the part that was read: {self.unread} of the paper's body is in no chunk, and no "
            "check looked at it (see what this run could not read)."
        )

    @property
    def document_nodes(self) -> tuple[NodeEntry, ...]:
        return tuple(node for node in self.nodes if node.origin == "document")

    @property
    def assessed(self) -> tuple[NodeEntry, ...]:
        return tuple(node for node in self.nodes if node.verdict is not None)

    @property
    def failed_checks(self) -> tuple[CheckEntry, ...]:
        return tuple(check for check in self.checks.values() if check.result == "failed" and check.review is None)

    @property
    def reviews(self) -> tuple[CheckEntry, ...]:
        return tuple(check for check in self.checks.values() if check.review is not None)

    def node(self, node_id: str) -> NodeEntry | None:
        return next((node for node in self.nodes if node.id == node_id), None)


def _read_finished(paths: RunPaths, manifest: Mapping[str, Any]) -> tuple[bytes, bytes]:
    finished = manifest.get("finished")
    name = paths.root.name
    if not finished or not paths.graph.is_file():
        raise CgxError(
            Code.NOT_FINISHED,
            f"'{name}' is not finished: call finish_run first (a changing call after it, such as a review, "
            "reopens the run)",
        )
    graph_bytes, report_bytes = paths.graph.read_bytes(), paths.report.read_bytes()
    for file_name, data in (("graph.json", graph_bytes), ("report.json", report_bytes)):
        if bytes_digest(data) != finished["files"].get(file_name):
            raise CgxError(Code.TAMPERED, f"'{name}/{file_name}' differs from the digest in its manifest")
    if bytes_digest(paths.rubric.read_bytes()) != manifest["rubric"]["digest"]:
        raise CgxError(Code.TAMPERED, f"'{name}/rubric.toml' differs from the digest in its manifest")
    return graph_bytes, report_bytes


def _calls(paths: RunPaths) -> tuple[int, tuple[tuple[str, int], ...], tuple[str, ...]]:
    from cgx_core.run import log

    found = log.scan(paths.log, 0, 1, None)
    models: dict[str, int] = {}
    agents: list[str] = []
    for entry in found.entries:
        models[entry.line.model] = models.get(entry.line.model, 0) + 1
        if entry.line.agent is not None and entry.line.agent not in agents:
            agents.append(entry.line.agent)
    return len(found.entries), tuple(models.items()), tuple(agents)


def _pairs(items: Sequence[Mapping[str, Any]], key: str = "name") -> tuple[tuple[str, str], ...]:
    return tuple((str(item[key]), str(item["digest"])) for item in items)


def _identity(
    paths: RunPaths, manifest: Mapping[str, Any], rubric: Rubric, graph_digest: str, source: Path | None
) -> Identity:
    calls, models, agents = _calls(paths)
    versions = manifest.get("versions", {})
    check_types = tuple(
        (name, str(item.get("distribution")), str(item.get("version")))
        for name, item in sorted(versions.get("check_types", {}).items())
        if name in rubric.checks
    )
    calibration = rubric.calibration.status if rubric.calibration is not None else "not stated"
    return Identity(
        run=manifest["run"],
        directory=run_path(paths.root),
        document_format=str(manifest["document"].get("format")),
        paper=_pairs(manifest["document"]["files"]),
        bibliography=_pairs(manifest.get("bibliography", {}).get("files", [])),
        cited=_pairs(manifest.get("cited", [])),
        rubric_name=rubric.name,
        rubric_version=rubric.version,
        rubric_digest=manifest["rubric"]["digest"],
        calibration=calibration,
        versions=tuple(
            (name, str(versions.get(name))) for name in ("credencegraph-extract", "credencegraph", "python")
        ),
        check_types=check_types,
        models=models,
        agents=agents,
        calls=calls,
        graph=graph_digest,
        stored_source=bool(manifest.get("store_source")),
        commands=audit_commands(
            run_path(paths.root),
            (manifest["document"].get("archive") or manifest["document"]["files"][0])["name"],
            stored=bool(manifest.get("store_source")),
            source=source,
        ),
    )


def _review_of(record: Mapping[str, Any], output: Mapping[str, Any]) -> Review:
    inputs = record.get("inputs", {})
    reviewed = inputs.get("check")
    agreement = output.get("agrees_with_check")
    return Review(
        reviewer=str(inputs.get("reviewer", "")),
        entered_by=str(inputs.get("entered_by", "")),
        verdict=str(inputs.get("verdict", "")),
        reason=str(inputs.get("reason", "")),
        check=str(reviewed["id"]) if isinstance(reviewed, Mapping) else None,
        agrees=agreement if isinstance(agreement, bool) else None,
        model=str(inputs["model"]) if isinstance(inputs.get("model"), str) else None,
    )


def _check_output(paths: RunPaths, check_id: str) -> Mapping[str, Any]:
    """output.json's `output` (the expression's value, the point where two sides differ, where a passage is);
    empty when the file cannot be read (verify reports that)."""
    try:
        stored = json.loads((paths.checks / check_id / "output.json").read_bytes())
    except (OSError, ValueError):
        return {}
    output = stored.get("output") if isinstance(stored, dict) else None
    return output if isinstance(output, dict) else {}


def _checks(paths: RunPaths, graph_json: Mapping[str, Any]) -> dict[str, CheckEntry]:
    """Every check, in the order they ran, from graph.json as plain JSON (credencegraph's attributes are
    frozen mappings, which the renderings would have to thaw)."""
    found: dict[str, CheckEntry] = {}
    ids = {node["id"] for node in graph_json["nodes"]}
    for node in graph_json["nodes"]:
        record = check_record(node["attributes"])
        if record is None:
            continue
        output = _check_output(paths, node["id"])
        inputs = record.get("inputs")
        found[node["id"]] = CheckEntry(
            id=node["id"],
            type=node["kind"],
            target=str(record.get("target")),
            result=str(record.get("result")),
            detail=str(record.get("detail", "")),
            inputs=inputs if isinstance(inputs, dict) else {},
            output=output,
            model=record.get("model"),
            review=_review_of(record, output) if is_review(node) else None,
            names=tuple(
                dict.fromkeys(text for text in strings_in(inputs) if text in ids and text != record.get("target"))
            ),
        )
    return found


def _reason(assessment: Any) -> str | None:
    return str(assessment["reason"]) if isinstance(assessment, Mapping) and "reason" in assessment else None


def _locator(node: Node) -> str | None:
    return node.sources[0].locator if node.sources else None


def _downstream(start: str, children: Mapping[str, list[str]]) -> list[str]:
    seen: list[str] = []
    pending = list(children.get(start, []))
    while pending:
        current = pending.pop(0)
        if current in seen:
            continue
        seen.append(current)
        pending.extend(children.get(current, []))
    return seen


def _refused_records(paths: RunPaths, summary: Mapping[str, Any]) -> int:
    """Every record refused so far: rejections.json's, which a refused call made after the finish adds to
    (report.json counts those of the finish)."""
    try:
        return len(json.loads(paths.rejections.read_bytes())["rejections"])
    except (OSError, ValueError, KeyError, TypeError):
        return int(summary.get("refused_records", 0))


def build_report(root: Path, integrity: Integrity, *, source: Path | None = None) -> RunReport:
    """The report of the finished run at `root` (`source`: the paper replay was given, for its command)."""
    from credencegraph.core import loads

    from cgx_core.checks.installed import installed_check_types
    from cgx_core.graph.rubric import load_rubric_bytes

    paths = RunPaths(root)
    manifest = read_manifest(paths)
    graph_bytes, report_bytes = _read_finished(paths, manifest)
    graph = loads(graph_bytes.decode("utf-8"))
    graph_json = json.loads(graph_bytes)
    summary = json.loads(report_bytes)
    rubric = load_rubric_bytes(paths.rubric.read_bytes(), "rubric.toml")

    relations = list(graph.relations.values())
    parent = {relation.source: relation.target for relation in relations if relation.type == "part-of"}
    outgoing: dict[str, dict[str, list[str]]] = {}
    incoming: dict[str, dict[str, list[str]]] = {}
    for relation in relations:
        outgoing.setdefault(relation.source, {}).setdefault(relation.type, []).append(relation.target)
        incoming.setdefault(relation.target, {}).setdefault(relation.type, []).append(relation.source)

    shown = [node for node in graph if node.attributes.get("origin") in ("document", "analyst")]
    found = read_credences(summary, graph)
    nodes = []
    for node in shown:
        assessment = node.attributes.get("assessment")
        links_out, links_in = outgoing.get(node.id, {}), incoming.get(node.id, {})
        nodes.append(
            NodeEntry(
                id=node.id,
                kind=node.kind,
                origin=str(node.attributes.get("origin")),
                unit=node.attributes.get("unit"),
                locator=_locator(node),
                text=node.statement or "",
                parent=parent.get(node.id),
                verdict=str(assessment["verdict"]) if isinstance(assessment, Mapping) else None,
                reason=_reason(assessment),
                credence=found.by_node.get(node.id),
                checks=(*links_out.get("observes", []), *links_in.get("assesses", [])),
                rests_on=tuple(links_in.get("requires", [])),
                premise_of=tuple(links_out.get("requires", [])),
                cites=tuple(links_out.get("cites", [])),
            )
        )
    by_id = {node.id: node for node in nodes}
    children = {node.id: list(node.premise_of) for node in nodes}
    read = {node.id: str(node.attributes[READING_OF]) for node in shown if READING_OF in node.attributes}
    assumptions = tuple(
        Assumption(
            node,
            tuple(dict.fromkeys(read.get(conclusion, conclusion) for conclusion in node.premise_of)),
            tuple(item for item in _downstream(node.id, children) if by_id[item].verdict is not None),
        )
        for node in nodes
        if node.origin == "analyst" and node.assumption
    )
    registry = installed_check_types()
    review_types = [
        name
        for name in rubric.checks
        if (installed := registry.get(name)) is not None and installed.check_type.tool == REVIEW_TOOL
    ]
    review_type = review_types[0] if review_types else None
    models_of = {name: list(declared.models) for name, declared in rubric.checks.items()}
    verdicts = {verdict: 0 for verdict in VERDICTS}
    for node in nodes:
        if node.verdict is not None:
            verdicts[node.verdict] = verdicts.get(node.verdict, 0) + 1
    return RunReport(
        identity=_identity(paths, manifest, rubric, bytes_digest(graph_bytes), source),
        integrity=integrity,
        verdicts=verdicts,
        nodes=tuple(nodes),
        checks=_checks(paths, graph_json),
        assumptions=assumptions,
        untied=tuple(summary.get("untied_citation_checks", [])),
        uncalibrated=tuple(summary.get("uncalibrated", [])),
        disagree=tuple(summary.get("review", {}).get("checks_disagree", [])),
        coverage=coverage(graph),
        awaiting=tuple(awaiting_review(graph_json["nodes"], graph_json["relations"], models_of)),
        review_type=review_type,
        review_targets=tuple(rubric.checks[review_type].targets) if review_type else (),
        credence_failures=found.missing,
        credence_method=found.method,
        moved_by_note=found.moved_by_note,
        refused_records=_refused_records(paths, summary),
        untyped=len(summary.get("coverage", {}).get("untyped", [])),
        limits_message=summary.get("document_limits", {}).get("message"),
        document_limits=limit_lines(summary.get("document_limits", {})),
        unread=unread_share(summary.get("document_limits", {})),
    )
