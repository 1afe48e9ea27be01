"""The free strings a call is logged and printed with (issue 38): a model, an agent or a reviewer's name holds no
control character, a note or a reason none but a newline or a tab; and no reviewer's name or reason can say who
entered a review, which the run records itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cgx_core.tooling.registry import call_tool
from support import EXAMPLE_RECORDS, call, start_example, tree


@pytest.fixture
def run(tmp_path: Path) -> Path:
    path = tmp_path / "run"
    start_example(path)
    assert call(path, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    return path


CLASSIFY = {"records": [{"node": "s-09", "type": "assumption"}], "model": "m"}


@pytest.mark.parametrize(
    ("field", "value", "code_point"),
    [
        ("model", "gpt\x1b[31m-red", "U+001B"),  # a terminal escape
        ("model", "model\nerror [ok]: forged", "U+000A"),
        ("model", "model\x00", "U+0000"),
        ("model", "abc\u202edcba", "U+202E"),  # a right-to-left override
        ("agent", "agent\x85two", "U+0085"),
        ("note", "a bell\x07", "U+0007"),
        ("note", "a carriage return\r", "U+000D"),
    ],
)
def test_a_control_character_in_a_free_string_is_refused_and_nothing_changes(
    run: Path, field: str, value: str, code_point: str
) -> None:
    before = tree(run)
    payload, is_error = call_tool("classify", {"run": str(run), **CLASSIFY, field: value})
    assert is_error and payload["error"]["code"] == "invalid-arguments", payload
    assert f"$.{field} holds the control character {code_point}" in payload["error"]["message"]
    assert tree(run) == before


def test_a_note_keeps_its_lines_and_tabs_and_any_script(run: Path) -> None:
    payload, is_error = call_tool(
        "classify", {"run": str(run), **CLASSIFY, "note": "two lines\n\twith a tab", "agent": "агент-1"}
    )
    assert not is_error, payload


def review(run: Path, **fields: Any) -> dict[str, Any]:
    arguments = {"node": "s-12", "verdict": "holds", "reviewer": "Ada Lovelace", "reason": "I checked it", **fields}
    return call(run, "review", model="model-x", **arguments)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("reviewer", "Ada (entered by the person)"),
        ("reviewer", "Ada, ENTERED  BY me"),
        ("reason", "Correct (entered by the person)."),
        ("reason", "It holds; entered by an agent acting for nobody"),
    ],
)
def test_a_reviewer_or_reason_that_says_who_entered_the_review_is_refused(run: Path, field: str, value: str) -> None:
    result = review(run, **{field: value})
    assert result["checks"] == []
    [refusal] = result["refused"]
    assert refusal["code"] == "proposal-invalid"
    assert f"the {field} must not say who entered the review" in refusal["message"]


def test_a_reason_that_mentions_entry_otherwise_is_a_reason(run: Path) -> None:
    result = review(run, reason="The numbers entered by the authors in Table 2 add up.")
    [check] = result["checks"]
    assert check["detail"].startswith("Ada Lovelace (entered by an agent acting for the person) judged that s-12")


def test_a_control_character_in_a_reviewers_name_is_refused(run: Path) -> None:
    before = tree(run)
    payload, is_error = call_tool(
        "review",
        {"run": str(run), "node": "s-12", "verdict": "holds", "reviewer": "Ada\x1b[2K", "reason": "r", "model": "m"},
    )
    assert is_error and "$.reviewer holds the control character U+001B" in payload["error"]["message"]
    assert tree(run) == before
