r"""Table body rows become chunks: hard cases of LaTeX tables, each read through the real ingestion
(read_document, then start_run's `ingest` with credencegraph underneath), asserting the row text an
agent reads and cites."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from credencegraph.rubric import check_graph

from cgx_core.errors import CgxError
from cgx_core.graph.rubric import load_rubric_bytes
from cgx_core.ingest.documents import read_document
from cgx_core.ingest.paper import ingest
from support import ROOT

PAPER_RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"


def paper(tmp_path: Path, body: str, preamble: str = "", **files: str) -> Path:
    main = tmp_path / "main.tex"
    main.write_text(
        f"\\documentclass{{article}}\n{preamble}\n\\begin{{document}}\nSome prose before.\n\n{body}\n\n"
        "Some prose after.\n\\end{document}\n",
        encoding="utf-8",
    )
    for name, text in files.items():
        target = tmp_path / name.replace("__", "/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return main


def ingested(main: Path) -> Any:
    rubric = load_rubric_bytes(PAPER_RUBRIC.read_bytes(), PAPER_RUBRIC.name)
    graph, _ = ingest(read_document(main), [], rubric)
    return graph


def rows(main: Path) -> list[str]:
    return [node.statement for node in ingested(main) if node.attributes.get("unit") == "table-row"]


def test_a_booktabs_table_with_a_two_row_header_gives_one_chunk_per_body_row(tmp_path: Path) -> None:
    main = paper(
        tmp_path,
        r"""\begin{table}
\centering
\caption{Scores over 5 seeds.}
\label{tab:main}
\begin{tabular}{@{}lcc@{}}
\toprule
\multirow{2}{*}{Method} & \multicolumn{2}{c}{Accuracy} \\ \cmidrule(lr){2-3}
 & Train & Test \\
\midrule
Ours & 99.4 & 92.3 \\
Base & 97.0 & 90.1 \\
\bottomrule
\end{tabular}
\end{table}""",
    )
    graph = ingested(main)
    caption = next(node.id for node in graph if node.attributes.get("unit") == "caption")
    assert [node.statement for node in graph if node.attributes.get("unit") == "table-row"] == [
        f"Table 1 \\ref{{tab:main}} (caption {caption}); row Method: Ours; Accuracy / Train: 99.4; "
        "Accuracy / Test: 92.3",
        f"Table 1 \\ref{{tab:main}} (caption {caption}); row Method: Base; Accuracy / Train: 97.0; "
        "Accuracy / Test: 90.1",
    ]


def test_every_written_form_of_a_number_survives_as_written(tmp_path: Path) -> None:
    main = paper(
        tmp_path,
        r"""\begin{tabular}{l c c c}
\hline
Name & A & B & C \\
\hline
x & \num{1.2e3} & $4.1\times10^{-3}$ & 93.2\% \\
y & \SI{5}{\hour} & $10^{4}$ & 12{,}000 \\
\hline
\end{tabular}""",
    )
    assert rows(main) == [
        "Table (unnumbered); row Name: x; A: \\num{1.2e3}; B: $4.1\\times10^{-3}$; C: 93.2\\%",
        "Table (unnumbered); row Name: y; A: \\SI{5}{\\hour}; B: $10^{4}$; C: 12{,}000",
    ]


def test_row_and_cell_separators_are_read_as_latex_reads_them(tmp_path: Path) -> None:
    # \& is a character, & in braces or maths is content, a comment's & is nothing, \\[2pt] and \\ [2pt]
    # both take their spacing, and a row may run over several lines.
    main = paper(
        tmp_path,
        r"""\begin{tabular}{@{}l|c@{}}
Key & Value \\ \hline
Smith \& Wesson & 1 \\[2pt]
{a & b} & $x & y$ \\ [3pt]
Split % a comment & 99
  row & 3 \\
\cline{2-2}
last & 4
\end{tabular}""",
    )
    assert rows(main) == [
        "Table (unnumbered); row Key: Smith \\& Wesson; Value: 1",
        "Table (unnumbered); row Key: {a & b}; Value: $x & y$",
        "Table (unnumbered); row Key: Split row; Value: 3",
        "Table (unnumbered); row Key: last; Value: 4",
    ]


def test_a_cell_spanning_rows_or_columns_is_attributed_to_each(tmp_path: Path) -> None:
    main = paper(
        tmp_path,
        r"""\begin{tabular}{llcc}
