r"""The references a chunk's text writes: `\ref{tab:acc}` (and `\eqref`, `\cref`, `\autoref`, ...) by label,
and numbers written by hand: "Eqn. 3", "Eq. (4)", "Table 2", "Fig. 4b", "Section 3.2", "Appendix A", "§2".

Each is recorded as written (so a proposal names it as the text does) with what it names: a label, or a kind
and a printed number. A run of several ("Eqs. 3 and 4", "Figures 2-4") records its first number only."""

from __future__ import annotations

import re
from typing import Final

from cgx_core.ingest.numbering.objects import Kind

_LABEL_REF: Final = re.compile(
    r"\\(?:eqref|ref|cref|Cref|autoref|Autoref|subref|vref|Vref|labelcref|namecref)\*?\s*\{(?P<labels>[^{}]+)\}"
)
_WORDS: Final[tuple[tuple[str, Kind], ...]] = (
    (r"equations?|eqns?|eqs?", "equation"),
    (r"tables?|tabs?|tbls?", "table"),
    (r"figures?|figs?", "figure"),
    (r"sections?|sects?|secs?|appendix|appendices|apps?|§§?", "section"),
)
_WRITTEN: Final = re.compile(
    r"(?<![A-Za-z\\])(?P<word>(?i:"
    + "|".join(f"(?P<k{index}>{words})" for index, (words, _) in enumerate(_WORDS))
    + r"))"
    r"\.?(?:~|\s|\\,|\\ |\\;|\\nobreakspace\{\})*(?P<open>\()?"
    r"(?P<number>(?:[A-Z]{0,2}\d{1,4}(?:\.\d{1,4})*|[A-Z](?:\.\d{1,4})*)[a-z]?)(?(open)\))(?![A-Za-z0-9])"
)


_WORD_BEFORE: Final = re.compile(
    r"(?<![A-Za-z\\])(?P<word>(?i:"
    + "|".join(f"(?P<k{index}>{words})" for index, (words, _) in enumerate(_WORDS))
    + r"))"
    r"\.?(?:~|\s|\\,|\\ |\\;|\\nobreakspace\{\})*\(?$"
)


def _kind_of(match: re.Match[str]) -> Kind:
    return next(kind for index, (_, kind) in enumerate(_WORDS) if match[f"k{index}"])


def written_references(text: str) -> list[dict[str, str]]:
    """Every reference the text writes, in order: `{"written", "label"}` or `{"written", "kind", "number"}`."""
    found: list[tuple[int, dict[str, str]]] = []
    for match in _LABEL_REF.finditer(text):
        word = _WORD_BEFORE.search(text, max(0, match.start() - 30), match.start())
        for label in match["labels"].split(","):
            if label.strip():
                entry = {"written": match[0], "label": label.strip()}
                if word is not None:  # "Table~\ref{...}": the word says what kind of object the label must name
                    entry["written"] = text[word.start() : match.end()]
                    entry["kind"] = _kind_of(word)
                found.append((match.start(), entry))
    for match in _WRITTEN.finditer(text):
        kind = _kind_of(match)
        number = match["number"]
        if kind != "section" and not any(char.isdigit() for char in number):
            continue  # "Table A shows": a letter alone numbers only appendices
        found.append((match.start(), {"written": match[0], "kind": kind, "number": number}))
    return [entry for _, entry in sorted(found, key=lambda item: item[0])]


def comparable(written: str) -> str:
    """A written reference as a proposal may give it: `~`, thin spaces and case do not matter."""
    spaced = re.sub(r"~|\\[,; ]|\\nobreakspace\{\}", " ", written)
    return " ".join(spaced.split()).casefold()
