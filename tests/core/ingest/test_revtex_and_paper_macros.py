r"""A revtex paper as such papers are written (issue 37): footnotes in the body, the title, `\thanks` and an
`\affiliation` are one footnote chunk each, and the front matter is no junk sentence; a paper's own unit macro
leaves no nested fragments in its chunks, and an equation inside its own wrapper macro is an equation chunk with
its label. The prepared text keeps every line where the paper has it."""

from __future__ import annotations

from pathlib import Path

from cgx_core.ingest.documents import read_document
from cgx_core.ingest.paper import walk_latex
from cgx_core.ingest.paper_macros import expand_paper_macros

REVTEX = Path(__file__).parent / "papers" / "revtex-footnotes" / "paper.tex"


def test_revtex_footnotes_are_one_chunk_each_and_the_front_matter_no_sentence() -> None:
    chunks = read_document(REVTEX).chunks
    footnotes = [chunk.text for chunk in chunks if chunk.unit == "footnote"]
    assert footnotes == [
        "Work supported by grant DE-FG02-94ER408.",  # in \title
        "Corresponding author.",  # \thanks
        "Now at the Lab of Springs.",  # in \affiliation
        "The period was timed with a stopwatch.",
        "Supplied by a vendor.",
    ]
    assert not any(macro in chunk.text for chunk in chunks for macro in ("\\affiliation", "\\email", "\\thanks"))
    sentences = [chunk.text for chunk in chunks if chunk.unit == "sentence"]
    assert sentences[0] == "We measure the damping rate of a pendulum to 2 \\%."


def test_a_unit_macro_reads_as_its_unit_and_a_wrapper_as_its_content() -> None:
    document = read_document(REVTEX)
    texts = [chunk.text for chunk in document.chunks]
    assert "The pendulum has a length of 1.5 m and a period of 2.46 s." in texts
    assert "The fibre was made of tungsten and is 25 \\mu m thick." in texts
    assert not any("\\mathrm" in text or "\\unit" in text or "\\referee" in text for text in texts)
    [equation] = [chunk for chunk in document.chunks if chunk.unit == "equation"]
    assert equation.labels == ("eq:g(n,e)",) and equation.locator == "file=paper.tex;lines=17-20"
    numbering = walk_latex(document)[0]
    assert numbering is not None and numbering.labels["eq:g(n,e)"].number == "1"


def test_presentational_macros_keep_lines_and_leave_other_macros_alone() -> None:
    text = (
        "\\newcommand{\\unit}[1]{\\ensuremath{{\\,\\mathrm{#1}}}}\n"
        "\\newcommand{\\qty}[2]{#1\\;\\text{#2}}\n"
        "\\newcommand{\\change}[1]{{\\color{blue}#1}}\n"
        "\\newcommand{\\vect}[1]{\\mathbf{#1}}\n"
        "a 3\\unit{kg} mass, \\qty{4}{m} long, \\change{new\ntext}, \\vect{x}\n"
    )
    prepared = expand_paper_macros({"paper.tex": text}).texts["paper.tex"]
    assert prepared.splitlines()[4:] == ["a 3 kg mass, 4 m long, new", "text, \\vect{x}"]
    assert prepared.count("\n") == text.count("\n")
    assert prepared.splitlines()[:4] == text.splitlines()[:4]  # the definitions stay, for uses written otherwise
