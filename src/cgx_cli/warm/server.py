"""The warm server: `python -P -m cgx_cli.warm.server SOCKET`, started by the first cold `tool` call.

It takes the socket's lock (a second server of the same address exits at once), imports what tool calls
import, binds the socket (under a temporary name, then renamed, so a caller never meets a half-ready server)
and waits. Each connection gets a forked child that runs the call (`call.run_call`); the server only accepts,
forks and reaps, single-threaded, so forking it is safe. When a child dies of a signal the server tells the
caller which, so the caller can die of it too. Beside it runs its zygote (`zygote`), which forks the calls'
budgeted workers (a maths step's sympy worker) with their tasks imported.

The server never runs stale code: before each call it compares the files of every module it imported, and the
folders on its module path, with what they were when it started; on any change it declines the call (the
caller runs it cold) and exits, and the next call starts a server on the new code. It also exits after
`CGX_WARM_IDLE_SECONDS` (900 by default) without a call, on SIGTERM, and when its socket is removed or replaced.
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import os
import select
import signal
import socket
import sys
import time
import traceback
from collections.abc import Sequence
from typing import IO, Final

import attrs

from cgx_cli.warm import client, frames, place, zygote
from cgx_cli.warm.stamps import Stamps

STARTER_PATIENCE: Final = 300.0
"""Seconds a new server waits for the call that started it to end before it imports anyway."""
MAX_CHILDREN: Final = 16
"""Calls served at once; beyond them a caller runs its call itself."""


def main(argv: Sequence[str]) -> int:
    """Serve the socket `argv[0]` until idle, once the call of pid `argv[1]` (the one that started it) has
    ended; in a forked child, the call's exit status."""
    where = argv[0]
    lock = open(where.removesuffix(".sock") + ".lock", "a")  # noqa: SIM115 (held for the server's life)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return 0  # another server of this address is starting or running
    lock.truncate(0)
    lock.write(f"{os.getpid()}\n")  # who serves this address, for a person or a benchmark to find it
    lock.flush()
    if len(argv) > 1:
        _after(int(argv[1]))
    _log_to(where.removesuffix(".sock") + ".log")
    interpreter = place.description(os.environ, sys.path)
    if place.address(os.environ, sys.path) != where:
        return _broken(where, "the server's interpreter is not the one that started it")
    try:
        _warm_up()
    except BaseException:  # whatever stopped the imports is written down, and calls run cold
        return _broken(where, traceback.format_exc())
    with contextlib.suppress(OSError):
        os.unlink(client.broken_marker(where))
    workers = zygote.start(where)  # noqa: F841 (its stdin stays open while this process and its calls live)
    stamps = Stamps()
    listener = place.bind(where)
    bound = os.stat(where).st_ino
    gc.freeze()  # the children share these pages: the collector should not write to them in each child
    server = os.getpid()
    note(f"pid {server} serving {where}")
    try:
        outcome = _serve(listener, Served(where, bound, stamps), place.idle_seconds(os.environ), lock)
    finally:
        if os.getpid() == server:
            place.unlink_if_ours(where, bound)
            listener.close()
    if isinstance(outcome, socket.socket):
        from cgx_cli.warm.call import run_call

        return run_call(outcome, interpreter, zygote.address_beside(where))
    return 0


def _after(starter: int) -> None:
    """Wait until the call that started this server has ended (`STARTER_PATIENCE` seconds at most), so that the
    server's imports do not compete with it for the machine: a session's first call is its slowest already,
    and its next comes after the agent has read the result."""
    try:
        pidfd = os.pidfd_open(starter)
    except OSError:
        return  # it has ended already (or this kernel has no pidfd: start now)
    try:
        select.select([pidfd], [], [], STARTER_PATIENCE)
    finally:
        os.close(pidfd)


def _warm_up() -> None:
    """Import what a tool call imports, and load the installed check types, as a cold call would (numpy and
    credencegraph's diagnostics stay deferred, as the console script defers them; no thread or process is
    started, so forking stays safe)."""
    import importlib

    from cgx_cli.lazy_imports import install

    install()
    import cgx_cli.main
    import cgx_cli.tool_command
    import cgx_cli.warm.call
    import cgx_cli.warm.forked_worker  # noqa: F401
    from cgx_core.checks.installed import installed_check_types
    from cgx_core.ingest import worker
    from cgx_core.tooling.registry import TOOLS

    for tool in TOOLS.values():
        importlib.import_module(tool.module)
    installed_check_types()
    worker.prepare_readers()


