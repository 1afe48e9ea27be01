r"""The relation a text writes before a numeral: "less than 2%", `$<2$\%`, "at least 5", "approximately 2 days".

Each numeral of a text carries the relation written right before it (looking through spacing, `$`, `{`
and LaTeX spacing commands), and the reported result of a check is compared with that relation, never one
the agent picks: an agent cannot make a check pass by loosening "350" into "at least 350".

* `<`: `<`, `\lt`, less than, fewer than, lower than, smaller than, below;
* `<=`: `\le`, `\leq`, `\leqslant`, U+2264, at most, up to, no more than, not more than, no greater than,
  not exceeding, within;
* `>`: `>`, `\gt`, more than, greater than, higher than, larger than, above, exceeding, exceeded, exceeds;
* `>=`: `\ge`, `\geq`, `\geqslant`, U+2265, at least, no less than, not less than, no fewer than;
* `~` (a hedge): approximately, approx., about, around, roughly, circa, ca., c., nearly, almost, on the order
  of, of the order of, `\approx` and U+2248, `\simeq` and U+2243, `\sim` and U+223C, `\textasciitilde`.
  An ASCII `~` is LaTeX's tie wherever it stands, a space: `& ~35k &` prints 35k, no tilde, so it hedges
  nothing (the printed paper is what a reader reads; a printed tilde is written `$\sim$` or `\textasciitilde`).

A hedge carries its phrase, normalised (`\approx` is U+2248, `\sim` and U+223C are `~`, words case-folded):
the tolerance it stands for is the one the rubric's author declares for that phrase (`tolerances.py`).
Anything else (including none) is `=`.
"""

from __future__ import annotations

import re
from typing import Final

RELATIONS: Final = ("=", "<", "<=", ">", ">=", "~")

_WORDS: Final = {
    "<": ("less than", "fewer than", "lower than", "smaller than", "below"),
    "<=": ("at most", "up to", "no more than", "not more than", "no greater than", "not exceeding", "within"),
    ">": ("more than", "greater than", "higher than", "larger than", "above", "exceeding", "exceeded", "exceeds"),
    ">=": ("at least", "no less than", "not less than", "no fewer than"),
    "~": (
        "approximately",
        "approx.",
        "approx",
        "about",
        "around",
        "roughly",
        "circa",
        "ca.",
        "c.",
        "nearly",
        "almost",
        "on the order of",
        "of the order of",
    ),
}
_SYMBOLS: Final = {
    "<": ("<", "\\lt", "&lt;"),
    "<=": ("\\leqslant", "\\leq", "\\le", "\N{LESS-THAN OR EQUAL TO}"),
    ">": (">", "\\gt", "&gt;"),
    ">=": ("\\geqslant", "\\geq", "\\ge", "\N{GREATER-THAN OR EQUAL TO}"),
    "~": ("\\approx", "\N{ALMOST EQUAL TO}", "\\simeq", "\N{ASYMPTOTICALLY EQUAL TO}", "\\sim", "\N{TILDE OPERATOR}"),
}
_CANONICAL: Final = {
    "\\approx": "\N{ALMOST EQUAL TO}",
    "\\simeq": "\N{ASYMPTOTICALLY EQUAL TO}",
    "\\sim": "~",
    "\N{TILDE OPERATOR}": "~",
    "\\textasciitilde": "~",
}

HEDGE_PHRASES: Final = (*_WORDS["~"], "\N{ALMOST EQUAL TO}", "\N{ASYMPTOTICALLY EQUAL TO}", "~")
"""Every hedge phrase the reader recognises, normalised: the keys a tolerance table may declare."""


def _alternatives() -> str:
    found: list[tuple[str, str]] = []
    for relation, words in _WORDS.items():
        found.extend((relation, r"(?<![\w])" + re.escape(word).replace(r"\ ", r"\s+")) for word in words)
    for relation, symbols in _SYMBOLS.items():
        found.extend(
            (relation, re.escape(symbol) + (r"(?![A-Za-z])" if symbol[0] == "\\" else "")) for symbol in symbols
        )
    found.append(("~", r"\\textasciitilde(?![A-Za-z])"))
    names = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "~": "hedge"}
    groups: dict[str, list[str]] = {}
    for relation, pattern in found:
        groups.setdefault(names[relation], []).append(pattern)
    return "|".join(f"(?P<{name}>{'|'.join(patterns)})" for name, patterns in groups.items())


# Between a relation and its numeral: spacing, ties, math delimiters and braces (`{\textasciitilde}35k`).
_BEFORE = re.compile(rf"(?:{_alternatives()})(?:[\s$\{{\}}]|\\[,;:! ]|~)*\Z", re.IGNORECASE)
_LOOKBACK = 40
_RELATION_OF_GROUP: Final = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "hedge": "~"}


def relation_before(text: str, start: int) -> tuple[str, str | None]:
    """The relation written right before position `start`, and the hedge phrase when it is `~`."""
    before = text[max(0, start - _LOOKBACK) : start]
    match = _BEFORE.search(before)
    if match is None or match.lastgroup is None:
        return "=", None
    relation = _RELATION_OF_GROUP[match.lastgroup]
    if relation != "~":
        return relation, None
    return "~", hedge_key(match[match.lastgroup])


def hedge_key(phrase: str) -> str:
    """A hedge phrase as the tolerance table keys it: LaTeX symbols as Unicode, words case-folded."""
    key = " ".join(phrase.split()).casefold()
    return _CANONICAL.get(phrase.strip(), key)
