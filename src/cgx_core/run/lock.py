"""The run's lock: the operating system's `flock` on a file that is never deleted.

The kernel releases an flock when its process dies, so a crashed agent never leaves a lock behind. The
holder's pid and command are written into the file for information only; who really holds the lock is
read from `/proc/locks`, which the kernel keeps true.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import time
from pathlib import Path
from types import TracebackType
from typing import Self

import attrs

from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.run.call_control import checkpoint, progress

POLL_SECONDS = 0.002
INFO_WIDTH = 512
MAX_WAIT_SECONDS = 3600.0
"""The longest a call may wait for the lock: a finite number, so no call waits for ever (`--wait nan` did)."""


@attrs.frozen
class Holder:
    """A process that holds a run's lock."""

    pid: int
    command: str

    def describe(self) -> str:
        return f"process {self.pid} ({self.command})" if self.command else f"process {self.pid}"


MAX_COMMAND = 300


def command_of(pid: int) -> str:
    """The holder's command line as one short line of printable text: it goes into an error message that
    must stay one line (a `python -c` script holds newlines) and readable (a command can be long)."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    text = " ".join(part.decode("utf-8", "replace") for part in raw.split(b"\0") if part)
    text = " ".join("".join(char if char.isprintable() else " " for char in text).split())
    return text if len(text) <= MAX_COMMAND else text[: MAX_COMMAND - 3] + "..."


def lock_id(path: Path) -> tuple[int, int, int] | None:
    """The device and inode of `path`, as /proc names the file a lock is on; None when it cannot be read."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return (os.major(stat.st_dev), os.minor(stat.st_dev), stat.st_ino)


def flock_on(line: str) -> tuple[int, tuple[int, int, int]] | None:
    """The holder's pid and the device and inode of the file an flock line of /proc is on
    (`1: FLOCK  ADVISORY  WRITE 12345 fe:00:1234 0 EOF`); None for another lock, or a blocked waiter (`->`)."""
    fields = line.split()
    if "->" in fields or len(fields) < 6 or fields[1] != "FLOCK":
        return None
    try:
        major, minor, inode = fields[5].split(":")
        return int(fields[4]), (int(major, 16), int(minor, 16), int(inode))
    except ValueError:
        return None


def lock_holder(lock_path: Path) -> Holder | None:
    """The process holding an flock on `lock_path`, found through `/proc/locks`, or None."""
    wanted = lock_id(lock_path)
    try:
        table = Path("/proc/locks").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    for line in table.splitlines():
        found = flock_on(line)
        if found is not None and found[1] == wanted:
            return Holder(found[0], command_of(found[0]))
    return None


class RunLock:
    """An exclusive lock on one run, held for the length of one changing call."""

    def __init__(self, lock_path: Path, *, wait_seconds: float) -> None:
        if not math.isfinite(wait_seconds) or not 0 <= wait_seconds <= MAX_WAIT_SECONDS:
            raise CgxError(
                Code.INVALID_ARGUMENTS,
                f"the time to wait for the run's lock must be from 0 to {MAX_WAIT_SECONDS} seconds, not {wait_seconds}",
            )
        self._path = lock_path
        self._wait = wait_seconds
        self._fd: int | None = None

    def __enter__(self) -> Self:
        fd = os.open(self._path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        deadline = time.monotonic() + self._wait
        waited = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                try:  # a call waiting for the lock says so, and stops waiting when it is cancelled
                    if not waited:
                        progress(0, None, "waiting for the run's lock")
                    waited = True
                    checkpoint()
                except BaseException:
                    os.close(fd)
                    raise
                if time.monotonic() >= deadline:
                    holder = lock_holder(self._path)
                    os.close(fd)
                    raise _locked(holder) from None
                time.sleep(POLL_SECONDS)
        self._fd = fd
        # For information only (the holder is read from /proc/locks): the holder's pid, never its command line,
        # which holds local paths and the call's arguments. Written in place at a fixed width, never truncated:
        # truncating makes ext4 flush, which cost a call up to 3 ms.
        _write_info(fd, json.dumps({"pid": os.getpid()}).encode("ascii"))
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if self._fd is not None:
            _write_info(self._fd, b"")  # released: the file names no holder
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None


def _locked(holder: Holder | None) -> CgxError:
    """The refusal of a call that could not take the lock. A holder that is this very process (a server whose
    earlier call, cancelled, is still stopping, or a call of another of its threads) is not a stranger to
    unlock: the call is simply made again in a moment."""
    if holder is not None and holder.pid == os.getpid():
        return CgxError(
            Code.RUN_LOCKED,
            "the run is locked by an earlier call of this same process (a cancelled call still stopping, or "
            "one still running); make the call again in a moment, without unlocking anything",
        )
    who = holder.describe() if holder else "another process"
    return CgxError(
        Code.RUN_LOCKED,
        f"the run is locked by {who}; try again when its call ends, or see 'credencegraph-extract unlock RUN'",
    )


def _write_info(fd: int, info: bytes) -> None:
    with contextlib.suppress(OSError):
        os.pwrite(fd, info[: INFO_WIDTH - 1].ljust(INFO_WIDTH - 1) + b"\n", 0)
