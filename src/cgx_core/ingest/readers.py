"""The version of what start_run reads from a paper, recorded by every run so that replay can tell a changed
reader from a changed paper.

A run's ingested graph is a function of the paper's files and of this package's readers (credencegraph's,
driven by `documents`; the numbering; the tables). When a change makes some paper read differently, the
version is bumped and the change is listed below. Replay of a run re-reads its paper: the same bytes are
the same run, whatever the versions; different bytes from a run of another version fail with
`reader-changed`, naming both versions (docs/guarantees.md, "Old runs after a reader changes"), never as a
run that diverged by itself.

1. Every run before this record (such a run's manifest names no version of its readers).
2. Macros that open or close an environment expanded before reading (issue 38); revtex footnotes one chunk
   each, `\\onlinecite` kept, sentences after initials kept whole (issue 37); a space between a macro and
   its argument kept (issue 39).
3. Issues 37 and 40: a paper's presentational macros (a unit, `\\newcommand{\\unit}[1]{\\,\\mathrm{#1}}`; a
   wrapper, `\\newcommand{\\referee}[1]{#1}`) read as their arguments, so an equation inside a wrapper is an
   equation chunk with its label; revtex's and AASTeX's front matter (`\\affiliation`, `\\email`, ...) in no
   sentence, a `\\footnote` or `\\thanks` in it one footnote chunk each; a label with a comma (`eq:g(n,e)`) one
   label, and "Fig. 4(b)" recorded as panel 4b; a panel without a chunk of its own held by its float's caption
   chunk; theorem-like environments numbered (kind `theorem`, "Lemma 3" written); a table's `tablenotes` items
   chunks of it; `\\gdef`, `\\edef` and `\\xdef` skipped by the numbering like `\\def`.
4. A PDF (issue 41): a DOI or arXiv id a reference entry gives only as a link read into it; a listing of files
   in a typewriter font removed; numbered section headings cut from the sentences they were glued to, and
   the sections recorded on the chunks.
5. Issue 42: each chunk of a list (`itemize`, `enumerate`, `description`) whose lines tell its items apart records
   its list, item and the list's number of items (`attributes.list`, cgx_core.ingest.lists), for `items()`.
6. The import package's `\\import`, `\\subimport`, `\\inputfrom` and kin read like `\\input`: the prose of
   an imported file is in the run's chunks (cgx_core.ingest.imports); before, only its tables were.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

READERS_VERSION: Final = 6
"""The version of this package's readers: the manifest's `versions.readers`."""
BEFORE_THE_RECORD: Final = 1
"""The version of a run whose manifest names none."""


def recorded_readers(manifest: Mapping[str, Any]) -> int:
    """The version of the readers that made a run (1 for a run that predates the record)."""
    recorded = manifest.get("versions", {}).get("readers")
    return recorded if isinstance(recorded, int) and not isinstance(recorded, bool) else BEFORE_THE_RECORD
