"""The code stays as clean as the project promises: ruff and mypy --strict pass on every source file.

Run as part of the suite so that CI, which runs exactly the README's test command, enforces them too.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support import ROOT

BIN = Path(sys.executable).parent


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_finds_nothing() -> None:
    done = run(str(BIN / "ruff"), "check", "src", "tests", "examples", "benchmarks")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_code_is_formatted() -> None:
    done = run(str(BIN / "ruff"), "format", "--check", "src", "tests", "examples", "benchmarks")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_finds_nothing() -> None:
    done = run(str(BIN / "mypy"))
    assert done.returncode == 0, done.stdout + done.stderr
