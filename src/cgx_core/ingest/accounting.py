r"""What part of a LaTeX paper's body its chunks cover: a paper read short is refused, never run silently.

credencegraph's reader can lose most of a paper without a word: a preamble macro it reads as an environment
that never closes swallows the body (cgx_core.ingest.paper_macros expands the known forms), and a paper
checked "clean" was then never read. So start_run weighs the text of the body (the main file between
`\begin{document}` and `\end{document}`, and every file the body inputs whole) line by line against the lines
its chunks cover. A line's weight is its prose: its characters with comments, control words, `\begin{..}`,
`\end{..}` and `\label{..}` markup, braces and spaces taken out, so a heading credencegraph drops by design
weighs little and a paragraph much. When less than half of the weight is covered, the reading is
incomplete: start_run refuses it (`ingest-incomplete`), naming where the reading stopped (the last chunk
before the largest stretch no chunk covers) and why, unless it was told to proceed; then the loss is in
`document.limits`, the start_run result and every report format.

Files the body reads through the import package (`\import`, `\subimport`, ...) are weighed like those it
inputs: credencegraph's reader is given them as `\input`s (cgx_core.ingest.imports).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import attrs

from cgx_core.codes import Code
from cgx_core.errors import CgxError
from cgx_core.ingest.latex_text import file_lines

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk

MOSTLY_READ: Final = 0.5
"""The least share of the body's weight the chunks must cover for a reading to be complete."""
_COMMENT: Final = re.compile(r"(?<!\\)(?:\\\\)*%.*")
_MARKUP: Final = re.compile(r"\\(?:begin|end|label)\s*\{[^{}]*\}|\\[A-Za-z@]+\*?|[{}\s\\]")
_BEGIN_DOCUMENT: Final = re.compile(r"\\begin\s*\{\s*document\s*\}")
_END_DOCUMENT: Final = re.compile(r"\\end\s*\{\s*document\s*\}")
_SHOWN: Final = 80
"""The most characters of a line a message quotes."""


@attrs.frozen
class Stretch:
    """Consecutive body lines of one file that no chunk covers."""

    file: str
    first: int
    last: int
    weight: int


@attrs.frozen
class Accounting:
    """The body's weight, the part of it the chunks cover, and the largest stretch they do not."""

    weight: int
    covered: int
    gap: Stretch | None
    stopped: str | None
    """The locator of the last chunk before the gap (None: the gap is at the body's start)."""
    first_line: str
    """The gap's first line, as the paper writes it (shortened)."""
    why: str

    @property
    def complete(self) -> bool:
        return self.weight == 0 or self.covered >= MOSTLY_READ * self.weight

    @property
    def share_unread(self) -> str:
        return f"{round(100 * (self.weight - self.covered) / self.weight)}%" if self.weight else "0%"

    def where(self) -> str:
        if self.gap is None:
            return "nowhere"
        after = f"after the chunk at {self.stopped}" if self.stopped else "at the body's start"
        return (
            f"{after}: lines {self.gap.first}-{self.gap.last} of {self.gap.file} are in no chunk "
            f"(from `{self.first_line}`)"
        )

    def refusal(self) -> CgxError:
        return CgxError(
            Code.INGEST_INCOMPLETE,
            f"credencegraph's LaTeX reader left {self.share_unread} of the paper's body in no chunk "
            f"({self.weight - self.covered} of {self.weight} characters of prose): the reading stopped "
            f"{self.where()}. Why: {self.why}. A run of this reading would check a paper it never read: fix the "
            "paper (the cause above), or pass accept_incomplete: true to start_run to proceed with the loss "
            "recorded in document.limits and in every report",
        )

    def limits(self) -> dict[str, Any]:
        """The loss as `document.limits` records it (start_run's result, the manifest, every report)."""
        return {
            "unread": {
                "share": self.share_unread,
                "characters": f"{self.weight - self.covered} of {self.weight}",
                "stopped": self.where(),
                "why": self.why,
            },
            "message": (
                f"{self.share_unread} of the paper's body is in no chunk: no check looked at it, and a report "
                "that no check failed says nothing of it. start_run proceeded because accept_incomplete was given"
            ),
        }


