r"""Candidates that read more than one chunk, or a chunk's place in the document: a test whose decision or p
is written apart from it, a count of the items a chunk enumerates or of a table's rows, and a sample size
written twice (`candidates.py` lists what one chunk writes alone).

* `decision`: "t(30) = 1.20, n.s." or "significantly higher, t(30) = 2.60" with no p, against the threshold
  another chunk sets ("alpha = .05", "p < .05 was considered significant"), which the proposal cites:
  `p_t(1.20, 30)` > `.05` (<= for "significant", statcheck's p = .05 being significant); the premise says
  the word states the decision at that threshold; none in a paper that corrects its threshold (Bonferroni);
* `split-test`: a test with no p whose next sentence, in the same section, opens by referring to it ("This
  difference was reliable, p = .04") and writes one p and no test: `p_t(2.20, 28)` against `.04`, citing both;
* `enumeration`: "three conditions: (a) cue, (b) no cue and (c) mixed": `items(s-N)` against `three`, only when
  the chunk's labels are one run (a), (b), (c)... or (i), (ii), ... that `items()` counts as written (no other
  labels, ordinals or `\item` that would make it count otherwise or refuse); likewise a list without labels
  after its count and noun, "two datasets (MNIST and SVHN)", when it is the chunk's only such list and
  `items()` counts it (`cgx_core.numbers.enumeration.announced_lists`); and a chunk ending with its count and
  noun ("We evaluate on three datasets:") before an `itemize` or `enumerate` whose items ingestion recorded
  (`list_after`);
* `table-rows`: "Table 2 lists the 12 subjects": `rows(t-N)` against `12`, the table being the one the chunk
  refers to, only when its rows sit under a header and none reads as a summary (a total or mean row counts
  as a body row), and the count is of the whole table ("the 12 subjects.", not "the 5 best models");
* `same-quantity`: "N = 120" and "N = 112" in two chunks, the only two of the paper that write a sample size
  (not a test's `chi2(1, N = 118)`), in a paper that names no second study, experiment or sample, and, when
  the two differ, the chunks name the same stages of the sample's flow (randomised, analysed, ...): the earlier
  value against the later one, premised on the two passages stating the same quantity (the premise
  internal-consistency's computable notice writes); likewise a percentage with the same label ("an accuracy
  of 93.2%") written once in the abstract (before any section) and once in the body, each chunk writing no
  other percentage, unless the values differ and the chunks name different subgroups, times or splits.

Each rule lists a candidate only when its proposal, sent as it is, gets the verdict the text deserves; a
look-alike it cannot tell apart is left to the agent.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Final

from cgx_core.numbers.enumeration import announced_lists, enumerated_items, list_after
from cgx_core.tooling.candidate_forms import P_VALUE, STATISTIC, Json, candidate, plain, read_statistic

SAME_QUANTITY: Final = "the passages compared state the same quantity"
"""The premise of a comparison of two passages' numbers, as internal-consistency's computable notice writes it
(a check type the tooling may not import): an identification, never a number."""

_NUMBER_WORDS: Final = (
    "two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|"
    "eighteen|nineteen|twenty"
)
_NOT_SIGNIFICANT: Final = re.compile(
    r"(?<![A-Za-z])n\.\s?s\.|\b(?:not|non-?)\s*(?:statistically\s+)?significant(?:ly)?\b", re.IGNORECASE
)
_SIGNIFICANT: Final = re.compile(r"\bsignificant(?:ly)?\b", re.IGNORECASE)
_UNDECIDED: Final = re.compile(r"\b(?:marginal(?:ly)?|trend(?:ed|ing)?|approach(?:ed|ing)?|borderline)\b", re.I)
_THRESHOLD: Final = re.compile(
    r"(?:\\alpha|\N{GREEK SMALL LETTER ALPHA}|\balpha\b|significance level|level of significance|"
    r"significance (?:was|is) (?:set|defined|accepted) at)\s*(?:=|of|at|was set at)?\s*(?:p\s*<\s*)?"
    r"(?P<alpha>0?\.05)(?!\d)|"
    r"(?<![A-Za-z])p\s*<\s*(?P<below>0?\.05)(?!\d)\s*(?:was|were|is|are)\s+(?:considered|deemed|regarded as)\s+"
    r"(?:statistically\s+)?significant",
    re.IGNORECASE,
)
_REFERRING: Final = re.compile(
    r"^\s*(?:this|that|it|the\s+(?:difference|effect|result|correlation|interaction|association|increase|"
    r"decrease|reduction|test|main effect|comparison|contrast))\b",
    re.IGNORECASE,
)
_COUNT_COLON: Final = re.compile(
    rf"\b(?P<count>{_NUMBER_WORDS}|\d{{1,2}})\s+(?:[A-Za-z-]+\s+)?[A-Za-z-]+s\s*:", re.IGNORECASE
)
_COUNT_BEFORE_LIST: Final = re.compile(
    rf"\b(?P<count>{_NUMBER_WORDS}|\d{{1,2}})\s+(?:[A-Za-z-]+\s+)?[A-Za-z-]+s\s*"
    r"(?:(?:are|were|is|was)\s+(?:as\s+follows|listed\s+below|the\s+following)\s*)?:\s*$",
    re.IGNORECASE,
)
"""A count and its noun that end a chunk before a list: "We evaluate on three datasets:", "The two baselines are
as follows:"."""
_LABEL: Final = re.compile(r"(?:(?<=[\s\[{:;,])|^)\(?([a-z]|[ivx]{1,4})\)")
"""A label `items()` counts (`enumeration.py`): (a) or a), (i) or i); numbered and capital ones are left out
(a "(3)" may be an equation's number, which `items()` would count too)."""
_OTHER_LABEL: Final = re.compile(r"(?:(?<=[\s\[{:;,])|^)\(?(?:[0-9]{1,2}|[A-Z]{1,4})\)")
_LETTERS: Final = [chr(code) for code in range(ord("a"), ord("z") + 1)]
_ROMAN: Final = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"]
_ORDINAL: Final = re.compile(r"(?<![\w-])(?:first|second|third|fourth|fifth|sixth)(?:ly)?(?![\w-])", re.IGNORECASE)
_TABLE_COUNT: Final = re.compile(
    r"\bTable\s*(?:\\ref\s*\{?[^}\s]*\}?|\d+)\s+(?:lists|shows|gives|reports|summari[sz]es|presents|describes|details)"
    rf"\s+(?:the\s+|all\s+|each\s+of\s+the\s+)?(?P<count>{_NUMBER_WORDS}|\d{{1,3}})\s+(?P<noun>[A-Za-z-]+s)"
    r"(?=\s*(?:[.,;(]|and\b|$))"
)
"""A count of the whole table: "lists the 12 subjects." (not "the 5 best models", "the 3 parameters of each
model", whose count is of a part of its rows)."""
_SUMMARY_ROW: Final = re.compile(
    r"row\s+(?:[^;:]*:\s*)?(?:total|totals|overall|all|sum|mean|means|average|median|M|SD)\b", re.IGNORECASE
)
_HEADED_ROW: Final = re.compile(r"^row [^;:]+:")
"""A row whose label sits under its column's header: the table has a header ingestion recognised (without
one, its header row is read as a body row and `rows()` would count it)."""
_SAMPLE_SIZE: Final = re.compile(r"(?<![A-Za-z])N\s*=\s*(?P<n>\d{1,3}(?:,\d{3})+|\d+)(?![\d.])")
_SAMPLE_FLOW: Final = re.compile(
    r"\b(?:randomi[sz]ed|enrolled|recruited|screened|eligible|approached|invited|consented|analy[sz]ed|analytic|"
    r"included|excluded|completed|attended|remained|retained|dropped|withdrew|lost|final|follow-up|per|power|"
    r"required|needed|planned|target|would)\b",
    re.IGNORECASE,
)
"""Words that say which stage of a sample's flow an N counts (planned, randomised, analysed): two such Ns
differ by design, and comparing them would fail a true statement."""
_LABELLED: Final = re.compile(
    r"\b(?P<label>[A-Za-z][A-Za-z-]+(?:\s+(?:index|rate|score|ratio))?)\s+(?:of|was|is|reached|=|:)\s*"
    r"(?:about\s+|approximately\s+)?(?P<value>\d+(?:\.\d+)?)\s*%"
)
_NOT_LABEL: Final = re.compile(
    r"the|an?|of|by|to|and|than|at|in|on|for|with|about|approximately|around|only|just|threshold|is|was|from|it|"
    r"this|that|which|up|over|under|below|above|least|most|total|rest|remaining",
    re.IGNORECASE,
)
"""Words before a percentage that name no quantity ("reduced by 20%", "the rest 5%")."""
_PERCENT: Final = re.compile(r"\d\s*%")
_SUBGROUP: Final = re.compile(
    r"\b(?:among|subgroup|group|groups|arm|arms|men|women|boys|girls|control|baseline|follow-up|week|weeks|month|"
    r"months|year|years|day|days|condition|conditions|cohort|compared|whereas|while|versus|vs|than|"
    r"training|validation|test|dev|train|baseline|previous|prior|original|reported|existing|competing|reference|"
    r"benchmark)\b",
    re.IGNORECASE,
)
"""Words that say a value is of one part, time, split or system: two such values differ by design."""
_CORRECTED: Final = re.compile(r"\b(?:bonferroni|holm|corrected|adjusted|false discovery|FDR)\b", re.IGNORECASE)
"""A paper that corrects its threshold for several tests decides at another level than the one it sets."""
_SEVERAL_STUDIES: Final = re.compile(
    r"\b(?:stud(?:y|ies)|experiments?|samples?|waves?|cohorts?)\s+(?:\d|[IV]+\b|one|two|three|1|2|3)|"
    r"\b(?:second|third|both|two|three)\s+(?:stud(?:y|ies)|experiments?|samples?|cohorts?|waves?)\b|\bpilot\b",
    re.IGNORECASE,
)


