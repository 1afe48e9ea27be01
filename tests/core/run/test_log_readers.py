"""The log's readers, pinned case by case (cgx_core.run.log): `scan` (what a changing call reads after
state.json: the committed lines, a torn tail to cut, or a broken chain), `parse_line` (exactly the bytes
`append` writes, nothing else), `check_chain` (the whole hash chain up to state.json's end), `line_ending_at`
(the line state.json names) and `append` (a write that is not whole commits nothing).

The logs are built from real `LogLine`s, then damaged byte by byte. The one outcome that would lose committed
calls, a garbled line cut away with the good lines after it as a "torn tail", is refused as a broken chain.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cgx_core.base.digests import bytes_digest
from cgx_core.errors import CgxError
from cgx_core.run import log
from cgx_core.run.log import LogLine, Tail

ARGS = {"records": [{"node": "s-1", "type": "claim"}], "b": 1, "a": "ü and spaces"}


def chained(count: int) -> list[bytes]:
    """`count` canonical lines (without newlines), each chained to the one before."""
    made: list[bytes] = []
    prev: str | None = None
    for seq in range(1, count + 1):
        raw = LogLine(seq, "classify", ARGS, "m", None, None, None, f"r{seq}", f"g{seq}", prev).to_bytes()
        made.append(raw)
        prev = bytes_digest(raw)
    return made


def line_with(seq: int, prev: str | None, **changed: Any) -> bytes:
    """A line whose JSON differs from a canonical one only by `changed` (written compactly, as append does)."""
    import json

    fields = {"seq": seq, "tool": "classify", "args": ARGS, "model": "m", "agent": None, "note": None}
    fields |= {"read": None, "result": "r", "graph": "g", "prev": prev} | changed
    return json.dumps(fields, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


GOOD = chained(3)
ENDS = [sum(len(raw) + 1 for raw in GOOD[: index + 1]) for index in range(3)]
LAST2 = bytes_digest(GOOD[1])


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def two_and(tail: bytes) -> bytes:
    return GOOD[0] + b"\n" + GOOD[1] + b"\n" + tail


# (name, the bytes after the two good lines, the tail `scan` reports: (length, reason) or None)
TAILS: list[tuple[str, bytes, tuple[int, str] | None]] = [
    ("nothing", b"", None),
    ("the third line whole", GOOD[2] + b"\n", None),
    ("the third line without its newline", GOOD[2], (len(GOOD[2]), "the last line has no newline")),
    ("half the third line", GOOD[2][:40], (40, "the last line has no newline")),
    ("a garbled line with a newline", b"\x00garbled\n", (9, "the line after call 2 is not valid")),
    ("two garbled lines", b"garbled\nagain\n", (14, "the line after call 2 is not valid")),
    ("a garbled line, then half a line", b"garbled\n" + GOOD[2][:10], (18, "the line after call 2 is not valid")),
    ("zero bytes with a newline", b"\x00" * 20 + b"\n", (21, "the line after call 2 is not valid")),
    ("an extra field", line_with(3, LAST2, extra=1) + b"\n", None),
    ("a field missing", line_with(3, LAST2)[:-1].replace(b',"note":null', b"") + b"}\n", None),
    ("a boolean seq", line_with(3, LAST2).replace(b'{"seq":3', b'{"seq":true') + b"\n", None),
    ("a float seq", line_with(3, LAST2).replace(b'{"seq":3', b'{"seq":3.0') + b"\n", None),
    ("a tool that is not a string", line_with(3, LAST2, tool=7) + b"\n", None),
    ("arguments that are not an object", line_with(3, LAST2, args=[1]) + b"\n", None),
    ("a model that is not a string", line_with(3, LAST2, model=None) + b"\n", None),
    ("a re-spaced line", GOOD[2].replace(b'":', b'": ') + b"\n", None),
    ("fields in another order", line_with(3, LAST2, model="m").replace(b'"tool":"classify",', b"") + b"\n", None),
    ("not UTF-8", GOOD[2].replace(b"\xc3\xbc", b"\xfc") + b"\n", None),
    ("a JSON array", b"[1,2,3]\n", None),
    ("nested past the parser's stack", b"[" * 100_000 + b"\n", None),
]


@pytest.mark.parametrize(("name", "after", "tail"), TAILS, ids=[case[0] for case in TAILS])
def test_scan_reads_the_committed_lines_and_reports_a_torn_tail(
    tmp_path: Path, name: str, after: bytes, tail: tuple[int, str] | None
) -> None:
    path = write(tmp_path / "calls.jsonl", two_and(after))
    found = log.scan(path, 0, 1, None)
    whole = after == GOOD[2] + b"\n"
    assert [entry.line.to_bytes() for entry in found.entries] == GOOD[: 3 if whole else 2]
    assert [entry.end for entry in found.entries] == ENDS[: 3 if whole else 2]
    assert [entry.digest for entry in found.entries] == [bytes_digest(raw) for raw in GOOD[: 3 if whole else 2]]
    if after and not whole and tail is None:  # a line that is not exactly what append writes: invalid
        tail = (len(after), "the line after call 2 is not valid")
    assert found.tail == (None if tail is None else Tail(ENDS[1], tail[0], tail[1]))


# Bytes that are not a line, followed by good lines: no crash tears a line and then writes good ones after it,
# so this is a log someone edited, and cutting it would delete committed calls.
EDITED = [
    ("a garbled line", b"garbled"),
    ("a line with an extra field", line_with(2, bytes_digest(GOOD[0]), extra=1)),
    ("a line with a boolean seq", GOOD[1].replace(b'{"seq":2', b'{"seq":true')),
    ("a re-spaced line", GOOD[1].replace(b'":', b'": ')),
    ("an empty line", b""),
]


@pytest.mark.parametrize(("name", "bad"), EDITED, ids=[case[0] for case in EDITED])
def test_a_bad_line_followed_by_good_lines_is_a_broken_chain_never_a_tail(
    tmp_path: Path, name: str, bad: bytes
) -> None:
    path = write(tmp_path / "calls.jsonl", GOOD[0] + b"\n" + bad + b"\n" + GOOD[1] + b"\n" + GOOD[2] + b"\n")
    before = path.read_bytes()
    with pytest.raises(CgxError) as broken:
        log.scan(path, 0, 1, None)
    assert broken.value.code == "run-corrupt"
    assert f"breaks at call 2 (byte {ENDS[0]})" in broken.value.message
    assert path.read_bytes() == before  # the readers never change the log


def test_an_empty_first_line_is_a_tail_alone_and_a_broken_chain_before_good_lines(tmp_path: Path) -> None:
    path = write(tmp_path / "calls.jsonl", b"\n")
    assert log.scan(path, 0, 1, None) == log.Scan((), Tail(0, 1, "the line after call 0 is not valid"))
    write(path, b"\n" + GOOD[0] + b"\n")
    with pytest.raises(CgxError) as broken:
        log.scan(path, 0, 1, None)
    assert broken.value.message == (
        "calls.jsonl: the hash chain breaks at call 1 (byte 0): the line there does not follow call 0; a committed "
        "line was rewritten or deleted, so the log is no longer the record of the calls that were made. No call "
        "can change this run; restore calls.jsonl from a copy, or start a new run"
    )


def test_a_bad_line_followed_by_a_good_line_without_its_newline_is_a_broken_chain_too(tmp_path: Path) -> None:
    """One call is in flight at a time, so nothing is appended after a line that was never committed: a bad
    line with a good one after it, even one a crash left without its newline, was edited."""
    path = write(tmp_path / "calls.jsonl", two_and(b"garbled\n" + GOOD[2]))
    with pytest.raises(CgxError) as broken:
        log.scan(path, 0, 1, None)
    assert f"breaks at call 3 (byte {ENDS[1]})" in broken.value.message


@pytest.mark.parametrize(
    ("name", "lines", "at"),
    [
        ("a line skipped", [GOOD[0], GOOD[2]], (2, ENDS[0])),
        ("a line repeated", [GOOD[0], GOOD[0]], (2, ENDS[0])),
        ("lines swapped", [GOOD[1], GOOD[0]], (1, 0)),
        ("a line chained to the wrong call", [GOOD[0], line_with(2, "sha256:" + "0" * 64)], (2, ENDS[0])),
        ("the right seq chained to nothing", [GOOD[0], line_with(2, None)], (2, ENDS[0])),
    ],
)
def test_a_good_line_out_of_the_chain_is_a_broken_chain(
    tmp_path: Path, name: str, lines: list[bytes], at: tuple[int, int]
) -> None:
    path = write(tmp_path / "calls.jsonl", b"".join(raw + b"\n" for raw in lines))
    with pytest.raises(CgxError) as broken:
        log.scan(path, 0, 1, None)
    assert broken.value.code == "run-corrupt" and f"breaks at call {at[0]} (byte {at[1]})" in broken.value.message


def test_scan_starts_where_it_is_told_and_expects_the_chain_from_there(tmp_path: Path) -> None:
    path = write(tmp_path / "calls.jsonl", b"".join(raw + b"\n" for raw in GOOD))
    found = log.scan(path, ENDS[0], 2, bytes_digest(GOOD[0]))
    assert [entry.line.seq for entry in found.entries] == [2, 3] and found.tail is None
    assert log.scan(path, ENDS[2], 4, bytes_digest(GOOD[2])) == log.Scan((), None)
    with pytest.raises(CgxError):
        log.scan(path, ENDS[0], 3, bytes_digest(GOOD[0]))  # expecting another sequence number
    with pytest.raises(CgxError):
        log.scan(path, ENDS[0], 2, bytes_digest(GOOD[1]))  # expecting another predecessor
    assert log.scan(tmp_path / "absent.jsonl", 0, 1, None) == log.Scan((), None)


def test_parse_line_takes_exactly_the_bytes_append_writes() -> None:
    for raw in GOOD:
        parsed = log.parse_line(raw)
        assert parsed is not None and parsed.to_bytes() == raw
    for _, after, _ in TAILS:
        raw = after.removesuffix(b"\n")
        if raw not in GOOD:
            assert log.parse_line(raw) is None, raw[:60]
    line = log.parse_line(GOOD[1])
    assert line is not None
    assert (line.seq, line.tool, line.args, line.prev) == (2, "classify", ARGS, bytes_digest(GOOD[0]))
    assert list(line.args) == ["records", "b", "a"]  # the agent's key order, kept


def test_check_chain_accepts_the_whole_log_and_every_prefix_that_ends_a_line(tmp_path: Path) -> None:
    path = write(tmp_path / "calls.jsonl", b"".join(raw + b"\n" for raw in GOOD))
    log.check_chain(path, 0, None)
    for end, raw in zip(ENDS, GOOD, strict=True):
        log.check_chain(path, end, bytes_digest(raw))


def damaged(edit: Callable[[list[bytes]], list[bytes]]) -> bytes:
    return b"".join(raw + b"\n" for raw in edit(list(GOOD)))


@pytest.mark.parametrize(
    ("name", "data", "end", "last", "at", "byte"),
    [
        (
            "the first line edited",
            damaged(lambda lines: [lines[0].replace(b"r1", b"r9"), *lines[1:]]),
            None,
            None,
            2,
            ENDS[0],
        ),
        (
            "the middle line edited",
            damaged(lambda lines: [lines[0], lines[1].replace(b"g2", b"g9"), lines[2]]),
            None,
            None,
            3,
            ENDS[1],
        ),
        (
            "the last line edited",
            damaged(lambda lines: [*lines[:2], lines[2].replace(b"g3", b"g9")]),
            None,
            None,
            3,
            ENDS[1],
        ),
        ("a line deleted", damaged(lambda lines: [lines[0], lines[2]]), ENDS[2] - len(GOOD[1]) - 1, None, 2, ENDS[0]),
        (
            "a line re-spaced",
            damaged(lambda lines: [lines[0], lines[1].replace(b'":', b'": '), lines[2]]),
            ENDS[2] + 30,
            None,
            2,
            ENDS[0],
        ),
        ("the log cut at a line boundary", damaged(lambda lines: lines[:2]), ENDS[2], None, 3, ENDS[1]),
        ("the log cut inside a line", damaged(lambda lines: lines)[: ENDS[1] + 5], ENDS[2], None, 3, ENDS[1]),
        ("an end inside a line", damaged(lambda lines: lines), ENDS[1] + 5, None, 3, ENDS[1]),
        ("a wrong last digest", damaged(lambda lines: lines), None, "sha256:" + "0" * 64, 3, ENDS[1]),
        ("no last digest for a log with lines", damaged(lambda lines: lines), None, "none", 3, ENDS[1]),
        ("a last digest for an empty log", b"", 0, bytes_digest(GOOD[0]), 0, 0),
        ("a first line that is not call 1", damaged(lambda lines: lines[1:]), ENDS[2] - ENDS[0], None, 1, 0),
    ],
)
def test_check_chain_finds_every_edit(
    tmp_path: Path, name: str, data: bytes, end: int | None, last: str | None, at: int, byte: int
) -> None:
    path = write(tmp_path / "calls.jsonl", data)
    if last == "none":
        last = None
    elif last is None:
        last = bytes_digest(GOOD[2])
    with pytest.raises(CgxError) as broken:
        log.check_chain(path, ENDS[2] if end is None else end, last)
    assert broken.value.code == "run-corrupt" and f"breaks at call {at} (byte {byte}):" in broken.value.message


def test_check_chain_of_a_log_that_cannot_be_read_is_an_io_error(tmp_path: Path) -> None:
    with pytest.raises(CgxError) as refused:
        log.check_chain(tmp_path / "absent.jsonl", 10, None)
    assert refused.value.code == "io-error" and refused.value.message.startswith("calls.jsonl cannot be read: ")


def test_line_ending_at_names_the_line_that_ends_there_or_none(tmp_path: Path) -> None:
    long = LogLine(1, "classify", {"text": "x" * 300_000}, "m", None, None, None, "r", "g", None).to_bytes()
    path = write(tmp_path / "calls.jsonl", b"".join(raw + b"\n" for raw in GOOD))
    assert [log.line_ending_at(path, end) for end in ENDS] == GOOD
    for end in (0, 1, ENDS[0] - 1, ENDS[0] + 1, ENDS[2] + 1, ENDS[2] + 10_000):
        assert log.line_ending_at(path, end) is None, end
    assert log.line_ending_at(tmp_path / "absent.jsonl", ENDS[0]) is None
    write(path, GOOD[0] + b"\n" + long + b"\n")  # longer than the first window of 64 KiB, and than four of them
    assert log.line_ending_at(path, ENDS[0] + len(long) + 1) == long
    write(path, long + b"\n")
    assert log.line_ending_at(path, len(long) + 1) == long
    write(path, GOOD[0] + b"\n" + long + b"\n" + GOOD[1] + b"\n")  # more after the line, far from the file's start
    assert log.line_ending_at(path, ENDS[0] + len(long) + 1) == long
    write(path, b"\n" + GOOD[0] + b"\n")  # a newline at the very start of the window
    assert log.line_ending_at(path, ENDS[0] + 1) == GOOD[0]
    write(path, GOOD[0] + b"\n\n")  # an empty line ends there
    assert log.line_ending_at(path, ENDS[0] + 1) == b""


def test_append_commits_one_whole_line_and_says_where_it_ends(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    for seq, raw in enumerate(GOOD, start=1):
        entry = log.append(path, LogLine.from_json(__import__("json").loads(raw)))
        assert (entry.end, entry.digest, entry.line.seq) == (ENDS[seq - 1], bytes_digest(raw), seq)
    assert path.read_bytes() == b"".join(raw + b"\n" for raw in GOOD)
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o644 & ~umask  # readable by whoever may read the run, as ever


def test_a_line_is_json_a_reader_can_write_back() -> None:
    with pytest.raises(ValueError):
        LogLine(1, "classify", {"x": float("nan")}, "m", None, None, None, "r", "g", None).to_bytes()


def test_a_short_write_commits_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write the disk cut short (a full disk) is taken back: no reader may take half a line for a call."""
    path = write(tmp_path / "calls.jsonl", GOOD[0] + b"\n")
    real = os.write
    monkeypatch.setattr(log.os, "write", lambda fd, data: real(fd, bytes(data)[:25]))
    line = log.parse_line(GOOD[1])
    assert line is not None
    with pytest.raises(CgxError) as refused:
        log.append(path, line)
    assert refused.value.code == "io-error" and f"wrote 25 of {len(GOOD[1]) + 1} bytes" in refused.value.message
    assert path.read_bytes() == GOOD[0] + b"\n"


