"""Bibliography keys that are not file names (DOI "export BibTeX" keys such as
`https://doi.org/10.48550/arxiv.2010.06121`) have cited copies, named by one escape rule: `%XX` for each
character a portable file name cannot hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from cgx_checks.citation.ties import Entry, Tie, tie_for_cited
from cgx_core.ingest.cited import escape_key, key_of_stem
from cgx_core.tooling.registry import call_tool
from support import EXAMPLE_RUBRIC, call, listed_nodes

KEY = "https://doi.org/10.48550/arxiv.2010.06121"
NAME = "https%3A%2F%2Fdoi.org%2F10.48550%2Farxiv.2010.06121.txt"
PAPER = r"""\documentclass{article}
\begin{document}
Gradient noise limits the usable step size in practice~\cite{https://doi.org/10.48550/arxiv.2010.06121}.
\bibliography{refs}
\end{document}
"""
BIB = """@misc{https://doi.org/10.48550/arxiv.2010.06121,
  doi = {10.48550/ARXIV.2010.06121},
  url = {https://arxiv.org/abs/2010.06121},
  author = {Doe, Jane and Roe, Richard},
  title = {Gradient Noise and the Step Size},
  publisher = {arXiv},
  year = {2020}
}
"""
PASSAGE = "gradient noise limits the usable step size of stochastic gradient descent"


@pytest.mark.parametrize(
    ("key", "stem"),
    [
        (KEY, "https%3A%2F%2Fdoi.org%2F10.48550%2Farxiv.2010.06121"),
        ("smith2019", "smith2019"),
        ("Abbott:2016blz", "Abbott%3A2016blz"),
        ("a%b", "a%25b"),
        ('back\\slash*?"<>|', "back%5Cslash%2A%3F%22%3C%3E%7C"),
        ("tab\there", "tab%09here"),
        ("Müller2020", "Müller2020"),  # letters of any script are file names
    ],
)
def test_a_key_escapes_to_a_file_name_and_back(key: str, stem: str) -> None:
    assert escape_key(key) == stem
    assert "/" not in stem
    assert key_of_stem(stem, {key}) == key
    assert key_of_stem(stem, set()) == key  # decoded even when the caller does not know the key


def test_a_stem_that_is_a_key_as_written_is_that_key() -> None:
    assert key_of_stem("Abbott:2016blz", {"Abbott:2016blz"}) == "Abbott:2016blz"
    assert key_of_stem("odd%41key", {"odd%41key"}) == "odd%41key"  # not decoded to oddAkey
    assert key_of_stem("bad%FFbyte", set()) == "bad%FFbyte"  # not UTF-8 once decoded: taken as written


def test_a_doi_url_key_is_tied_through_its_escaped_copy() -> None:
    entry = Entry(key=KEY, doi="10.48550/ARXIV.2010.06121")
    assert escape_key(KEY) + ".txt" == NAME
    assert tie_for_cited(NAME, entry, "sha256:aa", "sha256:aa") == Tie(kind="cited", names=KEY)
    assert tie_for_cited("https:%2F%2Fdoi.org%2F10.48550%2Farxiv.2010.06121.txt", entry, "d", "d") is not None
    assert tie_for_cited("https%3A%2F%2Fdoi.org%2F10.48550%2Farxiv.2010.06122.txt", entry, "d", "d") is None


def test_a_paper_citing_a_doi_url_key_has_its_copy_judged(tmp_path: Path) -> None:
    paper = tmp_path / "paper"
    (paper / "cited").mkdir(parents=True)
    (paper / "paper.tex").write_text(PAPER, encoding="utf-8")
    (paper / "refs.bib").write_text(BIB, encoding="utf-8")
    (paper / "cited" / NAME).write_text(f"We find that {PASSAGE}.\n", encoding="utf-8")
    run = tmp_path / "run"
    started, is_error = call_tool(
        "start_run",
        {
            "run": str(run),
            "paper": str(paper / "paper.tex"),
            "rubric": str(EXAMPLE_RUBRIC),
            "cited": str(paper / "cited"),
            "model": "test-model",
        },
    )
    assert not is_error, started
    assert started["cited"]["first"][0]["key"] == KEY and started["cited"]["first"][0]["name"] == NAME
    [reference] = listed_nodes(run, unit="reference")
    assert reference["arxiv"] == "2010.06121"  # derived from the DataCite arXiv DOI and its URL
    assert (run / "cited" / NAME).is_file()
    call(run, "classify", records=[{"node": "s-1", "type": "literature_claim"}])
    result = call(run, "judge_citation", node="s-1", entry=reference["id"], source=NAME, passage=PASSAGE, supports=True)
    assert result["checks"][0]["result"] == "passed", result
    assert f"tied to '{KEY}' by cited" in result["checks"][0]["detail"]


def test_a_copy_whose_escaped_name_decodes_to_no_key_is_refused_with_the_rule(tmp_path: Path) -> None:
    paper = tmp_path / "paper"
    (paper / "cited").mkdir(parents=True)
    (paper / "paper.tex").write_text(PAPER, encoding="utf-8")
    (paper / "refs.bib").write_text(BIB, encoding="utf-8")
    (paper / "cited" / "https%3A%2F%2Fdoi.org%2F10.9999%2Fother.pdf").write_bytes(b"%PDF-1.4")
    payload, is_error = call_tool(
        "start_run",
        {
            "run": str(tmp_path / "run"),
            "paper": str(paper / "paper.tex"),
            "rubric": str(EXAMPLE_RUBRIC),
            "cited": str(paper / "cited"),
            "model": "test-model",
        },
    )
    assert is_error
    assert payload["error"]["code"] == "cited-invalid"
    assert "'https://doi.org/10.9999/other' is not a key" in payload["error"]["message"]
    assert "%XX escapes" in payload["error"]["message"]
    assert not (tmp_path / "run").exists()
