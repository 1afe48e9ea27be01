"""Recorded-format responses of the metadata APIs reference-resolves reads, written from their documented
formats (never fetched): doi.org's registration agency lookup (`/ra/<DOI>`, a JSON array), Crossref's REST
API (`/works/<DOI>`, `{"status", "message-type": "work", "message"}`), DataCite's REST API (`/dois/<DOI>`,
JSON:API) and arXiv's API (`/api/query?id_list=<id>`, an Atom feed), and the routes a loopback server
answers them on, for the real papers' references and for invented wrong ones."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from citation_testkit import Served

from cgx_checks.citation.ties import doi_path

JSON_TYPE = {"Content-Type": "application/json;charset=UTF-8"}
CROSSREF_TYPE = {"Content-Type": "application/json"}
DATACITE_TYPE = {"Content-Type": "application/vnd.api+json; charset=utf-8"}
ATOM_TYPE = {"Content-Type": "application/atom+xml; charset=utf-8"}
HOSTS = ["doi.org", "api.crossref.org", "api.datacite.org", "export.arxiv.org"]


def agency(doi: str, name: str) -> bytes:
    return json.dumps([{"DOI": doi, "RA": name}]).encode()


def unregistered(doi: str, status: str = "DOI does not exist") -> bytes:
    return json.dumps([{"DOI": doi, "status": status}]).encode()


def _date(parts: Sequence[int]) -> dict[str, Any]:
    return {"date-parts": [list(parts)]}


def crossref(
    doi: str,
    title: str,
    authors: Sequence[tuple[str, str]],
    *,
    issued: Sequence[int],
    published_print: Sequence[int] | None = None,
    published_online: Sequence[int] | None = None,
    container: str = "",
    kind: str = "journal-article",
    subtitle: Sequence[str] = (),
    updated_by: Sequence[dict[str, Any]] = (),
    update_to: Sequence[dict[str, Any]] = (),
) -> bytes:
    """A Crossref `works/<DOI>` response (fields as the REST API documents them; a few of the many it has)."""
    message: dict[str, Any] = {
        "indexed": {"date-parts": [[2024, 5, 1]], "date-time": "2024-05-01T00:00:00Z", "timestamp": 1714521600000},
        "reference-count": 21,
        "publisher": "An Invented Publisher for Tests",
        "content-domain": {"domain": [], "crossmark-restriction": False},
        "DOI": doi,
        "type": kind,
        "created": {"date-parts": [list(issued)], "date-time": "2000-01-01T00:00:00Z", "timestamp": 946684800000},
        "source": "Crossref",
        "is-referenced-by-count": 1234,
        "title": [title],
        "prefix": doi.split("/", 1)[0],
        "author": [
            {"given": given, "family": family, "sequence": "first" if index == 0 else "additional", "affiliation": []}
            for index, (given, family) in enumerate(authors)
        ],
        "member": "311",
        "container-title": [container] if container else [],
        "deposited": {"date-parts": [[2023, 1, 2]], "date-time": "2023-01-02T00:00:00Z", "timestamp": 1672617600000},
        "score": 1,
        "issued": _date(issued),
        "published": _date(published_print or published_online or issued),
        "URL": f"https://doi.org/{doi}",
    }
    if subtitle:
        message["subtitle"] = list(subtitle)
    if published_print:
        message["published-print"] = _date(published_print)
    if published_online:
        message["published-online"] = _date(published_online)
    if updated_by:
        message["updated-by"] = list(updated_by)
    if update_to:
        message["update-to"] = list(update_to)
    return json.dumps({"status": "ok", "message-type": "work", "message-version": "1.0.0", "message": message}).encode()


def datacite(
    doi: str, title: str, creators: Sequence[tuple[str, str]], year: int, *, publisher: str = "arXiv"
) -> bytes:
    """A DataCite `dois/<DOI>` response (JSON:API)."""
    attributes = {
        "doi": doi.lower(),
        "identifiers": [],
        "creators": [
            {
                "name": f"{family}, {given}",
                "nameType": "Personal",
                "givenName": given,
                "familyName": family,
                "affiliation": [],
                "nameIdentifiers": [],
            }
            for given, family in creators
        ],
        "titles": [{"title": title}],
        "publisher": publisher,
        "publicationYear": year,
        "types": {"resourceTypeGeneral": "Preprint", "resourceType": "Article"},
        "dates": [{"date": f"{year}-10-12", "dateType": "Submitted"}, {"date": f"{year}", "dateType": "Issued"}],
        "url": "https://arxiv.org/abs/" + doi.split("arxiv.", 1)[-1],
        "state": "findable",
    }
    return json.dumps({"data": {"id": doi.lower(), "type": "dois", "attributes": attributes}}).encode()


FEED_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
    '  <link href="http://arxiv.org/api/query?search_query%3D%26id_list%3D{ident}" rel="self" '
    'type="application/atom+xml"/>\n  <title type="html">ArXiv Query: search_query=&amp;id_list={ident}</title>\n'
    "  <id>http://arxiv.org/api/cHxbiOdZaP56ODnBPIenZhzg5f8</id>\n  <updated>2024-05-01T00:00:00-04:00</updated>\n"
    '  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{total}'
    "</opensearch:totalResults>\n"
)


def arxiv_feed(
    ident: str,
    latest: int,
    title: str,
    authors: Sequence[str],
    published: str,
    updated: str,
    *,
    comment: str | None = None,
) -> bytes:
    """arXiv's API answer for one paper: an Atom feed with one entry (its latest version `latest`)."""
    people = "".join(f"    <author>\n      <name>{escape(name)}</name>\n    </author>\n" for name in authors)
    note = (
        f'    <arxiv:comment xmlns:arxiv="http://arxiv.org/schemas/atom">{escape(comment)}</arxiv:comment>\n'
        if comment
        else ""
    )
    entry = (
        f"  <entry>\n    <id>http://arxiv.org/abs/{ident}v{latest}</id>\n    <updated>{updated}</updated>\n"
        f"    <published>{published}</published>\n    <title>{escape(title)}</title>\n"
        "    <summary>  An abstract, not read by the check.\n</summary>\n"
        f"{people}{note}"
        f'    <link href="http://arxiv.org/abs/{ident}v{latest}" rel="alternate" type="text/html"/>\n'
        '    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.LG" '
        'scheme="http://arxiv.org/schemas/atom"/>\n  </entry>\n'
    )
    return (FEED_HEAD.format(ident=ident, total=1) + entry + "</feed>\n").encode()


