"""reference-resolves: does a bibliography entry point at a real work, and is it the work the entry says?

The entry's DOI is resolved through the public metadata APIs of the registries (doi.org names the agency;
Crossref's REST API or DataCite's JSON:API gives the record) and its arXiv id through arXiv's API, each
request through the citation check's pinned, public-only fetcher (or the run's offline sources). The
record's title, first author and year are compared with the entry's (cgx_checks.references.identity):

* passed: every identifier resolves, and every record agrees with the entry;
* failed: an identifier resolves to nothing (doi.org: "DOI does not exist"; arXiv has no such paper), or a
  record differs from the entry: the detail names each field that differs, with both values;
* error: a registry cannot be reached or answers what its API does not document, or the DOI's agency is
  one whose metadata is not read. It moves no credence, and another check may follow it.

A retraction, withdrawal or expression of concern that the metadata records (Crossref's `updated-by`,
`update-to` and `relation`, arXiv's comment) is reported whatever the result, in the check record's
`notices` and in report.json: the work is still the one the entry names, but a reviewer must see it.

The decision is a pure function of the entry and the bytes of the responses: the log records each request
and the digest of its response, and the responses (public metadata, not the works) are kept in the run's
`sources/`, so replay and verify decide the check again offline.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cgx_checks.citation.codes import READING_MEANINGS, CitationCode
from cgx_checks.references.codes import MEANINGS, ReferenceCode
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.plugin_api import (
    CheckTypeBase,
    CheckTypeRegistry,
    Outcome,
    Prepared,
    ProposingTool,
    Refusal,
    Result,
    RunView,
    define_codes,
    hookimpl,
)

if TYPE_CHECKING:
    from cgx_checks.citation.fetch import FetchPolicy
    from cgx_checks.references.registries import Unregistered, WorkRecord
    from cgx_checks.references.steps import Steps

_PASS_THROUGH = (Code.SOURCE_MISMATCH, Code.RUN_CORRUPT)
"""Replay reading other bytes than the log records: the rebuild is refused, not the check."""


def _resolve(inputs: Mapping[str, Any], steps: Steps) -> tuple[list[WorkRecord], list[Unregistered], list[str]]:
    """The records of every identifier the entry names, the identifiers nothing knows, and the agencies
    whose metadata is not read."""
    from cgx_checks.citation.ties import normalise_doi, parse_arxiv_id
    from cgx_checks.references import registries

    records: list[WorkRecord] = []
    missing: list[Unregistered] = []
    unsupported: list[str] = []
    if inputs.get("doi"):
        doi = normalise_doi(str(inputs["doi"]))
        if doi is None:
            missing.append(registries.Unregistered("doi", str(inputs["doi"]), "it is not a DOI (10.<prefix>/<suffix>)"))
        else:
            agency = registries.registration_agency(doi, steps.get(registries.agency_url(doi)).data)
            if isinstance(agency, registries.Unregistered):
                missing.append(agency)
            elif agency.casefold() == registries.CROSSREF.casefold():
                records.append(registries.crossref_record(doi, steps.get(registries.crossref_url(doi)).data))
            elif agency.casefold() == registries.DATACITE.casefold():
                records.append(registries.datacite_record(doi, steps.get(registries.datacite_url(doi)).data))
            else:
                unsupported.append(f"{doi} is registered with {agency}")
    if inputs.get("arxiv"):
        arxiv = parse_arxiv_id(str(inputs["arxiv"]))
        if arxiv is None:
            missing.append(registries.Unregistered("arxiv", str(inputs["arxiv"]), "it is not an arXiv id"))
        else:
            found = registries.arxiv_record(
                arxiv.ident, arxiv.version, steps.get(registries.arxiv_url(str(arxiv))).data
            )
            if isinstance(found, registries.Unregistered):
                missing.append(found)
            else:
                records.append(found)
    return records, missing, unsupported


def _notice_sentence(notices: list[dict[str, Any]]) -> str:
    if not notices:
        return ""
    parts = [
        " ".join(
            part
            for part in (
                notice["type"].replace("_", " "),
                f"({notice['doi']})" if notice.get("doi") else "",
                f"in {notice['date']}" if notice.get("date") else "",
            )
            if part
        )
        + f" recorded by {notice['via']}"
        for notice in notices
    ]
    return "; NOTE: " + "; ".join(parts)


def decide(inputs: Mapping[str, Any], steps: Steps) -> Outcome:
    """Resolve the entry's identifiers through `steps` and compare each record with the entry."""
    from cgx_checks.references.identity import EntryFields, differences

    records, missing, unsupported = _resolve(inputs, steps)
    if not records and not missing:
        raise CgxError(
            ReferenceCode.REGISTRY_UNSUPPORTED,
            f"{'; '.join(unsupported)}: only Crossref's and DataCite's metadata (and arXiv's) is read",
        )
    fields = EntryFields.from_inputs(inputs)
    found = [
        diff
        for record in records
        for diff in differences(fields, record.titles, record.first_author, record.years, record.via)
    ]
    notices = [notice.to_json() for record in records for notice in record.notices]
    output: dict[str, Any] = {
        "resolved": [record.to_json() for record in records],
        "unregistered": [item.to_json() for item in missing],
        "differences": [diff.to_json() for diff in found],
        "unsupported": unsupported,
        "notices": notices,
    }
    target = inputs["target"]
    result: Result
    if missing or found:
        detail = "; ".join([item.sentence() for item in missing] + [diff.sentence() for diff in found])
        result = "failed"
    else:
        described = "; ".join(
            f"{record.via} records {record.titles[0] if record.titles else 'no title'!r}"
            f" by {record.first_author or 'no author'} ({_years(record.years)})"
            for record in records
        )
        detail = f"{target}'s entry resolves as it says: {described}"
        result = "passed"
    return Outcome(
        result,
        detail + _notice_sentence(notices),
        output=output,
        notices=[{**notice, "target": target} for notice in notices],
    )


