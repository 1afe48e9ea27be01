"""Superscript citation markers (`before^{12}`, `shown^{3,5-7}`), as many journals print numbered citations,
read as `cites` of the numbered reference list's entries.

credencegraph's reader ties only a bracketed `[12]` to an entry; a raised number glued to a word came out
as digits run into the word (`before12`), tied to nothing, so no citation check could run on it. Each glyph
carries its size and baseline (as `equations` reads them): a run of glyphs smaller than `_SCRIPT_SIZE` of the
glyph before and raised by `_RAISED` of its size is a superscript.

A superscript is a citation only when nothing else can be meant, since a false cite ties a claim to a
source it never cited: the paper's list is numbered (`[n]` or `1.` entries: reference_list), the marker is in
a sentence or a caption (not an equation or a table), glued to its word (no space between), digits, commas and
dashes naming only entries the list has, the word has at least `_WORD` letters (so `x^2` and the unit
powers `m^2`, `cm^3` stay maths) and follows no numeral (`5 mol^2`), and the paper has no footnotes (a line
in a page's lower half that starts with a raised number: its marks in the text would read as citations;
an affiliation's mark at the top of the first page is none). Every superscript left
so is counted, with why, in start_run's `document.limits`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from cgx_core.ingest.pdf.boxes import Box, boxes_of, centre_in
from cgx_core.ingest.pdf.equations import Glyph, pages_glyphs

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk

_SCRIPT_SIZE = 0.85
_RAISED = 0.15
_GLUED = 0.15
"""At most this share of the base glyph's size between it and the marker: glued, not a word apart."""
_GLUED_AFTER_POINT = 0.3
_POINTS = frozenset(".,)")
"""A point's box is the dot alone, so a marker set after `et al.` stands further from it than from a letter."""
_WORD = 3
_SHOWN_WORD = 40
"""A listed superscript shows at most this much of its word (a URL has no spaces): results stay short."""
_MARKER = re.compile(r"\d+(?:[-\N{EN DASH}]\d+)?(?:,\d+(?:[-\N{EN DASH}]\d+)?)*")
_LONGEST_RANGE = 50
_PROSE = frozenset({"sentence", "caption"})
"""Where a raised number may cite: a sentence or a caption (not an equation, a table row or a reference)."""


@attrs.frozen
class Superscripts:
    """The chunks with superscript citations added, and the superscripts left as they were, with why."""

    chunks: tuple[Chunk, ...]
    read: int = 0
    left: tuple[str, ...] = ()


@attrs.frozen
class _Raised:
    text: str
    glued_to: str
    """The word (letters, digits and punctuation without a gap) the marker is glued to."""
    before: str
    """The word before that one, or ''."""
    page: int
    box: Box
    apart: bool
    """A space between the word and the marker: a footnote style or maths as likely as a citation."""


def _is_raised(glyph: Glyph, base: Glyph) -> bool:
    return glyph.size < _SCRIPT_SIZE * base.size and glyph.baseline > base.baseline + _RAISED * base.size


def _raised_runs(page: int, glyphs: Sequence[tuple[Box, Glyph | None]], middle: float) -> tuple[list[_Raised], bool]:
    """The raised runs of a page (each after a glyph on its line), and whether a line in the page's lower
    half starts with one (a footnote's text; an affiliation's mark heads the first page)."""
    runs: list[_Raised] = []
    footnotes = False
    index = 0
    while index < len(glyphs):
        box, glyph = glyphs[index]
        previous = glyphs[index - 1] if index else None
        following = glyphs[index + 1] if index + 1 < len(glyphs) else None
        if glyph is None:
            index += 1
            continue
        base = previous[1] if previous is not None else None
        if previous is not None and base is not None and _is_raised(glyph, base):
            base_box = previous[0]
            end = index
            while end < len(glyphs) and (found := glyphs[end][1]) is not None and _is_raised(found, base):
                end += 1
            text = "".join(item[1].text for item in glyphs[index:end] if item[1] is not None)
            words = _words_before(glyphs[:index])
            glued = _GLUED_AFTER_POINT if base.text in _POINTS else _GLUED
            apart = box[0] - base_box[2] > glued * base.size
            runs.append(_Raised(text, words[-1], words[-2] if len(words) > 1 else "", page, box, apart))
            index = end
            continue
        starts_line = previous is None or previous[1] is None or abs(previous[1].baseline - glyph.baseline) > glyph.size
        if starts_line and glyph.text.isdigit() and box[1] < middle and following is not None and following[1]:
            footnotes = footnotes or _is_raised(glyph, following[1])
        index += 1
    return runs, footnotes


