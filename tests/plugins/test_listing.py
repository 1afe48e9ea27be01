"""`credencegraph-extract plugins [--rubric R]`: the installed check types as JSON, and which a rubric declares."""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from cgx_cli.main import main
from cgx_core.testing import RUBRIC
from support import EXAMPLE_RUBRIC

PERCENT_OF = """
[checks.percent-of]
description = "Recompute a stated percentage."
targets = ["result"]
sensitivity = 0.9
false_pass = 0.1
models = []

[checks.units-consistency]
description = "Check that the units of a result agree."
targets = ["result"]
sensitivity = 0.9
false_pass = 0.1
models = []
"""


def listing(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = main(["plugins", *argv])
    out, err = capsys.readouterr()
    return status, json.loads(out) if out else None, err


def test_the_listing_names_each_check_type_with_its_distribution_version_and_tool(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, found, err = listing(capsys)
    assert (status, err) == (0, "")
    assert set(found) == {"check_types"}
    types = {item["name"]: item for item in found["check_types"]}
    assert [item["name"] for item in found["check_types"]] == sorted(types)
    assert types["percent-of"] == {
        "name": "percent-of",
        "distribution": "cgx-percent-of",
        "version": metadata.version("cgx-percent-of"),
        "tool": "run_checks",
        "fallback_for": None,
        "declared": None,
    }
    assert types["recompute-numbers"]["distribution"] == "credencegraph-extract"
    assert types["recompute-numbers"]["version"] == metadata.version("credencegraph-extract")
    assert types["citation-support"]["tool"] == "judge_citation"


def test_with_a_rubric_it_says_which_types_the_rubric_declares_and_which_none_provides(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(RUBRIC + PERCENT_OF, encoding="utf-8")
    status, found, _ = listing(capsys, "--rubric", str(rubric))
    assert status == 0
    declared = {item["name"]: item["declared"] for item in found["check_types"]}
    assert declared["percent-of"] is True
    assert declared["recompute-numbers"] is False
    assert found["not_installed"] == ["units-consistency"]


def test_the_example_rubric_declares_the_built_ins_but_not_the_example_plugin(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, found, _ = listing(capsys, "--rubric", str(EXAMPLE_RUBRIC))
    assert status == 0
    declared = {item["name"]: item["declared"] for item in found["check_types"]}
    assert declared["recompute-numbers"] is True
    assert declared["percent-of"] is False
    assert "percent-of" not in found["not_installed"]


@pytest.mark.parametrize(
    ("content", "code"),
    [
        ("[rubric\nformat = 2", "rubric-invalid"),
        (RUBRIC.replace("format = 2", "format = 3"), "rubric-invalid"),
        (RUBRIC.replace('relation = "requires"\nstrength = "beta:9,1"', 'relation = "supports"\nstrength = 0.9'), None),
        (None, "rubric-not-found"),
    ],
    ids=["not toml", "unknown format", "supports rule", "missing"],
)
def test_a_bad_rubric_is_one_error_line_and_status_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str | None, code: str | None
) -> None:
    rubric = tmp_path / "bad.toml"
    if content is not None:
        rubric.write_bytes(content.encode("utf-8"))
    status, found, err = listing(capsys, "--rubric", str(rubric))
    assert (status, found) == (2, None)
    [line] = err.splitlines()
    assert line.startswith(f"error [{code or 'rubric-supports'}]: ")
    assert "bad.toml" in line
    assert str(tmp_path) not in line  # the file is named, never its local path
