"""The codes of reading a cited work: citation-support's own, and the fetch codes reference-resolves
shares (it reads registries' records over the same fetcher).

Each is declared with its meaning through `define_codes` by the check types that use it (see
docs/plugins.md: a plugin owns its codes); `python -m cgx_core.codes` lists them under their check type."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class CitationCode(StrEnum):
    """A stable, kebab-case code of citation."""

    NOT_A_REFERENCE = "not-a-reference"
    SOURCE_UNTIED = "source-untied"
    SOURCE_CHANGED = "source-changed"
    SOURCE_UNREADABLE = "source-unreadable"
    PASSAGE_NOT_FOUND = "passage-not-found"
    FETCH_REFUSED = "fetch-refused"
    FETCH_FAILED = "fetch-failed"
    FETCH_TOO_LARGE = "fetch-too-large"
    FETCH_TIMEOUT = "fetch-timeout"
    FETCH_CONTENT_TYPE = "fetch-content-type"
    FETCH_REDIRECTS = "fetch-redirects"


MEANINGS: Final[dict[str, str]] = {
    CitationCode.NOT_A_REFERENCE: "The entry id is not a reference node.",
    CitationCode.SOURCE_UNTIED: "The source is not tied to the bibliography entry.",
    CitationCode.SOURCE_CHANGED: "The cited copy changed since start_run.",
    CitationCode.SOURCE_UNREADABLE: "No text could be extracted from the source.",
    CitationCode.PASSAGE_NOT_FOUND: "The passage is not in the source's text.",
    CitationCode.FETCH_REFUSED: "The URL is not http(s) or resolves to an address that is not public.",
    CitationCode.FETCH_FAILED: "The fetch failed (connection, TLS or HTTP status).",
    CitationCode.FETCH_TOO_LARGE: "The body is larger than the cap.",
    CitationCode.FETCH_TIMEOUT: "The fetch took longer than its timeout.",
    CitationCode.FETCH_CONTENT_TYPE: "The content type is not one the tool reads.",
    CitationCode.FETCH_REDIRECTS: "More than 5 redirects, or a redirect loop.",
}

READING_MEANINGS: Final[dict[str, str]] = {
    code: meaning
    for code, meaning in MEANINGS.items()
    if code.startswith("fetch-") or code == CitationCode.NOT_A_REFERENCE
}
"""What any check that reads a cited entry's work from the web may meet (reference-resolves declares these)."""
