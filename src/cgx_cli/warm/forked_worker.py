"""A warm call's budgeted workers, forked by the server's zygote (`cgx_cli.warm.zygote`) instead of spawned.

A warm call installs `starter(address)` (`budget_worker.start_workers_with`): each worker it needs is asked
of the zygote, which forks one that imported its tasks already; the call talks to it over the same pipe and
protocol as to a spawned one, and sees its process through `ForkedWorker`, which stands in for
multiprocessing's Process. When the zygote is not there or declines, the worker is spawned as in a cold call.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import sys
import time
from multiprocessing.connection import Connection

from cgx_cli.warm import frames, place
from cgx_core.base.budget_worker import Starter, WorkerProcess

_ANSWER_SECONDS = 30.0
"""How long a call waits for the zygote to fork (an import of the task module at most, once per zygote)."""


class ForkedWorker:
    """A worker the zygote forked, seen as a multiprocessing Process: its end comes as a `status` message
    from the zygote, which reaps it; ending it is shutting this side of the connection."""

    def __init__(self, connection: socket.socket, reader: frames.Reader, pid: int) -> None:
        self._connection = connection
        self._reader = reader
        self._pid = pid
        self._status: int | None = None
        self._shut = False

    @property
    def pid(self) -> int | None:
        return self._pid

    @property
    def exitcode(self) -> int | None:
        self._wait(0.0)
        return self._status

    def is_alive(self) -> bool:
        return self.exitcode is None

    def kill(self) -> None:
        if not self._shut:
            self._shut = True
            try:
                self._connection.shutdown(socket.SHUT_WR)
            except OSError:
                return  # the zygote is gone, and its workers with it

    def join(self, timeout: float | None = None) -> None:
        self._wait(timeout)

    def close(self) -> None:
        self._connection.close()

    def _wait(self, timeout: float | None) -> None:
        """Read the zygote's word of the worker's end, waiting `timeout` seconds at most (None: until it comes)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        self._take(self._reader.ready())  # it may have come with the pid
        while self._status is None and self._connection.fileno() >= 0:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([self._connection], [], [], left)[0]:
                return
            try:
                data = self._connection.recv(4096)
            except OSError:
                data = b""
            if not data:  # the zygote died: the kernel killed its workers
                self._status = -signal.SIGKILL
                return
            self._reader.feed(data)
            self._take(self._reader.ready())

    def _take(self, messages: list[dict[str, object]]) -> None:
        for message in messages:
            status = message.get("status")
            if isinstance(status, int):
                self._status = status


def starter(address: str) -> Starter:
    """Start workers through the zygote at `address`; None (spawn it) when it cannot."""

    def start(tasks: str, name: str, memory_bytes: int) -> tuple[WorkerProcess, Connection] | None:
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        ours, theirs = socket.socketpair()
        try:
            connection.settimeout(_ANSWER_SECONDS)
            connection.connect(address)
            request = {
                "tasks": tasks,
                "memory": memory_bytes,
                "env": dict(os.environ),
                "cwd": os.getcwd(),
                "umask": place.umask(),
                "path": list(sys.path),
            }
            socket.send_fds(connection, [frames.encode(request)], [theirs.fileno(), 2])
            reader = frames.Reader(connection)
            answer = reader.next()
            connection.settimeout(None)
        except (OSError, ValueError):
            answer = None
        finally:
            theirs.close()
        if answer is None or "pid" not in answer:
            connection.close()
            ours.close()
            return None
        return ForkedWorker(connection, reader, int(answer["pid"])), Connection(ours.detach())

    return start
