"""A run at rest, checked against what it recorded: the whole hash chain of its log, the anchor the manifest
keeps of that log, and every digest the manifest or the log records.

`verify` calls `check_run` for every run (replay too), before it re-runs anything:

- the log (`calls.jsonl`): every committed line in order, each chained to the digest of the line before it
  (a line rewritten or deleted without recomputing the chain is `run-corrupt`);
- the anchor: when a run finishes, the manifest records the log's length in calls and bytes and the digest
  of its last line (its head). A finished run whose log is not exactly that is `tampered`: its last line was
  edited or deleted, or the chain was recomputed after a line was rewritten. A log that holds the anchored
  calls and more is a run that went on after it finished: it is no longer finished (`not-finished`);
- the manifest against start_run's log line, which records what the run was made of: the paper's files, the
  rubric, the bibliography, the cited copies and offline sources, and (since issue 29) the tolerances' name and
  digest, the limits and the versions. An edit of any of them in manifest.json, digests recomputed, is
  `tampered`; a run made before the log recorded the last three says so (`unanchored`) rather than pass them;
- every file whose digest the manifest holds: rubric.toml, tolerances.toml, ingested.json, each cited copy,
  each finished file (graph.json, rejections.json, report.json), the stored source; and each file of sources/,
  which is named by its own digest;
- in a run whose log ends at its anchored finish, the folders of checks/: each must be a check of the graph
  that finish recorded (an extra checks/c-NNN would otherwise sit unseen beside the real ones);
- state.json, when it says it reflects the anchored call, must be the state that call recorded.

All the problems found are named at once, in one `tampered` error. What no check here can see: a directory
rewritten whole and consistently (the log, its chain, the anchor and every file and digest recomputed).
docs/guarantees.md says what that attacker can still do, and what publishing the head digest adds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cgx_core.base.digests import file_digest, graph_json_digest, hex_of
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.graph.evidence import check_record
from cgx_core.run import log
from cgx_core.run.layout import RunPaths

ANCHORED_SINCE_ISSUE_29 = ("tolerances", "limits", "versions")
"""What start_run's log line records of the manifest since issue 29; a run made before records none of it."""


def check_run(paths: RunPaths, manifest: Mapping[str, Any], *, finished: bool = True) -> None:
    """Refuse a run whose files are not what its manifest and log recorded.

    `finished` (verify) refuses a run whose log went on past the finish its manifest anchors; replay, which
    rebuilds unfinished runs too, passes False.

    Raises:
        CgxError: `run-corrupt` for a broken hash chain, `tampered` naming every other problem, and (with
            `finished`) `not-finished` for a finished run that went on.
    """
    went_on, problems = log_problems(paths, manifest)
    problems += digest_problems(paths, manifest)
    if problems:
        raise CgxError(Code.TAMPERED, "; ".join(problems))
    if went_on is not None and finished:
        raise CgxError(Code.NOT_FINISHED, went_on)


def log_problems(
    paths: RunPaths, manifest: Mapping[str, Any], entries: tuple[log.Entry, ...] | None = None
) -> tuple[str | None, list[str]]:
    """The log against its hash chain (raises `run-corrupt`), the manifest against start_run's line, and the
    log against the manifest's anchor: whether the run went on past its anchored finish (and how), and the
    problems found.

    `entries` is the log as a caller already scanned it from its first line (replay, which applied exactly
    those lines: the anchor is then checked against the log it rebuilt, and the file is not read and parsed
    twice); without it the log is scanned here."""
    if entries is None:
        entries = log.scan(paths.log, 0, 1, None).entries
    went_on, problems = _anchor_problems(paths, manifest, entries)
    return went_on, [*start_problems(paths, manifest, entries), *problems]


