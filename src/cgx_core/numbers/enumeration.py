r"""The number of items a chunk enumerates, for `items(s-12)`: "in five settings: (a) ..., (b) ..., (c) ...,
(d) ..." enumerates four.

An enumeration is one of these forms, each counted as its longest run of consecutive labels from the first:
`\item`; `(a) (b) (c)` (or `a)`); `(i) (ii) (iii)`; `(1) (2) (3)`; "first ... second ... third" (also
"firstly", "secondly"). A run needs at least two labels, since one "(a)" or one "first" enumerates nothing.
When no form has a run, or two forms give different counts, the chunk is not counted (`None`): a count the
reader is not sure of must not fail a true sentence.

A chunk with no labelled form may announce a list without labels: "two datasets (MNIST and SVHN)", "four
measures: accuracy, recall, precision and F1" (`announced_lists`). It is counted only when each list it
announces has items that cannot be read two ways, and all have one size. A chunk ending with a colon before an
`itemize` or `enumerate` counts that list, whose items are chunks of their own (`list_after`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final, NamedTuple

_ROMAN: Final = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv")
_ORDINALS: Final = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
)
_LABEL = re.compile(r"(?:(?<=[\s\[{:;,])|^)\(?([a-z]|[ivx]{1,4}|[0-9]{1,2})\)", re.IGNORECASE)
_ORDINAL = re.compile(r"(?<![\w-])(" + "|".join(_ORDINALS) + r")(?:ly)?(?![\w-])", re.IGNORECASE)
_ITEM = re.compile(r"\\item(?![A-Za-z])")
_ANNOUNCED = re.compile(
    r"(?<![\w-])(?P<count>two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[2-9]|1[0-2])\s+"
    r"(?:[A-Za-z-]+\s+)?(?:[A-Za-z-]+s\s*\((?P<listed>[^()]*)\)|[A-Za-z-]+\s*:\s*(?P<after>[^.;:()]*?)\s*(?:[.;]|$))",
    re.IGNORECASE,
)
"""A count and its noun (with one word between them) followed by a list in brackets, the noun a plural ("three
settings (...)", not "three models were trained (...)"), or by a colon and a list up to the end of the sentence."""
_NOT_A_LIST = re.compile(
    r"(?<![\w-])\d|[$\\{}\[\]=<>%]|\b(?:e\.\s?g|i\.\s?e|etc|such as|including|for example|for instance|"
    r"respectively|among|like|is|are|was|were|be|been|has|have|had|if|then|when|while|whereas|which|that|who|"
    r"we|it|they|than|more|less|not|did|does|do)\b",
    re.IGNORECASE,
)
"""What makes a bracket or colon no plain list: a number standing alone (a breakdown or a statistic), LaTeX,
a comparison, words that say the list is partial, paired or a restatement, or words of a clause ("three
findings: A improves and B degrades" states two findings in one clause each, not a list of nouns)."""
_JOINED = re.compile(r"\s(?:and|or)\s", re.IGNORECASE)


def enumerated_items(text: str) -> int | None:
    """How many items the text enumerates, or None when it writes no enumeration the reader is sure of."""
    items = len(_ITEM.findall(text))
    counts = {items} if items >= 2 else set()
    labels = [match[1].lower() for match in _LABEL.finditer(text)]
    for sequence in (
        [chr(code) for code in range(ord("a"), ord("z") + 1)],
        list(_ROMAN),
        [str(number) for number in range(1, 100)],
    ):
        run = _run(labels, sequence)
        if run >= 2:
            counts.add(run)
    run = _run([match[1].lower() for match in _ORDINAL.finditer(text)], list(_ORDINALS))
    if run >= 2:
        counts.add(run)
    announced = [listed.items for listed in announced_lists(text)]
    if not counts and None not in announced:
        counts = {count for count in announced if count is not None}  # two lists of one size are one count
    return counts.pop() if len(counts) == 1 else None


class Announced(NamedTuple):
    """A list the text announces without labels, right after a count and its noun."""

    stated: str
    """The count as the text states it ("three", "4")."""
    span: tuple[int, int]
    """Where the count, its noun and the list stand in the text."""
    items: int | None
    """How many items the list has, or None when they could be read two ways."""


def announced_lists(text: str) -> list[Announced]:
    """Each list the text announces without labels: "three settings (random initialization, warm starting,
    and Shrink-Perturb)" or "four measures: accuracy, recall, precision and F1".

    The items are what the commas and the one last "and" (or "or") separate. A list is not counted when an item
    but the last writes "and" ("reading and writing, arithmetic, and drawing" is two or three), when an item
    is long (a clause after a colon is no list: "three cases: the matrix is singular and ..."), when it writes
    a number standing alone ("12 participants (8 women and 4 men)" is a breakdown, not a list of 12), LaTeX
    or a nested bracket, or when the list says it is partial or paired ("e.g.", "such as", "respectively")."""
    return [
        Announced(
            match["count"],
            match.span(),
            _items_of(match["listed"] if match["listed"] is not None else match["after"], match["listed"] is not None),
        )
        for match in _ANNOUNCED.finditer(text)
    ]


def _items_of(body: str, bracketed: bool) -> int | None:
    """The items of one list, the last joined by "and" or "or"; a list after a colon needs three items at least
    (two joined by "and" after a colon are as often two clauses), and its items three words at most."""
    if _NOT_A_LIST.search(body) or _LABEL.search(body):
        return None
    items = [item.strip() for item in body.split(",")]
    if not bracketed and len(items) < 2:
        return None
    last = items.pop()
    oxford = re.fullmatch(r"(?:and|or)\s+(.+)", last, re.IGNORECASE)
    ends = [oxford[1]] if oxford and items else re.split(r"\s+(?:and|or)\s+", last, flags=re.IGNORECASE)
    if not (oxford and items) and len(ends) != 2:
        return None  # the last item must be joined by one "and": "(large, pretrained)" may be two adjectives
    items += ends
    most_words = 4 if bracketed else 3
    if any(not item or len(item.split()) > most_words or _JOINED.search(item) for item in items):
        return None
    return len(items)


def without_labels(text: str) -> str:
    """The text with its numbered labels (`(3)`, `3)`) blanked: a count of items must be a number the text
    states ("three steps"), never the last label, which would pass `items(s-N)` by construction."""
    return _LABEL.sub(lambda match: " " * len(match[0]) if match[1].isdigit() else match[0], text)


def _run(labels: list[str], sequence: list[str]) -> int:
    """The length of the run sequence[0], sequence[1], ... found in order among the labels."""
    count = 0
    for label in labels:
        if count < len(sequence) and label == sequence[count]:
            count += 1
    return count


def list_after(chunks: Sequence[tuple[str, str, Mapping[str, Any]]], node_id: str) -> int | None:
    """The number of items of the list a chunk announces: the chunk ends with a colon and the next chunk is the
    first item of a list the chunk is not in (`attributes.list`, cgx_core.ingest.lists). None when it announces
    none, or when an item of the list has no chunk (an empty `\\item`): a count of chunks would then be short of
    the list's.

    `chunks` are the document's (id, text, attributes) in reading order."""
    index = next((at for at, (chunk, _, _) in enumerate(chunks) if chunk == node_id), None)
    if index is None or index + 1 >= len(chunks) or not chunks[index][1].rstrip().endswith(":"):
        return None
    listed, own = _list_of(chunks[index + 1][2]), _list_of(chunks[index][2])
    if listed is None or listed[1] != 1 or (own is not None and own[0] == listed[0]):
        return None
    number, _, count = listed
    read = (_list_of(attributes) for _, _, attributes in chunks)
    items = {of[1] for of in read if of is not None and of[0] == number}
    return count if items == set(range(1, count + 1)) else None


def _list_of(attributes: Mapping[str, Any]) -> tuple[int, int, int] | None:
    """A chunk's list, item and the list's number of items, or None (none, or not three whole numbers)."""
    written = attributes.get("list")
    if not isinstance(written, Mapping):
        return None
    values = [written.get(key) for key in ("number", "item", "items")]
    whole = [value for value in values if isinstance(value, int) and not isinstance(value, bool)]
    return (whole[0], whole[1], whole[2]) if len(whole) == 3 else None
