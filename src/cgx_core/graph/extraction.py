"""Which run and which tool made or last changed a node or a relation: `attributes.extraction`, written here
and nowhere else (start_run, the assembler, the check engine and finish_run's verdicts all stamp through it).

Every node a call creates or changes carries `{"run": <run id>, "tool": <tool>}`. The relations the
assembler creates carry it too: that is how classifying a node again finds the relations an earlier
classify made into it (and drops them) while keeping the ones add_premises made.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # get_state reads stamps from JSON without importing credencegraph
    from credencegraph.core import Node, Relation

CLASSIFY: Final = "classify"
ADD_PREMISES: Final = "add_premises"
KEY: Final = "extraction"


def stamp(run_id: str, tool: str) -> dict[str, str]:
    """The value of `attributes.extraction` for a call of `tool` in run `run_id`."""
    return {"run": run_id, "tool": tool}


def plain_attributes(attributes: Mapping[str, Any], **changes: Any) -> dict[str, Any]:
    """A node's or relation's attributes as plain JSON, with keys set, or removed where the value is None."""
    from credencegraph.core.attributes import copy_json

    plain: dict[str, Any] = copy_json(attributes, "attributes")
    for key, value in changes.items():
        if value is None:
            plain.pop(key, None)
        else:
            plain[key] = value
    return plain


def stamped_node(node: Node, run_id: str, tool: str, **changes: Any) -> Node:
    """The node with `changes` applied (dataclass fields) and this call's extraction stamp."""
    attributes = plain_attributes(node.attributes, **{KEY: stamp(run_id, tool)})
    return replace(node, attributes=attributes, **changes)


def stamped_relation(relation: Relation, run_id: str, tool: str) -> Relation:
    """The relation with this call's extraction stamp."""
    return replace(relation, attributes=plain_attributes(relation.attributes, **{KEY: stamp(run_id, tool)}))


def tool_of(attributes: Mapping[str, Any]) -> str | None:
    """The tool named by the stamp in a node's or relation's attributes (credencegraph's, or as JSON), if any."""
    extraction = attributes.get(KEY)
    tool = extraction.get("tool") if isinstance(extraction, Mapping) else None
    return tool if isinstance(tool, str) else None


def made_by(relation: Relation, tool: str) -> bool:
    """Whether the relation's stamp names `tool`."""
    return tool_of(relation.attributes) == tool