def across(chunks: Sequence[tuple[str, str]], attributes: Mapping[str, Json]) -> dict[str, list[Json]]:
    """The candidates across chunks, by the chunk each targets. `chunks` are (id, text) in document order,
    `attributes` their ingestion attributes by id."""
    found: dict[str, list[Json]] = {}
    reading = _Reading(chunks, attributes)
    rules = (
        reading.decisions,
        reading.split_tests,
        reading.enumerations,
        reading.lists,
        reading.lists_after,
        reading.table_rows,
        reading.same_quantity,
    )
    for rule in rules:
        for item in rule():
            found.setdefault(item["node"], []).append(item)
    return found


class _Reading:
    """The chunks read once for the rules across chunks."""

    def __init__(self, chunks: Sequence[tuple[str, str]], attributes: Mapping[str, Json]) -> None:
        self.raw = dict(chunks)
        """The texts as ingested: `items()` counts labels in them, so an enumeration is read there too."""
        self.texts = [(node, plain(text)) for node, text in chunks]
        self.attributes = attributes

    def _sentences(self) -> Iterator[tuple[int, str, str]]:
        for index, (node, text) in enumerate(self.texts):
            if self.attributes.get(node, {}).get("unit", "sentence") == "sentence":
                yield index, node, text

    def _lone_statistic(self, text: str) -> tuple[re.Match[str], str, str] | None:
        """The one statistic of a chunk that writes no p, with its expression and what it computes: not a z,
        which writes no degrees of freedom and, apart from its p, may be any variable named z."""
        matches = list(STATISTIC.finditer(text))
        if len(matches) != 1 or P_VALUE.search(text) or matches[0]["stat"] in ("z", "Z"):
            return None
        read = read_statistic(matches[0])
        return None if read is None else (matches[0], *read)

    def decisions(self) -> Iterator[Json]:
        threshold = next(((node, m) for node, text in self.texts if (m := _THRESHOLD.search(text))), None)
        if threshold is None or any(_CORRECTED.search(text) for _, text in self.texts):
            return
        where, words = threshold
        alpha = words["alpha"] or words["below"]
        for _, node, text in self._sentences():
            lone = self._lone_statistic(text)
            if lone is None or _UNDECIDED.search(text):
                continue
            negative = _NOT_SIGNIFICANT.search(text)
            positive = _SIGNIFICANT.search(_NOT_SIGNIFICANT.sub(" ", text))
            if bool(negative) == bool(positive):  # neither, or both: which applies to the test is unclear
                continue
            match, expression, computes = lone
            word = (negative or positive).group(0)  # type: ignore[union-attr]
            relation = ">" if negative else "<="
            premise = f"the text's '{word}' states the decision at the threshold {where} sets"
            computes += f", against p {relation} {alpha} (the threshold {where} sets)"
            yield candidate(
                node,
                "decision",
                text[max(0, match.start() - 40) : match.end() + 20],
                computes,
                expression,
                alpha,
                relation=relation,
                cites=list(dict.fromkeys([node, where])),
                premises=[premise],
            )

    def split_tests(self) -> Iterator[Json]:
        sentences = list(self._sentences())
        for (index, node, text), (following, after, then) in itertools.pairwise(sentences):
            lone = self._lone_statistic(text)
            if lone is None or following != index + 1 or not self._same_section(node, after):
                continue
            if _NOT_SIGNIFICANT.search(text) or not _REFERRING.search(then) or STATISTIC.search(then):
                continue
            values = list(P_VALUE.finditer(then))
            if len(values) != 1:
                continue
            match, expression, computes = lone
            value = values[0]
            computes += f", against p {value['relation']} {value['p']} in {after}"
            extra = {"relation": value["relation"]} if value["relation"] != "=" else {}
            yield candidate(
                node,
                "split-test",
                f"{match.group(0)} ... {value.group(0)}",
                computes,
                expression,
                value["p"],
                cites=[node, after],
                **extra,
            )

    def _same_section(self, one: str, other: str) -> bool:
        return self.attributes.get(one, {}).get("numbered") == self.attributes.get(other, {}).get("numbered")

    def enumerations(self) -> Iterator[Json]:
        for _, node, _plain in self._sentences():
            text = self.raw[node]
            counts = list(_COUNT_COLON.finditer(text))
            if len(counts) != 1 or _OTHER_LABEL.search(text) or _ORDINAL.search(text) or "\\item" in text:
                continue
            labels = [label.lower() for label in _LABEL.findall(text)]
            if len(labels) < 2 or labels not in (_LETTERS[: len(labels)], _ROMAN[: len(labels)]):
                continue
            if _LABEL.search(text[: counts[0].end()]):
                continue  # a label before the count: not the enumeration the count announces
            count = counts[0]["count"]
            computes = f"the number of items {node} enumerates (({labels[0]}) to ({labels[-1]})), against {count}"
            yield candidate(node, "enumeration", counts[0], computes, f"items({node})", count)

    def lists(self) -> Iterator[Json]:
        for _, node, _plain in self._sentences():
            text = self.raw[node]
            announced = announced_lists(text)
            if len(announced) != 1 or announced[0].items is None or enumerated_items(text) != announced[0].items:
                continue
            stated = announced[0].stated
            computes = f"the number of items of the list {node} announces after its count, against {stated}"
            yield candidate(node, "enumeration", text[slice(*announced[0].span)], computes, f"items({node})", stated)

    def lists_after(self) -> Iterator[Json]:
        chunks = [(node, self.raw[node], self.attributes.get(node, {})) for node, _ in self.texts]
        for _, node, text in self._sentences():
            counts = list(_COUNT_BEFORE_LIST.finditer(text))
            if len(counts) != 1 or enumerated_items(self.raw[node]) is not None:
                continue
            if list_after(chunks, node) is None:
                continue
            count = counts[0]["count"]
            computes = f"the number of items of the list that follows {node}, against {count}"
            yield candidate(node, "enumeration", counts[0], computes, f"items({node})", count)

    def table_rows(self) -> Iterator[Json]:
        rows: dict[str, list[tuple[str, str]]] = {}
        for node, text in self.texts:
            label = self.attributes.get(node, {}).get("table", {}).get("label")
            if label and self.attributes[node].get("unit") == "table-row":
                rows.setdefault(label, []).append((node, text))
        for _, node, text in self._sentences():
            tables = {
                ref.get("label") for ref in self.attributes.get(node, {}).get("refs", []) if ref.get("kind") == "table"
            }
            counts = list(_TABLE_COUNT.finditer(text))
            if len(tables) != 1 or None in tables or len(counts) != 1:
                continue
            table = rows.get(tables.pop(), [])
            if not table or any(_SUMMARY_ROW.search(row) or not _HEADED_ROW.search(row) for _, row in table):
                continue
            first = table[0][0]
            count = counts[0]["count"]
            computes = f"the number of body rows of the table holding {first}, against {count} {counts[0]['noun']}"
            yield candidate(node, "table-rows", counts[0], computes, f"rows({first})", count, cites=[node, first])

    def same_quantity(self) -> Iterator[Json]:
        if any(_SEVERAL_STUDIES.search(text) for _, text in self.texts):
            return
        sizes = [
            (node, match, "n")
            for _, node, text in self._sentences()
            for match in _SAMPLE_SIZE.finditer(text)
            if not re.search(r",\s*$", text[: match.start()])  # a test's chi2(1, N = 118): its own sample
        ]
        yield from self._compared(sizes, "the sample size", _SAMPLE_FLOW)
        labelled: dict[str, list[tuple[str, re.Match[str], str]]] = {}
        for _, node, text in self._sentences():
            for match in _LABELLED.finditer(text):
                if not _NOT_LABEL.fullmatch(match["label"]) and len(_PERCENT.findall(text)) == 1:
                    labelled.setdefault(match["label"].lower(), []).append((node, match, "value"))
        for label, written in labelled.items():
            sections = [self._numbered(node) for node, _, _ in written]
            if sections == [False, True]:  # once in the abstract (before any section), once in the body
                yield from self._compared(written, f"the {label}", _SUBGROUP)

    def _numbered(self, node: str) -> bool:
        return bool(self.attributes.get(node, {}).get("numbered"))

    def _compared(
        self, written: list[tuple[str, re.Match[str], str]], quantity: str, qualified: re.Pattern[str]
    ) -> Iterator[Json]:
        """The earlier of exactly two chunks' values against the later, premised on their being the same
        quantity; none when the values differ and the chunks qualify them differently (a stage, a subgroup, a
        split that one names and the other does not)."""
        if len(written) != 2 or written[0][0] == written[1][0]:
            return
        (first, earlier, group), (node, later, _) = written
        texts = dict(self.texts)
        stages = ({word.lower() for word in qualified.findall(texts[chunk])} for chunk in (first, node))
        if earlier[group] != later[group] and next(stages) != next(stages):
            return  # "randomised N = 120" and "analysed N = 112" count two stages: they differ by design
        unit = "%" if group == "value" else ""
        theirs, ours = (match[group].replace(",", "") + unit for match in (earlier, later))
        computes = f"{quantity} {first} writes ({theirs}), against the one {node} writes ({ours})"
        yield candidate(
            node, "same-quantity", later, computes, theirs, ours, cites=[node, first], premises=[SAME_QUANTITY]
        )
