r"""Issue 42's paper (statistics_paper/paper.tex): ten reported tests, three means of integer ratings, two
intervals, a percentage, a change and a total. The candidate list get_state gives finds every checkable
statement, each proposal it offers gets the verdict the paper was written to give when sent through run_checks
as it is, and the run replays and verifies."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cgx_core.testing import assert_run_verifies
from cgx_core.tooling.registry import TOOLS, call_tool
from support import ROOT

PAPER = Path(__file__).parent / "statistics_paper" / "paper.tex"
RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"

EXPECTED: dict[tuple[str, str], str] = {
    ("28 + 32", "60"): "passed",
    ("45 / 60", "75%"): "passed",
    ("(75 - 60) / 60", "25%"): "passed",
    ("p_t(2.20, 28)", ".04"): "passed",
    ("p_F(3.15, 2, 57)", ".05"): "failed",  # the decision error: p = .0502 to .0506 against p < .05
    ("p_r(.32, 48)", ".02"): "passed",
    ("p_chi2(3.84, 1)", ".05"): "passed",
    ("p_t(2.2, 28)", ".03"): "passed",  # only at the printed precision of 2.2
    ("p_z(2.58)", ".01"): "passed",
    ("p_t(3.10, 40)", ".02"): "failed",  # a wrong p: .0035
    ("p_F(2.10, 3, 96)", ".15"): "failed",  # a wrong p: .105
    ("p_r(-.25, 118)", ".001"): "failed",  # a wrong p: .0059 against p < .001
    ("p_chi2(9.50, 2)", ".01"): "passed",
    ("grim(3.47, 19)", "3.47"): "passed",
    ("grimmer(3.47, 1.12, 19)", "1.12"): "passed",
    ("grim(2.50, 12, 5)", "2.50"): "passed",
    ("grim(3.48, 19)", "3.48"): "failed",  # the impossible mean: 66/19 = 3.4737, 67/19 = 3.5263
    ("ci_low(1.20, 0.30, 95%)", "0.61"): "passed",
    ("ci_high(1.20, 0.30, 95%)", "1.79"): "passed",
    ("ci_gmid(1.10, 2.60)", "1.50"): "failed",  # the inconsistent interval: 1.69 on the log scale
}
"""Every checkable statement of the paper, by the proposal that checks it, with the verdict it must get."""


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    model = {"model": "test-model"} if TOOLS[tool].changes_run else {}
    payload, is_error = call_tool(tool, {**model, **arguments})
    assert not is_error, payload
    return payload


def listed_candidates(run: Path, limit: int) -> list[dict[str, Any]]:
    """Every candidate, paged as an agent pages them."""
    found: list[dict[str, Any]] = []
    start: int | None = 0
    while start is not None:
        page = call("get_state", run=str(run), summary="candidates", start=start, limit=limit)["summary"]
        found += page["items"]
        start = page["next"]
    return found


@pytest.fixture(scope="module")
def sent(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list[dict[str, Any]], list[Any]]]:
    """The run with every sentence typed and every candidate's proposal sent as it is."""
    run = tmp_path_factory.mktemp("candidates") / "run"
    call("start_run", run=str(run), paper=str(PAPER), rubric=str(RUBRIC))
    log = (run / "calls.jsonl").read_bytes()
    found = listed_candidates(run, limit=7)
    assert (run / "calls.jsonl").read_bytes() == log  # listing logs nothing
    listed = call("get_state", run=str(run), unit="sentence", limit=500)["nodes"]
    statements = [node["id"] for node in listed]
    assert {item["node"] for item in found} < set(statements)
    call(
        "classify",
        run=str(run),
        records=[{"node": node, "type": "method", "form": {"kind": "procedure"}} for node in statements],
    )
    checks: list[Any] = []
    for start in range(0, len(found), 20):
        result = call("run_checks", run=str(run), proposals=[item["proposal"] for item in found[start : start + 20]])
        assert not result.get("refused"), result["refused"]
        checks += result["checks"]
    yield run, found, checks


def test_the_scan_finds_every_checkable_statement_and_nothing_else(
    sent: tuple[Path, list[dict[str, Any]], list[Any]],
) -> None:
    _, found, _ = sent
    assert [(item["proposal"]["expression"], item["proposal"]["result"]) for item in found] == list(EXPECTED)


def test_each_proposal_sent_as_it_is_gets_the_right_verdict(sent: tuple[Path, list[dict[str, Any]], list[Any]]) -> None:
    _, found, checks = sent
    verdicts = {
        (item["proposal"]["expression"], item["proposal"]["result"]): check["result"]
        for item, check in zip(found, checks, strict=True)
    }
    assert verdicts == EXPECTED
    details = {item["proposal"]["expression"]: check["detail"] for item, check in zip(found, checks, strict=True)}
    assert "a decision error" in details["p_F(3.15, 2, 57)"]
    assert all("decision error" not in details[name] for name in ("p_t(3.10, 40)", "p_r(-.25, 118)"))
    assert "66/19 = 3.4736842... and 67/19 = 3.5263157..." in details["grim(3.48, 19)"]
    assert "at the printed precision, 2.2 is 2.15 to 2.25" in details["p_t(2.2, 28)"]


def test_each_candidate_says_what_it_computes_and_quotes_its_statement(
    sent: tuple[Path, list[dict[str, Any]], list[Any]],
) -> None:
    _, found, _ = sent
    by_expression = {item["proposal"]["expression"]: item for item in found}
    test = by_expression["p_t(2.2, 28)"]
    assert test["kind"] == "reported-test" and test["text"] == "t_28 = 2.2, p = .03"
    assert test["computes"].startswith("the two-sided p-value of t(28) = 2.2, against p = .03")
    assert by_expression["grim(3.48, 19)"]["proposal"]["premises"] == [
        "the values averaged are whole numbers (the text's 'Ratings')"
    ]


def test_the_run_replays_and_verifies_every_check(sent: tuple[Path, list[dict[str, Any]], list[Any]]) -> None:
    run, _, checks = sent
    verified = assert_run_verifies(run, source=PAPER)
    assert verified.rerun == verified.checks == len(checks)
