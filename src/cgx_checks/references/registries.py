"""What the public registries say about a work, read from the bytes their APIs return.

* doi.org's registration agency lookup, `https://doi.org/ra/<DOI>`: a JSON array of one object, with `RA`
  (`Crossref`, `DataCite`, `mEDRA`, ...) for a registered DOI, or `status` (`DOI does not exist`,
  `Invalid DOI`) for one that is not.
* Crossref's REST API, `https://api.crossref.org/works/<DOI>`: `{"status": "ok", "message-type": "work",
  "message": {...}}` with `title` and `subtitle` (arrays of strings, markup allowed), `author` (objects
  with `family`, `given`, `sequence`, or `name` for an organisation), the partial dates `issued`,
  `published`, `published-print`, `published-online` (`{"date-parts": [[2016, 6]]}`), and the updates:
  `updated-by` (the notices that update this work: `{"type": "retraction", "DOI", "updated", "source"}`),
  `update-to` (this record is itself a notice updating another work) and `relation`.
* DataCite's REST API (JSON:API), `https://api.datacite.org/dois/<DOI>`: `{"data": {"id", "type": "dois",
  "attributes": {"titles": [{"title", "titleType"?}], "creators": [{"name", "givenName", "familyName",
  "nameType"}], "publicationYear", "dates": [{"date", "dateType"}]}}}`.
* arXiv's API, `https://export.arxiv.org/api/query?id_list=<id>`: an Atom feed whose `entry` has `id`
  (`http://arxiv.org/abs/<id>v<n>`), `title`, `author/name`, `published` (version 1), `updated` (the
  latest version) and `arxiv:comment`; an id arXiv does not have gives no entry, or an entry whose id is
  under `/api/errors`.

Anything else is `metadata-unreadable`: the check errs rather than guess. Every parser is a pure function of
the bytes, so replay and verify decide the same way from the recorded responses.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from cgx_checks.references.codes import ReferenceCode
from cgx_core.errors import CgxError

CROSSREF: Final = "Crossref"
DATACITE: Final = "DataCite"
NOTICE_TYPES: Final = frozenset({"retraction", "partial_retraction", "withdrawal", "removal", "expression_of_concern"})
"""The updates a reviewer must see: the work is retracted, withdrawn, removed, or under an expression of concern."""

ATOM: Final = "{http://www.w3.org/2005/Atom}"
ARXIV: Final = "{http://arxiv.org/schemas/atom}"
_WITHDRAWN: Final = re.compile(r"\bwithdrawn\b", re.IGNORECASE)
_YEAR: Final = re.compile(r"^(\d{4})")
_ABS_ID: Final = re.compile(r"^https?://arxiv\.org/abs/(.+?)(?:v(\d+))?$")


def agency_url(doi: str) -> str:
    from cgx_checks.citation.ties import doi_path

    return f"https://doi.org/ra/{doi_path(doi)}"


def crossref_url(doi: str) -> str:
    from cgx_checks.citation.ties import doi_path

    return f"https://api.crossref.org/works/{doi_path(doi)}"


def datacite_url(doi: str) -> str:
    from cgx_checks.citation.ties import doi_path

    return f"https://api.datacite.org/dois/{doi_path(doi)}"


def arxiv_url(arxiv_id: str) -> str:
    """arXiv's API query for one paper (`2101.00001`, `2101.00001v2` or `hep-th/9901001`)."""
    return f"https://export.arxiv.org/api/query?id_list={arxiv_id}"


def unreadable(what: str, why: str) -> CgxError:
    return CgxError(ReferenceCode.METADATA_UNREADABLE, f"{what}: {why}")


@attrs.frozen
class Notice:
    """An update a registry records against the work: a retraction, an expression of concern, ..."""

    type: str
    via: str
    doi: str | None = None
    date: str | None = None
    source: str | None = None

    def to_json(self) -> dict[str, str]:
        return {name: value for name, value in attrs.asdict(self).items() if value is not None}


@attrs.frozen
class WorkRecord:
    """One registry's record of the work an identifier names."""

    via: str
    identifier: str
    titles: tuple[str, ...]
    first_author: str | None
    years: tuple[int, ...]
    notices: tuple[Notice, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "via": self.via,
            "identifier": self.identifier,
            "title": self.titles[0] if self.titles else None,
            "first_author": self.first_author,
            "years": list(self.years),
            "notices": [notice.to_json() for notice in self.notices],
        }


