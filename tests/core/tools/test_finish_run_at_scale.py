"""finish_run on a 3,000-sentence generated paper, built through the tool layer as an agent builds it: every
assessed node gets its credence.

The paper describes one procedure and then 2,999 results resting on it. Each result sends that method a
message of inference; multiplied together outside log space they were about 0.5^2999, zero in floating
point, and every credence of the run went missing as "the evidence has probability zero" (issue 43).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from cgx_core.tooling.registry import call_tool
from support import EXAMPLE_RUBRIC, call

SENTENCES = 3000
PER_PARAGRAPH = 9
CHECKED = 20
WRONG = (3, 11)
"""The checked results (by position among the checked) whose paper states a product off by one."""


def write_paper(folder: Path) -> tuple[Path, list[tuple[int, int, int]]]:
    """One method sentence, then results writing their own arithmetic ("A batches of B samples, C in all"),
    seeded; returns the main file and each result's (A, B, C as written)."""
    rng = random.Random(43)
    results = []
    texts = ["We ran every trial with the same fixed procedure on 12 machines."]
    for number in range(1, SENTENCES):
        a, b = rng.randrange(2, 999), rng.randrange(2, 999)
        written = a * b + (1 if number - 1 in WRONG else 0)
        results.append((a, b, written))
        texts.append(f"Trial {number} used {a} batches of {b} samples, {written} samples in all.")
    paragraphs = [" ".join(texts[start : start + PER_PARAGRAPH]) for start in range(0, SENTENCES, PER_PARAGRAPH)]
    main = folder / "paper.tex"
    main.write_text(
        "\\documentclass{article}\n\\begin{document}\n" + "\n\n".join(paragraphs) + "\n\\end{document}\n",
        encoding="utf-8",
    )
    return main, results


def test_every_assessed_node_of_a_3000_sentence_run_has_its_credence(tmp_path: Path) -> None:
    paper, results = write_paper(tmp_path)
    run = tmp_path / "run"
    started, is_error = call_tool(
        "start_run", {"run": str(run), "paper": str(paper), "rubric": str(EXAMPLE_RUBRIC), "model": "m"}
    )
    assert not is_error, started
    assert started["counts"]["nodes"] == SENTENCES
    ids = [f"s-{index:04d}" for index in range(1, SENTENCES + 1)]  # ids are zero-padded to the count's width
    assert started["nodes"][0]["id"] == ids[0]
    method, result_ids = ids[0], ids[1:]
    records = [{"node": method, "type": "method", "form": {"kind": "procedure"}}] + [
        {"node": node, "type": "result", "form": {"value": written}, "rests_on": [method]}
        for node, (_, _, written) in zip(result_ids, results, strict=True)
    ]
    for start in range(0, len(records), 500):
        classified = call(run, "classify", records=records[start : start + 500])
        assert not classified["refused"], classified["refused"][:2]
    proposals = [
        {"type": "recompute-numbers", "target": node, "expression": f"{a} * {b}", "result": str(written)}
        for node, (a, b, written) in list(zip(result_ids, results, strict=True))[:CHECKED]
    ]
    checked = call(run, "run_checks", proposals=proposals)
    assert not checked["refused"], checked["refused"][:2]
    finished = call(run, "finish_run")
    assert finished.get("finished") is True, finished
    assert finished["credences"] == {"exact": SENTENCES - 1, "missing": 0}
    credences = json.loads((run / "report.json").read_text(encoding="utf-8"))["credences"]
    assert set(credences["nodes"]) == set(result_ids) and credences["missing"] == {}
    entries = credences["nodes"]
    wrong = {result_ids[index] for index in WRONG}
    for node in result_ids[:CHECKED]:  # a failed check lowers its result's credence, a passed one raises it
        assert (entries[node]["after"] < entries[node]["before"]) is (node in wrong), (node, entries[node])
    # An unchecked result moves only through the method the checks shared with it: a little, not to 0 or 1.
    assert 0.05 < entries[result_ids[-1]]["after"] < 0.95