\toprule
Group & Name & A & B \\
\midrule
\multirow{2}{*}{First} & one & 1 & 2 \\
 & two & \multicolumn{2}{c}{shared 3} \\
 & three & 4 & 5 \\
 & & 6 & 7 \\
\multirow{-2}{*}{Second} & last & 8 & 9 \\
\multicolumn{2}{l}{\multirow{2}{*}{Both}} & 10 & 11 \\
 & & 12 & 13 \\
\bottomrule
\end{tabular}""",
    )
    assert rows(main) == [
        "Table (unnumbered); row Group: First; Name: one; A: 1; B: 2",
        "Table (unnumbered); row Group: First; Name: two; A & B: shared 3",
        # a multirow covers only the rows it spans (LaTeX leaves the third row's cell empty)
        "Table (unnumbered); unlabelled row; Name: three; A: 4; B: 5",
        "Table (unnumbered); row Group: Second; A: 6; B: 7",  # a negative span reaches upwards
        "Table (unnumbered); row Group: Second; Name: last; A: 8; B: 9",
        "Table (unnumbered); row Group: Both; A: 10; B: 11",
        "Table (unnumbered); row Group: Both; A: 12; B: 13",
    ]


def test_group_headings_inside_the_body_name_the_rows_below_them(tmp_path: Path) -> None:
    main = paper(
        tmp_path,
        r"""\begin{tabular}{cccc}
\textbf{CIFAR-10} & SGD & ADAM & MSGD \\ \hline
Random Init & 39.8 (0.1) & 35.6 (0.3) & 38.4 (0.3) \\
\textbf{SVHN} & & & \\ \hline
Random Init & 19.8 (0.6) & 24.2 (0.9) & 22.4 (0.4) \\
\multicolumn{4}{c}{Ablations} \\
No decay & 1 & 2 & 3 \\
\end{tabular}""",
    )
    assert rows(main) == [
        "Table (unnumbered); row \\textbf{CIFAR-10}: Random Init; SGD: 39.8 (0.1); ADAM: 35.6 (0.3); MSGD: 38.4 (0.3)",
        "Table (unnumbered); row \\textbf{SVHN} / Random Init; SGD: 19.8 (0.6); ADAM: 24.2 (0.9); MSGD: 22.4 (0.4)",
        "Table (unnumbered); row Ablations / No decay; SGD: 1; ADAM: 2; MSGD: 3",
    ]


def test_siunitx_s_columns_write_plain_numbers_as_num(tmp_path: Path) -> None:
    main = paper(
        tmp_path,
        r"""\begin{tabular}{l S[table-format=5.1] S s}
\toprule
Run & {Time} & {Rate} & {Unit} \\
\midrule
a & 12 345.5 & 1.2e3 & \hour \\
b & {--} & \textbf{7} & \second \\
\bottomrule
\end{tabular}""",
    )
    assert rows(main) == [
        "Table (unnumbered); row Run: a; Time: \\num{12 345.5}; Rate: \\num{1.2e3}; Unit: \\hour",
        "Table (unnumbered); row Run: b; Time: --; Rate: \\textbf{7}; Unit: \\second",
    ]


def test_the_papers_macros_are_expanded_in_cells_as_in_prose(tmp_path: Path) -> None:
    main = paper(
        tmp_path,
        r"""\begin{tabular}{lc}
\hline
Model & Accuracy \\
\hline
\modelname & \best{\accA} \\
\end{tabular}""",
        preamble="\\newcommand{\\best}[1]{\\textbf{#1}}\n\\newcommand{\\accA}{93.2}\n\\def\\modelname{ResNet}",
    )
    assert rows(main) == ["Table (unnumbered); row Model: ResNet; Accuracy: \\textbf{93.2}"]


def test_a_longtable_reads_its_head_once_drops_repeated_heads_and_feet_and_numbers_itself(tmp_path: Path) -> None:
    main = paper(
        tmp_path,
        r"""\begin{table}\caption{Before.}\end{table}
