"""Finding the agent's passage in a source's text, after a normalisation both sides share.

The agent copies a passage from what it read, and what it read was rendered: a PDF's text layer
breaks words at line ends and uses ligatures, a web page curls its quotes, a LaTeX source writes
`--` for a dash. An exact search would fail on copies that are faithful to the words, so both the
passage and the source are normalised the same way, character by character, and the source keeps
a map from each normalised character back to the original range, so that where the passage was
found is reported in the source's own text.

The normalisation, in order:

1. Characters are taken with their combining marks (`e` + U+0301 together), so composed and
   decomposed accents compare equal.
2. Zero-width characters (U+200B-U+200D, U+2060, U+FEFF) are dropped.
3. Quotes, primes and guillemets become `'` or `"`; every dash, the minus sign and the hyphens
   become `-`.
4. NFKC: ligatures (`ﬁ` -> `fi`), full-width forms, no-break spaces, `…` -> `...`.
5. casefold (stronger than lower-case: `ß` -> `ss`), then NFKC again, until nothing changes.
6. Hyphens between letters or digits are dropped, together with a line break that follows them:
   `exam-\\nple` -> `example`, and `well-known` -> `wellknown`, so a compound split at its own
   hyphen still matches. A soft hyphen (U+00AD) and PDFium's line-end hyphen marks (U+0002,
   U+FFFE) are always dropped, with the line break after them when they join two words.
7. Every run of whitespace becomes one space; leading and trailing whitespace is dropped.

A passage must keep at least `MIN_CHARS` characters and `MIN_WORDS` words after normalisation, so
that a few common words cannot "support" a claim by occurring somewhere in a long paper.
"""

from __future__ import annotations

import unicodedata
from typing import Final

import attrs

from cgx_checks.citation.text import SourceText

MIN_CHARS: Final = 20
MIN_WORDS: Final = 4
MAX_CHARS: Final = 20_000

_ZERO_WIDTH: Final = frozenset("\u200b\u200c\u200d\u2060\ufeff")
_SOFT_HYPHENS: Final = frozenset("\u00ad\u0002\ufffe")
_LINE_BREAKS: Final = frozenset("\n\r\f\v\x1c\x1d\x1e\x85\u2028\u2029")
_TRANSLATE: Final = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u2035\u0060\u00b4\u2039\u203a", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u2036\u00ab\u00bb", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d\u2043", "-"),
    }
)
_SOFT: Final = "\u00ad"  # marker for a soft hyphen inside the first pass
_BREAK: Final = "\n"  # marker for whitespace that breaks a line


@attrs.frozen
class Location:
    """Where a passage is: the range `[start, end)` in the source's text, and its 1-based page for a PDF."""

    start: int
    end: int
    page: int | None


def _clusters(text: str) -> list[tuple[int, int]]:
    """(start, end) of each base character with the combining marks that follow it."""
    bounds: list[tuple[int, int]] = []
    start = 0
    for index in range(1, len(text) + 1):
        if index == len(text) or not unicodedata.combining(text[index]):
            bounds.append((start, index))
            start = index
    return bounds


def _first_pass(text: str) -> list[tuple[str, int, int]]:
    """Steps 1-5: each output character with the original range it came from."""
    out: list[tuple[str, int, int]] = []
    memo: dict[str, str] = {}  # a text repeats few distinct clusters; normalise each once
    for start, end in _clusters(text):
        cluster = text[start:end]
        folded = memo.get(cluster)
        if folded is None:
            folded = memo[cluster] = _fold(cluster)
        out.extend((char, start, end) for char in folded)
    return out


