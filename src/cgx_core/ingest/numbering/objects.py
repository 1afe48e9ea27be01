"""What the numbering records: each numbered object of a paper, where it is, and the labels that name it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal

import attrs

Kind = Literal["section", "equation", "table", "figure", "theorem"]
FLOATS: Final[Mapping[str, Kind]] = {
    **dict.fromkeys(("table", "table*", "sidewaystable", "sidewaystable*", "wraptable", "SCtable"), "table"),
    **dict.fromkeys(("figure", "figure*", "sidewaysfigure", "sidewaysfigure*", "wrapfigure", "SCfigure"), "figure"),
}
"""The float environments and the kind each numbers (the numbering's and the tables' visitors both read them)."""
LONG_TABLES: Final = frozenset({"longtable", "longtable*", "xltabular", "longtblr"})
"""Tabulars that are their own float: they step the table counter where they begin and hold their caption."""
PANELS: Final = frozenset({"subfigure", "subtable"})
Key = tuple[int, ...]
"""A place in reading order: the lines of the `\\input` chain that reaches a file, then the line in it."""


@attrs.frozen
class Lines:
    """Lines `first`..`last` of a file (named as a chunk's locator names it: relative to the main file's folder)."""

    file: str
    first: int
    last: int

    def holds(self, file: str, line: int) -> bool:
        return file == self.file and self.first <= line <= self.last


@attrs.define(eq=False)
class Numbered:
    """One numbered object: a section, an equation, a float (table, figure) or a float's panel.

    `number` is what LaTeX prints for it (`3`, `A.1`, `3a`, the `\\tag`), or None when the paper numbers it
    in a way this reading cannot follow (then no check decides on its number). `anchor` is where its chunk
    starts: an equation's environment, a caption's `\\caption`. `extents` are the lines of its float or panel
    (and of the files `\\input` inside it), whose table rows belong to it. A panel has its float as `parent`
    and its letter's index as `panel`; a `subequations` member has its parent equation."""

    kind: Kind
    number: str | None
    anchor: Lines | None = None
    extents: list[Lines] = attrs.field(factory=list)
    labels: list[str] = attrs.field(factory=list)
    parent: Numbered | None = None
    panel: int = 0

    def to_json(self) -> dict[str, str | list[str] | None]:
        """As a chunk records it: kind, printed number (null when unknown) and every label that names it."""
        out: dict[str, str | list[str] | None] = {"kind": self.kind, "number": self.number}
        if self.labels:
            out["labels"] = list(dict.fromkeys(self.labels))
        return out


OPAQUE: Final = Numbered("section", None)
"""What a `\\label` names when it follows something this reading does not number (a theorem, an enumerated item,
an algorithm's caption): a reference to it is never decided."""


@attrs.define
class Numbering:
    """Every numbered object of a paper, the labels that name them, and where sections begin."""

    objects: list[Numbered] = attrs.field(factory=list)
    labels: dict[str, Numbered] = attrs.field(factory=dict)
    """Each label and what it names (`OPAQUE` when this reading does not number it)."""
    repeated: set[str] = attrs.field(factory=set)
    """Labels defined more than once: `labels` (and the objects' own labels) name the last definition only, the
    one LaTeX's `\\ref` prints (the aux file's last `\\newlabel` wins)."""
    headings: list[tuple[Key, tuple[Numbered, ...]]] = attrs.field(factory=list)
    """Where each heading starts (in reading order) and the numbered sections open from there on."""
    chains: dict[str, tuple[int, ...]] = attrs.field(factory=dict)
    """Each file read, and the lines of the `\\input` chain that first reaches it."""

    def captions(self) -> dict[tuple[str, int], str | None]:
        """The number printed for each float's or panel's caption, by the file and line it starts on: what a
        table's rows are titled with ("Table A1")."""
        return {
            (item.anchor.file, item.anchor.first): item.number
            for item in self.objects
            if item.kind in ("table", "figure") and item.anchor is not None
        }
