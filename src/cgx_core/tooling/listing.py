"""What MCP's tools/list publishes of each tool: a lean copy of its schemas, so the listing an agent loads
into every session stays small (at most `LISTING_BUDGET` characters with every check type installed).

The schemas the registry checks arguments against are unchanged; the listing keeps of them what a client
needs to form a valid call and leaves the rest to be read on demand:
- arguments: every field an agent may send, its type, enum, required-ness and item counts, and the
  description of each top-level argument; a nested field's description, examples, pattern and length
  bounds (which a refusal names anyway) are left out. The full schema of a check
  type's proposal is what get_state's `describe` returns (and start_run lists for the declared types).
- result: the keys a result always has, or an error's (the nesting below is left open). The full result
  schema is what `describe` returns for a tool.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

LISTING_BUDGET: Final = 20_000
"""The most characters tools/list may take as JSON, every installed check type included (tests hold it)."""

_LEFT_OUT: Final = frozenset({"description", "examples", "minLength", "maxLength", "pattern", "title"})
_COMBINATORS: Final = ("anyOf", "oneOf", "allOf")
_VALUES: Final = ("enum", "const", "default")
"""Keywords whose values are JSON data, not schemas: copied as they are."""


def lean_arguments(schema: Mapping[str, Any]) -> dict[str, Any]:
    """`schema` with top-level descriptions kept and every nested description, example, pattern and length
    bound left out (a combinator's branches keep their title: the check type a proposal's branch is for,
    which the tool's description lists by name)."""
    lean: dict[str, Any] = _lean(schema, keep_title=False)
    properties = schema.get("properties", {})
    lean["properties"] = {
        name: _with_description(_lean(field, keep_title=False), field) for name, field in properties.items()
    }
    return lean


def lean_result(schema: Mapping[str, Any]) -> dict[str, Any]:
    """`schema` as the keys a result (or an error) always has: the tool's description says what they hold,
    and the nesting below is left open."""
    return {key: value for key, value in schema.items() if key in ("type", "anyOf")}


def _with_description(lean: dict[str, Any], field: Mapping[str, Any]) -> dict[str, Any]:
    if "description" in field:
        lean["description"] = field["description"]
    return lean


def _lean(value: Any, *, keep_title: bool) -> Any:
    if isinstance(value, list):
        return [_lean(item, keep_title=False) for item in value]
    if not isinstance(value, Mapping):
        return value
    lean: dict[str, Any] = {}
    for key, item in value.items():
        if key in _LEFT_OUT and not (keep_title and key == "title"):
            continue
        if key in _VALUES:
            lean[key] = item
        elif key in _COMBINATORS and isinstance(item, list):
            lean[key] = [_lean(branch, keep_title=True) for branch in item]
        elif key in ("properties", "$defs", "definitions") and isinstance(item, Mapping):
            lean[key] = {name: _lean(field, keep_title=False) for name, field in item.items()}
        else:
            lean[key] = _lean(item, keep_title=False)
    return lean
