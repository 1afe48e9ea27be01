"""An agent's session on a shared paper, end to end, through a real MCP client over stdio and through `batch`
(issue 37): the dead time and dead ends agents met are each asserted absent along the way.

The agent starts a run without storing the paper, loses start_run's result and gets it back, pages the nodes
by fixed offsets and from `next`, classifies every chunk, reads a check type's limits, has a proposal refused
and follows its fix, enters a person's review, finishes, has a call refused on the finished run (which stays
finished), then replays, reports and verifies the run from the command line. No result passes 20,000
characters, no refusal is `plugin-failed`, replay and report say first what to pass, the report's commands
name the run by its path, and verify names the check it did not re-run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from cgx_core.tooling.output import result_text
from cgx_core.tooling.paging import MAX_RESULT_CHARS
from support import PAPERS, ROOT

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
PAPER = PAPERS / "mlrc-warmstart-repro" / "2020" / "mohtashami2021reproducibility" / "openreview" / "main.tex"
RUBRIC = ROOT / "examples" / "rubrics" / "paper.toml"
METHOD = "We choose the learning rate from"
RESULT = "We use $0.001$ learning rate and batches of size $128$."


class Session:
    """The agent's side: every call through one callable, each result checked against the issue's cases."""

    def __init__(self, send: Any) -> None:
        self.send = send
        self.results: list[dict[str, Any]] = []

    async def __call__(self, tool: str, **arguments: Any) -> dict[str, Any]:
        result = await self.send(tool, arguments)
        assert len(result_text(result)) <= MAX_RESULT_CHARS, (tool, len(result_text(result)))
        codes = [entry["code"] for entry in result.get("refused", [])]
        assert "plugin-failed" not in codes, result
        self.results.append(result)
        return result


def mcp_sender(client: Client) -> Any:
    async def send(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        called = await client.call_tool(tool, arguments)
        structured = called.structured_content
        assert structured is not None
        # What a harness shows: the structured content or the text, the same compact JSON (docs/tools.md).
        assert called.content[0].text == result_text(structured)
        return dict(structured)

    return send


def texts_of(nodes: list[dict[str, Any]], fence: str) -> dict[str, str]:
    """Each node's text without its data fence."""
    opening, closing = f"<data-{fence}>", f"</data-{fence}>"
    return {node["id"]: node["text"].removeprefix(opening).removesuffix(closing) for node in nodes if "text" in node}


async def drive(call: Session, run: Path) -> dict[str, str]:
    """The session through `call`; returns each chunk's text."""
    started = await call("start_run", run=str(run), paper=str(PAPER), rubric=str(RUBRIC), model="agent-m")
    assert "error" not in started, started
    assert "--source main.tex" in started["replay"]  # the run keeps only the paper's digest: said at once
    # The client lost that result: get_state gives it back, every part of it.
    again = await call("get_state", run=str(run), summary="all")
    assert again["start_run"] == started
    references = await call("get_state", run=str(run), summary="bibliography.files", limit=1)
    assert references["summary"]["total"] == started["bibliography"]["files"]["total"]
    # Fixed offsets skip no node; `next` gives every text whole.
    total, seen, start = started["total"], [], 0
    while start < total:
        page = await call("get_state", run=str(run), start=start, limit=50)
        assert len(page["nodes"]) == min(50, total - start)  # every node of the page, whole or without its text
        seen += [node["id"] for node in page["nodes"]]
        start += 50
    whole: list[dict[str, Any]] = []
    following: int | None = 0
    while following is not None:
        page = await call("get_state", run=str(run), start=following)
        whole += [node for node in page["nodes"] if "text" in node]
        following = page["next"]
    assert [node["id"] for node in whole] == seen and len(seen) == total
    texts = texts_of(whole, started["fence"]["token"])
    # Classify: the method and the result the checks are about, and everything else as context.
    method = next(node for node, text in texts.items() if text.startswith(METHOD))
    result = next(node for node, text in texts.items() if text == RESULT)
    untyped = (await call("get_state", run=str(run), type="unassigned", limit=500))["nodes"]
    records = [{"node": node["id"], "type": "context"} for node in untyped if node["id"] not in (method, result)]
    records += [
        {"node": method, "type": "method", "form": {"kind": "procedure"}},
        {"node": result, "type": "result", "rests_on": [method]},
    ]
    classified = await call("classify", run=str(run), records=records, model="agent-m")
    assert classified["refused"] == [], classified["refused"][:3]
    # The limits are where the agent reads before proposing.
    described = await call("get_state", run=str(run), describe="internal-consistency")
    assert "result" in described["check_type"]["limits"]["targets"]
    # A proposal refused, and its fix followed.
    passages = [{"node": result, "text": "0.001"}, {"node": method, "text": texts[method][:60]}]
    proposal = {"type": "internal-consistency", "target": result, "with": [method], "consistent": True}
    refused = await call("run_checks", run=str(run), proposals=[{**proposal, "passages": passages}], model="agent-m")
    [refusal] = refused["refused"]
    whole_text = json.loads(refusal["fix"].split("its whole text: ", 1)[1])
    passages[0] = {"node": result, "text": whole_text}
    checked = await call("run_checks", run=str(run), proposals=[{**proposal, "passages": passages}], model="agent-m")
    assert checked["refused"] == [] and [check["result"] for check in checked["checks"]] == ["passed"]
    review = {"node": result, "verdict": "holds", "reviewer": "Ada", "reason": "the code uses these values"}
    assert (await call("review", run=str(run), model="agent-m", **review))["checks"]
    assert (await call("finish_run", run=str(run), model="agent-m"))["finished"] is True
    # A call whose proposals are all refused leaves the finished run finished.
    again_refused = await call(
        "run_checks", run=str(run), proposals=[{**proposal, "passages": passages}], model="agent-m"
    )
    assert [entry["code"] for entry in again_refused["refused"]] == ["check-duplicate"]
    state = await call("get_state", run=str(run), limit=1)
    assert state["progress"]["finished"] is True and (run / "graph.json").is_file()
    return texts