@attrs.frozen
class Served:
    """The socket a server answers on: its path, the inode it bound there, and its code's stamps."""

    where: str
    bound: int
    stamps: Stamps


def _serve(listener: socket.socket, served: Served, idle: float, lock: IO[str]) -> socket.socket | None:
    """Accept, fork, reap. Returns None when the server should exit, or (in a forked child) the connection
    whose call the child runs."""
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.signal(signal.SIGTERM, _stop)
    signal.set_wakeup_fd(wake_write)
    children: dict[int, socket.socket] = {}
    last = time.monotonic()
    try:
        while True:
            wait = max(0.0, idle - (time.monotonic() - last)) if not children else 60.0
            ready = select.select([listener.fileno(), wake_read], [], [], wait)[0]
            if wake_read in ready:
                with contextlib.suppress(BlockingIOError):
                    os.read(wake_read, 4096)
            _reap(children)
            if children:
                last = time.monotonic()
            if listener.fileno() not in ready:
                if not children and time.monotonic() - last >= idle:
                    note(f"idle for {idle:g} s: exiting")
                    return None
                continue
            last = time.monotonic()
            connection, _ = listener.accept()
            declined = _declined(connection, served, len(children))
            if declined is not None:
                note(f"declined a call: {declined}")
                with contextlib.suppress(OSError):
                    connection.sendall(frames.encode({"cold": declined}))
                connection.close()
                if declined != "busy":
                    return None
                continue
            child = os.fork()
            if child == 0:
                signal.set_wakeup_fd(-1)
                os.close(wake_read)
                os.close(wake_write)
                lock.close()
                listener.close()
                for other in children.values():
                    other.close()
                for number in (signal.SIGCHLD, signal.SIGTERM):
                    signal.signal(number, signal.SIG_DFL)
                return connection
            children[child] = connection
            note(f"a call in pid {child}")
    except _Stopped:
        note("stopped by SIGTERM")
        return None


class _Stopped(Exception):
    """SIGTERM: the server ends (the calls in its children go on)."""


def _stop(*_: object) -> None:
    raise _Stopped


def _declined(connection: socket.socket, served: Served, running: int) -> str | None:
    """Why this call is not served here (the caller then runs it), or None to serve it."""
    if place.peer_uid(connection) != os.getuid():
        return "the caller is another user"
    try:
        replaced = os.stat(served.where).st_ino != served.bound
    except OSError:
        replaced = True
    if replaced:
        return "the server's socket was removed or replaced"
    if served.stamps.changed():
        return "the installed code changed since the server started"
    return "busy" if running >= MAX_CHILDREN else None


def _reap(children: dict[int, socket.socket]) -> None:
    """Collect every ended child; tell the caller of one that died of a signal which signal it was."""
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        connection = children.pop(pid, None)
        if connection is None:
            continue
        if os.WIFSIGNALED(status):
            note(f"pid {pid} was killed by signal {os.WTERMSIG(status)}")
            with contextlib.suppress(OSError):
                connection.sendall(frames.encode({"killed": os.WTERMSIG(status)}), socket.MSG_NOSIGNAL)
        else:
            note(f"pid {pid} exited with status {os.waitstatus_to_exitcode(status)}")
        connection.close()


def _broken(where: str, reason: str) -> int:
    """Leave the reason beside the socket, so callers run cold for a while instead of starting servers."""
    with contextlib.suppress(OSError), open(client.broken_marker(where), "w", encoding="utf-8") as marker:
        marker.write(reason)
    sys.stderr.write(reason + "\n")
    return 1


def note(line: str) -> None:
    """One line in the server's log: what it served and why it declined or exited (never a call's arguments)."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def _log_to(path: str) -> None:
    """The server's own messages go to a log beside its socket (its streams were /dev/null)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(descriptor, 2)
    os.close(descriptor)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
