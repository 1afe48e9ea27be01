"""The messages between the console script and the warm process: length-prefixed dictionaries on a Unix socket.

The request (argv, working directory, umask, environment, module path, which standard streams it passes) goes
first, with the caller's standard streams attached as descriptors (SCM_RIGHTS). Then the child says `started`
before it runs anything (until then the caller may still run the call itself), and `status` when it is done;
the server sends `killed` when the child died of a signal, `cold` when it declines the call. The caller sends
`signal` to pass on a signal it received.

The dictionaries are `marshal`ed: built into the interpreter, so the caller pays no import for them (json's
import is a tenth of the caller's start), and they hold only strings, numbers, lists and dictionaries. Both
ends are the same user's processes (the server checks the peer's credentials) of the same interpreter.
"""

from __future__ import annotations

import marshal
import struct

TYPE_CHECKING = False
if TYPE_CHECKING:
    import socket
    from typing import Any, Final

_HEAD: Final = struct.Struct(">I")
MAX_FRAME: Final = 256 * 1024 * 1024
"""The longest message: a request carries the call's arguments, which `--args` may make large."""


def encode(message: dict[str, Any]) -> bytes:
    body = marshal.dumps(message)
    return _HEAD.pack(len(body)) + body


class Reader:
    """Frames read from a socket as they come (a frame may arrive in pieces, or several in one read)."""

    def __init__(self, connection: socket.socket) -> None:
        self._connection = connection
        self._buffer = b""
        self._ready: list[dict[str, Any]] = []

    def feed(self, data: bytes) -> None:
        """Take `data` read from the socket; each frame it completes becomes ready.

        Raises:
            ValueError: a frame too long, or one that is not a dictionary.
        """
        self._buffer += data
        while len(self._buffer) >= _HEAD.size:
            (size,) = _HEAD.unpack_from(self._buffer)
            if size > MAX_FRAME:
                raise ValueError(f"a frame of {size} bytes is longer than {MAX_FRAME}")
            if len(self._buffer) < _HEAD.size + size:
                return
            body, self._buffer = self._buffer[_HEAD.size : _HEAD.size + size], self._buffer[_HEAD.size + size :]
            try:
                message = marshal.loads(body)
            except (EOFError, TypeError, ValueError) as error:
                raise ValueError(f"a frame that is not a message: {error}") from None
            if not isinstance(message, dict):
                raise ValueError("a frame that is not a dictionary")
            self._ready.append(message)

    def ready(self) -> list[dict[str, Any]]:
        """The frames complete so far, in order (taken: the next call returns only newer ones)."""
        taken, self._ready = self._ready, []
        return taken

    def next(self) -> dict[str, Any] | None:
        """The next frame, waiting for it; None at end of file (the other side closed)."""
        while not self._ready:
            data = self._connection.recv(1 << 16)
            if not data:
                return None
            self.feed(data)
        return self._ready.pop(0)