def _recorded_at_start(manifest: Mapping[str, Any], logged: Mapping[str, Any]) -> dict[str, tuple[Any, Any]]:
    """What start_run's log line records of the manifest, by the name of the line's argument: (the line's value,
    the manifest's)."""
    rubric, bibliography = _mapping(manifest.get("rubric")), _mapping(manifest.get("bibliography"))
    manifest_values = {
        "paper": manifest.get("document"),
        "rubric": rubric.get("digest"),  # the manifest's rubric name is the rubric's own, the line's its file's
        "bibliography": bibliography.get("files"),
        "cited": manifest.get("cited"),
        "offline_sources": manifest.get("offline_sources"),
        "store_source": manifest.get("store_source"),
        **{name: manifest.get(name) for name in ANCHORED_SINCE_ISSUE_29},
    }
    logged_values = {**logged, "rubric": _mapping(logged.get("rubric")).get("digest")}
    return {name: (logged_values.get(name), value) for name, value in manifest_values.items()}


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def start_problems(paths: RunPaths, manifest: Mapping[str, Any], entries: tuple[log.Entry, ...]) -> list[str]:
    """The manifest against what start_run's line (in the hash chain, and through the anchor in the finish)
    recorded; a field the line does not record (a run made before it did) is `unanchored`, not compared."""
    if not entries or entries[0].line.tool != "start_run":
        return []  # not a run: replay and verify say so
    logged = entries[0].line.args
    differing = [
        name
        for name, (recorded, value) in _recorded_at_start(manifest, logged).items()
        if (name in logged or name not in ANCHORED_SINCE_ISSUE_29) and recorded != value
    ]
    if not differing:
        return []
    return [
        f"'{paths.root.name}/manifest.json': its {', '.join(differing)} differ from what start_run recorded in the "
        "log (call 1)"
    ]


def unanchored(paths: RunPaths) -> list[str]:
    """What the manifest holds that this run's log does not record (it was made before the log did), so an edit
    of it cannot be detected; [] for a run made since, or a log without a start."""
    try:
        with paths.log.open("rb") as handle:
            first = log.parse_line(handle.readline().removesuffix(b"\n"))
    except OSError:
        return []  # no log: check_run says so
    if first is None or first.tool != "start_run":
        return []
    return [name for name in ANCHORED_SINCE_ISSUE_29 if name not in first.args]


def unanchored_note(paths: RunPaths) -> str | None:
    """The note verify and replay give for a run made before its log recorded everything the manifest holds."""
    missing = unanchored(paths)
    if not missing:
        return None
    return (
        f"made before its log recorded the manifest's {' and '.join(missing)}: an edit of those in manifest.json "
        "(and of tolerances.toml, with its digest) cannot be detected; a run made now records them"
    )


def _anchor_problems(
    paths: RunPaths, manifest: Mapping[str, Any], entries: tuple[log.Entry, ...]
) -> tuple[str | None, list[str]]:
    finished = manifest.get("finished")
    if not isinstance(finished, Mapping):
        return None, []
    run = paths.root.name
    anchor = finished.get("log")
    if not isinstance(anchor, Mapping):
        return None, [f"'{run}/manifest.json' records no anchor of the log (its length and head) for its finish"]
    calls = anchor.get("calls")
    if not isinstance(calls, int) or calls < 1 or calls != finished.get("seq"):
        return None, [f"'{run}/manifest.json': its anchor names call {calls}, its finish call {finished.get('seq')}"]
    held = len(entries)
    if held > calls and _anchor_holds(entries[calls - 1], anchor):
        after = entries[calls].line
        went_on = (
            f"'{run}' went on after it finished: call {after.seq} ({after.tool}) follows the finish at call {calls}; "
            "finish it again"
        )
        return went_on, []
    head = entries[-1] if entries else None
    if held != calls or head is None or not _anchor_holds(head, anchor):
        where = f"{held} calls, {head.end if head else 0} bytes" + (f", head {head.digest}" if head else "")
        return None, [
            f"'{run}/calls.jsonl' is not the log the run finished with: it holds {where}; the manifest's anchor "
            f"says {calls} calls, {anchor.get('bytes')} bytes, head {anchor.get('head')} (a line was edited, "
            "deleted or added, or the chain recomputed after an edit)"
        ]
    problem = _finish_problem(run, entries[:calls])
    if problem is not None:
        return None, [problem]
    return None, _state_problems(paths, head) + _check_folder_problems(paths)


def _finish_problem(run: str, entries: tuple[log.Entry, ...]) -> str | None:
    """Why the anchored call (the last of `entries`) did not leave the run finished, or None: it is a
    finish_run, or follows one through calls that each left the graph as it was (every record refused)."""
    for index in range(len(entries) - 1, -1, -1):
        line = entries[index].line
        if line.tool == "finish_run":
            return None
        if index == 0 or entries[index - 1].line.graph != line.graph:
            break
    head = entries[-1].line
    return (
        f"'{run}/calls.jsonl': the anchored call {head.seq} is {head.tool}, which changed the graph after any "
        "finish_run"
    )


