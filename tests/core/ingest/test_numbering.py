"""start_run's numbering (cgx_core.ingest.numbering): the numbers LaTeX prints, the labels that name them, and
which chunks belong to what, on hard cases written here and on the shared papers."""

from __future__ import annotations

from pathlib import Path

import pytest

from cgx_core.ingest.numbering import read_numbering
from cgx_core.ingest.numbering.written import written_references
from support import PAPERS


def numbers(text: str, **files: str) -> dict[str, tuple[str, str | None]]:
    numbering = read_numbering({"paper.tex": text, **files}, "paper.tex")
    return {label: (item.kind, item.number) for label, item in numbering.labels.items()}


def document(body: str, preamble: str = "", documentclass: str = "article") -> str:
    return f"\\documentclass{{{documentclass}}}\n{preamble}\n\\begin{{document}}\n{body}\n\\end{{document}}\n"


def test_an_appendix_table_with_a_redefined_thetable_is_not_a_second_table_1() -> None:
    body = r"""
\section{Results}\label{sec:results}
\begin{table}\caption{Main.}\label{tab:main}\begin{tabular}{l} a \\ \end{tabular}\end{table}
\appendix
\section{More}\label{sec:more}
\renewcommand{\thetable}{A\arabic{table}}
\setcounter{table}{0}
\begin{table}\caption{Extra.}\label{tab:extra}\begin{tabular}{l} b \\ \end{tabular}\end{table}
\subsection{Deeper}\label{sec:deeper}
"""
    assert numbers(document(body)) == {
        "sec:results": ("section", "1"),
        "tab:main": ("table", "1"),
        "sec:more": ("section", "A"),
        "tab:extra": ("table", "A1"),
        "sec:deeper": ("section", "A.1"),
    }


def test_subequations_tags_and_unnumbered_rows() -> None:
    body = r"""
\begin{equation} a = b \label{eq:one} \end{equation}
\begin{subequations}\label{eq:pair}
\begin{align}
x &= 1 \label{eq:x} \\
y &= 2 \label{eq:y}
\end{align}
\end{subequations}
\begin{align}
u &= v \nonumber \\
w &= z \label{eq:w} \\
p &= q \tag{$\ast$} \label{eq:tagged}
\end{align}
\begin{equation*} s = t \end{equation*}
\begin{equation} \begin{split} m &= n \\ &= o \end{split} \label{eq:split} \end{equation}
"""
    assert numbers(document(body)) == {
        "eq:one": ("equation", "1"),
        "eq:pair": ("equation", "2"),
        "eq:x": ("equation", "2a"),
        "eq:y": ("equation", "2b"),
        "eq:w": ("equation", "3"),
        "eq:tagged": ("equation", r"$\ast$"),
        "eq:split": ("equation", "4"),
    }


def test_numbering_within_sections_and_chapters() -> None:
    within = document(
        r"\section{A} \begin{equation} a \label{eq:a} \end{equation} \section{B} "
        r"\begin{equation} b \label{eq:b} \end{equation}",
        preamble=r"\usepackage{amsmath}\numberwithin{equation}{section}",
    )
    assert numbers(within) == {"eq:a": ("equation", "1.1"), "eq:b": ("equation", "2.1")}
    report = document(
        r"\chapter{One} \section{S}\label{sec:s} \begin{figure}\caption{F}\label{fig:f}\end{figure} "
        r"\appendix \chapter{Extra}\label{ch:extra} \begin{table}\caption{T}\label{tab:t}\end{table}",
        documentclass="report",
    )
    assert numbers(report) == {
        "sec:s": ("section", "1.1"),
        "fig:f": ("figure", "1.1"),
        "ch:extra": ("section", "A"),
        "tab:t": ("table", "A.1"),
    }


