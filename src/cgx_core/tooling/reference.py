"""docs/tools.md, generated from the registry so it cannot drift (`python -m cgx_core.tools.reference`).

The proposal schemas come from the check types this package ships (`credencegraph-extract` itself), so the
page is the same whichever plugins are installed where it is generated; `credencegraph-extract tools`
lists what is installed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from cgx_core.tooling.descriptions import RESULTS
from cgx_core.tooling.registry import TOOLS

SHIPPED = "credencegraph-extract"


def _type_of(schema: Mapping[str, Any]) -> str:
    if "anyOf" in schema.get("items", {}):
        return "array of records"
    if "$ref" in schema:
        return "see the check type's schema"
    kind = schema.get("type", "any")
    if kind == "array":
        return f"array of {schema.get('items', {}).get('type', 'any')}"
    if "enum" in schema:
        return " | ".join(json.dumps(value) for value in schema["enum"])
    return str(kind)


def _rows(schema: Mapping[str, Any]) -> list[str]:
    required = set(schema.get("required", ()))
    lines = ["| argument | type | required | meaning |", "| --- | --- | --- | --- |"]
    for name, spec in schema["properties"].items():
        meaning = str(spec.get("description", "")).replace("|", "\\|")
        lines.append(f"| `{name}` | {_type_of(spec)} | {'yes' if name in required else 'no'} | {meaning} |")
    return lines


@contextmanager
def _shipped_check_types() -> Iterator[None]:
    """Only the check types this package ships, whatever else is installed."""
    from cgx_core.checks.installed import CheckTypeRegistry, check_types_scope, installed_check_types

    shipped = CheckTypeRegistry()
    for item in installed_check_types():
        if item.distribution == SHIPPED:
            shipped.providing(item.distribution, item.version)
            shipped(item.check_type)
    with check_types_scope(shipped):
        yield


def _proposals(tool: str) -> list[str]:
    """Each shipped check type proposed through `tool`: its description and its fields."""
    from cgx_core.tooling.proposal_schemas import published

    lines: list[str] = []
    for item in published(tool):
        schema = item["proposal"]
        lines += ["", f"**Proposal of `{item['name']}`.** {schema['description']}", "", *_rows(schema)]
    return lines


HARNESS = (
    "**What a harness shows.** Every MCP result carries the tool's JSON twice, as the MCP specification asks of a "
    "tool that returns structured content: as `structuredContent` and as the same compact JSON in one text "
    "block, for clients that read only `content`. A harness shows its model one of the two (Claude Code the "
    "structured content, others the text), each at most 20,000 characters; the frame on the wire holds both. "
    'An error is such a result too (`isError`, and `{"error": {"code", "message"}}` in both), never a '
    "protocol error: arguments that are not an object included."
)


def _limits() -> list[str]:
    """Every limit a call meets, from the schemas and the engine's rules (get_state `describe` gives each)."""
    from cgx_core.tooling.describe import CHECK_RULES, field_limits
    from cgx_core.tooling.proposal_schemas import published

    lines = [
        "## Limits",
        "",
        "Every result is at most 20,000 characters. get_state lists every node from `start` to `start + limit`, "
        "those past that size without their text (`text_cut`), and `next` is where whole texts continue. get_state "
        "`describe` gives a tool's or a check type's limits with its full schema; `summary` gives start_run's "
        "summary again. Arguments: "
        + "; ".join(
            f"`{tool.name}` {name} {said}"
            for tool in TOOLS.values()
            for name, said in field_limits(tool.input_schema()).items()
            if name in ("records", "proposals", "nodes", "limit", "passage", "reason")
        )
        + ".",
        "",
        "Checks: "
        + "; ".join(CHECK_RULES.values())
        + ". Proposal fields: "
        + "; ".join(
            f"`{item['name']}` {name} {said}"
            for tool in ("run_checks", "judge_citation")
            for item in published(tool)
            for name, said in field_limits(item["proposal"]).items()
            if "items" in said
        )
        + ".",
        "",
        HARNESS,
        "",
    ]
    return lines


def tools_markdown() -> str:
    lines = [
        "# Tools",
        "",
        "Generated from the tool registry (`python -m cgx_core.tools.reference > docs/tools.md`); a test keeps the",
        "two equal. The same descriptions reach the agent through MCP (`tools/list`) and",
        "`credencegraph-extract tools`, with the argument schema of each (for the tools that propose checks, the",
        "JSON schema of each installed check type's proposal) and the schema of its result (MCP's `outputSchema`).",
        "Every code a tool answers with is in [errors.md](errors.md).",
        "",
    ]
    with _shipped_check_types():
        lines += _limits()
        for tool in TOOLS.values():
            schema = tool.input_schema()
            lines += [f"## {tool.name}", "", tool.description, "", *_rows(schema)]
            if "proposals" in schema["properties"]:  # judge_citation takes its type's fields as its arguments
                lines += _proposals(tool.name)
            lines += ["", f"**Result.** {RESULTS[tool.name]}", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(tools_markdown(), end="")
