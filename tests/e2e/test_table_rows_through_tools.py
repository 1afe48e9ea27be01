r"""Table rows through the tools an agent calls: start_run lists them, get_state finds them by unit, a result
rests on them, and a recompute-numbers check citing them passes or fails as arithmetic on their cells
demands; the run replays byte for byte. Then the same on a real paper's parameter table."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from cgx_core.replay import replay
from cgx_core.tools.registry import call_tool
from support import ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"

PAPER = r"""\documentclass{article}
\usepackage{booktabs,siunitx}
\begin{document}
Training took 110 minutes in all (Table~\ref{tab:time}).
Our method gains 12.3 points over the baseline (Table~\ref{tab:acc}).

\begin{table}
\caption{Training time.}\label{tab:time}
\begin{tabular}{@{}lr@{}}
\toprule
Stage & Minutes \\
\midrule
Pretraining & 50 \\
Finetuning & 60 \\
\bottomrule
\end{tabular}
\end{table}

\begin{table}
\caption{Accuracy.}\label{tab:acc}
\begin{tabular}{lS[table-format=2.1]}
\toprule
Method & {Accuracy (\%)} \\
\midrule
Ours & 99.4 \\
Baseline & 87.2 \\
\bottomrule
\end{tabular}
\end{table}
\end{document}
"""


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    payload, is_error = call_tool(tool, {"model": "test-model", **arguments})
    assert not is_error, payload
    return payload


def unfenced(text: str) -> str:
    """A chunk's text without the fence the tools put around paper text."""
    return re.sub(r"^<data-[0-9a-f]+>|</data-[0-9a-f]+>$", "", text)


def test_a_check_citing_table_rows_passes_or_fails_as_their_cells_demand_and_the_run_replays(tmp_path: Path) -> None:
    (tmp_path / "paper.tex").write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    started = call("start_run", run=str(run), paper=str(tmp_path / "paper.tex"), rubric=str(RUBRIC), store_source=True)
    rows = [chunk for chunk in started["chunks"] if chunk["unit"] == "table-row"]
    assert [chunk["id"] for chunk in rows] == ["t-1", "t-2", "t-3", "t-4"]
    assert all(chunk["type"] == "data" for chunk in rows)  # the rubric's [initial] types the unit
    assert "row Stage: Pretraining; Minutes: 50" in rows[0]["text"]
    assert "row Method: Ours; Accuracy (\\%): \\num{99.4}" in rows[2]["text"]

    listed, is_error = call_tool("get_state", {"run": str(run), "unit": "table-row"})
    assert not is_error, listed
    assert [node["id"] for node in listed["nodes"]] == ["t-1", "t-2", "t-3", "t-4"]

    sentences = [chunk["id"] for chunk in started["chunks"] if chunk["unit"] == "sentence"]
    total, gain = sentences
    typed = call(
        "classify",
        run=str(run),
        records=[
            {"node": total, "type": "result", "rests_on": ["t-1", "t-2"]},
            {"node": gain, "type": "result", "rests_on": ["t-3", "t-4"]},
        ],
    )
    assert typed["refused"] == []

    checked = call(
        "run_checks",
        run=str(run),
        proposals=[
            {
                "type": "recompute-numbers",
                "target": total,
                "cites": [total, "t-1", "t-2"],
                "expression": "50 + 60",
                "result": "110",
            },
            {
                "type": "recompute-numbers",
                "target": gain,
                "cites": [gain, "t-3", "t-4"],
                "expression": "99.4 - 87.2",
                "result": "12.3",
            },
        ],
    )
    assert checked["refused"] == []
    assert [check["result"] for check in checked["checks"]] == ["passed", "failed"]

    report = replay(run, source=None, sources=None)
    assert report.identical, report.body


def test_a_number_only_a_row_writes_is_refused_until_the_row_is_cited(tmp_path: Path) -> None:
    (tmp_path / "paper.tex").write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    started = call("start_run", run=str(run), paper=str(tmp_path / "paper.tex"), rubric=str(RUBRIC))
    total = next(chunk["id"] for chunk in started["chunks"] if chunk["unit"] == "sentence")
    call("classify", run=str(run), records=[{"node": total, "type": "result", "rests_on": ["t-1", "t-2"]}])
    proposal = {"type": "recompute-numbers", "target": total, "expression": "50 + 60", "result": "110"}
    refused = call("run_checks", run=str(run), proposals=[{**proposal, "cites": [total]}])
    assert [item["code"] for item in refused["refused"]] == ["operand-not-in-text"]
    accepted = call("run_checks", run=str(run), proposals=[{**proposal, "cites": [total, "t-1", "t-2"]}])
    assert [check["result"] for check in accepted["checks"]] == ["passed"]


def test_a_real_papers_parameter_table_is_read_row_by_row_and_replays(papers: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    main = papers / "hastings-powell-replication" / "article" / "article.tex"
    started = call("start_run", run=str(run), paper=str(main), rubric=str(RUBRIC), store_source=True)
    rows = [chunk for chunk in started["chunks"] if chunk["unit"] == "table-row"]
    caption = next(
        chunk["id"]
        for chunk in started["chunks"]
        if chunk["unit"] == "caption" and "Nondimensional parameters" in chunk["text"]
    )
    assert [unfenced(chunk["text"]) for chunk in rows] == [
        f"Table 1 \\ref{{tbl:table1}} (caption {caption}); row $a_1$; Values: 5.0",
        f"Table 1 \\ref{{tbl:table1}} (caption {caption}); row $b_1$; Values: 2.0 $\\rightarrow$ 6.2",
        f"Table 1 \\ref{{tbl:table1}} (caption {caption}); row $a_2$; Values: 0.1",
        f"Table 1 \\ref{{tbl:table1}} (caption {caption}); row $b_2$; Values: 2.0",
        f"Table 1 \\ref{{tbl:table1}} (caption {caption}); row $d_1$; Values: 0.4",
        f"Table 1 \\ref{{tbl:table1}} (caption {caption}); row $d_2$; Values: 0.01",
    ]
    ids = [chunk["id"] for chunk in started["chunks"]]
    assert ids.index(rows[0]["id"]) == ids.index(caption) + 1  # right after the caption
    state = json.loads((run / "state.json").read_bytes())
    assert sum(1 for node in state["graph"]["nodes"] if node["attributes"].get("unit") == "table-row") == 6
    report = replay(run, source=None, sources=None)
    assert report.identical, report.body
