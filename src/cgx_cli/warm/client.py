"""The console script's side of the warm path: offer a `tool` call to the warm server, or say to run it here.

Only the standard library's lightest modules are imported here: this runs at the start of every call. The
call is handed over with the caller's standard streams, so the child writes the result and any error line
itself, to the same pipes or terminal a cold call would. The caller waits for the child's exit status and
exits with it; a signal it receives meanwhile (Ctrl-C, a harness's timeout) is passed on to the child, and if
the caller is killed outright the child sees its socket close and is killed too, as a cold call would be.

When no server answers, the caller starts one in the background (unless one failed to start in the last ten
minutes) and runs the call itself; the next call finds the server warm.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import time

from cgx_cli.warm import frames, place

TYPE_CHECKING = False
if TYPE_CHECKING:  # the annotations' names, not imported at run time: this module is on every call's path
    from collections.abc import Sequence
    from types import FrameType
    from typing import Final

FORWARDED: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
BROKEN_PAUSE_SECONDS: Final = 600.0
"""After a server failed to start, calls run cold this long before another start is tried."""
LOST_STATUS: Final = 2


def call(argv: Sequence[str]) -> int | None:
    """Run the command `argv` in the warm server: its exit status, or None when the caller must run it."""
    if list(argv[:1]) != ["tool"] or not place.enabled(os.environ):
        return None
    where = place.address(os.environ, sys.path[1:])
    if where is None:
        return None
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(where)
    except OSError:
        connection.close()
        start_server(where)
        return None
    with connection:
        return _hand_over(connection, list(argv))


def start_server(where: str) -> None:
    """Start the server of `where` in the background, in a session of its own, holding none of our streams; it
    imports once this call has ended."""
    if _failed_recently(where):
        return
    import subprocess

    try:
        subprocess.Popen(
            [sys.executable, "-P", "-m", "cgx_cli.warm.server", where, str(os.getpid())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=True,
            start_new_session=True,
            cwd="/",
        )
    except OSError:
        return  # no server this time: the calls run cold


def broken_marker(where: str) -> str:
    """The file a server that could not start leaves beside its socket, saying why."""
    return where.removesuffix(".sock") + ".broken"


def _failed_recently(where: str) -> bool:
    try:
        return time.time() - os.stat(broken_marker(where)).st_mtime < BROKEN_PAUSE_SECONDS
    except OSError:
        return False


def _hand_over(connection: socket.socket, argv: list[str]) -> int | None:
    streams = [fd for fd in (0, 1, 2) if _is_open(fd)]
    ignored = [int(number) for number in FORWARDED if signal.getsignal(number) == signal.SIG_IGN]
    request = frames.encode(
        {
            "argv": argv,
            "cwd": os.getcwd(),
            "umask": place.umask(),
            "env": dict(os.environ),
            "path": sys.path,
            "streams": streams,
            "interpreter": place.description(os.environ, sys.path[1:]),
            "ignored": ignored,
        }
    )
    try:
        sent = socket.send_fds(connection, [request[:4096]], streams)
        connection.sendall(request[sent:])
    except OSError:
        return None
    reader = frames.Reader(connection)
    started = False
    handlers = _forward_signals(connection, ignored)
    try:
        while (message := reader.next()) is not None:
            if "cold" in message and not started:
                return None
            if message.get("started") is True:
                started = True
            elif "status" in message:
                return int(message["status"])
            elif "killed" in message:
                _die_of(int(message["killed"]))
    except (OSError, ValueError):
        if not started:
            return None
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
    if not started:
        return None
    sys.stderr.write(
        "error [internal-error]: the warm process that ran this call ended without an answer; get_state "
        "shows whether the call landed (set CGX_WARM=0 to run every call in its own process)\n"
    )
    return LOST_STATUS


def _forward_signals(connection: socket.socket, ignored: list[int]) -> dict[int, signal._HANDLER]:
    """Pass each signal on to the child, but those this process ignores (the child ignores them too)."""

    def forward(number: int, _: FrameType | None) -> None:
        try:
            connection.sendall(frames.encode({"signal": number}))
        except OSError:
            return  # the child is gone: its status, or the server's word of its death, is on its way

    return {number: signal.signal(number, forward) for number in FORWARDED if number not in ignored}


def _die_of(number: int) -> None:
    """End this process as the child ended, by the same signal, so a harness sees what a cold call shows."""
    sys.stderr.flush()
    try:
        signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [number])
        os.kill(os.getpid(), number)
    except (OSError, ValueError):
        raise SystemExit(128 + number) from None
    raise SystemExit(128 + number)  # a signal whose default is to go on (SIGCHLD, ...): the shell's status


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True
