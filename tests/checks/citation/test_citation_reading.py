"""The pieces together: cited copies in .txt, .tex and .pdf, and arXiv-like and DOI-like pages on a loopback
server, read into a reading (digests and where the passage is) that replay re-derives from the bytes alone.

A check passes or fails (as the agent judged) only with a tied source and a found passage; each other
outcome is an error with its code: untied, changed, unreadable, passage not found, or a fetch error.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from citation_testkit import (
    PDF_PAGES,
    FakeResolver,
    LoopbackServer,
    guarded,
    loopback_policy,
    make_pdf,
    tls_contexts,
)

from cgx_checks.citation.codes import CitationCode
from cgx_checks.citation.fetch import fetch
from cgx_checks.citation.reading import Reading, read_source, replay_reading
from cgx_checks.citation.text import kind_for
from cgx_checks.citation.ties import Entry, Tie, tie_for_cited, tie_for_url, urls_for
from cgx_core.base.digests import bytes_digest
from cgx_core.codes import Code
from cgx_core.errors import CgxError

PASSAGE = "the measured efficiency of the detector was 93 per cent in the final run"
ENTRY = Entry(key="smith2021", doi="10.1000/xyz-tls", arxiv="2101.00001v2")

CITED = {
    "smith2021.txt": "Results.\nWe find that the measured ef\ufb01-\nciency of the Detector was 93 per cent in the\n"
    "final run.\n".encode(),
    "smith2021.tex": rb"\section{Results} We find that \emph{the measured efficiency} of the detector was"
    rb" 93 per cent in the final run~\cite{x}.",
    "smith2021.pdf": make_pdf(PDF_PAGES),
}


def error_of(call: Callable[[], object]) -> CgxError:
    with pytest.raises(CgxError) as caught:
        call()
    return caught.value


@pytest.fixture
def cited(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """The run's copy of the cited works, and the digests start_run recorded for it."""
    for name, data in CITED.items():
        (tmp_path / name).write_bytes(data)
    return tmp_path, {name: bytes_digest(data) for name, data in CITED.items()}


@pytest.mark.parametrize("name", sorted(CITED))
def test_cited_copy_is_tied_and_the_passage_found(cited: tuple[Path, dict[str, str]], name: str) -> None:
    folder, recorded = cited
    data = (folder / name).read_bytes()
    assert tie_for_cited(name, ENTRY, bytes_digest(data), recorded[name]) == Tie(kind="cited", names="smith2021")
    reading = read_source(data, kind_for(name), PASSAGE)
    assert reading.bytes_digest == recorded[name]
    assert reading.location.end > reading.location.start
    assert reading.location.page == (2 if name.endswith(".pdf") else None)
    assert replay_reading(data, PASSAGE, Reading.from_json(reading.to_json())) == reading


@pytest.mark.parametrize("name", sorted(CITED))
def test_passage_not_in_the_cited_copy(cited: tuple[Path, dict[str, str]], name: str) -> None:
    data = (cited[0] / name).read_bytes()
    error = error_of(
        lambda: read_source(data, kind_for(name), "the measured efficiency of the detector was 39 per cent")
    )
    assert error.code == CitationCode.PASSAGE_NOT_FOUND


def test_cited_copy_changed_since_start_run(cited: tuple[Path, dict[str, str]]) -> None:
    folder, recorded = cited
    path = folder / "smith2021.txt"
    path.write_bytes(path.read_bytes().replace(b"93", b"97"))
    error = error_of(lambda: tie_for_cited(path.name, ENTRY, bytes_digest(path.read_bytes()), recorded[path.name]))
    assert error.code == CitationCode.SOURCE_CHANGED


def test_cited_copy_of_another_entry_is_untied(cited: tuple[Path, dict[str, str]]) -> None:
    _, recorded = cited
    other = Entry(key="jones2020")
    assert tie_for_cited("smith2021.pdf", other, recorded["smith2021.pdf"], recorded["smith2021.pdf"]) is None


def test_replay_refuses_a_reading_the_bytes_do_not_give(cited: tuple[Path, dict[str, str]]) -> None:
    data = (cited[0] / "smith2021.pdf").read_bytes()
    reading = read_source(data, "pdf", PASSAGE)
    other_bytes = error_of(lambda: replay_reading(CITED["smith2021.txt"], PASSAGE, reading))
    assert other_bytes.code == Code.SOURCE_MISMATCH
    moved = Reading.from_json({**reading.to_json(), "start": reading.location.start + 1})
    assert error_of(lambda: replay_reading(data, PASSAGE, moved)).code == Code.SOURCE_MISMATCH
    other_text = Reading.from_json({**reading.to_json(), "text_digest": bytes_digest(b"other text")})
    assert error_of(lambda: replay_reading(data, PASSAGE, other_text)).code == Code.SOURCE_MISMATCH
    other_passage = error_of(lambda: replay_reading(data, "a passage the source does not have at all", reading))
    assert other_passage.code == Code.SOURCE_MISMATCH
    assert "passage-not-found" in other_passage.message


