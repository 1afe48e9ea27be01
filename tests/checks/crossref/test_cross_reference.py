"""cross-reference through run_checks, as an agent sends it: on a paper written with a wrong \\ref and a wrong
hard-coded "Eqn. 3", and on a shared paper; every refusal; then the run replays byte for byte and verifies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cgx_core.testing import assert_run_verifies
from cgx_core.tooling.registry import call_tool
from support import PAPERS, ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
PAPER = r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
\section{Method}\label{sec:method}
We train two models on the benchmark.
The loss is defined in Eqn.~3 below.
\begin{equation}
L = \sum_i (y_i - f(x_i))^2 \label{eq:fit}
\end{equation}
\begin{equation}
R = \lambda w^2 \label{eq:reg}
\end{equation}
\begin{equation}
J = L + R \label{eq:loss}
\end{equation}
The total objective is Eq.~\eqref{eq:loss}, the sum of Eqn.~1 and Eqn.~2.
\section{Results}
The accuracy of both models is shown in Table~\ref{tab:runtime}.
The runtimes are listed in Table~\ref{tab:runtime}, and the method in Section~\ref{sec:method}.
\begin{table}
\caption{Accuracy of the two models.}\label{tab:acc}
\begin{tabular}{ll}
A & 91.2 \\
B & 88.4 \\
\end{tabular}
\end{table}
\begin{table}
\caption{Runtime of the two models.}\label{tab:runtime}
\begin{tabular}{ll}
A & 12 \\
B & 30 \\
\end{tabular}
\end{table}
As Table~\ref{tab:missing} shows, model A is more accurate than the other model.
The loss of Figure~\ref{eq:loss} is minimised.
\end{document}
"""


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    payload, _ = call_tool(tool, {"model": "test-model", **arguments})
    return payload


def started(tmp_path: Path) -> Path:
    paper = tmp_path / "paper" / "paper.tex"
    paper.parent.mkdir()
    paper.write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    call("start_run", run=str(run), paper=str(paper), rubric=str(RUBRIC), store_source=True)
    records = [
        {"node": "s-1", "type": "method", "form": {"kind": "procedure"}},
        {"node": "s-2", "type": "claim", "form": {"shape": "existential"}, "rests_on": ["e-3"]},
        {"node": "s-3", "type": "claim", "form": {"shape": "existential"}, "rests_on": ["e-3"]},
        {"node": "s-4", "type": "result", "rests_on": ["t-1"]},
        {"node": "s-5", "type": "result", "rests_on": ["t-3"]},
        {"node": "s-8", "type": "claim", "form": {"shape": "comparative"}, "rests_on": ["t-1"]},
        {"node": "s-9", "type": "claim", "form": {"shape": "existential"}, "rests_on": ["e-3"]},
        {"node": "s-6", "type": "context"},
        {"node": "s-7", "type": "context"},
    ]
    assert call("classify", run=str(run), records=records)["refused"] == []
    return run


def proposal(target: str, ref: str, cites: list[str]) -> dict[str, Any]:
    return {"type": "cross-reference", "target": target, "ref": ref, "cites": cites}


def test_a_wrong_ref_and_a_wrong_hard_coded_equation_fail_and_the_right_ones_pass(tmp_path: Path) -> None:
    run = started(tmp_path)
    result = call(
        "run_checks",
        run=str(run),
        proposals=[
            proposal("s-4", "tab:runtime", ["t-1", "t-2"]),  # the accuracy is in Table 1, not Table 2
            proposal("s-2", "Eqn. 3", ["e-1"]),  # the loss is Eq. 1, the text says 3
            proposal("s-5", "Table~\\ref{tab:runtime}", ["s-7", "t-3", "t-4"]),
            proposal("s-3", "eq:loss", ["e-3"]),
            proposal("s-3", "Eqn. 1 and Eqn. 2", ["e-2", "e-1"]),  # a run of references names each
        ],
    )
    assert result["refused"] == []
    outcome = {(check["target"], check["result"]) for check in result["checks"]}
    assert outcome == {("s-4", "failed"), ("s-2", "failed"), ("s-5", "passed"), ("s-3", "passed")}
    details = [check["detail"] for check in result["checks"]]
    assert details[0] == (
        "s-4 writes 'Table~\\ref{tab:runtime}' (Table 2 (tab:runtime)), but t-1 belongs to Table 1 (tab:acc); "
        "t-2 belongs to Table 1 (tab:acc)"
    )
    assert details[1] == "s-2 writes 'Eqn.~3' (Equation 3 (eq:loss)), but e-1 belongs to Equation 1 (eq:fit)"
    assert call("finish_run", run=str(run))["finished"] is True
    assert_run_verifies(run)  # replayed byte for byte, and every check re-run with the same outcome


