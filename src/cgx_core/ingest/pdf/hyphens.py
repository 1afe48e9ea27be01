"""Words a PDF splits with a hyphen at a line's end (`com-` / `plexity`), joined again.

credencegraph's reader joins a split word only when PDFium marks the hyphen as one it inferred: a TeX PDF
prints a visible hyphen, so `dis\N{HYPHEN} covered` (U+2010, a space after it) or `dis-covered` came into
the chunks (and a hyphen PDFium marks as inferred was dropped even from `three-` / `species`), and a search
or a numeral reader met a word the paper never wrote. A PDF does not say whether a hyphen at a line's end is
the word's own (`three-species`) or the typesetter's, so this reads the paper itself: the hyphen is kept
when the hyphenated word stands inside a line elsewhere in the paper and the joined word does not, when the
part after it starts with a capital or a digit (`Hastings-` / `Powell`, `10-` / `15`), or when it is a
suspended hyphen (`pre-` / `and post-processing`); otherwise the word is joined. Only the places where a
line ended with a hyphen are changed, nothing else in the text.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk
    from credencegraph.ingest.pdf import Line

_HYPHENS = "-\u2010\u2011\u00ad"
_LINE_END = re.compile(rf"(\w+)([{_HYPHENS}])\s*$")
_LINE_START = re.compile(r"^\s*(\w+)")
_INSIDE = re.compile(rf"(\w+)[{_HYPHENS}](\w+)")
_WORD = re.compile(r"\w+")
_SUSPENDED = frozenset({"and", "or", "nor", "to", "as", "vs"})
_PROSE_UNITS = frozenset({"sentence", "caption", "reference"})


def _keeps_hyphen(left: str, right: str, compounds: set[tuple[str, str]], words: set[str]) -> bool:
    if not right[:1].islower() or right.casefold() in _SUSPENDED or left[-1:].isdigit():
        return True
    pair = (left.casefold(), right.casefold())
    return pair in compounds and (left + right).casefold() not in words


def _vocabulary(lines: Sequence[Line]) -> tuple[set[tuple[str, str]], set[str]]:
    """The hyphenated words written inside a line, and every word of the paper."""
    compounds: set[tuple[str, str]] = set()
    words: set[str] = set()
    for line in lines:
        text = _LINE_END.sub("", line.text)
        compounds.update((left.casefold(), right.casefold()) for left, right in _INSIDE.findall(text))
        words.update(word.casefold() for word in _WORD.findall(text))
    return compounds, words


def _inferred(line: Line) -> bool:
    """Whether PDFium marks the line's last hyphen as one it inferred (credencegraph then joined the word)."""
    visible = [glyph for glyph in line.glyphs if glyph.box is not None]
    return bool(visible) and visible[-1].hyphen


def _as_written(left: str, hyphen: str, right: str, *, inferred: bool) -> str:
    """The split word as credencegraph's chunks write it: joined when PDFium inferred the hyphen, kept with
    no space after a plain hyphen, and with a space after any other (U+2010)."""
    if inferred:
        return left + right
    return f"{left}{hyphen}{right}" if hyphen == "-" else f"{left}{hyphen} {right}"


def line_end_splits(lines: Sequence[Line]) -> dict[str, str]:
    """Each word split at a line's end, as credencegraph's chunks write it, and as the paper means it."""
    compounds, words = _vocabulary(lines)
    out: dict[str, str] = {}
    for line, following in itertools.pairwise(lines):
        end, start = _LINE_END.search(line.text), _LINE_START.match(following.text)
        if end is None or start is None or line.page != following.page:
            continue
        left, hyphen, right = end[1], end[2], start[1]
        written = _as_written(left, hyphen, right, inferred=_inferred(line) and right[:1].islower())
        kept = _keeps_hyphen(left, right, compounds, words)
        out[written] = f"{left}{hyphen}{right}" if kept else left + right
    return out


def dehyphenated(chunks: Sequence[Chunk], lines: Sequence[Line]) -> list[Chunk]:
    """The chunks with every word split at a line's end joined (or its own hyphen kept, see above)."""
    splits = {written: meant for written, meant in line_end_splits(lines).items() if written != meant}
    if not splits:
        return list(chunks)
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, sorted(splits, key=len, reverse=True))) + r")(?!\w)")
    out: list[Chunk] = []
    for chunk in chunks:
        if chunk.unit in _PROSE_UNITS and pattern.search(chunk.text):
            chunk = dataclasses.replace(chunk, text=pattern.sub(lambda match: splits[match[0]], chunk.text))
        out.append(chunk)
    return out


def joined_lines(lines: Sequence[Line], splits: dict[str, str]) -> str:
    """Lines as one text: a space between them, a word split at a line's end as `splits` (the paper's
    `line_end_splits`) says it is meant."""
    text = ""
    for index, line in enumerate(lines):
        piece = " ".join(line.text.split())
        end = _LINE_END.search(piece) if index + 1 < len(lines) else None
        start = _LINE_START.match(lines[index + 1].text) if end is not None else None
        if end is not None and start is not None:
            inferred = _inferred(line) and start[1][:1].islower()
            written = _as_written(end[1], end[2], start[1], inferred=inferred)
            meant = splits.get(written, written)
            text += piece[: end.start()] + meant[: len(meant) - len(start[1])]
            continue
        text += piece + " "
    return text.strip()
