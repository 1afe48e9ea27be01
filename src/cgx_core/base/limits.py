"""The sizes this package accepts from the outside world, in one place.

Each bound keeps a hostile or broken input from costing unbounded time, memory or disk.
"""

from __future__ import annotations

from typing import Final

MAX_LATEX_BYTES: Final = 16 * 1024 * 1024
"""All the LaTeX files of one paper together (the largest real papers are well under 1 MiB)."""

MAX_PDF_BYTES: Final = 64 * 1024 * 1024
MAX_RUBRIC_BYTES: Final = 1024 * 1024
MAX_BIBLIOGRAPHY_BYTES: Final = 16 * 1024 * 1024
MAX_CITED_BYTES: Final = 64 * 1024 * 1024
"""One cited work's copy."""

MAX_ARGUMENT_STRING: Final = 20_000
"""Characters in any one string of a call's arguments (a note, a clause, a statement, a passage)."""

MAX_ARGUMENT_DEPTH: Final = 64
"""Levels of nesting of a call's arguments (records are at most a few levels deep)."""

MAX_ARGUMENT_BYTES: Final = 2 * 1024 * 1024
"""A call's arguments as JSON, all together: what one accepted call can add to the log (a classify call
typing every chunk of a 300-chunk paper takes about 40 kB)."""

MAX_ARCHIVE_BYTES: Final = 64 * 1024 * 1024
"""An archive of a paper's sources as given (arXiv's own limit on a submission is 50 MB)."""
MAX_ARCHIVE_UNPACKED_BYTES: Final = 256 * 1024 * 1024
"""What an archive of sources may unpack to, counted while decompressing (a zip bomb's headers lie)."""
MAX_ARCHIVE_MEMBERS: Final = 5000
"""Members of one archive of sources (figures included)."""

MAX_INPUT_FILES: Final = 500
MAX_CHUNKS: Final = 20000

INGEST_CPU_SECONDS: Final = 60
"""CPU time start_run's reading of a paper may use (the four shared papers take under 1.5 s each). CPU time,
not wall time, so a busy machine refuses exactly what an idle one refuses."""

INGEST_MEMORY_BYTES: Final = 2 * 1024**3
"""Address space the reading may add to what its process holds once its libraries are imported."""

INGEST_WALL_FACTOR: Final = 10
"""The reader's wall-clock safety net, in multiples of its CPU budget: it only catches a process that stopped
using CPU (it waits on something), so it is generous enough never to decide a case the CPU budget decides."""

REPLAY_BUDGET_FACTOR: Final = 4
"""replay reads the paper with this many times the CPU budget the run recorded: the paper was read within
budget once, and a slower machine must not make the run unreplayable."""

MAX_TABLE_COLUMNS: Final = 200
"""Columns of one table (a row with more cells is refused; a column specification is read up to this)."""
MAX_TABLE_NESTING: Final = 200
"""Environments, groups and macro arguments the table reader descends through; deeper content is not read."""
MAX_TABLE_EXPANSIONS: Final = 100_000
"""User-macro expansions while rendering all table cells of a paper; past it, cells keep their macros as written."""
MAX_TABLE_RENDERED_CHARS: Final = 8 * 1024 * 1024
"""Characters that user-macro expansion may produce in all table cells of a paper, for the same reason."""

PLUGIN_CPU_SECONDS: Final = 60
"""CPU time one call into a third-party check type's code may use (prepare, run, ...), in the plugin worker.
CPU time, not wall time, so a busy machine decides exactly what an idle one decides."""

PLUGIN_STALL_ENV: Final = "CGX_PLUGIN_STALL_SECONDS"
"""The environment variable that sets `plugin_stall_seconds` (seconds, a positive number)."""


def plugin_stall_seconds(cpu_seconds: float) -> float:
    """Wall-clock seconds one call into a third-party check type may take before it is stopped as stalled
    (`check-stalled`: it sleeps or waits, using less CPU than its budget; the proposal is refused and nothing
    is recorded, so the wall clock never decides a result). By default 30 times its CPU budget plus 120 s
    (1,920 s for 60 s of CPU), so that only a call that is not computing is stopped, on however busy a
    machine; a harness whose tool calls time out sooner sets `CGX_PLUGIN_STALL_SECONDS` below its timeout.
    A value that is not a positive number is ignored, with a warning on stderr."""
    import os
    import sys

    default = cpu_seconds * 30 + 120
    given = os.environ.get(PLUGIN_STALL_ENV)
    if given is None:
        return default
    try:
        seconds = float(given)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        sys.stderr.write(
            f"warning: {PLUGIN_STALL_ENV}={given!r} is not a positive number of seconds; using {default:g}\n"
        )
        return default
    return seconds


PLUGIN_MEMORY_BYTES: Final = 2 * 1024**3
"""Address space of the plugin worker process that runs third-party check code."""
