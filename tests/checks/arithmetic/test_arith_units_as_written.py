r"""Units as papers write them (issue 24, part 1): a qualifier word between a numeral and its unit
("approximately 10 GPU hours"), a day written `d` (`0.5~d`, `cm~d$^{-1}$`), litres written `L`, siunitx's
named units (`\ps`, `\metre\per\second`) and a unit after a factor of mathematics
(`1.3\times10^{-7}\sqrt{\tau}~m`), each checked on a paper written for the test through the tools, true
claims passing and false ones failing; and no new form lets an agent pass a claim by construction."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cgx_core.audit.replay import replay
from cgx_core.errors import CgxError
from cgx_core.numbers import read_quantity, read_text
from cgx_core.tooling.registry import call_tool
from support import ROOT

PAPER = r"""\documentclass{article}
\usepackage{siunitx}
\begin{document}
We used one simulator throughout.
We trained 4 models for 2.5 GPU hours each, approximately 10 GPU hours in all.
A second sweep of 3 models took 2.5 GPU hours each, 12 GPU hours in all.
The front advanced at 0.4~cm~d$^{-1}$ for 0.5~d, so it moved 0.2~cm.
Each of the 3 tanks holds 2.5 L of water, 7.5 L in all, and a fourth tank holds 2 L.
A step of \SI{2}{\ps} over 500 steps covers \SI{1}{\ns} of simulated time, and 300 steps cover 0.5~\ns.
The spread is $1.3\times10^{-7}\sqrt{\tau}$~m, so at $\tau = 100$ it is $1.3\times10^{-6}$~m.
\end{document}
"""


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    model = {} if tool == "get_state" else {"model": "test-model"}
    payload, is_error = call_tool(tool, {**model, **arguments})
    assert not is_error, payload
    return payload


@pytest.fixture
def run(tmp_path: Path) -> Path:
    (tmp_path / "paper.tex").write_text(PAPER, encoding="utf-8")
    folder = tmp_path / "run"
    rubric = ROOT / "examples" / "rubrics" / "paper.toml"
    call("start_run", run=str(folder), paper=str(tmp_path / "paper.tex"), rubric=str(rubric), store_source=True)
    call("classify", run=str(folder), records=[{"node": "s-1", "type": "method", "form": {"kind": "procedure"}}])
    return folder


def sentence(run: Path, words: str) -> str:
    nodes = call("get_state", run=str(run))["nodes"]
    return next(str(node["id"]) for node in nodes if words in (node.get("text") or ""))


CASES = [
    ("4 models for 2.5", "4 * 2.5 GPU hours", "10 GPU hours", "passed"),  # ~ "approximately": 10%
    ("3 models took", "3 * 2.5 GPU hours", "12 GPU hours", "failed"),  # 7.5, not 12
    ("front advanced", "0.4 cm d^-1 * 0.5 d", "0.2 cm", "passed"),
    ("Each of the 3 tanks", "3 * 2.5 L", "7.5 L", "passed"),
    ("A step of", "500 * 2 ps", "1 ns", "passed"),
    ("The spread is", "1.3e-7 m * sqrt(100)", "1.3e-6 m", "passed"),
]


@pytest.mark.parametrize(("words", "expression", "result", "outcome"), CASES)
def test_each_written_unit_is_checked_to_the_right_result(
    run: Path, words: str, expression: str, result: str, outcome: str
) -> None:
    node = sentence(run, words)
    call("classify", run=str(run), records=[{"node": node, "type": "result", "rests_on": ["s-1"]}])
    proposal = {"type": "recompute-numbers", "target": node, "cites": [node], "expression": expression}
    checked = call("run_checks", run=str(run), proposals=[{**proposal, "result": result}])
    assert [check["result"] for check in checked["checks"]] == [outcome], checked
    assert replay(run, source=None, sources=None).identical


def test_wrong_arithmetic_in_the_new_forms_fails(run: Path) -> None:
    tanks = sentence(run, "Each of the 3 tanks")
    steps = sentence(run, "A step of")
    records = [{"node": node, "type": "result", "rests_on": ["s-1"]} for node in (tanks, steps)]
    call("classify", run=str(run), records=records)
    checked = call(
        "run_checks",
        run=str(run),
        proposals=[
            {
                "type": "recompute-numbers",
                "target": tanks,
                "cites": [tanks],
                "expression": "3 * 2 L",
                "result": "7.5 L",
            },
            {
                "type": "recompute-numbers",
                "target": steps,
                "cites": [steps],
                "expression": "300 * 2 ps",
                "result": "0.5 ns",
            },
        ],
    )
    assert [check["result"] for check in checked["checks"]] == ["failed", "failed"]  # 6 L; 0.6 ns


@pytest.mark.parametrize(
    ("expression", "result", "words"),
    [
        ("10 GPU hours", "10 GPU hours", "4 models for 2.5"),
        ("10 GPU hours * 1", "10 GPU hours", "4 models for 2.5"),
        ("0.5 d", "0.5 d", "front advanced"),
        ("1.3e-6 m", "1.3e-6 m", "The spread is"),
    ],
)
def test_no_new_form_passes_a_claim_by_restating_it(run: Path, expression: str, result: str, words: str) -> None:
    node = sentence(run, words)
    call("classify", run=str(run), records=[{"node": node, "type": "result", "rests_on": ["s-1"]}])
    proposal = {
        "type": "recompute-numbers",
        "target": node,
        "cites": [node],
        "expression": expression,
        "result": result,
    }
    checked = call("run_checks", run=str(run), proposals=[proposal])
    assert checked["checks"] == []
    assert "only restates the result" in checked["refused"][0]["message"]


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("approximately 10 GPU hours", "hour"),
        ("3 wall-clock days", "day"),
        ("0.5~d", "day"),
        (r"4~cm~d$^{-1}$", "centimeter/day"),
        ("5 L of water", "liter"),
        (r"10~\ps", "picosecond"),
        (r"\SI{5}{\ps}", "picosecond"),
        (r"4\,\metre\per\second", "meter/second"),
        (r"5~\metre\squared of land", "meter^2"),
        (r"$1.3\times10^{-7}\sqrt{\tau}$~m", "meter"),
        ("3 per second", None),  # a rate: "per" is never a qualifier
        ("$2d$", None),  # d glued to a numeral is a product or a name
        ("3L", None),
        ("12 runs", None),
        ("5 more of them", None),
        (r"\L", None),
    ],
)
def test_the_unit_a_text_writes_after_a_numeral(text: str, unit: str | None) -> None:
    first = next((item for item in read_text(text) if item.reported), None)
    found = first.unit.text if first is not None and first.unit is not None else None
    assert found == unit


@pytest.mark.parametrize(("text", "unread"), [("2 furlongs", "furlongs"), ("2d", "d"), ("2 days ago", "ago")])
def test_a_refusal_names_the_unit_it_could_not_read_and_what_to_write(text: str, unread: str) -> None:
    with pytest.raises(CgxError) as raised:
        read_quantity(text)
    assert f"ends with {unread!r}, which the numeral reader does not read as a unit" in raised.value.message
    assert "10 GPU hours" in raised.value.message


def test_an_expression_with_a_word_that_is_no_unit_names_it() -> None:
    from cgx_checks.arithmetic import recompute

    with pytest.raises(CgxError) as raised:
        recompute("2 furlongs * 3", "6", ["2 furlongs 3 times, 6"])
    assert "'furlongs' after a number is no unit the numeral reader knows" in raised.value.message
