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

MAX_INPUT_FILES: Final = 500
MAX_CHUNKS: Final = 20000

MAX_TABLE_COLUMNS: Final = 200
"""Columns of one table (a row with more cells is refused; a column specification is read up to this)."""
MAX_TABLE_NESTING: Final = 200
"""Environments, groups and macro arguments the table reader descends through; deeper content is not read."""
MAX_TABLE_EXPANSIONS: Final = 100_000
"""User-macro expansions while rendering all table cells of a paper; past it, cells keep their macros as written."""
MAX_TABLE_RENDERED_CHARS: Final = 8 * 1024 * 1024
"""Characters that user-macro expansion may produce in all table cells of a paper, for the same reason."""
