"""A plugin's refusal is never turned into `plugin-failed` for its length (issue 37): the engine cuts a message
or a fix longer than the line limit, ends it with how long it was, and keeps its code.

Every built-in check type is run through the one guard with each code it may refuse with, its message and fix
far past the limit (a refusal at its longest: no built-in's words can be longer than these); and the case the
issue met (recompute-numbers listing the numerals of twenty cited chunks: a 4,939-character message) is made
for real through run_checks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cgx_core.checks.api import Refusal
from cgx_core.checks.guard import CORE_CODES, OWN_DISTRIBUTION
from cgx_core.checks.installed import installed_check_types
from cgx_core.checks.plugin_values import MAX_LINE_CHARS
from cgx_core.codes import Code
from cgx_core.testing import StartedRun

LONGEST = 100_000
"""Far past anything a built-in writes: a refusal at this length must come back as itself, shortened."""


PASSED_ON = (
    Code.UNKNOWN_NODE,
    Code.PROPOSAL_INVALID,
    Code.CHECK_TARGET_TYPE,
    Code.CHECK_DUPLICATE,
    Code.CHECK_SAME_OBSERVATION,
    Code.EXPRESSION_INVALID,
    Code.EXPONENT_TOO_LARGE,
    Code.EXPRESSION_TOO_LARGE,
)


def _built_in_codes() -> list[tuple[str, str]]:
    """(check type, code) for every built-in type and every refusal code it may give: its own, and the core's
    codes a proposal is refused with, which it may pass on."""
    proposal_codes = {str(code) for code in PASSED_ON} & CORE_CODES
    found = []
    for installed in installed_check_types():
        if installed.distribution != OWN_DISTRIBUTION:
            continue
        for code in sorted(set(installed.check_type.codes) | proposal_codes):
            found.append((installed.check_type.name, code))
    return found


@pytest.mark.parametrize(("name", "code"), _built_in_codes())
def test_every_built_in_refusal_at_its_longest_keeps_its_code(
    name: str, code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    guarded = installed_check_types().get(name)
    assert guarded is not None
    check_type = guarded.check_type
    message, fix = "m" * LONGEST, "f" * LONGEST
    monkeypatch.setattr(check_type.plugin, "prepare", lambda proposal, run: Refusal(code, message, fix))
    refusal = check_type.prepare({"type": name, "target": "s-1"}, _NoRun())
    assert isinstance(refusal, Refusal)
    assert (refusal.code, len(refusal.message), len(refusal.fix)) == (code, MAX_LINE_CHARS, MAX_LINE_CHARS)
    said = f"[... shortened by the engine from {LONGEST} characters to {MAX_LINE_CHARS}]"
    assert refusal.message.startswith("mmm") and refusal.message.endswith(said)
    assert refusal.fix.startswith("fff") and refusal.fix.endswith(said)


def test_a_refusal_within_the_limit_is_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    check_type = installed_check_types().get("recompute-numbers").check_type  # type: ignore[union-attr]
    given = Refusal("operand-not-in-text", "x" * MAX_LINE_CHARS, "y")
    monkeypatch.setattr(check_type.plugin, "prepare", lambda proposal, run: given)
    assert check_type.prepare({"type": "recompute-numbers", "target": "s-1"}, _NoRun()) == given


class _NoRun:
    """A run view no patched `prepare` reads."""

    mode = "live"


# -- the refusal the issue met, made for real ----------------------------------------------------------------

NUMBERS_PAPER = "\n".join(
    [
        r"\documentclass{article}",
        r"\begin{document}",
        *(
            f"Run {row} gave "
            + ", ".join(f"{row}.{column:02d}{row % 7}" for column in range(40))
            + f" and {row}.99 across the cases."
            for row in range(1, 21)
        ),
        r"The total is 12345.6789 in our table.",
        r"\end{document}",
        "",
    ]
)


def test_recompute_numbers_listing_twenty_chunks_of_numerals_is_refused_with_its_own_code(
    cgx_run: Any, tmp_path: Path
) -> None:
    paper = tmp_path / "numbers" / "paper.tex"
    paper.parent.mkdir()
    paper.write_text(NUMBERS_PAPER, encoding="utf-8")
    run: StartedRun = cgx_run(paper=paper, rubric_extra=RECOMPUTE)
    chunks = [node["id"] for node in run.call("get_state", limit=50)["nodes"] if node["unit"] == "sentence"]
    target = chunks[-1]
    records = [{"node": node, "type": "method", "form": {"kind": "procedure"}} for node in chunks[:-1]]
    records.append({"node": target, "type": "result", "rests_on": chunks[:20]})
    assert run.call("classify", records=records)["refused"] == []
    proposal = {
        "type": "recompute-numbers",
        "target": target,
        "cites": chunks[:20],
        "expression": "777.777 + 1",
        "result": "12345.6789",
    }
    [refusal] = run.call("run_checks", proposals=[proposal])["refused"]
    assert refusal["code"] == "operand-not-in-text", refusal
    assert len(refusal["message"]) <= MAX_LINE_CHARS and len(refusal["fix"]) <= MAX_LINE_CHARS
    assert "777.777" in refusal["message"]  # the real refusal, its first words kept


RECOMPUTE = """
[checks.recompute-numbers]
targets = ["result"]
sensitivity = "beta:19,1"
false_pass = "beta:1,9"
models = []
"""
