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
from support import PAPERS, ROOT, call, start_paper

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


def started(tmp_path: Path) -> Path:
    run = start_paper(tmp_path, PAPER, RUBRIC, store_source=True)
    records = [
        {"node": "s-2", "type": "method", "form": {"kind": "procedure"}},
        {"node": "s-1", "type": "claim", "form": {"shape": "universal"}, "rests_on": ["s-2"]},
        {"node": "s-3", "type": "result", "rests_on": ["s-2"]},
    ]
    assert call(run, "classify", records=records)["refused"] == []
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
        run,
        "run_checks",
        proposals=[
            judged("s-1", "s-3", {"s-1": SUMMARY, "s-3": LATER}),
            judged("s-3", "s-1", {"s-3": LATER, "s-1": SUMMARY}),  # the same judgement, observing the other node
        ],
    )
    assert result["refused"] == []
    assert [(check["target"], check["result"]) for check in result["checks"]] == [("s-1", "failed"), ("s-3", "failed")]
    assert result["checks"][0]["detail"].startswith(f'the model judged that s-1 ("{SUMMARY}") and s-3 ("{LATER}")')
    finished = call(run, "finish_run")
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
    result = call(run, "run_checks", proposals=[judged("s-1", "s-3", {"s-1": reworded, "s-3": LATER})])
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
    result = call(run, "run_checks", proposals=[proposal])
    assert result["checks"] == []
    [refused] = result["refused"]
    assert refused["code"] == code
    assert says in refused["fix"]


def test_a_passage_across_a_shared_papers_line_breaks_and_ligature_free_text(tmp_path: Path) -> None:
    """On a real paper: two sentences of hastings-powell (whose counts disagree), each found in its chunk."""
    main = PAPERS / "hastings-powell-replication" / "article" / "article.tex"
    run = tmp_path / "run"
    call(run, "start_run", paper=str(main), rubric=str(RUBRIC))
    nodes: list[dict[str, Any]] = []
    start: int | None = 0
    while start is not None:
        page, _ = call_tool("get_state", {"run": str(run), "start": start})
        nodes.extend(node for node in page["nodes"] if "text" in node)  # the rest come whole from `next`
        start = page["next"]
    fence = next(node["text"] for node in nodes).split(">", 1)[0] + ">"
    texts = {node["id"]: node["text"].removeprefix(fence).rsplit("<", 1)[0] for node in nodes}
    fourteen = next(node for node, text in texts.items() if "14 parameters" in text)
    ten = next(node for node, text in texts.items() if "10 parameters" in text and node != fourteen)
    records = [{"node": fourteen, "type": "claim", "form": {"shape": "existential"}, "rests_on": [ten]}]
    records.append({"node": ten, "type": "method", "form": {"kind": "procedure"}})
    assert call(run, "classify", records=records)["refused"] == []
    passages = {fourteen: texts[fourteen][:60], ten: texts[ten][:60]}
    result = call(run, "run_checks", proposals=[judged(fourteen, ten, passages, consistent=True)])
    assert [check["result"] for check in result["checks"]] == ["passed"], result


SHORT = r"""\documentclass{article}
\begin{document}
The gain is unity.
We measured the gain of the amplifier at every frequency and found it stays at one.
The amplifier is linear over the band we measured, so its gain is unity everywhere.
\end{document}
"""
TWICE = "The estimator is unbiased for every sample size we tried"


def three_sentence_run(tmp_path: Path, tex: str) -> Path:
    """A run of a three-sentence paper: s-1 and s-3 results resting on s-2, a method."""
    run = start_paper(tmp_path / "three", tex, RUBRIC)
    records = [
        {"node": "s-2", "type": "method", "form": {"kind": "procedure"}},
        {"node": "s-1", "type": "result", "rests_on": ["s-2"]},
        {"node": "s-3", "type": "result", "rests_on": ["s-2"]},
    ]
    assert call(run, "classify", records=records)["refused"] == []
    return run


def test_a_short_chunk_is_quoted_whole_and_the_too_short_fix_gives_that_text(tmp_path: Path) -> None:
    """A chunk of three words has no longer passage (issue 37: the fix said "quote a longer passage"): its whole
    text is its passage, and the fix of a shorter one quotes it, to be sent as it is."""
    run = three_sentence_run(tmp_path, SHORT)
    later = "so its gain is unity everywhere"
    [refused] = call(run, "run_checks", proposals=[judged("s-1", "s-3", {"s-1": "unity", "s-3": later}, True)])[
        "refused"
    ]
    assert refused["code"] == "proposal-invalid"
    quoted = json.loads(refused["fix"].split("its whole text: ", 1)[1])
    assert quoted == "The gain is unity."
    result = call(run, "run_checks", proposals=[judged("s-1", "s-3", {"s-1": quoted, "s-3": later}, True)])
    assert result["refused"] == [] and [check["result"] for check in result["checks"]] == ["passed"]


def test_a_passage_compared_with_the_same_words_is_refused(tmp_path: Path) -> None:
    """A passage and an identical copy of it agree whatever they say (issue 37: accepted as holds)."""
    words = TWICE
    tex = f"\\documentclass{{article}}\n\\begin{{document}}\n{words}.\nWe simulated ten thousand samples.\n"
    run = three_sentence_run(tmp_path, tex + f"As noted, {words}.\n\\end{{document}}\n")
    same = judged("s-1", "s-3", {"s-1": words, "s-3": words.upper()}, True)
    [refused] = call(run, "run_checks", proposals=[same])["refused"]
    assert refused["code"] == "passages-identical"
    assert "'s-1' and 's-3'" in refused["message"] and "differ" in refused["fix"]
    other = judged("s-1", "s-3", {"s-1": words, "s-3": f"As noted, {words}"}, True)
    assert call(run, "run_checks", proposals=[other])["refused"] == []


