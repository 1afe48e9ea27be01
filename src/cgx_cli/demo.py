"""`credencegraph-extract demo [DIR]`: the bundled example, run through the same tool layer an agent uses.

It starts a run on the example paper (with its rubric, bibliography and cited copies) and prints a
summary a person can read. The example lives in `examples/end-to-end/` of a checkout, and is shipped
inside the wheel as `cgx_cli/example/`.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from cgx_cli.exit_codes import ExitCode
from cgx_core.tools.registry import call_tool

MODEL = "credencegraph-extract-demo"


def example_root() -> Path:
    """The example's folder: shipped in the wheel, or in the checkout this package runs from."""
    shipped = Path(__file__).with_name("example")
    if shipped.is_dir():
        return shipped
    return Path(__file__).resolve().parents[2] / "examples" / "end-to-end"


def _summary(run: Path, result: dict[str, Any]) -> str:
    units = Counter(chunk["unit"] for chunk in result["chunks"])
    bibliography = result["bibliography"]
    lines = [
        f"Run {result['run']} in {run}",
        f"  paper: {', '.join(item['name'] for item in result['document']['files'])} ({result['document']['format']})",
        f"  rubric: {result['rubric']['name']} {result['rubric']['version']}",
        "  chunks: " + ", ".join(f"{count} {unit}s" for unit, count in sorted(units.items())),
        f"  references: {len(result['references'])} "
        f"({len(bibliography['from_bib'])} from the .bib, {len(bibliography['from_bbl'])} from a .bbl, "
        f"{len(bibliography['unresolved'])} unresolved)",
        f"  cited copies: {', '.join(item['name'] for item in result['cited']) or 'none'}",
        "  types the agent may give: " + ", ".join(item["name"] for item in result["types"]),
        "  check types: "
        + ", ".join(
            f"{item['name']} ({'installed' if item['installed'] else 'not installed'})" for item in result["checks"]
        ),
        "",
        "Chunks to classify next:",
    ]
    token = result["fence"]["token"]
    for chunk in result["chunks"][:8]:
        text = chunk["text"].removeprefix(f"<data-{token}>").removesuffix(f"</data-{token}>")
        lines.append(f"  {chunk['id']:5} {chunk['unit']:9} {text[:90]}")
    if len(result["chunks"]) > 8:
        lines.append(f"  ... and {len(result['chunks']) - 8} more (get_state pages through them)")
    return "\n".join(lines)


def demo(directory: str | None) -> int:
    """Start a run on the example in DIR (a new temporary directory by default) and print its summary."""
    root = example_root()
    parent = Path(directory) if directory else Path(tempfile.mkdtemp(prefix="cgx-demo-"))
    run = parent / "run"
    arguments = {
        "run": str(run),
        "paper": str(root / "paper" / "paper.tex"),
        "rubric": str(root / "rubric.toml"),
        "cited": str(root / "paper" / "cited"),
        "model": MODEL,
    }
    result, is_error = call_tool("start_run", arguments)
    if is_error:
        error = result["error"]
        sys.stderr.write(f"error [{error['code']}]: {error['message']}\n")
        return ExitCode.ERROR
    sys.stdout.write(_summary(run, result) + "\n")
    return ExitCode.OK
