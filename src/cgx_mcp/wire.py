"""stdin's lines and stdout's frames for the SDK's stdio transport, with as few thread hops as is safe.

`anyio.wrap_file` runs every `readline`, `write` and `flush` in a worker thread: three hops to a thread
and back per tool call, about 0.6 ms of the server's CPU (measured on a call that fails at once: 1.7 ms
of server CPU a call with them, 1.1 ms without). Here a line is read on the event loop: the reader waits
until the private stdin descriptor is readable (`anyio.wait_readable`) and then reads what is there,
which does not block (the client's pipe is read by this server alone). The descriptor stays blocking (it
may be shared with a terminal or another process, which O_NONBLOCK would change too), and when the
event loop cannot wait on it (a regular file, the null device, or Windows, where only sockets can be
waited on) the reads go to a worker thread as before. The text is decoded as `io.TextIOWrapper` decodes
it (UTF-8 with replacement, universal newlines), so the lines the transport sees are the same.

A frame is written in one worker-thread hop, the whole frame and its flush at once: a write on the event
loop could block it when the client stops reading and the pipe fills, and then not even a cancellation
would run.
"""

from __future__ import annotations

import codecs
import io
import os
import sys
from collections.abc import AsyncIterator
from typing import BinaryIO, Final

import anyio
import anyio.to_thread

CHUNK: Final = 1 << 16
"""The most bytes one read takes from stdin; a longer line is put together from several reads."""


class Lines:
    """The lines read from the descriptor `fd`, decoded as the SDK's `TextIOWrapper` decodes them."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._on_loop = sys.platform != "win32"

    async def _read(self) -> bytes:
        """The next bytes on the descriptor (empty at end of file), read without blocking the event loop."""
        if self._on_loop:
            try:
                await anyio.wait_readable(self._fd)
            except OSError:  # the loop cannot wait on this kind of file (a regular file, the null device)
                self._on_loop = False
            else:
                return os.read(self._fd, CHUNK)
        return await anyio.to_thread.run_sync(os.read, self._fd, CHUNK, abandon_on_cancel=True)

    async def __aiter__(self) -> AsyncIterator[str]:
        decoder = io.IncrementalNewlineDecoder(codecs.getincrementaldecoder("utf-8")("replace"), translate=True)
        partial: list[str] = []  # the start of a line longer than one read, joined once its end comes
        while True:
            chunk = await self._read()
            text = decoder.decode(chunk, final=not chunk)
            if "\n" in text:
                first, *lines, rest = text.split("\n")
                yield "".join([*partial, first, "\n"])
                for line in lines:
                    yield line + "\n"
                partial = [rest]
            else:
                partial.append(text)
            if not chunk:
                if last := "".join(partial):
                    yield last
                return


class Frames:
    """stdout for the transport: what it writes is kept until it flushes, then sent in one thread hop."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._pending: list[str] = []

    async def write(self, text: str) -> None:
        self._pending.append(text)

    async def flush(self) -> None:
        data = "".join(self._pending).encode("utf-8")
        self._pending.clear()
        await anyio.to_thread.run_sync(self._send, data)

    def _send(self, data: bytes) -> None:
        self._stream.write(data)
        self._stream.flush()
