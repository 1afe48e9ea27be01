"""A file of the paper as the table reader parsed it, and spans of its source.

Every position the table reader keeps is a span of one parsed file, so a row's locator and a cell's text
come from the bytes the run recorded, never from a path of the reader's own.
"""

from __future__ import annotations

from typing import Any

import attrs

from cgx_core.ingest.latex_text import visible


@attrs.frozen(eq=False)
class Source:
    """One parsed file: its name in the document's file list, the name a locator gives it, its nodes."""

    name: str
    located: str
    """The file as credencegraph's locators name it: relative to the main file's directory."""
    text: str = attrs.field(repr=False)
    walker: Any = attrs.field(repr=False)
    nodes: list[Any] = attrs.field(repr=False)

    def lines(self, start: int, end: int) -> tuple[int, int]:
        """The first and last line of `text[start:end]`, from its first to its last visible character."""
        first, last = (self.walker.pos_to_lineno_colno(position)[0] for position in visible(self.text, start, end))
        return int(first), int(last)

    def locator(self, start: int, end: int) -> str:
        first, last = self.lines(start, end)
        return f"file={self.located};lines={first}-{last}"


@attrs.frozen(eq=False)
class Span:
    """`source.text[start:end]`; `node` is the parsed node when the span is exactly one node."""

    source: Source
    start: int
    end: int
    node: Any = None

    @property
    def text(self) -> str:
        return self.source.text[self.start : self.end]

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
