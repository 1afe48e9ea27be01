"""Reading a node's text the way a fix needs: phrases, numerals, equation references, unique clauses.

A fix tells the agent what the text does contain, so its next record can be right. Everything here is
deterministic (ties go to the earliest, then the shortest, candidate) because fixes are part of a
logged, replayable result.
"""

from __future__ import annotations

import re

from credencegraph.rubric import normalise_text
from credencegraph.rubric.model import hedge_key

from cgx_core.graph.numerals import numerals

_EQREF = re.compile(r"\\(?:eq|c|C)?ref\{([^{}]*)\}")
_PRINTED_EQREF = re.compile(r"\((\d+[a-z]?)\)")
_MAX_LISTED = 20


def phrase_pattern(phrase: str) -> re.Pattern[str]:
    """A pattern for a phrase as a run of whole words of a case-folded, normalised text.

    A phrase that begins or ends with a letter or digit must not be glued to one there: "may" is a
    phrase of "it may hold" but not of "dismayed".
    """
    key = hedge_key(phrase)
    before = r"(?<![^\W_])" if key[:1].isalnum() else ""
    after = r"(?![^\W_])" if key[-1:].isalnum() else ""
    return re.compile(before + re.escape(key) + after)


def contains_phrase(text: str, phrase: str) -> bool:
    """Whether the text contains the phrase as whole words, after normalisation and case-folding."""
    return bool(hedge_key(phrase)) and phrase_pattern(phrase).search(hedge_key(text)) is not None


def occurrences(text: str, clause: str) -> list[int]:
    """Every start of `clause` in `text`, overlapping ones included (as split_node counts them)."""
    starts = []
    start = text.find(clause) if clause else -1
    while start != -1:
        starts.append(start)
        start = text.find(clause, start + 1)
    return starts


def whole_words(text: str, start: int, end: int) -> str:
    """`text[start:end]` widened so it neither begins nor ends inside a word."""
    while 0 < start < len(text) and text[start - 1].isalnum() and text[start].isalnum():
        start -= 1
    while 0 < end < len(text) and text[end - 1].isalnum() and text[end].isalnum():
        end += 1
    return text[start:end]


def _similarity(left: str, right: str) -> float:
    from difflib import SequenceMatcher  # a refusal's suggestion only: kept off a classify's import path

    return SequenceMatcher(None, left.casefold(), right.casefold(), autojunk=False).ratio()


def closest_phrase(text: str, wanted: str) -> str:
    """The run of whole words of `text` most like `wanted` (case-insensitive), or the text if it is short."""
    words = text.split(" ")
    size = max(1, len(normalise_text(wanted).split(" ")))
    best, best_score = text, -1.0
    for length in sorted({max(1, size - 1), size, size + 1}):
        for start in range(max(1, len(words) - length + 1)):
            candidate = " ".join(words[start : start + length])
            score = _similarity(candidate, wanted)
            if score > best_score or (score == best_score and len(candidate) < len(best)):
                best, best_score = candidate, score
    return best


def unique_clause(text: str, clause: str) -> str | None:
    """A longer clause around an occurrence of `clause` that occurs exactly once in `text`.

    Each occurrence in turn is widened to the right word by word, then to the left, until the widened
    clause occurs once. None when `clause` does not occur.
    """
    for start in occurrences(text, clause):
        begin, end = start, start + len(clause)
        while True:
            candidate = text[begin:end]
            if len(occurrences(text, candidate)) == 1:
                return candidate
            if end < len(text):
                following = text.find(" ", end + 1)
                end = len(text) if following == -1 else following
            elif begin > 0:
                preceding = text.rfind(" ", 0, begin - 1)
                begin = 0 if preceding == -1 else preceding + 1
            else:
                break
    return None


def number_text(value: float) -> str:
    """A number as JSON writes it: 1000 rather than 1000.0."""
    return str(int(value)) if value.is_integer() and abs(value) < 1e16 else repr(value)


def listed(items: list[str], limit: int = _MAX_LISTED) -> str:
    """`[a, b, c]`, or the first `limit` items and how many more."""
    shown = ", ".join(items[:limit])
    more = len(items) - limit
    return f"[{shown}]" if more <= 0 else f"[{shown}, and {more} more]"


def numerals_of(text: str) -> list[str]:
    """The numbers a `number` or `quantity` form field may take for this text, as JSON numbers.

    The text is read with the one numeral reader (`cgx_core.numbers`), in the order it writes them; a
    form value is then checked by credencegraph's own `numerals()`, which reads floats and fewer forms (it
    reads `10^{-3}` as 10 and -3), so only the numbers both accept are listed, then any credencegraph reads
    that ours does not, in increasing order: a fix never suggests a value the form check would refuse.
    """
    from cgx_core.numbers import read_text

    accepted = numerals(text)
    listed: list[float] = []
    for occurrence in read_text(text):
        value = float(occurrence.numeral.value)
        if value in accepted and value not in listed:
            listed.append(value)
    listed.extend(sorted(value for value in accepted if value not in listed))
    return [number_text(value) for value in listed]


def eqrefs_of(text: str) -> list[str]:
    r"""The equation labels a text references (`\eqref{x}`, `\ref{x}`, `\cref{x}`, or a printed `(4)`)."""
    labels = [match[1] for match in _EQREF.finditer(text)] + [match[1] for match in _PRINTED_EQREF.finditer(text)]
    return list(dict.fromkeys(labels))