@attrs.frozen
class Unregistered:
    """An identifier no registry knows: the DOI is not registered, or arXiv has no paper of that id."""

    field: str
    identifier: str
    why: str

    def to_json(self) -> dict[str, str]:
        return attrs.asdict(self)

    def sentence(self) -> str:
        return f"the {self.field} {self.identifier} resolves to nothing: {self.why}"


def _json(data: bytes, what: str) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as error:
        raise unreadable(what, f"not JSON ({type(error).__name__})") from None


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str)]
    return []


def registration_agency(doi: str, data: bytes) -> str | Unregistered:
    """The agency a DOI is registered with, from doi.org's lookup; or why it is not registered."""
    what = f"doi.org's agency lookup for {doi}"
    answer = _json(data, what)
    if not isinstance(answer, list) or len(answer) != 1 or not isinstance(answer[0], Mapping):
        raise unreadable(what, "not an array of one object")
    item = answer[0]
    agency, status = item.get("RA"), item.get("status")
    if isinstance(agency, str) and agency:
        return agency
    if status in ("DOI does not exist", "Invalid DOI"):
        return Unregistered("doi", doi, f"doi.org says {status!r}")
    raise unreadable(what, f"neither an agency nor a known status ({status!r})")


def _year_of(value: Any) -> int | None:
    if isinstance(value, Mapping):
        parts = value.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            year = parts[0][0]
            if isinstance(year, int) and not isinstance(year, bool) and 1000 <= year <= 9999:
                return year
    return None


def _crossref_author(authors: Any) -> str | None:
    if not isinstance(authors, list) or not authors:
        return None
    people = [author for author in authors if isinstance(author, Mapping)]
    first = next((author for author in people if author.get("sequence") == "first"), people[0] if people else None)
    if first is None:
        return None
    name = first.get("family") or first.get("name")
    return name if isinstance(name, str) and name.strip() else None


def _crossref_notices(message: Mapping[str, Any]) -> list[Notice]:
    notices: list[Notice] = []
    for field, itself in (("updated-by", False), ("update-to", True)):
        updates = message.get(field)
        for update in updates if isinstance(updates, list) else []:
            if not isinstance(update, Mapping) or not isinstance(update.get("type"), str):
                continue
            kind = update["type"].strip().lower().replace("-", "_").replace(" ", "_")
            if kind not in NOTICE_TYPES:
                continue
            year = _year_of(update.get("updated"))
            doi = update.get("DOI") if isinstance(update.get("DOI"), str) else None
            source = update.get("source") if isinstance(update.get("source"), str) else None
            if itself:  # this record is the notice: the DOI names a retraction notice, not the work
                kind, doi = f"{kind}_notice", str(message.get("DOI") or doi)
            notices.append(Notice(kind, CROSSREF, doi, str(year) if year else None, source))
    relations = message.get("relation")
    for name, targets in sorted(relations.items()) if isinstance(relations, Mapping) else []:
        kind = "retraction" if "retract" in name else "expression_of_concern" if "concern" in name else None
        if kind is None:
            continue
        for target in targets if isinstance(targets, list) else []:
            doi = target.get("id") if isinstance(target, Mapping) and isinstance(target.get("id"), str) else None
            notices.append(Notice(kind, CROSSREF, doi, None, f"relation {name}"))
    return sorted(set(notices), key=lambda notice: (notice.type, notice.doi or "", notice.date or ""))


def crossref_record(doi: str, data: bytes) -> WorkRecord:
    """Crossref's record of a DOI, from its REST API's `works/<DOI>` response."""
    what = f"Crossref's record of {doi}"
    answer = _json(data, what)
    if (
        not isinstance(answer, Mapping)
        or answer.get("status") != "ok"
        or not isinstance(answer.get("message"), Mapping)
    ):
        raise unreadable(what, 'not {"status": "ok", "message": {...}}')
    message = answer["message"]
    titles = _strings(message.get("title"))
    subtitles = _strings(message.get("subtitle"))
    full = [f"{title}: {subtitle}" for title in titles[:1] for subtitle in subtitles]
    years = sorted(
        {
            year
            for field in ("issued", "published", "published-print", "published-online")
            if (year := _year_of(message.get(field))) is not None
        }
    )
    return WorkRecord(
        CROSSREF,
        doi,
        (*titles, *full),
        _crossref_author(message.get("author")),
        tuple(years),
        tuple(_crossref_notices(message)),
    )


