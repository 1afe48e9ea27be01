"""Raised citation numbers glued to a word (`before^{12}`) become cites of a numbered list's entries, and
nothing else raised does: an exponent, a unit power, a footnote mark, a number the list lacks. PDFs made for
each case, and the shared PDFs, whose references and cites must not change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pdf_maker import Text, placed_pdf

from cgx_core.graph.rubric import load_rubric_bytes
from cgx_core.ingest.documents import read_document
from cgx_core.ingest.paper import ingest
from cgx_core.ingest.pdf.reading import read_pdf_document
from support import ROOT

SHORT = "glued to a symbol or a short word (maths or a unit power)"
ABSENT = "names a number the reference list does not have"
RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
LIST = [
    Text(72, 600, "References", bold=True),
    *(
        Text(72, 584 - 14 * n, f"[{n}] A. Author{n}. A title of work number {n}. Journal, {n}, 2020.")
        for n in range(1, 8)
    ),
]


def _sentence(y: float, before: str, marker: str, after: str) -> Text:
    return Text(72, y, before, after=((marker, 6.0, 4.0), (after, 10.0, 0.0)))


def _cites(tmp_path: Path, body: list[Text]) -> dict[str, list[str]]:
    path = tmp_path / "paper.pdf"
    path.write_bytes(placed_pdf([[*body, *LIST]]))
    graph, _ = ingest(read_document(path), [], load_rubric_bytes(RUBRIC.read_bytes(), RUBRIC.name))
    by_id = {node.id: node for node in graph}
    found: dict[str, list[str]] = {}
    for relation in graph.relations.values():
        if relation.type == "cites":
            text = by_id[relation.source].statement or ""
            found.setdefault(text[:12], []).append(by_id[relation.target].attributes["key"])
    return found


def test_a_raised_number_or_list_glued_to_a_word_cites_those_entries(tmp_path: Path) -> None:
    body = [
        _sentence(700, "Alpha was shown before", "2", " in a study of the same kind as ours here."),
        Text(
            72, 680, "Beta was seen in many trials", after=(("3,5-7", 6.0, 4.0), (" and we saw it again.", 10.0, 0.0))
        ),
    ]
    assert _cites(tmp_path, body) == {"Alpha was sh": ["2"], "Beta was see": ["3", "5", "6", "7"]}
    reading = read_pdf_document(tmp_path / "paper.pdf")
    assert (reading.superscript_citations, reading.superscripts_left) == (2, ())


@pytest.mark.parametrize(
    ("before", "marker", "after", "why"),
    [
        ("The area grew to 5 cm", "2", " over the whole run of the experiment.", SHORT),  # a unit power
        ("The loss falls as x", "2", " when the rate is small and the data clean.", SHORT),  # an exponent
        (
            "The dose was 5 mol",
            "2",
            " in every one of the twelve runs we made.",
            "after a numeral (a unit power)",
        ),  # a unit power after a numeral
        (
            "Gamma was shown before ",
            "2",
            " in a study of the same kind as ours here.",
            "a space between it and the word before",
        ),
        ("Gamma was shown before", "9", " in a study of the same kind as ours here.", ABSENT),  # no entry 9
        ("Gamma was shown before", "2-80", " in a study of the same kind as ours.", ABSENT),  # a range past the list
    ],
)
def test_a_raised_number_that_may_not_be_a_citation_cites_nothing_and_is_listed(
    tmp_path: Path, before: str, marker: str, after: str, why: str
) -> None:
    assert _cites(tmp_path, [_sentence(700, before, marker, after)]) == {}
    path = tmp_path / "paper.pdf"
    left = read_pdf_document(path).superscripts_left
    assert left == (f"{before.split()[-1]}^{marker} (page 1): {why}",)


def test_a_paper_with_footnotes_reads_no_superscript_as_a_citation(tmp_path: Path) -> None:
    body = [
        _sentence(700, "Alpha was shown before", "2", " in a study of the same kind as ours here."),
        Text(72, 100, "", after=(("1", 5.0, 3.0), (" A footnote, set small at the foot of the page.", 8.0, 0.0))),
    ]
    assert _cites(tmp_path, body) == {}
    left = read_pdf_document(tmp_path / "paper.pdf").superscripts_left
    assert left == ("before^2 (page 1): the paper has footnotes, whose marks look the same",)


def test_an_affiliation_mark_at_the_top_of_the_first_page_is_no_footnote(tmp_path: Path) -> None:
    body = [
        Text(72, 740, "", after=(("1", 5.0, 3.0), ("University of Somewhere, Some Town", 8.0, 0.0))),
        _sentence(700, "Alpha was shown before", "2", " in a study of the same kind as ours here."),
    ]
    assert list(_cites(tmp_path, body).values()) == [["2"]]


def test_without_a_numbered_list_no_superscript_is_read(tmp_path: Path) -> None:
    path = tmp_path / "paper.pdf"
    path.write_bytes(placed_pdf([[_sentence(700, "Alpha was shown before", "2", " in a study of ours here.")]]))
    reading = read_pdf_document(path)
    assert (reading.superscript_citations, reading.superscripts_left) == (0, ())


@pytest.mark.parametrize(
    ("paper", "references", "cites"),
    [("dynonet-paper/pdf/ms.pdf", 20, 27), ("mlrc-warmstart-repro/pdf/main.pdf", 11, 12)],
)
def test_the_shared_pdfs_keep_their_references_and_cites(papers: Path, paper: str, references: int, cites: int) -> None:
    reading: Any = read_pdf_document(papers / paper)
    assert sum(1 for chunk in reading.chunks if chunk.unit == "reference") == references
    assert sum(len(chunk.cites) for chunk in reading.chunks) == cites
    assert reading.superscript_citations == 0  # both print [n]; every raised number is maths