def arxiv_error(ident: str) -> bytes:
    """arXiv's API answer for an id it does not have: an entry under /api/errors."""
    entry = (
        f"  <entry>\n    <id>http://arxiv.org/api/errors#incorrect_id_format_for_{ident}</id>\n"
        f"    <title>Error</title>\n    <summary>incorrect id format for {ident}</summary>\n"
        "    <updated>2024-05-01T00:00:00-04:00</updated>\n  </entry>\n"
    )
    return (FEED_HEAD.format(ident=ident, total=1) + entry + "</feed>\n").encode()


def doi_routes(doi: str, agency_name: str, record: bytes | None) -> dict[str, Served]:
    routes = {f"/ra/{doi_path(doi)}": Served(headers=JSON_TYPE, body=agency(doi, agency_name))}
    if record is not None:
        path = "/works/" if agency_name == "Crossref" else "/dois/"
        headers = CROSSREF_TYPE if agency_name == "Crossref" else DATACITE_TYPE
        routes[path + doi_path(doi)] = Served(headers=headers, body=record)
    return routes


def arxiv_routes(ident: str, feed: bytes) -> dict[str, Served]:
    return {f"/api/query?id_list={ident}": Served(headers=ATOM_TYPE, body=feed)}


# The shared papers' references, as the registries describe them.
REAL: dict[str, Served] = {
    # farr-normal-normal: Isi2019 (DOI and arXiv 1904.08011) and Isi2022 (DOI and arXiv 2204.10742)
    **doi_routes(
        "10.1103/PhysRevLett.123.121101",
        "Crossref",
        crossref(
            "10.1103/PhysRevLett.123.121101",
            "Hierarchical Test of General Relativity with Gravitational Waves",
            [("Maximiliano", "Isi"), ("Katerina", "Chatziioannou"), ("Will M.", "Farr")],
            issued=(2019, 9, 17),
            published_online=(2019, 9, 17),
            published_print=(2019, 9, 20),
            container="Physical Review Letters",
        ),
    ),
    **arxiv_routes(
        "1904.08011",
        arxiv_feed(
            "1904.08011",
            2,
            "Hierarchical test of general relativity with gravitational waves",
            ["Maximiliano Isi", "Katerina Chatziioannou", "Will M. Farr"],
            "2019-04-16T18:00:01Z",
            "2019-09-24T17:30:12Z",
            comment="5 pages, 3 figures; published version",
        ),
    ),
    **doi_routes(
        "10.1103/PhysRevD.106.024048",
        "Crossref",
        crossref(
            "10.1103/PhysRevD.106.024048",
            "Comparing Bayes factors and hierarchical inference for testing general relativity with "
            "gravitational waves",
            [("Maximiliano", "Isi"), ("Will M.", "Farr"), ("Katerina", "Chatziioannou")],
            issued=(2022, 7, 22),
            published_online=(2022, 7, 22),
            container="Physical Review D",
        ),
    ),
    **arxiv_routes(
        "2204.10742",
        arxiv_feed(
            "2204.10742",
            2,
            "Comparing Bayes factors and hierarchical inference for testing general relativity with\n"
            "  gravitational waves",
            ["Maximiliano Isi", "Will M. Farr", "Katerina Chatziioannou"],
            "2022-04-22T17:59:59Z",
            "2022-07-25T18:00:00Z",
        ),
    ),
    # hastings-powell-replication
    **doi_routes(
        "10.2307/1940591",
        "Crossref",
        crossref(
            "10.2307/1940591",
            "Chaos in a Three-Species Food Chain",
            [("Alan", "Hastings"), ("Thomas", "Powell")],
            issued=(1991, 6),
            published_print=(1991, 6),
            container="Ecology",
        ),
    ),
    **doi_routes(
        "10.1137/141000671",
        "Crossref",
        crossref(
            "10.1137/141000671",
            "Julia: A Fresh Approach to Numerical Computing",
            [("Jeff", "Bezanson"), ("Alan", "Edelman"), ("Stefan", "Karpinski"), ("Viral B.", "Shah")],
            issued=(2017, 1),
            published_print=(2017, 1),
            published_online=(2017, 2, 7),
            container="SIAM Review",
        ),
    ),
    # mlrc-warmstart-repro
    **doi_routes(
        "10.1109/CVPR.2016.90",
        "Crossref",
        crossref(
            "10.1109/CVPR.2016.90",
            "Deep Residual Learning for Image Recognition",
            [("Kaiming", "He"), ("Xiangyu", "Zhang"), ("Shaoqing", "Ren"), ("Jian", "Sun")],
            issued=(2016, 6),
            published_print=(2016, 6),
            container="2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
            kind="proceedings-article",
        ),
    ),
    **doi_routes(
        "10.1038/323533a0",
        "Crossref",
        crossref(
            "10.1038/323533a0",
            "Learning representations by back-propagating errors",
            [("David E.", "Rumelhart"), ("Geoffrey E.", "Hinton"), ("Ronald J.", "Williams")],
            issued=(1986, 10),
            published_print=(1986, 10),
            container="Nature",
        ),
    ),
    **arxiv_routes(
        "1412.6980",
        arxiv_feed(
            "1412.6980",
            9,
            "Adam: A Method for Stochastic Optimization",
            ["Diederik P. Kingma", "Jimmy Ba"],
            "2014-12-22T13:54:29Z",
            "2017-01-30T01:27:54Z",
            comment="Published as a conference paper at the 3rd International Conference for Learning "
            "Representations, San Diego, 2015",
        ),
    ),
}
