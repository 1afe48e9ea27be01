"""The warm server's zygote: a process that forks budgeted workers (`cgx_core.base.budget_worker`) with their
tasks imported already, so a maths step served warm does not start an interpreter and import sympy.

`python -P -m cgx_cli.warm.zygote ADDRESS`, started by the warm server with a pipe on its stdin: when the
server and every call it forked are gone, the pipe ends and so does the zygote, killing its workers. A call's
child connects to ADDRESS (a socket beside the server's, in the same private folder) and sends what a worker
needs (its task module, its memory limit, the caller's environment, directory, umask and module path) with two
descriptors: its end of the worker's pipe and the caller's stderr. The zygote imports the task module once (in
itself, before any budget runs), forks, and the child becomes what multiprocessing's spawn would have started:
the caller's environment and directory, its stderr on stdout and stderr, then `budget_worker.serve`, which
limits its CPU time and memory itself. The zygote answers `pid`, and `status` once the worker has ended. The
call shutting its side of the connection ends the worker (through its pidfd, so never another process that took
its number): it does so to kill the worker, and its death does so too; no worker outlives the call that asked
for it. The worker also dies with the zygote (`serve` asks the kernel for that).

It declines (the call then spawns the worker as a cold call does) when a module it imported or a module-path
folder changed since (and exits, as the server does), when a task module fails to import, or when it is no
longer the single thread forking is safe in (a task module that started a thread: it exits).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import select
import signal
import socket
import subprocess
import sys
from collections.abc import Sequence
from typing import Any, Final, TypeGuard

import attrs

from cgx_cli.warm import frames, place
from cgx_cli.warm.stamps import Stamps

_DESCRIPTORS: Final = 2
_REQUEST_SECONDS: Final = 10.0
"""How long a connected call may take to send its request (it sends it at once): a stuck peer cannot hold the zygote."""


def address_beside(server: str) -> str:
    """The zygote's socket for the warm server at `server`."""
    return server.removesuffix(".sock") + ".workers.sock"


