"""Long calls over MCP: the client hears progress while a call works, and a call it cancels stops, releases
the run's lock and commits nothing. Driven by the mcp SDK's own client, over stdio against the server as a
subprocess (the real thing) and in memory (for the parts that need the server's internals)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from cgx_core.audit.replay import replay
from cgx_core.run.lock import lock_holder
from cgx_mcp import server
from cgx_mcp.server import Notifier, Progress, build_server
from support import EXAMPLE_RECORDS, call, start_example, start_lock_holder, tree

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))
# A true step sympy's simplify takes minutes over (sympy issue 21787): each one keeps its check busy for its
# whole budget, so a call of four of them is still working when the first progress arrives.
HARD = "40*(x+5)^3*cos(10*(x+5)^4)"
TARGETS = ["s-07", "s-08", "s-09", "s-10"]


def slow_proposals() -> list[dict[str, Any]]:
    return [
        {
            "type": "rederive-maths",
            "target": target,
            "symbols": {"x": ["positive"]},
            "lhs": f"{HARD}*(atan(x) + atan(1/x))",
            "rhs": f"{20 + number}*pi*(x+5)^3*cos(10*(x+5)^4)",  # each its own observation
        }
        for number, target in enumerate(TARGETS)
    ]


QUICK = {"type": "recompute-numbers", "target": "s-12", "cites": ["s-12"], "expression": "12 * 300", "result": "3000"}


@pytest.fixture
def run(tmp_path: Path) -> Path:
    root = tmp_path / "run"
    start_example(root, store_source=True)
    assert call(root, "classify", records=EXAMPLE_RECORDS)["refused"] == []
    return root


def committed(run: Path) -> dict[str, bytes]:
    """What a call commits or derives: the log, the state and the checks' files."""
    return {name: data for name, data in tree(run).items() if name != ".lock"}


def test_a_long_run_checks_reports_progress_and_a_cancelled_one_leaves_no_line_and_no_lock(run: Path) -> None:
    progress: list[tuple[float, float | None, str | None]] = []

    async def body() -> dict[str, Any]:
        async with Client(StdioServerParameters(command=CLI, args=["mcp"])) as client:
            heard = anyio.Event()

            async def on_progress(value: float, total: float | None, message: str | None) -> None:
                progress.append((value, total, message))
                heard.set()

            async with anyio.create_task_group() as tasks:

                async def long_call() -> None:
                    arguments = {"run": str(run), "model": "m", "proposals": slow_proposals()}
                    await client.call_tool("run_checks", arguments, progress_callback=on_progress)
                    raise AssertionError("the call was cancelled; it must not return a result")

                tasks.start_soon(long_call)
                await heard.wait()
                tasks.cancel_scope.cancel()  # the SDK sends notifications/cancelled for the request
            # Retried at once, with no wait for the lock: the cancel killed the maths step, so the lock is free
            # within the retry's wait (before, it outlived the cancel by the step's budget, and the retry's
            # run-locked named the server's own pid). The next call is numbered as if the cancelled one never ran.
            after = await client.call_tool("run_checks", {"run": str(run), "model": "m", "proposals": [QUICK]})
            assert not after.is_error, after.structured_content
            assert lock_holder(run / ".lock") is None
            structured: dict[str, Any] = after.structured_content or {}
            return structured

    result = anyio.run(body)
    assert progress[0] == (0.0, 4.0, "proposal 1 of 4: rederive-maths on s-07")
    assert [check["id"] for check in result["checks"]] == ["c-001"]
    assert (run / "calls.jsonl").read_bytes().count(b"\n") == 3  # start_run, classify, the quick run_checks
    assert replay(run, source=None, sources=None).identical


def test_progress_counts_the_proposals_and_only_ever_increases(run: Path) -> None:
    progress: list[tuple[float, float | None, str | None]] = []

    async def body() -> None:
        async with Client(build_server()) as client:

            async def on_progress(value: float, total: float | None, message: str | None) -> None:
                progress.append((value, total, message))

            wrong = {**QUICK, "target": "s-13", "expression": "300 * 300", "result": "90000"}
            arguments = {"run": str(run), "model": "m", "proposals": [QUICK, wrong, {"type": "nope", "target": "x"}]}
            result = await client.call_tool("run_checks", arguments, progress_callback=on_progress)
            assert not result.is_error

    anyio.run(body)
    values = [value for value, _, _ in progress]
    assert values == sorted(set(values)), "progress must increase with every notification"
    # A quick call sends what it reached (each step is sent only if it lasts): the last step, before the result.
    assert progress[-1] == (3.0, 3.0, "checks done")
    assert all(total == 3.0 for _, total, _ in progress)