def _words_before(glyphs: Sequence[tuple[Box, Glyph | None]]) -> list[str]:
    """The last two words before a marker, read back from it: a gap wider than `_GLUED` of a size ends one."""
    words: list[str] = [""]
    for position in range(len(glyphs) - 1, -1, -1):
        box, glyph = glyphs[position]
        if glyph is None:
            break
        words[-1] = glyph.text + words[-1]
        earlier = glyphs[position - 1] if position else None
        if earlier is None or earlier[1] is None or abs(earlier[1].baseline - glyph.baseline) > glyph.size:
            break
        if box[0] - earlier[0][2] > _GLUED * glyph.size:
            if len(words) == 2:
                break
            words.append("")
    return list(reversed(words))


def _keys(marker: str) -> list[str] | None:
    """The entry numbers a marker names, ranges spelled out; None for a range too long to be one."""
    keys: list[str] = []
    for part in marker.split(","):
        low, _, high = part.replace("\N{EN DASH}", "-").partition("-")
        first, last = int(low), int(high or low)
        if not 0 <= last - first <= _LONGEST_RANGE:
            return None
        keys.extend(str(number) for number in range(first, last + 1) if str(number) not in keys)
    return keys


def _why_not(raised: _Raised, numbers: frozenset[str]) -> str | None:
    """Why a raised run in a sentence is no citation, or None when it is one."""
    if raised.apart:
        return "a space between it and the word before"
    letters = re.sub(r"[^A-Za-z]", "", raised.glued_to)
    et_al = raised.glued_to == "al." and raised.before.casefold() == "et"
    if (len(letters) < _WORD or not raised.glued_to[:1].isalpha()) and not et_al:
        return "glued to a symbol or a short word (maths or a unit power)"
    if any(char.isdigit() for char in raised.before):
        return "after a numeral (a unit power)"
    keys = _keys(raised.text)
    if keys is None or not set(keys) <= numbers:
        return "names a number the reference list does not have"
    return None


def _owners(runs: Sequence[_Raised], chunks: Sequence[Chunk]) -> list[int | None]:
    """The chunk each raised run is in: of the chunks whose box holds it (a sentence's box spans the whole
    width of its lines, so the one before or after it on a shared line holds it too), the first whose text
    writes the word and the marker together, else the first."""
    out: list[int | None] = []
    for run in runs:
        holding = [
            index
            for index, chunk in enumerate(chunks)
            if any(page == run.page and centre_in(run.box, region, 1.0) for page, region in boxes_of(chunk.locator))
        ]
        written = [index for index in holding if run.glued_to[-_SHOWN_WORD:] + run.text in chunks[index].text]
        out.append((written or holding)[0] if holding else None)
    return out


def with_superscript_citations(
    path: Path, numbers: frozenset[str], chunks: Sequence[Chunk], decode: Callable[[int, bool], str | None]
) -> Superscripts:
    """The chunks with each sentence's superscript citations of the numbered list's entries (`numbers`)
    added to its `cites` (see the module's docstring); unchanged when the list is not numbered."""
    if not numbers:
        return Superscripts(tuple(chunks))
    runs: list[_Raised] = []
    footnotes = False
    for number, glyphs, height in pages_glyphs(path, None, decode):
        found, has_footnotes = _raised_runs(number, glyphs, height / 2)
        runs += found
        footnotes = footnotes or has_footnotes
    numbered = [run for run in runs if _MARKER.fullmatch(run.text)]  # `R^{n}`, `10^{-4}` are maths, plainly
    out = list(chunks)
    read = 0
    left: list[str] = []
    owner = _owners(numbered, chunks)
    for index, chunk in enumerate(chunks):
        cited: list[str] = []
        for raised in (run for position, run in enumerate(numbered) if owner[position] == index):
            why = "not in a sentence" if chunk.unit not in _PROSE else _why_not(raised, numbers)
            if why is None and footnotes:
                why = "the paper has footnotes, whose marks look the same"
            if why is None:
                cited += _keys(raised.text) or []
                read += 1
            elif chunk.unit in _PROSE:
                left.append(f"{raised.glued_to[-_SHOWN_WORD:]}^{raised.text} (page {raised.page}): {why}")
        if cited:
            out[index] = dataclasses.replace(chunk, cites=tuple(dict.fromkeys([*chunk.cites, *cited])))
    return Superscripts(tuple(out), read, tuple(left))
