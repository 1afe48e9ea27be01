"""Hostile inputs that once answered `internal-error` (issue 38): each now answers its own stable code through
start_run, with nothing written and no trace of the exception the parser raised."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import pytest

from cgx_core.tooling.registry import call_tool
from support import EXAMPLE, EXAMPLE_RUBRIC, make_pdf

MAIN = b"\\documentclass{article}\n\\begin{document}\nThe method is fast.\n\\end{document}\n"


def start(tmp_path: Path, paper: Path, rubric: Path = EXAMPLE_RUBRIC) -> dict[str, Any]:
    run = tmp_path / "run"
    payload, is_error = call_tool(
        "start_run", {"run": str(run), "paper": str(paper), "rubric": str(rubric), "model": "m"}
    )
    assert is_error, payload
    assert not run.exists()
    assert "Traceback" not in payload["error"]["message"] and str(tmp_path) not in payload["error"]["message"]
    error: dict[str, Any] = payload["error"]
    return error


def encrypted_zip(path: Path) -> Path:
    """A zip whose member carries the encryption flag (bit 0 of its general-purpose flags), in its local header
    and in the central directory, as an encrypting archiver writes it."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as packed:
        packed.writestr("main.tex", MAIN)
    data = bytearray(buffer.getvalue())
    local = data.find(b"PK\x03\x04")
    central = data.find(b"PK\x01\x02")
    data[local + 6] |= 1
    data[central + 8] |= 1
    path.write_bytes(bytes(data))
    with zipfile.ZipFile(path) as check:
        assert check.infolist()[0].flag_bits & 1
    return path


def test_a_zip_with_the_encryption_flag_is_archive_invalid(tmp_path: Path) -> None:
    error = start(tmp_path, encrypted_zip(tmp_path / "sources.zip"))
    assert error["code"] == "archive-invalid" and "encrypted member, 'main.tex'" in error["message"]


def test_a_pdf_page_tree_that_contains_itself_is_paper_invalid(tmp_path: Path) -> None:
    data = make_pdf([["Results", "We ran three trials."]])
    looped = data.replace(b"/Kids [4 0 R]", b"/Kids [2 0 R]")  # the page tree's only kid is the tree itself
    assert looped != data
    (tmp_path / "loop.pdf").write_bytes(looped)
    error = start(tmp_path, tmp_path / "loop.pdf")
    assert error["code"] == "paper-invalid" and "cannot be read as a PDF" in error["message"]


def nested(depth: int, kind: str) -> bytes:
    if kind == "arrays":
        return b"[" * depth + b"]" * depth
    return b"{a = " * depth + b"1" + b"}" * depth


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (nested(5_000, "arrays"), "nests arrays or tables too deeply"),
        (nested(50_000, "arrays"), "nests arrays or tables too deeply"),
        (nested(5_000, "tables"), "nests arrays or tables too deeply"),
        (nested(50_000, "tables"), "nests arrays or tables too deeply"),
        (b"1" * 5_000, "Exceeds the limit (4300 digits) for integer string conversion"),
    ],
    ids=["arrays-5000", "arrays-50000", "tables-5000", "tables-50000", "integer-5000-digits"],
)
def test_a_rubric_nested_past_the_parser_or_with_a_huge_integer_is_rubric_invalid(
    tmp_path: Path, value: bytes, said: str
) -> None:
    rubric = tmp_path / "hostile.toml"
    rubric.write_bytes(EXAMPLE_RUBRIC.read_bytes() + b"\n[extra]\nvalue = " + value + b"\n")
    error = start(tmp_path, EXAMPLE / "paper.tex", rubric)
    assert error["code"] == "rubric-invalid" and said in error["message"]
    assert "sys.set_int_max_str_digits" not in error["message"]  # no advice a user cannot act on


@pytest.mark.parametrize(
    "tolerance",
    ["-5", "nan", "1e400", "inf", "-inf", "0", '"-5%"', '"nan%"', "1" * 5_000, nested(5_000, "arrays").decode()],
)
def test_a_tolerance_that_is_no_fraction_between_0_and_1_is_tolerances_invalid(tmp_path: Path, tolerance: str) -> None:
    rubric = tmp_path / "paper.toml"
    rubric.write_bytes(EXAMPLE_RUBRIC.read_bytes())
    (tmp_path / "paper.tolerances.toml").write_text(
        f'[rubric]\nname = "example-paper"\nversion = "0.1-example"\n\n[hedges]\n"about" = {tolerance}\n',
        encoding="utf-8",
    )
    error = start(tmp_path, EXAMPLE / "paper.tex", rubric)
    assert error["code"] == "tolerances-invalid", error
