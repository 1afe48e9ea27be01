r"""Cross-references the paper means but the numbering alone did not name (issue 37): a panel only the caption
describes ("Fig. 2b", "Fig. 2(b)"), a `\subref` to a panel with no text of its own, a label with a comma
(`eq:g(n,e)`) and one inside a paper's own wrapper macro (`\referee{...}`); every refusal's fix, sent back as
the agent would send it, is accepted."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from cgx_core.testing import assert_run_verifies
from cgx_core.tooling.registry import call_tool
from support import ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
REVTEX = ROOT / "tests" / "core" / "ingest" / "papers" / "revtex-footnotes" / "paper.tex"
CAPTION_PANELS = r"""\documentclass{article}
\begin{document}
\section{Results}
The phase lags the drive, as Fig.~2b shows.
The amplitude decays, see Fig.~2(a).
The fit in Fig.~2c is good.
\begin{figure}\caption{First run.}\label{fig:first}\end{figure}
\begin{figure}
\caption{The second run: (a) amplitude and (b) phase.}\label{fig:second}
\end{figure}
\end{document}
"""


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    payload, _ = call_tool(tool, {"model": "test-model", **arguments})
    return payload


def nodes(run: Path) -> dict[str, str]:
    """Each node's text (without the fence) by its id."""
    found: dict[str, str] = {}
    start: int | None = 0
    while start is not None:
        page, _ = call_tool("get_state", {"run": str(run), "start": start})
        found.update({node["id"]: re.sub(r"</?data-[0-9a-f]+>", "", node["text"]) for node in page["nodes"]})
        start = page["next"]
    return found


def started(tmp_path: Path, text: str | None = None, paper: Path = REVTEX) -> tuple[Path, dict[str, str]]:
    if text is not None:
        paper = tmp_path / "paper" / "paper.tex"
        paper.parent.mkdir()
        paper.write_text(text, encoding="utf-8")
    run = tmp_path / "run"
    result = call("start_run", run=str(run), paper=str(paper), rubric=str(RUBRIC), store_source=True)
    assert "error" not in result, result
    return run, nodes(run)


def find(texts: dict[str, str], words: str) -> str:
    return next(node for node, text in texts.items() if words in text)


def claims(run: Path, *targets: str, rests_on: str) -> None:
    form = {"shape": "existential"}
    records = [{"node": rests_on, "type": "data"}] if not rests_on.startswith("e-") else []
    records += [{"node": node, "type": "claim", "form": form, "rests_on": [rests_on]} for node in targets]
    assert call("classify", run=str(run), records=records)["refused"] == []


def finished(run: Path) -> None:
    """Every chunk left classified as context, the run finished, replayed and every check re-run."""
    page, _ = call_tool("get_state", {"run": str(run), "type": "unassigned", "limit": 100})
    rest = [{"node": node["id"], "type": "context"} for node in page["nodes"]]
    assert call("classify", run=str(run), records=rest)["refused"] == []
    assert call("finish_run", run=str(run))["finished"] is True
    assert_run_verifies(run)


def proposal(target: str, ref: str, cites: list[str]) -> dict[str, Any]:
    return {"type": "cross-reference", "target": target, "ref": ref, "cites": cites}


def test_a_panel_the_caption_describes_resolves_to_the_caption(tmp_path: Path) -> None:
    run, texts = started(tmp_path, CAPTION_PANELS)
    phase, amplitude, fit = find(texts, "phase lags"), find(texts, "amplitude decays"), find(texts, "fit in")
    second, first = find(texts, "The second run"), find(texts, "First run")
    claims(run, phase, amplitude, fit, rests_on=second)
    result = call(
        "run_checks",
        run=str(run),
        proposals=[
            proposal(phase, "Fig. 2b", [second]),
            proposal(amplitude, "Fig. 2(a)", [first]),  # panel (a) of Figure 2 is not in Figure 1
        ],
    )
    assert result["refused"] == []
    assert [(check["result"], check["detail"]) for check in result["checks"]] == [
        ("passed", f"{phase} writes 'Fig.~2b' (Figure 2 (fig:second)), and {second} belongs to it"),
        (
            "failed",
            f"{amplitude} writes 'Fig.~2(a)' (Figure 2 (fig:second)), but {first} belongs to Figure 1 (fig:first)",
        ),
    ]
    # A panel the caption does not describe is still no object of the paper.
    [refused] = call("run_checks", run=str(run), proposals=[proposal(fit, "Fig. 2c", [second])])["refused"]
    assert refused["code"] == "ref-unknown"
    finished(run)


