r"""The references a chunk's text writes: `\ref{tab:acc}` (and `\eqref`, `\cref`, `\autoref`, ...) by label,
and numbers written by hand: "Eqn. 3", "Eq. (4)", "Table 2", "Fig. 4b", "Section 3.2", "Appendix A", "§2".

Each is recorded as written (so a proposal names it as the text does) with what it names: a label, or a kind
and the printed numbers. A run of several names each: "Eqs. 3 and 4", "Figures 2, 3 and 5", "Tables 1-3"
(a range of whole numbers, up to 50 of them); a range that is not ("A.1-A.3") is recorded as `open`, so no
check decides on it: which numbers it spans is a guess. A number followed by words that make it another
work's ("Table 1 of the original paper", "Fig. 3 in \\cite{x}") is recorded as `another_work`: the paper's
own numbering says nothing about it. A digit inside a name argument (`\\ref{fig:fig7}`,
`\\includegraphics{figures/fig1.pdf}`; `cgx_core.numbers.names`) is never a number written by hand."""

from __future__ import annotations

import re
from typing import Final

from cgx_core.ingest.numbering.objects import Kind
from cgx_core.numbers.names import blank_names

_LABEL_REF: Final = re.compile(
    r"\\(?:eqref|ref|cref|Cref|autoref|Autoref|subref|vref|Vref|labelcref|namecref)\*?\s*\{(?P<labels>[^{}]+)\}"
)
_WORDS: Final[tuple[tuple[str, Kind], ...]] = (
    (r"equations?|eqns?|eqs?", "equation"),
    (r"tables?|tabs?|tbls?", "table"),
    (r"figures?|figs?", "figure"),
    (r"sections?|sects?|secs?|appendix|appendices|apps?|§§?", "section"),
    (r"theorems?|thms?|lemmas?|propositions?|props?|corollar(?:y|ies)|cors?|definitions?|defs?", "theorem"),
)
_NUMBER: Final = r"(?:[A-Z]{0,2}\d{1,4}(?:\.\d{1,4})*|[A-Z](?:\.\d{1,4})*)(?:[a-z]|\([a-z]\)(?=[\s~.,;:)\-\u2013]|$))?"
_MORE: Final = re.compile(
    r"[\s~]*(?P<joint>,[\s~]*(?:and[\s~]+|&[\s~]*)?|[\s~]+(?:and|&|or)[\s~]+|[\s~]*(?:-{1,3}|\u2013|[\s~]+to[\s~]+)[\s~]*)"
    r"(?P<word>(?i:eqs?\.?|eqns?\.?|tables?|figs?\.?|figures?|sections?|secs?\.?))?[\s~]*(?P<open>\()?"
    rf"(?P<number>{_NUMBER})(?(open)\))(?![A-Za-z0-9])"
)
_WRITTEN: Final = re.compile(
    r"(?<![A-Za-z\\/_])(?P<word>(?i:"
    + "|".join(f"(?P<k{index}>{words})" for index, (words, _) in enumerate(_WORDS))
    + r"))"
    r"\.?(?:~|\s|\\,|\\ |\\;|\\nobreakspace\{\})*(?P<open>\()?"
    rf"(?P<number>{_NUMBER})(?(open)\))(?![A-Za-z0-9_/]|\.[A-Za-z])"
)
"""A kind word and its number; not inside a file name the text writes outside a name argument
("figures/fig1_loss.pdf", "figure6.pdf")."""


_ANOTHER_WORK: Final = re.compile(
    r"[\s~]*(?:of|in|from)[\s~]+(?:the[\s~]+)?(?:original|cited|their|reference|\\cite|[A-Z][a-z]+[\s~]+et[\s~]+al"
    r"|[A-Z][A-Za-z'\-]+(?:[\s~]*(?:\\?&|and|,)[\s~]*[A-Z][A-Za-z'\-]+)*[\s~,]*[(\[]?(?:1[5-9]|20)\d\d)",
)
"""What after a number says it is another work's: "Table 1 of the original paper", "Fig. 3 in \\cite{x}",
"Figure 3 of Peters \\& Mathews 1963" (names, then a year)."""
_WORD_BEFORE: Final = re.compile(
    r"(?<![A-Za-z\\])(?P<word>(?i:"
    + "|".join(f"(?P<k{index}>{words})" for index, (words, _) in enumerate(_WORDS))
    + r"))"
    r"\.?(?:~|\s|\\,|\\ |\\;|\\nobreakspace\{\})*\(?$"
)