STEPS_PAPER = r"""\documentclass{article}
\begin{document}
\section{Method}
We integrate the orbit with 128 steps per period, as shown in Figure 2.
\begin{figure}
\caption{The orbit, integrated with 256 steps per period.}
\end{figure}
\end{document}
"""


def test_a_judgement_of_two_numbers_carries_the_computation_to_send_instead_which_runs(tmp_path: Path) -> None:
    """Computation before opinion: the judgement is recorded, and its result names the recompute-numbers
    proposal that states the same comparison; sent as it is, that proposal is accepted and fails."""
    paper = tmp_path / "paper" / "paper.tex"
    paper.parent.mkdir()
    paper.write_text(STEPS_PAPER, encoding="utf-8")
    run = tmp_path / "run"
    call(run, "start_run", paper=str(paper), rubric=str(RUBRIC), store_source=True)
    records = [
        {"node": "s-1", "type": "method", "form": {"kind": "simulation"}},
        {"node": "s-2", "type": "method", "form": {"kind": "simulation"}},
    ]
    assert call(run, "classify", records=records)["refused"] == []
    text = "We integrate the orbit with 128 steps per period, as shown in Figure 2."
    caption = "The orbit, integrated with 256 steps per period."
    proposal = {
        "type": "internal-consistency",
        "target": "s-2",
        "with": ["s-1"],
        "passages": [{"node": "s-2", "text": caption}, {"node": "s-1", "text": text}],
        "consistent": False,
        "note": "the caption's step count is twice the text's",
    }
    result = call(run, "run_checks", proposals=[proposal])
    [check] = result["checks"]
    assert check["result"] == "failed"
    [notice] = check["notices"]
    assert notice["type"] == "computable" and "s-2: 256; s-1: 128" in notice["message"]  # not Figure 2's 2
    computed = call(run, "run_checks", proposals=[notice["proposal"]])
    assert computed["refused"] == [], computed
    [recomputed] = computed["checks"]
    assert (recomputed["type"], recomputed["result"]) == ("recompute-numbers", "failed")
    assert call(run, "finish_run")["finished"] is True
    assert_run_verifies(run)


def test_a_judgement_of_words_alone_carries_no_computation(tmp_path: Path) -> None:
    run = started(tmp_path)
    result = call(run, "run_checks", proposals=[judged("s-1", "s-3", {"s-1": SUMMARY, "s-3": LATER})])
    assert "notices" not in result["checks"][0]


def test_a_passage_with_several_numbers_gets_the_advice_without_a_proposal_that_could_compare_the_wrong_ones() -> None:
    """Picking the first number of each passage could set 3 seeds against 256 steps: a false failure, sent as
    it is. With more than one number on a side the notice says what to send and offers no ready proposal."""
    from cgx_checks.internal_consistency import computable_notice

    passages = [
        {"node": "s-1", "text": "We ran 3 seeds of 128 steps per period."},
        {"node": "s-2", "text": "The orbit, integrated with 256 steps per period."},
    ]
    notice = computable_notice("s-1", passages)
    assert notice is not None and "proposal" not in notice
    assert "s-1: 3, 128; s-2: 256" in notice["message"] and "premise" in notice["message"]
    one_each = computable_notice("s-1", [{"node": "s-1", "text": "We ran 128 steps per period."}, passages[1]])
    assert one_each is not None and one_each["proposal"]["expression"] == "256"
    assert one_each["proposal"]["result"] == "128"
    other_units = [{"node": "s-1", "text": "It took 12 s."}, {"node": "s-2", "text": "It took 12 m."}]
    in_other_units = computable_notice("s-1", other_units)
    assert in_other_units is not None and "proposal" not in in_other_units


WITHIN_PAPER = r"""\documentclass{article}
\begin{document}
\section{Method}
We let the system run for 10 000 time steps.
Some solutions did not reach a cycle within 10 000 steps.
\end{document}
"""


def test_the_proposal_keeps_the_relation_the_target_writes_and_runs_as_it_is(tmp_path: Path) -> None:
    """Found on hastings-powell-replication: "within 10 000 steps" is <= 10000, and a proposal without the
    relation was refused (the cited chunks write 10000 both as = and as <=). Sent as it is, it now runs."""
    paper = tmp_path / "paper" / "paper.tex"
    paper.parent.mkdir()
    paper.write_text(WITHIN_PAPER, encoding="utf-8")
    run = tmp_path / "run"
    call(run, "start_run", paper=str(paper), rubric=str(RUBRIC), store_source=True)
    records = [
        {"node": "s-1", "type": "method", "form": {"kind": "simulation"}},
        {"node": "s-2", "type": "result", "rests_on": ["s-1"]},
    ]
    assert call(run, "classify", records=records)["refused"] == []
    judged = {
        "type": "internal-consistency",
        "target": "s-2",
        "with": ["s-1"],
        "passages": [
            {"node": "s-2", "text": "did not reach a cycle within 10 000 steps"},
            {"node": "s-1", "text": "run for 10 000 time steps"},
        ],
        "consistent": True,
    }
    [check] = call(run, "run_checks", proposals=[judged])["checks"]
    proposal = check["notices"][0]["proposal"]
    assert (proposal["expression"], proposal["result"], proposal["relation"]) == ("10000", "10000", "<=")
    computed = call(run, "run_checks", proposals=[proposal])
    assert computed["refused"] == [] and [item["result"] for item in computed["checks"]] == ["passed"]
