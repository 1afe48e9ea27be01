"""The normalisation a passage and a source share, and finding the passage with its range and page."""

from __future__ import annotations

from pathlib import Path

import pytest
from citation_testkit import make_pdf
from hypothesis import given
from hypothesis import strategies as st

from cgx_checks.citation.passage import find_passage, normalise_for_search, passage_problem
from cgx_checks.citation.text import SourceText, extract_text


@pytest.mark.parametrize(
    ("text", "normalised"),
    [
        ("The ﬁrst ﬂow", "the first flow"),
        (
            "\u201cQuoted\u201d and \u2018single\u2019 and \u00abguillemets\u00bb",
            '"quoted" and \'single\' and "guillemets"',
        ),
        ("5\u2032 and 6\u2033", "5' and 6\""),
        ("a \u2013 b \u2014 c \u2212 d \u2010 e", "a - b - c - d - e"),
        ("exam-\nple", "example"),
        ("exam-\r\n   ple", "example"),
        ("well-known", "wellknown"),
        ("soft\u00adhyphen", "softhyphen"),
        ("soft\u00ad\nhyphen", "softhyphen"),
        ("effi\ufffeciency and effi\x02ciency", "efficiency and efficiency"),
        ("zero\u200bwidth\u2060joiners\ufeff", "zerowidthjoiners"),
        ("  many   spaces\t\tand\n\nlines  ", "many spaces and lines"),
        ("no\u00a0break\u2009thin", "no break thin"),
        ("ÉTÉ Straße", "été strasse"),
        ("e\u0301te\u0301", "été"),
        ("\uff26\uff35\uff2c\uff2c width", "full width"),
        ("a - b", "a - b"),
        ("ends with hyphen-", "ends with hyphen-"),
        ("dash- not joined", "dash- not joined"),
        ("COVID-\n19", "covid19"),
        ("c\u2013\u00adss and x-\ufffe\ny", "css and xy"),  # a soft hyphen after a hard one is invisible
        ("\u00df\u0301", "s\u015b"),  # casefold then NFKC again, to a fixed point
    ],
)
def test_normalisation(text: str, normalised: str) -> None:
    assert normalise_for_search(text)[0] == normalised


def test_offsets_map_back() -> None:
    text = "A ﬁne exam-\nple."
    normalised, offsets = normalise_for_search(text)
    assert normalised == "a fine example."
    assert len(offsets) == len(normalised) + 1
    assert offsets[-1] == len(text)
    assert offsets[2] == offsets[3] == 2  # both letters of the ligature come from it
    assert "".join(text[offset] for offset in offsets[:-1]) == "A ﬁﬁne example."
    assert offsets[normalised.index("ple")] == text.index("ple")


def test_passage_across_hyphenation_ligature_quotes_and_case() -> None:
    source = SourceText("Intro.\nWe found that the “measured” eﬃ-\nciency of the DETECTOR was 93 per cent.")
    location = find_passage(source, 'the "measured" efficiency of the detector was 93')
    assert location is not None
    assert source.text[location.start : location.end] == "the “measured” eﬃ-\nciency of the DETECTOR was 93"
    assert location.page is None


def test_passage_not_in_source() -> None:
    source = SourceText("The measured efficiency of the detector was 93 per cent.")
    assert find_passage(source, "the measured efficiency of the detector was 94 per cent") is None
    assert find_passage(source, "   ") is None


def test_first_occurrence_is_reported() -> None:
    source = SourceText("one two three four. one two three four.")
    location = find_passage(source, "ONE two three four")
    assert location is not None and location.start == 0


def test_pdf_passage_has_its_page() -> None:
    data = make_pdf(
        [
            ["A Detector Study", "arXiv:2101.00001v2"],
            ["In this section the measured effi-", "ciency of the detector was 93 per cent", "in the final run."],
        ]
    )
    source = extract_text(data, "pdf")
    location = find_passage(source, "the measured efficiency of the detector was 93 per cent in the final run")
    assert location is not None
    assert location.page == 2
    assert source.pages[1][0] <= location.start < location.end <= source.pages[1][1]
    assert find_passage(source, "A detector study arXiv:2101.00001v2") is not None


def test_real_paper_passage(papers: Path) -> None:
    source = extract_text((papers / "dynonet-paper" / "doc" / "paper" / "ms.tex").read_bytes(), "tex")
    passage = "corresponds to the filtering of an input sequence through a causal Finite Impulse Response (FIR) system"
    assert find_passage(source, passage) is None  # a word left out is not the source's text
    location = find_passage(source, passage.replace("(FIR) system", "(FIR) dynamical system"))
    assert location is not None
    assert source.text[location.start : location.end].endswith("(FIR) dynamical system")


@pytest.mark.parametrize(
    ("passage", "problem"),
    [
        ("too short", "at least 20 characters"),
        ("averyveryverylongsingleword", "1 words"),
        ("   ", "0 characters"),
        ("x" * 20_001, "longer than"),
    ],
)
def test_passage_problem(passage: str, problem: str) -> None:
    found = passage_problem(passage)
    assert found is not None and problem in found


def test_good_passage_has_no_problem() -> None:
    assert passage_problem("the measured efficiency of the detector") is None


PIECES = [*"abcXYZ 09-.\n\r\t", "\ufb01", "\u201c", "\u201d", "\u2019", "\u00ad", "\ufffe", "\u200b"]
PIECES += ["\u00e9", "e\u0301", "\u0301", "\u00df", "\u0130", "\u2013", "\u01f0", "\u2033", "\u2026"]
TRICKY = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@given(TRICKY)
def test_normalisation_is_idempotent(text: str) -> None:
    once, _ = normalise_for_search(text)
    assert normalise_for_search(once)[0] == once


@given(TRICKY)
def test_offsets_are_ordered_and_in_range(text: str) -> None:
    normalised, offsets = normalise_for_search(text)
    assert len(offsets) == len(normalised) + 1
    assert offsets == sorted(offsets)
    assert all(0 <= offset <= len(text) for offset in offsets)


@given(TRICKY, st.data())
def test_any_piece_of_the_normalised_text_is_found_where_it_is(text: str, data: st.DataObject) -> None:
    normalised, _ = normalise_for_search(text)
    if not normalised.strip():
        return
    start = data.draw(st.integers(min_value=0, max_value=len(normalised) - 1))
    end = data.draw(st.integers(min_value=start + 1, max_value=len(normalised)))
    needle = normalised[start:end].strip()
    if not needle:
        return
    location = find_passage(SourceText(text), needle)
    assert location is not None
    assert 0 <= location.start < location.end <= len(text)
    assert needle in normalise_for_search(text[location.start : location.end])[0]