def _kind_of(match: re.Match[str]) -> Kind:
    return next(kind for index, (_, kind) in enumerate(_WORDS) if match[f"k{index}"])


def _kind_of_word(word: str) -> Kind:
    """The kind a word of a run names ("Eqs.", "Figure")."""
    return next(kind for words, kind in _WORDS if re.fullmatch(words, word.rstrip("."), re.IGNORECASE))


def written_references(text: str) -> list[dict[str, str | bool | list[str]]]:
    """Every reference the text writes, in order: `{"written", "label", "kind"?}` or `{"written", "kind",
    "number", "numbers"?, "open"?, "another_work"?}`."""
    found: list[tuple[int, dict[str, str | bool | list[str]]]] = []
    for match in _LABEL_REF.finditer(text):
        word = _WORD_BEFORE.search(text, max(0, match.start() - 30), match.start())
        for label in _labels(match["labels"]):
            if label.strip():
                entry: dict[str, str | bool | list[str]] = {"written": match[0], "label": label.strip()}
                if word is not None:  # "Table~\ref{...}": the word says what kind of object the label must name
                    entry["written"] = text[word.start() : match.end()]
                    entry["kind"] = _kind_of(word)
                found.append((match.start(), entry))
    covered = 0  # a run's later words ("Eqn. 1 and Eqn. 2") are part of it, not references of their own
    prose = blank_names(text)  # `\ref{fig:fig7}`, `figures/fig1.pdf`: names, never "Figure 7" written by hand
    for match in _WRITTEN.finditer(prose):
        if match.start() < covered:
            continue
        kind = _kind_of(match)
        number = _panel(match["number"])
        if kind != "section" and not any(char.isdigit() for char in number):
            continue  # "Table A shows": a letter alone numbers only appendices
        numbers, end, open_range = [number], match.end(), False
        while (more := _MORE.match(prose, end)) is not None and len(numbers) < 50:
            if kind != "section" and not any(char.isdigit() for char in more["number"]):
                break
            if more["word"] and _kind_of_word(more["word"]) != kind:
                break  # "Tables 1-3 and Eq. 4": the run of tables ends where another kind's word begins
            if more["joint"].strip(" ,&").lower() in ("and", "or", ""):
                numbers.append(_panel(more["number"]))
            else:  # a range: every whole number in it, or open
                span = _span(numbers[-1], more["number"])
                open_range = open_range or span is None
                numbers.extend(span or [more["number"]])
            end = more.end()
        covered = end
        reference: dict[str, str | bool | list[str]] = {
            "written": text[match.start() : end],
            "kind": kind,
            "number": number,
        }
        if len(numbers) > 1:
            reference["numbers"] = list(dict.fromkeys(numbers))
        if open_range:
            reference["open"] = True
        if _ANOTHER_WORK.match(text, end):
            reference["another_work"] = True
        found.append((match.start(), reference))
    return [entry for _, entry in sorted(found, key=lambda item: item[0])]


def _labels(written: str) -> list[str]:
    """The labels of `\\cref{a,b}`: split at each comma outside brackets, so `eq:g(n,e)` is one label."""
    labels, depth, start = [], 0, 0
    for index, char in enumerate(written):
        depth += 1 if char in "([" else -1 if char in ")]" and depth else 0
        if char == "," and depth == 0:
            labels.append(written[start:index])
            start = index + 1
    return [*labels, written[start:]]


def _panel(number: str) -> str:
    """A panel as LaTeX prints it: "4(b)" is panel 4b."""
    return number[:-3] + number[-2] if number.endswith(")") else number


def _span(first: str, last: str) -> list[str] | None:
    """The numbers of a range after its first ("1-3": 2, 3), or None when they are not whole numbers."""
    if not (first.isdigit() and last.isdigit()) or not 0 < int(last) - int(first) <= 50:
        return None
    return [str(number) for number in range(int(first) + 1, int(last) + 1)]
