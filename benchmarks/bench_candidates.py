"""Figure sc1: the candidate scan's precision and recall (issue 42), per annotated paper and overall.

Precision is the share of listed candidates that are checkable statements of the paper, checked by the
annotation's verdict when the candidate's proposal is sent; recall the share of the annotated statements the
list finds (the annotation's expected ones and those it records as missed). The annotated papers and their
annotation are in tests/candidate_annotations.py (ANNOTATED): the statistics paper, a results section
written for the purpose (tests/checks/arithmetic/annotated_papers/) and the real papers of tests/papers (none
a psychology paper: what they write of the scan's kinds is a few counts). A refused proposal is a wrong
candidate. Run alone with `uv run python benchmarks/bench_candidates.py`.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from synthetic import MODEL, ROOT

sys.path.insert(0, str(ROOT / "tests"))

RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    from cgx_core.tooling.registry import TOOLS, call_tool

    model = {"model": MODEL} if TOOLS[tool].changes_run else {}
    payload, is_error = call_tool(tool, {**model, **arguments})
    if is_error:
        raise RuntimeError(f"{tool}: {payload}")
    return payload


def scanned(paper: Path, run: Path, root: Path | None = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The candidates of a paper, and what run_checks made of each proposal (a check or a refusal)."""
    rooted = {} if root is None else {"root": str(root)}
    call("start_run", run=str(run), paper=str(paper), rubric=str(RUBRIC), **rooted)
    found: list[dict[str, Any]] = []
    start: int | None = 0
    while start is not None:
        page = call("get_state", run=str(run), summary="candidates", start=start, limit=200)["summary"]
        found += page["items"]
        start = page["next"]
    targets = sorted({item["node"] for item in found})
    if targets:
        records = [{"node": node, "type": "method", "form": {"kind": "procedure"}} for node in targets]
        call("classify", run=str(run), records=records)
    outcomes: list[dict[str, Any]] = []
    for first in range(0, len(found), 20):
        batch = [item["proposal"] for item in found[first : first + 20]]
        result = call("run_checks", run=str(run), proposals=batch)
        refused = {item.get("index"): item for item in result.get("refused", [])}
        checks = iter(result.get("checks", []))
        outcomes += [refused[index] if index in refused else next(checks) for index in range(len(batch))]
    return found, outcomes


def annotated(workspace: Path) -> list[str]:
    from candidate_annotations import ANNOTATED

    lines = []
    totals = [0, 0, 0, 0]  # right, listed, found, statements
    for name, annotation in ANNOTATED.items():
        found, outcomes = scanned(annotation.paper, workspace / name, annotation.root)
        keys = [(item["proposal"]["expression"], item["proposal"]["result"]) for item in found]
        right = sum(
            1
            for key, outcome in zip(keys, outcomes, strict=True)
            if annotation.expected.get(key) == outcome.get("result")
        )
        recalled = sum(1 for key in annotation.expected if key in set(keys))
        statements = len(annotation.expected) + len(annotation.missed)
        for index, value in enumerate((right, len(found), recalled, statements)):
            totals[index] += value
        lines.append(f"sc1 {name}: " + _rates(right, len(found), recalled, statements))
    lines.append("sc1 overall: " + _rates(*totals))
    return lines


def _rates(right: int, listed: int, recalled: int, statements: int) -> str:
    def share(part: int, whole: int) -> str:
        return f"{part}/{whole} = {part / whole:.2f}" if whole else "0/0 (none)"

    return f"precision {share(right, listed)} (the verdict the annotation gives), recall {share(recalled, statements)}"


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        for line in annotated(workspace):
            print(line)


if __name__ == "__main__":
    main()
