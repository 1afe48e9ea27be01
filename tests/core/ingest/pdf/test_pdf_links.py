"""A DOI (or arXiv id) a PDF's reference list gives only as a link is read into the entry's reference node;
what the entry's words print wins, and a link outside the list, or to any other address, names nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pdf_maker import Link, Text, placed_pdf

from cgx_core.graph.rubric import load_rubric_bytes
from cgx_core.ingest.documents import read_document
from cgx_core.ingest.paper import ingest
from cgx_core.ingest.pdf.links import identifiers_of
from support import ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
BODY = [
    Text(72, 700, "Earlier work found the same effect (Smith et al., 2020; Lee and Park 2019), and so did we."),
    Text(72, 686, "As Lee and Park (2019) put it, the effect holds, and van der Berg (2018a) agrees with them."),
    Text(72, 672, "A third line of the paragraph follows here, so that the paper has running text to read."),
    Text(72, 640, "References", bold=True),
    Text(72, 620, "Lee, K. and Park, J. (2019). A long title of a paper about the effect that goes on and"),
    Text(82, 606, "on. Journal of Effects, 12(3), 45-67. doi:10.1000/effects.2019.12"),
    Text(72, 592, "Smith, J., Jones, A., and Brown, B. (2020). Another title. Phys. Rev. Lett. 12, 345."),
    Text(72, 578, "van der Berg, A. (2018a). A third work, with its journal reference linked. J. Things 3."),
    Text(72, 564, "Wu, Q. (2017). A fourth work, whose link goes to its publisher's page. J. Things 2."),
]
LINKS = [
    Link((72, 684, 200, 696), "https://doi.org/10.5555/in.the.body"),  # a link in the running text
    Link((300, 604, 460, 616), "https://doi.org/10.9999/not.what.it.prints"),  # Lee prints its DOI
    Link((340, 590, 460, 602), "https://dx.doi.org/10.1000%2Fsmith.2020"),  # Smith: only the link
    Link((380, 576, 460, 588), "http://arxiv.org/abs/1801.00001v2"),  # van der Berg: only the link
    Link((380, 562, 460, 574), "https://example.org/10.1000/publisher.page"),  # Wu: not a DOI's address
]


def references(tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "paper.pdf"
    path.write_bytes(placed_pdf([BODY], [LINKS]))
    graph, _ = ingest(read_document(path), [], load_rubric_bytes(RUBRIC.read_bytes(), RUBRIC.name))
    return {node.attributes["key"]: node.attributes for node in graph if node.attributes.get("unit") == "reference"}


def test_a_doi_or_arxiv_id_given_only_as_a_link_is_read_into_its_entry(tmp_path: Path) -> None:
    found = references(tmp_path)
    assert list(found) == ["Lee 2019", "Smith 2020", "van der Berg 2018a", "Wu 2017"]
    assert found["Smith 2020"].get("doi") == "10.1000/smith.2020"
    assert found["van der Berg 2018a"].get("arxiv") == "1801.00001v2"


def test_what_the_entry_prints_wins_and_other_links_name_nothing(tmp_path: Path) -> None:
    found = references(tmp_path)
    assert found["Lee 2019"]["doi"] == "10.1000/effects.2019.12"
    assert "doi" not in found["Wu 2017"] and "arxiv" not in found["Wu 2017"]
    dois = {attributes.get("doi") for attributes in found.values()}
    assert "10.5555/in.the.body" not in dois


@pytest.mark.parametrize(
    ("uri", "identifiers"),
    [
        ("https://doi.org/10.1103/PhysRevLett.129.111102", {"doi": "10.1103/PhysRevLett.129.111102"}),
        ("http://dx.doi.org/10.1000%2Fxyz", {"doi": "10.1000/xyz"}),
        ("https://doi.org/10.48550/arXiv.2310.03811", {"doi": "10.48550/arXiv.2310.03811", "arxiv": "2310.03811"}),
        ("https://arxiv.org/abs/2201.00822", {"arxiv": "2201.00822"}),
        ("https://arxiv.org/pdf/hep-th/0306150v1.pdf", {"arxiv": "hep-th/0306150v1"}),
        ("https://doi.org/", {}),
        ("https://zenodo.org/records/7597043", {}),
        ("https://example.org/doi.org/10.1000/xyz", {}),
        ("mailto:someone@doi.org", {}),
        ("ftp://doi.org/10.1000/xyz", {}),
    ],
)
def test_only_a_doi_or_arxiv_address_names_an_identifier(uri: str, identifiers: dict[str, str]) -> None:
    assert identifiers_of(uri) == identifiers
