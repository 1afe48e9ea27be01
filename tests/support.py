"""Paths and helpers the tests share (importable because pyproject puts tests/ on pytest's pythonpath)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
EXAMPLE = ROOT / "examples" / "end-to-end" / "paper"
EXAMPLE_RUBRIC = ROOT / "examples" / "rubrics" / "example-paper.toml"


def tree(root: Path) -> dict[str, bytes]:
    """Every file under `root` by relative path, with its bytes."""
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}
