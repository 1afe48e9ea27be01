"""The MCP server: the tool registry served over stdio on the SDK's low-level `Server`.

The low-level server is used because our contract is that every mistake of the model's comes back as a
JSON result: `MCPServer` would silently drop undeclared arguments and answer a bad type in plain text.
Here the registry checks the arguments, an unknown tool has its own branch, and every handler is wrapped
so that nothing escapes as a protocol error. stdout belongs to the protocol: nothing here prints.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.plugins import distribution_version
from cgx_core.tools.output import result_text
from cgx_core.tools.registry import TOOLS, call_tool
from cgx_core.tools.workflow import INSTRUCTIONS

NAME = "credencegraph-extract"


def _tool(name: str) -> types.Tool:
    tool = TOOLS[name]
    return types.Tool(
        name=tool.name,
        title=tool.title,
        description=tool.full_description(),
        input_schema=dict(tool.listed_input_schema()),
        output_schema=dict(tool.result),
        annotations=types.ToolAnnotations(
            title=tool.title,
            read_only_hint=tool.read_only_hint,
            destructive_hint=False,
            idempotent_hint=not tool.changes_run,
            open_world_hint=tool.open_world_hint,
        ),
    )


def result_of(payload: dict[str, Any], is_error: bool) -> types.CallToolResult:
    """The MCP result of a tool call: the same JSON as text and as structured content."""
    return types.CallToolResult(
        content=[types.TextContent(text=result_text(payload))], structured_content=payload, is_error=is_error
    )


async def list_tools(
    ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[_tool(name) for name in TOOLS])


async def call(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    try:
        arguments: Any = params.arguments if params.arguments is not None else {}
        payload, is_error = await anyio.to_thread.run_sync(lambda: call_tool(params.name, arguments))
    except Exception as error:  # call_tool never raises; this guards the adapter itself
        payload = CgxError(Code.INTERNAL_ERROR, f"the server failed ({type(error).__name__})").to_json()
        is_error = True
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


def serve() -> None:
    """Serve over stdio until the client closes the connection."""
    from mcp.server.stdio import stdio_server

    async def main() -> None:
        server = build_server()
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)
