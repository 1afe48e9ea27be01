"""Which sources are tied to a bibliography entry: the cited copy, the entry's arXiv paper, its DOI's page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cgx_checks.citation.codes import CitationCode
from cgx_checks.citation.ties import (
    ArxivId,
    Entry,
    Tie,
    hop_rule,
    normalise_doi,
    parse_arxiv_id,
    tie_before_fetch,
    tie_for_cited,
    tie_for_url,
    urls_for,
)
from cgx_checks.citation.urls import parse_url
from cgx_core.errors import CgxError

NEW = Entry(key="smith2021", arxiv="2101.00001")
NEW_V2 = Entry(key="smith2021", arxiv="arXiv:2101.00001v2")
OLD = Entry(key="witten1999", arxiv="hep-th/9901001")
OLD_CLASS = Entry(key="perelman", arxiv="math.DG/0211159v1")
DOI = Entry(key="hastings1991", doi="10.2307/1940591")


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("2101.00001", ArxivId("2101.00001", None)),
        ("arXiv:2101.00001v2", ArxivId("2101.00001", 2)),
        ("0704.0001", ArxivId("0704.0001", None)),
        ("hep-th/9901001", ArxivId("hep-th/9901001", None)),
        ("math.DG/0211159v1", ArxivId("math/0211159", 1)),
        ("cond-mat.str-el/0501001", ArxivId("cond-mat/0501001", None)),
        ("2101.00001v0", None),
        ("21010.0001", None),
        ("not an id", None),
        ("https://evil.example/2101.00001", None),
    ],
)
def test_parse_arxiv_id(text: str, parsed: ArxivId | None) -> None:
    assert parse_arxiv_id(text) == parsed


@pytest.mark.parametrize(
    ("text", "doi"),
    [
        ("10.2307/1940591", "10.2307/1940591"),
        ("doi:10.2307/1940591", "10.2307/1940591"),
        ("https://doi.org/10.2307/1940591", "10.2307/1940591"),
        ("http://dx.doi.org/10.1002/(SICI)1097-4636", "10.1002/(SICI)1097-4636"),
        ("11.2307/1940591", None),
        ("10.2307", None),
    ],
)
def test_normalise_doi(text: str, doi: str | None) -> None:
    assert normalise_doi(text) == doi


@pytest.mark.parametrize(
    ("entry", "url", "names"),
    [
        (NEW, "https://arxiv.org/abs/2101.00001", "2101.00001"),
        (NEW, "https://arxiv.org/pdf/2101.00001", "2101.00001"),
        (NEW, "https://arxiv.org/pdf/2101.00001.pdf", "2101.00001"),
        (NEW, "https://export.arxiv.org/abs/2101.00001", "2101.00001"),
        (NEW, "https://www.arxiv.org/abs/2101.00001#section", "2101.00001"),
        (NEW_V2, "https://arxiv.org/pdf/2101.00001v2", "2101.00001v2"),
        (NEW_V2, "https://arxiv.org/abs/2101.00001", "2101.00001"),
        (OLD, "https://arxiv.org/abs/hep-th/9901001", "hep-th/9901001"),
        (OLD_CLASS, "https://arxiv.org/pdf/math/0211159v1", "math/0211159v1"),
    ],
)
def test_arxiv_ties(entry: Entry, url: str, names: str) -> None:
    assert tie_for_url([url], entry) == Tie(kind="arxiv", names=names)


@pytest.mark.parametrize(
    ("entry", "hops"),
    [
        (NEW, ["https://arxiv.org/abs/2101.00002"]),  # another paper
        (NEW, ["https://arxiv.org/abs/2101.00001v3"]),  # a version the entry does not name
        (NEW_V2, ["https://arxiv.org/abs/2101.00001v1"]),
        (NEW, ["http://arxiv.org/abs/2101.00001"]),  # not https
        (NEW, ["https://arxiv.org:8443/abs/2101.00001"]),
        (NEW, ["https://arxiv.org.evil.example/abs/2101.00001"]),
        (NEW, ["https://evil.example/abs/2101.00001"]),
        (NEW, ["https://arxiv.org/abs/2101.00001?context=evil"]),
        (NEW, ["https://arxiv.org/e-print/2101.00001"]),
        (NEW, ["https://arxiv.org/abs/2101.00001", "https://mirror.example/2101.00001.pdf"]),  # left arXiv
        (NEW, ["https://agent-notes.example/?redirect=https://arxiv.org/abs/2101.00001"]),
        (Entry(key="nothing"), ["https://arxiv.org/abs/2101.00001"]),
        (NEW, []),
        (NEW, ["https://arxiv.org/abs/2101.00001", "not a url"]),
    ],
)
def test_untied_urls(entry: Entry, hops: list[str]) -> None:
    assert tie_for_url(hops, entry) is None


def test_doi_ties_through_the_redirects_the_tool_followed() -> None:
    hops = [
        "https://doi.org/10.2307/1940591",
        "https://www.jstor.org/stable/1940591",
        "https://esajournals.onlinelibrary.wiley.com/doi/10.2307/1940591",
    ]
    assert tie_for_url(hops, DOI) == Tie(kind="doi", names="10.2307/1940591")
    assert tie_for_url(["https://dx.doi.org/10.2307/1940591"], DOI) is not None
    assert tie_for_url(["https://doi.org/10.2307%2F1940591"], DOI) is not None  # unquoted before comparing
    assert tie_for_url(["https://doi.org/10.1000/ABC"], Entry(key="k", doi="10.1000/abc")) is not None


@pytest.mark.parametrize(
    "hops",
    [
        ["https://doi.org/10.2307/1940592"],
        ["http://doi.org/10.2307/1940591"],
        ["https://doi.org.evil.example/10.2307/1940591"],
        ["https://esajournals.onlinelibrary.wiley.com/doi/10.2307/1940591"],  # the landing page, found by the agent
        ["https://doi.org/10.2307/1940591?x=1"],
        ["https://doi.org/10.2307/19405910"],
    ],
)
def test_untied_doi_urls(hops: list[str]) -> None:
    assert tie_for_url(hops, DOI) is None


def test_urls_for_are_tied_to_their_entry() -> None:
    entry = Entry(key="k", doi="doi:10.1002/(SICI)1097-4636(199706)35:4<433::AID-JBM4>3.0.CO;2-#", arxiv="2101.00001v2")
    urls = urls_for(entry)
    assert urls == [
        "https://arxiv.org/pdf/2101.00001v2",
        "https://arxiv.org/abs/2101.00001v2",
        "https://doi.org/10.1002/(SICI)1097-4636(199706)35:4%3C433::AID-JBM4%3E3.0.CO;2-%23",
    ]
    assert [tie_for_url([url], entry) is not None for url in urls] == [True, True, True]
    assert urls_for(Entry(key="bare")) == []


def test_urls_for_real_bibliography_entries_are_tied(papers: Path) -> None:
    bib = (papers / "farr-normal-normal" / "src" / "tex" / "bib.bib").read_text(encoding="utf-8")
    eprints = re.findall(r"eprint\s*=\s*\{([^}]+)\}", bib)
    dois = re.findall(r"doi\s*=\s*\{([^}]+)\}", bib)
    assert eprints and dois
    for eprint in eprints:
        entry = Entry(key="e", arxiv=eprint)
        assert all(tie_for_url([url], entry) is not None for url in urls_for(entry)), eprint
    for doi in dois:
        entry = Entry(key="d", doi=doi)
        assert [tie_for_url([url], entry) for url in urls_for(entry)] == [Tie(kind="doi", names=doi)]


def test_cited_copy_named_by_the_key_and_unchanged_is_tied() -> None:
    assert tie_for_cited("smith2021.pdf", NEW, "sha256:aa", "sha256:aa") == Tie(kind="cited", names="smith2021")
    assert tie_for_cited("smith2021.tex", NEW, "sha256:aa", "sha256:aa") is not None


@pytest.mark.parametrize(
    "name", ["jones2020.pdf", "smith2021.html", "smith2021", "smith2021.pdf.txt", "x/smith2021.txt"]
)
def test_cited_copy_of_another_name_is_untied(name: str) -> None:
    assert tie_for_cited(name, NEW, "sha256:aa", "sha256:aa") is None


@pytest.mark.parametrize("recorded", ["sha256:bb", None])
def test_changed_cited_copy_is_an_error(recorded: str | None) -> None:
    with pytest.raises(CgxError) as caught:
        tie_for_cited("smith2021.txt", NEW, "sha256:aa", recorded)
    assert caught.value.code == CitationCode.SOURCE_CHANGED


@pytest.mark.parametrize(
    ("entry", "url", "tie"),
    [
        (NEW, "https://arxiv.org/abs/2101.00001", Tie(kind="arxiv", names="2101.00001")),
        (NEW_V2, "https://export.arxiv.org/pdf/2101.00001v2.pdf", Tie(kind="arxiv", names="2101.00001v2")),
        (DOI, "https://doi.org/10.2307/1940591", Tie(kind="doi", names="10.2307/1940591")),
        (DOI, "https://dx.doi.org/10.2307%2F1940591", Tie(kind="doi", names="10.2307/1940591")),
        (NEW, "https://arxiv.org/abs/2101.00002", None),
        (NEW, "https://arxiv.org/abs/2101.00001v3", None),
        (DOI, "https://doi.org/10.2307/1940591/full", None),  # a DOI URL with a suffix
        (DOI, "https://doi.org/10.2307/1940591?download=true", None),
        (DOI, "https://www.jstor.org/stable/1940591", None),  # where the DOI resolves, named by the agent
        (DOI, "http://doi.org/10.2307/1940591", None),
        (NEW, "https://127.0.0.1/abs/2101.00001", None),
    ],
)
def test_the_tie_is_decided_before_fetching_from_the_url_and_the_entry(entry: Entry, url: str, tie: Tie | None) -> None:
    assert tie_before_fetch(url, entry) == tie


@pytest.mark.parametrize("url", ["file:///etc/passwd", "https://a@arxiv.org/abs/2101.00001", "not a url"])
def test_a_url_the_fetcher_cannot_parse_is_refused_before_any_tie(url: str) -> None:
    with pytest.raises(CgxError) as caught:
        tie_before_fetch(url, NEW)
    assert caught.value.code == CitationCode.FETCH_REFUSED


def test_an_arxiv_tie_stops_at_a_hop_off_arxiv_and_a_doi_tie_goes_anywhere() -> None:
    arxiv = hop_rule(Tie(kind="arxiv", names="2101.00001"))
    arxiv(parse_url("https://export.arxiv.org/pdf/2101.00001v2"))
    for url in ("https://mirror.example/2101.00001.pdf", "http://arxiv.org/pdf/2101.00001v2"):
        with pytest.raises(CgxError) as caught:
            arxiv(parse_url(url))
        assert caught.value.code == CitationCode.SOURCE_UNTIED
    doi = hop_rule(Tie(kind="doi", names="10.2307/1940591"))
    doi(parse_url("http://www.jstor.org/stable/1940591"))
