"""The shared papers' derivations checked through run_checks, as an agent sends them: the paper's LaTeX
copied from the equation chunks, each relation of a chain its own check; then the run finishes, replays
byte for byte and verifies with no difference."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cgx_core.audit.replay import replay
from cgx_core.audit.verify import verify_run
from cgx_core.tooling.registry import call_tool
from support import ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"

FARR_CHAIN = (
    r"\frac{N}{s^2 + V} = \frac{N}{s^2 + V} - \frac{s^2 + V}{N}\frac{N}{\left( s^2 + V \right)^2} "
    r"= \frac{N-1}{s^2 + V}"
)
FARR_SYMBOLS = {"N": ["positive", "integer"], "s": ["real"], "V": ["positive"]}
DYNONET_FACTORISATION = r"(1 - r e^{j\beta} q^{-1}) ( 1 - r e^{-j\beta}q^{-1}) = 1 - 2r\cos\beta q^{-1} + r^2 q^{-2}"
DYNONET_REGION = r"|a_1| &< 2\\ |{a_1}| - 1 &< a_2 < a_1"
STABLE = "And(Abs(-a_1/2 + sqrt(a_1^2/4 - a_2)) < 1, Abs(-a_1/2 - sqrt(a_1^2/4 - a_2)) < 1)"


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    payload, is_error = call_tool(tool, {"model": "test-model", **arguments})
    assert not is_error, payload
    return payload


def chunks(run: Path, **where: Any) -> list[dict[str, Any]]:
    """The run's chunks (or those matching `where`), read from get_state page by page, as an agent reads them."""
    found: list[dict[str, Any]] = []
    start: int | None = 0
    while start is not None:
        page, is_error = call_tool("get_state", {"run": str(run), "start": start, **where})
        assert not is_error, page
        found.extend(page["nodes"])
        start = page["next"]
    return found


def start(papers: Path, run: Path, main: str, derivations: dict[str, str]) -> dict[str, str]:
    """A run on a real paper with the given equation chunks typed as derivations (resting on the chunk
    named) and every other chunk as context; the text of each equation chunk, by id."""
    call("start_run", run=str(run), paper=str(papers / main), rubric=str(RUBRIC), store_source=True)
    equations = {chunk["id"]: chunk["text"] for chunk in chunks(run, unit="equation")}
    records = [{"node": node, "type": "derivation", "rests_on": [rests_on]} for node, rests_on in derivations.items()]
    records += [
        {"node": chunk["id"], "type": "context"}
        for chunk in chunks(run, type="unassigned")
        if chunk["id"] not in derivations
    ]
    assert call("classify", run=str(run), records=records)["refused"] == []
    return equations


def finished_replays_and_verifies(run: Path) -> None:
    assert call("finish_run", run=str(run)).get("finished") is True
    report = replay(run, source=None, sources=None)
    assert report.identical, report.body
    verdict = verify_run(run)
    assert verdict.error is None and verdict.differences == ()


