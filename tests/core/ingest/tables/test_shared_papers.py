"""The tables of the real papers in tests/papers, read as start_run reads them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from credencegraph.ingest.latex import read_latex

from cgx_core.graph.rubric import load_rubric_bytes
from cgx_core.ingest.documents import Document, DocumentFile, read_document
from cgx_core.ingest.paper import ingest
from support import ROOT

PAPER_RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"


def graph_of(document: Document) -> Any:
    rubric = load_rubric_bytes(PAPER_RUBRIC.read_bytes(), PAPER_RUBRIC.name)
    graph, _ = ingest(document, [], rubric)
    return graph


def rows(graph: Any) -> dict[str, str]:
    return {node.id: node.statement for node in graph if node.attributes.get("unit") == "table-row"}


def test_warmstart_table1_is_read_from_its_input_files_inside_a_wraptable(papers: Path) -> None:
    main = papers / "mlrc-warmstart-repro/2020/mohtashami2021reproducibility/openreview/main.tex"
    graph = graph_of(read_document(main))
    found = rows(graph)
    assert len(found) == 20  # 3 subtables x 6 rows, and the regularisation table's 2
    texts = list(found.values())
    resnet = [text for text in texts if text.startswith("Table 1a \\ref{tab:offline-warmup-vs-random}")]
    assert len(resnet) == 6
    assert resnet[3].endswith("row \\textbf{SVHN} / Warm Start; SGD: 86.3 (0.4); ADAM: 93.2 (0.2); MSGD: 87.2 (0.1)")
    mlp = [text for text in texts if text.startswith("Table 1b ")]
    assert "SGD: 72.7(1.0)*" in mlp[2]  # the starred cell the caption explains, as written
    assert texts[-1].startswith("Table 2 \\ref{tab:regularization}")
    assert texts[-1].endswith("row Warm Starting; 0.1: 81.16; 0.01: 61.22; 0.001: 58.63")
    # every row's caption reference names a chunk of the run that holds the caption's words
    statements = {node.id: node.statement for node in graph}
    for text in texts:
        holder = text.split("(caption ", 1)[1].split(")", 1)[0]
        assert "Test accuracies" in statements[holder] or "Accuracy of training" in statements[holder]


def test_the_papers_without_tables_ingest_exactly_as_before(papers: Path) -> None:
    for main in ("farr-normal-normal/src/tex/ms.tex", "dynonet-paper/doc/paper/ms.tex"):
        document = read_document(papers / main)
        graph = graph_of(document)
        assert not rows(graph)
        assert len(graph.nodes) == len(document.chunks)


def test_cgn_appendix_and_results_tables_with_at_specs_imports_and_multirow(papers: Path) -> None:
    # Its main file reads ../openreview: a layout start_run accepts with a `root` (issue 11). The table
    # reader is given the paper's files named from that root, as the ingestion would give them.
    root = papers / "mlrc-cgn-repro/2021/bagad2022reproducibility"
    main = root / "journal/article.tex"
    names = [
        "journal/article.tex",
        *sorted(str(path.relative_to(root)) for path in root.rglob("*.tex") if path != main),
    ]
    files = tuple(DocumentFile(name, (root / name).read_bytes()) for name in names)
    graph = graph_of(Document("latex", files, tuple(read_latex(main)), ()))
    texts = list(rows(graph).values())
    cost = [text for text in texts if text.startswith("Table 7 \\ref{tab:cost-taxonomy}")]
    assert len(cost) == 9
    assert cost[1].endswith(
        "row \\textbf{Experiment type}: Reproducibility Study; \\textbf{Experiment name}: Required Inductive Biases; "
        "\\textbf{Support of Claim}: IBR; \\textbf{Section}: \\ref{ssec:reproducibility-results}; "
        "\\textbf{Computational Cost (GPU Hours)}: 84.0"
    )
    # \multirow{4} over five rows: the fifth row's cell is empty, as LaTeX prints it
    assert "unlabelled row; \\textbf{Experiment name}: Ablation study" in cost[4]
    assert "\\textbf{Experiment type}: Additional results" in cost[5]
    mnist = [text for text in texts if text.startswith("Table 3 \\ref{tab:mnist-classifiers}")]
    assert len(mnist) == 5
    # the two-row header: a \multicolumn over Train and Test; the W-MNIST test accuracy the text misquotes
    assert "\\textbf{W-MNIST} / Test $\\Uparrow$: 62.8 | " in mnist[-1]
    assert "); row \\textbf{Setting}: O + CGN; " in mnist[-1]
    datasets = [text for text in texts if text.startswith("Table 1 \\ref{tab:datasets}")]
    assert (
        "row \\textbf{Task}: Generating counterfactual samples; \\textbf{Datasets}: C-MNIST \\cite{IRM}" in datasets[0]
    )
    assert "\\textbf{Number of samples} / Total: 60k" in datasets[0]
