"""manifest.json: what a run is made of, named by name and digest, never by local path."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.run.atomic import write_atomic
from cgx_core.run.finished import derived_json
from cgx_core.run.layout import RUN_FORMAT, RUN_VERSION, RunPaths

if TYPE_CHECKING:
    from cgx_core.run.log import LogLine


def write_manifest(paths: RunPaths, manifest: dict[str, Any]) -> None:
    write_atomic(paths.manifest, derived_json(manifest))


def read_manifest(paths: RunPaths) -> dict[str, Any]:
    """The manifest of the run at `paths.root`, refusing anything this package does not read."""
    if not paths.root.exists():
        raise CgxError(Code.RUN_NOT_FOUND, f"no run directory '{paths.root.name}': start one with start_run")
    if not paths.root.is_dir():
        raise CgxError(Code.NOT_A_RUN, f"'{paths.root.name}' is not a directory")
    try:
        data = json.loads(paths.manifest.read_bytes())
    except FileNotFoundError:
        raise CgxError(Code.NOT_A_RUN, f"'{paths.root.name}' has no manifest.json: it is not a run") from None
    except (OSError, ValueError) as error:
        raise CgxError(Code.NOT_A_RUN, f"'{paths.root.name}/manifest.json' cannot be read: {error}") from None
    if not isinstance(data, dict) or data.get("format") != RUN_FORMAT:
        raise CgxError(Code.RUN_FORMAT, f"manifest.json has format {_field(data, 'format')}, not '{RUN_FORMAT}'")
    if data.get("version") != RUN_VERSION:
        version = _field(data, "version")
        if data.get("version") == 1:
            raise CgxError(
                Code.RUN_FORMAT,
                "this is a run of format version 1, made by an earlier version of this package by calling a "
                f"model; this version reads version {RUN_VERSION} only",
            )
        raise CgxError(Code.RUN_FORMAT, f"manifest.json has version {version}; this package reads {RUN_VERSION}")
    if not isinstance(data.get("run"), str):
        raise CgxError(Code.NOT_A_RUN, "manifest.json names no run id")
    return data


def _field(data: Any, name: str) -> str:
    return json.dumps(data.get(name)) if isinstance(data, dict) else "none (not an object)"


def left_finished(line: LogLine, digest: str | None, manifest: Mapping[str, Any]) -> bool:
    """Whether the logged call `line` (whose line has `digest`) left the run finished: a finish_run did, and so
    did a later call that changed nothing of the graph, whose line the manifest's finish then anchors."""
    if line.tool == "finish_run":
        return True
    finished = manifest.get("finished")
    anchor = finished.get("log") if isinstance(finished, Mapping) else None
    return isinstance(anchor, Mapping) and digest is not None and anchor.get("head") == digest
