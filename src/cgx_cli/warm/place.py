"""Where this interpreter's warm server listens, and whether the warm path is on.

One server serves one interpreter as it starts: the same executable and prefix, Python version, module
search path, and the environment variables that shape an interpreter or a library as it imports (`PYTHON*`,
the locale, `TZ`, `SYMPY_*`, `CGX_WARM_*`). Any of those differing makes another address, so a server never
runs a call with code or settings the caller would not have loaded. Every other variable is the call's own:
the child takes the caller's environment whole.

The sockets live in a folder only this user can enter (`CGX_WARM_DIR`, else `$XDG_RUNTIME_DIR/credencegraph-
extract`, else `/tmp/credencegraph-extract-<uid>`), created with mode 0700; a folder that is a symbolic link,
is another user's or is open to others is not used (the call runs cold), so no other user can listen in the
caller's place. The warm path is Linux's only (it passes descriptors and is told of a closed socket by SIGIO).
"""

from __future__ import annotations

import os
import socket
import stat
import struct
import sys
import zlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Final

ENABLED_ENV: Final = "CGX_WARM"
"""`0`, `off`, `no` or `false` turns the warm path off: every call starts its own interpreter, as before."""
FOLDER_ENV: Final = "CGX_WARM_DIR"
"""The folder of the warm servers' sockets (created with mode 0700 if missing)."""
IDLE_ENV: Final = "CGX_WARM_IDLE_SECONDS"
"""How long a warm server waits for a call before it exits (seconds; default `DEFAULT_IDLE_SECONDS`)."""
DEFAULT_IDLE_SECONDS: Final = 900.0

_OFF: Final = frozenset({"0", "off", "no", "false"})
_SHAPING_PREFIXES: Final = ("PYTHON", "LC_", "SYMPY_", "CGX_WARM_")
_SHAPING_NAMES: Final = frozenset({"LANG", "LANGUAGE", "TZ"})
_FLAGS: Final = (
    "optimize",
    "dont_write_bytecode",
    "no_user_site",
    "no_site",
    "ignore_environment",
    "isolated",
    "dev_mode",
    "utf8_mode",
    "warn_default_encoding",
    "int_max_str_digits",
    "bytes_warning",
    "hash_randomization",
)
"""The interpreter's flags that change how code runs (not `safe_path`: the server is started with -P)."""
_MAX_SOCKET_PATH: Final = 100
"""sockaddr_un holds 108 bytes on Linux, the terminating zero included; a longer path cannot be bound."""


def enabled(environment: Mapping[str, str]) -> bool:
    return sys.platform == "linux" and environment.get(ENABLED_ENV, "1").strip().lower() not in _OFF


def idle_seconds(environment: Mapping[str, str]) -> float:
    """The server's idle time before it exits: the variable when it is a positive number, else the default."""
    try:
        seconds = float(environment.get(IDLE_ENV, ""))
    except ValueError:
        return DEFAULT_IDLE_SECONDS
    return seconds if 0 < seconds < float("inf") else DEFAULT_IDLE_SECONDS


def address(environment: Mapping[str, str], module_path: Sequence[str]) -> str | None:
    """The socket path of the server of an interpreter with this environment and module path (the caller's
    `sys.path[1:]`: its first entry is the console script's folder; the server, started with -P, has none),
    or None when no safe folder can hold one."""
    folder = _folder(environment)
    if folder is None:
        return None
    path = os.path.join(folder, f"{identity(environment, module_path)}.sock")
    return path if len(os.fsencode(path)) <= _MAX_SOCKET_PATH else None


def identity(environment: Mapping[str, str], module_path: Sequence[str]) -> str:
    """A short name for `description`: two checksums of it (zlib's, which the caller imports for free). Two
    descriptions sharing a name cost a cold call, never a wrong one: the server compares the whole description."""
    data = description(environment, module_path).encode("utf-8", "surrogateescape")
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def description(environment: Mapping[str, str], module_path: Sequence[str]) -> str:
    """Everything that decides what a server imports and how (see the module's docstring), as text."""
    shaping = sorted(
        (name, value)
        for name, value in environment.items()
        if name.startswith(_SHAPING_PREFIXES) or name in _SHAPING_NAMES
    )
    flags = [getattr(sys.flags, name) for name in _FLAGS]
    return repr((sys.executable, sys.prefix, sys.version, flags, list(module_path), shaping))


def _folder(environment: Mapping[str, str]) -> str | None:
    chosen = environment.get(FOLDER_ENV)
    if not chosen:
        runtime = environment.get("XDG_RUNTIME_DIR")
        chosen = (
            os.path.join(runtime, "credencegraph-extract")
            if runtime
            else os.path.join("/tmp", f"credencegraph-extract-{os.getuid()}")
        )
    try:
        os.makedirs(chosen, 0o700, exist_ok=True)
    except OSError:
        return None
    return chosen if private(chosen) else None


def private(folder: str) -> bool:
    """True when `folder` is a real folder of this user's that no one else may enter or write to."""
    try:
        found = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid() and found.st_mode & 0o077 == 0


def bind(where: str) -> socket.socket:
    """A listening socket at `where`, bound under a temporary name and renamed, so a caller never meets a
    half-ready one; only its owner may connect (0600)."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    temporary = f"{where}.{os.getpid()}"
    if os.path.lexists(temporary):  # a server of this pid that died before its rename
        os.unlink(temporary)
    listener.bind(temporary)
    os.chmod(temporary, 0o600)
    listener.listen(64)
    os.replace(temporary, where)
    return listener


def unlink_if_ours(where: str, bound: int) -> None:
    """Remove the socket at `where` if it is still the one bound there as inode `bound` (not a later process's)."""
    try:
        if os.stat(where).st_ino == bound:
            os.unlink(where)
    except OSError:
        return


_CREDENTIALS = struct.Struct("3i")


def peer_uid(connection: socket.socket) -> int:
    """The user id of the process at the other end of a Unix socket (SO_PEERCRED)."""
    return int(_CREDENTIALS.unpack(connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _CREDENTIALS.size))[1])


def umask() -> int:
    """This process's umask. Read from /proc without setting it, since a call's other threads may be creating
    files; set and restored where the kernel does not say it (before Linux 4.7)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o077)
    os.umask(mask)
    return mask