\begin{longtable}{ll}
\caption{A long one.}\label{tab:long}\\
\toprule
Key & Value \\
\midrule
\endfirsthead
\multicolumn{2}{c}{continued} \\
Key & Value \\
\endhead
\midrule \multicolumn{2}{r}{to be continued} \\
\endfoot
\bottomrule
\endlastfoot
alpha & 1 \\
beta & 2 \\
\end{longtable}""",
    )
    graph = ingested(main)
    assert [node.statement for node in graph if node.attributes.get("unit") == "table-row"] == [
        "Table 2 \\ref{tab:long} (caption: A long one.); row Key: alpha; Value: 1",
        "Table 2 \\ref{tab:long} (caption: A long one.); row Key: beta; Value: 2",
    ]
    # credencegraph reads a longtable's body as prose; those garbled chunks are dropped.
    assert not [node.id for node in graph if "&" in (node.statement or "") and node.attributes["unit"] == "sentence"]


def test_tables_in_input_include_and_import_files_and_rows_spliced_from_an_input(tmp_path: Path) -> None:
    main = paper(
        tmp_path,
        r"""\begin{table}\caption{Outer.}\label{tab:a}\input{tables/a}\end{table}
\include{b}
\import{sections/}{c.tex}
\begin{tabular}{lc}
Name & N \\ \hline
\input{rows}
\end{tabular}""",
        tables__a=r"\begin{tabular}{lc} X & Y \\ \hline a & 1 \\ \end{tabular}",
        b=r"\begin{tabular}{lc} X & Y \\ \hline b & 2 \\ \end{tabular}",
        sections__c=r"\begin{tabular}{lc} X & Y \\ \hline c & 3 \\ \end{tabular} \subimport{sub/}{d}",
        sections__sub__d=r"\begin{tabular}{lc} X & Y \\ \hline d & 4 \\ \end{tabular}",
        rows=r"generated & 5 \\ more & 6 \\",
    )
    (tmp_path / "sections" / "c").rename(tmp_path / "sections" / "c.tex")
    for name in ("tables/a", "b", "sections/sub/d", "rows"):
        (tmp_path / name).rename(tmp_path / f"{name}.tex")
    graph = ingested(main)
    found = [(node.statement, node.sources[0].locator) for node in graph if node.attributes["unit"] == "table-row"]
    assert [text.split("; ", 1)[1] for text, _ in found] == [
        "row X: a; Y: 1",
        "row X: b; Y: 2",
        "row X: c; Y: 3",
        "row X: d; Y: 4",
        "row Name: generated; N: 5",
        "row Name: more; N: 6",
    ]
    assert found[0][0].startswith("Table 1 \\ref{tab:a}")
    assert [locator.split(";")[0] for _, locator in found] == [
        "file=tables/a.tex",
        "file=b.tex",
        "file=sections/c.tex",
        "file=sections/sub/d.tex",
        "file=rows.tex",
        "file=rows.tex",
    ]
    names = [item.name for item in read_document(main).files]
    assert "sections/c.tex" in names and "sections/sub/d.tex" in names  # recorded like any file of the paper


def test_subtables_are_lettered_and_figures_numbered_apart(tmp_path: Path) -> None:
    main = paper(
        tmp_path,
        r"""\begin{figure}\caption{A figure.}\end{figure}
\begin{table}
\begin{subtable}{0.5\linewidth}\begin{tabular}{lc} K & V \\ \hline a & 1 \\ \end{tabular}\caption{Left}\label{tab:left}
\end{subtable}
\begin{subtable}{0.5\linewidth}\begin{tabular}{lc} K & V \\ \hline b & 2 \\ \end{tabular}\caption{Right}
\end{subtable}
\caption{Both.}\label{tab:both}
\end{table}
\setcounter{table}{6}
\begin{figure}\begin{tabular}{lc} K & V \\ \hline c & 3 \\ \end{tabular}\caption{Grid.}\label{fig:grid}\end{figure}
\begin{table}\begin{tabular}{lc} K & V \\ \hline d & 4 \\ \end{tabular}\caption*{Unnumbered.}\end{table}
\begin{table}\begin{tabular}{lc} K & V \\ \hline e & 5 \\ \end{tabular}\caption{Seventh.}\end{table}""",
    )
    titles = [text.split(" (caption", 1)[0] for text in rows(main)]
    assert titles == [
        "Table 1a \\ref{tab:left}",
        "Table 1b \\ref{tab:both}",
        "Figure 2 \\ref{fig:grid}",
        "Table (unnumbered)",
        "Table 7",
    ]


def test_rows_sit_after_their_caption_and_tables_without_one_where_they_stand(tmp_path: Path) -> None:
    main = paper(
        tmp_path,
        r"""First paragraph.

\begin{table}\begin{tabular}{lc} K & V \\ \hline a & 1 \\ \end{tabular}\caption{Below its table.}\end{table}

