r"""The whole document or a refusal (issue 38): a paper whose preamble defines its displays with `\def`,
`\newcommand` or `\newenvironment` is read whole; a paper read mostly short is refused (`ingest-incomplete`,
naming where and why), or run with the loss in `document.limits`, start_run's result and every report; a
report never raises on what a paper writes."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path
from typing import Any

from report_runs import listed

from cgx_core.audit.replay import replay
from cgx_core.ingest.documents import read_document
from cgx_core.ingest.paper import walk_latex
from cgx_core.ingest.paper_macros import expand_paper_macros
from cgx_core.report.coverage import numerals_in
from cgx_core.report.html import html_report
from cgx_core.report.integrity import Integrity, not_run
from cgx_core.report.markdown import markdown_report
from cgx_core.report.model import build_report
from cgx_core.report.text import text_report
from cgx_core.tooling.registry import call_tool
from support import ROOT, call

HEP_TH = Path(__file__).parent / "papers" / "hep-th-macros" / "paper.tex"
RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"


def start(run: Path, paper: Path, **extra: Any) -> tuple[dict[str, Any], bool]:
    arguments = {"run": str(run), "paper": str(paper), "rubric": str(RUBRIC), "model": "m", **extra}
    return call_tool("start_run", arguments)


def finished(run: Path) -> None:
    """Every chunk classified as context, and the run finished."""
    rest = [{"node": chunk["id"], "type": "context"} for chunk in listed(run, type="unassigned")]
    assert "error" not in call(run, "classify", records=rest)
    assert "error" not in call(run, "finish_run")


def reports(run: Path) -> list[str]:
    """The report in its three formats (replay and verify not run: the text is what is tested)."""
    integrity = Integrity(not_run("not asked"), not_run("not asked"))
    report = build_report(run, integrity)
    return [text_report(report), markdown_report(report), html_report(report)]


def test_a_hep_th_preamble_of_display_macros_is_read_whole(tmp_path: Path) -> None:
    document = read_document(HEP_TH)
    equations = [chunk for chunk in document.chunks if chunk.unit == "equation"]
    assert [chunk.labels for chunk in equations] == [("eq:action",), ("eq:motion",), ("eq:energy",), ("eq:dispersion",)]
    assert equations[0].text.startswith("\\begin{equation} S = \\int d^4x")  # \half still expanded
    sentences = [chunk.text for chunk in document.chunks if chunk.unit == "sentence"]
    assert "We find 3 solutions in total." in sentences and any("DE-FG02-94ER408" in text for text in sentences)
    accounting = document.accounting()
    assert accounting is not None and accounting.complete
    # Every reader reads the same prepared text: the numbering numbers the macro displays.
    numbering = walk_latex(document)[0]
    assert numbering is not None
    labels = numbering.labels
    assert [labels[name].number for name in ("eq:action", "eq:motion", "eq:energy", "eq:dispersion")] == [
        "1",
        "2",
        "3",
        "4",
    ]
    result, is_error = start(tmp_path / "run", HEP_TH, store_source=True)
    assert not is_error, result
    assert "limits" not in result["document"]
    finished(tmp_path / "run")
    assert replay(tmp_path / "run", source=None, sources=None).identical


def test_expansion_keeps_every_line_and_leaves_balanced_macros_and_class_files_alone() -> None:
    texts = {
        "paper.tex": HEP_TH.read_text(encoding="utf-8"),
        "local.sty": "\\renewenvironment{abstract}{\\begin{quote}}{\\end{quote}}\n",
    }
    expansion = expand_paper_macros(texts)
    assert expansion.expanded == ("\\beqn", "\\eeqn", "\\beq", "\\eeq", "\\bea", "{beqa}")
    prepared = expansion.texts["paper.tex"]
    assert prepared.count("\n") == texts["paper.tex"].count("\n")
    assert "\\half" in prepared and "\\newcommand{\\half}" in prepared  # balanced: credencegraph expands it
    assert "\\def\\beqn" not in prepared and "\\beqn" not in prepared
    assert "\\begin{eqnarray}\\label{eq:energy}" in prepared
    assert expansion.texts["local.sty"] == texts["local.sty"]
    plain = {"paper.tex": "\\newcommand{\\x}{\\begin{center}x\\end{center}}\n\\begin{document}\\x\\end{document}\n"}
    assert expand_paper_macros(plain).texts == plain


SHORT = r"""\documentclass{article}
\newcommand{\be}[1][x]{\begin{equation}}
\newcommand{\ee}{\end{equation}}
\begin{document}
We study a field with a long introduction that says a great deal about it.
\be
x = 1
\ee
Then many sentences follow, each of them part of the body that a reader of the paper would read.
Here is another sentence of the body, which no chunk will hold when the reader stops early.
And one more sentence, so that most of the body is lost when the display macro is misread.
The end of the body comes after a final sentence about the results of the paper.
\end{document}
"""


def test_a_paper_read_mostly_short_is_refused_naming_where_and_why(tmp_path: Path) -> None:
    paper = tmp_path / "paper" / "short.tex"
    paper.parent.mkdir()
    paper.write_text(SHORT, encoding="utf-8")
    refused, is_error = start(tmp_path / "run", paper)
    assert is_error and refused["error"]["code"] == "ingest-incomplete", refused
    message = refused["error"]["message"]
    assert re.search(r"left \d+% of the paper's body in no chunk", message)
    assert "lines 5-12 of short.tex are in no chunk" in message
    assert "\\be (short.tex)" in message and "accept_incomplete" in message
    assert not (tmp_path / "run").exists()


def test_a_paper_read_short_with_accept_incomplete_says_so_everywhere(tmp_path: Path) -> None:
    paper = tmp_path / "paper" / "short.tex"
    paper.parent.mkdir()
    paper.write_text(SHORT, encoding="utf-8")
    run = tmp_path / "run"
    result, is_error = start(run, paper, accept_incomplete=True, store_source=True)
    assert not is_error, result
    unread = result["document"]["limits"]["unread"]
    assert unread["share"].endswith("%") and "lines 5-12 of short.tex" in unread["stopped"]
    manifest = json.loads((run / "manifest.json").read_bytes())
    assert manifest["document"]["limits"]["unread"] == unread
    finished(run)
    text, markdown, html = reports(run)
    for shown in (text, markdown, html):
        assert f"No check failed of the part that was read: {unread['share']} of the paper" in shown
        assert "What this run could not read" in shown
        assert "No check failed." not in shown
    assert replay(run, source=None, sources=None).identical


def test_the_accounting_weighs_the_files_the_body_inputs(tmp_path: Path) -> None:
    (tmp_path / "sections").mkdir()
    (tmp_path / "sections" / "body.tex").write_text(
        "\\newcommand{\\be}[1][x]{\\begin{equation}}\n" + "A sentence of the input file that is long enough.\n" * 8,
        encoding="utf-8",
    )
    (tmp_path / "macros.tex").write_text("\\newcommand{\\R}{\\mathbb{R}}\n", encoding="utf-8")
    main = tmp_path / "main.tex"
    main.write_text(
        "\\documentclass{article}\n\\input{macros}\n\\begin{document}\nA first sentence.\n"
        "\\input{sections/body}\n\\end{document}\n",
        encoding="utf-8",
    )
    document = read_document(main)
    assert document.body_files == ("sections/body.tex",)  # macros.tex is read in the preamble: not weighed
    accounting = document.accounting()
    assert accounting is not None and not accounting.complete  # the input file's text is lost, and weighed
    assert accounting.gap is not None and (accounting.gap.file, accounting.gap.first) == ("sections/body.tex", 1)


ACKNOWLEDGEMENTS = (
    "This work was supported by the U.S. Department of Energy under grant DE-FG02-94ER408.",
    "Supported by grants 1ER4, 2eR5 and 3E+ and NSF PHY-1125915, and by contract no. GA832003.",
    "We thank the referee (ref. 12e-3) for 10^{-3}-level comments and 1,000,000 thanks, 5\\% of them 1e400.",
)


def _random_sentences(count: int) -> list[str]:
    alphabet = "0123456789eERx+-.,:;/()=<> abcdefghijklmnopqrstuvwxyz\u2212\u00d7\u2009"
    chosen = random.Random(38)
    return [
        "Text " + "".join(chosen.choice(alphabet) for _ in range(chosen.randint(1, 40))) + "." for _ in range(count)
    ]


def _acknowledgements(papers: Path) -> list[str]:
    found = []
    for name in ("dynonet-paper/doc/paper/ms.tex", "hastings-powell-replication/article/content.tex"):
        text = (papers / name).read_text(encoding="utf-8")
        at = re.search(r"\\section\*?\{Acknowledg", text)
        assert at is not None, name
        found.append(text[at.end() :].split("\n\n\n")[0].split("}", 1)[1].strip())
    return found


def test_the_report_never_raises_on_what_a_paper_writes(tmp_path: Path, papers: Path) -> None:
    for text in (*ACKNOWLEDGEMENTS, *_random_sentences(300)):
        assert isinstance(numerals_in(text), set)
    body = "\n\n".join([*ACKNOWLEDGEMENTS, *_acknowledgements(papers), *_random_sentences(120)])
    paper = tmp_path / "paper" / "fuzz.tex"
    paper.parent.mkdir()
    paper.write_text(f"\\documentclass{{article}}\n\\begin{{document}}\n{body}\n\\end{{document}}\n", encoding="utf-8")
    run = tmp_path / "run"
    result, is_error = start(run, paper, store_source=True)
    assert not is_error, result
    finished(run)
    text, markdown, html = reports(run)
    assert "No check failed." in markdown and "DE-FG02-94ER408" in html
    shutil.rmtree(run)


def test_the_grant_number_reads_as_credencegraph_means_it() -> None:
    assert numerals_in("grant DE-FG02-94ER408") == {94.0}
    assert numerals_in("a rate of 1.5e3 Hz") == {1500.0}


def test_a_paper_mostly_made_of_a_table_is_read_whole(tmp_path: Path) -> None:
    """credencegraph's reader puts a tabular in no chunk; its rows, read by this package, count as read."""
    rows = "".join(f"Run {n} & {n * 12} & {n * 3}{{,}}600 \\\\\n" for n in range(1, 9))
    paper = tmp_path / "paper.tex"
    paper.write_text(
        "\\documentclass{article}\n\\begin{document}\nWe ran eight runs.\n\\begin{table}\\caption{Runs.}\n"
        f"\\begin{{tabular}}{{lrr}}\nRun & Batches & Samples \\\\\n{rows}\\end{{tabular}}\n\\end{{table}}\n"
        "\\end{document}\n",
        encoding="utf-8",
    )
    chunks_alone = read_document(paper).accounting()
    assert chunks_alone is not None and not chunks_alone.complete  # the chunks alone miss the rows
    result, failed = start(tmp_path / "run", paper)
    assert not failed, result
    assert "unread" not in json.dumps(result)
