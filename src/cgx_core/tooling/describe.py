"""get_state's `describe`: the full schema of one check type's proposal, or of one tool's arguments and
result, read on demand, since tools/list carries only their lean copies (`cgx_core.tooling.listing`); and with
it every limit a call meets (issue 37: agents found 20 proposals a call, 20 cites and one check per node only
by being refused, or by losing a check).

A limit is stated where it is decided: the sizes from the schema itself (`maxItems`, `maxLength`), the rules of
checks from the engine's (one per node and place, append-only, split before checking), and the types a check
type targets from the run's rubric, which decides them."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from cgx_core.codes import Code
from cgx_core.errors import CgxError

Json = dict[str, Any]

CHECK_RULES: Final = {
    "per_node": (
        "one check of a type per node and place (a reported number, a relation of a chain, a cited entry): a "
        "second is check-duplicate, and the same observation on another target check-same-observation"
    ),
    "append_only": "a check is never withdrawn nor run again on its target",
    "split_first": (
        "split a chunk (classify) before proposing checks on it: a node a check targets is never classified "
        "again, and a split chunk is never split again"
    ),
    "types": "type each node by what it says, never to make a check apply: a check runs only on its targets",
}
"""What the engine holds every check to, whatever its type."""


def described(name: str, run: str | None = None) -> Json:
    """What `describe: name` returns: a check type's description, full proposal schema and limits (with the
    types it targets in the run's rubric), or a tool's full argument and result schemas and limits; any other
    name is refused, listing the names there are."""
    from cgx_core.checks.installed import installed_check_types
    from cgx_core.tooling.proposal_schemas import proposal_schema
    from cgx_core.tooling.registry import TOOLS

    registry = installed_check_types()
    installed = registry.get(name)
    if installed is not None:
        kind = installed.check_type
        entry: Json = {"name": kind.name, "tool": kind.tool, "description": kind.description}
        limits: Json = {}
        if kind.fallback_for is not None:
            entry["fallback_for"] = kind.fallback_for  # never proposed: it has no proposal schema
        else:
            entry["proposal"] = proposal_schema(kind)
            limits = {"per_call": _per_call(TOOLS[kind.tool].input_schema()), **field_limits(entry["proposal"])}
        entry["limits"] = {**limits, **CHECK_RULES, **_targets(name, run)}
        if kind.retry_after_error:
            entry["limits"]["after_error"] = "a check of this type that erred may be followed by another"
        return {"check_type": entry}
    tool = TOOLS.get(name)
    if tool is not None:
        arguments = tool.input_schema()
        return {
            "tool": {
                "name": tool.name,
                "description": tool.full_description(),
                "arguments": arguments,
                "result": tool.result,
                "limits": field_limits(arguments),
            }
        }
    names = sorted(item.check_type.name for item in registry)
    raise CgxError(
        Code.INVALID_ARGUMENTS,
        f"get_state: nothing to describe named '{name}'; describe a check type {names} or a tool {sorted(TOOLS)}",
    )


def field_limits(schema: Mapping[str, Any]) -> Json:
    """The bounds of each field of an object schema, in words: how many items a list takes, how long a text
    may be."""
    found: Json = {}
    for field, spec in schema.get("properties", {}).items():
        if not isinstance(spec, Mapping):
            continue
        said = []
        if "maxItems" in spec:
            said.append(f"at most {spec['maxItems']} items")
        if "maxLength" in spec:
            said.append(f"at most {spec['maxLength']} characters")
        if "maximum" in spec:
            said.append(f"at most {spec['maximum']}")
        if said:
            found[field] = ", ".join(said)
    return found


def _per_call(arguments: Mapping[str, Any]) -> str:
    """How many proposals one call of the proposing tool takes."""
    proposals = arguments.get("properties", {}).get("proposals", {})
    if "maxItems" in proposals:
        return f"at most {proposals['maxItems']} proposals a call"
    return "one proposal a call"


def _targets(name: str, run: str | None) -> Json:
    """The types the run's rubric lets check type `name` target (nothing when the run's rubric cannot be read:
    start_run's `checks` list them too)."""
    if run is None:
        return {}
    try:
        rubric = tomllib.loads((Path(run) / "rubric.toml").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    declared = rubric.get("checks", {}).get(name)
    if not isinstance(declared, Mapping):
        return {"targets": [], "targets_note": f"this run's rubric does not declare {name}: it runs on no node"}
    return {"targets": list(declared.get("targets", [])), "targets_note": "in this run's rubric"}