def command(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *argv], capture_output=True, text=True, check=False, cwd=cwd)


def test_an_agent_drives_a_shared_paper_through_mcp_without_dead_time_or_dead_ends(tmp_path: Path) -> None:
    run = tmp_path / "runs" / "paper"

    async def main() -> None:
        async with Client(StdioServerParameters(command=CLI, args=["mcp"])) as client:
            await drive(Session(mcp_sender(client)), run)

    anyio.run(main)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env_cache = {"CGX_AUDIT_CACHE": str(tmp_path / "cache")}
    replayed = command("replay", str(run), cwd=elsewhere)
    assert replayed.returncode == 2
    assert replayed.stderr.startswith("error [source-needed]: pass --source with the paper main.tex (sha256:")
    assert command("replay", str(run), "--source", str(PAPER), cwd=elsewhere).returncode == 0
    page = tmp_path / "report.html"
    reported = subprocess.run(
        [CLI, "report", str(run), "--html", str(page)],
        capture_output=True,
        text=True,
        check=False,
        cwd=elsewhere,
        env={**os.environ, **env_cache},
    )
    assert reported.returncode == 1  # replay could not run: said, not hidden, and the page is written
    assert "warning: replay: error [source-needed]: pass --source with the paper main.tex" in reported.stderr
    assert f"To replay it: credencegraph-extract replay {run} --source PATH/TO/main.tex" in reported.stdout
    assert "pass --source with the paper main.tex" in page.read_text(encoding="utf-8")
    verified = command("verify", str(run), cwd=elsewhere)
    assert verified.returncode == 0, verified.stderr
    assert f"{run}: not re-run: c-002 human-review: a person's verdict" in verified.stdout
    assert "verified 1 of 1 runs: 1 of 2 checks re-run, 0 differences" in verified.stdout


def test_the_same_session_through_batch(tmp_path: Path) -> None:
    run = tmp_path / "runs" / "paper"
    server = subprocess.Popen(
        [CLI, "batch", "--run", str(run)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert server.stdin is not None and server.stdout is not None

    async def send(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        server.stdin.write(json.dumps({"tool": tool, "args": {**arguments, "run": str(run)}}) + "\n")  # type: ignore[union-attr]
        server.stdin.flush()  # type: ignore[union-attr]
        answer: dict[str, Any] = json.loads(server.stdout.readline())  # type: ignore[union-attr]
        return answer

    try:
        anyio.run(drive, Session(send), run)
    finally:
        server.stdin.close()
        server.wait(timeout=120)
    assert server.returncode == 0
