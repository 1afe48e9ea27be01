"""The report's replay and verify results, kept outside the run so a second report of an unchanged run
reuses them instead of re-running both (most of a large run's report time); the `replay` command and `verify`
of one run keep theirs here too (`integrity.replay_kept`, `integrity.verify_kept`).

A kept result is reused only when everything that decides it is what it was: every file of the run (its
relative path and the digest of its bytes), for a replay given `--source` or `--sources` every file of the
folder it reads the paper from (or the archive) and of DIR, whether or not the run stored its source, every
source file of the code that replays and verifies
(cgx_core and each installed check type's package: a development install keeps its version while its code
changes) and the versions of the libraries underneath and of every plugin distribution. The key is the digest
of all of it, so a run or a paper edited by one byte, or code changed by one byte, finds nothing and is audited again.
Only a result the audit proved is kept (`passed` or `differs`), never an `error` or a skipped audit.

The cache lives in `$CGX_AUDIT_CACHE`, else `$XDG_CACHE_HOME/credencegraph-extract/audits`, else
`~/.cache/credencegraph-extract/audits`; never inside the run (the report writes nothing into a run, and a
run must not bring its own results along). A run or a paper's folder that holds a symbolic link or a
special file is never reused: what such a file reads could change without its digest changing here.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import platform
import stat
import sys
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from cgx_core.base.digests import bytes_digest, canonical_json, file_digest, hex_of
from cgx_core.errors import CgxError
from cgx_core.hookspecs import ENTRY_POINT_GROUP

ENVIRONMENT_VARIABLE = "CGX_AUDIT_CACHE"
ENTRY_FORMAT = "credencegraph-extract-audit 1"
LIBRARIES = ("credencegraph-extract", "credencegraph", "sympy", "mpmath", "pint", "lark")
"""The distributions whose versions decide a replay or a verify besides the code hashed file by file."""

Kind = Literal["replay", "verify"]


def cache_folder(run: Path) -> Path | None:
    """Where kept results live, or None when that folder is inside the run (nothing is kept then)."""
    chosen = os.environ.get(ENVIRONMENT_VARIABLE)
    if chosen:
        folder = Path(chosen)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        # The XDG specification: a relative path in the variable is invalid and is ignored.
        try:
            base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
        except RuntimeError:  # no home directory to be found: nothing is kept
            return None
        folder = base / "credencegraph-extract" / "audits"
    resolved, inside = folder.resolve(), run.resolve()
    if resolved == inside or resolved.is_relative_to(inside):
        return None
    return folder


TREE_FILES = 20_000
TREE_BYTES = 1 << 30
"""The most files and bytes a folder outside the run (the paper's, --sources) is digested over: a larger one is
never kept (the replay runs every time), so a paper read from a crowded folder costs no long walk."""


def tree_digest(root: Path, *, files: int | None = None, size: int | None = None) -> str | None:
    """The digest of every file under `root` (relative path and bytes), or None when it holds a link or a
    special file (what those read is not in the folder's bytes), a part of it cannot be read, or it holds more
    than `files` files or `size` bytes."""
    entries: list[list[str]] = []
    counted = [0, 0]

    def unreadable(error: OSError) -> None:
        raise error

    try:
        for folder, directories, names in os.walk(root, onerror=unreadable, followlinks=False):
            here = Path(folder)
            for name in sorted([*directories, *names]):
                path = here / name
                status = os.lstat(path)
                relative = path.relative_to(root).as_posix()
                if stat.S_ISDIR(status.st_mode):
                    entries.append(["directory", relative])
                elif stat.S_ISREG(status.st_mode):
                    counted[0] += 1
                    counted[1] += status.st_size
                    if (files is not None and counted[0] > files) or (size is not None and counted[1] > size):
                        return None
                    entries.append(["file", relative, file_digest(path)])
                else:
                    return None
    except OSError:
        return None
    return bytes_digest(canonical_json(sorted(entries)))


def run_digest(root: Path) -> str | None:
    """The digest of every file of the run (see `tree_digest`): what a verify reads."""
    return tree_digest(root)


def replay_digest(root: Path, source: Path | None, sources: Path | None) -> str | None:
    """The digest of everything a replay reads: the run's files and, given `--source`, the archive or every file
    of the folder the paper is read from (a file its `\\input` did not find then may be there now), and, given
    `--sources DIR`, every file of DIR. None when any of them cannot be digested: then nothing is kept."""
    from cgx_core.audit.replay import paper_folder
    from cgx_core.ingest.archive import is_archive
    from cgx_core.run.layout import RunPaths
    from cgx_core.run.manifest import read_manifest

    parts: dict[str, Any] = {"run": run_digest(root)}
    if source is not None:
        try:
            main = read_manifest(RunPaths(root))["document"]["files"][0]["name"]
            paper = Path(os.path.abspath(source))
            if not paper.is_file():
                return None
            if is_archive(paper):
                parts["source"] = ["archive", file_digest(paper)]
            else:
                folder = paper_folder(paper, main)
                tree = tree_digest(folder, files=TREE_FILES, size=TREE_BYTES)
                parts["source"] = ["folder", paper.relative_to(folder).as_posix(), tree]
        except (CgxError, OSError, LookupError, TypeError, ValueError):
            return None
    if sources is not None:
        parts["sources"] = tree_digest(sources, files=TREE_FILES, size=TREE_BYTES)
    if None in parts.values() or None in parts.get("source", ()):
        return None
    return bytes_digest(canonical_json(parts))


def _package_files(module: str) -> list[list[str]]:
    """Each source file of the top-level package that holds `module`, by its path inside the package."""
    spec = importlib.util.find_spec(module.partition(".")[0])
    if spec is None:
        return [[module, "not found"]]
    places = list(spec.submodule_search_locations or [])
    if not places and spec.origin:
        return [[module, file_digest(Path(spec.origin))]]
    found: list[list[str]] = []
    for place in places:  # os.walk with plain strings: a new process pays this on every report
        for folder, directories, names in os.walk(place):
            directories[:] = [name for name in directories if name != "__pycache__"]
            inside = Path(folder).relative_to(place).as_posix()
            prefix = spec.name if inside == "." else f"{spec.name}/{inside}"
            for name in names:
                path = os.path.join(folder, name)
                if os.path.isfile(path):
                    found.append([f"{prefix}/{name}", file_digest(Path(path))])
    return sorted(found)


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"


def described_code() -> dict[str, Any]:
    """What decides a replay or a verify besides the run: the interpreter, the libraries' and plugins'
    versions, and every file of cgx_core and of each installed check type's package, with its digest."""
    packages = {"cgx_core"}
    plugins: set[tuple[str, str]] = set()
    distributions = {}  # each distribution's metadata read once, not once per check type it provides
    for point in metadata.entry_points(group=ENTRY_POINT_GROUP):
        packages.add(point.module.partition(".")[0])
        distributions[id(point.dist)] = point.dist
    for distribution in distributions.values():
        if distribution is None:
            plugins.add(("unknown", "unknown"))
        else:
            plugins.add((str(distribution.metadata["name"]), str(distribution.metadata["version"])))
    return {
        "python": [platform.python_implementation(), sys.version],
        "libraries": {name: _version(name) for name in LIBRARIES},
        "plugins": sorted(plugins),
        "files": {package: _package_files(package) for package in sorted(packages)},
    }


@functools.cache
def code_digest() -> str:
    """The digest of `described_code`: computed once per process."""
    return bytes_digest(canonical_json(described_code()))


def entry_key(kind: Kind, inputs: str) -> str:
    """The key of one kept result: what was audited, what it read (`run_digest` or `replay_digest`), and the
    code."""
    return bytes_digest(canonical_json({"kind": kind, "inputs": inputs, "code": code_digest()}))


PROVED = ("passed", "differs")
"""The statuses kept: what an audit proved. An `error` or a skipped audit proves nothing and is run again."""


def load(folder: Path, key: str) -> dict[str, Any] | None:
    """The audit kept under `key` (status, summary, details, note), or None when it is absent, unreadable or
    not a proved result: then it is audited again."""
    try:
        kept = json.loads((folder / f"{hex_of(key)}.json").read_bytes())
        audit = kept["audit"]
        if kept["format"] != ENTRY_FORMAT or kept["key"] != key or audit["status"] not in PROVED:
            return None
        details = audit["details"]
        texts = (audit["summary"], audit["note"], *details) if isinstance(details, list) else (None,)
        if not all(isinstance(text, str) for text in texts):
            return None
        return {name: audit[name] for name in ("status", "summary", "details", "note")}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store(folder: Path, key: str, audit: dict[str, Any]) -> None:
    """Keep a proved audit under `key`; a cache that cannot be written costs only the next report's time."""
    from cgx_core.run.atomic import write_atomic

    if audit["status"] not in PROVED:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(
            folder / f"{hex_of(key)}.json",
            canonical_json({"format": ENTRY_FORMAT, "key": key, "audit": audit}),
            durable=False,
        )
    except OSError:
        return