def test_farr_chain_first_relation_fails_the_second_passes_and_the_run_replays(papers: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    started = start(papers, run, "farr-normal-normal/src/tex/ms.tex", {"e-16": "e-15"})
    assert FARR_CHAIN.replace(" ", "") in started["e-16"].replace(" ", "")
    chain = {"type": "rederive-maths", "target": "e-16", "equations": ["e-16"], "symbols": FARR_SYMBOLS}
    result = call(
        "run_checks",
        run=str(run),
        proposals=[
            {**chain, "latex": FARR_CHAIN, "split": 1},
            {**chain, "latex": FARR_CHAIN, "split": 2},
            {**chain, "latex": FARR_CHAIN, "split": 2, "symbols": {**FARR_SYMBOLS, "s": ["positive"]}},
            {**chain, "latex": r"\frac{N}{s^2 + V} = \frac{N-1}{s^2 + V}"},
        ],
    )
    assert [(check["result"], check["type"]) for check in result["checks"]] == [
        ("failed", "rederive-maths"),  # N/(s^2+V) = N/(s^2+V) - 1/(s^2+V): true only up to order 1/N
        ("passed", "rederive-maths"),
    ]
    assert [refusal["code"] for refusal in result["refused"]] == ["check-duplicate", "latex-not-in-text"]
    assert "whole relation or side of e-16" in result["refused"][1]["message"]
    output = json.loads((run / "checks" / "c-001" / "output.json").read_bytes())["output"]
    assert output["method"] == "witness" and set(output["witness"]) == {"N", "V", "s"}
    assert output["read"] == {
        "lhs": "N/(s^2 + V)",
        "rhs": "N/(s^2 + V) - ((s^2 + V)/N)*(N/(s^2 + V)^2)",
        "relation": "=",
        "names": {},
    }
    inputs = json.loads((run / "checks" / "c-001" / "inputs.json").read_bytes())
    assert inputs["budget"] == {"cpu_seconds": 10.0} and inputs["latex"] == FARR_CHAIN
    finished_replays_and_verifies(run)


def test_dynonet_factorisation_holds_and_its_stability_region_is_wrong(papers: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    started = start(papers, run, "dynonet-paper/doc/paper/ms.tex", {"e-40": "e-05", "e-39": "e-38"})
    assert "a_2 < a_1" in started["e-39"]
    symbols = {"r": ["positive"], "\\beta": ["real"], "q": ["nonzero"]}
    factorisation = {
        "type": "rederive-maths",
        "target": "e-40",
        "equations": ["e-40"],
        "symbols": symbols,
        "aliases": {"j": "I"},
        "latex": DYNONET_FACTORISATION,
    }
    region = {
        "type": "rederive-maths",
        "target": "e-39",
        "equations": ["e-39"],
        "symbols": {"a_1": ["real"], "a_2": ["real"]},
        "latex": DYNONET_REGION,
        "rhs": STABLE,
    }
    first = call("run_checks", run=str(run), proposals=[factorisation, region])
    assert [refusal["code"] for refusal in first["refused"]] == ["latex-ambiguous"]
    assert "function_argument" in first["refused"][0]["fix"]
    assert [(check["target"], check["result"]) for check in first["checks"]] == [("e-39", "failed")]
    second = call("run_checks", run=str(run), proposals=[{**factorisation, "function_argument": "factor"}])
    assert [(check["target"], check["result"]) for check in second["checks"]] == [("e-40", "passed")]
    region_output = json.loads((run / "checks" / "c-001" / "output.json").read_bytes())["output"]
    assert region_output["method"] == "witness"
    assert region_output["read"]["lhs"] == "And(Abs(a_1) < 2, Abs(a_1) - 1 < a_2 < a_1)"
    factorised = json.loads((run / "checks" / "c-002" / "output.json").read_bytes())["output"]
    assert factorised["read"]["names"] == {"\\beta": "beta"}
    assert factorised["read"]["rhs"] == "1 - 2*r*cos(beta)*q^(-1) + r^2*q^(-2)"
    finished_replays_and_verifies(run)


@pytest.mark.parametrize(
    ("latex", "why"),
    [
        (r"1 - 2r\cos\beta q^{-1}", "the start of a side"),
        (r"(1 - r e^{j\beta} q^{-1}) = 1 - 2r\cos\beta q^{-1} + r^2 q^{-2}", "not written so"),
        (r"r^2 q^{-2} = 1", "a relation the paper does not write"),
    ],
)
def test_a_latex_side_not_in_the_cited_chunk_is_refused(papers: Path, tmp_path: Path, latex: str, why: str) -> None:
    run = tmp_path / "run"
    start(papers, run, "dynonet-paper/doc/paper/ms.tex", {"e-40": "e-05"})
    proposal = {
        "type": "rederive-maths",
        "target": "e-40",
        "equations": ["e-40"],
        "symbols": {"r": ["positive"], "\\beta": ["real"], "q": ["nonzero"]},
        "aliases": {"j": "I"},
        "function_argument": "factor",
        "latex": latex,
    }
    if "=" not in latex:
        proposal["rhs"] = "1"
    result = call("run_checks", run=str(run), proposals=[proposal])
    assert result["checks"] == [], why
    assert [refusal["code"] for refusal in result["refused"]] == ["latex-not-in-text"], why
    cited_elsewhere = call("run_checks", run=str(run), proposals=[{**proposal, "equations": ["e-39"]}])
    assert cited_elsewhere["refused"][0]["code"] == "latex-not-in-text"
