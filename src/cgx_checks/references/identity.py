"""Is a registry's record the work the bibliography entry says: the same title, first author and year?

Both sides are compared after one normalisation, so that the ways of writing a title that change nothing
do not count: markup (`<i>`, MathML, LaTeX braces already rendered), accents, case, punctuation, spaces and
hyphens. A title matches when it equals one of the record's titles (a title, or a title and its subtitle);
the first author when the last word of the family names agree (particles and `Jr.` aside); the year when it
is one the record gives (a journal's print and online years, every year an arXiv paper had a version).
An entry read only from a printed reference (no .bib fields) is compared with its text instead: the
record's title, family name and a year must occur in it.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Sequence
from typing import Any, Final

import attrs

_TAG: Final = re.compile(r"<[^>]*>")
_SUFFIXES: Final = frozenset({"jr", "sr", "ii", "iii", "iv"})
_YEAR: Final = re.compile(r"(?<!\d)(\d{4})(?!\d)")
MIN_TITLE_CHARS: Final = 12
"""A shorter folded title is not searched for in a printed reference: it would occur by chance."""


def fold(text: str) -> str:
    """Letters and digits only, without markup, accents or case: `<i>Schrödinger</i>'s Cat` -> `schrodingerscat`."""
    plain = html.unescape(_TAG.sub(" ", text))
    decomposed = unicodedata.normalize("NFKD", plain)
    return "".join(char for char in decomposed.casefold() if char.isalnum() and not unicodedata.combining(char))


def family_key(name: str) -> str:
    """The part of a family name both sides write the same way: its last word, folded (`van der Waals` ->
    `waals`, `Smith Jr.` -> `smith`)."""
    words = [fold(word) for word in re.split(r"[\s,]+", name)]
    words = [word for word in words if word and word not in _SUFFIXES]
    return words[-1] if words else ""


@attrs.frozen
class EntryFields:
    """What the bibliography entry says about its work (None where the entry does not say), and its text."""

    title: str | None
    first_author: str | None
    year: str | None
    text: str

    @classmethod
    def from_inputs(cls, inputs: Any) -> EntryFields:
        return cls(inputs.get("title"), inputs.get("first_author"), inputs.get("year"), str(inputs.get("text") or ""))


@attrs.frozen
class Difference:
    """A field on which the record and the entry disagree."""

    field: str
    entry: str
    record: str
    via: str

    def to_json(self) -> dict[str, str]:
        return attrs.asdict(self)

    def sentence(self) -> str:
        return f"the {self.field} differs: the entry says {self.entry!r}, {self.via} records {self.record!r}"


def _title_differs(entry: EntryFields, titles: Sequence[str], via: str) -> Difference | None:
    folded = {fold(title) for title in titles} - {""}
    if not folded:
        return None  # the record has no title: nothing to compare
    shown = titles[0]
    if entry.title is not None:
        return None if fold(entry.title) in folded else Difference("title", entry.title, shown, via)
    text = fold(entry.text)
    if any(len(title) >= MIN_TITLE_CHARS and title in text for title in folded):
        return None
    return Difference("title", entry.text, shown, via)


def _author_differs(entry: EntryFields, first_author: str | None, via: str) -> Difference | None:
    key = family_key(first_author) if first_author else ""
    if not key:
        return None
    if entry.first_author is not None:
        return (
            None
            if family_key(entry.first_author) == key
            else Difference("first author", entry.first_author, str(first_author), via)
        )
    words = {fold(word) for word in re.split(r"[\s,.;:()]+", entry.text)}
    return None if key in words else Difference("first author", entry.text, str(first_author), via)


def _year_differs(entry: EntryFields, years: Sequence[int], via: str) -> Difference | None:
    if not years:
        return None
    shown = "-".join(str(year) for year in (min(years), max(years))) if len(set(years)) > 1 else str(years[0])
    if entry.year is not None:
        match = _YEAR.search(entry.year)
        if match is None:
            return None
        return None if int(match.group(1)) in years else Difference("year", entry.year, shown, via)
    found = {int(year) for year in _YEAR.findall(entry.text)}
    return None if found & set(years) else Difference("year", entry.text, shown, via)


def differences(
    entry: EntryFields, titles: Sequence[str], first_author: str | None, years: Sequence[int], via: str
) -> list[Difference]:
    """Every field on which a record (`via` names its registry) disagrees with the entry."""
    found = [
        _title_differs(entry, titles, via),
        _author_differs(entry, first_author, via),
        _year_differs(entry, years, via),
    ]
    return [difference for difference in found if difference is not None]
