"""What a reference node learns from its .bib entry: the first author's family name, the year, and the arXiv id
an arXiv DOI names; on the shared papers' real bibliographies too."""

from __future__ import annotations

from pathlib import Path

import pytest

from cgx_core.ingest.bibliography import arxiv_from_doi, first_author_family, read_bib
from support import listed_nodes


@pytest.mark.parametrize(
    ("authors", "family"),
    [
        ("{Isi}, Maximiliano and {Chatziioannou}, Katerina and {Farr}, Will M.", "Isi"),
        ("Kaiming He and Xiangyu Zhang and Shaoqing Ren", "He"),
        ("Diederik P. Kingma and\n               Jimmy Ba", "Kingma"),
        (
            "{The LIGO Scientific Collaboration} and {the Virgo Collaboration} and {Abbott}, R.",
            "The LIGO Scientific Collaboration",
        ),
        ("von Neumann, John", "von Neumann"),
        ('M{\\"u}ller, Hans AND Smith, Jane', "Müller"),
        ("Smith, Jr., John", "Smith"),
        ("{Barnes and Noble} and Other, A.", "Barnes and Noble"),  # " and " inside braces is not a separator
        ("Plato", "Plato"),
        ("", None),
    ],
)
def test_the_first_authors_family_name(authors: str, family: str | None) -> None:
    assert first_author_family(authors) == family


@pytest.mark.parametrize(
    ("doi", "arxiv"),
    [
        ("10.48550/arXiv.2112.06861", "2112.06861"),
        ("10.48550/ARXIV.2010.06121", "2010.06121"),
        ("10.48550/arXiv.hep-th/9901001", "hep-th/9901001"),
        ("10.48550/arXiv.2112.06861v2", "2112.06861v2"),
        ("10.1103/PhysRevLett.123.121101", None),
        ("10.48550/zenodo.123", None),
        (None, None),
    ],
)
def test_an_arxiv_doi_names_its_arxiv_paper(doi: str | None, arxiv: str | None) -> None:
    assert arxiv_from_doi(doi) == arxiv


def test_an_entry_with_only_an_arxiv_doi_gets_its_arxiv_id_and_a_biblatex_date_its_year() -> None:
    bib = b"""@article{only_doi, author = {Doe, Jane}, title = {T}, doi = {https://doi.org/10.48550/arXiv.2310.03811},
  date = {2023-10-05}}"""
    entries, warnings = read_bib("refs.bib", bib)
    assert warnings == []
    entry = entries["only_doi"]
    assert (entry.doi, entry.arxiv, entry.year, entry.first_author) == (
        "10.48550/arXiv.2310.03811",
        "2310.03811",
        "2023",
        "Doe",
    )
    assert entry.attributes() == {
        "bib": "refs.bib",
        "title": "T",
        "doi": "10.48550/arXiv.2310.03811",
        "arxiv": "2310.03811",
        "first_author": "Doe",
        "year": "2023",
    }


@pytest.mark.parametrize(
    ("bib", "key", "expected"),
    [
        (
            "farr-normal-normal/src/tex/bib.bib",
            "Isi2019",
            ("Isi", "2019", "1904.08011", "10.1103/PhysRevLett.123.121101"),
        ),
        (
            "mlrc-warmstart-repro/2020/mohtashami2021reproducibility/openreview/literature.bib",
            "he_deep_2016",
            ("He", "2016", None, "10.1109/CVPR.2016.90"),
        ),
        (
            "mlrc-warmstart-repro/2020/mohtashami2021reproducibility/openreview/literature.bib",
            "rumelhart_learning_1986",
            ("Rumelhart", "1986", None, "10.1038/323533a0"),
        ),
        (
            "mlrc-warmstart-repro/2020/mohtashami2021reproducibility/openreview/literature.bib",
            "kingma_adam:_2015",
            ("Kingma", "2015", "1412.6980", None),
        ),
        (
            "hastings-powell-replication/article/bibliography.bib",
            "hastings1991",
            ("Hastings", "1991", None, "10.2307/1940591"),
        ),
        (
            "hastings-powell-replication/article/bibliography.bib",
            "bezanson2017",
            ("Bezanson", "2017", None, "10.1137/141000671"),
        ),
    ],
)
def test_real_bibliography_entries(papers: Path, bib: str, key: str, expected: tuple[str | None, ...]) -> None:
    entries, _ = read_bib("refs.bib", (papers / bib).read_bytes())
    entry = entries[key]
    assert (entry.first_author, entry.year, entry.arxiv, entry.doi) == expected


def test_start_run_says_which_bib_beside_the_paper_would_resolve_its_citations(tmp_path: Path) -> None:
    """The paper names no bibliography and prints none, so start_run reads no .bib: every \\cite is unresolved;
    the result says which file beside it has the keys, and passing it resolves them."""
    from cgx_core.tooling.registry import call_tool
    from support import EXAMPLE_RUBRIC

    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\nNoise is white~\\cite{smith2019}. "
        "It is also stationary~\\cite{jones2021,doe2020}.\n\\end{document}\n",
        encoding="utf-8",
    )
    (paper / "unrelated.bib").write_text("@book{knuth1984, title={The TeXbook}}\n", encoding="utf-8")
    (paper / "zz-refs.bib").write_text(
        "@string{jip = {Journal of Invented Physics}}\n@comment{smith2019,}\n"
        "@article{smith2019, author={Smith, Jane}, title={White noise}, journal=jip, year={2019}}\n"
        "@Article ( jones2021 , author={Jones, Alex}, title={Stationary noise}, year={2021})\n",
        encoding="utf-8",
    )
    arguments = {"paper": str(paper / "main.tex"), "rubric": str(EXAMPLE_RUBRIC), "model": "test-model"}
    first, is_error = call_tool("start_run", {"run": str(tmp_path / "run"), **arguments})
    assert not is_error, first
    bibliography = first["bibliography"]
    assert bibliography["unresolved"] == {"total": 3, "first": ["doe2020", "jones2021", "smith2019"]}
    assert bibliography["hint"]["files"] == [{"file": "zz-refs.bib", "resolves": 2}]
    assert bibliography["hint"]["message"].startswith("zz-refs.bib beside the paper has 2 of the 3 unresolved keys")
    assert '"bibliography"' in bibliography["hint"]["message"]
    second, is_error = call_tool(
        "start_run", {"run": str(tmp_path / "run2"), **arguments, "bibliography": str(paper / "zz-refs.bib")}
    )
    assert not is_error, second
    assert second["bibliography"]["unresolved"] == {"total": 1, "first": ["doe2020"]}
    assert "hint" not in second["bibliography"]
    assert {reference["key"] for reference in listed_nodes(tmp_path / "run2", unit="reference")} == {
        "smith2019",
        "jones2021",
    }
