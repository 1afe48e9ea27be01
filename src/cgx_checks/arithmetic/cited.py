"""The cited chunks as a recompute-numbers check reads them: each chunk's numerals where it writes them.

A table row is read as its cells (`cgx_core.numbers.columns.row_occurrences`): a column header's numeral
("Stage 1") and that of a label naming the row are never the row's numbers, so a sentence's "1" cannot be
matched to a header. Each cell is also read with the unit its column's header names (`Recall (%)`,
`Time (h)`), as the paper means it.

Two questions a check asks of the chunks live here:

* whether every unit of a computation is the text's (`unit_doubts`): each operand carries exactly the unit
  the cited chunks write with it (none where they write none), and the reported result likewise. Only then is
  a dimension mismatch between the expression and the result the paper's error (a failure with both
  dimensions as its certificate) rather than the agent's (a refusal);
* where each number of a failed check is written (`where_written`), so a failure of a sentence against a
  table names both chunks.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import attrs

from cgx_checks.arithmetic.tree import Literal
from cgx_core.numbers import Numeral, Occurrence, Unit, read_text
from cgx_core.numbers.columns import cells_text, column_occurrences, row_occurrences

_NAMED = 3  # chunks named as writing one number
_LISTED = 8  # numbers whose chunks a detail names


@attrs.frozen
class CitedTexts:
    """The cited chunks' texts with their ids, and the numerals of each."""

    ids: tuple[str, ...]
    """Each text's chunk id (empty when the caller gives none: nothing is then named)."""
    texts: tuple[str, ...]
    rows: frozenset[int]
    """The indexes of the table rows among the texts."""
    read: tuple[tuple[Occurrence, ...], ...]
    """Each text's numerals as written (a row's: its cells')."""
    by_header: tuple[tuple[Occurrence, ...], ...]
    """Each row's cells again, with the unit their header names (nothing for another chunk)."""

    @property
    def written(self) -> tuple[Occurrence, ...]:
        return tuple(item for found in self.read for item in found)

    @property
    def header_read(self) -> tuple[Occurrence, ...]:
        return tuple(item for found in self.by_header for item in found)


def read_cited(texts: Sequence[str], row_texts: Sequence[str], ids: Sequence[str] = ()) -> CitedTexts:
    """The cited texts read: `row_texts` are the whole texts of the cited table rows (`texts` holds them, or
    their cells' part, `cells_text`); `ids` each text's chunk id, when known."""
    cells = {*row_texts, *(cells_text(row) for row in row_texts)}
    rows = frozenset(index for index, text in enumerate(texts) if text in cells)
    read = tuple(row_occurrences(text) if index in rows else read_text(text) for index, text in enumerate(texts))
    by_header = tuple(column_occurrences(text) if index in rows else () for index, text in enumerate(texts))
    named = tuple(ids) if len(ids) == len(texts) else ()
    return CitedTexts(named, tuple(texts), rows, read, by_header)


def unit_doubts(cited: CitedTexts, operands: Sequence[Literal], numeral: Numeral, unit: Unit | None) -> list[str]:
    """Why not every unit of the computation is the text's (nothing when each is): an operand or the result
    the chunks write with another unit, with none, or both with and without one, or with a factor of
    mathematics before its unit (`1.3\\times10^{-7}\\sqrt{\\tau}~m`: the unit is the product's)."""
    # Each text's numerals as the paper means them: a row's cells with their header's unit in place of none.
    meant = [
        item
        for index, found in enumerate(cited.read)
        for item in (row_occurrences(cited.texts[index], header_units=True) if index in cited.rows else found)
    ]
    doubts: list[str] = []
    for literal in operands:
        doubt = _doubt(
            literal.shown, literal.unit, [item for item in meant if abs(item.numeral.value) == literal.magnitude]
        )
        if doubt:
            doubts.append(doubt)
    same = [item for item in meant if item.reported and item.numeral.written == numeral.written]
    shown = numeral.written if unit is None else f"{numeral.written} {unit.written}"
    doubt = _doubt(f"the result {shown}", unit, same)
    if doubt:
        doubts.append(doubt)
    return list(dict.fromkeys(doubts))


def _doubt(shown: str, unit: Unit | None, written: Sequence[Occurrence]) -> str | None:
    factors = [item.unit.written for item in written if item.unit is not None and item.unit.factor]
    if factors:
        return f"{shown}: the text writes a factor before its unit ({factors[0]}), so the unit is the product's"
    if not written:
        return f"{shown}: the header of its column gives it a unit"
    units = {item.unit for item in written}
    if units == {unit}:
        return None
    names = sorted(item.written for item in units if item is not None)
    how = f"with the unit {', '.join(names)}" if names else "without a unit"
    if None in units and names:
        how = f"both without a unit and with {', '.join(names)}"
    given = "none" if unit is None else unit.written
    return f"{shown}: the text writes it {how}, the proposal gives it {given}"


def where_written(cited: CitedTexts, operands: Sequence[Literal], result: str | None) -> str | None:
    """`the result 30% in s-4; 20% in t-3` for a check of a text against a table: its numbers are written in a
    table row and in another chunk (None otherwise, or when the ids are unknown): which chunk writes each."""
    if not cited.ids or not cited.rows:
        return None
    involved: set[int] = set()
    parts: list[str] = []
    if result is not None:
        reporting = [
            index
            for index, found in enumerate(cited.read)
            if any(item.reported and item.numeral.written == result for item in found)
        ]
        involved.update(reporting)
        parts.append(f"the result {result} in {_names(cited, reporting)}")
    seen: set[Fraction] = set()
    for literal in operands:
        value = literal.magnitude
        if value in seen:
            continue
        seen.add(value)
        writing = [
            index
            for index in range(len(cited.texts))
            if any(abs(item.numeral.value) == value for item in (*cited.read[index], *cited.by_header[index]))
        ]
        involved.update(writing[:_NAMED])
        parts.append(f"{literal.shown} in {_names(cited, writing)}")
    if not involved & cited.rows or not involved - cited.rows:
        return None  # not the text against a table: no row, or rows alone
    more = f"; and {len(parts) - _LISTED} more" if len(parts) > _LISTED else ""
    return "; ".join(parts[:_LISTED]) + more


def _names(cited: CitedTexts, indexes: Sequence[int]) -> str:
    names = list(dict.fromkeys(cited.ids[index] for index in indexes))
    more = f" and {len(names) - _NAMED} more" if len(names) > _NAMED else ""
    return ", ".join(names[:_NAMED]) + more