def account(
    texts: Mapping[str, str],
    main: str,
    body_files: Iterable[str],
    chunks: Sequence[Chunk],
    skipped_macros: Sequence[str] = (),
    also_covered: Iterable[str] = (),
) -> Accounting:
    """Weigh the body of the paper (its texts by name relative to the root, as the readers read them)
    against the lines its chunks cover, and the lines of `also_covered` (the locators of the table rows read
    from the chunks' tabulars, which credencegraph's reader leaves out of its chunks)."""
    main_dir = posixpath.dirname(main)
    covered: dict[str, set[int]] = {}
    for locator in [*(chunk.locator for chunk in chunks), *also_covered]:
        found = file_lines(locator)
        if found is not None:
            covered.setdefault(found[0], set()).update(range(found[1], found[2] + 1))
    weight = total_covered = 0
    best: Stretch | None = None
    order: list[tuple[str, int, bool]] = []  # every weighed line, in reading order by file
    for name in dict.fromkeys([main, *body_files]):
        located = posixpath.relpath(name, main_dir or ".")
        lines = texts[name].split("\n")
        first, last = _body_lines(texts[name]) if name == main else (1, len(lines))
        run: Stretch | None = None
        for number in range(first, last + 1):
            line_weight = len(_MARKUP.sub("", _COMMENT.sub("", lines[number - 1])))
            if not line_weight:
                continue
            seen = number in covered.get(located, ())
            weight += line_weight
            order.append((located, number, seen))
            if seen:
                total_covered += line_weight
                run = None
                continue
            run = Stretch(located, run.first if run else number, number, (run.weight if run else 0) + line_weight)
            if best is None or run.weight > best.weight:
                best = run
    stopped = _last_chunk_before(chunks, order, best)
    first_line = "" if best is None else _shown(texts, main_dir, best)
    return Accounting(weight, total_covered, best, stopped, first_line, _why(skipped_macros))


def _body_lines(text: str) -> tuple[int, int]:
    """The lines of the main file's `document` environment (all of them when it has none)."""
    begin, end = _BEGIN_DOCUMENT.search(text), _END_DOCUMENT.search(text)
    first = text.count("\n", 0, begin.end()) + 2 if begin is not None else 1
    last = text.count("\n", 0, end.start()) if end is not None else text.count("\n") + 1
    return first, last


def _last_chunk_before(chunks: Sequence[Chunk], order: list[tuple[str, int, bool]], gap: Stretch | None) -> str | None:
    """The locator of the chunk covering the last covered line before the gap, in reading order."""
    if gap is None:
        return None
    before = None
    for located, number, seen in order:
        if (located, number) == (gap.file, gap.first):
            break
        if seen:
            before = (located, number)
    if before is None:
        return None
    for chunk in chunks:
        found = file_lines(chunk.locator)
        if found is not None and found[0] == before[0] and found[1] <= before[1] <= found[2]:
            return str(chunk.locator)
    return None


def _shown(texts: Mapping[str, str], main_dir: str, gap: Stretch) -> str:
    name = posixpath.normpath(posixpath.join(main_dir, gap.file)) if main_dir else gap.file
    line = texts[name].split("\n")[gap.first - 1].strip()
    return line if len(line) <= _SHOWN else line[: _SHOWN - 3] + "..."


def _why(skipped_macros: Sequence[str]) -> str:
    if skipped_macros:
        return (
            "the paper defines macros that open or close an environment with an optional argument, which "
            f"credencegraph's reader reads as an environment that never closes: {', '.join(skipped_macros)}; write "
            "the environments out (\\begin{equation} ... \\end{equation}) where they are used"
        )
    return (
        "credencegraph's reader took the text there for something it does not chunk (an environment or a group "
        "it found unclosed, or a macro of the paper's that swallows its argument); check that line's markup"
    )