Middle paragraph.

\begin{center}\begin{tabular}{lc} K & V \\ \hline b & 2 \\ \end{tabular}\end{center}

Last paragraph.""",
    )
    graph = ingested(main)
    order = [(node.attributes["unit"], (node.statement or "")[:18]) for node in graph]
    assert order == [
        ("sentence", "Some prose before."),
        ("sentence", "First paragraph."),
        ("caption", "Below its table."),
        ("table-row", "Table 1 (caption s"),
        ("sentence", "Middle paragraph."),
        ("table-row", "Table (unnumbered)"),
        ("sentence", "Last paragraph."),
        ("sentence", "Some prose after."),
    ]


def test_row_ids_are_padded_to_the_number_of_rows_and_never_clash(tmp_path: Path) -> None:
    body = "\n".join(f"r{index} & {index} \\\\" for index in range(12))
    main = paper(tmp_path, f"\\begin{{tabular}}{{lc}}\nK & V \\\\ \\hline\n{body}\n\\end{{tabular}}")
    graph = ingested(main)
    ids = [node.id for node in graph if node.attributes["unit"] == "table-row"]
    assert ids == [f"t-{index:02d}" for index in range(1, 13)]
    others = [node.id for node in graph if node.attributes["unit"] != "table-row"]
    assert not any(node.startswith("t-") for node in others)


def test_a_row_is_a_document_node_typed_by_the_rubric_and_cites_its_references(tmp_path: Path) -> None:
    main = paper(
        tmp_path,
        r"""As in \cite{smith}.
\begin{tabular}{lc} Source & N \\ \hline Smith \cite{smith} & 4 \\ Jones \cite{jones} & 5 \\ \end{tabular}
\begin{thebibliography}{1}\bibitem{smith} A. Smith. A paper. 2020.\end{thebibliography}""",
    )
    rubric = load_rubric_bytes(PAPER_RUBRIC.read_bytes(), PAPER_RUBRIC.name)
    graph, report = ingest(read_document(main), [], rubric)
    row = next(node for node in graph if node.attributes["unit"] == "table-row")
    assert row.kind == "data"
    assert row.attributes["origin"] == "document"
    assert row.attributes["table"] == {"kind": "table", "columns": 2}
    assert row.sources[0].quote == row.statement
    assert any(relation.source == row.id and relation.type == "cites" for relation in graph.relations.values())
    assert report["unresolved"] == ["jones"]
    assert check_graph(graph, rubric, "anchored") == []


def test_tables_that_are_no_content_are_not_read(tmp_path: Path) -> None:
    main = paper(
        tmp_path,
        r"""\begin{verbatim}
\begin{tabular}{l} not & a table \\ \end{tabular}
\end{verbatim}
% \begin{tabular}{l} commented & out \\ \end{tabular}
$\begin{array}{cc} 1 & 2 \end{array}$
\begin{figure}\begin{tabular}{cc}\includegraphics{a.png} & \includegraphics{b.png} \\ (a) & (b) \\\end{tabular}
\end{figure}""",
        preamble=r"\newcommand{\tab}{\begin{tabular}{l} in & a macro \\ \end{tabular}}",
    )
    # only the figure grid's text row: image-only rows carry nothing to read
    assert [text.split("; ", 1)[1] for text in rows(main)] == ["row (a); (b)"]


def test_a_table_nested_in_a_cell_is_part_of_that_cell(tmp_path: Path) -> None:
    main = paper(
        tmp_path,
        r"""\begin{tabular}{lc}