def start(server: str) -> subprocess.Popen[bytes]:
    """Start the zygote of the warm server at `server` (from the server, before it serves); it lives while the
    returned process's stdin is open in the server or a call it forked."""
    return subprocess.Popen(
        [sys.executable, "-P", "-m", "cgx_cli.warm.zygote", address_beside(server)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        close_fds=True,
    )


@attrs.define
class _Worker:
    """A forked worker: its pid, its pidfd (readable once it has ended) and the call that asked for it."""

    pid: int
    pidfd: int
    connection: socket.socket


def main(argv: Sequence[str]) -> int:
    """Fork workers for the calls that connect to `argv[0]` until stdin ends. Once it declines for good (its
    code changed, or it is no longer single-threaded) it stops listening and ends when its last worker has:
    a call's worker is never cut short."""
    where = argv[0]
    listener: socket.socket | None = place.bind(where)
    bound = os.stat(where).st_ino
    stamps = Stamps()
    workers: dict[int, _Worker] = {}  # by pidfd
    try:
        while listener is not None or workers:
            if _serve_once(listener, stamps, workers) == "exit" and listener is not None:
                _stop_listening(listener, where, bound)
                listener = None
        return 0
    except EOFError:
        return 0  # the server and every call it forked are gone: their workers go with them
    finally:
        for worker in workers.values():
            with contextlib.suppress(OSError):
                signal.pidfd_send_signal(worker.pidfd, signal.SIGKILL)
        if listener is not None:
            _stop_listening(listener, where, bound)


def _serve_once(listener: socket.socket | None, stamps: Stamps, workers: dict[int, _Worker]) -> str:
    """Wait for something to do and do it: reap, end a worker its call left, fork for a request."""
    by_connection = {worker.connection.fileno(): worker for worker in workers.values()}
    listening = [] if listener is None else [listener.fileno()]
    ready = select.select([0, *listening, *workers, *by_connection], [], [])[0]
    if 0 in ready and not os.read(0, 4096):
        raise EOFError
    for descriptor in ready:
        if descriptor in workers:
            _reaped(workers.pop(descriptor))
    for descriptor in ready:
        worker = by_connection.get(descriptor)
        if worker is not None and worker.pidfd in workers:
            _heard(worker)
    if listener is None or listener.fileno() not in ready:
        return "served"
    connection, _ = listener.accept()
    return _fork_for(connection, listener, stamps, workers)


def _stop_listening(listener: socket.socket, where: str, bound: int) -> None:
    listener.close()
    place.unlink_if_ours(where, bound)


def _fork_for(connection: socket.socket, listener: socket.socket, stamps: Stamps, workers: dict[int, _Worker]) -> str:
    """Serve one call's request: "forked", "declined", or "exit" (declined, and the zygote must end)."""
    descriptors: list[int] = []
    try:
        uid = place.peer_uid(connection)
        connection.settimeout(_REQUEST_SECONDS)
        data, descriptors, _, _ = socket.recv_fds(connection, 1 << 20, _DESCRIPTORS)
        reader = frames.Reader(connection)
        reader.feed(data)
        request = reader.next() if data else None
        connection.settimeout(None)
    except (OSError, ValueError):
        request, uid = None, -1
    if uid != os.getuid() or not _well_formed(request) or len(descriptors) != _DESCRIPTORS:
        _close(connection, descriptors)
        return "declined"
    declined, outcome = _declined(request["tasks"], stamps)
    if declined is not None:
        _note(f"declined a worker: {declined}")
        with contextlib.suppress(OSError):
            connection.sendall(frames.encode({"declined": declined}))
        _close(connection, descriptors)
        return outcome
    zygote = os.getpid()  # taken before the fork: read in the child, it would be the reaper's if this died first
    pid = os.fork()
    if pid == 0:
        _become_worker(request, descriptors, listener, workers, zygote)
    _close(None, descriptors)
    pidfd = os.pidfd_open(pid)
    workers[pidfd] = _Worker(pid, pidfd, connection)
    _note(f"a worker for {request['tasks']} in pid {pid}")
    with contextlib.suppress(OSError):
        connection.sendall(frames.encode({"pid": pid}))
    return "forked"


_REQUEST: Final = {"tasks": str, "memory": int, "env": dict, "cwd": str, "umask": int, "path": list}


def _well_formed(request: dict[str, Any] | None) -> TypeGuard[dict[str, Any]]:
    return request is not None and all(isinstance(request.get(key), kind) for key, kind in _REQUEST.items())


def _declined(tasks: str, stamps: Stamps) -> tuple[str | None, str]:
    """Why no worker is forked for `tasks` (and whether the zygote must end), or None."""
    if stamps.changed():
        return "the installed code changed since the zygote started", "exit"
    if tasks not in sys.modules:
        try:
            importlib.import_module(tasks)
        except BaseException as error:  # a task module that cannot load here: the call spawns its worker
            return f"its tasks do not import here ({type(error).__name__})", "declined"
        stamps.extend()
    if len(os.listdir("/proc/self/task")) != 1:
        return "it runs more than one thread, so forking it is not safe", "exit"
    return None, "forked"


def _become_worker(
    request: dict[str, Any], descriptors: list[int], listener: socket.socket, workers: dict[int, _Worker], zygote: int
) -> None:
    """In the forked child: take the call's place, as multiprocessing's spawn would start it, and serve (never
    returns)."""
    status = 1
    try:
        from multiprocessing.connection import Connection

        from cgx_core.base.budget_worker import serve

        pipe, stderr = descriptors
        listener.close()
        for worker in workers.values():
            os.close(worker.pidfd)
            worker.connection.close()
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(stderr, 1)
        os.dup2(stderr, 2)
        os.close(null)
        os.close(stderr)
        for number in (signal.SIGTERM, signal.SIGCHLD):
            signal.signal(number, signal.SIG_DFL)
        os.chdir(request["cwd"])
        os.umask(int(request["umask"]))
        os.environ.clear()
        os.environ.update(request["env"])
        sys.path[:] = request["path"]
        serve(Connection(pipe), str(request["tasks"]), int(request["memory"]), zygote)
        status = 0
    finally:
        os._exit(status)


def _heard(worker: _Worker) -> None:
    """The call shut its side of the connection (to end the worker, or it is done, or it was killed): the
    worker ends. A call sends nothing else."""
    try:
        data = worker.connection.recv(4096)
    except OSError:
        data = b""
    if not data:
        with contextlib.suppress(OSError):
            signal.pidfd_send_signal(worker.pidfd, signal.SIGKILL)


def _reaped(worker: _Worker) -> None:
    """The worker ended: collect it and tell its call how."""
    _, status = os.waitpid(worker.pid, 0)
    os.close(worker.pidfd)
    with contextlib.suppress(OSError):
        worker.connection.sendall(frames.encode({"status": os.waitstatus_to_exitcode(status)}), socket.MSG_NOSIGNAL)
    worker.connection.close()


def _close(connection: socket.socket | None, descriptors: list[int]) -> None:
    for descriptor in descriptors:
        with contextlib.suppress(OSError):
            os.close(descriptor)
    if connection is not None:
        connection.close()


def _note(line: str) -> None:
    """A line in the warm server's log (the zygote's stderr is the server's log)."""
    sys.stderr.write(f"zygote: {line}\n")
    sys.stderr.flush()


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is for the call, which ends its worker itself
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # ends through main's cleanup: its workers killed
    raise SystemExit(main(sys.argv[1:]))
