"""The commands a person copies from a report: `review` to record a verdict on one item awaiting review, and
`replay` and `verify` to prove the run again.

The verdict is left as the placeholder VERDICT, which the command refuses until it is replaced by holds,
fails or undetermined: a command copied unread records nothing, rather than a verdict nobody gave. The run
is named by its absolute path, so a command works when pasted from any folder (naming it by its folder's name
gave `run-not-found` anywhere but the folder above it). The report is about the run where it lies; its path is
in the report, never in the run.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any

VERDICT = "VERDICT"


def run_path(root: Path) -> str:
    """The run's absolute path, as the commands name it."""
    return os.path.abspath(root)


def review_command(directory: str, item: Mapping[str, Any]) -> str:
    """The shell-quoted command that reviews `item` (its check when it has one, else its node)."""
    subject = ["--check", str(item["check"])] if item.get("check") else ["--node", str(item["node"])]
    words = ["credencegraph-extract", "review", directory, *subject, "--verdict", VERDICT]
    return shlex.join([*words, "--reviewer", "YOUR NAME", "--reason", "WHY"])


def audit_commands(directory: str, paper: str, *, stored: bool, source: Path | None) -> tuple[str, str]:
    """The shell-quoted `replay` and `verify` commands of the run: replay with `--source` when the run keeps
    no copy of its paper (the path the report was given, else where the person must fill it in)."""
    replay = ["credencegraph-extract", "replay", directory]
    if source is not None:
        replay += ["--source", os.path.abspath(source)]
    elif not stored:
        replay += ["--source", f"PATH/TO/{paper}"]
    return shlex.join(replay), shlex.join(["credencegraph-extract", "verify", directory])
