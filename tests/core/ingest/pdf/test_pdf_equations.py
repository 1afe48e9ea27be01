"""A PDF's one-line equations become LaTeX the maths check reads, so a check copied from the chunk is decided;
an equation set on several baselines (a fraction) keeps its text, which the check's LaTeX route refuses."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pdf_maker import Text, placed_pdf

from cgx_core.ingest.documents import read_document
from cgx_core.tooling.registry import call_tool
from support import ROOT, call

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
PROSE = [
    "The square of a sum is expanded in the usual way, which we recall here for the reader who",
    "wants to see each step of it written out in full, as it is in every textbook of algebra,",
    "and which we use below without further comment when we expand the terms of the series:",
]


def _paper(tmp_path: Path, display: list[Text]) -> Path:
    runs = [Text(72, 700 - 14 * index, line) for index, line in enumerate(PROSE)]
    runs += display
    runs += [Text(72, 600 - 14 * index, line) for index, line in enumerate(PROSE)]
    path = tmp_path / "paper.pdf"
    path.write_bytes(placed_pdf([runs]))
    return path


SQUARE = [
    Text(220, 650, "(a + b)"),
    Text(259, 650, "2", size=7, rise=4),
    Text(265, 650, " = a"),
    Text(290, 650, "2", size=7, rise=4),
    Text(296, 650, " + 2ab + b"),
    Text(350, 650, "2", size=7, rise=4),
    Text(520, 650, "(1)"),
]


def _unfenced(text: str) -> str:
    """A node's text as a result shows it, without the fence that marks it as the paper's data."""
    return re.sub(r"</?data-[0-9a-f]+>", "", text)


def _equations(path: Path) -> list[str]:
    return [chunk.text for chunk in read_document(path).chunks if chunk.unit == "equation"]


def test_raised_glyphs_are_superscripts_and_the_equation_number_is_left_out(tmp_path: Path) -> None:
    assert _equations(_paper(tmp_path, SQUARE)) == ["(a+b)^{2} = a^{2}+2ab+b^{2}"]


def test_a_stacked_fraction_keeps_its_text_and_a_script_without_base_is_not_guessed(tmp_path: Path) -> None:
    fraction = [Text(240, 660, "a + b"), Text(200, 650, "y ="), Text(250, 640, "c"), Text(520, 650, "(2)")]
    assert _equations(_paper(tmp_path, fraction)) == [
        chunk.text
        for chunk in read_document(tmp_path / "paper.pdf").pdf.analysis.chunks
        if chunk.unit == "equation"  # type: ignore[union-attr]
    ]
    unattached = [Text(220, 650, "y = "), Text(240, 650, "2", size=7, rise=4), Text(246, 650, " + x")]
    found = _equations(_paper(tmp_path, unattached))
    assert not any("^{" in text for text in found)


def _start(tmp_path: Path, paper: Path) -> tuple[Path, dict[str, Any]]:
    run = tmp_path / "run"
    arguments = {"run": str(run), "paper": str(paper), "rubric": str(RUBRIC), "model": "test-model"}
    result, error = call_tool("start_run", arguments)
    assert not error, result
    return run, result


def _check(run: Path, node: str, **proposal: Any) -> dict[str, Any]:
    assert call(run, "classify", records=[{"node": node, "type": "derivation"}])["refused"] == []
    return call(
        run, "run_checks", proposals=[{"type": "rederive-maths", "target": node, "equations": [node], **proposal}]
    )


def test_a_check_copied_from_a_made_pdf_equation_is_decided(tmp_path: Path) -> None:
    run, started = _start(tmp_path, _paper(tmp_path, SQUARE))
    [equation] = [node for node in started["nodes"] if node["unit"] == "equation"]
    result = _check(run, equation["id"], symbols={"a": [], "b": []}, latex=_unfenced(equation["text"]))
    assert [check["result"] for check in result["checks"]] == ["passed"], result


def test_a_check_copied_from_a_dynonet_pdf_equation_chunk_is_decided(papers: Path, tmp_path: Path) -> None:
    run, _ = _start(tmp_path, papers / "dynonet-paper/pdf/ms.pdf")
    listed = call_tool("get_state", {"run": str(run), "unit": "equation", "limit": 100})[0]
    by_text = {_unfenced(node["text"]): node["id"] for node in listed["nodes"]}
    # The convolution's index range, (2) of the paper: credencegraph read it "i = 0, 1, . . . , nx + ny \u2212 1."
    node = by_text["i = 0,1,...,n_{x}+n_{y}-1."]
    symbols = {"n_x": ["integer"], "n_y": ["integer"]}
    passed = _check(run, node, symbols=symbols, latex="n_{x}+n_{y}-1", lhs="(n_x + 1) + (n_y - 2)")
    assert [check["result"] for check in passed["checks"]] == ["passed"], passed
    # the correlation's range, (3): a side that differs from the paper's is a failure, decided too
    other = by_text["i = -n_{x}+1,...,n_{y}-1."]
    failed = _check(run, other, symbols=symbols, latex="n_{y}-1", lhs="n_y")
    assert [check["result"] for check in failed["checks"]] == ["failed"], failed
