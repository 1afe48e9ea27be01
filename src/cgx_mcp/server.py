"""The MCP server: the tool registry served over stdio on the SDK's low-level `Server`.

The low-level server is used because our contract is that every mistake of the model's comes back as a
JSON result: `MCPServer` would silently drop undeclared arguments and answer a bad type in plain text.
Here the registry checks the arguments, an unknown tool has its own branch, and every handler is wrapped
so that nothing escapes as a protocol error. stdout belongs to the protocol: nothing here prints.

A call runs in a worker thread under a `call_control.Control`. While it runs, the server sends the
caller's progress token what the call reports (each proposal of run_checks, each phase of start_run and
finish_run) and, when nothing new comes for `HEARTBEAT_SECONDS`, the same step again with a little more
progress, so a harness that waits on progress knows the call is alive. When the client cancels the
request, the call is cancelled at its next safe point (see `cgx_core.run.call_control`), the worker
process of a maths step or an isolated plugin is killed at once (`call_control.stopping`), and the
handler waits for the call to stop: by the time the server forgets the request, the call has released
the run's lock and written nothing, so a retry finds the lock free.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
import time
from typing import Any, Final, TextIO

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from cgx_core.checks.installed import distribution_version
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.run.call_control import Control
from cgx_core.tooling.listing import lean_arguments, lean_result
from cgx_core.tooling.registry import TOOLS, call_tool
from cgx_core.tooling.workflow import INSTRUCTIONS
from cgx_mcp.frames import CheckedLines, unwrapped
from cgx_mcp.results import result_of
from cgx_mcp.wire import Frames, Lines

HEARTBEAT_SECONDS: Final = 5.0
"""How long a call may say nothing before the server repeats its last step (harnesses time out at 60 s)."""
POLL_SECONDS: Final = 0.05
DRAIN_SECONDS: Final = 5.0
"""How long the server, its input ended, still spends sending the answers to malformed frames."""

NAME = "credencegraph-extract"


def _tool(name: str) -> types.Tool:
    tool = TOOLS[name]
    return types.Tool(
        name=tool.name,
        title=tool.title,
        description=tool.full_description(),
        input_schema=lean_arguments(tool.listed_input_schema()),
        output_schema=lean_result(tool.result),
        annotations=types.ToolAnnotations(
            read_only_hint=tool.read_only_hint,
            destructive_hint=False,
            idempotent_hint=not tool.changes_run,
            open_world_hint=tool.open_world_hint,
        ),
    )


async def list_tools(
    ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[_tool(name) for name in TOOLS])


class Progress:
    """What a running call last reported, handed from its thread to the task that notifies the client."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._step: tuple[int, int, int | None, str] = (0, 0, None, "")

    def report(self, done: int, total: int | None, message: str) -> None:
        with self._lock:
            self._step = (self._step[0] + 1, done, total, message)

    def latest(self) -> tuple[int, int, int | None, str]:
        """(how many reports so far, done, total, message)."""
        with self._lock:
            return self._step


def _halfway(value: float) -> float:
    """More than `value`, and less than the next whole step."""
    return value + (math.floor(value) + 1 - value) / 2


class Notifier:
    """Sends a call's progress to the client: each step the call reports, and a heartbeat when it reports
    nothing for `HEARTBEAT_SECONDS`. Progress only ever increases, as MCP requires: a step reported again,
    or a heartbeat, adds half of what is left to the next whole step. Sending is a no-op when the client
    asked for no progress."""

    def __init__(self, ctx: ServerRequestContext[Any], progress: Progress) -> None:
        self._ctx = ctx
        self._progress = progress
        self._sent = 0
        self._value = -1.0
        self._quiet_since = time.monotonic()

    async def watch(self) -> None:
        """Send what the call reports as it reports it, until cancelled."""
        while True:
            await anyio.sleep(POLL_SECONDS)
            await self.send(heartbeat=True)

    async def send(self, *, heartbeat: bool = False) -> None:
        """Send the call's latest step if it is new (or, with `heartbeat`, again when it is old)."""
        reports, done, total, message = self._progress.latest()
        now = time.monotonic()
        if reports != self._sent:
            self._sent, self._quiet_since = reports, now
            self._value = float(done) if done > self._value else _halfway(self._value)
        elif heartbeat and reports and now - self._quiet_since >= HEARTBEAT_SECONDS:
            self._quiet_since = now
            self._value = _halfway(self._value)
            message = f"{message} (still working)"
        else:
            return
        with contextlib.suppress(Exception):  # the client went away: progress is a courtesy
            await self._ctx.session.report_progress(self._value, None if total is None else float(total), message)


