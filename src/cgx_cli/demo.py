"""`credencegraph-extract demo [DIR]`: the bundled example, rebuilt through the same tool layer an agent uses.

It starts a fresh run on the example paper and sends it every call the example's agent made (read from the
committed run's log), finishes it, replays and verifies it, and prints what a person wants to know (the
text of `credencegraph-extract report`): each assessed node with its credence before and after the
observations, the failed checks and why, and what awaits a person's review. The example lives in
`examples/end-to-end/` of a checkout and is shipped inside the wheel as `cgx_cli/example/`.
"""

from __future__ import annotations

import json
import shlex
import tempfile
from pathlib import Path
from typing import Any

from cgx_cli.errors import print_error
from cgx_cli.exit_codes import ExitCode
from cgx_cli.result_stream import results
from cgx_core.errors import CgxError
from cgx_core.report.integrity import Integrity, replay_audit, verify_audit
from cgx_core.tooling.registry import call_tool


def example_root() -> Path:
    """The example's folder: shipped in the wheel, or in the checkout this package runs from."""
    shipped = Path(__file__).with_name("example")
    if shipped.is_dir():
        return shipped
    return Path(__file__).resolve().parents[2] / "examples" / "end-to-end"


def _call(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    payload, is_error = call_tool(tool, arguments)
    if is_error:
        raise CgxError(str(payload["error"]["code"]), f"{tool}: {payload['error']['message']}")
    return payload


def rebuild(example: Path, run: Path) -> int:
    """Send the example's recorded calls to a fresh run; returns how many calls were made."""
    lines = [json.loads(line) for line in (example / "run" / "calls.jsonl").read_bytes().splitlines()]
    first = lines[0]
    _call(
        "start_run",
        {
            "run": str(run),
            "paper": str(example / "paper" / "paper.tex"),
            "rubric": str(example / "rubric.toml"),
            "cited": str(example / "paper" / "cited"),
            "store_source": first["args"]["store_source"],
            "model": first["model"],
        },
    )
    for line in lines[1:]:
        caller = {name: line[name] for name in ("model", "agent", "note") if line[name] is not None}
        _call(line["tool"], {"run": str(run), **line["args"], **caller})
    return len(lines)


def summary(run: Path, calls: int, integrity: Integrity) -> str:
    """What the finished run says, for a person: the report's text, after how the example was rebuilt."""
    from cgx_core.report.model import build_report
    from cgx_core.report.text import text_report

    report = build_report(run, integrity)
    where = report.identity.directory
    return (
        f"Rebuilt the example in {where}: {calls} calls sent through the tools.\n"
        + text_report(report)
        + f"\n\nRead it as a page: {shlex.join(['credencegraph-extract', 'report', where, '--html', where + '.html'])}"
    )


def demo(directory: str | None) -> int:
    """Rebuild, finish, replay and verify the example in DIR (a new temporary directory by default)."""
    from cgx_core.audit.replay import replay
    from cgx_core.audit.verify import verify_run

    parent = Path(directory) if directory else Path(tempfile.mkdtemp(prefix="cgx-demo-"))
    run = parent / "run"
    calls = rebuild(example_root(), run)
    replayed = replay(run, source=None, sources=None)
    verdict = verify_run(run)
    if verdict.error is not None:
        print_error(verdict.error["code"], verdict.error["message"])
        return ExitCode.ERROR
    integrity = Integrity(replay_audit(replayed), verify_audit(verdict))
    text = summary(run, calls, integrity)
    results().write(text + "\n")
    return ExitCode.OK if replayed.identical and not verdict.differences else ExitCode.DIFFERENCE
