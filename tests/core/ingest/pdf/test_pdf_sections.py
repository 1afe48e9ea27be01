"""A PDF's numbered headings give its chunks their sections, as a LaTeX run's numbering does: a heading is a
number and a title alone on a line, set apart from the body, whose number follows the one before it; its
text is cut from the sentence the reader glued it to."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdf_maker import Text, placed_pdf

from cgx_core.graph.rubric import load_rubric_bytes
from cgx_core.ingest.documents import read_document
from cgx_core.ingest.paper import ingest
from cgx_core.ingest.pdf.sections import _follows
from support import ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
PAGE = [
    Text(72, 720, "1 Introduction", size=14),
    Text(72, 700, "We study the effect of warm starting on the accuracy of the models that we train here."),
    Text(72, 686, "The effect was reported before, and we measure it again on three of the usual datasets."),
    Text(72, 650, "2 Methods", size=14),
    Text(72, 630, "We train every model for two hundred epochs, and we stop when the loss no longer falls."),
    Text(72, 604, "2.1 Data", size=12),
    Text(72, 584, "The datasets are split into halves, and the first half is used to warm start the model."),
    Text(72, 570, "7 Results were kept for every run, and the best of them is the one that the table shows."),
    Text(72, 540, "5 Extra", size=14),  # out of order: no heading
    Text(72, 520, "The last paragraph of the data section says how the halves were drawn from each dataset."),
]


def sections(tmp_path: Path) -> dict[str, list[str]]:
    path = tmp_path / "paper.pdf"
    path.write_bytes(placed_pdf([PAGE]))
    graph, _ = ingest(read_document(path), [], load_rubric_bytes(RUBRIC.read_bytes(), RUBRIC.name))
    return {
        node.statement: [item["number"] for item in node.attributes.get("numbered", ()) if item["kind"] == "section"]
        for node in graph
        if node.attributes.get("unit") == "sentence"
    }


def test_each_sentence_belongs_to_the_sections_printed_over_it_and_headings_leave_the_text(tmp_path: Path) -> None:
    found = sections(tmp_path)
    assert found == {
        "We study the effect of warm starting on the accuracy of the models that we train here.": ["1"],
        "The effect was reported before, and we measure it again on three of the usual datasets.": ["1"],
        "We train every model for two hundred epochs, and we stop when the loss no longer falls.": ["2"],
        "The datasets are split into halves, and the first half is used to warm start the model.": ["2", "2.1"],
        "7 Results were kept for every run, and the best of them is the one that the table shows.": ["2", "2.1"],
        "5 Extra The last paragraph of the data section says how the halves were drawn from each dataset.": [
            "2",
            "2.1",
        ],
    }


@pytest.mark.parametrize(
    ("number", "last", "follows"),
    [
        ((1,), (), True),
        ((2,), (), False),
        ((2,), (1,), True),
        ((1, 1), (1,), True),
        ((1, 2), (1,), False),
        ((1, 2), (1, 1), True),
        ((2,), (1, 3), True),
        ((2, 1), (1, 3), True),
        ((3,), (1,), False),
        ((1,), (1,), False),
        ((2, 2), (1, 3), False),
    ],
)
def test_a_section_number_follows_the_one_before_it_as_sections_are_numbered(
    number: tuple[int, ...], last: tuple[int, ...], follows: bool
) -> None:
    assert _follows(number, last) is follows
