"""A file of the paper as the table reader parsed it, and spans of its source.

Every position the table reader keeps is a span of one parsed file, so a row's locator and a cell's text
come from the bytes the run recorded, never from a path of the reader's own.
"""

from __future__ import annotations

from typing import Any

import attrs

from cgx_core.ingest.latex_walk import Text


@attrs.define(eq=False)
class Source(Text):
    """One file as the walk reads it, with the nodes of pylatexenc's parse of its text as written (`raw`)."""

    nodes: list[Any] = attrs.field(factory=list, repr=False)


@attrs.frozen(eq=False)
class Span:
    """`source.raw[start:end]`; `node` is the parsed node when the span is exactly one node."""

    source: Source
    start: int
    end: int
    node: Any = None

    @property
    def text(self) -> str:
        return self.source.raw[self.start : self.end]

    @property
    def blank(self) -> bool:
        return not self.text.strip()


def node_arguments(node: Any) -> list[Any]:
    """A parsed macro's or environment's arguments (none for any other node)."""
    parsed = getattr(node, "nodeargd", None)
    return list(parsed.argnlist) if parsed is not None and parsed.argnlist is not None else []


def node_span(source: Source, node: Any) -> Span:
    return Span(source, int(node.pos), int(node.pos) + int(node.len), node)


def inner_span(source: Source, group: Any) -> list[Span]:
    """The content of a macro argument: the spans of a group's nodes (without its braces), or the node itself."""
    if group is None:
        return []
    nodes = getattr(group, "nodelist", None)
    if nodes is None:
        return [node_span(source, group)]
    return [node_span(source, node) for node in nodes if node is not None]
