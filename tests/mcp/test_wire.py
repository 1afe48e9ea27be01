"""stdin's lines read on the event loop are the lines `io.TextIOWrapper` reads, however the bytes arrive,
and a frame goes out whole without holding up the event loop when the client is slow to read it."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import anyio
import pytest

from cgx_mcp.wire import CHUNK, Frames, Lines

CLI = str(Path(sys.executable).with_name("credencegraph-extract"))

TEXT = (
    '{"a": "caf\xc3\xa9"}\n'.encode("latin-1")  # two-byte UTF-8, split across reads below
    + b'{"b": 1}\r\n{"c": 2}\r{"d": "\xff\xfe"}\n\n'  # Windows and old Mac line ends, bytes that are no UTF-8
    + b'{"e": "'
    + b"x" * (3 * CHUNK)
    + b'"}\n'  # a line longer than one read
    + b'{"f": "no newline at the end"}'
)


def read_all(fd: int) -> list[str]:
    async def main() -> list[str]:
        return [line async for line in Lines(fd)]

    return anyio.run(main)


def wrapper_lines(data: bytes) -> list[str]:
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace").readlines()


@pytest.mark.parametrize("piece", [1, 7, 4096, CHUNK + 3, len(TEXT)])
def test_lines_from_a_pipe_are_the_wrappers_lines_whatever_pieces_the_bytes_come_in(piece: int) -> None:
    read_end, write_end = os.pipe()

    def feed() -> None:
        with os.fdopen(write_end, "wb", buffering=0) as pipe:
            for start in range(0, len(TEXT), piece):
                pipe.write(TEXT[start : start + piece])
                if piece < 4096 and start < 64:
                    time.sleep(0.001)  # the first pieces come one read at a time: a line and a character split

    feeder = threading.Thread(target=feed)
    feeder.start()
    try:
        assert read_all(read_end) == wrapper_lines(TEXT)
    finally:
        feeder.join()
        os.close(read_end)


def test_lines_from_a_regular_file_or_the_null_device_which_the_loop_cannot_wait_on_are_read_too() -> None:
    with tempfile.TemporaryFile() as file:
        file.write(TEXT)
        file.flush()
        file.seek(0)
        assert read_all(file.fileno()) == wrapper_lines(TEXT)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        assert read_all(null) == []
    finally:
        os.close(null)


def test_a_frame_larger_than_the_pipe_goes_out_whole_while_the_event_loop_runs_on() -> None:
    read_end, write_end = os.pipe()
    frame = json.dumps({"x": "y" * (8 * CHUNK)}) + "\n"
    received = bytearray()

    def read() -> None:
        while len(received) < len(frame):
            received.extend(os.read(read_end, 1 << 20))

    async def main() -> None:
        sent = anyio.Event()
        with os.fdopen(write_end, "wb") as stdout:
            frames = Frames(stdout)

            async def send() -> None:
                await frames.write(frame[:10])
                await frames.write(frame[10:])
                await frames.flush()
                sent.set()

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(send)
                for _ in range(20):  # nobody reads yet: the write waits in its thread, the loop still ticks
                    await anyio.sleep(0.01)
                assert not sent.is_set()
                reader = threading.Thread(target=read)
                reader.start()
            reader.join()

    try:
        anyio.run(main)
    finally:
        os.close(read_end)
    assert received.decode() == frame


def test_a_frame_over_64_kib_is_read_and_its_answer_over_64_kib_written_whole() -> None:
    request_id = "i" * (4 * CHUNK)  # an invalid request is answered with its id: long both ways
    frame = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": 7}).encode() + b"\n"
    server = subprocess.Popen([CLI, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout, stderr = server.communicate(frame, timeout=120)
    assert server.returncode == 0, stderr
    [answer] = stdout.splitlines()
    assert json.loads(answer) == {
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {"code": -32600, "message": "Invalid Request: not a JSON-RPC 2.0 message"},
    }
