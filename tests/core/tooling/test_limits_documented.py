"""Every limit a call meets is where an agent reads before calling (issue 37): in SKILL.md's short list, in
docs/tools.md, and in get_state `describe` (tests/core/tooling/test_describe_limits.py). SKILL.md stays within
its size; tools/list stays lean (tests/mcp/test_raw_stdio.py)."""

from __future__ import annotations

import re
import tomllib

from cgx_core.tooling.registry import TOOLS
from support import ROOT

SKILL = ROOT / "skills" / "credencegraph-extract" / "SKILL.md"
SKILL_BYTES = 25_088
"""SKILL.md's size when issue 37 began: what is added to it is cut elsewhere."""
SHIPPED = ROOT / "examples" / "rubrics" / "paper.toml"


def test_skill_md_stays_within_its_size() -> None:
    assert len(SKILL.read_bytes()) <= SKILL_BYTES


def test_skill_md_lists_every_limit() -> None:
    text = " ".join(SKILL.read_text(encoding="utf-8").split())
    records = TOOLS["classify"].arguments["properties"]["records"]["maxItems"]
    proposals = TOOLS["run_checks"].arguments["properties"]["proposals"]["maxItems"]
    for said in (
        f"at most {records} records or {proposals} proposals",
        "`cites` at most 20",
        "a second is `check-duplicate`",
        "**Split a chunk before checking it**",
        "text_cut",
        '`get_state {"summary": "all"}`',
        '"describe": "<check type or tool>"` gives one\'s full schema and limits',
        "`replay` and `report` need `--source PAPER`",
    ):
        assert said in text, said


def test_skill_md_says_which_types_each_check_type_targets_in_the_shipped_rubric() -> None:
    text = " ".join(SKILL.read_text(encoding="utf-8").split())
    listed = re.search(r"shipped `paper` rubric: (.*?)\)", text)
    assert listed is not None
    said = {part.split(" ", 1)[0]: part.split(" ", 1)[1].split(", ") for part in listed.group(1).split("; ")}
    checks = tomllib.loads(SHIPPED.read_text(encoding="utf-8"))["checks"]
    proposed = {
        name: spec["targets"] for name, spec in checks.items() if name not in ("rederive-maths-numeric", "human-review")
    }
    assert said == proposed


def test_docs_tools_md_lists_the_limits() -> None:
    text = " ".join((ROOT / "docs" / "tools.md").read_text(encoding="utf-8").split())
    assert "## Limits" in text and "`run_checks` proposals at most 20 items" in text
    assert "`recompute-numbers` cites at most 20 items" in text and "**What a harness shows.**" in text
