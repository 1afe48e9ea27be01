r"""The number of items a chunk enumerates, for `items(s-12)`: "in five settings: (a) ..., (b) ..., (c) ...,
(d) ..." enumerates four.

An enumeration is one of these forms, each counted as its longest run of consecutive labels from the first:
`\item`; `(a) (b) (c)` (or `a)`); `(i) (ii) (iii)`; `(1) (2) (3)`; "first ... second ... third" (also
"firstly", "secondly"). A run needs at least two labels, since one "(a)" or one "first" enumerates nothing.
When no form has a run, or two forms give different counts, the chunk is not counted (`None`): a count the
reader is not sure of must not fail a true sentence.
"""

from __future__ import annotations

import re
from typing import Final

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
    return counts.pop() if len(counts) == 1 else None


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
