"""get_state's `describe`: the full schema of one check type's proposal, or of one tool's arguments and
result, read on demand, since tools/list carries only their lean copies (`cgx_core.tooling.listing`)."""

from __future__ import annotations

from typing import Any

from cgx_core.codes import Code
from cgx_core.errors import CgxError

Json = dict[str, Any]


def described(name: str) -> Json:
    """What `describe: name` returns: a check type's description and full proposal schema, or a tool's full
    argument and result schemas; any other name is refused, listing the names there are."""
    from cgx_core.checks.installed import installed_check_types
    from cgx_core.tooling.proposal_schemas import proposal_schema
    from cgx_core.tooling.registry import TOOLS

    registry = installed_check_types()
    installed = registry.get(name)
    if installed is not None:
        kind = installed.check_type
        entry: Json = {"name": kind.name, "tool": kind.tool, "description": kind.description}
        if kind.fallback_for is not None:
            entry["fallback_for"] = kind.fallback_for  # never proposed: it has no proposal schema
        else:
            entry["proposal"] = proposal_schema(kind)
        return {"check_type": entry}
    tool = TOOLS.get(name)
    if tool is not None:
        return {
            "tool": {
                "name": tool.name,
                "description": tool.full_description(),
                "arguments": tool.input_schema(),
                "result": tool.result,
            }
        }
    names = sorted(item.check_type.name for item in registry)
    raise CgxError(
        Code.INVALID_ARGUMENTS,
        f"get_state: nothing to describe named '{name}'; describe a check type {names} or a tool {sorted(TOOLS)}",
    )
