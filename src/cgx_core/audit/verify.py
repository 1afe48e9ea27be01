"""Verify: re-run every deterministic check of finished runs from the inputs their records hold, with the
code installed now, and report every field the re-run does not reproduce.

It needs neither the document nor the network. A run whose files are not what it recorded is refused before
anything is re-run (`integrity.check_run`: the whole hash chain of the log, the anchor of the log the
manifest kept at finish_run, every digest the manifest holds); graph.json is compared with the graph digest
the log's finish recorded; a check record edited after the run is caught by comparing it with the
inputs.json and output.json its check wrote, and those files with the digest the record holds.
Citation-support checks rest on an agent's judgement and are not re-run, but their records and files are
compared all the same. A check that read something from outside and can decide again from it
(reference-resolves, from the metadata responses the run keeps in sources/) gets what it read back: its
recorded read (output.json) and the run's stored bytes, never the network.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs

from cgx_core.audit.integrity import check_run, graph_problem, unanchored_note
from cgx_core.base.digests import bytes_digest, hex_of
from cgx_core.checks.api import Outcome
from cgx_core.checks.engine import check_files, files_digest, outcome_from_files, recorded_code, recorded_detail
from cgx_core.checks.guard import GuardedCheckType, PluginFailed
from cgx_core.checks.installed import installed_check_types
from cgx_core.checks.view import JsonRunView
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.graph.evidence import check_record
from cgx_core.numbers.tolerances import run_tolerances
from cgx_core.run.call_control import progress
from cgx_core.run.layout import RunPaths
from cgx_core.run.manifest import read_manifest


@attrs.frozen
class RunVerdict:
    """What verify found in one run: its identity, how many checks it re-ran, and each difference."""

    run: str
    path: str
    rubric: Mapping[str, str]
    checks: int
    rerun: int
    differences: tuple[str, ...]
    error: Mapping[str, str] | None = None
    notes: tuple[str, ...] = ()
    """What changed without being a difference (a check type re-run by another version of its plugin), or what
    this run cannot prove (made before its log recorded all its manifest holds)."""
    not_rerun: tuple[str, ...] = ()
    """Each check whose record and files were compared but which was not re-run, and why ("c-008
    citation-support: rests on a model's judgement ..."): `checks - rerun` named one by one."""

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self, recurse=True)


def _load(paths: RunPaths) -> tuple[dict[str, Any], dict[str, Any]]:
    manifest = read_manifest(paths)
    finished = manifest.get("finished")
    if not finished or not paths.graph.is_file():
        raise CgxError(
            Code.NOT_FINISHED,
            f"pass a finished run: call finish_run on '{paths.root.name}' first (it has no graph.json to verify)",
        )
    check_run(paths, manifest)
    try:
        graph: dict[str, Any] = json.loads(paths.graph.read_bytes())
        graph["nodes"], graph["relations"]
    except (ValueError, KeyError, TypeError) as error:
        raise CgxError(Code.TAMPERED, f"'{paths.root.name}/graph.json' is not a graph: {error}") from None
    return manifest, graph


def _compare_files(cid: str, record: Mapping[str, Any], folder: Path) -> tuple[list[str], Outcome | None]:
    """The record against the files its check wrote, and those files against the record's digest."""
    differences = []
    try:
        files = {name: (folder / name).read_bytes() for name in ("inputs.json", "output.json", "log.txt")}
    except OSError:
        return [f"{cid}: checks/{cid}/ is missing or incomplete"], None
    if files_digest(files) != record.get("log", {}).get("digest"):
        differences.append(f"{cid} files: checks/{cid}/ differs from the digest its record holds")
    try:
        inputs, outcome = outcome_from_files(files["inputs.json"], files["output.json"], files["log.txt"])
    except (ValueError, KeyError):
        return [*differences, f"{cid} files: checks/{cid}/ cannot be read"], None
    if inputs != record.get("inputs"):
        differences.append(f"{cid} inputs: the record differs from checks/{cid}/inputs.json")
    if outcome.result != record.get("result"):
        differences.append(f"{cid} result: the record says {record.get('result')}, output.json says {outcome.result}")
    if recorded_detail(outcome) != record.get("detail"):
        differences.append(f"{cid} detail: the record differs from checks/{cid}/output.json")
    if "code" in record and record["code"] != recorded_code(outcome):
        differences.append(f"{cid} code: the record says {record['code']!r}, output.json {recorded_code(outcome)!r}")
    return differences, outcome


def stored_sources(*folders: Path) -> Callable[[str], bytes | None]:
    """Stored bytes by digest, from the first of `folders` (a run's sources/, then replay's --sources DIR)
    that holds a file named by the digest's hex with exactly those bytes."""

    def lookup(digest: str) -> bytes | None:
        for folder in folders:
            try:
                data = (folder / hex_of(digest)).read_bytes()
            except OSError:
                continue
            if bytes_digest(data) == digest:
                return data
        return None

    return lookup


