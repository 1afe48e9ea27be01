"""`credencegraph-extract replay RUN [--source PAPER] [--sources DIR]`."""

from __future__ import annotations

from pathlib import Path

from cgx_cli.exit_codes import ExitCode
from cgx_cli.result_stream import results
from cgx_core.tooling.output import result_text


def replay_command(run: str, source: str | None, sources: str | None) -> int:
    from cgx_core.report.integrity import replay_kept

    # What it proves is kept for the report, which then need not replay the same files again.
    report = replay_kept(Path(run), source=Path(source) if source else None, sources=Path(sources) if sources else None)
    results().write(result_text(report.body) + "\n")
    return ExitCode.OK if report.identical else ExitCode.DIFFERENCE