def test_a_word_that_names_another_kind_than_the_label_fails(tmp_path: Path) -> None:
    run = started(tmp_path)
    result = call("run_checks", run=str(run), proposals=[proposal("s-9", "eq:loss", ["e-3"])])
    [check] = result["checks"]
    assert (check["result"], check["detail"]) == (
        "failed",
        "s-9 writes 'Figure~\\ref{eq:loss}', but eq:loss labels Equation 3 (eq:loss)",
    )


def test_a_section_reference_holds_every_chunk_of_the_section(tmp_path: Path) -> None:
    run = started(tmp_path)
    result = call("run_checks", run=str(run), proposals=[proposal("s-5", "sec:method", ["s-1", "e-1"])])
    assert [check["result"] for check in result["checks"]] == ["passed"]


@pytest.mark.parametrize(
    ("target", "ref", "cites", "code", "fix_names"),
    [
        ("s-4", "Table 4", ["t-1"], "ref-not-written", "tab:runtime"),
        ("s-2", "tab:acc", ["t-1"], "ref-not-written", "Eqn.~3"),
        ("s-8", "tab:missing", ["t-1"], "ref-unknown", "tab:acc"),
        ("s-4", "tab:runtime", ["e-1"], "cite-not-numbered", "rows"),
        ("s-4", "tab:runtime", ["c-999"], "unknown-node", "chunk"),
    ],
)
def test_refusals_say_what_exists(
    tmp_path: Path, target: str, ref: str, cites: list[str], code: str, fix_names: str
) -> None:
    run = started(tmp_path)
    before = (run / "calls.jsonl").read_bytes()
    result = call("run_checks", run=str(run), proposals=[proposal(target, ref, cites)])
    assert result["checks"] == []
    [refused] = result["refused"]
    assert refused["code"] == code
    assert fix_names in refused["fix"]
    assert (run / "calls.jsonl").read_bytes().startswith(before)


def test_a_shared_paper_table_reference(tmp_path: Path) -> None:
    main = PAPERS / "mlrc-warmstart-repro" / "2020/mohtashami2021reproducibility/openreview/main.tex"
    run = tmp_path / "run"
    call("start_run", run=str(run), paper=str(main), rubric=str(RUBRIC))
    nodes: list[dict[str, Any]] = []
    start: int | None = 0
    while start is not None:
        page, _ = call_tool("get_state", {"run": str(run), "start": start})
        nodes.extend(page["nodes"])
        start = page["next"]
    writer = next(node["id"] for node in nodes if "Table~\\ref{tab:regularization}" in node["text"])
    rows = {
        table: [node["id"] for node in nodes if node["unit"] == "table-row" and f"\\ref{{{table}}}" in node["text"]]
        for table in ("tab:regularization", "tab:offline-warmup-vs-random")
    }
    records = [{"node": writer, "type": "result", "rests_on": rows["tab:regularization"][:1]}]
    records.append({"node": rows["tab:regularization"][0], "type": "data"})
    assert call("classify", run=str(run), records=records)["refused"] == []
    result = call(
        "run_checks",
        run=str(run),
        proposals=[
            proposal(writer, "tab:regularization", rows["tab:regularization"]),
            # "..., which corresponds to Appendix Table 13 of the original paper": not this paper's Table 13
            proposal(writer, "Table 13", rows["tab:regularization"]),
        ],
    )
    assert [check["result"] for check in result["checks"]] == ["passed"], result
    assert [item["code"] for item in result["refused"]] == ["ref-another-work"]


PANELS = r"""\documentclass{article}
\usepackage{subcaption}
\begin{document}
\section{Results}
The right panel of Fig.~1a shows the loss rising.
The appendix Table~A1 lists the seeds.
\begin{figure}
\begin{subfigure}{.4\linewidth}\caption{Accuracy falls.}\label{fig:acc}\end{subfigure}
\begin{subfigure}{.4\linewidth}\caption{Loss rises.}\label{fig:loss}\end{subfigure}
\caption{Training curves.}\label{fig:curves}
\end{figure}
\appendix
\section{Seeds}
\renewcommand{\thetable}{A\arabic{table}}
\begin{table}\caption{Seeds used.}\label{tab:seeds}
\begin{tabular}{ll} run & 7 \\ \end{tabular}
\end{table}
\end{document}
"""


