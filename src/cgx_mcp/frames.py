"""Every frame the client sends gets an answer, a malformed one included.

The SDK's stdio transport drops a line it cannot read (it hands the exception to the session, which logs
it), so a client that sent invalid JSON, a lone surrogate escape or an array nested past the parser's
limit waited forever. JSON-RPC 2.0 answers such a frame with an error whose id is null: -32700 (parse
error) for a line that is not JSON the parser reads, -32600 (invalid request) for JSON that is not a
JSON-RPC message. `CheckedLines` stands between stdin and the transport: it validates each line as the
transport will, passes the good ones on, and queues the answer to a bad one for the server to send.

A tools/call whose `arguments` are not an object is a valid message the SDK would answer with a bare -32602
(its parameters' model wants an object); the specification promises the model's mistakes come back as a JSON
`error` result, so such arguments are wrapped in an object the SDK reads (`wrapped`), and the server unwraps
them and answers the registry's own `invalid-arguments` result, as `tool` and `batch` do.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import AsyncIterable, AsyncIterator
from typing import Any, Final

import anyio
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
MAX_SHOWN: Final = 200
"""The most characters of the parser's complaint an answer quotes."""


def answer_to(line: str) -> types.JSONRPCError | None:
    """The error answering `line`, or None when it is a JSON-RPC message (a blank line is no frame)."""
    if not line.strip():
        return None
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValidationError as error:
        problems = error.errors(include_url=False)
        if any(problem["type"] == "json_invalid" for problem in problems):
            return _error(None, PARSE_ERROR, f"Parse error: {problems[0]['msg']}"[:MAX_SHOWN])
        return _error(_request_id(line), INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message")
    return None


WRAPPED: Final = f"cgx-arguments-not-an-object-{secrets.token_hex(8)}"
"""The one key of the object a tools/call's non-object `arguments` are wrapped in, for the server to unwrap
(`unwrapped`): random per process, so no client can send it."""


def wrapped(line: str) -> str:
    """`line`, or, for a tools/call whose `arguments` are not an object (null is none given), the same call
    with them wrapped in an object under `WRAPPED`: the SDK answers a bare -32602 to a call it cannot read,
    where the server answers the tool's own `invalid-arguments` result (as `tool` and `batch` do)."""
    if '"tools/call"' not in line and "\\" not in line:  # (a method name may be written with escapes)
        return line
    try:
        frame = json.loads(line)
    except (ValueError, RecursionError):
        return line
    params = frame.get("params") if isinstance(frame, dict) and frame.get("method") == "tools/call" else None
    if not isinstance(params, dict) or params.get("arguments") is None or isinstance(params["arguments"], dict):
        return line
    params["arguments"] = {WRAPPED: params["arguments"]}
    return json.dumps(frame, ensure_ascii=False) + "\n"


def unwrapped(arguments: Any) -> Any:
    """A call's arguments as the client sent them (undoing `wrapped`)."""
    if isinstance(arguments, dict) and len(arguments) == 1 and WRAPPED in arguments:
        return arguments[WRAPPED]
    return arguments


def _error(request_id: Any, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message))


def _request_id(line: str) -> str | int | None:
    """The id of a frame that is JSON but not a valid message, when it has a usable one."""
    try:
        frame = json.loads(line)
    except (ValueError, RecursionError):
        return None
    found = frame.get("id") if isinstance(frame, dict) else None
    return found if isinstance(found, (str, int)) and not isinstance(found, bool) else None


class CheckedLines:
    """stdin's lines for the SDK's transport, without the malformed ones, whose answers wait in `answers`."""

    def __init__(self, lines: AsyncIterable[str]) -> None:
        self._lines = lines
        self._send: MemoryObjectSendStream[SessionMessage]
        self.answers: MemoryObjectReceiveStream[SessionMessage]
        self._send, self.answers = anyio.create_memory_object_stream[SessionMessage](64)

    async def __aiter__(self) -> AsyncIterator[str]:
        async with self._send:
            async for line in self._lines:
                answer = answer_to(line)
                if answer is None:
                    if line.strip():
                        yield wrapped(line)
                    continue
                await self._send.send(SessionMessage(answer))