def test_a_label_binds_as_latex_binds_it() -> None:
    body = r"""
\section{Intro}\label{sec:intro}
\begin{figure}\label{fig:early}\caption{Written after its label.}\end{figure}
\begin{figure}
\begin{subfigure}{.4\linewidth}\caption{Left.}\label{fig:left}\end{subfigure}
\begin{subfigure}{.4\linewidth}\caption{Right.}\label{fig:right}\end{subfigure}
\caption{Both.}\label{fig:both}
\end{figure}
\newtheorem{theorem}{Theorem}
\begin{theorem}\label{thm:main} A theorem. \end{theorem}
\begin{algorithm}\caption{An algorithm.}\label{alg:one}\end{algorithm}
"""
    found = numbers(document(body))
    assert found["fig:early"] == ("section", "1")  # LaTeX prints the section's number for it
    assert found["fig:left"] == ("figure", "2a") and found["fig:right"] == ("figure", "2b")
    assert found["fig:both"] == ("figure", "2")
    assert found["thm:main"] == ("theorem", "1")  # a theorem-like environment is numbered (issue 40)
    assert found["alg:one"][1] is None  # not numbered by this reading


def test_a_representation_it_cannot_read_gives_no_number_rather_than_a_guess() -> None:
    body = r"\renewcommand{\thetable}{\mystyle{table}} \begin{table}\caption{T}\label{tab:t}\end{table}"
    assert numbers(document(body)) == {"tab:t": ("table", None)}


def test_written_references() -> None:
    text = (
        r"As Eqn.~3 and Eq. (4) show, Table~\ref{tab:acc} and Fig. 2b, see Section 3.2, Appendix A, \cref{a,b}; "
        r"Table A shows"
    )
    assert [(item.get("label"), item.get("kind"), item.get("number")) for item in written_references(text)] == [
        (None, "equation", "3"),  # "Eqn.~3 and Eq. (4)": one run, naming 3 and 4
        ("tab:acc", "table", None),  # the word before a label says what it must name
        (None, "figure", "2b"),
        (None, "section", "3.2"),
        (None, "section", "A"),
        ("a", None, None),
        ("b", None, None),
    ]


def _paper(folder: str, main: str) -> Path:
    return PAPERS / folder / main


def test_warm_start_tables_are_numbered_with_their_panels_across_inputs() -> None:
    main = _paper("mlrc-warmstart-repro", "2020/mohtashami2021reproducibility/openreview/main.tex")
    root = main.parent
    files = {str(path.relative_to(root)): path.read_text() for path in root.rglob("*.tex")}
    numbering = read_numbering(files, "main.tex")
    assert (
        numbering.labels["tab:offline-warmup-vs-random"].kind,
        numbering.labels["tab:offline-warmup-vs-random"].number,
    ) == ("table", "1")
    assert numbering.labels["tab:regularization"].number == "2"
    assert numbering.labels["fig:fig2-svhn"].number == "2b"
    panel = next(item for item in numbering.objects if item.number == "1a")
    assert any(extent.file == "figures/table1-resnet.tex" for extent in panel.extents)  # its rows are \input


def test_farr_equations_are_numbered_in_order() -> None:
    main = _paper("farr-normal-normal", "src/tex/ms.tex")
    numbering = read_numbering({"ms.tex": main.read_text()}, "ms.tex")
    assert numbering.labels["eq:mu-hat"].number == "4"
    assert numbering.labels["eq:implicit-V-hat"].number == "9"
    assert [item.number for item in numbering.objects if item.kind == "equation"] == [str(n) for n in range(1, 19)]


