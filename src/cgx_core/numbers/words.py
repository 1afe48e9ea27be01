"""Number words a paper writes for counts and simple factors: "eleven", "twenty-four", "two hundred", "half".

Whole words only, in any case: "three-layer" is 3, "someone" and "often" hold none. A cardinal is a word
from zero to nineteen, a tens word (twenty ... ninety) with an optional unit word joined by a hyphen or a
space ("twenty-one", "forty two"), optionally followed by hundred, thousand, million or billion ("two
hundred", "three thousand"). "half" is 1/2, "twice" and "double" are 2, "triple" and "thrice" are 3.
Ordinals ("third") are not read: "a third" and "the third run" mean different things.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Final

ONES: Final = {
    word: value
    for value, word in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
        ]
    )
}
TENS: Final = {
    word: 10 * value
    for value, word in enumerate(
        ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], start=2
    )
}
SCALES: Final = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9}
FACTORS: Final = {"half": Fraction(1, 2), "twice": Fraction(2), "double": Fraction(2), "triple": Fraction(3)}
FACTORS_MORE: Final = {"thrice": Fraction(3)}

_UNITS_WORDS = "|".join(sorted((word for word, value in ONES.items() if 0 < value < 10), key=len, reverse=True))
_BASIC = "|".join(sorted([*ONES, *TENS], key=len, reverse=True))
WORD_NUMERAL = re.compile(
    rf"(?<![\w\\-])(?:(?P<tens>{'|'.join(TENS)})[- ](?P<unit>{_UNITS_WORDS})|(?P<basic>{_BASIC}))"
    rf"(?:[ ](?P<scale>{'|'.join(SCALES)}))?(?![\w])"
    rf"|(?<![\w\\-])(?P<factor>{'|'.join([*FACTORS, *FACTORS_MORE])})(?![\w])",
    re.IGNORECASE,
)


def word_value(match: re.Match[str]) -> Fraction:
    """The exact value of a match of WORD_NUMERAL."""
    if match["factor"]:
        word = match["factor"].lower()
        return FACTORS.get(word) or FACTORS_MORE[word]
    if match["tens"]:
        value = TENS[match["tens"].lower()] + ONES[match["unit"].lower()]
    else:
        basic = match["basic"].lower()
        value = ONES.get(basic, TENS.get(basic, 0))
    if match["scale"]:
        value *= SCALES[match["scale"].lower()]
    return Fraction(value)
