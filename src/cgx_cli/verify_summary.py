"""What verify prints about many runs, with memory flat in their number.

The counts are summed as verdicts arrive; each verdict goes to a temporary spool file in the order the runs
were given, which the outputs read back at the end (`--json` lists every run, clean ones included). The
rubric warning keeps, for each rubric name, version and file digest, a count and the first few runs.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from typing import IO, Any

import attrs

from cgx_core.audit.verify import RunVerdict
from cgx_core.tooling.output import result_text

SHOWN_RUNS = 10
"""How many runs a rubric warning names for each digest before it says how many more."""


@attrs.define
class _Digest:
    count: int = 0
    first: list[str] = attrs.Factory(list)


class Tally:
    """The counts of a verify, its rubric digests, and a spool of every verdict in the order given."""

    def __init__(self) -> None:
        self.runs = self.checks = self.rerun = self.differences = self.errors = 0
        self.differing = False
        self._rubrics: dict[tuple[str, str], dict[str, _Digest]] = {}
        self._spool: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 (closed by close())

    def add(self, verdict: RunVerdict) -> None:
        self.runs += 1
        self.checks += verdict.checks
        self.rerun += verdict.rerun
        self.differences += len(verdict.differences)
        self.differing = self.differing or bool(verdict.differences)
        if verdict.error is not None:
            self.errors += 1
        else:
            key = (verdict.rubric["name"], verdict.rubric["version"])
            seen = self._rubrics.setdefault(key, {}).setdefault(verdict.rubric["digest"], _Digest())
            seen.count += 1
            if len(seen.first) < SHOWN_RUNS:
                seen.first.append(verdict.path)
        self._spool.write(result_text(verdict.to_json()) + "\n")

    def warnings(self) -> list[str]:
        """One rubric name and version with different file digests: its values changed without a new version."""
        found = []
        for (name, version), digests in sorted(self._rubrics.items()):
            if len(digests) > 1:
                parts = "; ".join(f"{digest} in {_runs(seen)}" for digest, seen in sorted(digests.items()))
                found.append(f"warning: rubric {name} {version} has different files: {parts}")
        return found

    def results(self) -> Iterator[dict[str, Any]]:
        """Every verdict, in the order the runs were given."""
        for line in self._lines():
            yield json.loads(line)

    def _lines(self) -> Iterator[str]:
        self._spool.flush()
        self._spool.seek(0)
        for line in self._spool:
            yield line.rstrip("\n")

    def write_json(self, out: IO[str], warnings: list[str]) -> None:
        """The summary as one compact JSON object (the bytes `result_text` gives the whole), streamed."""
        head = {
            "runs": self.runs,
            "checks": self.checks,
            "rerun": self.rerun,
            "differences": self.differences,
            "errors": self.errors,
            "warnings": warnings,
            "results": [],
        }
        out.write(result_text(head).removesuffix("[]}") + "[")
        for index, line in enumerate(self._lines()):
            out.write(("," if index else "") + line)
        out.write("]}\n")

    def close(self) -> None:
        self._spool.close()


def _runs(seen: _Digest) -> str:
    shown = ", ".join(seen.first)
    more = seen.count - len(seen.first)
    return shown + (f" and {more} more runs" if more else "")