def test_table_rows_are_titled_with_the_printed_number(tmp_path: Path) -> None:
    """An appendix table with a redefined \\thetable is "Table A1", not a second "Table 1"."""
    from cgx_core.graph.rubric import load_rubric_bytes
    from cgx_core.ingest.documents import read_document
    from cgx_core.ingest.paper import ingest
    from support import ROOT

    body = r"""
\section{Results}
\begin{table}\caption{Main.}\label{tab:main}\begin{tabular}{ll} a & 1 \\ \end{tabular}\end{table}
\appendix
\section{More}
\renewcommand{\thetable}{A\arabic{table}}
\setcounter{table}{0}
\begin{table}\caption{Extra.}\label{tab:extra}\begin{tabular}{ll} b & 2 \\ \end{tabular}\end{table}
"""
    paper = tmp_path / "paper.tex"
    paper.write_text(document(body), encoding="utf-8")
    rubric = load_rubric_bytes((ROOT / "examples" / "rubrics" / "paper.toml").read_bytes(), "paper")
    graph, _ = ingest(read_document(paper), [], rubric)
    rows = [node for node in graph if node.attributes.get("unit") == "table-row"]
    assert [str(node.statement).split(" (caption")[0] for node in rows] == [
        "Table 1 \\ref{tab:main}",
        "Table A1 \\ref{tab:extra}",
    ]
    owners = [node.attributes["numbered"][0] for node in rows]
    assert [(owner["number"], tuple(owner["labels"])) for owner in owners] == [
        ("1", ("tab:main",)),
        ("A1", ("tab:extra",)),
    ]


@pytest.mark.parametrize(
    "body",
    [
        "\\label{" * 5_000 + "x",  # unclosed arguments
        "\\begin{minipage}" * 1_000,  # nesting past the limit
        "\\end{figure}\\end{equation}\\caption{stray}\\tag{1}\\nonumber\\\\" * 200,  # ends and rows with no begin
        "\\input{paper}\\include{paper.tex}",  # the paper reads itself
        "\\setcounter{table}{\\value{figure}}\\begin{table}\\caption{T}\\label{tab:t}\\end{table}",
    ],
)
def test_hostile_latex_reads_to_a_numbering_without_a_wrong_number(body: str) -> None:
    found = numbers(document(body))
    assert found.get("tab:t", ("table", None)) == ("table", None)  # a counter set from a value it cannot read


def test_a_label_defined_twice_names_its_last_definition_as_latex_prints_it() -> None:
    body = r"\section{A}\label{sec:x} \section{B}\label{sec:x}"
    numbering = read_numbering({"paper.tex": document(body)}, "paper.tex")
    assert numbering.repeated == {"sec:x"}
    assert [item.labels for item in numbering.objects] == [[], ["sec:x"]]
    assert numbering.labels["sec:x"].number == "2"


def test_a_digit_in_a_name_is_not_a_number_written_by_hand() -> None:
    text = (
        r"As \ref{fig:fig7} shows (see \cref{tab:table2}), "
        r"\includegraphics[width=.5\linewidth]{figures/fig1_loss.pdf} \input{sections/section3} "
        r"the runtime of figure6.pdf and figures/fig2_acc.png; Figure 7 and Table~2 by hand"
    )
    assert [(item.get("label"), item.get("kind"), item.get("number")) for item in written_references(text)] == [
        ("fig:fig7", None, None),
        ("tab:table2", None, None),
        (None, "figure", "7"),
        (None, "table", "2"),
    ]


def test_a_run_ends_where_another_kind_begins() -> None:
    found = written_references("Tables 1-3 and Eqs. 3 and 4, Section 3.2, Fig. 4b")
    assert [(item["kind"], item.get("numbers", [item["number"]])) for item in found] == [
        ("table", ["1", "2", "3"]),
        ("equation", ["3", "4"]),
        ("section", ["3.2"]),
        ("figure", ["4b"]),
    ]


@pytest.mark.parametrize(
    ("text", "numbers", "is_open"),
    [
        ("as Eqs.~3 and~4 show", ["3", "4"], False),
        ("in Figures 2, 3 and 5", ["2", "3", "5"], False),
        ("Tables 1--3 list", ["1", "2", "3"], False),
        ("Eq. (3)-(5) hold", ["3", "4", "5"], False),
        ("Sections A.1--A.3 cover", ["A.1", "A.3"], True),  # which sections it spans would be a guess
    ],
)
def test_a_run_of_references_names_each(text: str, numbers: list[str], is_open: bool) -> None:
    [found] = written_references(text)
    assert found["numbers"] == numbers
    assert found.get("open", False) is is_open
