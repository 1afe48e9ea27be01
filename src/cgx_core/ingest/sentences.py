r"""Sentences credencegraph split after an abbreviation or inside a list of names, mended: "reached c. 9\% of
the sites" and "A. Andrew. M. MacDonald wrote it" are one chunk each.

credencegraph 0.4.1 ends a sentence at a full stop followed by a word that does not start in lower case,
unless the word before it is one of its abbreviations (`e.g`, `i.e`, `cf`, `fig`, `eq`, ...). It does not
know "c." and "ca." (circa) or "approx.", so "c. 9\%" became two chunks and the hedge was cut from its
number. Ingestion mends that before the chunks are numbered, so ids stay consecutive, valid and the same for
the same files: two consecutive sentence chunks of one file join (with one space, their cited keys in
order, their lines as one range) when the first ends with one of `ABBREVIATIONS` and a full stop. After
"c." or "ca.", which also end a sentence about a variable named c ("... the constants a, b and c. The
next"), they join only when the second begins with a number (`9`, `$9`, `\num{9}`, `~9`).

Initials are not sentence ends: credencegraph keeps "A. Andrew" whole but ends a sentence at the full stop
after the surname when another initial and name follow ("A. Andrew. M. MacDonald"). Two sentences join when
the first ends with an initial and a name and the second begins with one, so a sentence that merely ends
with an initial-like word is still split ("... in R. GLIM code. Next ...": "code." follows no initial).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from cgx_core.ingest.latex_text import file_lines

if TYPE_CHECKING:
    from credencegraph.ingest import Chunk

ABBREVIATIONS: Final = ("c", "ca", "approx", "e.g", "i.e", "cf", "fig", "figs", "eq", "eqs")
"""Words after which a full stop does not end a sentence (compared in lower case)."""
_BEFORE_A_NUMBER: Final = frozenset({"c", "ca"})
_ENDING = re.compile(r"(?:^|[\s~(])(?P<word>[A-Za-z][A-Za-z.]{0,6})\.$")
_NUMBER_FIRST = re.compile(r"^(?:[~$({]|\\num\{|\\SI\{|\\qty\{|\\approx\s*)*[-+\u2212]?[0-9]")
_ENDS_IN_A_NAME = re.compile(r"(?:^|[\s~(])(?:[A-Z]\.[\s~]*)+[A-Z][A-Za-z'\-]+\.$")
_STARTS_WITH_A_NAME = re.compile(r"^(?:[A-Z]\.[\s~]*)+[A-Z][A-Za-z'\-]+")


def mend_sentences(chunks: Sequence[Chunk]) -> tuple[Chunk, ...]:
    """The chunks with each sentence that ends in an abbreviation joined to the sentence after it."""
    mended: list[Chunk] = []
    for chunk in chunks:
        if mended and _continues(mended[-1], chunk):
            mended[-1] = _joined(mended[-1], chunk)
        else:
            mended.append(chunk)
    return tuple(mended)


def _continues(first: Chunk, second: Chunk) -> bool:
    if first.unit != "sentence" or second.unit != "sentence":
        return False
    names = _ENDS_IN_A_NAME.search(first.text) is not None and _STARTS_WITH_A_NAME.match(second.text) is not None
    ending = _ENDING.search(first.text)
    if names:
        return _same_file(first, second)
    if ending is None or ending["word"].lower() not in ABBREVIATIONS:
        return False
    if ending["word"].lower() in _BEFORE_A_NUMBER and not _NUMBER_FIRST.match(second.text):
        return False
    return _same_file(first, second)


def _same_file(first: Chunk, second: Chunk) -> bool:
    where, after = file_lines(first.locator), file_lines(second.locator)
    return where is not None and after is not None and where[0] == after[0]


def _joined(first: Chunk, second: Chunk) -> Chunk:
    from dataclasses import replace

    where, after = file_lines(first.locator), file_lines(second.locator)
    assert where is not None and after is not None  # _continues checked both
    lines = f"{min(where[1], after[1])}-{max(where[2], after[2])}"
    return replace(
        first,
        text=f"{first.text} {second.text}",
        locator=f"file={where[0]};lines={lines}",
        cites=tuple(dict.fromkeys([*first.cites, *second.cites])),
    )
