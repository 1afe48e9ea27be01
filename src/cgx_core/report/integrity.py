"""Whether the run was replayed and verified, and what came of it, as the report states it.

The report runs both itself rather than reading a recorded result: a result written earlier could be stale
(the package changed since) or written by hand, while a replay and a verify run now, offline, say what the
run's files prove today. A caller that has just run them (the demo) passes its results in; `--no-replay` and
`--no-verify` leave one out, and the report then says it was not run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import attrs

from cgx_core.errors import CgxError, error_line, failure_line

if TYPE_CHECKING:
    from cgx_core.audit.replay import ReplayReport
    from cgx_core.audit.verify import RunVerdict

Status = Literal["passed", "differs", "error", "not-run"]


@attrs.frozen
class Audit:
    """One of replay or verify: its status, a sentence, and the differences it found."""

    status: Status
    summary: str
    details: tuple[str, ...] = ()
    note: str = ""


@attrs.frozen
class Integrity:
    replay: Audit
    verify: Audit


def not_run(reason: str) -> Audit:
    return Audit("not-run", f"not run: {reason}")


def replay_audit(report: ReplayReport) -> Audit:
    if report.identical:
        return Audit("passed", "byte-identical")
    body = {key: value for key, value in report.body.items() if key != "identical"}
    where = body.get("diverged")
    return Audit("differs", f"DIFFERS at {where}: {body.get('how', '')}", (json.dumps(body, sort_keys=True),))


def verify_audit(verdict: RunVerdict) -> Audit:
    if verdict.error is not None:
        return Audit("error", error_line(verdict.error["code"], verdict.error["message"]))
    count = len(verdict.differences)
    return Audit(
        "passed" if count == 0 else "differs",
        f"{count} differences",
        (*verdict.differences, *verdict.notes),
        f"{verdict.rerun} of {verdict.checks} checks re-run from their recorded inputs",
    )


def run_integrity(
    root: Path, *, replay: bool, verify: bool, source: Path | None = None, sources: Path | None = None
) -> Integrity:
    """Replay and verify the run at `root` now (each unless told not to)."""
    from cgx_core.audit.replay import replay as replay_run
    from cgx_core.audit.verify import verify_run

    replayed = not_run("--no-replay was given")
    if replay:
        try:
            replayed = replay_audit(replay_run(root, source=source, sources=sources))
        except (CgxError, OSError) as error:
            replayed = Audit("error", failure_line(error))
    verified = not_run("--no-verify was given")
    if verify:
        verified = verify_audit(verify_run(root))
    return Integrity(replayed, verified)
