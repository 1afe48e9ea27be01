"""The report's replay and verify results, kept outside the run so a second report of an unchanged run
reuses them instead of re-running both (most of a large run's report time).

A kept result is reused only when everything that decides it is what it was: every file of the run (its
relative path and the digest of its bytes), every source file of the code that replays and verifies
(cgx_core and each installed check type's package: a development install keeps its version while its code
changes) and the versions of the libraries underneath and of every plugin distribution. The key is the digest
of all of it, so a run edited by one byte, or code changed by one byte, finds nothing and is audited again.
Only a result the audit proved is kept (`passed` or `differs`), never an `error` or a skipped audit.

The cache lives in `$CGX_AUDIT_CACHE`, else `$XDG_CACHE_HOME/credencegraph-extract/audits`, else
`~/.cache/credencegraph-extract/audits`; never inside the run (the report writes nothing into a run, and a
run must not bring its own results along). A run that holds a symbolic link or a special file is never
reused: what such a file reads could change without its digest changing here.
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


def run_digest(root: Path) -> str | None:
    """The digest of every file of the run (relative path and bytes), or None when it holds a link or a
    special file (what those read is not in the run's bytes) or a part of it cannot be read."""
    entries: list[list[str]] = []

    def unreadable(error: OSError) -> None:
        raise error

    try:
        for folder, directories, files in os.walk(root, onerror=unreadable, followlinks=False):
            here = Path(folder)
            for name in sorted([*directories, *files]):
                path = here / name
                mode = os.lstat(path).st_mode
                relative = path.relative_to(root).as_posix()
                if stat.S_ISDIR(mode):
                    entries.append(["directory", relative])
                elif stat.S_ISREG(mode):
                    entries.append(["file", relative, file_digest(path)])
                else:
                    return None
    except OSError:
        return None
    return bytes_digest(canonical_json(sorted(entries)))


def _package_files(module: str) -> list[list[str]]:
    """Each source file of the top-level package that holds `module`, by its path inside the package."""
    spec = importlib.util.find_spec(module.partition(".")[0])
    if spec is None:
        return [[module, "not found"]]
    places = list(spec.submodule_search_locations or [])
    if not places and spec.origin:
        return [[module, file_digest(Path(spec.origin))]]
    found: list[list[str]] = []
    for place in places:
        for path in sorted(Path(place).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                found.append([f"{spec.name}/{path.relative_to(place).as_posix()}", file_digest(path)])
    return found


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
    for point in metadata.entry_points(group=ENTRY_POINT_GROUP):
        packages.add(point.module.partition(".")[0])
        name = str(point.dist.metadata["name"]) if point.dist is not None else "unknown"
        plugins.add((name, str(point.dist.version) if point.dist is not None else "unknown"))
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


def entry_key(kind: Kind, run: str) -> str:
    """The key of one kept result: what was audited, the run's files, and the code."""
    return bytes_digest(canonical_json({"kind": kind, "run": run, "code": code_digest()}))


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
