"""Inside a warm server's forked child: take the caller's place, run its command, answer with its exit status.

The child becomes the caller in everything a command can see: its standard streams are the caller's (the
descriptors came over the socket), and so are its working directory, umask, environment, module path and
arguments. Then it runs what the console script runs (`cgx_cli.main.console_status`). While the command runs,
the socket is watched by SIGIO (no thread, so the command may fork as it does in a cold process): a signal
the caller passes on is raised here, and the socket closing (the caller was killed) kills this process, as
killing a cold call's process would.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import socket
import sys
import tempfile
import traceback
from typing import Any

from cgx_cli.warm import client, frames

_MAX_DESCRIPTORS = 3


def run_call(connection: socket.socket, interpreter: str, workers: str) -> int:
    """Serve the one call on `connection` from a caller of the server's `interpreter` (`place.description`),
    its budgeted workers forked by the zygote at `workers`; the command's exit status (0 when the caller was
    told to run it)."""
    reader = frames.Reader(connection)
    try:
        data, descriptors, _, _ = socket.recv_fds(connection, 1 << 16, _MAX_DESCRIPTORS)
        reader.feed(data)
        request = reader.next() if data else None
    except (OSError, ValueError):
        return 0
    if request is None:
        return 0
    declined = _take_place(request, descriptors, interpreter)
    if declined is not None:
        with contextlib.suppress(OSError):
            connection.sendall(frames.encode({"cold": declined}))
        return 0
    from cgx_cli.warm.forked_worker import starter
    from cgx_core.base.budget_worker import start_workers_with

    start_workers_with(starter(workers))
    _watch(connection, reader)
    connection.sendall(frames.encode({"started": True}))
    status = int(_status(request["argv"]))
    _unwatch(connection)
    with contextlib.suppress(OSError):
        connection.sendall(frames.encode({"status": status}))
    return status


def _status(argv: list[str]) -> int:
    """The command's exit status; an exception no command caught is printed as the interpreter prints it."""
    from cgx_cli.main import console_status

    try:
        return console_status(argv)
    except BaseException:  # a cold process prints the traceback and exits 1: so does this
        traceback.print_exc()
        return 1


def _take_place(request: dict[str, Any], descriptors: list[int], interpreter: str) -> str | None:
    """Become the caller; why not (the caller then runs the call itself), or None."""
    if request.get("interpreter") != interpreter:
        return "the caller's interpreter is not this server's"
    streams = request.get("streams")
    if not isinstance(streams, list) or len(streams) != len(descriptors) or not set(streams) <= {0, 1, 2}:
        return "the request's standard streams do not match the descriptors it passed"
    try:
        os.chdir(request["cwd"])
    except OSError as error:
        return f"cannot enter the caller's working directory: {error.strerror}"
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    given = dict(zip(streams, descriptors, strict=True))
    for target in (0, 1, 2):
        if target in given:
            os.dup2(given[target], target)
        else:
            with contextlib.suppress(OSError):
                os.close(target)
    for descriptor in descriptors:
        if descriptor not in (0, 1, 2):
            os.close(descriptor)
    ignored = request.get("ignored", [])
    for number in client.FORWARDED:  # as a cold process starts: the caller's ignored signals ignored, others default
        if number in ignored:
            signal.signal(number, signal.SIG_IGN)
        else:
            signal.signal(number, signal.default_int_handler if number == signal.SIGINT else signal.SIG_DFL)
    os.umask(int(request["umask"]))
    os.environ.clear()
    os.environ.update(request["env"])
    sys.path[:] = request["path"]
    tempfile.tempdir = None  # found again from the caller's TMPDIR, as a cold process finds it
    return None


def _watch(connection: socket.socket, reader: frames.Reader) -> None:
    """From now on a forwarded signal is raised here, and the caller's death kills this process."""

    def on_message(*_: object) -> None:
        while True:
            try:
                data = connection.recv(4096, socket.MSG_DONTWAIT)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                os.kill(os.getpid(), signal.SIGKILL)
            with contextlib.suppress(ValueError):
                reader.feed(data)
            for message in reader.ready():
                number = message.get("signal")
                if number in client.FORWARDED:
                    signal.raise_signal(number)

    signal.signal(signal.SIGIO, on_message)
    fcntl.fcntl(connection.fileno(), fcntl.F_SETOWN, os.getpid())
    fcntl.fcntl(connection.fileno(), fcntl.F_SETFL, fcntl.fcntl(connection.fileno(), fcntl.F_GETFL) | os.O_ASYNC)
    on_message()  # what came before the watch began: a signal already passed on, or the caller already gone


def _unwatch(connection: socket.socket) -> None:
    """The command is done: the caller closing the socket now is the end of the call, not a kill."""
    signal.signal(signal.SIGIO, signal.SIG_IGN)
    fcntl.fcntl(connection.fileno(), fcntl.F_SETFL, fcntl.fcntl(connection.fileno(), fcntl.F_GETFL) & ~os.O_ASYNC)
