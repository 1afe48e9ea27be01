"""`credencegraph-extract report RUN [--html FILE] [--markdown FILE]`: what a finished run says, for a person.

The text report goes to standard output; `--html` writes the self-contained page and `--markdown` the
Markdown, each by temp file and rename. The report replays and verifies the run itself (offline) unless
told not to, or reuses what an earlier report proved of the same files with the same code (`--replay`,
`--verify`: run them again), and says what came of it. Exit status: 0, or 1 when replay or verify did not
pass (the files are written all the same, saying so), or 2 when no report can be made (one
`error [code]: message` line).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from cgx_cli.exit_codes import ExitCode
from cgx_cli.result_stream import results

if TYPE_CHECKING:
    from cgx_core.report.integrity import Choice


def _write(path: Path, text: str) -> None:
    from cgx_core.run.atomic import write_atomic

    write_atomic(path, text.encode("utf-8"))


def report_command(
    run: str,
    *,
    html: str | None,
    markdown: str | None,
    source: str | None,
    sources: str | None,
    replay: Choice,
    verify: Choice,
) -> int:
    from cgx_core.report.html import html_report
    from cgx_core.report.integrity import Integrity, not_run, run_integrity
    from cgx_core.report.markdown import markdown_report
    from cgx_core.report.model import build_report
    from cgx_core.report.text import text_report

    root = Path(run)
    # What is not a finished run is refused before the replay and the verify are run.
    report = build_report(
        root, Integrity(not_run("pending"), not_run("pending")), source=Path(source) if source else None
    )
    integrity = run_integrity(
        root,
        replay=replay,
        verify=verify,
        source=Path(source) if source else None,
        sources=Path(sources) if sources else None,
    )
    report = attrs.evolve(report, integrity=integrity)
    if html is not None:
        _write(Path(html), html_report(report))
    if markdown is not None:
        _write(Path(markdown), markdown_report(report))
    results().write(text_report(report) + "\n")
    failed = [
        f"{name}: {outcome.summary}"
        for name, outcome in (("replay", integrity.replay), ("verify", integrity.verify))
        if outcome.status in ("differs", "error")
    ]
    for line in failed:
        sys.stderr.write(f"warning: {line}\n")
    return ExitCode.DIFFERENCE if failed else ExitCode.OK
