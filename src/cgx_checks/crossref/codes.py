"""cross-reference's own codes.

Each is declared with its meaning through `define_codes` by the check type (see docs/plugins.md: a plugin owns
its codes); `python -m cgx_core.codes` lists them under their check type."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class CrossReferenceCode(StrEnum):
    """A stable, kebab-case code of cross-reference."""

    REF_NOT_WRITTEN = "ref-not-written"
    REF_UNKNOWN = "ref-unknown"
    REF_ANOTHER_WORK = "ref-another-work"
    CITE_NOT_NUMBERED = "cite-not-numbered"
    NUMBERING_UNKNOWN = "numbering-unknown"


MEANINGS: Final[dict[str, str]] = {
    CrossReferenceCode.REF_NOT_WRITTEN: "The target's text does not write the reference the proposal names.",
    CrossReferenceCode.REF_UNKNOWN: "The reference names no label or printed number of the paper's numbered objects.",
    CrossReferenceCode.REF_ANOTHER_WORK: (
        "The text says the number is another work's (\"Table 1 of the original paper\"): not this paper's numbering."
    ),
    CrossReferenceCode.CITE_NOT_NUMBERED: (
        "A cited chunk belongs to no numbered object of the reference's kind (or only to the float of a panel)."
    ),
    CrossReferenceCode.NUMBERING_UNKNOWN: (
        "The paper numbers the referenced kind in a way the tool cannot follow, or prints one number twice: "
        "the reference is not decided (it moves no credence)."
    ),
}
