"""A PDF's author-year reference list becomes reference nodes, and its in-text citations cites relations
(a numbered [n] list is credencegraph's: the shared PDFs' tests show it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pdf_maker import Text, placed_pdf

from cgx_core.graph.rubric import load_rubric_bytes
from cgx_core.ingest.documents import read_document
from cgx_core.ingest.paper import ingest
from support import ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
BODY = [
    Text(72, 700, "Earlier work found the same effect (Smith et al., 2020; Lee and Park 2019), and so did we."),
    Text(72, 686, "As Lee and Park (2019) put it, the effect holds in 2021 too, which no one disputes now."),
    Text(72, 672, "A third line of the paragraph follows here, citing van der Berg (2018a) by name alone."),
    Text(72, 640, "References", bold=True),
    Text(72, 620, "Lee, K. and Park, J. (2019). A long title of a paper about the effect that goes on and"),
    Text(82, 606, "on. Journal of Effects, 12(3), 45-67. doi:10.1000/effects.2019.12"),
    Text(72, 592, "Smith, J., Jones, A., and Brown, B. (2020). Another title. In Proceedings of Things."),
    Text(72, 578, "van der Berg, A. (2018a). A third work, with arXiv:1801.00001 printed in its entry."),
]


def _graph(tmp_path: Path, runs: list[Text]) -> Any:
    path = tmp_path / "paper.pdf"
    path.write_bytes(placed_pdf([runs]))
    graph, _ = ingest(read_document(path), [], load_rubric_bytes(RUBRIC.read_bytes(), RUBRIC.name))
    return graph


def test_an_author_year_list_gives_reference_nodes_with_keys_doi_and_arxiv(tmp_path: Path) -> None:
    graph = _graph(tmp_path, BODY)
    references = {node.attributes["key"]: node for node in graph if node.attributes.get("unit") == "reference"}
    assert list(references) == ["Lee 2019", "Smith 2020", "van der Berg 2018a"]
    assert references["Lee 2019"].statement.endswith("Journal of Effects, 12(3), 45-67. doi:10.1000/effects.2019.12")
    assert references["Lee 2019"].attributes["doi"] == "10.1000/effects.2019.12"
    assert references["van der Berg 2018a"].attributes["arxiv"] == "1801.00001"
    # the list is no longer read as sentences
    sentences = [node.statement for node in graph if node.attributes.get("unit") == "sentence"]
    assert not any("Journal of Effects" in text for text in sentences)


def test_parenthetical_and_narrative_citations_become_cites_and_a_bare_year_does_not(tmp_path: Path) -> None:
    graph = _graph(tmp_path, BODY)
    by_id = {node.id: node for node in graph}
    cites: dict[str, list[str]] = {}
    for relation in graph.relations.values():
        if relation.type == "cites":
            cites.setdefault(by_id[relation.source].statement[:20], []).append(by_id[relation.target].attributes["key"])
    assert cites == {
        "Earlier work found t": ["Smith 2020", "Lee 2019"],
        "As Lee and Park (201": ["Lee 2019"],  # and not "2021", which no entry has
        "A third line of the ": ["van der Berg 2018a"],
    }


def test_no_heading_no_list(tmp_path: Path) -> None:
    graph = _graph(tmp_path, [line for line in BODY if line.text != "References"])
    assert not [node for node in graph if node.attributes.get("unit") == "reference"]
