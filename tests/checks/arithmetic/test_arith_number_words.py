"""A number word is exact: "zero mean" states 0, not 0 +- 0.5, since a word writes no digit to round. With the
rounding of a digit, every mean of small residuals would pass against "zero mean" (hastings' residuals, A2)."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path
from typing import Any

from cgx_checks.arithmetic import recompute
from cgx_checks.arithmetic.recompute import Recomputation
from cgx_core.audit.replay import replay
from cgx_core.numbers.reader import read_quantity, read_text
from cgx_core.tooling.registry import call_tool
from support import ROOT

RESIDUALS = "The two residuals, -0.01 and 0.02, have zero mean, and eleven runs of the four settings converged."


def numeric(expression: str, result: str, texts: list[str]) -> Recomputation:
    checked = recompute(expression, result, texts)
    assert isinstance(checked, Recomputation)
    return checked


def test_a_number_word_reads_with_no_rounding_and_a_numeral_keeps_its_own() -> None:
    words = {item.numeral.written: item.numeral.half_unit for item in read_text(RESIDUALS)}
    assert (words["0"], words["11"], words["4"], words["0.02"]) == (F(0), F(0), F(0), F(1, 200))
    assert read_quantity("zero")[0].half_unit == 0 and read_quantity("0")[0].half_unit == F(1, 2)


def test_a_mean_against_zero_mean_fails_unless_it_is_zero() -> None:
    for result in ("zero", "0"):  # the text writes the word, so the agent's digits are compared as the word
        check = numeric("mean(-0.01, 0.02)", result, [RESIDUALS])
        assert (check.outcome, check.value, check.half_unit) == ("failed", F(1, 200), 0)
        assert "reported 0 +- 0 (a number word is exact): failed" in check.detail
    assert numeric("mean(-0.01, 0.01)", "zero", [RESIDUALS + " and -0.01 and 0.01"]).outcome == "passed"


def test_a_count_meets_its_word_exactly() -> None:
    assert numeric("3 + 4 + 4", "eleven", [RESIDUALS + " 3 4"]).outcome == "passed"
    assert numeric("3 + 4 + 4 - 0.02", "eleven", [RESIDUALS + " 3 4"]).outcome == "failed"


def test_a_digit_the_text_prints_keeps_its_rounding() -> None:
    printed = "The two residuals, -0.01 and 0.02, have a mean of 0 to the precision shown."
    for result in ("0", "zero"):  # the text prints 0: 0 +- 0.5, whichever way the agent writes it
        check = numeric("mean(-0.01, 0.02)", result, [printed])
        assert (check.outcome, check.half_unit) == ("passed", F(1, 2))


PAPER = r"""\documentclass{article}
\begin{document}
The two residuals, $-0.01$ and $0.02$, have zero mean.
\end{document}
"""


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    payload, is_error = call_tool(tool, {"model": "test-model", **arguments})
    assert not is_error, payload
    return payload


def test_through_the_tools_zero_mean_fails_and_replays(tmp_path: Path) -> None:
    (tmp_path / "paper.tex").write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    rubric = ROOT / "examples" / "rubrics" / "paper.toml"
    call("start_run", run=str(run), paper=str(tmp_path / "paper.tex"), rubric=str(rubric), store_source=True)
    call("classify", run=str(run), records=[{"node": "s-1", "type": "result", "rests_on": []}])
    proposal = {"type": "recompute-numbers", "target": "s-1", "cites": ["s-1"]}
    checked = call(
        "run_checks", run=str(run), proposals=[{**proposal, "expression": "mean(-0.01, 0.02)", "result": "zero"}]
    )
    assert checked["refused"] == []
    assert [check["result"] for check in checked["checks"]] == ["failed"]
    assert replay(run, source=None, sources=None).identical
