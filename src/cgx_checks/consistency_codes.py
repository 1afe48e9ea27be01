"""internal-consistency's own code.

Declared with its meaning through `define_codes` by the check type (see docs/plugins.md: a plugin owns its
codes); `python -m cgx_core.codes` lists it under its check type."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class ConsistencyCode(StrEnum):
    """A stable, kebab-case code of internal-consistency."""

    PASSAGE_NOT_IN_CHUNK = "passage-not-in-chunk"
    PASSAGES_IDENTICAL = "passages-identical"


MEANINGS: Final[dict[str, str]] = {
    ConsistencyCode.PASSAGE_NOT_IN_CHUNK: (
        "A passage is not in the text of the chunk it is given for (after the normalisation citation-support uses)."
    ),
    ConsistencyCode.PASSAGES_IDENTICAL: (
        "Two passages are the same words (after that normalisation): a statement compared with itself shows nothing."
    ),
}
