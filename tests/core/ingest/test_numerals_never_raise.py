"""Text credencegraph's `numerals` raises on ("DE-FG02-94ER408": its sign class is a range that holds the letters)
reaches no caller as an exception: classify with a number form, finish_run's check of the graph, the report and
the assembler's fixes all read it through `cgx_core.graph.numerals` (issue 40, "never raises" beyond the report)."""

from __future__ import annotations

from pathlib import Path

from report_runs import listed

from cgx_core.assembler.text import numerals_of
from cgx_core.checks.verdicts import _has_maths_or_numbers
from cgx_core.graph.numerals import numerals
from cgx_core.tooling.registry import call_tool
from support import ROOT, call

GRANT = "We thank the DOE for grant DE-FG02-94ER408, which paid for 94 days of beam time."
PAPER = rf"""\documentclass{{article}}
\begin{{document}}
We timed the pendulum with a stopwatch.

{GRANT}
\end{{document}}
"""


def test_every_caller_reads_the_grant_number_without_raising() -> None:
    assert numerals(GRANT) == {94.0}
    assert numerals("a rate of 1.5e3 Hz") == {1500.0}
    assert numerals_of(GRANT) == ["94"]
    assert _has_maths_or_numbers(GRANT, "sentence")
    from credencegraph.rubric import has_numeral

    assert has_numeral(GRANT, 94)  # credencegraph's own form check reads through it too


def test_a_run_whose_acknowledgements_hold_a_grant_number_is_classified_and_finished(tmp_path: Path) -> None:
    paper = tmp_path / "paper" / "paper.tex"
    paper.parent.mkdir()
    paper.write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    arguments = {"run": str(run), "paper": str(paper), "rubric": str(ROOT / "examples" / "rubrics" / "paper.toml")}
    result, is_error = call_tool("start_run", {**arguments, "model": "m"})
    assert not is_error, result
    chunks = {chunk["text"]: chunk["id"] for chunk in listed(run, type="unassigned")}
    method = next(node for text, node in chunks.items() if "stopwatch" in text)
    grant = next(node for text, node in chunks.items() if "DE-FG02" in text)
    records = [
        {"node": method, "type": "method", "form": {"kind": "procedure"}},
        {"node": grant, "type": "result", "form": {"value": 94}, "rests_on": [method]},
    ]
    classified = call(run, "classify", records=records)
    assert "error" not in classified and not classified.get("refused"), classified
    finished = call(run, "finish_run")
    assert "error" not in finished, finished
