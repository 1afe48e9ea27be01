r"""The arithmetic of percent-of: is part / whole within the rounding of the percentage as written?

Everything is exact: each numeral is read from its digits as written into a `Fraction` (never a float),
so the outcome is the same on every machine, and a percentage written with more digits is held to a
tighter tolerance (95% is 95 +- 0.5, 95.0% is 95 +- 0.05). The part and the whole are taken as exact,
as a paper's counts are; only the percentage carries the writer's rounding. A value exactly on the edge
of the rounding passes, since a writer may round a half either way.

The numerals are read with credencegraph-extract's one numeral reader (`cgx_core.numbers`), so `1,000`,
`\num{1000}`, `1.2 \times 10^{3}`, `95\%` and "95 percent" mean here what they mean to recompute-numbers,
in the cited text and as the agent writes them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from cgx_core.plugin_api import (
    Numeral,
    NumeralError,
    Refusal,
    define_codes,
    find_numerals,
    fraction_text,
    read_numeral,
)

CODES = define_codes(
    {
        "percent-cites-unknown": "A cited id is not a chunk of the document (only the paper's own text counts).",
        "percent-not-a-numeral": "The part, whole or percentage is not one numeral as a text writes it.",
        "percent-not-in-text": "The cited chunks do not write the numeral (the percentage with its % sign).",
        "percent-whole-zero": "The whole is zero, so no percentage of it can be taken.",
    }
)
"""The codes this plugin owns (its refusals and errors), with their meanings."""

SHOWN_NUMERALS = 30  # how many of the chunks' numerals a refusal lists
PLACES = 4  # decimal places of a percentage shown in a detail line


@dataclass(frozen=True)
class Comparison:
    """A part, a whole and a written percentage, with what the check decides about them."""

    part: Numeral
    whole: Numeral
    percent: Numeral

    @property
    def ratio(self) -> Fraction:
        return self.part.value / self.whole.value

    @property
    def passed(self) -> bool:
        return abs(self.ratio - self.percent.value) <= self.percent.half_unit

    def detail(self) -> str:
        """One line a person reads: `950 / 1000 = 95%, written 95% (+- 0.5%): passed`."""
        result = "passed" if self.passed else "failed"
        return (
            f"{self.part.written} / {self.whole.written} = {decimal_text(self.ratio * 100)}%, "
            f"written {self.percent.written} (+- {decimal_text(self.percent.half_unit * 100)}%): {result}"
        )

    def observation_key(self) -> str:
        """The exact ratio, the percentage's value and its rounding: all that decides the outcome, so two
        proposals with the same ratio against the same written percentage are one observation."""
        return json.dumps(
            [fraction_text(self.ratio), fraction_text(self.percent.value), fraction_text(self.percent.half_unit)]
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "part": self.part.to_json(),
            "whole": self.whole.to_json(),
            "percent": self.percent.to_json(),
            "ratio": fraction_text(self.ratio),
            "difference": fraction_text(self.ratio - self.percent.value),
            "passed": self.passed,
        }


def decimal_text(value: Fraction, places: int = PLACES) -> str:
    """A fraction as a decimal with at most `places` places, prefixed `about` when that rounds it."""
    scaled = value * 10**places
    rounded = round(scaled)
    digits = str(abs(rounded)).rjust(places + 1, "0")
    text = ("-" if rounded < 0 else "") + digits[:-places] + "." + digits[-places:]
    text = text.rstrip("0").rstrip(".")
    return text if rounded == scaled else f"about {text}"


def percent_form(text: str) -> str:
    """The percentage as the agent gave it, with its `%` (an agent may write `95` or `95%`)."""
    stripped = text.strip()
    return stripped if stripped.endswith("%") else stripped + "%"


def read(role: str, text: str) -> Numeral | Refusal:
    """One numeral as the agent wrote it, in any form the text may write it (`1000`, `1,000`, `95\\%`)."""
    try:
        return read_numeral(text, role)
    except NumeralError as error:
        message = (
            f"the {role} {text!r} is not one numeral"
            if error.code == "expression-invalid"
            else f"the {role} {text!r}: {error.message}"
        )
        return Refusal(
            "percent-not-a-numeral",
            message,
            "write each numeral as the chunk does: 950, 1,000, 95%",
        )


def compare(part: str, whole: str, percent: str) -> Comparison | Refusal:
    """Read the three numerals; refuse one that is not a numeral, and a whole of zero."""
    numerals = [read("part", part), read("whole", whole), read("percent", percent_form(percent))]
    for numeral in numerals:
        if isinstance(numeral, Refusal):
            return numeral
    comparison = Comparison(*(numeral for numeral in numerals if isinstance(numeral, Numeral)))
    if comparison.whole.value == 0:
        return Refusal("percent-whole-zero", "the whole is zero", "give the whole the percentage is taken of")
    return comparison


def written_problem(comparison: Comparison, texts: Iterable[str]) -> Refusal | None:
    """A refusal when the cited chunks do not write each numeral (the percentage with its `%` sign)."""
    written: list[str] = []
    for text in texts:
        written.extend(numeral.written for numeral in find_numerals(text) if numeral.written not in written)
    for role, numeral in (("part", comparison.part), ("whole", comparison.whole), ("percent", comparison.percent)):
        if numeral.written in written:
            continue
        choices = [item for item in written if item.endswith("%") == (role == "percent")][:SHOWN_NUMERALS]
        return Refusal(
            "percent-not-in-text",
            f"the cited chunks do not write the {role} {numeral.written}; they write {choices}",
            "give a percentage the cited chunks write with its % sign"
            if role == "percent"
            else "use numerals the cited chunks write; add to `cites` the chunk that writes a missing one",
        )
    return None
