r"""A digit inside a name (`\ref{fig:fig2}`, `figure6.pdf`) is never a figure number written by hand, while a
"Figure 2" written by hand is still checked (bugs X1); a label defined twice names its last definition, as
LaTeX's `\ref` prints it (X3)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from support import ROOT, call, start_paper

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
PAPER = r"""\documentclass{article}
\usepackage{graphicx}
\begin{document}
\begin{figure}\caption{The loss.}\label{fig:fig1}\end{figure}
\begin{figure}\caption{The accuracy.}\label{fig:fig2}\end{figure}
As \ref{fig:fig2} shows, the accuracy rises.
The loss falls, as Figure 2 shows.
\begin{figure}\includegraphics[width=\linewidth]{figures/fig1_runtime.pdf}\caption{The runtime of figure6.pdf.}
\label{fig:dup}\end{figure}
\begin{figure}\caption{The memory.}\label{fig:dup}\end{figure}
The memory grows, as \ref{fig:dup} shows.
The runtime grows, as \ref{fig:dup} shows.
\end{document}
"""
# s-1 the loss (Figure 1), s-2 the accuracy (Figure 2), s-3 and s-4 the sentences, s-5 the runtime (Figure 3),
# s-6 the memory (Figure 4: fig:dup's last definition), s-7 and s-8 the sentences on fig:dup.


def started(tmp_path: Path) -> Path:
    run = start_paper(tmp_path, PAPER, RUBRIC)
    records = [
        {"node": node, "type": "claim", "form": {"shape": "existential"}}
        for node in ("s-3", "s-4", "s-5", "s-7", "s-8")
    ]
    assert call(run, "classify", records=records)["refused"] == []
    return run


def checked(run: Path, *proposals: dict[str, Any]) -> dict[str, Any]:
    return call(run, "run_checks", proposals=[{"type": "cross-reference", **item} for item in proposals])


def test_a_digit_in_a_label_or_a_file_name_is_not_a_figure_number(tmp_path: Path) -> None:
    run = started(tmp_path)
    result = checked(
        run,
        {"target": "s-3", "ref": "fig2", "cites": ["s-1"]},  # accepted and failed before: "fig2" read as Figure 2
        {"target": "s-5", "ref": "figure6", "cites": ["s-5"]},
        {"target": "s-5", "ref": "fig1", "cites": ["s-1"]},
    )
    assert [(item["code"], item["node"]) for item in result["refused"]] == [
        ("ref-not-written", "s-3"),
        ("ref-not-written", "s-5"),
        ("ref-not-written", "s-5"),
    ]
    assert result["checks"] == []
    assert "'fig:fig2'" in result["refused"][0]["fix"]  # what s-3 does write: the label


def test_the_label_and_a_figure_number_written_by_hand_are_still_decided(tmp_path: Path) -> None:
    run = started(tmp_path)
    result = checked(
        run,
        {"target": "s-3", "ref": "fig:fig2", "cites": ["s-2"]},
        {"target": "s-4", "ref": "Figure 2", "cites": ["s-1"]},  # the loss is in Figure 1: the text is wrong
    )
    assert result["refused"] == []
    assert [(check["target"], check["result"]) for check in result["checks"]] == [("s-3", "passed"), ("s-4", "failed")]
    assert "Figure 1 (fig:fig1)" in result["checks"][1]["detail"]


def test_a_label_defined_twice_names_its_last_definition(tmp_path: Path) -> None:
    run = started(tmp_path)
    result = checked(
        run,
        {"target": "s-7", "ref": "fig:dup", "cites": ["s-6"]},
        {"target": "s-8", "ref": "fig:dup", "cites": ["s-5"]},  # the first definition: not what \ref prints
    )
    assert result["refused"] == []
    assert [(check["target"], check["result"]) for check in result["checks"]] == [("s-7", "passed"), ("s-8", "failed")]
    assert "Figure 4 (fig:dup)" in result["checks"][1]["detail"]
    assert "s-5 belongs to Figure 3" in result["checks"][1]["detail"]