def test_a_panel_letter_and_an_appendix_number(tmp_path: Path) -> None:
    paper = tmp_path / "paper" / "paper.tex"
    paper.parent.mkdir()
    paper.write_text(PANELS, encoding="utf-8")
    run = tmp_path / "run"
    call("start_run", run=str(run), paper=str(paper), rubric=str(RUBRIC), store_source=True)
    records = [
        {"node": "s-1", "type": "result", "rests_on": ["t-1"]},
        {"node": "s-2", "type": "result", "rests_on": ["t-1"]},
        *({"node": node, "type": "context"} for node in ("s-3", "s-4", "s-5", "s-6")),
    ]
    assert call("classify", run=str(run), records=records)["refused"] == []
    refused = call("run_checks", run=str(run), proposals=[proposal("s-1", "Fig. 1a", ["s-5"])])["refused"]
    assert [item["code"] for item in refused] == ["cite-not-numbered"]  # the figure's caption is not the panel's
    result = call(
        "run_checks",
        run=str(run),
        proposals=[
            proposal("s-1", "Fig. 1a", ["s-4"]),  # the loss is panel (b): the text says 1a
            proposal("s-2", "Table A1", ["t-1", "s-6"]),
        ],
    )
    assert [(check["result"], check["detail"]) for check in result["checks"]] == [
        ("failed", "s-1 writes 'Fig.~1a' (Figure 1a (fig:acc)), but s-4 belongs to Figure 1b (fig:loss)"),
        ("passed", "s-2 writes 'Table~A1' (Table A1 (tab:seeds)), and t-1, s-6 belong to it"),
    ]
    assert_run_verifies(run)


def _pdf_nodes(run: Path) -> list[dict[str, Any]]:
    nodes: list[dict[str, Any]] = []
    start: int | None = 0
    while start is not None:
        page, _ = call_tool("get_state", {"run": str(run), "start": start})
        nodes.extend(page["nodes"])
        start = page["next"]
    return nodes


def test_a_pdf_reference_by_printed_number_passes_and_fails_as_on_latex(tmp_path: Path) -> None:
    """The warm-start paper's PDF: "Table 1" and "Table 2" as printed, decided on its rows (Table 1a's rows
    belong to Table 1), "Table 13 of the original paper" refused as another work's, as on its LaTeX."""
    run = tmp_path / "run"
    pdf = PAPERS / "mlrc-warmstart-repro" / "pdf" / "main.pdf"
    call("start_run", run=str(run), paper=str(pdf), rubric=str(RUBRIC))
    nodes = _pdf_nodes(run)
    first = next(node["id"] for node in nodes if "The final accuracies are reported in Table 1" in node["text"])
    second = next(node["id"] for node in nodes if "The results are reported in Table 2" in node["text"])
    rows = {
        number: [node["id"] for node in nodes if node["unit"] == "table-row" and f"Table {number} (" in node["text"]]
        for number in ("1a", "2")
    }
    records = [{"node": node, "type": "result"} for node in (first, second)]
    assert call("classify", run=str(run), records=records)["refused"] == []
    result = call(
        "run_checks",
        run=str(run),
        proposals=[
            proposal(first, "Table 1", rows["1a"][:2]),
            proposal(second, "Table 2", rows["1a"][:1]),  # a row of Table 1a: not Table 2's
            proposal(second, "Table 13", rows["2"][:1]),  # "Appendix Table 13 of the original paper"
        ],
    )
    assert [check["result"] for check in result["checks"]] == ["passed", "failed"], result
    assert f"{rows['1a'][0]} belongs to Table 1" in result["checks"][1]["detail"]
    assert [item["code"] for item in result["refused"]] == ["ref-another-work"]


def test_a_pdf_reference_to_a_section_by_its_printed_number_passes_and_fails_as_on_latex(tmp_path: Path) -> None:
    """The warm-start paper's PDF numbers its sections as printed ("2.4 Effect of Data Augmentation", "3
    Methodology", "3.1 Model descriptions"): a chunk belongs to the sections it is printed under, so "Section
    2.4" and "section 3" are decided on a PDF as on its LaTeX (a chunk of 3.1 is in 3, and not in 2)."""
    run = tmp_path / "run"
    pdf = PAPERS / "mlrc-warmstart-repro" / "pdf" / "main.pdf"
    call("start_run", run=str(run), paper=str(pdf), rubric=str(RUBRIC))
    nodes = _pdf_nodes(run)

    def chunk(text: str) -> str:
        [found] = [node["id"] for node in nodes if text in node["text"]]
        return found

    two, three, two_four = (
        chunk(text) for text in ("We report and discuss", "In section 3,", "We report our results in")
    )
    in_three_one = chunk("In all experiments, batch normalization")
    in_two_four = chunk("We then perform a random horizontal flip")
    records = [{"node": node, "type": "result"} for node in (two, three, two_four)]
    assert call("classify", run=str(run), records=records)["refused"] == []
    result = call(
        "run_checks",
        run=str(run),
        proposals=[
            proposal(three, "section 3", [in_three_one]),
            proposal(two_four, "Section 2.4", [in_two_four]),
            proposal(two, "Section 2", [in_three_one]),
        ],
    )
    assert [check["result"] for check in result["checks"]] == ["passed", "passed", "failed"], result
    assert f"{in_three_one} belongs to Section 3.1" in result["checks"][2]["detail"]
