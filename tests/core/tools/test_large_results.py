"""Every result fits 20,000 characters on a 400-chunk paper: a classify or add_premises call of 400 records
comes back cut (refusals first), saying which records it left out, and every record was applied or
refused all the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema

from cgx_core.tooling.paging import MAX_RESULT_CHARS, size
from cgx_core.tooling.registry import TOOLS, call_tool
from support import EXAMPLE_RUBRIC, call

CHUNKS = 400


def start_large(tmp_path: Path) -> tuple[Path, list[str]]:
    """A run on a paper of `CHUNKS` sentences, and their ids."""
    sentences = " ".join(
        f"Measurement number {index} of the campaign agreed with the others." for index in range(CHUNKS)
    )
    paper = tmp_path / "large.tex"
    paper.write_text(f"\\documentclass{{article}}\n\\begin{{document}}\n{sentences}\n\\end{{document}}\n")
    run = tmp_path / "run"
    started, is_error = call_tool(
        "start_run", {"run": str(run), "paper": str(paper), "rubric": str(EXAMPLE_RUBRIC), "model": "m"}
    )
    assert not is_error, started
    assert size(started) <= MAX_RESULT_CHARS
    ids: list[str] = []
    start: int | None = 0
    while start is not None:
        page, _ = call_tool("get_state", {"run": str(run), "unit": "sentence", "start": start, "limit": 300})
        assert size(page) <= MAX_RESULT_CHARS
        ids.extend(node["id"] for node in page["nodes"] if "text_cut" not in node)  # cut: the next page has it
        start = page["next"]
    assert len(ids) == CHUNKS
    return run, ids


def positions(result: dict[str, Any], key: str) -> list[int]:
    """The record positions a list shows, and those `shortened` says it left out."""
    shown = [item["record"] for item in result[key]]
    return sorted(shown + result.get("shortened", {}).get(key, {}).get("records", []))


def test_classify_and_add_premises_of_400_records_fit_the_budget_and_name_what_they_leave_out(tmp_path: Path) -> None:
    run, ids = start_large(tmp_path)
    records = [
        {"node": node, "type": "literature_claim" if index % 2 else "no-such-type"} for index, node in enumerate(ids)
    ]
    result = call(run, "classify", records=records)
    assert "error" not in result, result
    assert size(result) <= MAX_RESULT_CHARS
    jsonschema.validate(result, TOOLS["classify"].result)
    assert set(result["shortened"]) == {"refused", "applied"}  # both lists were too long to show whole
    assert positions(result, "refused") == list(range(0, CHUNKS, 2))
    assert positions(result, "applied") == list(range(1, CHUNKS, 2))
    assert result["shortened"]["refused"]["total"] == CHUNKS // 2
    assert result["refused"] and all(item["fix"] for item in result["refused"])  # refusals are shown first
    state, _ = call_tool("get_state", {"run": str(run), "limit": 1})
    assert state["progress"]["typed"] == CHUNKS // 2 and state["progress"]["refusals"] == CHUNKS // 2

    premises = call(
        run, "add_premises", records=[{"conclusion": node, "premises": [{"statement": "It holds."}]} for node in ids]
    )
    assert "error" not in premises, premises
    assert size(premises) <= MAX_RESULT_CHARS
    jsonschema.validate(premises, TOOLS["add_premises"].result)
    assert positions(premises, "refused") == list(range(CHUNKS))


def test_a_result_that_fits_is_returned_whole_without_shortened(tmp_path: Path) -> None:
    run, ids = start_large(tmp_path)
    result = call(run, "classify", records=[{"node": ids[0], "type": "literature_claim"}])
    assert "shortened" not in result and len(result["applied"]) == 1
