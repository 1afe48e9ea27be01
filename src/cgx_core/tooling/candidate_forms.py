"""The forms every candidate rule shares: a candidate with its ready proposal, and a reported test's
statistic read into the p-value expression that checks it (`candidates.py` and `candidates_across.py`)."""

from __future__ import annotations

import re
from typing import Any, Final

Json = dict[str, Any]

CHECK_TYPE: Final = "recompute-numbers"

NUMBER: Final = r"-?(?:\d+(?:\.\d+)?|\.\d+)"
_FUNCTIONS: Final = {"t": "p_t", "F": "p_F", "r": "p_r", "z": "p_z", "Z": "p_z", "chi2": "p_chi2"}
_SIDES: Final = {"t": "two-sided", "r": "two-sided", "z": "two-sided", "Z": "two-sided"}

STATISTIC_FORM: Final = (
    r"(?<![A-Za-z\\])(?P<stat>chi2|t|F|r|z|Z)\s*"
    r"(?:\(\s*(?P<df>\d+(?:\.\d+)?(?:\s*,\s*\d+(?:\.\d+)?)?)\s*(?:,\s*N\s*=\s*\d[\d,]*\s*)?\)|_\s*(?P<sub>\d+(?:\.\d+)?(?:\s*,\s*\d+(?:\.\d+)?)?))?"
    rf"\s*=\s*(?P<value>{NUMBER})"
)
P_VALUE_FORM: Final = r"(?<![A-Za-z])p\s*(?P<relation><=|>=|<|>|=)\s*(?P<p>\d*\.\d+|\d+)"
STATISTIC: Final = re.compile(STATISTIC_FORM)
P_VALUE: Final = re.compile(P_VALUE_FORM)

_LATEX: Final = (
    (re.compile(r"\\(?:text|textit|textrm|mathit|mathrm|emph|it|rm)\b"), ""),
    (re.compile(r"\\chi\s*\^\s*\{?\s*2\s*\}?|χ\s*(?:\^\s*2|2|²)|\bchi\s*-?\s*(?:square|squared|\^2|2)\b"), "chi2"),
    (re.compile(r"\\(?:leq|le)\b|≤"), "<="),
    (re.compile(r"\\(?:geq|ge)\b|≥"), ">="),
    (re.compile(r"\\lt\b"), "<"),
    (re.compile(r"\\gt\b"), ">"),
    (re.compile(r"\\left|\\right"), ""),
    (re.compile(r"\\%"), "%"),
    (re.compile(r"\\[,;:! ]|~"), " "),
    (re.compile(r"[${}]"), ""),
    (re.compile("\u2212"), "-"),
)


def plain(text: str) -> str:
    """The text with the LaTeX that hides a statistic from the patterns removed; its numerals stay as written."""
    for pattern, replacement in _LATEX:
        text = pattern.sub(replacement, text)
    return text


def candidate(
    node: str, kind: str, match: re.Match[str] | str, computes: str, expression: str, result: str, **extra: Any
) -> Json:
    proposal: Json = {"type": CHECK_TYPE, "target": node, "cites": [node], "expression": expression, "result": result}
    proposal.update(extra)
    return {
        "node": node,
        "kind": kind,
        "text": (match if isinstance(match, str) else match.group(0)).strip()[:160],
        "computes": computes,
        "proposal": proposal,
    }


def read_statistic(match: re.Match[str]) -> tuple[str, str] | None:
    """The p-value expression of a statistic with its degrees of freedom, and what it computes (None when
    the degrees of freedom are not the statistic's: an F needs two, a z none, the others one)."""
    stat = match["stat"]
    df = [part.strip() for part in (match["df"] or match["sub"] or "").split(",") if part.strip()]
    if len(df) != {"z": 0, "Z": 0, "F": 2}.get(stat, 1):
        return None
    expression = f"{_FUNCTIONS[stat]}({', '.join([match['value'], *df])})"
    shown = f"{stat}{'(' + ', '.join(df) + ')' if df else ''} = {match['value']}"
    return expression, f"the {_SIDES.get(stat, 'upper tail')} p-value of {shown}"
