"""Text extraction from .txt, .tex, .pdf and HTML bytes: deterministic, and every failure a clear code."""

from __future__ import annotations

from pathlib import Path

import pytest
from citation_testkit import make_pdf

from cgx_checks.citation.codes import CitationCode
from cgx_checks.citation.fetch import DEFAULT_CONTENT_TYPES
from cgx_checks.citation.text import PAGE_SEPARATOR, extract_text, kind_for
from cgx_core.errors import CgxError


def unreadable(data: bytes, kind: str, charset: str | None = None) -> str:
    with pytest.raises(CgxError) as caught:
        extract_text(data, kind, charset=charset)  # type: ignore[arg-type]
    assert caught.value.code == CitationCode.SOURCE_UNREADABLE
    return caught.value.message


def test_txt_is_utf8_and_a_bom_is_dropped() -> None:
    source = extract_text("\ufeffCafé “quoted” text".encode(), "txt")
    assert source.text == "Café “quoted” text"
    assert source.pages == ()


def test_txt_not_utf8_names_the_byte() -> None:
    assert "not valid utf-8 at byte 3" in unreadable("caf\xe9".encode("latin-1"), "txt")


def test_txt_with_a_declared_charset() -> None:
    assert extract_text("caf\xe9".encode("latin-1"), "txt", charset="iso-8859-1").text == "café"
    assert "unknown charset" in unreadable(b"abc", "txt", charset="no-such-charset")
    assert "not a text encoding" in unreadable(b"abc", "txt", charset="rot13")


@pytest.mark.parametrize("kind", ["txt", "tex", "html"])
def test_empty_source_is_unreadable(kind: str) -> None:
    assert "no text could be extracted" in unreadable(b"  \n\t ", kind)


def test_tex_reads_as_text() -> None:
    latex = rb"""\section{Results}
We \emph{show} that the measured \textbf{efficiency} was 93\% % a comment the reader never sees
in the final run~\cite{smith}."""
    text = extract_text(latex, "tex").text
    assert "We show that the measured efficiency was 93%" in text
    assert "comment" not in text
    assert "\\emph" not in text


def test_tex_not_utf8_is_unreadable() -> None:
    assert "not valid utf-8" in unreadable(b"\\emph{caf\xe9}", "tex")


def test_pdf_pages_and_ranges() -> None:
    data = make_pdf([["First page line."], ["Second page, line one.", "Line two."], ["Third."]])
    source = extract_text(data, "pdf")
    assert len(source.pages) == 3
    texts = [source.text[start:end] for start, end in source.pages]
    assert texts[0] == "First page line."
    assert "Second page, line one." in texts[1] and "Line two." in texts[1]
    assert texts[2] == "Third."
    assert source.text == PAGE_SEPARATOR.join(texts)
    assert source.page_of(source.pages[1][0]) == 2
    assert source.page_of(source.pages[1][0] - 1) is None  # the separator belongs to no page


def test_pdf_line_end_hyphen_is_marked_by_pdfium() -> None:
    source = extract_text(make_pdf([["The measured effi-", "ciency was high."]]), "pdf")
    assert "effi\ufffeciency" in source.text


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"not a pdf at all", "PDFium cannot open"),
        (b"%PDF-1.4\n%%EOF\n", "PDFium cannot open"),
        (make_pdf([[]]), "no text could be extracted"),
    ],
)
def test_bad_or_textless_pdf_is_unreadable(data: bytes, words: str) -> None:
    assert words in unreadable(data, "pdf")


def test_html_drops_script_and_style_and_separates_blocks() -> None:
    page = b"""<html><head><title>T</title><style>p {color: red}</style></head><body>
    <script>var secret = "script words";</script><!-- a comment -->
    <p>The first para ends.</p><p>Second starts</p><div>exam<b>ple</b> of <i>inline</i> markup</div>
    <template>template words</template></body></html>"""
    text = extract_text(page, "html").text
    assert "script words" not in text and "color" not in text and "a comment" not in text
    assert "template words" not in text
    assert "ends.Second" not in text
    assert "example of inline markup" in text


def test_html_charset_declared_by_the_server_is_used() -> None:
    page = "<p>caf\xe9 au lait</p>".encode("windows-1252")
    assert "café au lait" in extract_text(page, "html", charset="windows-1252").text
    assert "not valid utf-8" in unreadable(page, "html")


def test_extraction_is_deterministic() -> None:
    data = make_pdf([["Same bytes,"], ["same text."]])
    assert extract_text(data, "pdf") == extract_text(data, "pdf")


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("text/html; charset=utf-8", "html"),
        ("application/xhtml+xml", "html"),
        ("TEXT/PLAIN", "txt"),
        ("application/pdf", "pdf"),
        ("application/x-tex", "tex"),
        ("smith2020.txt", "txt"),
        ("smith2020.tex", "tex"),
        ("Smith2020.PDF", "pdf"),
        ("page.html", "html"),
    ],
)
def test_kind_for(value: str, kind: str) -> None:
    assert kind_for(value) == kind


def test_every_accepted_content_type_has_a_kind() -> None:
    for media in DEFAULT_CONTENT_TYPES:
        assert kind_for(media) in ("txt", "tex", "pdf", "html")


@pytest.mark.parametrize("value", ["image/png", "application/octet-stream", "smith2020.docx", ""])
def test_kind_for_unknown_is_unreadable(value: str) -> None:
    with pytest.raises(CgxError) as caught:
        kind_for(value)
    assert caught.value.code == CitationCode.SOURCE_UNREADABLE


def test_real_latex_paper_reads(papers: Path) -> None:
    source = extract_text((papers / "dynonet-paper" / "doc" / "paper" / "ms.tex").read_bytes(), "tex")
    assert "finite impulse response (FIR) dynamical system" in source.text
    assert "\\begin{document}" not in source.text
