"""Candidates: the checkable statements a paper's text writes, each with a recompute-numbers proposal ready to
send.

An agent checks what it happens to read closely; statcheck's value is that it finds every reported test by
itself. This scan reads every chunk of the document, in order, with fixed patterns, and lists what it
recognises: `reported-test`, `percent-of`, `change`, `total`, `interval` and `mean` are read within one chunk here;
`decision`, `split-test`, `enumeration`, `table-rows` and `same-quantity` across chunks (`candidates_across`);
docs/candidates.md says what each pattern reads and proposes, and what it misses.

Each cross-chunk candidate is listed at the chunk it targets. A pattern lists a candidate only when the
proposal, sent as it is, gets the verdict the text deserves: a wrong candidate costs the agent more than a
missed one, so each rule leaves out the look-alikes it cannot tell apart (a table with a total row, a paper of
several studies, a chunk with two enumerations).

The scan is deterministic (same chunks, same list, byte for byte) and reads nothing but the chunks' texts. It
never records anything: get_state shows the list (`summary: "candidates"`), the agent decides what to send.
A proposal targets the chunk that writes the statement, which must be typed with a type the rubric declares
recompute-numbers for before run_checks accepts it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from typing import Final

from cgx_core.tooling.candidate_forms import (
    NUMBER,
    P_VALUE_FORM,
    STATISTIC_FORM,
    Json,
    candidate,
    plain,
    read_statistic,
)
from cgx_core.tooling.candidates_across import across

_COUNT: Final = r"\d{1,3}(?:,\d{3})+|\d+"
_WORDNUMBERS: Final = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}

_TEST: Final = re.compile(STATISTIC_FORM + r"\s*[,;]?\s*(?:and\s+)?" + P_VALUE_FORM)
_PERCENT_OF: Final = re.compile(
    rf"(?<![\d.,])(?P<part>{_COUNT})\s+(?:out\s+)?of\s+(?:the\s+|all\s+)?(?P<whole>{_COUNT})(?![\d.])"
    r"[^()%]{0,60}?\(\s*(?P<percent>\d+(?:\.\d+)?)\s*%\s*\)"
)
_CHANGE: Final = re.compile(
    rf"from\s+(?P<a>{NUMBER})\s*(?P<ap>%)?\s+to\s+(?P<b>{NUMBER})\s*(?P<bp>%)?[^()]{{0,30}}?\(\s*(?:an?\s+)?"
    r"(?P<c>\d+(?:\.\d+)?)\s*%\s+(?P<direction>increase|rise|gain|improvement|growth|decrease|reduction|drop|"
    r"decline|fall|loss)"
)
_TOTAL: Final = re.compile(rf"(?<![\d.,])(?P<total>{_COUNT})\s+(?P<what>[A-Za-z][A-Za-z-]*)\s*\((?P<parts>[^()]*)\)")
_PART: Final = re.compile(rf"(?<![\d.,%=])(?:{_COUNT})(?![\d.%])")
_INTERVAL: Final = re.compile(
    rf"(?P<est>{NUMBER})\s*[(\[,;]\s*(?:SE\s*=?\s*(?P<se>\d*\.\d+)\s*[,;]\s*)?(?P<level>\d+(?:\.\d+)?)\s*%\s*"
    rf"(?:CI|confidence interval)\s*[:=,]?\s*\[?\s*(?P<lo>{NUMBER})\s*(?:to|,|--|-|\u2013)\s*(?P<hi>{NUMBER})\s*\]?"
)
_SE: Final = re.compile(r"\bSE\s*=?\s*(?P<se>\d*\.\d+)")
_P_AFTER: Final = re.compile(r"^[^.;]{0,40}?\bp\s*(?P<relation><=|>=|<|>|=)\s*(?P<p>\d*\.\d+)")
_RATIO: Final = re.compile(r"\b(?:OR|RR|HR|IRR|odds ratio|risk ratio|hazard ratio|rate ratio)\b[^.;]{0,25}$")
_MEAN: Final = re.compile(r"\bM\s*=\s*(?P<mean>-?\d*\.\d+)(?:\s*,\s*SD\s*=\s*(?P<sd>\d*\.\d+))?")
_N: Final = re.compile(r"\b[nN]\s*=\s*(?P<n>\d+)\b")
_ITEMS: Final = re.compile(r"\b(?P<k>\d+|two|three|four|five|six|seven|eight|nine)[- ]item\b", re.IGNORECASE)
_INTEGER_DATA: Final = re.compile(
    r"\b(?:Likert|rating|ratings|rated|scale|items?|scores?|counts?|number of|responses?)\b", re.IGNORECASE
)


def candidates(chunks: Sequence[tuple[str, str]], attributes: Mapping[str, Json] | None = None) -> list[Json]:
    """Every candidate of the chunks (id, text), in document order and, within a chunk, in the order of the
    patterns above and of the text. `attributes` (by id) are the chunks' ingestion attributes: their unit,
    section, table and references, which the candidates across chunks read."""
    texts = [(node, plain(text)) for node, text in chunks]
    by_target = across(chunks, attributes or {})
    found: list[Json] = []
    for node, text in texts:
        seen: set[tuple[str, str]] = set()
        for item in [*_scan(node, text), *by_target.get(node, [])]:
            key = (item["proposal"]["expression"], item["proposal"]["result"])
            if key not in seen:  # two patterns reading one statement propose it once
                seen.add(key)
                found.append(item)
    return found


def _scan(node: str, text: str) -> Iterator[Json]:
    yield from _tests(node, text)
    yield from _percents(node, text)
    yield from _changes(node, text)
    yield from _totals(node, text)
    yield from _intervals(node, text)
    yield from _means(node, text)


def _tests(node: str, text: str) -> Iterator[Json]:
    for match in _TEST.finditer(text):
        read = read_statistic(match)
        if read is None:
            continue
        expression, computes = read
        relation = match["relation"]
        computes += f", against p {relation} {match['p']} (a failure across .05 is a decision error)"
        extra = {"relation": relation} if relation != "=" else {}
        yield candidate(node, "reported-test", match, computes, expression, match["p"], **extra)


def _percents(node: str, text: str) -> Iterator[Json]:
    for match in _PERCENT_OF.finditer(text):
        part, whole = _count(match["part"]), _count(match["whole"])
        if int(whole) == 0 or int(part) > int(whole):
            continue
        computes = f"{part} of {whole} as a percentage, against {match['percent']}%"
        yield candidate(node, "percent-of", match, computes, f"{part} / {whole}", f"{match['percent']}%")


def _changes(node: str, text: str) -> Iterator[Json]:
    for match in _CHANGE.finditer(text):
        if (match["ap"] or match["bp"]) and _as_points(match["a"], match["b"], match["c"]):
            continue
        a, b = match["a"] + (match["ap"] or ""), match["b"] + (match["bp"] or "")
        rising = match["direction"] in ("increase", "rise", "gain", "improvement", "growth")
        expression = f"({b} - {a}) / {a}" if rising else f"({a} - {b}) / {a}"
        computes = f"the relative {'increase' if rising else 'decrease'} from {a} to {b}, against {match['c']}%"
        yield candidate(node, "change", match, computes, expression, f"{match['c']}%")


def _as_points(a: str, b: str, c: str) -> bool:
    """Whether C reads as the difference in percentage points between two percentages A and B, within C's printed
    rounding: "from 60% to 75% (a 15% increase)" then says nothing about the relative change, and a relative
    change sent as it is would fail a true statement (from 25.4% to 93.2%, "a 267% increase" is relative)."""
    half = Decimal(1).scaleb(Decimal(c).as_tuple().exponent) / 2  # type: ignore[arg-type]
    return abs(abs(Decimal(b) - Decimal(a)) - Decimal(c)) <= half


def _totals(node: str, text: str) -> Iterator[Json]:
    for match in _TOTAL.finditer(text):
        inside = match["parts"]
        if "%" in inside or "=" in inside or "CI" in inside or re.search(r"\d\.\d", inside):
            continue
        parts = [_count(part) for part in _PART.findall(inside)]
        total = _count(match["total"])
        if not 2 <= len(parts) <= 8 or " and " not in f" {inside} " or any(int(p) >= int(total) for p in parts):
            continue
        computes = f"the sum of the parts {', '.join(parts)}, against the stated total {total}"
        yield candidate(node, "total", match, computes, " + ".join(parts), total)


def _intervals(node: str, text: str) -> Iterator[Json]:
    for match in _INTERVAL.finditer(text):
        est, lo, hi, level = match["est"], match["lo"], match["hi"], f"{match['level']}%"
        ratio = _RATIO.search(text[: match.start("est")]) is not None
        before = _SE.search(text[max(0, match.start() - 40) : match.start()])
        se = match["se"] or (before["se"] if before else None)
        after = _P_AFTER.search(text[match.end() :])
        found = False
        if se is not None and not ratio:
            found = True
            for function, end in (("ci_low", lo), ("ci_high", hi)):
                computes = f"the {function[3:]} end of the {level} interval of {est} with SE {se}, against {end}"
                yield candidate(node, "interval", match, computes, f"{function}({est}, {se}, {level})", end)
        if after is not None:
            found = True
            function = "p_ci_log" if ratio else "p_ci"
            computes = (
                f"the p-value the {level} interval {lo} to {hi} implies for {est}"
                f"{' on the log scale' if ratio else ''}, against p {after['relation']} {after['p']}"
            )
            extra = {"relation": after["relation"]} if after["relation"] != "=" else {}
            expression = f"{function}({est}, {lo}, {hi}, {level})"
            yield candidate(node, "interval", match, computes, expression, after["p"], **extra)
        if not found:
            function = "ci_gmid" if ratio else "ci_mid"
            scale = "geometric middle (a ratio's)" if ratio else "middle"
            computes = f"the {scale} of the interval {lo} to {hi}, against the estimate {est}"
            yield candidate(node, "interval", match, computes, f"{function}({lo}, {hi})", est)


def _means(node: str, text: str) -> Iterator[Json]:
    word = _INTEGER_DATA.search(text)
    size = _N.search(text)
    if word is None or size is None:
        return
    n = size["n"]
    items = _ITEMS.search(text)
    k = None if items is None else str(_WORDNUMBERS.get(items["k"].lower(), items["k"]))
    count = int(n) * (int(k) if k else 1)
    premise = f"the values averaged are whole numbers (the text's '{word.group(0)}')"
    for match in _MEAN.finditer(text):
        mean, sd = match["mean"].lstrip("-"), match["sd"]
        decimals = len(mean.partition(".")[2])
        if count >= 10**decimals:  # every mean of that many whole numbers prints at these digits
            continue
        counts = f"{n}, {k}" if k else n
        computes = f"whether {count} whole numbers can have a mean that prints as {match['mean']}"
        yield candidate(
            node, "mean", match, computes, f"grim({match['mean']}, {counts})", match["mean"], premises=[premise]
        )
        if sd is not None and _grim_passes(mean, count):  # grimmer refuses a mean GRIM fails
            computes = f"whether {n} values with that mean can have an SD that prints as {sd}"
            expression = f"grimmer({match['mean']}, {sd}, {counts})"
            yield candidate(node, "mean", match, computes, expression, sd, premises=[premise])


def _grim_passes(mean: str, count: int) -> bool:
    """Whether some whole number over `count` prints as `mean` (its rounding's ends included)."""
    value = Decimal(mean)
    half = Decimal(1).scaleb(value.as_tuple().exponent) / 2  # type: ignore[arg-type]
    return math.ceil((value - half) * count) <= math.floor((value + half) * count)


def _count(written: str) -> str:
    """A count as the grammar writes it (12,000 is 12000)."""
    return written.replace(",", "")
