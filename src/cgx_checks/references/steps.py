"""The requests of a reference-resolves check, made live or read back from what the run recorded.

The check's decision is a pure function of the entry and the bytes of its requests, and which request comes
next depends on the bytes of the one before (the agency doi.org names decides which registry is asked). So
the check is written once against `Steps.get(url)`: live, `LiveSteps` reads the run's offline source for the
URL or fetches it through the pinned public-only fetcher, and records each request (`{"url", "hops" or
"offline", "content_type", "bytes_digest"}`, or `{"url", "hops", "error"}` for one that failed); in replay
and verify, `RecordedSteps` gives back the same bytes (by digest, from the run's `sources/` or `--sources`)
or the same error, in the same order, and refuses a request the log does not record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol

import attrs

from cgx_checks.citation.recorded import FETCH_ERRORS
from cgx_checks.references.codes import ReferenceCode
from cgx_core.base.digests import bytes_digest
from cgx_core.codes import Code
from cgx_core.errors import CgxError

if TYPE_CHECKING:
    from cgx_checks.citation.fetch import FetchPolicy
    from cgx_checks.citation.urls import ParsedUrl
    from cgx_core.plugin_api import RunView

METADATA_TYPES: Final = frozenset(
    {"application/json", "application/vnd.api+json", "application/atom+xml", "application/xml", "text/xml"}
)
"""The content types of the registries' and arXiv's metadata responses; nothing else is read."""


@attrs.frozen
class Response:
    """A metadata response: its media type and bytes."""

    content_type: str
    data: bytes = attrs.field(repr=False)


class Steps(Protocol):
    def get(self, url: str) -> Response:
        """The response to `url`; raises `CgxError` when it cannot be had."""
        ...


def _same_host(first: str) -> Any:
    from cgx_checks.citation.urls import parse_url

    start = parse_url(first)

    def allow(hop: ParsedUrl) -> None:
        if hop.scheme != "https" or hop.host != start.host:
            raise CgxError(
                ReferenceCode.METADATA_UNREADABLE,
                f"{first} redirected to {hop.url}: a registry's record comes from the registry's own host",
            )

    return allow


class LiveSteps:
    """Requests made now: the run's offline source for a URL when it has one, else the network."""

    def __init__(self, run: RunView, policy: FetchPolicy | None) -> None:
        self._run = run
        self._policy = policy
        self.recorded: list[dict[str, Any]] = []
        self.metadata: dict[str, bytes] = {}

    def _fetch_policy(self) -> FetchPolicy:
        from cgx_checks.citation.fetch import DEFAULT_POLICY

        policy = self._policy or DEFAULT_POLICY
        return attrs.evolve(policy, content_types=METADATA_TYPES)

    def get(self, url: str) -> Response:
        from cgx_checks.citation.fetch import FetchError, fetch
        from cgx_checks.citation.recorded import hops_of
        from cgx_checks.citation.text import media_type

        offline = self._run.offline_source(url)
        if offline is not None:
            media, _ = media_type(offline.content_type)
            self.recorded.append({"url": url, "offline": True, "content_type": media, "bytes_digest": offline.digest})
            return Response(media, offline.data)
        try:
            fetched = fetch(url, policy=self._fetch_policy(), allow=_same_host(url))
        except FetchError as error:
            self.recorded.append(
                {"url": url, "hops": hops_of(error.hops), "error": {"code": str(error.code), "message": error.message}}
            )
            raise
        digest = bytes_digest(fetched.body)
        self.metadata[digest] = fetched.body
        self.recorded.append(
            {"url": url, "hops": hops_of(fetched.hops), "content_type": fetched.content_type, "bytes_digest": digest}
        )
        return Response(fetched.content_type, fetched.body)


RECORDED_FAILURES: Final = FETCH_ERRORS | {
    ReferenceCode.METADATA_UNREADABLE
}  # METADATA_UNREADABLE: off the registry's host


class RecordedSteps:
    """The requests a live check made, given back in order from the log and the stored bytes."""

    def __init__(self, recorded: Any, run: RunView) -> None:
        if not isinstance(recorded, Mapping) or not isinstance(recorded.get("steps"), list):
            raise CgxError(Code.RUN_CORRUPT, "the log records no requests of this reference-resolves check")
        self._steps: Sequence[Any] = recorded["steps"]
        self._run = run
        self.recorded: list[dict[str, Any]] = []
        self.metadata: dict[str, bytes] = {}

    def get(self, url: str) -> Response:
        index = len(self.recorded)
        if index >= len(self._steps) or not isinstance(self._steps[index], Mapping):
            raise CgxError(Code.SOURCE_MISMATCH, f"the check now requests {url}, which the run did not record")
        step = dict(self._steps[index])
        if step.get("url") != url:
            raise CgxError(
                Code.SOURCE_MISMATCH, f"the check now requests {url} where the run recorded {step.get('url')}"
            )
        self.recorded.append(step)
        error = step.get("error")
        if error is not None:
            code = str(error.get("code")) if isinstance(error, Mapping) else None
            if code is None or code not in RECORDED_FAILURES or not isinstance(error.get("message"), str):
                raise CgxError(Code.RUN_CORRUPT, f"a logged request of {url} has a malformed error: {error!r}")
            raise CgxError(code, error["message"])
        digest = str(step.get("bytes_digest"))
        data = self._run.source_bytes(digest)
        if data is None:
            raise CgxError(
                Code.SOURCE_MISMATCH,
                f"the response to {url} ({digest}) is not in the run's sources/: pass --sources DIR with a file "
                "named by the hex of that digest",
            )
        return Response(str(step.get("content_type")), data)

    def finished(self) -> None:
        """Every recorded request was made again: a check that now stops earlier decides otherwise."""
        if len(self.recorded) != len(self._steps):
            raise CgxError(Code.SOURCE_MISMATCH, "the check now makes fewer requests than the run recorded")