async def call(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    arguments: Any = unwrapped(params.arguments) if params.arguments is not None else {}
    progress = Progress()
    control = Control(report=progress.report)
    finished = threading.Event()
    # Whoever takes the gate first decides: the worker thread (the call runs) or a cancel that came before
    # the thread started (the call never will, and there is nothing to wait for).
    gate = threading.Lock()
    outcome: list[tuple[dict[str, Any], bool]] = []

    def work() -> None:
        if not gate.acquire(blocking=False):
            return
        try:
            outcome.append(call_tool(params.name, arguments, control=control))
        finally:
            finished.set()

    notifier = Notifier(ctx, progress)
    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(notifier.watch)
            await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
            tasks.cancel_scope.cancel()
        await notifier.send()  # the last step the call reported goes out before its result
    except anyio.get_cancelled_exc_class():
        # The client cancelled the request (or the server is closing): stop the call at its next safe point
        # and wait until it has, so no call outlives its request holding the lock or half-way to a commit.
        control.cancel()
        if gate.acquire(blocking=False):  # cancelled before its thread started: it never runs
            raise
        with anyio.CancelScope(shield=True):
            await anyio.to_thread.run_sync(finished.wait)
        raise
    except Exception as error:  # call_tool never raises; this guards the adapter itself
        failure = CgxError(Code.INTERNAL_ERROR, f"the server failed ({type(error).__name__})")
        return result_of(failure.to_json(), True)
    payload, is_error = outcome[0]
    return result_of(payload, is_error)


def build_server() -> Server[Any]:
    """The server, with the workflow as its instructions."""
    return Server(
        NAME,
        version=distribution_version("credencegraph-extract"),
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call,
    )


def serve(stdout: TextIO | None = None) -> None:
    """Serve over stdio until the client closes the connection, writing the protocol to `stdout` (default:
    the process's stdout; the command line passes the stdout it keeps for results alone, so that nothing a
    plugin prints can come between two frames). A malformed frame is answered (`cgx_mcp.frames`)."""
    from mcp.server.stdio import stdio_server

    frames = None if stdout is None else Frames(stdout.buffer)
    lines = CheckedLines(Lines(_claimed_stdin()))

    async def main() -> None:
        server = build_server()
        async with stdio_server(stdin=lines, stdout=frames) as (read_stream, write_stream):  # type: ignore[arg-type]

            async def answer_malformed() -> None:
                with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                    async with lines.answers:
                        async for answer in lines.answers:
                            await write_stream.send(answer)

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(answer_malformed)
                await server.run(read_stream, write_stream, server.create_initialization_options())
                # stdin has ended: the answers to its last malformed frames still go out, then the server stops.
                tasks.cancel_scope.deadline = anyio.current_time() + DRAIN_SECONDS

    anyio.run(main)  # Ctrl-C reaches the command line's entry point, which ends with one line


def _claimed_stdin() -> int:
    """The protocol's stdin, a private descriptor; fd 0 reads the null device from now on, so a plugin or a
    child that reads stdin gets end of file rather than a client's frames (as the SDK does)."""
    private = os.dup(0)
    with open(os.devnull, "rb") as null:
        os.dup2(null.fileno(), 0)
    return private