def verify_run(root: Path) -> RunVerdict:
    """Verify one run. Errors that refuse the run come back in `error`, not as exceptions."""
    paths = RunPaths(root)
    try:
        manifest, graph = _load(paths)
    except CgxError as error:
        return RunVerdict("", str(root), {}, 0, 0, (), {"code": str(error.code), "message": error.message})
    registry = installed_check_types()
    cited = {item["name"]: item["digest"] for item in manifest.get("cited", [])}
    view = JsonRunView(
        graph,
        "verify",
        root=root,
        cited_digests=cited,
        sources=stored_sources(paths.sources),
        tolerances=run_tolerances(root, manifest),
    )
    differences: list[str] = [problem for problem in (graph_problem(paths, graph),) if problem is not None]
    notes: list[str] = [note for note in (unanchored_note(paths),) if note is not None]
    errors: list[str] = []
    skipped: list[str] = []
    checks = rerun = 0
    total = sum(1 for node in graph["nodes"] if check_record(node["attributes"]) is not None)
    for node in graph["nodes"]:
        record = check_record(node["attributes"])
        if record is None:
            continue
        checks += 1
        cid = node["id"]
        progress(checks - 1, total, f"{cid} ({node['kind']})")  # said before it re-runs: a stall names its check
        found, recorded = _compare_files(cid, record, paths.checks / cid)
        differences.extend(found)
        installed = registry.get(node["kind"])
        if installed is None:
            if registry.invalid:  # the plugin that would provide it may be one that could not be registered
                errors.append(f"{cid}: check type '{node['kind']}' is not provided{registry.invalid_note()}")
            else:
                differences.append(f"{cid}: check type '{node['kind']}' is not provided by any installed plugin")
            skipped.append(f"{cid} {node['kind']}: no installed plugin provides its type")
            continue
        made_with = record.get("tool", {}).get("plugin", {})
        if made_with.get("version") not in (None, installed.version):
            notes.append(
                f"{cid}: made with {made_with.get('distribution')} {made_with.get('version')}, "
                f"re-run with {installed.distribution} {installed.version}"
            )
        # A check that read something re-decides from what it read (the recorded requests and stored bytes).
        check_view = view.with_recorded(recorded.read if recorded is not None else None)
        try:
            outcome = installed.check_type.rerun(record.get("inputs", {}), check_view)
        except PluginFailed as failure:  # an error of this check; the others are verified all the same
            errors.append(f"{cid}: {failure.message}")
            skipped.append(f"{cid} {node['kind']}: its plugin failed when re-running it (the run's error says how)")
            continue
        if outcome is None:
            skipped.append(f"{cid} {node['kind']}: {_why_not_rerun(installed.check_type, record)}")
            if installed.check_type.isolated and not installed.check_type.uses_model:
                # A third party's type that says no model decides it: verify cannot re-derive it, so say so.
                notes.append(
                    f"{cid}: not re-run: {node['kind']} ({installed.distribution} {installed.version}) declares "
                    "uses_model false, yet its rerun returned None; a computed check should compute again"
                )
            continue
        rerun += 1
        made_with_libraries = record.get("tool", {}).get("libraries", {})
        for library, now in sorted(outcome.libraries.items()):
            if made_with_libraries.get(library) not in (None, now):
                notes.append(
                    f"{cid}: made with {library} {made_with_libraries.get(library)}, re-run with {library} {now}"
                )
        if outcome.result != record.get("result"):
            differences.append(f"{cid} result: recorded {record.get('result')}, re-run {outcome.result}")
        if recorded_detail(outcome) != record.get("detail"):
            differences.append(f"{cid} detail: recorded {record.get('detail')!r}, re-run {recorded_detail(outcome)!r}")
        if "code" in record and record["code"] != recorded_code(outcome):
            differences.append(f"{cid} code: recorded {record['code']!r}, re-run {recorded_code(outcome)!r}")
        if recorded is not None and json.dumps(dict(outcome.output), sort_keys=True) != json.dumps(
            dict(recorded.output), sort_keys=True
        ):
            differences.append(f"{cid} output: the re-run's output (such as drawn points) differs from output.json")
        again = files_digest(check_files(record.get("inputs", {}), outcome))
        if recorded is not None and again != files_digest(check_files(record.get("inputs", {}), recorded)):
            differences.append(f"{cid} files: the re-run would write other files than checks/{cid}/ holds")
    identity = {"name": manifest["rubric"].get("name", ""), "version": manifest["rubric"].get("version", "")}
    identity["digest"] = manifest["rubric"]["digest"]
    failed = {"code": str(Code.PLUGIN_FAILED), "message": "; ".join(errors)[:4_000]} if errors else None
    return RunVerdict(
        manifest["run"], str(root), identity, checks, rerun, tuple(differences), failed, tuple(notes), tuple(skipped)
    )


def _why_not_rerun(check_type: GuardedCheckType, record: Mapping[str, Any]) -> str:
    """Why a check whose type gave no re-run (`rerun` returned None) was compared but not run again."""
    if check_type.tool == "review":
        return "a person's verdict, entered with the review tool: nothing to compute again"
    if check_type.uses_model:
        made = f" ({record['model']})" if record.get("model") else ""
        return f"rests on a model's judgement{made}, which verify does not make again"
    return "its check type re-runs it only from what a live check read, and gave no re-run"
