"""docs/tools.md, generated from the registry so it cannot drift (`python -m cgx_core.tools.reference`)."""

from __future__ import annotations

import json
from typing import Any

from cgx_core.tools.descriptions import RESULTS
from cgx_core.tools.registry import TOOLS


def _type_of(schema: dict[str, Any]) -> str:
    if "anyOf" in schema.get("items", {}):
        return "array of records"
    kind = schema.get("type", "any")
    if kind == "array":
        return f"array of {schema.get('items', {}).get('type', 'any')}"
    if "enum" in schema:
        return " | ".join(json.dumps(value) for value in schema["enum"])
    return str(kind)


def tools_markdown() -> str:
    lines = [
        "# Tools",
        "",
        "Generated from the tool registry (`python -m cgx_core.tools.reference > docs/tools.md`); a test keeps the",
        "two equal. The same descriptions reach the agent through MCP (`tools/list`) and",
        "`credencegraph-extract tools`.",
        "Every code a tool answers with is in [errors.md](errors.md).",
        "",
    ]
    for tool in TOOLS.values():
        schema = tool.arguments
        required = set(schema["required"])
        lines += [
            f"## {tool.name}",
            "",
            tool.description,
            "",
            "| argument | type | required | meaning |",
            "| --- | --- | --- | --- |",
        ]
        for name, spec in schema["properties"].items():
            meaning = str(spec.get("description", "")).replace("|", "\\|")
            lines.append(f"| `{name}` | {_type_of(spec)} | {'yes' if name in required else 'no'} | {meaning} |")
        lines += ["", f"**Result.** {RESULTS[tool.name]}", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(tools_markdown(), end="")
