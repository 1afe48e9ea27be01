"""Reference lists in the forms journals print, made here for each form (the published PDFs' tests show the
real ones): numbered `1.` with a hanging indent, Vancouver `Smith JA,`, author-year initials first; words
split at a line's end; and what start_run's `document.limits` says of what it could not read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pdf_maker import Text, placed_pdf

from cgx_core.graph.rubric import load_rubric_bytes
from cgx_core.ingest.documents import read_document
from cgx_core.ingest.paper import _limits, ingest
from support import ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
PROSE = [
    "A first paragraph of running text that goes on for a while, as the body of a paper does here.",
    "It cites the work of Smith and Lee [1] and then the later one of Brown et al. [2, 3] in one line.",
    "A third line of the paragraph follows with enough words in it to be running text of the page.",
    "A fourth line carries the paragraph on, so that the page has a text block to measure it by.",
    "The paragraph ends here, in its fifth line, after the reader has seen every one of its words.",
]


def _body(top: float = 700) -> list[Text]:
    return [Text(72, top - 14 * index, line) for index, line in enumerate(PROSE)]


def _read(tmp_path: Path, runs: list[Text]) -> tuple[Any, dict[str, Any]]:
    path = tmp_path / "paper.pdf"
    path.write_bytes(placed_pdf([runs]))
    document = read_document(path)
    graph, _ = ingest(document, [], load_rubric_bytes(RUBRIC.read_bytes(), RUBRIC.name))
    limits = _limits(document, document.accounting())
    assert limits is not None
    return graph, limits


def _references(graph: Any) -> dict[str, Any]:
    return {node.attributes["key"]: node for node in graph if node.attributes.get("unit") == "reference"}


def _cited(graph: Any) -> list[str]:
    by_id = {node.id: node for node in graph}
    return [by_id[r.target].attributes["key"] for r in graph.relations.values() if r.type == "cites"]


NUMBERED = [
    Text(72, 600, "References", size=12),
    Text(76, 584, "1. J. Smith and K. Lee. A title that runs on past the end of the line into the next"),
    Text(92, 570, "one. Journal of Things 3 (2019), pp. 1-10. doi:10.1000/things.2019.3"),
    Text(76, 556, "2. A. Brown, B. Green, and C. White. Another title. JHEP 5 (2003) 1 [hep-th/0306150]."),
    Text(76, 542, "3. D. Black. A third title, whose identifier is printed wrong, arXiv:hep-th/0803.0698."),
    Text(92, 528, "2017. A continuation line that starts with a year is no entry."),
]


def test_a_number_point_list_with_a_hanging_indent_gives_entries_keyed_by_number(tmp_path: Path) -> None:
    graph, limits = _read(tmp_path, [*_body(), *NUMBERED])
    references = _references(graph)
    assert list(references) == ["1", "2", "3"]
    assert references["1"].statement.startswith("J. Smith and K. Lee. A title")
    assert references["1"].attributes["doi"] == "10.1000/things.2019.3"
    assert references["2"].attributes["arxiv"] == "hep-th/0306150"  # printed without "arXiv:"
    assert references["3"].statement.endswith("2017. A continuation line that starts with a year is no entry.")
    assert references["3"].attributes["arxiv_malformed"] == "hep-th/0803.0698"  # reported, not dropped
    assert limits["references"]["identifiers_malformed"] == ["3: arXiv:hep-th/0803.0698"]
    assert limits["references"]["printed"] == "numbered"
    assert sorted(_cited(graph)) == ["1", "2", "3"]  # the [1] and [2, 3] of the running text


def test_author_year_lists_initials_first_or_vancouver_are_read_and_cited(tmp_path: Path) -> None:
    body = [
        Text(72, 700, "A first paragraph cites earlier work (Smith 2019; Brown et al. 2003) in its first line."),
        *(Text(72, 686 - 14 * index, line) for index, line in enumerate(PROSE[2:])),
        Text(72, 600, "References", bold=True),
        Text(72, 584, "J. Smith and K. Lee. 2019. A title that runs on past the end of the line, and on into"),
        Text(84, 570, "the next. Journal of Things 3, 1-10."),
        Text(72, 556, "Brown AB, Green C, White D. Another title. Journal of Others. 2003;5:1-9."),
    ]
    graph, limits = _read(tmp_path, body)
    assert list(_references(graph)) == ["Smith 2019", "Brown 2003"]
    assert _cited(graph) == ["Smith 2019", "Brown 2003"]
    assert limits["references"]["printed"] == "author-year"


def test_a_word_split_at_a_lines_end_is_joined_and_a_compound_keeps_its_hyphen(tmp_path: Path) -> None:
    runs = [
        Text(72, 700, "A long sentence about a three-species food chain that was dis-"),
        Text(72, 686, "covered in the field, and about another three-"),
        Text(72, 672, "species chain that goes on in the next line of the same paragraph here."),
        *(Text(72, 658 - 14 * index, line) for index, line in enumerate(PROSE[2:])),
    ]
    graph, _ = _read(tmp_path, runs)
    text = " ".join(node.statement for node in graph if node.attributes.get("unit") == "sentence")
    assert "was discovered in the field" in text
    assert "another three-species chain" in text  # written inside a line elsewhere: its own hyphen


def test_limits_name_a_table_caption_not_read_the_furniture_and_a_pdf_that_is_no_article(tmp_path: Path) -> None:
    runs = [
        *_body(),
        Text(10, 650, "Edited by"),  # a sidebar left of the text block
        Text(10, 636, "A. Editor"),
        Text(72, 600, "Table S1: Supplementary values, as a journal numbers a supplement's tables."),
    ]
    graph, limits = _read(tmp_path, runs)
    assert limits["tables"]["captions_not_read"] == ["Table S1"]
    assert limits["page_furniture_removed"] == 2
    assert "not_an_article" not in limits
    assert not any("Edited by" in (node.statement or "") for node in graph)
    figure = [Text(72 + 40 * column, 700 - 20 * row, f"{row}.{column}") for row in range(8) for column in range(6)]
    _, limits = _read(tmp_path, [*figure, Text(300, 500, "x(n)"), Text(100, 600, "y(n)")])
    assert "reads as no article" in limits["not_an_article"]