def test_labels_with_commas_inside_wrappers_and_subrefs_resolve(tmp_path: Path) -> None:
    run, texts = started(tmp_path)
    writer, caption = find(texts, "By Eq."), find(texts, "The pendulum: (a)")
    equation = next(node for node, text in texts.items() if node.startswith("e-") and "E(t) = E_0" in text)
    claims(run, writer, rests_on=equation)
    result = call(
        "run_checks",
        run=str(run),
        proposals=[
            proposal(writer, "eq:g(n,e)", [equation]),  # inside \referee{...}, with a comma
            proposal(writer, "fig:a:b", [caption]),  # \subref to a panel whose text is only the caption's
        ],
    )
    assert result["refused"] == []
    assert [check["result"] for check in result["checks"]] == ["passed", "passed"]
    finished(run)


def test_the_spelling_a_refusal_suggests_is_accepted(tmp_path: Path) -> None:
    run, texts = started(tmp_path)
    writer = find(texts, "By Eq.")
    equation = next(node for node, text in texts.items() if node.startswith("e-") and "E(t) = E_0" in text)
    claims(run, writer, rests_on=equation)
    for wrong in ("eq:g(n", "eq:gne"):
        [refused] = call("run_checks", run=str(run), proposals=[proposal(writer, wrong, [equation])])["refused"]
        assert refused["code"] == "ref-not-written", refused
        suggested = re.findall(r"'([^']+)'", refused["fix"].split("one of", 1)[1])
        assert "eq:g(n,e)" in suggested, refused["fix"]
    result = call("run_checks", run=str(run), proposals=[proposal(writer, "eq:g(n,e)", [equation])])
    assert [check["result"] for check in result["checks"]] == ["passed"], result


THEOREMS = r"""\documentclass{article}
\usepackage{amsthm}
\newtheorem{theorem}{Theorem}[section]
\newtheorem{lemma}[theorem]{Lemma}
\newtheorem*{remark}{Remark}
\begin{document}
\section{Bounds}
\begin{theorem}\label{thm:bound}
Every damped oscillator loses energy.
\end{theorem}
\begin{lemma}\label{lem:decay}
The envelope decays exponentially.
\end{lemma}
\begin{remark}\label{rem:aside}
A remark is not numbered.
\end{remark}
By Lemma~1.2 the envelope shrinks, and Theorem~\ref{thm:bound} says it decays.
\end{document}
"""


def test_theorem_like_environments_are_numbered_and_referenced(tmp_path: Path) -> None:
    run, texts = started(tmp_path, THEOREMS)
    writer, theorem, lemma = find(texts, "By Lemma"), find(texts, "loses energy"), find(texts, "envelope decays")
    claims(run, writer, rests_on=lemma)
    result = call(
        "run_checks",
        run=str(run),
        proposals=[proposal(writer, "Lemma 1.2", [lemma]), proposal(writer, "thm:bound", [lemma])],
    )
    assert result["refused"] == []
    assert [(check["result"], check["detail"]) for check in result["checks"]] == [
        ("passed", f"{writer} writes 'Lemma~1.2' (Theorem 1.2 (lem:decay)), and {lemma} belongs to it"),
        (
            "failed",
            f"{writer} writes 'Theorem~\\ref{{thm:bound}}' (Theorem 1.1 (thm:bound)), "
            f"but {lemma} belongs to Theorem 1.2 (lem:decay)",
        ),
    ]
    [refused] = call("run_checks", run=str(run), proposals=[proposal(writer, "rem:aside", [theorem])])["refused"]
    assert refused["code"] in ("ref-not-written", "ref-unknown")
    finished(run)
