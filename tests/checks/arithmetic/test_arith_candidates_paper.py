r"""Issue 42's paper (statistics_paper/paper.tex): ten reported tests, three means of integer ratings, two
intervals, a percentage, a change and a total. The candidate list get_state gives finds every checkable
statement, each proposal it offers gets the verdict the paper was written to give when sent through run_checks
as it is, and the run replays and verifies."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from candidate_annotations import ANNOTATED

from cgx_core.testing import assert_run_verifies
from cgx_core.tooling.registry import TOOLS, call_tool
from support import ROOT

PAPER = ANNOTATED["statistics-paper"].paper
RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"

EXPECTED = ANNOTATED["statistics-paper"].expected


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
