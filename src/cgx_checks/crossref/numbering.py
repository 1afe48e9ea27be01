"""The paper's numbering as a check reads it: what start_run recorded on the chunks (`attributes.numbered`,
`attributes.refs`; see cgx_core.ingest.numbering, the authority on it).

An object is known by its kind, printed number and labels; two objects with the same three would be one."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from cgx_core.plugin_api import NodeView, RunView

KIND_NAMES: Final = {
    "section": "Section",
    "equation": "Equation",
    "table": "Table",
    "figure": "Figure",
    "theorem": "Theorem",
}
_CLAUSE: Final = re.compile(r"^(?P<parent>.+?\d)[a-z]+$")


@attrs.frozen
class Numbered:
    kind: str
    number: str | None
    labels: tuple[str, ...]

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Numbered:
        number = raw.get("number")
        return cls(str(raw.get("kind")), None if number is None else str(number), tuple(raw.get("labels") or ()))

    def named(self) -> str:
        printed = self.number if self.number is not None else "(number unknown)"
        labels = f" ({', '.join(self.labels)})" if self.labels else ""
        return f"{KIND_NAMES.get(self.kind, self.kind)} {printed}{labels}"

    def contains(self, other: Numbered) -> bool:
        """Whether `other` is part of this object: subsection 3.2 of section 3, panel 2a of figure 2."""
        if other.kind != self.kind or self.kind == "theorem" or self.number is None or other.number is None:
            return False
        if other == self:
            return False
        rest = other.number[len(self.number) :] if other.number.startswith(self.number) else ""
        return rest.startswith(".") or (rest.isalpha() and rest.islower())


def chunk_of(run: RunView, node_id: str) -> NodeView | None:
    """A document chunk, or the chunk a clause was split from (`s-12a` of `s-12`): a clause keeps no records."""
    node = run.node(node_id)
    if node is None or node.attributes.get("origin") != "document":
        return None
    if "numbered" in node.attributes or "refs" in node.attributes:
        return node
    match = _CLAUSE.match(node_id)
    parent = run.node(match["parent"]) if match is not None else None
    return parent if parent is not None and parent.attributes.get("origin") == "document" else node


def _items(node: NodeView, name: str) -> list[Mapping[str, Any]]:
    """A recorded list of objects (the graph holds JSON frozen: a list may come back as a tuple)."""
    raw = node.attributes.get(name)
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        return []
    return [item for item in raw if isinstance(item, Mapping)]


def owners(node: NodeView) -> list[Numbered]:
    return [Numbered.from_json(item) for item in _items(node, "numbered")]


def written(node: NodeView) -> list[Mapping[str, Any]]:
    return _items(node, "refs")


def every_object(run: RunView) -> list[Numbered]:
    """Every numbered object some chunk belongs to, in the order the chunks first name them."""
    found: dict[Numbered, None] = {}
    for node in run.nodes():
        for owner in owners(node):
            found.setdefault(owner)
    return list(found)


def comparable(text: str) -> str:
    """A reference as written, for comparison: `~`, thin spaces, brackets, a word's dot and case do not matter."""
    spaced = re.sub(r"~|\\[,; ]|\\nobreakspace\{\}|[()]", " ", text)
    spaced = re.sub(r"(?<=[A-Za-z])\.(?=\s|\d)", " ", spaced)
    return " ".join(spaced.split()).casefold()


def listed(items: Sequence[str], limit: int = 30) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f", ... ({len(items) - limit} more)" if len(items) > limit else "")
