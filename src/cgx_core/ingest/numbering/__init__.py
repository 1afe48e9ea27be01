r"""The numbering of a LaTeX paper, as LaTeX prints it: the authority on what "Table 2" or `\ref{eq:loss}` names.

start_run records, for every numbered section, equation, float and panel, its printed number and labels, and
on each chunk which of them it belongs to and which references its text writes (`chunks`). The
`cross-reference` check type reads those records; the table rows take their "Table N" title from here, so an
appendix table with a redefined `\thetable` is not a second "Table 1". `visitor` reads the paper (a visitor of
its one walk, cgx_core.ingest.latex_walk), `counters` prints the numbers, `written` finds the references a text
writes. A PDF has no numbering (its chunks have no lines to place)."""

from __future__ import annotations

from collections.abc import Mapping

from cgx_core.ingest.numbering.objects import Numbering


def read_numbering(files: Mapping[str, str], main: str) -> Numbering:
    """The numbering of the LaTeX paper whose files (by name, relative to the root) and main file are given (a
    walk of its own: start_run reads the numbering and the tables in one, `cgx_core.ingest.paper.walk_latex`)."""
    from cgx_core.ingest.latex_text import PaperFiles
    from cgx_core.ingest.latex_walk import LatexWalk
    from cgx_core.ingest.numbering.visitor import NumberingVisitor

    files_of = PaperFiles(files, main)
    numbering = NumberingVisitor(files_of)
    LatexWalk(files_of, [numbering]).run()
    return numbering.numbering()
