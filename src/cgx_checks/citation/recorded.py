"""What a citation check records of a fetch that gave no reading, and how replay gives the same error back.

A fetched source is logged as a reading (the digests of the bytes and of their text, and where the passage
is). A fetch can also end without one, and replay must rebuild that check too, with no network:

* the fetch failed (no network, a DNS failure, a status that is not 200, a timeout, a redirect off arXiv):
  the log records the hops answered before the failure and the error, `{"source", "hops", "error": {"code",
  "message"}}`; replay gives that error back as recorded. It moves no credence, and the call's logged result
  digest covers its message, so an edited error is a divergence;
* the bytes came but gave no passage (`source-unreadable`, `passage-not-found`): the log records what was
  fetched, `{"source", "hops", "fetched": {"kind", "charset", "bytes_digest"}, "error"}`, and replay reads
  the recorded bytes again and must meet the same error, or refuses the rebuild (`source-mismatch`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from cgx_checks.citation.codes import CitationCode
from cgx_core.codes import Code
from cgx_core.errors import CgxError

if TYPE_CHECKING:
    from cgx_checks.citation.fetch import Hop
    from cgx_checks.citation.text import Kind
    from cgx_core.plugin_api import RunView

FETCH_ERRORS: Final = frozenset(
    {
        CitationCode.FETCH_REFUSED,
        CitationCode.FETCH_FAILED,
        CitationCode.FETCH_TOO_LARGE,
        CitationCode.FETCH_TIMEOUT,
        CitationCode.FETCH_CONTENT_TYPE,
        CitationCode.FETCH_REDIRECTS,
    }
)
"""The codes a fetch itself ends with when it fails (each check that logs a failed fetch adds its own)."""

FETCH_FAILURES: Final = FETCH_ERRORS | {CitationCode.SOURCE_UNTIED}  # SOURCE_UNTIED: an arXiv tie redirected off arXiv
"""The codes a fetch can end with; a logged failure with any other code was not written by this package."""

READING_FAILURES: Final = frozenset({CitationCode.SOURCE_UNREADABLE, CitationCode.PASSAGE_NOT_FOUND})


def hops_of(hops: Sequence[Hop]) -> list[dict[str, Any]]:
    """The hops as the log records them: the URL asked for and the status it answered (never the address)."""
    return [{"url": hop.url, "status": hop.status} for hop in hops]


def _error(error: CgxError) -> dict[str, str]:
    return {"code": str(error.code), "message": error.message}


def failed_read(url: str, hops: list[dict[str, Any]], error: CgxError) -> dict[str, Any]:
    """The record of a fetch that failed."""
    return {"source": url, "hops": hops, "error": _error(error)}


def unread_read(
    url: str, hops: list[dict[str, Any]], kind: Kind, charset: str | None, digest: str, error: CgxError
) -> dict[str, Any]:
    """The record of a fetch whose bytes gave no passage."""
    return {
        "source": url,
        "hops": hops,
        "fetched": {"kind": kind, "charset": charset, "bytes_digest": digest},
        "error": _error(error),
    }


def _logged_error(recorded: Mapping[str, Any], allowed: frozenset[str]) -> CgxError:
    error = recorded.get("error")
    if not isinstance(error, Mapping) or not isinstance(error.get("message"), str):
        raise CgxError(Code.RUN_CORRUPT, f"a logged citation error is malformed: {error!r}")
    code = str(error.get("code"))
    if code not in allowed:
        raise CgxError(Code.RUN_CORRUPT, f"a logged citation error has code {error.get('code')!r}, which it cannot")
    return CgxError(code, error["message"])


def recorded_failure(recorded: Mapping[str, Any]) -> CgxError | None:
    """The error a logged fetch failed with, or None when the log records bytes (a reading, or none found)."""
    if "error" not in recorded or "fetched" in recorded:
        return None
    if not isinstance(recorded.get("hops"), list):
        raise CgxError(Code.RUN_CORRUPT, "a logged citation failure has no hops")
    return _logged_error(recorded, FETCH_FAILURES)


def stored_bytes(run: RunView, url: str, digest: str) -> bytes:
    """The bytes a live check read from `url`, stored in the run (or `--sources`) under their digest; a replay
    or verify without them is `source-mismatch`, saying how to give them."""
    data = run.source_bytes(digest)
    if data is None:
        raise CgxError(
            Code.SOURCE_MISMATCH,
            f"the bytes of {url} ({digest}) are not stored: pass --sources DIR with a file named by the hex of "
            "that digest",
        )
    return data


def replay_unread(recorded: Mapping[str, Any], passage: str, run: RunView) -> CgxError:
    """Read the recorded bytes of a fetch that gave no passage again: the same error, or `source-mismatch`."""
    from cgx_checks.citation.reading import read_source
    from cgx_checks.citation.text import KINDS

    logged = _logged_error(recorded, READING_FAILURES)
    fetched = recorded["fetched"]
    if not isinstance(fetched, Mapping) or fetched.get("kind") not in KINDS:
        raise CgxError(Code.RUN_CORRUPT, f"a logged citation fetch is malformed: {fetched!r}")
    data = stored_bytes(run, str(recorded["source"]), str(fetched.get("bytes_digest")))
    charset = fetched.get("charset")
    try:
        read_source(data, fetched["kind"], passage, charset=charset if isinstance(charset, str) else None)
    except CgxError as again:
        if (again.code, again.message) == (logged.code, logged.message):
            return logged
        raise CgxError(
            Code.SOURCE_MISMATCH, f"the recorded source now gives [{again.code}] {again.message}, not the logged error"
        ) from None
    raise CgxError(Code.SOURCE_MISMATCH, "the recorded source now gives the passage the run did not find in it")
