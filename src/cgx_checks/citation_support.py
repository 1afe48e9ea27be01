"""citation-support: the agent's judgement of a passage, on a source the tool reads itself and ties to the
bibliography entry (see cgx_checks.citation and docs/citations.md).

The check passes or fails as the agent judged only when the passage is in the source and the source is
tied to the entry: the run's cited copy named by the entry's key and unchanged since start_run, the arXiv
paper the entry names, or the page its DOI resolves to. The tie of a URL is decided from the URL and the
entry before any connection, so an untied URL is never fetched; a tied one is read from the run's offline
sources when start_run was given one for it, else fetched. Anything else is an error check, which moves no
credence and is listed in report.json; a fetch that failed is logged with its error, so replay gives the
same error back with no network (cgx_checks.citation.recorded).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cgx_checks.citation.codes import MEANINGS, CitationCode
from cgx_checks.common import error_outcome
from cgx_core.base.digests import bytes_digest
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.plugin_api import (
    CheckTypeBase,
    CheckTypeRegistry,
    Outcome,
    Prepared,
    ProposingTool,
    Refusal,
    RunView,
    define_codes,
    hookimpl,
)

if TYPE_CHECKING:
    from cgx_checks.citation.fetch import FetchPolicy
    from cgx_checks.citation.ties import Entry, Tie
    from cgx_core.plugin_api import OfflineSource


def _is_url(source: str) -> bool:
    return "://" in source or source.lower().startswith(("http:", "https:"))


class CitationSupport(CheckTypeBase):
    """The check type. `policy` is the fetch policy: the default refuses every non-public address."""

    name = "citation-support"
    tool: ProposingTool = "judge_citation"
    description = (
        "Whether a cited work supports the citing node, as the calling model judged a passage that the tool "
        "itself finds in a source tied to the bibliography entry."
    )
    proposal_schema: Mapping[str, Any] = {
        "properties": {
            "entry": {"type": "string", "minLength": 1, "maxLength": 100},
            "source": {"type": "string", "minLength": 1, "maxLength": 2000},
            "passage": {"type": "string", "minLength": 1, "maxLength": 20000},
            "supports": {"type": "boolean"},
        },
        "required": ["entry", "source", "passage", "supports"],
        "additionalProperties": False,
    }
    uses_model = True
    retry_after_error = True
    codes = define_codes(MEANINGS)
    another_source_codes = frozenset({CitationCode.SOURCE_UNTIED})

    def __init__(self, policy: FetchPolicy | None = None) -> None:
        self._policy = policy

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        from cgx_checks.citation.passage import passage_problem

        target, entry_id = str(proposal["target"]), str(proposal["entry"])
        entry = run.node(entry_id)
        cited = list(run.cited_entries(target))
        if entry is None or entry.unit != "reference":
            return Refusal(
                CitationCode.NOT_A_REFERENCE,
                f"'{entry_id}' is not a reference node of this run",
                f"give the reference node the citing chunk cites: {cited}" if cited else "give a reference node (r-N)",
            )
        if entry_id not in cited:
            return Refusal(
                Code.PROPOSAL_INVALID,
                f"'{target}' does not cite '{entry_id}'",
                f"judge an entry '{target}' cites: {cited}"
                if cited
                else f"'{target}' cites nothing; judge a node that cites",
            )
        problem = passage_problem(str(proposal["passage"]))
        if problem is not None:
            return Refusal(Code.PROPOSAL_INVALID, problem, "quote a longer passage, as it reads in the source")
        inputs = {
            "target": target,
            "entry": entry_id,
            "key": entry.attributes.get("key"),
            "doi": entry.attributes.get("doi"),
            "arxiv": entry.attributes.get("arxiv"),
            "source": proposal["source"],
            "passage": proposal["passage"],
            "supports": proposal["supports"],
        }
        return Prepared(target, inputs)

    def slot_of(self, inputs: Mapping[str, Any]) -> str:
        return str(inputs.get("entry", ""))

    def observation_key(self, prepared: Prepared) -> str:
        inputs = prepared.inputs
        return json.dumps([prepared.target, inputs["entry"], inputs["source"], inputs["passage"]], ensure_ascii=False)

    def rerun(self, inputs: Mapping[str, Any], run: RunView) -> Outcome | None:
        return None  # it rests on the agent's judgement of the passage

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        from cgx_checks.citation.ties import Entry

        inputs = prepared.inputs
        entry = Entry(str(inputs["key"]), inputs.get("doi"), inputs.get("arxiv"))
        source = str(inputs["source"])
        try:
            if _is_url(source):
                return self._url(inputs, entry, source, run)
            return self._cited(inputs, entry, source, run)
        except CgxError as error:
            if error.code in (Code.SOURCE_MISMATCH, Code.RUN_CORRUPT):
                raise  # replay read other bytes than the log recorded: refuse the rebuild
            return error_outcome(error)

    # -- the two kinds of source ------------------------------------------------------------------------

    def _cited(self, inputs: Mapping[str, Any], entry: Entry, name: str, run: RunView) -> Outcome:
        from cgx_checks.citation.reading import read_source
        from cgx_checks.citation.text import kind_for
        from cgx_checks.citation.ties import tie_for_cited

        data = run.cited_copy(name)
        if data is None:
            raise CgxError(
                CitationCode.SOURCE_UNTIED, f"'{name}' is not a cited copy of this run (see start_run's cited)"
            )
        tie = tie_for_cited(name, entry, bytes_digest(data), run.cited_digest(name))
        if tie is None:
            raise CgxError(
                CitationCode.SOURCE_UNTIED, f"cited/{name} is the copy of another entry, not of '{entry.key}'"
            )
        reading = read_source(data, kind_for(name), str(inputs["passage"]))
        read = {"source": name, "reading": reading.to_json()}
        return self._judged(inputs, tie, read, name)

    def _url(self, inputs: Mapping[str, Any], entry: Entry, url: str, run: RunView) -> Outcome:
        from cgx_checks.citation.ties import tie_before_fetch, urls_for

        tie = tie_before_fetch(url, entry)
        if tie is None:
            tied = urls_for(entry)
            where = f"give one of {tied}" if tied else "the entry names no DOI or arXiv id: give its copy in cited/"
            raise CgxError(
                CitationCode.SOURCE_UNTIED, f"{url} is not tied to '{entry.key}', so it was not fetched: {where}"
            )
        if run.mode == "live":
            offline = run.offline_source(url)
            return (
                self._fetched(inputs, entry, tie, url) if offline is None else self._read_offline(inputs, tie, offline)
            )
        recorded = run.recorded_read()
        if isinstance(recorded, Mapping) and "offline" in recorded:
            return self._replayed_offline(inputs, tie, url, recorded, run)
        return self._replayed(inputs, entry, url, run)

    def _replayed_offline(
        self, inputs: Mapping[str, Any], tie: Tie, url: str, recorded: Mapping[str, Any], run: RunView
    ) -> Outcome:
        """Read the run's offline source again, as the live check did; any other reading is refused."""
        offline = run.offline_source(url)
        if offline is None:
            raise CgxError(Code.SOURCE_MISMATCH, f"the run's offline source of {url} is missing from its sources/")
        outcome = self._read_offline(inputs, tie, offline)
        if outcome.read != recorded:
            raise CgxError(
                Code.SOURCE_MISMATCH, f"the run's offline source of {url} gives another reading than the log"
            )
        return outcome

    def _read_offline(self, inputs: Mapping[str, Any], tie: Tie, source: OfflineSource) -> Outcome:
        """Read the offline source start_run was given for a tied URL, instead of the network."""
        from cgx_checks.citation.reading import read_source
        from cgx_checks.citation.text import kind_for, media_type

        media, charset = media_type(source.content_type)
        offline = {"bytes_digest": source.digest, "content_type": source.content_type}
        try:
            reading = read_source(source.data, kind_for(media), str(inputs["passage"]), charset=charset)
        except CgxError as error:
            read = {
                "source": source.url,
                "offline": offline,
                "error": {"code": str(error.code), "message": error.message},
            }
            return Outcome("error", error.message, code=str(error.code), read=read)
        read = {"source": source.url, "offline": offline, "reading": reading.to_json()}
        return self._judged(inputs, tie, read, source.url, via=" (read from the offline sources start_run was given)")

    def _fetched(self, inputs: Mapping[str, Any], entry: Entry, tie: Tie, url: str) -> Outcome:
        """Fetch a tied URL; a failure is an error check that records what happened, for replay."""
        from cgx_checks.citation.fetch import DEFAULT_POLICY, FetchError, fetch
        from cgx_checks.citation.reading import read_source
        from cgx_checks.citation.recorded import failed_read, hops_of, unread_read
        from cgx_checks.citation.text import kind_for
        from cgx_checks.citation.ties import hop_rule

        try:
            fetched = fetch(url, policy=self._policy or DEFAULT_POLICY, allow=hop_rule(tie))
        except FetchError as error:
            return Outcome(
                "error", error.message, code=str(error.code), read=failed_read(url, hops_of(error.hops), error)
            )
        hops = hops_of(fetched.hops)
        sources = {bytes_digest(fetched.body): fetched.body}
        kind = kind_for(fetched.content_type)
        try:
            reading = read_source(fetched.body, kind, str(inputs["passage"]), charset=fetched.charset)
        except CgxError as error:
            read = unread_read(url, hops, kind, fetched.charset, bytes_digest(fetched.body), error)
            return Outcome("error", error.message, code=str(error.code), read=read, sources=sources)
        read = {"source": url, "hops": hops, "reading": reading.to_json()}
        return self._judged(inputs, self._tie_of(hops, entry, url), read, url, sources=sources)

    def _replayed(self, inputs: Mapping[str, Any], entry: Entry, url: str, run: RunView) -> Outcome:
        """What the live check read, again, from the log and the recorded bytes; never the network."""
        from cgx_checks.citation.reading import Reading, replay_reading
        from cgx_checks.citation.recorded import recorded_failure, replay_unread, stored_bytes

        recorded = run.recorded_read()
        if not isinstance(recorded, Mapping) or recorded.get("source") != url:
            raise CgxError(Code.RUN_CORRUPT, f"the log records no reading of {url}")
        failure = recorded_failure(recorded)
        if failure is not None:  # the fetch failed: its error, as recorded (it moves no credence)
            return Outcome("error", failure.message, code=str(failure.code), read=dict(recorded))
        if "fetched" in recorded:  # fetched, but no passage came out of the bytes: read them again
            error = replay_unread(recorded, str(inputs["passage"]), run)
            return Outcome("error", error.message, code=str(error.code), read=dict(recorded))
        previous = Reading.from_json(recorded["reading"])
        data = stored_bytes(run, url, previous.bytes_digest)
        reading = replay_reading(data, str(inputs["passage"]), previous)
        hops = list(recorded["hops"])
        read = {"source": url, "hops": hops, "reading": reading.to_json()}
        return self._judged(inputs, self._tie_of(hops, entry, url), read, url)

    @staticmethod
    def _tie_of(hops: list[dict[str, Any]], entry: Entry, url: str) -> Tie:
        from cgx_checks.citation.ties import tie_for_url

        tie = tie_for_url([str(hop["url"]) for hop in hops], entry)
        if tie is None:
            raise CgxError(CitationCode.SOURCE_UNTIED, f"{url} is not tied to '{entry.key}'")
        return tie

    def _judged(
        self,
        inputs: Mapping[str, Any],
        tie: Tie,
        read: dict[str, Any],
        source: str,
        sources: Mapping[str, bytes] | None = None,
        via: str = "",
    ) -> Outcome:
        supports = bool(inputs["supports"])
        reading = read["reading"]
        where = f"characters {reading['start']}-{reading['end']}" + (
            f", page {reading['page']}" if reading.get("page") else ""
        )
        detail = (
            f"the passage is at {where} of {source}{via}, tied to '{inputs['key']}' by {tie.kind}; "
            f"the model judged that it {'supports' if supports else 'does not support'} {inputs['target']}"
        )
        return Outcome(
            "passed" if supports else "failed",
            detail,
            output={"tie": {"kind": tie.kind, "names": tie.names}, **read},
            read=read,
            sources=sources or {},
        )


@hookimpl
def cgx_register_check_types(register: CheckTypeRegistry) -> None:
    register(CitationSupport())