def test_a_call_that_reports_nothing_for_a_while_sends_heartbeats_that_still_increase(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server, "HEARTBEAT_SECONDS", 0.05)
    sent: list[tuple[float, float | None, str | None]] = []

    class Session:
        async def report_progress(self, value: float, total: float | None = None, message: str | None = None) -> None:
            sent.append((value, total, message))

    class Context:
        session = Session()

    async def body() -> None:
        progress = Progress()
        progress.report(2, 5, "proposal 3 of 5: rederive-maths on s-08")
        notifier = Notifier(Context(), progress)  # type: ignore[arg-type]
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(notifier.watch)
            with anyio.fail_after(60):
                while len(sent) < 4:
                    await anyio.sleep(0.01)
            progress.report(2, 5, "proposal 3 of 5: its fallback")  # the same step again
            with anyio.fail_after(60):
                while len(sent) < 5:
                    await anyio.sleep(0.01)
            tasks.cancel_scope.cancel()

    anyio.run(body)
    assert sent[0] == (2.0, 5.0, "proposal 3 of 5: rederive-maths on s-08")
    values = [value for value, _, _ in sent]
    assert values == sorted(set(values)) and all(2 <= value < 3 for value in values)
    assert all(message == "proposal 3 of 5: rederive-maths on s-08 (still working)" for _, _, message in sent[1:4])
    assert sent[4][2] == "proposal 3 of 5: its fallback"


def test_a_call_cancelled_while_it_waits_for_the_lock_stops_waiting_and_writes_nothing(run: Path) -> None:
    holder = start_lock_holder(run)
    try:
        before = committed(run)
        heard: list[str | None] = []

        async def body() -> None:
            async with Client(build_server()) as client:
                waiting = anyio.Event()

                async def on_progress(value: float, total: float | None, message: str | None) -> None:
                    heard.append(message)
                    waiting.set()

                async with anyio.create_task_group() as tasks:

                    async def blocked_call() -> None:
                        arguments = {"run": str(run), "model": "m", "proposals": [QUICK]}
                        await client.call_tool("run_checks", arguments, progress_callback=on_progress)

                    tasks.start_soon(blocked_call)
                    await waiting.wait()
                    tasks.cancel_scope.cancel()

        anyio.run(body)
        assert heard[0] == "waiting for the run's lock"
        held = lock_holder(run / ".lock")
        assert held is not None and held.pid == holder.pid  # the other process's lock is untouched
        assert committed(run) == before
    finally:
        holder.kill()
        holder.wait()
    assert call(run, "run_checks", proposals=[QUICK])["checks"][0]["id"] == "c-001"


def test_a_cancelled_maths_step_frees_the_lock_for_an_immediate_retry_even_with_an_hour_of_budget(
    run: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cancel kills the step's worker: the retry (waiting the default 10 s for the lock) gets it, where it
    used to be refused with run-locked naming the server's own pid while the step used up its budget."""
    import cgx_checks.rederive_maths
    from cgx_checks.maths.caller.worker_process import shared_worker

    monkeypatch.setattr(cgx_checks.rederive_maths, "DECIDE_BUDGET", 3600.0)

    def cpu_ticks(pid: int) -> int:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    async def worker_at_work() -> None:
        """Until the maths worker spends CPU time (on the step, past its start-up)."""
        ticks: list[int] = []
        while len(ticks) < 3 or ticks[-1] == ticks[-3]:
            await anyio.sleep(0.05)
            pid = shared_worker().pid
            ticks = [*ticks, cpu_ticks(pid)] if pid is not None else []

    async def body() -> dict[str, Any]:
        async with Client(build_server()) as client:
            heard = anyio.Event()

            async def on_progress(value: float, total: float | None, message: str | None) -> None:
                heard.set()

            async with anyio.create_task_group() as tasks:

                async def long_call() -> None:
                    arguments = {"run": str(run), "model": "m", "proposals": slow_proposals()[:1]}
                    await client.call_tool("run_checks", arguments, progress_callback=on_progress)

                tasks.start_soon(long_call)
                await heard.wait()
                with anyio.fail_after(120):  # a guard only
                    await worker_at_work()
                tasks.cancel_scope.cancel()
            after = await client.call_tool("run_checks", {"run": str(run), "model": "m", "proposals": [QUICK]})
            structured: dict[str, Any] = after.structured_content or {}
            assert not after.is_error, structured
            return structured

    result = anyio.run(body)
    assert [check["id"] for check in result["checks"]] == ["c-001"]
    assert lock_holder(run / ".lock") is None
    # The step's worker was killed by the cancel, not left to finish its step (which would keep it running).
    assert shared_worker().pid is None
    assert replay(run, source=None, sources=None).identical