@pytest.mark.parametrize(
    "value",
    [{}, {"kind": "doc"}, {"kind": "pdf", "charset": None, "bytes_digest": "x", "text_digest": "y", "start": "a"}],
)
def test_malformed_logged_reading_is_run_corrupt(value: dict[str, object]) -> None:
    assert error_of(lambda: Reading.from_json(value)).code == Code.RUN_CORRUPT


def test_loopback_arxiv_like_pages_read_but_untied(monkeypatch: pytest.MonkeyPatch, server: LoopbackServer) -> None:
    """Pages served under test names are read like any page; they are not arxiv.org, so they are untied."""
    policy = loopback_policy(FakeResolver({"arxiv.test": ["127.0.0.1"], "publisher.test": ["127.0.0.1"]}))
    with guarded(monkeypatch, {("127.0.0.1", server.port)}):
        pdf = fetch(server.url("arxiv.test", "/pdf/2101.00001"), policy=policy)
        abstract = fetch(server.url("arxiv.test", "/abs/2101.00001"), policy=policy)
    pdf_reading = read_source(pdf.body, kind_for(pdf.content_type), PASSAGE, charset=pdf.charset)
    assert pdf_reading.location.page == 2
    abstract_reading = read_source(abstract.body, kind_for(abstract.content_type), PASSAGE, charset=abstract.charset)
    assert abstract_reading.location.page is None
    assert tie_for_url([hop.url for hop in pdf.hops], Entry(key="smith2021", arxiv="2101.00001v2")) is None
    hidden = error_of(
        lambda: read_source(abstract.body, "html", "this script text is never part of the page text", charset="utf-8")
    )
    assert hidden.code == CitationCode.PASSAGE_NOT_FOUND


def test_fetched_non_utf8_page_is_unreadable(monkeypatch: pytest.MonkeyPatch, server: LoopbackServer) -> None:
    policy = loopback_policy(FakeResolver({"arxiv.test": ["127.0.0.1"]}))
    with guarded(monkeypatch, {("127.0.0.1", server.port)}):
        fetched = fetch(server.url("arxiv.test", "/latin1"), policy=policy)
    error = error_of(lambda: read_source(fetched.body, kind_for(fetched.content_type), PASSAGE))
    assert error.code == CitationCode.SOURCE_UNREADABLE


def test_arxiv_and_doi_sources_tied_end_to_end_over_https(
    monkeypatch: pytest.MonkeyPatch, serve_tls: Callable[..., LoopbackServer]
) -> None:
    """With arxiv.org, doi.org and the publisher resolved to a TLS server on loopback (test CA; the policy
    connects their https port 443 to the server's own), the URLs `urls_for` gives are fetched, tied and read
    exactly as they would be on the network."""
    server_context, client_context = tls_contexts(["arxiv.org", "doi.org", "publisher.test"])
    tls_server = serve_tls(server_context)
    names = {name: ["127.0.0.1"] for name in ("arxiv.org", "doi.org", "publisher.test")}
    policy = loopback_policy(FakeResolver(names), tls_context=client_context, https_port=tls_server.port)
    pdf_url, _, doi_url = urls_for(ENTRY)
    with guarded(monkeypatch, {("127.0.0.1", tls_server.port)}) as guard:
        pdf = fetch(pdf_url, policy=policy)
        landing = fetch(doi_url, policy=policy)
    assert tie_for_url([hop.url for hop in pdf.hops], ENTRY) == Tie(kind="arxiv", names="2101.00001v2")
    assert read_source(pdf.body, "pdf", PASSAGE).location.page == 2
    assert [hop.url for hop in landing.hops] == [
        "https://doi.org/10.1000/xyz-tls",
        "https://publisher.test/handle/xyz",
        "https://publisher.test/article/xyz",
    ]
    assert tie_for_url([hop.url for hop in landing.hops], ENTRY) == Tie(kind="doi", names="10.1000/xyz-tls")
    assert read_source(landing.body, kind_for(landing.content_type), PASSAGE).location.page is None
    assert set(guard.connects) == {("127.0.0.1", tls_server.port)}
