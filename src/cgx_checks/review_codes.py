"""human-review's own code.

Each is declared with its meaning through `define_codes` by the check types that use it (see
docs/plugins.md: a plugin owns its codes); `python -m cgx_core.codes` lists them under their check type."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class ReviewCode(StrEnum):
    """A stable, kebab-case code of review."""

    REVIEW_UNDETERMINED = "review-undetermined"


MEANINGS: Final[dict[str, str]] = {
    ReviewCode.REVIEW_UNDETERMINED: (
        "The reviewer could not decide whether the node holds: recorded, it moves no credence."
    ),
}
