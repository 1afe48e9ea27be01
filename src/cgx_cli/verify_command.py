"""`credencegraph-extract verify [RUN ...] [--from FILE] [--jobs N] [--scheduler ADDRESS] [--jsonl FILE]
[--resume FILE] [--json]`: built for many runs.

Runs are verified in batches on an engine: in this process (one job or one run), in worker processes, or on
a Dask cluster (`--scheduler`). Whichever engine, the verdicts come back in the order the runs were given and
the output is the same bytes; memory stays flat in the number of runs (the verdicts wait in a spool file,
not in a list). A progress bar is drawn on stderr when stderr is a terminal; otherwise plain progress lines
go there, bounded in number: every 5% of the runs and, for a single run, every 5% of its checks.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from cgx_cli.errors import print_error
from cgx_cli.exit_codes import ExitCode
from cgx_cli.result_stream import results
from cgx_cli.verify_summary import Tally
from cgx_core.audit.verify import verify_run
from cgx_core.audit.verify_dispatch import Engine, PerRun, Verified, dispatch, verifier_versions
from cgx_core.audit.verify_inputs import RunSource
from cgx_core.audit.verify_journal import JournalWriter, RecordedRuns, same_file
from cgx_core.base.limits import PLUGIN_STALL_ENV
from cgx_core.errors import CgxError
from cgx_core.report.integrity import verify_kept
from cgx_core.run.call_control import Control, controlled

BATCH = 32
"""Runs per task on a small engine: enough to make a task's overhead small beside its work, few enough to keep
every worker busy to the end and the journal close behind the work."""


def verify_command(
    runs: Sequence[str],
    jobs: int | None,
    as_json: bool,
    *,
    listing: str | None = None,
    scheduler: str | None = None,
    jsonl: str | None = None,
    resume: str | None = None,
    check_deadline: float | None = None,
) -> int:
    problem = _usage_problem(runs, jobs, listing, scheduler)
    if problem is None and check_deadline is not None and not 0 < check_deadline < math.inf:
        problem = f"--check-deadline must be a positive number of seconds, not {check_deadline:g}"
    if problem is not None:
        print_error("usage", f"{problem} (see 'credencegraph-extract verify --help')")
        return ExitCode.ERROR
    if check_deadline is not None:
        # The stall budget of every isolated check re-run, here and in the workers this process starts.
        os.environ[PLUGIN_STALL_ENV] = f"{check_deadline:g}"
    with contextlib.ExitStack() as stack:
        source = RunSource(runs, listing)
        versions = verifier_versions()
        recorded = None
        if resume is not None:
            recorded = RecordedRuns(Path(resume), versions)
            stack.callback(recorded.close)
        on_done = _watch_versions(versions)
        if jsonl is not None:
            continuing = resume is not None and same_file(Path(jsonl), Path(resume))
            keep = recorded.complete_bytes if recorded is not None and continuing else None
            journal = JournalWriter(Path(jsonl), continuing=continuing, keep_bytes=keep)
            stack.callback(journal.close)
            on_done = _both(on_done, journal.write)
        engine = _engine(scheduler, jobs, source.total)
        stack.callback(engine.close)
        tally = Tally()
        stack.callback(tally.close)
        batch = _batch_size(source.total, engine.slots)
        on_terminal = sys.stderr.isatty()
        # One run (an agent's check before its report): what it proves is kept for the report, as a
        # report's own verify is. Many runs are not digested twice each for it.
        per_run: PerRun = verify_kept if source.total == 1 else verify_run
        results = dispatch(
            source,
            engine,
            batch_size=batch,
            verify=per_run,
            recorded=recorded.get if recorded else None,
            on_done=on_done,
        )
        # One run, verified in this process: a line per check too (bounded as the runs' lines are), so a
        # log shows a long re-run is alive and a stalled one names its check.
        per_check = None if on_terminal or source.total != 1 else Control(report=_check_line)
        stack.enter_context(controlled(per_check))
        for verified in results:
            tally.add(verified.verdict)
            if on_terminal:
                _progress(tally, source.total)
            elif _milestone(tally.runs, source.total):
                _progress_line(tally, source.total)
        if on_terminal and source.total is None:
            sys.stderr.write("\n")
        return _invalid_plugins(_report(tally, as_json))


def _invalid_plugins(status: int) -> int:
    """Every installed plugin that could not be registered is an error (exit 2), after the runs were verified
    with the others."""
    from cgx_core.checks.installed import installed_check_types

    invalid = installed_check_types().invalid
    for plugin in invalid:
        sys.stderr.write(plugin.error_line() + "\n")
    return ExitCode.ERROR if invalid else status


def _usage_problem(runs: Sequence[str], jobs: int | None, listing: str | None, scheduler: str | None) -> str | None:
    if not runs and listing is None:
        return "give the runs to verify: RUN arguments, or --from FILE"
    if jobs is not None and jobs < 1:
        return "--jobs must be at least 1"
    if jobs is not None and scheduler not in (None, "local"):
        return "--jobs sets the workers of this machine; a cluster at an address has its own"
    return None


def _engine(scheduler: str | None, jobs: int | None, total: int | None) -> Engine:
    if scheduler is not None:
        from cgx_core.audit.verify_dask import DaskEngine

        return DaskEngine(scheduler, jobs)
    from cgx_core.audit.verify_engines import InProcessEngine, PoolEngine

    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers <= 1 or total == 1:
        return InProcessEngine()
    return PoolEngine(workers, preload=_preload)


def _batch_size(total: int | None, slots: int) -> int:
    """Runs per task: a quarter of each slot's share of the runs (so the last batches are small), at most BATCH
    or, on a large cluster, the number of slots. A task costs the scheduler and this process a few ms of CPU
    whatever its size, so on 100 workers batches of 200 keep them to about 50 tasks a second
    (docs/verify-at-scale.md)."""
    largest = max(BATCH, slots)
    if total is None:
        return largest
    return max(1, min(largest, total // (max(1, slots) * 4)))


def _preload() -> None:
    """What a forked worker should inherit instead of importing again: credencegraph and every installed
    check type's plugin (found through the entry-point group, the built-in ones and a third party's alike;
    a plugin that does not load is reported for each run it verifies, not here)."""
    import credencegraph.core  # noqa: F401

    from cgx_core.checks.installed import installed_check_types

    with contextlib.suppress(CgxError):
        installed_check_types()


def _watch_versions(versions: dict[str, str]) -> Callable[[list[Verified]], None]:
    """Warn once when a worker verified with other versions than this machine has: its results are its own,
    and `--resume` on this machine will verify those runs again."""
    warned = False

    def watch(done: list[Verified]) -> None:
        nonlocal warned
        for verified in done:
            if not warned and dict(verified.versions) != versions:
                other = {name: value for name, value in verified.versions.items() if versions.get(name) != value}
                sys.stderr.write(f"warning: a worker verified with other versions than this machine: {other}\n")
                warned = True

    return watch


def _both(
    first: Callable[[list[Verified]], None], second: Callable[[list[Verified]], None]
) -> Callable[[list[Verified]], None]:
    def both(done: list[Verified]) -> None:
        first(done)
        second(done)

    return both


def _progress(tally: Tally, total: int | None) -> None:
    if total:
        width = 30
        filled = width * tally.runs // total
        sys.stderr.write(f"\rverify [{'#' * filled}{'.' * (width - filled)}] {tally.runs}/{total}")
        if tally.runs == total:
            sys.stderr.write("\n")
    else:
        sys.stderr.write(f"\rverify: {tally.runs} runs")
    sys.stderr.flush()


LINE_EVERY: Final = 100
"""Without a terminal, a progress line every this many runs (or every 5% of a known total, if fewer)."""


def _milestone(runs: int, total: int | None) -> bool:
    """Whether a progress line is due when not on a terminal (where a bar cannot be redrawn): the first run,
    every 5% or `LINE_EVERY` runs, and the last, so a log shows a long verify is alive."""
    step = min(LINE_EVERY, max(1, total // 20)) if total else LINE_EVERY
    return runs == 1 or runs % step == 0 or runs == total


def _check_line(done: int, total: int | None, message: str) -> None:
    """Before each check re-runs, when it is a milestone among the run's checks (at most 21 lines a run)."""
    if _milestone(done + 1, total):
        sys.stderr.write(f"verify: check {done + 1}/{total}: {message}\n")
        sys.stderr.flush()


def _progress_line(tally: Tally, total: int | None) -> None:
    sys.stderr.write(f"verify: {tally.runs}/{total} runs\n" if total else f"verify: {tally.runs} runs\n")
    sys.stderr.flush()


def _report(tally: Tally, as_json: bool) -> int:
    warnings = tally.warnings()
    if as_json:
        tally.write_json(results(), warnings)
    else:
        for result in tally.results():
            for difference in result["differences"]:
                results().write(f"{result['path']}: {difference}\n")
            for skipped in result.get("not_rerun", ()):
                results().write(f"{result['path']}: not re-run: {skipped}\n")
        results().write(
            f"verified {tally.runs - tally.errors} of {tally.runs} runs: {tally.rerun} of {tally.checks} checks "
            f"re-run, {tally.differences} differences\n"
        )
    for result in tally.results():
        for note in result["notes"]:
            sys.stderr.write(f"note: {result['path']}: {note}\n")
    for warning in warnings:
        sys.stderr.write(warning + "\n")
    for result in tally.results():
        if result["error"] is not None:
            print_error(result["error"]["code"], f"{result['path']}: {result['error']['message']}")
    if tally.errors:
        return ExitCode.ERROR
    return ExitCode.DIFFERENCE if tally.differing else ExitCode.OK
