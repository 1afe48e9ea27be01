"""The `review` command a person copies to record a verdict on one item awaiting review.

The verdict is left as the placeholder VERDICT, which the command refuses until it is replaced by holds,
fails or undetermined: a command copied unread records nothing, rather than a verdict nobody gave. The run
is named by its folder (the report holds no absolute path), so the command runs from the folder above it.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import Any

VERDICT = "VERDICT"


def review_command(directory: str, item: Mapping[str, Any]) -> str:
    """The shell-quoted command that reviews `item` (its check when it has one, else its node)."""
    subject = ["--check", str(item["check"])] if item.get("check") else ["--node", str(item["node"])]
    words = ["credencegraph-extract", "review", directory, *subject, "--verdict", VERDICT]
    return shlex.join([*words, "--reviewer", "YOUR NAME", "--reason", "WHY"])