def _datacite_author(creators: Any) -> str | None:
    if not isinstance(creators, list) or not creators or not isinstance(creators[0], Mapping):
        return None
    first = creators[0]
    family = first.get("familyName")
    if isinstance(family, str) and family.strip():
        return family
    name = first.get("name")
    if not isinstance(name, str) or not name.strip():
        return None
    # A personal name is written "Family, Given"; an organisation's is taken whole.
    return name.split(",", 1)[0] if first.get("nameType") != "Organizational" and "," in name else name


def datacite_record(doi: str, data: bytes) -> WorkRecord:
    """DataCite's record of a DOI, from its REST API's `dois/<DOI>` response (JSON:API)."""
    what = f"DataCite's record of {doi}"
    answer = _json(data, what)
    body = answer.get("data") if isinstance(answer, Mapping) else None
    attributes = body.get("attributes") if isinstance(body, Mapping) else None
    if not isinstance(attributes, Mapping):
        raise unreadable(what, 'not {"data": {"attributes": {...}}}')
    titles: list[str] = []
    subtitles: list[str] = []
    for item in attributes.get("titles") or []:
        if isinstance(item, Mapping) and isinstance(item.get("title"), str):
            (subtitles if item.get("titleType") == "Subtitle" else titles).append(item["title"])
    full = [f"{title}: {subtitle}" for title in titles[:1] for subtitle in subtitles]
    years: set[int] = set()
    published = attributes.get("publicationYear")
    if isinstance(published, (int, str)) and not isinstance(published, bool) and _YEAR.match(str(published)):
        years.add(int(str(published)[:4]))
    for item in attributes.get("dates") or []:
        if isinstance(item, Mapping) and item.get("dateType") == "Issued" and isinstance(item.get("date"), str):
            match = _YEAR.match(item["date"])
            if match:
                years.add(int(match.group(1)))
    return WorkRecord(
        DATACITE, doi, (*titles, *full), _datacite_author(attributes.get("creators")), tuple(sorted(years))
    )


def _text(element: Any, tag: str) -> str | None:
    found = element.find(tag)
    if found is None or found.text is None:
        return None
    return " ".join(str(found.text).split())


def arxiv_record(ident: str, version: int | None, data: bytes) -> WorkRecord | Unregistered:
    """arXiv's record of a paper, from its API's Atom feed; or that arXiv has no paper of that id."""
    from xml.etree import ElementTree

    what = f"arXiv's record of {ident}"
    lowered = data.lower()
    if b"<!doctype" in lowered or b"<!entity" in lowered:
        raise unreadable(what, "the feed declares a document type or entities, which an Atom feed never needs")
    try:
        feed = ElementTree.fromstring(data)
    except (ElementTree.ParseError, ValueError) as error:
        raise unreadable(what, f"not XML ({error})") from None
    if feed.tag != f"{ATOM}feed":
        raise unreadable(what, f"not an Atom feed (its root is {feed.tag!r})")
    for entry in feed.findall(f"{ATOM}entry"):
        match = _ABS_ID.match(_text(entry, f"{ATOM}id") or "")
        if match is None or match.group(1) != ident:
            continue
        titles = [title] if (title := _text(entry, f"{ATOM}title")) else []
        author = entry.find(f"{ATOM}author")
        first = _text(author, f"{ATOM}name") if author is not None else None
        first_year = _YEAR.match(_text(entry, f"{ATOM}published") or "")
        last_year = _YEAR.match(_text(entry, f"{ATOM}updated") or "")
        years: Sequence[int] = ()
        if first_year:
            end = int(last_year.group(1)) if last_year else int(first_year.group(1))
            years = tuple(range(int(first_year.group(1)), max(end, int(first_year.group(1))) + 1))
        comment = _text(entry, f"{ARXIV}comment") or ""
        notices = (Notice("withdrawal", "arXiv", None, None, "arxiv:comment"),) if _WITHDRAWN.search(comment) else ()
        shown = ident if version is None else f"{ident}v{version}"
        return WorkRecord("arXiv", shown, tuple(titles), first, tuple(years), notices)
    return Unregistered(
        "arxiv", ident if version is None else f"{ident}v{version}", "arXiv's API has no paper of that id"
    )
