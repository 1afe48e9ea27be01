"""`credencegraph-extract tool NAME --run DIR --args JSON`: one tool call from the command line."""

from __future__ import annotations

import sys
from typing import Any

from cgx_cli.errors import print_error
from cgx_cli.exit_codes import ExitCode
from cgx_cli.result_stream import results
from cgx_core.base.json_schema import parse_arguments
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.tooling.output import result_text


def _arguments(run: str | None, text: str) -> object:
    if text == "-":
        try:
            text = sys.stdin.buffer.read().decode("utf-8")
        except UnicodeDecodeError as error:
            raise CgxError(Code.INVALID_JSON, f"--args - read bytes that are not UTF-8 (byte {error.start})") from None
    return with_run(run, parse_arguments(text))


def with_run(run: str | None, raw: object) -> object:
    """The arguments with `--run` as their run directory (when given, and the arguments do not name another)."""
    if run is None:
        return raw
    if not isinstance(raw, dict):
        return raw  # the registry reports the wrong shape, as it would through MCP
    if "run" in raw and raw["run"] != run:
        raise CgxError(Code.INVALID_ARGUMENTS, "--run and the 'run' argument name different directories")
    return {"run": run, **{name: value for name, value in raw.items() if name != "run"}}


def run_tool(name: str, run: str | None, args: str, wait: float) -> int:
    """Call the tool; print its JSON result; on an error also one line on stderr, and exit 2. A paper is read
    in a fork of this process (one interpreter, one import of the readers) rather than in a worker's."""
    from cgx_core.tooling.registry import call_tool

    if name == "start_run":
        from cgx_core.base.budget_worker import fork_here

        fork_here()
    try:
        payload, is_error = call_tool(name, _arguments(run, args), wait=wait)
    except CgxError as error:
        payload, is_error = error.to_json(), True
    return printed(payload, is_error=is_error)


def printed(payload: dict[str, Any], *, is_error: bool) -> int:
    """Print a call's JSON result and, for an error, its one line on stderr; the command's exit status."""
    results().write(result_text(payload) + "\n")
    if not is_error:
        return ExitCode.OK
    print_error(payload["error"]["code"], payload["error"]["message"])
    return ExitCode.ERROR


def tools_listing(name: str | None = None) -> dict[str, object]:
    """Every tool with its description and argument schema, and every installed check type with the complete
    schema of its proposals: what an agent without MCP reads instead of `tools/list`. With a tool's `name`,
    that tool alone, with the schema of its result too (kept out of the full listing, which an agent reads
    whole, to keep it short)."""
    from cgx_core.tooling.proposal_schemas import published
    from cgx_core.tooling.registry import TOOLS

    if name is not None and name not in TOOLS:
        raise CgxError(Code.UNKNOWN_TOOL, f"no tool '{name}'; the tools are {sorted(TOOLS)}")
    chosen = [TOOLS[name]] if name is not None else list(TOOLS.values())
    listing = [
        {
            "name": tool.name,
            "description": tool.full_description(),
            "arguments": tool.listed_input_schema(),
            **({"result": tool.result} if name is not None else {}),
        }
        for tool in chosen
    ]
    check_types: list[dict[str, object]] = []
    for tool in chosen:
        if tool.lists_check_types:
            try:
                check_types.extend({"tool": tool.name, **item} for item in published(tool.name))
            except CgxError as error:  # a broken plugin: say so, and list the tools all the same
                check_types.append({"tool": tool.name, "error": {"code": str(error.code), "message": error.message}})
    listed: dict[str, object] = {"tools": listing, "check_types": check_types}
    if name is None:
        listed["results"] = "the schema of each tool's result: credencegraph-extract tools NAME"
    return listed


def list_tools(name: str | None = None) -> int:
    results().write(result_text(tools_listing(name)) + "\n")
    return ExitCode.OK
