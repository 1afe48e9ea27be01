r"""Table rows through the tools an agent calls: start_run lists them, get_state finds them by unit, a result
rests on them, and a recompute-numbers check citing them passes or fails as arithmetic on their cells
demands; the run replays byte for byte. Then the same on a real paper's parameter table."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from report_runs import listed

from cgx_core.audit.replay import replay
from cgx_core.tooling.registry import call_tool
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


def nodes(run: Path, **filters: Any) -> list[dict[str, Any]]:
    """The run's nodes as get_state lists them, every page."""
    return listed(run, **filters)


def test_a_check_citing_table_rows_passes_or_fails_as_their_cells_demand_and_the_run_replays(tmp_path: Path) -> None:
    (tmp_path / "paper.tex").write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    call("start_run", run=str(run), paper=str(tmp_path / "paper.tex"), rubric=str(RUBRIC), store_source=True)
    rows = nodes(run, unit="table-row")
    assert [node["id"] for node in rows] == ["t-1", "t-2", "t-3", "t-4"]
    assert all(node["type"] == "data" for node in rows)  # the rubric's [initial] types the unit
    assert "row Stage: Pretraining; Minutes: 50" in rows[0]["text"]
    assert "row Method: Ours; Accuracy (\\%): \\num{99.4}" in rows[2]["text"]

    total, gain = [node["id"] for node in nodes(run, unit="sentence")]
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


def test_rows_a_rubric_does_not_type_are_classified_and_split_like_sentences(tmp_path: Path) -> None:
    (tmp_path / "paper.tex").write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    example = ROOT / "examples" / "rubrics" / "example-paper.toml"
    call("start_run", run=str(run), paper=str(tmp_path / "paper.tex"), rubric=str(example), store_source=True)
    assert [node["type"] for node in nodes(run, unit="table-row")] == ["unassigned"] * 4
    typed = call(
        "classify",
        run=str(run),
        records=[
            {"node": "t-1", "type": "method", "form": {"kind": "procedure"}},
            {
                "node": "t-2",
                "split": ["row Stage: Finetuning", "Minutes: 60"],
                "children": [{"type": "method", "form": {"kind": "procedure"}}, {"type": "assumption"}],
            },
        ],
    )
    assert typed["refused"] == []
    assert {node["id"]: node["type"] for node in nodes(run, unit="table-row")} == {
        "t-1": "method",
        "t-2": "compound",
        "t-2a": "method",
        "t-2b": "assumption",
        "t-3": "unassigned",
        "t-4": "unassigned",
    }
    report = replay(run, source=None, sources=None)
    assert report.identical, report.body


def test_a_number_only_a_row_writes_is_refused_until_the_row_is_cited(tmp_path: Path) -> None:
    (tmp_path / "paper.tex").write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    call("start_run", run=str(run), paper=str(tmp_path / "paper.tex"), rubric=str(RUBRIC))
    total = nodes(run, unit="sentence")[0]["id"]
    call("classify", run=str(run), records=[{"node": total, "type": "result", "rests_on": ["t-1", "t-2"]}])
    proposal = {"type": "recompute-numbers", "target": total, "expression": "50 + 60", "result": "110"}
    refused = call("run_checks", run=str(run), proposals=[{**proposal, "cites": [total]}])
    assert [item["code"] for item in refused["refused"]] == ["operand-not-in-text"]
    accepted = call("run_checks", run=str(run), proposals=[{**proposal, "cites": [total, "t-1", "t-2"]}])
    assert [check["result"] for check in accepted["checks"]] == ["passed"]


def test_a_real_papers_parameter_table_is_read_row_by_row_and_replays(papers: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    main = papers / "hastings-powell-replication" / "article" / "article.tex"
    call("start_run", run=str(run), paper=str(main), rubric=str(RUBRIC), store_source=True)
    everything = nodes(run)
    caption = next(node["id"] for node in everything if node["unit"] == "caption" and "Nondimensional" in node["text"])
    rows = [node for node in everything if node["unit"] == "table-row"]
    title = f"Table 1 \\ref{{tbl:table1}} (caption {caption}); row"
    assert [unfenced(node["text"]) for node in rows] == [
        f"{title} $a_1$; Values: 5.0",
        f"{title} $b_1$; Values: 2.0 $\\rightarrow$ 6.2",
        f"{title} $a_2$; Values: 0.1",
        f"{title} $b_2$; Values: 2.0",
        f"{title} $d_1$; Values: 0.4",
        f"{title} $d_2$; Values: 0.01",
    ]
    ids = [node["id"] for node in everything]
    assert ids.index(rows[0]["id"]) == ids.index(caption) + 1  # right after the caption
    state = json.loads((run / "state.json").read_bytes())
    assert sum(1 for node in state["graph"]["nodes"] if node["attributes"].get("unit") == "table-row") == 6
    report = replay(run, source=None, sources=None)
    assert report.identical, report.body