def _anchor_holds(entry: log.Entry, anchor: Mapping[str, Any]) -> bool:
    return (
        entry.line.seq == anchor.get("calls")
        and entry.end == anchor.get("bytes")
        and entry.digest == anchor.get("head")
    )


def _state_problems(paths: RunPaths, head: log.Entry) -> list[str]:
    """state.json, when it says it reflects the anchored call, against what that call's line recorded."""
    try:
        state = json.loads(paths.state.read_bytes())
        seq = state["seq"]
    except (OSError, ValueError, KeyError, TypeError):
        return []  # derived, and rebuilt from the log by the next call: a missing state.json is no edit
    if not isinstance(seq, int) or seq < head.line.seq:
        return []  # behind the log after a crash: the next call completes it
    try:
        same = (
            seq == head.line.seq
            and state["log"] == {"end": head.end, "last": head.digest}
            and state["finished"] is True
            and graph_json_digest(state["graph"]) == head.line.graph
        )
    except (KeyError, TypeError, ValueError):
        same = False
    if same:
        return []
    return [f"'{paths.root.name}/state.json' is not the state the anchored call {head.line.seq} recorded"]


def digest_problems(paths: RunPaths, manifest: Mapping[str, Any]) -> list[str]:
    """Every file whose digest the manifest records, against that digest; every fetched source, against its name."""
    expected: list[tuple[Path, Any]] = [
        (paths.rubric, manifest.get("rubric", {}).get("digest")),
        (paths.ingested, manifest.get("ingested")),
    ]
    expected += [(paths.cited / str(item.get("name")), item.get("digest")) for item in manifest.get("cited", [])]
    if "tolerances" in manifest:  # runs made before hedge tolerances existed have none
        expected.append((paths.tolerances, manifest["tolerances"].get("digest")))
    finished = manifest.get("finished")
    if isinstance(finished, Mapping):
        files = finished.get("files", {})
        expected += [(path, files.get(path.name)) for path in paths.finished_files]
    if manifest.get("store_source"):
        stored = manifest.get("document", {}).get("files", []) + manifest.get("bibliography", {}).get("files", [])
        expected += [(paths.source / str(item.get("name")), item.get("digest")) for item in stored]
    problems = []
    for path, digest in expected:
        name = path.relative_to(paths.root).as_posix()
        if not path.is_file():
            problems.append(f"'{paths.root.name}/{name}' is missing")
        elif not isinstance(digest, str) or file_digest(path) != digest:
            problems.append(f"'{paths.root.name}/{name}' differs from the digest in its manifest")
    if paths.sources.is_dir():
        for path in sorted(paths.sources.iterdir()):
            if path.is_file() and hex_of(file_digest(path)) != path.name:
                problems.append(f"'{paths.root.name}/sources/{path.name}' is not the source its name's digest names")
    return problems


def _check_folder_problems(paths: RunPaths) -> list[str]:
    """In a run whose log ends at its anchored finish, every entry of checks/ against the checks of graph.json
    (whose digest the manifest and the finish's line hold): a folder no check names was added, or left by a
    call that never committed."""
    if not paths.checks.is_dir():
        return []
    try:
        nodes = json.loads(paths.graph.read_bytes())["nodes"]
        checks = {node["id"] for node in nodes if check_record(node["attributes"]) is not None}
    except (OSError, ValueError, KeyError, TypeError):
        return []  # graph.json itself is refused by its digest
    return [
        f"'{paths.root.name}/checks/{path.name}' is not a check of the run: the graph its finish recorded has no "
        f"check '{path.name}' (it was added, or left by a call that never committed; the next changing call "
        "removes such a folder)"
        for path in sorted(paths.checks.iterdir())
        if path.name not in checks
    ]


def graph_problem(paths: RunPaths, graph: Mapping[str, Any]) -> str | None:
    """graph.json against the digest of the graph the log's anchored finish recorded (in the hash chain, so
    an edit the manifest's file digest was adjusted for is still seen); None when they agree."""
    raw = log.line_ending_at(paths.log, paths.log.stat().st_size)
    line = log.parse_line(raw) if raw is not None else None
    try:
        digest = graph_json_digest(graph)
    except (KeyError, TypeError, ValueError):
        digest = None
    if line is None or digest != line.graph:
        return "graph.json: its graph is not the one the log's finish_run recorded (the graph was edited)"
    return None
