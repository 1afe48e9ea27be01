"""Published PDFs read as well as their LaTeX (issue 41): three journals' styles, each PDF as its authors
published it beside the LaTeX it was made from (tests/papers/README.md). The PDF run's reference nodes reach
90% of the LaTeX run's, its cites 80%, and every table row the LaTeX run has is a row of the PDF run with the
same numbers under the same table number."""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from typing import Any

import pytest

from cgx_core.ingest.paper import IngestRequest, ingest_paper
from support import PAPERS, ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
PUBLISHED = {
    "rescience-lamichhane": ("article/published.pdf", "article/article.tex", "."),
    "farr-normal-normal": ("pdf/ms.pdf", "src/tex/ms.tex", None),
    "gw150914-comment": ("pdf/ms.pdf", "src/tex/ms.tex", None),
}
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


@functools.cache
def _nodes(paper: str, kind: str) -> tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]]:
    pdf, main, root = PUBLISHED[paper]
    folder = PAPERS / paper
    path = folder / (pdf if kind == "pdf" else main)
    request = IngestRequest(
        str(path), str(folder / root) if root and kind == "latex" else None, RUBRIC.read_bytes(), RUBRIC.name
    )
    graph = json.loads(ingest_paper(request).graph)
    nodes, relations = graph["nodes"], graph["relations"]
    nodes = list(nodes.values()) if isinstance(nodes, dict) else nodes
    relations = list(relations.values()) if isinstance(relations, dict) else relations
    return tuple(nodes), tuple(relations)


def _unit(paper: str, kind: str, unit: str) -> list[dict[str, Any]]:
    return [node for node in _nodes(paper, kind)[0] if node["attributes"].get("unit") == unit]


def _cites(paper: str, kind: str) -> int:
    return sum(1 for relation in _nodes(paper, kind)[1] if relation["type"] == "cites")


@pytest.mark.parametrize("paper", sorted(PUBLISHED))
def test_reference_nodes_and_cites_reach_the_latex_runs(paper: str) -> None:
    latex, pdf = len(_unit(paper, "latex", "reference")), len(_unit(paper, "pdf", "reference"))
    assert latex > 0 and pdf >= 0.9 * latex, (pdf, latex)
    assert _cites(paper, "pdf") >= 0.8 * _cites(paper, "latex"), (_cites(paper, "pdf"), _cites(paper, "latex"))


def _rows(paper: str, kind: str) -> Counter[tuple[str, tuple[str, ...]]]:
    out: Counter[tuple[str, tuple[str, ...]]] = Counter()
    for node in _unit(paper, kind, "table-row"):
        number = node["statement"].split(" ", 2)[1]  # "Table 2 (caption s-40); row ..."
        cells = node["statement"].split("; row ", 1)[-1].split("; ")
        values = [cell.rsplit(": ", 1)[-1] for cell in cells]  # a header's own numbers ("95%") are no value
        out[(number, tuple(found for value in values for found in _NUMBER.findall(value)))] += 1
    return out


def test_every_latex_table_row_is_a_pdf_row_with_its_numbers() -> None:
    latex, pdf = _rows("rescience-lamichhane", "latex"), _rows("rescience-lamichhane", "pdf")
    assert sum(latex.values()) == 39
    assert latex - pdf == Counter()


def test_a_numbered_list_printed_initials_first_keys_its_entries_by_number() -> None:
    references = {node["attributes"]["key"]: node for node in _unit("rescience-lamichhane", "pdf", "reference")}
    assert list(references) == [str(number) for number in range(1, 11)]
    assert references["1"]["statement"].startswith("G. Lamichhane, M. Zignol, N. J. Blades,")
    assert "application to Mycobacterium tuberculosis" in references["1"]["statement"]  # `My-` / `cobacterium`
    sentences = " ".join(node["statement"] for node in _unit("rescience-lamichhane", "pdf", "sentence"))
    assert "Proc Natl Acad Sci USA" not in sentences  # the list is no longer read as sentences


def test_an_author_year_list_in_two_columns_gives_every_entry_with_its_identifiers() -> None:
    references = {node["attributes"]["key"]: node for node in _unit("farr-normal-normal", "pdf", "reference")}
    assert set(references) == {"Isi 2019", "Pacilio 2023", "Payne 2023", "The LIGO Scientific Collaboration 2021"}
    assert references["Pacilio 2023"]["attributes"]["arxiv"] == "2310.03811"
    assert references["Isi 2019"]["attributes"]["doi"] == "10.1103/PhysRevLett.123.121101"


def test_a_doi_the_pdf_gives_only_as_a_link_is_read_into_the_entry_the_latex_run_gives_it() -> None:
    """gw150914-comment's PDF (APS, revtex4-2) prints no DOI: each journal reference is a link to one."""

    def identifiers(kind: str) -> set[tuple[str | None, str | None]]:
        nodes = _unit("gw150914-comment", kind, "reference")
        return {(node["attributes"].get("arxiv"), node["attributes"].get("doi")) for node in nodes}

    latex, pdf = identifiers("latex"), identifiers("pdf")
    assert len({doi for _, doi in latex if doi}) == 4
    assert {pair for pair in latex if pair[1]} == {pair for pair in pdf if pair[1]}  # each DOI on its entry


def test_the_listing_of_a_projects_files_is_neither_equations_nor_sentences() -> None:
    """lamichhane's figure 1 is its project's folder in a typewriter font: four "equations" and five
    "sentences" before; the LaTeX run has none of it."""
    assert _unit("rescience-lamichhane", "pdf", "equation") == _unit("rescience-lamichhane", "latex", "equation") == []
    texts = " ".join(node["statement"] for node in _nodes("rescience-lamichhane", "pdf")[0])
    assert "Randomness/" not in texts and "exploreSeq.pl" not in texts