def _fold(cluster: str) -> str:
    """Steps 2-5 for one cluster: its output characters, with `_SOFT` and `_BREAK` as markers."""
    head = cluster[0]
    if head in _ZERO_WIDTH:
        return ""
    if head in _SOFT_HYPHENS:
        return _SOFT
    if head in _LINE_BREAKS:
        return _BREAK
    folded = unicodedata.normalize("NFKC", cluster.translate(_TRANSLATE)).translate(_TRANSLATE)
    for _ in range(4):  # casefold can undo NFKC (ß + U+0301 -> s s U+0301 -> s ś): repeat to a fixed point
        again = unicodedata.normalize("NFKC", folded.casefold()).translate(_TRANSLATE)
        if again == folded:
            break
        folded = again
    chars: list[str] = []
    for char in folded:
        if char in _SOFT_HYPHENS:
            chars.append(_SOFT)
        elif char in _LINE_BREAKS:
            chars.append(_BREAK)
        elif char.isspace():
            chars.append(" ")
        elif char not in _ZERO_WIDTH:
            chars.append(char)
    return "".join(chars)


def _joined_after(items: list[tuple[str, int, int]], index: int) -> int | None:
    """If the hyphen at `index` joins two words, the index of the next word's first character.

    Between the hyphen and that character there may be nothing, or whitespace holding a line break;
    soft hyphens in between are invisible and skipped (they are dropped in any case).
    """
    after = index + 1
    saw_space = saw_break = False
    while after < len(items) and items[after][0] in (" ", _BREAK, _SOFT):
        saw_space = saw_space or items[after][0] != _SOFT
        saw_break = saw_break or items[after][0] == _BREAK
        after += 1
    if after == len(items) or not items[after][0].isalnum():
        return None
    if saw_space and not saw_break:
        return None
    return after


def _normalise(text: str) -> tuple[str, list[int], list[int]]:
    """The normalised text, and for each of its characters the original start and end."""
    items = _first_pass(text)
    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    index = 0
    while index < len(items):
        char, start, end = items[index]
        if char in ("-", _SOFT):
            joined = _joined_after(items, index) if chars and chars[-1].isalnum() else None
            if joined is not None:
                index = joined
                continue
            if char == _SOFT:
                index += 1
                continue
        if char in (" ", _BREAK):
            if chars and chars[-1] != " ":
                chars.append(" ")
                starts.append(start)
                ends.append(end)
            index += 1
            continue
        chars.append(char)
        starts.append(start)
        ends.append(end)
        index += 1
    if chars and chars[-1] == " ":
        chars.pop()
        starts.pop()
        ends.pop()
    return "".join(chars), starts, ends


def normalise_for_search(text: str) -> tuple[str, list[int]]:
    """The normalised text and, for each of its characters, the offset in `text` it came from.

    `offsets` has one more entry than the normalised text: the last is `len(text)`, so a match
    ending at the end of the normalised text maps to the end of the original.
    """
    normalised, starts, _ = _normalise(text)
    return normalised, [*starts, len(text)]


def passage_problem(passage: str) -> str | None:
    """Why a passage cannot be searched for, or None when it can."""
    if len(passage) > MAX_CHARS:
        return f"the passage is longer than {MAX_CHARS} characters; quote the sentences that support the claim"
    normalised, _ = normalise_for_search(passage)
    words = normalised.split(" ") if normalised else []
    if len(normalised) < MIN_CHARS or len(words) < MIN_WORDS:
        return (
            f"the passage has {len(normalised)} characters and {len(words)} words after normalisation; "
            f"quote at least {MIN_CHARS} characters and {MIN_WORDS} words, so it identifies one place in the source"
        )
    return None


def find_passage(source: SourceText, passage: str) -> Location | None:
    """The first place the normalised passage occurs in the normalised source, or None.

    The range is in the source's original text: from the first character that produced the match
    to the end of the last one (a ligature matched in part counts whole).
    """
    needle, _ = normalise_for_search(passage)
    if not needle:
        return None
    haystack, starts, ends = _normalise(source.text)
    found = haystack.find(needle)
    if found == -1:
        return None
    start = starts[found]
    end = ends[found + len(needle) - 1]
    return Location(start=start, end=end, page=source.page_of(start))
