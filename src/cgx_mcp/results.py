"""A tool call's MCP result: the tool's JSON, as structured content and as its text, the same bytes.

What a harness shows the model of it was decided here (issue 37). The MCP specification asks a tool that
returns structured content to return the serialized JSON in a text block too, for clients that read only
`content`; and a harness shows its model one of the two, never both (Claude Code passes the structured content,
as JSON, when there is one; a client without structured content passes the text). Both are the compact JSON of
one result, which the registry holds under 20,000 characters, so what a model reads stays under that bound;
the frame on the wire carries it twice. An error is a result like any other (`is_error`, and the
`{"error": {"code", "message"}}` JSON in both), never a protocol error."""

from __future__ import annotations

from typing import Any

import mcp_types as types

from cgx_core.tooling.output import result_text


def result_of(payload: dict[str, Any], is_error: bool) -> types.CallToolResult:
    """The MCP result of a tool call: the same JSON as text and as structured content."""
    return types.CallToolResult(
        content=[types.TextContent(text=result_text(payload))], structured_content=payload, is_error=is_error
    )
