"""The published JSON schema of each installed check type's proposals, generated from the plugins.

A check type declares `proposal_schema`, the schema of its own fields (besides `type` and `target`).
What an agent reads is one self-contained schema per type: `type` fixed to the type's name, `target`,
and the type's fields, with the type's description. `run_checks` publishes every such schema of the types
it proposes as the branches of its `proposals.items`, `judge_citation` takes the fields of the types it
proposes as its own arguments, and `tools`, `tools/list` and start_run list them: nothing about a
proposal is written by hand outside its plugin.

Portability: the branches are joined by `anyOf`, and `type` is a one-value `enum` rather than `const`.
The `enum` makes the branches disjoint, so `anyOf` accepts exactly what `oneOf` would, and both spellings
are read by strict clients that take only a subset of JSON Schema (OpenAI's strict mode, for example,
takes `anyOf` but not `oneOf`, and Gemini's dialect has no `const`). A type's own `$defs` are hoisted to
the root of the tool's schema under a name prefixed with the type, so its local `$ref`s still resolve.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cgx_core.checks.api import CheckType

TARGET: dict[str, Any] = {
    "type": "string",
    "minLength": 1,
    "maxLength": 100,
    "description": "The node the check is about: a node of a type the rubric's declaration of this check targets.",
}
_DEFINITIONS = ("$defs", "definitions")


def proposable(tool: str) -> list[CheckType]:
    """The installed check types an agent proposes through `tool` (a fallback runs by itself), by name."""
    from cgx_core.checks.installed import installed_check_types

    return [
        item.check_type
        for item in installed_check_types()
        if item.check_type.tool == tool and item.check_type.fallback_for is None
    ]


def own_schema(check_type: CheckType) -> dict[str, Any]:
    """A deep copy of the type's `proposal_schema` as an object schema (a plugin's mapping is never changed)."""
    declared: dict[str, Any] = copy.deepcopy(dict(check_type.proposal_schema))
    return {"type": "object", **declared}


def proposal_schema(check_type: CheckType) -> dict[str, Any]:
    """The complete, self-contained schema of one proposal of `check_type`."""
    own = own_schema(check_type)
    properties = {
        "type": {"type": "string", "enum": [check_type.name], "description": "The check type."},
        "target": TARGET,
        **own.pop("properties", {}),
    }
    required = ["type", "target", *[name for name in own.pop("required", []) if name not in ("type", "target")]]
    closed = own.pop("additionalProperties", False)
    own.pop("type")
    return {
        "title": check_type.name,
        "description": check_type.description,
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": closed,
        **own,
    }


def _renamed_refs(value: Any, renames: Mapping[str, str]) -> Any:
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key == "$ref" and isinstance(item, str) and item in renames:
                out[key] = renames[item]
            else:
                out[key] = _renamed_refs(item, renames)
        return out
    if isinstance(value, list):
        return [_renamed_refs(item, renames) for item in value]
    return value


def hoisted(schema: Mapping[str, Any], prefix: str, into: dict[str, Any]) -> dict[str, Any]:
    """`schema` without its own `$defs`/`definitions`, which move into `into` under `<prefix>.<name>`,
    every local `$ref` to them rewritten: for embedding a type's schema inside a tool's schema."""
    body = dict(schema)
    renames: dict[str, str] = {}
    for keyword in _DEFINITIONS:
        for name, definition in (body.pop(keyword, None) or {}).items():
            new_name = f"{prefix}.{name}"
            renames[f"#/{keyword}/{name}"] = f"#/$defs/{new_name}"
            into[new_name] = definition
    if not renames:
        return body
    for name in [name for name in into if name.startswith(f"{prefix}.")]:
        into[name] = _renamed_refs(into[name], renames)
    renamed: dict[str, Any] = _renamed_refs(body, renames)
    return renamed


def proposals_items(check_types: Iterable[CheckType], definitions: dict[str, Any]) -> dict[str, Any]:
    """The schema of one item of run_checks' `proposals`: one branch per proposable type."""
    branches = [hoisted(proposal_schema(kind), kind.name, definitions) for kind in check_types]
    if not branches:
        return {"type": "object", "description": "No installed plugin provides a check type proposed here."}
    return {"anyOf": branches}


def with_proposals(arguments: Mapping[str, Any], tool: str) -> dict[str, Any]:
    """run_checks' argument schema with `proposals.items` generated from the installed check types."""
    schema = copy.deepcopy(dict(arguments))
    definitions: dict[str, Any] = {}
    proposals = schema["properties"]["proposals"]
    proposals["items"] = proposals_items(proposable(tool), definitions)
    if definitions:
        schema["$defs"] = definitions
    return schema


def with_judgement_fields(arguments: Mapping[str, Any], tool: str, notes: Mapping[str, str]) -> dict[str, Any]:
    """judge_citation's argument schema: its own arguments plus the fields of the types it proposes.

    A client reads a flat object best (several clients refuse `anyOf` at the top of an input schema), so
    the fields of every type are merged: a field is required when every type proposed here requires it,
    and a `type` argument chooses among several. A field a type leaves undescribed keeps the
    tool's own note on it (`notes`)."""
    schema = copy.deepcopy(dict(arguments))
    kinds = proposable(tool)
    properties: dict[str, Any] = schema["properties"]
    caller: dict[str, Any] = {name: properties.pop(name) for name in ("model", "agent", "note") if name in properties}
    definitions: dict[str, Any] = {}
    required_by_all: list[str] | None = None
    for kind in kinds:
        own = hoisted(own_schema(kind), kind.name, definitions)
        for name, field in own.get("properties", {}).items():
            if name in properties:
                continue
            field = dict(field)
            if "description" not in field and name in notes:
                field["description"] = notes[name]
            properties[name] = field
        required = list(own.get("required", ()))
        kept = required_by_all if required_by_all is not None else required
        required_by_all = [name for name in kept if name in required]
    if len(kinds) > 1:
        properties["type"] = {
            "type": "string",
            "enum": [kind.name for kind in kinds],
            "description": "Optional: the check type (default: the one the run's rubric declares).",
        }
    properties.update(caller)
    schema["required"] = [
        *[name for name in schema["required"] if name != "model"],
        *[name for name in required_by_all or () if name not in schema["required"]],
        "model",
    ]
    if definitions:
        schema["$defs"] = definitions
    return schema


def published(tool: str) -> list[dict[str, Any]]:
    """Each type proposed through `tool`, with its complete proposal schema: what `tools` and start_run list."""
    return [{"name": kind.name, "proposal": proposal_schema(kind)} for kind in proposable(tool)]