def test_a_short_write_that_cannot_be_taken_back_still_says_io_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "calls.jsonl", GOOD[0] + b"\n")
    real = os.write
    monkeypatch.setattr(log.os, "write", lambda fd, data: real(fd, bytes(data)[:25]))

    def failing(fd: int, length: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(log.os, "ftruncate", failing)
    line = log.parse_line(GOOD[1])
    assert line is not None
    with pytest.raises(CgxError) as refused:
        log.append(path, line)
    assert refused.value.code == "io-error"  # the caller is told the call failed, whatever the disk did next


def test_a_failed_fsync_commits_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path / "calls.jsonl", GOOD[0] + b"\n")

    def failing(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(log.os, "fsync", failing)
    line = log.parse_line(GOOD[1])
    assert line is not None
    with pytest.raises(OSError):
        log.append(path, line)
    assert path.read_bytes() == GOOD[0] + b"\n"


def test_cut_takes_the_tail_away(tmp_path: Path) -> None:
    path = write(tmp_path / "calls.jsonl", two_and(b"garbled\nmore"))
    found = log.scan(path, 0, 1, None)
    assert found.tail is not None
    log.cut(path, found.tail)
    assert path.read_bytes() == two_and(b"")
    assert found.tail.to_json() == {"cut_at_byte": ENDS[1], "bytes": 12, "reason": "the line after call 2 is not valid"}
