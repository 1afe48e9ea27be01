"""A PDF's text as start_run reads it: TeX's bitmap fonts read instead of lost, running heads, feet and page
numbers removed (on the shared PDFs, and on PDFs made for the hard cases)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pdf_maker import Text, placed_pdf, unmapped_pdf

from cgx_core.errors import CgxError
from cgx_core.ingest.documents import read_document
from support import make_pdf

DYNONET = "dynonet-paper/pdf/ms.pdf"
WARMSTART = "mlrc-warmstart-repro/pdf/main.pdf"


def test_dynonet_pdf_set_in_tex_bitmap_fonts_is_read_as_text_with_its_references(papers: Path) -> None:
    document = read_document(papers / DYNONET)
    assert document.pdf is not None
    texts = [chunk.text for chunk in document.chunks]
    assert texts[0] == (
        "This paper introduces a network architecture, called dynoNet, utilizing linear dynamical operators as "
        "elementary building blocks."
    )
    assert document.pdf.tex_encoded > 20_000  # every prose glyph had no Unicode in the PDF
    assert document.pdf.unreadable < 100  # accents and OT1's quotes stay U+FFFD, never a guessed character
    references = [chunk for chunk in document.chunks if chunk.unit == "reference"]
    assert len(references) == 20 and references[1].text.startswith("S. Bai, J.Z Kolter, and V. Koltun.")
    assert any(chunk.cites == ("16",) for chunk in document.chunks)  # "[16]" cites the 16th entry


def test_page_numbers_are_removed_and_no_longer_end_an_equation(papers: Path) -> None:
    for name, pages in ((DYNONET, 20), (WARMSTART, 10)):
        document = read_document(papers / name)
        assert document.pdf is not None
        assert len(document.pdf.running) >= pages - 1
        assert all(text.strip().isdigit() for text in document.pdf.running)
    dynonet = read_document(papers / DYNONET)
    flip = next(chunk.text for chunk in dynonet.chunks if chunk.text.startswith("(flip(u))"))
    assert flip == "(flip(u))_{t} = u_{T-t-1},t = 0,1,...,T-1"  # it read "... T - 1 5": page 5's number


def _page(head: str, number: str, body: list[str], *, top: float = 740) -> list[Text]:
    runs = [Text(72, top, head), Text(300, 40, number)]
    runs += [Text(72, 700 - 14 * index, line) for index, line in enumerate(body)]
    return runs


PROSE = [
    "This sentence is the first of a paragraph that runs across the page as a paper does.",
    "It goes on for a while and ends here, in the second line of the paragraph of this page.",
]


def test_a_repeated_running_head_and_page_numbers_are_removed_and_unique_edge_lines_kept(tmp_path: Path) -> None:
    pages = [_page("Smith and Jones: A Short Study", str(page), PROSE) for page in (1, 2, 3, 4)]
    pages[0][0] = Text(72, 740, "A Short Study of Things")  # the title page has its own first line
    path = tmp_path / "paper.pdf"
    path.write_bytes(placed_pdf(pages))
    document = read_document(path)
    assert document.pdf is not None
    head = "Smith and Jones: A Short Study"
    assert document.pdf.running == ("1", head, "2", head, "3", head, "4")
    texts = " ".join(chunk.text for chunk in document.chunks)
    assert "Smith and Jones" not in texts
    assert "A Short Study of Things" in texts or document.pdf.analysis.title == "A Short Study of Things"


def test_a_table_row_of_numbers_at_the_top_of_a_page_is_no_page_number(tmp_path: Path) -> None:
    first = [Text(72, 740, "12"), Text(200, 740, "14"), *[Text(72, 700 - 14 * i, line) for i, line in enumerate(PROSE)]]
    second = [Text(72, 700 - 14 * i, line) for i, line in enumerate(PROSE)]
    path = tmp_path / "paper.pdf"
    path.write_bytes(placed_pdf([first, second]))
    document = read_document(path)
    assert document.pdf is not None
    assert document.pdf.running == ()


def test_a_pdf_not_made_by_tex_is_read_as_credencegraph_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "plain.pdf"
    path.write_bytes(make_pdf([["The method ran 3 times.", "It took 4 seconds."]]))
    document = read_document(path)
    assert document.pdf is not None
    assert document.pdf.tex_encoded == 0 and document.pdf.unreadable == 0
    assert [chunk.text for chunk in document.chunks] == ["The method ran 3 times.", "It took 4 seconds."]


SENTENCE = b"The method ran three times and it took four seconds in all."


def _read_unmapped(tmp_path: Path, codes: bytes, producer: str = "pdfTeX-1.40.24") -> Any:
    path = tmp_path / "paper.pdf"
    path.write_bytes(unmapped_pdf(codes, producer))
    return read_document(path)


def test_unmapped_glyphs_of_a_text_font_in_a_tex_pdf_are_read_by_tex_encoding(tmp_path: Path) -> None:
    document = _read_unmapped(tmp_path, SENTENCE + b" It used \x1cve \x1dags.")  # 28 and 29: fi, fl
    assert [chunk.text for chunk in document.chunks] == [
        "The method ran three times and it took four seconds in all.",
        "It used five flags.",
    ]
    assert document.pdf.tex_encoded == len((SENTENCE + b"Itusedveags.").replace(b" ", b"")) + 2


def test_unmapped_glyphs_of_another_producer_stay_unreadable(tmp_path: Path) -> None:
    with pytest.raises(CgxError) as refused:  # every glyph U+FFFD: no text, never a guessed one
        _read_unmapped(tmp_path, SENTENCE, producer="Some Word Processor")
    assert refused.value.code == "paper-empty"


def test_a_symbol_font_without_unicode_is_not_read_as_digits(tmp_path: Path) -> None:
    # CMSY's codes: 0x00 minus, 0x02 times, 0x31 infinity, 0x30 prime. Read as text, 0x31 would be a false "1".
    with pytest.raises(CgxError) as refused:
        _read_unmapped(tmp_path, b"\x00\x02\x31\x00\x30\x02\x00\x14\x15\x02\x00\x31")
    assert refused.value.code == "paper-empty"
