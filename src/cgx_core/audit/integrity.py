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
- state.json of a finished run must be the state its anchored finish recorded (missing, torn or of another
  call, it is named, although the next changing call would rebuild it);
- nothing after the anchored finish: bytes after it (a line added, or a call torn mid-write) are named;
- the manifest field by field: exactly the fields this package writes, in the bytes it writes them, the
  rubric's name and version those of rubric.toml (`manifest_problems`);
- every file of the run accounted for (`unaccounted_files`): the run's own files, the checks of its graph
  (each with exactly its three files), the cited copies and stored sources the manifest names, the fetched
  sources the log or manifest names by digest, a `.lock` as the lock writes it; anything else is named.

All the problems found are named at once, in one `tampered` error. What no check here can see: a directory
rewritten whole and consistently (the log, its chain, the anchor and every file and digest recomputed).
docs/guarantees.md says what that attacker can still do, and what publishing the head digest adds.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any, Final

from cgx_core.base.digests import file_digest, graph_json_digest, hex_of
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.graph.evidence import check_record
from cgx_core.run import log
from cgx_core.run.finished import derived_json
from cgx_core.run.layout import RunPaths
from cgx_core.run.lock import INFO_WIDTH

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
    problems += digest_problems(paths, manifest) + manifest_problems(paths, manifest)
    if problems:
        raise CgxError(Code.TAMPERED, "; ".join(problems))
    if went_on is not None and finished:
        raise CgxError(Code.NOT_FINISHED, went_on)


def log_problems(
    paths: RunPaths, manifest: Mapping[str, Any], found: log.Scan | None = None
) -> tuple[str | None, list[str]]:
    """The log against its hash chain (raises `run-corrupt`), the manifest against start_run's line, and the
    log against the manifest's anchor: whether the run went on past its anchored finish (and how), and the
    problems found.

    `found` is the log as a caller already scanned it from its first line (replay, which applied exactly
    those lines: the anchor is then checked against the log it rebuilt, and the file is not read and parsed
    twice); without it the log is scanned here."""
    if found is None:
        found = log.scan(paths.log, 0, 1, None)
    went_on, problems = _anchor_problems(paths, manifest, found)
    return went_on, [*start_problems(paths, manifest, found.entries), *problems]


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


def _anchor_problems(paths: RunPaths, manifest: Mapping[str, Any], found: log.Scan) -> tuple[str | None, list[str]]:
    entries = found.entries
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
    problems = _state_problems(paths, head) + unaccounted_files(paths, manifest, _graph_checks(paths))
    if found.tail is not None:
        problems.append(
            f"'{run}/calls.jsonl' has {found.tail.length} bytes after the finish its manifest anchors (a line "
            "added, or a call torn mid-write, which the next changing call cuts)"
        )
    return None, problems


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
    """state.json of a run whose log ends at its anchored finish, against what that finish recorded. Missing,
    torn or of another call, it is named: the next changing call would rebuild it, but a finished run at rest
    has its state, and a state.json deleted or rolled back is an edit like any other."""
    where = f"'{paths.root.name}/state.json'"
    try:
        state = json.loads(paths.state.read_bytes())
    except FileNotFoundError:
        return [f"{where} is missing (deleted, or lost before it was written)"]
    except (OSError, ValueError):
        return [f"{where} cannot be read (torn or edited)"]
    try:
        same = (
            state["seq"] == head.line.seq
            and state["log"] == {"end": head.end, "last": head.digest}
            and state["finished"] is True
            and graph_json_digest(state["graph"]) == head.line.graph
        )
    except (KeyError, TypeError, ValueError):
        same = False
    if same:
        return []
    return [f"{where} is not the state the anchored call {head.line.seq} recorded"]


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
        expected += [(paths.source / str(item.get("name")), item.get("digest")) for item in _stored_files(manifest)]
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


