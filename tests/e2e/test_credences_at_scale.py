"""A summary claim resting on 50 results ("taken together, the trials show ..."), through the tools an agent
calls: finish_run succeeds (credencegraph alone would build a 2^51 table), every assessed node gets an exact
credence, the run replays byte for byte, and every report format explains the failed nodes' credences."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cgx_core.audit.replay import replay
from cgx_core.tooling.registry import call_tool
from support import EXAMPLE_RUBRIC

RESULTS = 50
WRONG_EVERY = 10  # one result in ten writes its product off by one, so its check fails


def _written(index: int) -> int:
    return (101 + index) * 7 + (1 if index % WRONG_EVERY == 3 else 0)


def _paper(folder: Path) -> Path:
    lines = [r"\documentclass{article}", r"\begin{document}", "We ran every trial with one fixed procedure."]
    for index in range(RESULTS):
        a, b = 101 + index, 7
        lines.append(f"Trial {index + 1} used {a} batches of {b} samples, {_written(index)} samples in all.")
    lines += ["Taken together, the trials show that the procedure scales.", r"\end{document}"]
    main = folder / "paper.tex"
    main.write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    return main


def _ok(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    payload, is_error = call_tool(name, arguments)
    assert not is_error and not payload.get("refused"), payload
    return payload


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fan-in")
    run = folder / "run"
    main = _paper(folder)
    model = {"model": "test-model"}
    _ok(
        "start_run", {"run": str(run), "paper": str(main), "rubric": str(EXAMPLE_RUBRIC), "store_source": True, **model}
    )
    page = _ok("get_state", {"run": str(run), "unit": "sentence", "limit": 500})
    ids = [node["id"] for node in page["nodes"]]
    assert len(ids) == RESULTS + 2
    method, results, claim = ids[0], ids[1:-1], ids[-1]
    records: list[dict[str, Any]] = [{"node": method, "type": "method", "form": {"kind": "procedure"}}]
    records += [{"node": node, "type": "result", "rests_on": [method]} for node in results]
    records.append({"node": claim, "type": "claim", "form": {"shape": "universal"}, "rests_on": results})
    _ok("classify", {"run": str(run), "records": records, **model})
    proposals = [
        {
            "type": "recompute-numbers",
            "target": node,
            "cites": [node],
            "expression": f"{101 + index} * 7",
            "result": str(_written(index)),
        }
        for index, node in enumerate(results)
    ]
    for start in range(0, len(proposals), 20):  # run_checks takes at most 20 proposals a call
        _ok("run_checks", {"run": str(run), "proposals": proposals[start : start + 20], **model})
    finished = _ok("finish_run", {"run": str(run), **model})
    assert finished["credences"] == {"exact": RESULTS + 1, "missing": 0}
    return run


def test_every_assessed_node_of_a_fifty_result_claim_is_credenced_exactly(finished: Path) -> None:
    summary = json.loads((finished / "report.json").read_bytes())
    credences = summary["credences"]
    assert credences["missing"] == {}
    assert {entry["method"] for entry in credences["nodes"].values()} == {"exact"}
    failing = [node for node, entry in credences["nodes"].items() if "own_checks" in entry]
    assert len(failing) == RESULTS // WRONG_EVERY
    for node in failing:
        entry = credences["nodes"][node]
        assert entry["after"] < entry["before"]
        assert entry["moved_by"][0]["by"] < 0  # its own failed check moved it most, downward
    claim = credences["nodes"][list(credences["nodes"])[-1]]
    assert claim["after"] > claim["before"]  # 45 of its 50 premises passed their checks...
    failed_checks = {mover["check"] for node in failing for mover in credences["nodes"][node]["moved_by"][:1]}
    # ... and what held it down most is the five that failed.
    assert claim["moved_by"] and all(mover["by"] < 0 for mover in claim["moved_by"])
    assert {mover["check"] for mover in claim["moved_by"]} <= failed_checks


def test_the_finished_run_replays_byte_for_byte(finished: Path) -> None:
    assert replay(finished, source=None, sources=None).identical


def test_every_report_format_explains_each_failed_nodes_credence(finished: Path, tmp_path: Path) -> None:
    from cgx_cli.main import main
    from cgx_core.report.markdown import text_plain

    page, text = tmp_path / "report.html", tmp_path / "report.md"
    assert main(["report", str(finished), "--html", str(page), "--markdown", str(text), "--no-verify"]) == 0
    summary = json.loads((finished / "report.json").read_bytes())
    failing = [node for node, entry in summary["credences"]["nodes"].items() if "own_checks" in entry]
    html, markdown = page.read_text(encoding="utf-8"), text.read_text(encoding="utf-8")
    for node in failing:
        own = f"Given its own checks alone: {summary['credences']['nodes'][node]['own_checks']:.3f}"
        assert own in html and text_plain(own) in markdown
