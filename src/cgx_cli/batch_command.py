"""`credencegraph-extract batch [FILE] [--run DIR] [--stop-on-error]`: many tool calls in one process.

A harness without MCP pays a process start-up on every `tool` call (the interpreter, credencegraph, and
for a maths step sympy); most of a call's time is that start-up. A batch pays it once: each line of a
JSON-lines file (or stdin) is one call, `{"tool": NAME, "args": {...}}`, made through the same registry
as `tool` and MCP, so each is logged as its own call and answers with the same bytes. Lines are read and
answered one at a time (a harness may write a line, read its answer, and write the next), each answer on
one line of stdout, in order. A line that fails prints its JSON error, and `line N: error [<code>]:
<message>` on stderr; the next line runs all the same unless `--stop-on-error` is given.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from cgx_cli.errors import print_error
from cgx_cli.exit_codes import ExitCode
from cgx_cli.result_stream import results
from cgx_cli.tool_command import with_run
from cgx_core.base.json_schema import parse_arguments
from cgx_core.codes import Code
from cgx_core.errors import CgxError, utf8_text
from cgx_core.tooling.output import result_text

LINE_KEYS = ("tool", "args")


@contextmanager
def _lines(file: str) -> Iterator[IO[bytes]]:
    if file == "-":
        yield sys.stdin.buffer
        return
    try:
        handle = Path(file).open("rb")  # noqa: SIM115 - closed below, after the last line is answered
    except OSError as error:
        raise CgxError(Code.IO_ERROR, f"cannot read the batch '{Path(file).name}': {error.strerror}") from None
    with handle:
        yield handle


def parse_line(raw: bytes, run: str | None) -> tuple[str, Any]:
    """The tool and arguments of one line, or our error saying what is wrong with it."""
    text = utf8_text(raw, Code.INVALID_JSON, "the line")
    line = parse_arguments(text, what="the line")
    if not isinstance(line, dict) or not isinstance(line.get("tool"), str) or set(line) - set(LINE_KEYS):
        raise CgxError(
            Code.INVALID_ARGUMENTS,
            'a batch line is {"tool": <name>, "args": {...}} (args may be left out for a tool that takes none '
            f"besides run), got {json.dumps(line)[:200]}",
        )
    return line["tool"], with_run(run, line.get("args", {}))


def run_batch(file: str, run: str | None, wait: float, *, stop_on_error: bool) -> int:
    """Make every call of the batch; status 0 when every line succeeded, 2 otherwise."""
    from cgx_core.base.budget_worker import fork_here
    from cgx_core.tooling.registry import call_tool

    fork_here()  # a start_run's paper is read in a fork of this process, as `tool` reads it

    failed = 0
    with _lines(file) as lines:
        for number, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            try:
                tool, arguments = parse_line(raw, run)
                payload, is_error = call_tool(tool, arguments, wait=wait)
            except CgxError as error:
                payload, is_error = error.to_json(), True
            results().write(result_text(payload) + "\n")
            results().flush()
            if is_error:
                failed += 1
                body = payload["error"]
                print_error(body["code"], body["message"], prefix=f"line {number}: ")
                sys.stderr.flush()
                if stop_on_error:
                    sys.stderr.write(f"stopped at line {number} (--stop-on-error): the lines after it were not run\n")
                    break
    return ExitCode.ERROR if failed else ExitCode.OK