Task & N \\ \hline
\begin{tabular}[c]{@{}l@{}}Generating\\ samples\end{tabular} & 7 \\
\end{tabular}""",
    )
    assert rows(main) == ["Table (unnumbered); row Task: Generating samples; N: 7"]


def test_reading_is_deterministic(tmp_path: Path) -> None:
    from credencegraph.core import dumps

    main = paper(tmp_path, r"\begin{tabular}{lc} K & V \\ \hline a & 1 \\ b & 2 \\ \end{tabular}")
    assert dumps(ingested(main)) == dumps(ingested(main))


# -- hostile input: bounded, and refused with a code when too large ------------------------------------


def test_an_unbalanced_brace_in_a_table_is_read_tolerantly(tmp_path: Path) -> None:
    main = paper(tmp_path, r"\begin{tabular}{lc} K & V \\ \hline a & {1 \\ b & 2 \\ \end{tabular}")
    found = rows(main)
    assert found and found[0].startswith("Table (unnumbered); row K: a")


def test_a_row_wider_than_the_limit_is_refused(tmp_path: Path) -> None:
    from cgx_core.base.limits import MAX_TABLE_COLUMNS

    cells = " & ".join(str(index) for index in range(MAX_TABLE_COLUMNS + 5))
    main = paper(tmp_path, f"\\begin{{tabular}}{{l}}\n{cells} \\\\\n\\end{{tabular}}")
    with pytest.raises(CgxError) as raised:
        ingested(main)
    assert raised.value.code == "paper-too-large"
    assert "main.tex" in raised.value.message
    assert str(tmp_path) not in raised.value.message


def test_more_rows_than_the_chunk_limit_are_refused(tmp_path: Path) -> None:
    from cgx_core.base.limits import MAX_CHUNKS

    body = "a & 1 \\\\\n" * (MAX_CHUNKS + 10)
    main = paper(tmp_path, f"\\begin{{tabular}}{{lc}}\n{body}\\end{{tabular}}")
    with pytest.raises(CgxError) as raised:
        ingested(main)
    assert raised.value.code == "paper-too-large"


def test_a_huge_repeat_count_in_a_column_spec_and_a_huge_span_cost_nothing(tmp_path: Path) -> None:
    main = paper(
        tmp_path,
        r"""\begin{tabular}{*{1000000000}{c}}
K & V \\ \hline
\multirow{999999}{*}{a} & \multicolumn{99999999}{c}{1} \\
\end{tabular}""",
    )
    assert rows(main) == ["Table (unnumbered); row K: a; V: 1"]


def test_tables_nested_deeper_than_the_walk_goes_are_not_read(tmp_path: Path) -> None:
    depth = 300  # credencegraph reads it (at 400 it refuses the paper); the table walk stops at 200
    main = paper(tmp_path, "{" * depth + r"\begin{tabular}{l} a \\ \end{tabular}" + "}" * depth)
    assert rows(main) == []


def test_an_import_of_a_missing_file_or_one_outside_the_paper_is_not_read_and_no_error(tmp_path: Path) -> None:
    paper_dir = tmp_path / "paper"
    paper_dir.mkdir()
    (tmp_path / "outside.tex").write_text(r"\begin{tabular}{l} secret & 1 \\ \end{tabular}", encoding="utf-8")
    main = paper(paper_dir, r"\import{../}{outside.tex} \import{nowhere/}{missing} \subimport{x/}{y}")
    document = read_document(main)
    assert [item.name for item in document.files] == ["main.tex"]
    assert rows(main) == []


def test_a_key_value_column_specification_is_not_read_as_columns(tmp_path: Path) -> None:
    # tabularray: the letters of "colspec" are no columns (an S among them would make a cell \num{...})
    main = paper(tmp_path, r"\begin{tblr}{colspec={lS}, hlines} Key & {Val} \\ \hline a & 1 2 \\ \end{tblr}")
    assert rows(main) == ["Table (unnumbered); row Key: a; {Val}: 1 2"]


def table(body: str, spec: str = "lcc") -> str:
    tabular = f"\\begin{{tabular}}{{{spec}}}\n{body}\n\\end{{tabular}}"
    return f"\\begin{{table}}\n\\caption{{Scores.}}\n{tabular}\n\\end{{table}}"


def test_a_header_row_after_a_rule_inside_the_body_heads_the_rows_below_it(tmp_path: Path) -> None:
    body = r"""\toprule
Method & Train & Test \\
\midrule
Ours & 99.4 & 92.3 \\
\midrule
Method & Precision (\%) & Recall (\%) \\
\midrule
Ours & 81.0 & 77.5 \\
Base & 80.2 & 70.1 \\
\bottomrule"""
    found = [text.split("); ", 1)[1] for text in rows(paper(tmp_path, table(body)))]
    assert found == [
        "row Method: Ours; Train: 99.4; Test: 92.3",
        "row Method: Ours; Precision (\\%): 81.0; Recall (\\%): 77.5",
        "row Method: Base; Precision (\\%): 80.2; Recall (\\%): 70.1",
    ]


def test_a_row_that_repeats_the_header_starts_a_new_block_without_a_rule(tmp_path: Path) -> None:
    body = r"""Model & Size & Time (h) \\
