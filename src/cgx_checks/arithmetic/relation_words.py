"""The words a text writes a relation with ("identical", "below", "at least", "in decreasing order"), and the
words that name a quantity's kind ("probability", "condition number").

A comparison or predicate of a recompute-numbers expression is accepted only where the cited text writes a
word (or symbol) of its relation: the text, not the agent, says that two columns are "identical" (`==`), so
an agent cannot weaken it into `>=`. A predicate's `result` is that word as the text writes it; a count of
conditions needs a word for each relation it uses. The word each relation came from is recorded.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Final

RELATION_WORDS: Final[dict[str, tuple[str, ...]]] = {
    "==": (
        "identical",
        "the same",
        "same as",
        "equal",
        "equals",
        "unchanged",
        "agree",
        "agrees",
        "match",
        "matches",
        "coincide",
        "=",
        "\\equiv",
    ),
    "!=": (
        "differ",
        "differs",
        "different",
        "changed",
        "change",
        "not identical",
        "not the same",
        "\\neq",
        "\\ne",
        "\N{NOT EQUAL TO}",
    ),
    "<": (
        "below",
        "less than",
        "lower than",
        "smaller than",
        "fewer than",
        "under",
        "before",
        "earlier than",
        "<",
        "\\lt",
    ),
    "<=": (
        "at most",
        "no more than",
        "not more than",
        "up to",
        "not exceeding",
        "no later than",
        "\\le",
        "\\leq",
        "\N{LESS-THAN OR EQUAL TO}",
    ),
    ">": (
        "exceeds",
        "exceed",
        "exceeding",
        "above",
        "more than",
        "greater than",
        "higher than",
        "larger than",
        "after",
        "later than",
        ">",
        "\\gt",
    ),
    ">=": (
        "at least",
        "no less than",
        "not less than",
        "no fewer than",
        "no earlier than",
        "\\ge",
        "\\geq",
        "\N{GREATER-THAN OR EQUAL TO}",
    ),
    "within": ("within", "inside", "between", "in the interval", "in the range", "contains", "contain"),
    "sorted_desc": ("decreasing", "descending", "decreases", "decrease"),
    "sorted_asc": ("increasing", "ascending", "increases", "increase"),
    "any": ("any", "some", "at least one", "one of", "either"),
    "is_probability": ("probability", "probabilities", "chance"),
    "is_proportion": ("proportion", "proportions", "fraction", "share"),
    "is_percentage": ("percentage", "percent", "per cent", "%"),
    "is_pvalue": ("p-value", "p-values", "p value", "p values", "p =", "p <", "p<", "p=", "$p$"),
    "is_count": ("number of", "count", "counts", "n =", "n="),
    "is_variance": ("variance", "variances", "\\sigma^2", "\N{GREEK SMALL LETTER SIGMA}\N{SUPERSCRIPT TWO}"),
    "is_sd": (
        "standard deviation",
        "standard deviations",
        "sd",
        "s.d.",
        "std",
        "\\sigma",
        "\N{GREEK SMALL LETTER SIGMA}",
    ),
    "is_correlation": ("correlation", "correlations", "correlated", "\\rho", "pearson", "spearman"),
    "is_condition_number": ("condition number", "condition numbers", "\\kappa", "cond"),
}
"""Each relation or kind, with the words and symbols a text writes it with (matched case-insensitively, as
whole words; `any` is the existential word any() needs, since "identical" alone means every row)."""

MIRRORED: Final = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
"""A comparison written the other way round: "a is below b" is `a < b` or `b > a`."""


def word_meaning(phrase: str) -> str | None:
    """The relation or kind a phrase of the vocabulary writes, or None."""
    key = " ".join(phrase.split()).casefold()
    for relation, words in RELATION_WORDS.items():
        if key in words:
            return relation
    return None


def written_words(texts: Iterable[str]) -> dict[str, str]:
    """For each relation or kind, the first word of the vocabulary the texts write (as the vocabulary
    spells it)."""
    found: dict[str, str] = {}
    for text in texts:
        for match in _pattern().finditer(text):
            relation = word_meaning(match[0])
            if relation is not None:
                found.setdefault(relation, " ".join(match[0].split()).casefold())
    return found


def writes(texts: Iterable[str], phrase: str) -> bool:
    """Whether the texts write the phrase (case-insensitively, as a whole word)."""
    pattern = re.compile(_word_pattern(" ".join(phrase.split()).casefold()), re.IGNORECASE)
    return any(pattern.search(text) for text in texts)


@functools.cache
def _pattern() -> re.Pattern[str]:
    words = sorted({word for words in RELATION_WORDS.values() for word in words}, key=len, reverse=True)
    return re.compile("|".join(_word_pattern(word) for word in words), re.IGNORECASE)


def _word_pattern(word: str) -> str:
    body = re.escape(word).replace(r"\ ", r"\s+")
    before = r"(?<![\w\\])" if word[0].isalnum() else ""
    after = r"(?![\w])" if word[-1].isalnum() else ""
    return before + body + after
