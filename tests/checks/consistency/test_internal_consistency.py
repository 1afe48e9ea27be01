"""internal-consistency through run_checks: two contradicting sentences of a paper recorded as a failure that
lowers the credence of each node it is proposed on, replays byte for byte, verifies, and shows both passages
side by side in the report; every passage that is not the paper's own words is refused with the fix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cgx_cli.main import main
from cgx_core.testing import assert_run_verifies
from cgx_core.tooling.registry import call_tool
from support import PAPERS, ROOT

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
PAPER = r"""\documentclass{article}
\begin{document}
\section{Results}
Our replication matches the original study in every setting we ran.
We trained each model five times with different seeds.
\section{Discussion}
In the third setting the original study showed the opposite of what we found.
\end{document}
"""
SUMMARY = "Our replication matches the original study in every setting we ran"
LATER = "the original study showed the opposite of what we found"


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    payload, _ = call_tool(tool, {"model": "test-model", **arguments})
    return payload


def started(tmp_path: Path) -> Path:
    paper = tmp_path / "paper" / "paper.tex"
    paper.parent.mkdir()
    paper.write_text(PAPER, encoding="utf-8")
    run = tmp_path / "run"
    call("start_run", run=str(run), paper=str(paper), rubric=str(RUBRIC), store_source=True)
    records = [
        {"node": "s-2", "type": "method", "form": {"kind": "procedure"}},
        {"node": "s-1", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-2"]},
        {"node": "s-3", "type": "result", "rests_on": ["s-2"]},
    ]
    assert call("classify", run=str(run), records=records)["refused"] == []
    return run


def judged(target: str, other: str, passages: dict[str, str], consistent: bool = False) -> dict[str, Any]:
    return {
        "type": "internal-consistency",
        "target": target,
        "with": [other],
        "passages": [{"node": node, "text": text} for node, text in passages.items()],
        "consistent": consistent,
        "note": "the summary says the replication matches everywhere; the discussion says one setting is opposite",
    }


def test_two_contradicting_sentences_fail_replay_and_show_side_by_side(tmp_path: Path) -> None:
    run = started(tmp_path)
    result = call(
        "run_checks",
        run=str(run),
        proposals=[
            judged("s-1", "s-3", {"s-1": SUMMARY, "s-3": LATER}),
            judged("s-3", "s-1", {"s-3": LATER, "s-1": SUMMARY}),  # the same judgement, observing the other node
        ],
    )
    assert result["refused"] == []
    assert [(check["target"], check["result"]) for check in result["checks"]] == [("s-1", "failed"), ("s-3", "failed")]
    assert result["checks"][0]["detail"].startswith(f'the model judged that s-1 ("{SUMMARY}") and s-3 ("{LATER}")')
    finished = call("finish_run", run=str(run))
    assert finished["uncalibrated"] == 2  # the rubric lists no model for the judgement
    graph = json.loads((run / "graph.json").read_text())
    verdicts = {node["id"]: node["attributes"].get("assessment", {}).get("verdict") for node in graph["nodes"]}
    assert verdicts["s-1"] == "fails" and verdicts["s-3"] == "fails"
    record = next(node for node in graph["nodes"] if node["id"] == "c-001")["attributes"]["check"]
    assert record["model"] == "test-model"
    assert_run_verifies(run)

    assert (
        main(["report", str(run), "--markdown", str(tmp_path / "report.md"), "--html", str(tmp_path / "r.html")]) == 0
    )
    markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert page.count('<div class="side-by-side">') == 2  # each failed check shows its two passages together
    assert f"| `s-1` | `s-3` |\n| --- | --- |\n| `{SUMMARY}` | `{LATER}` |" in markdown


def test_a_passage_not_in_its_chunk_is_refused_with_the_fix(tmp_path: Path) -> None:
    run = started(tmp_path)
    before = (run / "calls.jsonl").read_bytes()
    reworded = "Our replication agrees with the original study in every setting"
    result = call("run_checks", run=str(run), proposals=[judged("s-1", "s-3", {"s-1": reworded, "s-3": LATER})])
    assert result["checks"] == []
    [refused] = result["refused"]
    assert refused["code"] == "passage-not-in-chunk"
    assert "'s-1'" in refused["message"] and "word for word" in refused["fix"]
    assert (run / "calls.jsonl").read_bytes().startswith(before)


@pytest.mark.parametrize(
    ("proposal", "code", "says"),
    [
        (
            judged("s-1", "s-3", {"s-1": SUMMARY, "s-2": "We trained each model five times"}),
            "proposal-invalid",
            "give one passage for each of ['s-1', 's-3']",
        ),
        (judged("s-1", "s-3", {"s-1": SUMMARY}), "proposal-invalid", "passages"),
        (
            {**judged("s-1", "s-3", {"s-1": SUMMARY, "s-3": LATER}), "with": ["s-1"]},
            "proposal-invalid",
            "name the other nodes only",
        ),
        (judged("s-1", "c-001", {"s-1": SUMMARY, "c-001": LATER}), "unknown-node", "get_state"),
        (judged("s-1", "s-3", {"s-1": "matches", "s-3": LATER}), "proposal-invalid", "longer passage"),
        ({**judged("s-1", "s-3", {"s-1": SUMMARY, "s-3": LATER}), "consistent": "no"}, "proposal-invalid", ""),
    ],
)
def test_hostile_proposals_are_refused(tmp_path: Path, proposal: dict[str, Any], code: str, says: str) -> None:
    run = started(tmp_path)
    result = call("run_checks", run=str(run), proposals=[proposal])
    assert result["checks"] == []
    [refused] = result["refused"]
    assert refused["code"] == code
    assert says in refused["fix"]


def test_a_passage_across_a_shared_papers_line_breaks_and_ligature_free_text(tmp_path: Path) -> None:
    """On a real paper: two sentences of hastings-powell (whose counts disagree), each found in its chunk."""
    main = PAPERS / "hastings-powell-replication" / "article" / "article.tex"
    run = tmp_path / "run"
    call("start_run", run=str(run), paper=str(main), rubric=str(RUBRIC))
    nodes: list[dict[str, Any]] = []
    start: int | None = 0
    while start is not None:
        page, _ = call_tool("get_state", {"run": str(run), "start": start})
        nodes.extend(page["nodes"])
        start = page["next"]
    fence = next(node["text"] for node in nodes).split(">", 1)[0] + ">"
    texts = {node["id"]: node["text"].removeprefix(fence).rsplit("<", 1)[0] for node in nodes}
    fourteen = next(node for node, text in texts.items() if "14 parameters" in text)
    ten = next(node for node, text in texts.items() if "10 parameters" in text and node != fourteen)
    records = [{"node": fourteen, "type": "claim", "form": {"shape": "existential"}, "rests_on": [ten]}]
    records.append({"node": ten, "type": "method", "form": {"kind": "procedure"}})
    assert call("classify", run=str(run), records=records)["refused"] == []
    passages = {fourteen: texts[fourteen][:60], ten: texts[ten][:60]}
    result = call("run_checks", run=str(run), proposals=[judged(fourteen, ten, passages, consistent=True)])
    assert [check["result"] for check in result["checks"]] == ["passed"], result