\hline
A & 10 & 1.5 \\
Model & Size & Time (h) \\
B & 20 & 3 \\"""
    found = [text.split("); ", 1)[1] for text in rows(paper(tmp_path, table(body)))]
    assert found == ["row Model: A; Size: 10; Time (h): 1.5", "row Model: B; Size: 20; Time (h): 3"]


def test_a_second_header_row_below_a_full_rule_continues_the_header(tmp_path: Path) -> None:
    body = r"""\hline
 & \multicolumn{2}{c}{Probability (\%)} \\
\hline
Task & original & reproduction \\
\hline
First & 93 & 94 \\"""
    (found,) = [text.split("); ", 1)[1] for text in rows(paper(tmp_path, table(body)))]
    assert found == "row Task: First; Probability (\\%) / original: 93; Probability (\\%) / reproduction: 94"


def test_rows_of_words_after_a_rule_stay_rows_when_no_number_follows(tmp_path: Path) -> None:
    body = r"""Term & Meaning & Source \\
\hline
SGD & stochastic gradient descent & ours \\
\hline
Adam & adaptive moments & Kingma \\"""
    found = [text.split("); ", 1)[1] for text in rows(paper(tmp_path, table(body)))]
    assert found == [
        "row Term: SGD; Meaning: stochastic gradient descent; Source: ours",
        "row Term: Adam; Meaning: adaptive moments; Source: Kingma",
    ]


def table_columns(main: Path) -> list[object]:
    return [
        node.attributes["table"].get("columns") for node in ingested(main) if node.attributes.get("unit") == "table-row"
    ]


@pytest.mark.parametrize(
    ("table", "columns"),
    [
        # Empty cells are left out of a row's text, yet the table still prints its columns.
        (r"\begin{tabular}{lcccccc} A & B & C & D & E & F & G \\ \hline 1 & & & & & & 7 \\ \end{tabular}", 7),
        # A spanning header counts by its span; the specification's rules and inserted material are no column.
        (
            r"\begin{tabular}{@{}l|*{3}{c}@{}} & \multicolumn{3}{c}{Runs} \\ \hline x & 1 & 2 & 3 \\ \end{tabular}",
            4,
        ),
        # A row wider than the specification as read (a column type of two columns): the rows win.
        (r"\begin{tabular}{lY} a & b & c \\ \hline 1 & 2 & 3 \\ \end{tabular}", 3),
        # A column no row fills: no count, rather than one no reader sees.
        (r"\begin{tabular}{lccc} a & b & c \\ \hline 1 & 2 & 3 \\ \end{tabular}", None),
    ],
)
def test_each_row_records_the_number_of_columns_its_table_prints(
    tmp_path: Path, table: str, columns: int | None
) -> None:
    counted = table_columns(paper(tmp_path, table))
    assert counted and set(counted) == {columns}


def test_a_tables_notes_are_chunks_of_the_table(tmp_path: Path) -> None:
    r"""threeparttable's `tablenotes` under a table qualify its rows ("Mean over 5 seeds"): credencegraph skips the
    float they are in, so each note is a chunk of the table, after its rows (issue 40)."""
    main = paper(
        tmp_path,
        r"""\begin{table}
\begin{threeparttable}
\caption{Accuracy.}\label{tab:acc}
\begin{tabular}{ll}
Model & Accuracy \\ \hline
A & 91.2\tnote{a} \\
\end{tabular}
\begin{tablenotes}
\item[a] Mean over 5 seeds.
\item Trained for 90 epochs.
\end{tablenotes}
\end{threeparttable}
\end{table}
\begin{tablenotes}\item[b] Outside any float: prose, read by credencegraph.\end{tablenotes}""",
    )
    assert [row.split("); ", 1)[1] for row in rows(main)] == [
        "row Model: A; Accuracy: 91.2\\tnote{a}",
        "note a: Mean over 5 seeds.",
        "note: Trained for 90 epochs.",
    ]


def test_a_tabular_in_maths_is_no_table_and_an_unclosed_dollar_ends_with_its_paragraph(tmp_path: Path) -> None:
    main = paper(
        tmp_path,
        r"""Inline maths $\begin{tabular}{l} in & maths \\ \end{tabular}$ and a price of 5$ never closed.

\begin{tabular}{ll} after & the paragraph \\ \end{tabular}""",
    )
    assert [text.split("; ", 1)[1] for text in rows(main)] == ["row after; the paragraph"]
