"""verify's journal: one JSON line per verified run (`--jsonl`), and the runs an earlier journal already holds
(`--resume`).

A line is the run's verdict, as in `verify --json`'s results, with the versions of the code that verified it:
self-contained, so journals written on many machines can be concatenated, followed with `tail -f` and
aggregated with `jq`. A line is written and flushed as soon as its batch completes, in one `write`; a
session killed mid-line leaves a last line without its newline, which `--resume` ignores and cuts off
before appending.

`--resume` keeps a line when its versions are the versions installed now (the same verdict would come out
again) and it does not record a worker that died (tried again, since that says nothing about the run). The
kept lines go to a temporary on-disk SQLite table keyed by the run's path, so memory stays flat however many
runs the journal holds.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, Any

from cgx_core.audit.verify import RunVerdict
from cgx_core.audit.verify_dispatch import Verified
from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.tooling.output import result_text

_FIELDS = ("run", "path", "rubric", "checks", "rerun", "differences", "error", "notes", "versions")
_OPTIONAL = ("not_rerun",)
"""Fields a journal written by an earlier version may lack."""


def journal_line(verified: Verified) -> str:
    """The journal line of one run (without its newline)."""
    return result_text({**verified.verdict.to_json(), "versions": dict(verified.versions)})


class JournalWriter:
    """Appends a line per run to the `--jsonl` file, flushing each batch."""

    def __init__(self, path: Path, *, continuing: bool, keep_bytes: int | None) -> None:
        """`continuing`: the file is the one `--resume` read, so it is appended to (after cutting it to
        `keep_bytes`, its complete lines); otherwise a file that already holds lines is refused."""
        try:
            if not continuing and path.exists() and path.stat().st_size > 0:
                raise CgxError(
                    Code.JOURNAL_EXISTS,
                    f"'{path}' already holds results: pass --resume {path} to continue it, or choose a new file",
                )
            self._file: IO[bytes] = path.open("ab")
            if continuing and keep_bytes is not None:
                self._file.truncate(keep_bytes)
        except OSError as error:
            raise CgxError(Code.IO_ERROR, f"cannot write the journal '{path}': {error.strerror or error}") from None

    def write(self, results: Iterable[Verified]) -> None:
        data = "".join(journal_line(verified) + "\n" for verified in results).encode("utf-8")
        self._file.write(data)
        self._file.flush()

    def close(self) -> None:
        self._file.close()


class RecordedRuns:
    """The results an earlier journal holds for the versions installed now, looked up by run path."""

    def __init__(self, path: Path, versions: Mapping[str, str]) -> None:
        self.versions = dict(versions)
        self.complete_bytes = 0
        """Where the journal's last complete line ends (what appending keeps)."""
        self.kept = 0
        self._db = sqlite3.connect("")  # SQLite's private temporary on-disk database, deleted on close
        self._db.executescript(
            "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
            "CREATE TABLE recorded (path TEXT PRIMARY KEY, verdict TEXT NOT NULL);"
        )
        try:
            with path.open("rb") as journal:
                self._read(journal, path.name)
        except FileNotFoundError:
            pass  # nothing recorded yet: a script can pass --resume from its first session on
        except OSError as error:
            self.close()
            raise CgxError(Code.IO_ERROR, f"cannot read the journal '{path}': {error.strerror or error}") from None
        except CgxError:
            self.close()
            raise

    def _read(self, journal: IO[bytes], name: str) -> None:
        rows: list[tuple[str, str]] = []
        for number, line in enumerate(journal, start=1):
            if not line.endswith(b"\n"):
                break  # cut off by an interrupted session
            self.complete_bytes += len(line)
            if not line.strip():
                continue
            verified = _parse(line, f"'{name}' line {number}")
            if verified.versions == self.versions and _kept(verified.verdict):
                rows.append((verified.verdict.path, journal_line(verified)))
            if len(rows) >= 10_000:
                self._store(rows)
        self._store(rows)

    def _store(self, rows: list[tuple[str, str]]) -> None:
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO recorded VALUES (?, ?)", rows)
        self.kept = self._db.execute("SELECT count(*) FROM recorded").fetchone()[0]
        rows.clear()

    def get(self, shown: str) -> Verified | None:
        """The recorded result of the run given as `shown`, if the journal holds one to keep."""
        row = self._db.execute("SELECT verdict FROM recorded WHERE path = ?", (shown,)).fetchone()
        if row is None:
            return None
        return _parse(row[0].encode("utf-8"), "a recorded verdict")

    def close(self) -> None:
        self._db.close()


def _kept(verdict: RunVerdict) -> bool:
    return verdict.error is None or verdict.error.get("code") != str(Code.WORKER_DIED)


def _parse(line: bytes, where: str) -> Verified:
    try:
        data = json.loads(line)
    except ValueError as error:
        raise CgxError(Code.JOURNAL_INVALID, f"{where} is not JSON: {error}") from None
    verdict = _verdict(data, where)
    return Verified(verdict, data["versions"])


def _verdict(data: Any, where: str) -> RunVerdict:
    """A journal line's verdict, every problem of the line named at once."""
    if not isinstance(data, dict):
        raise CgxError(Code.JOURNAL_INVALID, f"{where} is not a JSON object")
    problems = [f"missing field '{name}'" for name in _FIELDS if name not in data]
    problems += [f"unknown field '{name}'" for name in data if name not in (*_FIELDS, *_OPTIONAL)]
    checks = {
        "run": isinstance(data.get("run"), str),
        "path": isinstance(data.get("path"), str),
        "rubric": _strings(data.get("rubric")),
        "checks": _count(data.get("checks")),
        "rerun": _count(data.get("rerun")),
        "differences": _texts(data.get("differences")),
        "error": data.get("error") is None or (_strings(data["error"]) and set(data["error"]) == {"code", "message"}),
        "notes": _texts(data.get("notes")),
        "not_rerun": _texts(data.get("not_rerun", [])),
        "versions": _strings(data.get("versions")),
    }
    problems += [f"field '{name}' has the wrong type" for name, good in checks.items() if name in data and not good]
    if problems:
        raise CgxError(
            Code.JOURNAL_INVALID,
            f"{where} is not a verify result ({'; '.join(problems)}): give a file that verify --jsonl wrote",
        )
    return RunVerdict(
        data["run"],
        data["path"],
        data["rubric"],
        data["checks"],
        data["rerun"],
        tuple(data["differences"]),
        data["error"],
        tuple(data["notes"]),
        tuple(data.get("not_rerun", ())),
    )


def _strings(value: object) -> bool:
    return isinstance(value, dict) and all(isinstance(item, str) for item in value.values())


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _texts(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def same_file(first: Path, second: Path) -> bool:
    """Whether two paths name one file (both existing), or would (neither existing, the same absolute path)."""
    try:
        return os.path.samefile(first, second)
    except OSError:
        return os.path.abspath(first) == os.path.abspath(second)
