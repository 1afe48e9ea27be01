"""The run as a check sees it: nodes by id, cited copies, and what a live check read (for replay)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cgx_core.base.digests import bytes_digest, hex_of
from cgx_core.checks.api import Mode, NodeView
from cgx_core.ingest.offline_sources import OfflineSource
from cgx_core.numbers.tolerances import Tolerances

if TYPE_CHECKING:
    from credencegraph.core import Graph, Node


def node_view(node: Node) -> NodeView:
    return NodeView(node.id, node.kind, node.attributes.get("unit"), node.statement, node.attributes)


def cited_entries(relations: Sequence[tuple[str, str, str]], node_id: str) -> list[str]:
    """The reference nodes a node cites, through its own `cites` relations or its compound parent's, in the
    order of the relations (`relations`: each one's type, source and target)."""
    parents = {node_id} | {target for kind, source, target in relations if kind == "part-of" and source == node_id}
    return list(dict.fromkeys(target for kind, source, target in relations if kind == "cites" and source in parents))


class GraphRunView:
    """A RunView over a graph and the run directory's files (or none, for verify)."""

    def __init__(
        self,
        graph: Graph,
        mode: Mode,
        *,
        root: Path | None = None,
        cited_digests: dict[str, str] | None = None,
        recorded: Any = None,
        sources: Callable[[str], bytes | None] | None = None,
        offline: Sequence[Mapping[str, str]] = (),
        tolerances: Callable[[], Tolerances] | None = None,
    ) -> None:
        self._graph = graph
        self._tolerances = tolerances
        self._mode: Mode = mode
        self._root = root
        self._cited = cited_digests or {}
        self._recorded = recorded
        self._sources = sources
        self._offline = {item["url"]: item for item in offline}

    @property
    def mode(self) -> Mode:
        return self._mode

    def node(self, node_id: str) -> NodeView | None:
        node = self._graph.nodes.get(node_id)
        return None if node is None else node_view(node)

    def nodes(self) -> Sequence[NodeView]:
        return [node_view(node) for node in self._graph]

    def cited_entries(self, node_id: str) -> Sequence[str]:
        relations = self._graph.relations.values()
        return cited_entries([(item.type, item.source, item.target) for item in relations], node_id)

    def cited_copy(self, name: str) -> bytes | None:
        if self._root is None or "/" in name or name.startswith(".") or name not in self._cited:
            return None
        try:
            return (self._root / "cited" / name).read_bytes()
        except OSError:
            return None

    def cited_digest(self, name: str) -> str | None:
        return self._cited.get(name)

    def recorded_read(self) -> Any:
        return self._recorded

    def source_bytes(self, digest: str) -> bytes | None:
        return None if self._sources is None else self._sources(digest)

    def offline_source(self, url: str) -> OfflineSource | None:
        item = self._offline.get(url)
        if item is None or self._root is None:
            return None
        try:
            data = (self._root / "sources" / hex_of(item["digest"])).read_bytes()
        except OSError:
            return None
        if bytes_digest(data) != item["digest"]:
            return None  # the run's copy changed: it is no longer the source start_run was given
        return OfflineSource(url, item["content_type"], data)

    def hedge_tolerances(self) -> Mapping[str, Fraction]:
        return {} if self._tolerances is None else self._tolerances().hedges

    def count_units(self) -> Mapping[str, str]:
        return {} if self._tolerances is None else self._tolerances().counts

    def _copy(self, graph: Graph) -> GraphRunView:
        view = copy.copy(self)
        view._graph = graph
        return view

    def with_recorded(self, recorded: Any) -> GraphRunView:
        """The same view for one check, with what that check read when it ran live."""
        view = self._copy(self._graph)
        view._recorded = recorded
        return view

    def with_graph(self, graph: Graph) -> GraphRunView:
        return self._copy(graph)


class JsonRunView(GraphRunView):
    """A RunView over a graph as JSON (graph.json read with `json.loads`), for verify: building a
    credencegraph Graph validates every node and relation, which verify does not need to re-run a check."""

    def __init__(
        self,
        graph: Mapping[str, Any],
        mode: Mode,
        *,
        root: Path | None = None,
        cited_digests: dict[str, str] | None = None,
        sources: Callable[[str], bytes | None] | None = None,
        tolerances: Callable[[], Tolerances] | None = None,
    ) -> None:
        super().__init__(None, mode, root=root, cited_digests=cited_digests, sources=sources, tolerances=tolerances)
        self._by_id = {node["id"]: node for node in graph["nodes"]}
        self._json_relations = graph["relations"]

    def node(self, node_id: str) -> NodeView | None:
        node = self._by_id.get(node_id)
        if node is None:
            return None
        return NodeView(node["id"], node["kind"], node["attributes"].get("unit"), node["statement"], node["attributes"])

    def nodes(self) -> Sequence[NodeView]:
        return [view for node_id in self._by_id if (view := self.node(node_id)) is not None]

    def cited_entries(self, node_id: str) -> Sequence[str]:
        relations = self._json_relations
        return cited_entries([(item["type"], item["source"], item["target"]) for item in relations], node_id)
