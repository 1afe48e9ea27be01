"""Fixtures shared by the whole suite. The plugin-author fixtures come from cgx_core.testing."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import SHARED

pytest_plugins = ["cgx_core.testing"]


@pytest.fixture
def papers() -> Path:
    """The real papers in ../shared/papers (skipped, with the reason, when the folder is absent)."""
    folder = SHARED / "papers"
    if not folder.is_dir():
        pytest.skip("../shared/papers is absent: the real-paper tests need the shared folder beside the repo")
    return folder
