"""reference-resolves' own codes: an entry it cannot resolve.

Each is declared with its meaning through `define_codes` by the check types that use it (see
docs/plugins.md: a plugin owns its codes); `python -m cgx_core.codes` lists them under their check type."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class ReferenceCode(StrEnum):
    """A stable, kebab-case code of references."""

    REFERENCE_NO_IDENTIFIER = "reference-no-identifier"
    METADATA_UNREADABLE = "metadata-unreadable"
    REGISTRY_UNSUPPORTED = "registry-unsupported"


MEANINGS: Final[dict[str, str]] = {
    ReferenceCode.REFERENCE_NO_IDENTIFIER: (
        "The reference names neither a DOI nor an arXiv id, so nothing can resolve it."
    ),
    ReferenceCode.METADATA_UNREADABLE: (
        "A registry's or arXiv's metadata response is not in the format its API documents."
    ),
    ReferenceCode.REGISTRY_UNSUPPORTED: (
        "The DOI is registered with an agency other than Crossref and DataCite, whose metadata is not read."
    ),
}
