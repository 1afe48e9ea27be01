r"""A cross-reference decided the same with or without the word before it (`Eq.~\eqref{..}` and a bare
`\eqref{..}`), and another work's figure ("Figure 3 of Peters \& Mathews 1963") always refused (issue 37)."""

from __future__ import annotations

from pathlib import Path

from support import ROOT, call, start_paper

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
PAPER = r"""\documentclass{article}
\usepackage{amsmath}
\begin{document}
\section{Method}\label{sec:method}
We fit the model to the data.
\begin{equation}
L = \sum_i (y_i - f(x_i))^2 \label{eq:fit}
\end{equation}
\begin{figure}
\caption{The orbit of the pair.}\label{fig:orbit}
\end{figure}
The loss is minimised as Eq.~\eqref{sec:method} says.
The loss is minimised as \eqref{sec:method} says.
The decay agrees with Figure 1 of Peters \& Mathews 1963, as expected.
\end{document}
"""


def started(tmp_path: Path) -> Path:
    run = start_paper(tmp_path, PAPER, RUBRIC)
    records = [{"node": node, "type": "claim", "form": {"shape": "existential"}} for node in ("s-3", "s-4", "s-5")]
    assert call(run, "classify", records=records)["refused"] == []
    return run


def test_a_label_reference_is_decided_the_same_with_or_without_the_word_before_it(tmp_path: Path) -> None:
    run = started(tmp_path)
    proposals = [
        {"type": "cross-reference", "target": target, "ref": "sec:method", "cites": ["s-1"]}
        for target in ("s-3", "s-4")
    ]
    result = call(run, "run_checks", proposals=proposals)
    assert result["refused"] == []
    assert [(check["target"], check["result"]) for check in result["checks"]] == [("s-3", "failed"), ("s-4", "failed")]


def test_another_works_figure_is_refused(tmp_path: Path) -> None:
    run = started(tmp_path)
    proposal = {"type": "cross-reference", "target": "s-5", "ref": "Figure 1", "cites": ["s-2"]}
    result = call(run, "run_checks", proposals=[proposal])
    [refused] = result["refused"]
    assert refused["code"] == "ref-another-work", refused