def _years(years: tuple[int, ...]) -> str:
    if not years:
        return "no year"
    return str(years[0]) if len(years) == 1 else f"{years[0]}-{years[-1]}"


class ReferenceResolves(CheckTypeBase):
    """The check type. `policy` is the fetch policy (the default refuses every non-public address)."""

    name = "reference-resolves"
    tool: ProposingTool = "run_checks"
    description = (
        "Whether a bibliography entry points at a real work and is the work it says: its DOI resolved through "
        "doi.org and Crossref's or DataCite's metadata, its arXiv id through arXiv's API, and the title, first "
        "author and year compared with the entry; a retraction the metadata records is reported. Target a "
        "reference node (r-N) with a DOI or an arXiv id; no other field."
    )
    proposal_schema: Mapping[str, Any] = {"properties": {}, "additionalProperties": False}
    retry_after_error = True
    codes = define_codes({**READING_MEANINGS, **MEANINGS})

    def __init__(self, policy: FetchPolicy | None = None) -> None:
        self._policy = policy

    def prepare(self, proposal: Mapping[str, Any], run: RunView) -> Prepared | Refusal:
        target = str(proposal["target"])
        node = run.node(target)
        if node is None or node.unit != "reference":
            references = [item.id for item in run.nodes() if item.unit == "reference"][:20]
            return Refusal(
                CitationCode.NOT_A_REFERENCE,
                f"'{target}' is not a reference node of this run",
                f"target a reference node: {references}" if references else "this run has no reference nodes",
            )
        attributes = node.attributes
        if not attributes.get("doi") and not attributes.get("arxiv"):
            return Refusal(
                ReferenceCode.REFERENCE_NO_IDENTIFIER,
                f"'{target}' ({attributes.get('key')}) names neither a DOI nor an arXiv id",
                "check a reference whose entry has a doi or an eprint (start_run lists them); this one cannot be "
                "resolved",
            )
        inputs = {
            "target": target,
            "key": attributes.get("key"),
            "doi": attributes.get("doi"),
            "arxiv": attributes.get("arxiv"),
            "title": attributes.get("title"),
            "first_author": attributes.get("first_author"),
            "year": attributes.get("year"),
            "text": node.text,
        }
        return Prepared(target, inputs)

    def observation_key(self, prepared: Prepared) -> str:
        inputs = prepared.inputs
        return json.dumps([prepared.target, inputs.get("doi"), inputs.get("arxiv")], ensure_ascii=False)

    def run(self, prepared: Prepared, run: RunView, *, model: str | None) -> Outcome:
        from cgx_checks.references.steps import LiveSteps, RecordedSteps

        if run.mode == "live":
            live = LiveSteps(run, self._policy)
            outcome = self._decided(prepared.inputs, live)
            return _with_record(outcome, live.recorded, live.metadata)
        recorded = RecordedSteps(run.recorded_read(), run)
        outcome = self._decided(prepared.inputs, recorded)
        recorded.finished()
        return _with_record(outcome, recorded.recorded, {})

    def rerun(self, inputs: Mapping[str, Any], run: RunView) -> Outcome | None:
        """Decide again from the recorded responses (verify): the run keeps them, so no network is needed."""
        from cgx_checks.references.steps import RecordedSteps

        if run.recorded_read() is None:
            return None
        try:
            recorded = RecordedSteps(run.recorded_read(), run)
            outcome = self._decided(inputs, recorded)
            recorded.finished()
        except CgxError as error:
            return Outcome("error", error.message, code=str(error.code))
        return _with_record(outcome, recorded.recorded, {})

    @staticmethod
    def _decided(inputs: Mapping[str, Any], steps: Steps) -> Outcome:
        try:
            return decide(inputs, steps)
        except CgxError as error:
            if error.code in _PASS_THROUGH:
                raise
            return Outcome("error", error.message, code=str(error.code))


def _with_record(outcome: Outcome, steps: list[dict[str, Any]], metadata: Mapping[str, bytes]) -> Outcome:
    """The outcome with what it read: every request (logged, and in output.json) and the responses' bytes."""
    import attrs

    return attrs.evolve(outcome, read={"steps": steps}, metadata=dict(metadata))


@hookimpl
def cgx_register_check_types(register: CheckTypeRegistry) -> None:
    register(ReferenceResolves())
