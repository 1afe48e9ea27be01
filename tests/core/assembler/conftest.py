"""Fixtures for the assembler's tests, built from `assembler_testkit` (this folder is put on sys.path,
as the project runs pytest with --import-mode=importlib; the module's name collides with no other folder's).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from credencegraph.core import Graph
from credencegraph.rubric import Rubric

sys.path.insert(0, str(Path(__file__).resolve().parent))

from assembler_testkit import PAPER, RUBRIC, ingest, rubric_from


@pytest.fixture(scope="session")
def rubric() -> Rubric:
    return rubric_from(RUBRIC)


@pytest.fixture(scope="session")
def tiny(tmp_path_factory: pytest.TempPathFactory, rubric: Rubric) -> Graph:
    """The tiny paper, ingested (graphs are immutable under the assembler, so one serves every test)."""
    return ingest(PAPER, tmp_path_factory.mktemp("tiny"), rubric)


@pytest.fixture(scope="session")
def ingest_tex(tmp_path_factory: pytest.TempPathFactory, rubric: Rubric) -> Callable[[str], Graph]:
    def run(tex: str) -> Graph:
        return ingest(tex, tmp_path_factory.mktemp("paper"), rubric)

    return run
