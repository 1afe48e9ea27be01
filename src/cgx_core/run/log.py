"""The log, `calls.jsonl`: the record of truth of a run.

One line per call that changed the run, appended with a single write and fsynced: that write is the
commit. Each line carries the digest of the line before it, so an earlier line that was rewritten or
deleted breaks the chain at a known place. A last line without its newline, or with bytes that are
not a valid continuation and nothing valid after them, was never committed (a crash or a lost write
tore it): recovery cuts it away and reports it.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from cgx_core.base.digests import bytes_digest
from cgx_core.codes import Code
from cgx_core.errors import CgxError

LINE_FIELDS = ("seq", "tool", "args", "model", "agent", "note", "read", "result", "graph", "prev")


@attrs.frozen
class LogLine:
    """One committed call."""

    seq: int
    tool: str
    args: Mapping[str, Any]
    model: str
    agent: str | None
    note: str | None
    read: Any
    result: str
    graph: str
    prev: str | None

    def to_bytes(self) -> bytes:
        """The line's bytes, without the newline: compact JSON, fields in a fixed order, and the arguments'
        keys in the order the agent sent them. That order is kept because it can reach the graph (a JSON
        object in a record becomes an attribute whose key order graph.json writes), so a replay must see
        the call exactly as it was made."""
        fields = {name: getattr(self, name) for name in LINE_FIELDS}
        return json.dumps(fields, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")

    @classmethod
    def from_json(cls, data: object) -> LogLine:
        """Read a line back; anything but the exact format is a ValueError."""
        if not isinstance(data, dict) or sorted(data) != sorted(LINE_FIELDS):
            raise ValueError("not a log line")
        line = cls(**{name: data[name] for name in LINE_FIELDS})
        if not isinstance(line.seq, int) or isinstance(line.seq, bool) or not isinstance(line.tool, str):
            raise ValueError("not a log line")
        if not isinstance(line.args, dict) or not isinstance(line.model, str):
            raise ValueError("not a log line")
        return line


@attrs.frozen
class Entry:
    """A line as found in the file: what it says, where it ends, and its digest."""

    line: LogLine
    end: int
    digest: str


@attrs.frozen
class Tail:
    """Bytes after the last good line that were never committed."""

    offset: int
    length: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"cut_at_byte": self.offset, "bytes": self.length, "reason": self.reason}


@attrs.frozen
class Scan:
    """What the log holds after a known point."""

    entries: tuple[Entry, ...]
    tail: Tail | None


def parse_line(raw: bytes) -> LogLine | None:
    """The call a line records, or None. A line must be exactly the canonical bytes `append` writes: JSON
    that parses but is written otherwise (a garbled tail that left trailing spaces, an edit) is not a line."""
    try:
        line = LogLine.from_json(json.loads(raw))
        return line if line.to_bytes() == raw else None
    except (ValueError, TypeError, UnicodeDecodeError, RecursionError):
        return None


def scan(path: Path, offset: int, next_seq: int, prev: str | None) -> Scan:
    """Read the lines after byte `offset`, expecting sequence `next_seq` chained to `prev`.

    Raises:
        CgxError: `run-corrupt` when a bad line is followed by good ones: that is no torn tail but a
            log someone rewrote, and no repair can tell which call is true.
    """
    try:
        with path.open("rb") as handle:
            handle.seek(offset)
            data = handle.read()
    except FileNotFoundError:
        return Scan((), None)
    entries: list[Entry] = []
    position = 0
    while position < len(data):
        newline = data.find(b"\n", position)
        if newline < 0:
            return Scan(tuple(entries), Tail(offset + position, len(data) - position, "the last line has no newline"))
        raw = data[position:newline]
        line = parse_line(raw)
        if line is not None and (line.seq != next_seq or line.prev != prev):
            raise _broken_chain(next_seq, offset + position)
        if line is None:
            if _any_good_line_after(data, newline + 1):
                raise _broken_chain(next_seq, offset + position)
            return Scan(
                tuple(entries),
                Tail(offset + position, len(data) - position, f"the line after call {next_seq - 1} is not valid"),
            )
        digest = bytes_digest(raw)
        entries.append(Entry(line, offset + newline + 1, digest))
        position = newline + 1
        next_seq += 1
        prev = digest
    return Scan(tuple(entries), None)


def _any_good_line_after(data: bytes, position: int) -> bool:
    return any(parse_line(raw) is not None for raw in data[position:].split(b"\n"))


def line_ending_at(path: Path, end: int) -> bytes | None:
    """The bytes of the line the log ends at byte `end` (without its newline), or None when no line ends there.

    It reads back from `end` only as far as that line starts (a 64 KiB window, grown when a line is
    longer), so checking that state.json still matches the log costs the same at call 10 and call 10,000.
    """
    window = 1 << 16
    try:
        with path.open("rb") as handle:
            while True:
                start = max(0, end - window)
                handle.seek(start)
                data = handle.read(end - start)
                if len(data) != end - start or not data.endswith(b"\n"):
                    return None
                cut_at = data.rfind(b"\n", 0, len(data) - 1)
                if cut_at >= 0 or start == 0:
                    return data[cut_at + 1 : -1]
                window *= 4
    except OSError:
        return None


_SEQ_PREFIX = b'{"seq":'
_PREV_KEY = b',"prev":'


def check_chain(path: Path, end: int, last: str | None) -> None:
    """Check the hash chain of the log's first `end` bytes, without parsing a line's JSON: each line starts
    with its sequence number (1, 2, ...) and ends with the digest of the line before it (`prev` is the last
    field), and the last line's digest is `last`. Every line was checked whole when it was committed; this
    finds a line rewritten or deleted since, wherever it is, in about a millisecond per megabyte.

    Raises:
        CgxError: `run-corrupt`, naming the first call whose chain is broken.
    """
    try:
        with path.open("rb") as handle:
            data = handle.read(end)
    except OSError as error:
        raise CgxError(Code.IO_ERROR, f"calls.jsonl cannot be read: {error.strerror}") from None
    previous = b"null"
    position = start = 0
    seq = 0
    while position < len(data):
        newline = data.find(b"\n", position)
        if newline < 0:
            raise _broken_chain(seq + 1, position)
        raw = data[position:newline]
        seq += 1
        tail = _PREV_KEY + previous + b"}"
        if not raw.startswith(b"%s%d," % (_SEQ_PREFIX, seq)) or not raw.endswith(tail):
            raise _broken_chain(seq, position)
        previous = b'"' + bytes_digest(raw).encode("ascii") + b'"'
        start, position = position, newline + 1
    if len(data) != end:
        raise _broken_chain(seq + 1, len(data))
    if (previous[1:-1].decode("ascii") if seq else None) != last:
        raise _broken_chain(seq, start)


def _broken_chain(seq: int, position: int) -> CgxError:
    """The refusal of a log whose hash chain is broken: where, and what the user can still do."""
    return CgxError(
        Code.RUN_CORRUPT,
        f"calls.jsonl: the hash chain breaks at call {seq} (byte {position}): the line there does not follow call "
        f"{seq - 1}; a committed line was rewritten or deleted, so the log is no longer the record of the calls "
        "that were made. No call can change this run; restore calls.jsonl from a copy, or start a new run",
    )


def cut(path: Path, tail: Tail) -> None:
    """Cut a torn tail away, durably."""
    with path.open("r+b") as handle:
        handle.truncate(tail.offset)
        handle.flush()
        os.fsync(handle.fileno())


def append(path: Path, line: LogLine) -> Entry:
    """Commit a call: one write of one line, then fsync. Returns where the line ends."""
    raw = line.to_bytes()
    data = raw + b"\n"
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        start = os.lseek(fd, 0, os.SEEK_END)  # the caller holds the lock: nobody else appends
        try:
            written = os.write(fd, data)
            if written != len(data):
                raise CgxError(Code.IO_ERROR, f"calls.jsonl: wrote {written} of {len(data)} bytes (is the disk full?)")
            os.fsync(fd)
        except BaseException:
            # Not committed: take back what was written, so that no later reader takes a line whose caller was
            # told it failed for a committed call (a full write whose fsync failed would otherwise look committed).
            with contextlib.suppress(OSError):
                os.ftruncate(fd, start)
            raise
        end = start + written
    finally:
        os.close(fd)
    return Entry(line, end, bytes_digest(raw))
