"""A reading: what a citation check read in a source, as the log records it and replay re-derives it.

The log keeps the digests of the source's bytes and of their text, and where the passage is, never
the bytes. Replay gets the bytes again (the run's stored copy, or a file the user passes) and reads
them again; a reading the bytes do not give (other bytes, other text, the passage elsewhere or
nowhere) is refused, so a log cannot claim a source said what it did not.
"""

from __future__ import annotations

from typing import Any

import attrs

from cgx_checks.citation.codes import CitationCode
from cgx_checks.citation.passage import Location, find_passage
from cgx_checks.citation.text import KINDS, Kind, extract_text
from cgx_core.base.digests import bytes_digest
from cgx_core.codes import Code
from cgx_core.errors import CgxError


@attrs.frozen
class Reading:
    """The digests of a source's bytes and text, its kind and charset, and where the passage is."""

    kind: Kind
    charset: str | None
    bytes_digest: str
    text_digest: str
    location: Location

    def to_json(self) -> dict[str, Any]:
        """The reading as the log records it."""
        return {
            "kind": self.kind,
            "charset": self.charset,
            "bytes_digest": self.bytes_digest,
            "text_digest": self.text_digest,
            "start": self.location.start,
            "end": self.location.end,
            "page": self.location.page,
        }

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> Reading:
        """A reading from the log; a malformed one is `run-corrupt`, since only this package writes them."""
        try:
            kind = value["kind"]
            if kind not in KINDS:
                raise ValueError(f"unknown kind {kind!r}")
            page = value["page"]
            if page is not None and not isinstance(page, int):
                raise ValueError(f"page {page!r} is not a number")
            location = Location(start=int(value["start"]), end=int(value["end"]), page=page)
            return cls(
                kind=kind,
                charset=value["charset"],
                bytes_digest=str(value["bytes_digest"]),
                text_digest=str(value["text_digest"]),
                location=location,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CgxError(Code.RUN_CORRUPT, f"a logged citation reading is malformed: {exc}") from exc


def read_source(data: bytes, kind: Kind, passage: str, *, charset: str | None = None) -> Reading:
    """Extract the text of a source's bytes and find the passage in it.

    Raises `source-unreadable` when no text comes out, `passage-not-found` when the passage is not
    in the text after normalisation.
    """
    source = extract_text(data, kind, charset=charset)
    location = find_passage(source, passage)
    if location is None:
        raise CgxError(
            CitationCode.PASSAGE_NOT_FOUND,
            f"the passage is not in the {kind} source's text, even after normalising whitespace, line-break "
            "hyphens, ligatures, quotes, dashes and case; quote the source's words exactly",
        )
    return Reading(
        kind=kind,
        charset=charset,
        bytes_digest=bytes_digest(data),
        text_digest=bytes_digest(source.text.encode("utf-8")),
        location=location,
    )


def replay_reading(data: bytes, passage: str, recorded: Reading) -> Reading:
    """Read `data` again as the recorded reading says, and refuse (`source-mismatch`) any difference."""
    if bytes_digest(data) != recorded.bytes_digest:
        raise CgxError(
            Code.SOURCE_MISMATCH,
            f"the source has digest {bytes_digest(data)}, but the run read bytes with digest {recorded.bytes_digest}",
        )
    try:
        again = read_source(data, recorded.kind, passage, charset=recorded.charset)
    except CgxError as exc:
        raise CgxError(
            Code.SOURCE_MISMATCH, f"the recorded source no longer gives the logged reading: [{exc.code}] {exc.message}"
        ) from exc
    if again != recorded:
        raise CgxError(
            Code.SOURCE_MISMATCH,
            f"the recorded source gives another reading than the log: {again.to_json()} "
            f"instead of {recorded.to_json()}",
        )
    return again
