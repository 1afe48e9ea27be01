"""A PDF's tables become t-N rows of the same shape as a LaTeX table's: on the shared warm-start paper (its
PDF against its LaTeX) and on PDFs made for the hard cases."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pdf_maker import Text, placed_pdf

from cgx_core.graph.rubric import load_rubric_bytes
from cgx_core.ingest.documents import read_document
from cgx_core.ingest.paper import ingest
from cgx_core.ingest.pdf.tables import read_pdf_tables
from support import ROOT

PAPER_RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
WARMSTART = "mlrc-warmstart-repro"


def graph_of(path: Path) -> Any:
    rubric = load_rubric_bytes(PAPER_RUBRIC.read_bytes(), PAPER_RUBRIC.name)
    graph, _ = ingest(read_document(path), [], rubric)
    return graph


def rows(graph: Any) -> list[str]:
    return [node.statement for node in graph if node.attributes.get("unit") == "table-row"]


def _cells(row: str) -> str:
    """A row's text after its table's caption reference, LaTeX markup off (a PDF prints no \\textbf)."""
    body = row.split("); ", 1)[1]
    return re.sub(r"\\textbf\{([^{}]*)\}", r"\1", body)


def test_warmstart_pdf_rows_hold_the_latex_rows_cells_under_the_same_headers(papers: Path) -> None:
    latex = rows(graph_of(papers / WARMSTART / "2020/mohtashami2021reproducibility/openreview/main.tex"))
    pdf_graph = graph_of(papers / WARMSTART / "pdf/main.pdf")
    pdf = rows(pdf_graph)
    assert [_cells(row) for row in pdf] == [_cells(row) for row in latex]
    # the printed numbers, subtables lettered as LaTeX numbers them
    assert [row.split(" (caption", 1)[0] for row in pdf] == [row.split(" \\ref", 1)[0] for row in latex]
    assert pdf[0].startswith("Table 1a (caption s-")
    assert pdf[-1].endswith("row Warm Starting; 0.1: 81.16; 0.01: 61.22; 0.001: 58.63")


def test_warmstart_pdf_rows_follow_their_caption_and_replace_the_table_read_as_prose(papers: Path) -> None:
    graph = graph_of(papers / WARMSTART / "pdf/main.pdf")
    nodes = list(graph)
    first = next(index for index, node in enumerate(nodes) if node.attributes.get("unit") == "table-row")
    holder = nodes[first - 1]
    assert holder.attributes["unit"] == "caption" and "Test accuracies" in (holder.statement or "")
    assert f"(caption {holder.id})" in (nodes[first].statement or "")
    prose = [node.statement or "" for node in nodes if node.attributes.get("unit") == "sentence"]
    assert not any("60.3 (0.1)" in text or "81.44" in text for text in prose)


def _table_pdf(tmp_path: Path, runs: list[Text]) -> Path:
    path = tmp_path / "paper.pdf"
    path.write_bytes(placed_pdf([runs]))
    return path


PROSE_ABOVE = [
    Text(72, 700, "The first paragraph of the paper runs across the whole width of the text block here."),
    Text(72, 686, "It goes on for a second line that is just as wide as the first line of it was."),
]
PROSE_BELOW = [Text(72, 560, "After the table the text goes on with a paragraph as wide as the ones before it was.")]


def test_printed_minus_signs_and_raised_exponents_are_read_as_the_numeral_reader_reads_latex(tmp_path: Path) -> None:
    runs = [
        *PROSE_ABOVE,
        Text(72, 660, "Table 3: Errors of two methods on two sets."),
        Text(72, 640, "Method", bold=True),
        Text(200, 640, "Set A", bold=True),
        Text(300, 640, "Set B", bold=True),
        Text(72, 626, "Ours"),
        Text(200, 626, "\u20130.52"),  # an en dash set as the minus sign
        Text(300, 626, "1.2\u00d710"),
        Text(332, 626, "\u20133", size=7, rise=4),  # the exponent, raised and smaller
        Text(72, 612, "Baseline"),
        Text(200, 612, "0.61"),
        Text(300, 612, "4.5\u00d710"),
        Text(332, 612, "\u20133", size=7, rise=4),
        *PROSE_BELOW,
    ]
    found = rows(graph_of(_table_pdf(tmp_path, runs)))
    assert [row.split("); ", 1)[1] for row in found] == [
        "row Method: Ours; Set A: -0.52; Set B: 1.2\u00d710^{-3}",
        "row Method: Baseline; Set A: 0.61; Set B: 4.5\u00d710^{-3}",
    ]
    assert all(row.startswith("Table 3 (caption s-") for row in found)


def test_a_header_over_two_columns_and_a_group_row_are_shaped_as_in_latex(tmp_path: Path) -> None:
    runs = [
        *PROSE_ABOVE,
        Text(72, 660, "Table 1. Accuracy by split."),
        Text(230, 644, "Accuracy", bold=True),  # spans the two columns below it
        Text(200, 630, "train"),
        Text(300, 630, "test"),
        Text(400, 630, "n"),
        Text(72, 614, "Vision", bold=True),
        Text(72, 600, "ResNet"),
        Text(200, 600, "99.1"),
        Text(300, 600, "93.2"),
        Text(400, 600, "12"),
        Text(72, 586, "MLP"),
        Text(200, 586, "88.0"),
        Text(300, 586, "80.5"),
        Text(400, 586, "7"),
        Text(72, 540, "After the table the text goes on with a paragraph as wide as the ones before it was."),
    ]
    found = rows(graph_of(_table_pdf(tmp_path, runs)))
    assert [row.split("); ", 1)[1] for row in found] == [
        "row Vision / ResNet; Accuracy / train: 99.1; Accuracy / test: 93.2; n: 12",
        "row Vision / MLP; Accuracy / train: 88.0; Accuracy / test: 80.5; n: 7",
    ]


def test_a_table_caption_over_an_image_gives_no_rows_and_is_reported(tmp_path: Path) -> None:
    path = _table_pdf(tmp_path, [*PROSE_ABOVE, Text(72, 660, "Table 2: A table set as an image."), *PROSE_BELOW])
    document = read_document(path)
    assert document.pdf is not None
    tables = read_pdf_tables(document.pdf.analysis, document.chunks)
    assert tables.rows == ()
    assert tables.unread == ("Table 2",)
    assert len(tables.prose(document.chunks)) == len(document.chunks)  # no prose taken for a table


def test_prose_with_numbers_beside_a_caption_is_not_a_table(tmp_path: Path) -> None:
    runs = [
        Text(72, 700, "We trained for 90 epochs with a batch size of 128 and a learning rate of 0.1 in all runs."),
        Text(72, 686, "Table 4 shows that the error fell from 12.5 to 9.3 when the learning rate was halved."),
        Text(72, 660, "Table 4: A caption whose table is elsewhere."),
        Text(72, 640, "The text after it reports 3 runs and 2 seeds in one line as wide as a paragraph is."),
    ]
    document = read_document(_table_pdf(tmp_path, runs))
    assert document.pdf is not None
    assert read_pdf_tables(document.pdf.analysis, document.chunks).rows == ()


def test_start_run_on_a_pdf_says_what_it_lost_and_report_json_keeps_it(tmp_path: Path) -> None:
    from cgx_core.tooling.registry import call_tool
    from support import call

    runs = [
        *PROSE_ABOVE,
        Text(72, 660, "Figure 1: A plot the text cannot carry."),
        Text(72, 620, "References", bold=True),
        Text(72, 604, "A study of things, printed with neither its authors nor its year."),  # no entry to key
    ]
    paper = _table_pdf(tmp_path, runs)
    run = tmp_path / "run"
    arguments = {"run": str(run), "paper": str(paper), "rubric": str(PAPER_RUBRIC), "model": "test-model"}
    result, error = call_tool("start_run", arguments)
    assert not error, result
    limits = result["document"]["limits"]
    assert "Prefer the LaTeX sources" in limits["message"]
    assert limits["figures_not_read"] == 1
    assert limits["references"]["read"] == 0 and "was not read" in limits["references"]["not_read"]
    untyped = [node["id"] for node in result["nodes"] if node["type"] == "unassigned"]
    classified = call(run, "classify", records=[{"node": node, "type": "context"} for node in untyped])
    assert "error" not in classified, classified
    finished = call(run, "finish_run")
    assert "error" not in finished, finished
    report = json.loads((run / "report.json").read_bytes())
    assert report["document_limits"] == limits
    _every_report_format_shows_the_limits(run)


def _every_report_format_shows_the_limits(run: Path) -> None:
    """Whoever reads the verdicts (not only the agent) sees what the PDF run could not read."""
    from cgx_core.report.html import html_report
    from cgx_core.report.integrity import Integrity, not_run
    from cgx_core.report.markdown import markdown_report
    from cgx_core.report.model import build_report
    from cgx_core.report.text import text_report

    report = build_report(run, Integrity(not_run("the test skips it"), not_run("the test skips it")))
    shown = dict(report.document_limits)
    assert shown["figures not read"] == "1"
    assert shown["tables"] == "read: 0; rows: 0; captions without rows: none"
    assert shown["references"].startswith("read: 0; chunks citing: 0; not read: the paper has a reference list")
    text, markdown, html = text_report(report), markdown_report(report), html_report(report)
    assert "document limits):\n  figures not read: 1\n" in text
    assert "## What this PDF run could not read" in markdown and "- figures not read: `1`" in markdown
    assert "Prefer the LaTeX sources" in markdown and "Prefer the LaTeX sources" in html
    assert "<dt>figures not read</dt><dd>1</dd>" in html


def test_a_latex_run_has_no_limits(tmp_path: Path) -> None:
    from cgx_core.tooling.registry import call_tool

    paper = tmp_path / "paper.tex"
    paper.write_text("\\documentclass{article}\n\\begin{document}\nWe ran 3 trials.\n\\end{document}\n")
    arguments = {"run": str(tmp_path / "run"), "paper": str(paper), "rubric": str(PAPER_RUBRIC), "model": "m"}
    result, error = call_tool("start_run", arguments)
    assert not error, result
    assert "limits" not in result["document"]