_CHECK_FILES: Final = frozenset({"inputs.json", "output.json", "log.txt"})
_TEMPORARY: Final = re.compile(r"\.(?P<name>.+)\.tmp-\d+")
"""A file a writer killed before its rename left (`run.atomic.write_atomic`): nothing reads it, and the next
changing call removes those of the run's folder."""


def _graph_checks(paths: RunPaths) -> Collection[str] | None:
    """The checks of graph.json (whose digest the manifest and the finish's line hold), or None when it cannot
    be read (it is refused by its digest)."""
    try:
        nodes = json.loads(paths.graph.read_bytes())["nodes"]
        return {node["id"] for node in nodes if check_record(node["attributes"]) is not None}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def unaccounted_files(paths: RunPaths, manifest: Mapping[str, Any], checks: Collection[str] | None) -> list[str]:
    """Every file or folder of the run that neither its log nor its manifest accounts for, named: an extra file
    in the run's folder, a checks/ folder of no check in `checks` (the graph's) or an extra file in one, a
    cited copy or stored source the manifest does not name, a fetched source no digest in the log or manifest
    names, a `.lock` the lock did not write. A check folder or a source a call wrote before a commit that never
    came is named too (the next changing call removes such a folder), as are those a log cut back left."""
    run = paths.root.name
    finished = isinstance(manifest.get("finished"), Mapping)
    root = {"manifest.json", "calls.jsonl", "state.json", "rubric.toml", "ingested.json", ".lock"}
    root |= {"checks", "cited", "sources"} | ({"source"} if manifest.get("store_source") else set())
    root |= {"tolerances.toml"} if "tolerances" in manifest else set()
    root |= {path.name for path in paths.finished_files} if finished else set()
    problems = [f"'{run}/{name}' is no file of the run" for name in _extra(paths.root, root)]
    problems += _lock_problems(paths)
    if checks is not None and paths.checks.is_dir():
        for entry in sorted(os.scandir(paths.checks), key=lambda entry: entry.name):
            if entry.name not in checks:
                problems.append(
                    f"'{run}/checks/{entry.name}' is not a check of the run: its graph has no check '{entry.name}' "
                    "(it was added, left by calls cut from the log, or by a call that never committed, which the "
                    "next changing call removes)"
                )
            elif entry.is_dir(follow_symlinks=False):
                folder = Path(entry.path)
                problems += [
                    f"'{run}/checks/{entry.name}/{name}' is no file of a check" for name in _extra(folder, _CHECK_FILES)
                ]
    cited = {str(item.get("name")) for item in manifest.get("cited", []) if isinstance(item, Mapping)}
    problems += [
        f"'{run}/cited/{name}' is a cited copy the manifest does not name" for name in _files(paths.cited) - cited
    ]
    if manifest.get("store_source"):
        stored = {str(item.get("name")) for item in _stored_files(manifest)}
        problems += [
            f"'{run}/source/{name}' is no file of the stored document" for name in _files(paths.source) - stored
        ]
    named = paths.log.read_bytes() if paths.log.is_file() else b""
    named += json.dumps(manifest.get("offline_sources")).encode()
    problems += [
        f"'{run}/sources/{name}' is a source no call of the log read (added, or fetched by calls cut from the log)"
        for name in sorted(_files(paths.sources))
        if f"sha256:{name}".encode() not in named
    ]
    return problems


def _extra(folder: Path, expected: Collection[str]) -> list[str]:
    """The names in `folder` (not below it) beyond `expected`, a killed writer's temporary file of an expected
    name left aside."""
    try:
        names = sorted(entry.name for entry in os.scandir(folder))
    except OSError:
        return []
    return [
        name
        for name in names
        if name not in expected
        and not ((temporary := _TEMPORARY.fullmatch(name)) is not None and temporary["name"] in expected)
    ]


def _files(folder: Path) -> set[str]:
    """Every file below `folder`, by its path relative to it (a killed writer's temporary files left aside)."""
    if not folder.is_dir():
        return set()
    return {
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if not path.is_dir() and _TEMPORARY.fullmatch(path.name) is None
    }


