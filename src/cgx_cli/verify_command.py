"""`credencegraph-extract verify RUN [RUN ...] [--jobs N] [--json]`: built for many runs.

Runs are verified in parallel worker processes, each returning a small verdict, so memory stays flat in
the number of runs. A progress bar is drawn on stderr only when stderr is a terminal.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from cgx_cli.exit_codes import ExitCode
from cgx_core.tools.output import result_text
from cgx_core.verify import RunVerdict, rubric_warnings, verify_run


def _verify_path(path: str) -> RunVerdict:
    return verify_run(Path(path))


def _verdicts(runs: Sequence[str], jobs: int) -> Iterator[RunVerdict]:
    if jobs <= 1 or len(runs) <= 1:
        yield from map(_verify_path, runs)
        return
    _preload()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_verify_path, runs, chunksize=max(1, min(32, len(runs) // (jobs * 4) or 1)))


def _preload() -> None:
    """Import what every worker needs before the pool forks, so each worker inherits it instead of
    importing it again (credencegraph, the plugins, the arithmetic grammar)."""
    import credencegraph.core  # noqa: F401

    from cgx_core.plugins import installed_check_types

    installed_check_types()
    with contextlib.suppress(ImportError):  # the built-in plugins may not be installed
        from cgx_checks.arithmetic.parse import expression_parser

        expression_parser()


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\rverify [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def verify_command(runs: Sequence[str], jobs: int | None, as_json: bool) -> int:
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    show = sys.stderr.isatty()
    verdicts: list[RunVerdict] = []
    for done, verdict in enumerate(_verdicts(runs, workers), start=1):
        verdicts.append(verdict)
        if show:
            _progress(done, len(runs))
    warnings = rubric_warnings(verdicts)
    errors = [verdict for verdict in verdicts if verdict.error is not None]
    differing = [verdict for verdict in verdicts if verdict.differences]
    if as_json:
        summary = {
            "runs": len(verdicts),
            "checks": sum(verdict.checks for verdict in verdicts),
            "rerun": sum(verdict.rerun for verdict in verdicts),
            "differences": sum(len(verdict.differences) for verdict in verdicts),
            "errors": len(errors),
            "warnings": warnings,
            "results": [
                verdict.to_json() for verdict in verdicts if verdict.error or verdict.differences or verdict.notes
            ],
        }
        sys.stdout.write(result_text(summary) + "\n")
    else:
        for verdict in differing:
            for difference in verdict.differences:
                sys.stdout.write(f"{verdict.path}: {difference}\n")
        total = sum(verdict.checks for verdict in verdicts)
        rerun = sum(verdict.rerun for verdict in verdicts)
        sys.stdout.write(
            f"verified {len(verdicts) - len(errors)} of {len(verdicts)} runs: {rerun} of {total} checks re-run, "
            f"{sum(len(verdict.differences) for verdict in verdicts)} differences\n"
        )
    for verdict in verdicts:
        for note in verdict.notes:
            sys.stderr.write(f"note: {verdict.path}: {note}\n")
    for warning in warnings:
        sys.stderr.write(warning + "\n")
    for verdict in errors:
        assert verdict.error is not None
        sys.stderr.write(f"error [{verdict.error['code']}]: {verdict.path}: {verdict.error['message']}\n")
    if errors:
        return ExitCode.ERROR
    return ExitCode.DIFFERENCE if differing else ExitCode.OK
