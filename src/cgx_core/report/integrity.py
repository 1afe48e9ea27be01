"""Whether the run was replayed and verified, and what came of it, as the report states it.

The report runs both itself rather than reading a result recorded in the run: a result written earlier
could be stale (the package changed since) or written by hand, while a replay and a verify run now, offline,
say what the run's files prove today. What it proved it keeps outside the run (`audit_cache`), keyed by the
digest of every file it read (the run's; for a replay given --source or --sources, also the paper's folder
and DIR) and of the code, and a later report of the same files with the same code reuses it, saying so (`run`
instead of `reuse` forces a new audit; `skip` leaves one out, and the report then says it was not run).
A caller that has just run them (the demo) passes its results in.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import attrs

from cgx_core.errors import CgxError, error_line, failure_line
from cgx_core.report import audit_cache

if TYPE_CHECKING:
    from cgx_core.audit.replay import ReplayReport
    from cgx_core.audit.verify import RunVerdict
    from cgx_core.report.audit_cache import Kind

Status = Literal["passed", "differs", "error", "not-run"]
Choice = Literal["reuse", "run", "skip"]
"""What the report does for replay or verify: reuse a kept result of the unchanged run, run it, or not."""


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
        (*verdict.differences, *verdict.notes, *(f"not re-run: {item}" for item in verdict.not_rerun)),
        f"{verdict.rerun} of {verdict.checks} checks re-run from their recorded inputs",
    )


def run_integrity(
    root: Path, *, replay: Choice, verify: Choice, source: Path | None = None, sources: Path | None = None
) -> Integrity:
    """Replay and verify the run at `root` now, or reuse what they proved of these same files and code."""
    from cgx_core.audit.replay import replay as replay_run
    from cgx_core.audit.verify import verify_run

    def replayed() -> Audit:
        try:
            return replay_audit(replay_run(root, source=source, sources=sources))
        except (CgxError, OSError) as error:
            return Audit("error", failure_line(error))

    return Integrity(
        _audit(root, "replay", replay, replayed, lambda: audit_cache.replay_digest(root, source, sources)),
        _audit(root, "verify", verify, lambda: verify_audit(verify_run(root)), lambda: audit_cache.run_digest(root)),
    )


def _audit(
    root: Path, kind: Kind, choice: Choice, compute: Callable[[], Audit], inputs: Callable[[], str | None]
) -> Audit:
    """One audit as `choice` says. A result is kept under the digest of what it read (`inputs`: the run's files,
    and the paper's and --sources' for a replay given them), and only when that did not change meanwhile."""
    if choice == "skip":
        return not_run(f"--no-{kind} was given")
    folder = audit_cache.cache_folder(root)
    before = inputs() if folder is not None else None
    if folder is not None and before is not None and choice == "reuse":
        kept = audit_cache.load(folder, audit_cache.entry_key(kind, before))
        if kept is not None:
            summary = (
                f"{kept['summary']} (reused from an earlier report of the same files and code; --{kind} runs it again)"
            )
            return Audit(kept["status"], summary, tuple(kept["details"]), kept["note"])
    return _kept(folder, kind, before, inputs, compute, lambda audit: audit)


def _kept[T](
    folder: Path | None,
    kind: Kind,
    before: str | None,
    inputs: Callable[[], str | None],
    compute: Callable[[], T],
    audit_of: Callable[[T], Audit],
) -> T:
    """`compute()`, whose audit is kept under `before` when what it read is still what it was."""
    result = compute()
    if folder is not None and before is not None and inputs() == before:
        audit = audit_of(result)
        audit_cache.store(
            folder, audit_cache.entry_key(kind, before), {**attrs.asdict(audit), "details": list(audit.details)}
        )
    return result


def replay_kept(root: Path, *, source: Path | None, sources: Path | None) -> ReplayReport:
    """A replay as the `replay` command runs it, whose proved result a later report of the same files and code
    reuses instead of replaying again (an agent that replays, verifies, then reports pays each once)."""
    from cgx_core.audit.replay import replay

    return _run_and_keep(
        root,
        "replay",
        lambda: audit_cache.replay_digest(root, source, sources),
        lambda: replay(root, source=source, sources=sources),
        replay_audit,
    )


def verify_kept(root: Path) -> RunVerdict:
    """A verify of one run as the `verify` command runs it, kept likewise (a per-run function for the dispatch)."""
    from cgx_core.audit.verify import verify_run

    return _run_and_keep(root, "verify", lambda: audit_cache.run_digest(root), lambda: verify_run(root), verify_audit)


def _run_and_keep[T](
    root: Path, kind: Kind, inputs: Callable[[], str | None], compute: Callable[[], T], audit_of: Callable[[T], Audit]
) -> T:
    folder = audit_cache.cache_folder(root)
    return _kept(folder, kind, inputs() if folder is not None else None, inputs, compute, audit_of)