def _stored_files(manifest: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    document = manifest.get("document", {}).get("files", [])
    bibliography = manifest.get("bibliography", {}).get("files", [])
    return [item for item in (*document, *bibliography) if isinstance(item, Mapping)]


_RELEASED: Final = b" " * (INFO_WIDTH - 1) + b"\n"
_HELD: Final = re.compile(rb'\{"pid": \d{1,10}\} *\n')


def _lock_problems(paths: RunPaths) -> list[str]:
    """`.lock` as the lock writes it: empty (created, not yet written), released, or naming a holder's pid
    (a holder killed before it released it leaves its pid)."""
    try:
        data = paths.lock.read_bytes()
    except FileNotFoundError:
        return []
    except OSError:
        return [f"'{paths.root.name}/.lock' cannot be read"]
    if data in (b"", _RELEASED) or (len(data) == INFO_WIDTH and _HELD.fullmatch(data) is not None):
        return []
    return [f"'{paths.root.name}/.lock' holds what the run's lock never writes (it was edited)"]


_MANIFEST_FIELDS: Final = {
    "format",
    "version",
    "run",
    "document",
    "rubric",
    "tolerances",
    "bibliography",
    "cited",
    "offline_sources",
    "ingested",
    "limits",
    "store_source",
    "versions",
    "finished",
}
_MANIFEST_PARTS: Final = {
    "rubric": {"name", "digest", "version"},
    "tolerances": {"name", "digest"},
    "finished": {"seq", "files", "log"},
    "limits": {"ingest"},
}


def manifest_problems(paths: RunPaths, manifest: Mapping[str, Any]) -> list[str]:
    """manifest.json field by field: the fields this package writes and no other, in exactly the bytes it writes
    (a manifest re-serialised by another tool is named, though it says the same), the rubric's name and version
    those of rubric.toml (whose digest the manifest holds)."""
    where = f"'{paths.root.name}/manifest.json'"
    problems = []
    extra = sorted(set(manifest) - _MANIFEST_FIELDS)
    for field, known in _MANIFEST_PARTS.items():
        part = manifest.get(field)
        if isinstance(part, Mapping):
            extra += [f"{field}.{name}" for name in sorted(set(part) - known)]
    if extra:
        problems.append(f"{where} has fields this package never writes: {', '.join(extra)}")
    try:
        written = derived_json(dict(manifest))
    except (TypeError, ValueError):
        written = b""
    if paths.manifest.read_bytes() != written:
        problems.append(f"{where} is not in the bytes this package writes (re-serialised, or edited)")
    try:
        declared = tomllib.loads(paths.rubric.read_text(encoding="utf-8")).get("rubric", {})
    except (OSError, ValueError, RecursionError):
        return problems  # rubric.toml itself is refused by its digest
    rubric = manifest.get("rubric")
    named = {key: rubric.get(key) for key in ("name", "version")} if isinstance(rubric, Mapping) else {}
    if isinstance(declared, Mapping) and named != {key: declared.get(key) for key in ("name", "version")}:
        problems.append(f"{where}: its rubric's name and version are not those rubric.toml declares")
    return problems


def unfinished_problems(paths: RunPaths, manifest: Mapping[str, Any], checks: Collection[str]) -> list[str]:
    """A run that is not finished (replay), at rest: its state.json there and readable (a state behind the log
    is a crash's, which the next call completes), and every file accounted for by the log rebuilt (`checks`:
    the checks of the graph it gives)."""
    where = f"'{paths.root.name}/state.json'"
    try:
        json.loads(paths.state.read_bytes())
        problems = []
    except FileNotFoundError:
        problems = [f"{where} is missing (deleted, or lost by a crash before it was written: the next call writes it)"]
    except (OSError, ValueError):
        problems = [f"{where} cannot be read (torn or edited)"]
    return problems + unaccounted_files(paths, manifest, checks)


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
