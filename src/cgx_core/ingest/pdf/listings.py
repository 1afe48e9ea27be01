"""A listing of files and folders set in a typewriter font (a project's directory, as `ls` prints it), which
credencegraph's reader took for displayed equations (`mindGaps.pl*Rawdata/`) and one-word sentences
(`Converge/`).

ReScience C's lamichhane article shows its project's folder in an `lstlisting` inside a figure: four
"equations" and five "sentences" in the PDF run, and the last name glued to the paragraph after it
(`exploreSeq.pl* The method was implemented ...`). The LaTeX run has none of it (a listing is not prose), so
its lines are removed before blocks are built, as the page furniture is (cgx_core.ingest.pdf.furniture), and
counted in start_run's `document.limits` (`listing_lines_removed`).

A line is a listing's when it is set in a typewriter font and every word of it is a file or folder name
(`Randomness/`, `class_problems.txt`, `findTA.pl*`: a name with a slash, an extension or `ls`'s mark of an
executable), and another such line in that font is on its page: one name alone in a line is left as it is.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from credencegraph.ingest.pdf import Line

_TYPEWRITER = re.compile(r"mono|code|courier|typewriter|cmtt|sftt|lmtt|inconsolata|consol|menlo", re.IGNORECASE)
_NAME = r"[\w.~+@-]+"
_PATH = re.compile(rf"^(?:{_NAME})?(?:/{_NAME})*/?\*?$")
_FILE_LIKE = re.compile(r"/|\*$|\.[A-Za-z]\w{0,7}$")
_LISTING = 2
"""Lines of names in one font on one page that make a listing."""


def _names_only(text: str) -> bool:
    words = text.split()
    return bool(words) and all(
        _PATH.match(word) and _FILE_LIKE.search(word) and re.search(r"[A-Za-z]", word) for word in words
    )


def listing_lines(lines: Sequence[Line]) -> set[int]:
    """The indices of the lines of file and folder listings among a document's lines."""
    named = [
        index
        for index, line in enumerate(lines)
        if line.angle == 0 and _TYPEWRITER.search(line.font or "") and _names_only(line.text)
    ]
    per_page = Counter((lines[index].page, lines[index].font) for index in named)
    return {index for index in named if per_page[(lines[index].page, lines[index].font)] >= _LISTING}
